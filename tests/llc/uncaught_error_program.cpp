// An llc::Error that nobody catches: bcast sizes that differ across the ranks make the agreement check throw on every
// rank, out of main(). Run by mpi_llc_uncaught_error (expect_clean_error.cmake): the message once a rank, no runtime
// report or backtrace unless LLC_BACKTRACE=1, and a non-zero exit status.
#include <vector>

#include <llc/llc.hpp>

int main(int argc, char** argv) {
    llc::Environment env(argc, argv);
    auto& world = llc::Group::world();
    std::vector<int> data(world.rank() == 0 ? 3 : 4);
    world.bcast(std::span<int>(data), 0);
    return 0;
}
