#pragma once
// What the kernel backs this process's memory with, for the tests of memory on transparent huge pages
// (llc::map_huge_pages, tools::ColdRotation): read from /sys and /proc, Linux only.
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

namespace llc::test {

/// Whether the kernel may back an advised mapping with transparent huge pages ("always" or "madvise" chosen).
inline bool huge_pages_on_advice() {
    std::ifstream f("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string line;
    std::getline(f, line);
    return line.find("[always]") != std::string::npos || line.find("[madvise]") != std::string::npos;
}

/// {Size, AnonHugePages} in kB of the mapping of this process that holds `address` (/proc/self/smaps; {0, 0} if
/// none).
inline std::pair<long, long> mapping_kb(const void* address) {
    std::ifstream smaps("/proc/self/smaps");
    std::string line;
    bool inside = false;
    long size = 0;
    while (std::getline(smaps, line)) {
        std::istringstream fields(line);
        std::string first;
        fields >> first;
        if (const auto dash = first.find('-'); dash != std::string::npos && first.back() != ':') {
            const auto at = reinterpret_cast<std::uintptr_t>(address);
            inside = std::strtoull(first.substr(0, dash).c_str(), nullptr, 16) <= at &&
                     at < std::strtoull(first.substr(dash + 1).c_str(), nullptr, 16);
            continue;
        }
        long kb = 0;
        fields >> kb;
        if (inside && first == "Size:") {
            size = kb;
        }
        if (inside && first == "AnonHugePages:") {
            return {size, kb};
        }
    }
    return {0, 0};
}

}  // namespace llc::test
