#include <array>
#include <charconv>
#include <cstdio>
#include <cstdlib>
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

void abort_job(std::string_view group_path, std::string_view message) noexcept {
    int initialized = 0;
    int finalized = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    int rank = -1;
    if (initialized != 0 && finalized == 0) {
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    }
    std::fprintf(stderr,
                 "llc: fatal error on rank %d (group %.*s): %.*s\n",
                 rank,
                 static_cast<int>(group_path.size()),
                 group_path.data(),
                 static_cast<int>(message.size()),
                 message.data());
    std::fflush(stderr);
    std::fflush(stdout);
    if (initialized != 0 && finalized == 0) {
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    std::abort();
}

}  // namespace llc
