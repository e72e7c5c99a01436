#pragma once
// Sizes of the MPI tests under SimGrid SMPI. The tests' sizes were chosen for P <= 8 on real cores; under SMPI
// (LLC_SMPI, tests/smpi) every rank's computation, the tests' oracles included, runs on the host one rank after
// another, so a test's wall time grows with P times its sizes. There the tests take the smaller lists below, which
// keep the cases that matter at scale: n < P, uneven splits, primes, and every layout and option.
#include <initializer_list>
#include <vector>

namespace llc::test {

#ifdef LLC_SMPI
inline constexpr bool under_smpi = true;
#else
inline constexpr bool under_smpi = false;
#endif

/// Built with AddressSanitizer (GCC's and Clang's macros): the sanitizer build, which leaves to the Release build the
/// parts of a test that time code rather than check memory (scripts/test.sh).
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool under_sanitizers = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool under_sanitizers = true;
#else
inline constexpr bool under_sanitizers = false;
#endif
#else
inline constexpr bool under_sanitizers = false;
#endif

/// `full` in the default build, `smpi` under SimGrid SMPI.
template <class T>
std::vector<T> sizes_for(std::initializer_list<T> full, std::initializer_list<T> smpi) {
    return under_smpi ? std::vector<T>(smpi) : std::vector<T>(full);
}

}  // namespace llc::test
