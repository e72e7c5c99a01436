#pragma once
// The border kernels of trace_contours (trace_contours.cpp): the per-mask tables (what a pixel with a given
// foreground-neighbour mask does with the states entering it), the bit rows a block's rows are packed into, the
// neighbour masks read from three of them, and the writing and linking of a row's border states. They run in
// trace_contours' loop over the rows, so they are inline here and that loop's translation unit (trace_contours.cpp)
// compiles them into it, as when they were its own (the same machine code); contours.cpp reads the state encoding.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include <llc/algorithms/contour_ranking.hpp>

#include "graph.hpp"

namespace llc::detail::contour_ranking {

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
inline std::array<PixelRule, 256> make_rules(Connectivity connectivity) {
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

/// A border state is 8 · pixel + entry direction (see BorderMap).
inline constexpr std::int64_t kStatesPerPixel = 8;

/// A pixel's border states, at most four (each state's sweep holds an axial background neighbour of its own, or, for
/// 4-connectivity, an axial entry of its own), from its neighbour mask: entry directions increasing, each state's
/// successor as an offset from 8 · pixel (so state = 8 · pixel + entry, successor = 8 · pixel + offset), the flags
/// (north, move in: BorderMap's) as bytes, and the entries as a set for finding a state from its pixel's first.
struct PixelStates {
    /// Four 64-bit lanes (GCC and Clang vector extensions): a pixel's four state slots written with one store.
    using Lanes = std::int64_t __attribute__((vector_size(32)));
    Lanes entry{};
    Lanes successor_offset{};
    std::array<std::uint8_t, 4> flags{};  ///< BorderMap's flags (north, move in), written as one 32-bit word
    std::uint8_t count = 0;
    std::uint8_t entries = 0;
};

/// PixelStates for every mask, for images `width` pixels wide. A foreground pixel without a neighbour it can move to
/// is a border of one pixel: one state (entry 0), its own successor, north flag set.
inline std::array<PixelStates, 256> make_pixel_states(const std::array<PixelRule, 256>& rules,
                                                      std::uint8_t moves,
                                                      std::int64_t width) {
    std::array<PixelStates, 256> table{};
    for (std::size_t mask = 0; mask < 256; ++mask) {
        PixelStates& p = table[mask];
        if ((mask & moves) == 0) {
            p = PixelStates{{}, {}, {1 | 4 << 1, 0, 0, 0}, 1, 1};
            continue;
        }
        const PixelRule& rule = rules[mask];
        p.entries = rule.border;
        for (unsigned bits = rule.border; bits != 0; bits &= bits - 1) {
            const auto entry = static_cast<std::size_t>(std::countr_zero(bits));
            const auto exit = static_cast<std::size_t>(rule.out[entry]);
            const auto k = static_cast<std::size_t>(p.count++);
            p.entry[k] = static_cast<std::int64_t>(entry);
            p.successor_offset[k] =
                (kRowStep[exit] * width + kColStep[exit]) * kStatesPerPixel + static_cast<std::int64_t>((exit + 4) & 7);
            p.flags[k] = static_cast<std::uint8_t>(((rule.north >> entry) & 1) | ((entry + 4) & 7) << 1);
        }
    }
    return table;
}

/// One row of the block and the ring pixels left and right of it as bits (1: foreground): column c (−1 … cols) at bit
/// c + 64, so the block's columns start at word 1 and word 0 holds only column −1 (bit 63). One spare word at the end
/// lets three_bits read past the right ring pixel.
class BitRow {
  public:
    explicit BitRow(std::int64_t cols) : words_(static_cast<std::size_t>((cols + 64) / 64 + 2), 0) {}

    /// Sets the row from `pixels` (cols values, nonzero: foreground) and the values left and right of it, and asks
    /// the processor to fetch the `ahead` row (cols values; null: none) meanwhile: an image row is often one memory
    /// page, which the hardware prefetchers do not cross.
    void assign(const std::uint8_t* pixels,
                std::int64_t cols,
                std::uint8_t left,
                std::uint8_t right,
                const std::uint8_t* ahead) {
        std::fill(words_.begin(), words_.end(), 0);
        words_[0] = left != 0 ? std::uint64_t{1} << 63 : 0;
        if (ahead != nullptr) {
            for (std::int64_t k = 0; k < cols; k += 64) {
                __builtin_prefetch(ahead + k);
            }
        }
        pack_bits(pixels, cols, words_.data() + 1);
        if (right != 0) {
            words_[static_cast<std::size_t>((cols + 64) / 64)] |= std::uint64_t{1} << ((cols + 64) % 64);
        }
    }

    [[nodiscard]] const std::uint64_t* words() const noexcept { return words_.data(); }

  private:
    /// Bit j of out[k]: pixels[64k + j] ≠ 0, for the n pixels; the last word's bits past n stay as they are (zero).
    static void pack_bits(const std::uint8_t* pixels, std::int64_t n, std::uint64_t* out) {
        std::int64_t k = 0;
        for (; k + 64 <= n; k += 64) {
            *out++ = nonzero_bits_64(pixels + k);
        }
        std::uint64_t last = 0;
        for (std::int64_t j = k; j < n; ++j) {
            last |= static_cast<std::uint64_t>(pixels[j] != 0) << (j - k);
        }
        if (k < n) {
            *out = last;
        }
    }

    /// Bit j: p[j] ≠ 0, for 64 bytes, with the widest byte compare the compiler was told the processor has.
    static std::uint64_t nonzero_bits_64(const std::uint8_t* p) {
#if defined(__AVX512BW__)
        const __m512i v = _mm512_loadu_si512(p);
        return _mm512_test_epi8_mask(v, v);
#elif defined(__AVX2__)
        std::uint64_t bits = 0;
        for (int half = 0; half < 2; ++half) {
            const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32 * half));
            const auto zero = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, __m256i{})));
            bits |= static_cast<std::uint64_t>(~zero) << (32 * half);
        }
        return bits;
