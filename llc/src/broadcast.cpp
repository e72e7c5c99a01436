// Seidel's broadcasts: pure schedules (rounds of sends) and their execution over point-to-point MPI.
#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include <mpi.h>

#include <llc/broadcast.hpp>
#include <llc/error.hpp>
#include <llc/trace.hpp>

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

int floor_log2(int n) {
    int d = 0;
    while ((2LL << d) <= n) {
        ++d;
    }
    return d;
}

int ceil_log2(int n) {
    int d = 0;
    while ((1LL << d) < n) {
        ++d;
    }
    return d;
}

bool is_power_of_two(int n) {
    return n > 0 && (n & (n - 1)) == 0;
}

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

// ---- Execution
// -------------------------------------------------------------------------------------------------------

namespace detail {
namespace {

/// One processor's part of a round: messages to and from peers, each a list of contiguous packet runs in schedule
/// order (both ends walk the schedule in the same order, so their lists agree).
struct Message {
    int peer = 0;
    std::vector<std::pair<int, int>> runs;  // (first packet, count)
};
struct RankRound {
    std::vector<Message> sends;
    std::vector<Message> recvs;
};
struct Plan {
    int packets = 1;
    std::vector<RankRound> rounds;
};

void add_runs(std::vector<Message>& messages, int peer, const BcastSend& send) {
    auto it = std::find_if(messages.begin(), messages.end(), [&](const Message& m) { return m.peer == peer; });
    if (it == messages.end()) {
        messages.push_back({peer, {}});
        it = messages.end() - 1;
    }
    if (send.stride == 1 || send.count == 1) {
        it->runs.emplace_back(send.first, send.count);
        return;
    }
    for (int i = 0; i < send.count; ++i) {
        it->runs.emplace_back(send.first + i * send.stride, 1);
    }
}

std::shared_ptr<const Plan> plan_for(Bcast algorithm, int P, int root, int me) {
    static std::mutex mutex;
    static std::map<std::tuple<int, int, int, int>, std::shared_ptr<const Plan>> cache;
    const auto key = std::make_tuple(static_cast<int>(algorithm), P, root, me);
    {
        const std::lock_guard<std::mutex> lock(mutex);
        const auto it = cache.find(key);
        if (it != cache.end()) {
            return it->second;
        }
    }
    const BcastSchedule schedule = bcast_schedule(algorithm, P, root);
    auto plan = std::make_shared<Plan>();
    plan->packets = schedule.packets;
    for (const auto& round : schedule.rounds) {
        RankRound mine;
        for (const BcastSend& send : round) {
            if (send.from == me) {
                add_runs(mine.sends, send.to, send);
            }
            if (send.to == me) {
                add_runs(mine.recvs, send.from, send);
            }
        }
        plan->rounds.push_back(std::move(mine));
    }
    const std::lock_guard<std::mutex> lock(mutex);
    if (cache.size() >= 256) {
        cache.clear();
    }
    cache.emplace(key, plan);
    return plan;
}

/// Byte segments (offset, length) of a message's packet runs, adjacent ones merged; empty segments left out.
std::vector<std::pair<std::size_t, std::size_t>> segments(const Message& message,
                                                          std::size_t n,
                                                          std::size_t elem_size,
                                                          int packets) {
    std::vector<std::pair<std::size_t, std::size_t>> result;
    for (const auto& [first, count] : message.runs) {
        const std::size_t begin = packet_bounds(n, packets, first).first * elem_size;
        const std::size_t end = packet_bounds(n, packets, first + count - 1).second * elem_size;
        if (end == begin) {
            continue;
        }
        if (!result.empty() && result.back().first + result.back().second == begin) {
            result.back().second += end - begin;
        } else {
            result.emplace_back(begin, end - begin);
        }
    }
    return result;
}

std::size_t total(const std::vector<std::pair<std::size_t, std::size_t>>& parts) {
    std::size_t sum = 0;
    for (const auto& part : parts) {
        sum += part.second;
    }
    return sum;
}

void run_plan(const Plan& plan, std::byte* data, std::size_t n, std::size_t elem_size, MPI_Comm comm) {
    constexpr int tag_base = 7400;
    const char* function = "llc::bcast";
    for (std::size_t r = 0; r < plan.rounds.size(); ++r) {
        const RankRound& round = plan.rounds[r];
        const int tag = tag_base + static_cast<int>(r % 1000);
        std::vector<MPI_Request> requests;
        std::vector<std::vector<std::byte>> staging;
        staging.reserve(round.sends.size() + round.recvs.size());
        // Receives that need unpacking: (staging index, segments).
        std::vector<std::pair<std::size_t, std::vector<std::pair<std::size_t, std::size_t>>>> unpack;
        for (const Message& message : round.recvs) {
            auto parts = segments(message, n, elem_size, plan.packets);
            const std::size_t bytes = total(parts);
            if (bytes == 0) {
                continue;
            }
            const int count = to_count(function, "message bytes", bytes);
            MPI_Request request = MPI_REQUEST_NULL;
            if (parts.size() == 1) {
                check_mpi(MPI_Irecv(data + parts[0].first, count, MPI_BYTE, message.peer, tag, comm, &request),
                          function);
            } else {
                staging.emplace_back(bytes);
                check_mpi(MPI_Irecv(staging.back().data(), count, MPI_BYTE, message.peer, tag, comm, &request),
                          function);
                unpack.emplace_back(staging.size() - 1, std::move(parts));
            }
            requests.push_back(request);
        }
        for (const Message& message : round.sends) {
            const auto parts = segments(message, n, elem_size, plan.packets);
            const std::size_t bytes = total(parts);
            if (bytes == 0) {
                continue;
            }
            const int count = to_count(function, "message bytes", bytes);
            MPI_Request request = MPI_REQUEST_NULL;
            if (parts.size() == 1) {
                check_mpi(MPI_Isend(data + parts[0].first, count, MPI_BYTE, message.peer, tag, comm, &request),
                          function);
            } else {
                staging.emplace_back(bytes);
                std::byte* out = staging.back().data();
                for (const auto& [offset, length] : parts) {  // the permutation cost mρ of the paper
                    std::memcpy(out, data + offset, length);
                    out += length;
                }
                check_mpi(MPI_Isend(staging.back().data(), count, MPI_BYTE, message.peer, tag, comm, &request),
                          function);
            }
            requests.push_back(request);
        }
        if (!requests.empty()) {
            check_mpi(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE), function);
        }
        for (const auto& [index, parts] : unpack) {
            const std::byte* in = staging[index].data();
            for (const auto& [offset, length] : parts) {
                std::memcpy(data + offset, in, length);
                in += length;
            }
        }
    }
}

std::string_view op_name(Bcast algorithm) {
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

bool known(Bcast algorithm) {
    switch (algorithm) {
        case Bcast::mpi:
        case Bcast::binomial:
        case Bcast::bidirectional:
        case Bcast::recursive_halving:
        case Bcast::automatic:
            return true;
    }
    return false;
}

}  // namespace

void bcast_elements(
    Group& g, void* data, std::size_t n, std::size_t elem_size, MPI_Datatype type, int root, Bcast algorithm) {
    const char* function = "llc::bcast";
    const std::size_t bytes = n * elem_size;
    // Agreement first (one allreduce, or nothing when checks are off), so that a bad argument on some ranks only is
    // an error on all of them, never a hang; then the checks every rank now makes the same way.
    Bcast resolved = algorithm;
    if (algorithm == Bcast::automatic) {
        resolved = choose_bcast(g.size(), bytes);
    }
    g.check_same(function,
                 {{"data.size()", static_cast<long long>(n)},
                  {"root", root},
                  {"algorithm", static_cast<long long>(algorithm)},
                  {"algorithm chosen by the installed chooser", static_cast<long long>(resolved)}});
    g.check_root(function, root);
    if (!known(algorithm)) {
        throw_argument_error(
            function, "algorithm", std::to_string(static_cast<int>(algorithm)), "is not a value of llc::Bcast");
    }
    if (resolved == Bcast::automatic || !known(resolved)) {
        throw_argument_error(function,
                             "algorithm",
                             "automatic",
                             "the installed chooser returned " + std::to_string(static_cast<int>(resolved)) +
                                 ", not one of mpi, binomial, bidirectional, recursive_halving");
    }
    const int count = to_count(function, "data.size()", n);
    if (resolved != Bcast::mpi) {
        (void)to_count(function, "data.size_bytes()", bytes);
    }
    const auto body = [&] {
        if (resolved == Bcast::mpi) {
            check_mpi(MPI_Bcast(data, count, type, root, g.native()), function);
        } else if (g.size() > 1) {
            const auto plan = plan_for(resolved, g.size(), root, g.rank());
            run_plan(*plan, static_cast<std::byte*>(data), n, elem_size, g.native());
        }
    };
    auto& recorder = Recorder::instance();
    if (!recorder.on()) {
        body();
        return;
    }
    // The same bookkeeping as Group's collectives: W since the group's previous superstep, then the communication.
    const double start = recorder.now();
    const double last = g.superstep_clock();
    const double begin = last < start ? last : start;
    body();
    const double end = recorder.now();
    recorder.normal(op_name(resolved), g.size(), bytes, begin, start - begin, end - start);
    g.set_superstep_clock(end);
}

}  // namespace detail
}  // namespace llc
