#include "fft_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <numbers>
#include <string>
#include <utility>

#include <llc/error.hpp>

namespace llc::detail::fft {

// ---- Buffer ---------------------------------------------------------------------------------------------------------

namespace {

// Buffers of at least one transparent huge page (2 MiB on x86-64) are mappings of their own on huge pages.
// The four-step's strided passes touch a new 4 KiB page at almost every step, so with small pages their prefetches
// and loads miss the TLB as well as the cache. The whole scrambled FFT of 2^22 points at P = 2 (medians of 15, four
// alternating rounds on a 2-core VM; the caller's arrays on ordinary pages): 56–68 ms before the prefetching below,
// 44–53 ms with it, 37–49 ms with this buffer's huge pages as well. Where the kernel offers no transparent huge pages
// the advice is ignored.
constexpr std::size_t simd_alignment = 64;  // ≥ what FFTW's SIMD codelets need

}  // namespace

Buffer::Buffer(std::size_t n, Pages pages) : size_(n) {
    if (n == 0) {
        return;
    }
    const std::size_t bytes = n * sizeof(Complex);
    if (pages == Pages::huge && bytes >= huge_page_bytes) {
        huge_ = HugePageMemory(bytes);
        data_ = static_cast<Complex*>(huge_.data());
    } else {
        const std::size_t rounded = (bytes + simd_alignment - 1) / simd_alignment * simd_alignment;
        data_ = static_cast<Complex*>(std::aligned_alloc(simd_alignment, rounded));  // rounded: its contract
        if (data_ == nullptr) {
            throw std::bad_alloc();
        }
    }
    std::memset(static_cast<void*>(data_), 0, bytes);  // page faults now, not in execute()
}

Buffer::~Buffer() {
    if (huge_.data() == nullptr) {
        std::free(data_);
    }
}

Buffer::Buffer(Buffer&& other) noexcept
    : huge_(std::move(other.huge_)), data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

Buffer& Buffer::operator=(Buffer&& other) noexcept {
    if (this != &other) {
        if (huge_.data() == nullptr) {
            std::free(data_);
        }
        huge_ = std::move(other.huge_);
        data_ = std::exchange(other.data_, nullptr);
        size_ = std::exchange(other.size_, 0);
    }
    return *this;
}

// ---- Leaf -----------------------------------------------------------------------------------------------------------

unsigned planner_flags(FftPlanner planner) {
    switch (planner) {
        case FftPlanner::estimate:
            return FFTW_ESTIMATE;
        case FftPlanner::measure:
            return FFTW_MEASURE;
        case FftPlanner::patient:
            return FFTW_PATIENT;
        case FftPlanner::exhaustive:
            return FFTW_EXHAUSTIVE;
    }
    return FFTW_ESTIMATE;
}

bool four_step_applies(std::size_t n) {
    return n >= (std::size_t{1} << 15) && (n & (n - 1)) == 0;
}

bool uses_four_step(std::size_t n, FftPlanner planner, bool in_place) {
    return planner == FftPlanner::estimate && four_step_applies(n) &&
           !(in_place && n >= in_place_fftw_min && n <= in_place_fftw_max);
}

FourStep::FourStep(std::size_t n, std::size_t istride, int sign, unsigned flags, bool dif_upper)
    : n_(n), istride_(istride) {
    int m = 0;
    while ((std::size_t{1} << m) < n) {
        ++m;
    }
    n1_ = std::size_t{1} << ((m + 1) / 2);
    n2_ = n / n1_;
    twiddles_ = std::make_unique<Twiddles>(n, sign, 0, n);
    if (dif_upper) {
        dif_ = std::make_unique<Twiddles>(2 * n, sign, 0, 2 * n);
        dif_rows_.resize(n1_);
        for (std::size_t j1 = 0; j1 < n1_; ++j1) {
            dif_rows_[j1] = unit_root(2 * n1_, sign, j1);
        }
    }
    middle_ = std::make_unique<Buffer>(n);
    tile_ = std::make_unique<Buffer>(tile_rows * (std::max(n1_, n2_) + pad_));
    const int n1 = static_cast<int>(n1_);
    const int n2 = static_cast<int>(n2_);
    const int howmany = static_cast<int>(tile_rows);
    auto* tile = reinterpret_cast<fftw_complex*>(tile_->data());
    auto* middle = reinterpret_cast<fftw_complex*>(middle_->data());
    const int d1 = static_cast<int>(n1_ + pad_);
    const int d2 = static_cast<int>(n2_ + pad_);
    columns_ = fftw_plan_many_dft(1, &n1, howmany, tile, nullptr, 1, d1, tile, nullptr, 1, d1, sign, flags);
    rows_ = fftw_plan_many_dft(1, &n2, howmany, middle, nullptr, 1, n2, tile, nullptr, 1, d2, sign, flags);
    if (columns_ == nullptr || rows_ == nullptr) {
        throw Error("llc::FftPlan: FFTW could not plan the four-step sub-transforms of " + std::to_string(n));
    }
}

FourStep::~FourStep() {
    if (columns_ != nullptr) {
        fftw_destroy_plan(columns_);
    }
    if (rows_ != nullptr) {
        fftw_destroy_plan(rows_);
    }
}

void FourStep::execute(const Complex* in, Complex* out) {
    run<Mode::plain>(in, nullptr, out);
}

void FourStep::execute_dif(const Complex* a, const Complex* b, bool upper, Complex* out) {
    if (upper) {
        if (!dif_) {
            throw Error("llc::FftPlan: internal error: four-step leaf not prepared for the upper butterfly");
        }
        run<Mode::upper>(a, b, out);
    } else {
        run<Mode::lower>(a, b, out);
    }
}

namespace {

// Rows ahead that the four-step's strided passes prefetch. Every step of those passes touches B = 16 entries (four
// cache lines) of each of n1 or n2 rows 16–32 KiB apart, so the hardware prefetcher, which follows sequential streams,
// never sees a stream, and each line costs a full miss. Prefetching 8 rows ahead cut the gather of a 2^21-point
// leaf by about 40 % and each strided write by about 30 % (measured against the in-cache column FFTs of the same run).
constexpr std::size_t prefetch_rows = 8;

/// Prefetches `count` entries from p on (for writing when `write`), one request per cache line.
template <bool write>
inline void prefetch_entries(const Complex* p, std::size_t count, std::size_t stride) {
    constexpr std::size_t per_line = 64 / sizeof(Complex);
    const std::size_t step = stride >= per_line ? 1 : per_line / stride;
    for (std::size_t q = 0; q < count; q += step) {
        __builtin_prefetch(p + q * stride, write ? 1 : 0);
    }
}

}  // namespace

template <FourStep::Mode M>
void FourStep::run(const Complex* a, const Complex* b, Complex* out) {
    constexpr std::size_t B = tile_rows;
    constexpr std::size_t ahead = prefetch_rows;
    const std::size_t n1 = n1_;
    const std::size_t n2 = n2_;
    const std::size_t d1 = n1 + pad_;  // tile row distance in the column pass
    const std::size_t d2 = n2 + pad_;  // and in the row pass
    const std::size_t s = M == Mode::plain ? istride_ : 1;
    Complex* const tile = tile_->data();
    Complex* const middle = middle_->data();
    // Plain and lower: ω_n^{j2·k1}; upper: ω_{2n}^{j2·(2·k1 + 1)} (the butterfly's ω_{2n}^{j2} merged in).
    const Twiddles& tw = M == Mode::upper ? *dif_ : *twiddles_;
    const Complex* const coarse = tw.coarse();
    const Complex* const fine = tw.fine();
    // Columns j2 ∈ [jb, jb + B): gather x[(j1·n2 + j2)·s] into B rows of n1, transform, then twiddle while
    // scattering to middle[k1][j2] (one pass over the tile, not two).
    for (std::size_t jb = 0; jb < n2; jb += B) {
        for (std::size_t j1 = 0; j1 < n1; ++j1) {
            if (j1 + ahead < n1) {
                prefetch_entries<false>(a + ((j1 + ahead) * n2 + jb) * s, B, s);
                if constexpr (M != Mode::plain) {
                    prefetch_entries<false>(b + (j1 + ahead) * n2 + jb, B, 1);
                }
            }
            if constexpr (M == Mode::plain) {
                const Complex* src = a + (j1 * n2 + jb) * s;
                for (std::size_t q = 0; q < B; ++q) {
                    tile[q * d1 + j1] = src[q * s];
                }
            } else if constexpr (M == Mode::lower) {
                const auto* pa = reinterpret_cast<const double*>(a + j1 * n2 + jb);
                const auto* pb = reinterpret_cast<const double*>(b + j1 * n2 + jb);
                for (std::size_t q = 0; q < B; ++q) {
                    tile[q * d1 + j1] = {pa[2 * q] + pb[2 * q], pa[2 * q + 1] + pb[2 * q + 1]};
                }
            } else {
                const auto* pa = reinterpret_cast<const double*>(a + j1 * n2 + jb);
                const auto* pb = reinterpret_cast<const double*>(b + j1 * n2 + jb);
                const double wr = dif_rows_[j1].real();
                const double wi = dif_rows_[j1].imag();
                for (std::size_t q = 0; q < B; ++q) {
                    const double dr = pa[2 * q] - pb[2 * q];
                    const double di = pa[2 * q + 1] - pb[2 * q + 1];
                    tile[q * d1 + j1] = {dr * wr - di * wi, dr * wi + di * wr};
                }
            }
        }
        fftw_execute_dft(columns_, reinterpret_cast<fftw_complex*>(tile), reinterpret_cast<fftw_complex*>(tile));
        for (std::size_t k1 = 0; k1 < n1; ++k1) {
            auto* dst = reinterpret_cast<double*>(middle + k1 * n2 + jb);
            if (k1 + ahead < n1) {
                prefetch_entries<true>(middle + (k1 + ahead) * n2 + jb, B, 1);
            }
            // Twiddle exponent of column j2 = jb + q: j2·k1 (plain, lower) or j2·(2·k1 + 1) (upper), < n or 2n.
            const std::size_t step = M == Mode::upper ? 2 * k1 + 1 : k1;
            std::size_t e = jb * step;
            for (std::size_t q = 0; q < B; ++q, e += step) {
                const Complex c = coarse[e >> Twiddles::fine_bits];
                const Complex f = fine[e & (Twiddles::fine_size - 1)];
                const double wr = c.real() * f.real() - c.imag() * f.imag();
                const double wi = c.real() * f.imag() + c.imag() * f.real();
                const auto* x = reinterpret_cast<const double*>(tile + q * d1 + k1);
                dst[2 * q] = x[0] * wr - x[1] * wi;
                dst[2 * q + 1] = x[0] * wi + x[1] * wr;
            }
        }
    }
    // Rows k1 ∈ [kb, kb + B): transform middle[k1][·] into the tile, write transposed: out[k1 + n1·k2].
    for (std::size_t kb = 0; kb < n1; kb += B) {
        fftw_execute_dft(
            rows_, reinterpret_cast<fftw_complex*>(middle + kb * n2), reinterpret_cast<fftw_complex*>(tile));
        for (std::size_t k2 = 0; k2 < n2; ++k2) {
            if (k2 + ahead < n2) {
                prefetch_entries<true>(out + (k2 + ahead) * n1 + kb, B, 1);
            }
            Complex* dst = out + k2 * n1 + kb;
            for (std::size_t q = 0; q < B; ++q) {
                dst[q] = tile[q * d2 + k2];
            }
        }
    }
}

Leaf::Leaf(std::size_t n,
           std::size_t istride,
           bool in_place,
           FftDirection direction,
           FftPlanner planner,
           bool dif_upper,
           bool four_step)
    : n_(n),
      istride_(istride),
      in_place_(in_place),
      sign_(direction == FftDirection::forward ? FFTW_FORWARD : FFTW_BACKWARD),
      flags_(planner_flags(planner)) {
    if (four_step ? four_step_applies(n) : uses_four_step(n, planner, in_place)) {
        four_step_ = std::make_unique<FourStep>(n, istride, sign_, flags_, dif_upper);
        return;
    }
    plan_ = make(0);
}

fftw_plan Leaf::make(unsigned extra_flags) const {
    if (n_ > static_cast<std::size_t>(std::numeric_limits<int>::max()) ||
        (n_ - 1) * istride_ >= static_cast<std::size_t>(std::numeric_limits<int>::max())) {
        throw Error("llc::FftPlan: a leaf transform of " + std::to_string(n_) + " entries with stride " +
                    std::to_string(istride_) + " exceeds FFTW's int-indexed interface");
    }
    // Plan on scratch arrays (FFTW_MEASURE overwrites them), SIMD-aligned like every Buffer.
    const Buffer in((n_ - 1) * istride_ + 1);
    const Buffer out(in_place_ ? 0 : n_);
    const int n = static_cast<int>(n_);
    auto* i = reinterpret_cast<fftw_complex*>(in.data());
    auto* o = in_place_ ? i : reinterpret_cast<fftw_complex*>(out.data());
    const fftw_plan plan = fftw_plan_many_dft(
        1, &n, 1, i, nullptr, static_cast<int>(istride_), 0, o, nullptr, 1, 0, sign_, flags_ | extra_flags);
    if (plan == nullptr) {
        throw Error("llc::FftPlan: FFTW could not plan a transform of " + std::to_string(n_) + " entries");
    }
    return plan;
}

void Leaf::destroy() noexcept {
    if (plan_ != nullptr) {
        fftw_destroy_plan(plan_);
        plan_ = nullptr;
    }
    if (unaligned_ != nullptr) {
        fftw_destroy_plan(unaligned_);
        unaligned_ = nullptr;
    }
}

Leaf::~Leaf() {
    destroy();
}

Leaf::Leaf(Leaf&& other) noexcept
    : n_(other.n_),
      istride_(other.istride_),
      in_place_(other.in_place_),
      sign_(other.sign_),
      flags_(other.flags_),
      plan_(std::exchange(other.plan_, nullptr)),
      unaligned_(std::exchange(other.unaligned_, nullptr)),
      four_step_(std::move(other.four_step_)) {}

Leaf& Leaf::operator=(Leaf&& other) noexcept {
    if (this != &other) {
        destroy();
        n_ = other.n_;
        istride_ = other.istride_;
        in_place_ = other.in_place_;
        sign_ = other.sign_;
        flags_ = other.flags_;
        plan_ = std::exchange(other.plan_, nullptr);
        unaligned_ = std::exchange(other.unaligned_, nullptr);
        four_step_ = std::move(other.four_step_);
    }
    return *this;
}

void Leaf::execute(const Complex* in, Complex* out) {
    if (four_step_) {
        four_step_->execute(in, out);
        return;
    }
    // FFTW does not write to the input of an out-of-place complex transform (FFTW_PRESERVE_INPUT is its default).
    auto* i = reinterpret_cast<fftw_complex*>(const_cast<Complex*>(in));
    auto* o = reinterpret_cast<fftw_complex*>(out);
    if (fftw_alignment_of(reinterpret_cast<double*>(i)) == 0 && fftw_alignment_of(reinterpret_cast<double*>(o)) == 0) {
        fftw_execute_dft(plan_, i, o);
        return;
    }
    if (unaligned_ == nullptr) {
        unaligned_ = make(FFTW_UNALIGNED);
    }
    fftw_execute_dft(unaligned_, i, o);
}

void Leaf::execute_dif(const Complex* a, const Complex* b, bool upper, Complex* out) {
    if (!fuses_dif()) {
        throw Error("llc::FftPlan: internal error: butterfly folded into a leaf that is not a four-step");
    }
    four_step_->execute_dif(a, b, upper, out);
}

// ---- Twiddles -------------------------------------------------------------------------------------------------------

Complex unit_root(std::uint64_t N, int sign, std::uint64_t j) {
    j %= N;
    // Fold into the first octant for accuracy: angle = 2π·j/N with j/N reduced exactly in integers.
    const long double angle =
        2.0L * std::numbers::pi_v<long double> * static_cast<long double>(j) / static_cast<long double>(N);
    const long double c = std::cos(angle);
    const long double s = std::sin(angle);
    // Exact values at multiples of a quarter turn (no 1e-17 residue where the answer is 0).
    if (4 * j % N == 0) {
        const std::uint64_t q = 4 * j / N;
        static constexpr double cs[4][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
        return {cs[q][0], sign * cs[q][1]};
    }
    return {static_cast<double>(c), static_cast<double>(sign * s)};
}

Twiddles::Twiddles(std::uint64_t N, int sign, std::uint64_t first, std::size_t count) : count_(count) {
    const std::size_t blocks = (count + fine_size - 1) / fine_size;
    coarse_.resize(blocks);
    for (std::size_t b = 0; b < blocks; ++b) {
        coarse_[b] = unit_root(N, sign, first + b * fine_size);
    }
    fine_.resize(std::min(count, fine_size));
    for (std::size_t f = 0; f < fine_.size(); ++f) {
        fine_[f] = unit_root(N, sign, f);
    }
}

Complex Twiddles::at(std::size_t j) const {
    const Complex c = coarse_[j >> fine_bits];
    const Complex f = fine_[j & (fine_size - 1)];
    return {c.real() * f.real() - c.imag() * f.imag(), c.real() * f.imag() + c.imag() * f.real()};
}

// ---- Kernels --------------------------------------------------------------------------------------------------------
// Written on interleaved doubles with restrict pointers so that GCC vectorises them; complex products by hand (no
// __muldc3 calls: NaN and infinities propagate as through FFTW's own arithmetic).

namespace {

/// wr/wi[f] = c·fine[f] for f < count: the twiddles of one block, in split form for vector loads.
inline void block_twiddles(
    Complex c, const Complex* fine, std::size_t count, double* __restrict wr, double* __restrict wi) {
    const auto* f = reinterpret_cast<const double*>(fine);
    const double cr = c.real();
    const double ci = c.imag();
    for (std::size_t i = 0; i < count; ++i) {
        wr[i] = cr * f[2 * i] - ci * f[2 * i + 1];
        wi[i] = cr * f[2 * i + 1] + ci * f[2 * i];
    }
}

template <bool InPlace>
void dif_upper_impl(const double* __restrict a, const double* b, double* y, const Twiddles& w) {
    alignas(64) double wr[Twiddles::fine_size];
    alignas(64) double wi[Twiddles::fine_size];
    const std::size_t L = w.count();
    for (std::size_t start = 0; start < L; start += Twiddles::fine_size) {
        const std::size_t count = std::min(Twiddles::fine_size, L - start);
        block_twiddles(w.coarse()[start >> Twiddles::fine_bits], w.fine(), count, wr, wi);
        const double* __restrict ab = a + 2 * start;
        if constexpr (InPlace) {
            double* __restrict yb = y + 2 * start;
            for (std::size_t i = 0; i < count; ++i) {
                const double dr = ab[2 * i] - yb[2 * i];
                const double di = ab[2 * i + 1] - yb[2 * i + 1];
                yb[2 * i] = dr * wr[i] - di * wi[i];
                yb[2 * i + 1] = dr * wi[i] + di * wr[i];
            }
        } else {
            const double* __restrict bb = b + 2 * start;
            double* __restrict yb = y + 2 * start;
            for (std::size_t i = 0; i < count; ++i) {
                const double dr = ab[2 * i] - bb[2 * i];
                const double di = ab[2 * i + 1] - bb[2 * i + 1];
                yb[2 * i] = dr * wr[i] - di * wi[i];
                yb[2 * i + 1] = dr * wi[i] + di * wr[i];
            }
        }
    }
}

}  // namespace

void dif_lower(const Complex* a, const Complex* b, Complex* y, std::size_t L) {
    const auto* bd = reinterpret_cast<const double*>(b);
    if (y == a) {
        double* __restrict yd = reinterpret_cast<double*>(y);
        const double* __restrict bb = bd;
        for (std::size_t i = 0; i < 2 * L; ++i) {
            yd[i] += bb[i];
        }
        return;
    }
    const double* __restrict ad = reinterpret_cast<const double*>(a);
    const double* __restrict bb = bd;
    double* __restrict yd = reinterpret_cast<double*>(y);
    for (std::size_t i = 0; i < 2 * L; ++i) {
        yd[i] = ad[i] + bb[i];
    }
}

void dif_upper(const Complex* a, const Complex* b, Complex* y, const Twiddles& w) {
    const auto* ad = reinterpret_cast<const double*>(a);
    const auto* bd = reinterpret_cast<const double*>(b);
    auto* yd = reinterpret_cast<double*>(y);
    if (y == b) {
        dif_upper_impl<true>(ad, bd, yd, w);
    } else {
        dif_upper_impl<false>(ad, bd, yd, w);
    }
}

void dit_combine(Complex* x, const Twiddles& w) {
    alignas(64) double wr[Twiddles::fine_size];
    alignas(64) double wi[Twiddles::fine_size];
    const std::size_t h = w.count();
    double* __restrict lo = reinterpret_cast<double*>(x);
    double* __restrict hi = reinterpret_cast<double*>(x + h);
    for (std::size_t start = 0; start < h; start += Twiddles::fine_size) {
        const std::size_t count = std::min(Twiddles::fine_size, h - start);
        block_twiddles(w.coarse()[start >> Twiddles::fine_bits], w.fine(), count, wr, wi);
        double* __restrict lb = lo + 2 * start;
        double* __restrict hb = hi + 2 * start;
        for (std::size_t i = 0; i < count; ++i) {
            const double er = lb[2 * i];
            const double ei = lb[2 * i + 1];
            const double orr = hb[2 * i] * wr[i] - hb[2 * i + 1] * wi[i];
            const double oi = hb[2 * i] * wi[i] + hb[2 * i + 1] * wr[i];
            lb[2 * i] = er + orr;
            lb[2 * i + 1] = ei + oi;
            hb[2 * i] = er - orr;
            hb[2 * i + 1] = ei - oi;
        }
    }
}

void scatter_strided(const Complex* src, Complex* out, std::size_t count, std::size_t P, std::size_t c) {
    const Complex* __restrict s = src;
    Complex* __restrict o = out + c;
    for (std::size_t m = 0; m < count; ++m) {
        o[m * P] = s[m];
    }
}

void interleave2(const Complex* mine, const Complex* theirs, Complex* out, std::size_t count, std::size_t c) {
    const double* __restrict a = reinterpret_cast<const double*>(c == 0 ? mine : theirs);
    const double* __restrict b = reinterpret_cast<const double*>(c == 0 ? theirs : mine);
    double* __restrict o = reinterpret_cast<double*>(out);
    for (std::size_t m = 0; m < count; ++m) {
        o[4 * m] = a[2 * m];
        o[4 * m + 1] = a[2 * m + 1];
        o[4 * m + 2] = b[2 * m];
        o[4 * m + 3] = b[2 * m + 1];
    }
}

std::uint64_t bit_reverse(std::uint64_t x, int bits) {
    std::uint64_t r = 0;
    for (int b = 0; b < bits; ++b) {
        r = (r << 1) | ((x >> b) & 1U);
    }
    return r;
}

}  // namespace llc::detail::fft
