#pragma once
/// @file
/// The machine profile (DESIGN §3): everything the cost models need to price a superstep on one machine, measured
/// once by llc-probe and stored as versioned JSON.
///
/// - T_f(P, h) for every collective f and measured group size P (a Piecewise in h), interpolated between measured P
///   linearly in log P and flagged when extrapolated (CCM paper §2: "piecewise linear in the message size … non-linear
///   in the number P of processors");
/// - the division cost T_g per P: split, swap of h bytes between partners, rejoin;
/// - point-to-point times per P-3PC path (send, receive, full) and layout (cc, cn, nc, nn);
/// - LogGP (L, o, g, G), BSP (g, l per P), Hockney (α, β), C³ (set-up, per-packet time, packet size, topology);
/// - kernel constants (seconds per unit of work, see kernel_probe.hpp) under "<algorithm>.<kernel>" names;
/// - metadata: format version, host, machine, MPI library, date, quick or full.
///
/// Times are seconds, sizes bytes. A missing, corrupt, wrong-version or incomplete profile is an llc::Error that names
/// the file and the field and says how to make one (how_to_make_profile()).

#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <llc/cost/piecewise.hpp>

namespace llc::cost {

/// The JSON format version this build reads and writes.
inline constexpr int profile_format_version = 1;

/// "make one with: mpirun -np 2 build/bin/llc-probe --out FILE" — appended to every profile error.
[[nodiscard]] std::string how_to_make_profile();

/// "FUNCTION: the profile has no kernel constant 'KEY'; llc-probe of llc VERSION writes it: re-calibrate (…)": a cost
/// function never falls back silently when a kernel constant it reads is missing (a profile made by an older
/// llc-probe, or by hand); it throws this. Every key a cost function reads is written by one of the registered probes
/// (checked by tests/tools/cards_test.cpp).
[[nodiscard]] std::string missing_kernel_message(std::string_view function, std::string_view key);

/// Where the profile is looked for: $LLC_PROFILE if set and not empty, else
/// $XDG_CACHE_HOME/llc/profile-<hostname>.json, else $HOME/.cache/llc/profile-<hostname>.json.
[[nodiscard]] std::string default_profile_path();

/// The name under which a collective's cost is stored: the llc operation name with the v-variants folded onto their
/// regular form (gatherv → gather, allgatherv → allgather, scatterv → scatter, alltoallv → alltoall); other names are
/// returned unchanged.
[[nodiscard]] std::string canonical_collective(std::string_view op);

/// The suffix of a collective measured on data that is not in the caches: "swap.cold" is a swap whose buffers the
/// processors have not touched since the caches last held them (llc-probe rotates them through memory larger than
/// the last-level cache). An algorithm that exchanges data it produced or read long ago, a large block, prices the
/// exchange with it where the profile has it: "swap" is measured on the same buffers call after call, in cache up
/// to the cache's size, and a swap of 512 KiB each way took 2–2.5× as long cold on the machine this was written on.
inline constexpr std::string_view cold_suffix = ".cold";

/// The suffix of a cold swap whose sender's data lies on the allocator's ordinary pages: "swap.cold.heap" sends from
/// a buffer as a caller's std::vector gets it (4 KiB pages where transparent huge pages are only on request), where
/// "swap.cold" sends from huge pages (the rotation llc-probe and llc-validate share, as the FFT's own buffers are).
/// Open MPI's single-copy receive reads the sender's pages, and on 4 KiB ones it pays a page-table walk and a pin a
/// page: the FFT's first block exchange at n = 2^24, P = 2 (128 MiB each way) took 22.0 ms from the caller's heap
/// array against 8.6 ms from a huge-page one, 1.24 against 0.37 ms at 2^20 (llc-bench-fft-block, medians of 21,
/// 2026-11-28). An exchange that sends its caller's data prices with it.
inline constexpr std::string_view heap_suffix = ".heap";

/// The suffix of the split-phase SHIFT (Group::shift_start … wait): "shift.overlap" is a shift whose messages are
/// posted, then completed later, with the caller's work in between. llc-probe measures it with no work in between:
/// what the two phases cost by themselves, which cost::Expr::overlapped then hides behind the overlapping work.
inline constexpr std::string_view overlap_suffix = ".overlap";

/// The suffix of a collective whose message its sender has just written: "shift.written" is a shift whose send
/// buffer each processor writes right before the call (untimed), so its lines are dirty in the sender's cache and the
/// receiver's copy must fetch them from the other core, as a ring pipeline sends what it has just computed (the
/// matrix chain's trapezoids). "shift" sends the same unchanged buffer call after call, whose lines the receiver
/// already holds: on the 2-core VM a written shift of 64 KiB–1 MiB each way took 1.7–2.6× as long (loaded; 16 KiB: 3.8
/// against 2.2 µs, 256 KiB: 20.2 against 7.9 µs).
inline constexpr std::string_view written_suffix = ".written";

/// The suffix of a swap priced by partners far apart: "swap.far" is measured with rank r's partner r xor D, D the
/// largest power of two below P, where "swap" pairs r with r xor 1. On a cluster one of the two pairings crosses nodes
/// and the other need not (4 ranks a node: r xor 1 stays on the node, r xor 32 at P = 64 leaves it; placed round-robin
/// over 16 nodes, the other way round), and an exchange between nodes shares the node's link: at P = 64 on the
/// simulated cluster-16x4 the FFT's intra-node swaps of 128 KiB took 0.07–0.13 ms, its inter-node ones 0.49 ms
/// (docs/scaling/eighth-run.md). cost::swap_by_partners (cost/partners.hpp) names the variant a swap of given
/// partners is priced by; a variant without a table of its own ("swap.cold.heap.far") is its near variant's price
/// scaled by swap.far / swap at the same P and h (Profile::collective).
inline constexpr std::string_view far_suffix = ".far";

/// The llc operation a (possibly cold, split-phase, written or far) collective name stands for: canonical_collective
/// without the far, cold, overlap or written suffix ("swap.cold" → "swap", "shift.overlap" → "shift", "shift.written"
/// → "shift", "swap.cold.heap.far" → "swap", "alltoallv" → "alltoall"). Traces record
/// this name; models without a cache state or a split-phase measurement price it.
[[nodiscard]] std::string base_collective(std::string_view op);

/// The communication functions F of the llc layer that every model prices.
[[nodiscard]] const std::vector<std::string>& standard_collectives();

/// Where a profile came from.
struct ProfileMeta {
    std::string host;         ///< hostname of the calibrating run
    std::string machine;      ///< free text: CPU model, cores, network
    std::string mpi_library;  ///< MPI_Get_library_version text
    std::string date;         ///< ISO 8601 date and time of the calibration
    bool quick = false;       ///< true for a `llc-probe --quick` profile
    int world_size = 0;       ///< processors of the calibrating run
    /// The machine's speed while it was calibrated (llc tools' canaries, tools/common/.../timing.hpp): seconds of the
    /// fixed CPU loop and of the 8-byte ring exchange on two processors at full speed; 0 when not recorded. A check or
    /// validation whose canaries differ ran on a machine in another state (this VM's host moves its processors).
    double canary_cpu_s = 0.0;
    double canary_link_s = 0.0;
    /// The median link canary over the calibration's collective samples on two processors: the state most of them
    /// were taken in (the fastest, canary_link_s, says only that the fast state was seen). 0 when not recorded.
    double canary_link_median_s = 0.0;
    /// The fastest throughput canary of the calibration (independent multiply-adds: what a busy sibling hyperthread
    /// slows, timing.hpp). 0 when not recorded.
    double canary_throughput_s = 0.0;
    /// How evenly the processors ran the kernel probes side by side: the median over probes of rank r's constant over
    /// rank 0's, for the rank farthest from 1 (llc::tools::rank_ratio). 1 for identical processors at the same speed;
    /// 0 when not recorded (one processor, no kernel probes, or profiles before it).
    double kernel_rank_ratio = 0.0;
    /// The node's last-level cache in bytes (llc-probe reads it from the system): where an exchange's working set fits
    /// in it, the exchange runs warm (the FFT's block swaps). 0 when not recorded (profiles before it): a cost function
    /// that needs it throws (missing_kernel_message).
    double llc_bytes = 0.0;
    /// The effective last-level cache in bytes: the working set at which the swap's per-byte price, measured at p = 1,
    /// steps from cache to memory speed (cost::effective_cache_bytes, cache_step.hpp), at most llc_bytes. 0 when not
    /// recorded (profiles before it, or no step seen): cache_bytes() is then llc_bytes.
    double effective_llc_bytes = 0.0;
    /// The cache a cost function compares a working set with: effective_llc_bytes when recorded, else llc_bytes.
    [[nodiscard]] double cache_bytes() const noexcept {
        return effective_llc_bytes > 0.0 ? effective_llc_bytes : llc_bytes;
    }
    /// Ranks per node of the calibrating run, nodes in the order of their lowest rank (MPI's shared-memory split):
    /// its T_f(P) were measured in that placement. Empty when not recorded (profiles before the record).
    std::vector<int> nodes;
    /// The node of each rank of the calibrating run (nodes numbered 0, 1, … in the order of their lowest rank, as
    /// `nodes`): which pairs of its swaps crossed nodes (cost/partners.hpp). Empty when not recorded.
    std::vector<int> node_of_rank;
    friend bool operator==(const ProfileMeta&, const ProfileMeta&) = default;
};

/// A value looked up across P (and h): seconds and whether P or h lay outside what was measured.
struct Lookup {
    double seconds = 0.0;
    bool extrapolated = false;
};

/// The cost of a division superstep on P processors (CCM paper §2, T_g): processor assignment (split), the swap of the
/// results between partners (a Piecewise in the bytes one processor sends plus receives), and the rejoin.
struct DivisionCost {
    double split = 0.0;   ///< seconds
    Piecewise exchange;   ///< seconds as a function of bytes sent + received by one processor
    double rejoin = 0.0;  ///< seconds
    friend bool operator==(const DivisionCost&, const DivisionCost&) = default;
};

/// The priced parts of one division: split + exchange + rejoin seconds.
struct DivisionLookup {
    double split = 0.0;
    double exchange = 0.0;
    double rejoin = 0.0;
    bool extrapolated = false;
    [[nodiscard]] double total() const noexcept { return split + exchange + rejoin; }
};

/// P-3PC communication paths (Seinstra & Koelma §3.1): time inside MPI_Send, inside MPI_Recv, and end to end.
enum class Path { send, recv, full };
/// P-3PC memory layouts at sender and receiver (§3.3): c = contiguous, n = non-contiguous; first letter = sender.
enum class Layout { cc, cn, nc, nn };
[[nodiscard]] std::string_view to_string(Path path);
[[nodiscard]] std::string_view to_string(Layout layout);
/// @throws llc::Error for an unknown name.
[[nodiscard]] Path path_from_string(std::string_view name);
[[nodiscard]] Layout layout_from_string(std::string_view name);

/// LogGP parameters (Alexandrov et al.): latency L, overhead o, gap g (seconds), gap per byte G (seconds/byte).
struct LogGPParams {
    double L = 0.0;
    double o = 0.0;
    double g = 0.0;
    double G = 0.0;
    friend bool operator==(const LogGPParams&, const LogGPParams&) = default;
};

/// BSP parameters for one P: g seconds per byte of an h-relation, l seconds of a superstep's synchronisation.
struct BSPParams {
    double g = 0.0;
    double l = 0.0;
    friend bool operator==(const BSPParams&, const BSPParams&) = default;
};

/// BSP parameters looked up for a P (interpolated linearly in log P between measured P).
struct BSPLookup {
    BSPParams params;
    bool extrapolated = false;
};

/// Hockney's model: a message of m bytes costs α + β·m seconds.
struct HockneyParams {
    double alpha = 0.0;
    double beta = 0.0;
    friend bool operator==(const HockneyParams&, const HockneyParams&) = default;
};

/// The interconnect the C³ model assumes, which gives its latency h (average distance) and bisection width b.
enum class C3Topology { complete, linear_array, ring, mesh, hypercube };
[[nodiscard]] std::string_view to_string(C3Topology topology);
[[nodiscard]] C3Topology c3_topology_from_string(std::string_view name);

/// C³ parameters (Hambrusch & Khokhar §2): the time of one message set-up s, the time of one unit (one packet
/// moved one step), the packet length l in bytes, and the topology.
struct C3Params {
    double setup = 0.0;         ///< seconds per message set-up (s)
    double packet_time = 0.0;   ///< seconds per communication unit
    double packet_bytes = 1.0;  ///< l
    C3Topology topology = C3Topology::complete;
    friend bool operator==(const C3Params&, const C3Params&) = default;
};

/// One kernel constant: seconds per unit of work (see KernelProbe).
struct KernelConstant {
    double seconds_per_unit = 0.0;
    std::string unit;
    friend bool operator==(const KernelConstant&, const KernelConstant&) = default;
};

/// The machine profile. A value type: build it with the setters (llc-probe does), save and load it as JSON.
class Profile {
  public:
    Profile() = default;

