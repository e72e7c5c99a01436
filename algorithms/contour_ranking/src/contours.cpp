// The ranking of a BorderMap's borders by the machinery of contour_rank (graph.hpp), and the assembly of the ranked
// borders into point lists (contours()).
#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <llc/algorithms/contour_ranking.hpp>
#include <llc/error.hpp>

#include "border_kernels.hpp"
#include "graph.hpp"

namespace llc {

/// Private parts of BorderMap that contours() reads.
struct BorderMapAccess {
    static const std::vector<std::uint8_t>& north(const BorderMap& m) { return m.north_; }
};

namespace {

using namespace detail::contour_ranking;

/// A BorderMap's block as the nodes of rank_graph: its states.
class StateView {
  public:
    StateView(std::span<const std::int64_t> states,
              std::span<const std::int64_t> successors,
              std::span<const std::int64_t> local_next)
        : states_(states), successors_(successors), local_next_(local_next) {}
    [[nodiscard]] std::size_t size() const noexcept { return states_.size(); }
    [[nodiscard]] static bool active(std::size_t /*i*/) noexcept { return true; }
    [[nodiscard]] std::int64_t next(std::size_t i) const { return local_next_[i]; }
    [[nodiscard]] std::int64_t global(std::size_t i) const { return states_[i]; }
    [[nodiscard]] std::int64_t out(std::size_t i) const { return successors_[i]; }

  private:
    std::span<const std::int64_t> states_;
    std::span<const std::int64_t> successors_;
    std::span<const std::int64_t> local_next_;
};

}  // namespace

std::vector<ContourRank> contour_rank(Group& group,
                                      const BorderMap& borders,
                                      ContourPattern pattern,
                                      const cost::Profile* profile) {
    const char* function = "llc::contour_rank";
    std::string error;
    if (borders.processors() != group.size()) {
        error = argument_message(function,
                                 "borders",
                                 "traced on " + std::to_string(borders.processors()) + " processors",
                                 "must be traced on this group's " + std::to_string(group.size()));
    }
    check_pattern(group, function, pattern, error);
    // automatic: the pattern cost::contour_rank of the image's BorderDensity prices lowest.
    const PatternPrice price =
        [](int P, std::int64_t width, std::int64_t height, double density, ContourPattern p, const cost::Profile& f) {
            return cost::contour_rank(P, width, height, cost::BorderDensity{density}, p, f);
        };
    pattern = resolve_pattern(group,
                              pattern,
                              static_cast<std::int64_t>(borders.states().size()),
                              borders.width(),
                              borders.height(),
                              profile,
                              price);
    const ImageLayout layout{group.size(), grid_of(group.size()), borders.width(), borders.height(), kStatesPerPixel};
    return rank_graph(
        group, pattern, layout, borders.block(), StateView(borders.states_, borders.successors_, borders.local_next_));
}

namespace {

/// The number of each head among the sorted `heads`, by open addressing (a table of at least twice as many slots,
/// which stays in the first-level cache for thousands of contours): every point asks, and a binary search per point
/// was a third of contours().
class HeadIndex {
  public:
    explicit HeadIndex(std::span<const std::int64_t> heads) {
        while (std::size_t{1} << bits_ < 2 * heads.size() + 1) {
            ++bits_;
        }
        slots_.assign(std::size_t{1} << bits_, Slot{kNone, 0});
        for (std::size_t c = 0; c < heads.size(); ++c) {
            std::size_t at = home(heads[c]);
            while (slots_[at].head != kNone) {
                at = (at + 1) & (slots_.size() - 1);
            }
            slots_[at] = {heads[c], static_cast<std::uint32_t>(c)};
        }
    }

    /// The number of `head`, which is one of the heads.
    [[nodiscard]] std::uint32_t operator()(std::int64_t head) const {
        std::size_t at = home(head);
        while (slots_[at].head != head) {
            at = (at + 1) & (slots_.size() - 1);
        }
        return slots_[at].number;
    }

  private:
    struct Slot {
        std::int64_t head;
        std::uint32_t number;
    };

    [[nodiscard]] std::size_t home(std::int64_t head) const {
        return static_cast<std::size_t>((static_cast<std::uint64_t>(head) * 0x9E3779B97F4A7C15ULL) >> (64 - bits_));
    }

    unsigned bits_ = 1;
    std::vector<Slot> slots_;
};

/// One state of a border on its way to the root: the border's head, the state's rank and its pixel.
struct PointRecord {
    std::int64_t head;
    std::int64_t rank;
    std::int64_t pixel;
};

}  // namespace

std::vector<Contour> contours(Group& group, const BorderMap& borders, std::span<const ContourRank> ranks, int root) {
    const char* function = "llc::contours";
    std::string error = group.root_error(function, root);
    if (error.empty() && ranks.size() != borders.states().size()) {
        error =
            argument_message(function,
                             "ranks.size()",
                             std::to_string(ranks.size()),
                             "must be this rank's number of border states " + std::to_string(borders.states().size()));
    }
    group.check_same(function, {{"root", root}}, error);
    const auto states = borders.states();
    const auto& north = BorderMapAccess::north(borders);
    std::vector<PointRecord> records(states.size());
    std::vector<std::int64_t> outer;
    for (std::size_t i = 0; i < states.size(); ++i) {
        const std::int64_t pixel = states[i] / kStatesPerPixel;
        records[i] = {ranks[i].head, ranks[i].rank, pixel};
        // The state that passes the north background of its border's head pixel: that border is outer.
        if (north[i] != 0 && ranks[i].head / kStatesPerPixel == pixel) {
            outer.push_back(ranks[i].head);
        }
    }
    std::vector<PointRecord> all = group.gatherv(std::span<const PointRecord>(records), root);
    std::vector<std::int64_t> outer_heads = group.gatherv(std::span<const std::int64_t>(outer), root);
    if (group.rank() != root) {
        return {};
    }
    // Each border from its head (rank 0), then following successors: ranks L − 1, L − 2, …, 1. The heads in
    // increasing order number the contours; each record goes straight to its place.
    std::vector<std::int64_t> heads;
    for (const PointRecord& p : all) {
        if (p.rank == 0) {
            heads.push_back(p.head);
        }
    }
    std::sort(heads.begin(), heads.end());
    std::sort(outer_heads.begin(), outer_heads.end());
    const HeadIndex contour_of(heads);
    std::vector<std::uint32_t> owner(all.size());
    std::vector<std::size_t> length(heads.size(), 0);
    for (std::size_t k = 0; k < all.size(); ++k) {
        owner[k] = contour_of(all[k].head);
        ++length[owner[k]];
    }
    std::vector<Contour> out(heads.size());
    const std::int64_t width = borders.width();
    for (std::size_t c = 0; c < out.size(); ++c) {
        out[c].id = heads[c];
        out[c].hole = !std::binary_search(outer_heads.begin(), outer_heads.end(), heads[c]);
        out[c].points.resize(length[c]);
    }
    for (std::size_t k = 0; k < all.size(); ++k) {
        const PointRecord& p = all[k];
        std::vector<ContourPoint>& points = out[owner[k]].points;
        const auto n = static_cast<std::int64_t>(points.size());
        points[static_cast<std::size_t>(p.rank == 0 ? 0 : n - p.rank)] = {p.pixel / width, p.pixel % width};
    }
    return out;
}

}  // namespace llc
