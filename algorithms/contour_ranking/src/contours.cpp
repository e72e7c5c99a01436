// The ranking of a BorderMap's borders by the machinery of contour_rank (graph.hpp), and the assembly of the ranked
// borders into point lists (contours()).
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include <llc/algorithms/contour_ranking.hpp>
#include <llc/error.hpp>

#include "border_kernels.hpp"
#include "cut_ranking.hpp"
#include "graph.hpp"

namespace llc {

/// Private parts of BorderMap that contours() reads.
struct BorderMapAccess {
    static std::span<const std::uint8_t> flags(const BorderMap& m) { return m.flags_; }
    static std::span<const std::int32_t> local_next(const BorderMap& m) { return m.local_next_; }
};

namespace {

using namespace detail::contour_ranking;

/// A BorderMap's block as the nodes of rank_graph: its states.
class StateView {
  public:
    StateView(std::span<const std::int64_t> states,
              std::span<const std::int64_t> successors,
              std::span<const std::int32_t> local_next)
        : states_(states), successors_(successors), local_next_(local_next) {}
    [[nodiscard]] std::size_t size() const noexcept { return states_.size(); }
    [[nodiscard]] static bool active(std::size_t /*i*/) noexcept { return true; }
    [[nodiscard]] std::int64_t next(std::size_t i) const { return local_next_[i]; }
    [[nodiscard]] std::int64_t global(std::size_t i) const { return states_[i]; }
    [[nodiscard]] std::int64_t out(std::size_t i) const { return successors_[i]; }

  private:
    std::span<const std::int64_t> states_;
    std::span<const std::int64_t> successors_;
    std::span<const std::int32_t> local_next_;
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

namespace detail::contour_ranking {

std::vector<std::int32_t> cut_at_column(const BorderMap& borders, std::int64_t column) {
    const auto states = borders.states();
    const auto next = BorderMapAccess::local_next(borders);
    std::vector<std::int32_t> cut(next.begin(), next.end());
    const auto side = [&](std::size_t i) { return states[i] / kStatesPerPixel % borders.width() < column; };
    for (std::size_t i = 0; i < cut.size(); ++i) {
        if (cut[i] >= 0 && side(i) != side(static_cast<std::size_t>(cut[i]))) {
            cut[i] = -1;
        }
    }
    return cut;
}

std::vector<ContourRank> rank_cut_block(const BorderMap& borders,
                                        const std::vector<std::int32_t>& local_next,
                                        std::size_t& boundary_segments) {
    const StateView view(borders.states(), borders.successors(), local_next);
    std::vector<ContourRank> result(view.size());
    const LocalRanking local = rank_locally(view, result);
    const std::vector<Segment> boundary =
        boundary_list(local.segments, borders.block(), borders.width(), kStatesPerPixel);
    resolve_locally(local, {}, result);
    boundary_segments = boundary.size();
    return result;
}

}  // namespace detail::contour_ranking

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

/// A border that closes inside one block, on its way to the root: its head, its hole flag and its number of points
/// (whose moves' slots follow, in order, in the block's moves: see MoveList).
struct LocalHeader {
    std::int64_t head;
    std::int64_t hole;
    std::int64_t length;
};

/// The point of `pixel` in an image `width` pixels wide (contours checks that its rows and columns fit 32 bits).
ContourPoint point_at(std::int64_t pixel, std::int64_t width) {
    return {static_cast<std::int32_t>(pixel / width), static_cast<std::int32_t>(pixel % width)};
}

/// A border's points from its head's pixel and the moves between them: the row and column follow the moves, not a
/// division a point.
class PointList {
  public:
    PointList(std::vector<ContourPoint>& points, std::int64_t width) : points_(points), width_(width) {}
    void first(std::int64_t pixel) {
        at_ = point_at(pixel, width_);
        points_.push_back(at_);
    }
    void step(unsigned move) {
        at_.row += kRowStep[move];
        at_.col += kColStep[move];
        points_.push_back(at_);
    }

