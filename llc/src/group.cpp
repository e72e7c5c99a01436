#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include <mpi.h>

#include <llc/agreement.hpp>
#include <llc/group.hpp>

namespace llc {
namespace {
/// -1: not decided yet (LLC_CHECKS is read at the first check), else 0 or 1.
int checks_state = -1;

/// The communicator a Group(comm, name) works on: a duplicate of `comm`, owned by the group, that returns MPI errors.
detail::OwnedComm adopt(MPI_Comm comm, const std::string& name) {
    constexpr const char* function = "llc::Group::Group";
    int initialized = 0;
    int finalized = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    if (initialized == 0 || finalized != 0) {
        throw Error(std::string(function) + ": MPI is " + (finalized != 0 ? "already finalised" : "not initialised") +
                    "; call MPI_Init or MPI_Init_thread (or construct an llc::Environment) first, and destroy every "
                    "llc::Group before MPI_Finalize");
    }
    if (comm == MPI_COMM_NULL) {
        throw_argument_error(function,
                             "comm",
                             "MPI_COMM_NULL",
                             "is no communicator (MPI_Comm_free leaves it in a freed communicator's handle, "
                             "MPI_Comm_split on ranks given MPI_UNDEFINED); pass an intracommunicator such as "
                             "MPI_COMM_WORLD");
    }
    if (name.find('/') != std::string::npos) {
        throw_argument_error(
            function, "name", "'" + name + "'", "must not contain '/', which separates the levels of a group's path");
    }
    int inter = 0;
    detail::check_mpi(MPI_Comm_test_inter(comm, &inter), function);
    if (inter != 0) {
        throw_argument_error(function, "comm", "an intercommunicator", "must be an intracommunicator");
    }
    MPI_Comm dup = MPI_COMM_NULL;
    detail::check_mpi(MPI_Comm_dup(comm, &dup), function);
    // Owned from here on, so that it is freed even if setting the handler fails.
    detail::OwnedComm owned(dup);
    // On the duplicate only: the user's communicator keeps its handler (fatal by default). Subgroups split from the
    // duplicate inherit it.
    detail::check_mpi(MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN), function);
    return owned;
}
}  // namespace

