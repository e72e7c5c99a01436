#pragma once
/// @file
/// MPI datatypes for the fast path: a value type that is trivially copyable travels as its own MPI type (arithmetic
/// and complex types) or as a contiguous block of sizeof(T) bytes (anything else trivially copyable).

#include <complex>
#include <concepts>
#include <cstdint>
#include <ranges>
#include <span>
#include <type_traits>

#include <mpi.h>

namespace llc {

/// Values that travel as raw bytes, without serialisation.
template <class T>
concept Trivial = std::is_trivially_copyable_v<T> && !std::is_pointer_v<T>;

/// Values that MPI's predefined reduction operations understand.
template <class T>
concept Reducible =
    std::is_arithmetic_v<T> || std::same_as<T, std::complex<float>> || std::same_as<T, std::complex<double>>;

/// Containers that travel without serialisation: contiguous, resizable, trivially copyable elements
/// (std::vector<double>, std::string, …).
template <class R>
concept TrivialContainer = std::ranges::contiguous_range<R> && Trivial<std::ranges::range_value_t<R>> &&
    requires(R& r, std::size_t n) {
    r.resize(n);
};

/// What the span-taking APIs also take by deduction (a std::vector, a std::array, a span of non-const values): a
/// contiguous sized range, forwarded to them as a span. The exact span types are left to the span overloads.
template <class R>
concept ContiguousRange = std::ranges::contiguous_range<R> && std::ranges::sized_range<R>;
/// A ContiguousRange whose entries can be written (not const): what an output span also takes.
template <class R>
concept WritableRange =
    ContiguousRange<R> && !std::is_const_v<std::remove_reference_t<std::ranges::range_reference_t<R>>>;

namespace detail {

/// Whether R is exactly std::span<const V> (an input span) or std::span<V> (an output span) of its values.
template <class R>
concept InputSpan = std::same_as<std::remove_cvref_t<R>, std::span<const std::ranges::range_value_t<R>>>;
template <class R>
concept OutputSpan = std::same_as<std::remove_cvref_t<R>, std::span<std::ranges::range_value_t<R>>>;

/// A ContiguousRange that is not already the input span it stands for.
template <class R>
concept InputRange = ContiguousRange<R> && !InputSpan<R>;

/// The range as the span the APIs take.
template <ContiguousRange R>
std::span<const std::ranges::range_value_t<R>> input_span(const R& r) {
    return {std::ranges::data(r), std::ranges::size(r)};
}
template <WritableRange R>
std::span<std::ranges::range_value_t<R>> output_span(R&& r) {
    return {std::ranges::data(r), std::ranges::size(r)};
}
/// Two ranges of the same values, not both already the exact spans (in, out) of an API.
template <class In, class Out>
concept RangePair = ContiguousRange<In> && WritableRange<Out> &&
    std::same_as<std::ranges::range_value_t<In>, std::ranges::range_value_t<Out>> &&
    !(InputSpan<In> && OutputSpan<Out>);

/// A committed MPI datatype of `bytes` contiguous bytes, made once per size and freed at MPI_Finalize.
MPI_Datatype byte_block_type(std::size_t bytes);

template <class T>
MPI_Datatype mpi_type() {
    using U = std::remove_cv_t<T>;
    if constexpr (std::is_same_v<U, char>)
        return MPI_CHAR;
    else if constexpr (std::is_same_v<U, signed char>)
        return MPI_SIGNED_CHAR;
    else if constexpr (std::is_same_v<U, unsigned char>)
        return MPI_UNSIGNED_CHAR;
    else if constexpr (std::is_same_v<U, bool>)
        return MPI_CXX_BOOL;
    else if constexpr (std::is_same_v<U, short>)
        return MPI_SHORT;
    else if constexpr (std::is_same_v<U, unsigned short>)
        return MPI_UNSIGNED_SHORT;
    else if constexpr (std::is_same_v<U, int>)
        return MPI_INT;
    else if constexpr (std::is_same_v<U, unsigned>)
        return MPI_UNSIGNED;
    else if constexpr (std::is_same_v<U, long>)
        return MPI_LONG;
    else if constexpr (std::is_same_v<U, unsigned long>)
        return MPI_UNSIGNED_LONG;
    else if constexpr (std::is_same_v<U, long long>)
        return MPI_LONG_LONG;
    else if constexpr (std::is_same_v<U, unsigned long long>)
        return MPI_UNSIGNED_LONG_LONG;
    else if constexpr (std::is_same_v<U, float>)
        return MPI_FLOAT;
    else if constexpr (std::is_same_v<U, double>)
        return MPI_DOUBLE;
    else if constexpr (std::is_same_v<U, long double>)
        return MPI_LONG_DOUBLE;
#if defined(LLC_SMPI)
    // SimGrid SMPI 3.32 declares MPI_CXX_*_COMPLEX under misspelt names (smpi.h: smpi_MPI_MPI_CXX_DOULE_COMPLEX …),
    // so they do not link; the C types have std::complex's layout (two values, real part first) and its sums.
    else if constexpr (std::is_same_v<U, std::complex<float>>)
        return MPI_C_FLOAT_COMPLEX;
    else if constexpr (std::is_same_v<U, std::complex<double>>)
        return MPI_C_DOUBLE_COMPLEX;
#else
    else if constexpr (std::is_same_v<U, std::complex<float>>)
        return MPI_CXX_FLOAT_COMPLEX;
    else if constexpr (std::is_same_v<U, std::complex<double>>)
        return MPI_CXX_DOUBLE_COMPLEX;
#endif
    else
        return byte_block_type(sizeof(U));
}

}  // namespace detail
}  // namespace llc