#elif defined(__SSE2__)
        // The zero bytes' bits gathered, complemented once (a movemask of 16 bytes is below 2^16).
        std::uint64_t zero = 0;
        for (int quarter = 0; quarter < 4; ++quarter) {
            const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * quarter));
            zero |=
                static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, __m128i{}))))
                << (16 * quarter);
        }
        return ~zero;
#else
        std::uint64_t bits = 0;
        for (int j = 0; j < 64; ++j) {
            bits |= static_cast<std::uint64_t>(p[j] != 0) << j;
        }
        return bits;
#endif
    }

    std::vector<std::uint64_t> words_;
};

/// Bits pos, pos + 1, pos + 2 of a BitRow's words (bit 0 of the result: bit pos). On little-endian machines one
/// unaligned load of the bytes from bit pos on (the BitRow's spare word keeps it inside), without a branch.
[[gnu::always_inline]] inline unsigned three_bits(const std::uint64_t* words, std::int64_t pos) {
    std::uint64_t v = 0;
    if constexpr (std::endian::native == std::endian::little) {
        std::memcpy(&v, reinterpret_cast<const unsigned char*>(words) + (pos >> 3), sizeof v);
        v >>= pos & 7;
    } else {
        const auto w = static_cast<std::size_t>(pos >> 6);
        const auto shift = static_cast<unsigned>(pos & 63);
        v = words[w] >> shift;
        if (shift > 61) {
            v |= words[w + 1] << (64 - shift);
        }
    }
    return static_cast<unsigned>(v & 7);
}

/// The neighbour mask (bit d: the neighbour in Freeman direction d is foreground) of a pixel from the three bits of
/// columns c − 1, c, c + 1 in the rows above (u), at (m) and below (d): index u | m << 3 | d << 6.
constexpr std::array<std::uint8_t, 512> make_mask_table() {
    std::array<std::uint8_t, 512> table{};
    for (unsigned i = 0; i < 512; ++i) {
        const unsigned u = i & 7;
        const unsigned m = (i >> 3) & 7;
        const unsigned d = (i >> 6) & 7;
        const unsigned mask = (m >> 2 & 1) | (u >> 2 & 1) << 1 | (u >> 1 & 1) << 2 | (u & 1) << 3 | (m & 1) << 4 |
                              (d & 1) << 5 | (d >> 1 & 1) << 6 | (d >> 2 & 1) << 7;
        table[i] = static_cast<std::uint8_t>(mask);
    }
    return table;
}
// Not `inline`: a table of this translation unit, addressed directly (an inline variable is read through the GOT).
constexpr std::array<std::uint8_t, 512> kMaskTable = make_mask_table();