namespace detail {

MPI_Op mpi_op(Op op) {
    switch (op) {
        case Op::sum:
            return MPI_SUM;
        case Op::prod:
            return MPI_PROD;
        case Op::min:
            return MPI_MIN;
        case Op::max:
            return MPI_MAX;
    }
    throw Error("llc: unknown reduction operation");
}

int to_count(const char* function, const char* argument, std::size_t n) {
    if (n > static_cast<std::size_t>(INT_MAX)) {
        throw_argument_error(
            function, argument, std::to_string(n), "more elements than one MPI call can carry (2^31 - 1)");
    }
    return static_cast<int>(n);
}

std::vector<int> displacements(const char* function, std::span<const int> counts) {
    std::vector<int> displs(counts.size() + 1, 0);
    long long total = 0;
    for (std::size_t q = 0; q < counts.size(); ++q) {
        if (counts[q] < 0) {
            throw_argument_error(
                function, "counts[" + std::to_string(q) + "]", std::to_string(counts[q]), "must be >= 0");
        }
        displs[q] = static_cast<int>(total);
        total += counts[q];
        if (total > INT_MAX) {
            throw_argument_error(
                function, "counts", "sum " + std::to_string(total), "more elements than one MPI call can carry");
        }
    }
    displs.back() = static_cast<int>(total);
    return displs;
}

MPI_Datatype byte_block_type(std::size_t bytes) {
    // One committed type per element size; MPI frees them at MPI_Finalize.
    static std::vector<std::pair<std::size_t, MPI_Datatype>> types;
    for (const auto& [size, type] : types) {
        if (size == bytes) {
            return type;
        }
    }
    MPI_Datatype type = MPI_DATATYPE_NULL;
    check_mpi(MPI_Type_contiguous(static_cast<int>(bytes), MPI_BYTE, &type), "llc::detail::byte_block_type");
    check_mpi(MPI_Type_commit(&type), "llc::detail::byte_block_type");
    types.emplace_back(bytes, type);
    return type;
}

void swap_agree(Group& g, int partner, std::size_t send_count, std::size_t recv_count) {
    constexpr const char* function = "llc::Group::swap";
    // This rank's own verdict; it joins the agreement, so that a rank that rejects its arguments does not leave its
    // partner (and the rest of the group) waiting.
    std::string error;
    if (partner < 0 || partner >= g.size()) {
        error =
            argument_message(function,
                             "partner",
                             std::to_string(partner),
                             "must be a rank of the group " + g.path() + ", in [0, " + std::to_string(g.size()) + ")");
    } else if (send_count > static_cast<std::size_t>(INT_MAX) || recv_count > static_cast<std::size_t>(INT_MAX)) {
        error = argument_message(function,
                                 send_count > recv_count ? "send.size()" : "recv.size()",
                                 std::to_string(std::max(send_count, recv_count)),
                                 "more elements than one MPI call can carry (2^31 - 1)");
    } else if (partner == g.rank() && send_count != recv_count) {
        error =
            argument_message(function,
                             "recv.size()",
                             std::to_string(recv_count),
                             "must equal send.size() = " + std::to_string(send_count) + " when swapping with oneself");
    }
    // Before any message: a partner relation that does not pair the ranks up (a names b, b names c) would leave a
    // rank waiting for a message that no rank sends, and mismatched sizes would truncate. One allreduce finds both
    // (Agreement::pairing); with checks off or at P = 1 only the local verdict is thrown.
    Agreement(g, function)
        .pairing("partner", partner, static_cast<long long>(send_count), static_cast<long long>(recv_count))
        .error(error)
        .check();
}

void swap_elements(Group& g,
                   int partner,
                   const void* send,
                   std::size_t send_count,
                   void* recv,
                   std::size_t recv_count,
                   MPI_Datatype type) {
    constexpr int swap_tag = 7301;
    const int send_n = to_count("llc::Group::swap", "send.size()", send_count);
    const int recv_n = to_count("llc::Group::swap", "recv.size()", recv_count);
    if (partner == g.rank()) {
        int type_size = 0;
        MPI_Type_size(type, &type_size);
        if (send_n > 0 && send != recv) {
            std::memmove(recv, send, static_cast<std::size_t>(send_n) * static_cast<std::size_t>(type_size));
        }
        return;
    }
    check_mpi(MPI_Sendrecv(send,
                           send_n,
                           type,
                           partner,
                           swap_tag,
                           recv,
                           recv_n,
                           type,
                           partner,
                           swap_tag,
                           g.native(),
                           MPI_STATUS_IGNORE),
              "llc::Group::swap");
}

namespace {

constexpr int shift_tag = 7303;

/// Where a SHIFT's messages go, once every rank agreed on its arguments.
struct ShiftRoute {
    bool local = false;  ///< offset ≡ 0 (mod P): a local copy
    int dest = 0;
    int source = 0;
    int send_n = 0;
    int recv_n = 0;
};

/// SHIFT's agreement checks (the offset, and each receive size against its source's send size), shared by the
/// blocking and the split-phase exchange: llc::Error on every rank, naming `function`, when they fail.
ShiftRoute shift_agree(Group& g, const char* function, int offset, std::size_t send_count, std::size_t recv_count) {
    const long long P = g.size();
    const long long r = g.rank();
    const long long step = ((offset % P) + P) % P;  // offset normalised into [0, P)
    // This rank's own verdict on its arguments; it joins the agreement on the offset, so that every rank throws.
    std::string error;
    ShiftRoute route;
    try {
        route.send_n = to_count(function, "send.size()", send_count);
        route.recv_n = to_count(function, "recv.size()", recv_count);
    } catch (const Error& e) {
        error = e.what();
    }
    if (error.empty() && step == 0 && route.send_n != route.recv_n) {
        error = argument_message(function,
                                 "recv.size()",
                                 std::to_string(route.recv_n),
                                 "must equal send.size() = " + std::to_string(route.send_n) + " when the offset " +
                                     std::to_string(offset) + " is a multiple of the group size " + std::to_string(P) +
                                     " (a local copy)");
    }
    // The offsets must be known to agree before any message depends on them: with offsets that differ, the ring
    // exchange below could wait for a message that no rank sends. check_same does nothing but throw a local error when
    // the checks are off or P = 1.
    g.check_same(function, {{"offset", offset}}, error);
    // We are inside the superstep already: the check's start time must not leak into the group's next collective.
    (void)g.take_check_start(0.0);
    route.local = step == 0;
    if (route.local) {
        return route;
    }
    route.dest = static_cast<int>((r + step) % P);
    route.source = static_cast<int>((r - step + P) % P);
    if (Group::checks_enabled()) {
        // Each rank learns its source's send size, so a mismatch is found before the data can be truncated; the
        // allreduce of check_same then makes it an error on every rank.
        const long long mine = route.send_n;
        long long theirs = -1;
        check_mpi(MPI_Sendrecv(&mine,
                               1,
                               MPI_LONG_LONG,
                               route.dest,
                               shift_tag + 1,
                               &theirs,
                               1,
                               MPI_LONG_LONG,
                               route.source,
                               shift_tag + 1,
                               g.native(),
                               MPI_STATUS_IGNORE),
                  function);
        std::string mismatch;
        if (theirs != route.recv_n) {
            mismatch = argument_message(function,
                                        "recv.size()",
                                        std::to_string(route.recv_n),
                                        "must equal the source's send.size() = " + std::to_string(theirs) + ": rank " +
                                            std::to_string(r) + " receives from rank " + std::to_string(route.source) +
                                            " (offset " + std::to_string(offset) + " in group " + g.path() + ")");
        }
        g.check_same(function, {}, mismatch);
        (void)g.take_check_start(0.0);
    }
    return route;
}

void local_copy(const char* function, const void* send, void* recv, int count, MPI_Datatype type) {
    int type_size = 0;
    check_mpi(MPI_Type_size(type, &type_size), function);
    if (count > 0 && send != recv) {
        std::memmove(recv, send, static_cast<std::size_t>(count) * static_cast<std::size_t>(type_size));
    }
}

}  // namespace

void shift_elements(Group& g,
                    int offset,
                    const void* send,
                    std::size_t send_count,
                    void* recv,
                    std::size_t recv_count,
                    MPI_Datatype type) {
    constexpr const char* function = "llc::Group::shift";
    const ShiftRoute route = shift_agree(g, function, offset, send_count, recv_count);
    if (route.local) {
        local_copy(function, send, recv, route.send_n, type);
        return;
    }
    check_mpi(MPI_Sendrecv(send,
                           route.send_n,
                           type,
                           route.dest,
                           shift_tag,
                           recv,
                           route.recv_n,
                           type,
                           route.source,
                           shift_tag,
                           g.native(),
                           MPI_STATUS_IGNORE),
              function);
}

void shift_start_elements(Group& g,
                          MPI_Request* requests,
                          int offset,
                          const void* send,
                          std::size_t send_count,
                          void* recv,
                          std::size_t recv_count,
                          MPI_Datatype type) {
    constexpr const char* function = "llc::Group::shift_start";
    const ShiftRoute route = shift_agree(g, function, offset, send_count, recv_count);
    if (route.local) {
        local_copy(function, send, recv, route.send_n, type);
        return;
    }
    // The receive first, so that an eager message finds its buffer posted.
    check_mpi(MPI_Irecv(recv, route.recv_n, type, route.source, shift_tag, g.native(), &requests[0]), function);
    check_mpi(MPI_Isend(send, route.send_n, type, route.dest, shift_tag, g.native(), &requests[1]), function);
}

}  // namespace detail

