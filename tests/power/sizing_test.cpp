// Sizing of the 64-rack reference hall (DESIGN.md §1; domain-facts D2, D3) with 4N/3 UPS.
#include "power/sizing.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "power/fabric.h"
#include "test_util.h"

namespace dctwin::power {
namespace {

using test::catalog;

SizingResult referenceHall() {
    SizingInput in;
    in.racks = 64;
    in.rack = catalog().rack("gb300_nvl72");
    FabricOptions f;
    f.gpus = 64 * 72;
    in.fabric_power = sizeFabric(f, catalog()).power_outside_racks;
    in.ups_redundancy = Redundancy::parse("4N/3");
    in.transformer_redundancy = Redundancy::parse("4N/3");
    return sizeElectrical(in, catalog());
}

/// The engineer's recount from the printed table: only the columns design_current_A,
/// unit_current_A, redundancy, groups and the stated limits (80 % normal; after a failure 100 %
/// for equipment, 80 % for conductors), written independently of countUnits.
int recount(const std::string& red, double I, double Iu, double lf) {
    const double ln = 0.8;
    auto up = [](double x) { return static_cast<int>(std::ceil(x - 1e-9)); };
    if (red == "N") return std::max(1, up(I / (Iu * ln)));
    if (red == "N+1") return std::max(1, up(I / (Iu * ln))) + 1;  // Uptime/TIA: N plus one
    if (red == "block") return std::max(1, up(I / (Iu * ln))) + 1;
    const int s = red == "2N" ? 2 : std::stoi(red.substr(0, red.find('N')));
    return s * std::max({1, up(I / ((s - 1) * Iu * lf)), up(I / (s * Iu * ln))});
}

TEST(power_Sizing, ReferenceHallEveryElementWithin80PercentAndCountsRecomputable) {
    const SizingResult r = referenceHall();
    std::printf("%s", r.format().c_str());
    // ~9 MW IT incl. fabric before growth (domain-facts D3).
    EXPECT_NEAR(r.it_design / 1.1, 9.0e6, 0.4e6);
    const Table t = r.toTable();
    ASSERT_EQ(t.rows(), r.rows.size());
    const auto& text = [&](const char* name) -> const std::vector<std::string>& {
        for (const auto& c : t.columns) {
            if (c.name == name) return std::get<std::vector<std::string>>(c.data);
        }
        throw std::runtime_error(name);
    };
    const auto& num = [&](const char* name) -> const std::vector<double>& {
        for (const auto& c : t.columns) {
            if (c.name == name) return std::get<std::vector<double>>(c.data);
        }
        throw std::runtime_error(name);
    };
    const auto& element = text("element");
    const auto& red = text("redundancy");
    const auto& count = num("count");
    const auto& groups = num("groups");
    const auto& I = num("design_current_A");
    const auto& Iu = num("unit_current_A");
    const auto& load = num("design_loading_pct");
    for (std::size_t i = 0; i < t.rows(); ++i) {
        SCOPED_TRACE(element[i]);
        EXPECT_LE(load[i], 80.0 + 1e-9);
        EXPECT_GT(load[i], 0.0);
        const bool conductor = element[i] == "rack_feed" || element[i] == "busway" ||
                               element[i] == "lv_switchgear" || element[i] == "mv_feeder";
        const double lf = conductor ? 0.8 : 1.0;
        // UPS critical buses are counted by the bus rule (sizing.h), one per system here.
        if (element[i] == "ups_bus") {
            EXPECT_EQ(count[i], groups[i] * r.buses_per_system);
        } else {
            EXPECT_EQ(count[i], groups[i] * recount(red[i], I[i], Iu[i], lf));
        }
        // Loading printed = design current over the units sharing it.
        EXPECT_LE(r.rows[i].failure_loading, lf + 1e-9);
    }
    // Hand checks of the headline numbers.
    // Rack feed: 134.6 kW / (√3 × 415 × 0.99) = 189 A per path → 250 A breaker (76 % after
    // the A/B failover; domain-facts D2 "≥ 240 A of breaker capacity per path").
    const SizingRow& feed = r.row("rack_feed");
    EXPECT_NEAR(feed.design_current, r.rack_power / (std::sqrt(3.0) * 415 * 0.99), 1e-9);
    EXPECT_DOUBLE_EQ(feed.rating, 250.0);
    EXPECT_EQ(feed.count, 128);
    // PSU shelves: 8 per rack (N+N), ~50 % loaded (domain-facts A3).
    EXPECT_EQ(r.row("psu_shelf").count, 512);
    EXPECT_NEAR(r.row("psu_shelf").normal_loading, 0.5, 0.01);
    // UPS 4N/3 in 1.5 MW frames: each of 4 systems carries 1/3 after a failure.
    const SizingRow& ups = r.row("ups");
    EXPECT_EQ(ups.redundancy, "4N/3");
    EXPECT_EQ(ups.count % 4, 0);
    EXPECT_LE(ups.normal_loading, 0.75 + 1e-9);
    EXPECT_EQ(r.row("generator").redundancy, "N+1");
    // Facility power above IT by UPS, transformer and cooling.
    EXPECT_GT(r.facility_design, r.it_design + r.cooling_design);
}

TEST(power_Sizing, RedundancyFormulas) {
    // 10 units of load at unit rating 1, l_n = 0.8, l_f = 1.
    EXPECT_EQ(countUnits(Redundancy::parse("N"), 10, 1, 0.8, 1).count, 13);    // ⌈10/0.8⌉
    EXPECT_EQ(countUnits(Redundancy::parse("N+1"), 10, 1, 0.8, 1).count, 14);  // ⌈10/0.8⌉ + 1
    EXPECT_EQ(countUnits(Redundancy::parse("2N"), 10, 1, 0.8, 1).count, 20);
    EXPECT_EQ(countUnits(Redundancy::parse("4N/3"), 10, 1, 0.8, 1).count, 16);  // 4 × ⌈10/3⌉
    EXPECT_EQ(countUnits(Redundancy::parse("3N/2"), 10, 1, 0.8, 1).count, 15);  // 3 × 5
    const UnitCount b = countUnits(Redundancy::parse("block"), 10, 1, 0.8, 1);
    EXPECT_EQ(b.count, 14);  // 13 active + 1 reserve
    EXPECT_EQ(b.sharing, 13);
    test::expectInputError([] { Redundancy::parse("5N/3"); }, {"5N/3", "4N/3", "block"});
}

TEST(power_Sizing, UpsNAndNPlus1DifferByOneModulePerSystem) {
    // Issue 10: N and N+1 UPS both gave 9 modules (the old N+1 rule let the spare count
    // towards N at the failure limit). The reference hall's UPS as one system: N+1 must be
    // N plus one, and the table says which rule gave each count.
    SizingInput in;
    in.rack = catalog().rack("gb300_nvl72");
    in.racks = 64;
    in.ups_redundancy = Redundancy::parse("N");
    const SizingResult n = sizeElectrical(in, catalog());
    in.ups_redundancy = Redundancy::parse("N+1");
    const SizingResult n1 = sizeElectrical(in, catalog());
    // As one system the UPS output, I = 13,348 A (this hall has no fabric), is more than one
    // critical bus carries (0.8 × 6,300 A = 5,040 A at the 80 % rule): b ≥ ⌈13,348/5,040⌉ =
    // ⌈2.65⌉ = 3. The 8 transformers (4N/3, not one per UPS system) are spread over the buses
    // and paralleled through the bypasses: b = 3 puts ⌈8/3⌉ = 3 × 58.0 kA = 173.9 kA on a bus,
    // above the largest Icu (150 kA); b = 4 puts 2 (115.9 kA). Per bus 13,348/4 = 3,337 A
    // needs ⌈3,337/(0.8 × 2,107.9 A)⌉ = ⌈1.98⌉ = 2 frames: N gives 4 × 2 = 8 (as
    // ⌈13,348/1,686.3⌉ = 8 on one bus). N+1 puts the spare on every bus (a spare on another
    // bus cannot take over): 4 × (2 + 1) = 12.
    ASSERT_EQ(n.buses_per_system, 4);
    ASSERT_EQ(n1.buses_per_system, 4);
    EXPECT_EQ(n.row("ups").count, 8);
    EXPECT_EQ(n1.row("ups").count, n.row("ups").count + n1.buses_per_system);
    EXPECT_NE(n1.row("ups").count_rule.find("+1"), std::string::npos) << n1.row("ups").count_rule;
    // N+1 leaves the spare in service: the design loading falls by N/(N+1).
    EXPECT_NEAR(n1.row("ups").normal_loading,
                n.row("ups").normal_loading * n.row("ups").count / n1.row("ups").count, 1e-12);
    // The column is in the table for the report and the GUI.
    bool has_rule = false;
    for (const auto& c : n1.toTable().columns) has_rule = has_rule || c.name == "count_rule";
    EXPECT_TRUE(has_rule);
}

TEST(power_Sizing, JsonOptionsAndErrors) {
    SizingInput in;
    in.rack = catalog().rack("gb300_nvl72");
    const Json j = parseJson(R"({"ups": {"topology": "3N/2"}, "growth_margin_pct": 20})", "s");
    in.readJson(JsonView(j, "/power"));
    EXPECT_EQ(in.ups_redundancy.label(), "3N/2");
    EXPECT_EQ(in.transformer_redundancy.label(), "3N/2");
    EXPECT_DOUBLE_EQ(in.growth_margin, 0.2);
    const Json bad = parseJson(R"({"ups": {"topology": "4N/2"}})", "s");
    test::expectInputError([&] { in.readJson(JsonView(bad, "/power")); },
                           {"/power/ups/topology", "4N/3"});
    const Json typo = parseJson(R"({"ups": {"topolgy": "2N"}})", "s");
    test::expectInputError([&] { in.readJson(JsonView(typo, "/power")); },
                           {"/power/ups", "topolgy", "topology"});
}

TEST(power_Sizing, OptionsSchemaHasTopologyEnumsAndTheKeys) {
    const Json s = sizingOptionsSpec()->schema();
    for (const char* key : {"growth_margin_pct", "cooling_power_kW", "cooling_fraction_pct",
                            "other_power_kW", "racks_per_row", "feeds_per_path", "mv_voltage_kV",
                            "ups", "transformers", "generators", "bess"})
        EXPECT_TRUE(s["properties"].contains(key)) << key;
    EXPECT_FALSE(s["properties"].contains("smoothing"));  // the facility's key, not sizing's
    EXPECT_EQ(s["properties"]["racks_per_row"]["type"], "integer");
    EXPECT_EQ(s["properties"]["mv_voltage_kV"]["default"], 13.8);
    for (const char* g : {"ups", "transformers", "generators", "bess"}) {
        const Json& topo = s["properties"][g]["properties"]["topology"];
        EXPECT_EQ(topo["enum"], Json(Redundancy::choices())) << g;
        EXPECT_EQ(s["properties"][g]["properties"]["model"]["type"], "string") << g;
    }
    EXPECT_EQ(s["properties"]["ups"]["properties"]["topology"]["default"], "4N/3");
    EXPECT_FALSE(s["properties"]["transformers"]["properties"]["topology"].contains("default"));
    EXPECT_EQ(s["properties"]["bess"]["properties"]["power_pct"]["default"], 30.0);
    for (const auto& c : Redundancy::choices()) EXPECT_EQ(Redundancy::parse(c).label(), c);
}

TEST(power_Sizing, OptionsDefaultsAndRangeErrors) {
    const SizingInput defaults;
    SizingInput in;
    const Json none = parseJson("{}", "s");
    in.readJson(JsonView(none, "/power"));
    EXPECT_EQ(in.growth_margin, defaults.growth_margin);
    EXPECT_EQ(in.cooling_fraction, defaults.cooling_fraction);
    EXPECT_EQ(in.cooling_power, defaults.cooling_power);
    EXPECT_EQ(in.other_power, defaults.other_power);
    EXPECT_EQ(in.mv_voltage, defaults.mv_voltage);
    EXPECT_EQ(in.racks_per_row, defaults.racks_per_row);
    EXPECT_EQ(in.feeds_per_path, defaults.feeds_per_path);
    EXPECT_EQ(in.bess_power_fraction, defaults.bess_power_fraction);
    EXPECT_EQ(in.ups_redundancy.label(), defaults.ups_redundancy.label());
    EXPECT_EQ(in.transformer_redundancy.label(), defaults.transformer_redundancy.label());
    EXPECT_EQ(in.generator_redundancy.label(), defaults.generator_redundancy.label());
    EXPECT_EQ(in.bess_redundancy.label(), defaults.bess_redundancy.label());
    EXPECT_EQ(in.ups_model, defaults.ups_model);

    const Json j = parseJson(R"({"cooling_power_kW": 1500, "mv_voltage_kV": 34.5,
        "other_power_kW": 250, "bess": {"power_pct": 45, "topology": "N+1"}})",
                             "s");
    in.readJson(JsonView(j, "/power"));
    EXPECT_EQ(in.cooling_power, 1500.0 * 1e3);
    EXPECT_EQ(in.mv_voltage, 34.5 * 1e3);
    EXPECT_EQ(in.other_power, 250.0 * 1e3);
    EXPECT_EQ(in.bess_power_fraction, 45.0 / 100.0);
    EXPECT_EQ(in.bess_redundancy.label(), "N+1");

