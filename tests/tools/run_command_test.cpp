// llc-run's generic driver (llc/tools/run_command.hpp) on a command made here: the options it adds, the warm-up and
// the timed executions, the text and JSON reports, and its errors — a bad option, a bad --profile, an output that
// cannot be written — thrown on every rank.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <llc/group.hpp>
#include <llc/tools/run_command.hpp>

namespace {

namespace po = boost::program_options;
using llc::Group;
using llc::run::OutputError;
using llc::run::Run;
using llc::run::RunCommand;
using llc::run::UsageError;

enum class Shape { square, circle };

std::string_view to_string(Shape shape) {
    return shape == Shape::square ? "square" : "circle";
}

class CountingRun final : public Run {
  public:
    CountingRun(Group& world, int n, bool fail_output, int& executions)
        : world_(world), n_(n), fail_output_(fail_output), executions_(executions) {}
    void execute() override {
        ++executions_;
        world_.barrier();
    }
    [[nodiscard]] std::optional<llc::cost::Expr> expr(const llc::cost::Profile&) const override { return std::nullopt; }
    void write_outputs() override {
        if (fail_output_) {
            llc::run::write_on_root(world_, [] { throw std::runtime_error("disk full (deliberate)"); });
        }
    }
    [[nodiscard]] nlohmann::json json() const override { return {{"algorithm", "counting"}, {"n", n_}}; }
    [[nodiscard]] std::vector<std::string> text_before() const override {
        return {"counting: n = " + std::to_string(n_)};
    }

  private:
    Group& world_;
    int n_;
    bool fail_output_;
    int& executions_;
};

/// A command whose runs count their executions in `executions`.
RunCommand counting_command(int& executions) {
    return {.name = "counting",
            .description = "counts its executions",
            .options =
                [](po::options_description& desc) {
                    desc.add_options()("n", po::value<int>()->default_value(1), "a size")(
                        "fail-output", po::bool_switch(), "rank 0 fails to write its output");
                },
            .prepare = [&executions](Group& world, const po::variables_map& vm) -> std::unique_ptr<Run> {
                return std::make_unique<CountingRun>(
                    world, vm["n"].as<int>(), vm["fail-output"].as<bool>(), executions);
            }};
}

/// Runs the command with `args`; returns rank 0's standard output.
std::string run_counting(int& executions, const std::vector<std::string>& args, int& status) {
    testing::internal::CaptureStdout();
    try {
        status = llc::run::run_command(Group::world(), counting_command(executions), args);
    } catch (...) {
        (void)testing::internal::GetCapturedStdout();
        throw;
    }
    return testing::internal::GetCapturedStdout();
}

/// `body` throws E on every rank, with a message containing `fragment`.
template <class E>
void expect_everywhere(const std::function<void()>& body, const std::string& fragment) {
    bool threw = false;
    try {
        body();
    } catch (const E& e) {
        threw = true;
        EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
    EXPECT_TRUE(threw);
    EXPECT_EQ(Group::world().allreduce(threw ? 1 : 0, llc::Op::min), 1) << "some rank did not throw";
}

TEST(RunCommand, WarmsUpThenTimesRepeatExecutionsAndReports) {
    int executions = 0;
    int status = -1;
    const std::string out = run_counting(executions, {"--n", "7", "--repeat", "4"}, status);
    EXPECT_EQ(status, 0);
    EXPECT_EQ(executions, 5);  // one warm-up, four timed
    if (Group::world().rank() == 0) {
        EXPECT_NE(out.find("counting: n = 7\nmeasured:  "), std::string::npos) << out;
        EXPECT_NE(out.find("(median of 4)\npredicted: - (no --profile)\n"), std::string::npos) << out;
    }
}

TEST(RunCommand, JsonHasTheRunsFieldsAndTheTimes) {
    int executions = 0;
    int status = -1;
    const std::string out = run_counting(executions, {"--repeat", "3", "--json"}, status);
    EXPECT_EQ(status, 0);
    if (Group::world().rank() == 0) {
        const auto j = nlohmann::json::parse(out);
        EXPECT_EQ(j.at("algorithm"), "counting");
        EXPECT_EQ(j.at("n"), 1);
        EXPECT_EQ(j.at("repeat"), 3);
        EXPECT_EQ(j.at("samples_s").size(), 3U);
        EXPECT_GT(j.at("measured_s").get<double>(), 0.0);
        EXPECT_TRUE(j.at("predicted_s").is_null());
    }
}

TEST(RunCommand, HelpRunsNothing) {
    int executions = 0;
    int status = -1;
    const std::string out = run_counting(executions, {"--help"}, status);
    EXPECT_EQ(status, 0);
    EXPECT_EQ(executions, 0);
    if (Group::world().rank() == 0) {
        for (const char* option : {"--n", "--fail-output", "--repeat", "--profile", "--json"}) {
            EXPECT_NE(out.find(option), std::string::npos) << option << " missing from\n" << out;
        }
    }
}

TEST(RunCommand, BadArgumentsAreUsageErrorsOnEveryRank) {
    int executions = 0;
    int status = -1;
    expect_everywhere<UsageError>(
        [&] {
            (void)run_counting(executions, {"--repeat", "0"}, status);
        },
        "--repeat: 0 must be at least 1");
    expect_everywhere<UsageError>([&] { (void)run_counting(executions, {"--colour", "red"}, status); }, "colour");
    expect_everywhere<UsageError>(
        [&] {
            (void)run_counting(executions, {"--profile", "/nonexistent/profile.json"}, status);
        },
        "--profile: ");
    EXPECT_EQ(executions, 0);
}

TEST(RunCommand, AnOutputRankZeroCannotWriteFailsOnEveryRank) {
    int executions = 0;
    int status = -1;
    expect_everywhere<OutputError>([&] { (void)run_counting(executions, {"--fail-output"}, status); },
                                   "disk full (deliberate)");
}

TEST(RunCommand, EnumOptionsParseByTheLibrarysNames) {
    EXPECT_EQ(llc::run::enum_option("--shape", "circle", {Shape::square, Shape::circle}), Shape::circle);
    try {
        (void)llc::run::enum_option("--shape", "oval", {Shape::square, Shape::circle});
        FAIL() << "'oval' parsed";
    } catch (const UsageError& e) {
        EXPECT_STREQ(e.what(), "--shape: 'oval' is not one of square, circle");
    }
}

}  // namespace
