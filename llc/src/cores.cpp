#include <algorithm>
#include <thread>
#include <unistd.h>

#if defined(LLC_SMPI)
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#endif

#include <llc/cores.hpp>

namespace llc {

namespace {
[[maybe_unused]] int machine_cores() {
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online > 0 ? static_cast<int>(online) : static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
}
}  // namespace

int node_cores() {
#if defined(LLC_SMPI)
    return std::max(1, simgrid::s4u::Host::current()->get_core_count());
#else
    return machine_cores();
#endif
}

int platform_cores() {
#if defined(LLC_SMPI)
    int total = 0;
    for (const simgrid::s4u::Host* host : simgrid::s4u::Engine::get_instance()->get_all_hosts()) {
        total += host->get_core_count();
    }
    return std::max(1, total);
#else
    return machine_cores();
#endif
}

}  // namespace llc
