#include "gui/display_units.h"

#include <algorithm>
#include <cmath>

#include "core/display.h"
#include "core/units.h"

namespace dctwin::gui {

std::vector<double> DisplayUnit::fromSI(std::span<const double> v) const {
    std::vector<double> out(v.size());
    std::transform(v.begin(), v.end(), out.begin(), [this](double x) { return fromSI(x); });
    return out;
}

namespace {
UnitSystem g_units = UnitSystem::SI;

display::UnitSystem coreSystem() {
    return g_units == UnitSystem::IP ? display::UnitSystem::IP : display::UnitSystem::SI;
}
}  // namespace

DisplayUnit fromCore(const display::Unit& u) {
    return {QString::fromStdString(u.label), u.scale, u.offset};
}

void setUnitSystem(UnitSystem system) { g_units = system; }
UnitSystem unitSystem() { return g_units; }

DisplayUnit displayUnitFor(const std::string& si_unit, double max_abs) {
    return fromCore(display::unitFor(si_unit, max_abs, coreSystem()));
}

bool isAbsoluteTemperature(const std::string& name) { return display::isAbsoluteTemperature(name); }

bool isHeatFlow(const std::string& name) { return display::isHeatFlow(name); }

DisplayUnit displayUnitForQuantity(const std::string& name, const std::string& si_unit,
                                   double max_abs) {
    return fromCore(display::unitForQuantity(name, si_unit, max_abs, coreSystem()));
}

DisplayUnit metricDisplayUnit(const std::string& name, const std::string& unit, double value,
                              const std::string& description) {
    const double a = std::abs(value);
    // A zero or no value keeps the stored unit: "0 h" of economizer use reads as it is.
    const bool small = std::isfinite(a) && a > 0.0 && a < 1.0;
    if (small && unit == "MWh") return {QStringLiteral("kWh"), 1e3, 0.0};
    if (small && unit == "h" && description.find("-hours") == std::string::npos) {
        if (a * 60.0 >= 1.0) return {QStringLiteral("min"), 60.0, 0.0};
        return {QStringLiteral("s"), 3600.0, 0.0};
    }
    return displayUnitForQuantity(name, unit, a);
}

DurationAxis durationAxisFor(double span_s) {
    if (span_s > 3.0 * units::hour) return {QStringLiteral("hours at or above [h]"), 1.0};
    if (span_s > 5.0 * units::minute) return {QStringLiteral("minutes at or above [min]"), 60.0};
    return {QStringLiteral("seconds at or above [s]"), 3600.0};
}

display::TableDisplay tableDisplay(const Table& table) {
    return display::TableDisplay(table, coreSystem());
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

double typicalAbs(const std::vector<std::span<const double>>& series) {
    double m = 0.0;
    std::vector<double> a;
    for (const auto& s : series) {
        a.clear();
        for (double v : s) {
            if (std::isfinite(v)) a.push_back(std::abs(v));
        }
        if (a.empty()) continue;
        const auto mid = a.begin() + static_cast<std::ptrdiff_t>(a.size() / 2);
        std::nth_element(a.begin(), mid, a.end());
        m = std::max(m, *mid);
    }
    return m;
}

TimeAxis timeAxisFor(double span_s) {
    if (span_s > 3.0 * units::day) return {QStringLiteral("time [days]"), units::day};
    if (span_s > 3.0 * units::hour) return {QStringLiteral("time [h]"), units::hour};
    if (span_s > 5.0 * units::minute) return {QStringLiteral("time [min]"), units::minute};
    return {QStringLiteral("time [s]"), 1.0};
}

QString formatNumber(double v) { return QString::fromStdString(display::formatNumber(v)); }

QString formatMeasurement(double v) {
    return QString::fromStdString(display::formatMeasurement(v));
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
