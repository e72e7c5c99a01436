// The llc layer's cards (llc/tools/card.hpp): how llc-validate and llc-compare run the layer itself — the collectives
// of the set F, Seidel's broadcasts and the division superstep. The layer has no llc-run command (it is what the
// algorithms' commands run on) and no kernel probe (llc-probe measures its collectives and divisions directly: they
// are the profile's T_f and T_g, not kernel constants).
//
// Registered here in the layer's order — collectives, broadcasts, divisions — which is the order of every listing and
// report (the llc layer's cards keep their registration order, llc/tools/card.hpp).
#include "card.hpp"

#include <llc/tools/card.hpp>

namespace llc::cards {

tools::Card collectives_card() {
    return {
        .name = "collectives",
        .summary =
            "the collectives of the set F on a Group, swap and shift, the cold swap and the split-phase shift "
            "(CCM paper §2: T_f(P, h))",
        .layer = tools::CardLayer::llc,
        .commands = {},
        .cases = collective_cases(),
        .comparisons = {},
        .no_peer =
            "each collective is one MPI call on the group's communicator (MPI_Bcast, MPI_Allreduce, "
            "MPI_Sendrecv, …) plus its trace record: a peer would time MPI against itself",
        .probes = {},
    };
}

tools::Card broadcast_card() {
    return {
        .name = "broadcast",
        .summary =
            "Seidel's broadcasts over point-to-point MPI: spanning binomial tree, bidirectional tree, "
            "recursive halving (Seidel, ORNL/TM-12356, 1993, §3-§5)",
        .layer = tools::CardLayer::llc,
        .commands = {},
        .cases = broadcast_cases(),
        .comparisons = {},
        .no_peer =
            "their peer is MPI_Bcast, which the collectives card's 'bcast' case measures on the same sizes: "
            "llc-validate's report and llc-probe's profile set them side by side",
        .probes = {},
    };
}

tools::Card par_card() {
    return {
        .name = "par",
        .summary =
            "the division superstep llc::par / llc::weighted_par: split, tasks in subgroups, result exchange "
            "between partners, rejoin (CCM paper §2.1: T_g)",
        .layer = tools::CardLayer::llc,
        .commands = {},
        // No case of its own: divisions are validated through the algorithms that divide (the FFT's replicated
        // layout, contour ranking's merge), and llc-probe --check holds T_g against llc::par itself.
        .cases = {},
        .comparisons = {par_comparison()},
        .no_peer = {},
        .probes = {},
    };
}

}  // namespace llc::cards

LLC_REGISTER_CARD(llc::cards::collectives_card)
LLC_REGISTER_CARD(llc::cards::broadcast_card)
LLC_REGISTER_CARD(llc::cards::par_card)