/// The number of set bits of each byte: std::popcount is a call into libgcc on a baseline x86-64 build (no POPCNT).
constexpr std::array<std::uint8_t, 256> make_bit_count_table() {
    std::array<std::uint8_t, 256> table{};
    for (unsigned i = 0; i < 256; ++i) {
        table[i] = static_cast<std::uint8_t>(std::popcount(i));
    }
    return table;
}
// Not `inline`, as kMaskTable.
constexpr std::array<std::uint8_t, 256> kBitCount = make_bit_count_table();

/// The border pixels of row `mid` (foreground, and not interior: every axial neighbour foreground for 8-connectivity,
/// every neighbour for 4-connectivity) as bits, 64 columns a word (bit j of border[w]: column 64w + j), in a loop of
/// whole-word operations that the compiler vectorises.
inline void find_border_words(const std::uint64_t* up,
                              const std::uint64_t* mid,
                              const std::uint64_t* down,
                              std::int64_t cols,
                              bool eight,
                              std::uint64_t* border) {
    const std::int64_t words = (cols + 63) / 64;
    const auto east_of = [](const std::uint64_t* row, std::size_t k) { return (row[k] >> 1) | (row[k + 1] << 63); };
    const auto west_of = [](const std::uint64_t* row, std::size_t k) { return (row[k] << 1) | (row[k - 1] >> 63); };
    if (eight) {
        for (std::size_t k = 1; k <= static_cast<std::size_t>(words); ++k) {
            border[k - 1] = mid[k] & ~(east_of(mid, k) & west_of(mid, k) & up[k] & down[k]);
        }
    } else {
        for (std::size_t k = 1; k <= static_cast<std::size_t>(words); ++k) {
            border[k - 1] = mid[k] & ~(east_of(mid, k) & west_of(mid, k) & up[k] & down[k] & east_of(up, k) &
                                       west_of(up, k) & east_of(down, k) & west_of(down, k));
        }
    }
    if (cols % 64 != 0) {
        border[words - 1] &= (std::uint64_t{1} << (cols % 64)) - 1;  // not the ring pixel right of the block
    }
}

/// The columns of the set bits of `border` (find_border_words' words), increasing, written to `out` (room for the
/// count + 8): their number. The columns of a word's set bits are written four at a time without a branch each, and
/// counted as they are written: std::popcount is a call into libgcc on a baseline x86-64 build (no POPCNT), which was
/// an eighth of the trace's instructions with the one in link_row_states. Four, not eight: a nonzero word of the
/// blob image holds 1.7 border pixels on average.
inline std::size_t border_columns_of(std::span<const std::uint64_t> border, std::int64_t* out) {
    std::int64_t* next = out;
    for (std::size_t w = 0; w < border.size(); ++w) {
        std::uint64_t bits = border[w];
        const auto first_column = static_cast<std::int64_t>(64 * w);
        while (bits != 0) {
            std::int64_t found = 0;
            for (int j = 0; j < 4; ++j) {  // past the last bit, the writes land in the slack and are overwritten
                // Bit 63 or'ed in: never zero, so no branch for countr_zero(0); it changes no column of a set bit.
                next[j] = first_column + std::countr_zero(bits | std::uint64_t{1} << 63);
                found += bits != 0 ? 1 : 0;
                bits &= bits - 1;
            }
            next += found;
        }
    }
    return static_cast<std::size_t>(next - out);
}

/// Where trace_contours writes the states: each state, its successor, its flags (BorderMap) and its successor's index
/// among the block's states (kNone outside the block).
struct StateArrays {
    std::int64_t* states;
    std::int64_t* successors;
    std::uint8_t* flags;
    std::int32_t* local_next;
};

