// The CCM cost of the ring interval DP (article [1] §3), step by step as detail::interval_dp::run executes it.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <llc/algorithms/matrix_chain.hpp>
#include <llc/algorithms/matrix_chain_names.hpp>
#include <llc/cost/kernel_table.hpp>
#include <llc/cost/lockstep.hpp>
#include <llc/cost/model.hpp>
#include <llc/cost/operation_names.hpp>
#include <llc/error.hpp>
#include <llc/version.hpp>

namespace llc::cost {

namespace {

namespace mc_names = llc::names::matrix_chain;

constexpr double value_bytes = 8.0;  // one DP table entry, a double, on the wire

/// One macro-step of the schedule: per processor, its updates and the words
/// it sends and receives at the shift that precedes it.
struct StepCounts {
    std::vector<double> updates;
    std::vector<double> words;  ///< sent + received before this step (0 at d = 0)
    std::vector<double> received;
};

/// Updates of block (a, b): Σ_{i in a} Σ_{j in b, j > i} (j − i).
double block_updates(std::int64_t a0, std::int64_t a1, std::int64_t b0, std::int64_t b1) {
    double s = 0.0;
    for (std::int64_t i = a0; i < a1; ++i) {
        const std::int64_t lo = std::max(b0, i + 1);
        if (lo < b1) {
            const auto x = static_cast<double>(lo - i);
            const auto y = static_cast<double>(b1 - 1 - i);
            s += (x + y) * (y - x + 1.0) / 2.0;
        }
    }
    return s;
}

/// Updates of block (a, b), a < b, in its two edge k ranges: Σ_{i, j} (a_end − 1 − i) + (j − b_begin).
double edge_updates(std::int64_t a0, std::int64_t a1, std::int64_t b0, std::int64_t b1) {
    const auto na = static_cast<double>(a1 - a0);
    const auto nb = static_cast<double>(b1 - b0);
    return nb * na * (na - 1.0) / 2.0 + na * nb * (nb - 1.0) / 2.0;
}

/// Σ_{i in a} (last − i).
double trapezoid(std::int64_t a0, std::int64_t a1, std::int64_t last) {
    const auto rows = static_cast<double>(a1 - a0);
    return rows * static_cast<double>(last) - (static_cast<double>(a0 + a1 - 1) * rows / 2.0);
}

StepCounts step_counts(int P, std::int64_t n, std::int64_t r, std::int64_t d) {
    const std::int64_t B = (n + r - 1) / r;
    const auto begin = [r](std::int64_t b) { return b * r; };
    const auto end = [n, r](std::int64_t b) { return std::min(n, (b + 1) * r); };
    StepCounts s{std::vector<double>(static_cast<std::size_t>(P), 0.0),
                 std::vector<double>(static_cast<std::size_t>(P), 0.0),
                 std::vector<double>(static_cast<std::size_t>(P), 0.0)};
    for (std::int64_t b = d; b < B; ++b) {
        const auto q = static_cast<std::size_t>(b % P);
        const std::int64_t a = b - d;
        s.updates[q] += block_updates(begin(a), end(a), begin(b), end(b));
        if (d > 0) {
            const double w = trapezoid(begin(a), end(a), begin(b));
            s.received[q] += w;
            s.words[q] += w;
            s.words[static_cast<std::size_t>((b - 1) % P)] += w;
        }
    }
    return s;
}

void check(const char* name, int P, std::int64_t n, std::int64_t r) {
    if (P < 1) {
        throw_argument_error(name, "P", std::to_string(P), "must be at least 1");
    }
    if (n < 1) {
        throw_argument_error(name, "n", std::to_string(n), "must be at least 1");
    }
    if (r < 1) {
        throw_argument_error(name, "r", std::to_string(r), "must be at least 1");
    }
}

double max_of(const std::vector<double>& v) {
    return *std::max_element(v.begin(), v.end());
}

/// The three kernel tables of the engine, as llc-probe measured them on its own code (matrix_chain_probes.cpp).
struct Kernels {
    KernelSizeTable middle;  ///< mc_names::middle ("mc.update.2^e"): per update of a middle k range of length 2^e
    KernelSizeTable edge;    ///< mc_names::edge ("mc.edge.2^e"): per update of an off-diagonal block's edges, r = 2^e
    KernelSizeTable diag;    ///< mc_names::diag ("mc.diag.2^e"): per update of a diagonal block, r = 2^e

