#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

namespace llc {

/// A 64-bit FNV-1a hash of values' bytes, for Group::check_same: ranks that must pass the same array (weights, a mask,
/// a list of sources) compare one number instead of the array. Equal arrays hash equal; a difference shows up with
/// near certainty. Unsigned arithmetic, so the multiplication wraps by definition (signed overflow would be UB).
class Fingerprint {
  public:
    /// Adds the object representation of each value: integers, floating point (bit patterns), and types without
    /// padding, so that equal values add equal bytes.
    template <typename T>
    requires std::is_trivially_copyable_v<T> &&
        (std::has_unique_object_representations_v<T> ||
         std::is_floating_point_v<T>)Fingerprint& add(std::span<const T> values) noexcept {
        add_bytes(std::as_bytes(values));
        return *this;
    }
    /// Adds one integer.
    Fingerprint& add(std::int64_t value) noexcept {
        add_bytes(std::as_bytes(std::span(&value, 1)));
        return *this;
    }
    /// Adds a double's bit pattern (so −0.0 and 0.0 differ, and a NaN equals itself).
    Fingerprint& add(double value) noexcept {
        add_bytes(std::as_bytes(std::span(&value, 1)));
        return *this;
    }

    /// The hash shifted into [0, 2⁶³), the range of check_same's long long values.
    [[nodiscard]] long long value() const noexcept { return static_cast<long long>(hash_ >> 1); }

  private:
    void add_bytes(std::span<const std::byte> bytes) noexcept {
        for (const std::byte b : bytes) {
            hash_ ^= static_cast<std::uint64_t>(b);
            hash_ *= 1099511628211ULL;  // the FNV-1a 64-bit prime
        }
    }

    std::uint64_t hash_ = 14695981039346656037ULL;  // the FNV-1a 64-bit offset basis
};

}  // namespace llc
