// Psychrometrics against published values. Sources:
// [H17] ASHRAE Handbook - Fundamentals 2017 (SI), ch. 1: Table 1 (standard atmosphere),
//       Table 2 (moist air at 101.325 kPa), Table 3 (saturation pressure), Example 1.
// [CB]  Çengel & Boles, "Thermodynamics: An Engineering Approach", ch. 14, Example 14-4
//       (sling psychrometer, 25 °C dry bulb / 15 °C wet bulb at 1 atm).
// [PL]  PsychroLib test suite (MIT), tests/test_psychrolib_si.py: humidity ratios from
//       ASHRAE eqs. 33/35 at 95.461 kPa, the [H17] Table 1 pressure at 500 m.
// [ST]  Steam tables (IAPWS-95, as in Çengel & Boles Table A-4): h_fg of water.
#include "core/weather/psychrometrics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <tuple>

#include "core/errors.h"
#include "core/units.h"

namespace dctwin::psychro {
namespace {

using units::celsiusToKelvin;
using units::kelvinToCelsius;

constexpr double kAtm = 101325.0;  // [Pa]

// Relative deviation, for comparisons in percent of the reference.
double rel(double value, double reference) { return std::abs(value / reference - 1.0); }

TEST(Psychrometrics, SaturationPressureMatchesAshraeTables) {
    // [H17] Table 3 (and Table 2, p_ws column), kPa, within 0.1 %.
    struct Point {
        double t_C, p_kPa;
    };
    for (const Point& pt : {Point{20.0, 2.3392}, Point{30.0, 4.2467}, Point{0.0, 0.6112},
                            Point{-10.0, 0.25987},  // over ice
                            Point{-20.0, 0.10324}, Point{25.0, 3.1697}, Point{50.0, 12.3513},
                            Point{100.0, 101.418}}) {
        EXPECT_LT(rel(saturationPressure(celsiusToKelvin(pt.t_C)), pt.p_kPa * 1e3), 1e-3)
            << pt.t_C << " °C";
    }
    // Ice and water branches agree at the triple point to the tables' precision (611.2 Pa).
    EXPECT_NEAR(saturationPressureOverIce(273.16), saturationPressureOverWater(273.16), 0.5);
    // Below 0 °C the saturation pressure is over ice, lower than over supercooled water.
    EXPECT_LT(saturationPressure(celsiusToKelvin(-10.0)),
              saturationPressureOverWater(celsiusToKelvin(-10.0)));
}

TEST(Psychrometrics, HumidityRatioAndEnthalpyMatchTable2) {
    // [H17] Table 2 at 25 °C: W_s = 0.020173, h_da = 25.148 kJ/kg, h_s = 76.504 kJ/kg,
    // v_da = 0.8443 m³/kg.
    const double T = celsiusToKelvin(25.0);
    EXPECT_LT(rel(humidityRatioFromDewPoint(T, kAtm), 0.020173), 5e-3);
    EXPECT_LT(rel(moistAirEnthalpy(T, 0.0), 25148.0), 1e-3);
    EXPECT_LT(rel(moistAirEnthalpy(T, 0.020173), 76504.0), 1e-2);
    EXPECT_LT(rel(moistAirSpecificVolume(T, 0.0, kAtm), 0.8443), 1e-3);
    EXPECT_LT(rel(moistAirDensity(T, 0.0, kAtm), 1.0 / 0.8443), 1e-3);
    // Humid air is lighter than dry air at the same T and p.
    EXPECT_LT(moistAirDensity(T, 0.015, kAtm), moistAirDensity(T, 0.0, kAtm));
}

TEST(Psychrometrics, WetBulbMatchesPublishedPoints) {
    // (1) [H17] Example 1: 40 °C dry bulb, 20 °C thermodynamic wet bulb, 101.325 kPa gives
    //     W = 0.0065 kg/kg (the Handbook uses Table 2's W_s*, hence 0.0064 from eq. 6 here).
    EXPECT_NEAR(kelvinToCelsius(wetBulbFromHumidityRatio(celsiusToKelvin(40.0), 0.0065, kAtm)),
                20.0, 0.2);
    EXPECT_NEAR(humidityRatioFromWetBulb(celsiusToKelvin(40.0), celsiusToKelvin(20.0), kAtm),
                0.0065, 1.5e-4);
    // (2) Sea-level psychrometric chart (e.g. ASHRAE Psychrometric Chart No. 1): 30 °C dry
    //     bulb, 50 % RH → 22.0 °C wet bulb.
    EXPECT_NEAR(kelvinToCelsius(wetBulbFromRelativeHumidity(celsiusToKelvin(30.0), 0.50, kAtm)),
                22.0, 0.2);
    // (3) [CB] Example 14-4: 25 °C / 15 °C wet bulb at 1 atm: ω = 0.00653, φ = 33.2 %,
    //     h = 41.8 kJ/kg dry air.
    const double T25 = celsiusToKelvin(25.0);
    EXPECT_NEAR(kelvinToCelsius(wetBulbFromHumidityRatio(T25, 0.00653, kAtm)), 15.0, 0.2);
    const double W = humidityRatioFromWetBulb(T25, celsiusToKelvin(15.0), kAtm);
    EXPECT_NEAR(W, 0.00653, 5e-5);
    EXPECT_NEAR(relativeHumidity(T25, dewPointFromHumidityRatio(W, kAtm)), 0.332, 0.005);
    EXPECT_NEAR(moistAirEnthalpy(T25, W), 41.8e3, 0.2e3);
    // (4) Elevation, 95.461 kPa ([H17] Table 1, 500 m), [PL]: 30 °C with W = 0.0192281 has a
    //     25 °C wet bulb; below freezing (eq. 35), -1 °C with W = 0.00120400 has -5 °C.
    constexpr double p500 = 95461.0;
    EXPECT_NEAR(kelvinToCelsius(wetBulbFromHumidityRatio(celsiusToKelvin(30.0), 0.0192281, p500)),
                25.0, 0.2);
    EXPECT_NEAR(kelvinToCelsius(wetBulbFromHumidityRatio(celsiusToKelvin(-1.0), 0.00120400, p500)),
                -5.0, 0.2);
    // Lower pressure, same dry bulb and dew point: more evaporation per kg, lower wet bulb.
    const double T30 = celsiusToKelvin(30.0), Tdp = celsiusToKelvin(15.0);
    EXPECT_LT(wetBulbFromDewPoint(T30, Tdp, 80000.0), wetBulbFromDewPoint(T30, Tdp, kAtm));
}

TEST(Psychrometrics, AWetBulbLineHoldsItsWetBulbAndMatchesTheEquationBitForBit) {
    // Evaporative pads move air along one wet bulb: every state on the line has that wet bulb
    // ([CB] Example 14-4's 15 °C line through 25 °C / ω = 0.00653, and a frost-side line at
    // 500 m, [PL]: -5 °C through -1 °C / 0.00120400), and the line's humidity ratio is the
    // psychrometric equation's, bit for bit (the dry cooler relies on it for its results).
    const WetBulbLine line(celsiusToKelvin(15.0), kAtm);
    EXPECT_NEAR(line.humidityRatio(celsiusToKelvin(25.0)), 0.00653, 5e-5);
    const WetBulbLine frost(celsiusToKelvin(-5.0), 95461.0);
    EXPECT_NEAR(frost.humidityRatio(celsiusToKelvin(-1.0)), 0.00120400, 2e-6);
    // Up to 20 K above the 15 °C wet bulb; the -5 °C line meets dry air ~7.5 K above it.
    for (const auto& [l, p, top] :
         {std::tuple{line, kAtm, 20.0}, std::tuple{frost, 95461.0, 6.0}}) {
        for (double dT : {0.0, 0.5, 3.0, 0.5 * top, top}) {
            const double T = l.wetBulb() + dT;
            const double W = l.humidityRatio(T);
            EXPECT_EQ(W, humidityRatioFromWetBulb(T, l.wetBulb(), p)) << dT;
            EXPECT_NEAR(wetBulbFromHumidityRatio(T, W, p), l.wetBulb(), 1e-6) << dT;
            // Slopes along the line (the dry cooler's pad search steps on them), against
            // central differences.
            const double h = 1e-4;
            const double dW = (l.humidityRatio(T + h) - l.humidityRatio(T - h)) / (2 * h);
            EXPECT_NEAR(l.humidityRatioSlope(T, W), dW, 1e-7 * std::abs(dW)) << dT;
            const double dv = (moistAirSpecificVolume(T + h, l.humidityRatio(T + h), p) -
                               moistAirSpecificVolume(T - h, l.humidityRatio(T - h), p)) /
                              (2 * h);
            EXPECT_NEAR(moistAirSpecificVolumeSlope(T, W, p, l.humidityRatioSlope(T, W)), dv,
                        1e-7 * std::abs(dv))
                << dT;
        }
    }
    EXPECT_TRUE(std::isnan(WetBulbLine().wetBulb()));
    EXPECT_THROW(WetBulbLine(celsiusToKelvin(-120.0), kAtm), InputError);
    EXPECT_THROW(line.humidityRatio(celsiusToKelvin(250.0)), InputError);
}

TEST(Psychrometrics, RoundTripsAreConsistent) {
    for (double t : {-40.0, -5.0, 0.5, 12.0, 27.0, 45.0}) {
        const double T = celsiusToKelvin(t);
        for (double rh : {0.05, 0.3, 0.7, 1.0}) {
            const double Tdp = dewPointFromRelativeHumidity(T, rh);
            EXPECT_NEAR(relativeHumidity(T, Tdp), rh, 1e-7) << t << " °C, RH " << rh;
            const double W = humidityRatioFromDewPoint(Tdp, 97000.0);
            EXPECT_NEAR(dewPointFromHumidityRatio(W, 97000.0), Tdp, 1e-6);
            const double Twb = wetBulbFromDewPoint(T, Tdp, 97000.0);
            EXPECT_LE(Tdp, Twb + 1e-9);
            EXPECT_LE(Twb, T + 1e-9);
            // The wet bulb satisfies the psychrometric equation it was solved from.
            EXPECT_NEAR(humidityRatioFromWetBulb(T, Twb, 97000.0), W, 1e-9);
        }
    }
    // Saturated air: all three temperatures coincide.
    const double T = celsiusToKelvin(8.9);
    EXPECT_NEAR(wetBulbFromDewPoint(T, T, 99622.0), T, 1e-6);
    // Vapour pressure ↔ humidity ratio.
    EXPECT_NEAR(
        vapourPressureFromHumidityRatio(humidityRatioFromVapourPressure(3169.7, 95461.0), 95461.0),
        3169.7, 1e-6);
}

TEST(Psychrometrics, LatentHeatMatchesSteamTables) {
    // [ST] h_fg = 2500.9 kJ/kg at 0.01 °C, 2441.7 at 25 °C, 2256.4 at 100 °C.
    EXPECT_LT(rel(latentHeatOfVaporisation(273.16), 2500.9e3), 1e-3);
    EXPECT_LT(rel(latentHeatOfVaporisation(celsiusToKelvin(25.0)), 2441.7e3), 1e-3);
    EXPECT_LT(rel(latentHeatOfVaporisation(celsiusToKelvin(100.0)), 2256.4e3), 6e-3);
}

TEST(Psychrometrics, InputsOutsideValidityThrowInputError) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    EXPECT_THROW(saturationPressure(celsiusToKelvin(-100.5)), InputError);
    EXPECT_THROW(saturationPressure(celsiusToKelvin(200.5)), InputError);
    EXPECT_THROW(saturationPressure(nan), InputError);
    EXPECT_THROW(saturationPressureOverIce(celsiusToKelvin(5.0)), InputError);
    EXPECT_THROW(humidityRatioFromDewPoint(290.0, 0.0), InputError);
    EXPECT_THROW(humidityRatioFromDewPoint(290.0, -1.0), InputError);
    EXPECT_THROW(wetBulbFromRelativeHumidity(300.0, 1.2, kAtm), InputError);
    EXPECT_THROW(wetBulbFromRelativeHumidity(300.0, -0.01, kAtm), InputError);
    EXPECT_THROW(dewPointFromRelativeHumidity(300.0, 0.0), InputError);
    EXPECT_THROW(wetBulbFromDewPoint(290.0, 295.0, kAtm), InputError);  // dew point > dry bulb
    EXPECT_THROW(wetBulbFromHumidityRatio(300.0, -0.001, kAtm), InputError);
    EXPECT_THROW(humidityRatioFromVapourPressure(2000.0, 1500.0), InputError);
    EXPECT_THROW(dewPointFromVapourPressure(0.0), InputError);
    try {
        saturationPressure(celsiusToKelvin(250.0));
        FAIL() << "expected InputError";
    } catch (const InputError& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("250.00 °C"), std::string::npos) << msg;
        EXPECT_NE(msg.find("-100..200 °C"), std::string::npos) << msg;
    }
    // Rounding: a dew point 0.1 K above the dry bulb is clamped, not rejected.
    EXPECT_NEAR(wetBulbFromDewPoint(290.0, 290.1, kAtm), 290.0, 1e-6);
}

}  // namespace
}  // namespace dctwin::psychro
