// Contour tracing of a binary image as a successor graph on border states (see BorderMap), its ranking by the
// machinery of contour_rank (graph.hpp), and the assembly of the ranked borders into point lists.
#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <vector>

#if defined(__SSE2__)
#include <immintrin.h>
#endif
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

constexpr std::int64_t kStatesPerPixel = 8;

/// A pixel's border states, at most four (each state's sweep holds an axial background neighbour of its own, or, for
/// 4-connectivity, an axial entry of its own), from its neighbour mask: entry directions increasing, each state's
/// successor as an offset from 8 · pixel (so state = 8 · pixel + entry, successor = 8 · pixel + offset), the north
/// flags as bits, and the entries as a set for finding a state from its pixel's first.
struct PixelStates {
    /// Four 64-bit lanes (GCC and Clang vector extensions): a pixel's four state slots written with one store.
    using Lanes = std::int64_t __attribute__((vector_size(32)));
    Lanes entry{};
    Lanes successor_offset{};
    std::array<std::uint8_t, 4> north{};  ///< written as one 32-bit word
    std::uint8_t count = 0;
    std::uint8_t entries = 0;
};

/// PixelStates for every mask, for images `width` pixels wide. A foreground pixel without a neighbour it can move to
/// is a border of one pixel: one state (entry 0), its own successor, north flag set.
std::array<PixelStates, 256> make_pixel_states(const std::array<PixelRule, 256>& rules,
                                               std::uint8_t moves,
                                               std::int64_t width) {
    std::array<PixelStates, 256> table{};
    for (std::size_t mask = 0; mask < 256; ++mask) {
        PixelStates& p = table[mask];
        if ((mask & moves) == 0) {
            p = PixelStates{{}, {}, {1, 0, 0, 0}, 1, 1};
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
            p.north[k] = static_cast<std::uint8_t>((rule.north >> entry) & 1);
        }
    }
    return table;
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
        std::uint64_t bits = 0;
        for (int quarter = 0; quarter < 4; ++quarter) {
            const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * quarter));
            const auto zero = static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, __m128i{})));
            bits |= static_cast<std::uint64_t>(~zero & 0xFFFFU) << (16 * quarter);
        }
        return bits;
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
constexpr std::array<std::uint8_t, 512> kMaskTable = make_mask_table();

/// The border pixels of row `mid` (foreground, and not interior: every axial neighbour foreground for 8-connectivity,
/// every neighbour for 4-connectivity) as bits, 64 columns a word (bit j of border[w]: column 64w + j), in a loop of
/// whole-word operations that the compiler vectorises.
void find_border_words(const std::uint64_t* up,
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
/// count + 8): their number. The columns of up to eight set bits of a word are written without a branch each.
std::size_t border_columns_of(std::span<const std::uint64_t> border, std::int64_t* out) {
    std::int64_t* next = out;
    for (std::size_t w = 0; w < border.size(); ++w) {
        std::uint64_t bits = border[w];
        if (bits == 0) {
            continue;
        }
        const auto first_column = static_cast<std::int64_t>(64 * w);
        const int found = std::popcount(bits);
        for (int j = 0; j < 8; ++j) {  // past `found`, the writes land in the slack and are overwritten
            next[j] = first_column + std::countr_zero(bits);
            bits &= bits - 1;
        }
        for (int j = 8; j < found; ++j) {
            next[j] = first_column + std::countr_zero(bits);
            bits &= bits - 1;
        }
        next += found;
    }
    return static_cast<std::size_t>(next - out);
}

/// Where trace_contours writes the states: each state, its successor, its north flag and its successor's index among
/// the block's states (kNone outside the block).
struct StateArrays {
    std::int64_t* states;
    std::int64_t* successors;
    std::uint8_t* north;
    std::int64_t* local_next;
};

/// Writes the states of the border pixels at `columns` of one row (neighbour bits in up / mid / down; its pixel 0 is
/// image pixel `row_pixel`) from index `count` on, four slots a pixel (the count advanced by its real number of
/// states, the room made by the caller), and records each pixel's first state and entry set in `first` and
/// `entry_set`. Returns the new count.
std::size_t write_row_states(std::span<const std::int64_t> columns,
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
        std::memcpy(out.north + count, p.north.data(), p.north.size());
        count += p.count;
    }
    return count;
}

/// Sets local_next of the states [begin, end) of block row r (its pixel 0 is image pixel `row_pixel`; the block has
/// `rows` × `cols` pixels, `count` states so far): the first state of the successor's pixel (`first` and `entry_set`,
/// three rows round-robin, hold rows r − 1 … r + 1) plus the states of that pixel with smaller entry directions.
/// Returns false when a successor inside the block is not a border state (cannot happen).
bool link_row_states(StateArrays a,
                     std::size_t begin,
                     std::size_t end,
                     std::size_t count,
                     std::int64_t r,
                     std::int64_t row_pixel,
                     std::int64_t rows,
                     std::int64_t cols,
                     const std::int64_t* first,
                     const std::uint8_t* entry_set) {
    for (std::size_t i = begin; i < end; ++i) {
        const std::int64_t target = a.successors[i];
        const auto entry = static_cast<unsigned>(target & 7);
        const auto exit = static_cast<std::size_t>((entry + 4) & 7);
        const std::int64_t tr = r + kRowStep[exit];
        const std::int64_t tc = a.states[i] / kStatesPerPixel - row_pixel + kColStep[exit];
        if (target == a.states[i]) {
            a.local_next[i] = static_cast<std::int64_t>(i);  // a border of one pixel
            continue;
        }
        if (tr < 0 || tr >= rows || tc < 0 || tc >= cols) {
            a.local_next[i] = kNone;
            continue;
        }
        const auto slot = static_cast<std::size_t>((tr % 3) * cols + tc);
        const auto k = static_cast<std::size_t>(
            first[slot] + std::popcount(static_cast<unsigned>(entry_set[slot]) & ((1U << entry) - 1)));
        if (k >= count || a.states[k] != target) {
            return false;
        }
        a.local_next[i] = static_cast<std::int64_t>(k);
    }
    return true;
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
    const std::int64_t cols = b.cols;
    // The ring of pixels around the block; the block's own pixels are read in place (foreground: nonzero).
    const std::span<const std::uint8_t> pixels = image.pixels();
    const Ring<std::uint8_t> ring(group, b, width, image.height(), pixels, 0);
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
    // The states, their successors, north flags and successors in the block, written through pointers into vectors
    // kept at least four states a column ahead of the count (every pixel's four possible states written at once, the
    // count advanced by its real number), cut to the count at the end.
    std::size_t count = 0;
    StateArrays arrays{};
    // Grown to the count the rows so far project for the whole block (and at least doubled), so that a block is
    // copied once or twice rather than at every doubling from a row's worth.
    const auto make_room = [&](std::size_t room, std::int64_t rows_done) {
        if (map.states_.size() < count + room) {
            const auto projected =
                static_cast<std::size_t>(static_cast<double>(count) * 1.125 * static_cast<double>(b.rows) /
                                         static_cast<double>(std::max<std::int64_t>(rows_done, 1)));
            const std::size_t size = std::max({2 * map.states_.size(), count + room, projected});
            map.states_.resize(size);
            map.successors_.resize(size);
            map.north_.resize(size);
            map.local_next_.resize(size);
            arrays = {map.states_.data(), map.successors_.data(), map.north_.data(), map.local_next_.data()};
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
    map.north_.resize(count);
    map.local_next_.resize(count);
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
