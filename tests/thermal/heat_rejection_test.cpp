// Heat rejection (thermal/heat_rejection.h): cooling tower at the CTI rating point (1e-6), off
// design against published correlations, and its water use; DOE-2 chiller; dry cooler with
// fans and adiabatic pads; economizer logic; ASHRAE classes; energy conservation and input
// ranges.
#include "thermal/heat_rejection.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string_view>
#include <vector>

#include "core/errors.h"
#include "core/units.h"
#include "core/weather/psychrometrics.h"
#include "test_components.h"
#include "thermal/water.h"

namespace dctwin::thermal {
namespace {

using units::celsiusToKelvin;

// CTI point in its own units: 95 °F air (assumed dry bulb), 78 °F wet bulb.
const AmbientAir kCti{units::fahrenheitToKelvin(95.0), units::fahrenheitToKelvin(78.0), 101325.0};

TEST(CoolingTower, CtiRatingPointGivesTheRatedApproach) {
    // CTI STD-201 point (domain-facts C2): 95 → 85 °F (35 → 29.4 °C) at 78 °F (25.6 °C) wet
    // bulb: 7 °F = 3.9 K approach.
    const CoolingTower tower(CoolingTowerSpec::fromCatalog("cti_open_tower_cell_3500kW"), 2);
    CoolingTower::Inputs in{units::fahrenheitToKelvin(95.0), tower.designWaterFlow(),
                            celsiusToKelvin(10.0), kCti};
    const CoolingTower::Outputs o = tower.evaluate(in);  // setpoint out of reach: fans at 100 %
    std::printf(
        "tower at CTI point: approach %.4f K, range %.4f K, heat %.1f kW, fan %.2f %% of "
        "heat\n",
        o.approach, in.inlet_temp - o.outlet_temp, o.heat_rejected / 1e3,
        100 * o.fan_power / o.heat_rejected);
    EXPECT_EQ(o.air_fraction, 1.0);
    // The point c was fitted to: 1e-6 relative to the rated approach and the rated heat.
    const double rated = units::fahrenheitDeltaToKelvin(7.0);
    EXPECT_NEAR(o.approach, rated, 1e-6 * rated);
    EXPECT_NEAR(in.inlet_temp - o.outlet_temp, units::fahrenheitDeltaToKelvin(10.0),
                1e-6 * units::fahrenheitDeltaToKelvin(10.0));
    EXPECT_NEAR(o.heat_rejected, 2 * 3.5e6, 1e-6 * 7e6);
    // ASHRAE 90.1 (C2): fan power ≤ ~1.3 % of the heat rejected.
    EXPECT_LT(o.fan_power / o.heat_rejected, 0.0135);
    // Energy: water loses what the air gains (Merkel enthalpy balance), 1e-9 relative.
    const double water_side =
        tower.water().massFlow(in.flow) *
        (tower.water().enthalpy(in.inlet_temp) - tower.water().enthalpy(o.outlet_temp));
    const double air_side = o.air_mass_flow * (o.air_outlet_enthalpy - o.air_inlet_enthalpy);
    EXPECT_NEAR(water_side, o.heat_rejected, 1e-9 * o.heat_rejected);
    EXPECT_NEAR(air_side, o.heat_rejected, 1e-9 * o.heat_rejected);
    // A cooler, drier day: lower wet bulb, lower leaving water.
    in.air = {celsiusToKelvin(25.0), celsiusToKelvin(18.0), 101325.0};
    EXPECT_LT(tower.evaluate(in).outlet_temp, o.outlet_temp - 3.0);
    // Fan control meets a reachable setpoint.
    in.setpoint = celsiusToKelvin(28.0);
    const CoolingTower::Outputs c = tower.evaluate(in);
    EXPECT_NEAR(c.outlet_temp, in.setpoint, 1e-6);
    EXPECT_LT(c.air_fraction, 1.0);
}

// Published off-design performance of towers rated at the CTI point: the two empirical
// approach correlations of EnergyPlus's CoolingTower:VariableSpeed, "YorkCalc" (York
// International; EnergyPlus sets it up as its counterflow model) and "CoolToolsCrossFlow"
// (CoolTools; a crossflow tower; EnergyPlus notes that CoolTools' counterflow set "does not
// work properly" and ships only the crossflow one), both empirical fits to tower performance
// data. Source: EnergyPlus Engineering Reference, "Cooling Towers: Variable Speed", empirical
// models (U.S. DOE), and the coefficients and valid ranges as published in
// src/EnergyPlus/CondenserLoopTowers.cc (https://github.com/NREL/EnergyPlus); the same numbers
// are in LBNL's Modelica Buildings library, Buildings.Fluid.HeatExchangers.CoolingTowers.
// Correlations. Each gives the approach T_out − T_wb [K] from the wet bulb T_wb [°C], the range
// T_r [K] and the water and air flow ratios FR_w, FR_a (actual/design); YorkCalc uses
// LG = FR_w/FR_a. Their reference tower is the CTI rating of our catalog cell: at
// T_wb = 25.556 °C (78 °F), T_r = 5.556 K (10 °F), FR = 1 they give 3.841 K (YorkCalc) and
// 3.889 K (CoolTools), against the rated 3.889 K (7 °F). Valid ranges (same source): YorkCalc
// −34.4…29.4 °C wet bulb, 1.1…22.2 K range, 1.1…40 K approach, FR_w 0.75…1.25, LG ≤ 8;
// CoolTools −1.0…26.7 °C, 1.1…11.1 K range and approach, FR_w 0.75…1.25.
double coolToolsApproach(double T_wb, double T_r, double FR_w, double FR_a) {
    // The 35 CoolToolsCrossFlow coefficients in the Engineering Reference's order.
    static constexpr double c[35] = {
        0.52049709836241,     -10.617046395344,     10.7292974722538,     -2.74988377158227,
        4.73629943913743,     -8.25759700874711,    1.57640938114136,     6.51119643791324,
        1.50433525206692,     -3.2888529287801,     0.0257786145353773,   0.182464289315254,
        -0.0818947291400898,  -0.215010003996285,   0.0186741309635284,   0.0536824177590012,
        -0.00270968955115031, 0.00112277498589279,  -0.00127758497497718, 0.0000760420796601607,
        1.43600088336017,     -0.5198695909109,     0.117339576910507,    1.50492810819924,
        -0.135898905926974,   -0.152577581866506,   -0.0533843828114562,  0.00493294869565511,
        -0.00796260394174197, 0.000222619828621544, -0.0543952001568055,  0.00474266879161693,
        -0.0185854671815598,  0.00115667701293848,  0.000807370664460284};
    const double a = FR_a, w = FR_w, t = T_wb, r = T_r;
    const double x[35] = {1,         a,         a * a,     a * a * a, w,         a * w,
                          a * a * w, w * w,     a * w * w, w * w * w, t,         a * t,
                          a * a * t, w * t,     a * w * t, w * w * t, t * t,     a * t * t,
                          w * t * t, t * t * t, r,         a * r,     a * a * r, w * r,
                          a * w * r, w * w * r, t * r,     a * t * r, w * t * r, t * t * r,
                          r * r,     a * r * r, w * r * r, t * r * r, r * r * r};
    double y = 0.0;
    for (int i = 0; i < 35; ++i) y += c[i] * x[i];
    return y;
}
double yorkCalcApproach(double T_wb, double T_r, double LG) {
    // The 27 YorkCalc coefficients: all products T_wb^i·T_r^j·LG^k, i, j, k = 0..2, with the
    // wet-bulb power running fastest, then the range, then LG.
    static constexpr double c[27] = {
        -0.359741205,      -0.055053608,     0.0023850432,        0.173926877,
        -0.0248473764,     0.00048430224,    -0.005589849456,     0.0005770079712,
        -0.00001342427256, 2.84765801111111, -0.121765149,        0.0014599242,
        1.680428651,       -0.0166920786,    -0.0007190532,       -0.025485194448,
        0.0000487491696,   0.00002719234152, -0.0653766255555556, -0.002278167,
        0.0002500254,      -0.0910565458,    0.00318176316,       0.000038621772,
        -0.0034285382352,  0.00000856589904, -0.000001516821552};
    double y = 0.0;
    int i = 0;
    for (int k = 0; k < 3; ++k) {
        for (int j = 0; j < 3; ++j) {
            for (int n = 0; n < 3; ++n)
                y += c[i++] * std::pow(T_wb, n) * std::pow(T_r, j) * std::pow(LG, k);
        }
    }
    return y;
}

/// The tower at full fan speed and design water flow, its inlet temperature found (bisection)
/// so that it cools the water through `range` [K] at wet bulb `T_wb`, dry bulb `T_db` [K].
CoolingTower::Outputs towerAtRange(const CoolingTower& tower, double range, double T_wb,
                                   double T_db, double flow_fraction = 1.0,
                                   double fan_fraction = 1.0) {
    CoolingTower::Inputs in{T_wb + range + 1.0,
                            flow_fraction * tower.designWaterFlow(),
                            celsiusToKelvin(1.0),
                            {T_db, T_wb, 101325.0}};
    double lo = T_wb + range, hi = T_wb + range + 30.0;
    CoolingTower::Outputs o;
    for (int i = 0; i < 100; ++i) {
        in.inlet_temp = 0.5 * (lo + hi);
        o = tower.evaluateAt(in, fan_fraction);
        (in.inlet_temp - o.outlet_temp < range ? lo : hi) = in.inlet_temp;
    }
    return o;
}

TEST(CoolingTower, OffDesignApproachAgainstPublishedCorrelations) {
    // The catalog cell (an open counterflow cell rated at the CTI point, c fitted there) at
    // wet bulbs, an air flow and a water flow away from its rating, against the two published
    // correlations above. Conditions: the CTI range of 10 °F = 5.556 K held (the inlet
    // temperature found by bisection), one cell, sea-level pressure, the dry bulb 5.5 K above
    // the wet bulb (the correlations have no dry bulb; in the model it enters through the air
    // density only: 0.5…12 K of depression move the approach at 15.6 °C wet bulb by 0.12 K,
    // 6.53…6.64 K). Unit conversions: 70/60/50 °F wet bulb = 21.111/15.556/10.000 °C.
    // Published values (evaluated from the coefficients above; range 5.556 K) and the model:
    //   T_wb [°C]  FR_w  FR_a | YorkCalc  CoolTools | model   vs York  vs CoolTools  [K]
    //   21.111     1     1    |  4.795     4.980    | 4.992   +4.1 %   +0.2 %
    //   15.556     1     1    |  6.176     6.515    | 6.577   +6.5 %   +1.0 %
    //   10.000     1     1    |  7.766     8.170    | 8.346   +7.5 %   +2.2 %
    //   25.556     1     0.75 |  5.453     4.299    | 5.272   −3.3 %  +22.6 %
    //   15.556     1     0.75 |  8.475     7.253    | 8.498   +0.3 %  +17.2 %
    //   21.111     0.8   1    |  3.624     3.708    | 3.944   +8.8 %   +6.4 %
    // Tolerance: the band the two published correlations span, widened by 5 % of the
    // approach. The two are fits to performance data of towers with the same CTI rating and
    // differ from each other by 3.7–5.2 % of the approach at these wet bulbs at design flows
    // (and by 1.2 K at 75 % air flow): that is the precision the published data carry, and the
    // 5 % also covers the ±0.06 K the unspecified dry bulb moves the model.
    // What the band does not hide (reported with issue 9, not bent here): against YorkCalc,
    // the counterflow data and so the closer match to our cell, the model's approach is high
    // by 0.20/0.40/0.58 K at 70/60/50 °F (+4.1/+6.5/+7.5 %), i.e. outside ±5 % below 60 °F;
    // and at 80 % water flow it is +8.8 %/+6.4 % above both correlations, falling by 1.05 K
    // from full flow where they fall by 1.17 K (YorkCalc) and 1.27 K (CoolTools). Braun's
    // NTU ∝ (ṁ_w/ṁ_a)^(1+n) with n = −0.6 gives too little gain from less water; n = −0.8
    // would give about 3.76 K there but put the 75 % air-flow point about 3 % above YorkCalc.
    // The 80 % water-flow point is therefore checked for direction only.
    const CoolingTower tower(CoolingTowerSpec::fromCatalog("cti_open_tower_cell_3500kW"), 1);
    const double R = units::fahrenheitDeltaToKelvin(10.0);
    // Hand check of the transcribed coefficients at their reference point.
    EXPECT_NEAR(coolToolsApproach(25.556, R, 1.0, 1.0), 3.889, 5e-4);
    EXPECT_NEAR(yorkCalcApproach(25.556, R, 1.0), 3.841, 5e-4);
    auto model = [&](double wb_C, double fw, double fa) {
        return towerAtRange(tower, R, celsiusToKelvin(wb_C), celsiusToKelvin(wb_C + 5.5), fw, fa)
            .approach;
    };
    auto inBand = [](double x, double a, double b, double rel) {
        return x >= (1.0 - rel) * std::min(a, b) && x <= (1.0 + rel) * std::max(a, b);
    };
    for (double wb : {21.111, 15.556, 10.0}) {
        const double m = model(wb, 1.0, 1.0);
        const double ct = coolToolsApproach(wb, R, 1.0, 1.0), yc = yorkCalcApproach(wb, R, 1.0);
        std::printf("tower at %.3f C wet bulb: approach %.3f K (YorkCalc %.3f, CoolTools %.3f)\n",
                    wb, m, yc, ct);
        EXPECT_TRUE(inBand(m, ct, yc, 0.05)) << wb << " C: " << m << " K";
    }
    for (double wb : {25.556, 15.556}) {
        const double m = model(wb, 1.0, 0.75);
        const double ct = coolToolsApproach(wb, R, 1.0, 0.75);
        const double yc = yorkCalcApproach(wb, R, 1.0 / 0.75);
        std::printf("tower at %.3f C, 75 %% air: approach %.3f K (YorkCalc %.3f, CoolTools %.3f)\n",
                    wb, m, yc, ct);
        EXPECT_TRUE(inBand(m, ct, yc, 0.05)) << wb << " C: " << m << " K";
    }
    const double full = model(21.111, 1.0, 1.0), part = model(21.111, 0.8, 1.0);
    std::printf("tower at 21.111 C, 80 %% water: approach %.3f K (YorkCalc %.3f, CoolTools %.3f)\n",
                part, yorkCalcApproach(21.111, R, 0.8), coolToolsApproach(21.111, R, 0.8, 1.0));
    EXPECT_LT(part, full - 0.5);  // direction only; see the disagreement above
}

TEST(CoolingTower, EvaporationBlowdownAndMakeUp) {
    const CoolingTower tower(CoolingTowerSpec::fromCatalog("cti_open_tower_cell_3500kW"), 1);
    const CoolingTower::Inputs in{units::fahrenheitToKelvin(95.0), tower.designWaterFlow(),
                                  celsiusToKelvin(10.0), kCti};
    const CoolingTower::Outputs o = tower.evaluate(in);
    // Per kWh of heat: below 3,600/2,430 = 1.48 L, the all-latent limit (C3).
    const double L_per_kWh = o.evaporation_rate * 1e3 / (o.heat_rejected / 3.6e6);
    EXPECT_LT(L_per_kWh, 1.48);
    EXPECT_GT(L_per_kWh, 1.1);
    // Rule of thumb (C3/C4): E [m³/h] = 0.00085 · 1.8 · C [m³/h] · R [°C], within 15 %.
    const double C_m3h = in.flow * 3600.0, R = in.inlet_temp - o.outlet_temp;
    const double rule = 0.00085 * 1.8 * C_m3h * R;
    const double model = o.evaporation_rate * 3600.0;
    std::printf("tower evaporation: %.3f L/kWh; %.3f m3/h vs rule of thumb %.3f m3/h (%.1f %%)\n",
                L_per_kWh, model, rule, 100 * (model / rule - 1));
    EXPECT_NEAR(model, rule, 0.15 * rule);
    // Drift from the catalog: 2e-5 of circulation; blowdown + drift = E/(COC − 1);
    // make-up = E·COC/(COC − 1) (C4).
    EXPECT_NEAR(o.drift_rate, 2e-5 * tower.water().massFlow(in.flow) / kMakeupWaterDensity, 1e-15);
    EXPECT_NEAR(o.blowdown_rate + o.drift_rate, o.evaporation_rate / 3.0, 1e-15);
    EXPECT_NEAR(o.makeup_rate, o.evaporation_rate * 4.0 / 3.0, 1e-15);
    // Without drift the blowdown is E/(COC − 1) exactly.
    const CoolingTower clean(CoolingTowerSpec::fromCatalog(
                                 "cti_open_tower_cell_3500kW",
                                 Json{{"drift_fraction", 0.0}, {"cycles_of_concentration", 5.0}}),
                             1);
    const CoolingTower::Outputs c = clean.evaluate(in);
    EXPECT_NEAR(c.blowdown_rate, c.evaporation_rate / 4.0, 1e-15);
    // The plain function: E = f_lat·Q/h_fg.
    const TowerWater w = towerWaterBalance(1e6, 0.85, 2.43e6, 40.0, 0.0, 4.0);
    EXPECT_NEAR(w.evaporation * kMakeupWaterDensity, 0.85 * 1e6 / 2.43e6, 1e-15);
    EXPECT_THROW(towerWaterBalance(1e6, 0.85, 2.43e6, 40.0, 0.0, 1.0), InputError);
}

TEST(Chiller, Doe2CentrifugalGivesCop55AtTheAhriPoint) {
    const Chiller ch(ChillerSpec::fromCatalog("doe2_centrifugal_5_50cop"));
    // Full load at 6.67 °C leaving chilled water, 29.4 °C entering condenser water (C5).
    const double T_chw = celsiusToKelvin(6.67), T_cw = celsiusToKelvin(29.4);
    const double cap = ch.evaluate(1e9, T_chw, T_cw).capacity;
    const Chiller::Outputs o = ch.evaluate(cap, T_chw, T_cw);
    std::printf("DOE-2 centrifugal: COP %.4f at 6.67/29.4 C, capacity %.1f kW\n", o.cop, cap / 1e3);
    EXPECT_NEAR(o.cop, 5.5, 0.01 * 5.5);
    EXPECT_NEAR(o.plr, 1.0, 1e-12);
    EXPECT_NEAR(o.heat_to_condenser, o.cooling + o.power, 1e-9);  // energy
    // Part load: EIRFPLR(0.5) = 0.2229 + 0.3134·0.5 + 0.4637·0.25 = 0.4955 of full power.
    const Chiller::Outputs h = ch.evaluate(0.5 * cap, T_chw, T_cw);
    EXPECT_NEAR(h.power / o.power, 0.222903 + 0.313387 * 0.5 + 0.463710 * 0.25, 1e-9);
    // Warm water (W32+) is outside the curves: inputs are clamped and flagged.
    const Chiller::Outputs warm = ch.evaluate(0.5 * cap, celsiusToKelvin(20.0), T_cw);
    const Chiller::Outputs edge = ch.evaluate(0.5 * cap, celsiusToKelvin(10.0), T_cw);
    EXPECT_TRUE(warm.clamped);
    EXPECT_FALSE(edge.clamped);
    EXPECT_NEAR(warm.power, edge.power, 1e-9);
    // Carnot fraction: COP = 0.55·T_evap/(T_cond − T_evap), T_evap = T_chw − 2, T_cond = T_cw + 6.
    const Chiller carnot(ChillerSpec::fromCatalog("carnot_centrifugal"));
    const Chiller::Outputs k = carnot.evaluate(1e6, T_chw, T_cw);
    const double Te = T_chw - 2.0, Tc = T_cw + 6.0;
    EXPECT_NEAR(k.cop, 0.55 * Te / (Tc - Te), 1e-12);
    EXPECT_THROW(ch.evaluate(-1.0, T_chw, T_cw), InputError);
}

TEST(DryCooler, AGlycolInTheTubesCostsCapacityAsManufacturersGlycolFactorsSay) {
    // The water-rated unit run on PG40 at its rating point (45 °C in, the rated volume flow,
    // 27 °C air, fans at full speed). Tube film 0.393 of water's (Dittus–Boelter at 40 °C,
    // tests/thermal/hydraulics_test.cpp), holding a quarter of the rated resistance:
    // UA/UA_rated = 1/(0.75 + 0.25/0.393) = 0.721; and ρ·c_p is 7 % lower. Independent: chiller
    // makers' capacity factors for 40 % propylene glycol, 0.88 (Airedale DeltaChill manual) and
    // 0.898 (York YCWL, 40 % by weight), for units whose liquid side holds a comparable share
    // of the resistance. Band 0.83–0.93 around them.
    const DryCoolerSpec spec = DryCoolerSpec::fromCatalog("generic_dry_cooler_1MW");
    const DryCooler water(spec, 2), same(spec, 2, "water"), pg40(spec, 2, "PG40");
    const DryCooler::Inputs in{celsiusToKelvin(45.0),
                               water.designWaterFlow(),
                               celsiusToKelvin(20.0),  // out of reach: full fans
                               {celsiusToKelvin(27.0), celsiusToKelvin(19.0), 101325.0}};
    const DryCooler::Outputs w = water.evaluate(in), s = same.evaluate(in), g = pg40.evaluate(in);
    // Naming the rated liquid changes nothing, to the bit.
    EXPECT_EQ(s.heat_rejected, w.heat_rejected);
    EXPECT_EQ(s.outlet_temp, w.outlet_temp);
    EXPECT_EQ(same.liquidFilmFactor(), 1.0);
    EXPECT_NEAR(pg40.liquidFilmFactor(), 0.3931, 0.0005);
    EXPECT_EQ(pg40.designWaterFlow(), water.designWaterFlow());
    const double ratio = g.heat_rejected / w.heat_rejected;
    std::printf("PG40 / water at the rating point: %.4f\n", ratio);
    EXPECT_GT(ratio, 0.83);
    EXPECT_LT(ratio, 0.93);
    // The outlet follows from the glycol's own enthalpy: heat = ṁ·(h(45 °C) − h(T_out)).
    const Coolant& pg = pg40.coolant();
    EXPECT_NEAR(pg.massFlow(in.flow) * (pg.enthalpy(in.inlet_temp) - pg.enthalpy(g.outlet_temp)),
                g.heat_rejected, 1e-9 * g.heat_rejected);
}

TEST(DryCooler, RatingPointFanLawsAndStaging) {
    const DryCooler dc(DryCoolerSpec::fromCatalog("generic_dry_cooler_1MW"), 2);
    DryCooler::Inputs in{celsiusToKelvin(45.0),
                         dc.designWaterFlow(),
                         celsiusToKelvin(20.0),
                         {celsiusToKelvin(27.0), celsiusToKelvin(19.0), 101325.0}};
    const DryCooler::Outputs full = dc.evaluate(in);
    // Rating point: 45 → 35 °C at 27 °C ambient (8 K approach, C2), 2 × 1 MW.
    EXPECT_NEAR(full.outlet_temp, celsiusToKelvin(35.0), 1e-6);
    EXPECT_NEAR(full.heat_rejected, 2e6, 1e-6 * 2e6);
    EXPECT_NEAR(full.fan_power, 2 * 20e3, 1e-9);
    // Energy: water loses what the air gains, 1e-9 relative.
    EXPECT_NEAR(full.heat_to_air, full.heat_rejected, 1e-9 * full.heat_rejected);
    // Off design, 40 °C water at the same flows, full fans and 27 °C air: UA depends on the
    // flows alone (water^0.8, air^0.6), the air's density and c_p are the rating's and the
    // water's mass flow is the rating's, so ε and C_min are unchanged and the heat scales
    // with the entering difference (ITD), as dry-cooler catalogues scale capacity:
    // 1 MW × (40 − 27)/(45 − 27) = 722.2 kW per unit. Water's c_p at 40 against 45 °C
    // (4,178.5 against 4,180.2 J/(kg·K)) moves C_r by 0.04 % and ε by less; measured
    // −0.005 %. Band 0.1 %: a UA that varied with the water temperature, or a heat not
    // linear in the ITD, would trip it.
    DryCooler::Inputs off = in;
    off.inlet_temp = celsiusToKelvin(40.0);
    off.setpoint = celsiusToKelvin(20.0);  // out of reach: fans stay at full speed
    const DryCooler::Outputs o40 = dc.evaluate(off);
    EXPECT_NEAR(o40.air_fraction, 1.0, 1e-12);
    EXPECT_NEAR(o40.heat_rejected, 2e6 * 13.0 / 18.0, 0.001 * 2e6 * 13.0 / 18.0);
    // Fan power ∝ speed³ above the minimum speed; staging below it.
    EXPECT_NEAR(dc.evaluateAt(in, 0.5, 0.0).fan_power, full.fan_power / 8.0, 1e-9);
    const DryCooler::Outputs staged = dc.evaluateAt(in, 0.1, 0.0);
    EXPECT_EQ(staged.fans_running, 10);  // half of 20 fans at the 0.2 minimum speed
    EXPECT_NEAR(staged.fan_power, 10 * 2e3 * 0.008, 1e-9);
    // Control: a reachable setpoint is met exactly with partial air flow.
    in.setpoint = celsiusToKelvin(38.0);
    const DryCooler::Outputs c = dc.evaluate(in);
    EXPECT_NEAR(c.outlet_temp, in.setpoint, 1e-6);
    EXPECT_GT(c.air_fraction, 0.0);
    EXPECT_LT(c.air_fraction, 1.0);
    EXPECT_EQ(c.setpoint_unmet, 0.0);
    // Air warmer than the water: bypass, never heat the water.
    in.air = {celsiusToKelvin(50.0), celsiusToKelvin(20.0), 101325.0};
    const DryCooler::Outputs hot = dc.evaluate(in);
    EXPECT_EQ(hot.heat_rejected, 0.0);
    EXPECT_EQ(hot.outlet_temp, in.inlet_temp);
    EXPECT_GT(hot.setpoint_unmet, 0.0);
}

TEST(DryCooler, FanSearchMeetsTheSetpointToRoundOffAcrossItsRange) {
    // The fan search (Newton on the heat rejected, thermal/heat_rejection.cpp) must end at
    // round-off, not at a loose tolerance: the integrator differentiates the plant by finite
    // differences of ~1e-6 K. Across ambient 0–30 °C, inlets 30–45 °C and 10–150 % of the
    // design water flow (water the smaller stream at the low end, the air at the high end),
    // wherever the fans modulate the outlet is the setpoint within 1e-9 K. The search's first
    // trial uses the heat's slope at no air, ΔT·dC_a/df, which holds for an air-side exponent
    // below 1 (NTU grows without bound as the air stops); at exponent 1 that slope is not
    // known and the search must still end at round-off.
    for (double exponent : {0.6, 1.0}) {
        DryCoolerSpec spec = DryCoolerSpec::fromCatalog("generic_dry_cooler_1MW");
        spec.air_flow_exponent = exponent;
        const DryCooler dc(spec, 2);
        int modulating = 0;
        for (double ambient : {0.0, 15.0, 30.0}) {
            for (double inlet : {30.0, 38.0, 45.0}) {
                for (double flow : {0.1, 0.5, 1.0, 1.5}) {
                    DryCooler::Inputs in{
                        celsiusToKelvin(inlet),
                        flow * dc.designWaterFlow(),
                        celsiusToKelvin(inlet - 4.0),
                        {celsiusToKelvin(ambient), celsiusToKelvin(ambient - 5.0), 101325.0}};
                    const DryCooler::Outputs o = dc.evaluate(in);
                    if (o.air_fraction > 0.0 && o.air_fraction < 1.0) {
                        ++modulating;
                        EXPECT_NEAR(o.outlet_temp, in.setpoint, 1e-9)
                            << ambient << " °C ambient, " << inlet << " °C in, " << flow
                            << ", exponent " << exponent;
                    }
                }
            }
        }
        std::printf("fan search, exponent %.1f: %d of 36 conditions modulate\n", exponent,
                    modulating);
        EXPECT_GE(modulating, 28);  // of 36 (31 measured at 0.6): the cases the search serves
    }
    // The slope at no air itself: the heat at a small fan fraction f is ΔT·C_a(f) to within the
    // coil's 1 − ε (e^{−NTU} for the air the far smaller stream, NTU ∝ f^{−0.4}).
    const DryCooler dc(DryCoolerSpec::fromCatalog("generic_dry_cooler_1MW"), 2);
    const DryCooler::Inputs in{celsiusToKelvin(40.0),
                               dc.designWaterFlow(),
                               celsiusToKelvin(30.0),
                               {celsiusToKelvin(20.0), celsiusToKelvin(12.0), 101325.0}};
    const double f = 1e-4;
    const DryCooler::Outputs o = dc.evaluateAt(in, f, 0.0);
    const double C_a = o.air_mass_flow *
                       (1006.0 + 1860.0 * psychro::humidityRatioFromWetBulb(
                                              in.air.dry_bulb, in.air.wet_bulb, in.air.pressure));
    EXPECT_NEAR(o.heat_rejected, C_a * (in.inlet_temp - in.air.dry_bulb), 1e-9 * o.heat_rejected);
}

TEST(DryCooler, AdiabaticPadsSaveWaterFirstAndAreAdiabatic) {
    const DryCooler dc(DryCoolerSpec::fromCatalog("generic_adiabatic_dry_cooler_1MW"), 1);
    const AmbientAir hot{celsiusToKelvin(40.0), celsiusToKelvin(22.0), 101325.0};
    DryCooler::Inputs in{celsiusToKelvin(45.0), dc.designWaterFlow(), celsiusToKelvin(36.0), hot};
    const DryCooler::Outputs o = dc.evaluate(in);
    // Dry at 40 °C cannot bring 45 °C water to 36 °C: the pads wet just enough.
    EXPECT_NEAR(o.outlet_temp, in.setpoint, 1e-6);
    EXPECT_EQ(o.air_fraction, 1.0);
    EXPECT_GT(o.adiabatic_fraction, 0.0);
    EXPECT_LT(o.adiabatic_fraction, 1.0);
    EXPECT_GT(o.spray_water_rate, 0.0);
    // Pre-cooled air lies on the same wet-bulb line, no colder than η_sat allows.
    EXPECT_GT(o.air_inlet_temp, hot.wet_bulb + 0.2 * (hot.dry_bulb - hot.wet_bulb) - 1e-9);
    EXPECT_LT(o.air_inlet_temp, hot.dry_bulb);
    // Adiabatic saturation: the air gains exactly the enthalpy of the water it took up,
    // ṁ_da·(h_out − h_in) = E·h_f(T_wb), with h_f = 4186·t_wb (ASHRAE eq. 33), 1e-9.
    const double W_in = psychro::humidityRatioFromWetBulb(hot.dry_bulb, hot.wet_bulb, hot.pressure);
    const double W_pad =
        psychro::humidityRatioFromWetBulb(o.air_inlet_temp, hot.wet_bulb, hot.pressure);
    const double dh = psychro::moistAirEnthalpy(o.air_inlet_temp, W_pad) -
                      psychro::moistAirEnthalpy(hot.dry_bulb, W_in);
    const double E = o.air_mass_flow * (W_pad - W_in);
    EXPECT_NEAR(o.air_mass_flow * dh, E * 4186.0 * units::kelvinToCelsius(hot.wet_bulb),
                1e-6 * E * 4186.0 * 22.0);
    EXPECT_NEAR(o.evaporation_rate * kMakeupWaterDensity, E, 1e-12);
    // Where the fans alone suffice, no water.
    in.setpoint = celsiusToKelvin(43.0);
    EXPECT_EQ(dc.evaluate(in).spray_water_rate, 0.0);
    // Below the switch-over (28 °C ± 0.5 K) the pads stay dry even when short of the setpoint.
    in.setpoint = celsiusToKelvin(30.0);
    in.air = {celsiusToKelvin(27.0), celsiusToKelvin(20.0), 101325.0};
    EXPECT_EQ(dc.evaluate(in).spray_water_rate, 0.0);
}

TEST(DryCooler, PadSearchStepsOnTheExactSlopeAndMeetsTheSetpointToRoundOff) {
    // The pad search (Newton along the ambient wet bulb) needs ∂Q/∂pads: the air inlet's
    // temperature, specific volume and heat capacity all move with the pads. Checked against
    // central differences of evaluateAt over dry and humid air, air or water the smaller
    // stream, with and without the fans at full speed; then the search: wherever the pads
    // modulate, the outlet is the setpoint within 1e-9 K (as the fan search).
    const DryCooler dc(DryCoolerSpec::fromCatalog("generic_adiabatic_dry_cooler_1MW"), 2);
    int checked = 0;
    for (const auto& [db, wb] :
         {std::pair{40.0, 18.0}, std::pair{35.0, 27.0}, std::pair{45.0, 24.0}}) {
        const AmbientAir air{celsiusToKelvin(db), celsiusToKelvin(wb), 101325.0};
        for (double flow : {0.2, 1.0, 1.5}) {
            DryCooler::Inputs in{celsiusToKelvin(50.0), flow * dc.designWaterFlow(),
                                 celsiusToKelvin(40.0), air};
            for (double f : {0.4, 1.0}) {
                // At 0 (dry pads: the pad search's lower end) from the right.
                for (double pads : {0.0, 0.1, 0.5, 0.9}) {
                    const double h = 1e-6;
                    const double fd = pads == 0.0
                                          ? (-3.0 * dc.evaluateAt(in, f, 0.0).heat_rejected +
                                             4.0 * dc.evaluateAt(in, f, h).heat_rejected -
                                             dc.evaluateAt(in, f, 2 * h).heat_rejected) /
                                                (2 * h)
                                          : (dc.evaluateAt(in, f, pads + h).heat_rejected -
                                             dc.evaluateAt(in, f, pads - h).heat_rejected) /
                                                (2 * h);
                    const double slope = dc.padHeatSlope(in, f, pads);
                    EXPECT_NEAR(slope, fd, 1e-6 * std::abs(fd) + 1e-3)
                        << db << "/" << wb << " °C, flow " << flow << ", f " << f << ", pads "
                        << pads;
                    ++checked;
                }
            }
            // The controlled unit, at setpoints the pads serve (between dry and fully wet at
            // full fans).
            const double Q_dry = dc.evaluateAt(in, 1.0, 0.0).heat_rejected;
            const double Q_wet = dc.evaluateAt(in, 1.0, dc.padsAllowed(air.dry_bulb)).heat_rejected;
            ASSERT_GT(Q_wet, Q_dry);
            for (double share : {0.1, 0.5, 0.9}) {
                const double Q = Q_dry + share * (Q_wet - Q_dry);
                const double dh = Q / dc.coolant().massFlow(in.flow);
                in.setpoint =
                    dc.coolant().temperatureFromEnthalpy(dc.coolant().enthalpy(in.inlet_temp) - dh);
                const DryCooler::Outputs o = dc.evaluate(in);
                EXPECT_GT(o.adiabatic_fraction, 0.0);
                EXPECT_LT(o.adiabatic_fraction, dc.padsAllowed(air.dry_bulb));
                EXPECT_NEAR(o.outlet_temp, in.setpoint, 1e-9)
                    << db << "/" << wb << " °C, flow " << flow << ", share " << share;
            }
        }
    }
    EXPECT_EQ(checked, 72);
}

TEST(DryCooler, FanLimitCapsTheFansByTheAffinityLawAndThePadsTakeTheRest) {
    // An operator's cap at 60 % of rated fan speed: the fans draw at most 0.6³ = 21.6 % of
    // their full-speed power (fan law, domain-facts C2), and where full speed alone met the
    // setpoint the pads now spray to make up the air flow the fans no longer move.
    const DryCooler dc(DryCoolerSpec::fromCatalog("generic_adiabatic_dry_cooler_1MW"), 1);
    const AmbientAir hot{celsiusToKelvin(40.0), celsiusToKelvin(22.0), 101325.0};
    DryCooler::Inputs in{celsiusToKelvin(45.0), dc.designWaterFlow(), celsiusToKelvin(43.0), hot};
    const DryCooler::Outputs free = dc.evaluate(in);
    in.max_fan_speed = 1.0;
    const double full_fans = dc.evaluateAt(in, 1.0, 0.0).fan_power;
    in.max_fan_speed = 0.6;
    const DryCooler::Outputs capped = dc.evaluate(in);
    EXPECT_EQ(free.spray_water_rate, 0.0);
    EXPECT_LE(capped.fan_power, 0.216 * full_fans * (1 + 1e-9));
    EXPECT_GT(capped.spray_water_rate, 0.0);
    EXPECT_NEAR(capped.outlet_temp, in.setpoint, 1e-6);
    // A cooling tower with its fans capped runs warmer when the cap binds.
    const CoolingTower tower(CoolingTowerSpec::fromCatalog("cti_open_tower_cell_3500kW"), 1);
    const AmbientAir warm{celsiusToKelvin(30.0), celsiusToKelvin(24.0), 101325.0};
    CoolingTower::Inputs ti{celsiusToKelvin(36.0), tower.designWaterFlow(), celsiusToKelvin(25.0),
                            warm};
    const double T_free = tower.evaluate(ti).outlet_temp;
    ti.max_fan_speed = 0.3;
    EXPECT_GT(tower.evaluate(ti).outlet_temp, T_free + 0.1);
}

TEST(HeatRejection, ControlledResultIsTheUnitAtItsChosenSettingBitForBit) {
    // The fan and pad searches compute the water side once, take the full-air end of their
    // bracket from the caller and return their last trial when they stop on it (issue 12: the
    // search was a third of the annual reference run). What they return must still be the
    // uncontrolled unit at the setting they chose, to the last bit: the annual figures move by
    // up to 5e-4 when a right-hand side moves by round-off (docs/decisions.md). (That the
    // trials equal the unit before the change was checked on every shipped scenario: summaries
    // byte for byte.) Covers fans modulating, pads modulating, the fan limit, bypass and water
    // too cold to cool.
    const DryCooler dc(DryCoolerSpec::fromCatalog("generic_adiabatic_dry_cooler_1MW"), 2);
    const CoolingTower tower(CoolingTowerSpec::fromCatalog("cti_open_tower_cell_3500kW"), 1);
    auto same = [](double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); };
    int dry_modulating = 0, pads_modulating = 0, pads_short = 0, tower_modulating = 0;
    int roots_above = 0;  // searches whose root's outlet reads above the setpoint
    for (double T_db : {-5.0, 12.0, 27.8, 28.2, 35.0, 44.0}) {
        for (double T_in : {30.0, 38.0, 46.0}) {
            for (double T_set : {26.0, 33.0, 40.0}) {
                for (double fan_max : {1.0, 0.55}) {
                    const AmbientAir air{celsiusToKelvin(T_db),
                                         celsiusToKelvin(T_db - 0.35 * std::max(T_db, 4.0)),
                                         101325.0};
                    SCOPED_TRACE(::testing::Message()
                                 << "dry bulb " << T_db << " C, inlet " << T_in << " C, setpoint "
                                 << T_set << " C, fans ≤ " << fan_max);
                    const DryCooler::Inputs in{celsiusToKelvin(T_in), 0.8 * dc.designWaterFlow(),
                                               celsiusToKelvin(T_set), air, fan_max};
                    const DryCooler::Outputs o = dc.evaluate(in);
                    const DryCooler::Outputs r =
                        dc.evaluateAt(in, o.air_fraction, o.adiabatic_fraction);
                    for (auto m :
                         {&DryCooler::Outputs::outlet_temp, &DryCooler::Outputs::heat_rejected,
                          &DryCooler::Outputs::fan_power, &DryCooler::Outputs::air_inlet_temp,
                          &DryCooler::Outputs::air_outlet_temp, &DryCooler::Outputs::air_mass_flow,
                          &DryCooler::Outputs::heat_to_air, &DryCooler::Outputs::evaporation_rate,
                          &DryCooler::Outputs::spray_water_rate,
                          &DryCooler::Outputs::effectiveness}) {
                        EXPECT_TRUE(same(o.*m, r.*m)) << o.*m << " vs " << r.*m;
                    }
                    EXPECT_EQ(o.fans_running, r.fans_running);
                    const bool fans_partial = o.air_fraction > 0.0 && o.air_fraction < fan_max;
                    const bool pads_partial = o.adiabatic_fraction > 0.0 &&
                                              o.adiabatic_fraction < dc.padsAllowed(air.dry_bulb);
                    dry_modulating += fans_partial && o.adiabatic_fraction == 0.0;
                    pads_modulating += pads_partial;
                    // A unit modulating to its setpoint misses nothing, though the outlet at
                    // its root may read ulps above the setpoint (the uncontrolled unit at that
                    // setting reports those ulps); at its limit it reports the miss as is.
                    if (fans_partial || pads_partial) {
                        EXPECT_EQ(o.setpoint_unmet, 0.0);
                        EXPECT_NEAR(o.outlet_temp, in.setpoint, 1e-9);
                        roots_above += o.outlet_temp > in.setpoint;
                    } else {
                        EXPECT_TRUE(same(o.setpoint_unmet, r.setpoint_unmet));
                    }
                    // The control never cools the water below its setpoint (beyond the
                    // searches' round-off): in particular fully wet pads at the fans' limit are
                    // the answer only where they cannot reach it. Checked on the outlet, not on
                    // the heat the regime tests compare.
                    if (T_in > T_set) {
                        EXPECT_GE(o.outlet_temp, in.setpoint - 1e-9);
                    }
                    // Fully wet at the fans' limit and still short: the unit as it stands.
                    pads_short += o.adiabatic_fraction > 0.0 &&
                                  o.adiabatic_fraction == dc.padsAllowed(air.dry_bulb) &&
                                  o.air_fraction == fan_max && o.setpoint_unmet > 0.0;
                    const CoolingTower::Inputs ti{celsiusToKelvin(T_in), tower.designWaterFlow(),
                                                  celsiusToKelvin(T_set), air, fan_max};
                    const CoolingTower::Outputs t = tower.evaluate(ti);
                    const CoolingTower::Outputs tr = tower.evaluateAt(ti, t.air_fraction);
                    EXPECT_TRUE(same(t.outlet_temp, tr.outlet_temp));
                    EXPECT_TRUE(same(t.fan_power, tr.fan_power));
                    EXPECT_TRUE(same(t.makeup_rate, tr.makeup_rate));
                    const bool tower_partial = t.air_fraction > 0.0 && t.air_fraction < fan_max;
                    tower_modulating += tower_partial;
                    if (tower_partial) {
                        EXPECT_EQ(t.setpoint_unmet, 0.0);
                        EXPECT_NEAR(t.outlet_temp, ti.setpoint, 1e-9);
                        roots_above += t.outlet_temp > ti.setpoint;
                    } else {
                        EXPECT_TRUE(same(t.setpoint_unmet, tr.setpoint_unmet));
                    }
                }
            }
        }
    }
    // The grid reaches every search (counts as of this grid; each must be exercised).
    EXPECT_GE(dry_modulating, 10);
    EXPECT_GE(pads_modulating, 3);
    EXPECT_GE(pads_short, 3);
    EXPECT_GE(tower_modulating, 10);
    EXPECT_GE(roots_above, 1);  // 4 on this grid: what setpoint_unmet once read as a miss
    std::printf(
        "searches checked: %d fan, %d pad (%d fully wet and short), %d tower; %d roots "
        "read above the setpoint\n",
        dry_modulating, pads_modulating, pads_short, tower_modulating, roots_above);
}

TEST(HeatRejection, NoNanAcrossTheDocumentedRangeAndClearErrorsOutside) {
    const DryCooler dc(DryCoolerSpec::fromCatalog("generic_adiabatic_dry_cooler_1MW"), 2);
    const CoolingTower tower(CoolingTowerSpec::fromCatalog("cti_open_tower_cell_3500kW"), 1);
    for (double db : {-30.0, 0.0, 20.0, 35.0, 50.0}) {
        for (double dep : {0.0, 5.0, 20.0}) {
            for (double T_in : {10.0, 30.0, 45.0, 60.0}) {
                for (double flow : {0.0, 0.5, 1.2}) {
                    const AmbientAir a{celsiusToKelvin(db), celsiusToKelvin(db - dep), 101325.0};
                    // Outside the documented range (drier than dry air): an error, tested below.
                    if (psychro::humidityRatioFromWetBulb(a.dry_bulb, a.wet_bulb, a.pressure) < 0) {
                        continue;
                    }
                    const auto o = dc.evaluate({celsiusToKelvin(T_in), flow * dc.designWaterFlow(),
                                                celsiusToKelvin(30.0), a});
                    for (double v : {o.outlet_temp, o.heat_rejected, o.fan_power,
                                     o.spray_water_rate, o.air_inlet_temp, o.air_fraction}) {
                        ASSERT_TRUE(std::isfinite(v)) << db << " " << dep << " " << T_in;
                    }
                    const auto t =
                        tower.evaluate({celsiusToKelvin(T_in), flow * tower.designWaterFlow(),
                                        celsiusToKelvin(25.0), a});
                    for (double v : {t.outlet_temp, t.heat_rejected, t.fan_power, t.makeup_rate}) {
                        ASSERT_TRUE(std::isfinite(v)) << db << " " << dep << " " << T_in;
                    }
                    EXPECT_GE(t.makeup_rate, 0.0);
                }
            }
        }
    }
    try {
        dc.evaluate({celsiusToKelvin(40.0),
                     0.01,
                     celsiusToKelvin(30.0),
                     {celsiusToKelvin(70.0), celsiusToKelvin(20.0), 101325.0}});
        FAIL();
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("dry bulb"), std::string::npos) << e.what();
    }
    EXPECT_THROW(tower.evaluate({celsiusToKelvin(40.0),
                                 0.01,
                                 celsiusToKelvin(30.0),
                                 {celsiusToKelvin(30.0), celsiusToKelvin(35.0), 101325.0}}),
                 InputError);  // wet bulb above dry bulb
    EXPECT_THROW(tower.evaluate({celsiusToKelvin(40.0),
                                 0.01,
                                 celsiusToKelvin(30.0),
                                 {celsiusToKelvin(0.0), celsiusToKelvin(-20.0), 101325.0}}),
                 InputError);  // drier than dry air
    EXPECT_THROW(dc.evaluate({celsiusToKelvin(40.0), -0.01, celsiusToKelvin(30.0), kCti}),
                 InputError);
    EXPECT_THROW(DryCoolerSpec::fromCatalog("generic_dry_cooler_1MW", Json{{"fans_per_unit", 0}}),
                 InputError);
}

