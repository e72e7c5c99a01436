// The chamfer passes' kernel constants: seconds per pixel of one pass over a blob image, in segments of 2^j columns
// (the pipeline's k: short segments pay the loop overheads of every row), for each standard mask. What is timed is what
// the transform does to every pixel — the forward pass (which also initialises from the image), the backward pass and
// the marking of unreached pixels as the backward pass goes — halved: the cost model prices the transform as two
// passes at this constant. (Timing the forward pass alone under-predicted the whole transform by a quarter at every
// size: the backward pass and the marking are not free.)
#include <cstdint>
#include <deque>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <llc/algorithms/blob_image.hpp>
#include <llc/algorithms/chamfer.hpp>
#include <llc/algorithms/distance_transform_names.hpp>
#include <llc/cost/kernel_probe.hpp>
#include <llc/cost/kernel_table.hpp>
#include <llc/cost/kernel_timing.hpp>

#include "sweep.hpp"

namespace llc::detail::sweep {

namespace {

/// The seed of the probes' blob images: not the validation cases' (docs/validation.md).
constexpr std::uint64_t sweep_probe_seed = 13;

/// Marks where nothing reached (−1) in columns [a, b) of `row`, as chamfer.cpp does.
void mark(std::int32_t* row, std::int64_t a, std::int64_t b) {
    for (std::int64_t x = a; x < b; ++x) {
        row[x] = row[x] >= unreached ? -1 : row[x];
    }
}

/// The two passes over a 4096-wide image as the transform runs them (chamfer.cpp): in units of r rows (a block) by k
/// columns (a segment), block by block in the pass's order, each block segment by segment; at whole rows (k = 2^12,
/// what a one-processor run reads) the whole image is one block. The backward pass marks where nothing reached as the
/// transform does: at whole rows each row once the `reach` rows after it in the pass have read it, in units a unit
/// once its block is `read_back` segments further on (or done), from a core's caches, as a distributed run does.
class ProbePasses {
  public:
    static constexpr int width = 4096;

    ProbePasses(const ChamferMask& mask, int j, int height)
        : mask_(mask),
          height_(height),
          k_(std::int64_t{1} << j),
          // blocks as the library lays them out: sweep_layout's k / 4 rows, at least best_sweep_layout's 16; the whole
          // image at whole rows
          r_(k_ >= width ? height : static_cast<int>(std::max<std::int64_t>(16, k_ / 4))),
          read_back_(1 + (spread(mask) + static_cast<std::int64_t>(mask.reach()) * mask.lead() + k_ - 1) / k_),
          above_(static_cast<std::size_t>(mask.reach())) {}

    void forward(std::int32_t* out, const std::uint8_t* image) {
        for (int y0 = 0; y0 < height_; y0 += r_) {
            const int y1 = std::min(height_, y0 + r_);
            for (std::int64_t x0 = 0; x0 < width; x0 += k_) {
                const std::int64_t x1 = std::min<std::int64_t>(width, x0 + k_);
                for (int y = y0; y < y1; ++y) {
                    rows_before(out, y, +1);
                    if (y + 1 < y1) {  // as the transform does, within the block
                        prefetch_segment(row(out, y + 1), image + offset(y + 1), x0, x1);
                    }
                    chamfer_segment(std::span(row(out, y), width), above_, image + offset(y), x0, x1, mask_, false);
                }
            }
        }
    }