  private:
    std::vector<ContourPoint>& points_;
    std::int64_t width_;
    ContourPoint at_;
};

/// A border's points as a forward iterator over its moves' slots (slot 0: the head's pixel, slot k: the move, a
/// Freeman direction, into point k), so that a contour's point list is assigned from it and each point written once:
/// a list sized first is zeroed, then written, and rebuilding the points is serial work on the root, bound by those
/// stores (a scratch benchmark of 223 k points into fresh lists, loaded: 0.71–0.80 ms sized then written, 0.49–0.61 ms
/// assigned from this iterator). Advancing past the last point reads the slot after it, which the caller keeps
/// readable.
class MovePoints {
  public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = ContourPoint;
    using difference_type = std::ptrdiff_t;
    using pointer = const ContourPoint*;
    using reference = const ContourPoint&;

    MovePoints() = default;
    MovePoints(const std::uint8_t* slot, ContourPoint at) : slot_(slot), at_(at) {}

    reference operator*() const { return at_; }
    pointer operator->() const { return &at_; }
    MovePoints& operator++() {
        const auto move = static_cast<std::size_t>(*++slot_ & 7);
        at_.row += kRowStep[move];
        at_.col += kColStep[move];
        return *this;
    }
    MovePoints operator++(int) {
        MovePoints before = *this;
        ++*this;
        return before;
    }
    friend bool operator==(const MovePoints& a, const MovePoints& b) { return a.slot_ == b.slot_; }

  private:
    const std::uint8_t* slot_ = nullptr;
    ContourPoint at_;
};

/// The points of a border of `length` points whose moves' slots start at `slots` (slot `length` readable), from its
/// head's pixel `head_pixel` of an image `width` pixels wide.
std::vector<ContourPoint> decode_moves(std::int64_t head_pixel,
                                       std::int64_t width,
                                       const std::uint8_t* slots,
                                       std::size_t length) {
    std::vector<ContourPoint> points;
    points.assign(MovePoints(slots, point_at(head_pixel, width)), MovePoints(slots + length, {}));
    return points;
}

/// A border's moves' slots (MovePoints), a byte a point: what a block other than the root sends it for a border that
/// closes inside the block, a sixteenth of its points' bytes. Slot 0 (the head's pixel, in its LocalHeader) is not
/// read.
struct MoveList {
    std::vector<std::uint8_t>& moves;
    void first(std::int64_t /*pixel*/) { moves.push_back(0); }
    void step(unsigned move) { moves.push_back(static_cast<std::uint8_t>(move)); }
};

/// The borders of one block that close inside it, walked from their heads by the block's in-block successors: their
/// points come out in order, with no record, gather or placement of each point (at P = 1 every border is one).
class LocalWalk {
  public:
    LocalWalk(const BorderMap& borders, std::span<const ContourRank> ranks)
        : states_(borders.states()),
          next_(BorderMapAccess::local_next(borders)),
          flags_(BorderMapAccess::flags(borders)),
          ranks_(ranks),
          walked_(states_.size(), 0) {}

    /// The length of the border whose head is state i when it is a head whose border may close inside the block (by
    /// the rank of its successor, which is length − 1), else 0.
    [[nodiscard]] std::size_t length(std::size_t i) const {
        if (ranks_[i].rank != 0 || ranks_[i].head != states_[i] || next_[i] == kNone) {
            return 0;
        }
        const std::int64_t before = ranks_[static_cast<std::size_t>(next_[i])].rank;
        return before >= 0 && before < static_cast<std::int64_t>(states_.size()) ? static_cast<std::size_t>(before) + 1
                                                                                 : 0;
    }

