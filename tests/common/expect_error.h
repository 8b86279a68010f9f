#pragma once
// Test helper shared by the suites: an error of the expected type whose message names what
// the user has to fix.
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

#include "core/errors.h"

namespace dctwin::test {

/// Runs f, expects an InputError whose message contains every fragment.
template <class F>
void expectInputError(F&& f, std::initializer_list<std::string> fragments) {
    try {
        f();
        ADD_FAILURE() << "expected an InputError";
    } catch (const InputError& e) {
        const std::string msg = e.what();
        for (const auto& frag : fragments) {
            EXPECT_NE(msg.find(frag), std::string::npos)
                << "message '" << msg << "' lacks '" << frag << "'";
        }
    }
}

/// The message of the InputError `f` throws (fails the test if it throws nothing), for tests
/// that check where in the message a fragment stands.
template <class F>
std::string inputErrorOf(F&& f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    }
    ADD_FAILURE() << "expected an InputError";
    return {};
}

}  // namespace dctwin::test
