// C³ (Hambrusch & Khokhar): the unit tests of shared/research/c3-model-contour-ranking.md §6 (C1–C6), i.e. the
// charging rules of §2 on small hand-checked supersteps and the L-coefficients of Figures 6 and 9 re-derived with the
// paper's §4 simplifications (p for p − 1, no ⌈L/l⌉).

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include <llc/cost/model.hpp>
#include <llc/error.hpp>

namespace {

using namespace llc::cost;

TEST(C3Test, c1_permutation) {
    const C3Machine m{16, 2.5, 4, 512, 8};
    std::vector<C3Message> msgs;
    for (int i = 0; i < 16; ++i) {
        msgs.push_back({i, (i + 5) % 16, 1024});
    }
    const C3Units u = c3_superstep(m, msgs);
    EXPECT_DOUBLE_EQ(u.send_recv, 14.5);
    EXPECT_DOUBLE_EQ(u.link, 8.0);
    EXPECT_DOUBLE_EQ(u.processor, 5.0);
    EXPECT_DOUBLE_EQ(u.total(), 27.5);
}

TEST(C3Test, c2_all_to_all) {
    const C3Machine m{4, 1, 2, 512, 8};
    const C3Units u = c3_pattern(m, C3Pattern::all_to_all, 600);
    EXPECT_DOUBLE_EQ(u.send_recv, 37.0);
    EXPECT_DOUBLE_EQ(u.link, 12.0);
    EXPECT_DOUBLE_EQ(u.processor, 6.0);
    EXPECT_DOUBLE_EQ(u.total(), 55.0);
    EXPECT_DOUBLE_EQ(u.cong, 12.0);
}

TEST(C3Test, c3_irregular_superstep_both_routings) {
    const C3Machine m{4, 1, 2, 512, 8};
    const std::vector<C3Message> msgs{{0, 1, 100}, {0, 2, 1500}, {3, 1, 512}};
    const C3Units wh = c3_superstep(m, msgs);
    EXPECT_DOUBLE_EQ(wh.send_recv, 21.0);
    EXPECT_DOUBLE_EQ(wh.cong, 3.0);
    EXPECT_NEAR(wh.L_a, 5.0 / 3.0, 1e-12);
    EXPECT_NEAR(wh.link, 10.0 / 3.0, 1e-12);
    EXPECT_NEAR(wh.processor, 5.0 / 3.0, 1e-12);
    EXPECT_NEAR(wh.total(), 26.0, 1e-12);
    EXPECT_DOUBLE_EQ(wh.setups, 2.0);
    const C3Units sf = c3_superstep(m, msgs, C3Options{C3Routing::store_and_forward});
    EXPECT_DOUBLE_EQ(sf.send_recv, 23.0);
    EXPECT_NEAR(sf.total(), 28.0, 1e-12);
    // Blocking sends (Fig. 3, WH bs): S_0 = 2(s+h)·2 + h + 4 = 41; R_1 = (s+h)·2 + h + 2 = 21.
    const C3Units bs = c3_superstep(m, msgs, C3Options{C3Routing::wormhole, C3SendMode::blocking});
    EXPECT_DOUBLE_EQ(bs.send_recv, 41.0);
}

TEST(C3Test, c4_computation_units) {
    const std::vector<double> t{1000, 100, 512, 513};
    EXPECT_DOUBLE_EQ(c3_computation_units(t, 512), 2.0);
}

TEST(C3Test, c5_latency_from_the_definition) {
    EXPECT_DOUBLE_EQ(c3_mesh_latency(4, 4), 2.5);
    EXPECT_DOUBLE_EQ(c3_latency(C3Topology::mesh, 16), 2.5);
    EXPECT_DOUBLE_EQ(c3_latency(C3Topology::mesh, 256), 10.625);
    EXPECT_NEAR(c3_mesh_latency(16, 32), 15.97, 0.005);
    EXPECT_DOUBLE_EQ(c3_latency(C3Topology::hypercube, 8), 1.5);
    EXPECT_DOUBLE_EQ(c3_latency(C3Topology::linear_array, 16), 5.3125);
    EXPECT_DOUBLE_EQ(c3_bisection(C3Topology::mesh, 256), 16.0);
    EXPECT_DOUBLE_EQ(c3_bisection(C3Topology::hypercube, 8), 4.0);
    EXPECT_THROW((void)c3_latency(C3Topology::hypercube, 6), llc::Error);
    // Brute force: average distance on a ring of 5 and a 3x2 mesh.
    double ring = 0.0;
    for (int i = 0; i < 5; ++i) {
        for (int j = 0; j < 5; ++j) {
            ring += std::min(std::abs(i - j), 5 - std::abs(i - j));
        }
    }
    EXPECT_NEAR(c3_latency(C3Topology::ring, 5), ring / 25.0, 1e-12);
    double mesh = 0.0;
    for (int a = 0; a < 6; ++a) {
        for (int b = 0; b < 6; ++b) {
            mesh += std::abs(a / 3 - b / 3) + std::abs(a % 3 - b % 3);
        }
    }
    EXPECT_NEAR(c3_latency(C3Topology::mesh, 6), mesh / 36.0, 1e-12);
}

// Coefficient of L and set-ups of a sum of supersteps, the paper's way (s kept apart, no ⌈L/l⌉).
struct Charge {
    double setups = 0.0;
    double per_L = 0.0;
};

Charge charge(C3Machine machine, C3Pattern pattern, double multiple, bool approximate = true) {
    machine.s = 0.0;
    const double L = 512.0 * 1024;  // any L: everything but the constants is linear in it
    const C3Units with = c3_pattern(
        machine, pattern, multiple * L, C3Options{C3Routing::wormhole, C3SendMode::nonblocking, false}, approximate);
    const C3Units without = c3_pattern(machine, pattern, 0.0, C3Options{}, approximate);
    return {with.setups, (with.total() - without.total()) / L};
}

Charge operator+(Charge a, Charge b) {
    return {a.setups + b.setups, a.per_L + b.per_L};
}

const C3Machine delta{256, 10, 16, 512, 0};
const C3Machine row16{16, 16.0 / 3.0, 1, 512, 0};    // a √p-processor linear array
const C3Machine square16{16, 8.0 / 3.0, 4, 512, 0};  // a 4x4 submachine, h' = (2/3)√16 as in the digest
const C3Machine leaders16{16, 10, 16, 512, 0};       // √p leaders reached across the whole machine
const C3Machine row4{4, 4.0 / 3.0, 1, 512, 0};       // a row of a 4x4 submachine

TEST(C3Test, c6_figure6_one_to_all_coefficients) {
    const Charge dir = charge(delta, C3Pattern::one_to_all, 1);
    EXPECT_NEAR(dir.per_L, 0.551, 0.001);
    EXPECT_DOUBLE_EQ(dir.setups, 256);
    const Charge rec = charge(row16, C3Pattern::one_to_all, 16) + charge(row16, C3Pattern::one_to_all, 1);
    EXPECT_NEAR(rec.per_L, 1.240, 0.001);
    EXPECT_DOUBLE_EQ(rec.setups, 32);
    const Charge sq = charge(leaders16, C3Pattern::one_to_all, 16) + charge(row4, C3Pattern::one_to_all, 4) +
                      charge(row4, C3Pattern::one_to_all, 1);
    EXPECT_NEAR(sq.per_L, 0.935, 0.001);
    EXPECT_DOUBLE_EQ(sq.setups, 24);
    // logp-lev-sq: CBH(p) = 2(s+h) + (⌈Lp/2l⌉ + ⌈Lp/4l⌉)(h+2) + CBH(p/4), h halving with each quartering.
    double per_L = 0.0;
    double setups = 0.0;
    double h = 10.0;
    for (int p = 256; p > 1; p /= 4, h /= 2) {
        for (const double share : {p / 2.0, p / 4.0}) {
            const C3Machine m{p, h, 16, 512, 0};
            const double L = 1000.0;
            const std::vector<C3Message> one{{0, 1, share * L}};
            const C3Options o{C3Routing::wormhole, C3SendMode::nonblocking, false};
            per_L += (c3_superstep(m, one, o).total() - h) / L;  // minus the additive h (not a function of L)
            setups += c3_superstep(m, one, o).setups;
        }
    }
    EXPECT_NEAR(per_L, 5.281, 0.001);
    EXPECT_DOUBLE_EQ(setups, 8);
    // Within about 2 % of the printed Figure 6.
    EXPECT_NEAR(dir.per_L / 0.55, 1.0, 0.02);
    EXPECT_NEAR(rec.per_L / 1.23, 1.0, 0.02);
    EXPECT_NEAR(sq.per_L / 0.93, 1.0, 0.02);
    EXPECT_NEAR(per_L / 5.29, 1.0, 0.02);
}

TEST(C3Test, c6_figure9_all_to_all_coefficients) {
    const Charge dir = charge(delta, C3Pattern::all_to_all, 1);
    EXPECT_NEAR(dir.per_L, 14.00, 0.005);
    EXPECT_DOUBLE_EQ(dir.setups, 256);
    const Charge cr = charge(row16, C3Pattern::all_to_all, 16) + charge(row16, C3Pattern::all_to_all, 16);
    EXPECT_NEAR(cr.per_L, 23.33, 0.005);
    EXPECT_DOUBLE_EQ(cr.setups, 32);
    const Charge sq = charge(square16, C3Pattern::all_to_all, 16) + charge(delta, C3Pattern::one_to_one, 256) +
                      charge(square16, C3Pattern::all_to_all, 16);
    EXPECT_NEAR(sq.per_L, 22.67, 0.005);
    EXPECT_DOUBLE_EQ(sq.setups, 33);
    EXPECT_NEAR(cr.per_L / 23.0, 1.0, 0.02);
    EXPECT_NEAR(sq.per_L / 23.0, 1.0, 0.02);
}

TEST(C3Test, model_prices_in_seconds) {
    // Complete graph of 2: h = 1/2, b = 1. bcast of 1024 bytes, l = 512, s = 8 units: S_0 = 8 + 2 + 0.5 = 10.5,
    // C_l = 2·⌈1/1⌉ = 2, C_p = 2·⌈1/2⌉·0.5 = 1: 13.5 units of 1 µs.
    const C3 model(C3Params{8e-6, 1e-6, 512, C3Topology::complete});
    EXPECT_NEAR(model.collective("bcast", 2, 1024).seconds, 13.5e-6, 1e-15);
    EXPECT_EQ(model.collective("bcast", 1, 1024).seconds, 0.0);
    const C3Machine m = model.machine(16);
    EXPECT_DOUBLE_EQ(m.s, 8.0);
    EXPECT_DOUBLE_EQ(m.b, 64.0);
    EXPECT_NEAR(model.collective("alltoall", 16, 16 * 600).seconds,
                c3_pattern(m, C3Pattern::all_to_all, 600).total() * 1e-6,
                1e-15);
    // Division of 4 into halves: each processor sends h/2 to its partner: a permutation.
    const std::vector<int> halves{2, 2};
    EXPECT_NEAR(model.division(4, halves, 2048).total(),
                c3_pattern(model.machine(4), C3Pattern::one_to_one, 1024).total() * 1e-6,
                1e-15);
    EXPECT_THROW(C3(Profile{}), llc::Error);
}

}  // namespace
