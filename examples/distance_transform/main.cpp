// Distance transforms (algorithms/distance_transform) in a short program: a blob image made on rank 0 and scattered
// by rows, its d8 and exact Euclidean distance transforms, the deepest pixel of the figure, and the whole d8 map
// gathered back on rank 0.
//
//   mpirun -np 3 build/bin/llc-example-distance-transform 512
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <llc/algorithms.hpp>
#include <llc/llc.hpp>

int main(int argc, char** argv) {
    llc::Environment env(argc, argv);
    llc::Group& world = env.world();
    // n: the image's side, a whole number ≥ 1 (strtoll and the end pointer reject "abc" and "12x", atoll would not).
    char* end = nullptr;
    const std::int64_t n = argc > 1 ? std::strtoll(argv[1], &end, 10) : 512;
    if (argc > 1 && (end == argv[1] || *end != '\0' || n < 1)) {
        if (world.rank() == 0) {
            std::fprintf(
                stderr, "usage: llc-example-distance-transform [n]: n = '%s' must be a whole number >= 1\n", argv[1]);
        }
        return 2;
    }

    // The image exists on rank 0 only (as if read from a file there); scatter_rows gives every processor its blocks
    // of r rows (block b on processor b mod P), in the layout the pipelined sweeps want.
    llc::Image<std::uint8_t> image;
    if (world.rank() == 0) {
        image = {n, n, llc::random_blob_image(n, n, /*seed=*/42)};
    }
    const llc::SweepLayout layout = llc::sweep_layout(world.size(), n, n, llc::ChamferMask::d8());
    const llc::DistributedImage<std::uint8_t> mine = llc::scatter_rows(world, image, layout.r, /*root=*/0);

    const auto d8 = llc::distance_transform(world, mine, llc::Metric::d8, layout.k);
    const auto squared = llc::distance_transform(world, mine, llc::Metric::euclidean);

    // The deepest pixel of the figure: a reduction over the processors.
    const auto deepest_of = [&](const std::vector<std::int32_t>& values) {
        const std::int32_t local = values.empty() ? 0 : *std::max_element(values.begin(), values.end());
        return world.allreduce(local, llc::Op::max);
    };
    const std::int32_t deepest = deepest_of(squared.rows);
    const std::int32_t deepest_d8 = deepest_of(d8.rows);

    // The d8 distance never exceeds the Euclidean one, nor falls below it divided by √2.
    bool consistent = true;
    for (std::size_t i = 0; i < d8.rows.size(); ++i) {
        const double e = std::sqrt(static_cast<double>(squared.rows[i]));
        consistent = consistent && d8.rows[i] <= e + 1e-9 && d8.rows[i] >= e / std::sqrt(2.0) - 1e-9;
    }
    consistent = world.allreduce(consistent ? 0 : 1, llc::Op::max) == 0;

    // The whole d8 map back on rank 0, in image order.
    const llc::Image<std::int32_t> map = llc::gather_rows(world, d8, /*root=*/0);
    if (world.rank() == 0) {
        std::printf("%lld × %lld blob image on %d processors (blocks of %lld rows, segments of %lld columns)\n",
                    static_cast<long long>(n),
                    static_cast<long long>(n),
                    world.size(),
                    static_cast<long long>(layout.r),
                    static_cast<long long>(layout.k));
        std::printf(
            "deepest figure pixel: Euclidean %.2f, d8 %d\n", std::sqrt(static_cast<double>(deepest)), deepest_d8);
        std::printf("d8 at the centre: %d\n", map.view().at(n / 2, n / 2));
        if (!consistent) {
            std::fprintf(stderr, "d8 and Euclidean distances disagree\n");
        }
    }
    return consistent ? 0 : 1;
}
