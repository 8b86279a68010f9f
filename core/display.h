#pragma once
// How a result reads: display units and number text for the app, the PDF and the command line
// (DESIGN.md §2: physics is SI inside; units are converted once, for display). The report
// stores K, W, m3/s, ...; engineers read °C, kW or MW, L/min, tons in IP. One place decides
// this so that a sizing table reads the same in the app's Sizing tab and in `dctwin size`.
// Nothing here knows physics or Qt: the GUI wraps these in QString.
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/results.h"

namespace dctwin::display {

/// Which units values are shown in. SI: °C, kW/MW, L/min, m³, kPa. IP (US customary, as US
/// facility engineers read a plant): °F, tons of refrigeration for heat flows, gpm, US gallons,
/// psi; electrical power and energy stay in kW/MW and kWh/MWh, which US practice also uses.
enum class UnitSystem { SI, IP };

/// The affine map value_display = value_si · scale + offset, and its label (UTF-8).
struct Unit {
    std::string label;    ///< "°C", "kW", "L/min"; "" for dimensionless
    double scale = 1.0;   ///< display per SI
    double offset = 0.0;  ///< added after scaling (temperatures)
    double fromSI(double v) const { return v * scale + offset; }
};

/// The display unit for values in `si_unit` whose largest magnitude is `max_abs` (in SI):
/// K → °C; W → W, kW or MW; VA → VA, kVA or MVA; J → kWh or MWh; m3/s → L/min or m³/h;
/// Pa → kPa or bar; "1" → "". In IP: K and C → °F, m3/s → gpm, m3 → gal, Pa → psi. Units it
/// does not know are shown as they are, so a new channel still displays.
Unit unitFor(std::string_view si_unit, double max_abs, UnitSystem system = UnitSystem::SI);

/// True when a quantity in K named `name` is an absolute temperature ("tcs_supply_temp",
/// "dry_bulb", "max_gpu_junction_temp"), false for differences in K ("throttle_margin",
/// "setpoint_unmet", "approach"). The unit string "K" says neither, and converting a difference
/// to °C would show −250 °C; the report's names follow this convention.
bool isAbsoluteTemperature(std::string_view name);

/// True for quantities that are heat flows (heat_to_liquid, heat_rejected, a plant's duty),
/// which IP shows in tons of refrigeration; electrical power stays in kW.
bool isHeatFlow(std::string_view name);

/// The display unit of a named quantity: like unitFor, except that K stays K for temperature
/// differences (Δ°F in IP) and heat flows are in tons in IP.
Unit unitForQuantity(std::string_view name, std::string_view si_unit, double max_abs,
                     UnitSystem system = UnitSystem::SI);

/// Table text with the precision an engineer expects for the magnitude: "15,790,000",
/// "1368", "16", "0.72", "0.00342"; "–" for no value (NaN, a report's null).
std::string formatNumber(double v);
/// A measured value (a temperature, flow or power sampled from a run) with at least three
/// significant figures and the same decimals whether or not it happens to be whole: "35.0"
/// beside "31.0", where formatNumber would give a count's "31". "–" for no value.
std::string formatMeasurement(double v);

/// A column or metric name as words: "design loading" for design_loading_pct in %; a suffix
/// repeating the unit goes (the unit is shown in brackets), engineers' acronyms in capitals
/// ("PUE", "IT energy", "GPU junction").
std::string readableName(std::string_view name, std::string_view unit);

/// A report table as it reads: numeric columns in display units (W → kW/MW per column; per row
/// where a "unit" column gives each row its unit, so a 1,500,000 W UPS reads 1.50 MW and a
/// 0.0342 m3/s pump 2052 L/min); percentages as they are; ratios (unit "1") that are not whole
/// to four decimals, so that a partial PUE of 1.0048 does not read "1.00". In the cooling table a
/// power in W is a heat duty (tons in IP); the electrical tables' stay kW/MW.
class TableDisplay {
public:
    TableDisplay() = default;
    TableDisplay(const Table& table, UnitSystem system);
    /// "design loading [%]", "rating", "voltage [V]".
    std::string header(const Table& table, std::size_t column) const;
    /// The text of one cell; the unit column shows the row's display unit.
    std::string cell(const Table& table, std::size_t row, std::size_t column) const;
    /// Index of the loading column (design_loading_pct), or -1 when the table has none.
    int loadingColumn() const { return loading_column_; }
    int unitColumn() const { return unit_column_; }

private:
    std::vector<Unit> units_;      // per column; unused for text columns
    std::vector<Unit> row_units_;  // per row, for numbers in columns without a unit of their own
    std::vector<bool> row_ratio_;  // per row: its unit is "1" (a ratio such as a PUE)
    /// Per column: decimals every cell of a column of times (unit s) is written with, the
    /// fewest (0–2) that show each of its values; -1 elsewhere. An event log is read down its
    /// time column, where "60" above "88.50" read as two precisions.
    std::vector<int> decimals_;
    int unit_column_ = -1;
    int loading_column_ = -1;
};

}  // namespace dctwin::display
