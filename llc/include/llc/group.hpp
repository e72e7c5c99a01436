#pragma once
/// @file
/// llc::Group — a set of processors (La Laguna C's current set) and the collectives of the set F.
///
/// Every collective is the end of a normal superstep: when tracing is on, the time since the group's previous
/// superstep ended is recorded as the superstep's computation W, and the time inside the collective as its
/// communication T_f. Arguments are checked on entry; a check that needs the other ranks' view (sizes, roots) costs
/// one small allreduce and throws llc::Error on every rank when they disagree. LLC_CHECKS=0 in the environment drops
/// those agreement checks for timing runs (local checks stay); it is read at the first check, with or without an
/// llc::Environment, unless Group::set_checks was called before.

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <mpi.h>

#include <llc/detail/comm.hpp>
#include <llc/detail/mpi_type.hpp>
#include <llc/error.hpp>
#include <llc/trace_record.hpp>

namespace llc {

/// Reduction operations of reduce / allreduce.
enum class Op { sum, prod, min, max };

namespace detail {
MPI_Op mpi_op(Op op);
/// Whether the environment variable `name` is set to a value that turns a switch off: 0, off, OFF, false.
bool switched_off(const char* name);
int to_count(const char* function, const char* argument, std::size_t n);
}  // namespace detail

class ShiftInFlight;

/// A set of processors wrapping an MPI communicator it owns. Move-free and copy-free, so that no hidden collective can
/// happen: the world group is owned by llc::Environment, subgroups by their parent's cache, and everything else takes
/// a Group&.
class Group {
  public:
    /// Wraps a user's communicator. Collective over `comm`: it is duplicated once (MPI_Comm_dup), so llc's messages
    /// never mix with the user's, and the group works on the duplicate only. The duplicate gets MPI_ERRORS_RETURN, so
    /// that an MPI error inside llc comes back as llc::MpiError; `comm` itself, its error handler and its attributes
    /// are left as they were. The group owns the duplicate (freed by the destructor, which must run before
    /// MPI_Finalize); the caller keeps owning `comm` and may free it as soon as the constructor returned.
    ///
    /// @param comm an intracommunicator of an initialised MPI (MPI_COMM_WORLD, one from MPI_Comm_split, …).
    /// @param name what the group is called in error messages and in path() ("solver", "solver/1" for its first
    ///             subgroup's second task …); empty: "/", as the world group. Must not contain '/'.
    /// @throws llc::Error naming the argument when MPI is not initialised or already finalised, when `comm` is
    ///         MPI_COMM_NULL (which is also what MPI_Comm_free leaves in a freed communicator's handle) or an
    ///         intercommunicator, or when `name` contains '/'. A stale copy of a freed handle cannot be detected: MPI
    ///         leaves its use undefined (Open MPI crashes in MPI_Comm_test_inter).
    explicit Group(MPI_Comm comm, std::string name = {});
    ~Group();
    Group(const Group&) = delete;
    Group& operator=(const Group&) = delete;
    Group(Group&&) = delete;
    Group& operator=(Group&&) = delete;

    /// The group of all processors. @throws llc::Error when no llc::Environment is alive.
    [[nodiscard]] static Group& world();

    /// NUMPROCESSORS: how many processors the group has.
    [[nodiscard]] int size() const noexcept { return size_; }
    /// NAME: this processor's index in the group, 0 … size()-1.
    [[nodiscard]] int rank() const noexcept { return rank_; }
    /// Nesting level: 0 for a root group, parent's depth + 1 for a subgroup (the dynamic polytope's dimension).
    [[nodiscard]] int depth() const noexcept { return depth_; }
    /// The group this one was split from, or nullptr.
    [[nodiscard]] Group* parent() const noexcept { return parent_; }
    /// Which task of the parent's division this group runs ("/" for a root, then "/t" per level, e.g. "/1/0"); a root
    /// given a name starts with it instead ("solver", "solver/1/0"). Error messages call the group by its path.
    [[nodiscard]] const std::string& path() const noexcept { return path_; }
    /// The group's own MPI communicator (a duplicate or a split that the group owns and frees), for code that calls
    /// MPI directly. Do not free it; messages sent on it must not mix with an llc collective in progress.
    [[nodiscard]] MPI_Comm native() const noexcept { return comm_.get(); }

