// A program that owns MPI (MPI_Init_thread, MPI_Finalize, no llc::Environment) and wraps its own communicators in
// llc::Group: MPI errors become llc errors without touching the user's communicator, LLC_CHECKS and LLC_TRACE work,
// bad communicators are clear errors, and a group's name reaches its errors. Its own main(): the shared MPI test main
// constructs an llc::Environment, which is what this test must do without.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <mpi.h>

#include <llc/llc.hpp>

namespace {

/// The user's communicator: a duplicate of MPI_COMM_WORLD with MPI's default handler, freed at the end of the scope.
struct UserComm {
    MPI_Comm comm = MPI_COMM_NULL;
    UserComm() { MPI_Comm_dup(MPI_COMM_WORLD, &comm); }
    ~UserComm() {
        if (comm != MPI_COMM_NULL) {
            MPI_Comm_free(&comm);
        }
    }
    UserComm(const UserComm&) = delete;
    UserComm& operator=(const UserComm&) = delete;
};

MPI_Errhandler handler_of(MPI_Comm comm) {
    MPI_Errhandler handler = MPI_ERRHANDLER_NULL;
    MPI_Comm_get_errhandler(comm, &handler);
    return handler;  // predefined handlers need no MPI_Errhandler_free
}

std::string message_of(auto&& body) {
    try {
        body();
    } catch (const llc::Error& e) {
        return e.what();
    }
    return "(no llc::Error)";
}

// First in the file: LLC_CHECKS is read at the first agreement check, and no test before this one makes one. The same
// binary runs once with LLC_CHECKS unset and once with LLC_CHECKS=0 (tests/llc/CMakeLists.txt).
TEST(EmbeddingTest, LlcChecksIsReadWithoutAnEnvironment) {
    ASSERT_FALSE(llc::Environment::active());
    const char* raw = std::getenv("LLC_CHECKS");
    const bool off = raw != nullptr && std::string(raw) == "0";
    EXPECT_EQ(llc::Group::checks_enabled(), !off);
    llc::Group g(MPI_COMM_WORLD);
    if (g.size() > 1) {
        // Different values on different ranks: an error on every rank with checks on, nothing with checks off.
        const bool threw = !message_of([&] { g.check_same("embedding_test", {{"n", g.rank()}}); }).starts_with("(no");
        EXPECT_EQ(threw, !off);
    }
}

TEST(EmbeddingTest, GroupWorksOnADuplicateAndLeavesTheUsersCommunicatorAlone) {
    UserComm user;
    ASSERT_EQ(handler_of(user.comm), MPI_ERRORS_ARE_FATAL);
    {
        llc::Group g(user.comm);
        EXPECT_NE(g.native(), user.comm);
        int relation = MPI_UNEQUAL;
        MPI_Comm_compare(user.comm, g.native(), &relation);
        EXPECT_EQ(relation, MPI_CONGRUENT);  // same processors, same order, another context
        EXPECT_EQ(handler_of(user.comm), MPI_ERRORS_ARE_FATAL);
        EXPECT_EQ(handler_of(MPI_COMM_WORLD), MPI_ERRORS_ARE_FATAL);
        EXPECT_EQ(handler_of(g.native()), MPI_ERRORS_RETURN);
        EXPECT_EQ(g.allreduce(1, llc::Op::sum), g.size());
    }
    // The group freed its duplicate, not the user's communicator.
    int sum = 0;
    const int one = 1;
    EXPECT_EQ(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, user.comm), MPI_SUCCESS);
    int size = 0;
    MPI_Comm_size(user.comm, &size);
    EXPECT_EQ(sum, size);
}

TEST(EmbeddingTest, TheUserMayFreeTheirCommunicatorOnceTheGroupExists) {
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    llc::Group g(comm);
    MPI_Comm_free(&comm);
    EXPECT_EQ(g.allreduce(2, llc::Op::sum), 2 * g.size());
}

TEST(EmbeddingTest, MpiErrorsOnTheGroupAreLlcErrors) {
    UserComm user;
    llc::Group g(user.comm);
    const int value = 0;
    // Rank size() does not exist: with MPI's default handler this would end the job.
    try {
        llc::detail::check_mpi(MPI_Send(&value, 1, MPI_INT, g.size(), 0, g.native()), "embedding_test");
        ADD_FAILURE() << "MPI_Send to a rank that does not exist returned MPI_SUCCESS";
    } catch (const llc::MpiError& e) {
        EXPECT_NE(e.code(), MPI_SUCCESS);
        EXPECT_NE(std::string(e.what()).find("embedding_test"), std::string::npos) << e.what();
    }
    // Subgroups (split from the duplicate) and the one-processor group (a duplicate of MPI_COMM_SELF) as well.
    llc::Group& half = g.subgroup(g.size() > 1 ? std::vector<int>{1, g.size() - 1} : std::vector<int>{1});
    EXPECT_EQ(handler_of(half.native()), MPI_ERRORS_RETURN);
    EXPECT_THROW(llc::detail::check_mpi(MPI_Send(&value, 1, MPI_INT, half.size(), 0, half.native()), "t"),
                 llc::MpiError);
    EXPECT_EQ(handler_of(g.self().native()), MPI_ERRORS_RETURN);
    EXPECT_THROW(llc::detail::check_mpi(MPI_Send(&value, 1, MPI_INT, 1, 0, g.self().native()), "t"), llc::MpiError);
    EXPECT_EQ(handler_of(MPI_COMM_SELF), MPI_ERRORS_ARE_FATAL);
}

