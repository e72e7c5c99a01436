#pragma once
/// @file
/// Models: how one communication and one division are priced. One algorithm cost function (an Expr), many models.
///
/// What h means. A model prices collective f on P processors with h = the `bytes` the llc layer records for that
/// collective in TraceNode::bytes (the same quantity llc-probe varies when it measures T_f), so that a prediction and
/// a measurement speak of the same h:
///
/// - bcast: the broadcast buffer; m = h.
/// - reduce, allreduce: one processor's input; m = h.
/// - gather(v): one processor's contribution; scatter(v): one processor's block; block m = h.
/// - allgather: the whole result (contribution × P); alltoall: one processor's whole send buffer; block m = h / P.
/// - barrier: 0.
/// - swap, shift: bytes sent + bytes received by one processor; m = h / 2 each way (swap with a partner, shift to the
///   next processor on the ring and from the previous one: the same one-to-one pattern for the analytic models).
/// - division: result bytes sent + received by one processor; m = h / 2 each way.
///
/// A model throws llc::Error naming the function for a collective it does not know, for P < 1 or h < 0.
/// On P = 1 the analytic models charge nothing for communication (no message is sent); CCM charges what was measured.

#include <array>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <llc/cost/profile.hpp>

namespace llc::cost {

/// Seconds of one priced communication, and whether the price rests on extrapolated measurements.
struct Price {
    double seconds = 0.0;
    bool extrapolated = false;
};

/// How a superstep's communication is priced.
class Model {
  public:
    virtual ~Model() = default;
    /// "ccm", "bsp", "loggp", "hockney", "p3pc", "c3" (or a variant: "p3pc-loggp*").
    [[nodiscard]] virtual std::string name() const = 0;
    /// T_f(P, h) in seconds: collective `f` (an llc operation name; v-variants accepted) of h bytes on P processors.
    [[nodiscard]] virtual Price collective(std::string_view f, int P, double bytes) const = 0;
    /// T_g: the division of P processors into subgroups of `sizes` (r = sizes.size() tasks; all ones when P < r)
    /// with h bytes of results sent + received by one processor in the exchange.
    [[nodiscard]] virtual DivisionLookup division(int P, std::span<const int> sizes, double bytes) const = 0;

  protected:
    Model() = default;
    Model(const Model&) = default;
    Model& operator=(const Model&) = default;
};

/// The CCM (default): the profile's measured T_f(P, h) and T_g(P, h) (split + exchange + rejoin), interpolated in P.
/// Cost: CCM paper §2, Φ = W + T_f for a normal superstep, T_g + max Φ(task) for a division.
class CCM final : public Model {
  public:
    explicit CCM(Profile profile);
    [[nodiscard]] std::string name() const override { return "ccm"; }
    [[nodiscard]] Price collective(std::string_view f, int P, double bytes) const override;
    [[nodiscard]] DivisionLookup division(int P, std::span<const int> sizes, double bytes) const override;
    [[nodiscard]] const Profile& profile() const noexcept { return profile_; }

  private:
    Profile profile_;
};

/// BSP (Valiant): a superstep moving an h-relation (the most bytes one processor sends or receives) costs g·h + l,
/// with g and l per P. Collectives as one superstep of their direct algorithm (bcast, scatter, gather, reduce: the
/// root sends or receives (P−1)·m; allgather, alltoall: (P−1)·m each), allreduce as reduce-scatter + allgather
/// (2 supersteps of (P−1)·m/P), barrier l, swap, shift and division exchange one superstep of h/2.
class BSP final : public Model {
  public:
    /// @throws llc::Error if the profile has no BSP parameters.
    explicit BSP(const Profile& profile);
    /// From a table P → (g, l), interpolated in log P. @throws llc::Error if empty.
    explicit BSP(std::map<int, BSPParams> table);
    [[nodiscard]] std::string name() const override { return "bsp"; }
    [[nodiscard]] Price collective(std::string_view f, int P, double bytes) const override;
    [[nodiscard]] DivisionLookup division(int P, std::span<const int> sizes, double bytes) const override;

