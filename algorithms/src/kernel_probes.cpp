#include <llc/algorithms/kernel_probes.hpp>

// Each algorithm defines its probes in its own folder; add a declaration and a line below per algorithm.
namespace llc::detail::edt {
std::vector<cost::KernelProbe> kernel_probes();
}  // namespace llc::detail::edt
namespace llc::detail::sweep {
std::vector<cost::KernelProbe> kernel_probes();
std::vector<cost::KernelProbe> path_kernel_probes();
}  // namespace llc::detail::sweep
namespace llc::detail::matrix_chain {
std::vector<cost::KernelProbe> kernel_probes();
}  // namespace llc::detail::matrix_chain
namespace llc::detail::symv {
std::vector<cost::KernelProbe> kernel_probes();
}  // namespace llc::detail::symv

namespace llc {

std::vector<cost::KernelProbe> algorithm_kernel_probes() {
    std::vector<cost::KernelProbe> probes;
    for (auto&& family : {detail::edt::kernel_probes(),
                          detail::sweep::kernel_probes(),
                          detail::sweep::path_kernel_probes(),
                          detail::matrix_chain::kernel_probes(),
                          detail::symv::kernel_probes()}) {
        for (const auto& probe : family) {
            probes.push_back(probe);
        }
    }
    return probes;
}

}  // namespace llc
