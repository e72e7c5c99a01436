// llc-run ALGORITHM [options]: one algorithm under mpirun on generated or given input (DESIGN §5).
#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include <llc/environment.hpp>
#include <llc/error.hpp>
#include <llc/group.hpp>
#include <llc/tools/card.hpp>
#include <llc/tools/run_command.hpp>

namespace {

/// Every command of every card.
const std::vector<llc::run::RunCommand>& commands() {
    return llc::tools::all_commands();
}

void overview(const char* program) {
    std::printf("usage: mpirun -np P %s ALGORITHM [options]   (%s ALGORITHM --help for its options)\n\nalgorithms:\n",
                program,
                program);
    std::vector<std::pair<std::string, std::string>> rows;
    for (const auto& command : commands()) {
        rows.emplace_back(command.name, command.description);
    }
    std::printf("%s", llc::run::columns(rows).c_str());
}

}  // namespace

int main(int argc, char** argv) {
    llc::Environment env(argc, argv, {.keep_freed_memory = true});  // the cost model assumes freed memory is reused
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
    for (const auto& command : commands()) {
        if (command.name != name) {
            continue;
        }
        try {
            return llc::run::run_command(world, command, args);
        } catch (const llc::run::UsageError& e) {
            if (root) {
                std::fprintf(stderr, "llc-run %s: %s\n", name.c_str(), e.what());
            }
            return 2;
        } catch (const llc::MpiError& e) {
            // An MPI call failed on this rank: the others may be waiting for it inside a collective.
            llc::abort_job(world.path(), "llc-run " + name + ": " + e.what());
        } catch (const llc::Error& e) {
            // Argument checks of the library (n = 0, …) are bad input too, thrown on every rank (llc/error.hpp).
            if (root) {
                std::fprintf(stderr, "llc-run %s: %s\n", name.c_str(), e.what());
            }
            return 2;
        } catch (const llc::run::OutputError& e) {
            // Agreed on by every rank (write_on_root): said once.
            if (root) {
                std::fprintf(stderr, "llc-run %s: %s\n", name.c_str(), e.what());
            }
            return 1;
        } catch (const std::exception& e) {
            // Possibly this rank's alone, in the middle of the run (out of memory, a failed write, …): the others may
            // be inside a collective and would wait forever. End the whole job with the message, never hang.
            llc::abort_job(world.path(), "llc-run " + name + ": " + e.what());
        }
    }
    if (root) {
        std::fprintf(stderr, "llc-run: unknown algorithm '%s'\n", name.c_str());
        overview(argv[0]);
    }
    return 2;
}
