#include <cstdio>
#include <cstdlib>
#include <exception>
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

Environment* current_environment = nullptr;

std::string chrome_path(const std::string& path) {
    const auto dot = path.rfind('.');
    const auto slash = path.rfind('/');
    const bool has_extension = dot != std::string::npos && (slash == std::string::npos || dot > slash);
    return (has_extension ? path.substr(0, dot) : path) + ".chrome.json";
}

std::string trace_path() {
    const char* path = std::getenv("LLC_TRACE");
    return path != nullptr ? std::string(path) : std::string();
}

}  // namespace

namespace detail {
bool switched_off(const char* name) {
    const char* raw = std::getenv(name);
    if (raw == nullptr) {
        return false;
    }
    const std::string value = raw;
    return value == "0" || value == "off" || value == "OFF" || value == "false";
}
}  // namespace detail

// glibc serves blocks above 128 KiB–32 MiB by mmap and unmaps them when freed, and trims the heap's top: every call
// that allocates a large result then touches fresh pages, and a first touch costs 1–16 µs a 4 KiB page (16 µs on the
// VM this was measured on). A contour ranking of a 2048² map at P = 1 took 1.32 s that way and 57 ms with the memory
// kept. (Open MPI's registration cache asked glibc for the same.) A no-op without glibc or under a sanitizer's
// allocator.
bool keep_freed_memory() {
#if defined(__GLIBC__)
    if (!detail::switched_off("LLC_KEEP_FREED_MEMORY")) {
        mallopt(M_MMAP_MAX, 0);         // large blocks from the heap, reused after free
        mallopt(M_TRIM_THRESHOLD, -1);  // never shrink the heap
        return true;
    }
#endif
    return false;
}

std::string configure_from_environment() {
    if (std::getenv("LLC_CHECKS") != nullptr) {
        Group::set_checks(!detail::switched_off("LLC_CHECKS"));
    }
    std::string path = trace_path();
    if (!path.empty()) {
        Trace::enable(true);
    }
    return path;
}

void write_trace_from_environment(Group& g) {
    const std::string path = trace_path();
    if (path.empty()) {
        return;
    }
    const Trace trace = Trace::gather(g);
    if (g.rank() == 0) {
        trace.write_json(path);
        trace.write_chrome(chrome_path(path));
    }
}

Environment::Environment(int& argc, char**& argv, EnvironmentOptions options) {
    if (current_environment != nullptr) {
        throw Error("llc::Environment: an llc::Environment already exists in this process");
    }
    if (options.keep_freed_memory) {
        keep_freed_memory();
    }
    start(&argc, &argv);
}

Environment::Environment(EnvironmentOptions options) {
    if (current_environment != nullptr) {
        throw Error("llc::Environment: an llc::Environment already exists in this process");
    }
    if (options.keep_freed_memory) {
        keep_freed_memory();
    }
    start(nullptr, nullptr);
}

void Environment::start(int* argc, char*** argv) {
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (initialized == 0) {
        int provided = 0;
        detail::check_mpi(MPI_Init_thread(argc, argv, MPI_THREAD_SINGLE, &provided), "llc::Environment (MPI_Init)");
        owns_mpi_ = true;
    }
    detail::install_terminate_handler();
    // The Environment owns MPI, hence MPI_COMM_WORLD: errors there come back as codes, which llc turns into
    // exceptions, instead of killing the job without a word. (Groups set the same on their own duplicates.)
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    (void)configure_from_environment();
    world_ = std::make_unique<Group>(MPI_COMM_WORLD);
    current_environment = this;
}

Environment::~Environment() {
    if (world_) {
        try {
            write_trace_from_environment(*world_);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "llc: could not write the trace to %s: %s\n", trace_path().c_str(), e.what());
        }
    }
    world_.reset();
    current_environment = nullptr;
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (owns_mpi_ && finalized == 0) {
        // An exception unwinding past the Environment: this rank cannot take part in any further collective, and
        // MPI_Finalize would wait for the others; end the whole job (as Boost.MPI's abort_on_exception did).
        if (std::uncaught_exceptions() > 0) {
            MPI_Abort(MPI_COMM_WORLD, -1);
        }
        MPI_Finalize();
    }
}

bool Environment::active() noexcept {
    return current_environment != nullptr;
}

Group& Group::world() {
    if (current_environment == nullptr) {
        throw Error(
            "llc::Group::world: no llc::Environment is alive; construct one at the start of main(), or make a "
            "group of your own communicator with llc::Group(comm) (docs/embedding.md)");
    }
    return current_environment->world();
}

}  // namespace llc
