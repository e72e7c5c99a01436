#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <system_error>
#include <unistd.h>

#include <mpi.h>

#include <llc/cost/model.hpp>
#include <llc/error.hpp>
#include <llc/file.hpp>
#include <llc/tools/image_io.hpp>
#include <llc/tools/run_command.hpp>
#include <llc/tools/statistics.hpp>
#include <llc/tools/timing.hpp>

namespace llc::run {

std::optional<boost::program_options::variables_map> parse_options(
    Group& world,
    const std::vector<std::string>& args,
    const boost::program_options::options_description& desc,
    const std::string& command) {
    namespace po = boost::program_options;
    po::variables_map vm;
    try {
        po::store(po::command_line_parser(args).options(desc).run(), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        throw UsageError(e.what());
    }
    if (vm.count("help") != 0U) {
        if (world.rank() == 0) {
            std::printf("usage: mpirun -np P llc-run %s [options]\n", command.c_str());
            desc.print(std::cout);
        }
        return std::nullopt;
    }
    return vm;
}

void agree(Group& g, bool ok, const std::string& message) {
    const int failed = ok ? g.size() : g.rank();  // the lowest failing rank reports
    int first = 0;
    MPI_Allreduce(&failed, &first, 1, MPI_INT, MPI_MIN, g.native());
    if (first == g.size()) {
        return;
    }
    // The failing rank's message travels to everyone, so every rank throws the same UsageError.
    int length = static_cast<int>(message.size());
    MPI_Bcast(&length, 1, MPI_INT, first, g.native());
    std::string text = g.rank() == first ? message : std::string(static_cast<std::size_t>(length), ' ');
    MPI_Bcast(text.data(), length, MPI_CHAR, first, g.native());
    throw UsageError(text);
}

std::uintmax_t file_size(const std::string& path) {
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status)) {
        throw UsageError("input file '" + path + "' does not exist");
    }
    if (!std::filesystem::is_regular_file(status)) {
        throw UsageError("input file '" + path + "' is not a regular file");
    }
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) {
        throw UsageError("input file '" + path + "': " + ec.message());
    }
    return size;
}

std::int64_t checked_elements(const std::string& what, std::int64_t width, std::int64_t height) {
    try {
        return tools::check_input_elements(what, width, height);
    } catch (const std::runtime_error& e) {
        throw UsageError(e.what());
    }
}

bool read_bytes(const std::string& path, std::uintmax_t offset, std::span<char> out, std::string& error) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = "cannot open input file '" + path + "'";
        return false;
    }
    in.seekg(static_cast<std::streamoff>(offset));
    in.read(out.data(), static_cast<std::streamsize>(out.size()));
    if (in.gcount() != static_cast<std::streamsize>(out.size())) {
        error = "input file '" + path + "' is shorter than expected (changed while reading?)";
        return false;
    }
    return true;
}

void write_whole(const std::string& path, std::span<const char> data) {
    llc::write_file_atomically(path, std::string_view(data.data(), data.size()), "llc-run");
}

