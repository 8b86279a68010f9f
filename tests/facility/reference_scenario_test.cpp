// The reference scenario end to end (issue 5, "What it must show", first and third points):
// the summary of DESIGN.md §5.2, plausible PUE, closed energy balance, clean time series, the
// peak IT of a fully loaded hall, and lumping of identical racks (DESIGN.md §4).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/units.h"
#include "core/weather/epw.h"
#include "power/catalog.h"
#include "test_util.h"

namespace dctwin::facility::test {
namespace {

// All 64 racks in one training job at 100 % compute and 100 % communication utilization: the
// hall at its full load.
Json fullLoadWorkload() {
    return Json::parse(R"({
        "tenants": { "research": 1.0 },
        "jobs": [ { "name": "full", "type": "training", "tenant": "research", "racks": 64,
                    "start_h": 0, "duration_h": 8760, "iteration_period_s": 2.0,
                    "compute_fraction": 0.7, "compute_util_pct": 100, "comm_util_pct": 100 } ]
    })");
}

TEST(ReferenceScenario, SummerWeekSummaryIsCompletePlausibleAndBalanced) {
    // A summer week (July 15-21) of scenarios/azure_gb300_64.json at 10-minute output.
    const double days = 7.0;
    const RunOutcome r = run(reference({{"study", annualStudy("07-15", days)}}));
    const Json& s = r.summary;

    // DESIGN.md §5.2: the summary has at least these keys.
    for (const auto& key : requiredSummaryKeys()) EXPECT_TRUE(s.contains(key)) << key;
    ASSERT_TRUE(s["sizing"].contains("power") && s["sizing"].contains("cooling") &&
                s["sizing"].contains("water"));

    // Issue 5: "a plausible PUE for dry coolers (1.03-1.25)".
    const double pue = num(s, "pue");
    EXPECT_GE(pue, 1.03);
    EXPECT_LE(pue, 1.25);
    // DESIGN.md §3.4: the energy balance closes to better than 0.1 %.
    EXPECT_LT(std::abs(num(s, "energy_balance_rel_error")), 1e-3);

    // The overhead by hand, for ~8.2 MW of IT (see the annual test below): other loads 150 kW
    // (1.8 %), UPS double conversion and transformers 3-4.5 %; cooling in a July week: CDU
    // and facility pumps ~0.7 %, dry-cooler fans ~1 %, and the air side: ~1.65 MW of air load
    // (10 % of ~7.8 MW of rack power, 0.41 MW fabric, 0.15 MW other, ~0.3 MW of indoor
    // losses) on air-cooled chillers at COP 3.5-4.4 (the YCAL curve on July afternoons; the
    // economizer carries the cool nights only) ≈ 0.4 MW, 4-5.5 %: cooling 5.5-7.5 %,
    // PUE 1.10-1.14 (measured 1.1225 at d97ea3a).
    const double it_MWh = num(s, "it_energy_MWh");
    EXPECT_GT(pue, 1.10);
    EXPECT_LT(pue, 1.14);
    // Water: adiabatic spray only, bracketed from the EPW minute by minute (the twin
    // interpolates the hourly rows linearly; row i is the hour ending at (i + 1)·3,600 s).
    // The pads wet only with every fan at full speed (thermal/heat_rejection.cpp) and along
    // the wet bulb, where the air's sensible drop becomes latent heat: ṁ_w·(2.50..2.56 MJ/kg)
    // = ṁ_a·c_p·ΔT (moist-air enthalpy, h_g at 0..30 °C).
    //   upper  the pads switch on from 27.5 °C (dry_coolers.json: 28 °C ± the 1 K band);
    //          at most all the units' air (70 m³/s each, the sizing's count) cooled by the
    //          full saturation effectiveness 0.8 × (T_db − T_wb), with c_p 1,053 J/(kg·K)
    //          (W ≤ 0.025) and the density of air at the wet bulb: 371 m³ this week;
    //   lower  above the 31 °C facility supply (35 °C TCS − the CDU's 4 K approach) no dry
    //          cooler can reach it, so the pads must cool all that air at least to 31 °C:
    //          ṁ_a·1,006·(T_db − 31 °C)/2.56 MJ/kg, dry-air density at T_db with 5 % for
    //          humidity: 30 m³ (the week reaches 35 °C on the afternoon of July 20).
    // Measured 118.2 m³. The bracket is wide (the control picks the pads' wetting between
    // these), but both sides are physics the model cannot leave.
    {
        const weather::Weather w =
            weather::readEpw(std::filesystem::path(DCTWIN_SOURCE_DIR) / test::weather("milwaukee"));
        const Json* hr = nullptr;
        for (const Json& row : s["sizing"]["cooling"]) {
            if (row.value("element", "") == "heat_rejection") hr = &row;
        }
        ASSERT_NE(hr, nullptr);
        const double air = (*hr)["count"].get<double>() * 70.0;  // [m³/s] every unit at full
        const std::size_t first = (31 + 28 + 31 + 30 + 31 + 30 + 14) * 24;  // 00:00 July 15
        double hi_kg = 0.0, lo_kg = 0.0;
        for (std::size_t h = first; h < first + 24 * 7; ++h) {
            for (int m = 0; m < 60; ++m) {
                const double x = (m + 0.5) / 60.0;
                auto at = [&](const std::vector<double>& v) {
                    return v[h - 1] + x * (v[h] - v[h - 1]);
                };
                const double db = at(w.dryBulb()), wb = at(w.wetBulb()), p = at(w.pressure());
                if (db > units::celsiusToKelvin(27.5)) {
                    hi_kg += air * p / (287.05 * wb) * 1053.0 * 0.8 * (db - wb) / 2.50e6 * 60.0;
                }
                const double over = db - units::celsiusToKelvin(31.0);
                if (over > 0.0) {
                    lo_kg += air * p / (287.05 * db * 1.05) * 1006.0 * over / 2.56e6 * 60.0;
                }
            }
        }
        std::printf("summer week water: %.1f m³, EPW bracket %.1f..%.1f m³\n", num(s, "water_m3"),
                    lo_kg / 1e3, hi_kg / 1e3);
        EXPECT_GT(num(s, "water_m3"), lo_kg / 1e3);
        EXPECT_LT(num(s, "water_m3"), hi_kg / 1e3);
    }
    EXPECT_GE(num(s, "peak_facility_kW"), num(s, "peak_it_kW"));

    // IT energy lies between the whole hall idle and the whole hall at its peak: 64 racks ×
    // 25 % of 135 kW idle (racks.json idle_fraction) and the run's own peak IT power.
    const double hours = days * 24.0;
    EXPECT_GT(it_MWh, 64 * 0.25 * 135e-3 * hours);
    EXPECT_LT(it_MWh, num(s, "peak_it_kW") * 1e-3 * hours);
    // Mean IT by hand: the annual test below derives 8,162 kW from the jobs (pretrain
    // 4,123.6 kW, research 982.8, chat 2,507.5, fabric 410.4, leakage 138). Each term holds
    // for this week as for the year: 168 h hold 84 whole 2 h checkpoint cycles, 7 whole days
    // of the inference shape, and 5 weekdays and 2 weekend days whatever the start; the dies
    // sit at the same ~72 °C (the TCS supply is held at 35 °C). Measured 8,157 kW (−0.06 %).
    // Band 1 %, as the annual figure's: leakage ±0.25 % per K of die temperature, PSU curve
    // left out.
    EXPECT_NEAR(it_MWh / hours * 1e3, 8162.0, 0.01 * 8162.0);

    // GPUs stay between the 35 °C coolant supply and the 87 °C throttle temperature
    // (racks.json throttle_temp_C) in an ordinary summer week.
    const double throttle_C = power::Catalog::load().rack("gb300_nvl72").throttle_temp - 273.15;
    EXPECT_GT(num(s, "max_gpu_junction_C"), 35.0);
    EXPECT_LT(num(s, "max_gpu_junction_C"), throttle_C);

    // DESIGN.md §5.3 and §7: every time series carries a unit and no NaN, on the requested
    // 10-minute grid over the whole week.
    const ResultSet& ts = r.report.timeseries;
    ASSERT_FALSE(ts.channels.empty());
    ASSERT_GE(ts.time.size(), 2u);
    EXPECT_DOUBLE_EQ(ts.time.front(), 0.0);
    EXPECT_NEAR(ts.time.back(), days * 86400.0, 1e-6);
    EXPECT_NEAR(ts.time[1] - ts.time[0], 600.0, 1e-6);
    for (const Channel& c : ts.channels) {
        EXPECT_FALSE(c.unit.empty()) << c.group << "/" << c.name;
        EXPECT_EQ(c.values.size(), ts.time.size()) << c.group << "/" << c.name;
        std::size_t bad = 0;
        for (double v : c.values) bad += std::isfinite(v) ? 0 : 1;
        EXPECT_EQ(bad, 0u) << c.group << "/" << c.name << " has non-finite samples";
    }
    // The channels the GUI and the metrics read are there.
    for (const auto& [g, n] : {std::pair{"power", "it_power"},
                               {"power", "facility_power"},
                               {"cooling", "max_gpu_junction_temp"},
                               {"water", "water_total"}}) {
        EXPECT_NE(ts.find(g, n), nullptr) << g << "/" << n;
    }
}

/// ∫ y dt by the trapezoid rule over the report's time grid [unit·s].
double trapezoid(const ResultSet& ts, const char* group, const char* name) {
    const Channel* c = ts.find(group, name);
    EXPECT_NE(c, nullptr) << group << "/" << name;
    if (!c) return 0.0;
    double e = 0.0;
    for (std::size_t i = 1; i < ts.time.size(); ++i) {
        e += 0.5 * (c->values[i] + c->values[i - 1]) * (ts.time[i] - ts.time[i - 1]);
    }
    return e;
}

// Audit F7: figures a reader misread on the reference site (adiabatic coolers, air-cooled
// chillers on the air side, no site battery, smoothing enabled in an averaged study).
TEST(ReferenceScenario, LabelsSayWhatEachFigureCounts) {
    // One July day: the pads spray (the 0.4 % design dry bulb is 32.4 °C).
    const RunOutcome r = run(reference({{"study", annualStudy("07-15", 1.0)}}));
    auto described = [&](const std::string& name) {
        for (const auto& m : r.report.summary) {
            if (m.name == name) return m.description;
        }
        ADD_FAILURE() << "no metric " << name;
        return std::string();
    };
    auto says = [](const std::string& text, const char* what) {
        return text.find(what) != std::string::npos;
    };
    // (a) The pads' water is evaporated too but counted as spray, not as evaporation: the
    // reference year had water_evaporation_m3 = 0 beside 503 m³ of spray.
    EXPECT_EQ(num(r.summary, "water_evaporation_m3"), 0.0);
    EXPECT_GT(num(r.summary, "water_spray_m3"), 0.0);
    EXPECT_TRUE(says(described("water_evaporation_m3"), "cooling-tower evaporation only"));
    EXPECT_TRUE(says(described("water_evaporation_m3"), "water_spray_m3"));
    EXPECT_TRUE(says(described("water_spray_m3"), "evaporate"));
    EXPECT_TRUE(says(described("water_spray_m3"), "not in water_evaporation_m3"));
    // (b) No trim chillers: chiller_energy_MWh is 0 while the air side's air-cooled chillers
    // run; their energy is in air_side_energy_MWh, and both labels say so.
    EXPECT_EQ(num(r.summary, "chiller_energy_MWh"), 0.0);
    EXPECT_GT(num(r.summary, "air_side_energy_MWh"), 0.0);
    EXPECT_TRUE(says(described("chiller_energy_MWh"), "air_side_energy_MWh"));
    EXPECT_TRUE(says(described("air_side_energy_MWh"), "air-cooled chillers"));
    // (c) The scenario enables smoothing; an averaged (annual) study does not model it, and
    // the summary says so beside power_smoothing false.
    ASSERT_TRUE(r.summary.contains("power_smoothing"));
    EXPECT_FALSE(r.summary["power_smoothing"].get<bool>());
    EXPECT_TRUE(r.summary.contains("power_smoothing_note"));
    const std::string note = r.summary.value("power_smoothing_note", std::string());
    EXPECT_TRUE(says(note, "not modelled")) << note;
    EXPECT_TRUE(says(note, "\"mean\"")) << note;
    EXPECT_EQ(note, smoothingNotModelledNote(scenario(reference())));
    // Resolved, or without smoothing, there is nothing to say.
    EXPECT_TRUE(smoothingNotModelledNote(
                    scenario(reference({{"study", {{"workload_resolution", "resolved"}}}})))
                    .empty());
    EXPECT_TRUE(smoothingNotModelledNote(
                    scenario(reference({{"power", {{"smoothing", {{"enabled", false}}}}}})))
                    .empty());
    // (d) The site has no battery (bess_mode off): no BESS row in the power table and no
    // bess_energy check (it listed a 4 MW battery at 74.5 % and 759 kWh ≥ 496 kWh).
    EXPECT_FALSE(r.summary["site_battery"].get<bool>());
    const Json& sizing = r.summary["sizing"];
    ASSERT_TRUE(sizing.contains("power") && sizing.contains("power_checks"));
    EXPECT_GE(sizing["power"].size(), 10u);
    for (const Json& row : sizing["power"]) EXPECT_NE(row["element"], "bess") << row.dump();
    for (const Json& c : sizing["power_checks"]) EXPECT_NE(c["item"], "bess_energy") << c.dump();
}

TEST(ReferenceScenario, ReferenceYearKeepsItsEdgesAndItsEnergy) {
    // Issue 10, "What it must show": IT energy of the annual reference run equals the integral
    // of the resolved workload within 0.05 %; no first- or last-sample step larger than 1 % of
    // IT. scenarios/azure_gb300_64.json as shipped: 365 days at 10-minute output.
    const RunOutcome r = run(reference());
    const Json& s = r.summary;
    const ResultSet& ts = r.report.timeseries;
    const Channel* it = ts.find("power", "it_power");
    ASSERT_NE(it, nullptr);
    const auto& P = it->values;
    ASSERT_EQ(P.size(), 365u * 144u + 1u);

    // The first sample is the steady state at the year's load (every job starts at the
    // study start, so it is running when the study opens) and the last one is the year's
    // last instant, not the jobs ending with it: the neighbouring samples differ by the
    // weather and the inference shape over 10 minutes only (measured 0.21 % at both ends).
    const std::size_t n = P.size();
    EXPECT_LT(std::abs(P[1] - P[0]), 0.01 * P[1]) << P[0] << " W then " << P[1] << " W";
    EXPECT_LT(std::abs(P[n - 1] - P[n - 2]), 0.01 * P[n - 2])
        << P[n - 2] << " W then " << P[n - 1] << " W";
    const Channel* tj = ts.find("cooling", "max_gpu_junction_temp");
    ASSERT_NE(tj, nullptr);
    EXPECT_LT(std::abs(tj->values[1] - tj->values[0]), 0.1);  // no start transient [K]

    // The IT energy meter against the integral of the sampled IT power. The input side is
    // exact (power_Workload.ReferenceYearAveragedInputCarriesTheResolvedEnergy: the averaged
    // utilization integrates to the resolved workload's ∫u dt within 1e-6, checkpoints
    // included), so what is left is the integrator: at the annual rel_tol 5e-4 the meter
    // reads 0.035 % below the series (measured; 1e-6 % at rel_tol 1e-6, and the 1-minute
    // series integrates to the 10-minute one within 1e-5 %). Before issue 10 the solver
    // stepped over the averaged checkpoint bumps and the meter read 0.27 % above.
    const double meter_J = num(s, "it_energy_MWh") * 3.6e9;
    EXPECT_NEAR(meter_J, trapezoid(ts, "power", "it_power"), 5e-4 * meter_J);

    // IT energy by hand from the scenario's inputs (racks.json: 135 kW TDP, idle 25 % →
    // P(u) = 33.75 kW + u·101.25 kW per rack; GPU leakage 10 % of 1,400 W at 65 °C doubling
    // per 25 K):
    //   pretrain 32 racks  ū = 0.75·100 % + 0.25·80 % = 0.95, 90 s at 10 % every 2 h from the
    //                      second cycle: (0.95·7,110 + 0.10·90)/7,200 = 0.939375 → ū_year
    //                      0.939377 → 128.86 kW per rack, 4,123.6 kW
    //   research 8 racks   0.6·100 % + 0.4·70 % = 0.88 → 122.85 kW, 982.8 kW
    //   chat 24 racks      95 % × mean shape: hourly profile mean 0.69875 → trough 0.5 +
    //                      0.5·(0.69875 − 0.35)/0.65 = 0.76827, weekday mean 6.7/7 = 0.95714
    //                      → ū 0.69858 → 104.48 kW, 2,507.5 kW
    //   fabric             100 Quantum-X800 switches: 410.4 kW
    //   leakage            dies at ~72 °C (45 °C rack outlet + ~27 K plate and junction rise,
    //                      regression_test.cpp): 140 W·(2^(7/25) − 1) = 30 W × 4,608 GPUs =
    //                      138 kW
    //   → 8,162 kW × 8,760 h = 71,500 MWh. Band ±1 %: the leakage is ±0.25 % per K of the
    //   mean die temperature, and the PSU curve is left out.
    EXPECT_NEAR(num(s, "it_energy_MWh"), 71500.0, 715.0);
    // PUE from the overhead by hand (the reference site over a Milwaukee year): other loads
    // 150 kW (1.8 %), UPS double conversion and transformers 3-4.5 %, cooling (CDU and FWS
    // pumps ~0.6 %, dry-cooler fans ~0.2 %, air side with the economizer most of the year
    // ~1.3 %) 1.5-3 %: 1.063-1.093.
    EXPECT_GT(num(s, "pue"), 1.063);
    EXPECT_LT(num(s, "pue"), 1.093);

    // Regression values: produced by this test's run at commit d97ea3a (issue 10 "workload
    // averaging that keeps edges", 2026-12-01, Release, GCC 12, rel_tol 5e-4). Bands trip at a
    // 0.2 % model change: PUE ±0.0008 (0.07 %), energies ±0.1 %, water ±0.6 % (the spray
    // switches on a threshold; see the water check below), junction ±0.1 K (0.13 % of 76 °C).
    // Before issue 10: PUE 1.07824, IT 71,683.6 MWh (the meter 0.27 % above its own series),
    // facility 77,292.0 MWh, water 561.7 m³, hottest GPU 78.33 °C (the overshoot after the
    // half-load start).
    // Re-derived at the merge of issues 10 and 15 (8c4e01c, 2026-12-01): the growth margin now
    // sizes the cooling plant (14 adiabatic coolers and 14 CRAH units instead of 13 and 13;
    // issue 15), so fans run slower at the same heat: PUE 1.07828 → 1.07738, facility
    // 77,035.87 → 76,970.77 MWh, water 555.30 → 500.44 m³ (more pad area: the spray starts
    // later), IT and junction within their bands (71,443.57 → 71,442.34 MWh, 76.025 → 76.025).
    // Re-derived at issue 12's per-state Newton bound (CVODE's RMS test at its default 0.1,
    // plus every state within √48 × the bound; 2026-12-01): IT 71,441.4 → 71,457.8 MWh,
    // facility 76,969.8 → 76,988.5, water 502.87 → 502.33 m³, PUE 1.07738 → 1.07740, junction
    // unchanged. The same year at rel_tol 1e-7 gives IT 71,468.6, facility 77,000.3, water
    // 502.13 m³: the new figures are closer to it (IT error −3.8e-4 → −1.5e-4, water
    // +1.5e-3 → +3.9e-4), so the move is the solver converging better, not a model change.
    // The rack manifold's Newton stop (issue 12, next commit) then moved IT by −2.5e-5 and
    // water by −0.39 % (500.35 m³) through the step path alone: inside the bands, kept. The
    // run at 130693c (2026-12-06) reads IT 71,459.2, facility 76,989.7, PUE 1.07740, water
    // 503.30 m³, junction 76.025 °C; the water pin follows it (the energies are within 2e-5).
    // Re-derived on 2026-12-07: the adiabatic coolers are counted dry below the pads' 28 °C
    // switch-over too, 17 + 1 instead of 13 + 1 (sizing.cpp; the design-day count missed the
    // setpoint in 189 h of the year at design heat, and this year's run in 2.1 h). With the
    // larger coil area the fans run slower and the pads spray less: heat-rejection fans
    // 122.7 → 91.2 MWh, water 503.30 → 399.74 m³, facility 76,989.7 → 76,956.7 MWh, PUE
    // 1.07740 → 1.07696, IT 71,459.2 → 71,457.3 MWh (the loop a little colder), fws hours
    // above the setpoint 2.13 → 0.
    EXPECT_NEAR(num(s, "pue"), 1.07696, 0.0008);
    EXPECT_NEAR(num(s, "it_energy_MWh"), 71457.8, 71.4);
    EXPECT_NEAR(num(s, "facility_energy_MWh"), 76956.7, 77.0);
    // Water: the spray switches on a threshold, so the solver's path moves it more than the
    // energies: one integrator restart fewer moved it 0.49 % (issue 12). The band is 0.6 %,
    // above that noise and below a 1 % model change.
    EXPECT_NEAR(num(s, "water_m3"), 399.74, 2.4);
    EXPECT_NEAR(num(s, "max_gpu_junction_C"), 76.025, 0.1);
    EXPECT_LT(std::abs(num(s, "energy_balance_rel_error")), 1e-6);
}

TEST(ReferenceScenario, FullLoadPeakItIsAboutNineMegawatts) {
    // Issue 5 and DESIGN.md §1: ~8.6-9.5 MW peak IT. Hand estimate: 64 racks × ~135 kW
    // (GB300 NVL72 TDP, racks.json tdp_W) = 8.64 MW, plus ~0.4 MW of Quantum-X800 switches and
    // optics outside the racks (two-tier fat tree for 4,608 GPUs) ≈ 9.0 MW.
    Json j = reference({{"study", annualStudy("07-15", 1.0, 1800.0)}});
    j["workload"] = fullLoadWorkload();
    const RunOutcome r = run(j);
    const double peak_kW = num(r.summary, "peak_it_kW");
    EXPECT_GE(peak_kW, 8600.0);
    EXPECT_LE(peak_kW, 9500.0);
    // At constant full load the mean equals the peak within a few percent (the only variation
    // is leakage with die temperature as the weather changes).
    EXPECT_NEAR(num(r.summary, "it_energy_MWh") / 24.0, peak_kW / 1e3, 0.03 * peak_kW / 1e3);
    EXPECT_LT(std::abs(num(r.summary, "energy_balance_rel_error")), 1e-3);
}

TEST(ReferenceScenario, LumpingIdenticalRacksGivesTheSameSummary) {
    // DESIGN.md §4 and issue 5: identical racks lumped into one representative with a
    // multiplicity give the same results as the unlumped run, within 0.1 %.
    // rel_tol 1e-5: at the annual default (5e-4) the two runs take different steps and the
    // adiabatic spray water (a threshold on the air temperature) differs by ~0.3 % from solver
    // error alone; the tighter tolerance isolates the lumping error, which is what is tested.
    Json study = annualStudy("07-15", 1.0);
    study["rel_tol"] = 1e-5;
    const Json base = reference({{"study", study}});
    Json unlumped = base;
    unlumped["it"]["lump_identical_racks"] = false;
    const RunOutcome a = run(base);
    const RunOutcome b = run(unlumped);
    // The unlumped model really has one rack loop per rack: many more states.
    EXPECT_GT(b.state_count, 4 * a.state_count);
    for (const char* key :
         {"it_energy_MWh", "facility_energy_MWh", "water_m3", "pue", "peak_it_kW"}) {
        const double x = num(a.summary, key), y = num(b.summary, key);
        EXPECT_NEAR(y, x, 1e-3 * std::abs(x)) << key;
    }
    // Temperatures: 0.1 % of the value in °C.
    const double ta = num(a.summary, "max_gpu_junction_C"),
                 tb = num(b.summary, "max_gpu_junction_C");
    EXPECT_NEAR(tb, ta, 1e-3 * ta);
    EXPECT_LT(std::abs(num(b.summary, "energy_balance_rel_error")), 1e-3);
}

}  // namespace
}  // namespace dctwin::facility::test
