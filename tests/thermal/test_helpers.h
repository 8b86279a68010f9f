#pragma once
// Shared helpers of the thermal tests.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <string>

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

inline double relErr(double a, double b) { return std::abs(a - b) / std::max(std::abs(b), 1e-300); }

}  // namespace dctwin::thermal::testing
