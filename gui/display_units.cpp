#include "gui/display_units.h"

#include <QLocale>
#include <algorithm>
#include <cmath>

#include "core/units.h"

namespace dctwin::gui {

std::vector<double> DisplayUnit::fromSI(std::span<const double> v) const {
    std::vector<double> out(v.size());
    std::transform(v.begin(), v.end(), out.begin(), [this](double x) { return fromSI(x); });
    return out;
}

namespace {
UnitSystem g_units = UnitSystem::SI;

// IP display units, each from the project's SI constants (core/units.h).
DisplayUnit ipUnitFor(const std::string& si_unit) {
    // °F = (K − 273.15) · 1.8 + 32 = K · 1.8 − 459.67
    if (si_unit == "K") return {QStringLiteral("°F"), 1.8, 32.0 - 1.8 * units::kZeroCelsius};
    if (si_unit == "C") return {QStringLiteral("°F"), 1.8, 32.0};
    if (si_unit == "m3/s") return {QStringLiteral("gpm"), 1.0 / units::gpm, 0.0};
    if (si_unit == "m3") return {QStringLiteral("gal"), 1.0 / units::US_gallon, 0.0};
    if (si_unit == "Pa") return {QStringLiteral("psi"), 1.0 / units::psi, 0.0};
    return {};
}
}  // namespace

void setUnitSystem(UnitSystem system) { g_units = system; }
UnitSystem unitSystem() { return g_units; }

DisplayUnit displayUnitFor(const std::string& si_unit, double max_abs) {
    if (g_units == UnitSystem::IP) {
        if (DisplayUnit ip = ipUnitFor(si_unit); !ip.label.isEmpty()) return ip;
    }
    if (si_unit == "K") return {QStringLiteral("°C"), 1.0, -units::kZeroCelsius};
    if (si_unit == "W") {
        if (max_abs >= 1e6) return {QStringLiteral("MW"), 1.0 / units::MW, 0.0};
        if (max_abs >= 1e3) return {QStringLiteral("kW"), 1.0 / units::kW, 0.0};
        return {QStringLiteral("W"), 1.0, 0.0};
    }
    if (si_unit == "J") {
        if (max_abs >= 1e3 * units::MWh) return {QStringLiteral("MWh"), 1.0 / units::MWh, 0.0};
        return {QStringLiteral("kWh"), 1.0 / units::kWh, 0.0};
    }
    if (si_unit == "m3/s") {
        // Rack and CDU flows read naturally in L/min; plant flows beyond ~6,000 L/min in m3/h.
        if (max_abs >= 0.1) return {QStringLiteral("m³/h"), 1.0 / units::m3_per_h, 0.0};
        return {QStringLiteral("L/min"), 1.0 / units::L_per_min, 0.0};
    }
    // Report metrics already in °C (design_tcs_supply_temp_C) are labelled as such.
    if (si_unit == "C") return {QStringLiteral("°C"), 1.0, 0.0};
    if (si_unit == "m3") return {QStringLiteral("m³"), 1.0, 0.0};
    if (si_unit == "Pa") {
        if (max_abs >= units::bar) return {QStringLiteral("bar"), 1.0 / units::bar, 0.0};
        return {QStringLiteral("kPa"), 1.0 / units::kPa, 0.0};
    }
    if (si_unit == "kg/s") return {QStringLiteral("kg/s"), 1.0, 0.0};
    if (si_unit == "1" || si_unit.empty()) return {QString(), 1.0, 0.0};
    return {QString::fromStdString(si_unit), 1.0, 0.0};
}

bool isAbsoluteTemperature(const std::string& name) {
    return name.find("temp") != std::string::npos || name.find("bulb") != std::string::npos;
}

bool isHeatFlow(const std::string& name) {
    return name.find("heat") != std::string::npos || name.find("duty") != std::string::npos;
}

DisplayUnit displayUnitForQuantity(const std::string& name, const std::string& si_unit,
                                   double max_abs) {
    const bool ip = g_units == UnitSystem::IP;
    // Metrics in "C" are all absolute (design_tcs_supply_temp_C, max_gpu_junction_C); in K,
    // the name tells (isAbsoluteTemperature).
    if (si_unit == "K" && !isAbsoluteTemperature(name)) {
        // A difference: no offset. 1 K = 1.8 °F of difference.
        if (ip) return {QStringLiteral("Δ°F"), 1.8, 0.0};
        return {QStringLiteral("K"), 1.0, 0.0};
    }
    if (ip && si_unit == "W" && isHeatFlow(name)) {
        return {QStringLiteral("ton"), 1.0 / units::ton_refrigeration, 0.0};
    }
    return displayUnitFor(si_unit, max_abs);
}

double maxAbs(const std::vector<std::span<const double>>& series) {
    double m = 0.0;
    for (const auto& s : series) {
        for (double v : s) {
            if (std::isfinite(v)) m = std::max(m, std::abs(v));
        }
    }
    return m;
}

TimeAxis timeAxisFor(double span_s) {
    if (span_s > 3.0 * units::day) return {QStringLiteral("time [days]"), units::day};
    if (span_s > 3.0 * units::hour) return {QStringLiteral("time [h]"), units::hour};
    if (span_s > 5.0 * units::minute) return {QStringLiteral("time [min]"), units::minute};
    return {QStringLiteral("time [s]"), 1.0};
}

QString formatNumber(double v) {
    // No value (a job no output sample saw running, a share of nothing): a dash, as the
    // schematic shows one, not "nan".
    if (std::isnan(v)) return QStringLiteral("–");
    if (!std::isfinite(v)) return QString::number(v);
    const double a = std::abs(v);
    if (a != 0.0 && a < 1e-3) return QString::number(v, 'g', 4);
    // Large values grouped in thousands ("15,790,000") rather than "1.579e+07".
    if (a >= 1e4) return QLocale(QLocale::English).toString(v, 'f', 0);
    // Counts and other whole numbers read as such ("16", not "16.00"). "Whole" allows the
    // round-off of arithmetic: 308.25 K − 273.15 − 0.1 is 35.00000000000002, which printed as
    // "35.00" beside an exact "31". The band is far below the 0.005 that two
    // decimals show, so a PUE of 1.001 still reads "1.00", never "1".
    if (a >= 100.0 || std::abs(v - std::round(v)) <= 1e-9 * std::max(1.0, a)) {
        return QString::number(std::round(v), 'f', 0);
    }
    if (a >= 0.1) return QString::number(v, 'f', 2);
    return QString::number(v, 'g', 3);
}

QString formatMeasurement(double v) {
    if (std::isnan(v)) return QStringLiteral("–");
    if (!std::isfinite(v)) return QString::number(v);
    const double a = std::abs(v);
    if (a >= 1e4) return QLocale(QLocale::English).toString(v, 'f', 0);
    if (a >= 100.0) return QString::number(v, 'f', 0);
    if (a >= 10.0 || a == 0.0) return QString::number(v, 'f', 1);
    if (a >= 0.1) return QString::number(v, 'f', 2);
    return QString::number(v, 'g', 3);
}

std::vector<std::size_t> decimationIndices(const std::vector<double>& y, std::size_t buckets) {
    const std::size_t n = y.size();
    std::vector<std::size_t> idx;
    if (buckets == 0 || n <= 2 * buckets) {
        idx.resize(n);
        for (std::size_t i = 0; i < n; ++i) idx[i] = i;
        return idx;
    }
    idx.reserve(2 * buckets + 2);
    // The first and the last sample always: a line that stopped at its last bucket's extreme
    // left a load-duration curve 4 h short of the year's 8,760 h.
    idx.push_back(0);
    for (std::size_t b = 0; b < buckets; ++b) {
        const std::size_t lo = b * n / buckets;
        const std::size_t hi = (b + 1) * n / buckets;
        if (lo >= hi) continue;
        std::size_t imin = lo, imax = lo;
        for (std::size_t i = lo; i < hi; ++i) {
            // NaN compares false, so a gap never becomes a bucket's extreme.
            if (y[i] < y[imin] || std::isnan(y[imin])) imin = i;
            if (y[i] > y[imax] || std::isnan(y[imax])) imax = i;
        }
        for (std::size_t i : {std::min(imin, imax), std::max(imin, imax)}) {
            if (i != idx.back()) idx.push_back(i);
        }
    }
    if (idx.back() != n - 1) idx.push_back(n - 1);
    return idx;
}

}  // namespace dctwin::gui