    /// Whether agreement checks run: on, unless LLC_CHECKS is 0, off, OFF or false (read at the first call) or
    /// set_checks(false) was called. For the whole process.
    [[nodiscard]] static bool checks_enabled() noexcept;
    /// Turns the agreement checks on or off for the whole process; wins over LLC_CHECKS.
    static void set_checks(bool on) noexcept;

    // ---- Collectives of the set F. Each: "Collective over this group." -------------------------------------------

    /// Synchronises the group.
    void barrier();

    /// Root's `data` to every processor. Sizes must agree.
    template <Trivial T>
    void bcast(std::span<T> data, int root);
    template <Trivial T>
    void bcast(T& value, int root) {
        bcast(std::span<T>(&value, 1), root);
    }
    /// A contiguous container of trivially copyable values (std::vector, std::string): the root's size and contents
    /// to every processor (others are resized). Two broadcasts, no serialisation.
    template <TrivialContainer C>
    void bcast(C& container, int root);
    /// Any other Boost-serialisable value (include the Boost.Serialization header of its type, e.g.
    /// <boost/serialization/map.hpp>).
    template <class T>
    requires(!Trivial<T> && !TrivialContainer<T>) void bcast(T& value, int root);

    /// Element-wise reduction to `root`; `out` must have in.size() entries on the root and is not touched elsewhere.
    template <Reducible T>
    void reduce(std::span<const T> in, std::span<T> out, Op op, int root);
    /// Element-wise reduction, result on every processor. `in` and `out` may be the same buffer.
    template <Reducible T>
    void allreduce(std::span<const T> in, std::span<T> out, Op op);
    /// One value: the reduction over the ranks, on every rank. The ranks must pass the same `op` (agreed on as in the
    /// span overload: one small allreduce, llc::Error on every rank when they differ).
    template <Reducible T>
    [[nodiscard]] T allreduce(T value, Op op);

    /// Every processor's `send` (equal sizes) concatenated in rank order on `root`; empty elsewhere.
    template <Trivial T>
    [[nodiscard]] std::vector<T> gather(std::span<const T> send, int root);
    /// As gather with sizes that may differ; `counts`, when given, receives every rank's size on the root.
    template <Trivial T>
    [[nodiscard]] std::vector<T> gatherv(std::span<const T> send, int root, std::vector<int>* counts = nullptr);
    template <Trivial T>
    [[nodiscard]] std::vector<T> allgather(std::span<const T> send);
    template <Trivial T>
    [[nodiscard]] std::vector<T> allgatherv(std::span<const T> send, std::vector<int>* counts = nullptr);

    /// Root's `send` (size() blocks of recv.size()) cut into blocks, block q to rank q.
    template <Trivial T>
    void scatter(std::span<const T> send, std::span<T> recv, int root);
    /// Root's `send` cut into blocks of `counts` (significant on the root only).
    template <Trivial T>
    [[nodiscard]] std::vector<T> scatterv(std::span<const T> send, std::span<const int> counts, int root);

    /// Block q of `send` to rank q; block p of `recv` from rank p. Sizes equal, divisible by size().
    template <Trivial T>
    void alltoall(std::span<const T> send, std::span<T> recv);
    /// send_counts[q] entries to rank q; returns what arrived, in rank order (`recv_counts` receives the sizes).
    template <Trivial T>
    [[nodiscard]] std::vector<T> alltoallv(std::span<const T> send,
                                           std::span<const int> send_counts,
                                           std::vector<int>* recv_counts = nullptr);

