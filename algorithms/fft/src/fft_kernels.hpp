#pragma once
/// @file
/// Internals of the parallel FFT: FFTW leaf plans, twiddle tables and the streaming kernels (butterflies, combine,
/// interleave). Private to algorithms/fft; also used by the kernel probes.

#include <complex>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include <fftw3.h>

#include <llc/algorithms/fft.hpp>
#include <llc/huge_pages.hpp>

namespace llc::detail::fft {

using Complex = std::complex<double>;

/// The pages of a Buffer: `huge` (the plans' own buffers) puts a buffer of 2 MiB or more on a mapping of its own,
/// aligned to a transparent huge page and advised to use huge pages before its first touch (llc::HugePageMemory: the
/// allocator's recycled pages would keep whatever kind they were faulted in as; see fft_kernels.cpp); `ordinary` leaves
/// the pages as a caller's std::vector gets them, for the kernel probes' stand-ins of the caller's arrays.
enum class Pages { huge, ordinary };

/// Aligned storage: SIMD-aligned, so FFTW plans made on it run on it without FFTW_UNALIGNED, and on huge pages from
/// 2 MiB on unless asked otherwise. Zeroed once by the constructor so page faults are paid at planning, not at
/// execution.
class Buffer {
  public:
    Buffer() = default;
    explicit Buffer(std::size_t n, Pages pages = Pages::huge);
    ~Buffer();
    Buffer(Buffer&& other) noexcept;
    Buffer& operator=(Buffer&& other) noexcept;
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    [[nodiscard]] Complex* data() const noexcept { return data_; }
    [[nodiscard]] std::size_t size() const noexcept { return size_; }
    [[nodiscard]] std::span<Complex> span() const noexcept { return {data_, size_}; }

  private:
    HugePageMemory huge_;      ///< the mapping of a `huge` buffer of 2 MiB or more; empty otherwise
    Complex* data_ = nullptr;  ///< huge_'s memory, or std::aligned_alloc's
    std::size_t size_ = 0;
};

/// FFTW planner flags for a planner choice.
[[nodiscard]] unsigned planner_flags(FftPlanner planner);

class Twiddles;

/// A large power-of-two transform by the four-step method: n = n1·n2, column transforms of length n1 on tiles of
/// `tile_rows` columns (gathered with the input stride), twiddles ω_n^{j2·k1}, row transforms of length n2 on tiles
/// written transposed into the output. Every FFTW call is a small batched transform that fits in cache, so plans
/// made with FFTW_ESTIMATE in microseconds run close to an FFTW_MEASURE plan of the whole length (FFTW_ESTIMATE's
/// own choice for large n streams the data through memory several times more). Three passes over memory: read the
/// input, write and read the intermediate, write the output. `in` may equal `out`.
///
/// The last decimation-in-frequency butterfly of the block algorithm can be folded into the column pass
/// (`execute_dif`): the gather reads both partners' entries and combines them, so the butterfly's own pass over
/// memory disappears. The upper partner's twiddle ω_{2n}^{j1·n2 + j2} splits into ω_{2n1}^{j1} (one factor per row,
/// applied in the gather) and ω_{2n}^{j2}, merged with the four-step twiddle into ω_{2n}^{j2·(2·k1 + 1)}.
class FourStep {
  public:
    static constexpr std::size_t tile_rows = 16;
    /// `dif_upper`: also prepare the tables of execute_dif(upper = true).
    FourStep(std::size_t n, std::size_t istride, int sign, unsigned flags, bool dif_upper = false);
    ~FourStep();
    FourStep(const FourStep&) = delete;
    FourStep& operator=(const FourStep&) = delete;
    void execute(const Complex* in, Complex* out);
    /// out = DFT of y (contiguous, istride 1), y[i] = a[i] + b[i] (lower) or (a[i] − b[i])·ω_{2n}^i (upper; needs
    /// the plan made with dif_upper). `out` may equal `a` or `b`.
    void execute_dif(const Complex* a, const Complex* b, bool upper, Complex* out);

