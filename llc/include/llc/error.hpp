#pragma once
/// @file
/// Errors of the llc layer.
///
/// An error that every processor of a group detects the same way (a bad argument, sizes that differ across ranks) is
/// thrown as llc::Error on every processor of that group. An error on one processor alone, that cannot be agreed on
/// without a hang (an exception escaping a task of a division), ends the job through llc::abort_job.

#include <stdexcept>
#include <string>
#include <string_view>

namespace llc {

/// Base of every exception that llc throws. The message names the function, the argument and the value.
class Error : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

/// An MPI call returned an error code; keeps the code and MPI's own text for it.
class MpiError : public Error {
  public:
    MpiError(std::string_view function, int code);
    [[nodiscard]] int code() const noexcept { return code_; }

  private:
    int code_;
};

/// Builds the conventional message "function: argument 'name' = value: why".
[[nodiscard]] std::string argument_message(std::string_view function,
                                           std::string_view argument,
                                           std::string_view value,
                                           std::string_view why);

/// Throws llc::Error with argument_message(...). Call it only where every rank of the group reaches the same verdict.
[[noreturn]] void throw_argument_error(std::string_view function,
                                       std::string_view argument,
                                       std::string_view value,
                                       std::string_view why);

/// Prints "llc: fatal error on rank R (group G): message" to stderr and ends the whole job with MPI_Abort(…, 1).
/// For errors that only some ranks see: throwing there would leave the others waiting forever.
[[noreturn]] void abort_job(std::string_view group_path, std::string_view message) noexcept;

namespace detail {
/// Makes an exception that escapes main() print "llc: error on rank R: message" once and end the job with status 1,
/// without the runtime's "terminate called" report and the MPI library's backtrace of the abort (LLC_BACKTRACE=1
/// keeps them). Called by llc::Environment.
void install_terminate_handler() noexcept;

/// The shortest text that reads back as the same double ("-1", "0.1", "nan", "inf").
[[nodiscard]] std::string format_value(double value);

/// Throws MpiError when an MPI call did not return MPI_SUCCESS.
inline void check_mpi(int code, std::string_view function) {
    if (code != 0) {
        throw MpiError(function, code);
    }
}
}  // namespace detail

}  // namespace llc