    /// Walks the border from head i, marking its states walked: `emit.first(pixel)` with the head's pixel, then
    /// `emit.step(move)` with the move (a Freeman direction) to each next point, `length` points in all. Returns
    /// whether the border closed inside the block after exactly `length` states; if not, the marks are undone (and
    /// the caller drops what was emitted). `outer`: one of its states at the head's pixel passes that pixel's north
    /// background (see contours()).
    template <class Emit>
    bool walk(std::size_t i, std::size_t length, Emit& emit, bool& outer) {
        const std::int64_t head_pixel = states_[i] / kStatesPerPixel;
        // The border's states at the head's pixel are i and some of the (at most three) states after it at that pixel
        // (i is the border's smallest state): those not walked before this walk and walked by it. Noted here, so that
        // the walk need not follow the pixel of every state to find them (a load and four operations a point).
        std::array<bool, 3> taken{};
        std::size_t same = 0;
        for (std::size_t s = i + 1;
             s < states_.size() && same < taken.size() && states_[s] / kStatesPerPixel == head_pixel;
             ++s) {
            taken[same++] = walked_[s] != 0;
        }
        emit.first(head_pixel);
        walked_[i] = 1;
        std::size_t j = i;
        std::size_t k = 1;  // the points emitted
        for (; k < length; ++k) {
            const std::int32_t next = next_[j];
            if (next == kNone) {
                break;
            }
            j = static_cast<std::size_t>(next);
            walked_[j] = 1;
            emit.step(static_cast<unsigned>(flags_[j] >> 1));  // flags: the move into the state's pixel
        }
        if (k == length && next_[j] == static_cast<std::int32_t>(i)) {
            bool passes_north = (flags_[i] & 1) != 0;
            for (std::size_t m = 0; m < same; ++m) {
                passes_north |= !taken[m] && walked_[i + 1 + m] != 0 && (flags_[i + 1 + m] & 1) != 0;
            }
            outer = passes_north;
            return true;
        }
        // Ranks that were not contour_rank's, or a border that leaves the block: undo the k marks.
        for (std::size_t m = 0, s = i; m < k; ++m) {
            walked_[s] = 0;
            if (next_[s] == kNone) {
                break;
            }
            s = static_cast<std::size_t>(next_[s]);
        }
        return false;
    }

    [[nodiscard]] bool walked(std::size_t i) const { return walked_[i] != 0; }

