// Seidel's broadcast costs (paper Table I, §5) against the coefficients and times worked out by hand in the digest
// (shared/research/seidel-broadcast.md §11, TC1–TC12), with the paper's Table II constants for the Intel Delta.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include <llc/broadcast.hpp>
#include <llc/cost/seidel.hpp>
#include <llc/error.hpp>

namespace {

namespace sd = llc::cost::seidel;
using C = sd::Coefficients;

// Table II (µs, µs/byte).
constexpr double a = 0.08;
constexpr double b = 75.0;
constexpr double rho = 0.01;

double us(const C& c, double m) {
    return c.seconds(m, b, a, rho);
}

TEST(SeidelCostTest, Tc8TableOneCoefficients) {
    // Linear, d = 4, ν = 0.
    EXPECT_EQ(sd::linear_st(4), (C{4.0, 4.0, 0.0}));
    EXPECT_EQ(sd::linear_bst(4), (C{5.0 / 2.0, 5.0, 0.0}));
    EXPECT_EQ(sd::linear_rh(4), (C{47.0 / 16.0, 8.0, 1.0}));
    // Mesh 4 × 4 (d1 = d2 = 2), ν = 0.
    EXPECT_EQ(sd::mesh_st(2, 2), (C{2.0, 6.0, 0.0}));
    EXPECT_EQ(sd::mesh_bst(2, 2), (C{15.0 / 8.0, 7.0, 0.0}));
    EXPECT_EQ(sd::mesh_rh(2, 2), (C{15.0 / 8.0, 8.0, 1.0}));
    // Mesh 16 × 32 (d1 = 4, d2 = 5), ν = 0.
    EXPECT_EQ(sd::mesh_st(4, 5), (C{7.0 / 2.0, 12.0, 0.0}));
    EXPECT_EQ(sd::mesh_bst(4, 5), (C{21.0 / 8.0, 13.0, 0.0}));
    EXPECT_EQ(sd::mesh_rh(4, 5), (C{1079.0 / 512.0, 18.0, 1.0}));
    EXPECT_EQ(sd::mesh_rh(5, 4), sd::mesh_rh(4, 5));  // shorter axis first
    // Mesh 8 × 8 (d1 = d2 = 3), ν = 1.
    EXPECT_EQ(sd::mesh_st(3, 3, 1), (C{2.0, 10.0, 0.0}));
    EXPECT_EQ(sd::mesh_bst(3, 3, 1), (C{63.0 / 32.0, 11.0, 0.0}));
    EXPECT_EQ(sd::mesh_rh(3, 3, 1), (C{63.0 / 32.0, 12.0, 1.0}));
    // At m = 1024 on the 16 × 32 mesh (µs).
    EXPECT_NEAR(us(sd::mesh_st(4, 5), 1024), 1186.72, 1e-9);
    EXPECT_NEAR(us(sd::mesh_bst(4, 5), 1024), 1190.04, 1e-9);
    EXPECT_NEAR(us(sd::mesh_rh(4, 5), 1024), 1532.88, 1e-9);
}

TEST(SeidelCostTest, LinearExamplesTc1ToTc6) {
    EXPECT_EQ(sd::linear_st(3), (C{3.0, 3.0, 0.0}));  // TC1: 3ma + 3b
    EXPECT_NEAR(us(sd::linear_st(3), 1024), 470.76, 1e-9);
    EXPECT_NEAR(us(sd::linear_st(3), 65536), 15953.64, 1e-9);
    EXPECT_EQ(sd::linear_st(3, 1), (C{2.0, 4.0, 0.0}));  // TC3
    EXPECT_NEAR(us(sd::linear_st(3, 1), 1024), 463.84, 1e-9);
    EXPECT_EQ(sd::linear_bst(3), (C{2.0, 4.0, 0.0}));  // TC4: 4(ma/2 + b)
    EXPECT_NEAR(us(sd::linear_bst(3), 65536), 10785.76, 1e-9);
    EXPECT_EQ(sd::linear_bst(3, 1), (C{7.0 / 4.0, 5.0, 0.0}));  // TC5
    EXPECT_NEAR(us(sd::linear_bst(3, 1), 1024), 518.36, 1e-9);
    EXPECT_EQ(sd::linear_rh(3, 0), (C{19.0 / 8.0, 6.0, 1.0}));  // TC6
    EXPECT_EQ(sd::linear_rh(3, 1), (C{15.0 / 8.0, 6.0, 1.0}));
    EXPECT_EQ(sd::linear_rh(3, 2), (C{7.0 / 4.0, 6.0, 1.0}));
    EXPECT_NEAR(us(sd::linear_rh(3, 0), 1024), 654.80, 1e-9);
    EXPECT_NEAR(us(sd::linear_rh(3, 1), 1024), 613.84, 1e-9);
    EXPECT_EQ(sd::linear_st(5, 0), (C{5.0, 5.0, 0.0}));   // ν = 0 reduces Eq. 2 to Eq. 1
    EXPECT_EQ(sd::linear_bst(5, 0), (C{3.0, 6.0, 0.0}));  // and Eq. 8 to Eq. 7: 6(ma/2 + b)
}

TEST(SeidelCostTest, Tc9Crossovers) {
    // m at which two costs are equal: Δb·b / (Δma·a).
    const auto crossover = [](const C& low_latency, const C& high_latency, double r) {
        return (high_latency.b - low_latency.b) * b /
               ((low_latency.ma - high_latency.ma) * a + (low_latency.rho - high_latency.rho) * r);
    };
    EXPECT_NEAR(crossover(sd::linear_st(4), sd::linear_bst(4), rho), 625.0, 1e-9);
    EXPECT_NEAR(crossover(sd::linear_st(3), sd::linear_bst(3), rho), 937.5, 1e-9);
    EXPECT_NEAR(crossover(sd::mesh_st(4, 5), sd::mesh_bst(4, 5), rho), 1071.4, 0.05);
    EXPECT_NEAR(crossover(sd::mesh_bst(4, 5), sd::mesh_rh(4, 5), rho), 11940.3, 0.05);
    EXPECT_NEAR(crossover(sd::mesh_bst(4, 5), sd::mesh_rh(4, 5), 0.0), 9056.6, 0.05);
    EXPECT_NEAR(crossover(sd::mesh_st(4, 5), sd::mesh_rh(4, 5), rho), 4437.6, 0.05);
    // The paper's closed form for the linear ST/BST crossover, 2^(ν+1)b / (a(d−ν−1)).
    for (int d = 2; d <= 10; ++d) {
        for (int nu = 0; nu + 1 < d; ++nu) {
            EXPECT_NEAR(crossover(sd::linear_st(d, nu), sd::linear_bst(d, nu), rho),
                        std::ldexp(1.0, nu + 1) * b / (a * (d - nu - 1)),
                        1e-9);
        }
    }
    // Linear BST is never dearer than RH (paper §3.7), for any m.
    for (int d = 1; d <= 12; ++d) {
        for (int nu = 0; nu < d; ++nu) {
            for (const double m : {0.0, 1.0, 1e3, 1e6, 1e9}) {
                EXPECT_LE(us(sd::linear_bst(d, nu), m), us(sd::linear_rh(d, nu), m));
            }
        }
    }
}

TEST(SeidelCostTest, Section5AnyP) {
    // TC11/TC12 at m = 1024 (µs): virtual nodes for ST and BST, companions for RH.
    EXPECT_EQ(sd::binomial(11), (C{4.0, 4.0, 0.0}));
    EXPECT_NEAR(us(sd::binomial(11), 1024), 627.68, 1e-9);
    EXPECT_EQ(sd::bidirectional(11), (C{5.0 / 2.0, 5.0, 0.0}));
    EXPECT_NEAR(us(sd::bidirectional(11), 1024), 579.80, 1e-9);
    EXPECT_NEAR(us(sd::bidirectional(11, 0), 1024), 579.80, 1e-9);
    EXPECT_NEAR(us(sd::binomial(5), 1024), 470.76, 1e-9);
    EXPECT_NEAR(us(sd::bidirectional(5), 1024), 463.84, 1e-9);
    EXPECT_EQ(sd::recursive_halving(11), (sd::linear_rh(3) + C{1.0, 1.0, 0.0}));
    EXPECT_EQ(sd::recursive_halving(16), sd::linear_rh(4));
    EXPECT_EQ(sd::binomial(12, 1), (sd::linear_st(3, 1) + C{1.0, 1.0, 0.0}));  // companions for ν > 0
    EXPECT_EQ(sd::binomial(1), C{});
    EXPECT_EQ(sd::bidirectional(1), C{});
    EXPECT_EQ(sd::recursive_halving(1), C{});
    EXPECT_EQ(sd::binomial(2), (C{1.0, 1.0, 0.0}));
    EXPECT_EQ(sd::bidirectional(2), (C{1.0, 2.0, 0.0}));
    EXPECT_EQ(sd::recursive_halving(2), (C{1.0, 2.0, 1.0}));
}

TEST(SeidelCostTest, ChooserAndDefaults) {
    // Table II constants in seconds: ST for short messages, BST beyond 625 B on 16 processors (TC9).
    const double bs = b * 1e-6;
    const double as = a * 1e-6;
    const double rs = rho * 1e-6;
    EXPECT_EQ(sd::cheapest(16, 600, bs, as, rs), llc::Bcast::binomial);
    EXPECT_EQ(sd::cheapest(16, 650, bs, as, rs), llc::Bcast::bidirectional);
    EXPECT_EQ(sd::cheapest(2, 1 << 24, bs, as, rs), llc::Bcast::binomial);  // ST is cheapest at P = 2 for every m
    EXPECT_DOUBLE_EQ(sd::predicted_seconds(llc::Bcast::binomial, 16, 1024, bs, as), 4 * (1024 * as + bs));
    EXPECT_THROW((void)sd::coefficients(llc::Bcast::mpi, 4), llc::Error);
    // The llc layer's default chooser is the same comparison at its documented constants.
    for (int P = 1; P <= 64; ++P) {
        for (std::size_t bytes = 1; bytes <= (std::size_t{1} << 26); bytes *= 3) {
            EXPECT_EQ(llc::default_bcast_choice(P, bytes),
                      sd::cheapest(P,
                                   bytes,
                                   llc::default_bcast_startup,
                                   llc::default_bcast_per_byte,
                                   llc::default_bcast_copy_per_byte))
                << "P = " << P << ", bytes = " << bytes;
        }
    }
    // Installing a chooser changes what automatic resolves to; an empty one restores the default.
    sd::install_chooser(bs, as, rs);
    EXPECT_EQ(llc::choose_bcast(16, 650), llc::Bcast::bidirectional);
    EXPECT_EQ(llc::choose_bcast(16, 600), llc::Bcast::binomial);
    llc::set_bcast_chooser([](int, std::size_t) { return llc::Bcast::mpi; });
    EXPECT_EQ(llc::choose_bcast(16, 600), llc::Bcast::mpi);
    llc::set_bcast_chooser({});
    EXPECT_EQ(llc::choose_bcast(16, 600), llc::default_bcast_choice(16, 600));
}

TEST(SeidelCostTest, BadArguments) {
    EXPECT_THROW((void)sd::linear_st(3, 4), llc::Error);
    EXPECT_NO_THROW((void)sd::linear_st(3, 3));  // Eq. 2 also holds at ν = d
    EXPECT_THROW((void)sd::linear_bst(3, 3), llc::Error);
    EXPECT_THROW((void)sd::linear_rh(3, 3), llc::Error);
    EXPECT_THROW((void)sd::linear_rh(-1, 0), llc::Error);
    EXPECT_THROW((void)sd::linear_st(2, -1), llc::Error);
    EXPECT_THROW((void)sd::mesh_st(2, 3, 2), llc::Error);
    EXPECT_THROW((void)sd::mesh_rh(0, 3), llc::Error);
    EXPECT_THROW((void)sd::binomial(0), llc::Error);
    try {
        (void)sd::linear_bst(4, 7);
        FAIL() << "no exception";
    } catch (const llc::Error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("linear_bst"), std::string::npos);
        EXPECT_NE(what.find("nu"), std::string::npos);
        EXPECT_NE(what.find("7"), std::string::npos);
    }
}

}  // namespace
