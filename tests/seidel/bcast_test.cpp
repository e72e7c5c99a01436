// llc::bcast under MPI: every algorithm delivers the root's bytes to every processor, from every root, for empty, one-
// element, odd and large messages; bad arguments are llc::Error on every processor; the superstep is traced. The oracle
// is a pattern every processor computes by itself from (root, index).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <llc/cost/seidel.hpp>
#include <llc/llc.hpp>

#include "expect_error.hpp"

namespace {

llc::Group& world() {
    return llc::Group::world();
}

constexpr llc::Bcast all_algorithms[] = {llc::Bcast::mpi,
                                         llc::Bcast::binomial,
                                         llc::Bcast::bidirectional,
                                         llc::Bcast::recursive_halving,
                                         llc::Bcast::automatic};

std::uint32_t pattern(int root, std::size_t i) {
    auto x = static_cast<std::uint32_t>(i) * 2654435761U + static_cast<std::uint32_t>(root) * 40503U + 7U;
    x ^= x >> 15;
    return x;
}

/// A trivially copyable value with no MPI type of its own (travels as a block of bytes).
struct Odd {
    double value;
    char tag[5];
};

template <class T, class Make>
void check_delivery(llc::Group& g, llc::Bcast algorithm, int root, std::size_t n, Make make) {
    std::vector<T> data(n);
    if (g.rank() == root) {
        for (std::size_t i = 0; i < n; ++i) {
            data[i] = make(root, i);
        }
    } else if (n > 0) {
        std::memset(static_cast<void*>(data.data()), 0xA5, n * sizeof(T));
    }
    llc::bcast(g, std::span<T>(data), root, algorithm);
    std::size_t wrong = 0;
    std::size_t first_wrong = n;
    for (std::size_t i = 0; i < n; ++i) {
        const T expected = make(root, i);
        if (std::memcmp(&data[i], &expected, sizeof(T)) != 0) {
            if (wrong == 0) {
                first_wrong = i;
            }
            ++wrong;
        }
    }
    EXPECT_EQ(wrong, 0U) << llc::to_string(algorithm) << ", P = " << g.size() << ", root = " << root << ", n = " << n
                         << ", rank " << g.rank() << ": first wrong element " << first_wrong;
}

TEST(SeidelBcastTest, EveryAlgorithmEveryRootSmallAndOddSizes) {
    auto& g = world();
    for (const auto algorithm : all_algorithms) {
        for (int root = 0; root < g.size(); ++root) {
            for (const std::size_t n : {0UL, 1UL, 2UL, 7UL, 1023UL}) {
                check_delivery<std::uint32_t>(g, algorithm, root, n, pattern);
            }
            check_delivery<unsigned char>(g, algorithm, root, 1023, [](int r, std::size_t i) {
                return static_cast<unsigned char>(pattern(r, i));
            });
            check_delivery<Odd>(g, algorithm, root, 13, [](int r, std::size_t i) {
                Odd v{};
                v.value = static_cast<double>(pattern(r, i));
                std::memcpy(v.tag, "odd!", 5);
                v.tag[0] = static_cast<char>(i);
                return v;
            });
        }
    }
}

TEST(SeidelBcastTest, EveryAlgorithmEveryRootLarge) {
    auto& g = world();
    const std::size_t n = (std::size_t{1} << 20) + 3;  // 1 MiB + 3 bytes: packets of unequal length
    for (const auto algorithm : all_algorithms) {
        for (int root = 0; root < g.size(); ++root) {
            check_delivery<unsigned char>(
                g, algorithm, root, n, [](int r, std::size_t i) { return static_cast<unsigned char>(pattern(r, i)); });
        }
    }
}

TEST(SeidelBcastTest, RunsOnSubgroups) {
    auto& g = world();
    auto [left, right] = llc::par(
        g,
        [](llc::Group& sub) {
            std::vector<int> data(100, sub.rank() == sub.size() - 1 ? 11 : 0);
            llc::bcast(sub, std::span<int>(data), sub.size() - 1, llc::Bcast::bidirectional);
            return std::accumulate(data.begin(), data.end(), 0);
        },
        [](llc::Group& sub) {
            std::vector<int> data(100, sub.rank() == 0 ? 13 : 0);
            llc::bcast(sub, std::span<int>(data), 0, llc::Bcast::recursive_halving);
            return std::accumulate(data.begin(), data.end(), 0);
        });
    EXPECT_EQ(left, 1100);
    EXPECT_EQ(right, 1300);
}

TEST(SeidelBcastTest, AutomaticFollowsTheInstalledChooser) {
    auto& g = world();
    llc::cost::seidel::install_chooser(75e-6, 0.08e-6, 0.01e-6);  // the paper's Table II
    llc::Trace::enable(true);
    std::vector<char> data(4096, g.rank() == 0 ? 'x' : ' ');
    llc::bcast(g, std::span<char>(data), 0, llc::Bcast::automatic);
    const llc::TraceNode& local = llc::Trace::local();
    ASSERT_FALSE(local.children.empty());
    const llc::TraceNode& step = local.children.back();
    const llc::Bcast expected = llc::cost::seidel::cheapest(g.size(), 4096, 75e-6, 0.08e-6, 0.01e-6);
    EXPECT_EQ(step.op,
              expected == llc::Bcast::binomial        ? "bcast.st"
              : expected == llc::Bcast::bidirectional ? "bcast.bst"
                                                      : "bcast.rh");
    llc::Trace::enable(false);
    llc::set_bcast_chooser({});
    EXPECT_EQ(std::count(data.begin(), data.end(), 'x'), 4096);
}

TEST(SeidelBcastTest, RecordedAsANormalSuperstep) {
    auto& g = world();
    llc::Trace::enable(true);
    std::vector<double> data(1000, 1.0);
    {
        const llc::Label label("seidel");
        llc::bcast(g, std::span<double>(data), g.size() - 1, llc::Bcast::binomial);
    }
    llc::bcast(g, std::span<double>(data), 0, llc::Bcast::recursive_halving);
    llc::bcast(g, std::span<double>(data), 0, llc::Bcast::mpi);
    const llc::TraceNode& local = llc::Trace::local();
    ASSERT_EQ(local.children.size(), 3U);
    EXPECT_EQ(local.children[0].kind, llc::StepKind::normal);
    EXPECT_EQ(local.children[0].label, "seidel");
    EXPECT_EQ(local.children[0].op, "bcast.st");
    EXPECT_EQ(local.children[0].P, g.size());
    EXPECT_EQ(local.children[0].bytes, 8000U);
    EXPECT_GE(local.children[0].comm, 0.0);
    EXPECT_EQ(local.children[1].op, "bcast.rh");
    EXPECT_EQ(local.children[2].op, "bcast");
    llc::Trace::enable(false);
}

using llc::test::expect_error_everywhere;

TEST(SeidelBcastTest, BadArgumentsThrowOnEveryRank) {
    auto& g = world();
    std::vector<int> data(10);
    const std::span<int> span(data);
    for (const auto algorithm : all_algorithms) {
        expect_error_everywhere([&] { llc::bcast(g, span, -1, algorithm); }, {"llc::bcast", "root", "-1"});
        expect_error_everywhere([&] { llc::bcast(g, span, g.size(), algorithm); },
                                {"llc::bcast", "root", std::to_string(g.size())});
    }
    expect_error_everywhere([&] { llc::bcast(g, span, 0, static_cast<llc::Bcast>(42)); }, {"algorithm", "42"});
    llc::set_bcast_chooser([](int, std::size_t) { return llc::Bcast::automatic; });
    expect_error_everywhere([&] { llc::bcast(g, span, 0, llc::Bcast::automatic); }, {"algorithm", "chooser"});
    llc::set_bcast_chooser({});
    if (g.size() > 1) {
        // Sizes, roots or algorithms that differ across ranks: agreed on with one allreduce, an error everywhere.
        std::vector<int> mine(g.rank() == 1 ? 11 : 10);
        expect_error_everywhere([&] { llc::bcast(g, std::span<int>(mine), 0, llc::Bcast::binomial); },
                                {"llc::bcast", "data.size()"});
        expect_error_everywhere([&] { llc::bcast(g, span, g.rank() == 1 ? 1 : 0, llc::Bcast::binomial); },
                                {"llc::bcast", "root"});
        expect_error_everywhere(
            [&] { llc::bcast(g, span, 0, g.rank() == 1 ? llc::Bcast::recursive_halving : llc::Bcast::binomial); },
            {"llc::bcast", "algorithm"});
        // A root that is out of range on one rank only is caught by the agreement, never a hang.
        expect_error_everywhere([&] { llc::bcast(g, span, g.rank() == 1 ? -3 : 0, llc::Bcast::bidirectional); },
                                {"llc::bcast", "root"});
    }
    // The group is still usable afterwards.
    std::vector<int> ok(5, g.rank() == 0 ? 9 : 0);
    llc::bcast(g, std::span<int>(ok), 0, llc::Bcast::bidirectional);
    EXPECT_EQ(ok, std::vector<int>(5, 9));
}

}  // namespace
