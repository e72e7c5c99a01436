// A nested divide-and-conquer sort with llc::weighted_par and uneven splits (common-common: every processor holds
// the whole input and ends with the whole sorted output).
//
// Each level partitions the keys around a sampled pivot into "below" and "not below". The two parts rarely have the
// same size, so the group is split in proportion to them: weighted_par(g, {|below|, |rest|}, …) gives each part a
// subgroup whose size is proportional to its weight (llc::split_sizes), every part at least one processor. The
// recursion goes on inside each subgroup until a group has one processor, which sorts its part with std::sort.
// weighted_par then hands both sorted parts to every processor of the group (partners swap them).
//
// Run:   mpirun -np 4 build/bin/llc-example-sort [n]        n: number of keys, default 200000
// It checks the result against std::sort on the same input and exits with 1 if they differ.

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <span>
#include <vector>

#include <llc/llc.hpp>

// The pivot: the median of three keys at pseudo-random positions. Every processor picks the same three, because
// the generator is seeded by the part's size and the input is the same everywhere.
double sampled_pivot(std::span<const double> keys) {
    std::mt19937_64 random(keys.size());
    std::uniform_int_distribution<std::size_t> position(0, keys.size() - 1);
    double sample[3] = {keys[position(random)], keys[position(random)], keys[position(random)]};
    std::sort(sample, sample + 3);
    return sample[1];
}

std::vector<double> parallel_sort(llc::Group& g, std::span<const double> keys) {
    if (g.size() == 1 || keys.size() < 2) {  // the leaf: one processor sorts alone
        std::vector<double> sorted(keys.begin(), keys.end());
        std::sort(sorted.begin(), sorted.end());
        return sorted;
    }
    // Divide: keys below the pivot, then the others (computed the same way on every processor of g).
    const double pivot = sampled_pivot(keys);
    std::vector<double> below;
    std::vector<double> rest;
    for (const double key : keys) {
        (key < pivot ? below : rest).push_back(key);
    }
    // Uneven division superstep: subgroup sizes proportional to the part sizes. An empty part still gets one
    // processor (and returns at once); the other part's subgroup is then smaller than g, so the recursion ends.
    const double weights[2] = {static_cast<double>(below.size()), static_cast<double>(rest.size())};
    const std::vector<std::vector<double>> parts = llc::weighted_par(g, weights, [&](llc::Group& sub, int t) {
        return parallel_sort(sub, t == 0 ? std::span<const double>(below) : std::span<const double>(rest));
    });
    // Combine: every processor now holds both sorted parts; below < pivot <= rest, so concatenation is sorted.
    std::vector<double> sorted(parts[0]);
    sorted.insert(sorted.end(), parts[1].begin(), parts[1].end());
    return sorted;
}

int main(int argc, char** argv) {
    llc::Environment env(argc, argv);
    llc::Group& world = llc::Group::world();
    const long long n = argc > 1 ? std::atoll(argv[1]) : 200000;
    if (n < 0) {
        if (world.rank() == 0) {
            std::fprintf(stderr, "usage: llc-example-sort [n]: n = %lld must be >= 0\n", n);
        }
        return 2;
    }

    // The same keys on every processor: skewed (exponential), with repeats, so the splits are uneven.
    std::vector<double> keys(static_cast<std::size_t>(n));
    std::mt19937_64 random(7);
    std::exponential_distribution<double> skewed(1.0);
    for (auto& key : keys) {
        key = static_cast<double>(static_cast<long long>(skewed(random) * 1000.0));
    }

    const std::vector<double> sorted = parallel_sort(world, keys);

    // Check on every processor against the sequential std::sort; the job fails if any processor differs.
    std::vector<double> expected = keys;
    std::sort(expected.begin(), expected.end());
    const int wrong = world.allreduce(sorted == expected ? 0 : 1, llc::Op::sum);

    if (world.rank() == 0) {
        if (world.size() > 1 && keys.size() >= 2) {  // how the first level divided the keys and the processors
            const double pivot = sampled_pivot(keys);
            const auto below = std::count_if(keys.begin(), keys.end(), [&](double key) { return key < pivot; });
            const double weights[2] = {static_cast<double>(below), static_cast<double>(n - below)};
            const std::vector<int> sizes = llc::split_sizes(world.size(), weights);
            std::printf("first split: %lld / %lld keys on %d / %d processors\n",
                        static_cast<long long>(below),
                        static_cast<long long>(n - below),
                        sizes[0],
                        sizes[1]);
        }
        std::printf("sorted %lld keys on P = %d: %s\n", n, world.size(), wrong == 0 ? "matches std::sort" : "WRONG");
    }
    return wrong == 0 ? 0 : 1;
}
