// Contour tracing of a binary image as a successor graph on border states (see BorderMap), its ranking by the
// machinery of contour_rank (graph.hpp), and the assembly of the ranked borders into point lists.
#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <string>

#include <llc/algorithms/contour_ranking.hpp>
#include <llc/error.hpp>

#include "graph.hpp"

namespace llc {

/// Private parts of BorderMap that contours() reads.
struct BorderMapAccess {
    static const std::vector<std::uint8_t>& north(const BorderMap& m) { return m.north_; }
};

namespace {

using namespace detail::contour_ranking;

/// What a pixel with foreground-neighbour mask m (bit d set when the neighbour in direction d is foreground) does with
/// the states entering it: for each entry direction b, the exit direction out[b], whether (m, b) is a border state
/// (bit b of `border`) and whether its sweep passes the north neighbour (bit b of `north`).
struct PixelRule {
    std::array<std::uint8_t, 8> out{};
    std::uint8_t border = 0;
    std::uint8_t north = 0;
};

/// The rules of all 256 masks for one connectivity. The exit is the first foreground neighbour counter-clockwise after
/// b among the moves (all 8 directions, or the 4 axial ones); the sweep is the directions strictly between b and the
/// exit. A state is on a border when its sweep holds background that is adjacent to the pixel in the background's
/// connectivity: an axial neighbour for 8-connectivity (background 4-connected), any for 4-connectivity.
std::array<PixelRule, 256> make_rules(Connectivity connectivity) {
    const int step = connectivity == Connectivity::eight ? 1 : 2;
    std::array<PixelRule, 256> rules{};
    for (int m = 0; m < 256; ++m) {
        PixelRule& rule = rules[static_cast<std::size_t>(m)];
        for (int b = 0; b < 8; b += step) {
            if ((m >> b & 1) == 0) {
                continue;
            }
            int out = b + step;
            while (((m >> (out & 7)) & 1) == 0) {
                out += step;
            }
            bool border = false;
            bool north = false;
            for (int d = b + 1; d < out; ++d) {
                const bool background = ((m >> (d & 7)) & 1) == 0;
                border = border || (background && (step == 2 || (d & 1) == 0));
                north = north || (background && (d & 7) == 2);
            }
            rule.out[static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(out & 7);
            rule.border = static_cast<std::uint8_t>(rule.border | (border ? 1 << b : 0));
            rule.north = static_cast<std::uint8_t>(rule.north | (north ? 1 << b : 0));
        }
    }
    return rules;
}

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

constexpr std::int64_t kStatesPerPixel = 8;

/// Pixels tested at once, as a vector (GCC and Clang vector extensions: SSE2/AVX on x86-64, NEON on ARM, scalar code
/// elsewhere).
constexpr int kLanes = 32;
using Bytes = std::int8_t __attribute__((vector_size(kLanes)));

/// −1 in each byte of the kLanes at p that is zero, 0 elsewhere.
[[gnu::always_inline]] inline Bytes is_zero(const std::uint8_t* p) {
    Bytes v;
    std::memcpy(&v, p, sizeof v);
    return v == Bytes{};
}

}  // namespace

BinaryImage BinaryImage::from_whole(Group& group,
                                    std::int64_t width,
                                    std::int64_t height,
                                    std::span<const std::uint8_t> all) {
    return BinaryImage(
        group, width, height, block_from_whole(group, "llc::BinaryImage::from_whole", width, height, all));
}

BinaryImage::BinaryImage(Group& group, std::int64_t width, std::int64_t height, std::vector<std::uint8_t> local)
    : width_(width),
      height_(height),
      block_(checked_block(group, "llc::BinaryImage", width, height, local.size())),
      pixels_(std::move(local)) {}

BorderMap trace_contours(Group& group, const BinaryImage& image, Connectivity connectivity) {
    const char* function = "llc::trace_contours";
    const bool known = connectivity == Connectivity::four || connectivity == Connectivity::eight;
    group.check_same(function,
                     {{"connectivity", static_cast<long long>(connectivity)}},
                     known ? std::string()
                           : argument_message(function,
                                              "connectivity",
                                              std::to_string(static_cast<long long>(connectivity)),
                                              "must be Connectivity::four or Connectivity::eight"));
    static const std::array<std::array<PixelRule, 256>, 2> all_rules = {make_rules(Connectivity::four),
                                                                        make_rules(Connectivity::eight)};
    const auto& rules = all_rules[connectivity == Connectivity::eight ? 1 : 0];
    const bool eight = connectivity == Connectivity::eight;
    const std::uint8_t moves = eight ? 0xFF : 0x55;

    BorderMap map;
    map.width_ = image.width();
    map.height_ = image.height();
    map.connectivity_ = connectivity;
    map.processors_ = group.size();
    map.block_ = image.block();
    const PixelBlock& b = map.block_;
    const std::int64_t width = image.width();
    // The ring of pixels around the block; the block's own pixels are read in place (foreground: nonzero).
    const std::span<const std::uint8_t> pixels = image.pixels();
    const Ring<std::uint8_t> ring(group, b, width, image.height(), pixels, 0);
    const std::uint8_t interior = eight ? 0x55 : 0xFF;  // the neighbours that make a foreground pixel interior
    // Pass 1: every border state, its successor and north flag; row_start[r] is the first state of block row r.
    std::vector<std::int64_t> row_start(static_cast<std::size_t>(b.rows + 1), 0);
    // The states of pixel (row0 + r, col0 + c), foreground with neighbour mask `mask`, not interior.
    const auto visit = [&](unsigned mask, std::int64_t r, std::int64_t c) {
        const std::int64_t pixel = (b.row0 + r) * width + b.col0 + c;
        if ((mask & moves) == 0) {
            // A border of one pixel: one state, its own successor.
            map.states_.push_back(pixel * kStatesPerPixel);
            map.successors_.push_back(pixel * kStatesPerPixel);
            map.north_.push_back(1);
            return;
        }
        const PixelRule& rule = rules[mask];
        for (unsigned bits = rule.border; bits != 0; bits &= bits - 1) {
            const auto entry = static_cast<std::size_t>(std::countr_zero(bits));
            const std::uint8_t exit = rule.out[entry];
            const std::int64_t next_pixel = pixel + kRowStep[exit] * width + kColStep[exit];
            map.states_.push_back(pixel * kStatesPerPixel + static_cast<std::int64_t>(entry));
            map.successors_.push_back(next_pixel * kStatesPerPixel + ((exit + 4) & 7));
            map.north_.push_back(static_cast<std::uint8_t>((rule.north >> entry) & 1));
        }
    };
    const std::int64_t cols = b.cols;
    std::vector<std::int64_t> candidates(static_cast<std::size_t>(cols) + 1);  // one row's, at most every column
    std::vector<std::uint8_t> masks(candidates.size());                        // their neighbour masks
    std::array<Bytes, 8> bit_lanes;                                            // bit d of a mask in every lane
    for (std::size_t d = 0; d < 8; ++d) {
        std::memset(&bit_lanes[d], 1 << d, sizeof(Bytes));
    }
    for (std::int64_t r = 0; r < b.rows; ++r) {
        row_start[static_cast<std::size_t>(r)] = static_cast<std::int64_t>(map.states_.size());
        // Rows r − 1, r, r + 1 (the ring's top or bottom row at the block's edge), each with its values left and right
        // of the block.
        const auto k = static_cast<std::size_t>(r);
        const std::uint8_t* rows[3] = {
            r == 0 ? ring.top().data() + 1 : pixels.data() + (r - 1) * cols,
            pixels.data() + r * cols,
            r == b.rows - 1 ? ring.bottom().data() + 1 : pixels.data() + (r + 1) * cols,
        };
        const std::uint8_t lefts[3] = {r == 0 ? ring.top()[0] : ring.left()[k - 1],
                                       ring.left()[k],
                                       r == b.rows - 1 ? ring.bottom()[0] : ring.left()[k + 1]};
        const std::uint8_t rights[3] = {
            r == 0 ? ring.top()[static_cast<std::size_t>(cols + 1)] : ring.right()[k - 1],
            ring.right()[k],
            r == b.rows - 1 ? ring.bottom()[static_cast<std::size_t>(cols + 1)] : ring.right()[k + 1]};
        // Neighbour (dr, dc) of column c, anywhere in [0, cols).
        const auto at = [&](int dr, std::int64_t c) {
            const auto i = static_cast<std::size_t>(dr + 1);
            return c < 0 ? lefts[i] : c >= cols ? rights[i] : rows[i][c];
        };
        // The mask of column c, read pixel by pixel (bit d: the neighbour in direction d is foreground).
        const auto mask_of = [&](std::int64_t c) {
            unsigned mask = 0;
            for (std::size_t d = 0; d < 8; ++d) {
                mask |= (at(kRowStep[d], c + kColStep[d]) != 0 ? 1U : 0U) << d;
            }
            return mask;
        };
        // First the row's border pixels with their masks, in a loop without calls: kLanes pixels at a time while all
        // their neighbours are in the block's columns, keeping the foreground pixels that are not interior (every
        // axial neighbour foreground for 8-connectivity, every neighbour for 4-connectivity); most runs of kLanes have
        // none. The masks of a run that has some are made in the vector registers the test already holds. The first
        // column and the last ones: every foreground pixel, its mask read pixel by pixel.
        const std::uint8_t* const up = rows[0];
        const std::uint8_t* const mid = rows[1];
        const std::uint8_t* const down = rows[2];
        std::int64_t* next = candidates.data();
        std::uint8_t* next_mask = masks.data();
        const auto add_if_border = [&](std::int64_t at_c) {
            if (mid[at_c] == 0) {
                return;
            }
            const unsigned mask = mask_of(at_c);
            if ((mask & interior) != interior) {
                *next++ = at_c;
                *next_mask++ = static_cast<std::uint8_t>(mask);
            }
        };
        std::int64_t c = 0;
        if (cols > 0) {
            add_if_border(0);
        }
        for (c = 1; c + kLanes + 1 <= cols; c += kLanes) {
            // Zero (background) lanes of each neighbour, in Freeman order: E, NE, N, NW, W, SW, S, SE.
            const Bytes zero[8] = {is_zero(mid + c + 1),
                                   is_zero(up + c + 1),
                                   is_zero(up + c),
                                   is_zero(up + c - 1),
                                   is_zero(mid + c - 1),
                                   is_zero(down + c - 1),
                                   is_zero(down + c),
                                   is_zero(down + c + 1)};
            Bytes open = zero[0] | zero[2] | zero[4] | zero[6];
            if (!eight) {
                open |= zero[1] | zero[3] | zero[5] | zero[7];
            }
            const Bytes border = open & ~is_zero(mid + c);
            std::uint64_t words[kLanes / 8];
            std::memcpy(words, &border, sizeof words);
            std::uint64_t any = 0;
            for (const std::uint64_t w : words) {
                any |= w;
            }
            if (any == 0) {
                continue;
            }
            Bytes mask_lanes{};
            for (std::size_t d = 0; d < 8; ++d) {
                mask_lanes |= ~zero[d] & bit_lanes[d];
            }
            std::uint8_t lane_masks[kLanes];
            std::memcpy(lane_masks, &mask_lanes, sizeof lane_masks);
            if constexpr (std::endian::native == std::endian::little) {
                // Byte k of word w is lane 8w + k: one bit a border lane, taken lowest first.
                for (std::size_t w = 0; w < kLanes / 8; ++w) {
                    for (std::uint64_t bits = words[w] & 0x8080808080808080ULL; bits != 0; bits &= bits - 1) {
                        const std::size_t lane = 8 * w + static_cast<std::size_t>(std::countr_zero(bits)) / 8;
                        *next++ = c + static_cast<std::int64_t>(lane);
                        *next_mask++ = lane_masks[lane];
                    }
                }
            } else {
                for (int j = 0; j < kLanes; ++j) {
                    if (border[j] != 0) {
                        *next++ = c + j;
                        *next_mask++ = lane_masks[j];
                    }
                }
            }
        }
        for (; c < cols; ++c) {
            add_if_border(c);
        }
        // Then their states.
        for (std::size_t i = 0; i < static_cast<std::size_t>(next - candidates.data()); ++i) {
            visit(masks[i], r, candidates[i]);
        }
    }
    row_start.back() = static_cast<std::int64_t>(map.states_.size());
    // Pass 2: each successor inside the block, from the first state of each pixel of the rows above, at and below
    // (three rows of column tables, reused round-robin) and a few steps along that pixel's states.
    map.local_next_.assign(map.states_.size(), kNone);
    const auto& states = map.states_;
    std::vector<std::int64_t> first_at(static_cast<std::size_t>(3 * cols), kNone);
    const auto table = [&](std::int64_t row) { return first_at.data() + (row % 3) * cols; };
    const auto column = [&](std::int64_t state, std::int64_t row) {
        return state / kStatesPerPixel - (b.row0 + row) * width - b.col0;
    };
    // Sets the table entries of row `row`'s pixels that have states to their first state. The entries of other pixels
    // keep what an earlier row left there: a successor always has states, so only its own pixel's entry is read, and
    // the check below tells a stale entry from the right one by its pixel.
    const auto index_row = [&](std::int64_t row) {
        std::int64_t* t = table(row);
        for (std::int64_t k = row_start[static_cast<std::size_t>(row + 1)] - 1;
             k >= row_start[static_cast<std::size_t>(row)];
             --k) {
            t[column(states[static_cast<std::size_t>(k)], row)] = k;
        }
    };
    if (b.rows > 0) {
        index_row(0);
    }
    for (std::int64_t r = 0; r < b.rows; ++r) {
        if (r + 1 < b.rows) {
            index_row(r + 1);
        }
        for (auto i = static_cast<std::size_t>(row_start[static_cast<std::size_t>(r)]);
             i < static_cast<std::size_t>(row_start[static_cast<std::size_t>(r + 1)]);
             ++i) {
            const std::int64_t target = map.successors_[i];
            if (target == states[i]) {
                map.local_next_[i] = static_cast<std::int64_t>(i);  // a border of one pixel
                continue;
            }
            const auto exit = static_cast<std::size_t>(((target & 7) + 4) & 7);
            const std::int64_t tr = r + kRowStep[exit];
            const std::int64_t tc = column(states[i], r) + kColStep[exit];
            if (tr < 0 || tr >= b.rows || tc < 0 || tc >= b.cols) {
                continue;
            }
            std::int64_t k = table(tr)[tc];
            const std::int64_t end = row_start[static_cast<std::size_t>(tr + 1)];
            const std::int64_t pixel = target / kStatesPerPixel;
            if (k != kNone && states[static_cast<std::size_t>(k)] / kStatesPerPixel != pixel) {
                k = kNone;  // a stale entry: the successor's pixel has no states
            }
            while (k != kNone && k < end && states[static_cast<std::size_t>(k)] < target) {
                ++k;
            }
            if (k == kNone || k == end || states[static_cast<std::size_t>(k)] != target) {
                // Cannot happen (a border's states are all border states); found on one rank alone, so no exception.
                abort_job(group.path(),
                          "llc::trace_contours: internal error: the successor of border state " +
                              std::to_string(states[i]) + " is not a border state");
            }
            map.local_next_[i] = k;
        }
    }
    return map;
}

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
    const auto contour_of = [&](std::int64_t head) {
        return static_cast<std::size_t>(std::lower_bound(heads.begin(), heads.end(), head) - heads.begin());
    };
    std::vector<std::size_t> owner(all.size());
    std::vector<Contour> out(heads.size());
    for (std::size_t k = 0; k < all.size(); ++k) {
        owner[k] = contour_of(all[k].head);
        out[owner[k]].points.emplace_back();  // counts the points; filled below
    }
    const std::int64_t width = borders.width();
    for (std::size_t c = 0; c < out.size(); ++c) {
        out[c].id = heads[c];
        out[c].hole = !std::binary_search(outer_heads.begin(), outer_heads.end(), heads[c]);
    }
    for (std::size_t k = 0; k < all.size(); ++k) {
        const PointRecord& p = all[k];
        std::vector<ContourPoint>& points = out[owner[k]].points;
        const auto length = static_cast<std::int64_t>(points.size());
        points[static_cast<std::size_t>(p.rank == 0 ? 0 : length - p.rank)] = {p.pixel / width, p.pixel % width};
    }
    return out;
}

}  // namespace llc
