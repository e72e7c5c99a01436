// The cost of contour ranking (C³ paper §5.3): the CCM expression, superstep by superstep as contour_rank runs its
// pattern's merge tree, and the paper's C³ unit analysis on a mesh (Figure 14).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <map>
#include <numbers>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include <llc/algorithms/contour_ranking.hpp>
#include <llc/algorithms/contour_ranking_names.hpp>
#include <llc/cost/kernel_table.hpp>
#include <llc/cost/lockstep.hpp>
#include <llc/cost/model.hpp>
#include <llc/error.hpp>

#include "merge.hpp"

namespace llc::cost {

namespace {

namespace cr = llc::detail::contour_ranking;
namespace cr_names = llc::names::contour_ranking;

constexpr double segment_bytes = sizeof(cr::Segment);
/// The densities of the probes' lines: cr.quarter_run's 4 pixels apart, cr.sparse_run's 16 apart
/// (contour_ranking_probes.cpp; a 2^e side holds exactly density · pixels edge pixels of them).
constexpr double kQuarterDensity = 1.0 / 4.0;
constexpr double kSparseDensity = 1.0 / 16.0;
constexpr double resolution_bytes = sizeof(cr::Resolution);

void check(const char* name, int P, std::int64_t width, std::int64_t height, double density, ContourPattern pattern) {
    if (P < 1) {
        throw_argument_error(name, "P", std::to_string(P), "must be at least 1");
    }
    if (width < 0 || height < 0) {
        throw_argument_error(
            name, width < 0 ? "width" : "height", std::to_string(width < 0 ? width : height), "must be ≥ 0");
    }
    if (!(density >= 0.0 && density <= 1.0)) {
        throw_argument_error(name, "edge_density", std::to_string(density), "must be in [0, 1]");
    }
    if (pattern == ContourPattern::automatic) {
        throw_argument_error(name, "pattern", "auto", "must be a pattern (choose_contour_pattern resolves auto)");
    }
}

/// Segments in the boundary list of a rows × cols region of the paper's diagonal-line image at `density`: every
/// line crossing the region is one segment, entering on its top or left border, so all of them are kept.
double list_segments(const PixelBlock& region, double density) {
    if (region.rows == 0 || region.cols == 0) {
        return 0.0;
    }
    return std::ceil(static_cast<double>(region.rows + region.cols - 1) * density);
}

/// The CCM expression of a merge-tree node: a gather node is one allgatherv of its blocks' lists and their merge;
/// a division node is a weighted division into its children (the exchange spreads their lists) and their merge.
Expr node_expr(const cr::PlanNode& node, const cr::ImageLayout& layout, double density, const Profile& profile) {
    if (node.children.empty()) {
        return Expr::compute(cr_names::leaf, 0.0);
    }
    std::vector<double> lists;
    for (const cr::PlanNode& child : node.children) {
        lists.push_back(list_segments(layout.pixels(child.range), density));
    }
    double all = 0.0;
    for (const double b : lists) {
        all += b;
    }
    const Expr merge = Expr::compute(cr_names::merging, profile.kernel_seconds(cr_names::merge, all));
    const int P = node.range.count();
    if (node.gather) {
        return Expr::sequence(cr_names::gather,
                              {Expr::normal(cr_names::allgatherv, 0.0, "allgatherv", P, all * segment_bytes), merge});
    }
    std::vector<double> weights;
    std::vector<Expr> tasks;
    for (const cr::PlanNode& child : node.children) {
        weights.push_back(child.range.count());
        tasks.push_back(node_expr(child, layout, density, profile));
    }
    // One processor's exchange: its child's list to a partner in every other child, every other child's list in.
    const double largest = *std::max_element(lists.begin(), lists.end());
    const double smallest = *std::min_element(lists.begin(), lists.end());
    const double sent = static_cast<double>(lists.size() - 1) * largest;
    const double bytes = (sent + all - smallest) * segment_bytes;
    return Expr::sequence(cr_names::level,
                          {Expr::weighted_division(cr_names::division, P, weights, std::move(tasks), bytes), merge});
}

/// The walk ladder's seconds per step by side ("cr.walk.<side>", llc-probe): empty when the profile has none (made
/// before the ladder; run_per_unit then names the first missing rung where it reads the ladder).
std::map<double, double> walk_ladder(const Profile& profile) {
    const std::string prefix = std::string(cr_names::walk) + ".";
    std::map<double, double> ladder;
    for (const auto& [key, constant] : profile.kernels()) {
        if (key.starts_with(prefix) && key.find_first_not_of("0123456789", prefix.size()) == std::string::npos &&
            key.size() > prefix.size()) {
            ladder[std::stod(key.substr(prefix.size()))] = constant.seconds_per_unit;
        }
    }
    return ladder;
}

/// Seconds per unit at `side` of one of the ranking's whole-run tables. Between the table's 2^11 and 2^12 sizes, where
/// the walks' cache step lies that those two probes straddle, the price moves from the one to the other as the walk
/// ladder's per-step cost moves between its own 2^11 and 2^12 rungs (its shape in log2 of the side: a step where the
/// ladder steps, a slope where it slopes); elsewhere, and without a ladder that rises from 2^11 to 2^12, linear in
/// log2 of the side (kernel_per_unit). Read on a line instead, the step at ~3600–4000 was spread over the sides below
/// it: the 2560² and 3584² maps were priced 13–55 % high at p = 1 (quiet 20:23 recording).
double run_per_unit(const KernelSizeTable& table, double side, const std::map<double, double>* walks) {
    const double low_side = std::ldexp(1.0, 11);
    const double high_side = std::ldexp(1.0, 12);
    if (walks == nullptr || !(side > low_side && side < high_side) || !table.contains(11) || !table.contains(12)) {
        return kernel_per_unit(table, side, 0.0);
    }
    const std::map<double, double>& ladder = *walks;
    // Every rung llc-probe writes is required where the ladder is read, as every other table: a profile made before
    // the ladder (or without a rung) is an error naming the key, not a price read on a line.
    for (const std::int64_t rung : cr_names::walk_sides) {
        if (!ladder.contains(static_cast<double>(rung))) {
            throw Error(missing_kernel_message("llc::cost::contour_rank", cr_names::walk_key(rung)));
        }
    }
    const auto low = ladder.find(low_side);
    const auto high = ladder.find(high_side);
    if (!(high->second > low->second)) {
        return kernel_per_unit(table, side, 0.0);
    }
    std::map<double, double> by_log;  // the ladder in log2 of the side, read as kernel_per_unit reads a table
    for (const auto& [s, seconds] : ladder) {
        by_log[std::log2(s)] = seconds;
    }
    auto above = by_log.lower_bound(std::log2(side));
    auto below = std::prev(above);
    const double t = (std::log2(side) - below->first) / (above->first - below->first);
    const double step = below->second + t * (above->second - below->second);
    const double w = std::clamp((step - low->second) / (high->second - low->second), 0.0, 1.0);
    return table.at(11) + w * (table.at(12) - table.at(11));
}

/// Seconds of local work priced per unit from per-size kernel tables ("<kernel>.2^e", e = log2 of the side of a
/// square block of `pixels` pixels; the solo constants at P = 1): the sum of units·τ over `terms`.
/// `ladder`: the walk ladder, for the ranking's whole-run tables (run_per_unit); none (nullptr) for the tracing's.
/// @throws llc::Error (missing_kernel_message, naming `function` and the key) when a table is missing.
double local_seconds(const char* function,
                     std::initializer_list<std::pair<const char*, double>> terms,
                     double pixels,
                     int P,
                     const Profile& profile,
                     const std::map<double, double>* ladder = nullptr) {
    const double side = std::sqrt(std::max(1.0, pixels));
    double seconds = 0.0;
    for (const auto& [kernel, units] : terms) {
        KernelSizeTable table;
        try {
            table = kernel_size_table(profile, kernel, P);
        } catch (const Error&) {
            throw Error(missing_kernel_message(function, std::string(kernel) + ".2^e"));
        }
        seconds += units * run_per_unit(table, side, ladder);
    }
    return seconds;
}

/// Seconds per edge pixel on top of cr.pixel, read at the side `side` (a square 2^e block's: the probes'), for lines
/// 1/`density` apart: from the
/// whole run's table `run` (seconds per pixel of a run of such lines) less cr.pixel's (the run without edge pixels,
/// measured once a size and shared by the three line spacings), per edge pixel; from `on_top` (the difference an older
/// llc-probe took itself) when the profile has no `run` table. At least a thousandth of the whole run, as the probes
/// took it: noise must not make the difference zero or negative. Read at `side` along the walk ladder (run_per_unit).
/// @throws llc::Error (missing_kernel_message, naming `function`, `run`, what llc-probe writes now, and
/// `on_top`) when neither table is there.
double edge_seconds(const char* function,
                    const char* run,
                    const char* on_top,
                    double density,
                    double side,
                    int P,
                    const Profile& profile,
                    const std::map<double, double>* ladder) {
    KernelSizeTable table;
    try {
        const KernelSizeTable runs = kernel_size_table(profile, run, P);
        const KernelSizeTable without = kernel_size_table(profile, cr_names::pixel, P);
        for (const auto& [e, whole] : runs) {
            const double empty = kernel_per_unit(without, std::ldexp(1.0, e), 0.0);
            table[e] = std::max(whole - empty, 1e-3 * whole) / density;
        }
    } catch (const Error&) {
        try {
            table = kernel_size_table(profile, on_top, P);
        } catch (const Error&) {
            throw Error(missing_kernel_message(function, std::string(run) + ".2^e") + " (nor an older llc-probe's '" +
                        on_top + ".2^e')");
        }
    }
    return run_per_unit(table, side, ladder);
}

/// The shares of an edge pixel of the paper's lines at `density` priced at the dense (cr.edge, lines 1 apart), quarter
/// (cr.quarter_edge, 4 apart) and sparse (cr.sparse_edge, 16 apart) per-edge-pixel constants: linear in the spacing
/// k = 1/density between the measured spacings, and beyond 16 along the line through the quarter and sparse ones (up
/// to k = 64). The walks miss more per step the farther apart the lines are, and that growth neither is a straight
/// line from 1 on (the 25 % maps were priced 20–45 % high at P = 2 so) nor stops at k = 8, where walks stop sharing
/// cache lines (5 % maps, k = 20, were priced 3–26 % low at the k = 16 constant). All three constants are required.
struct EdgeShares {
    double dense = 1.0;
    double quarter = 0.0;
    double sparse = 0.0;
};

EdgeShares edge_shares(double density) {
    const double k = density <= 0.0 ? 64.0 : std::min(64.0, std::max(1.0, 1.0 / density));
    if (k <= 4.0) {
        const double q = (k - 1.0) / 3.0;
        return {1.0 - q, q, 0.0};
    }
    const double s = (k - 4.0) / 12.0;
    return {0.0, 1.0 - s, s};
}

/// The largest block of a width × height image on P processors (part() puts the remainder last).
PixelBlock largest_block(int P, std::int64_t width, std::int64_t height) {
    const PixelBlock first = block_of(0, P, width, height);
    const PixelBlock last = block_of(P - 1, P, width, height);
    return last.size() > first.size() ? last : first;
}

/// Pixels of the largest block of a width × height image on P processors.
double largest_block_pixels(int P, std::int64_t width, std::int64_t height) {
    return static_cast<double>(largest_block(P, width, height).size());
}

/// Bytes of the allgatherv of every block's perimeter, one byte a pixel (validation's, and tracing's halo).
double perimeters_bytes(int P, std::int64_t width, std::int64_t height) {
    const PixelBlock block = block_of(0, P, width, height);
    return 2.0 * static_cast<double>(P) * static_cast<double>(block.rows + block.cols);
}

void check_borders(const char* name,
                   int P,
                   std::int64_t width,
                   std::int64_t height,
                   BorderDensity density,
                   ContourPattern pattern = ContourPattern::one_level_direct) {
    // Eight states a pixel at most (a pixel entered from each neighbour).
    if (!(density.states_per_pixel >= 0.0 && density.states_per_pixel <= 8.0)) {
        throw_argument_error(
            name, "density.states_per_pixel", std::to_string(density.states_per_pixel), "must be in [0, 8]");
    }
    check(name, P, width, height, 0.0, pattern);
}

/// The merge tree of `pattern` on boundary lists of `list_density` segments per unit of a region's rows + cols, with
/// the bit-reversal permutation and its return for logp-lev-bal (`own`: this block's list).
void append_merge(std::vector<Expr>& items,
                  int P,
                  std::int64_t width,
                  std::int64_t height,
                  double list_density,
                  ContourPattern pattern,
                  const Profile& profile) {
    const cr::ImageLayout layout{P, cr::grid_of(P), width, height};
    const double own = list_segments(block_of(0, P, width, height), list_density);
    if (pattern == ContourPattern::log_level_balanced) {
        items.push_back(Expr::normal(cr_names::bal_permute, 0.0, "alltoallv", P, own * segment_bytes));
    }
    items.push_back(node_expr(cr::plan_of(pattern, layout.grid), layout, list_density, profile));
    if (pattern == ContourPattern::log_level_balanced) {
        items.push_back(Expr::normal(cr_names::bal_return, 0.0, "alltoallv", P, own * resolution_bytes));
    }
}

/// Seconds of the busiest block's local ranking of `states` border states (a block of `pixels` pixels): tr.rank, a
/// one-processor run where every border is a cycle; at P > 1, where every block has borders that leave it and its
/// ranking also finds their segments (a predecessor pass, two fresh arrays of 16 B a state) and resolves every state
/// from its segment's last (step 3), tr.rank_cut, measured on a block with cut borders. Like every other key, a
/// profile without tr.rank_cut (llc-probe before it) is an error naming it at P > 1: re-calibrate, no silent fallback.
double border_local_seconds(double states, double pixels, int P, const Profile& profile) {
    constexpr const char* name = "llc::cost::contour_rank";
    return local_seconds(name, {{P > 1 ? cr_names::trace_rank_cut : cr_names::trace_rank, states}}, pixels, P, profile);
}

}  // namespace

Expr contour_rank(int P,
                  std::int64_t width,
                  std::int64_t height,
                  double edge_density,
                  ContourPattern pattern,
                  const Profile& profile) {
    constexpr const char* name = "llc::cost::contour_rank";
    check(name, P, width, height, edge_density, pattern);
    const double pixels = largest_block_pixels(P, width, height);
    // Validation, local ranking and resolution, measured together on one processor: per pixel, and per edge pixel on
    // top (a 100 % map takes about four times an empty one), at the block's size (whether it stays in cache). An edge
    // pixel costs more where the lines are sparse (cache misses along the walks), priced between the constants measured
    // at three line spacings by edge_shares().
    const double edges = pixels * edge_density;
    const EdgeShares shares = edge_shares(edge_density);
    const double side = std::sqrt(std::max(1.0, pixels));
    // All three spacings' prices are required, whatever the shares: a profile that lacks one is not priced.
    const std::map<double, double> ladder = walk_ladder(profile);
    const double local_work =
        local_seconds(name, {{cr_names::pixel, pixels}}, pixels, P, profile, &ladder) +
        edges * shares.dense * edge_seconds(name, cr_names::edge_run, cr_names::edge, 1.0, side, P, profile, &ladder) +
        edges * shares.quarter *
            edge_seconds(
                name, cr_names::quarter_run, cr_names::quarter_edge, kQuarterDensity, side, P, profile, &ladder) +
        edges * shares.sparse *
            edge_seconds(name, cr_names::sparse_run, cr_names::sparse_edge, kSparseDensity, side, P, profile, &ladder);
    // Every processor ranks its block, then the merge's first collective waits for the slowest (cost/lockstep.hpp).
    const Expr local = Expr::compute(cr_names::local, lockstep_seconds(profile, P, local_work));
    // Validation's exchange of the blocks' borders (one byte a pixel) and the verdict; at P = 1 too, as the code runs
    // them (the CCM charges what the profile measured at P = 1).
    std::vector<Expr> items = {
        Expr::normal(cr_names::validate_borders, 0.0, "allgatherv", P, perimeters_bytes(P, width, height)),
        Expr::normal(cr_names::validate, 0.0, "allreduce", P, 8.0),
        local};
    append_merge(items, P, width, height, edge_density, pattern, profile);
    return Expr::sequence(cr_names::ranking, std::move(items));
}

BorderDensity border_density(Group& group, const BorderMap& borders) {
    const std::int64_t states = group.allreduce(static_cast<std::int64_t>(borders.states().size()), Op::sum);
    const std::int64_t pixels = borders.width() * borders.height();
    return {pixels == 0 ? 0.0 : static_cast<double>(states) / static_cast<double>(pixels)};
}

Expr trace_contours(int P, std::int64_t width, std::int64_t height, BorderDensity density, const Profile& profile) {
    constexpr const char* name = "llc::cost::trace_contours";
    check_borders(name, P, width, height, density);
    const double pixels = largest_block_pixels(P, width, height);
    const double states = pixels * density.states_per_pixel;
    return Expr::sequence(
        cr_names::tracing,
        {Expr::normal(cr_names::halo, 0.0, "allgatherv", P, perimeters_bytes(P, width, height)),
         // Every processor scans its block, then the next collective waits for the slowest (cost/lockstep.hpp).
         Expr::compute(
             cr_names::scan,
             lockstep_seconds(
                 profile,
                 P,
                 local_seconds(
                     name, {{cr_names::trace_pixel, pixels}, {cr_names::trace_state, states}}, pixels, P, profile)))});
}

Expr contour_rank(int P,
                  std::int64_t width,
                  std::int64_t height,
                  BorderDensity density,
                  ContourPattern pattern,
                  const Profile& profile) {
    constexpr const char* name = "llc::cost::contour_rank";
    check_borders(name, P, width, height, density, pattern);
    const double pixels = largest_block_pixels(P, width, height);
    const double states = pixels * density.states_per_pixel;
    std::vector<Expr> items = {Expr::compute(cr_names::border_local, border_local_seconds(states, pixels, P, profile))};
    // Cauchy–Crofton: lines of length ℓ meet borders of length λ per pixel 2λℓ/π times; two ends a segment.
    const double list_density = 2.0 * density.states_per_pixel / std::numbers::pi;
    append_merge(items, P, width, height, list_density, pattern, profile);
    return Expr::sequence(cr_names::border_ranking, std::move(items));
}

namespace {

/// The C³ analysis of one run on a q × q mesh (q a power of two): the supersteps' messages, each charged by
/// c3_superstep with h = the average distance its messages travel on the mesh (our reading of the paper's
/// submachine rule for groups spread over the mesh: quad's level-k partners are 2^(k−1) apart, bal's q/2^k).
class C3Run {
  public:
    C3Run(const C3Machine& machine, int q) : machine_(machine), q_(q) {}

