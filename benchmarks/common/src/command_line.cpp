#include <algorithm>
#include <bit>
#include <cstdio>
#include <iostream>

#include <llc/bench/command_line.hpp>
#include <llc/environment.hpp>

namespace llc::bench {

namespace po = boost::program_options;

std::string bad_value(std::string_view option, std::string_view what, std::string_view value) {
    return std::string(option) + " must be " + std::string(what) + ", got '" + std::string(value) + "'";
}

std::string range_text(std::int64_t lo, std::int64_t hi) {
    const auto bound = [](std::int64_t v) {
        std::string text;
        if (v >= 1024 && std::has_single_bit(static_cast<std::uint64_t>(v))) {
            text = "2^";
            text += std::to_string(std::countr_zero(static_cast<std::uint64_t>(v)));
        } else {
            text = std::to_string(v);
        }
        return text;
    };
    std::string text = "[";
    text += bound(lo);
    text += ", ";
    text += bound(hi);
    text += "]";
    return text;
}

std::function<void(const std::int64_t&)> power_of_two(std::string option, std::int64_t lo, std::int64_t hi) {
    return require<std::int64_t>(
        std::move(option), "a power of two in " + range_text(lo, hi), [lo, hi](std::int64_t v) {
            return v >= lo && v <= hi && v > 0 && std::has_single_bit(static_cast<std::uint64_t>(v));
        });
}

std::function<void(const std::string&)> one_of(std::string option, std::vector<std::string> values) {
    std::string what;
    for (std::size_t k = 0; k < values.size(); ++k) {
        what += (k == 0 ? "" : k + 1 == values.size() ? " or " : ", ") + values[k];
    }
    return require<std::string>(std::move(option), what, [values = std::move(values)](const std::string& v) {
        return std::find(values.begin(), values.end(), v) != values.end();
    });
}

CommandLine::CommandLine(std::string program, int processes)
    : program_(std::move(program)), processes_(processes), options_("options") {
    options_.add_options()("help,h", "this help");
}

void CommandLine::add_repeat(int& repeat, int most) {
    options_.add_options()("repeat",
                           po::value(&repeat)->default_value(repeat)->notifier(in_range("--repeat", 1, most)),
                           "repetitions; the medians over them are printed");
}

std::optional<int> CommandLine::parse(const Group& world, int argc, const char* const* argv) const {
    try {
        const po::parsed_options parsed =
            po::command_line_parser(argc, argv)
                .options(options_)
                .style(po::command_line_style::unix_style ^ po::command_line_style::allow_guessing)
                .allow_unregistered()
                .run();
        const std::vector<std::string> unknown = po::collect_unrecognized(parsed.options, po::include_positional);
        if (!unknown.empty()) {
            std::string known;
            for (const auto& option : options_.options()) {
                known +=
                    (known.empty() ? "" : ", ") + option->canonical_display_name(po::command_line_style::allow_long);
            }
            throw BadArgument("unknown argument '" + unknown.front() + "' (use " + known + ")");
        }
        po::variables_map vm;
        po::store(parsed, vm);
        if (vm.count("help") != 0U) {
            if (world.rank() == 0) {
                const std::string np = processes_ > 0 ? std::to_string(processes_) : std::string("P");
                std::printf("usage: mpirun -np %s %s [options]\n", np.c_str(), program_.c_str());
                std::cout << options_ << std::flush;
            }
            return 0;
        }
        po::notify(vm);  // the options' checks
        for (const auto& check : checks_) {
            check(world);
        }
        if (processes_ > 0 && world.size() != processes_) {
            throw BadArgument("needs P = " + std::to_string(processes_) + " (mpirun -np " + std::to_string(processes_) +
                              "), got P = " + std::to_string(world.size()));
        }
    } catch (const po::invalid_command_line_syntax& e) {
        return fail(world,
                    e.kind() == po::invalid_syntax::missing_parameter ? "missing value after " + e.get_option_name()
                                                                      : std::string(e.what()));
    } catch (const po::error& e) {  // a value that does not read as its type: "the argument ('x') for option '--n' …"
        return fail(world, e.what());
    } catch (const BadArgument& e) {
        return fail(world, e.what());
    }
    return std::nullopt;
}

int CommandLine::fail(const Group& world, const std::string& message) const {
    if (world.rank() == 0) {
        std::fprintf(stderr, "%s: %s\n", program_.c_str(), message.c_str());
    }
    return 2;
}

int run(int argc, char** argv, const CommandLine& command_line, const std::function<int(Group& world)>& measure) {
    llc::Environment env(argc, argv, {.keep_freed_memory = true});
    Group& world = env.world();
    if (const std::optional<int> status = command_line.parse(world, argc, argv)) {
        return *status;
    }
    try {
        return measure(world);
    } catch (const BadArgument& e) {
        return command_line.fail(world, e.what());
    }
}

double slowest(MPI_Comm comm, double seconds) {
    MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, comm);
    return seconds;
}

}  // namespace llc::bench
