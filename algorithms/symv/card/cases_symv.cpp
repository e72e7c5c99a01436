// Validation cases of the symmetric matrix–vector product (algorithms/symv): the generated symmetric matrix (input.hpp)
// built once (the operator a Lanczos or CG run reuses), one timed product y = Ax per run(), overlapped shifts, priced
// by llc::cost::symv: "symv" with the reflection mapping (the algorithm), "symv-standard" with the standard one (the
// article's §2 algorithm, priced with the "symv.row_share" constants, which no other case reads).
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <llc/algorithms/symv.hpp>
#include <llc/tools/validation_case.hpp>

#include "card.hpp"
#include "input.hpp"

namespace llc::cards {
namespace {

class SymvInstance final : public Instance {
  public:
    SymvInstance(Group& g, std::int64_t n, SymvMapping mapping)
        : g_(g), A_(g, n, SymvInput{}, mapping), y_(static_cast<std::size_t>(A_.local_rows()), 0.0) {
        for (const std::int64_t i : A_.local_row_indices()) {
            x_.push_back(SymvInput{}.x(i));
        }
    }
    void run() override { symv<double>(g_, 1.0, A_, A_.layout(), x_, 0.0, y_); }

  private:
    Group& g_;
    SymmetricMatrix<double> A_;
    std::vector<double> x_;
    std::vector<double> y_;
};

std::vector<std::int64_t> symv_sizes(SizeClass size_class) {
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

Case symv_case(std::string name, SymvMapping mapping) {
    return Case{
        .algorithm = std::move(name),
        .family = "linear-algebra",
        .size_unit = "rows",
        .sizes = symv_sizes,
        .prepare = [mapping](Group& g, std::int64_t n) -> std::unique_ptr<Instance> {
            return std::make_unique<SymvInstance>(g, n, mapping);
        },
        .expr =
            [mapping](int p, std::int64_t n, const cost::Profile& profile) {
                // The product runs its overlapped shifts; llc's shift moves data only inside MPI calls on the
                // transports it is validated on (cost::ShiftProgress): priced so, each step's work then the whole
                // shift.
                return cost::symv(p, n, mapping, profile, true, cost::ShiftProgress::in_calls);
            },
        .applies = {},
        .goal = {},
        .seed = SymvInput{}.seed,
    };
}

}  // namespace

std::vector<Case> symv_cases() {
    return {symv_case("symv", SymvMapping::reflection), symv_case("symv-standard", SymvMapping::standard)};
}

}  // namespace llc::cards
