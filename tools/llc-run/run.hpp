#pragma once
/// @file
/// llc-run: runs one algorithm under mpirun on generated or given input, writes the output, and prints measured and
/// predicted time. One file per algorithm (run_<name>.cpp) registers a RunCommand in commands().
///
/// Exit status: 0 success, 2 bad arguments or input (UsageError; the message names the argument or the file),
/// 1 any other failure.

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include <llc/group.hpp>

namespace llc::run {

/// A bad argument or bad input: exit status 2. Thrown on every rank (arguments are the same on every rank; file
/// problems are agreed on with agree()).
class UsageError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

/// One algorithm of llc-run.
struct RunCommand {
    std::string name;         ///< `llc-run NAME …`
    std::string description;  ///< one line for the overview
    /// Runs with the arguments after NAME; collective over `world`. Returns the exit status.
    std::function<int(Group& world, const std::vector<std::string>& args)> run;
};

/// Every algorithm llc-run knows (commands.cpp).
[[nodiscard]] const std::vector<RunCommand>& commands();

// The algorithms, one file each.
[[nodiscard]] RunCommand fft_command();
[[nodiscard]] RunCommand distance_transform_command();
[[nodiscard]] RunCommand path_planning_command();
[[nodiscard]] RunCommand matrix_chain_command();
[[nodiscard]] RunCommand optimal_bst_command();
[[nodiscard]] RunCommand contour_ranking_command();
[[nodiscard]] RunCommand symv_command();

// ---- Helpers shared by the algorithms -----------------------------------------------------------------------------

/// `args` parsed against `desc` (@throws UsageError for an unknown option or a bad value); std::nullopt when --help was
/// given, after rank 0 printed "usage: mpirun -np P llc-run <command> [options]" and the options.
[[nodiscard]] std::optional<boost::program_options::variables_map> parse_options(
    Group& world,
    const std::vector<std::string>& args,
    const boost::program_options::options_description& desc,
    const std::string& command);

/// Throws UsageError(message) on every rank if any rank's `ok` is false (the first failing rank's message is
/// reported by every rank). Collective over `g`.
void agree(Group& g, bool ok, const std::string& message);

/// Size in bytes of a readable regular file. @throws UsageError naming the file.
[[nodiscard]] std::uintmax_t file_size(const std::string& path);

/// Reads `count` bytes at `offset` of `path` into `out`. Returns false (with `error` set) on failure.
bool read_bytes(const std::string& path, std::uintmax_t offset, std::span<char> out, std::string& error);

/// Writes `data` to `path` whole or not at all: a temporary file beside it, then rename.
/// @throws std::runtime_error naming the file.
void write_whole(const std::string& path, std::span<const char> data);

/// The greyscale image in `path` (binary PGM or PNG, llc::tools::read_grey_image) as 0/1 (nonzero → 1), whole on every
/// rank: read by rank 0, its size and pixels broadcast. @throws UsageError on every rank naming the file.
[[nodiscard]] std::vector<std::uint8_t> read_binary_image(Group& world,
                                                          const std::string& path,
                                                          std::int64_t& width,
                                                          std::int64_t& height);

/// Checks that the directory that would hold `path` exists. @throws UsageError naming the argument and the file.
void check_output_path(const std::string& argument, const std::string& path);

}  // namespace llc::run
