// Validation cases of the parallel FFT: the replicated layout (the CCM paper's Figure 4: divisions and combines) and
// the block layout in natural and in the algorithm's own (scrambled) order, priced by llc::cost::fft.
#include <complex>
#include <random>
#include <vector>

#include <llc/algorithms/fft.hpp>
#include <llc/algorithms/fft_cost.hpp>
#include <llc/tools/validation_case.hpp>

#include "card.hpp"

namespace llc::cards {
namespace {

/// The seed of the cases' input (rank r draws from input_seed + r); the probes' are others.
constexpr std::uint64_t input_seed = 1234;

class FftInstance final : public Instance {
  public:
    FftInstance(Group& g, std::int64_t n, FftOptions options)
        : plan_(g, n, options),
          buffers_(
              static_cast<std::size_t>(plan_.input_size()), static_cast<std::size_t>(plan_.output_size()), {}, {}) {
        std::mt19937_64 rng(input_seed + static_cast<unsigned>(g.rank()));
        std::uniform_real_distribution<double> value(-1.0, 1.0);
        for (auto& z : buffers_.a()) {
            z = {value(rng), value(rng)};
        }
    }
    void run() override { plan_.execute(buffers_.a(), buffers_.b()); }

  private:
    FftPlan plan_;
    TwoBuffers<std::complex<double>> buffers_;  // input and output, not aliasing modulo 4 KiB
};

std::vector<std::int64_t> fft_sizes(SizeClass size_class) {
    switch (size_class) {
        case SizeClass::small:
            return {1 << 10, 1 << 14, 1 << 16, 1 << 18};
        case SizeClass::medium:
            return {1 << 12, 1 << 14, 1 << 16, 1 << 18, 1 << 20, 1 << 22};
        case SizeClass::large:
            return {1 << 16, 1 << 18, 1 << 20, 1 << 22, 1 << 24};
    }
    return {};
}

Case fft_case(std::string name, FftLayout layout, FftOrder order) {
    return Case{
        .algorithm = std::move(name),
        .family = "fft",
        .size_unit = "n (complex values)",
        .sizes = fft_sizes,
        .prepare = [layout, order](Group& g, std::int64_t n) -> std::unique_ptr<Instance> {
            return std::make_unique<FftInstance>(g, n, FftOptions{.layout = layout, .order = order});
        },
        .expr = [layout, order](int p,
                                std::int64_t n,
                                const cost::Profile& profile) { return cost::fft(p, n, layout, order, profile); },
        .applies = {},
        .goal = {.median = 0.10},  // issue #4: median ≤ 10 %, P90 ≤ 25 %
        .seed = input_seed,
        .p1_priced_by_whole_run = true,  // the serial plan alone (fft.leaf_oop_solo), probed at odd powers only
    };
}

}  // namespace

std::vector<Case> fft_cases() {
    return {fft_case("fft-replicated", FftLayout::replicated, FftOrder::natural),
            fft_case("fft-block", FftLayout::block, FftOrder::natural),
            fft_case("fft-block-scrambled", FftLayout::block, FftOrder::scrambled)};
}

}  // namespace llc::cards
