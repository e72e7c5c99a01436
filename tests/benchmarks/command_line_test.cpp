// llc::bench's command line (benchmarks/common) on argument vectors, at every P: what it accepts, the status it gives
// every rank for what it does not (2, or 0 after --help), and its messages, against texts written out here.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <llc/bench/command_line.hpp>
#include <llc/group.hpp>

namespace {

namespace po = boost::program_options;
using llc::bench::BadArgument;
using llc::bench::CommandLine;

/// The message `notify` throws for `value`, or "" when it takes the value.
template <class T>
std::string rejection(const std::function<void(const T&)>& notify, const T& value) {
    try {
        notify(value);
    } catch (const BadArgument& e) {
        return e.what();
    }
    return "";
}

struct Values {
    std::int64_t n = 64;
    int repeat = 5;
    std::string order = "scrambled";
    bool steps = false;
};

CommandLine command_line(Values& v, int processes = 0) {
    CommandLine c("llc-bench-test", processes);
    c.add()("n", po::value(&v.n)->default_value(v.n)->notifier(llc::bench::power_of_two("--n", 8, 1 << 26)), "points")(
        "order",
        po::value(&v.order)->default_value(v.order)->notifier(llc::bench::one_of("--order", {"natural", "scrambled"})),
        "order")("steps", po::bool_switch(&v.steps), "steps");
    c.add_repeat(v.repeat, 1000);
    return c;
}

/// CommandLine::parse of `args` after the program's name.
std::optional<int> parse(const CommandLine& c, std::vector<const char*> args) {
    args.insert(args.begin(), "llc-bench-test");
    return c.parse(llc::Group::world(), static_cast<int>(args.size()), args.data());
}

TEST(BenchCommandLine, RangeTextWritesLargePowersOfTwoAsPowers) {
    EXPECT_EQ(llc::bench::range_text(8, std::int64_t{1} << 26), "[8, 2^26]");
    EXPECT_EQ(llc::bench::range_text(1, 100000), "[1, 100000]");
    EXPECT_EQ(llc::bench::range_text(512, 1023), "[512, 1023]");
    EXPECT_EQ(llc::bench::range_text(1024, 1025), "[2^10, 1025]");
}

TEST(BenchCommandLine, ChecksNameTheOptionAndTheValue) {
    EXPECT_EQ(rejection(llc::bench::in_range("--repeat", 1, 100000), 0), "--repeat must be in [1, 100000], got '0'");
    EXPECT_EQ(rejection(llc::bench::in_range("--repeat", 1, 100000), 100000), "");
    EXPECT_EQ(rejection(llc::bench::in_range<std::int64_t>("--min", 1, std::int64_t{1} << 30, "a byte count"),
                        std::int64_t{0}),
              "--min must be a byte count in [1, 2^30], got '0'");
    const auto pow2 = llc::bench::power_of_two("--n", 8, 1 << 26);
    EXPECT_EQ(rejection(pow2, std::int64_t{1000}), "--n must be a power of two in [8, 2^26], got '1000'");
    EXPECT_EQ(rejection(pow2, std::int64_t{4}), "--n must be a power of two in [8, 2^26], got '4'");
    EXPECT_EQ(rejection(pow2, std::int64_t{-8}), "--n must be a power of two in [8, 2^26], got '-8'");
    EXPECT_EQ(rejection(pow2, std::int64_t{1} << 27), "--n must be a power of two in [8, 2^26], got '134217728'");
    EXPECT_EQ(rejection(pow2, std::int64_t{8}), "");
    EXPECT_EQ(rejection(pow2, std::int64_t{1} << 26), "");
    const auto op = llc::bench::one_of("--op", {"reduce", "allreduce", "bcast", "swap"});
    EXPECT_EQ(rejection(op, std::string("gather")), "--op must be reduce, allreduce, bcast or swap, got 'gather'");
    EXPECT_EQ(rejection(op, std::string("swap")), "");
    const auto seconds =
        llc::bench::require<double>("--seconds", "in (0, 60]", [](double s) { return s > 0 && s <= 60; });
    EXPECT_EQ(rejection(seconds, 0.3), "");
    EXPECT_EQ(rejection(seconds, 0.0), "--seconds must be in (0, 60], got '0'");
}

TEST(BenchCommandLine, TakesItsOptionsAndKeepsTheDefaults) {
    Values v;
    EXPECT_EQ(parse(command_line(v), {}), std::nullopt);
    EXPECT_EQ(v.n, 64);
    EXPECT_EQ(v.repeat, 5);
    EXPECT_EQ(v.order, "scrambled");
    EXPECT_FALSE(v.steps);
    Values w;
    EXPECT_EQ(parse(command_line(w), {"--n", "1024", "--order=natural", "--repeat", "7", "--steps"}), std::nullopt);
    EXPECT_EQ(w.n, 1024);
    EXPECT_EQ(w.order, "natural");
    EXPECT_EQ(w.repeat, 7);
    EXPECT_TRUE(w.steps);
}

TEST(BenchCommandLine, RefusesWhatItDoesNotTakeWithStatusTwo) {
    const std::vector<std::vector<const char*>> bad{{"--n", "1000"},
                                                    {"--n", "abc"},
                                                    {"--n"},
                                                    {"--order", "block"},
                                                    {"--repeat", "0"},
                                                    {"--repeat", "1001"},
                                                    {"--rep", "3"},  // no abbreviation
                                                    {"--bogus", "1"},
                                                    {"stray"},
                                                    {"--steps", "1"}};
    for (const auto& args : bad) {
        Values v;
        EXPECT_EQ(parse(command_line(v), args), 2) << args.front();
    }
}

TEST(BenchCommandLine, HelpEndsWithStatusZero) {
    Values v;
    EXPECT_EQ(parse(command_line(v), {"--help"}), 0);
    EXPECT_EQ(parse(command_line(v), {"-h", "--n", "1000"}), 0);  // --help before the values' checks
}

TEST(BenchCommandLine, ChecksTheProcessesAndTheAddedChecks) {
    const int P = llc::Group::world().size();
    Values v;
    EXPECT_EQ(parse(command_line(v, P), {}), std::nullopt);
    EXPECT_EQ(parse(command_line(v, P + 1), {}), 2);
    CommandLine c = command_line(v);
    int seen_p = 0;
    c.add_check([&](const llc::Group& world) {
        seen_p = world.size();
        if (v.n > 512) {
            throw BadArgument("--n too large");
        }
    });
    EXPECT_EQ(parse(c, {"--n", "512"}), std::nullopt);
    EXPECT_EQ(seen_p, P);
    EXPECT_EQ(parse(c, {"--n", "1024"}), 2);
}

}  // namespace
