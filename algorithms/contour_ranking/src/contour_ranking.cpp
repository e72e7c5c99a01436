// Contour ranking by the C³ paper's three steps (§5): local ranking into block segments, the merge of the blocks'
// boundary lists by one of the four patterns of §5.2 (forward merges, then a backward pass without communication),
// and the resolution of every pixel. The segment design is the digest's §3.4, extended to cycles.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <unordered_map>

#include <llc/agreement.hpp>
#include <llc/algorithms/contour_ranking.hpp>
#include <llc/algorithms/contour_ranking_names.hpp>
#include <llc/error.hpp>
#include <llc/par.hpp>
#include <llc/trace.hpp>

#include "graph.hpp"

namespace llc {
namespace {

using namespace detail::contour_ranking;

constexpr std::array<ContourPattern, 5> kPatterns = {ContourPattern::one_level_direct,
                                                     ContourPattern::two_level_row_column,
                                                     ContourPattern::log_level_quad,
                                                     ContourPattern::log_level_balanced,
                                                     ContourPattern::automatic};

bool is_direction(std::int8_t code) {
    return code >= 0 && code < 8;
}

using Neighbourhood = Halo<std::int8_t>;

enum class Fault : std::int64_t { bad_code = 0, off_image = 1, to_non_edge = 2, two_predecessors = 3 };

/// A fault as one number, smallest pixel first, so that one allreduce(min) picks the same fault everywhere.
std::int64_t fault_key(std::int64_t index, Fault fault, int direction) {
    return index * 32 + static_cast<std::int64_t>(fault) * 8 + direction;
}

[[noreturn]] void throw_fault(std::int64_t key, std::int64_t width) {
    const std::int64_t index = key / 32;
    const auto fault = static_cast<Fault>((key % 32) / 8);
    const int direction = static_cast<int>(key % 8);
    const std::int64_t r = index / width;
    const std::int64_t c = index % width;
    const std::string pixel = "pixel (" + std::to_string(r) + ", " + std::to_string(c) + ")";
    std::string why;
    switch (fault) {
        case Fault::bad_code:
            why = "its code is outside [-1, 8]";
            break;
        case Fault::off_image:
            why = "its successor (direction " + std::to_string(direction) + ") is off the image";
            break;
        case Fault::to_non_edge:
            why = "its successor (" + std::to_string(r + kRowStep[direction]) + ", " +
                  std::to_string(c + kColStep[direction]) + ") is a non-edge pixel";
            break;
        case Fault::two_predecessors:
            why = "it has two predecessors";
            break;
    }
    throw_argument_error("llc::validate_successor_map", "succ", pixel, why);
}

/// The smallest fault key of this block, or max() for none.
std::int64_t first_fault(const SuccessorMap& succ, const Neighbourhood& around) {
    const PixelBlock& b = succ.block();
    std::int64_t best = std::numeric_limits<std::int64_t>::max();
    for (std::int64_t r = b.row0; r < b.row0 + b.rows; ++r) {
        for (std::int64_t c = b.col0; c < b.col0 + b.cols; ++c) {
            const std::int64_t index = r * succ.width() + c;
            const std::int8_t code = around.at(r, c);
            if (code < -1 || code > 8) {
                best = std::min(best, fault_key(index, Fault::bad_code, 0));
                continue;
            }
            if (is_direction(code)) {
                const std::int64_t tr = r + kRowStep[code];
                const std::int64_t tc = c + kColStep[code];
                if (tr < 0 || tc < 0 || tr >= succ.height() || tc >= succ.width()) {
                    best = std::min(best, fault_key(index, Fault::off_image, code));
                } else if (around.at(tr, tc) == succ_code::non_edge) {
                    best = std::min(best, fault_key(index, Fault::to_non_edge, code));
                }
            }
            int predecessors = 0;
            for (int d = 0; d < 8; ++d) {
                // The neighbour in direction d points back here when its code is the opposite direction.
                const std::int8_t n = around.at(r + kRowStep[d], c + kColStep[d]);
                predecessors += n == (d + 4) % 8 ? 1 : 0;
            }
            if (predecessors > 1 && code != succ_code::non_edge) {
                best = std::min(best, fault_key(index, Fault::two_predecessors, 0));
            }
        }
    }
    return best;
}

/// A successor map's block as the nodes of rank_graph: one per pixel, row-major.
class PixelView {
  public:
    explicit PixelView(const SuccessorMap& succ) : succ_(succ), next_(succ.codes().size(), kNone) {
        const PixelBlock& b = succ.block();
        const auto codes = succ.codes();
        for (std::size_t i = 0; i < next_.size(); ++i) {
            if (is_direction(codes[i])) {
                const std::int64_t r = static_cast<std::int64_t>(i) / b.cols + b.row0 + kRowStep[codes[i]];
                const std::int64_t c = static_cast<std::int64_t>(i) % b.cols + b.col0 + kColStep[codes[i]];
                if (b.contains(r, c)) {
                    next_[i] = (r - b.row0) * b.cols + (c - b.col0);
                }
            }
        }
    }
    [[nodiscard]] std::size_t size() const noexcept { return next_.size(); }
    [[nodiscard]] bool active(std::size_t i) const { return succ_.codes()[i] != succ_code::non_edge; }
    [[nodiscard]] std::int64_t next(std::size_t i) const { return next_[i]; }
    [[nodiscard]] std::int64_t global(std::size_t i) const {
        const PixelBlock& b = succ_.block();
        const auto k = static_cast<std::int64_t>(i);
        return (k / b.cols + b.row0) * succ_.width() + k % b.cols + b.col0;
    }
    [[nodiscard]] std::int64_t out(std::size_t i) const {
        const std::int8_t code = succ_.codes()[i];
        return is_direction(code) ? global(i) + kRowStep[code] * succ_.width() + kColStep[code] : kNone;
    }