  private:
    enum class Mode { plain, lower, upper };
    template <Mode M>
    void run(const Complex* a, const Complex* b, Complex* out);

    std::size_t n_;
    std::size_t n1_;
    std::size_t n2_;
    // Tile rows lie n1 + pad_ (column pass) or n2 + pad_ (row pass) entries apart, not a power of two, so the B
    // entries a gather or scatter step touches do not all fall into the same cache sets.
    static constexpr std::size_t pad_ = 4;
    std::size_t istride_;
    std::unique_ptr<Twiddles> twiddles_;  // ω_n^m for m < n, coarse × fine
    std::unique_ptr<Twiddles> dif_;       // dif_upper: ω_{2n}^m for m < 2n
    std::vector<Complex> dif_rows_;       // dif_upper: ω_{2n1}^{j1} for j1 < n1
    std::unique_ptr<Buffer> middle_;      // n1 × n2, row-major [k1][j2]
    std::unique_ptr<Buffer> tile_;
    fftw_plan columns_ = nullptr;  // tile_rows transforms of n1, contiguous, in place on the tile
    fftw_plan rows_ = nullptr;     // tile_rows transforms of n2, from the intermediate into the tile
};

/// Whether FourStep can compute a transform of length n: powers of two from 2^15.
[[nodiscard]] bool four_step_applies(std::size_t n);
/// The in-place lengths for which Leaf keeps FFTW_ESTIMATE's own plan instead of FourStep: 2^17 and 2^18 (arrays of 2
/// and 4 MiB, between the 1 MiB L2 and the 32 MiB L3 of the machine they were measured on). There, as the block
/// layout's scrambled last stage at P = 2 (n = 2^18, 2^19; medians of 5 runs), the butterfly followed by FFTW in
/// place took 1.67 and 3.64 ms against 2.62 and 6.38 ms folded into the four-step. Below (L = 2^15: 0.49 against
/// 0.38 ms; 2^16: 0.84 against 0.76 ms) the fold saves a pass that counts more, and above (2^19 on) FFTW_ESTIMATE's
/// plan falls off (one core, 2^20: 33.7 against 16.6 ms). Out of place the four-step is faster from 2^15 on (2^17:
/// 1.17 against 1.30 ms; 2^20: 14.5 against 31.1 ms). Checked again after FourStep learned to prefetch (three
/// alternating rounds, medians of 15, n = 2^18 and 2^19): 1.76–2.33 and 5.09–5.42 ms with FFTW in place against
/// 2.63–3.16 and 6.08–6.37 ms folded.
inline constexpr std::size_t in_place_fftw_min = std::size_t{1} << 17;
inline constexpr std::size_t in_place_fftw_max = std::size_t{1} << 18;

/// Whether Leaf uses FourStep for a transform of length n with this planner by default: with FFTW_ESTIMATE where it
/// applies — out of place from 2^15, in place from 2^15 except in_place_fftw_min … in_place_fftw_max (a measured plan
/// of the whole length is FFTW's own best and is used unless asked otherwise).
[[nodiscard]] bool uses_four_step(std::size_t n, FftPlanner planner, bool in_place);

/// One sequential FFTW transform of length n reading with stride `istride` and writing contiguously, either out of
/// place or in place (istride 1). Planned once on scratch arrays; executed on any arrays with fftw_execute_dft. An
/// array whose alignment differs from the planned one goes through a second plan made with FFTW_UNALIGNED on first
/// need. Large powers of two with the estimate planner go through FourStep.
class Leaf {
  public:
    Leaf() = default;
    /// `dif_upper`: prepare execute_dif(upper = true) (the upper partner's last butterfly folded into the leaf).
    /// `four_step`: use FourStep wherever it applies, whatever the planner (its sub-plans take the planner's flags).
    Leaf(std::size_t n,
         std::size_t istride,
         bool in_place,
         FftDirection direction,
         FftPlanner planner,
         bool dif_upper = false,
         bool four_step = false);
    ~Leaf();
    Leaf(Leaf&& other) noexcept;
    Leaf& operator=(Leaf&& other) noexcept;
    Leaf(const Leaf&) = delete;
    Leaf& operator=(const Leaf&) = delete;