    [[nodiscard]] ProfileMeta& meta() noexcept { return meta_; }
    [[nodiscard]] const ProfileMeta& meta() const noexcept { return meta_; }

    // ---- Collectives: T_f(P, h) --------------------------------------------------------------------------------
    /// Stores the fit of collective `f` (canonicalised) measured on P processors, replacing an earlier one.
    /// @throws llc::Error for an empty name or P < 1.
    void set_collective(std::string_view f, int P, Piecewise t);
    [[nodiscard]] bool has_collective(std::string_view f) const;
    /// Collective names with at least one fit, sorted.
    [[nodiscard]] std::vector<std::string> collectives() const;
    /// The P at which `f` was measured, ascending (empty if none).
    [[nodiscard]] std::vector<int> measured_sizes(std::string_view f) const;
    /// The fit stored for exactly (f, P). @throws llc::Error if there is none.
    [[nodiscard]] const Piecewise& collective_fit(std::string_view f, int P) const;
    /// T_f(P, h): the fits at the measured P around P evaluated at h and interpolated linearly in log P; outside the
    /// measured P the two nearest measured P are extended (one measured P > 1: scaled by log P / log P_m; P = 1 alone:
    /// that value), flagged as extrapolated, and clamped at 0. Flagged too when h is outside a fit's sizes.
    /// @throws llc::Error naming f if the profile has no fit for it, or for P < 1 or h < 0.
    [[nodiscard]] Lookup collective(std::string_view f, int P, double bytes) const;

