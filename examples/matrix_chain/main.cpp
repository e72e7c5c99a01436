// The matrix-chain order and the optimal binary search tree on a ring of processors (algorithms/matrix_chain):
// the CLRS chain ⟨30,35,15,5,10,20,25⟩ and the thesis' BST example, then a random chain of n matrices checked against
// the textbook loop on rank 0.
//
//   mpirun -np 4 llc-example-matrix-chain [n]
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <llc/algorithms/matrix_chain.hpp>
#include <llc/llc.hpp>

int main(int argc, char** argv) {
    llc::Environment env(argc, argv);
    llc::Group& world = llc::Group::world();
    const bool root = world.rank() == 0;

    const std::vector<std::int64_t> clrs{30, 35, 15, 5, 10, 20, 25};
    const llc::MatrixChainResult chain = llc::matrix_chain(world, clrs);  // collective; r from the default rule
    const std::vector<double> freq{34, 8, 50};
    const llc::OptimalBstResult bst = llc::optimal_bst(world, freq);
    if (root) {
        std::printf("chain %s: %lld multiplications (r = %lld)\n",
                    chain.parenthesization.c_str(),
                    static_cast<long long>(chain.cost),
                    static_cast<long long>(chain.r));
        std::printf("BST of 3 keys: cost %g, root key %d\n", bst.cost, bst.root);
    }

    const std::int64_t n = argc > 1 ? std::stoll(argv[1]) : 300;
    std::mt19937_64 rng(7);
    std::uniform_int_distribution<std::int64_t> dim(1, 100);
    std::vector<std::int64_t> dims(static_cast<std::size_t>(n) + 1);
    for (auto& d : dims) {
        d = dim(rng);
    }
    const llc::MatrixChainResult ours = llc::matrix_chain(world, dims);
    // Each processor holds only its columns: about n²/(2P) costs.
    const auto entries = world.allreduce(static_cast<long long>(ours.table.entries()), llc::Op::max);
    int status = 0;
    if (root) {
        const std::int64_t textbook = llc::sequential::matrix_chain_textbook(dims);
        std::printf("random chain of %lld: %lld (textbook loop: %lld), at most %lld table entries a processor\n",
                    static_cast<long long>(n),
                    static_cast<long long>(ours.cost),
                    static_cast<long long>(textbook),
                    entries);
        status = ours.cost == textbook && chain.cost == 15125 && bst.cost == 142.0 ? 0 : 1;
    }
    world.bcast(status, 0);
    return status;
}
