#pragma once
// Display conversion of SI result channels (DESIGN.md §2: physics is SI inside; units are
// converted once for display). The report stores K, W, m3/s, ...; engineers read °C, kW or MW,
// L/min. A DisplayUnit is the affine map value_display = value_si * scale + offset and its
// label, chosen once per chart so that every series on one axis shares a unit.
#include <QString>
#include <span>
#include <string>
#include <vector>

#include "core/display.h"

namespace dctwin::gui {

/// Which units values are shown in. SI: °C, kW/MW, L/min, m³, kPa. IP (US customary, as US
/// facility engineers read a plant): °F, tons of refrigeration for heat flows, gpm, US gallons,
/// psi; electrical power and energy stay in kW/MW and kWh/MWh, which US practice also uses.
/// Only the display changes: the scenario, the report and every export stay SI.
enum class UnitSystem { SI, IP };
/// The system every following displayUnitFor() call uses (the View menu's switch).
void setUnitSystem(UnitSystem system);
UnitSystem unitSystem();

struct DisplayUnit {
    QString label;        // "°C", "kW", "L/min"; "" for dimensionless
    double scale = 1.0;   // display per SI
    double offset = 0.0;  // added after scaling (temperatures)

    double fromSI(double v) const { return v * scale + offset; }
    std::vector<double> fromSI(std::span<const double> v) const;
};

/// The core's display unit (core/display.h) with a Qt label.
DisplayUnit fromCore(const display::Unit& u);

/// The display unit for values in `si_unit` whose largest magnitude is `max_abs` (in SI):
/// K → °C; W → W, kW or MW; J → kWh or MWh; m3/s → L/min or m3/h; Pa → kPa or bar; "1" → "".
/// In IP: K and C → °F, m3/s → gpm, m3 → gal, Pa → psi. Units it does not know are shown as
/// they are, so a new channel still displays.
DisplayUnit displayUnitFor(const std::string& si_unit, double max_abs);

/// True when a quantity in K named `name` is an absolute temperature ("tcs_supply_temp",
/// "dry_bulb", "max_gpu_junction_temp"), false for differences in K ("throttle_margin",
/// "setpoint_unmet", "approach"). The unit string "K" says neither, and converting a difference
/// to °C would show −250 °C; the report's names follow this convention.
bool isAbsoluteTemperature(const std::string& name);

/// True for quantities that are heat flows (heat_to_liquid, heat_rejected, a plant's duty),
/// which IP shows in tons of refrigeration; electrical power stays in kW.
bool isHeatFlow(const std::string& name);

/// The display unit of a named quantity: like displayUnitFor, except that K stays K for
/// temperature differences (Δ°F in IP) and heat flows are in tons in IP.
DisplayUnit displayUnitForQuantity(const std::string& name, const std::string& si_unit,
                                   double max_abs);

/// The display unit of a summary metric (Report::summary) stored in `unit` with value
/// `value`: as displayUnitForQuantity, except that a short study's small figures are shown in
/// the unit the CLI prints them in rather than as thousandths: an energy in MWh below 1 MWh in
/// kWh ("1.27 kWh", not "0.00127 MWh"), a time in h below an hour in min, below a minute in s
/// ("22 s", not "0.00603 h"). Counts of rack- or GPU-hours (their description says "-hours")
/// keep their unit, as do zeros.
DisplayUnit metricDisplayUnit(const std::string& name, const std::string& unit, double value,
                              const std::string& description = {});

/// The axis of a load-duration curve over a study of `span_s`: hours from 3 h up (a year's
/// 8,760), else minutes or seconds ("minutes at or above [min]" for a 10-minute study, whose
/// curve read 0.000–0.167 h).
struct DurationAxis {
    QString label;          // "hours at or above [h]"
    double per_hour = 1.0;  // display units per hour
};
DurationAxis durationAxisFor(double span_s);

/// How a report table reads in the current unit system (core/display.h's TableDisplay).
display::TableDisplay tableDisplay(const Table& table);

/// Largest |value| over all of `series` (0 when empty), to choose one unit for a chart.
double maxAbs(const std::vector<std::span<const double>>& series);

/// The level a quantity sits at most of the time: the largest of the series' medians of
/// |value| (0 when empty). A chart judges which quantities are small by it, not by their peaks:
/// a quantity that is small all year but for a few hours is still small.
double typicalAbs(const std::vector<std::span<const double>>& series);

/// The time axis: seconds since study start shown in s, min, h or days depending on the span.
struct TimeAxis {
    QString label;         // "time [h]"
    double divisor = 1.0;  // seconds per display unit
};
TimeAxis timeAxisFor(double span_s);

/// "1.23 MW"-style text for tables, with the precision an engineer expects for the magnitude;
/// "–" for no value (NaN, a report's null).
QString formatNumber(double v);
/// A measured value (a temperature, flow or power sampled from a run) with at least three
/// significant figures and the same decimals whether or not it happens to be whole: "35.0 °C"
/// beside "31.0 °C", where formatNumber would give a count's "31". "–" for no value.
QString formatMeasurement(double v);

/// Sample indices that reduce a series to at most 2*buckets + 2 points: the first and last
/// sample and each bucket's minimum and maximum, in time order, so a year at 10-min output (52,560
/// samples) draws fast and the peaks stay visible. All indices when the series is short enough.
std::vector<std::size_t> decimationIndices(const std::vector<double>& y, std::size_t buckets);

}  // namespace dctwin::gui
