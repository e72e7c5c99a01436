// Validation cases of the broadcast card: Seidel's broadcasts (llc::bcast with Bcast::binomial, bidirectional and
// recursive_halving) from root 0, each priced as one normal superstep of the profile's T_f under its own name
// (llc-probe measures them as collectives), on the collectives' byte sizes.
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <llc/broadcast.hpp>
#include <llc/cost/expr.hpp>
#include <llc/cost/operation_names.hpp>
#include <llc/tools/validation_case.hpp>

#include "card.hpp"

namespace llc::cards {

namespace {

class BroadcastInstance final : public Instance {
  public:
    BroadcastInstance(Group& g, Bcast algorithm, std::int64_t bytes)
        : g_(g), algorithm_(algorithm), data_(static_cast<std::size_t>(bytes)) {}
    void run() override { llc::bcast(g_, std::span<unsigned char>(data_), 0, algorithm_); }

  private:
    Group& g_;
    Bcast algorithm_;
    std::vector<unsigned char> data_;
};

}  // namespace

std::vector<Case> broadcast_cases() {
    std::vector<Case> cases;
    const std::vector<std::pair<Bcast, std::string>> algorithms{{Bcast::binomial, names::op::bcast_st},
                                                                {Bcast::bidirectional, names::op::bcast_bst},
                                                                {Bcast::recursive_halving, names::op::bcast_rh}};
    for (const auto& [algorithm, name] : algorithms) {
        cases.push_back(Case{
            .algorithm = name,
            .family = "broadcast",
            .size_unit = "bytes",
            .sizes = byte_sizes,
            .prepare = [algorithm](Group& g, std::int64_t n) -> std::unique_ptr<Instance> {
                return std::make_unique<BroadcastInstance>(g, algorithm, n);
            },
            .expr =
                [name](int p, std::int64_t n, const cost::Profile&) {
                    return cost::Expr::normal(name, 0.0, name, p, static_cast<double>(n));
                },
            .applies = {},
            .goal = {.median = 0.10},
        });
    }
    return cases;
}

}  // namespace llc::cards