    /// SWAP: exchange with `partner` (a rank of this group): `send` goes there, `recv` is filled from there. The
    /// partners must pair the ranks up: rank `partner` names this rank back, and a rank with nothing to exchange names
    /// itself (`send` copied to `recv`, sizes equal). The partner's send size must equal this recv size.
    ///
    /// @throws llc::Error on every rank of the group when `partner` is no rank of the group, when the relation does
    ///         not pair the ranks up (rank a names b, b names c: without the check a hang), or when a receive size is
    ///         not the partner's send size; the message names the ranks and the values. These agreement checks cost
    ///         one small allreduce over the group (llc::Agreement::pairing), charged to the superstep's
    ///         communication time; with LLC_CHECKS=0 only the local checks run and a relation that does not pair up
    ///         hangs, mismatched sizes are MPI's undefined behaviour.
    ///
    /// Collective over this group: every rank calls it (with checks off, over the pair only). Recorded as a normal
    /// superstep "swap" with h = send.size_bytes() + recv.size_bytes().
    template <Trivial T>
    void swap(int partner, std::span<const T> send, std::span<T> recv);

    /// SHIFT on the ring 0 → 1 → … → P−1 → 0: `send` goes to the processor `offset` places ahead, rank
    /// (r + offset) mod P, and `recv` is filled from the one `offset` places behind, (r − offset) mod P. The step of
    /// ring pipelines (Miguet's pipelined dynamic programming, the symmetric matrix–vector product): P − 1 shifts by 1
    /// move every processor's block past every other processor.
    ///
    /// @param send   what this processor sends; its size may differ from rank to rank (a pipeline's first or last
    ///               segment can be shorter).
    /// @param recv   filled from the source (r − offset) mod P; recv.size() must equal the source's send.size().
    ///               Must not overlap `send`, except when offset ≡ 0.
    /// @param offset any int, the same on every rank; negative shifts the other way, and it is taken modulo P. When
    ///               offset ≡ 0 (mod P), always at P = 1, the shift is a local copy and recv.size() must equal
    ///               send.size().
    /// @throws llc::Error on every rank of the group when the offsets differ across ranks, when some rank's
    ///         recv.size() is not its source's send.size() (the message of the rank that receives names both ranks,
    ///         the others say that another rank rejected its arguments), or when offset ≡ 0 and some rank's
    ///         recv.size() != send.size(). These agreement checks cost one allreduce, plus, when offset ≢ 0, one
    ///         exchange of sizes around the ring and a second allreduce; with LLC_CHECKS=0 only the local checks run
    ///         (thrown on the rank that finds them) and mismatched sizes are MPI's undefined behaviour.
    ///
    /// Collective over this group (every rank calls it, even with an empty `send`). Recorded as a normal superstep
    /// "shift" with h = send.size_bytes() + recv.size_bytes(); one MPI_Sendrecv per processor.
    template <Trivial T>
    void shift(std::span<const T> send, std::span<T> recv, int offset = 1);

    /// SHIFT in two phases, the split-phase neighbour exchange of ring pipelines that overlap communication with
    /// computation (Miguet's symmetric matrix–vector product, article [3]): the same messages as shift(send, recv,
    /// offset), with the same arguments, checks and errors, are posted here, and ShiftInFlight::wait() completes them.
    /// Work done between the two overlaps the transfer as far as MPI progresses it in the background (on shared memory,
    /// a message above the eager limit moves inside wait(); llc-probe's "shift.overlap" measures what is left).
    ///
    /// `send` must not be modified and `recv` not read until wait() returns. One split-phase shift at a time per
    /// group, and no other collective of the group in between (a superstep ends with one collective).
    ///
    /// Collective over this group. Recorded at wait() as a normal superstep "shift.overlap" with h =
    /// send.size_bytes() + recv.size_bytes(): its communication time is the time spent inside shift_start and wait,
    /// its W the rest since the previous superstep (the work before the start and the work overlapping the transfer).
    /// Priced by cost::Expr::overlapped (Φ = W + max(V, T_shift.overlap(h))).
    template <Trivial T>
    [[nodiscard]] ShiftInFlight shift_start(std::span<const T> send, std::span<T> recv, int offset = 1);