    void backward(std::int32_t* out) {
        const bool whole_rows = r_ == height_;
        std::deque<std::pair<int, std::int64_t>> unmarked;  // (block's first pass row, segment's x0), in pass order
        const auto mark_unit = [&](int first, std::int64_t x0) {
            const std::int64_t x1 = std::min<std::int64_t>(width, x0 + k_);
            for (int y = first; y < std::min(height_, first + r_); ++y) {
                mark(row(out, height_ - 1 - y), width - x1, width - x0);
            }
        };
        for (int y0 = 0; y0 < height_; y0 += r_) {  // pass rows: physical row height − 1 − y
            const int y1 = std::min(height_, y0 + r_);
            for (std::int64_t x0 = 0; x0 < width; x0 += k_) {
                const std::int64_t x1 = std::min<std::int64_t>(width, x0 + k_);
                for (int y = y0; y < y1; ++y) {
                    const int py = height_ - 1 - y;
                    rows_before(out, py, -1);
                    if (y + 1 < y1) {
                        prefetch_segment(row(out, py - 1), nullptr, width - x1, width - x0);
                    }
                    chamfer_segment(std::span(row(out, py), width), above_, nullptr, x0, x1, mask_, true);
                    if (whole_rows && y - mask_.reach() >= y0) {  // row y − reach was the last that read it
                        mark(row(out, py + mask_.reach()), width - x1, width - x0);
                    }
                }
                if (whole_rows) {
                    for (int y = std::max(y0, y1 - mask_.reach()); y < y1; ++y) {
                        mark(row(out, height_ - 1 - y), width - x1, width - x0);
                    }
                    continue;
                }
                while (!unmarked.empty() &&
                       (unmarked.front().first != y0 || unmarked.front().second <= x0 - read_back_ * k_)) {
                    mark_unit(unmarked.front().first, unmarked.front().second);
                    unmarked.pop_front();
                }
                unmarked.emplace_back(y0, x0);
            }
        }
        for (const auto& [first, x0] : unmarked) {
            mark_unit(first, x0);
        }
    }

  private:
    /// The widest column step of the mask.
    [[nodiscard]] static std::int64_t spread(const ChamferMask& mask) {
        std::int64_t widest = 0;
        for (const ChamferMask::Step& step : mask.forward()) {
            widest = std::max<std::int64_t>(widest, std::abs(step.dx));
        }
        return widest;
    }
    [[nodiscard]] static std::size_t offset(int y) { return static_cast<std::size_t>(y) * width; }
    [[nodiscard]] static std::int32_t* row(std::int32_t* out, int y) { return out + offset(y); }
    /// The rows a pass step reads: the `reach` rows before row y in the pass's direction (nullptr off the image).
    void rows_before(std::int32_t* out, int y, int direction) {
        for (int i = 0; i < mask_.reach(); ++i) {
            const int source = y - direction * (1 + i);
            above_[static_cast<std::size_t>(i)] = source >= 0 && source < height_ ? row(out, source) : nullptr;
        }
    }