  private:
    std::span<const std::int64_t> states_;
    std::span<const std::int32_t> next_;
    std::span<const std::uint8_t> flags_;
    std::span<const ContourRank> ranks_;
    std::vector<std::uint8_t> walked_;
};

/// Appends `values`' bytes to `bytes`.
template <class T>
void append_bytes(std::vector<std::uint8_t>& bytes, std::span<const T> values) {
    const auto* begin = reinterpret_cast<const std::uint8_t*>(values.data());
    bytes.insert(bytes.end(), begin, begin + values.size_bytes());
}

/// What a block sends the root, in one message: the sizes of its four lists, then its closed borders' headers, its
/// crossing states' records, the heads its states prove outer, and the closed borders' moves' slots (MoveList, then
/// one byte for MovePoints' last step).
std::vector<std::uint8_t> pack_block(std::span<const LocalHeader> headers,
                                     std::span<const PointRecord> records,
                                     std::span<const std::int64_t> outer,
                                     std::span<const std::uint8_t> moves) {
    const std::array<std::int64_t, 4> sizes{static_cast<std::int64_t>(headers.size()),
                                            static_cast<std::int64_t>(records.size()),
                                            static_cast<std::int64_t>(outer.size()),
                                            static_cast<std::int64_t>(moves.size())};
    std::vector<std::uint8_t> bytes;
    bytes.reserve(sizeof(sizes) + headers.size_bytes() + records.size_bytes() + outer.size_bytes() + moves.size());
    append_bytes(bytes, std::span<const std::int64_t>(sizes));
    append_bytes(bytes, headers);
    append_bytes(bytes, records);
    append_bytes(bytes, outer);
    append_bytes(bytes, moves);
    return bytes;
}

/// One block's message on the root: its headers (copied out, aligned) and its moves (read in place).
struct BlockLists {
    std::vector<LocalHeader> headers;
    std::span<const std::uint8_t> moves;
};

/// Reads pack_block's message `bytes`: appends its records to `records` and its outer heads to `outer`.
BlockLists unpack_block(std::span<const std::uint8_t> bytes,
                        std::vector<PointRecord>& records,
                        std::vector<std::int64_t>& outer) {
    std::array<std::int64_t, 4> sizes{};
    std::memcpy(sizes.data(), bytes.data(), sizeof(sizes));
    std::size_t at = sizeof(sizes);
    const auto take = [&]<class T>(std::vector<T>& into, std::int64_t count) {
        if (count == 0) {
            return;  // an empty vector's data() may be null, and memcpy must not be given null even for 0 bytes
        }
        const std::size_t first = into.size();
        into.resize(first + static_cast<std::size_t>(count));
        std::memcpy(into.data() + first, bytes.data() + at, static_cast<std::size_t>(count) * sizeof(T));
        at += static_cast<std::size_t>(count) * sizeof(T);
    };
    BlockLists block;
    take(block.headers, sizes[0]);
    take(records, sizes[1]);
    take(outer, sizes[2]);
    block.moves = bytes.subspan(at, static_cast<std::size_t>(sizes[3]));
    return block;
}

/// Rows and columns of pixel indices in an image `width` pixels wide, without a 64-bit integer division a point: the
/// quotient by a multiplication in double precision, off by at most one below 2^50, then corrected; an integer
/// division above. Serial work on the root (a scratch benchmark of the 14.7 k records of the 4096² blob image at P = 2,
/// loaded: 41 µs with the division, 21 µs without).
class PixelCoordinates {
  public:
    explicit PixelCoordinates(std::int64_t width) : width_(width), inverse_(1.0 / static_cast<double>(width)) {}
    [[nodiscard]] ContourPoint operator()(std::int64_t pixel) const {
        if (pixel < 0 || pixel >= (std::int64_t{1} << 50)) {
            return point_at(pixel, width_);
        }
        std::int64_t row = static_cast<std::int64_t>(static_cast<double>(pixel) * inverse_);
        std::int64_t col = pixel - row * width_;
        if (col < 0) {
            --row;
            col += width_;
        } else if (col >= width_) {
            ++row;
            col -= width_;
        }
        return {static_cast<std::int32_t>(row), static_cast<std::int32_t>(col)};
    }

