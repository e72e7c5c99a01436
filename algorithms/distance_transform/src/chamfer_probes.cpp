// The chamfer passes' kernel constants: seconds per pixel of one pass over a blob image, in segments of 2^j columns
// (the pipeline's k: short segments pay the loop overheads of every row), for each standard mask. What is timed is what
// the transform does to every pixel — the forward pass (which also initialises from the image), the backward pass and
// the marking of unreached pixels as the backward pass goes — halved: the cost model prices the transform as two
// passes at this constant. (Timing the forward pass alone under-predicted the whole transform by a quarter at every
// size: the backward pass and the marking are not free.)
#include <cstdint>
#include <string>
#include <tuple>
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

/// One image and its distances: what a pass reads and writes.
struct ProbeImage {
    std::vector<std::uint8_t> image;
    std::vector<std::int32_t> out;
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
/// What is timed is what the transform does (chamfer.cpp), not more:
/// - The backward pass marks where nothing reached as it goes, each row's segment once the `reach` rows after it in
///   the pass have read it (as a one-processor run does; a distributed one marks a unit a few units later, still in
///   a core's caches), not in a pass of its own over the whole image afterwards. That pass over 4 MB (in the caches)
///   or 32 MB of distances is work the transform does not do, and it weighed most on the cheapest mask: the 1024²
///   d4 transform at p = 1 was priced 18–24 % high, d8 12–16 % (the quiet 2026-11-26 demos and recording).
/// - The streamed probe's two passes run on different images (`streamed`): the backward pass of an image of 80 MB
///   and more (4096² at p = 1, 8192² at p = 1 and 2) finds little of what its forward pass left in the last-level
///   cache, where the 40 MB probe image's backward pass and marking found most of it. With one image the streamed
///   constants ran 10–25 % below what 8192² transforms streamed at (d4 at p = 2: 0.80 against 1.12 ns a pixel).
double sweep_probe(bool quick, const ChamferMask& mask, int j, int height, bool streamed) {
    constexpr int width = 4096;
    const std::vector<std::uint8_t> blobs = random_blob_image(width, height, sweep_probe_seed);
    std::vector<ProbeImage> images(streamed ? 2 : 1, ProbeImage{blobs, std::vector<std::int32_t>(blobs.size())});
    const std::int64_t k = std::int64_t{1} << j;
    std::vector<const std::int32_t*> above(static_cast<std::size_t>(mask.reach()));
    // The rows a pass step reads: the `reach` rows before row y in the pass's direction (nullptr off the image).
    const auto rows_before = [&](std::int32_t* out, int y, int direction) {
        for (int i = 0; i < mask.reach(); ++i) {
            const int source = y - direction * (1 + i);
            above[static_cast<std::size_t>(i)] =
                source >= 0 && source < height ? out + static_cast<std::size_t>(source) * width : nullptr;
        }
    };
    const auto mark = [](std::int32_t* row, std::int64_t a, std::int64_t b) {
        for (std::int64_t x = a; x < b; ++x) {
            row[x] = row[x] >= unreached ? -1 : row[x];
        }
    };
    std::size_t call = 0;
    const double t = cost::median_seconds_per_call(quick, [&] {
        // Forward on one image, backward on the other (streamed: the one whose forward pass ran a call before).
        ProbeImage& first = images[call % images.size()];
        std::int32_t* const out_b = images[(call + 1) % images.size()].out.data();
        ++call;
        std::int32_t* const out_f = first.out.data();
        const std::uint8_t* const image = first.image.data();
        const auto row = [&](std::int32_t* out, int y) {
            return std::span(out + static_cast<std::size_t>(y) * width, width);
        };
        for (std::int64_t x0 = 0; x0 < width; x0 += k) {
            const std::int64_t x1 = std::min<std::int64_t>(width, x0 + k);
            for (int y = 0; y < height; ++y) {
                rows_before(out_f, y, +1);
                if (y + 1 < height) {  // as the transform does
                    prefetch_segment(
                        row(out_f, y + 1).data(), image + static_cast<std::size_t>(y + 1) * width, x0, x1);
                }
                chamfer_segment(
                    row(out_f, y), above, image + static_cast<std::size_t>(y) * width, x0, x1, mask, false);
            }
        }
        for (std::int64_t x0 = 0; x0 < width; x0 += k) {
            const std::int64_t x1 = std::min<std::int64_t>(width, x0 + k);
            for (int y = height - 1; y >= 0; --y) {
                rows_before(out_b, y, -1);
                if (y > 0) {
                    prefetch_segment(row(out_b, y - 1).data(), nullptr, width - x1, width - x0);
                }
                chamfer_segment(row(out_b, y), above, nullptr, x0, x1, mask, true);
                if (y + mask.reach() < height) {  // the last row that reads row y + reach is done
                    mark(row(out_b, y + mask.reach()).data(), width - x1, width - x0);
                }
            }
            for (int y = 0; y < std::min(mask.reach(), height); ++y) {
                mark(row(out_b, y).data(), width - x1, width - x0);
            }
        }
    });
    return t / (2.0 * static_cast<double>(blobs.size()));
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
