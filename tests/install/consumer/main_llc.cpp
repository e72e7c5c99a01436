// Links against the installed llc::llc and runs a division: prints "consumer ok" on rank 0 when the result is right.
#include <cstdio>
#include <vector>

#include <llc/llc.hpp>

int main(int argc, char** argv) {
    llc::Environment env(argc, argv);
    auto& world = llc::Group::world();
    auto [left, right] = llc::par(
        world,
        [](llc::Group&) {
            return std::vector<int>{1, 2};
        },
        [](llc::Group& g) { return std::vector<int>{g.size()}; });
    const int total = world.allreduce(static_cast<int>(left.size() + right.size()), llc::Op::sum);
    if (total != 3 * world.size()) {
        std::fprintf(stderr, "consumer: wrong result %d\n", total);
        return 1;
    }
    if (world.rank() == 0) {
        std::printf("consumer ok on %d processors\n", world.size());
    }
    return 0;
}