  private:
    std::int64_t width_;
    double inverse_;
};

/// The borders that cross blocks, from the records of their states gathered on the root: each from its head (rank 0),
/// then following successors (ranks L − 1, L − 2, …, 1). The heads in increasing order number the contours; each
/// record goes straight to its place.
void place_records(std::span<const PointRecord> all,
                   std::vector<std::int64_t> outer_heads,
                   std::int64_t width,
                   std::vector<Contour>& out) {
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
    const std::size_t first = out.size();
    out.resize(first + heads.size());
    for (std::size_t c = 0; c < heads.size(); ++c) {
        out[first + c].id = heads[c];
        out[first + c].hole = !std::binary_search(outer_heads.begin(), outer_heads.end(), heads[c]);
        out[first + c].points.resize(length[c]);
    }
    const PixelCoordinates coordinates(width);
    for (std::size_t k = 0; k < all.size(); ++k) {
        const PointRecord& p = all[k];
        std::vector<ContourPoint>& points = out[first + owner[k]].points;
        const auto n = static_cast<std::int64_t>(points.size());
        points[static_cast<std::size_t>(p.rank == 0 ? 0 : n - p.rank)] = coordinates(p.pixel);
    }
}

}  // namespace

std::vector<Contour> contours(Group& group, const BorderMap& borders, std::span<const ContourRank> ranks, int root) {
    const char* function = "llc::contours";
    std::string error = group.root_error(function, root);
    constexpr std::int64_t largest_side = std::numeric_limits<std::int32_t>::max();  // a ContourPoint's coordinates
    if (error.empty() && (borders.width() > largest_side || borders.height() > largest_side)) {
        error = argument_message(function,
                                 "borders",
                                 std::to_string(borders.width()) + " x " + std::to_string(borders.height()),
                                 "must be at most " + std::to_string(largest_side) +
                                     " pixels wide and tall (ContourPoint's 32-bit coordinates)");
    } else if (error.empty() && ranks.size() != borders.states().size()) {
        error =
            argument_message(function,
                             "ranks.size()",
                             std::to_string(ranks.size()),
                             "must be this rank's number of border states " + std::to_string(borders.states().size()));
    }
    group.check_same(function, {{"root", root}}, error);
    const bool is_root = group.rank() == root;
    const auto states = borders.states();
    // The borders that close inside this block, walked: on the root straight into their contours, elsewhere into a
    // header and point list for the root.
    LocalWalk local(borders, ranks);
    std::vector<Contour> out;
    std::vector<LocalHeader> headers;
    std::vector<std::uint8_t> moves;
    // The states of the borders that cross blocks, as records, in the same pass.
    const auto flags = BorderMapAccess::flags(borders);
    std::vector<PointRecord> records;
    std::vector<std::int64_t> outer;
    // States increase, so the first state of a closed border met is its head: the states already walked are skipped
    // without reading their ranks. And a state not walked once its index is passed is on a border that does not close
    // in the block: its head (the border's smallest state, at most i) has been met.
    for (std::size_t i = 0; i < states.size(); ++i) {
        if (local.walked(i)) {
            continue;
        }
        const std::size_t length = local.length(i);
        bool outer_border = false;
        if (length != 0 && is_root) {
            Contour c{states[i], false, {}};
            c.points.reserve(length);
            PointList emit(c.points, borders.width());
            if (local.walk(i, length, emit, outer_border)) {
                c.hole = !outer_border;
                out.push_back(std::move(c));
                continue;
            }
        } else if (length != 0) {
            const std::size_t mark = moves.size();
            MoveList emit{moves};
            if (local.walk(i, length, emit, outer_border)) {
                headers.push_back({states[i], outer_border ? 0 : 1, static_cast<std::int64_t>(length)});
                continue;
            }
            moves.resize(mark);
        }
        const std::int64_t pixel = states[i] / kStatesPerPixel;
        records.push_back({ranks[i].head, ranks[i].rank, pixel});
        // The state that passes the north background of its border's head pixel: that border is outer.
        if ((flags[i] & 1) != 0 && ranks[i].head / kStatesPerPixel == pixel) {
            outer.push_back(ranks[i].head);
        }
    }
    moves.push_back(0);  // MovePoints' last step reads one slot past a border's
    // One gather of the four lists (each gatherv is three collectives: the agreement, the counts, the data).
    std::vector<int> counts;
    const std::vector<std::uint8_t> gathered =
        group.gatherv(std::span<const std::uint8_t>(pack_block(headers, records, outer, moves)), root, &counts);
    if (!is_root) {
        return {};
    }
    // The other blocks' closed borders, from their moves, then the crossing ones; all in increasing id.
    std::vector<PointRecord> all;
    std::vector<std::int64_t> outer_heads;
    std::size_t at = 0;
    for (const int count : counts) {
        const BlockLists block =
            unpack_block(std::span<const std::uint8_t>(gathered).subspan(at, count), all, outer_heads);
        at += static_cast<std::size_t>(count);
        out.reserve(out.size() + block.headers.size());
        std::size_t next = 0;
        for (const LocalHeader& h : block.headers) {
            const auto length = static_cast<std::size_t>(h.length);
            out.push_back({h.head,
                           h.hole != 0,
                           decode_moves(h.head / kStatesPerPixel, borders.width(), block.moves.data() + next, length)});
            next += length;
        }
    }
    place_records(all, std::move(outer_heads), borders.width(), out);
    std::sort(out.begin(), out.end(), [](const Contour& a, const Contour& b) { return a.id < b.id; });
    return out;
}

}  // namespace llc