    /// The tables a run on P processors reads (alone on the node at P = 1: kernel_size_table's solo constants).
    /// @throws llc::Error naming the key when the profile lacks one of them (kernel_size_table: never a fallback).
    Kernels(const Profile& profile, int P)
        : middle(kernel_size_table(profile, mc_names::middle, P)),
          edge(kernel_size_table(profile, mc_names::edge, P)),
          diag(kernel_size_table(profile, mc_names::diag, P)) {}
};

/// Seconds of block (a, b) as detail::interval_dp::compute_block runs it: a diagonal block's updates at τ_diag(its
/// width); an off-diagonal block's edge updates at τ_edge(r) and its middle updates (rows × columns × the middle k
/// range's length b_begin − a_end + 1) at τ_mid(that length), which the probe measured with the engine's chunking.
double block_seconds(
    const Kernels& k, std::int64_t r, std::int64_t a0, std::int64_t a1, std::int64_t b0, std::int64_t b1) {
    if (a0 == b0) {
        return block_updates(a0, a1, b0, b1) * kernel_per_unit(k.diag, static_cast<double>(b1 - b0), 0.0);
    }
    const auto length = static_cast<double>(b0 - a1 + 1);
    return edge_updates(a0, a1, b0, b1) * kernel_per_unit(k.edge, static_cast<double>(r), 0.0) +
           static_cast<double>((a1 - a0) * (b1 - b0)) * length * kernel_per_unit(k.middle, length, 0.0);
}

/// The busiest processor's seconds at each macro-step d = 0 … B − 1 of a run on P processors, priced block by block.
std::vector<double> step_seconds(const Kernels& kernels, int P, std::int64_t n, std::int64_t r) {
    const std::int64_t B = (n + r - 1) / r;
    const auto begin = [r](std::int64_t b) { return b * r; };
    const auto end = [n, r](std::int64_t b) { return std::min(n, (b + 1) * r); };
    std::vector<double> steps;
    for (std::int64_t d = 0; d < B; ++d) {
        std::vector<double> t(static_cast<std::size_t>(P), 0.0);
        for (std::int64_t b = d; b < B; ++b) {
            t[static_cast<std::size_t>(b % P)] += block_seconds(kernels, r, begin(b - d), end(b - d), begin(b), end(b));
        }
        steps.push_back(max_of(t));
    }
    return steps;
}

double sum(const std::vector<double>& v) {
    double total = 0.0;
    for (const double x : v) {
        total += x;
    }
    return total;
}

/// The whole engine's time over the block model's, measured on one-processor runs at two block sizes: per size 2^e of
/// the profile's "mc.run.2^e" (r = default_block_size(1, n), 64) and "mc.run_wide.2^e" (r = 128), side by side as the
/// P processors of a run share the node (solo at P = 1), the run's seconds ((n³ − n)/6 updates at that constant) over
/// the blocks' sum for the same run priced with the same tables; linear in log2 n between the sizes. The block probes
/// time each phase on its own, small, warm operands; the engine runs them among the others on its big table, and the
/// trapezoids it copies and reads (n³/(6r) values over a run) and its edges' share move with r: at P = 1, n = 4000,
/// r = 64 ran at 1.1 and r = 126 at 0.71 of r = 64's scale times their blocks (2026-11-28), so one scale taken at
/// r = 64 priced P = 2's r = 100 … 126 25–45 % high. At block size r the scale is linear in 1/r between the two
/// (the trapezoids' share is), held at the nearest outside [64, 128]. Both run tables are required (kernel_size_table
/// throws naming the key): a profile without them is refused, never priced at an unscaled 1.
class EngineScale {
  public:
    EngineScale(const Kernels& kernels, const Profile& profile, int P)
        : narrow_(ratios(kernels,
                         kernel_size_table(profile, mc_names::run, P),
                         [](std::int64_t m) { return llc::default_block_size(1, m); })),
          wide_(ratios(kernels, kernel_size_table(profile, mc_names::run_wide, P), [](std::int64_t m) {
              return std::min<std::int64_t>(m, mc_names::wide_run_r);
          })) {}

    [[nodiscard]] double at(std::int64_t n, std::int64_t r) const {
        const double narrow = kernel_per_unit(narrow_, static_cast<double>(n), 1.0);
        const double wide = kernel_per_unit(wide_, static_cast<double>(n), 1.0);
        constexpr double r_narrow = 64.0;
        const auto r_wide = static_cast<double>(mc_names::wide_run_r);
        const double x = (1.0 / r_narrow - 1.0 / static_cast<double>(r)) / (1.0 / r_narrow - 1.0 / r_wide);
        return narrow + std::clamp(x, 0.0, 1.0) * (wide - narrow);
    }