TEST(EmbeddingTest, NullAndFreedCommunicatorsAreArgumentErrors) {
    const std::string null_message = message_of([] { llc::Group g(MPI_COMM_NULL); });
    for (const char* fragment : {"llc::Group::Group", "argument 'comm'", "MPI_COMM_NULL"}) {
        EXPECT_NE(null_message.find(fragment), std::string::npos) << null_message << "\nmissing: " << fragment;
    }
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_free(&comm);  // sets the handle to MPI_COMM_NULL
    const std::string freed_message = message_of([&] { llc::Group g(comm); });
    EXPECT_NE(freed_message.find("argument 'comm'"), std::string::npos) << freed_message;
    EXPECT_NE(freed_message.find("freed"), std::string::npos) << freed_message;
    // Ranks left out of a split (MPI_UNDEFINED) get MPI_COMM_NULL too.
    MPI_Comm split = MPI_COMM_NULL;
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? MPI_UNDEFINED : 0, rank, &split);
    if (split == MPI_COMM_NULL) {
        EXPECT_THROW(llc::Group g(split), llc::Error);
    } else {
        llc::Group g(split);
        int world_size = 0;
        MPI_Comm_size(MPI_COMM_WORLD, &world_size);
        EXPECT_EQ(g.size() + 1, world_size);
        MPI_Comm_free(&split);
    }
}

TEST(EmbeddingTest, AnIntercommunicatorIsAnArgumentError) {
    int size = 0;
    int rank = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (size < 2) {
        GTEST_SKIP() << "an intercommunicator needs two processors";
    }
    MPI_Comm half = MPI_COMM_NULL;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Comm inter = MPI_COMM_NULL;
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 == 0 ? 1 : 0, 17, &inter);
    const std::string message = message_of([&] { llc::Group g(inter); });
    EXPECT_NE(message.find("intercommunicator"), std::string::npos) << message;
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
}

TEST(EmbeddingTest, ANamedGroupIsCalledByItsNameInErrors) {
    UserComm user;
    llc::Group g(user.comm, "solver");
    EXPECT_EQ(g.path(), "solver");
    if (g.size() > 1) {
        const std::string message = message_of([&] { g.check_same("embedding_test", {{"n", g.rank()}}); });
        if (llc::Group::checks_enabled()) {
            EXPECT_NE(message.find("group solver"), std::string::npos) << message;
        }
        llc::Group& sub = g.subgroup({1, g.size() - 1});
        EXPECT_EQ(sub.path(), g.rank() == 0 ? "solver/0" : "solver/1");
    }
    EXPECT_EQ(g.self().path(), "solver/self");
    llc::Group unnamed(user.comm);
    EXPECT_EQ(unnamed.path(), "/");
    const std::string message = message_of([&] { llc::Group bad(user.comm, "a/b"); });
    EXPECT_NE(message.find("argument 'name' = 'a/b'"), std::string::npos) << message;
}

TEST(EmbeddingTest, NoGroupWithoutAnEnvironmentIsTheWorld) {
    const std::string message = message_of([] { (void)llc::Group::world(); });
    EXPECT_NE(message.find("llc::Group(comm)"), std::string::npos) << message;
}

// LLC_TRACE without an Environment: configure_from_environment switches tracing on and write_trace_from_environment
// writes the files. Run once with LLC_TRACE set (then the files must appear) and once without (then nothing happens).
TEST(EmbeddingTest, LlcTraceWorksThroughTheExplicitCalls) {
    llc::Group world(MPI_COMM_WORLD);
    const char* raw = std::getenv("LLC_TRACE");
    const std::string expected = raw != nullptr ? raw : "";
    EXPECT_EQ(llc::configure_from_environment(), expected);
    EXPECT_EQ(llc::Trace::enabled(), !expected.empty());
    const std::filesystem::path chrome = std::filesystem::path(expected).replace_extension(".chrome.json");
    if (!expected.empty() && world.rank() == 0) {
        // A file left by an earlier run must not pass for this one's.
        std::filesystem::remove(expected);
        std::filesystem::remove(chrome);
    }
    {
        llc::Group g(MPI_COMM_WORLD, "traced");
        (void)g.allreduce(1, llc::Op::sum);
    }
    llc::write_trace_from_environment(world);
    if (expected.empty() || world.rank() != 0) {
        return;
    }
    std::ifstream in(expected);
    ASSERT_TRUE(in) << "no trace at " << expected;
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_NE(text.str().find("allreduce"), std::string::npos) << text.str().substr(0, 400);
    EXPECT_TRUE(std::filesystem::exists(chrome)) << chrome;
}

}  // namespace

int main(int argc, char** argv) {
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    testing::InitGoogleTest(&argc, argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank != 0) {
        delete testing::UnitTest::GetInstance()->listeners().Release(
            testing::UnitTest::GetInstance()->listeners().default_result_printer());
    }
    const int mine = RUN_ALL_TESTS() != 0 ? 1 : 0;
    int failed = 0;
    MPI_Allreduce(&mine, &failed, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (mine != 0) {
        std::fprintf(stderr, "embedding test failed on rank %d\n", rank);
    }
    MPI_Finalize();
    return failed == 0 ? 0 : 1;
}