    /// out[k] = Σ_j in[j·istride]·ω^{jk}. For an in-place leaf `in` must equal `out`.
    void execute(const Complex* in, Complex* out);
    /// out = DFT of the block algorithm's last decimation-in-frequency butterfly, y[i] = a[i] + b[i] (lower) or
    /// (a[i] − b[i])·ω_{2n}^i (upper, needs the leaf made with dif_upper), folded into the four-step's first pass.
    /// a = the lower partner's entries, b = the upper's; `out` may equal either. Only when fuses_dif().
    void execute_dif(const Complex* a, const Complex* b, bool upper, Complex* out);
    [[nodiscard]] bool fuses_dif() const noexcept { return four_step_ != nullptr && istride_ == 1; }
    [[nodiscard]] std::size_t n() const noexcept { return n_; }
    [[nodiscard]] bool valid() const noexcept { return plan_ != nullptr || four_step_ != nullptr; }

  private:
    [[nodiscard]] fftw_plan make(unsigned extra_flags) const;
    void destroy() noexcept;
    std::size_t n_ = 0;
    std::size_t istride_ = 1;
    bool in_place_ = false;
    int sign_ = FFTW_FORWARD;
    unsigned flags_ = FFTW_ESTIMATE;
    fftw_plan plan_ = nullptr;
    fftw_plan unaligned_ = nullptr;
    std::unique_ptr<FourStep> four_step_;
};

/// w(j) = e^{sign·2πi·(first + j)/N} for 0 ≤ j < count, as the product of two small tables (coarse × fine), so a
/// kernel streams no twiddle array: the tables (≈ 2·√count entries) stay in cache. Entries are computed in long
/// double; the product is within a few ulp of the exact value.
class Twiddles {
  public:
    static constexpr std::size_t fine_bits = 10;
    static constexpr std::size_t fine_size = std::size_t{1} << fine_bits;

    Twiddles() = default;
    Twiddles(std::uint64_t N, int sign, std::uint64_t first, std::size_t count);
    [[nodiscard]] std::size_t count() const noexcept { return count_; }
    [[nodiscard]] const Complex* coarse() const noexcept { return coarse_.data(); }
    [[nodiscard]] const Complex* fine() const noexcept { return fine_.data(); }
    [[nodiscard]] Complex at(std::size_t j) const;

  private:
    std::size_t count_ = 0;
    std::vector<Complex> coarse_;  // w(first + b·fine_size)
    std::vector<Complex> fine_;    // e^{sign·2πi·f/N}, f < fine_size
};

/// e^{sign·2πi·j/N}, accurate to the last bit of a double (long-double evaluation, exact reduction of j/N).
[[nodiscard]] Complex unit_root(std::uint64_t N, int sign, std::uint64_t j);

/// Decimation-in-frequency butterfly of the lower partner: y[i] = a[i] + b[i]. y may alias a.
void dif_lower(const Complex* a, const Complex* b, Complex* y, std::size_t L);
/// Decimation-in-frequency butterfly of the upper partner: y[i] = (a[i] − b[i])·w(i), a = the lower partner's
/// entries, b = own. y may alias b.
void dif_upper(const Complex* a, const Complex* b, Complex* y, const Twiddles& w);
/// Decimation-in-time combine, in place: for k < h, (x[k], x[k+h]) ← (x[k] + w(k)·x[k+h], x[k] − w(k)·x[k+h]).
void dit_combine(Complex* x, const Twiddles& w);
/// out[m·P + c] = src[m] for m < count (a strided scatter).
void scatter_strided(const Complex* src, Complex* out, std::size_t count, std::size_t P, std::size_t c);
/// out[2m + c] = mine[m], out[2m + 1 − c] = theirs[m] for m < count.
void interleave2(const Complex* mine, const Complex* theirs, Complex* out, std::size_t count, std::size_t c);

/// Reverses the low `bits` bits of x.
[[nodiscard]] std::uint64_t bit_reverse(std::uint64_t x, int bits);

}  // namespace llc::detail::fft
