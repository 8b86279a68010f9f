#pragma once
// Shared helpers of the thermal tests.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/component.h"
#include "tests/common/shared_file.h"
#include "thermal/coolant.h"

namespace dctwin::thermal::testing {

/// A coolant with constant properties (ρ = 1000 kg/m³, c_p = 4000 J/(kg·K)) over 0..100 °C,
/// written to the build tree: it makes hand calculations exact (no c_p(T) variation).
inline Coolant constantCoolant() {
    const auto path = dctwin::testing::writeSharedFile(
        std::filesystem::path(DCTWIN_BINARY_DIR) / "thermal_test_const_coolant.json",
        R"({"name": "const", "description": "test fluid", "source": "test",
             "freezing_point_C": -10, "temperature_C": [0, 50, 100],
             "density_kg_per_m3": [1000, 1000, 1000],
             "specific_heat_J_per_kgK": [4000, 4000, 4000],
             "viscosity_Pa_s": [0.001, 0.001, 0.001],
             "conductivity_W_per_mK": [0.6, 0.6, 0.6]})");
    return Coolant::fromFile(path);
}

/// Expects `b` to compute what `a` computes at states x and inputs u, outputs and derivatives
/// to the last bit: a component built on shared constants against one with its own copies.
inline void expectComputesAlike(const Component& a, const Component& b, std::span<const double> x,
                                std::span<const double> u, std::string_view where) {
    std::vector<double> ya(a.outputs().size()), yb(ya.size()), da(x.size()), db(x.size());
    a.computeOutputs(0.0, x, u, ya);
    b.computeOutputs(0.0, x, u, yb);
    a.computeDerivatives(0.0, x, u, da);
    b.computeDerivatives(0.0, x, u, db);
    ASSERT_EQ(b.outputs().size(), ya.size()) << where;
    for (std::size_t i = 0; i < ya.size(); ++i) {
        EXPECT_EQ(std::bit_cast<std::uint64_t>(ya[i]), std::bit_cast<std::uint64_t>(yb[i]))
            << where << ": output " << a.outputs()[i].name << ", " << ya[i] << " vs " << yb[i];
    }
    for (std::size_t i = 0; i < da.size(); ++i) {
        EXPECT_EQ(std::bit_cast<std::uint64_t>(da[i]), std::bit_cast<std::uint64_t>(db[i]))
            << where << ": d" << a.states()[i].name << "/dt, " << da[i] << " vs " << db[i];
    }
}

inline double relErr(double a, double b) { return std::abs(a - b) / std::max(std::abs(b), 1e-300); }

}  // namespace dctwin::thermal::testing