  private:
    const SuccessorMap& succ_;
    std::vector<std::int64_t> next_;
};

}  // namespace

PixelBlock block_of(int rank, int processors, std::int64_t width, std::int64_t height) {
    const int q = integer_sqrt(processors);
    if (q * q == processors) {
        const auto [row0, rows] = part(rank / q, q, height);
        const auto [col0, cols] = part(rank % q, q, width);
        return {row0, col0, rows, cols};
    }
    const auto [row0, rows] = part(rank, processors, height);
    return {row0, 0, rows, width};
}

SuccessorMap SuccessorMap::from_whole(Group& group,
                                      std::int64_t width,
                                      std::int64_t height,
                                      std::span<const std::int8_t> all) {
    return SuccessorMap(
        group, width, height, block_from_whole(group, "llc::SuccessorMap::from_whole", width, height, all));
}

SuccessorMap::SuccessorMap(Group& group, std::int64_t width, std::int64_t height, std::vector<std::int8_t> local)
    : width_(width),
      height_(height),
      block_(checked_block(group, "llc::SuccessorMap", width, height, local.size())),
      codes_(std::move(local)) {}

void validate_successor_map(Group& group, const SuccessorMap& succ) {
    const Neighbourhood around = [&] {
        const Label label(names::contour_ranking::validate_borders);
        return Neighbourhood(group, succ.block(), succ.width(), succ.height(), succ.codes(), succ_code::non_edge);
    }();
    const Label label(names::contour_ranking::validate);
    const std::int64_t fault = group.allreduce(first_fault(succ, around), Op::min);
    if (fault != std::numeric_limits<std::int64_t>::max()) {
        throw_fault(fault, succ.width());
    }
}

std::string_view to_string(ContourPattern pattern) {
    switch (pattern) {
        case ContourPattern::one_level_direct:
            return "1-lev-dir";
        case ContourPattern::two_level_row_column:
            return "2-lev-rc";
        case ContourPattern::log_level_quad:
            return "logp-lev-quad";
        case ContourPattern::log_level_balanced:
            return "logp-lev-bal";
        case ContourPattern::automatic:
            return "auto";
    }
    return "?";
}

ContourPattern contour_pattern_from_string(std::string_view name) {
    for (const auto p : kPatterns) {
        if (name == to_string(p)) {
            return p;
        }
    }
    throw_argument_error("llc::contour_pattern_from_string",
                         "pattern",
                         std::string(name),
                         "must be one of 1-lev-dir, 2-lev-rc, logp-lev-quad, logp-lev-bal, auto");
}

namespace detail::contour_ranking {

void check_pattern(Group& group, const char* function, ContourPattern pattern, std::string error) {
    const bool known = std::find(kPatterns.begin(), kPatterns.end(), pattern) != kPatterns.end();
    if (error.empty() && !known) {
        error = argument_message(
            function, "pattern", std::to_string(static_cast<long long>(pattern)), "is not a ContourPattern");
    }
    Agreement(group, function)
        .same("pattern", static_cast<long long>(pattern), known ? to_string(pattern) : std::string_view{})
        .error(error)
        .check();
}

ContourPattern cheapest_pattern(
    int P, std::int64_t width, std::int64_t height, double density, const cost::Profile* profile, PatternPrice price) {
    if (profile == nullptr) {
        return ContourPattern::log_level_quad;
    }
    const auto model = cost::make_model("ccm", *profile);
    ContourPattern best = ContourPattern::one_level_direct;
    double best_time = std::numeric_limits<double>::max();
    for (const auto p : kPatterns) {
        if (p == ContourPattern::automatic) {
            continue;
        }
        const double t = cost::predict(price(P, width, height, density, p, *profile), *model);
        if (t < best_time) {
            best_time = t;
            best = p;
        }
    }
    return best;
}

ContourPattern resolve_pattern(Group& group,
                               ContourPattern pattern,
                               std::int64_t local_nodes,
                               std::int64_t width,
                               std::int64_t height,
                               const cost::Profile* profile,
                               PatternPrice price) {
    if (pattern != ContourPattern::automatic) {
        return pattern;
    }
    const std::int64_t total = group.allreduce(local_nodes, Op::sum);
    const std::int64_t pixels = width * height;
    const double density = pixels == 0 ? 0.0 : static_cast<double>(total) / static_cast<double>(pixels);
    // The cost model chooses on each rank: a profile given on some ranks only, or different profiles, would choose
    // different patterns, whose messages do not match. Agreed before any moves.
    std::string error;
    ContourPattern chosen = ContourPattern::automatic;
    try {
        chosen = cheapest_pattern(group.size(), width, height, density, profile, price);
    } catch (const Error& e) {
        error = std::string("llc::contour_rank: choosing the pattern: ") + e.what();
    }
    Agreement(group, "llc::contour_rank")
        .same("pattern chosen by the cost model", static_cast<long long>(chosen), to_string(chosen))
        .error(error)
        .check();
    return chosen;
}

/// cost::contour_rank of a successor map with `density` edge pixels a pixel (at most 1).
cost::Expr successor_map_price(int P,
                               std::int64_t width,
                               std::int64_t height,
                               double density,
                               ContourPattern pattern,
                               const cost::Profile& profile) {
    return cost::contour_rank(P, width, height, std::min(1.0, density), pattern, profile);
}

}  // namespace detail::contour_ranking

std::vector<ContourRank> contour_rank(Group& group,
                                      const SuccessorMap& succ,
                                      ContourPattern pattern,
                                      const cost::Profile* profile) {
    check_pattern(group, "llc::contour_rank", pattern, {});
    validate_successor_map(group, succ);
    const auto edges =
        pattern != ContourPattern::automatic
            ? 0
            : static_cast<std::int64_t>(std::count_if(
                  succ.codes().begin(), succ.codes().end(), [](std::int8_t c) { return c != succ_code::non_edge; }));
    pattern = resolve_pattern(group, pattern, edges, succ.width(), succ.height(), profile, successor_map_price);
    const ImageLayout layout{group.size(), grid_of(group.size()), succ.width(), succ.height()};
    return rank_graph(group, pattern, layout, succ.block(), PixelView(succ));
}

std::vector<std::int8_t> synthetic_successor_map(
    std::int64_t width, std::int64_t height, double density, ContourLines lines, std::int64_t offset) {
    const char* function = "llc::synthetic_successor_map";
    if (width < 0 || height < 0) {
        throw_argument_error(
            function, width < 0 ? "width" : "height", std::to_string(width < 0 ? width : height), "must be ≥ 0");
    }
    if (!(density >= 0.0 && density <= 1.0)) {
        throw_argument_error(function, "density", std::to_string(density), "must be in [0, 1]");
    }
    std::vector<std::int8_t> codes(static_cast<std::size_t>(width * height), succ_code::non_edge);
    if (density == 0.0) {
        return codes;
    }
    const auto k = std::max<std::int64_t>(1, std::llround(1.0 / density));
    for (std::int64_t r = 0; r < height; ++r) {
        for (std::int64_t c = 0; c < width; ++c) {
            const bool diagonal = lines == ContourLines::diagonal;
            if ((diagonal ? (c - r - offset) % k : (c - offset) % k) != 0) {
                continue;
            }
            const bool end = r == height - 1 || (diagonal && c == width - 1);
            codes[static_cast<std::size_t>(r * width + c)] =
                end ? succ_code::head : static_cast<std::int8_t>(diagonal ? 7 : 6);
        }
    }
    return codes;
}

ContourPattern choose_contour_pattern(
    int P, std::int64_t width, std::int64_t height, double edge_density, const cost::Profile* profile) {
    return detail::contour_ranking::cheapest_pattern(
        P, width, height, edge_density, profile, detail::contour_ranking::successor_map_price);
}

}  // namespace llc
