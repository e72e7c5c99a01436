#pragma once
/// @file
/// llc::Agreement — the arguments every rank of a group must pass the same, agreed on before any data moves.
///
/// Every collective entry point of llc and of its algorithms describes its arguments to one Agreement and calls
/// check() before its first message. The check is one allreduce of a fixed size (four integers), whatever the
/// arguments and whichever entry point a rank is in: ranks that disagree on a value, on an array, or on which
/// collective they are calling all learn it from the same allreduce and throw llc::Error together, never a truncated
/// message on one rank and a hang on the others. Only then, on the error path, do the ranks exchange what they passed,
/// so that the message shows the values (per rank, the first differing entries of an array beside its fingerprint).
/// With checks off (LLC_CHECKS=0) or P = 1 only this rank's own verdict (error()) is thrown.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <llc/error.hpp>

namespace llc {

class Group;

namespace detail {
/// How Agreement::same_array shows one entry when no formatter is given: integers and floating point as numbers.
struct FormatEntry {
    template <class T>
    std::string operator()(const T& value) const {
        if constexpr (std::is_floating_point_v<T>) {
            return format_value(static_cast<double>(value));
        } else if constexpr (std::is_integral_v<T> || std::is_enum_v<T>) {
            return std::to_string(static_cast<long long>(value));
        } else {
            return "(" + std::to_string(sizeof(T)) + " bytes)";
        }
    }
};
}  // namespace detail

/// The arguments of one call of a collective entry point, compared across the group by check():
/// ```cpp
/// Agreement(g, "llc::distance_transform")
///     .same("metric", static_cast<long long>(metric), metric_name(metric))
///     .same("image.layout.width", width)
///     .same_array("mask", std::span(steps), format_step)
///     .error(local_problem)  // this rank's own verdict, "" when its arguments are fine
///     .check();
/// ```
/// @throws llc::Error from check() on every rank of the group when a value differs across the ranks (the message
///         lists each value with the ranks that passed it), when the ranks are in different entry points, or when
///         some rank's own verdict is an error (the rank's own message there, the others' messages elsewhere).
class Agreement {
  public:
    Agreement(Group& g, const char* function);

    /// An integer argument (a size, n, r, a root, an enum's value); `shown`, when not empty, is how it is printed
    /// (an enum's name).
    Agreement& same(std::string_view name, long long value, std::string_view shown = {});
    /// A floating-point argument, compared by its bit pattern (−0.0 ≠ 0.0, a NaN equals itself).
    Agreement& same_real(std::string_view name, double value);
    /// An array argument (a mask, a list of sources, dims), compared by its size and the fingerprint of its bytes; on a
    /// difference the message shows the first entry that differs from rank 0's, formatted by `format(entry)`.
    template <class T, class Format = detail::FormatEntry>
    requires std::is_trivially_copyable_v<T> Agreement& same_array(std::string_view name,
                                                                   std::span<const T> values,
                                                                   Format format = {}) {
        add_array(name, std::as_bytes(values), sizeof(T), [format](const std::byte* entry) {
            T value;
            std::memcpy(&value, entry, sizeof(T));
            return std::string(format(value));
        });
        return *this;
    }
    /// This rank's own verdict on its arguments (an empty string: none). The first non-empty one is kept.
    Agreement& error(std::string message);
    /// A pairing (SWAP's partner relation): this rank exchanges with rank `partner`, sending `send_count` and receiving
    /// `recv_count` elements. check() then also verifies that the relation pairs the ranks up (partner(partner(r)) = r,
    /// a rank with nothing to exchange naming itself) and that every receive size is the partner's send size: each
    /// rank adds the hash of its exchange (r, partner, send, recv) and subtracts the hash of the one its partner must
    /// declare (partner, r, recv, send); the sum over the ranks, in the same allreduce, is 0 when every exchange is
    /// matched, and is 0 otherwise only if 64-bit hashes collide (probability about 2⁻⁶⁴: a hang then, never wrong
    /// data). On a failure every rank lists the ranks whose partner does not name them back, or the sizes that differ.
    Agreement& pairing(std::string_view name, int partner, long long send_count, long long recv_count);

    /// One allreduce (nothing with checks off or at P = 1); throws llc::Error on every rank unless all agree.
    void check();

  private:
    struct Argument {
        std::string name;
        long long key = 0;  ///< compared across the ranks: the value, a bit pattern, or an array's fingerprint
        std::string
            shown;  ///< printed when it differs; empty: the key as an integer (arrays: filled in on the error path)
        std::span<const std::byte> bytes;
        std::size_t entry_size = 0;  ///< 0 for a scalar
        std::function<std::string(const std::byte*)> format;
    };
    void add_array(std::string_view name,
                   std::span<const std::byte> bytes,
                   std::size_t entry_size,
                   std::function<std::string(const std::byte*)> format);
    [[noreturn]] void explain();
    [[nodiscard]] std::string record() const;

    /// The pairing, when pairing() was called.
    struct Pairing {
        std::string name;
        long long partner = -1;
        long long send = 0;
        long long recv = 0;
    };
    [[nodiscard]] std::string explain_pairing(const std::vector<std::string>& pairings) const;

    Group* group_;
    const char* function_;
    std::vector<Argument> arguments_;
    std::string error_;
    Pairing pairing_;
    bool paired_ = false;
};

}  // namespace llc
