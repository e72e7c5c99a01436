#include <llc/algorithms/kernel_probes.hpp>

// Each algorithm defines its probes in its own folder; add a declaration and a line below per algorithm.
namespace llc::detail::contour_ranking {
std::vector<cost::KernelProbe> kernel_probes();
}  // namespace llc::detail::contour_ranking

namespace llc {

std::vector<cost::KernelProbe> algorithm_kernel_probes() {
    std::vector<cost::KernelProbe> probes;
    for (auto&& family : {detail::contour_ranking::kernel_probes()}) {
        for (const auto& probe : family) {
            probes.push_back(probe);
        }
    }
    return probes;
}

}  // namespace llc