    // ---- The same collectives on contiguous ranges (std::vector, std::array, spans of non-const values) ----------
    // Each forwards to the span overload above: `g.allgatherv(vec)`, `g.allreduce(v, v, Op::sum)`.

    template <ContiguousRange R, WritableRange Out>
    requires detail::RangePair<R, Out> && Reducible<std::ranges::range_value_t<R>>
    void reduce(const R& in, Out&& out, Op op, int root) {
        reduce(detail::input_span(in), detail::output_span(out), op, root);
    }
    template <ContiguousRange R, WritableRange Out>
    requires detail::RangePair<R, Out> && Reducible<std::ranges::range_value_t<R>>
    void allreduce(const R& in, Out&& out, Op op) { allreduce(detail::input_span(in), detail::output_span(out), op); }
    template <detail::InputRange R>
    requires Trivial<std::ranges::range_value_t<R>>
    [[nodiscard]] std::vector<std::ranges::range_value_t<R>> gather(const R& send, int root) {
        return gather(detail::input_span(send), root);
    }
    template <detail::InputRange R>
    requires Trivial<std::ranges::range_value_t<R>>
    [[nodiscard]] std::vector<std::ranges::range_value_t<R>> gatherv(const R& send,
                                                                     int root,
                                                                     std::vector<int>* counts = nullptr) {
        return gatherv(detail::input_span(send), root, counts);
    }
    template <detail::InputRange R>
    requires Trivial<std::ranges::range_value_t<R>>
    [[nodiscard]] std::vector<std::ranges::range_value_t<R>> allgather(const R& send) {
        return allgather(detail::input_span(send));
    }
    template <detail::InputRange R>
    requires Trivial<std::ranges::range_value_t<R>>
    [[nodiscard]] std::vector<std::ranges::range_value_t<R>> allgatherv(const R& send,
                                                                        std::vector<int>* counts = nullptr) {
        return allgatherv(detail::input_span(send), counts);
    }
    template <ContiguousRange R, WritableRange Out>
    requires detail::RangePair<R, Out> && Trivial<std::ranges::range_value_t<R>>
    void scatter(const R& send, Out&& recv, int root) {
        scatter(detail::input_span(send), detail::output_span(recv), root);
    }
    template <ContiguousRange R, ContiguousRange C>
    requires(Trivial<std::ranges::range_value_t<R>>&& std::same_as<std::ranges::range_value_t<C>, int> &&
             !(detail::InputSpan<R> && detail::InputSpan<C>))
        [[nodiscard]] std::vector<std::ranges::range_value_t<R>> scatterv(const R& send, const C& counts, int root) {
        return scatterv(detail::input_span(send), detail::input_span(counts), root);
    }
    template <ContiguousRange R, WritableRange Out>
    requires detail::RangePair<R, Out> && Trivial<std::ranges::range_value_t<R>>
    void alltoall(const R& send, Out&& recv) { alltoall(detail::input_span(send), detail::output_span(recv)); }
    template <ContiguousRange R, ContiguousRange C>
    requires(Trivial<std::ranges::range_value_t<R>>&& std::same_as<std::ranges::range_value_t<C>, int> &&
             !(detail::InputSpan<R> && detail::InputSpan<C>))
        [[nodiscard]] std::vector<std::ranges::range_value_t<R>> alltoallv(const R& send,
                                                                           const C& send_counts,
                                                                           std::vector<int>* recv_counts = nullptr) {
        return alltoallv(detail::input_span(send), detail::input_span(send_counts), recv_counts);
    }
    template <ContiguousRange R, WritableRange Out>
    requires detail::RangePair<R, Out> && Trivial<std::ranges::range_value_t<R>>
    void swap(int partner, const R& send, Out&& recv) {
        swap(partner, detail::input_span(send), detail::output_span(recv));
    }
    template <ContiguousRange R, WritableRange Out>
    requires detail::RangePair<R, Out> && Trivial<std::ranges::range_value_t<R>>
    void shift(const R& send, Out&& recv, int offset = 1) {
        shift(detail::input_span(send), detail::output_span(recv), offset);
    }
    template <ContiguousRange R, WritableRange Out>
    requires detail::RangePair<R, Out> && Trivial<std::ranges::range_value_t<R>>
    [[nodiscard]] ShiftInFlight shift_start(const R& send, Out&& recv, int offset = 1);

