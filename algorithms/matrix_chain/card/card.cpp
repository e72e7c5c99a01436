// The ring interval DP's card (llc/tools/card.hpp): how llc-run, llc-validate, llc-compare and llc-probe run the
// matrix-chain order and the optimal binary search tree.
#include "card.hpp"

#include <llc/algorithms/matrix_chain.hpp>
#include <llc/tools/card.hpp>

namespace llc::cards {

tools::Card matrix_chain_card() {
    return {
        .name = "matrix-chain",
        .summary = "matrix-chain order and optimal BST by interval DP on a ring (Miguet & Robert, article [1] §3)",
        .layer = tools::CardLayer::algorithm,
        .commands = {matrix_chain_run_command(), optimal_bst_run_command()},
        .cases = matrix_chain_cases(),
        .comparisons = {matrix_chain_comparison()},
        .no_peer = {},
        .probes = detail::matrix_chain::kernel_probes(),
    };
}

}  // namespace llc::cards

LLC_REGISTER_CARD(llc::cards::matrix_chain_card)
