// What llc-probe records about the machine (see machine.hpp).
#include "machine.hpp"

#include <algorithm>
#include <ctime>
#include <fstream>
#include <string>
#include <thread>
#include <unistd.h>

#include <mpi.h>

#include <llc/cores.hpp>

namespace llc::probe {

namespace {

int node_cores_option = 0;  ///< --cores, 0 when not given

std::string first_line(const std::string& text) {
    const auto end = text.find('\n');
    return end == std::string::npos ? text : text.substr(0, end);
}

std::string hostname() {
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) != 0 || host[0] == '\0') {
        return "unknown-host";
    }
    return host;
}

std::string cpu_model() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos) {
                return line.substr(colon + 2);
            }
        }
    }
    return "unknown CPU";
}

std::string iso_date() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

std::string mpi_library() {
    char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
    int length = 0;
    MPI_Get_library_version(text, &length);
    (void)length;
    return first_line(std::string(text));  // the length MPI reports may count the terminating NUL
}

}  // namespace

bool crowded(Group& world) {
    MPI_Comm node = MPI_COMM_NULL;
    MPI_Comm_split_type(world.native(), MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    int on_node = 1;
    MPI_Comm_size(node, &on_node);
    MPI_Comm_free(&node);
    const int cores = node_cores_option > 0 ? node_cores_option : node_cores();
    int over = on_node > cores ? 1 : 0;
    MPI_Allreduce(MPI_IN_PLACE, &over, 1, MPI_INT, MPI_MAX, world.native());
    return over != 0;
}

void set_node_cores(int cores) noexcept {
    node_cores_option = cores;
}

void describe_machine(cost::ProfileMeta& meta, int pair_size) {
    meta.host = hostname();
#if defined(LLC_SMPI)
    // The host's CPU runs the simulation's computation bursts; the cores are the simulated platform's.
    meta.machine = "SimGrid SMPI platform of " + std::to_string(platform_cores()) + " cores, " +
                   std::to_string(node_cores()) + " a node (computation timed on " + cpu_model() + ");" +
#else
    meta.machine = cpu_model() + ", " + std::to_string(std::thread::hardware_concurrency()) + " hardware threads;" +
#endif
                   " llc agreement checks " + (Group::checks_enabled() ? "on" : "off") +
                   (pair_size == 1 ? "; point-to-point measured as messages to oneself (P = 1)" : "");
    meta.mpi_library = mpi_library();
    meta.date = iso_date();
}

}  // namespace llc::probe
