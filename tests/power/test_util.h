#pragma once
// Shared helpers of the power tests.
#include <gtest/gtest.h>

#include <string>

#include "core/errors.h"
#include "power/catalog.h"

namespace dctwin::power::test {

inline const Catalog& catalog() {
    static const Catalog c = Catalog::load();
    return c;
}

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

}  // namespace dctwin::power::test
