#include "edt_kernels.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>

namespace llc::detail::edt {

namespace {

/// ⌊a / b⌋ for b > 0 and |a| < 2^52: a floating-point division (several times faster than a 64-bit integer one), then
/// corrected by one where its rounding crossed an integer.
std::int64_t floor_quotient(std::int64_t a, std::int64_t b) {
    auto q = static_cast<std::int64_t>(std::floor(static_cast<double>(a) / static_cast<double>(b)));
    if (q * b > a) {
        --q;
    } else if ((q + 1) * b <= a) {
        ++q;
    }
    return q;
}

/// ⌊a / 2⌋.
std::int64_t floor_half(std::int64_t a) {
    return a >= 0 ? a / 2 : -((-a + 1) / 2);
}

}  // namespace

void column_pass(std::span<const std::uint8_t> image,
                 int width,
                 int rows,
                 std::int32_t y0,
                 std::span<std::int32_t> nearest_row,
                 std::span<std::int32_t> first,
                 std::span<std::int32_t> last) {
    const auto w = static_cast<std::size_t>(width);
    std::int32_t* const up = last.data();  // the last feature row at or above, as the pass goes down
    std::fill_n(up, w, no_row);
    // Down: the nearest feature at or above each pixel, within the block. Branch-free: it vectorises.
    for (int y = 0; y < rows; ++y) {
        const std::uint8_t* const in = image.data() + static_cast<std::size_t>(y) * w;
        std::int32_t* const out = nearest_row.data() + static_cast<std::size_t>(y) * w;
        const std::int32_t row = y0 + y;
        for (std::size_t x = 0; x < w; ++x) {
            up[x] = in[x] == 0 ? row : up[x];
            out[x] = up[x];
        }
    }
    // Up: the nearest feature at or below; keep whichever of the two is nearer (the upper one on a tie).
    std::int32_t* const down = first.data();
    std::fill_n(down, w, no_row);
    for (int y = rows - 1; y >= 0; --y) {
        const std::uint8_t* const in = image.data() + static_cast<std::size_t>(y) * w;
        std::int32_t* const out = nearest_row.data() + static_cast<std::size_t>(y) * w;
        const std::int32_t row = y0 + y;
        for (std::size_t x = 0; x < w; ++x) {
            down[x] = in[x] == 0 ? row : down[x];
            const std::int32_t a = out[x];
            const std::int32_t b = down[x];
            const bool take_below = b != no_row && (a == no_row || b - row < row - a);
            out[x] = take_below ? b : a;
        }
    }
}

void carry_over(std::span<const std::int32_t> summary, std::span<std::int32_t> carry) {
    for (std::size_t x = 0; x < carry.size(); ++x) {
        carry[x] = summary[x] != no_row ? summary[x] : carry[x];
    }
}

RowScratch::RowScratch(int width) {
    const auto w = static_cast<std::size_t>(width);
    for (int j = 0; j < ways; ++j) {
        g2[j].resize(w);
        rows[j].resize(w);
        pieces[j].resize(w);
    }
}

namespace {

/// The feature row nearest to (x, y) in column x: within the block, or the nearest above or below it (the upper one
/// on a tie); writes its row into `from` and its squared distance into `g2` (−1 where the column has no feature).
/// Branch-free, so that it vectorises: a missing row is "far".
void vertical_distances(std::span<const std::int32_t> nearest_row,
                        std::span<const std::int32_t> above,
                        std::span<const std::int32_t> below,
                        std::int32_t y,
                        std::int64_t* g2,
                        std::int32_t* from) {
    constexpr std::int32_t far = std::int32_t{1} << 30;
    const std::size_t width = nearest_row.size();
    for (std::size_t x = 0; x < width; ++x) {
        const std::int32_t a = above[x];
        const std::int32_t m = nearest_row[x];
        const std::int32_t b = below[x];
        const std::int32_t da = a == no_row ? far : y - a;
        const std::int32_t dm = m == no_row ? far : (m > y ? m - y : y - m);
        const std::int32_t db = b == no_row ? far : b - y;
        // Rows above come first in each comparison, so a tie keeps the upper row.
        const bool take_m = dm < da || (dm == da && m < a);
        std::int32_t best = take_m ? m : a;
        std::int32_t d = take_m ? dm : da;
        const bool take_b = db < d;
        best = take_b ? b : best;
        d = take_b ? db : d;
        from[x] = best;
        g2[x] = d == far ? -1 : static_cast<std::int64_t>(d) * d;
    }
}

/// Whether parabola u is strictly the lowest nowhere but (perhaps) at its own column x = u, which write_row covers
/// by itself: then the envelope can leave it out, and most columns of a binary image's rows go. Against its two
/// neighbours alone (parabolas a = g2[u−1] at u − 1 and b = g2[u+1] at u + 1), parabola c = g2[u] is strictly lower
/// at x = u + d iff (c − a − 1)/2 < d < (b − c + 1)/2; if no integer d ≠ 0 qualifies, u is never needed elsewhere.
bool only_own_column(const std::int64_t* g2, std::int32_t u, std::int32_t width) {
    if (u == 0 || u + 1 == width || g2[u - 1] < 0 || g2[u + 1] < 0) {
        return false;
    }
    const std::int64_t c = g2[u];
    const std::int64_t lo = floor_half(c - g2[u - 1] - 1) + 1;      // the least d with 2d > c − a − 1
    const std::int64_t hi = -floor_half(-(g2[u + 1] - c + 1)) - 1;  // the greatest d with 2d < b − c + 1
    // Integers d in [lo, hi] other than 0.
    return lo > hi || (lo == 0 && hi == 0);
}

/// The lower envelope of one row, built column by column. With F(u) = g2[u] + u², parabola u is below parabola s at x
/// iff F(u) − 2xu < F(s) − 2xs, and it takes over from s at the first x > (F(u) − F(s)) / (2(u − s)). The top of the
/// stack stays in registers: each step depends on the one before (a division among them), so the caller runs
/// several rows' envelopes interleaved, which the processor then overlaps.
struct Envelope {
    Piece* stack;
    int k = -1;
    Piece top{};

