#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <system_error>
#include <unistd.h>

#include <mpi.h>

#include <llc/file.hpp>
#include <llc/tools/image_io.hpp>

#include "run.hpp"

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

}  // namespace llc::run
