#pragma once
// Test helper for MPI tests: an argument error must be an llc::Error on every rank, with a message that names it.
#include <initializer_list>
#include <string>

#include <gtest/gtest.h>

#include <llc/error.hpp>
#include <llc/group.hpp>

namespace llc::test {

/// Runs `body`, expects llc::Error whose message contains every fragment, and checks (one allreduce over the world)
/// that every rank threw.
template <class F>
void expect_error_everywhere(F&& body, std::initializer_list<std::string> fragments) {
    bool threw = false;
    try {
        body();
    } catch (const llc::Error& e) {
        threw = true;
        const std::string message = e.what();
        for (const auto& fragment : fragments) {
            EXPECT_NE(message.find(fragment), std::string::npos) << "message: " << message << "\nmissing: " << fragment;
        }
    }
    EXPECT_TRUE(threw);
    EXPECT_EQ(llc::Group::world().allreduce(threw ? 1 : 0, llc::Op::min), 1) << "some rank did not throw";
}

}  // namespace llc::test
