#pragma once
// Shared helpers of the power tests.
#include <gtest/gtest.h>

#include <string>

#include "core/errors.h"
#include "power/catalog.h"
#include "tests/common/expect_error.h"

namespace dctwin::power::test {

inline const Catalog& catalog() {
    static const Catalog c = Catalog::load();
    return c;
}

using dctwin::test::expectInputError;

}  // namespace dctwin::power::test
