// Seidel's broadcasts as pure schedules (rounds of sends), and the chooser of Bcast::automatic: no MPI here, so
// that the cost layer can plan and price a broadcast without it. llc::bcast runs them (broadcast.cpp).
#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <llc/bcast_schedule.hpp>
#include <llc/error.hpp>
#include <llc/log2.hpp>
namespace llc {
namespace {

// ---- Schedule construction ---------------------------------------------------------------------------------------

/// One message while a schedule is being built: explicit packet numbers.
struct Move {
    int from = 0;
    int to = 0;
    std::vector<int> packets;
};
using Rounds = std::vector<std::vector<Move>>;

std::vector<int> block(int first, int count) {
    std::vector<int> packets(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
        packets[static_cast<std::size_t>(i)] = first + i;
    }
    return packets;
}

/// Distribute (paper §3.1.1, from any root §4.1) inside the aligned block of 2^bits nodes starting at `base`, from
/// local index `local_root`: local node l ends with packets scale·l … scale·l + scale − 1. In step i every holder
/// sends to its partner across bit (bits − i) the packets of the partner's whole subtree, an aligned block (XOR with
/// the root maps aligned blocks onto aligned blocks).
void append_distribute(Rounds& rounds, int bits, int base, int local_root, int scale) {
    const int M = 1 << bits;
    for (int i = 1; i <= bits; ++i) {
        const int h = 1 << (bits - i);
        std::vector<Move> round;
        for (int r = 0; r < M; r += 2 * h) {
            const int sender = r ^ local_root;
            const int receiver = (r + h) ^ local_root;
            round.push_back({base + sender, base + receiver, block(scale * (receiver & ~(h - 1)), scale * h)});
        }
        rounds.push_back(std::move(round));
    }
}

/// Nearest-first dimensional exchange inside every aligned block of 2^bits of N nodes (paper §2, Fig. 2(a)): in step
/// t node x swaps with x ⊕ 2^(t−1) the aligned block of 2^(t−1) local packet groups (of `scale` packets) it holds, so
/// the packets stay in order and nothing is permuted.
void append_local_exchange(Rounds& rounds, int N, int bits, int scale) {
    const int M = 1 << bits;
    for (int t = 1; t <= bits; ++t) {
        const int h = 1 << (t - 1);
        std::vector<Move> round;
        for (int x = 0; x < N; ++x) {
            const int l = x & (M - 1);
            round.push_back({x, x ^ h, block(scale * (l & ~(h - 1)), scale * h)});
        }
        rounds.push_back(std::move(round));
    }
}

/// ST on N = 2^D nodes from root k with metanodes of 2^nu nodes (paper §3.1.1, §3.1.2, §4.1, §4.2); 2^nu packets.
Rounds st_rounds(int D, int k, int nu) {
    Rounds rounds;
    const int M = 1 << nu;
    const int E = D - nu;
    const int J = k >> nu;
    append_distribute(rounds, nu, J * M, k & (M - 1), 1);
    std::vector<int> holders{J};
    for (int s = 1; s <= E; ++s) {
        const int bit = 1 << (E - s);
        std::vector<Move> round;
        const std::size_t before = holders.size();
        for (std::size_t i = 0; i < before; ++i) {
            const int X = holders[i];
            const int Y = X ^ bit;
            for (int l = 0; l < M; ++l) {
                round.push_back({X * M + l, Y * M + l, {l}});
            }
            holders.push_back(Y);
        }
        rounds.push_back(std::move(round));
    }
    append_local_exchange(rounds, 1 << D, nu, 1);
    return rounds;
}

/// BST on N = 2^D nodes from root k with metanodes of 2^nu nodes, D − nu ≥ 1 (paper §3.3.1, §3.3.2, §4.3); local node
/// l of every metanode carries packets 2l (the root's tree) and 2l + 1 (the complement's tree).
Rounds bst_rounds(int D, int k, int nu) {
    Rounds rounds;
    const int M = 1 << nu;
    const int E = D - nu;
    const int metanodes = 1 << E;
    const int J = k >> nu;
    append_distribute(rounds, nu, J * M, k & (M - 1), 2);
    // Step 1: the root metanode sends the second halves to its bitwise complement.
    const int Jc = J ^ (metanodes - 1);
    {
        std::vector<Move> round;
        for (int l = 0; l < M; ++l) {
            round.push_back({J * M + l, Jc * M + l, {2 * l + 1}});
        }
        rounds.push_back(std::move(round));
    }
    // Steps 2 … E: two ST trees over the interleaved halves, messages in opposite directions.
    std::vector<char> in_a(static_cast<std::size_t>(metanodes), 0);
    std::vector<int> a{J};
    std::vector<int> b{Jc};
    in_a[static_cast<std::size_t>(J)] = 1;
    for (int s = 2; s <= E; ++s) {
        const int bit = 1 << (E - s + 1);
        std::vector<Move> round;
        for (auto* tree : {&a, &b}) {
            const bool first_half = tree == &a;
            const std::size_t before = tree->size();
            for (std::size_t i = 0; i < before; ++i) {
                const int X = (*tree)[i];
                const int Y = X ^ bit;
                for (int l = 0; l < M; ++l) {
                    round.push_back({X * M + l, Y * M + l, {first_half ? 2 * l : 2 * l + 1}});
                }
                tree->push_back(Y);
                if (first_half) {
                    in_a[static_cast<std::size_t>(Y)] = 1;
                }
            }
        }
        rounds.push_back(std::move(round));
    }
    // Step E + 1: neighbouring metanodes exchange their halves.
    {
        std::vector<Move> round;
        for (int X = 0; X < metanodes; ++X) {
            const bool first_half = in_a[static_cast<std::size_t>(X)] != 0;
            for (int l = 0; l < M; ++l) {
                round.push_back({X * M + l, (X ^ 1) * M + l, {first_half ? 2 * l : 2 * l + 1}});
            }
        }
        rounds.push_back(std::move(round));
    }
    append_local_exchange(rounds, 1 << D, nu, 2);
    return rounds;
}

/// RH on N = 2^D nodes from root k (paper §3.5, §4.4): distribute, then in step i partners across bit (D − i) swap
/// every packet gathered so far, {p : p ≡ x (mod 2^(D−i+1))}: farthest first, so those packets are not adjacent.
Rounds rh_rounds(int D, int k) {
    Rounds rounds;
    const int N = 1 << D;
    append_distribute(rounds, D, 0, k, 1);
    for (int i = 1; i <= D; ++i) {
        const int h = 1 << (D - i);
        const int mod = 2 * h;
        std::vector<Move> round;
        for (int x = 0; x < N; ++x) {
            std::vector<int> packets;
            for (int p = x % mod; p < N; p += mod) {
                packets.push_back(p);
            }
            round.push_back({x, x ^ h, std::move(packets)});
        }
        rounds.push_back(std::move(round));
    }
    return rounds;
}

/// Virtual nodes (paper §5.1): a schedule on 2^⌈lg n⌉ indices run by n processors, index v ≥ n simulated by n − 1.
/// A packet sent to an index that neither is a processor nor forwards it later to one that needs it is dropped
/// (nothing physical waits for it); what is left is mapped to processors and sends within n − 1 disappear.
Rounds apply_virtual_nodes(const Rounds& rounds, int n, int N, int K) {
    std::vector<std::vector<char>> forwards(static_cast<std::size_t>(N),
                                            std::vector<char>(static_cast<std::size_t>(K), 0));
    Rounds kept(rounds.size());
    for (std::size_t r = rounds.size(); r-- > 0;) {
        for (const Move& move : rounds[r]) {
            Move useful{move.from, move.to, {}};
            for (const int p : move.packets) {
                if (move.to < n || forwards[static_cast<std::size_t>(move.to)][static_cast<std::size_t>(p)] != 0) {
                    useful.packets.push_back(p);
                }
            }
            if (!useful.packets.empty()) {
                kept[r].push_back(std::move(useful));
            }
        }
        for (const Move& move : kept[r]) {
            for (const int p : move.packets) {
                forwards[static_cast<std::size_t>(move.from)][static_cast<std::size_t>(p)] = 1;
            }
        }
    }
    for (auto& round : kept) {
        std::vector<Move> physical;
        for (Move& move : round) {
            move.from = std::min(move.from, n - 1);
            move.to = std::min(move.to, n - 1);
            if (move.from != move.to) {
                physical.push_back(std::move(move));
            }
        }
        round = std::move(physical);
    }
    return kept;
}

/// Companions (paper §5.2): full node v of the 2^⌊lg n⌋-node schedule is processor 2v for v < c and v + c otherwise
/// (c = n − 2^⌊lg n⌋), and 2v + 1 is its companion, served in one last round. The paper assumes the root is a full
/// node; when the root is a companion 2v + 1 we swap the pair's roles (2v + 1 full, 2v its companion), which keeps
/// every companion next to its full node.
Rounds apply_companions(int n, int root, int K, Rounds (*build)(int, int, int), int nu, int* full_root_out = nullptr) {
    const int D = floor_log2(n);
    const int F = 1 << D;
    const int c = n - F;
    const int swapped = (root < 2 * c && root % 2 == 1) ? root / 2 : -1;
    const auto full = [&](int v) { return v < c ? (v == swapped ? 2 * v + 1 : 2 * v) : v + c; };
    const auto companion = [&](int v) { return v == swapped ? 2 * v : 2 * v + 1; };
    const int full_root = root < 2 * c ? root / 2 : root - c;
    if (full_root_out != nullptr) {
        *full_root_out = full_root;
    }
    Rounds rounds = build(D, full_root, nu);
    for (auto& round : rounds) {
        for (Move& move : round) {
            move.from = full(move.from);
            move.to = full(move.to);
        }
    }
    if (c > 0) {
        std::vector<Move> last;
        for (int v = 0; v < c; ++v) {
            last.push_back({full(v), companion(v), block(0, K)});
        }
        rounds.push_back(std::move(last));
    }
    return rounds;
}

/// Sorted packet numbers as arithmetic progressions (greedy, longest first run).
void compress(int from, int to, std::vector<int> packets, std::vector<BcastSend>& out) {
    std::sort(packets.begin(), packets.end());
    std::size_t i = 0;
    while (i < packets.size()) {
        if (i + 1 == packets.size()) {
            out.push_back({from, to, packets[i], 1, 1});
            break;
        }
        const int stride = packets[i + 1] - packets[i];
        std::size_t j = i + 1;
        while (j + 1 < packets.size() && packets[j + 1] - packets[j] == stride) {
            ++j;
        }
        out.push_back({from, to, packets[i], static_cast<int>(j - i + 1), stride});
        i = j + 1;
    }
}

/// Simulates the rounds on P processors from the root: a packet is carried only to a processor that does not have it
/// yet and not twice in one round; every send must start from data the sender held before the round (else the
/// construction is wrong: std::logic_error). Sends between the same pair in a round are merged, empty rounds dropped.
BcastSchedule finish(int P, int root, int K, const Rounds& rounds, bool require_complete) {
    std::vector<std::vector<char>> held(static_cast<std::size_t>(P), std::vector<char>(static_cast<std::size_t>(K), 0));
    std::fill(held[static_cast<std::size_t>(root)].begin(), held[static_cast<std::size_t>(root)].end(), 1);
    BcastSchedule schedule{P, root, K, {}};
    for (const auto& round : rounds) {
        auto incoming = std::vector<std::vector<char>>(static_cast<std::size_t>(P),
                                                       std::vector<char>(static_cast<std::size_t>(K), 0));
        std::vector<Move> merged;
        for (const Move& move : round) {
            const auto from = static_cast<std::size_t>(move.from);
            const auto to = static_cast<std::size_t>(move.to);
            std::vector<int> fresh;
            for (const int p : move.packets) {
                const auto q = static_cast<std::size_t>(p);
                if (held[to][q] != 0 || incoming[to][q] != 0) {
                    continue;
                }
                if (held[from][q] == 0) {
                    throw std::logic_error("llc: broadcast schedule sends packet " + std::to_string(p) + " from " +
                                           std::to_string(move.from) + " before it arrived there");
                }
                incoming[to][q] = 1;
                fresh.push_back(p);
            }
            if (fresh.empty()) {
                continue;
            }
            const auto same = std::find_if(
                merged.begin(), merged.end(), [&](const Move& m) { return m.from == move.from && m.to == move.to; });
            if (same == merged.end()) {
                merged.push_back({move.from, move.to, std::move(fresh)});
            } else {
                same->packets.insert(same->packets.end(), fresh.begin(), fresh.end());
            }
        }
        if (merged.empty()) {
            continue;
        }
        for (std::size_t x = 0; x < held.size(); ++x) {
            for (std::size_t q = 0; q < held[x].size(); ++q) {
                held[x][q] = static_cast<char>(held[x][q] | incoming[x][q]);
            }
        }
        std::vector<BcastSend> sends;
        for (Move& move : merged) {
            compress(move.from, move.to, std::move(move.packets), sends);
        }
        schedule.rounds.push_back(std::move(sends));
    }
    if (require_complete) {
        for (const auto& packets : held) {
            if (std::find(packets.begin(), packets.end(), 0) != packets.end()) {
                throw std::logic_error("llc: broadcast schedule leaves a processor without part of the message");
            }
        }
    }
    return schedule;
}

void check_p_root(const char* function, int P, int root) {
    if (P < 1) {
        throw_argument_error(function, "P", std::to_string(P), "must be at least 1");
    }
    if (root < 0 || root >= P) {
        throw_argument_error(function, "root", std::to_string(root), "must be in [0, P = " + std::to_string(P) + ")");
    }
}

void check_nu(const char* function, int P, int nu, Padding padding, int largest) {
    if (nu < 0) {
        throw_argument_error(function, "nu", std::to_string(nu), "must be >= 0");
    }
    if (P == 1) {
        return;
    }
    if (nu > 0 && padding == Padding::virtual_nodes) {
        throw_argument_error(function,
                             "padding",
                             "virtual_nodes",
                             "virtual nodes apply only with nu = 0 (paper §5.1); use Padding::companions");
    }
    if (nu > largest) {
        throw_argument_error(function,
                             "nu",
                             std::to_string(nu),
                             "must be at most " + std::to_string(largest) + " for P = " + std::to_string(P));
    }
}

Rounds st_builder(int D, int k, int nu) {
    return st_rounds(D, k, nu);
}
Rounds bst_builder(int D, int k, int nu) {
    return D == 0 ? Rounds{} : bst_rounds(D, k, nu);
}
Rounds rh_builder(int D, int k, int /*nu*/) {
    return rh_rounds(D, k);
}

// ---- The chooser ---------------------------------------------------------------------------------------------------

BcastChooser& installed_chooser() {
    static BcastChooser chooser;
    return chooser;
}

}  // namespace

std::string_view to_string(Bcast algorithm) {
    switch (algorithm) {
        case Bcast::mpi:
            return "mpi";
        case Bcast::binomial:
            return "binomial";
        case Bcast::bidirectional:
            return "bidirectional";
        case Bcast::recursive_halving:
            return "recursive_halving";
        case Bcast::automatic:
            return "automatic";
    }
    return "unknown";
}

std::string_view bcast_superstep_name(Bcast algorithm) {
    switch (algorithm) {
        case Bcast::binomial:
            return "bcast.st";
        case Bcast::bidirectional:
            return "bcast.bst";
        case Bcast::recursive_halving:
            return "bcast.rh";
        default:
            return "bcast";
    }
}

std::pair<std::size_t, std::size_t> packet_bounds(std::size_t n, int packets, int q) {
    const auto K = static_cast<std::size_t>(packets);
    const auto bound = [&](std::size_t i) { return i * (n / K) + i * (n % K) / K; };  // ⌊i·n/K⌋ without overflow
    return {bound(static_cast<std::size_t>(q)), bound(static_cast<std::size_t>(q) + 1)};
}

BcastSchedule binomial_schedule(int P, int root, int nu, Padding padding) {
    const char* function = "llc::binomial_schedule";
    check_p_root(function, P, root);
    check_nu(function, P, nu, padding, floor_log2(P));
    if (P == 1) {
        return BcastSchedule{1, 0, 1, {}};
    }
    const int K = 1 << nu;
    if (is_power_of_two(P)) {
        return finish(P, root, K, st_rounds(floor_log2(P), root, nu), true);
    }
    if (padding == Padding::virtual_nodes) {
        const int D = ceil_log2(P);
        return finish(P, root, K, apply_virtual_nodes(st_rounds(D, root, 0), P, 1 << D, K), true);
    }
    return finish(P, root, K, apply_companions(P, root, K, st_builder, nu), true);
}

BcastSchedule bidirectional_schedule(int P, int root, int nu, Padding padding) {
    const char* function = "llc::bidirectional_schedule";
    check_p_root(function, P, root);
    check_nu(function, P, nu, padding, floor_log2(P) - 1);
    if (P == 1) {
        return BcastSchedule{1, 0, 2, {}};
    }
    const int K = 2 << nu;
    if (is_power_of_two(P)) {
        return finish(P, root, K, bst_rounds(floor_log2(P), root, nu), true);
    }
    if (padding == Padding::virtual_nodes) {
        const int D = ceil_log2(P);
        return finish(P, root, K, apply_virtual_nodes(bst_rounds(D, root, 0), P, 1 << D, K), true);
    }
    return finish(P, root, K, apply_companions(P, root, K, bst_builder, nu), true);
}

BcastSchedule recursive_halving_schedule(int P, int root) {
    check_p_root("llc::recursive_halving_schedule", P, root);
    const int K = 1 << floor_log2(P);
    if (P == 1) {
        return BcastSchedule{1, 0, 1, {}};
    }
    return finish(P, root, K, apply_companions(P, root, K, rh_builder, 0), true);
}

BcastSchedule distribute_schedule(int P, int root) {
    const char* function = "llc::distribute_schedule";
    check_p_root(function, P, root);
    if (!is_power_of_two(P)) {
        throw_argument_error(function, "P", std::to_string(P), "must be a power of two");
    }
    Rounds rounds;
    append_distribute(rounds, floor_log2(P), 0, root, 1);
    return finish(P, root, P, rounds, false);
}

BcastSchedule bcast_schedule(Bcast algorithm, int P, int root) {
    switch (algorithm) {
        case Bcast::binomial:
            return binomial_schedule(P, root);
        case Bcast::bidirectional:
            return bidirectional_schedule(P, root);
        case Bcast::recursive_halving:
            return recursive_halving_schedule(P, root);
        case Bcast::mpi:
        case Bcast::automatic:
            break;
    }
    throw_argument_error("llc::bcast_schedule",
                         "algorithm",
                         std::string(to_string(algorithm)),
                         "has no schedule (binomial, bidirectional or recursive_halving)");
}

void set_bcast_chooser(BcastChooser chooser) {
    installed_chooser() = std::move(chooser);
}

Bcast choose_bcast(int P, std::size_t bytes) {
    const BcastChooser& chooser = installed_chooser();
    return chooser ? chooser(P, bytes) : default_bcast_choice(P, bytes);
}

Bcast default_bcast_choice(int P, std::size_t bytes) {
    if (P <= 1) {
        return Bcast::binomial;
    }
    const double m = static_cast<double>(bytes);
    const double a = default_bcast_per_byte;
    const double b = default_bcast_startup;
    const double rho = default_bcast_copy_per_byte;
    const double up = ceil_log2(P);
    const int d = floor_log2(P);
    const double st = up * (m * a + b);
    const double bst = (up + 1.0) * (m * a / 2.0 + b);
    double rh = (2.0 + (d - 2.0) / 2.0 - 1.0 / static_cast<double>(1 << d)) * m * a + 2.0 * d * b + m * rho;
    if (!is_power_of_two(P)) {
        rh += m * a + b;
    }
    if (st <= bst && st <= rh) {
        return Bcast::binomial;
    }
    return bst <= rh ? Bcast::bidirectional : Bcast::recursive_halving;
}

}  // namespace llc
