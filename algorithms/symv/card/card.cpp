// symv's card (llc/tools/card.hpp): how llc-run, llc-validate, llc-compare and llc-probe run the symmetric
// matrix–vector product on a ring.
#include "card.hpp"

#include <llc/algorithms/symv.hpp>
#include <llc/tools/card.hpp>

namespace llc::cards {

tools::Card symv_card() {
    return {
        .name = "symv",
        .summary = "symmetric matrix-vector product on a ring, reflection mapping (Grigg, Miguet & Robert, [3])",
        .layer = tools::CardLayer::algorithm,
        .commands = {symv_run_command()},
        .cases = symv_cases(),
#ifdef LLC_HAVE_OPENBLAS
        .comparisons = {symv_comparison()},
        .no_peer = {},
#else
        .comparisons = {},
        .no_peer = "built without OpenBLAS (libopenblas-dev), whose CBLAS dsymv and dspmv are symv's peers",
#endif
        .probes = detail::symv::kernel_probes(),
    };
}

}  // namespace llc::cards

LLC_REGISTER_CARD(llc::cards::symv_card)
