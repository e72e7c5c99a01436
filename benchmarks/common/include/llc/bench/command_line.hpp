#pragma once
/// @file
/// A benchmark's command line (benchmarks/*): its options declared with Boost.Program_options, as the tools declare
/// theirs, each with the check of its value, and one answer to a bad argument for every benchmark: rank 0 prints
/// "PROGRAM: message" (the option and the value) on stderr, and every rank returns exit status 2 (the command line is
/// the same on every rank, so every rank reaches the same verdict without communicating: no hang).
///
///     llc::bench::CommandLine command_line(Options& o) {  // the benchmark's options, each with its check
///         llc::bench::CommandLine c("llc-bench-fft-level", 2);  // runs at P = 2 only
///         c.add()("n", po::value(&o.n)->notifier(llc::bench::power_of_two("--n", 4, 1 << 26)), "points");
///         c.add_repeat(o.repeat, 100000);
///         return c;
///     }
///     int main(int argc, char** argv) {
///         Options o;
///         return llc::bench::run(argc, argv, command_line(o), [&o](llc::Group& g) { return measure(g, o); });
///     }

#include <cstdint>
#include <functional>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/program_options.hpp>
#include <mpi.h>

#include <llc/group.hpp>

namespace llc::bench {

/// A bad argument: thrown by the checks below (from Boost.Program_options' notifiers) and by a benchmark's own check of
/// options that depend on each other; CommandLine::parse turns it into exit status 2.
class BadArgument : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

/// "OPTION must be WHAT, got 'VALUE'": the benchmarks' message for a value they do not take.
[[nodiscard]] std::string bad_value(std::string_view option, std::string_view what, std::string_view value);

/// "[LO, HI]", a bound that is a power of two from 1024 up written 2^k ("[8, 2^26]").
[[nodiscard]] std::string range_text(std::int64_t lo, std::int64_t hi);

/// A value as a message quotes it (as it reads back: "0.3", "nan").
template <class T>
[[nodiscard]] std::string value_text(const T& value) {
    std::ostringstream out;
    out << value;
    return out.str();
}

/// A notifier for po::value<T>: throws BadArgument(bad_value(option, what, value)) unless ok(value).
template <class T>
[[nodiscard]] std::function<void(const T&)> require(std::string option,
                                                    std::string what,
                                                    std::function<bool(const T&)> ok) {
    return [option = std::move(option), what = std::move(what), ok = std::move(ok)](const T& value) {
        if (!ok(value)) {
            throw BadArgument(bad_value(option, what, value_text(value)));
        }
    };
}

/// A notifier: the value in [lo, hi] ("--repeat must be in [1, 100000], got '0'"); `noun` names what the value is
/// ("a byte count" gives "--min must be a byte count in [1, 2^30], got '0'").
template <class T>
[[nodiscard]] std::function<void(const T&)> in_range(std::string option, T lo, T hi, const std::string& noun = {}) {
    return require<T>(std::move(option),
                      (noun.empty() ? "in " : noun + " in ") + range_text(lo, hi),
                      [lo, hi](const T& value) { return value >= lo && value <= hi; });
}

/// A notifier: a power of two in [lo, hi] ("--n must be a power of two in [8, 2^26], got '1000'").
[[nodiscard]] std::function<void(const std::int64_t&)> power_of_two(std::string option,
                                                                    std::int64_t lo,
                                                                    std::int64_t hi);

/// A notifier: one of `values` ("--order must be natural or scrambled, got 'block'").
[[nodiscard]] std::function<void(const std::string&)> one_of(std::string option, std::vector<std::string> values);

/// One benchmark's command line: its options (--help is there from the start) and how it answers a bad one.
class CommandLine {
  public:
    /// `program` names the benchmark in its messages ("llc-bench-fft-block"); `processes`: the only P it runs at (0:
    /// any P), checked after the options.
    explicit CommandLine(std::string program, int processes = 0);

    /// Adds the benchmark's options, as boost::program_options::options_description::add_options() does.
    boost::program_options::options_description_easy_init add() { return options_.add_options(); }

    /// Adds --repeat: how many repetitions the benchmark takes the medians of, `repeat` by default, in [1, most].
    void add_repeat(int& repeat, int most);

    /// Adds a check of what depends on several options or on the world (it throws BadArgument), run after the options'
    /// own checks.
    void add_check(std::function<void(const Group& world)> check) { checks_.push_back(std::move(check)); }

    /// Parses the command line against the options (each long option exact, no abbreviation), runs their checks, the
    /// added checks and the benchmark's P. Returns std::nullopt to go on, else the status main() returns at once, the
    /// same on every rank: 0 after --help (rank 0 printed "usage: mpirun -np P PROGRAM [options]" and the options), 2
    /// after a bad argument (rank 0 printed "PROGRAM: " and the message: "unknown argument 'X' (use --a, --b)",
    /// "missing value after --a", a check's message, "needs P = 2 (mpirun -np 2), got P = 3"). Communicates nothing.
    [[nodiscard]] std::optional<int> parse(const Group& world, int argc, const char* const* argv) const;

    /// Rank 0 prints "PROGRAM: message" on stderr. Returns 2, the status of a bad argument.
    [[nodiscard]] int fail(const Group& world, const std::string& message) const;

  private:
    std::string program_;
    int processes_;
    boost::program_options::options_description options_;
    std::vector<std::function<void(const Group&)>> checks_;
};

/// A benchmark's main(): MPI's lifetime (llc::Environment, freed memory kept for reuse as the tools run and as the
/// cost model assumes), the command line parsed (CommandLine::parse), then `measure` on the world. Returns the status
/// main() returns: parse's, or measure's; 2 when measure throws BadArgument (a bad argument found later, on every
/// rank alike, such as a --profile that does not load: rank 0 prints "PROGRAM: " and its message).
[[nodiscard]] int run(int argc,
                      char** argv,
                      const CommandLine& command_line,
                      const std::function<int(Group& world)>& measure);

/// The slowest rank's `seconds`: what a sample of a parallel step lasts. Collective over `comm`.
[[nodiscard]] double slowest(MPI_Comm comm, double seconds);

}  // namespace llc::bench
