// An exception thrown on one rank only inside a par task: the job must end through MPI_Abort with a diagnostic,
// never hang. Run by the test mpi_llc_abort (expect_abort.cmake checks the exit status and the message).
#include <stdexcept>
#include <vector>

#include <llc/llc.hpp>

int main(int argc, char** argv) {
    llc::Environment env(argc, argv);
    auto& world = llc::Group::world();
    const int culprit = world.size() - 1;
    auto [a, b] = llc::par(
        world,
        [&](llc::Group&) {
            if (world.rank() == culprit) {
                throw std::runtime_error("deliberate failure in task 0");
            }
            return std::vector<int>{1};
        },
        [&](llc::Group&) {
            if (world.rank() == culprit) {
                throw std::runtime_error("deliberate failure in task 1");
            }
            return std::vector<int>{2};
        });
    // Everyone would wait here for the culprit's result forever without the abort.
    world.barrier();
    return static_cast<int>(a.size() + b.size()) == 2 ? 0 : 3;
}
