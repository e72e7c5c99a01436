// Contour ranking's card (llc/tools/card.hpp): how llc-run, llc-validate, llc-compare and llc-probe run contour ranking
// and tracing.
#include "card.hpp"

#include <llc/algorithms/contour_ranking.hpp>
#include <llc/tools/card.hpp>

namespace llc::cards {

tools::Card contour_ranking_card() {
    return {
        .name = "contour-ranking",
        .summary =
            "contour ranking by the C³ merge patterns (Hambrusch–Khokhar §5) and contour tracing of binary images",
        .layer = tools::CardLayer::algorithm,
        .commands = {contour_ranking_run_command()},
        .cases = contour_ranking_cases(),
#ifdef LLC_HAVE_OPENCV
        .comparisons = {contour_ranking_comparison()},
        .no_peer = {},
#else
        .comparisons = {},
        .no_peer = "its peer is OpenCV's findContours, and OpenCV (libopencv-dev) was not found when llc was built",
#endif
        .probes = detail::contour_ranking::kernel_probes(),
    };
}

}  // namespace llc::cards

LLC_REGISTER_CARD(llc::cards::contour_ranking_card)