Group::Group(MPI_Comm comm, std::string name) : comm_(adopt(comm, name)) {
    if (!name.empty()) {
        path_ = std::move(name);
    }
    size_ = comm_.size();
    rank_ = comm_.rank();
    restart_superstep_clock();
}

Group::Group(detail::OwnedComm comm, Group* parent, std::string path, Key)
    : comm_(std::move(comm)), parent_(parent), path_(std::move(path)) {
    size_ = comm_.size();
    rank_ = comm_.rank();
    depth_ = parent != nullptr ? parent->depth_ + 1 : 0;
    restart_superstep_clock();
}

Group::~Group() = default;

bool Group::checks_enabled() noexcept {
    if (checks_state < 0) {
        // Read here rather than by llc::Environment alone, so that LLC_CHECKS also works for a program that owns MPI.
        checks_state = detail::switched_off("LLC_CHECKS") ? 0 : 1;
    }
    return checks_state != 0;
}
void Group::set_checks(bool on) noexcept {
    checks_state = on ? 1 : 0;
}

void Group::restart_superstep_clock() noexcept {
    last_end_ = MPI_Wtime();
}

double Group::superstep_clock() const noexcept {
    const double since_epoch = last_end_ - detail::Recorder::instance().epoch();
    return since_epoch > 0.0 ? since_epoch : 0.0;
}

