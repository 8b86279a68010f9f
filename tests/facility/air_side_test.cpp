// The air side of the reference site over a year (issue 10): CRAH fans and air-cooled chillers
// from the catalog curve, with the air-side economizer, against a hand calculation written
// here from the EPW hours; economizer hours against an EPW count.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "core/units.h"
#include "core/weather/epw.h"
#include "test_util.h"

namespace dctwin::facility::test {
namespace {

using units::celsiusToKelvin;
using units::kelvinToCelsius;

/// Hourly means of a 10-minute series over a 365-day year (sample k stands for the interval
/// ending at time[k]).
std::vector<double> hourlyMeans(const ResultSet& ts, const Channel& c) {
    std::vector<double> sum(8760, 0.0), n(8760, 0.0);
    for (std::size_t k = 1; k < ts.time.size(); ++k) {
        const double t_mid = 0.5 * (ts.time[k - 1] + ts.time[k]);
        const auto h = static_cast<std::size_t>(std::clamp(t_mid / 3600.0, 0.0, 8759.0));
        sum[h] += 0.5 * (c.values[k - 1] + c.values[k]);
        n[h] += 1.0;
    }
    for (std::size_t h = 0; h < sum.size(); ++h) sum[h] /= std::max(1.0, n[h]);
    return sum;
}

TEST(AirSide, ReferenceYearMatchesAHandCalculationFromTheEpwAndTheChillerCurve) {
    const RunOutcome r = run(reference());
    const Json& s = r.summary;
    const ResultSet& ts = r.report.timeseries;
    const Channel* rack_air = ts.find("cooling", "heat_to_air");
    const Channel* it = ts.find("power", "it_power");
    const Channel* cdu = ts.find("cooling", "cdu_pump_power");
    ASSERT_TRUE(rack_air && it && cdu);

    // ---- Hand calculation ------------------------------------------------------------
    // Air load per hour: the racks' heat to air (the twin's own rack figure, 10 % of rack
    // heat, racks.json), fabric switches outside the racks and the 150 kW of other loads
    // (scenario), CDU pump losses (1 − 0.6 wire-to-water, cdus.json vertiv_xdu1350) and the
    // indoor electrical losses, estimated as 3.3 % of IT power (double-conversion UPS ~97 %
    // at mid load plus ~0.3 % busway and feeds, domain-facts D1).
    const Json* crah_row = findRow(s["sizing"]["cooling"], "air_side_crah");
    ASSERT_NE(crah_row, nullptr);
    const double n_crah = (*crah_row)["count"].get<double>();
    const double fabric = num(s, "fabric_power_kW") * 1e3;
    const double other = 150e3;
    // CRAH record crah_150kW (air_side.json): 150 kW, 5 kW fans at 10 m³/s; rating 27 °C
    // room on 18 °C water → 9 K coil approach; return air = 18 °C supply + (155 kW)/(ρ·V̇·c_p).
    const double Q_r = 150e3, P_r = 5e3;
    const double rho = 101325.0 / (287.042 * 300.15);
    const double T_s = 18.0, T_r = T_s + (Q_r + P_r) / (rho * 10.0 * 1006.0);
    const double T_chw = T_s - 9.0, T_hl = 21.1;
    // York YCAL0033EE air-cooled record (EnergyPlus / Modelica Buildings), EIR(PLR) = PLR:
    // P = Q_coil·EIRFT(T_chw, T_air)/3.1 with T_air clamped to the curve's 23.89–51.67 °C.
    const std::array<double, 6> e = {0.1807017787, 0.0271530312, -0.0004553574,
                                     0.0188175079, 0.0002623276, -0.0012881189};
    auto eirft = [&](double x, double y) {
        y = std::clamp(y, 23.89, 51.67);
        return e[0] + e[1] * x + e[2] * x * x + e[3] * y + e[4] * y * y + e[5] * x * y;
    };
    const weather::Weather w =
        weather::readEpw(std::filesystem::path(DCTWIN_SOURCE_DIR) / test::weather("milwaukee"));
    const auto rack_h = hourlyMeans(ts, *rack_air), it_h = hourlyMeans(ts, *it),
               cdu_h = hourlyMeans(ts, *cdu);
    double fan_J = 0, chiller_J = 0, econ_h = 0, cop_min = 1e9, cop_max = 0;
    for (std::size_t h = 0; h < 8760; ++h) {
        // Weather row i stands for the hour ending at (i+1)·3600 s; the twin interpolates
        // linearly, so hour h's mean is the mean of rows h−1 and h.
        const double T_db =
            kelvinToCelsius(0.5 * (w.dryBulb()[(h + 8759) % 8760] + w.dryBulb()[h]));
        const double Q = rack_h[h] + fabric + other + 0.4 * cdu_h[h] + 0.033 * it_h[h];
        const double f = Q / (n_crah * Q_r);
        const double P_fan = n_crah * P_r * f * f * f;  // affinity law
        // Economizer: outdoor air carries (T_r − T_db)/(T_r − T_s) of the load, closing over
        // the 1 K below the 21.1 °C (70 °F) high limit of ASHRAE 90.1-2016 Table 6.5.1.1.3.
        const double share = std::clamp((T_r - T_db) / (T_r - T_s), 0.0, 1.0) *
                             std::clamp((T_hl - T_db) / 1.0, 0.0, 1.0);
        const double Q_coil = (Q + P_fan) * (1.0 - share);
        const double cop = 3.1 / eirft(T_chw, T_db);
        if (Q_coil > 0) {
            cop_min = std::min(cop_min, cop);
            cop_max = std::max(cop_max, cop);
        }
        fan_J += P_fan * 3600.0;
        chiller_J += Q_coil / cop * 3600.0;
        econ_h += share;
    }
    const double hand_MWh = (fan_J + chiller_J) / 3.6e9;
    const double twin_MWh = num(s, "air_side_energy_MWh");
    std::printf(
        "air side, year: twin %.1f MWh, hand %.1f MWh (fans %.1f, chillers %.1f; %+.1f %%); "
        "chiller COP %.2f..%.2f; economizer hours twin %.0f, hand %.0f; %g CRAH units\n",
        twin_MWh, hand_MWh, fan_J / 3.6e9, chiller_J / 3.6e9,
        100.0 * (twin_MWh - hand_MWh) / hand_MWh, cop_min, cop_max,
        num(s, "air_economizer_hours_h"), econ_h, n_crah);
    // Issue 10 asked for 15 %; measured +0.2 % (891.4 against 889.3 MWh). This is a
    // re-derivation, not an independent figure: the loads per hour are the twin's own rack
    // air heat, IT and CDU power series, and the fan law, chiller curve and economizer rule
    // are the ones the twin implements, written out again here; only the weather and the
    // 3.3 % indoor losses are taken independently. What it catches is a change in the air-side
    // plant's arithmetic. Band 1 %: the indoor losses, ~16 % of the air load, are an estimate
    // good to a few percent of themselves (~0.5 % of the energy); a 1 % change of the air
    // load moves the energy by 1.5-3 % (fans ∝ load³, chillers ∝ load).
    EXPECT_NEAR(twin_MWh / hand_MWh, 1.0, 0.01);

    // ---- Economizer hours: a bound from the EPW ------------------------------------------
    // Every hour at or below the 18 °C supply air is a full economizer hour; no hour at or
    // above the high limit counts at all; partial hours between count their share.
    double below_supply = 0, below_limit = 0;
    for (double T : w.dryBulb()) {
        below_supply += kelvinToCelsius(T) <= T_s ? 1.0 : 0.0;
        below_limit += kelvinToCelsius(T) < T_hl ? 1.0 : 0.0;
    }
    const double econ = num(s, "air_economizer_hours_h");
    std::printf("EPW: %.0f h at or below %.1f °C, %.0f h below %.1f °C\n", below_supply, T_s,
                below_limit, T_hl);
    // Interpolation between hours moves a few crossings: 1 % slack on each bound.
    EXPECT_GE(econ, 0.99 * below_supply);
    EXPECT_LE(econ, 1.01 * below_limit);
    // And the twin's hours are the hand calculation's (same weather, same share).
    EXPECT_NEAR(econ, econ_h, 0.01 * econ_h);
}

TEST(AirSide, RearDoorsMoveTheRacksAirHeatIntoTheFacilityWater) {
    // At the design point the rear doors add the racks' heat to air to the heat rejection's
    // load and take it off the CRAH plant. Hand figure (handRack in design_point_test.cpp,
    // from racks.json and psu_curves.json at the 76.46 °C design junction): a rack draws
    // 138,484.8 W at its shelves' input and gives 124,688.9 W to liquid (GPUs 97 %, CPUs and
    // NVLink 95 %); the rest, 13,795.9 W, is on air, PSU loss included. 64 racks: 882.9 kW.
    const RunOutcome crah = sizeScenario(scenario(reference()));
    const RunOutcome doors =
        sizeScenario(scenario(reference({{"cooling", {{"air_side", {{"kind", "rear_door"}}}}}})));
    const double dQ = num(doors.summary, "design_heat_rejected_kW") -
                      num(crah.summary, "design_heat_rejected_kW");
    std::printf("rear doors: heat rejection +%.0f kW at design\n", dQ);
    // Band 0.5 % (4.4 kW): a 1 K shift of the design junction moves the air heat by only
    // ~1.4 kW (64 × 72 GPUs × ~3.9 W/K of leakage × the ~5.6 % of GPU power not on liquid),
    // while a 1 % change of the rack's power or its liquid share moves it by 9 to 90 kW.
    EXPECT_NEAR(dQ, 64.0 * (138484.8 - 124688.9) / 1e3, 0.005 * 882.9);
    const Json* c = findRow(crah.summary["sizing"]["cooling"], "air_side_crah");
    const Json* d = findRow(doors.summary["sizing"]["cooling"], "air_side_crah");
    ASSERT_TRUE(c && d);
    // The air load the CRAHs carry: one running unit's design load times the N of N+1.
    auto air = [](const Json& row) {
        return row["design_load_per_unit"].get<double>() * (row["count"].get<double>() - 1.0);
    };
    EXPECT_NEAR(air(*c) - air(*d), dQ * 1e3, 0.05 * dQ * 1e3);
    EXPECT_LT((*d)["count"].get<double>(), (*c)["count"].get<double>());
    EXPECT_LT(num(doors.summary, "design_cooling_power_kW"),
              num(crah.summary, "design_cooling_power_kW"));

    // A summer day with rear doors closes its energy balance (the door heat is counted once).
    const RunOutcome r = run(reference({{"study", annualStudy("07-15", 1.0)},
                                        {"cooling", {{"air_side", {{"kind", "rear_door"}}}}}}));
    EXPECT_LT(std::abs(num(r.summary, "energy_balance_rel_error")), 1e-6);
}

}  // namespace
}  // namespace dctwin::facility::test