  private:
    [[nodiscard]] BSPLookup params(int P) const;
    std::map<int, BSPParams> table_;
};

/// LogGP: a message of m bytes costs T(m) = L + 2o + (m − 1)·G (m ≥ 1; L + 2o for m = 0); k messages of m bytes
/// from one processor cost T(m) + (k − 1)·max(g, o + (m − 1)·G). Collectives by their standard algorithms with
/// R = ⌈log2 P⌉ rounds: bcast, reduce, allreduce (recursive doubling) R·T(m); gather, scatter (binomial tree)
/// R·(L + 2o) + (P − 1)·m·G; allgather (recursive doubling) R·(L + 2o) + (P − 1)·(h/P)·G; alltoall (pairwise, P − 1
/// messages of h/P) as k messages; barrier R·T(0); swap and shift T(h/2); division exchange (r − 1 messages of h / (2(r
/// − 1))).
class LogGP final : public Model {
  public:
    explicit LogGP(const LogGPParams& params);
    /// @throws llc::Error if the profile has no LogGP parameters.
    explicit LogGP(const Profile& profile);
    [[nodiscard]] std::string name() const override { return "loggp"; }
    [[nodiscard]] Price collective(std::string_view f, int P, double bytes) const override;
    [[nodiscard]] DivisionLookup division(int P, std::span<const int> sizes, double bytes) const override;
    /// T(m) of one message.
    [[nodiscard]] double message(double bytes) const noexcept;
    /// k messages of m bytes from one processor, back to back.
    [[nodiscard]] double messages(int k, double bytes) const noexcept;

  private:
    LogGPParams p_;
};

/// Hockney: a message of m bytes costs α + β·m. Collectives by their standard algorithms with R = ⌈log2 P⌉ rounds:
/// bcast, reduce (binomial tree), allreduce (recursive doubling) R·(α + β·m); gather, scatter (binomial tree)
/// R·α + (P − 1)·β·m; allgather (recursive doubling) R·α + (P − 1)·β·h/P; alltoall (pairwise) (P − 1)·(α + β·h/P);
/// barrier R·α; swap and shift α + β·h/2; division exchange (r − 1)·α + β·h/2.
class Hockney final : public Model {
  public:
    explicit Hockney(const HockneyParams& params);
    /// @throws llc::Error if the profile has no Hockney parameters.
    explicit Hockney(const Profile& profile);
    [[nodiscard]] std::string name() const override { return "hockney"; }
    [[nodiscard]] Price collective(std::string_view f, int P, double bytes) const override;
    [[nodiscard]] DivisionLookup division(int P, std::span<const int> sizes, double bytes) const override;

  private:
    HockneyParams p_;
};

/// Options of the P-3PC model.
struct P3PCOptions {
    /// The layout of the collectives' buffers (llc's collectives move contiguous spans: cc).
    Layout layout = Layout::cc;
    /// Price as the paper's "LogGP*" reduction (§5: g = t_cs, L = t_cf, G = t_af,cc): send and receive paths
    /// t_cs + T_full,cc(n) − t_cf, full path T_full,cc(n), for every layout.
    bool loggp_star = false;
};

/// P-3PC (Seinstra & Koelma): three paths (send, receive, full) per layout, each piecewise linear in the bytes,
/// from the profile's point-to-point table. Collectives as trees of blocking sends, priced as the worst of the busiest
/// processor and the critical path (paper Fig. 6): bcast (binomial) max(R·T_send(m), R·T_full(m)); reduce (binomial)
/// max(R·T_recv(m), R·T_full(m)); allreduce reduce + bcast; scatter and gather as the paper's SBT scatter / gather of
/// P·m bytes (all contiguous); allgather gather + bcast of h; alltoall P − 1 rounds of max(T_send, T_recv,
/// T_full)(h/P); barrier R·T_full(0); swap and shift T_full(h/2); division exchange (r − 1)·T_full(h / (2(r − 1))).
class P3PC final : public Model {
  public:
    /// @throws llc::Error naming the missing (path, layout) if the profile's point-to-point table is incomplete.
    explicit P3PC(const Profile& profile, P3PCOptions options = {});
    [[nodiscard]] std::string name() const override { return options_.loggp_star ? "p3pc-loggp*" : "p3pc"; }
    [[nodiscard]] Price collective(std::string_view f, int P, double bytes) const override;
    [[nodiscard]] DivisionLookup division(int P, std::span<const int> sizes, double bytes) const override;

