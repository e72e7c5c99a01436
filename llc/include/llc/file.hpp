#pragma once
/// @file
/// Files written whole or not at all: a failed or killed run never leaves a half-written file that looks valid.

#include <string>
#include <string_view>

namespace llc {

/// Writes `bytes` to `path` through a temporary file beside it (path + ".tmp.<pid>"), then renames it over `path`.
/// Creates the parent directory when `create_directories` is set. Local (no communication).
/// @throws llc::Error naming `function`, the file and the system's reason; the temporary file is removed.
void write_file_atomically(const std::string& path,
                           std::string_view bytes,
                           std::string_view function = "llc::write_file_atomically",
                           bool create_directories = false);

}  // namespace llc
