#pragma once
// A model for tests whose prices are trivial to compute by hand: a collective costs a + b·h (+ c·P), a division
// split + e·h + rejoin.

#include <string>

#include <llc/cost/model.hpp>

namespace llc::cost::testing {

class LinearModel final : public Model {
  public:
    double a = 1e-6;
    double b = 1e-9;
    double c = 0.0;
    double split = 1e-5;
    double e = 2e-9;
    double rejoin = 1e-6;
    [[nodiscard]] std::string name() const override { return "linear-test"; }
    [[nodiscard]] Price collective(std::string_view, int P, double bytes) const override {
        return {a + b * bytes + c * P, P > 64};
    }
    [[nodiscard]] DivisionLookup division(int, std::span<const int>, double bytes) const override {
        return {split, e * bytes, rejoin, false};
    }
};

}  // namespace llc::cost::testing