    // ---- Divisions: T_g(P, h) ----------------------------------------------------------------------------------
    void set_division(int P, DivisionCost cost);
    [[nodiscard]] bool has_division() const noexcept { return !division_.empty(); }
    [[nodiscard]] std::vector<int> division_sizes() const;
    [[nodiscard]] const DivisionCost& division_fit(int P) const;
    /// The division cost on P processors with h bytes exchanged per processor, interpolated in log P as collective().
    /// @throws llc::Error if the profile has no division cost, or for P < 1 or h < 0.
    [[nodiscard]] DivisionLookup division(int P, double bytes) const;

    // ---- Point-to-point, P-3PC ----------------------------------------------------------------------------------
    void set_point_to_point(Path path, Layout layout, Piecewise t);
    /// True when all 12 (path, layout) functions are present.
    [[nodiscard]] bool has_point_to_point() const noexcept;
    /// @throws llc::Error naming the path and layout if it is missing.
    [[nodiscard]] const Piecewise& point_to_point(Path path, Layout layout) const;

    // ---- Analytic models' parameters -----------------------------------------------------------------------------
    void set_loggp(const LogGPParams& params);
    [[nodiscard]] const std::optional<LogGPParams>& loggp() const noexcept { return loggp_; }
    void set_bsp(int P, const BSPParams& params);
    [[nodiscard]] bool has_bsp() const noexcept { return !bsp_.empty(); }
    [[nodiscard]] const std::map<int, BSPParams>& bsp_table() const noexcept { return bsp_; }
    /// g and l for P, interpolated linearly in log P as collective(). @throws llc::Error if none is stored.
    [[nodiscard]] BSPLookup bsp(int P) const;
    void set_hockney(const HockneyParams& params);
    [[nodiscard]] const std::optional<HockneyParams>& hockney() const noexcept { return hockney_; }
    void set_c3(const C3Params& params);
    [[nodiscard]] const std::optional<C3Params>& c3() const noexcept { return c3_; }

