// llc-run ALGORITHM [options]: one algorithm under mpirun on generated or given input (DESIGN §5).
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include <llc/environment.hpp>
#include <llc/error.hpp>
#include <llc/group.hpp>

#include "run.hpp"

namespace {

void overview(const char* program) {
    std::printf("usage: mpirun -np P %s ALGORITHM [options]   (%s ALGORITHM --help for its options)\n\nalgorithms:\n",
                program,
                program);
    for (const auto& command : llc::run::commands()) {
        std::printf("  %-12s %s\n", command.name.c_str(), command.description.c_str());
    }
}

}  // namespace

int main(int argc, char** argv) {
    llc::Environment env(argc, argv);
    llc::Group& world = env.world();
    const bool root = world.rank() == 0;
    const std::vector<std::string> args(argv + (argc > 1 ? 2 : 1), argv + argc);
    if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h") {
        if (root) {
            overview(argv[0]);
        }
        return argc < 2 ? 2 : 0;
    }
    const std::string name = argv[1];
    for (const auto& command : llc::run::commands()) {
        if (command.name != name) {
            continue;
        }
        try {
            return command.run(world, args);
        } catch (const llc::run::UsageError& e) {
            if (root) {
                std::fprintf(stderr, "llc-run %s: %s\n", name.c_str(), e.what());
            }
            return 2;
        } catch (const llc::Error& e) {
            // Argument checks of the library (n = 0, …) are bad input too.
            if (root) {
                std::fprintf(stderr, "llc-run %s: %s\n", name.c_str(), e.what());
            }
            return 2;
        } catch (const std::exception& e) {
            std::fprintf(stderr, "llc-run %s (rank %d): %s\n", name.c_str(), world.rank(), e.what());
            return 1;
        }
    }
    if (root) {
        std::fprintf(stderr, "llc-run: unknown algorithm '%s'\n", name.c_str());
        overview(argv[0]);
    }
    return 2;
}