    /// T_path,M(n) for n bytes (under loggp_star, the LogGP* view).
    [[nodiscard]] double time(Path path, Layout layout, double bytes) const;

    // The paper's estimators (Fig. 6), sizes in bytes. X is the number of processors in the x direction of the
    // logical X×Y grid (row-major images: X = 1 gives contiguous strips).
    /// One-level flat tree scatter of `block` bytes to each of P processors: M = (X == 1) ? cc : nc,
    /// max((P − 1)·T_send,M(block), (P − 2)·T_send,M(block) + T_full,M(block)).
    [[nodiscard]] double oft_scatter(int P, int X, double block) const;
    /// Gather counterpart (paper: nc → cn, T_send → T_recv).
    [[nodiscard]] double oft_gather(int P, int X, double block) const;
    /// Spanning binomial tree scatter of `total` bytes: the root's i-th message (i = 1..log2 P) carries total / 2^i
    /// bytes (the paper prints total/(2·i); total/2^i is meant — digest §7), cc for i ≤ log2 P − log2 X, nc after;
    /// max(Σ T_send, Σ T_full). P and X powers of two.
    [[nodiscard]] double sbt_scatter(int P, int X, double total) const;
    /// Gather counterpart (cn, T_recv).
    [[nodiscard]] double sbt_gather(int P, int X, double total) const;
    /// Border exchange (paper Fig. 6): 2·T_full,nn(vertical) + 2·T_full,cc(horizontal), where `vertical` = bw·imh and
    /// `horizontal` = (imw + 2·bw)·bh bytes; a pair of terms is dropped when that direction has no neighbours
    /// (`left_right` false for X = 1, `up_down` false for Y = 1).
    [[nodiscard]] double border_exchange(double vertical,
                                         double horizontal,
                                         bool left_right = true,
                                         bool up_down = true) const;

