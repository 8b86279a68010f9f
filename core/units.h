#pragma once
// Units: SI inside (K, Pa, W, J, kg, m³, s). Conversions happen once, where a scenario is read
// and for display. Constants are multipliers "value in unit × constant = SI value", except
// temperatures, which have offsets and get functions.
#include <string>
#include <string_view>
#include <vector>

namespace dctwin::units {

inline constexpr double kZeroCelsius = 273.15;  // [K]

constexpr double celsiusToKelvin(double c) { return c + kZeroCelsius; }
constexpr double kelvinToCelsius(double k) { return k - kZeroCelsius; }
constexpr double fahrenheitToKelvin(double f) { return (f - 32.0) * 5.0 / 9.0 + kZeroCelsius; }
constexpr double kelvinToFahrenheit(double k) { return (k - kZeroCelsius) * 9.0 / 5.0 + 32.0; }
/// A temperature difference in °F (or Rankine degrees) to kelvin.
constexpr double fahrenheitDeltaToKelvin(double df) { return df * 5.0 / 9.0; }

// Power and energy
inline constexpr double kW = 1e3;                       // [W]
inline constexpr double MW = 1e6;                       // [W]
inline constexpr double kWh = 3.6e6;                    // [J]
inline constexpr double MWh = 3.6e9;                    // [J]
inline constexpr double hp = 745.699872;                // [W] mechanical horsepower
inline constexpr double kVA = 1e3;                      // [VA]
inline constexpr double MVA = 1e6;                      // [VA]
inline constexpr double kV = 1e3;                       // [V]
inline constexpr double ton_refrigeration = 3516.8528;  // [W]

// Volume and flow
inline constexpr double litre = 1e-3;                // [m³]
inline constexpr double L_per_min = 1e-3 / 60.0;     // [m³/s]
inline constexpr double m3_per_h = 1.0 / 3600.0;     // [m³/s]
inline constexpr double US_gallon = 3.785411784e-3;  // [m³]
inline constexpr double gpm = US_gallon / 60.0;      // [m³/s] US gallons per minute

// Pressure
inline constexpr double bar = 1e5;          // [Pa]
inline constexpr double kPa = 1e3;          // [Pa]
inline constexpr double psi = 6894.757293;  // [Pa]

// Time
inline constexpr double minute = 60.0;           // [s]
inline constexpr double hour = 3600.0;           // [s]
inline constexpr double day = 86400.0;           // [s]
inline constexpr double year = 8760.0 * 3600.0;  // [s] a 365-day year, as EPW files have

/// Converts `value` given in `unit` to SI. `unit` is one of the suffixes scenario keys use:
/// C, F, K (absolute temperatures); dC, dF, dK (differences); W, kW, MW, kVA, MVA, VA, V, kV,
/// A; J, kJ, kWh, MWh; Lpm, m3h, m3s, gpm, L, m3, gal; Pa, kPa, bar, psi; s, min, h, days;
/// W/s, kW/s, MW/s (ramp rates);
/// pct (percent → fraction); "" (dimensionless). Throws InputError naming the valid choices.
double toSI(double value, std::string_view unit);

/// Inverse of toSI.
double fromSI(double value_si, std::string_view unit);

/// The SI unit a scenario unit converts to ("C" → "K", "Lpm" → "m3/s", "pct" → "1").
std::string siUnitOf(std::string_view unit);

/// Every suffix toSI accepts, for error messages.
const std::vector<std::string>& knownUnits();

}  // namespace dctwin::units
