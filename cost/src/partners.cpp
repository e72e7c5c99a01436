// Swaps priced by where their partners are (partners.hpp).
#include <string>

#include <llc/cost/operation_names.hpp>
#include <llc/cost/partners.hpp>
#include <llc/error.hpp>

namespace llc::cost {

int far_distance(int P) noexcept {
    int d = 1;
    while (2 * d < P) {
        d *= 2;
    }
    return P < 3 ? 0 : d;
}

std::optional<bool> pairs_cross_nodes(std::span<const int> node_of_rank, int P, int distance) {
    constexpr const char* function = "llc::cost::pairs_cross_nodes";
    if (P < 1) {
        throw_argument_error(function, "P", std::to_string(P), "must be at least 1");
    }
    if (distance < 1) {
        throw_argument_error(function, "distance", std::to_string(distance), "must be at least 1");
    }
    if (std::ssize(node_of_rank) < P) {
        return std::nullopt;
    }
    for (int r = 0; r < P; ++r) {
        const int mate = r ^ distance;
        if (mate < P && node_of_rank[static_cast<std::size_t>(r)] != node_of_rank[static_cast<std::size_t>(mate)]) {
            return true;
        }
    }
    return false;
}

bool priced_far(std::span<const int> node_of_rank, int P, int distance) {
    const int far = far_distance(P);
    if (far == 0 || distance == 1) {
        return false;
    }
    const std::optional<bool> these = pairs_cross_nodes(node_of_rank, P, distance);
    if (!these) {
        return false;
    }
    return *these != *pairs_cross_nodes(node_of_rank, P, 1) && *these == *pairs_cross_nodes(node_of_rank, P, far);
}

std::string swap_by_partners(const Profile& profile, std::string_view op, int P, int distance) {
    const bool far =
        profile.has_collective(names::op::swap_far) && priced_far(profile.meta().node_of_rank, P, distance);
    return std::string(op) + (far ? std::string(far_suffix) : std::string());
}

}  // namespace llc::cost
