// The chamfer passes' kernel constants: seconds per pixel of one pass over a blob image, in segments of 2^j columns
// (the pipeline's k: short segments pay the loop overheads of every row), for each standard mask. What is timed is what
// the transform does to every pixel — the forward pass (which also initialises from the image), the backward pass and
// the marking of unreached pixels — halved: the cost model prices the transform as two passes at this constant. (Timing
// the forward pass alone under-predicted the whole transform by a quarter at every size: the backward pass and the
// marking are not free.)
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
double sweep_probe(bool quick, const ChamferMask& mask, int j, int height) {
    constexpr int width = 4096;
    const std::vector<std::uint8_t> image = random_blob_image(width, height, sweep_probe_seed);
    std::vector<std::int32_t> out(image.size());
    const std::int64_t k = std::int64_t{1} << j;
    std::vector<const std::int32_t*> above(static_cast<std::size_t>(mask.reach()));
    // The rows a pass step reads: the `reach` rows before row y in the pass's direction (nullptr off the image).
    const auto rows_before = [&](int y, int direction) {
        for (int i = 0; i < mask.reach(); ++i) {
            const int source = y - direction * (1 + i);
            above[static_cast<std::size_t>(i)] =
                source >= 0 && source < height ? out.data() + static_cast<std::size_t>(source) * width : nullptr;
        }
    };
    const auto row = [&](int y) { return std::span(out.data() + static_cast<std::size_t>(y) * width, width); };
    const double t = cost::median_seconds_per_call(quick, [&] {
        for (std::int64_t x0 = 0; x0 < width; x0 += k) {
            const std::int64_t x1 = std::min<std::int64_t>(width, x0 + k);
            for (int y = 0; y < height; ++y) {
                rows_before(y, +1);
                if (y + 1 < height) {  // as the transform does
                    prefetch_segment(row(y + 1).data(), image.data() + static_cast<std::size_t>(y + 1) * width, x0, x1);
                }
                chamfer_segment(row(y), above, image.data() + static_cast<std::size_t>(y) * width, x0, x1, mask, false);
            }
        }
        for (std::int64_t x0 = 0; x0 < width; x0 += k) {
            const std::int64_t x1 = std::min<std::int64_t>(width, x0 + k);
            for (int y = height - 1; y >= 0; --y) {
                rows_before(y, -1);
                if (y > 0) {
                    prefetch_segment(row(y - 1).data(), nullptr, width - x1, width - x0);
                }
                chamfer_segment(row(y), above, nullptr, x0, x1, mask, true);
            }
        }
        for (std::int32_t& d : out) {
            d = d >= unreached ? -1 : d;
        }
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
                     [mask, j, height](bool quick) { return sweep_probe(quick, mask, j, height); },
                     j == 12 ? cost::kernel_size_key(cost::solo_kernel_name(key), j) : std::string{}});
                probes.back().seed = sweep_probe_seed;
            }
        }
    }
    return probes;
}

}  // namespace llc::detail::sweep
