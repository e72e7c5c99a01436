// Distance transforms (algorithms/distance_transform) in a short program: a blob image distributed by rows, its d8
// and exact Euclidean distance transforms, the farthest pixel from the background, and what the cost model would
// predict on more processors.
//
//   mpirun -np 3 build/bin/llc-example-distance-transform 512
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <llc/algorithms.hpp>
#include <llc/llc.hpp>

int main(int argc, char** argv) {
    llc::Environment env(argc, argv);
    llc::Group& world = env.world();
    const std::int64_t n = argc > 1 ? std::atoll(argv[1]) : 512;

    // The image every processor can make (the same seed everywhere); each keeps its blocks of r rows.
    const std::vector<std::uint8_t> whole = llc::random_blob_image(n, n, /*seed=*/42);
    const llc::SweepLayout layout = llc::sweep_layout(world.size(), n, n, llc::ChamferMask::d8());
    std::vector<std::uint8_t> mine;
    for (std::int64_t b = world.rank(); b * layout.r < n; b += world.size()) {
        const std::int64_t last = std::min(n, (b + 1) * layout.r);
        mine.insert(mine.end(), whole.begin() + b * layout.r * n, whole.begin() + last * n);
    }

    std::vector<std::int32_t> d8(mine.size());
    llc::chamfer_distance_transform(world, n, n, layout.r, mine, llc::ChamferMask::d8(), d8, layout.k);
    std::vector<std::int32_t> squared(mine.size());
    llc::euclidean_distance_transform(world, n, n, layout.r, mine, squared);

    // The deepest pixel of the figure: a reduction over the processors.
    std::int32_t deepest = 0;
    for (const std::int32_t s : squared) {
        deepest = std::max(deepest, s);
    }
    deepest = world.allreduce(deepest, llc::Op::max);
    std::int32_t deepest_d8 = 0;
    for (const std::int32_t d : d8) {
        deepest_d8 = std::max(deepest_d8, d);
    }
    deepest_d8 = world.allreduce(deepest_d8, llc::Op::max);
    if (world.rank() == 0) {
        std::printf("%lld × %lld blob image on %d processors (blocks of %lld rows, segments of %lld columns)\n",
                    static_cast<long long>(n),
                    static_cast<long long>(n),
                    world.size(),
                    static_cast<long long>(layout.r),
                    static_cast<long long>(layout.k));
        std::printf(
            "deepest figure pixel: Euclidean %.2f, d8 %d\n", std::sqrt(static_cast<double>(deepest)), deepest_d8);
    }
    // The d8 distance never exceeds the Euclidean one, nor falls below it divided by √2.
    bool consistent = true;
    for (std::size_t i = 0; i < d8.size(); ++i) {
        const double e = std::sqrt(static_cast<double>(squared[i]));
        consistent = consistent && d8[i] <= e + 1e-9 && d8[i] >= e / std::sqrt(2.0) - 1e-9;
    }
    if (world.allreduce(consistent ? 0 : 1, llc::Op::max) != 0) {
        if (world.rank() == 0) {
            std::fprintf(stderr, "d8 and Euclidean distances disagree\n");
        }
        return 1;
    }
    return 0;
}
