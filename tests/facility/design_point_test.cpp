// The design-point study (facility::sizeScenario, DESIGN.md §3.5): sizing tables for power,
// cooling and water at peak IT and the EPW design weather.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>

#include "core/data_dir.h"
#include "test_util.h"
#include "tests/common/expect_error.h"

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

TEST(DesignPoint, DryCoolersThatCannotHoldTheSetpointFailSizingWithTheReachableTemperature) {
    // Issue 10: plain dry coolers in Phoenix (0.4 % dry bulb 43.6 °C) cannot hold a 31 °C
    // facility supply at any unit count: a dry cooler cannot cool water below the dry bulb.
    // Sizing once exited 0 with 33 units and no word; it now fails and names the reach.
    Json j = reference();
    j["site"]["weather"] = weather("phoenix");
    j["cooling"]["heat_rejection"] = {{"type", "dry_cooler"}};
    const std::string msg = dctwin::test::inputErrorOf([&] { sizeScenario(scenario(j)); });
    for (const char* f :
         {"/cooling/heat_rejection", "setpoint 31.0 °C is out of reach", "dry bulb 43.6 °C",
          "adiabatic_cooler", "cooling_tower", "trim_chiller", "accept_setpoint_exceedance"}) {
        EXPECT_NE(msg.find(f), std::string::npos) << f << " not in: " << msg;
    }

    // Accepted: the plant is sized and what it reaches is reported.
    j["cooling"]["heat_rejection"]["accept_setpoint_exceedance"] = true;
    const RunOutcome r = sizeScenario(scenario(j));
    const double reach = designMetric(r, "design_reachable_fws_supply_C");
    // Bounds from physics, not from the model: above the dry bulb (heat flows from the water
    // to the air), and within the catalog unit's rating approach (outlet 35 °C at 27 °C dry
    // bulb, dry_coolers.json: 8 K at full duty) since 33 units carry 7.7 MW, a quarter of
    // their 33 MW rating.
    EXPECT_GT(reach, 43.6);
    EXPECT_LT(reach, 43.6 + 8.0);
    // The design-point simulation (an independent solution of the coupled plant, pumps and
    // pipes) settles at the same miss within 0.5 K.
    EXPECT_NEAR(designMetric(r, "design_setpoint_unmet_K"), reach - 31.0, 0.5);
    // Hours: every weather hour with a dry bulb at or above 31 °C must miss the setpoint
    // (2,839 h in this EPW, counted from the file below); hours below the setpoint minus the
    // unit's full-duty approach (8 K, above; 10 K taken) cannot.
    std::ifstream epw(dctwin::dataFile("weather/USA_AZ_Phoenix-Sky.Harbor.epw"));
    std::string line;
    int above31 = 0, above21 = 0;
    for (int n = 0; std::getline(epw, line); ++n) {
        if (n < 8) continue;
        std::size_t pos = 0;
        for (int field = 0; field < 6; ++field) pos = line.find(',', pos) + 1;
        const double db = std::stod(line.substr(pos));
        above31 += db >= 31.0;
        above21 += db >= 21.0;
    }
    EXPECT_EQ(above31, 2839);
    const double hours = designMetric(r, "design_hours_above_fws_setpoint_h");
    EXPECT_GE(hours, above31);
    EXPECT_LE(hours, above21);
    EXPECT_GT(designMetric(r, "design_worst_fws_excess_K"), reach - 31.0);
}

TEST(DesignPoint, ReferenceSiteHoldsItsDesignDayButNotEveryHumidHour) {
    // The shipped reference (adiabatic coolers, Milwaukee) holds 31 °C on its design day, which
    // for dry coolers is the 0.4 % dry bulb with its coincident wet bulb. Pads cool toward the
    // wet bulb, so humid hours with a lower dry bulb but a higher wet bulb can still miss.
    const RunOutcome r = sizeScenario(scenario(reference()));
    EXPECT_NEAR(designMetric(r, "design_reachable_fws_supply_C"), 31.0, 1e-9);
    // Regression, measured when the count was introduced (issue 10): 182 h of the TMY3 year at
    // design heat, the worst 1.9 K above. Bands of ±15 %: a change of pad effectiveness or of
    // the design-weather basis moves them further.
    EXPECT_NEAR(designMetric(r, "design_hours_above_fws_setpoint_h"), 182.0, 27.0);
    EXPECT_NEAR(designMetric(r, "design_worst_fws_excess_K"), 1.9, 0.3);
}

}  // namespace
}  // namespace dctwin::facility::test
