#pragma once
/// @file
/// symv's generated input, one generator for every tool: llc-run symv --n N --seed S, the validation case and
/// llc-compare symv (both with the default seed, so that they run the matrix `llc-run symv --n N` does).
#include <cstdint>

namespace llc::cards {

/// a_ij, x_i and y_i uniform in [−1, 1), each from a hash of (seed, i, j) — splitmix64's finaliser of their mix — so
/// that every rank generates only its own rows and the same input comes out at every P.
struct SymvInput {
    std::uint64_t seed = 1;

    /// a_ij, i ≥ j: a SymmetricMatrix generator.
    [[nodiscard]] double operator()(std::int64_t i, std::int64_t j) const { return value(seed, i, j); }
    /// x_i and the starting y_i (llc-run symv's β-term).
    [[nodiscard]] double x(std::int64_t i) const { return value(seed + 1, i, -1); }
    [[nodiscard]] double y(std::int64_t i) const { return value(seed + 2, i, -1); }

    [[nodiscard]] static double value(std::uint64_t s, std::int64_t i, std::int64_t j) {
        std::uint64_t z = s * 0x9e3779b97f4a7c15ULL + static_cast<std::uint64_t>(i) * 0xbf58476d1ce4e5b9ULL +
                          static_cast<std::uint64_t>(j) * 0x94d049bb133111ebULL;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return static_cast<double>((z ^ (z >> 31)) >> 11) * 0x1.0p-52 - 1.0;
    }
};

}  // namespace llc::cards
