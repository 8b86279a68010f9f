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

double designMetric(const RunOutcome& r, const std::string& name) {
    for (const auto& m : r.report.summary) {
        if (m.name == name) return m.value;
    }
    ADD_FAILURE() << "no design metric " << name;
    return NAN;
}

double rowValue(const Json& table, const std::string& element, const char* column) {
    const Json* row = findRow(table, element);
    if (row == nullptr || !row->contains(column) || !(*row)[column].is_number()) {
        ADD_FAILURE() << "no " << column << " in row " << element << ": " << table;
        return NAN;
    }
    return (*row)[column].get<double>();
}

// Hand calculation of one GB300 NVL72 rack at full utilization (u = 1) from the catalog
// numbers (data/catalog/power/racks.json "gb300_nvl72", the equations of power/rack.h):
//   GPU       72 × (1,400 W TGP + leakage), leakage = 0.1·1,400·(2^((T_j − 65 °C)/25 K) − 1)
//   CPU       36 × 280 W                     = 10,080 W
//   NVLink    9 trays × 1,600 W (u = 1)      = 14,400 W
//   other     72 NICs × 30 W + 18 trays × 100 W + fans 2,000 W = 5,960 W
//   shelves   8 × 6 × 5.5 kW = 264 kW installed; η from psu_curves.json "orv3_hpr_5p5kw",
//             linear between (0.5, 0.975) and (0.75, 0.973) at the ~51 % shelf load
//   liquid    0.97·GPU + 0.95·CPU + 0.95·NVLink
// At the design junction 76.46 °C: leakage 52.36 W per GPU, DC 135,010 W, shelf load 0.51140,
// η 0.974909, AC 138,484.8 W, heat to liquid 124,688.9 W.
struct HandRack {
    double dc, eta, ac, liquid;
};
HandRack handRack(double junction_C) {
    const double leak = 0.1 * 1400.0 * (std::exp2((junction_C - 65.0) / 25.0) - 1.0);
    const double gpu = 72.0 * (1400.0 + leak), cpu = 36.0 * 280.0, nvlink = 9.0 * 1600.0;
    const double other = 72.0 * 30.0 + 18.0 * 100.0 + 2000.0;
    HandRack r;
    r.dc = gpu + cpu + nvlink + other;
    const double x = r.dc / (8.0 * 6.0 * 5500.0);
    EXPECT_GT(x, 0.5);  // the interpolation below holds on (0.5, 0.75)
    EXPECT_LT(x, 0.75);
    r.eta = 0.975 + (x - 0.5) / 0.25 * (0.973 - 0.975);
    r.ac = r.dc / r.eta;
    r.liquid = 0.97 * gpu + 0.95 * cpu + 0.95 * nvlink;
    return r;
}

