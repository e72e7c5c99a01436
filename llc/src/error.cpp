#include <array>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include <mpi.h>

#include <llc/error.hpp>

namespace llc {
namespace {
std::string mpi_error_text(int code) {
    std::string text(MPI_MAX_ERROR_STRING, '\0');
    int length = 0;
    if (MPI_Error_string(code, text.data(), &length) != MPI_SUCCESS) {
        return "unknown MPI error";
    }
    text.resize(static_cast<std::size_t>(length));
    return text;
}
/// Whether MPI runs (initialised, not yet finalised), and this process's rank in MPI_COMM_WORLD (-1 when it does not).
struct MpiState {
    bool live = false;
    int rank = -1;
};

MpiState mpi_state() noexcept {
    int initialized = 0;
    int finalized = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    MpiState state{initialized != 0 && finalized == 0, -1};
    if (state.live) {
        MPI_Comm_rank(MPI_COMM_WORLD, &state.rank);
    }
    return state;
}

/// "llc: error on rank R: message" on stderr, then the job ends with status 1.
[[noreturn]] void abort_job_quietly(const std::string& message) noexcept {
    const MpiState mpi = mpi_state();
    std::fprintf(stderr, "llc: error on rank %d: %s\n", mpi.rank, message.c_str());
    std::fflush(stderr);
    std::fflush(stdout);
    if (mpi.live) {
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    std::_Exit(1);
}
}  // namespace

MpiError::MpiError(std::string_view function, int code)
    : Error(std::string(function) + ": MPI error " + std::to_string(code) + ": " + mpi_error_text(code)), code_(code) {}

std::string argument_message(std::string_view function,
                             std::string_view argument,
                             std::string_view value,
                             std::string_view why) {
    std::string message(function);
    message += ": argument '";
    message += argument;
    message += "' = ";
    message += value;
    message += ": ";
    message += why;
    return message;
}

void throw_argument_error(std::string_view function,
                          std::string_view argument,
                          std::string_view value,
                          std::string_view why) {
    throw Error(argument_message(function, argument, value, why));
}

namespace detail {
std::string format_value(double value) {
    std::array<char, 32> buffer{};
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
    return std::string(buffer.data(), result.ptr);
}
}  // namespace detail

namespace {

std::terminate_handler previous_terminate = nullptr;

/// Whether LLC_BACKTRACE asks for the C++ runtime's own report (and the MPI library's backtrace of the abort).
bool backtrace_wanted() {
    const char* raw = std::getenv("LLC_BACKTRACE");
    if (raw == nullptr) {
        return false;
    }
    const std::string value = raw;
    return !(value.empty() || value == "0" || value == "off" || value == "OFF" || value == "false");
}

/// An exception nobody caught: its message once, on this rank, and the job ends with status 1 (MPI_Abort, so that
/// ranks waiting for this one do not hang). The runtime's default (std::abort, which MPI libraries answer with a
/// signal report and a backtrace from every rank) only with LLC_BACKTRACE=1.
[[noreturn]] void terminate_with_message() noexcept {
    if (backtrace_wanted() && previous_terminate != nullptr) {
        previous_terminate();
    }
    std::string message = "terminate called without an active exception";
    if (const std::exception_ptr current = std::current_exception()) {
        try {
            std::rethrow_exception(current);
        } catch (const std::exception& e) {
            message = e.what();
        } catch (...) {
            message = "an exception that is not a std::exception";
        }
    }
    abort_job_quietly(message);
}

}  // namespace

namespace detail {
void install_terminate_handler() noexcept {
    if (previous_terminate == nullptr) {
        previous_terminate = std::set_terminate(terminate_with_message);
    }
}
}  // namespace detail

void abort_job(std::string_view group_path, std::string_view message) noexcept {
    const MpiState mpi = mpi_state();
    std::fprintf(stderr,
                 "llc: fatal error on rank %d (group %.*s): %.*s\n",
                 mpi.rank,
                 static_cast<int>(group_path.size()),
                 group_path.data(),
                 static_cast<int>(message.size()),
                 message.data());
    std::fflush(stderr);
    std::fflush(stdout);
    if (mpi.live) {
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    std::abort();
}

}  // namespace llc