    void superstep(const std::vector<C3Message>& messages) {
        double distance = 0.0;
        double count = 0.0;
        for (const C3Message& m : messages) {
            if (m.bytes > 0.0 && m.from != m.to) {
                distance += std::abs(m.from / q_ - m.to / q_) + std::abs(m.from % q_ - m.to % q_);
                count += 1.0;
            }
        }
        if (count == 0.0) {
            return;
        }
        C3Machine m = machine_;
        m.h = distance / count;
        const C3Units u = c3_superstep(m, messages);
        units_.communication += u.total();
        units_.setups += u.setups;
    }

    /// An all-to-all broadcast in each group by recursive doubling (the binomial-heap structure the paper names,
    /// log2 n set-ups): in round t, member k sends all it knows, the lists of its aligned run of 2^t, to member
    /// k xor 2^t. Groups run side by side, one superstep a round.
    void broadcast(const std::vector<std::vector<int>>& groups, const std::vector<std::vector<double>>& bytes) {
        std::size_t n = 0;
        for (const auto& g : groups) {
            n = std::max(n, g.size());
        }
        for (std::size_t t = 1; t < n; t <<= 1) {
            std::vector<C3Message> messages;
            for (std::size_t g = 0; g < groups.size(); ++g) {
                for (std::size_t k = 0; k < groups[g].size(); ++k) {
                    const std::size_t partner = k ^ t;
                    if (partner >= groups[g].size()) {
                        continue;
                    }
                    double known = 0.0;
                    const std::size_t run = k / t * t;
                    for (std::size_t i = run; i < std::min(run + t, groups[g].size()); ++i) {
                        known += bytes[g][i];
                    }
                    messages.push_back({groups[g][k], groups[g][partner], known});
                }
            }
            superstep(messages);
        }
    }

