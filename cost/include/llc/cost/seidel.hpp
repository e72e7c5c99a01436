#pragma once
/// @file
/// Cost functions of Seidel's broadcasts (llc::bcast): the coefficients of paper Table I and their §5 generalisation
/// to any number of processors, and a chooser for Bcast::automatic.
///
/// Source: S. R. Seidel, "Broadcasting on Linear Arrays and Meshes", ORNL/TM-12356, 1993. Model (§2): sending m bytes
/// costs a·m + b (a per byte from node to network, b the start-up); links carry 2^ν circuits without slowing down
/// (a = 2^ν·ā); moving a byte inside a node costs ρ. Every cost is written as
///     ma·(m·a) + b·(b) + rho·(m·ρ),
/// and Coefficients holds the three numbers. The paper gives linear arrays and 2-D meshes (no hypercube); Table I
/// assumes 2^d nodes (2^d1 × 2^d2 for meshes) and ν < d (ν < d1 ≤ d2).
///
/// Header-only (inline) so that it does not depend on how the cost library is built. It needs only llc's MPI-free
/// schedule part (<llc/bcast_schedule.hpp>: Bcast, the chooser hook), never MPI.

#include <algorithm>
#include <cstddef>
#include <string>

#include <llc/bcast_schedule.hpp>
#include <llc/error.hpp>
#include <llc/log2.hpp>

namespace llc::cost::seidel {

/// A broadcast cost ma·(m·a) + b·(b) + rho·(m·ρ).
struct Coefficients {
    double ma = 0.0;   ///< multiplies m·a (transmission)
    double b = 0.0;    ///< how many start-ups b (steps)
    double rho = 0.0;  ///< multiplies m·ρ (in-node permutation)

