#pragma once
/// @file
/// Seidel's broadcasts as pure schedules, without MPI: the spanning binomial tree (ST), the bidirectional spanning
/// tree (BST) and recursive halving (RH), from any root, on any number of processors; and the choice of algorithm
/// for Bcast::automatic. llc::bcast (<llc/broadcast.hpp>) runs these schedules over MPI; the cost layer
/// (<llc/cost/seidel.hpp>) prices them and installs a chooser, and needs nothing of MPI for that.
///
/// Source: S. R. Seidel, "Broadcasting on Linear Arrays and Meshes", ORNL/TM-12356, 1993 (the "paper" below). The
/// algorithms are the linear-array ones with ν = 0 (§3.1.1, §3.3.1, §3.5), generalised to any root by XOR-ing the
/// root-0 trees with the root (§4) and to any P by the paper's own choices (§5): virtual nodes for ST and BST (node
/// P−1 stands in for the 2^⌈lg P⌉ − P virtual nodes to its right; §5.3 says that is never dearer than companions for
/// these two), companions for RH (virtual nodes are "not worthwhile" for RH, §5.1). The ν > 0 variants (§3.1.2,
/// §3.3.2, §4.2) are available as schedules for study; llc::bcast runs ν = 0.
///
/// A schedule is rounds of (from, to, packets) sends, where the message is cut into `packets` nearly equal pieces of
/// whole elements (packet_bounds).

#include <cstddef>
#include <functional>
#include <string_view>
#include <utility>
#include <vector>

