// GoogleTest main for MPI tests: every rank runs every test; failures are gathered so that rank 0 reports which
// ranks failed, and the exit code is non-zero on every rank if any rank failed.
#include <cstdio>
#include <string>

#include <gtest/gtest.h>
#include <mpi.h>

#include <llc/environment.hpp>
#include <llc/group.hpp>

namespace {

/// Keeps only rank 0's console output, but counts every rank's failures.
class RankFilter : public testing::EmptyTestEventListener {
  public:
    RankFilter(testing::TestEventListener* inner, int rank) : inner_(inner), rank_(rank) {}
    ~RankFilter() override { delete inner_; }
    void OnTestProgramStart(const testing::UnitTest& u) override {
        if (rank_ == 0)
            inner_->OnTestProgramStart(u);
    }
    void OnTestIterationStart(const testing::UnitTest& u, int i) override {
        if (rank_ == 0)
            inner_->OnTestIterationStart(u, i);
    }
    void OnTestStart(const testing::TestInfo& t) override {
        if (rank_ == 0)
            inner_->OnTestStart(t);
    }
    void OnTestPartResult(const testing::TestPartResult& r) override {
        // Failures are printed on every rank, prefixed, so that a failure on rank 3 is not lost.
        if (r.failed()) {
            std::fprintf(stderr,
                         "[rank %d] %s:%d: %s\n",
                         rank_,
                         r.file_name() ? r.file_name() : "?",
                         r.line_number(),
                         r.message());
        }
    }
    void OnTestEnd(const testing::TestInfo& t) override {
        if (rank_ == 0)
            inner_->OnTestEnd(t);
    }
    void OnTestIterationEnd(const testing::UnitTest& u, int i) override {
        if (rank_ == 0)
            inner_->OnTestIterationEnd(u, i);
    }
    void OnTestProgramEnd(const testing::UnitTest& u) override {
        if (rank_ == 0)
            inner_->OnTestProgramEnd(u);
    }

  private:
    testing::TestEventListener* inner_;
    int rank_;
};

}  // namespace

int main(int argc, char** argv) {
    llc::Environment env(
        argc, argv, {.keep_freed_memory = true});  // timings as the cost model assumes: freed memory reused
    testing::InitGoogleTest(&argc, argv);
    const int rank = env.world().rank();
    auto& listeners = testing::UnitTest::GetInstance()->listeners();
    auto* printer = listeners.Release(listeners.default_result_printer());
    listeners.Append(new RankFilter(printer, rank));  // gtest owns listeners and deletes them
    const int local = RUN_ALL_TESTS();
    int failed_ranks = 0;
    const int mine = local != 0 ? 1 : 0;
    MPI_Allreduce(&mine, &failed_ranks, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) {
        std::printf("MPI test: %d of %d ranks failed\n", failed_ranks, env.world().size());
    }
    return failed_ranks == 0 ? 0 : 1;
}
