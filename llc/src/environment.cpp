#include <cstdlib>
#include <string>

#include <mpi.h>

#include <llc/environment.hpp>
#include <llc/group.hpp>
#include <llc/trace.hpp>

namespace llc {
namespace {

Environment* current = nullptr;

std::string chrome_path(const std::string& path) {
    const auto dot = path.rfind('.');
    const auto slash = path.rfind('/');
    const bool has_extension = dot != std::string::npos && (slash == std::string::npos || dot > slash);
    return (has_extension ? path.substr(0, dot) : path) + ".chrome.json";
}

}  // namespace

Environment::Environment(int& argc, char**& argv) {
    if (current != nullptr) {
        throw Error("llc::Environment: an llc::Environment already exists in this process");
    }
    mpi_.emplace(argc, argv, boost::mpi::threading::single, /*abort_on_exception=*/true);
    start();
}

Environment::Environment() {
    if (current != nullptr) {
        throw Error("llc::Environment: an llc::Environment already exists in this process");
    }
    mpi_.emplace(boost::mpi::threading::single, /*abort_on_exception=*/true);
    start();
}

void Environment::start() {
    // MPI errors come back as codes, which llc turns into exceptions, instead of killing the job without a word.
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (const char* checks = std::getenv("LLC_CHECKS"); checks != nullptr) {
        const std::string value = checks;
        Group::set_checks(!(value == "0" || value == "off" || value == "OFF" || value == "false"));
    }
    if (const char* trace = std::getenv("LLC_TRACE"); trace != nullptr && *trace != '\0') {
        Trace::enable(true);
    }
    world_ = std::make_unique<Group>(MPI_COMM_WORLD);
    current = this;
}

Environment::~Environment() {
    if (const char* path = std::getenv("LLC_TRACE"); path != nullptr && *path != '\0' && world_) {
        try {
            const Trace trace = Trace::gather(*world_);
            if (world_->rank() == 0) {
                trace.write_json(path);
                trace.write_chrome(chrome_path(path));
            }
        } catch (const std::exception& e) {
            std::fprintf(stderr, "llc: could not write the trace to %s: %s\n", path, e.what());
        }
    }
    world_.reset();
    current = nullptr;
}

bool Environment::active() noexcept {
    return current != nullptr;
}

Group& Group::world() {
    if (current == nullptr) {
        throw Error("llc::Group::world: no llc::Environment is alive; construct one at the start of main()");
    }
    return current->world();
}

}  // namespace llc
