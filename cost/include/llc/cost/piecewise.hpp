#pragma once
/// @file
/// Piecewise-linear, non-negative functions of the message size (bytes → seconds), the form the CCM gives every cost
/// function T_f(P, h) and T_g (CCM paper §2: "linear by pieces behaviour in the message size"), fitted from
/// measurements by segmented least squares with breakpoints chosen by the data.

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace llc::cost {

/// One measurement: a message of `bytes` took `seconds`.
struct Sample {
    double bytes = 0.0;
    double seconds = 0.0;
};

/// One linear piece, valid for from ≤ bytes < to (the last piece also at `to` and, extrapolated, beyond).
struct Segment {
    double from = 0.0;       ///< first size of the piece (bytes)
    double to = 0.0;         ///< first size of the next piece, or the largest size covered (bytes)
    double intercept = 0.0;  ///< seconds at 0 bytes of this piece's line
    double slope = 0.0;      ///< seconds per byte
    [[nodiscard]] double at(double bytes) const noexcept { return intercept + slope * bytes; }
    friend bool operator==(const Segment&, const Segment&) = default;
};

/// How well a fit matches the samples it came from: relative residuals |f(x) − y| / y over samples with y > 0.
struct FitQuality {
    std::size_t samples = 0;       ///< samples the fit used
    double median_relative = 0.0;  ///< median relative residual
    double max_relative = 0.0;     ///< largest relative residual
    friend bool operator==(const FitQuality&, const FitQuality&) = default;
};

/// Options of Piecewise::fit.
struct FitOptions {
    /// At most this many pieces.
    int max_segments = 6;
    /// A piece spans at least this many distinct sizes (2 is the least that defines a line; 3 resists noise).
    int min_points_per_segment = 3;
    /// Cost of one more piece in the objective (sum of squared relative residuals + penalty × pieces). A negative
    /// value (the default) chooses the number of pieces by the Bayesian information criterion instead:
    /// n·ln(SSE/n) + (3k − 1)·ln(n) for k pieces over n samples.
    double segment_penalty = -1.0;
};

/// A piecewise-linear function of bytes, never negative. Evaluation below the first piece uses the first piece's line
/// and above the last piece the last piece's line (flagged by `extrapolates`); the value is clamped at 0, and above
/// the covered range a falling last piece is held at its value at the end of the range (a time never falls with size
/// outside the data).
class Piecewise {
  public:
    /// The zero function (no pieces).
    Piecewise() = default;

    /// From explicit pieces, which must be sorted, non-overlapping and contiguous (to of one == from of the next),
    /// with finite coefficients. The covered range is [first.from, last.to].
    /// @throws llc::Error naming the piece and the value otherwise.
    explicit Piecewise(std::vector<Segment> segments);

    /// The constant function `seconds` (≥ 0) over all sizes.
    [[nodiscard]] static Piecewise constant(double seconds);
    /// The line intercept + slope·bytes over all sizes (a Hockney-type α + β·h).
    [[nodiscard]] static Piecewise linear(double intercept, double slope);
    /// The continuous function through the points (bytes ascending, distinct; ≥ 1 point), linear between neighbours
    /// and extended by the first and last pieces (P-3PC paper §3.3: "piecewise linear between each pair of measured
    /// values").
    [[nodiscard]] static Piecewise through(std::span<const Sample> points);

    /// Segmented least squares on relative residuals (weights 1/seconds²), by dynamic programming over the sorted
    /// distinct sizes: for every k ≤ max_segments the best split into k pieces, then the k that minimises the
    /// penalised objective. Each piece is constrained to be non-negative over its sizes. Samples at the same size
    /// are never split apart. Fewer distinct sizes than min_points_per_segment give one piece (a constant for one
    /// size).
    /// @throws llc::Error for no samples, a negative or non-finite value, or max_segments < 1.
    [[nodiscard]] static Piecewise fit(std::span<const Sample> samples, const FitOptions& options = {});

    /// Seconds for a message of `bytes` (≥ 0, clamped).
    [[nodiscard]] double operator()(double bytes) const noexcept;
    /// True when `bytes` lies outside the covered range [min_bytes(), max_bytes()] (the zero function covers all).
    [[nodiscard]] bool extrapolates(double bytes) const noexcept;

    [[nodiscard]] const std::vector<Segment>& segments() const noexcept { return segments_; }
    /// Sizes where one piece ends and the next begins (segments().size() − 1 of them).
    [[nodiscard]] std::vector<double> breakpoints() const;
    [[nodiscard]] double min_bytes() const noexcept;
    [[nodiscard]] double max_bytes() const noexcept;
    [[nodiscard]] bool empty() const noexcept { return segments_.empty(); }

    /// Quality of the fit that produced this function (samples = 0 when not fitted).
    [[nodiscard]] const FitQuality& quality() const noexcept { return quality_; }
    /// Recomputes the quality against `samples` (e.g. held-out sizes) without changing the function.
    [[nodiscard]] FitQuality quality_on(std::span<const Sample> samples) const;
    void set_quality(const FitQuality& quality) { quality_ = quality; }

    /// JSON text: {"segments":[{"from","to","intercept","slope"},…],"quality":{"samples","median_relative",
    /// "max_relative"}}.
    [[nodiscard]] std::string to_json() const;
    /// Inverse of to_json. @throws llc::Error naming the field for malformed text or invalid pieces.
    [[nodiscard]] static Piecewise from_json(std::string_view text);

    friend bool operator==(const Piecewise&, const Piecewise&) = default;

  private:
    std::vector<Segment> segments_;
    FitQuality quality_;
};

/// Relative residuals |f(x) − y| / y of `f` on the samples with y > 0.
[[nodiscard]] std::vector<double> relative_residuals(const Piecewise& f, std::span<const Sample> samples);

}  // namespace llc::cost