    /// A merge of `bytes` of lists by one processor (the busiest): ⌈bytes / l⌉ computation units (paper §2.1).
    void touch(double bytes) { units_.computation += std::ceil(bytes / machine_.l); }

    [[nodiscard]] const ContourC3Units& units() const noexcept { return units_; }

  private:
    C3Machine machine_;
    int q_;
    ContourC3Units units_;
};

}  // namespace

ContourC3Units contour_rank_c3_units(int P,
                                     std::int64_t width,
                                     std::int64_t height,
                                     double edge_density,
                                     ContourPattern pattern,
                                     const C3Machine& machine) {
    constexpr const char* name = "llc::cost::contour_rank_c3_units";
    check(name, P, width, height, edge_density, pattern);
    const int q = cr::integer_sqrt(P);
    if (q * q != P || (q & (q - 1)) != 0) {
        throw_argument_error(name, "P", std::to_string(P), "must be 4^k (a q × q mesh, q a power of two)");
    }
    if (machine.p != P) {
        throw_argument_error(name, "machine.p", std::to_string(machine.p), "must equal P = " + std::to_string(P));
    }
    const cr::ImageLayout layout{P, {q, q}, width, height};
    const auto list_bytes = [&](int r0, int r1, int c0, int c1) {
        return list_segments(layout.pixels({r0, r1, c0, c1}), edge_density) * segment_bytes;
    };
    C3Run run(machine, q);
    const auto at = [q](int i, int j) { return i * q + j; };
    if (pattern == ContourPattern::one_level_direct) {
        std::vector<int> all;
        std::vector<double> bytes;
        for (int b = 0; b < P; ++b) {
            all.push_back(b);
            bytes.push_back(list_bytes(b / q, b / q + 1, b % q, b % q + 1));
        }
        run.broadcast({all}, {bytes});
        run.touch(std::accumulate(bytes.begin(), bytes.end(), 0.0));
    } else if (pattern == ContourPattern::two_level_row_column) {
        std::vector<std::vector<int>> rows(static_cast<std::size_t>(q));
        std::vector<std::vector<int>> cols(static_cast<std::size_t>(q));
        std::vector<std::vector<double>> row_bytes(static_cast<std::size_t>(q));
        std::vector<std::vector<double>> col_bytes(static_cast<std::size_t>(q));
        for (int i = 0; i < q; ++i) {
            for (int j = 0; j < q; ++j) {
                rows[static_cast<std::size_t>(i)].push_back(at(i, j));
                row_bytes[static_cast<std::size_t>(i)].push_back(list_bytes(i, i + 1, j, j + 1));
                cols[static_cast<std::size_t>(j)].push_back(at(i, j));
                col_bytes[static_cast<std::size_t>(j)].push_back(list_bytes(i, i + 1, 0, q));
            }
        }
        run.broadcast(rows, row_bytes);
        run.touch(std::accumulate(row_bytes[0].begin(), row_bytes[0].end(), 0.0));
        run.broadcast(cols, col_bytes);
        run.touch(std::accumulate(col_bytes[0].begin(), col_bytes[0].end(), 0.0));
    } else {
        // quad, and bal on the bit-reversed placement: block (i, j)'s list sits at holder[(i, j)].
        std::vector<int> holder(static_cast<std::size_t>(P));
        for (int b = 0; b < P; ++b) {
            holder[static_cast<std::size_t>(b)] = b;
        }
        const bool balanced = pattern == ContourPattern::log_level_balanced;
        if (balanced) {
            holder = cr::balanced_holders({q, q});
            std::vector<C3Message> permute;
            for (int b = 0; b < P; ++b) {
                permute.push_back(
                    {b, holder[static_cast<std::size_t>(b)], list_bytes(b / q, b / q + 1, b % q, b % q + 1)});
            }
            run.superstep(permute);
            run.touch(permute.front().bytes);
        }
        // Level k merges the 2 × 2 regions of side 2^(k−1) blocks: four members, row partner first (k xor 1), then
        // column partner (k xor 2).
        for (int side = 1; side < q; side *= 2) {
            std::vector<std::vector<int>> groups;
            std::vector<std::vector<double>> bytes;
            for (int i = 0; i < q; ++i) {
                for (int j = 0; j < q; ++j) {
                    if ((i & side) != 0 || (j & side) != 0) {
                        continue;
                    }
                    std::vector<int> members;
                    std::vector<double> lists;
                    for (const auto& [di, dj] :
                         {std::pair{0, 0}, std::pair{0, side}, std::pair{side, 0}, std::pair{side, side}}) {
                        members.push_back(holder[static_cast<std::size_t>(at(i + di, j + dj))]);
                        const int r0 = (i + di) / side * side;
                        const int c0 = (j + dj) / side * side;
                        lists.push_back(list_bytes(r0, r0 + side, c0, c0 + side));
                    }
                    groups.push_back(std::move(members));
                    bytes.push_back(std::move(lists));
                }
            }
            run.broadcast(groups, bytes);
            run.touch(std::accumulate(bytes[0].begin(), bytes[0].end(), 0.0));
        }
        if (balanced) {
            std::vector<C3Message> back;
            for (int b = 0; b < P; ++b) {
                const double n = list_segments(layout.pixels({b / q, b / q + 1, b % q, b % q + 1}), edge_density);
                back.push_back({holder[static_cast<std::size_t>(b)], b, n * resolution_bytes});
            }
            run.superstep(back);
            run.touch(back.front().bytes);
        }
    }
    return run.units();
}

}  // namespace llc::cost