/// Writes the states of the border pixels at `columns` of one row (neighbour bits in up / mid / down; its pixel 0 is
/// image pixel `row_pixel`) from index `count` on, four slots a pixel (the count advanced by its real number of
/// states, the room made by the caller), and records each pixel's first state and entry set in `first` and
/// `entry_set`. Returns the new count.
inline std::size_t write_row_states(std::span<const std::int64_t> columns,
                                    const std::uint64_t* up,
                                    const std::uint64_t* mid,
                                    const std::uint64_t* down,
                                    const std::array<PixelStates, 256>& pixel_states,
                                    std::int64_t row_pixel,
                                    StateArrays out,
                                    std::size_t count,
                                    std::int64_t* first,
                                    std::uint8_t* entry_set) {
    for (const std::int64_t c : columns) {
        const std::int64_t left = c + 63;  // the bit of column c − 1
        const unsigned mask =
            kMaskTable[three_bits(up, left) | three_bits(mid, left) << 3 | three_bits(down, left) << 6];
        const PixelStates& p = pixel_states[mask];
        const std::int64_t state = (row_pixel + c) * kStatesPerPixel;
        first[c] = static_cast<std::int64_t>(count);
        entry_set[c] = p.entries;
        const PixelStates::Lanes states = state + p.entry;
        const PixelStates::Lanes successors = state + p.successor_offset;
        std::memcpy(out.states + count, &states, sizeof states);
        std::memcpy(out.successors + count, &successors, sizeof successors);
        std::memcpy(out.flags + count, p.flags.data(), p.flags.size());
        count += p.count;
    }
    return count;
}

/// Sets local_next of the states [begin, end) of block row r (its pixel 0 is image pixel `row_pixel`; the block has
/// `rows` × `cols` pixels, `count` states so far): the first state of the successor's pixel (`first` and `entry_set`,
/// three rows round-robin, hold rows r − 1 … r + 1) plus the states of that pixel with smaller entry directions.
/// Returns false when a successor inside the block is not a border state (cannot happen).
inline bool link_row_states(StateArrays a,
                            std::size_t begin,
                            std::size_t end,
                            std::size_t count,
                            std::int64_t r,
                            std::int64_t row_pixel,
                            std::int64_t rows,
                            std::int64_t cols,
                            const std::int64_t* first,
                            const std::uint8_t* entry_set) {
    // The round-robin slot of rows r − 1, r, r + 1 (by row step + 1), once a row rather than a modulo a state.
    const std::array<std::int64_t, 3> row_slot = {((r + 2) % 3) * cols, (r % 3) * cols, ((r + 1) % 3) * cols};
    for (std::size_t i = begin; i < end; ++i) {
        const std::int64_t target = a.successors[i];
        const std::int64_t state = a.states[i];
        if (target == state) {
            a.local_next[i] = static_cast<std::int32_t>(i);  // a border of one pixel
            continue;
        }
        const auto entry = static_cast<unsigned>(target & 7);
        const auto exit = static_cast<std::size_t>((entry + 4) & 7);
        const std::int64_t tr = r + kRowStep[exit];
        const std::int64_t tc = (state >> 3) - row_pixel + kColStep[exit];  // states ≥ 0: >> 3 is / kStatesPerPixel
        // One unsigned compare a side: a negative row or column is a huge unsigned value.
        if (static_cast<std::uint64_t>(tr) >= static_cast<std::uint64_t>(rows) ||
            static_cast<std::uint64_t>(tc) >= static_cast<std::uint64_t>(cols)) {
            a.local_next[i] = static_cast<std::int32_t>(kNone);
            continue;
        }
        const auto slot = static_cast<std::size_t>(row_slot[static_cast<std::size_t>(kRowStep[exit] + 1)] + tc);
        const auto k = static_cast<std::size_t>(
            first[slot] + kBitCount[static_cast<unsigned>(entry_set[slot]) & ((1U << entry) - 1)]);
        if (k >= count || a.states[k] != target) {
            return false;
        }
        a.local_next[i] = static_cast<std::int32_t>(k);
    }
    return true;
}

}  // namespace llc::detail::contour_ranking
