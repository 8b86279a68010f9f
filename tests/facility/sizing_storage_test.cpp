// Issue 15 through the scenario: the reference site's UPS autonomy, fuel and fault levels in the
// sizing tables of `dctwin size` (summary JSON "sizing"/"power_checks"), and Phoenix's derated
// generators. Hand calculations in the comments.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "facility/metrics.h"
#include "facility/sizing.h"
#include "test_util.h"
#include "tests/common/expect_error.h"

namespace dctwin::facility::test {
namespace {

const Json& checkRow(const RunOutcome& r, const std::string& item) {
    return sizingRow(r, "power_checks", "item", item);
}

const Json& powerRow(const RunOutcome& r, const std::string& element) {
    return sizingRow(r, "power", "element", element);
}

TEST(SizingStorage, ReferenceUpsAutonomyFuelAndFaultLevels) {
    // UPS load of the reference site: 64 GB300 racks at full use, 64 × 134.6 kW = 8,614.3 kW,
    // plus the fabric outside the racks, 410.4 kW: 9,024.7 kW; × 1.10 growth = 9,927.2 kW;
    // plus the rack feeds' and busways' I²R, ≈ 25 kW: P_UPS ≈ 9,952 kW (13,985 A at 415 V,
    // PF 0.99). 4N/3 with 8 rows: the worst system carries 1/4 normally, 3/8 with one lost, on
    // 3 frames of 1.5 MW: loading 0.25 × 9,952/4,500 = 55.3 %, 0.375 × 9,952/4,500 = 82.9 %.
    // static_1500kw lasts 5 min at rated load: 5/0.553 = 9.04 min, 5/0.829 = 6.03 min, against
    // the transfer sequence's 10 s start + 2 × 5 s mechanical blocks + 10 s walk-in = 30 s.
    const RunOutcome r = sizeScenario(scenario(reference()));
    const Json& normal = checkRow(r, "ups_autonomy_normal");
    const Json& failure = checkRow(r, "ups_autonomy_failure");
    EXPECT_NEAR(normal.value("value", 0.0), 9.04, 0.01);
    EXPECT_NEAR(failure.value("value", 0.0), 6.03, 0.01);
    EXPECT_NEAR(failure.value("limit", 0.0), 0.5, 1e-9);
    // Fault level: 2.5 MVA, 6 %, 415 V: 57.97 kA at each LV main (lv_5000a, Icu 150 kA); the
    // 2 transformers of a UPS system on its critical bus through the bypasses: 115.9 kA.
    EXPECT_NEAR(checkRow(r, "lv_main_fault_current").value("value", 0.0), 57.97, 0.01);
    EXPECT_NEAR(checkRow(r, "ups_bus_fault_current").value("value", 0.0), 115.93, 0.01);
    EXPECT_NEAR(checkRow(r, "ups_bus_fault_current").value("limit", 0.0), 150.0, 1e-9);
    EXPECT_NEAR(powerRow(r, "lv_switchgear").value("interrupting_kA", 0.0), 150.0, 1e-9);
    // Fuel for 24 h (default) at the facility design load of the sizing:
    // value = P[kW] × 24 × 0.069 gal/kWh × 3.785 L/gal / 1000.
    const Json& fuel = checkRow(r, "fuel_storage");
    EXPECT_GT(fuel.value("value", 0.0), 60.0);
    EXPECT_LT(fuel.value("value", 0.0), 80.0);
    // Milwaukee's 0.4 % dry bulb, 32.4 °C, is below the 40 °C onset: no derating, 6 + 1 sets.
    EXPECT_NEAR(checkRow(r, "generator_unit_rating").value("value", 0.0), 2500.0, 1e-9);
    EXPECT_EQ(powerRow(r, "generator").value("count", 0.0), 7.0);
}

TEST(SizingStorage, PhoenixDeratesTheGeneratorsAtItsDesignAmbient) {
    // Phoenix EPW: 0.4 % cooling dry bulb 43.6 °C, 337 m: 2,500 × (1 − 0.02 × 3.6) = 2,320 kW.
    Json j = reference();
    j["site"]["weather"] = weather("phoenix");
    j["power"]["generators"]["fuel_hours"] = 48;
    const RunOutcome r = sizeScenario(scenario(j));
    EXPECT_NEAR(checkRow(r, "generator_unit_rating").value("value", 0.0), 2320.0, 1e-6);
    EXPECT_NEAR(powerRow(r, "generator").value("rating", 0.0), 2.32e6, 1e-3);
    EXPECT_NE(checkRow(r, "fuel_storage").value("basis", "").find("x 48 h x"), std::string::npos);
}

double metric(const RunOutcome& r, const char* name) { return num(r.summary, name); }

const Json& coolingRow(const RunOutcome& r, const std::string& element) {
    return sizingRow(r, "cooling", "element", element);
}

TEST(SizingDesignBasis, OnePercentAndTwentyYearExtremeFromTheEpw) {
    // Milwaukee TMY3 DESIGN CONDITIONS: cooling 0.4 % 32.4 °C (MCWB 23.7 °C), 1 % 30.4 °C
    // (MCWB 22.6 °C); Extremes, 20-year maximum dry bulb 39.2 °C (the 14th of the block's 16
    // numbers). The 20-year case keeps the 0.4 % coincident wet bulb.
    auto at = [](const char* basis) {
        Json j = designDaySetsTheCount(reference());
        j["cooling"]["heat_rejection"]["design_basis"] = basis;
        return sizeScenario(scenario(j));
    };
    const RunOutcome r04 = at("0.4%"), r1 = at("1%"), r20 = at("20-year");
    EXPECT_NEAR(metric(r04, "design_dry_bulb_C"), 32.4, 1e-9);
    EXPECT_NEAR(metric(r1, "design_dry_bulb_C"), 30.4, 1e-9);
    EXPECT_NEAR(metric(r1, "design_wet_bulb_C"), 22.6, 1e-9);
    EXPECT_NEAR(metric(r20, "design_dry_bulb_C"), 39.2, 1e-9);
    EXPECT_NEAR(metric(r20, "design_wet_bulb_C"), 23.7, 1e-9);
    // (Pads from 20 °C: the design day, not the coils' dry hours below the switch-over, sets
    // the count.) A hotter basis derates the unit and needs more units; the count needed (without
    // the one spare) at its derated capacity carries the plant's design heat (n·Q_unit ≥ Q_design
    // is necessary to hold the setpoint: at full duty a unit rejects at least its share), within
    // the 0.05 K the count tolerates on the supply: ṁ·c_p·0.05 K = 0.191 m³/s × 997 kg/m³ ×
    // 4,180 J/(kg K) × 0.05 K ≈ 40 kW.
    double last_cap = 1e30;
    int last_units = 0;
    for (const char* basis : {"1%", "0.4%", "20-year"}) {
        SCOPED_TRACE(basis);
        Json j = designDaySetsTheCount(reference());
        j["cooling"]["heat_rejection"]["design_basis"] = basis;
        const HallSizing z = sizeSite(scenario(j)).halls.at(0);
        const double cap = z.unit_capacity_at_design;
        EXPECT_LT(cap, last_cap);
        EXPECT_GT(z.plant.units, last_units);
        const double tolerance = z.design_fws_flow * 997.0 * 4180.0 * 0.05;
        EXPECT_GE((z.plant.units - 1) * cap, z.design_heat_rejection - tolerance);
        EXPECT_LT(cap, 1e6);  // the 1 MW rating point is at 27 °C dry bulb
        last_cap = cap;
        last_units = z.plant.units;
    }
    EXPECT_NEAR(metric(r20, "heat_rejection_unit_capacity_kW"), last_cap / 1e3, 1e-9);
    // 0.4 %: 13 running + 1 spare for the plant's design heat with the 10 % growth margin
    // (issue 15; 12 + 1 before growth reached the cooling plant).
    EXPECT_EQ(coolingRow(r04, "heat_rejection").value("count", 0.0), 14.0);
    // The generators are derated at the basis's dry bulb: 39.2 °C is still below 40 °C.
    EXPECT_NEAR(checkRow(r20, "generator_unit_rating").value("value", 0.0), 2500.0, 1e-9);
}

TEST(SizingDesignBasis, BadChoicesAreInputErrors) {
    Json j = reference();
    j["cooling"]["heat_rejection"]["design_basis"] = "2%";
    dctwin::test::expectInputError([&] { scenario(j); },
                                   {"/cooling/heat_rejection/design_basis", "'2%'", "0.4%, 1%"});
    j["cooling"]["heat_rejection"] = {{"type", "cooling_tower"}, {"design_basis", "20-year"}};
    dctwin::test::expectInputError([&] { sizeScenario(scenario(j)); },
                                   {"design_basis", "wet bulb", "0.4%, 1%"});
}

TEST(SizingWater, MakeUpStorageForTheStatedHours) {
    // Reference site (adiabatic coolers, 0.4 % design day 32.4 °C / 23.7 °C): the design
    // make-up (pad spray) rate is the design point's; storage = rate × 48 h and the design day
    // = rate × 24 h. Bound by hand: pads of saturation effectiveness 0.8 cool the air by
    // 0.8 × (32.4 − 23.7) = 6.96 K; with all 18 units' air (70 m³/s each at full fans,
    // ρ ≈ 1.15 kg/m³) that evaporates at most 18 × 70 × 1.15 × 1.006 × 6.96 / 2,430
    // = 4.18 kg/s = 15.0 m³/h (not every unit sprays at design: less). REGRESSION value: the
    // model's 7.465 m³/h gives 358.3 m³ for 48 h (`dctwin size` at 2026-12-07). It was 7.93 m³/h
    // and 380.6 m³ with 14 units, and 8.10 m³/h and 388.6 m³ with 13: each unit added for the
    // coils' dry hours takes part of the design day's load dry, so less is sprayed.
    Json j = reference();
    const RunOutcome r48 = sizeScenario(scenario(j));
    const double rate = metric(r48, "design_water_m3_per_h");
    EXPECT_GT(rate, 0.0);
    EXPECT_LT(rate, 15.0);
    EXPECT_NEAR(rate, 7.465, 0.01);
    EXPECT_NEAR(metric(r48, "design_water_m3_per_day"), 24 * rate, 1e-9);
    EXPECT_NEAR(metric(r48, "water_storage_m3"), 48 * rate, 1e-9);
    EXPECT_NEAR(metric(r48, "water_storage_m3"), 358.3, 0.5);
    j["cooling"]["heat_rejection"]["water_storage_h"] = 72;
    EXPECT_NEAR(metric(sizeScenario(scenario(j)), "water_storage_m3"), 72 * rate, 1e-6);
}

// The heaviest use over any window of the store's hours, by hand on running totals that are
// linear between samples.
TEST(SizingWater, PeakWindowIsTheHeaviestUseOverAnyWindowByHand) {
    const double h = 3600.0;
    // Samples every 2 h; 6 m³/h between 4 h and 6 h, nothing else: a 12 m³ pulse.
    const std::vector<double> t2 = {0, 2 * h, 4 * h, 6 * h, 8 * h, 10 * h};
    const std::vector<double> w2 = {0, 0, 0, 12, 12, 12};
    EXPECT_NEAR(peakWindow(t2, w2, 3 * h), 12.0, 1e-12);  // the whole pulse fits
    EXPECT_NEAR(peakWindow(t2, w2, 2 * h), 12.0, 1e-12);  // exactly
    EXPECT_NEAR(peakWindow(t2, w2, 1 * h), 6.0, 1e-12);   // one hour of 6 m³/h
    EXPECT_NEAR(peakWindow(t2, w2, 0.5 * h), 3.0, 1e-12);
    // Hourly samples; 10 m³ in hour 2-3 and 4 m³/h in hour 5-6. A 3.5 h window holds the
    // first hour and half the second only from a sample (2 h to 5.5 h: 10 + 2 = 12 m³); ending
    // on a sample it holds less (2.5 h to 6 h: 5 + 4 = 9 m³).
    std::vector<double> t1, w1;
    double w = 0.0;
    for (int i = 0; i <= 10; ++i) {
        if (i == 3) w += 10.0;
        if (i == 6) w += 4.0;
        t1.push_back(i * h);
        w1.push_back(w);
    }
    EXPECT_NEAR(peakWindow(t1, w1, 3.5 * h), 12.0, 1e-12);
    EXPECT_NEAR(peakWindow(t1, w1, 4.0 * h), 14.0, 1e-12);  // 2 h to 6 h, both pulses
    EXPECT_NEAR(peakWindow(t1, w1, 10.0 * h), 14.0, 1e-12);
    // No window of the store's hours inside the samples: no figure (not the whole study's).
    EXPECT_TRUE(std::isnan(peakWindow(t1, w1, 10.5 * h)));
}

TEST(SizingWater, TheStoreIsCheckedAgainstTheYearsHeaviestHours) {
    // The reference year: storage 48 h × 7.465 m³/h = 358.3 m³ (above). The pads spray on hot
    // afternoons only, so the year's heaviest 48 h hold its largest calendar day and at most
    // three of them (a 48 h window touches three calendar days), and far less than the store.
    Json j = reference();
    const RunOutcome r = run(j);
    const double window = metric(r, "water_storage_window_m3");
    const double day = metric(r, "water_peak_day_m3");
    EXPECT_GE(window, day * (1 - 1e-9));
    EXPECT_LE(window, 3 * day);
    EXPECT_LE(window, metric(r, "water_m3"));
    EXPECT_LT(window, metric(r, "water_storage_m3"));
    // Against an independent integral: the trapezoids of the recorded water rate over every
    // 48 h of 10-min samples (the metric reads the integrator's meter); within 1 % (97.78 m³
    // against 97.81 m³ when written).
    const ResultSet& rs = r.report.timeseries;
    const auto& rate = rs.at("water", "water_rate").values;
    std::vector<double> cum(rate.size(), 0.0);
    for (std::size_t i = 1; i < rate.size(); ++i) {
        cum[i] = cum[i - 1] + 0.5 * (rate[i - 1] + rate[i]) * (rs.time[i] - rs.time[i - 1]);
    }
    const std::size_t k = 48 * 6;  // samples in 48 h at 10-min output
    ASSERT_GT(cum.size(), k);
    double by_hand = 0.0;
    for (std::size_t i = k; i < cum.size(); ++i) by_hand = std::max(by_hand, cum[i] - cum[i - k]);
    EXPECT_NEAR(window, by_hand, 0.01 * by_hand);
    for (const std::string& line : notHeld(r.report.summary)) {
        EXPECT_EQ(line.find("storage"), std::string::npos) << line;
    }
    // A store of one design hour (7.47 m³) against the year's heaviest hour: the pads spray
    // 13.65 m³ in the largest clock hour (sizing/water study_peak_hour), so the store is short
    // and the run says so. Any 1 h window holds at least a clock hour's use.
    j["cooling"]["heat_rejection"]["water_storage_h"] = 1;
    const RunOutcome one = run(j);
    const double one_h = metric(one, "water_storage_window_m3");
    EXPECT_GT(one_h, 13.0);
    EXPECT_NEAR(metric(one, "water_storage_m3"), 7.465, 0.01);
    const std::vector<std::string> lines = notHeld(one.report.summary);
    const auto it = std::find_if(lines.begin(), lines.end(),
                                 [](const std::string& l) { return l.find("storage") != l.npos; });
    ASSERT_NE(it, lines.end());
    EXPECT_EQ(*it, fmt::format("make-up water storage (7 m³) short of the study's heaviest use "
                               "over its hours ({:.0f} m³)",
                               one_h));
}

}  // namespace
}  // namespace dctwin::facility::test
