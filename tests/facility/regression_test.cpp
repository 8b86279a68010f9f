// Scenario regression (DESIGN.md §8, issue 5): small scenarios run end to end and their summary
// metrics are compared with stored values. A change that moves a value beyond its tolerance is
// either a bug or a model change; in the latter case re-derive the value, check it against the
// hand estimate next to it and update the commit/date note.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "test_util.h"

namespace dctwin::facility::test {
namespace {

struct Stored {
    double pue, it_energy_MWh, water_m3, max_gpu_junction_C;
};

// Tolerances: PUE ±0.001 (absolute, 0.09 %), IT energy ±0.1 %, water ±0.15 % (+0.01 m³ so
// that zero stays zero), GPU temperature ±0.1 K (0.13 % of 75 °C): a 0.2 % model change
// trips each of them, while the runs are deterministic on one build (issue 10).
void expectMatches(const Json& s, const Stored& v) {
    std::printf("measured: pue %.5f  it_energy_MWh %.4f  water_m3 %.4f  max_gpu_junction_C %.3f\n",
                num(s, "pue"), num(s, "it_energy_MWh"), num(s, "water_m3"),
                num(s, "max_gpu_junction_C"));
    EXPECT_NEAR(num(s, "pue"), v.pue, 0.001);
    EXPECT_NEAR(num(s, "it_energy_MWh"), v.it_energy_MWh, 0.001 * v.it_energy_MWh);
    EXPECT_NEAR(num(s, "water_m3"), v.water_m3, 0.0015 * v.water_m3 + 0.01);
    EXPECT_NEAR(num(s, "max_gpu_junction_C"), v.max_gpu_junction_C, 0.1);
    EXPECT_LT(std::abs(num(s, "energy_balance_rel_error")), 1e-3);
}

/// A fixture scenario of tests/data (full files, so edits to scenarios/ do not move them).
Json fixture(const std::string& file) {
    return runScenario(loadScenario(std::filesystem::path(DCTWIN_TEST_DATA_DIR) / file)).summary;
}

// Stored values: produced by this code at the issue 9 merge (2026-11-30, Release build, GCC 12)
// with the annual default rel_tol 5e-4; junction and IT moved with issue 9's controlled CDU
// pumps (the racks now run at the 10 K TCS rise instead of 1.28× design flow), PUE also with
// issue 10's air side. Hand estimates shared by the three fixtures (rack figures from
// data/catalog/power/racks.json, loop figures from data/catalog/thermal/rack_loops.json):
//   rack power  P(u) ≈ idle + u·(TDP − idle) = 33.75 kW + u·101.25 kW (TDP 135 kW, idle 25 %)
//   training    mean u = 0.7·100 % + 0.3·60 % = 0.88 → P ≈ 122.9 kW per rack
//   fabric      design_point.fabric_power of the run: 50.5 kW for 8 racks, 101 kW for 16
//   GPU         junction = outlet + plate rise + junction rise. The CDU resets its header Δp
//               until the racks run at the 10 K rise (cdus.json): outlet 35 + 10 = 45 °C at
//               ~164.5 L/min per rack for the training racks' 110 kW to liquid. The cold-plate
//               channels there: Re 212.7, Nu 4.691 (4.875 at 200 L/min), R_pc = 2.23e-5 +
//               9.30e-5 × 4.875/4.691 = 1.189e-4 K/W per rack (rack_loop_test.cpp):
//               110 kW × 1.189e-4 = 13.1 K + 1,225 W × 0.012 K/W = 14.7 K → 72.8 °C. The dies
//               ~7 K warmer than before issue 9 leak 2^(7/25) − 1 = 21 % more of their ~140 W
//               (racks.json leakage, doubling per 25 K): +29 W per GPU, +0.35 K over R_jp and
//               +2.0 kW × 1.189e-4 = +0.24 K on the plate → 73.4 °C. max_gpu_junction_C of an
//               annual (averaged) run is the expected peak, the first-order peaks of junction
//               and plate for the hidden iteration square wave (D = 0.7, T = 2 s) added to the
//               averaged-power value:
//               junction  τ_j = 48 ms ≪ the 1.4 s compute phase: R'·ΔP·(1 − D), ΔP = 0.97 ×
//                         1,200 W × (1.0 − 0.6) = 466 W, R' = 0.012/(1 − 0.97 × 0.012 ×
//                         dP_leak/dT) = 0.01259 K/W with dP_leak/dT = 140 W × ln 2/25 K ×
//                         2^(1.5/25) = 4.05 W/K: +1.76 K
//               plate     rack swing 0.4 × (72 × 0.97 × 1,200 + 36 × 0.95 × 196 + 9 × 0.95 ×
//                         1,600 × 0.3) = 37.8 kW through R_pc = 1.189e-4 K/W, τ_p = 30.3 kJ/K ×
//                         R_pc = 3.60 s: a = e^{−1.4/3.60} = 0.678, b = e^{−0.6/3.60} = 0.846,
//                         4.49 K × ((1 − a)/(1 − a·b) − D) = 4.49 × 0.055 = +0.25 K
//               → 73.4 + 2.01 = 75.4 °C (stored 75.392; 75.63 before issue 10's workload
//               edges, which was the overshoot after the old half-load start, not the
//               steady value: the run is now flat at 75.392 from its first sample).
//   IT          the +29 W of leakage per GPU: 8 racks × 72 × 29 W × 48 h = +0.80 MWh.

TEST(Regression, EightRacksTrainingAdiabaticMilwaukeeJuly) {
    // IT: (8 × 122.9 + 50.5) kW × 48 h = 49.6 MWh, + 0.80 MWh of leakage → 50.4 (stored
    // 50.51; +0.016 MWh with issue 10: the first 300 s no longer average in the zeros before
    // the job's start, 8 × 89 kW × 150 s / 2 ≈ 0.015 MWh).
    // PUE: before issue 9 1.177 = electrical losses 3.36 MWh (6.8 %: UPS double conversion +
    // transformers), air side
    // 2.75 MWh (5.5 %), plant fans, CDU and FWS pumps 1.71 MWh (3.5 %), other 20 kW (1.9 %)
    // → 1.177. Issue 9's controlled pumps cut the CDU's 14.3 kW (rated speed) to ~3 kW
    // (−0.54 MWh) and its heat into the facility water with it, while IT rose 0.86 MWh:
    // (8.79 − 0.54 − ~0.2 MWh)/50.49 MWh → 1.159. The air side by hand: ~205 kW of air load (10 %
    // of 983 kW of rack heat, 50.5 kW fabric, 20 kW other, ~34 kW of indoor losses) on 3 CRAH units
    // (1.4 kW of fans) and air-cooled chillers at COP 3.5–4.4 (York YCAL0033EE curve at 9 °C
    // chilled water and 24–32 °C afternoon air), the economizer carrying 4.5 of the 48 hours: ≈ 52
    // kW × 48 h ≈ 2.5 MWh (stored 2.75; 1.55 with the Carnot-fraction chiller before issue 10).
    // The ~205 kW understates the room's load: the chain's losses are ~70 kW, not ~34 (the
    // Dallas fixture below, 244.7 kW, asserted there); at ~245 kW the same COPs give 2.8 MWh.
    // Water: adiabatic spray only; bounded by evaporating all ~0.9 MW of heat for 48 h
    // (≈ 64 m³); the pads run on the warm afternoons and pre-cool the air by a few K: a few m³
    // (2.91 m³ before issue 9: the pads switch on a threshold, and ~11 kW less pump heat in
    // the facility water shortens their hours).
    const Json s = fixture("regression_8racks_adiabatic_milwaukee_july.json");
    // Re-derived at d97ea3a (issue 10 workload edges, 2026-12-01, Release, GCC 12); before it
    // {1.15934, 50.4942, 2.1793, 75.630}. Water re-derived on 2026-12-07: the coolers are
    // counted dry at the pads' 27.5 °C switch-over too, 3 + 1 instead of 2 + 1 units (`dctwin
    // size` of the fixture); the fourth unit's coil takes part of the afternoons' heat dry, so
    // the pads spray 2.191 → 1.499 m³ (PUE 1.15987 → 1.15896, IT and junction unchanged).
    expectMatches(s, {1.15896, 50.5102, 1.4987, 75.392});
}

TEST(Regression, SixteenRacksMixedAdiabaticMilwaukeeJanuary) {
    // IT: training u = 0.6·95 % + 0.4·50 % = 0.77 → 111.7 kW; inference between 47.5 % and
    // 95 % (peak:trough 2), mean ≈ 0.71 → 105.6 kW; (8 × 111.7 + 8 × 105.6 + 101) kW × 48 h =
    // 88.3 MWh, + ~1.8 MWh of leakage at the ~6.5 K warmer dies (issue 9, as above for 16
    // racks) → 90.1 (stored 89.88, −0.3 %).
    // Water: a Milwaukee January stays far below the pads' switch-over temperature: exactly 0.
    // PUE lower than in July (1.075; 1.091 with the rated-speed CDU pumps): the fans work against
    // cold air and the air-side economizer carries all 48 hours (air_economizer_hours_h 48), so the
    // air side is the CRAH fans alone: ~0.35 MW of air load on 4 units at ~60 % flow, 4 × 5 kW ×
    // 0.6³ ≈ 4–7 kW, 0.32 MWh (1.30 MWh with the winter Carnot-fraction chiller before issue 10:
    // −0.011). GPU: the inference racks at their diurnal peak (u = 0.95, ~130 kW) run hotter than
    // the 8-rack training fixtures (mean u = 0.88) by ~2 K: junction +1.1 K (1,314 W against 1,225
    // W to liquid per GPU × 0.012 K/W), plate +0.8 K (~119 kW against 110 kW per rack), outlet the
    // same (the 10 K rise holds for every CDU): ~75.2 °C against the training racks' ~73.4 °C
    // averaged value. The inference racks have no hidden swing; the training racks' expected peak
    // (0.6 × 95 % / 0.4 × 50 %: ΔP = 0.97 × 1,200 W × 0.45 = 524 W, + 0.0126 K/W × 524 W × 0.4
    // = 2.6 K above their ~4.6 K lower junction,
    // + a few tenths of a kelvin from the plates) stays below.
    const Json s = fixture("regression_16racks_adiabatic_milwaukee_january.json");
    // Re-derived at d97ea3a (issue 10 workload edges, 2026-12-01, Release, GCC 12); before it
    // {1.07462, 89.8751, 0.0, 75.190}. IT −0.085 % is the IT meter's integration error at the
    // annual rel_tol 5e-4: without the averaged start ramp the run takes 169 steps (~1,000 s)
    // and the meter, error-tested relative to its own growing total, drifts; the 10-minute
    // IT series integrates to 89.871 MWh, and so does the meter at rel_tol 1e-7 (1,195 steps,
    // measured). PUE +0.0006 follows (the same facility energy over a smaller IT meter).
    // Re-derived again at the merge of issues 10 and 15 (8c4e01c, 2026-12-01): {1.07394, 89.8715,
    // 0.0, 75.192}. The growth margin now sizes the cooling plant (14 heat-rejection and 14 CRAH
    // units for the hall instead of 13 and 13), so the fans and CRAHs share the load more
    // thinly: PUE −0.0013. IT 89.8715 is back at the series' 89.871 MWh: with the plant's other
    // step choices the meter's drift happens to vanish here; it remains an open solver item
    // (meters error-tested on their increments, not their totals).
    expectMatches(s, {1.07394, 89.8715, 0.0, 75.192});
}

TEST(Regression, EightRacksTrainingCoolingTowerDallasAugust) {
    // IT as the Milwaukee fixture (same racks and workload): 50.49 MWh.
    // Water (cooling_towers.json: latent fraction 0.85, 4 cycles of concentration): heat to the
    // tower ≈ 90 % of 983 kW of rack power + ~14 kW CDU pump work ≈ 0.9 MW; evaporation
    // 0.85 × 0.9 MW × 172,800 s / 2.42 MJ/kg ≈ 54.6 m³, blowdown E/(4 − 1) ≈ 18.2 m³, drift
    // ~0.1 m³ → ≈ 72.9 m³ (stored 72.87; the latent share from the air's state change,
    // capped at 0.85 since 25f5d98, is at or just under the cap on an August day in Dallas;
    // 72.15 before issue 10: the meters integrate with fewer, longer steps since, see the
    // January fixture).
    // PUE a little above the adiabatic Milwaukee case (1.162 against 1.159): tower fans barely
    // run (wet bulb far below the 31 °C supply) but the air side works against Dallas heat
    // with no economizer hour (August in Dallas never drops below the 21.1 °C high limit).
    // The air side by hand: the room takes the racks' air heat (103.9 kW, the run's
    // heat_to_air), the fabric (50.5 kW), other loads (20 kW) and the electrical chain's
    // losses (3.375 MWh / 48 h = 70.3 kW; an upper bound, part of them is outdoors): 244.7
    // kW. The York YCAL0033EE curve (chillers.json: EIR-fT at 9 °C chilled water and the
    // outdoor dry bulb, EIR-fPLR linear) over the EPW's 48 hours (interpolated minute by
    // minute; mean 33.3 °C, COP 3.05-3.9) gives 3.50 MWh, + 3 CRAH fans ~1.4 kW: 3.57 MWh.
    // (This comment read ~205 kW and 3.0 MWh until 2026-12-06: the losses were taken at
    // 34 kW.) Band 3 %: the losses outdoors and the fans' share are not split by hand.
    const Json s = fixture("regression_8racks_tower_dallas_august.json");
    EXPECT_NEAR(num(s, "air_side_energy_MWh"), 3.53, 0.03 * 3.53);
    // Re-derived at d97ea3a (issue 10 workload edges, 2026-12-01, Release, GCC 12); before it
    // {1.16188, 50.4942, 72.1526, 75.630} (water at 25f5d98, the rest at the issue 9 merge).
    expectMatches(s, {1.16223, 50.5102, 72.8696, 75.392});
}

}  // namespace
}  // namespace dctwin::facility::test
