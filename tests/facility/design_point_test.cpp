// The design-point study (facility::sizeScenario, DESIGN.md §3.5): sizing tables for power,
// cooling and water at peak IT and the EPW design weather.
#include <gtest/gtest.h>

#include <cmath>

#include "test_util.h"

namespace dctwin::facility::test {
namespace {

const Json* findRow(const Json& table, const std::string& element) {
    for (const Json& row : table) {
        if (row.value("element", "") == element) return &row;
    }
    return nullptr;
}

double designMetric(const RunOutcome& r, const std::string& name) {
    for (const auto& m : r.report.summary) {
        if (m.name == name) return m.value;
    }
    ADD_FAILURE() << "no design metric " << name;
    return NAN;
}

TEST(DesignPoint, ReferenceSitePowerTableRespectsTheEightyPercentRule) {
    // DESIGN.md §3.2: NEC 80 % continuous-load rule — every element of the electrical chain is
    // sized so that the design load loads it to at most 80 %.
    const RunOutcome r = sizeScenario(scenario(reference()));
    const Json& power = r.summary["sizing"]["power"];
    ASSERT_TRUE(power.is_array());
    ASSERT_GE(power.size(), 4u);
    for (const char* element : {"ups", "transformer", "generator"}) {
        EXPECT_NE(findRow(power, element), nullptr) << element << " row missing: " << power;
    }
    for (const Json& row : power) {
        ASSERT_TRUE(row.contains("design_loading_pct")) << row;
        if (row["design_loading_pct"].is_null()) continue;  // elements without a loading
        const double loading = row["design_loading_pct"].get<double>();
        EXPECT_GT(loading, 0.0) << row;
        EXPECT_LE(loading, 80.0 + 1e-9) << row;
    }
    // The design IT power is the hall at full load: 64 × ~135 kW + ~0.4 MW of fabric ≈ 9 MW
    // (issue 5: 8.6-9.5 MW).
    const double it = designMetric(r, "design_it_power_kW") * 1e3;
    EXPECT_GE(it, 8.6e6);
    EXPECT_LE(it, 9.5e6);
    EXPECT_NEAR(num(r.summary, "design_it_power_kW"), it / 1e3, 1e-6);
    // Facility power exceeds IT by cooling and losses, within the plausible PUE band.
    EXPECT_GT(designMetric(r, "design_pue"), 1.0);
    EXPECT_LT(designMetric(r, "design_pue"), 1.3);
    // The design steady state has settled (the sizing reads a steady operating point).
    EXPECT_LT(designMetric(r, "design_steady_drift_K"), 0.05);
}

TEST(DesignPoint, ReferenceSiteCoolingTableHasNPlusOneCdusAndMeetsTheSetpoint) {
    const RunOutcome r = sizeScenario(scenario(reference()));
    const Json& cooling = r.summary["sizing"]["cooling"];
    const Json* cdu = findRow(cooling, "cdu");
    ASSERT_NE(cdu, nullptr) << cooling;
    // 64 racks at 8 racks per CDU (scenario) = 8 running + 1 spare (N+1) = 9.
    EXPECT_EQ((*cdu)["count"].get<double>(), std::ceil(64.0 / 8.0) + 1.0);
    EXPECT_EQ((*cdu)["redundancy"], "N+1");
    // Each CDU carries 8 racks × ~122 kW to liquid ≈ 1 MW of its 1,368 kW (Vertiv XDU1350).
    EXPECT_LT((*cdu)["design_loading_pct"].get<double>(), 100.0);
    EXPECT_GT((*cdu)["design_loading_pct"].get<double>(), 50.0);
    // Heat rejection: the sized units meet the facility supply setpoint at the design weather
    // (facility/site.cpp sizes the count until the unmet temperature is below 0.05 K).
    ASSERT_NE(findRow(cooling, "heat_rejection"), nullptr);
    EXPECT_LT(designMetric(r, "design_setpoint_unmet_K"), 0.05);
    EXPECT_NEAR(r.summary["design_setpoint_unmet_K"].get<double>(), 0.0, 0.05);
    // And the GPUs are below the 87 °C throttle temperature at design (racks.json).
    EXPECT_GT(designMetric(r, "design_throttle_margin_K"), 0.0);
    // Water table rows of DESIGN.md §5.3.
    const Json& water = r.summary["sizing"]["water"];
    for (const char* e : {"evaporation", "drift", "blowdown", "adiabatic_spray", "makeup"}) {
        EXPECT_NE(findRow(water, e), nullptr) << e;
    }
}

TEST(DesignPoint, CoolingTowerInPhoenixIsSizedToTheWetBulbAndMeetsTheSetpoint) {
    // A tower is sized at the 0.4 % evaporation wet bulb (facility/site.cpp); Phoenix's wet
    // bulb (~24 °C) leaves a 7 K approach to the 31 °C facility supply, so the units meet it.
    Json j = reference();
    j["site"]["weather"] = weather("phoenix");
    j["cooling"]["heat_rejection"] = {{"type", "cooling_tower"}};
    const RunOutcome r = sizeScenario(scenario(j));
    EXPECT_LT(designMetric(r, "design_setpoint_unmet_K"), 0.05);
    EXPECT_LT(designMetric(r, "design_wet_bulb_C"), 31.0);
    // A tower evaporates: makeup water at design is positive.
    EXPECT_GT(designMetric(r, "design_water_m3_per_h"), 0.0);
}

}  // namespace
}  // namespace dctwin::facility::test
