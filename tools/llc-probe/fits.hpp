#pragma once
// llc-probe's per-model parameter fits: the CCM's piecewise-linear T_f and T_g, Hockney's α and β, LogGP's L, o, g, G,
// BSP's g and l per p, and C³'s set-up, per-packet time and packet size, all from medians of measured repetitions.

#include <span>
#include <string>
#include <vector>

#include <llc/cost/piecewise.hpp>
#include <llc/cost/profile.hpp>

namespace llc::probe {

/// A line intercept + slope·x.
struct Line {
    double intercept = 0.0;
    double slope = 0.0;
};

/// Least squares on relative residuals (weights 1/y²) of y ≈ intercept + slope·x with intercept, slope ≥ 0 (the best
/// of the unconstrained solution, if feasible, and the two one-parameter boundary fits). Samples with y ≤ 0 are
/// ignored. No usable sample gives the zero line.
[[nodiscard]] Line relative_line_fit(std::span<const cost::Sample> samples);

/// The CCM's piecewise-linear fit of one function from its medians (Piecewise::fit: segmented least squares on
/// relative residuals, at most 8 pieces of at least 3 sizes, a piece kept when it removes more than (1.4 %)² of mean
/// squared relative residual). Zero or negative medians are raised to 1 ns (a time of 0 cannot be fitted relatively).
[[nodiscard]] cost::Piecewise fit_piecewise(std::vector<cost::Sample> medians);

/// Hockney: α + β·m through the one-way times of a symmetric ping-pong (round trip / 2).
[[nodiscard]] cost::HockneyParams fit_hockney(std::span<const cost::Sample> one_way);

/// LogGP from the ping-pong one-way times, the send overhead of a small message (time inside MPI_Send, P-3PC's send
/// path, cc), and k back-to-back sends: G = Hockney's β over the one-way times, o = the send overhead,
/// g = (T(k) − T(1)) / (k − 1) of the back-to-back sends of `b2b_bytes`, L = one-way(smallest) − 2o − (m − 1)·G,
/// each clamped at 0 (LogGP: T(m) = L + 2o + (m − 1)·G).
[[nodiscard]] cost::LogGPParams fit_loggp(
    std::span<const cost::Sample> one_way, double send_overhead, double back_to_back_1, double back_to_back_k, int k);

/// BSP on p processors: l = the barrier's median, g = the slope of the all-to-all times against the h-relation
/// (bytes one processor sends to the others: h·(p − 1)/p of an all-to-all of h bytes). p = 1: g = 0.
[[nodiscard]] cost::BSPParams fit_bsp(int p, std::span<const cost::Sample> alltoall, double barrier);

/// C³ from the one-way times of a message between two processors: for each candidate packet length l, the units
/// c3_pattern gives a one-to-one message of m bytes on the calibrating machine (`p` processors of a complete
/// network, set-up 0) are u(m); time = setup + packet_time·u(m) is fitted by relative least squares, and the l with
/// the smallest median relative residual is kept.
[[nodiscard]] cost::C3Params fit_c3(int p, std::span<const cost::Sample> one_way);

/// One line of the fit-quality report.
struct FitReport {
    std::string function;
    int p = 0;
    std::size_t segments = 0;
    cost::FitQuality quality;
};

}  // namespace llc::probe
