#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include <llc/error.hpp>
#include <llc/file.hpp>

namespace llc {

void write_file_atomically(const std::string& path,
                           std::string_view bytes,
                           std::string_view function,
                           bool create_directories) {
    namespace fs = std::filesystem;
    const fs::path target(path);
    std::error_code ec;
    if (create_directories && target.has_parent_path()) {
        fs::create_directories(target.parent_path(), ec);
        if (ec) {
            throw Error(std::string(function) + ": cannot create directory '" + target.parent_path().string() +
                        "': " + ec.message());
        }
    }
    const std::string temporary = path + ".tmp." + std::to_string(::getpid());
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (!out) {
            throw Error(std::string(function) + ": cannot write '" + temporary + "': " + std::strerror(errno));
        }
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        out.flush();
        if (!out) {
            out.close();
            fs::remove(temporary, ec);
            throw Error(std::string(function) + ": writing '" + temporary + "' failed (disk full?)");
        }
    }
    fs::rename(temporary, target, ec);
    if (ec) {
        std::error_code ignored;
        fs::remove(temporary, ignored);
        throw Error(std::string(function) + ": cannot rename '" + temporary + "' to '" + path + "': " + ec.message());
    }
}

}  // namespace llc
