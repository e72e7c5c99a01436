#pragma once
// The pipelined image sweep of Miguet & Robert (article [2]) for the chamfer passes: the schedule (which processor
// computes which block segment at which step, the same on every rank) and the row kernels.

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include <llc/algorithms/chamfer.hpp>

namespace llc::detail::sweep {

/// "Not reached yet": far above any distance, and far enough below 2^31 that one mask weight can be added.
inline constexpr std::int32_t unreached = std::int32_t{1} << 30;

/// The geometry of one pass over an image of `height` rows in blocks of r rows, in the pass's own coordinates: the
/// forward pass is the image as it is; the backward pass the image turned by 180° (pass row y' = height − 1 − y,
/// pass column x' = width − 1 − x), blocks taken from the bottom. Segment s of pass row y' is pass columns
/// [s·k − y'·lead, (s + 1)·k − y'·lead) ∩ [0, width).
struct Geometry {
    std::int64_t width = 0;
    std::int64_t height = 0;
    std::int64_t r = 1;
    std::int64_t k = 1;
    int lead = 0;
    int reach = 1;  ///< rows before a pixel its steps read: the rows a block passes on
    int P = 1;
    bool backward = false;

    [[nodiscard]] std::int64_t blocks() const { return (height + r - 1) / r; }
    /// The image block (index from the top) that is the i-th of the pass.
    [[nodiscard]] std::int64_t block_of_pass(std::int64_t i) const { return backward ? blocks() - 1 - i : i; }
    /// First and last pass rows of the image block b.
    [[nodiscard]] std::int64_t first_pass_row(std::int64_t b) const;
    [[nodiscard]] std::int64_t last_pass_row(std::int64_t b) const;
    /// Pass columns of segment s of pass row y' (empty: lo ≥ hi). Inline: asked for every row of every segment.
    [[nodiscard]] std::int64_t segment_lo(std::int64_t s, std::int64_t y) const {
        return std::max<std::int64_t>(0, s * k - y * lead);
    }
    [[nodiscard]] std::int64_t segment_hi(std::int64_t s, std::int64_t y) const {
        return std::min<std::int64_t>(width, (s + 1) * k - y * lead);
    }
    /// The segments of image block b: those that hold its pixels or the pixels it passes on (the last `reach` pass
    /// rows up to its own last, some of them from blocks before it when it has fewer rows than that).
    [[nodiscard]] std::int64_t first_segment(std::int64_t b) const;
    [[nodiscard]] std::int64_t last_segment(std::int64_t b) const;
};

/// A unit of work: segment s of image block b.
struct Unit {
    std::int64_t block = -1;  ///< −1: idle
    std::int64_t segment = 0;
};

/// The whole pipeline: at each step, what each processor computes. Processors run their blocks in pass order, each
/// segment by segment, as soon as the block before (on the previous processor of the ring) has sent that segment of
/// its last rows, one step earlier. The same on every rank (a pure function of the geometry).
struct Schedule {
    std::vector<std::vector<Unit>> steps;  ///< steps[t][q]
};
[[nodiscard]] Schedule make_schedule(const Geometry& geometry);

/// The pixels of unit u (its rows' segments).
[[nodiscard]] std::int64_t unit_pixels(const Geometry& geometry, const Unit& u);
/// The pixels of the halo unit u sends: segment u.segment of the `reach` pass rows that end at its block (those that
/// exist), none for the last block of the pass.
[[nodiscard]] std::int64_t halo_pixels(const Geometry& geometry, const Unit& u);

/// Asks the processor to fetch physical columns [a, b) of `row` (and of `image`, when not null): a pass calls it on the
/// next row it will sweep while it sweeps one. A segment of a row is a memory page or less, and the hardware
/// prefetchers do not cross pages, so each segment would otherwise start with misses (4096² at P = 2 ran 1.25× slower).
void prefetch_segment(const std::int32_t* row, const std::uint8_t* image, std::int64_t a, std::int64_t b);

/// The same for a row of any values (path planning's cells): columns [a, b) of `row`, a cache line at a time.
template <class T>
void prefetch_columns(const T* row, std::int64_t a, std::int64_t b) {
    constexpr std::int64_t line = 64;  // bytes
    const auto* first = reinterpret_cast<const char*>(row + a);
    const auto* last = reinterpret_cast<const char*>(row + b);
    for (const char* p = first; p < last; p += line) {
        __builtin_prefetch(p, 1);
    }
}

/// prefetch_columns for rows of 16-byte cells swept in either direction (path planning): first one load from each
/// memory page of the columns, then the prefetches. A sweep that runs up the rows (the blue one) fetched its prefetched
/// segments 1.7× slower than one that runs down them (P = 1, 4096 × 2048 map, segments of 512: 3.4 against 2.0
/// ns/pixel); with the loads first, 2.65 against 1.9.
template <class T>
void fetch_columns(const T* row, std::int64_t a, std::int64_t b) {
    if (a >= b) {
        return;
    }
    constexpr std::int64_t page = 4096 / sizeof(T);
    const auto* bytes = reinterpret_cast<const volatile char*>(row);  // volatile: the loads are made
    for (std::int64_t x = a; x < b; x += page) {
        (void)bytes[x * static_cast<std::int64_t>(sizeof(T))];
    }
    (void)bytes[(b - 1) * static_cast<std::int64_t>(sizeof(T))];
    prefetch_columns(row, a, b);
}

/// One pass row's segment [x0, x1) (pass columns) of a chamfer pass. `row` is the physical row, `above[i]` the
/// physical row i + 1 pass rows before it (null outside the image), `image` its input row when `initialise` (the
/// forward pass starts every pixel at 0 or `unreached`).
void chamfer_segment(std::span<std::int32_t> row,
                     std::span<const std::int32_t* const> above,
                     const std::uint8_t* image,
                     std::int64_t x0,
                     std::int64_t x1,
                     const ChamferMask& mask,
                     bool backward);

}  // namespace llc::detail::sweep
