#include <cstdlib>
#include <string>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

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

/// Whether the environment variable `name` is set to a value that turns a switch off: 0, off, OFF, false.
bool switched_off(const char* name) {
    const char* raw = std::getenv(name);
    if (raw == nullptr) {
        return false;
    }
    const std::string value = raw;
    return value == "0" || value == "off" || value == "OFF" || value == "false";
}

/// Keeps the memory a process frees for its next allocations instead of giving it back to the kernel (unless
/// LLC_KEEP_FREED_MEMORY=0). glibc serves blocks above 128 KiB–32 MiB by mmap and unmaps them when freed, and trims the
/// heap's top: every call that allocates a large result then touches fresh pages, and a first touch costs 1–16 µs a
/// 4 KiB page (16 µs on the VM this was measured on). A contour ranking of a 2048² map at P = 1 took 1.32 s that way
/// and 57 ms with the memory kept. The price: the process's resident size stays at its peak. (Open MPI's registration
/// cache asked glibc for the same.) A no-op without glibc or under a sanitizer's allocator.
void keep_freed_memory() {
#if defined(__GLIBC__)
    if (!switched_off("LLC_KEEP_FREED_MEMORY")) {
        mallopt(M_MMAP_MAX, 0);         // large blocks from the heap, reused after free
        mallopt(M_TRIM_THRESHOLD, -1);  // never shrink the heap
    }
#endif
}

}  // namespace

Environment::Environment(int& argc, char**& argv) {
    if (current != nullptr) {
        throw Error("llc::Environment: an llc::Environment already exists in this process");
    }
    keep_freed_memory();
    mpi_.emplace(argc, argv, boost::mpi::threading::single, /*abort_on_exception=*/true);
    start();
}

Environment::Environment() {
    if (current != nullptr) {
        throw Error("llc::Environment: an llc::Environment already exists in this process");
    }
    keep_freed_memory();
    mpi_.emplace(boost::mpi::threading::single, /*abort_on_exception=*/true);
    start();
}

void Environment::start() {
    detail::install_terminate_handler();
    // MPI errors come back as codes, which llc turns into exceptions, instead of killing the job without a word.
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (std::getenv("LLC_CHECKS") != nullptr) {
        Group::set_checks(!switched_off("LLC_CHECKS"));
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
