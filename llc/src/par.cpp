#include <llc/fingerprint.hpp>
#include <llc/par.hpp>

namespace llc::detail {

void PendingSends::wait_all() {
    if (!raw.empty()) {
        check_mpi(MPI_Waitall(static_cast<int>(raw.size()), raw.data(), MPI_STATUSES_IGNORE),
                  "llc::par (result exchange)");
        raw.clear();
    }
    if (!serialised.empty()) {
        boost::mpi::wait_all(serialised.begin(), serialised.end());
        serialised.clear();
    }
}

void check_weights_agree(Group& g, const char* function, std::span<const double> weights) {
    g.check_same(function,
                 {{"weights.size()", static_cast<long long>(weights.size())},
                  {"weights (hash of the values)", Fingerprint{}.add(weights).value()}});
    // Every rank now holds the same weights, so every rank reaches the same verdict.
    check_weights(function, g.size(), weights);
}

}  // namespace llc::detail
