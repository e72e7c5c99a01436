// The CCM cost of symv (article [3] §4.2), superstep by superstep as symv.cpp runs it.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <llc/algorithms/symv.hpp>
#include <llc/algorithms/symv_names.hpp>
#include <llc/cost/kernel_table.hpp>
#include <llc/cost/lockstep.hpp>
#include <llc/cost/operation_names.hpp>
#include <llc/error.hpp>

#include "symv_kernels.hpp"

namespace llc::cost {

namespace {

constexpr double word_bytes = 8.0;  // the cost function prices the double product

/// Work of processor q at step s of the reflection product (s = P: its last step, with the diagonal blocks), in
/// off-diagonal packed entries: each is two multiply-adds (row and column), a diagonal entry one, so counts half.
double reflection_units(const SymvLayout& layout, int q, int s) {
    const int P = layout.P();
    const int d = (q + s) % P;
    double units = 0.0;
    for (const int b : layout.blocks_of(q)) {
        const auto rows = static_cast<double>(layout.block_size(b));
        for (const int c : layout.blocks_of(d)) {
            if (c < b) {
                units += rows * static_cast<double>(layout.block_size(c));
            }
        }
        if (s == P) {
            units += rows * rows / 2.0;
        }
    }
    return units;
}

/// Work of processor q at step s (0 … P−1) of the standard product, in entries (one multiply-add each).
double standard_units(const SymvLayout& layout, int q, int s) {
    return static_cast<double>(layout.block_size(q)) * static_cast<double>(layout.block_size((q + s) % layout.P()));
}

template <class F>
double busiest(int P, F&& per_processor) {
    double most = 0.0;
    for (int q = 0; q < P; ++q) {
        most = std::max(most, per_processor(q));
    }
    return most;
}

/// A step's work of `seconds` (the busiest processor's) on P processors: each step ends in a shift every processor
/// waits for, so at P > 1 it lasts as long as the slowest of them (cost/lockstep.hpp; the profile's excess at P).
double step_seconds(const Profile& profile, int P, double seconds) {
    return P == 1 ? seconds : lockstep_seconds(profile, P, seconds);
}

/// The one small exchange of each product that no priced collective holds, at P > 1: the product's agreement on its
/// arguments (llc::Agreement, one allreduce of four integers at its entry) and, reflection only, the allgather of x's
/// counts inside Group::allgatherv. The profile's allgather and shift were measured through Group::allgather and
/// Group::shift, which hold their own agreement: x's allgatherv (agreement + counts + data) is the profile's allgather
/// (agreement + data) and one exchange more; the standard ring (the product's agreement + P − 1 shifts) is its shifts
/// and one exchange more. Each is one exchange of a few bytes with no payload to speak of, priced as the profile's
/// barrier at P (llc-bench-symv-streams times the three side by side). Charged where the trace records it: in the
/// superstep that follows (x's allgatherv; the first ring step, whose shift_start drops the agreement's start time).
double small_exchange_seconds(const Profile& profile, int P) {
    return P == 1 ? 0.0 : profile.collective(names::op::barrier, P, 0.0).seconds;
}

Expr reflection(const SymvLayout& layout, const Profile& profile, double tau, bool overlap, bool hidden) {
    const int P = layout.P();
    std::vector<double> work(static_cast<std::size_t>(P) + 1, 0.0);  // W of steps 1 … P, seconds
    for (int s = 1; s <= P; ++s) {
        work[static_cast<std::size_t>(s)] =
            step_seconds(profile, P, tau * busiest(P, [&](int q) { return reflection_units(layout, q, s); }));
    }
    if (P == 1) {
        return Expr::sequence(names::symv::whole, {Expr::compute(names::symv::compute, work[1])});
    }
    std::vector<Expr> items;
    items.push_back(Expr::normal(names::symv::x,
                                 small_exchange_seconds(profile, P),
                                 names::op::allgatherv,
                                 P,
                                 static_cast<double>(layout.n()) * word_bytes));
    for (int s = 1; s < P; ++s) {
        // Shift s: this rank's partial sums for processor q + s out, processor q + 1's for q + s + 1 in.
        const double bytes =
            word_bytes * busiest(P, [&](int q) {
                return static_cast<double>(layout.local_rows((q + s) % P) + layout.local_rows((q + s + 1) % P));
            });
        const auto u = static_cast<std::size_t>(s);
        const double before = s == 1 ? work[1] : 0.0;  // step 1's products run before the first shift starts
        if (overlap && hidden) {
            items.push_back(Expr::overlapped(names::symv::ring, before, work[u + 1], "shift.overlap", P, bytes));
        } else if (overlap) {  // the next step's products, then the whole shift (ShiftProgress::in_calls)
            items.push_back(Expr::normal(names::symv::ring, before + work[u + 1], "shift.overlap", P, bytes));
        } else {
            items.push_back(Expr::normal(names::symv::ring, work[u], "shift", P, bytes));
        }
    }
    if (!overlap) {
        items.push_back(Expr::compute(names::symv::final_step, work[static_cast<std::size_t>(P)]));
    }
    return Expr::sequence(names::symv::whole, std::move(items));
}

Expr standard(const SymvLayout& layout, const Profile& profile, double tau, bool overlap, bool hidden) {
    const int P = layout.P();
    std::vector<Expr> items;
    for (int s = 0; s < P; ++s) {
        const double w =
            step_seconds(profile, P, tau * busiest(P, [&](int q) { return standard_units(layout, q, s); }));
        const double before = s == 0 ? small_exchange_seconds(profile, P) : 0.0;  // the product's agreement
        if (s + 1 == P) {
            items.push_back(Expr::compute(names::symv::final_step, w));
            break;
        }
        const double bytes =
            word_bytes * busiest(P, [&](int q) {
                return static_cast<double>(layout.block_size((q + s) % P) + layout.block_size((q + s + 1) % P));
            });
        if (overlap && hidden) {
            items.push_back(Expr::overlapped(names::symv::ring, before, w, "shift.overlap", P, bytes));
        } else {  // in_calls: the step's products, then the whole split-phase shift
            items.push_back(Expr::normal(names::symv::ring, before + w, overlap ? "shift.overlap" : "shift", P, bytes));
        }
    }
    return Expr::sequence(names::symv::whole, std::move(items));
}

}  // namespace

Expr symv(int P, std::int64_t n, SymvMapping mapping, const Profile& profile, bool overlap) {
    return symv(P, n, mapping, profile, overlap, ShiftProgress::background);
}

Expr symv(int P, std::int64_t n, SymvMapping mapping, const Profile& profile, bool overlap, ShiftProgress progress) {
    constexpr const char* name = "llc::cost::symv";
    if (P < 1) {
        throw_argument_error(name, "P", std::to_string(P), "must be at least 1");
    }
    if (n < 1) {
        throw_argument_error(name, "n", std::to_string(n), "must be at least 1");
    }
    const SymvLayout layout(n, P, mapping);
    const char* kernel = mapping == SymvMapping::reflection ? names::symv::entry : names::symv::row;
    // Throws (naming the key and the llc-probe that writes it) when the profile has no table: no fallback.
    const KernelSizeTable table = kernel_size_table(profile, kernel, P);  // alone on the node at P = 1
    // The kernels were timed on a rank's share of a product (its passes over its stored rows, call after call); a
    // product streams all of a rank's entries, call after call, so whether they stay in cache is set by that
    // footprint: read the table at the share of as many entries as the busiest rank holds (the probe at 2^e ran a
    // share of (probe_side_scale · 2^e)² entries, symv_kernels.hpp).
    const double entries = busiest(P, [&](int q) { return static_cast<double>(layout.local_entries(q)); });
    const double side = std::max(1.0, std::sqrt(entries) / detail::symv::probe_side_scale);
    const double tau = kernel_per_unit(table, side, 0.0);  // never empty: no fallback
    const bool hidden = progress == ShiftProgress::background;
    return mapping == SymvMapping::reflection ? reflection(layout, profile, tau, overlap, hidden)
                                              : standard(layout, profile, tau, overlap, hidden);
}

double grigg_symv_time(double n, double p, double beta, double tau_c, double tau_a, bool distributed_x) {
    const double words = (distributed_x ? 2.0 : 1.0) * n / p;
    return n * n * tau_a / p + (p - 1.0) * (beta + words * tau_c);
}

double grigg_symv_overlap_threshold(double p, double beta, double tau_c, double tau_a) {
    // 2r²τ_a ≥ β + 2rτ_c with r = n/(2p), solved for n.
    return p * (tau_c + std::sqrt(tau_c * tau_c + 2.0 * beta * tau_a)) / tau_a;
}

}  // namespace llc::cost