    const ChamferMask& mask_;
    int height_;
    std::int64_t k_;
    int r_;
    std::int64_t read_back_;  ///< chamfer.cpp's segments_read_back
    std::vector<const std::int32_t*> above_;
};

/// Seconds per pixel of one pass in segments of 2^j columns on a 4096 × `height` blob image: 2048 rows, 40 MB of image
/// and distances, beyond the last-level cache like the images worth distributing ("dt.sweep"); 256 rows, 5 MB, in
/// the caches ("dt.sweep_cache"); 32 rows, 640 KiB, in a core's own caches (L2: "dt.sweep_small"). The cost reads the
/// streamed or the in-cache one on the side of the profile's effective last-level cache where the node's data lie
/// (kernel_per_unit_by_cache), between the two by the processor's bytes for profiles that record no effective cache:
/// with the streamed table alone, 1024² transforms were priced 55–65 % high once the in-row pass was vectorised; with
/// the in-cache one alone, the 2048² … 8192² ones 16 % low (before). Below the in-cache probe's 5 MB it goes from the
/// in-cache table to the small one by log2 of the processor's bytes, at one processor: with the in-cache table alone
/// the 256² and 512² transforms (0.3 and 1.3 MB, in L2) were priced 24–37 % high at p = 1 (the 17:14 quiet demo). The
/// small probe is cheap: whole rows only (what a one-processor run reads), an eighth of the in-cache one's pixels.
///
/// What is timed is what the transform does (chamfer.cpp, ProbePasses), not more:
/// - The backward pass marks where nothing reached as the transform does (a row, or a unit of r × k pixels, once
///   nothing later reads it, while it is in a core's caches), not in a pass of its own over the whole image
///   afterwards. That pass over 4 MB (in the caches) or 32 MB of distances is work the transform does not do, and it
///   weighed most on the cheapest mask: the 1024² d4 transform at p = 1 (5 MB, the in-cache probe's bytes) ran a
///   pixel in 0.54 ns where the probe took 0.67 alone, d8 0.73 against 0.84 (quiet, 2026-11-26 23:15 demos); priced
///   18–24 % and 12–18 % high. The segments run block by block as the pipeline runs them, and a distributed run
///   marks its units a few segments later from the caches: at p = 2 the d4 backward pass computed 27–32 % longer
///   than the forward one (1024², the same demos' traces), d8 6–18 %, 5-7-11 −2 to +6 %.
/// - The streamed probe's two passes run on different distances (`streamed`): the backward pass of an image of 80 MB
///   and more (4096² at p = 1, 8192² at p = 1 and 2) finds less of what its forward pass left in the last-level cache
///   than the 40 MB probe image's backward pass and marking did, and the streamed constants ran 9–24 % below what
///   those transforms took (d4, 8192², p = 2: 0.80 against 1.05 ns a pixel computed; p = 1 0.83 against 0.99).
double sweep_probe(bool quick, const ChamferMask& mask, int j, int height, bool streamed) {
    const std::vector<std::uint8_t>& image = kept_random_blob_image(ProbePasses::width, height, sweep_probe_seed);
    // Streamed: two arrays of distances (the image, a fifth of the bytes, is read by the forward pass only).
    std::vector<std::vector<std::int32_t>> outs(streamed ? 2 : 1, std::vector<std::int32_t>(image.size()));
    ProbePasses passes(mask, j, height);
    std::size_t call = 0;
    const double t = cost::median_seconds_per_call(quick, [&] {
        // Forward into one array, backward over the other (streamed: the one whose forward pass ran a call before).
        passes.forward(outs[call % outs.size()].data(), image.data());
        passes.backward(outs[(call + 1) % outs.size()].data());
        ++call;
    });
    return t / (2.0 * static_cast<double>(image.size()));
}

}  // namespace

std::vector<cost::KernelProbe> kernel_probes() {
    namespace names = llc::names::distance_transform;
    std::vector<cost::KernelProbe> probes;
    for (const ChamferMask& mask :
         {ChamferMask::d4(), ChamferMask::d8(), ChamferMask::chamfer34(), ChamferMask::chamfer5711()}) {
        for (int j = 3; j <= 12; ++j) {
            // The largest segment is what a one-processor run reads (whole rows): measured alone too.
            for (const auto& [key, height, where] :
                 {std::tuple{names::sweep_key(names::sweep, mask.name()), 2048, ""},
                  std::tuple{names::sweep_key(names::sweep_cache, mask.name()), 256, ", in the caches"},
                  std::tuple{names::sweep_key(names::sweep_small, mask.name()), 32, ", in a core's own caches"}}) {
                if (height == 32 && j != 12) {
                    continue;  // only one-processor runs read the small table, at whole rows (chamfer_cost.cpp)
                }
                probes.push_back(
                    {cost::kernel_size_key(key, j),
                     "pixel of one " + mask.name() + " pass in segments of 2^" + std::to_string(j) + " columns" + where,
                     [mask, j, height](bool quick) { return sweep_probe(quick, mask, j, height, height == 2048); },
                     j == 12 ? cost::kernel_size_key(cost::solo_kernel_name(key), j) : std::string{}});
                probes.back().seed = sweep_probe_seed;
            }
        }
    }
    return probes;
}

}  // namespace llc::detail::sweep
