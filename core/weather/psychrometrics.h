#pragma once
// Psychrometrics of moist air: the properties that heat rejection needs from the weather
// (wet bulb for towers and adiabatic coolers, humidity ratio and enthalpy for evaporation,
// density for fan airflow). SI throughout: temperatures in K, pressures in Pa, humidity
// ratio in kg water / kg dry air, relative humidity as a fraction.
//
// Source: ASHRAE Handbook - Fundamentals 2017 (SI), chapter 1 "Psychrometrics". Equation
// numbers below are that chapter's; t is Celsius, T = t + 273.15 is kelvin, p is total
// (station) pressure.
//
//   Saturation pressure over ice, -100..0 °C (Hyland & Wexler 1983), eq. 5:
//     ln p_ws = C1/T + C2 + C3·T + C4·T² + C5·T³ + C6·T⁴ + C7·ln T
//   Saturation pressure over liquid water, 0..200 °C (Hyland & Wexler 1983), eq. 6:
//     ln p_ws = C8/T + C9 + C10·T + C11·T² + C12·T³ + C13·ln T
//   saturationPressure() uses ice below 0 °C and water from 0 °C up, as the Handbook's
//   Table 3 and EnergyPlus do; a dew point below 0 °C is therefore a frost point.
//   Humidity ratio, eq. 20:           W = 0.621945 · p_w / (p − p_w)
//   Relative humidity, eqs. 12, 22:   φ = p_w / p_ws(t)       with p_w = p_ws(t_d)
//   Dew point, eq. 36:                p_ws(t_d) = p_w, solved for t_d numerically (not the
//                                     approximate regressions, eqs. 37-38)
//   Thermodynamic wet bulb t*, the psychrometric equation with W*_s = W_s(t*, p):
//     t* ≥ 0 °C, eq. 33:  W = ((2501 − 2.326·t*)·W*_s − 1.006·(t − t*)) /
//                             (2501 + 1.86·t − 4.186·t*)
//     t* < 0 °C, eq. 35:  W = ((2830 − 0.24·t*)·W*_s − 1.006·(t − t*)) /
//                             (2830 + 1.86·t − 2.1·t*)
//     solved for t* with Brent's method (bracketing, so it cannot diverge) between the dew
//     point and the dry bulb, where the residual changes sign.
//   Moist-air enthalpy, eq. 30:       h = 1.006·t + W·(2501 + 1.86·t)   [kJ/kg dry air]
//   Specific volume, eq. 26:          v = R_da·T·(1 + 1.607858·W) / p, R_da = 287.042 J/(kg·K)
//   Moist-air density, eq. 11:        ρ = (1 + W) / v                   [kg moist air / m³]
//   Latent heat of vaporisation:      h_fg = h_g − h_f = (2501 + 1.86·t) − 4.186·t
//                                          = 2501 − 2.326·t             [kJ/kg]
//     i.e. the vapour enthalpy term of eq. 30 minus the liquid-water enthalpy of eq. 33, so that
//     evaporation rates computed with it close the energy balance of the psychrometric
//     equation exactly. Against steam tables it is within 0.1 % up to 50 °C and 0.6 % at
//     100 °C.
//
// Validity (checked; outside it every function throws dctwin::InputError): temperatures
// -100..200 °C (the range of eqs. 5 and 6), pressure > 0 and finite, relative humidity
// 0..1.10 (1.10 is the ceiling the EPW dictionary allows for measured RH; values above 1
// are treated as saturated), humidity ratio ≥ 0 with a vapour pressure below the total
// pressure, dew point no more than 0.5 K above the dry bulb (a larger gap is inconsistent
// data; a smaller one is rounding and is clamped to the dry bulb).
#include <limits>

