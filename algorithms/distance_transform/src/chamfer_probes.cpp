// The chamfer passes' kernel constants: seconds per pixel of one pass (the forward one, which also initialises) over a
// blob image, in segments of 2^j columns (the pipeline's k: short segments pay the loop overheads of every row), for
// each standard mask.
#include <cstdint>
#include <string>
#include <vector>

#include <llc/algorithms/blob_image.hpp>
#include <llc/algorithms/chamfer.hpp>
#include <llc/cost/kernel_probe.hpp>
#include <llc/cost/kernel_table.hpp>
#include <llc/cost/kernel_timing.hpp>

#include "sweep.hpp"

namespace llc::detail::sweep {

namespace {

double sweep_probe(bool quick, const ChamferMask& mask, int j) {
    constexpr int width = 4096;
    constexpr int height = 256;
    const std::vector<std::uint8_t> image = random_blob_image(width, height, 13);
    std::vector<std::int32_t> out(image.size());
    const std::int64_t k = std::int64_t{1} << j;
    std::vector<const std::int32_t*> above(static_cast<std::size_t>(mask.reach()));
    const double t = cost::median_seconds_per_call(quick, [&] {
        for (std::int64_t x0 = 0; x0 < width; x0 += k) {
            for (int y = 0; y < height; ++y) {
                for (int i = 0; i < mask.reach(); ++i) {
                    above[static_cast<std::size_t>(i)] =
                        y - 1 - i >= 0 ? out.data() + static_cast<std::size_t>(y - 1 - i) * width : nullptr;
                }
                chamfer_segment(std::span(out.data() + static_cast<std::size_t>(y) * width, width),
                                above,
                                image.data() + static_cast<std::size_t>(y) * width,
                                x0,
                                std::min<std::int64_t>(width, x0 + k),
                                mask,
                                false);
            }
        }
    });
    return t / static_cast<double>(image.size());
}

}  // namespace

std::vector<cost::KernelProbe> kernel_probes() {
    std::vector<cost::KernelProbe> probes;
    for (const ChamferMask& mask :
         {ChamferMask::d4(), ChamferMask::d8(), ChamferMask::chamfer34(), ChamferMask::chamfer5711()}) {
        for (int j = 3; j <= 12; ++j) {
            probes.push_back(
                {cost::kernel_size_key("dt.sweep." + mask.name(), j),
                 "pixel of one " + mask.name() + " pass in segments of 2^" + std::to_string(j) + " columns",
                 [mask, j](bool quick) { return sweep_probe(quick, mask, j); }});
        }
    }
    return probes;
}

}  // namespace llc::detail::sweep