void Group::set_superstep_clock(double t) noexcept {
    last_end_ = t + detail::Recorder::instance().epoch();
}

void Group::barrier() {
    superstep("barrier", 0, [&] { detail::check_mpi(MPI_Barrier(native()), "llc::Group::barrier"); });
}

std::string Group::root_error(const char* function, int root) const {
    if (root >= 0 && root < size_) {
        return {};
    }
    return argument_message(
        function, "root", std::to_string(root), "must be a rank of the group, in [0, " + std::to_string(size_) + ")");
}

void Group::check_root(const char* function, int root) const {
    if (const std::string error = root_error(function, root); !error.empty()) {
        throw Error(error);
    }
}

void Group::check_same(const char* function,
                       std::initializer_list<std::pair<const char*, long long>> arguments,
                       const std::string& local_error) {
    Agreement agreement(*this, function);
    for (const auto& [name, value] : arguments) {
        agreement.same(name, value);
    }
    agreement.error(local_error).check();
}

Group& Group::subgroup(const std::vector<int>& sizes) {
    const auto it = subgroups_.find(sizes);
    if (it != subgroups_.end()) {
        return *it->second;
    }
    // The sizes must be the same on every rank before MPI_Comm_split sees colours made from them.
    const bool valid = std::accumulate(sizes.begin(), sizes.end(), 0) == size_ &&
                       std::none_of(sizes.begin(), sizes.end(), [](int s) { return s < 1; });
    Agreement(*this, "llc::Group::subgroup")
        .same_array("sizes", std::span<const int>(sizes))
        .error(valid ? std::string()
                     : "llc::Group::subgroup: subgroup sizes must be positive and sum to the group size " +
                           std::to_string(size_))
        .check();
    int color = 0;
    for (int start = 0; start + sizes[static_cast<std::size_t>(color)] <= rank_; ++color) {
        start += sizes[static_cast<std::size_t>(color)];
    }
    MPI_Comm split = MPI_COMM_NULL;
    detail::check_mpi(MPI_Comm_split(native(), color, rank_, &split), "llc::Group::subgroup");
    ++splits_;
    const std::string path = (path_ == "/" ? "/" : path_ + "/") + std::to_string(color);
    auto group = std::make_unique<Group>(detail::OwnedComm(split), this, path, Key{});
    Group& result = *group;
    subgroups_.emplace(sizes, std::move(group));
    return result;
}