  private:
    const Piecewise& table(Path path, Layout layout) const;
    std::array<Piecewise, 12> table_;
    P3PCOptions options_;
};

// ---- C³ (Hambrusch & Khokhar) ---------------------------------------------------------------------------------------

enum class C3Routing { store_and_forward, wormhole };
enum class C3SendMode { nonblocking, blocking };

/// A machine as C³ sees it, in units (one unit = one packet moved one step).
struct C3Machine {
    int p = 1;         ///< processors
    double h = 0.0;    ///< latency: average distance (Σ_{i,j} d_ij) / p²
    double b = 1.0;    ///< bisection width
    double l = 512.0;  ///< packet length, bytes
    double s = 0.0;    ///< set-up cost of one message, in units
};

/// Latency h of a p-processor topology from the definition (average distance over all p² ordered pairs, i = j
/// included): complete (p − 1)/p, linear array (p² − 1)/(3p), ring, mesh (the most nearly square k×k′ with k·k′ = p:
/// (k² − 1)/(3k) + (k′² − 1)/(3k′)), hypercube log2(p)/2 (p a power of two).
[[nodiscard]] double c3_latency(C3Topology topology, int p);
/// Bisection width: complete ⌊p/2⌋·⌈p/2⌉, linear array 1, ring 2, mesh k (shorter side), hypercube p/2.
[[nodiscard]] double c3_bisection(C3Topology topology, int p);
/// Average distance of a k×k2 mesh (the definition, exact).
[[nodiscard]] double c3_mesh_latency(int k, int k2);

struct C3Options {
    C3Routing routing = C3Routing::wormhole;
    C3SendMode send = C3SendMode::nonblocking;
    /// false drops the ⌈·⌉ of packet counts ⌈L/l⌉ (the paper does for power-of-two sizes, §4.1); the step counts
    /// ⌈cong/b⌉ and ⌈cong/p⌉ of the congestion terms keep theirs.
    bool ceilings = true;
};

/// One message of a superstep: `bytes` from processor `from` to processor `to`.
struct C3Message {
    int from = 0;
    int to = 0;
    double bytes = 0.0;
};

/// Communication units of one superstep: max_i (S_i + R_i) + C_l + C_p (paper §2.2).
struct C3Units {
    double send_recv = 0.0;  ///< max_i (S_i + R_i), set-ups included
    double link = 0.0;       ///< C_l = L_a·⌈cong / b⌉
    double processor = 0.0;  ///< C_p = L_a·⌈cong / p⌉·h
    double setups = 0.0;     ///< set-ups charged to the processor attaining the max (the paper's "k·s")
    double cong = 0.0;       ///< communicating pairs
    double L_a = 0.0;        ///< average packets per communicating pair
    [[nodiscard]] double total() const noexcept { return send_recv + link + processor; }
};

/// Units of a superstep given by its messages (paper Figs. 2–3 and the congestion metric). Messages of 0 bytes and
/// from a processor to itself are ignored. @throws llc::Error for a processor index outside [0, p).
[[nodiscard]] C3Units c3_superstep(const C3Machine& machine,
                                   std::span<const C3Message> messages,
                                   const C3Options& options = {});

/// The regular patterns of paper Fig. 4 with every message of L bytes, source/destination t = 0.
enum class C3Pattern { one_to_one, one_to_all, all_to_one, all_to_all };
/// Units of a pattern by direct sends. `paper_approximation` makes the paper's §4 simplifications: p is written for
/// p − 1 (so the source of a one-to-all sends p messages) and ⌈L/l⌉ is dropped.
[[nodiscard]] C3Units c3_pattern(const C3Machine& machine,
                                 C3Pattern pattern,
                                 double L,
                                 const C3Options& options = {},
                                 bool paper_approximation = false);
/// Computation units of a superstep: max_i ⌈t_i / l⌉ for t_i bytes accessed by processor i (paper §2.1).
[[nodiscard]] double c3_computation_units(std::span<const double> bytes_accessed, double l);

/// C³ as a Model: the profile's C³ parameters (s = setup / packet_time units; topology gives h and b for P), each
/// collective by direct sends (paper Fig. 4, exact p − 1 and ceilings, wormhole, non-blocking): bcast and scatter
/// one-to-all of m, gather and reduce all-to-one of m, allreduce both, allgather and alltoall all-to-all of h/P,
/// barrier all-to-one + one-to-all of 0 bytes, swap and shift one-to-one of h/2, division exchange a superstep in which
/// every processor sends h / (2(r − 1)) to one partner in each other subgroup. Seconds = units × packet_time.
class C3 final : public Model {
  public:
    explicit C3(const C3Params& params, C3Options options = {});
    /// @throws llc::Error if the profile has no C³ parameters.
    explicit C3(const Profile& profile, C3Options options = {});
    [[nodiscard]] std::string name() const override { return "c3"; }
    [[nodiscard]] Price collective(std::string_view f, int P, double bytes) const override;
    [[nodiscard]] DivisionLookup division(int P, std::span<const int> sizes, double bytes) const override;
    /// The machine of P processors in units.
    [[nodiscard]] C3Machine machine(int P) const;

  private:
    C3Params params_;
    C3Options options_;
};

/// The names make_model accepts: ccm, bsp, loggp, hockney, p3pc, p3pc-loggp*, c3.
[[nodiscard]] const std::vector<std::string>& model_names();
/// A model by name over `profile`. @throws llc::Error naming the model (unknown name) or the missing profile field.
[[nodiscard]] std::unique_ptr<Model> make_model(std::string_view name, const Profile& profile);

}  // namespace llc::cost