// The fabric by hand (power/fabric.h, data/catalog/power/network.json): 4,608 GPUs on a
// two-tier fat tree of radix 144: 4,608/72 = 64 leaves, 64·72/144 = 32 spines rounded up to
// a divisor of 72 (ra_rounding) = 36; 100 Quantum-X800 Q3400 at 1,500 W = 150,000 W. Optics:
// one 800G OSFP (16 W) per NIC, 4,608 × 16 = 73,728 W, and 3 × 4,608 = 13,824 switch ports on
// twin-port 1.6T OSFPs (27 W): 6,912 × 27 = 186,624 W. Outside the racks: 410,352 W.
constexpr double kFabricW = 100 * 1500.0 + 4608 * 16.0 + 6912 * 27.0;

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
    // Design IT power by hand: 64 racks at full utilization (handRack above, evaluated at the
    // design junction temperature the run reports: the only model number in the sum, it sets
    // the 3.8 kW/rack leakage) plus the fabric outside the racks. 64 × 138,484.8 + 410,352 =
    // 9,273,377 W. Band 0.05 %: the hand sum and the model use the same catalog numbers, so any
    // 0.2 % change of rack, PSU or fabric power trips it.
    EXPECT_NEAR(designMetric(r, "fabric_power_kW") * 1e3, kFabricW, 1e-6);
    EXPECT_EQ(designMetric(r, "fabric_switches"), 100.0);
    const double Tj = designMetric(r, "design_max_gpu_junction_C");
    EXPECT_NEAR(64.0 * handRack(76.4598).ac + kFabricW, 9.273377e6, 1.0);  // the sum above
    // (at the reported junction: a 0.1 K shift moves it by 2.5 kW, 0.03 %)
    const double it_hand = 64.0 * handRack(Tj).ac + kFabricW;
    EXPECT_NEAR(designMetric(r, "design_it_power_kW") * 1e3, it_hand, 5e-4 * it_hand);
    // Facility power: at least IT + cooling + the 150 kW of other site load (scenario), and at
    // most that over the whole chain's efficiency; domain-facts D1 puts grid → PSU input at
    // ≈ 0.962 (transformer 0.995 × UPS 0.97 × distribution 0.997), so 0.95 bounds it below.
    const double it = designMetric(r, "design_it_power_kW");
    const double loads = it + designMetric(r, "design_cooling_power_kW") + 150.0;
    const double facility = designMetric(r, "design_facility_power_kW");
    EXPECT_GT(facility, loads);
    EXPECT_LT(facility, loads / 0.95);
    // The design steady state has settled (the sizing reads a steady operating point).
    EXPECT_LT(designMetric(r, "design_steady_drift_K"), 0.05);
}

