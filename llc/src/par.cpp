#include <bit>
#include <cstdint>

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
    // FNV-1a over the weights' bit patterns: equal weights hash equal; a difference shows up with near certainty.
    std::uint64_t hash = 1469598103934665603ULL;
    for (const double w : weights) {
        hash ^= std::bit_cast<std::uint64_t>(w);
        hash *= 1099511628211ULL;
    }
    g.check_same(function,
                 {{"weights.size()", static_cast<long long>(weights.size())},
                  {"weights (hash of the values)", static_cast<long long>(hash >> 1)}});
    // Every rank now holds the same weights, so every rank reaches the same verdict.
    check_weights(function, g.size(), weights);
}

}  // namespace llc::detail