    // ---- Kernel constants ---------------------------------------------------------------------------------------
    /// @throws llc::Error for an empty name or a negative or non-finite value.
    void set_kernel(std::string_view name, KernelConstant constant);
    [[nodiscard]] bool has_kernel(std::string_view name) const;
    /// @throws llc::Error naming the kernel (and the known ones) if it is missing.
    [[nodiscard]] const KernelConstant& kernel(std::string_view name) const;
    /// kernel(name).seconds_per_unit × units.
    [[nodiscard]] double kernel_seconds(std::string_view name, double units) const;
    [[nodiscard]] const std::map<std::string, KernelConstant, std::less<>>& kernels() const noexcept {
        return kernels_;
    }

    // ---- JSON ---------------------------------------------------------------------------------------------------
    /// The profile as JSON text (format version profile_format_version).
    [[nodiscard]] std::string to_json() const;
    /// Parses and validates a profile. `source` names the text in error messages (a path).
    /// Required: "version" (== profile_format_version), "meta", "collectives" (at least one fit), "division" (at
    /// least one P). Optional, validated when present: "point_to_point", "loggp", "bsp", "hockney", "c3", "kernels".
    /// @throws llc::Error naming the source and the field, and how_to_make_profile().
    [[nodiscard]] static Profile from_json(std::string_view text, std::string_view source = "profile");
    /// Writes to_json() to `path` whole or not at all (temporary file beside it, then rename); creates the
    /// directory. @throws llc::Error naming the path if it cannot.
    void save(const std::string& path) const;
    /// Reads and validates the profile at `path`. @throws llc::Error (missing, unreadable, corrupt, wrong version,
    /// incomplete) naming the path and the field and saying how to make one.
    [[nodiscard]] static Profile load(const std::string& path);
    /// load(default_profile_path()).
    [[nodiscard]] static Profile load_default();

