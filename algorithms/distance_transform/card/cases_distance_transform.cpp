// Validation cases of the distance transforms (algorithms/distance_transform) on random blob images of n × n pixels:
// the exact Euclidean transform in blocks of ⌈n/p⌉ rows (one block a processor: the layout it wants), priced by
// llc::cost::euclidean_distance_transform; the chamfer transforms of the four standard masks in llc::sweep_layout's
// blocks and segments, priced by llc::cost::chamfer_distance_transform (the pipeline's steps). Every mask has a case:
// each reads its own tables of the probes (dt.sweep.<mask>, dt.sweep_cache.<mask>).
#include <cstdint>
#include <memory>
#include <vector>

#include <llc/algorithms/blob_image.hpp>
#include <llc/algorithms/chamfer.hpp>
#include <llc/algorithms/euclidean_distance.hpp>
#include <llc/algorithms/row_image.hpp>
#include <llc/tools/validation_case.hpp>

#include "card.hpp"
#include "inputs.hpp"

namespace llc::cards {
namespace {

std::int64_t block_of(int p, std::int64_t n) {
    return (n + p - 1) / p;
}

class EuclideanInstance final : public Instance {
  public:
    EuclideanInstance(Group& g, std::int64_t n) : g_(g), n_(n), r_(block_of(g.size(), n)) {
        const std::vector<std::uint8_t> whole = random_blob_image(n, n, dt::blob_seed);
        image_ = distribute_rows(g, ImageView<const std::uint8_t>{n, n, whole}, r_).rows;  // its one block
        squared_.resize(image_.size());
    }
    void run() override { euclidean_distance_transform(g_, n_, n_, r_, image_, squared_); }

  private:
    Group& g_;
    std::int64_t n_;
    std::int64_t r_;
    std::vector<std::uint8_t> image_;
    std::vector<std::int32_t> squared_;
};

class ChamferInstance final : public Instance {
  public:
    ChamferInstance(Group& g, std::int64_t n, ChamferMask mask)
        : g_(g), n_(n), layout_(sweep_layout(g.size(), n, n, mask)), mask_(std::move(mask)) {
        const std::vector<std::uint8_t> whole = random_blob_image(n, n, dt::blob_seed);
        image_ = distribute_rows(g, ImageView<const std::uint8_t>{n, n, whole}, layout_.r).rows;
        out_.resize(image_.size());
    }
    void run() override { chamfer_distance_transform(g_, n_, n_, layout_.r, image_, mask_, out_, layout_.k); }

  private:
    Group& g_;
    std::int64_t n_;
    SweepLayout layout_;
    ChamferMask mask_;
    std::vector<std::uint8_t> image_;
    std::vector<std::int32_t> out_;
};

Case chamfer_case(const ChamferMask& mask) {
    return Case{
        .algorithm = "dt-" + mask.name(),
        .family = "distance-transform",
        .size_unit = "n (n × n pixels)",
        .sizes = dt::validation_sizes,
        .prepare = [mask](Group& g, std::int64_t n) -> std::unique_ptr<Instance> {
            return std::make_unique<ChamferInstance>(g, n, mask);
        },
        .expr =
            [mask](int p, std::int64_t n, const cost::Profile& profile) {
                const SweepLayout layout = sweep_layout(p, n, n, mask);
                return cost::chamfer_distance_transform(p, n, n, layout.r, layout.k, mask, profile);
            },
        .applies = {},
        .goal = {.median = 0.10},  // issue #20: within 10 % median over 1024² … 8192² at P = 1, 2
        .seed = dt::blob_seed,
    };
}

Case euclidean_case() {
    return Case{
        .algorithm = "edt",
        .family = "distance-transform",
        .size_unit = "n (n × n pixels)",
        .sizes = dt::validation_sizes,
        .prepare = [](Group& g, std::int64_t n) -> std::unique_ptr<Instance> {
            return std::make_unique<EuclideanInstance>(g, n);
        },
        .expr =
            [](int p, std::int64_t n, const cost::Profile& profile) {
                return cost::euclidean_distance_transform(p, n, n, block_of(p, n), profile);
            },
        .applies = {},
        .goal = {.median = 0.10},  // issue #20: within 10 % median over 1024² … 8192² at P = 1, 2
        .seed = dt::blob_seed,
    };
}

}  // namespace

std::vector<Case> distance_transform_cases() {
    return {chamfer_case(ChamferMask::d8()),
            chamfer_case(ChamferMask::chamfer5711()),
            euclidean_case(),
            chamfer_case(ChamferMask::d4()),
            chamfer_case(ChamferMask::chamfer34())};
}

}  // namespace llc::cards