namespace dctwin::psychro {

/// Saturation pressure of water vapour over liquid water, ASHRAE eq. 6.   [K] → [Pa]
double saturationPressureOverWater(double T);
/// Saturation pressure of water vapour over ice, ASHRAE eq. 5 (T ≤ 273.16 K). [K] → [Pa]
double saturationPressureOverIce(double T);
/// Over ice below 273.15 K, over water from 273.15 K up (ASHRAE Table 3).   [K] → [Pa]
double saturationPressure(double T);

/// Humidity ratio from the partial pressure of water vapour, eq. 20.
double humidityRatioFromVapourPressure(double p_w, double p);  // [Pa], [Pa] → [kg/kg]
/// Partial pressure of water vapour from the humidity ratio (eq. 20 inverted).
double vapourPressureFromHumidityRatio(double W, double p);  // [kg/kg], [Pa] → [Pa]

/// Dew (or frost, below 0 °C) point at which saturationPressure equals p_w.  [Pa] → [K]
double dewPointFromVapourPressure(double p_w);
double humidityRatioFromDewPoint(double T_dp, double p);      // [K], [Pa] → [kg/kg]
double dewPointFromHumidityRatio(double W, double p);         // [kg/kg], [Pa] → [K]
double relativeHumidity(double T_db, double T_dp);            // [K], [K] → [-]
double dewPointFromRelativeHumidity(double T_db, double rh);  // [K], [-] → [K]

/// The psychrometric equation (eq. 33 at or above 0 °C wet bulb, eq. 35 below): the humidity
/// ratio of air whose thermodynamic wet bulb is T_wb.          [K], [K], [Pa] → [kg/kg]
double humidityRatioFromWetBulb(double T_db, double T_wb, double p);
/// The air states of one wet bulb T_wb at pressure p: evaporative cooling (pads, sprays) moves
/// air along this line. humidityRatio(T_db) is humidityRatioFromWetBulb(T_db, T_wb, p) bit for
/// bit, with the saturation term W_s*(T_wb) computed once for all the dry bulbs asked (a dry
/// cooler's pad search asks ~8 per evaluation).
class WetBulbLine {
public:
    WetBulbLine() = default;  // no line: wetBulb() is NaN
    WetBulbLine(double T_wb, double p);
    double wetBulb() const { return T_wb_; }  // [K]
    double humidityRatio(double T_db) const;  // [K] → [kg/kg]
    /// dW/dT_db along the line at (T_db, W = humidityRatio(T_db)): −(1.006 + 1.86·W)/D with D
    /// the psychrometric equation's denominator (eq. 33 or 35).          [K], [kg/kg] → [1/K]
    double humidityRatioSlope(double T_db, double W) const;

private:
    double T_wb_ = std::numeric_limits<double>::quiet_NaN();
    double W_s_star_ = 0.0;  // [kg/kg] saturated at T_wb
};
/// Thermodynamic wet bulb: the root of humidityRatioFromWetBulb(T_db, T_wb, p) = W.
double wetBulbFromHumidityRatio(double T_db, double W, double p);      // → [K]
double wetBulbFromDewPoint(double T_db, double T_dp, double p);        // → [K]
double wetBulbFromRelativeHumidity(double T_db, double rh, double p);  // → [K]

double moistAirEnthalpy(double T_db, double W);                  // [J/kg dry air], eq. 30
double moistAirSpecificVolume(double T_db, double W, double p);  // [m³/kg dry air], eq. 26
/// d(moistAirSpecificVolume)/dT_db for air whose humidity ratio changes with T_db at dW_dT
/// (along a wet-bulb line, WetBulbLine::humidityRatioSlope).             → [m³/(kg dry air·K)]
double moistAirSpecificVolumeSlope(double T_db, double W, double p, double dW_dT);
double moistAirDensity(double T_db, double W, double p);  // [kg/m³ moist air], eq. 11
/// Latent heat of vaporisation of water at T (see header comment).      [K] → [J/kg]
double latentHeatOfVaporisation(double T);

}  // namespace dctwin::psychro