TEST(DesignPoint, ReferenceSiteCoolingTableFollowsTheHeatAndFlowBalances) {
    const RunOutcome r = sizeScenario(scenario(reference()));
    const Json& cooling = r.summary["sizing"]["cooling"];
    const Json* cdu = findRow(cooling, "cdu");
    ASSERT_NE(cdu, nullptr) << cooling;
    // 64 racks at 8 racks per CDU (scenario) = 8 running + 1 spare (N+1) = 9.
    EXPECT_EQ((*cdu)["count"].get<double>(), std::ceil(64.0 / 8.0) + 1.0);
    EXPECT_EQ((*cdu)["redundancy"], "N+1");
    const HandRack rack = handRack(designMetric(r, "design_max_gpu_junction_C"));
    EXPECT_NEAR(rack.liquid, 124688.9, 0.1);

    // Rack-loop flow by hand: the CDU resets its header pressure until the TCS temperature
    // difference is its 10 K setpoint (cdus.json delta_t_setpoint_K, below the reset's upper
    // limit here), so V = Q/(ρ c_p ΔT) with PG25 at the loop's mean temperature 40 °C
    // (35 °C supply + 10 K / 2): ρ 1,014.3 kg/m³, c_p 3.96 kJ/(kg K) (Airedale DeltaChill
    // glycol table, domain-facts B1): 124,688.9/(1,014.3 × 3,960 × 10) = 3.1043e-3 m³/s
    // (186.3 L/min). Band 1 %: the twin's PG25 table (ASHRAE Handbook) differs from Airedale's
    // by up to 0.3 % in c_p, and the properties vary by 0.4 % over the loop's 10 K.
    const double rack_flow = rowValue(cooling, "rack_loop_flow", "design_load_per_unit");
    const double rack_flow_hand = rack.liquid / (1014.3 * 3960.0 * 10.0);
    EXPECT_NEAR(rack_flow, rack_flow_hand, 0.01 * rack_flow_hand);
    // Continuity: one duty pump per CDU carries the 8 branches.
    EXPECT_NEAR(rowValue(cooling, "cdu_pump", "design_load_per_unit"), 8.0 * rack_flow,
                1e-6 * rack_flow);

    // First law at the CDU: heat moved = 8 racks' liquid heat + the pump's hydraulic work,
    // W = V·Δp_pump, with Δp_pump = the header differential pressure the table reports (the
    // controlled variable) + the CDU's internal drop, 100 kPa at the rated 2,052 L/min
    // (cdus.json) scaled with V²: V = 0.0247172 m³/s, 55,784 + 100,000·(0.0247172/0.0342)²
    // = 108,014 Pa, W = 2,670 W; 8 × 124,688.9 + 2,670 = 1,000,181 W of the 1,368 kW rating
    // (Vertiv XDU1350, 73.1 %). Band 0.05 %.
    const double V_cdu = 8.0 * rack_flow;
    const double dp_header = rowValue(cooling, "cdu_header_dp", "design_load_per_unit");
    const double pump_work = V_cdu * (dp_header + 100e3 * std::pow(V_cdu / (2052.0 / 60000.0), 2));
    const double cdu_heat_hand = 8.0 * rack.liquid + pump_work;
    EXPECT_NEAR(pump_work, 2670.0, 0.01 * 2670.0);
    EXPECT_NEAR(rowValue(cooling, "cdu", "design_load_per_unit"), cdu_heat_hand,
                5e-4 * cdu_heat_hand);
    EXPECT_NEAR(rowValue(cooling, "cdu", "design_loading_pct"), 100.0 * cdu_heat_hand / 1.368e6,
                0.05);

    // First law at the plant: heat rejected = the 8 running CDUs + the facility pumps'
    // hydraulic work (two duty pumps, flow per pump and head from the table): 8 × 1,000,181 +
    // 2 × 0.0956036 × 133,556 = 8,026,987 W. Band 0.05 %.
    const double fws_work = 2.0 * rowValue(cooling, "fws_pumps", "design_load_per_unit") *
                            rowValue(cooling, "fws_pump_head", "design_load_per_unit");
    const double rejected_hand = 8.0 * cdu_heat_hand + fws_work;
    EXPECT_NEAR(designMetric(r, "design_heat_rejected_kW") * 1e3, rejected_hand,
                5e-4 * rejected_hand);

    // Heat rejection: N+1 adiabatic coolers. N is at least heat/capacity at the design weather;
    // a unit carries less than its 1 MW rating (dry_coolers.json: 45 → 35 °C water at 27 °C
    // air, an 18 K entering difference): at design the pads cool the 32.4 °C air to
    // 32.4 − 0.8·(32.4 − 23.7) = 25.4 °C and the water returns at ~41 °C (31 °C + 8,027 kW
    // over the 0.191 m³/s facility flow), an entering difference of only ~15.6 K.
    // The pads run only above 28 °C ± 0.5 K (switch_over_temp), so the coils meet 27.5 °C air
    // dry, an entering difference of ~13.5 K: at the same flows a dry coil's heat goes with the
    // entering difference, so N is at most the design weather's count with the 10 % growth
    // margin (power.growth_margin_pct) times 15.6/13.5 = 1.16; bound 1.25 for the ~1.2 K
    // the grown heat adds to the return.
    const double unit_kW = designMetric(r, "heat_rejection_unit_capacity_kW");
    EXPECT_LT(unit_kW, 1000.0);
    const double units = rowValue(cooling, "heat_rejection", "count");
    const double heat_kW = rejected_hand / 1e3;
    EXPECT_GE(units, std::ceil(heat_kW / unit_kW) + 1.0);
    EXPECT_LE(units, std::ceil(1.25 * 1.10 * heat_kW / unit_kW) + 1.0);
    // Like every other row's, the heat-rejection row's design load is one unit's: the hand
    // heat shared by all the units (N+1 run together), below a unit's capacity at the
    // weather. It read the plant's 8,027 kW beside a 679 kW unit.
    EXPECT_NEAR(rowValue(cooling, "heat_rejection", "design_load_per_unit") * units, rejected_hand,
                5e-4 * rejected_hand);
    EXPECT_LT(rowValue(cooling, "heat_rejection", "design_load_per_unit"), unit_kW * 1e3);
    // The sized units meet the facility supply setpoint at the design weather (facility/site.cpp
    // sizes the count until the unmet temperature is below 0.05 K).
    EXPECT_LT(designMetric(r, "design_setpoint_unmet_K"), 0.05);

    // Hottest GPU by hand: supply 35 °C + the 10 K rack rise + 0.022 K/W junction to bulk
    // (outlet-side) coolant × the GPU's 1,452.4 W (rack_loops.json gpu_resistance_K_per_W,
    // domain-facts B3) = 35 + 10 + 31.95 = 76.95 °C. The twin splits the resistance into
    // junction, plate and a flow-dependent film, so ±1 K; and below the 87 °C throttle.
    const double gpu_W = 1400.0 + 0.1 * 1400.0 * (std::exp2((76.95 - 65.0) / 25.0) - 1.0);
    EXPECT_NEAR(designMetric(r, "design_max_gpu_junction_C"), 35.0 + 10.0 + 0.022 * gpu_W, 1.0);
    EXPECT_GT(designMetric(r, "design_throttle_margin_K"), 0.0);
    // Water table rows of DESIGN.md §5.3.
    const Json& water = r.summary["sizing"]["water"];
    for (const char* e : {"evaporation", "drift", "blowdown", "adiabatic_spray", "makeup"}) {
        EXPECT_NE(findRow(water, e), nullptr) << e;
    }
}

