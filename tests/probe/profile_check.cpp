// Checks a profile written by a minimal llc-probe run (run_minimal.cmake): it loads with Profile::load, and holds every
// collective and the division at every p = 1 … P, the 12 P-3PC functions, LogGP, BSP at every p, Hockney, C³, and a
// kernel constant for every algorithm's kernel probe, with finite, non-negative, plausible values; the samples file
// beside it has a row for every measured function. The oracle is the list of what must be there, not the probe's code.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <llc/cost/kernel_table.hpp>
#include <llc/cost/lockstep.hpp>
#include <llc/cost/profile.hpp>
#include <llc/tools/card.hpp>

namespace {

/// The collectives llc-probe calibrates at every group size (written out here, not taken from llc-probe).
const std::vector<std::string> calibrated_collectives{"bcast",
                                                      "reduce",
                                                      "allreduce",
                                                      "gather",
                                                      "allgather",
                                                      "scatter",
                                                      "alltoall",
                                                      "barrier",
                                                      "swap",
                                                      "shift",
                                                      "swap.cold",
                                                      "swap.cold.heap",
                                                      "shift.overlap"};

std::string profile_path() {
    const char* path = std::getenv("LLC_PROBE_TEST_PROFILE");
    return path == nullptr ? std::string() : std::string(path);
}

int world_size() {
    const char* p = std::getenv("LLC_PROBE_TEST_P");
    return p == nullptr ? 0 : std::atoi(p);
}

/// LLC_PROBE_TEST_KERNELS=0: the run skipped the kernel probes (llc-probe --no-kernels, tests/probe/CMakeLists.txt).
bool kernels_probed() {
    const char* value = std::getenv("LLC_PROBE_TEST_KERNELS");
    return value == nullptr || std::string(value) != "0";
}

bool plausible(double seconds) {
    return std::isfinite(seconds) && seconds >= 0.0 && seconds < 10.0;
}

/// One row of the samples file beside the profile (kind,op,p,bytes,rep,seconds,…).
struct SampleRow {
    std::string kind;
    std::string op;
    int p = 0;
    int rep = 0;
    double seconds = 0.0;
};

/// The samples file's header and rows, in file order.
std::pair<std::string, std::vector<SampleRow>> read_samples() {
    std::string path = profile_path();
    path = path.substr(0, path.size() - 5) + ".samples.csv";
    std::ifstream in(path);
    std::string header;
    std::getline(in, header);
    std::vector<SampleRow> rows;
    std::string line;
    while (std::getline(in, line)) {
        std::stringstream fields(line);
        std::array<std::string, 6> f;
        for (std::string& field : f) {
            std::getline(fields, field, ',');
        }
        rows.push_back({f[0], f[1], std::stoi(f[2]), std::stoi(f[4]), std::stod(f[5])});
    }
    return {header, rows};
}

class ProbeProfile : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_FALSE(profile_path().empty()) << "set LLC_PROBE_TEST_PROFILE";
        ASSERT_GE(P, 1) << "set LLC_PROBE_TEST_P";
        profile = llc::cost::Profile::load(profile_path());
    }
    int P = world_size();
    llc::cost::Profile profile;
};

TEST_F(ProbeProfile, MetadataDescribesTheRun) {
    EXPECT_EQ(profile.meta().world_size, P);
    EXPECT_TRUE(profile.meta().quick);
    EXPECT_FALSE(profile.meta().host.empty());
    EXPECT_FALSE(profile.meta().mpi_library.empty());
    EXPECT_EQ(profile.meta().date.size(), 20U) << profile.meta().date;  // 2024-06-01T12:00:00Z
    // The processors' evenness over the side-by-side kernel probes: recorded where two or more ranks ran them.
    if (P > 1 && kernels_probed()) {
        EXPECT_GT(profile.meta().kernel_rank_ratio, 0.0);
    } else {
        EXPECT_EQ(profile.meta().kernel_rank_ratio, 0.0);
    }
}

