// Validation case of the symmetric matrix–vector product (algorithms/symv): a random symmetric matrix with the
// reflection mapping, built once (the operator a Lanczos or CG run reuses), one timed product y = Ax per run(),
// overlapped shifts; priced by llc::cost::symv.
#include <random>
#include <vector>

#include <llc/algorithms/symv.hpp>

#include "case.hpp"

namespace llc::validate {
namespace {

/// An entry in [−1, 1) from (i, j): a hash, so that each rank generates only its own rows.
double entry(std::int64_t i, std::int64_t j) {
    std::uint64_t z = static_cast<std::uint64_t>(i) * 0x9e3779b97f4a7c15ULL ^ static_cast<std::uint64_t>(j);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return static_cast<double>((z ^ (z >> 31)) >> 11) * 0x1.0p-52 - 1.0;
}

class SymvInstance final : public Instance {
  public:
    SymvInstance(Group& g, std::int64_t n)
        : g_(g),
          A_(g, n, entry),
          x_(static_cast<std::size_t>(A_.local_rows()), 1.0),
          y_(static_cast<std::size_t>(A_.local_rows()), 0.0) {
        std::mt19937_64 rng(20261125);
        std::uniform_real_distribution<double> dist(-1.0, 1.0);
        for (auto& v : x_) {
            v = dist(rng);
        }
    }
    void run() override { symv<double>(g_, 1.0, A_, x_, 0.0, y_); }

  private:
    Group& g_;
    SymmetricMatrix<double> A_;
    std::vector<double> x_;
    std::vector<double> y_;
};

std::vector<std::int64_t> sizes(SizeClass size_class) {
    switch (size_class) {
        case SizeClass::small:
            return {256, 1024, 2048};
        case SizeClass::medium:
            return {512, 1024, 2048, 4096, 8192};
        case SizeClass::large:
            return {1024, 4096, 8192, 16384};
    }
    return {};
}

}  // namespace

std::vector<Case> symv_cases() {
    return {Case{
        .algorithm = "symv",
        .family = "linear-algebra",
        .size_unit = "rows",
        .sizes = sizes,
        .prepare = [](Group& g, std::int64_t n) -> std::unique_ptr<Instance> {
            return std::make_unique<SymvInstance>(g, n);
        },
        .expr = [](int p,
                   std::int64_t n,
                   const cost::Profile& profile) { return cost::symv(p, n, SymvMapping::reflection, profile, true); },
        .applies = {},
        .goal = {},
    }};
}

}  // namespace llc::validate