namespace llc {

/// Which broadcast llc::bcast runs.
enum class Bcast {
    mpi,                ///< MPI_Bcast on the group's communicator
    binomial,           ///< ST: spanning binomial tree, whole message per send (paper §3.1.1, §4.1, §5.1)
    bidirectional,      ///< BST: two half-message trees in opposite directions (paper §3.3.1, §4.3, §5.1)
    recursive_halving,  ///< RH: distribute (scatter) then farthest-first exchanges (paper §3.5, §4.4, §5.2)
    automatic,          ///< the algorithm the installed chooser names (see set_bcast_chooser)
};

/// "mpi", "binomial", "bidirectional", "recursive_halving", "automatic".
[[nodiscard]] std::string_view to_string(Bcast algorithm);

/// The name of llc::bcast's superstep in the trace: "bcast.st", "bcast.bst", "bcast.rh" for Seidel's algorithms,
/// "bcast" for Bcast::mpi (the collective's own name) and anything else. The cost models read these names back to
/// price a traced broadcast by its algorithm: one spelling for both sides.
[[nodiscard]] std::string_view bcast_superstep_name(Bcast algorithm);

/// How a schedule serves a P that is not a power of two (paper §5).
enum class Padding {
    virtual_nodes,  ///< run on 2^⌈lg P⌉ nodes; node P−1 simulates the virtual ones (§5.1; ST and BST with ν = 0)
    companions,  ///< run on 2^⌊lg P⌋ "full" nodes, then each of the first c = P − 2^⌊lg P⌋ sends to its right
                 ///< neighbour, its companion (§5.2; any algorithm, any ν)
};

/// One message of a round: `from` sends packets first, first + stride, …, (count of them) to `to`.
struct BcastSend {
    int from = 0;
    int to = 0;
    int first = 0;
    int count = 1;
    int stride = 1;
    friend bool operator==(const BcastSend&, const BcastSend&) = default;
    friend auto operator<=>(const BcastSend&, const BcastSend&) = default;
};

/// A broadcast schedule on P processors: the message is cut into `packets` pieces (packet_bounds) and moved in
/// `rounds`; within a round every send starts from data its sender held before the round. Each processor receives
/// each packet exactly once (the root none); no round carries a packet to a processor that already has it.
struct BcastSchedule {
    int P = 1;
    int root = 0;
    int packets = 1;
    std::vector<std::vector<BcastSend>> rounds;
};

/// Element range [begin, end) of packet q when n elements are cut into `packets` pieces: ⌊q·n/packets⌋ …
/// ⌊(q+1)·n/packets⌋. Pieces differ by at most one element; some are empty when n < packets.
[[nodiscard]] std::pair<std::size_t, std::size_t> packet_bounds(std::size_t n, int packets, int q);

/// ST (paper §3.1): for ν = 0 a spanning binomial tree XOR-ed with the root (§4.1), one packet; for ν > 0 a distribute
/// inside the root's metanode of 2^ν processors, 2^ν concurrent trees over the metanodes, and a nearest-first
/// exchange inside every metanode (§3.1.2, §4.2), 2^ν packets. @param nu 0 ≤ ν ≤ ⌊lg P⌋; ν > 0 needs companions.
/// @throws llc::Error on P < 1, a root outside [0, P), a bad ν or virtual nodes with ν > 0.
[[nodiscard]] BcastSchedule binomial_schedule(int P, int root, int nu = 0, Padding padding = Padding::virtual_nodes);

/// BST (paper §3.3): the root sends half to its bitwise complement, two ST trees over the interleaved halves run in
/// opposite directions, and neighbours exchange halves (§3.3.1, §4.3); for ν > 0 over metanodes of 2^ν processors,
/// with a distribute before and a nearest-first exchange after (§3.3.2), 2^(ν+1) packets. @param nu 0 ≤ ν < ⌊lg P⌋
/// (any ν when P = 1); ν > 0 needs companions. @throws llc::Error as binomial_schedule.
[[nodiscard]] BcastSchedule bidirectional_schedule(int P,
                                                   int root,
                                                   int nu = 0,
                                                   Padding padding = Padding::virtual_nodes);

/// RH (paper §3.5, §4.4): a spanning-tree distribute of 2^⌊lg P⌋ packets, then exchanges between processors whose
/// (d−i)th bits differ (farthest first), each sending every packet it has gathered so far; companions for P that is
/// not a power of two (§5.2). @throws llc::Error on P < 1 or a root outside [0, P).
[[nodiscard]] BcastSchedule recursive_halving_schedule(int P, int root);

/// The distribute (scatter) of paper §3.1.1 on P = 2^d processors from `root`: processor j ends with packet j.
/// @throws llc::Error unless P is a power of two and 0 ≤ root < P.
[[nodiscard]] BcastSchedule distribute_schedule(int P, int root);

/// The schedule llc::bcast runs for `algorithm` (binomial, bidirectional or recursive_halving; ν = 0; the paper's §5
/// padding). @throws llc::Error for Bcast::mpi and Bcast::automatic, which have no schedule.
[[nodiscard]] BcastSchedule bcast_schedule(Bcast algorithm, int P, int root);

/// Picks the algorithm for Bcast::automatic from the group size P and the message length in bytes. It must return
/// the same answer on every processor (llc::bcast checks that) and must not return Bcast::automatic.
using BcastChooser = std::function<Bcast(int P, std::size_t bytes)>;

/// Installs the chooser that Bcast::automatic asks (process-wide; install the same one on every processor). An empty
/// function restores default_bcast_choice. The cost layer installs one that prices the algorithms with the machine's
/// parameters (llc::cost::seidel::install_chooser).
void set_bcast_chooser(BcastChooser chooser);

/// What Bcast::automatic resolves to for P processors and `bytes`: the installed chooser's answer, else
/// default_bcast_choice.
[[nodiscard]] Bcast choose_bcast(int P, std::size_t bytes);

/// Per-hop start-up b, per-byte time a and in-node per-byte copy time ρ (seconds) of default_bcast_choice: a
/// Hockney-like guess for one switched node or a small cluster, b = 2 µs, a = 0.2 ns/B (5 GB/s), ρ = 0.1 ns/B
/// (10 GB/s). They are a fallback only; calibrate and install the cost layer's chooser for real decisions.
inline constexpr double default_bcast_startup = 2e-6;
inline constexpr double default_bcast_per_byte = 2e-10;
inline constexpr double default_bcast_copy_per_byte = 1e-10;

/// The chooser used when none is installed: the cheapest of ST, BST and RH under the paper's own costs for ν = 0 at
/// the default constants above, with m = bytes:
///   ST  ⌈lg P⌉(ma + b)                                   (Eq. 1 with virtual nodes, §5.3)
///   BST (⌈lg P⌉ + 1)(ma/2 + b)                           (Eq. 7 with virtual nodes, §5.3)
///   RH  (2 + (d−2)/2 − 1/2^d)ma + 2db + mρ, d = ⌊lg P⌋,  (Table I) plus ma + b when P ≠ 2^d (companions, §5.2).
/// Ties go to the earlier of ST, BST, RH; P = 1 gives Bcast::binomial (nothing is sent).
[[nodiscard]] Bcast default_bcast_choice(int P, std::size_t bytes);

}  // namespace llc
