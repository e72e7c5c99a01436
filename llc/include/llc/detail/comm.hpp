#pragma once
/// @file
/// llc's one adapter over plain MPI for what Boost.MPI used to do: an owned communicator (RAII) and the serialised
/// transfer of values that are not trivially copyable (Boost.Serialization binary archives carried as MPI bytes).
/// Both builds use it: the default one (Open MPI) and the SimGrid SMPI one, under which Debian's Boost.MPI library
/// (compiled against Open MPI) does not link. No public header of llc includes <boost/mpi/...>.

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <utility>

#include <boost/archive/binary_iarchive.hpp>
#include <boost/archive/binary_oarchive.hpp>
#include <mpi.h>

#include <llc/error.hpp>

namespace llc::detail {

/// A communicator this process owns: freed (MPI_Comm_free) by the destructor, unless MPI is already finalised.
/// Move-only. Holds MPI_COMM_NULL after a move.
class OwnedComm {
  public:
    OwnedComm() noexcept = default;
    /// Takes ownership of `comm` (a communicator this process made: MPI_Comm_dup, MPI_Comm_split).
    explicit OwnedComm(MPI_Comm comm) noexcept : comm_(comm) {}
    OwnedComm(OwnedComm&& other) noexcept : comm_(std::exchange(other.comm_, MPI_COMM_NULL)) {}
    OwnedComm& operator=(OwnedComm&& other) noexcept {
        if (this != &other) {
            free();
            comm_ = std::exchange(other.comm_, MPI_COMM_NULL);
        }
        return *this;
    }
    OwnedComm(const OwnedComm&) = delete;
    OwnedComm& operator=(const OwnedComm&) = delete;
    ~OwnedComm() { free(); }

    [[nodiscard]] MPI_Comm get() const noexcept { return comm_; }
    [[nodiscard]] int size() const {
        int n = 0;
        check_mpi(MPI_Comm_size(comm_, &n), "llc::Group (MPI_Comm_size)");
        return n;
    }
    [[nodiscard]] int rank() const {
        int r = 0;
        check_mpi(MPI_Comm_rank(comm_, &r), "llc::Group (MPI_Comm_rank)");
        return r;
    }

  private:
    void free() noexcept {
        int finalized = 0;
        MPI_Finalized(&finalized);
        if (comm_ != MPI_COMM_NULL && finalized == 0) {
            MPI_Comm_free(&comm_);
        }
        comm_ = MPI_COMM_NULL;
    }
    MPI_Comm comm_ = MPI_COMM_NULL;
};

/// `value` as the bytes of a Boost.Serialization binary archive (include the serialisation header of its type).
template <class T>
std::string serialize(const T& value) {
    std::ostringstream stream(std::ios::binary);
    {
        boost::archive::binary_oarchive archive(stream);
        archive << value;
    }
    return std::move(stream).str();
}

/// Reads `value` back from the bytes serialize() made.
template <class T>
void deserialize(const std::string& bytes, T& value) {
    std::istringstream stream(bytes, std::ios::binary);
    boost::archive::binary_iarchive archive(stream);
    archive >> value;
}

/// Receives one message of bytes of unknown length from `source` with `tag`: MPI_Probe, MPI_Get_count, then MPI_Recv
/// from the probed source and tag. Equivalent to MPI_Mprobe/MPI_Mrecv in llc's single-threaded use (no other thread
/// can take the probed message in between), and SimGrid SMPI 3.32 implements these calls but not the matched ones.
/// `type` is the element type; `resize(n)` is given the element count and returns the buffer to receive into.
template <class Resize>
void probe_receive(MPI_Comm comm, int source, int tag, MPI_Datatype type, const char* function, Resize&& resize) {
    MPI_Status status;
    check_mpi(MPI_Probe(source, tag, comm, &status), function);
    int count = 0;
    check_mpi(MPI_Get_count(&status, type, &count), function);
    void* buffer = resize(static_cast<std::size_t>(count));
    check_mpi(MPI_Recv(buffer, count, type, status.MPI_SOURCE, status.MPI_TAG, comm, MPI_STATUS_IGNORE), function);
}

}  // namespace llc::detail