Group& Group::reordered(const std::vector<int>& order) {
    std::vector<char> seen(static_cast<std::size_t>(size_), 0);
    bool identity = order.size() == seen.size();
    for (std::size_t k = 0; k < order.size() && identity; ++k) {
        identity = order[k] == static_cast<int>(k);
    }
    if (identity) {
        return *this;
    }
    const auto it = reorders_.find(order);
    if (it != reorders_.end()) {
        return *it->second;
    }
    int key = -1;
    std::string error;
    for (std::size_t k = 0; k < seen.size() && error.empty(); ++k) {
        const int r = k < order.size() ? order[k] : -1;
        if (order.size() != seen.size() || r < 0 || r >= size_ || seen[static_cast<std::size_t>(r)] != 0) {
            error = argument_message("llc::Group::reordered",
                                     "order",
                                     "of size " + std::to_string(order.size()),
                                     "must be a permutation of the ranks 0 … " + std::to_string(size_ - 1));
            break;
        }
        seen[static_cast<std::size_t>(r)] = 1;
        key = r == rank_ ? static_cast<int>(k) : key;
    }
    // The same order on every rank, before MPI_Comm_split numbers the ranks by it.
    Agreement(*this, "llc::Group::reordered").same_array("order", std::span<const int>(order)).error(error).check();
    MPI_Comm split = MPI_COMM_NULL;
    detail::check_mpi(MPI_Comm_split(native(), 0, key, &split), "llc::Group::reordered");
    ++splits_;
    // The parent's child, like this group: the same processors at the same depth, only numbered otherwise.
    auto group = std::make_unique<Group>(detail::OwnedComm(split), parent_, path_, Key{});
    Group& result = *group;
    reorders_.emplace(order, std::move(group));
    return result;
}

Group& Group::self() {
    if (!self_) {
        MPI_Comm dup = MPI_COMM_NULL;
        detail::check_mpi(MPI_Comm_dup(MPI_COMM_SELF, &dup), "llc::Group::self");
        detail::OwnedComm owned(dup);
        // MPI_COMM_SELF's handler is fatal unless the program changed it: errors here become llc::MpiError too.
        detail::check_mpi(MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN), "llc::Group::self");
        self_ = std::make_unique<Group>(std::move(owned), this, (path_ == "/" ? "/" : path_ + "/") + "self", Key{});
    }
    return *self_;
}

ShiftInFlight::ShiftInFlight(ShiftInFlight&& other) noexcept
    : group_(std::exchange(other.group_, nullptr)),
      bytes_(other.bytes_),
      requests_{std::exchange(other.requests_[0], MPI_REQUEST_NULL),
                std::exchange(other.requests_[1], MPI_REQUEST_NULL)},
      begin_(other.begin_),
      start_(other.start_),
      posted_(other.posted_),
      traced_(other.traced_) {}

ShiftInFlight::~ShiftInFlight() {
    if (group_ == nullptr) {
        return;
    }
    // Unwinding: the messages still target the caller's buffers; complete them before those can go away.
    if (MPI_Waitall(2, requests_, MPI_STATUSES_IGNORE) != MPI_SUCCESS) {
        abort_job(group_->path(), "llc::ShiftInFlight: completing a split-phase shift failed while unwinding");
    }
}

void ShiftInFlight::wait() {
    if (group_ == nullptr) {
        return;
    }
    auto& recorder = detail::Recorder::instance();
    const double waiting = traced_ ? recorder.now() : 0.0;
    detail::check_mpi(MPI_Waitall(2, requests_, MPI_STATUSES_IGNORE), "llc::ShiftInFlight::wait");
    Group& g = *std::exchange(group_, nullptr);
    if (traced_ && recorder.on()) {
        const double end = recorder.now();
        // Communication: the time inside shift_start (checks and posting) and inside wait; W: the rest.
        const double comm = (posted_ - start_) + (end - waiting);
        recorder.normal("shift.overlap", g.size(), bytes_, begin_, (end - begin_) - comm, comm);
        g.set_superstep_clock(end);
    }
}

}  // namespace llc
