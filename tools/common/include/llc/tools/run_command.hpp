#pragma once
/// @file
/// llc-run: runs one algorithm under mpirun on generated or given input, writes the output, and prints measured and
/// predicted time. Each algorithm's card (llc/tools/card.hpp) gives its RunCommands; run_command is the generic
/// driver, and the helpers below are what the commands share.
///
/// Exit status: 0 success, 2 bad arguments or input (UsageError; the message names the argument or the file),
/// 1 any other failure.

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include <llc/cost/expr.hpp>
#include <llc/cost/profile.hpp>
#include <llc/group.hpp>

namespace llc::run {

/// A bad argument or bad input: exit status 2. Thrown on every rank (arguments are the same on every rank; file
/// problems are agreed on with agree()).
class UsageError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

/// A prepared llc-run of one algorithm: the input is made (not timed), execute() runs the algorithm once. The generic
/// driver (run_command) times execute(), prices it with expr(), writes the outputs and reports what the run says of
/// itself. Collective over the group it was prepared on.
class Run {
  public:
    virtual ~Run() = default;
    /// One execution: the timed body. Collective.
    virtual void execute() = 0;
    /// The CCM cost expression of one execute() on this group, std::nullopt where the command has no cost function
    /// (no_prediction() says why). Called on every rank after the timed executions.
    [[nodiscard]] virtual std::optional<cost::Expr> expr(const cost::Profile& profile) const = 0;
    /// Why expr() gave no expression ("no cost function for tracing yet").
    [[nodiscard]] virtual std::string no_prediction() const { return "no cost function"; }
    /// Collective, after the timed executions: writes the outputs the options asked for (rank 0 writes through
    /// write_on_root, so that a failure is agreed on).
    virtual void write_outputs() {}
    /// Rank 0: the run's fields of the --json object; the driver adds "repeat", "measured_s", "samples_s" and
    /// "predicted_s".
    [[nodiscard]] virtual nlohmann::json json() const = 0;
    /// Rank 0: the lines of the text report before "measured:", and after "predicted:".
    [[nodiscard]] virtual std::vector<std::string> text_before() const = 0;
    [[nodiscard]] virtual std::vector<std::string> text_after() const { return {}; }
    /// What the measured time covers, as in "measured:  1.2 ms (trace + rank, median of 5)"; empty: the run.
    [[nodiscard]] virtual std::string measured_what() const { return {}; }
    /// Every rank, after the report: llc-run's exit status, 1 when the run found its own result wrong (symv --check
    /// beyond its error bound), else 0.
    [[nodiscard]] virtual int exit_status() const { return 0; }
};

/// One algorithm of llc-run.
struct RunCommand {
    std::string name;         ///< `llc-run NAME …`
    std::string description;  ///< one line for the overview
    /// Adds the command's own options; the driver adds --help first and --repeat, --profile and --json last.
    std::function<void(boost::program_options::options_description&)> options;
    /// Checks the parsed options (UsageError on every rank), makes or reads the input. Collective over `world`.
    std::function<std::unique_ptr<Run>(Group& world, const boost::program_options::variables_map& vm)> prepare;
    int default_repeat = 5;  ///< --repeat's default
};

/// The generic llc-run: parses `args` against the command's options and the common ones, loads --profile, prepares
/// the run, times `--repeat` executions after one warm-up (llc::tools::time_sample, as llc-probe and llc-validate
/// measure), prices the run under the CCM, writes the outputs and reports on rank 0 (text, or one JSON object with
/// --json). Returns the exit status (Run::exit_status(), or 0 after --help). @throws UsageError for bad arguments or
/// input, OutputError when an output could not be written. Collective over `world`.
[[nodiscard]] int run_command(Group& world, const RunCommand& command, const std::vector<std::string>& args);

/// An output that could not be written: exit status 1. Thrown on every rank (write_on_root agrees on it).
class OutputError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

/// Rank 0 calls `write`; if it throws, every rank throws OutputError with its message. Collective over `world`.
void write_on_root(Group& world, const std::function<void()>& write);

/// The value of `text` among `values` by the library's `to_string` of each (one convention for every enum of llc).
/// @throws UsageError "OPTION: 'TEXT' is not one of a, b, c".
template <class Enum>
[[nodiscard]] Enum enum_option(const std::string& option, const std::string& text, std::initializer_list<Enum> values) {
    std::string known;
    for (const Enum value : values) {
        if (to_string(value) == text) {
            return value;
        }
        known += (known.empty() ? "" : ", ") + std::string(to_string(value));
    }
    throw UsageError(option + ": '" + text + "' is not one of " + known);
}

/// The profile at `path` (cost::Profile::load). @throws UsageError "--profile: …".
[[nodiscard]] cost::Profile load_profile_option(const std::string& path);

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

/// width × height elements of an input, at most llc::tools::max_input_elements() ($LLC_MAX_INPUT_ELEMENTS, default
/// 2^30), checked without overflow before anything is allocated or compared. @throws UsageError naming `what`.
[[nodiscard]] std::int64_t checked_elements(const std::string& what, std::int64_t width, std::int64_t height);

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

/// `rows` of (name, description) as two columns for a --help: the names padded to the widest (at most 24 columns; a
/// longer name stands on a line of its own), each description wrapped at `line_length` columns under its own column,
/// so that no description runs into the names.
[[nodiscard]] std::string columns(const std::vector<std::pair<std::string, std::string>>& rows,
                                  std::size_t line_length = 80);

/// Checks that the directory that would hold `path` exists. @throws UsageError naming the argument and the file.
void check_output_path(const std::string& argument, const std::string& path);

/// The output convention of every llc-run command: data files are given with --output, and the file's extension
/// names its format — .raw and .bin binary, .txt and .csv text, .pgm an image — never silently another. Returns the
/// extension of `path` among `accepted` (exact spelling, e.g. ".raw"), after check_output_path.
/// @throws UsageError "OPTION: 'PATH' has extension '.x'; the accepted extensions are .raw, .bin".
[[nodiscard]] std::string output_format(const std::string& argument,
                                        const std::string& path,
                                        std::initializer_list<std::string_view> accepted);

}  // namespace llc::run