    // ---- Division support (used by par / weighted_par) ---------------------------------------------------------

    /// The subgroup this processor belongs to when the group is cut into consecutive blocks of `sizes` (which sum to
    /// size()). Collective over this group the first time a shape is seen; cached afterwards, so a recursive
    /// division of the same shape does not call MPI_Comm_split again. The first time, the sizes are agreed on
    /// (llc::Agreement): sizes that differ across the ranks are an llc::Error on every rank.
    Group& subgroup(const std::vector<int>& sizes);
    /// A group of this processor alone, for tasks run one after another when P < r. Local, cached.
    Group& self();
    /// The same processors in another order: rank k of the result is rank order[k] of this group. For divisions over
    /// a layout whose parts are not consecutive ranks (contour ranking's quadrants of a row-major block grid): a
    /// division of the reordered group cuts it into consecutive blocks of the new order. `order` must be a
    /// permutation of 0 … size()−1 and the same on every rank; the identity returns this group. Collective over this
    /// group the first time an order is seen (an agreement on the order, then one MPI_Comm_split); cached afterwards.
    /// Same parent, path and depth.
    /// @throws llc::Error naming `order` when it is not a permutation of the ranks.
    Group& reordered(const std::vector<int>& order);
    /// How many MPI_Comm_split calls this group made (for tests of the cache).
    [[nodiscard]] int splits() const noexcept { return splits_; }

    // ---- Superstep bookkeeping (the trace) ---------------------------------------------------------------------

    /// Marks now as the end of the group's previous superstep (the start of the next one's W).
    void restart_superstep_clock() noexcept;
    /// When the group's previous superstep ended, in the trace's clock (seconds since tracing was switched on); a
    /// superstep that ended before tracing was switched on counts as ending at that moment.
    [[nodiscard]] double superstep_clock() const noexcept;
    void set_superstep_clock(double t) noexcept;
    /// When tracing: the time the pending agreement check began (it belongs to the collective that follows, not to the
    /// computation before it), or `fallback` if no check is pending; clears it.
    [[nodiscard]] double take_check_start(double fallback) noexcept {
        const double start = check_start_ >= 0.0 ? check_start_ : fallback;
        check_start_ = -1.0;
        return start;
    }

    /// Throws llc::Error on every rank unless every rank passed the same value of each named argument: an
    /// llc::Agreement (<llc/agreement.hpp>) of integer arguments. One allreduce; skipped when checks are off.
    /// `local_error`, when not empty, is this rank's own verdict on its arguments (a root out of range, an output of
    /// the wrong size): it joins the same allreduce, so that every rank throws — the ranks that found the error with
    /// its message, the others with one that points to them — instead of some throwing and the rest waiting forever.
    /// With checks off, a local error is thrown at once on the rank that found it.
    void check_same(const char* function,
                    std::initializer_list<std::pair<const char*, long long>> arguments,
                    const std::string& local_error = {});
    /// The message of the argument error for a root outside [0, size()), or an empty string.
    [[nodiscard]] std::string root_error(const char* function, int root) const;
    /// Throws root_error(...) locally when not empty. Only where every rank is known to pass the same root;
    /// otherwise pass root_error(...) to check_same.
    void check_root(const char* function, int root) const;

    /// Passkey: only Group can make subgroups, yet std::make_unique can call the constructor.
    class Key {
        friend class Group;
        Key() = default;
    };
    Group(detail::OwnedComm comm, Group* parent, std::string path, Key);

