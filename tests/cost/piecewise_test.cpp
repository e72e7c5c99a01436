// Piecewise: segmented least squares against synthetic data whose pieces and breakpoints are known.

#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include <llc/cost/piecewise.hpp>
#include <llc/error.hpp>

namespace {

using llc::cost::FitOptions;
using llc::cost::Piecewise;
using llc::cost::Sample;
using llc::cost::Segment;

std::vector<double> log_sizes(double lo, double hi, int count) {
    std::vector<double> out;
    for (int i = 0; i < count; ++i) {
        out.push_back(std::round(lo * std::pow(hi / lo, static_cast<double>(i) / (count - 1))));
    }
    return out;
}

// Eager below 64 KiB, rendezvous above: a jump and a change of slope, as MPI libraries show.
double two_regimes(double x) {
    return x < 65536.0 ? 2e-6 + 1e-9 * x : 4e-5 + 0.5e-9 * x;
}

double three_regimes(double x) {
    if (x < 4096.0) {
        return 1e-6 + 2e-9 * x;
    }
    if (x < 262144.0) {
        return 5e-6 + 1e-9 * x;
    }
    return 1e-4 + 0.4e-9 * x;
}

TEST(PiecewiseTest, fit_finds_known_breakpoint_on_exact_data) {
    std::vector<Sample> samples;
    for (const double x : log_sizes(8, 8e6, 40)) {
        samples.push_back({x, two_regimes(x)});
    }
    const Piecewise f = Piecewise::fit(samples);
    ASSERT_EQ(f.segments().size(), 2u);
    // The breakpoint lies between the last sample below 64 KiB and the first above it.
    double below = 0.0;
    double above = 1e300;
    for (const Sample& s : samples) {
        if (s.bytes < 65536.0) {
            below = std::max(below, s.bytes);
        } else {
            above = std::min(above, s.bytes);
        }
    }
    const double b = f.breakpoints().at(0);
    EXPECT_GT(b, below);
    EXPECT_LE(b, above);
    for (const Sample& s : samples) {
        EXPECT_NEAR(f(s.bytes), s.seconds, 1e-9 * s.seconds + 1e-15) << "at " << s.bytes;
    }
    EXPECT_LT(f.quality().max_relative, 1e-6);
    EXPECT_EQ(f.quality().samples, samples.size());
    EXPECT_NEAR(f.segments()[0].slope, 1e-9, 1e-15);
    EXPECT_NEAR(f.segments()[1].intercept, 4e-5, 1e-12);
}

TEST(PiecewiseTest, fit_finds_three_regimes_under_noise) {
    std::mt19937 rng(42);
    std::normal_distribution<double> noise(0.0, 0.02);
    std::vector<Sample> samples;
    for (const double x : log_sizes(16, 1.6e7, 36)) {
        for (int rep = 0; rep < 3; ++rep) {
            samples.push_back({x, three_regimes(x) * (1.0 + noise(rng))});
        }
    }
    const Piecewise f = Piecewise::fit(samples);
    ASSERT_EQ(f.segments().size(), 3u) << f.to_json();
    const std::vector<double> bp = f.breakpoints();
    EXPECT_GT(bp[0], 2048.0);
    EXPECT_LT(bp[0], 8192.0);
    EXPECT_GT(bp[1], 131072.0);
    EXPECT_LT(bp[1], 524288.0);
    // Held-out sizes (between the sampled ones) against the true function, away from the jumps.
    for (const double x : log_sizes(23, 1.1e7, 29)) {
        if (std::abs(std::log(x / 4096.0)) < 0.5 || std::abs(std::log(x / 262144.0)) < 0.5) {
            continue;
        }
        EXPECT_NEAR(f(x), three_regimes(x), 0.06 * three_regimes(x)) << "at " << x;
    }
    EXPECT_LT(f.quality().median_relative, 0.03);
    EXPECT_GT(f.quality().median_relative, 0.0);
}

TEST(PiecewiseTest, a_single_line_stays_one_piece) {
    std::mt19937 rng(7);
    std::normal_distribution<double> noise(0.0, 0.01);
    std::vector<Sample> samples;
    for (const double x : log_sizes(1, 1e6, 30)) {
        samples.push_back({x, (3e-6 + 2e-10 * x) * (1.0 + noise(rng))});
    }
    const Piecewise f = Piecewise::fit(samples);
    EXPECT_EQ(f.segments().size(), 1u);
    EXPECT_NEAR(f(5e5), 3e-6 + 2e-10 * 5e5, 0.03 * (3e-6 + 2e-10 * 5e5));
}

TEST(PiecewiseTest, penalty_option_controls_the_number_of_pieces) {
    std::vector<Sample> samples;
    for (const double x : log_sizes(8, 8e6, 40)) {
        samples.push_back({x, two_regimes(x)});
    }
    FitOptions one;
    one.segment_penalty = 1e9;
    EXPECT_EQ(Piecewise::fit(samples, one).segments().size(), 1u);
    FitOptions capped;
    capped.max_segments = 1;
    EXPECT_EQ(Piecewise::fit(samples, capped).segments().size(), 1u);
}

TEST(PiecewiseTest, one_size_gives_a_constant) {
    const std::vector<Sample> samples{{100, 1e-6}, {100, 3e-6}};
    const Piecewise f = Piecewise::fit(samples);
    ASSERT_EQ(f.segments().size(), 1u);
    EXPECT_GT(f(100), 1e-6);
    EXPECT_LT(f(100), 3e-6);
    EXPECT_EQ(f(100), f(1e6));  // held above the range
    EXPECT_TRUE(f.extrapolates(1e6));
    EXPECT_FALSE(f.extrapolates(100));
}

TEST(PiecewiseTest, fit_never_goes_negative) {
    // Times that fall towards zero: an unconstrained line would cross zero inside the range.
    std::vector<Sample> samples;
    for (int i = 0; i <= 10; ++i) {
        const double x = 100.0 * i;
        samples.push_back({x, std::max(0.0, 1e-6 - 1.5e-9 * x) + 1e-9});
    }
    const Piecewise f = Piecewise::fit(samples, FitOptions{1, 3, -1.0});
    for (double x = 0.0; x <= 3000.0; x += 50.0) {
        EXPECT_GE(f(x), 0.0) << "at " << x;
    }
    // A falling last piece does not fall further outside the data; below the range the first line continues.
    const Piecewise falling(std::vector<Segment>{{10, 20, 5, -0.1}});
    EXPECT_DOUBLE_EQ(falling(20), 3.0);
    EXPECT_DOUBLE_EQ(falling(100), 3.0);
    EXPECT_DOUBLE_EQ(falling(0), 5.0);
}

TEST(PiecewiseTest, through_interpolates_and_extrapolates_the_last_piece) {
    const std::vector<Sample> points{{0, 1.0}, {10, 2.0}, {20, 6.0}};
    const Piecewise f = Piecewise::through(points);
    EXPECT_DOUBLE_EQ(f(0), 1.0);
    EXPECT_DOUBLE_EQ(f(5), 1.5);
    EXPECT_DOUBLE_EQ(f(10), 2.0);
    EXPECT_DOUBLE_EQ(f(15), 4.0);
    EXPECT_DOUBLE_EQ(f(30), 10.0);  // last piece continued
    EXPECT_TRUE(f.extrapolates(30));
    EXPECT_FALSE(f.extrapolates(20));
    EXPECT_EQ(f.breakpoints(), (std::vector<double>{10.0}));
}

TEST(PiecewiseTest, constant_linear_and_zero) {
    EXPECT_EQ(Piecewise()(123.0), 0.0);
    EXPECT_FALSE(Piecewise().extrapolates(1e12));
    EXPECT_EQ(Piecewise::constant(2.5)(1e9), 2.5);
    EXPECT_DOUBLE_EQ(Piecewise::linear(1.0, 0.5)(4.0), 3.0);
    EXPECT_FALSE(Piecewise::linear(1.0, 0.5).extrapolates(1e12));
    EXPECT_EQ(Piecewise::linear(-1.0, 0.0)(5.0), 0.0);  // clamped
}

TEST(PiecewiseTest, json_round_trip) {
    std::vector<Sample> samples;
    for (const double x : log_sizes(8, 8e6, 40)) {
        samples.push_back({x, two_regimes(x)});
    }
    const Piecewise f = Piecewise::fit(samples);
    const Piecewise g = Piecewise::from_json(f.to_json());
    EXPECT_EQ(f, g);
    EXPECT_EQ(g.quality().samples, samples.size());
}

TEST(PiecewiseTest, bad_input_is_an_error_that_names_it) {
    EXPECT_THROW((void)Piecewise::fit(std::vector<Sample>{}), llc::Error);
    try {
        (void)Piecewise::fit(std::vector<Sample>{{1, 1.0}, {2, -1.0}});
        FAIL() << "negative time accepted";
    } catch (const llc::Error& e) {
        EXPECT_NE(std::string(e.what()).find("samples[1].seconds"), std::string::npos) << e.what();
    }
    EXPECT_THROW((void)Piecewise::fit(std::vector<Sample>{{NAN, 1.0}}), llc::Error);
    EXPECT_THROW((void)Piecewise::fit(std::vector<Sample>{{1, 1.0}}, FitOptions{0, 3, -1}), llc::Error);
    EXPECT_THROW((void)Piecewise::through(std::vector<Sample>{{2, 1.0}, {1, 1.0}}), llc::Error);
    EXPECT_THROW(Piecewise(std::vector<Segment>{{0, 10, 1, 0}, {11, 20, 1, 0}}), llc::Error);  // gap
    EXPECT_THROW((void)Piecewise::from_json("{\"segments\":[{\"from\":0,\"to\":1}]}"), llc::Error);
    EXPECT_THROW((void)Piecewise::from_json("not json"), llc::Error);
    try {
        (void)Piecewise::from_json("{\"segments\":[{\"from\":0,\"to\":1,\"intercept\":\"x\",\"slope\":0}]}");
        FAIL();
    } catch (const llc::Error& e) {
        EXPECT_NE(std::string(e.what()).find("intercept"), std::string::npos) << e.what();
    }
}

}  // namespace