TEST_F(ProbeProfile, EveryCollectiveAtEveryGroupSize) {
    for (const std::string& f : calibrated_collectives) {
        ASSERT_TRUE(profile.has_collective(f)) << f;
        std::vector<int> expected;
        for (int p = 1; p <= P; ++p) {
            expected.push_back(p);
        }
        EXPECT_EQ(profile.measured_sizes(f), expected) << f;
        for (int p = 1; p <= P; ++p) {
            const llc::cost::Piecewise& fit = profile.collective_fit(f, p);
            EXPECT_FALSE(fit.empty()) << f << " p=" << p;
            EXPECT_GT(fit.quality().samples, 0U) << f << " p=" << p;
            const double small = profile.collective(f, p, 8).seconds;
            const double large = profile.collective(f, p, 4096).seconds;
            EXPECT_TRUE(plausible(small) && plausible(large)) << f << " p=" << p << ": " << small << ", " << large;
            if (f != "barrier") {
                EXPECT_LE(fit.min_bytes(), 16.0) << f << " p=" << p;
                EXPECT_GE(fit.max_bytes(), 2048.0) << f << " p=" << p;
            }
        }
        // The v-variants are priced by their regular form.
    }
    EXPECT_TRUE(profile.has_collective("gatherv"));
    EXPECT_TRUE(profile.has_collective("alltoallv"));
}

TEST_F(ProbeProfile, TheWrittenShiftAtEveryGroupSizeFromTwo) {
    // Its one reader, matrix chain's rotations, prices it at P >= 2 only: a one-processor run has no written shift.
    if (P < 2) {
        EXPECT_FALSE(profile.has_collective("shift.written"));
        return;
    }
    ASSERT_TRUE(profile.has_collective("shift.written"));
    std::vector<int> expected;
    for (int p = 2; p <= P; ++p) {
        expected.push_back(p);
    }
    EXPECT_EQ(profile.measured_sizes("shift.written"), expected);
    for (int p = 2; p <= P; ++p) {
        const llc::cost::Piecewise& fit = profile.collective_fit("shift.written", p);
        EXPECT_GT(fit.quality().samples, 0U) << "p=" << p;
        EXPECT_LE(fit.min_bytes(), 16.0) << "p=" << p;
        EXPECT_GE(fit.max_bytes(), 2048.0) << "p=" << p;
        EXPECT_TRUE(plausible(profile.collective("shift.written", p, 4096).seconds)) << "p=" << p;
    }
}

TEST_F(ProbeProfile, DivisionAtEveryGroupSize) {
    ASSERT_TRUE(profile.has_division());
    for (int p = 1; p <= P; ++p) {
        const llc::cost::DivisionLookup d = profile.division(p, 1024);
        EXPECT_TRUE(plausible(d.split) && plausible(d.exchange) && plausible(d.rejoin)) << "p=" << p;
        EXPECT_GT(d.total(), 0.0) << "p=" << p;
    }
    EXPECT_EQ(static_cast<int>(profile.division_sizes().size()), P);
}

TEST_F(ProbeProfile, PointToPointAndAnalyticModels) {
    ASSERT_TRUE(profile.has_point_to_point());
    for (const auto path : {llc::cost::Path::send, llc::cost::Path::recv, llc::cost::Path::full}) {
        for (const auto layout :
             {llc::cost::Layout::cc, llc::cost::Layout::cn, llc::cost::Layout::nc, llc::cost::Layout::nn}) {
            const double t = profile.point_to_point(path, layout)(1000);
            EXPECT_TRUE(plausible(t)) << llc::cost::to_string(path) << "." << llc::cost::to_string(layout) << ": " << t;
        }
    }
    ASSERT_TRUE(profile.loggp().has_value());
    const auto& loggp = *profile.loggp();
    EXPECT_TRUE(plausible(loggp.L) && plausible(loggp.o) && plausible(loggp.g) && plausible(loggp.G));
    ASSERT_TRUE(profile.hockney().has_value());
    EXPECT_GT(profile.hockney()->alpha + profile.hockney()->beta, 0.0);
    ASSERT_TRUE(profile.c3().has_value());
    EXPECT_GT(profile.c3()->packet_time, 0.0);
    EXPECT_GE(profile.c3()->packet_bytes, 1.0);
    ASSERT_TRUE(profile.has_bsp());
    EXPECT_EQ(static_cast<int>(profile.bsp_table().size()), P);
    for (const auto& [p, params] : profile.bsp_table()) {
        EXPECT_TRUE(plausible(params.g) && plausible(params.l)) << "p=" << p;
        EXPECT_GT(params.l, 0.0) << "p=" << p;
    }
}