TEST(DesignPoint, CoolingTowerInPhoenixIsSizedToTheWetBulbAndEvaporatesItsHeat) {
    // A tower is sized at the 0.4 % evaporation wet bulb (facility/site.cpp); Phoenix's wet
    // bulb (~24 °C) leaves a 7 K approach to the 31 °C facility supply, more than the 3.9 K of
    // the CTI rating point (cooling_towers.json), so the cells meet it.
    Json j = reference();
    j["site"]["weather"] = weather("phoenix");
    j["cooling"]["heat_rejection"] = {{"type", "cooling_tower"}};
    const RunOutcome r = sizeScenario(scenario(j));
    EXPECT_LT(designMetric(r, "design_setpoint_unmet_K"), 0.05);
    const double wb = designMetric(r, "design_wet_bulb_C");
    EXPECT_LT(wb, 31.0 - 3.9);
    // Evaporation by hand (domain-facts C3/C4): E = f_lat·Q/h_fg with f_lat = 0.85
    // (cooling_towers.json) and h_fg between 2,430.5 kJ/kg at 30 °C and 2,394.0 kJ/kg at 45 °C
    // (steam tables; the tower water lies between the 31 °C supply and the ~41 °C return):
    // Q = 8,027 kW gives 10.11 to 10.26 m³/h at 1,000 kg/m³.
    const Json& water = r.summary["sizing"]["water"];
    const double Q_kW = designMetric(r, "design_heat_rejected_kW");
    const double E = rowValue(water, "evaporation", "design_hour_m3");
    EXPECT_GE(E, 0.85 * Q_kW / 2430.5 * 3.6 * 0.995);  // 0.5 % for the water density used
    EXPECT_LE(E, 0.85 * Q_kW / 2394.0 * 3.6 * 1.005);
    // Drift = 2e-5 of the circulating flow (cooling_towers.json drift_fraction; the two duty
    // facility pumps' flow from the cooling table): 2e-5 × 2 × 0.0956 m³/s × 3,600 = 0.01377
    // m³/h. Band 1 % (the tower's own water density).
    const double circ =
        2.0 * rowValue(r.summary["sizing"]["cooling"], "fws_pumps", "design_load_per_unit");
    EXPECT_NEAR(rowValue(water, "drift", "design_hour_m3"), 2e-5 * circ * 3600.0,
                0.01 * 2e-5 * circ * 3600.0);
    // Make-up = E·COC/(COC − 1) at 4 cycles (domain-facts C4; drift is part of it): the same
    // h_fg band times 4/3, 13.47 to 13.68 m³/h.
    const double M = rowValue(water, "makeup", "design_hour_m3");
    EXPECT_GE(M, 0.85 * Q_kW / 2430.5 * 3.6 * 4.0 / 3.0 * 0.995);
    EXPECT_LE(M, 0.85 * Q_kW / 2394.0 * 3.6 * 4.0 / 3.0 * 1.005);
    // Cells: N+1 of the 3.5 MW CTI-rated cell. At a lower wet bulb (24.2 °C against the rated
    // 78 °F = 25.6 °C) and a warmer leaving water (31 °C against 85 °F = 29.4 °C) a cell
    // carries at least its rating, so N ≤ ceil(1.1 × 8,027/3,500) = 3 even with the 10 %
    // growth margin: 4 cells.
    const double cells = rowValue(r.summary["sizing"]["cooling"], "heat_rejection", "count");
    EXPECT_GE(designMetric(r, "heat_rejection_unit_capacity_kW"), 3500.0);
    EXPECT_LE(cells, std::ceil(1.10 * Q_kW / 3500.0) + 1.0);
    EXPECT_GE(cells, std::ceil(Q_kW / designMetric(r, "heat_rejection_unit_capacity_kW")) + 1.0);
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
    // The design-point simulation misses the setpoint by the same physics bounds: at least
    // the dry bulb minus the setpoint, 12.6 K, at most that plus the 8 K full-duty approach.
    EXPECT_GT(designMetric(r, "design_setpoint_unmet_K"), 43.6 - 31.0);
    EXPECT_LT(designMetric(r, "design_setpoint_unmet_K"), 43.6 + 8.0 - 31.0);
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

TEST(DesignPoint, ATrimChillerThatHoldsTheSetpointMissesNothingAndOneTooSmallReportsItsMiss) {
    // Phoenix's 43.6 °C design dry bulb: plain dry coolers cannot reach a 31 °C facility
    // supply (the test above), so a trim chiller does the rest. Eight 1.5 MW chillers
    // (chillers.json, carnot_centrifugal) carry the whole ~8 MW design heat: the supply is held
    // and nothing is unmet. One chiller cannot: the supply settles above 31 °C and the miss is
    // that excess, the chiller's shortfall and not the bank's larger one ahead of it. No test
    // ran a trim chiller before; the plant's chiller branch of the miss is new today.
    for (int units : {8, 1}) {
        Json j = reference();
        j["site"]["weather"] = weather("phoenix");
        j["cooling"]["heat_rejection"] = {{"type", "dry_cooler"},
                                          {"accept_setpoint_exceedance", true},
                                          {"trim_chiller", {{"units", units}}}};
        const RunOutcome r = sizeScenario(scenario(j));
        const double supply = designMetric(r, "design_fws_supply_temp_C");
        const double unmet = designMetric(r, "design_setpoint_unmet_K");
        SCOPED_TRACE(::testing::Message()
                     << units << " chillers: supply " << supply << " C, unmet " << unmet << " K");
        if (units == 8) {
            EXPECT_EQ(unmet, 0.0);
            EXPECT_NEAR(supply, 31.0, 1e-6);
        } else {
            // 1.5 MW of the ~8 MW: most of the heat stays with the dry coolers, which then
            // run the water several kelvin above the setpoint.
            EXPECT_GT(unmet, 5.0);
            EXPECT_NEAR(supply - 31.0, unmet, 1e-6);
        }
    }
}

TEST(DesignPoint, ReferenceSiteHoldsItsDesignBasisOverTheWeatherYear) {
    // The shipped reference (adiabatic coolers, Milwaukee) holds 31 °C on its design day, which
    // for dry coolers is the 0.4 % dry bulb with its coincident wet bulb.
    const RunOutcome r = sizeScenario(scenario(reference()));
    EXPECT_NEAR(designMetric(r, "design_reachable_fws_supply_C"), 31.0, 1e-9);
    // A 0.4 % design basis admits the setpoint missed in about 0.4 % of the year's hours,
    // 35 of 8,760, at design heat; the year's hours are scanned apart from the count's search
    // (which looks at two weather points only). Until 2026-12-07 the count looked only at the
    // design day, where the pads are wet, and the 13 + 1 units missed in 189 h, the dry hours
    // just below the pads' 28 °C switch-over (worst 1.98 K); 17 + 1 units now miss in 3 h
    // (`dctwin size`, worst 0.33 K).
    // Whatever the count, the hours are whole hours of the weather year.
    const double hours = designMetric(r, "design_hours_above_fws_setpoint_h");
    EXPECT_LE(hours, 0.004 * 8760.0);
    EXPECT_EQ(hours, std::round(hours));
    EXPECT_LT(designMetric(r, "design_worst_fws_excess_K"), 0.5);
}

TEST(DesignPoint, AdiabaticCoolersAreCountedDryBelowTheirSwitchOver) {
    // The pads run only above their switch-over dry bulb, so the count must also hold the
    // setpoint dry at the switch-over's lower band edge. Dry air at 27.5 °C (the reference's
    // 28 °C switch-over) is warmer than the 25.4 °C the pads make of the design day's air
    // (test above), so it sets the count; at a 20 °C switch-over dry air of 19.5 °C is colder
    // than the pads' air, and the design day sets it again (the count of before 2026-12-07).
    Json low = reference();
    low["cooling"]["heat_rejection"]["switch_over_temp_C"] = 20.0;
    const RunOutcome r_ref = sizeScenario(scenario(reference()));
    const RunOutcome r_low = sizeScenario(scenario(low));
    const Json& c_ref = r_ref.summary["sizing"]["cooling"];
    const Json& c_low = r_low.summary["sizing"]["cooling"];
    EXPECT_GT(rowValue(c_ref, "heat_rejection", "count"),
              rowValue(c_low, "heat_rejection", "count"));
    const std::string rule_ref = findRow(c_ref, "heat_rejection")->value("count_rule", "");
    const std::string rule_low = findRow(c_low, "heat_rejection")->value("count_rule", "");
    EXPECT_NE(rule_ref.find("pads dry, at 27.5 °C"), std::string::npos) << rule_ref;
    EXPECT_NE(rule_ref.find("which sets the count"), std::string::npos) << rule_ref;
    EXPECT_NE(rule_low.find("pads dry, at 19.5 °C"), std::string::npos) << rule_low;
    EXPECT_EQ(rule_low.find("which sets the count"), std::string::npos) << rule_low;
    // The reference holds the 0.4 % basis over the year (35 h of 8,760 at most). With pads
    // from 20 °C the misses left are humid hours, whose wet bulb the pads cannot cool past
    // (48 h, `dctwin size`): far fewer than the 189 h of the 28 °C switch-over counted on the
    // design day alone (previous test), more than the basis's 35 h because the basis is a dry
    // bulb with its mean coincident wet bulb.
    EXPECT_LE(designMetric(r_ref, "design_hours_above_fws_setpoint_h"), 35.0);
    EXPECT_LT(designMetric(r_low, "design_hours_above_fws_setpoint_h"), 100.0);

    // A switch-over of 32 °C: the pads still run on the 32.4 °C design day, but dry air of
    // 31.5 °C is warmer than the 31 °C setpoint, so no count of coils holds it there. Sizing
    // says so, with the switch-over that would do, unless the exceedance is accepted.
    Json warm = reference();
    warm["cooling"]["heat_rejection"]["switch_over_temp_C"] = 32.0;
    expectInputError([&] { sizeScenario(scenario(warm)); },
                     {"/cooling/heat_rejection/switch_over_temp_C", "a switch-over at or below",
                      "accept_setpoint_exceedance"});
    warm["cooling"]["heat_rejection"]["accept_setpoint_exceedance"] = true;
    const RunOutcome r_warm = sizeScenario(scenario(warm));
    const Json& c_warm = r_warm.summary["sizing"]["cooling"];
    // Counted on the design day alone: no fewer than the 20 °C switch-over's (whose pads run
    // fully on the design day, where these are 90 % allowed) and fewer than the dry count's.
    EXPECT_GE(rowValue(c_warm, "heat_rejection", "count"),
              rowValue(c_low, "heat_rejection", "count"));
    EXPECT_LT(rowValue(c_warm, "heat_rejection", "count"),
              rowValue(c_ref, "heat_rejection", "count"));
    EXPECT_NE(findRow(c_warm, "heat_rejection")->value("count_rule", "").find("accepted"),
              std::string::npos);
    EXPECT_GT(designMetric(r_warm, "design_hours_above_fws_setpoint_h"), 35.0);
}

}  // namespace
}  // namespace dctwin::facility::test
