// Contour tracing of a binary image as a successor graph on border states (see BorderMap): one pass over the block's
// rows with the border kernels of border_kernels.hpp. The ranking of the borders and their assembly into point lists
// are in contours.cpp.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include <llc/algorithms/contour_ranking.hpp>
#include <llc/algorithms/contour_ranking_names.hpp>
#include <llc/error.hpp>
#include <llc/trace.hpp>

#include "border_kernels.hpp"
#include "graph.hpp"

namespace llc {

using namespace detail::contour_ranking;

BinaryImage BinaryImage::from_whole(Group& group,
                                    std::int64_t width,
                                    std::int64_t height,
                                    std::span<const std::uint8_t> all) {
    return BinaryImage(
        group, width, height, block_from_whole(group, "llc::BinaryImage::from_whole", width, height, all));
}

void advise_huge_pages(std::span<const std::uint8_t> bytes) noexcept {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr std::uintptr_t huge = std::uintptr_t{1} << 21;
    const auto begin = (reinterpret_cast<std::uintptr_t>(bytes.data()) + huge - 1) & ~(huge - 1);
    const auto end = (reinterpret_cast<std::uintptr_t>(bytes.data()) + bytes.size()) & ~(huge - 1);
    if (begin < end) {
        void* start = reinterpret_cast<void*>(begin);
        (void)madvise(start, end - begin, MADV_HUGEPAGE);
#if defined(MADV_COLLAPSE)
        (void)madvise(start, end - begin, MADV_COLLAPSE);
#else
        (void)madvise(start, end - begin, 25);  // MADV_COLLAPSE where the C library's headers predate it
#endif
    }
#else
    (void)bytes;
#endif
}

BinaryImage::BinaryImage(Group& group, std::int64_t width, std::int64_t height, std::vector<std::uint8_t> local)
    : width_(width),
      height_(height),
      block_(checked_block(group, "llc::BinaryImage", width, height, local.size())),
      count_(local.size()) {
    if (local.size() < huge_page_bytes) {
        small_ = std::move(local);
        return;
    }
    huge_ = HugePageMemory(local.size());
    std::memcpy(huge_.data(), local.data(), local.size());  // the first touch: on huge pages from the start
}

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
    const std::int64_t cols = b.cols;
    // The ring of pixels around the block; the block's own pixels are read in place (foreground: nonzero).
    const std::span<const std::uint8_t> pixels = image.pixels();
    const Ring<std::uint8_t> ring = [&] {
        const Label label(names::contour_ranking::halo);
        return Ring<std::uint8_t>(group, b, width, image.height(), pixels, 0);
    }();
    // One pass over the rows. Row r's pixels as bits (row −1 and row `rows` from the ring, with the ring's corners),
    // three rows kept round-robin: a row's border pixels and their neighbour masks come from whole words of them.
    std::array<BitRow, 3> bit_rows{BitRow(cols), BitRow(cols), BitRow(cols)};
    const auto bits_of = [&](std::int64_t r) -> BitRow& { return bit_rows[static_cast<std::size_t>((r + 3) % 3)]; };
    const auto load_bits = [&](std::int64_t r) {
        const auto k = static_cast<std::size_t>(r);
        if (r < 0 || r >= b.rows) {
            const std::span<const std::uint8_t> edge = r < 0 ? ring.top() : ring.bottom();
            bits_of(r).assign(edge.data() + 1, cols, edge[0], edge[static_cast<std::size_t>(cols + 1)], nullptr);
        } else {
            const std::uint8_t* row = pixels.data() + r * cols;
            bits_of(r).assign(row, cols, ring.left()[k], ring.right()[k], r + 1 < b.rows ? row + cols : nullptr);
        }
    };
    // The states, their successors, flags and successors in the block, written through pointers into vectors
    // kept at least four states a column ahead of the count (every pixel's four possible states written at once, the
    // count advanced by its real number), cut to the count at the end.
    std::size_t count = 0;
    StateArrays arrays{};
    // Grown to the count the rows so far project for the whole block (and at least doubled), so that a block is
    // copied once or twice rather than at every doubling from a row's worth. The projection's margin shrinks as the
    // rows it stands on grow, 1/8 + 1/√rows: a row or two says little, and a projection from them that falls short
    // costs a late grow that copies nearly the whole block (P = 2's second strip of the 4096² blob image, with the
    // margin 1/8 alone: projected from row 1 at 106 k states of 118 k, grown again at row 1850, 2.2 MB copied a call,
    // its row loop ~0.25 ms slower than the first strip's). Room that is never written costs address space only.
    const auto make_room = [&](std::size_t room, std::int64_t rows_done) {
        if (map.states_.size() < count + room) {
            if (count + room > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) {
                // The in-block successors are 32-bit indices (BorderMap). Found on one rank alone: no exception.
                abort_job(group.path(),
                          "llc::trace_contours: a block of more than 2^31 - 1 border states (" +
                              std::to_string(count + room) + "); use more processors");
            }
            const double rows_seen = static_cast<double>(std::max<std::int64_t>(rows_done, 1));
            const auto projected =
                static_cast<std::size_t>(static_cast<double>(count) * (1.125 + 1.0 / std::sqrt(rows_seen)) *
                                         static_cast<double>(b.rows) / rows_seen);
            const std::size_t size = std::max({2 * map.states_.size(), count + room, projected});
            map.states_.resize(size);
            map.successors_.resize(size);
            map.flags_.resize(size);
            map.local_next_.resize(size);
            arrays = {map.states_.data(), map.successors_.data(), map.flags_.data(), map.local_next_.data()};
        }
    };
    const std::array<PixelStates, 256> pixel_states = make_pixel_states(rules, moves, width);
    // For the successors inside the block, each row's pixels keep their first state's index and their set of entry
    // directions (three rows, round-robin).
    std::vector<std::int64_t> first_state(static_cast<std::size_t>(3 * cols), 0);
    std::vector<std::uint8_t> entries(static_cast<std::size_t>(3 * cols), 0);
    std::vector<std::int64_t> row_start(static_cast<std::size_t>(b.rows + 1), 0);
    std::vector<std::uint64_t> border_words(static_cast<std::size_t>((cols + 63) / 64));
    std::vector<std::int64_t> border_columns(static_cast<std::size_t>(cols + 8));
    const auto row_pixel = [&](std::int64_t r) { return (b.row0 + r) * width + b.col0; };
    const auto trace_row = [&](std::int64_t r) {
        row_start[static_cast<std::size_t>(r)] = static_cast<std::int64_t>(count);
        const std::uint64_t* up = bits_of(r - 1).words();
        const std::uint64_t* mid = bits_of(r).words();
        const std::uint64_t* down = bits_of(r + 1).words();
        find_border_words(up, mid, down, cols, eight, border_words.data());
        const std::size_t found = border_columns_of(border_words, border_columns.data());
        make_room(4 * found, r);
        const auto slot = static_cast<std::size_t>((r % 3) * cols);
        count = write_row_states(std::span<const std::int64_t>(border_columns.data(), found),
                                 up,
                                 mid,
                                 down,
                                 pixel_states,
                                 row_pixel(r),
                                 arrays,
                                 count,
                                 first_state.data() + slot,
                                 entries.data() + slot);
    };
    const auto link_row = [&](std::int64_t r) {
        if (!link_row_states(arrays,
                             static_cast<std::size_t>(row_start[static_cast<std::size_t>(r)]),
                             static_cast<std::size_t>(row_start[static_cast<std::size_t>(r + 1)]),
                             count,
                             r,
                             row_pixel(r),
                             b.rows,
                             cols,
                             first_state.data(),
                             entries.data())) {
            // A border's states are all border states; found on one rank alone, so no exception.
            abort_job(group.path(),
                      "llc::trace_contours: internal error: a successor in row " + std::to_string(b.row0 + r) +
                          " is not a border state");
        }
    };
    if (b.rows > 0) {
        load_bits(-1);
        load_bits(0);
    }
    for (std::int64_t r = 0; r < b.rows; ++r) {
        load_bits(r + 1);
        trace_row(r);
        if (r > 0) {
            link_row(r - 1);
        }
    }
    row_start.back() = static_cast<std::int64_t>(count);
    if (b.rows > 0) {
        link_row(b.rows - 1);
    }
    map.states_.resize(count);
    map.successors_.resize(count);
    map.flags_.resize(count);
    map.local_next_.resize(count);
    return map;
}

}  // namespace llc
