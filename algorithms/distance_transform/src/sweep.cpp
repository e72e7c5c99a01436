#include "sweep.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>

namespace llc::detail::sweep {

namespace {

/// ⌊a / b⌋ for b > 0.
std::int64_t floor_div(std::int64_t a, std::int64_t b) {
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

}  // namespace

std::int64_t Geometry::first_pass_row(std::int64_t b) const {
    const std::int64_t top = b * r;
    const std::int64_t bottom = std::min(height, top + r) - 1;
    return backward ? height - 1 - bottom : top;
}

std::int64_t Geometry::last_pass_row(std::int64_t b) const {
    const std::int64_t top = b * r;
    const std::int64_t bottom = std::min(height, top + r) - 1;
    return backward ? height - 1 - top : bottom;
}

std::int64_t Geometry::first_segment(std::int64_t b) const {
    const std::int64_t passed_on = std::max<std::int64_t>(0, last_pass_row(b) - reach + 1);
    return floor_div(std::min(first_pass_row(b), passed_on) * lead, k);
}

std::int64_t Geometry::last_segment(std::int64_t b) const {
    return floor_div(width - 1 + last_pass_row(b) * lead, k);
}

Schedule make_schedule(const Geometry& g) {
    const std::int64_t blocks = g.blocks();
    // Each processor's units in the order it runs them: its blocks in pass order, each segment by segment.
    std::vector<std::vector<Unit>> units(static_cast<std::size_t>(g.P));
    for (std::int64_t i = 0; i < blocks; ++i) {
        const std::int64_t b = g.block_of_pass(i);
        for (std::int64_t s = g.first_segment(b); s <= g.last_segment(b); ++s) {
            units[static_cast<std::size_t>(b % g.P)].push_back({b, s});
        }
    }
    // done[b][s − first_segment(b)]: the step unit (b, s) ran at.
    std::vector<std::vector<std::int64_t>> done(static_cast<std::size_t>(blocks));
    for (std::int64_t b = 0; b < blocks; ++b) {
        done[static_cast<std::size_t>(b)].assign(static_cast<std::size_t>(g.last_segment(b) - g.first_segment(b) + 1),
                                                 -1);
    }
    const auto pass_index = [&](std::int64_t b) { return g.backward ? blocks - 1 - b : b; };
    std::vector<std::size_t> next(static_cast<std::size_t>(g.P), 0);
    std::size_t remaining = 0;
    for (const auto& list : units) {
        remaining += list.size();
    }
    Schedule schedule;
    for (std::int64_t t = 0; remaining > 0; ++t) {
        std::vector<Unit> step(static_cast<std::size_t>(g.P));
        for (int q = 0; q < g.P; ++q) {
            const auto& list = units[static_cast<std::size_t>(q)];
            std::size_t& at = next[static_cast<std::size_t>(q)];
            if (at == list.size()) {
                continue;
            }
            const Unit u = list[at];
            const std::int64_t i = pass_index(u.block);
            bool ready = i == 0;
            if (!ready) {
                // The block before sends segment s of its last rows at the step it computes it; a segment past its
                // last one is empty, and waits for nothing more than its last.
                const std::int64_t before = g.block_of_pass(i - 1);
                const std::int64_t s = std::min(u.segment, g.last_segment(before));
                const std::int64_t when =
                    done[static_cast<std::size_t>(before)][static_cast<std::size_t>(s - g.first_segment(before))];
                ready = when >= 0 && when < t;
            }
            if (ready) {
                step[static_cast<std::size_t>(q)] = u;
                done[static_cast<std::size_t>(u.block)]
                    [static_cast<std::size_t>(u.segment - g.first_segment(u.block))] = t;
                ++at;
                --remaining;
            }
        }
        schedule.steps.push_back(std::move(step));
    }
    return schedule;
}

std::int64_t unit_pixels(const Geometry& g, const Unit& u) {
    if (u.block < 0) {
        return 0;
    }
    std::int64_t pixels = 0;
    for (std::int64_t y = g.first_pass_row(u.block); y <= g.last_pass_row(u.block); ++y) {
        pixels += std::max<std::int64_t>(0, g.segment_hi(u.segment, y) - g.segment_lo(u.segment, y));
    }
    return pixels;
}

std::int64_t halo_pixels(const Geometry& g, const Unit& u) {
    const int reach = g.reach;
    if (u.block < 0 || g.block_of_pass(g.blocks() - 1) == u.block) {
        return 0;
    }
    std::int64_t pixels = 0;
    const std::int64_t last = g.last_pass_row(u.block);
    for (std::int64_t y = std::max<std::int64_t>(0, last - reach + 1); y <= last; ++y) {
        pixels += std::max<std::int64_t>(0, g.segment_hi(u.segment, y) - g.segment_lo(u.segment, y));
    }
    return pixels;
}

namespace {

/// A forward step of the pass in physical columns: the source row, the column offset and the weight.
struct Term {
    const std::int32_t* source;
    std::int64_t dx;
    std::int32_t weight;
};

/// One pixel: its start value (forward pass) or its value so far, lowered by every term from the rows before.
template <bool Checked>
std::int32_t from_rows(std::span<const Term> terms, std::int64_t x, std::int64_t width, std::int32_t value) {
    for (const Term& t : terms) {
        const std::int64_t from = x + t.dx;
        if (!Checked || (from >= 0 && from < width)) {
            value = std::min(value, t.source[from] + t.weight);
        }
    }
    return value;
}

/// Eight int32 lanes (GCC and Clang vector extensions: AVX2 on x86-64, two NEON registers on ARM, scalar code
/// elsewhere). The helpers that pass them by value are always inlined: never called, they have no ABI (GCC warns
/// about the 32-byte one when AVX is off, as in the sanitizer build).
using Lanes = std::int32_t __attribute__((vector_size(32)));
constexpr std::int64_t kLanes = 8;
constexpr std::int32_t kTop = std::numeric_limits<std::int32_t>::max();

[[gnu::always_inline]] inline Lanes load(const std::int32_t* p) {
    Lanes v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

[[gnu::always_inline]] inline void store(std::int32_t* p, Lanes v) {
    std::memcpy(p, &v, sizeof v);
}

[[gnu::always_inline]] inline Lanes lanes_min(Lanes a, Lanes b) {
    return a < b ? a : b;
}

/// Lane i: the minimum of lanes 0 … i (a scan in three shifted minima).
[[gnu::always_inline]] inline Lanes scan_up(Lanes v) {
    const Lanes top = Lanes{} + kTop;
    v = lanes_min(v, __builtin_shuffle(top, v, Lanes{0, 8, 9, 10, 11, 12, 13, 14}));
    v = lanes_min(v, __builtin_shuffle(top, v, Lanes{0, 1, 8, 9, 10, 11, 12, 13}));
    return lanes_min(v, __builtin_shuffle(top, v, Lanes{0, 1, 2, 3, 8, 9, 10, 11}));
}

/// Lane i: the minimum of lanes i … 7.
[[gnu::always_inline]] inline Lanes scan_down(Lanes v) {
    const Lanes top = Lanes{} + kTop;
    v = lanes_min(v, __builtin_shuffle(v, top, Lanes{1, 2, 3, 4, 5, 6, 7, 8}));
    v = lanes_min(v, __builtin_shuffle(v, top, Lanes{2, 3, 4, 5, 6, 7, 8, 8}));
    return lanes_min(v, __builtin_shuffle(v, top, Lanes{4, 5, 6, 7, 8, 8, 8, 8}));
}

/// d[x] = min(w·x + min(low, min_{a ≤ j ≤ x} (d[j] − w·j)), unreached) for x in [a, b): the forward in-row pass of a
/// mask whose one in-row step is (−1, w), eight pixels at a time (a scan within the lanes, then the carry from the
/// lanes before), where the one-pixel loop is a chain of one `min` a pixel.
void prefix_min_forward(std::int32_t* d, std::int64_t a, std::int64_t b, std::int32_t w, std::int32_t low) {
    const Lanes step = Lanes{0, 1, 2, 3, 4, 5, 6, 7} * w;
    std::int64_t x = a;
    for (; x + kLanes <= b; x += kLanes) {
        const Lanes wx = step + w * static_cast<std::int32_t>(x);
        const Lanes scanned = lanes_min(scan_up(load(d + x) - wx), Lanes{} + low);
        low = scanned[kLanes - 1];
        store(d + x, lanes_min(scanned + wx, Lanes{} + unreached));
    }
    for (; x < b; ++x) {
        const auto wx = w * static_cast<std::int32_t>(x);
        low = std::min(low, d[x] - wx);
        d[x] = std::min(wx + low, unreached);
    }
}

/// The backward pass's mirror: d[x] = min(min(low, min_{x ≤ j < b} (d[j] + w·j)) − w·x, unreached), from b − 1 down.
void prefix_min_backward(std::int32_t* d, std::int64_t a, std::int64_t b, std::int32_t w, std::int32_t low) {
    const Lanes step = Lanes{0, 1, 2, 3, 4, 5, 6, 7} * w;
    std::int64_t x = b;
    for (; x - kLanes >= a; x -= kLanes) {
        const Lanes wx = step + w * static_cast<std::int32_t>(x - kLanes);
        const Lanes scanned = lanes_min(scan_down(load(d + x - kLanes) + wx), Lanes{} + low);
        low = scanned[0];
        store(d + x - kLanes, lanes_min(scanned - wx, Lanes{} + unreached));
    }
    for (--x; x >= a; --x) {
        const auto wx = w * static_cast<std::int32_t>(x);
        low = std::min(low, d[x] + wx);
        d[x] = std::min(low - wx, unreached);
    }
}

}  // namespace

void prefetch_segment(const std::int32_t* row, const std::uint8_t* image, std::int64_t a, std::int64_t b) {
    prefetch_columns(row, a, b);
    if (image != nullptr) {
        prefetch_columns(image, a, b);
    }
}

void chamfer_segment(std::span<std::int32_t> row,
                     std::span<const std::int32_t* const> above,
                     const std::uint8_t* image,
                     std::int64_t x0,
                     std::int64_t x1,
                     const ChamferMask& mask,
                     bool backward) {
    const auto width = static_cast<std::int64_t>(row.size());
    // Physical columns [a, b) of pass columns [x0, x1); a pass step dx is the physical step −dx going backward.
    const std::int64_t a = backward ? width - x1 : x0;
    const std::int64_t b = backward ? width - x0 : x1;
    if (a >= b) {
        return;
    }
    std::int32_t* const d = row.data();
    // The terms from the rows before in the pass that exist, and the columns where all their sources are in the row.
    std::array<Term, 64> storage;  // not cleared: only [0, count) is read, and this runs for every row segment
    std::size_t count = 0;
    std::int64_t inner_lo = a;
    std::int64_t inner_hi = b;
    for (const ChamferMask::Step& step : mask.forward()) {
        if (step.dy == 0) {
            continue;
        }
        const std::int32_t* const source = above[static_cast<std::size_t>(-step.dy - 1)];
        if (source == nullptr || count == storage.size()) {
            continue;
        }
        const std::int64_t dx = backward ? -step.dx : step.dx;
        storage[count++] = {source, dx, step.weight};
        inner_lo = std::max(inner_lo, -dx);
        inner_hi = std::min(inner_hi, width - dx);
    }
    const std::span<const Term> terms(storage.data(), count);
    const std::span<const ChamferMask::Step> in_row = mask.in_row();
    const auto start = [&](std::int64_t x) { return image == nullptr ? d[x] : (image[x] == 0 ? 0 : unreached); };
    if (in_row.size() == 1 && in_row[0].dx == -1 &&
        static_cast<std::int64_t>(in_row[0].weight) * width < std::int64_t{1} << 29) {
        // Every standard mask. First each pixel from the rows before (whole segment at once: vectorises) ...
        if (image != nullptr) {
            for (std::int64_t x = a; x < b; ++x) {
                d[x] = image[x] == 0 ? 0 : unreached;
            }
        }
        for (const Term& t : terms) {
            const std::int64_t lo = std::max(a, -t.dx);
            const std::int64_t hi = std::min(b, width - t.dx);
            for (std::int64_t x = lo; x < hi; ++x) {
                d[x] = std::min(d[x], t.source[x + t.dx] + t.weight);
            }
        }
        // ... then along the row: d[x] = min over j ≤ x of t[j] + w·(x − j) = w·x + (prefix minimum of t[j] − w·j)
        // going forward (mirrored backward), a chain of one `min` a pixel where d[x] = min(t[x], d[x − 1] + w) chained
        // an addition and a `min`. Values past `unreached` stay there.
        const std::int32_t w = in_row[0].weight;
        if (!backward) {
            const std::int32_t low = a > 0 ? d[a - 1] - w * static_cast<std::int32_t>(a - 1) : unreached;
            prefix_min_forward(d, a, b, w, low);
        } else {
            const std::int32_t low =
                b < width ? d[b] + w * static_cast<std::int32_t>(b) : unreached + w * static_cast<std::int32_t>(width);
            prefix_min_backward(d, a, b, w, low);
        }
        return;
    }
    // Any other mask: every pixel from its terms, then its in-row steps, in the pass's order.
    for (std::int64_t i = 0; i < b - a; ++i) {
        const std::int64_t x = backward ? b - 1 - i : a + i;
        std::int32_t v = from_rows<true>(terms, x, width, start(x));
        for (const ChamferMask::Step& s : in_row) {
            const std::int64_t from = x + (backward ? -s.dx : s.dx);
            if (from >= 0 && from < width) {
                v = std::min(v, d[from] + s.weight);
            }
        }
        d[x] = v;
    }
}

}  // namespace llc::detail::sweep
