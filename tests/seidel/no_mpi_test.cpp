// The cost layer plans and prices Seidel's broadcasts without MPI: <llc/cost/seidel.hpp> and <llc/bcast_schedule.hpp>
// must not bring in <mpi.h>. They come first, so the check below sees only what they include.
#include <llc/bcast_schedule.hpp>
#include <llc/cost/operation_names.hpp>
#include <llc/cost/seidel.hpp>

#if defined(MPI_VERSION)
#error "<llc/cost/seidel.hpp> or <llc/bcast_schedule.hpp> includes <mpi.h>: the schedule part must stay MPI-free"
#endif

#include <cstddef>

#include <gtest/gtest.h>

namespace {

TEST(SeidelWithoutMpiTest, plans_prices_and_chooses_a_broadcast) {
    const llc::BcastSchedule schedule = llc::bcast_schedule(llc::Bcast::binomial, 5, 2);
    EXPECT_EQ(schedule.P, 5);
    EXPECT_EQ(schedule.root, 2);
    EXPECT_EQ(schedule.rounds.size(), 3U);  // ⌈lg 5⌉ rounds with virtual nodes
    EXPECT_EQ(llc::cost::seidel::coefficients(llc::Bcast::binomial, 5),
              (llc::cost::seidel::Coefficients{3.0, 3.0, 0.0}));

    llc::cost::seidel::install_chooser(1.0, 0.0);  // start-ups only: the fewest steps win (ST)
    EXPECT_EQ(llc::choose_bcast(8, std::size_t{1} << 20), llc::Bcast::binomial);
    llc::set_bcast_chooser({});
    EXPECT_EQ(llc::choose_bcast(8, 64), llc::default_bcast_choice(8, 64));
}

TEST(SeidelWithoutMpiTest, superstep_names_are_the_traced_ones) {
    // The spelling llc::bcast records and the cost layer's operation names (what llc-probe measures and the models
    // price) must be one: llc cannot include the cost layer, so the two declarations are held together here.
    namespace op = llc::names::op;
    EXPECT_EQ(llc::bcast_superstep_name(llc::Bcast::mpi), op::bcast);
    EXPECT_EQ(llc::bcast_superstep_name(llc::Bcast::binomial), op::bcast_st);
    EXPECT_EQ(llc::bcast_superstep_name(llc::Bcast::bidirectional), op::bcast_bst);
    EXPECT_EQ(llc::bcast_superstep_name(llc::Bcast::recursive_halving), op::bcast_rh);
    EXPECT_EQ(llc::bcast_superstep_name(llc::Bcast::binomial), "bcast.st");
}

}  // namespace
