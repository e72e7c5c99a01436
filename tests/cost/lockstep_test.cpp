// The lockstep excess beyond the profile's group sizes (cost/lockstep.hpp): extrapolated in P as the expected maximum
// of P normal variables, fitted over the measured p; inside the measured sizes a missing table is still an error.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include <llc/cost/kernel_table.hpp>
#include <llc/cost/lockstep.hpp>
#include <llc/cost/piecewise.hpp>
#include <llc/cost/profile.hpp>
#include <llc/error.hpp>

namespace {

using llc::cost::Profile;

// E[max of p standard normals], from tables (p = 2: 1/sqrt(pi), p = 3: 3/(2 sqrt(pi)), the others by a separate
// trapezoid integration with 200 000 steps on [-12, 12]).
constexpr double a2 = 0.5641895835;
constexpr double a3 = 0.8462843753;
constexpr double a4 = 1.029375;
constexpr double a8 = 1.423600;
constexpr double a64 = 2.343733;

/// A made-up profile probed at P = 4: the division at p = 1 … 4, the lockstep excess at p = 2, 3, 4 (steps of
/// 2^13 … 2^21 ns) as given.
Profile probed_at_4(double x2, double x3, double x4) {
    Profile profile;
    for (int p = 1; p <= 4; ++p) {
        profile.set_division(p, {1e-6, llc::cost::Piecewise::constant(1e-6), 1e-6});
    }
    const double excess[] = {x2, x3, x4};
    for (int p = 2; p <= 4; ++p) {
        for (int e = 13; e <= 21; e += 2) {
            profile.set_kernel(llc::cost::kernel_size_key(llc::cost::lockstep_key(p), e), {excess[p - 2], "excess"});
        }
    }
    return profile;
}

void expect_missing(const Profile& profile, int P) {
    try {
        (void)llc::cost::lockstep_excess(profile, P, 1e-3);
        FAIL() << "priced a lockstep step at P = " << P << " without its table";
    } catch (const llc::Error& error) {
        const std::string named = "'" + llc::cost::lockstep_key(P) + ".2^e'";
        EXPECT_NE(std::string(error.what()).find(named), std::string::npos) << error.what();
    }
}

TEST(Lockstep, ExpectedMaximumOfNormals) {
    EXPECT_EQ(llc::cost::expected_max_of_normals(1), 0.0);
    EXPECT_NEAR(llc::cost::expected_max_of_normals(2), a2, 1e-6);
    EXPECT_NEAR(llc::cost::expected_max_of_normals(3), a3, 1e-6);
    EXPECT_NEAR(llc::cost::expected_max_of_normals(4), a4, 1e-5);
    EXPECT_NEAR(llc::cost::expected_max_of_normals(8), a8, 1e-5);
    EXPECT_NEAR(llc::cost::expected_max_of_normals(64), a64, 1e-5);
}

TEST(Lockstep, MeasuredSizesAreReadAsTheyAre) {
    const Profile profile = probed_at_4(0.02, 0.5, 0.07);  // p = 3 off the curve on purpose
    EXPECT_DOUBLE_EQ(llc::cost::lockstep_excess(profile, 3, 1e-3), 0.5);
    EXPECT_DOUBLE_EQ(llc::cost::lockstep_excess(profile, 4, 1e-3), 0.07);
    EXPECT_DOUBLE_EQ(llc::cost::lockstep_excess(profile, 1, 1e-3), 0.0);
}

TEST(Lockstep, BeyondTheProfileTheSpreadGrowsAsTheExpectedMaximum) {
    // Exactly σ/μ = 0.1 at every measured p: the fit finds 0.1, P = 8 and 64 are 0.1 × E[max of P].
    const Profile exact = probed_at_4(0.1 * a2, 0.1 * a3, 0.1 * a4);
    EXPECT_NEAR(llc::cost::lockstep_excess(exact, 8, 1e-3), 0.1 * a8, 1e-6);
    EXPECT_NEAR(llc::cost::lockstep_excess(exact, 64, 1e-3), 0.1 * a64, 1e-6);
    EXPECT_NEAR(llc::cost::lockstep_seconds(exact, 64, 2.0), 2.0 * (1.0 + 0.1 * a64), 1e-5);
    // Scattered points: least squares through the origin, σ/μ = Σ a·x / Σ a².
    const double x2 = 0.03;
    const double x3 = 0.12;
    const double x4 = 0.08;
    const double fit = (a2 * x2 + a3 * x3 + a4 * x4) / (a2 * a2 + a3 * a3 + a4 * a4);
    EXPECT_NEAR(llc::cost::lockstep_excess(probed_at_4(x2, x3, x4), 64, 1e-3), fit * a64, 1e-6);
    // Not log P: from p = 4 to 64 the excess grows 2.28×, not log 64 / log 4 = 3×.
    EXPECT_NEAR(
        llc::cost::lockstep_excess(exact, 64, 1e-3) / llc::cost::lockstep_excess(exact, 4, 1e-3), a64 / a4, 1e-5);
}

TEST(Lockstep, AMissingTableInsideTheProfileIsStillAnError) {
    // Division measured to p = 8 but the lockstep tables only to 4: p = 5 … 8 were probed, their tables lost.
    Profile profile = probed_at_4(0.01, 0.02, 0.03);
    for (int p = 5; p <= 8; ++p) {
        profile.set_division(p, {1e-6, llc::cost::Piecewise::constant(1e-6), 1e-6});
    }
    expect_missing(profile, 8);
    EXPECT_GT(llc::cost::lockstep_excess(profile, 9, 1e-3), 0.0);  // beyond p = 8: extrapolated
    // No lockstep table at all: nothing to extrapolate from, at any P.
    expect_missing(Profile{}, 2);
    expect_missing(Profile{}, 64);
}

}  // namespace
