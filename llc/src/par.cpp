#include <llc/agreement.hpp>
#include <llc/par.hpp>

namespace llc::detail {

void PendingSends::wait_all() {
    if (!raw.empty()) {
        check_mpi(MPI_Waitall(static_cast<int>(raw.size()), raw.data(), MPI_STATUSES_IGNORE),
                  "llc::par (result exchange)");
        raw.clear();
    }
    serialised.clear();
}

void check_weights_agree(Group& g, const char* function, std::span<const double> weights) {
    Agreement(g, function)
        .same("weights.size()", static_cast<long long>(weights.size()))
        .same_array("weights", weights)
        .check();
    // Every rank now holds the same weights, so every rank reaches the same verdict.
    check_weights(function, g.size(), weights);
}

}  // namespace llc::detail