namespace {

/// Columns a UTF-8 text takes on a terminal (one a code point: the tools' texts have no wide characters).
std::size_t display_width(std::string_view text) {
    return static_cast<std::size_t>(
        std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

}  // namespace

std::string columns(const std::vector<std::pair<std::string, std::string>>& rows, std::size_t line_length) {
    constexpr std::size_t indent = 2;
    constexpr std::size_t widest = 24;
    std::size_t name_width = 0;
    for (const auto& row : rows) {
        name_width = std::max(name_width, std::min(display_width(row.first), widest));
    }
    const std::size_t column = indent + name_width + 2;
    const std::size_t room = line_length > column + 20 ? line_length - column : 20;
    std::string out;
    for (const auto& [name, description] : rows) {
        out += std::string(indent, ' ') + name;
        std::size_t at = indent + display_width(name);
        if (at + 2 > column) {  // a long name: its description starts on the next line
            out += '\n';
            at = 0;
        }
        out += std::string(column - at, ' ');
        std::size_t used = 0;
        std::size_t start = 0;
        while (start < description.size()) {
            std::size_t end = description.find(' ', start);
            end = end == std::string::npos ? description.size() : end;
            const std::string_view word(description.data() + start, end - start);
            if (used > 0 && used + 1 + display_width(word) > room) {
                out += '\n' + std::string(column, ' ');
                used = 0;
            } else if (used > 0) {
                out += ' ';
                ++used;
            }
            out += word;
            used += display_width(word);
            start = end + 1;
        }
        out += '\n';
    }
    return out;
}

void check_output_path(const std::string& argument, const std::string& path) {
    const std::filesystem::path target(path);
    if (path.empty() || target.filename().empty()) {
        throw UsageError(argument + ": '" + path + "' is not a file name");
    }
    const std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) {
        throw UsageError(argument + ": the directory of output file '" + path + "' does not exist");
    }
    if (std::filesystem::is_directory(target, ec)) {
        throw UsageError(argument + ": output file '" + path + "' is a directory");
    }
}

std::string output_format(const std::string& argument,
                          const std::string& path,
                          std::initializer_list<std::string_view> accepted) {
    check_output_path(argument, path);
    const std::string extension = std::filesystem::path(path).extension().string();
    std::string known;
    for (const std::string_view a : accepted) {
        if (extension == a) {
            return extension;
        }
        known += (known.empty() ? "" : ", ") + std::string(a);
    }
    throw UsageError(argument + ": '" + path + "' has " +
                     (extension.empty() ? std::string("no extension") : "extension '" + extension + "'") +
                     "; the accepted extensions are " + known + " (the extension names the format written)");
}

std::vector<std::uint8_t> read_binary_image(Group& world,
                                            const std::string& path,
                                            std::int64_t& width,
                                            std::int64_t& height) {
    std::vector<std::uint8_t> image;
    std::string error;
    std::int64_t dims[2] = {0, 0};
    if (world.rank() == 0) {
        try {
            const tools::GreyImage grey = tools::read_grey_image(path);
            dims[0] = grey.width;
            dims[1] = grey.height;
            image.resize(grey.pixels.size());
            for (std::size_t i = 0; i < image.size(); ++i) {
                image[i] = grey.pixels[i] == 0 ? 0 : 1;
            }
        } catch (const std::exception& e) {
            error = e.what();
        }
    }
    agree(world, error.empty(), error);
    world.bcast(std::span<std::int64_t>(dims, 2), 0);
    width = dims[0];
    height = dims[1];
    image.resize(static_cast<std::size_t>(width * height));
    world.bcast(std::span<std::uint8_t>(image), 0);
    return image;
}

namespace {

namespace po = boost::program_options;

/// The options every command has, after its own.
void add_common_options(po::options_description& desc, int default_repeat) {
    // clang-format off
    desc.add_options()
        ("repeat", po::value<int>()->default_value(default_repeat), "timed executions; the median is reported")
        ("profile", po::value<std::string>(), "machine profile (llc-probe) for the predicted time")
        ("json", po::bool_switch(), "rank 0 prints one JSON object");
    // clang-format on
}

/// Median seconds of `repeat` executions after one warm-up, and the samples.
std::pair<double, std::vector<double>> time_executions(Group& world, Run& run, int repeat) {
    const std::function<void()> execute = [&] { run.execute(); };
    (void)tools::time_sample(world.native(), 1, execute);  // warm-up, as llc-probe and llc-validate measure
    std::vector<double> samples;
    for (int k = 0; k < repeat; ++k) {
        samples.push_back(tools::time_sample(world.native(), 1, execute).seconds);
    }
    return {tools::median(samples), samples};
}

/// The CCM's prediction of one execution, std::nullopt without a profile or a cost function.
std::optional<double> prediction(const Run& run, const std::optional<cost::Profile>& profile) {
    if (!profile) {
        return std::nullopt;
    }
    try {
        const std::optional<cost::Expr> expr = run.expr(*profile);
        return expr ? std::optional<double>(cost::predict(*expr, cost::CCM(*profile))) : std::nullopt;
    } catch (const llc::Error& e) {
        throw UsageError(std::string("--profile: ") + e.what());
    }
}

void print_report(const Run& run,
                  bool json,
                  int repeat,
                  const std::pair<double, std::vector<double>>& measured,
                  const std::optional<double>& predicted,
                  bool has_profile) {
    if (json) {
        nlohmann::json j = run.json();
        j["repeat"] = repeat;
        j["measured_s"] = measured.first;
        j["samples_s"] = measured.second;
        j["predicted_s"] = predicted ? nlohmann::json(*predicted) : nlohmann::json(nullptr);
        std::printf("%s\n", j.dump().c_str());
        return;
    }
    for (const std::string& line : run.text_before()) {
        std::printf("%s\n", line.c_str());
    }
    const std::string what = run.measured_what();
    std::printf("measured:  %s (%smedian of %d)\n",
                cost::format_seconds(measured.first).c_str(),
                what.empty() ? "" : (what + ", ").c_str(),
                repeat);
    if (predicted) {
        std::printf("predicted: %s (CCM)\n", cost::format_seconds(*predicted).c_str());
    } else {
        std::printf("predicted: - (%s)\n", has_profile ? run.no_prediction().c_str() : "no --profile");
    }
    for (const std::string& line : run.text_after()) {
        std::printf("%s\n", line.c_str());
    }
}

}  // namespace

int run_command(Group& world, const RunCommand& command, const std::vector<std::string>& args) {
    po::options_description desc("llc-run " + command.name + " options");
    desc.add_options()("help,h", "this help");
    if (command.options) {
        command.options(desc);
    }
    add_common_options(desc, command.default_repeat);
    const std::optional<po::variables_map> parsed = parse_options(world, args, desc, command.name);
    if (!parsed) {
        return 0;
    }
    const po::variables_map& vm = *parsed;
    const int repeat = vm["repeat"].as<int>();
    if (repeat < 1) {
        throw UsageError("--repeat: " + std::to_string(repeat) + " must be at least 1");
    }
    std::optional<cost::Profile> profile;
    if (vm.count("profile") != 0U) {
        profile = load_profile_option(vm["profile"].as<std::string>());
    }
    const std::unique_ptr<Run> run = command.prepare(world, vm);
    const auto measured = time_executions(world, *run, repeat);
    const std::optional<double> predicted = prediction(*run, profile);
    run->write_outputs();
    if (world.rank() == 0) {
        print_report(*run, vm["json"].as<bool>(), repeat, measured, predicted, profile.has_value());
    }
    return run->exit_status();
}

void write_on_root(Group& world, const std::function<void()>& write) {
    std::string error;
    if (world.rank() == 0) {
        try {
            write();
        } catch (const std::exception& e) {
            error = e.what();
            if (error.empty()) {
                error = "writing the output failed";
            }
        }
    }
    int length = static_cast<int>(error.size());
    MPI_Bcast(&length, 1, MPI_INT, 0, world.native());
    if (length == 0) {
        return;
    }
    error.resize(static_cast<std::size_t>(length));
    MPI_Bcast(error.data(), length, MPI_CHAR, 0, world.native());
    throw OutputError(error);
}

cost::Profile load_profile_option(const std::string& path) {
    try {
        return cost::Profile::load(path);
    } catch (const std::exception& e) {
        throw UsageError(std::string("--profile: ") + e.what());
    }
}

}  // namespace llc::run