TEST_F(ProbeProfile, EveryKernelProbe) {
    if (!kernels_probed()) {
        // Only the lockstep tables, which the collectives' phase measures (below), are kernel constants then.
        for (const auto& [name, constant] : profile.kernels()) {
            EXPECT_EQ(name.rfind("lockstep.", 0), 0U) << name;
        }
        GTEST_SKIP() << "llc-probe --no-kernels: the runs at other P check the kernel probes";
    }
    // Every probe's constant (a quick profile: the probes not full_only), for those with a solo_name its constant
    // alone on the node, and on P > 1 rank 0's own side-by-side value (cost::rank0_kernel_key), never above the
    // slowest rank's.
    auto probes = llc::tools::all_probes();
    if (profile.meta().quick) {
        std::erase_if(probes, [](const llc::cost::KernelProbe& k) { return k.full_only; });
    }
    std::size_t expected = 0;
    for (const auto& probe : probes) {
        for (const auto& [name, unit] :
             {std::pair{probe.name, probe.unit}, std::pair{probe.solo_name, probe.unit + ", one processor alone"}}) {
            if (name.empty()) {
                continue;
            }
            ++expected;
            ASSERT_TRUE(profile.has_kernel(name)) << name;
            EXPECT_GT(profile.kernel(name).seconds_per_unit, 0.0) << name;
            EXPECT_LT(profile.kernel(name).seconds_per_unit, 1e-3) << name;
            EXPECT_EQ(profile.kernel(name).unit, unit);
        }
        const std::string rank0 = llc::cost::rank0_kernel_key(probe.name);
        if (P > 1) {
            ++expected;
            ASSERT_TRUE(profile.has_kernel(rank0)) << rank0;
            EXPECT_GT(profile.kernel(rank0).seconds_per_unit, 0.0) << rank0;
            EXPECT_LE(profile.kernel(rank0).seconds_per_unit, profile.kernel(probe.name).seconds_per_unit) << rank0;
            EXPECT_EQ(profile.kernel(rank0).unit, probe.unit + ", rank 0's processor, side by side");
        } else {
            EXPECT_FALSE(profile.has_kernel(rank0)) << rank0;
        }
    }
    EXPECT_GT(expected, probes.size());  // the FFT's out-of-place leaves are measured alone too
    // Besides the probes: the lockstep excess at every group size p ≥ 2, steps of 2^11 … 2^21 ns (tools/llc-probe,
    // lockstep.hpp; written as kernel constants, read by cost/lockstep.hpp).
    for (int p = 2; p <= P; ++p) {
        for (int e = 11; e <= 21; e += 2) {
            const std::string name = llc::cost::kernel_size_key(llc::cost::lockstep_key(p), e);
            ++expected;
            ASSERT_TRUE(profile.has_kernel(name)) << name;
            EXPECT_GE(profile.kernel(name).seconds_per_unit, 0.0) << name;
        }
    }
    EXPECT_EQ(profile.kernels().size(), expected);
}

