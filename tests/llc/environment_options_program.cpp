// llc::Environment changes no process-wide setting unless asked: `environment_options_program default` expects glibc's
// malloc to still serve a large block by mmap under a default Environment; `… keep` opts in
// (EnvironmentOptions::keep_freed_memory) and expects the block to come from the heap. Exit status 0 when it holds.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <malloc.h>
#include <memory>
#include <string>

#include <llc/environment.hpp>

namespace {
/// How many blocks malloc serves by mmap after one more allocation of 64 MiB (still held when counted).
std::size_t mmapped_blocks_with_a_large_allocation() {
    const std::unique_ptr<char, decltype(&std::free)> block(static_cast<char*>(std::malloc(64u << 20)), &std::free);
    std::memset(block.get(), 1, 4096);
    return mallinfo2().hblks;
}
}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode != "default" && mode != "keep") {
        std::fprintf(stderr, "usage: environment_options_program default|keep\n");
        return 2;
    }
    llc::Environment env(argc, argv, {.keep_freed_memory = mode == "keep"});
    const std::size_t blocks = mmapped_blocks_with_a_large_allocation();
    const bool as_expected = mode == "default" ? blocks > 0 : blocks == 0;
    std::printf("%s: %zu block(s) served by mmap: %s\n", mode.c_str(), blocks, as_expected ? "ok" : "WRONG");
    return as_expected ? 0 : 1;
}