    friend bool operator==(const Profile&, const Profile&) = default;

  private:
    /// The slot of (path, layout) in p2p_.
    [[nodiscard]] static std::size_t p2p_index(Path path, Layout layout) noexcept {
        return static_cast<std::size_t>(path) * 4 + static_cast<std::size_t>(layout);
    }

    ProfileMeta meta_;
    std::map<std::string, std::map<int, Piecewise>, std::less<>> collectives_;
    std::map<int, DivisionCost> division_;
    std::array<std::optional<Piecewise>, 12> p2p_;
    std::optional<LogGPParams> loggp_;
    std::map<int, BSPParams> bsp_;
    std::optional<HockneyParams> hockney_;
    std::optional<C3Params> c3_;
    std::map<std::string, KernelConstant, std::less<>> kernels_;
};

/// g and l for P from a table P → (g, l), interpolated linearly in log P as Profile::collective does (the table must
/// not be empty).
[[nodiscard]] BSPLookup interpolate_bsp(const std::map<int, BSPParams>& table, int P);

/// How a cost grows with P beyond the largest P a profile measured: `log` as log2 P (a tree's depth: bcast, reduce,
/// allreduce, barrier, and the pairwise exchanges, whose measured time grows with the synchronisation around them),
/// `linear` as P − 1 (a root or a ring moves P − 1 blocks: gather, scatter, allgather, alltoall).
enum class Growth { log, linear };

/// The growth in P of collective `f` (its canonical name) beyond the measured P: Growth::linear for gather, scatter,
/// allgather, alltoall (and their v forms), else Growth::log.
[[nodiscard]] Growth growth_of_collective(std::string_view f);

/// Interpolates values known at measured P (ascending, ≥ 1 entry) to P, linearly in log P, as Profile::collective
/// does. Returns the value and whether P is outside the measured range. Beyond the largest measured P, with two or
/// more measured P ≥ 2, the value is a + b · g(P) fitted by least squares over all measured P ≥ 2 (g = log2 P or
/// P − 1 by `growth`; b < 0 is read as no growth, the mean): a line through the two largest P alone (p = 3 and 4 of a
/// base profile) followed their noise to 0 or to 3× at P = 64 (docs/scaling/results.md, "Extrapolation in P").
/// Exposed for tests and tools.
[[nodiscard]] Lookup interpolate_in_p(std::span<const int> measured_P,
                                      std::span<const double> values,
                                      int P,
                                      Growth growth = Growth::log);

}  // namespace llc::cost