TEST_F(ProbeProfile, RawSamplesBesideTheProfile) {
    const auto [header, rows] = read_samples();
    ASSERT_FALSE(rows.empty()) << "no samples beside " << profile_path();
    EXPECT_EQ(header, "kind,op,p,bytes,rep,seconds,canary,link_canary,throughput_canary");
    std::set<std::string> ops;
    std::set<int> ps;
    // Line numbers: of the first and last collective sample, and of the kernel samples by round.
    int line_number = 0;
    int first_collective = -1;
    int last_collective = -1;
    std::map<int, std::vector<int>> kernel_lines;
    for (const SampleRow& row : rows) {
        ++line_number;
        ops.insert(row.op);
        if (row.kind == "collective") {
            ps.insert(row.p);
            first_collective = first_collective < 0 ? line_number : first_collective;
            last_collective = line_number;
        } else if (row.kind == "kernel") {
            kernel_lines[row.rep].push_back(line_number);
        }
    }
    // A quick calibration's two kernel rounds: one before the collectives, one after them (the rounds are spread
    // over the calibration so that they see the machine's slow and fast stretches alike); a deciding round, if any
    // probe's two rounds disagreed, after them (DecidingRoundOnlyWhereTwoRoundsDisagree).
    ASSERT_GE(first_collective, 0);
    if (kernels_probed()) {
        ASSERT_GE(kernel_lines.size(), 2U);
        ASSERT_LE(kernel_lines.size(), 3U);
        EXPECT_LT(kernel_lines.at(0).back(), first_collective);
        EXPECT_GT(kernel_lines.at(1).front(), last_collective);
        if (kernel_lines.size() == 3U) {
            EXPECT_GT(kernel_lines.at(2).front(), kernel_lines.at(1).back());
        }
    } else {
        EXPECT_TRUE(kernel_lines.empty());
    }
    std::vector<std::string> expected = calibrated_collectives;
    expected.insert(expected.end(), {"division.split", "division.par", "p2p.send.cc", "p2p.full.nn", "model.pingpong"});
    for (const std::string& f : expected) {
        EXPECT_EQ(ops.count(f), 1U) << f;
    }
    EXPECT_EQ(static_cast<int>(ps.size()), P);
}

/// The kernel rows of the samples file: by key (the probe's name, or its solo_name for rank 0 alone), by round, the
/// slowest rank's value (what a side-by-side round records).
std::map<std::string, std::map<int, double>> kernel_rounds_by_key() {
    std::map<std::string, std::map<int, double>> out;
    for (const SampleRow& row : read_samples().second) {
        if (row.kind == "kernel") {
            double& slowest = out[row.op].try_emplace(row.rep, 0.0).first->second;
            slowest = std::max(slowest, row.seconds);
        }
    }
    return out;
}

// A quick calibration runs a probe a third time (the deciding round, after the last) exactly where its two rounds
// lie more than 1.15× apart — the tiny run's probes are short, so the round's time budget leaves none out — and the
// profile's constant is then the median of the three, not the mean of the two.
TEST_F(ProbeProfile, DecidingRoundOnlyWhereTwoRoundsDisagree) {
    if (!kernels_probed()) {
        GTEST_SKIP() << "llc-probe --no-kernels";
    }
    int decided = 0;
    for (const auto& [key, rounds] : kernel_rounds_by_key()) {
        if (!rounds.contains(0) || !rounds.contains(1)) {
            EXPECT_EQ(rounds.size(), 1U) << key << ": a third round without two before it";
            continue;
        }
        const double low = std::min(rounds.at(0), rounds.at(1));
        const double high = std::max(rounds.at(0), rounds.at(1));
        EXPECT_EQ(rounds.contains(2), high > 1.15 * low) << key << ": rounds " << rounds.at(0) << ", " << rounds.at(1);
        if (rounds.contains(2) && profile.has_kernel(key)) {
            std::vector<double> three{rounds.at(0), rounds.at(1), rounds.at(2)};
            std::sort(three.begin(), three.end());
            EXPECT_NEAR(profile.kernel(key).seconds_per_unit, three[1], 1e-7 * three[1]) << key;  // 9 digits in CSV
            ++decided;
        }
    }
    std::cout << decided << " probe(s) decided by a third round\n";
}

}  // namespace
