// The FFT's card (llc/tools/card.hpp): how llc-run, llc-validate, llc-compare and llc-probe run the parallel FFT.
#include "card.hpp"

#include <llc/algorithms/fft_cost.hpp>
#include <llc/tools/card.hpp>

namespace llc::cards {

tools::Card fft_card() {
    return {
        .name = "fft",
        .summary = "1-D complex FFT by division over processor groups (CCM paper §3, Figure 4)",
        .layer = tools::CardLayer::algorithm,
        .commands = {fft_run_command()},
        .cases = fft_cases(),
        .comparisons = {fft_comparison()},
        .no_peer = {},
        .probes = detail::fft::kernel_probes(),
    };
}

}  // namespace llc::cards

LLC_REGISTER_CARD(llc::cards::fft_card)