    /// Seconds for `bytes` with per-byte time `per_byte` (a), start-up `startup` (b) and copy time `copy_per_byte` (ρ).
    [[nodiscard]] double seconds(double bytes, double startup, double per_byte, double copy_per_byte = 0.0) const {
        return ma * bytes * per_byte + b * startup + rho * bytes * copy_per_byte;
    }
    friend bool operator==(const Coefficients&, const Coefficients&) = default;
    friend Coefficients operator+(Coefficients x, const Coefficients& y) {
        return {x.ma + y.ma, x.b + y.b, x.rho + y.rho};
    }
};

namespace detail {
inline double pow2(int e) {
    return e >= 0 ? static_cast<double>(1ULL << e) : 1.0 / static_cast<double>(1ULL << -e);
}

using llc::ceil_log2;
using llc::floor_log2;

/// Checks 0 ≤ d ≤ 62, 0 ≤ ν and ν < d (ν ≤ d when `nu_may_equal_d`); d = 0 allows only ν = 0.
inline void check_linear(const char* function, int d, int nu, bool nu_may_equal_d = false) {
    if (d < 0 || d > 62) {
        throw_argument_error(function, "d", std::to_string(d), "must be in [0, 62] (2^d nodes)");
    }
    if (nu < 0) {
        throw_argument_error(function, "nu", std::to_string(nu), "must be >= 0");
    }
    if (d == 0 ? nu != 0 : (nu_may_equal_d ? nu > d : nu >= d)) {
        throw_argument_error(
            function,
            "nu",
            std::to_string(nu),
            std::string("must be ") + (nu_may_equal_d ? "<= d = " : "< d = ") + std::to_string(d) + " (paper Table I)");
    }
}

inline void check_mesh(const char* function, int d1, int d2, int nu) {
    if (d1 < 1 || d2 < 1 || d1 > 30 || d2 > 30) {
        throw_argument_error(function,
                             "d1, d2",
                             std::to_string(d1) + ", " + std::to_string(d2),
                             "must be in [1, 30] (a 2^d1 x 2^d2 mesh)");
    }
    if (nu < 0 || nu >= std::min(d1, d2)) {
        throw_argument_error(function, "nu", std::to_string(nu), "must be in [0, min(d1, d2)) (paper Table I)");
    }
}

inline void check_p(const char* function, int P) {
    if (P < 1) {
        throw_argument_error(function, "P", std::to_string(P), "must be at least 1");
    }
}
}  // namespace detail

// ---- Table I (paper §3.7): linear arrays of 2^d nodes
// ----------------------------------------------------------------

/// Linear ST, Eq. 2: (2 + (d−ν−2)/2^ν)ma + (d+ν)b; ν = 0 gives d(ma + b) (Eq. 1). Also valid at ν = d (distribute then
/// exchange). d = 0 costs nothing.
[[nodiscard]] inline Coefficients linear_st(int d, int nu = 0) {
    detail::check_linear("llc::cost::seidel::linear_st", d, nu, true);
    if (d == 0) {
        return {};
    }
    return {2.0 + (d - nu - 2) / detail::pow2(nu), static_cast<double>(d + nu), 0.0};
}

/// Linear BST, Eq. 8: (2 + (d−ν−3)/2^(ν+1))ma + (d+ν+1)b; ν = 0 gives (d+1)(ma/2 + b) (Eq. 7).
[[nodiscard]] inline Coefficients linear_bst(int d, int nu = 0) {
    detail::check_linear("llc::cost::seidel::linear_bst", d, nu);
    if (d == 0) {
        return {};
    }
    return {2.0 + (d - nu - 3) / detail::pow2(nu + 1), static_cast<double>(d + nu + 1), 0.0};
}

/// Linear RH, §3.5: (2 + (d−ν−2)/2^(ν+1) − 1/2^d)ma + 2d·b + mρ.
[[nodiscard]] inline Coefficients linear_rh(int d, int nu = 0) {
    detail::check_linear("llc::cost::seidel::linear_rh", d, nu);
    if (d == 0) {
        return {};
    }
    return {2.0 + (d - nu - 2) / detail::pow2(nu + 1) - 1.0 / detail::pow2(d), 2.0 * d, 1.0};
}

// ---- Table I: 2^d1 × 2^d2 meshes (the "better" ST and BST)
// ------------------------------------------------------------

/// Mesh ST, Eq. 6: (2 + (max(d1,d2)−ν−2)/2^(2ν+1))ma + (2·max(d1,d2) + 2ν + 2)b.
[[nodiscard]] inline Coefficients mesh_st(int d1, int d2, int nu = 0) {
    detail::check_mesh("llc::cost::seidel::mesh_st", d1, d2, nu);
    const int dm = std::max(d1, d2);
    return {2.0 + (dm - nu - 2) / detail::pow2(2 * nu + 1), static_cast<double>(2 * dm + 2 * nu + 2), 0.0};
}

/// Mesh BST, §3.4.2: (2 + (2·max(d1,d2)−2ν−5)/2^(2ν+3))ma + (2·max(d1,d2) + 2ν + 3)b.
[[nodiscard]] inline Coefficients mesh_bst(int d1, int d2, int nu = 0) {
    detail::check_mesh("llc::cost::seidel::mesh_bst", d1, d2, nu);
    const int dm = std::max(d1, d2);
    return {2.0 + (2 * dm - 2 * nu - 5) / detail::pow2(2 * nu + 3), static_cast<double>(2 * dm + 2 * nu + 3), 0.0};
}

/// Mesh RH, §3.6: (2 + (2(d2−d1)−3)/2^(d1+ν+2) + 1/2^(2ν+3) − 1/2^(d1+d2))ma + 2(d1+d2)b + mρ, for d1 ≤ d2 (the
/// arguments are put in that order: the formula is given for the shorter axis first).
[[nodiscard]] inline Coefficients mesh_rh(int d1, int d2, int nu = 0) {
    detail::check_mesh("llc::cost::seidel::mesh_rh", d1, d2, nu);
    const int lo = std::min(d1, d2);
    const int hi = std::max(d1, d2);
    return {2.0 + (2 * (hi - lo) - 3) / detail::pow2(lo + nu + 2) + 1.0 / detail::pow2(2 * nu + 3) -
                1.0 / detail::pow2(lo + hi),
            2.0 * (lo + hi),
            1.0};
}

// ---- Any number of processors on a linear array (paper §5): what llc::bcast runs ---------------------------------

/// ST on P processors. ν = 0: virtual nodes, ⌈lg P⌉(ma + b) (§5.3); ν > 0: companions, linear_st(⌊lg P⌋, ν) plus
/// ma + b when P is not a power of two (§5.2).
[[nodiscard]] inline Coefficients binomial(int P, int nu = 0) {
    detail::check_p("llc::cost::seidel::binomial", P);
    if (P == 1) {
        return {};
    }
    if (nu == 0) {
        return linear_st(detail::ceil_log2(P), 0);
    }
    const int d = detail::floor_log2(P);
    return linear_st(d, nu) + ((1 << d) == P ? Coefficients{} : Coefficients{1.0, 1.0, 0.0});
}

/// BST on P processors. ν = 0: virtual nodes, (⌈lg P⌉ + 1)(ma/2 + b) (§5.3); ν > 0: companions, linear_bst(⌊lg P⌋, ν)
/// plus ma + b when P is not a power of two.
[[nodiscard]] inline Coefficients bidirectional(int P, int nu = 0) {
    detail::check_p("llc::cost::seidel::bidirectional", P);
    if (P == 1) {
        return {};
    }
    if (nu == 0) {
        return linear_bst(detail::ceil_log2(P), 0);
    }
    const int d = detail::floor_log2(P);
    return linear_bst(d, nu) + ((1 << d) == P ? Coefficients{} : Coefficients{1.0, 1.0, 0.0});
}

/// RH on P processors with companions (§5.2): linear_rh(⌊lg P⌋, ν) plus ma + b when P is not a power of two.
[[nodiscard]] inline Coefficients recursive_halving(int P, int nu = 0) {
    detail::check_p("llc::cost::seidel::recursive_halving", P);
    if (P == 1) {
        return {};
    }
    const int d = detail::floor_log2(P);
    return linear_rh(d, nu) + ((1 << d) == P ? Coefficients{} : Coefficients{1.0, 1.0, 0.0});
}

/// The coefficients of llc::bcast's `algorithm` on P processors (ν = 0). @throws llc::Error for Bcast::mpi and
/// Bcast::automatic, which the paper does not price.
[[nodiscard]] inline Coefficients coefficients(Bcast algorithm, int P) {
    switch (algorithm) {
        case Bcast::binomial:
            return binomial(P);
        case Bcast::bidirectional:
            return bidirectional(P);
        case Bcast::recursive_halving:
            return recursive_halving(P);
        case Bcast::mpi:
        case Bcast::automatic:
            break;
    }
    throw_argument_error("llc::cost::seidel::coefficients",
                         "algorithm",
                         std::string(to_string(algorithm)),
                         "has no Seidel cost (binomial, bidirectional or recursive_halving)");
}

/// Predicted seconds of llc::bcast(g, data, root, algorithm) with P = g.size() and bytes = data.size_bytes(), given the
/// per-hop start-up b, per-byte time a and in-node copy time ρ (seconds, seconds per byte).
[[nodiscard]] inline double predicted_seconds(
    Bcast algorithm, int P, std::size_t bytes, double startup, double per_byte, double copy_per_byte = 0.0) {
    return coefficients(algorithm, P).seconds(static_cast<double>(bytes), startup, per_byte, copy_per_byte);
}

/// The cheapest of binomial, bidirectional and recursive_halving under predicted_seconds; ties go to the earlier one.
[[nodiscard]] inline Bcast cheapest(
    int P, std::size_t bytes, double startup, double per_byte, double copy_per_byte = 0.0) {
    Bcast best = Bcast::binomial;
    double best_time = predicted_seconds(best, P, bytes, startup, per_byte, copy_per_byte);
    for (const Bcast candidate : {Bcast::bidirectional, Bcast::recursive_halving}) {
        const double time = predicted_seconds(candidate, P, bytes, startup, per_byte, copy_per_byte);
        if (time < best_time) {
            best = candidate;
            best_time = time;
        }
    }
    return best;
}

/// Makes Bcast::automatic pick cheapest(P, bytes, startup, per_byte, copy_per_byte) (llc::set_bcast_chooser). Process-
/// wide: install the same parameters on every processor.
inline void install_chooser(double startup, double per_byte, double copy_per_byte = 0.0) {
    set_bcast_chooser([=](int P, std::size_t bytes) { return cheapest(P, bytes, startup, per_byte, copy_per_byte); });
}

}  // namespace llc::cost::seidel