    const Json wrap = parseJson(R"({"racks_per_row": 4294967304})", "s");
    test::expectInputError([&] { in.readJson(JsonView(wrap, "/power")); },
                           {"/power/racks_per_row", "between 1 and 100"});
    const Json mv = parseJson(R"({"mv_voltage_kV": 0.48})", "s");
    test::expectInputError([&] { in.readJson(JsonView(mv, "/power")); },
                           {"/power/mv_voltage_kV", "0.48 kV", "between 4.16 kV and 69 kV"});
    const Json pct = parseJson(R"({"bess": {"power_pct": 250}})", "s");
    test::expectInputError([&] { in.readJson(JsonView(pct, "/power")); },
                           {"/power/bess/power_pct", "between 0 pct and 200 pct"});
    const Json smoothing = parseJson(R"({"smoothing": {}})", "s");
    test::expectInputError([&] { in.readJson(JsonView(smoothing, "/power")); },
                           {"/power", "smoothing"});
}

// A BESS is sized only on a site that has one (audit F7): the reference site (bess_mode off)
// listed a 4 MW battery at 74.5 % loading and a bess_energy check of 759 kWh ≥ 496 kWh. A
// scenario's /power read by readJson has no battery (bess_mode, read by the scenario, turns it
// on); a SizingInput built in code keeps one, as the power week example sizes.
TEST(power_Sizing, ASiteWithoutABatteryHasNoBessRowOrCheck) {
    SizingInput in;
    in.racks = 64;
    in.rack = catalog().rack("gb300_nvl72");
    EXPECT_TRUE(in.site_battery);
    const Json none = parseJson("{}", "s");
    in.readJson(JsonView(none, "/power"));
    EXPECT_FALSE(in.site_battery);
    const SizingResult r = sizeElectrical(in, catalog());
    for (const auto& row : r.rows) EXPECT_NE(row.element, "bess");
    for (const auto& c : r.checks) EXPECT_NE(c.item, "bess_energy");
    EXPECT_GE(r.rows.size(), 10u);  // the rest of the one-line is still there
    // A misspelt battery model is still reported on a site without one.
    const Json typo = parseJson(R"({"bess": {"model": "liion_nope"}})", "s");
    in.readJson(JsonView(typo, "/power"));
    EXPECT_THROW(sizeElectrical(in, catalog()), InputError);

    // With a battery: one row and its energy check, the duty 30 % of the design IT power for
    // 10 min (the defaults), against 758.9 kWh usable per block (1 MWh × 0.8 × √0.9).
    in.readJson(JsonView(none, "/power"));
    in.site_battery = true;
    const SizingResult b = sizeElectrical(in, catalog());
    EXPECT_EQ(b.row("bess").model, "liion_4mw_15min");
    int checks = 0;
    for (const auto& c : b.checks) {
        if (c.item != "bess_energy") continue;
        ++checks;
        EXPECT_NEAR(c.limit, 0.30 * b.it_design * 600.0 / 3.6e6, 1e-6);
        EXPECT_NEAR(c.value, b.row("bess").count * 1000.0 * 0.8 * std::sqrt(0.9), 0.01);
    }
    EXPECT_EQ(checks, 1);
}

}  // namespace
}  // namespace dctwin::power