  private:
    friend class Agreement;  // sets and clears check_start_ around its allreduce

    /// Runs `body` as the collective of a normal superstep; `bytes` (h) is read after the body ran, so a body that only
    /// learns the size (v-variants) can set it.
    template <class F>
    void superstep(const char* op, const std::uint64_t& bytes, F&& body);

    detail::OwnedComm comm_;
    int size_ = 1;
    int rank_ = 0;
    int depth_ = 0;
    Group* parent_ = nullptr;
    std::string path_ = "/";
    int splits_ = 0;
    double last_end_ = 0.0;  ///< MPI_Wtime() at the end of the group's previous superstep
    double check_start_ = -1.0;
    std::map<std::vector<int>, std::unique_ptr<Group>> subgroups_;
    std::map<std::vector<int>, std::unique_ptr<Group>> reorders_;
    std::unique_ptr<Group> self_;
};

/// A SHIFT whose messages are in flight (Group::shift_start). Move-only. wait() completes it and records the superstep;
/// a ShiftInFlight destroyed without wait() (an exception unwinding past it) still completes the messages, so that the
/// buffers are never written after they are gone, and records nothing.
class [[nodiscard]] ShiftInFlight {
  public:
    ShiftInFlight(ShiftInFlight&& other) noexcept;
    ShiftInFlight& operator=(ShiftInFlight&&) = delete;
    ShiftInFlight(const ShiftInFlight&) = delete;
    ShiftInFlight& operator=(const ShiftInFlight&) = delete;
    ~ShiftInFlight();

    /// Waits until this processor's send has left and its receive has arrived. Local: the exchange was agreed on at
    /// the start. Calling it again does nothing.
    void wait();
    /// True once wait() returned.
    [[nodiscard]] bool done() const noexcept { return group_ == nullptr; }

  private:
    friend class Group;
    ShiftInFlight(Group& group, std::uint64_t bytes) noexcept : group_(&group), bytes_(bytes) {}

    Group* group_;  ///< null once completed
    std::uint64_t bytes_;
    MPI_Request requests_[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    double begin_ = 0.0;   ///< the start of the superstep's W (the previous superstep's end), trace clock
    double start_ = 0.0;   ///< shift_start entered, trace clock
    double posted_ = 0.0;  ///< shift_start returned, trace clock
    bool traced_ = false;  ///< tracing was on at the start
};

namespace detail {
/// Posts the messages of a split-phase SHIFT of raw elements into `flight`, with shift's agreement checks; defined in
/// group.cpp.
void shift_start_elements(Group& g,
                          MPI_Request* requests,
                          int offset,
                          const void* send,
                          std::size_t send_count,
                          void* recv,
                          std::size_t recv_count,
                          MPI_Datatype type);
/// Exclusive prefix sums of counts with the total appended (size counts.size() + 1), checked against int overflow.
std::vector<int> displacements(const char* function, std::span<const int> counts);
/// SWAP's checks: this rank's own (partner in range, sizes), then, across the group, that the partners pair up and
/// each receive size is the partner's send size (one allreduce; llc::Error on every rank). Defined in group.cpp.
void swap_agree(Group& g, int partner, std::size_t send_count, std::size_t recv_count);
/// The SWAP exchange of raw elements, once swap_agree passed; defined in group.cpp.
void swap_elements(Group& g,
                   int partner,
                   const void* send,
                   std::size_t send_count,
                   void* recv,
                   std::size_t recv_count,
                   MPI_Datatype type);
/// The SHIFT of raw elements, with the agreement checks on the offset and the sizes; defined in group.cpp.
void shift_elements(Group& g,
                    int offset,
                    const void* send,
                    std::size_t send_count,
                    void* recv,
                    std::size_t recv_count,
                    MPI_Datatype type);
}  // namespace detail

}  // namespace llc

// The bodies of the templates above.
#include <llc/detail/group_impl.hpp>