TEST(HeatRejection, EconomizerLogicTrimChillerAndAshraeClasses) {
    EXPECT_EQ(economizerMode(313.0, 303.0, 305.0), EconomizerMode::Economizer);
    EXPECT_EQ(economizerMode(313.0, 308.0, 305.0), EconomizerMode::Integrated);
    EXPECT_EQ(economizerMode(313.0, 314.0, 305.0), EconomizerMode::Mechanical);
    // ASHRAE TC 9.9 classes (C1).
    EXPECT_NEAR(loadAshraeClass("W17").max_supply_temp, celsiusToKelvin(17), 1e-12);
    EXPECT_NEAR(loadAshraeClass("W45").max_supply_temp, celsiusToKelvin(45), 1e-12);
    EXPECT_NEAR(loadAshraeClass("W32").min_supply_temp, celsiusToKelvin(2), 1e-12);
    EXPECT_NEAR(facilitySupplySetpoint(loadAshraeClass("W32"), 1.0), celsiusToKelvin(31), 1e-12);
    EXPECT_THROW(loadAshraeClass("W50"), InputError);
    // Trim chiller: water at 34 °C after the dry cooler, setpoint 27 °C (W27), 40 kg/s.
    const testing::TrimChillerComponent trim(
        "trim", Chiller(ChillerSpec::fromCatalog("carnot_centrifugal")), Coolant::byName("water"));
    // Inputs and outputs by port name, not by position.
    const auto run = [&trim](double inlet_C) {
        std::vector<double> u(trim.inputs().size()), y(trim.outputs().size());
        u[trim.inputIndex("inlet_temp")] = celsiusToKelvin(inlet_C);
        u[trim.inputIndex("loop_return_temp")] = celsiusToKelvin(38);
        u[trim.inputIndex("flow")] = 0.04;
        u[trim.inputIndex("setpoint")] = celsiusToKelvin(27);
        u[trim.inputIndex("condenser_temp")] = celsiusToKelvin(30);
        trim.computeOutputs(0, {}, u, y);
        return [&trim, y](std::string_view name) { return y[trim.outputIndex(name)]; };
    };
    const auto at34 = run(34);
    EXPECT_NEAR(at34("outlet_temp"), celsiusToKelvin(27), 1e-9);
    EXPECT_EQ(at34("mode"), 1.0);  // integrated
    EXPECT_NEAR(at34("heat_to_condenser"), at34("cooling") + at34("power"), 1e-9);
    const auto at25 = run(25);
    EXPECT_EQ(at25("power"), 0.0);  // economizer alone
    EXPECT_EQ(at25("outlet_temp"), celsiusToKelvin(25));
}

}  // namespace
}  // namespace dctwin::thermal
