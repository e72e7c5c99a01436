// symv's kernel probes time a rank's share of a product (algorithms/symv/src/symv_probes.cpp): the calibration must
// never time a validated product (docs/validation.md), so no probed size is a size that symv's validation cases
// validate, in any size class, at any P; and the probe at 2^e runs the share that cost::symv reads the table at 2^e
// for.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include <llc/algorithms/symv.hpp>
#include <llc/tools/card.hpp>

namespace {

using llc::SymvLayout;
using llc::SymvMapping;
using llc::detail::symv::probe_max_e;
using llc::detail::symv::probe_min_e;
using llc::detail::symv::probe_rows;

constexpr SymvMapping mappings[] = {SymvMapping::reflection, SymvMapping::standard};

TEST(SymvProbeSizes, NoProbedProductIsAValidatedOne) {
    std::vector<std::int64_t> validated;
    for (const llc::tools::Card& card : llc::tools::cards()) {
        for (const auto& c : card.cases) {
            if (c.algorithm.rfind("symv", 0) != 0) {
                continue;
            }
            for (const auto size_class :
                 {llc::validate::SizeClass::small, llc::validate::SizeClass::medium, llc::validate::SizeClass::large}) {
                const std::vector<std::int64_t> sizes = c.sizes(size_class);
                validated.insert(validated.end(), sizes.begin(), sizes.end());
            }
        }
    }
    ASSERT_FALSE(validated.empty()) << "no symv case found among the registered cards";
    for (int P = 1; P <= 64; ++P) {
        for (int e = probe_min_e; e <= probe_max_e; ++e) {
            for (const SymvMapping mapping : mappings) {
                const std::int64_t n = probe_rows(e, P, mapping);
                EXPECT_TRUE(std::find(validated.begin(), validated.end(), n) == validated.end())
                    << "the probe at 2^" << e << ", P = " << P << " runs n = " << n << ", a validated size";
            }
        }
    }
}

// The busiest rank of the probed product holds (1.5 · 2^e)² entries, within the rounding of n to whole blocks: the
// table at 2^e is the share cost::symv reads it for (√entries / 1.5).
TEST(SymvProbeSizes, TheProbedShareIsTheTableSize) {
    for (int P = 1; P <= 8; ++P) {
        for (int e = probe_min_e; e <= probe_max_e; ++e) {
            for (const SymvMapping mapping : mappings) {
                const SymvLayout layout(probe_rows(e, P, mapping), P, mapping);
                std::int64_t most = 0;
                for (int q = 0; q < P; ++q) {
                    most = std::max(most, layout.local_entries(q));
                }
                const double side = std::sqrt(static_cast<double>(most)) / 1.5;
                EXPECT_NEAR(std::log2(side), e, 0.25) << "P = " << P << ", 2^" << e;
            }
        }
    }
}

}  // namespace