  private:
    template <class BlockSize>
    static KernelSizeTable ratios(const Kernels& kernels, const KernelSizeTable& run, const BlockSize& r_of) {
        KernelSizeTable ratio;
        for (const auto& [e, per_update] : run) {
            const std::int64_t m = std::int64_t{1} << e;
            const auto md = static_cast<double>(m);
            const double blocks = sum(step_seconds(kernels, 1, m, r_of(m)));
            if (blocks > 0.0) {
                ratio[e] = per_update * (md * md * md - md) / 6.0 / blocks;
            }
        }
        if (ratio.empty()) {
            // Only sizes with no update (n = 1) or block tables of zeros: nothing to scale by, and no silent 1 either.
            throw Error(std::string("llc::cost::matrix_chain: the profile's \"") + mc_names::run + ".2^e\" / \"" +
                        mc_names::run_wide +
                        ".2^e\" have no size of at least 2 matrices with a positive block price to scale the blocks "
                        "by; " +
                        how_to_make_profile());
        }
        return ratio;
    }

    KernelSizeTable narrow_;
    KernelSizeTable wide_;
};

/// The run on P processors priced block by block, every W times `scale` (EngineScale::at): one compute node at P = 1,
/// the ring's macro-steps otherwise. At P > 1 each macro-step is a lockstep step (every processor computes its blocks,
/// then all shift together): it lasts as long as its slowest processor, so its W, the busiest processor's priced work,
/// is raised by the profile's lockstep excess at P for a step of that length (cost::lockstep_seconds; a profile without
/// the table at P is refused naming it).
Expr blocks_expr(int P,
                 std::int64_t n,
                 std::int64_t r,
                 const Kernels& kernels,
                 double scale,
                 const Profile& profile,
                 std::span<const std::int64_t> walk_levels = {}) {
    std::vector<double> steps = step_seconds(kernels, P, n, r);
    for (double& t : steps) {
        t *= scale;
    }
    if (P == 1) {
        return Expr::sequence(mc_names::sequence, {Expr::compute(mc_names::compute, sum(steps))});
    }
    for (double& t : steps) {
        t = lockstep_seconds(profile, P, t);
    }
    // Each rotation sends the trapezoids the processor has just computed: their lines are dirty in the sender's cache,
    // and the receiver's copy fetches them from the other core — "shift.written" (on the 2-core VM 1.7–2.6× the plain
    // "shift", which sends the same unchanged buffer call after call; rotations measured 3–5× the plain shift's price
    // in the 23:15 quiet demos). A profile made before llc-probe measured it is refused (llc-probe --inspect lists it
    // as missing, and scripts/demo.sh calibrates again), never priced by the plain shift.
    const char* rotation = llc::names::op::shift_written;
    if (!profile.has_collective(rotation)) {
        throw Error(std::string("llc::cost::matrix_chain: the profile has no T_f for collective '") + rotation +
                    "' (the shift of a message its sender has just written, which prices the ring's rotations at P = " +
                    std::to_string(P) + "); llc-probe of llc " + llc::version + " measures it: re-calibrate (" +
                    how_to_make_profile() + ")");
    }
    std::vector<Expr> items;
    for (std::size_t d = 1; d < steps.size(); ++d) {
        const StepCounts s = step_counts(P, n, r, static_cast<std::int64_t>(d));
        items.push_back(Expr::normal(mc_names::rotate, steps[d - 1], rotation, P, max_of(s.words) * value_bytes));
    }
    items.push_back(Expr::normal(mc_names::result, steps.back(), "bcast", P, value_bytes));
    // The walk of the optimal tree (matrix_chain.cpp's walk_tree): one allreduce of 8 bytes per node of each level.
    for (const std::int64_t nodes : walk_levels) {
        items.push_back(Expr::normal(mc_names::walk, 0.0, "allreduce", P, static_cast<double>(nodes) * value_bytes));
    }
    return Expr::sequence(mc_names::sequence, std::move(items));
}

}  // namespace

Expr matrix_chain(int P, std::int64_t n, std::int64_t r, const Profile& profile) {
    return matrix_chain(P, n, r, profile, {});
}

Expr matrix_chain(
    int P, std::int64_t n, std::int64_t r, const Profile& profile, std::span<const std::int64_t> walk_levels) {
    constexpr const char* name = "llc::cost::matrix_chain";
    check(name, P, n, r);
    for (const std::int64_t nodes : walk_levels) {
        if (nodes < 1 || nodes >= n) {
            throw_argument_error(name, "walk_levels", std::to_string(nodes), "a level holds 1 … n − 1 nodes");
        }
    }
    const Kernels kernels(profile, P);
    // Every run, P = 1 included, block by block at the whole engine's measured level (EngineScale: the one-processor
    // runs llc-probe timed, over the blocks' price of the same runs). P = 1 at the default r was priced by the run
    // probe's cost an update alone, log-interpolated in n, until 2026-11-28: with the tagged middle that curve bent
    // between its sizes (2^6: one diagonal block; 2^7: a diagonal and an off-diagonal block) and stayed flat past
    // 2^11, pricing n = 100 26 % and n = 4000 13 % high; the blocks carry that structure and the scale only the level
    // (re-priced: n = 100 … 400 +4.0 / −1.5 / +2.2 %, n = 500 … 4000 −3.6 / +3.5 / −4.0 / +4.8 %).
    return blocks_expr(P, n, r, kernels, EngineScale(kernels, profile, P).at(n, r), profile, walk_levels);
}

std::vector<std::int64_t> matrix_chain_walk_levels(std::string_view parenthesization) {
    // Each "(" opens an internal node of the tree one level below the "(" that encloses it.
    std::vector<std::int64_t> levels;
    std::size_t depth = 0;
    for (const char c : parenthesization) {
        if (c == '(') {
            if (levels.size() <= depth) {
                levels.push_back(0);
            }
            ++levels[depth];
            ++depth;
        } else if (c == ')') {
            if (depth == 0) {
                throw_argument_error("llc::cost::matrix_chain_walk_levels",
                                     "parenthesization",
                                     std::string(parenthesization),
                                     "has a \")\" without its \"(\"");
            }
            --depth;
        }
    }
    if (depth != 0) {
        throw_argument_error("llc::cost::matrix_chain_walk_levels",
                             "parenthesization",
                             std::string(parenthesization),
                             "has a \"(\" without its \")\"");
    }
    return levels;
}

std::int64_t matrix_chain_best_r(int P, std::int64_t n, const Profile& profile) {
    check("llc::cost::matrix_chain_best_r", P, n, 1);
    if (P == 1) {
        return llc::default_block_size(1, n);
    }
    const std::int64_t top = std::max<std::int64_t>(1, (n + P - 1) / P);
    const auto model = make_model("ccm", profile);
    // What matrix_chain(P, n, r, profile) prices, with the tables and the engine's scales read once.
    const Kernels kernels(profile, P);
    const EngineScale scale(kernels, profile, P);
    std::int64_t best_r = 1;
    double best = std::numeric_limits<double>::max();
    // Every r up to 64, then steps of about 6 %: the time is flat near its minimum.
    for (std::int64_t r = 1; r <= top; r = r < 64 ? r + 1 : r + std::max<std::int64_t>(1, r / 16)) {
        const double t = predict(blocks_expr(P, n, r, kernels, scale.at(n, r), profile), *model);
        if (t < best) {
            best = t;
            best_r = r;
        }
    }
    return best_r;
}

double matrix_chain_updates(int P, std::int64_t n, std::int64_t r, int q) {
    check("llc::cost::matrix_chain_updates", P, n, r);
    double s = 0.0;
    for (std::int64_t d = 0; d < (n + r - 1) / r; ++d) {
        s += step_counts(P, n, r, d).updates[static_cast<std::size_t>(q)];
    }
    return s;
}

double matrix_chain_rotated_words(int P, std::int64_t n, std::int64_t r) {
    check("llc::cost::matrix_chain_rotated_words", P, n, r);
    double s = 0.0;
    for (std::int64_t d = 1; d < (n + r - 1) / r; ++d) {
        s += max_of(step_counts(P, n, r, d).received);
    }
    return s;
}

double miguet_dp_arith(double n, double p, double r, double tau_a) {
    const double alpha = p / n;
    return (2.0 / alpha + 3.0 * r + alpha * r * r) * n * n * tau_a / 12.0;
}

double miguet_dp_time(double n, double p, double r, double tau_a, double tau_c) {
    const double alpha = p / n;
    return (2.0 / alpha + 3.0 * r + alpha * r * r) * (tau_a + tau_c / r) * n * n / 12.0;
}

double miguet_r_opt_approx(double n, double p, double rho) {
    return std::sqrt(2.0 * rho * n / (3.0 * p));
}

double miguet_r_opt_exact(double n, double p, double rho) {
    // α²r³ + (α/2)(3 + αρ)r² − ρ is increasing for r > 0: bisection.
    const double alpha = p / n;
    const auto f = [&](double r) {
        return alpha * alpha * r * r * r + alpha / 2.0 * (3.0 + alpha * rho) * r * r - rho;
    };
    double lo = 0.0;
    double hi = 1.0;
    while (f(hi) < 0.0) {
        hi *= 2.0;
    }
    for (int it = 0; it < 200; ++it) {
        const double mid = 0.5 * (lo + hi);
        (f(mid) < 0.0 ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

}  // namespace llc::cost