    void add(const std::int64_t* g2, std::int32_t u, std::int32_t width) {
        const std::int64_t g2u = g2[u];
        if (g2u < 0 || only_own_column(g2, u, width)) {
            return;  // no feature in this column, or its parabola is never needed in the envelope
        }
        const std::int64_t Fu = g2u + static_cast<std::int64_t>(u) * u;
        while (k >= 0 && top.at_start > Fu - 2 * static_cast<std::int64_t>(top.start) * u) {
            if (--k >= 0) {
                top = stack[k];
            }
        }
        if (k < 0) {
            k = 0;
            top = Piece{Fu, Fu, u, 0};
            stack[0] = top;
            return;
        }
        const std::int64_t sep = 1 + floor_quotient(Fu - top.F, 2 * (static_cast<std::int64_t>(u) - top.centre));
        if (sep < width) {
            ++k;
            top = Piece{Fu, Fu - 2 * sep * u, u, static_cast<std::int32_t>(sep)};
            stack[k] = top;
        }
    }
};

/// Writes the row from its envelope: the squared distances and, if asked, the nearest feature's index.
void write_row(const Envelope& envelope,
               const std::int64_t* g2,
               const std::int32_t* from,
               std::span<std::int32_t> squared,
               std::span<std::int32_t> feature) {
    if (envelope.k < 0) {  // no feature in the whole image
        std::fill(squared.begin(), squared.end(), -1);
        std::fill(feature.begin(), feature.end(), -1);
        return;
    }
    const auto width = static_cast<std::int32_t>(squared.size());
    // Each piece covers [start, the next piece's start); fill the row piece by piece, from the right.
    std::int32_t end = width;
    for (int k = envelope.k; k >= 0; --k) {
        const std::int32_t u = envelope.stack[k].centre;
        const std::int32_t start = envelope.stack[k].start;
        // In 32-bit unsigned arithmetic, which vectorises: every squared distance fits (the caller checks the size).
        const auto base = static_cast<std::uint32_t>(g2[u]);
        for (std::int32_t x = start; x < end; ++x) {
            const auto dx = static_cast<std::uint32_t>(x - u);
            squared[x] = static_cast<std::int32_t>(dx * dx + base);
        }
        if (!feature.empty()) {
            std::fill(feature.begin() + start, feature.begin() + end, from[u] * width + u);
        }
        end = start;
    }
    // Each column's own parabola at its own column, which the envelope may have left out (only_own_column).
    if (!feature.empty()) {
        for (std::int32_t x = 0; x < width; ++x) {
            const bool own = g2[x] >= 0 && g2[x] < squared[x];
            feature[x] = own ? from[x] * width + x : feature[x];
        }
    }
    for (std::int32_t x = 0; x < width; ++x) {
        const auto own = static_cast<std::int32_t>(g2[x]);
        squared[x] = g2[x] >= 0 && own < squared[x] ? own : squared[x];
    }
}

}  // namespace

void row_pass(std::span<const std::int32_t> nearest_rows,
              std::span<const std::int32_t> above,
              std::span<const std::int32_t> below,
              std::int32_t y0,
              int rows,
              RowScratch& scratch,
              std::span<std::int32_t> squared,
              std::span<std::int32_t> feature) {
    const auto width = static_cast<std::int32_t>(above.size());
    const auto w = static_cast<std::size_t>(width);
    const auto row_of = [w](auto span, int y) {
        return span.empty() ? span : span.subspan(static_cast<std::size_t>(y) * w, w);
    };
    for (int y = 0; y < rows; y += RowScratch::ways) {
        const int n = std::min(RowScratch::ways, rows - y);
        std::array<Envelope, RowScratch::ways> envelopes{};
        for (int j = 0; j < n; ++j) {
            vertical_distances(
                row_of(nearest_rows, y + j), above, below, y0 + y + j, scratch.g2[j].data(), scratch.rows[j].data());
            envelopes[j].stack = scratch.pieces[j].data();
        }
        if (n == RowScratch::ways) {
            for (std::int32_t u = 0; u < width; ++u) {
#pragma GCC unroll 4
                for (int j = 0; j < RowScratch::ways; ++j) {
                    envelopes[j].add(scratch.g2[j].data(), u, width);
                }
            }
        } else {
            for (int j = 0; j < n; ++j) {
                for (std::int32_t u = 0; u < width; ++u) {
                    envelopes[j].add(scratch.g2[j].data(), u, width);
                }
            }
        }
        for (int j = 0; j < n; ++j) {
            write_row(envelopes[j],
                      scratch.g2[j].data(),
                      scratch.rows[j].data(),
                      row_of(squared, y + j),
                      row_of(feature, y + j));
        }
    }
}

}  // namespace llc::detail::edt
