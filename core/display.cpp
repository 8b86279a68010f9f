#include "core/display.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <variant>

#include "core/units.h"

namespace dctwin::display {

namespace {
// IP display units, each from the project's SI constants (core/units.h).
Unit ipUnitFor(std::string_view si_unit) {
    // °F = (K − 273.15) · 1.8 + 32 = K · 1.8 − 459.67
    if (si_unit == "K") return {"°F", 1.8, 32.0 - 1.8 * units::kZeroCelsius};
    if (si_unit == "C") return {"°F", 1.8, 32.0};
    if (si_unit == "m3/s") return {"gpm", 1.0 / units::gpm, 0.0};
    if (si_unit == "m3") return {"gal", 1.0 / units::US_gallon, 0.0};
    if (si_unit == "m3/h") return {"gpm", units::m3_per_h / units::gpm, 0.0};
    if (si_unit == "Pa") return {"psi", 1.0 / units::psi, 0.0};
    return {};
}

// "15790000" → "15,790,000": large values grouped in thousands, never "1.579e+07".
std::string grouped(double v) {
    std::string digits = fmt::format("{:.0f}", std::abs(v));
    for (std::size_t i = digits.size(); i > 3; i -= 3) digits.insert(i - 3, ",");
    return (v < 0 && digits != "0" ? "-" : "") + digits;
}

constexpr const char* kNoValue = "–";
}  // namespace

Unit unitFor(std::string_view si_unit, double max_abs, UnitSystem system) {
    if (system == UnitSystem::IP) {
        if (Unit ip = ipUnitFor(si_unit); !ip.label.empty()) return ip;
    }
    if (si_unit == "K") return {"°C", 1.0, -units::kZeroCelsius};
    if (si_unit == "W") {
        if (max_abs >= 1e6) return {"MW", 1.0 / units::MW, 0.0};
        if (max_abs >= 1e3) return {"kW", 1.0 / units::kW, 0.0};
        return {"W", 1.0, 0.0};
    }
    if (si_unit == "VA") {
        if (max_abs >= 1e6) return {"MVA", 1.0 / units::MVA, 0.0};
        if (max_abs >= 1e3) return {"kVA", 1.0 / units::kVA, 0.0};
        return {"VA", 1.0, 0.0};
    }
    if (si_unit == "J") {
        if (max_abs >= 1e3 * units::MWh) return {"MWh", 1.0 / units::MWh, 0.0};
        return {"kWh", 1.0 / units::kWh, 0.0};
    }
    if (si_unit == "m3/s") {
        // Rack and CDU flows read naturally in L/min; plant flows beyond ~6,000 L/min in m³/h.
        if (max_abs >= 0.1) return {"m³/h", 1.0 / units::m3_per_h, 0.0};
        return {"L/min", 1.0 / units::L_per_min, 0.0};
    }
    // Report metrics already in °C (design_tcs_supply_temp_C) are labelled as such.
    if (si_unit == "C") return {"°C", 1.0, 0.0};
    if (si_unit == "m3") return {"m³", 1.0, 0.0};
    // Metrics given per hour (design_water_m3_per_h) read as m³/h, not "m3/h" beside "m³".
    if (si_unit == "m3/h") return {"m³/h", 1.0, 0.0};
    if (si_unit == "Pa") {
        if (max_abs >= units::bar) return {"bar", 1.0 / units::bar, 0.0};
        return {"kPa", 1.0 / units::kPa, 0.0};
    }
    if (si_unit == "1" || si_unit.empty()) return {"", 1.0, 0.0};
    return {std::string(si_unit), 1.0, 0.0};
}

bool isAbsoluteTemperature(std::string_view name) {
    return name.find("temp") != std::string_view::npos ||
           name.find("bulb") != std::string_view::npos;
}

bool isHeatFlow(std::string_view name) {
    return name.find("heat") != std::string_view::npos ||
           name.find("duty") != std::string_view::npos;
}

Unit unitForQuantity(std::string_view name, std::string_view si_unit, double max_abs,
                     UnitSystem system) {
    const bool ip = system == UnitSystem::IP;
    // Metrics in "C" are all absolute (design_tcs_supply_temp_C, max_gpu_junction_C); in K,
    // the name tells (isAbsoluteTemperature).
    if (si_unit == "K" && !isAbsoluteTemperature(name)) {
        // A difference: no offset. 1 K = 1.8 °F of difference.
        if (ip) return {"Δ°F", 1.8, 0.0};
        return {"K", 1.0, 0.0};
    }
    if (ip && si_unit == "W" && isHeatFlow(name)) {
        return {"ton", 1.0 / units::ton_refrigeration, 0.0};
    }
    return unitFor(si_unit, max_abs, system);
}

std::string formatNumber(double v) {
    // No value (a job no output sample saw running, a share of nothing): a dash, as the
    // schematic shows one, not "nan".
    if (std::isnan(v)) return kNoValue;
    if (!std::isfinite(v)) return v > 0 ? "inf" : "-inf";
    const double a = std::abs(v);
    if (a != 0.0 && a < 1e-3) return fmt::format("{:.4g}", v);
    // Large values grouped in thousands ("15,790,000") rather than "1.579e+07".
    if (a >= 1e4) return grouped(v);
    // Counts and other whole numbers read as such ("16", not "16.00"). "Whole" allows the
    // round-off of arithmetic: 308.25 K − 273.15 − 0.1 is 35.00000000000002, which printed as
    // "35.00" beside an exact "31". The band is far below the 0.005 that two decimals show,
    // so a PUE of 1.001 still reads "1.00", never "1".
    if (a >= 100.0 || std::abs(v - std::round(v)) <= 1e-9 * std::max(1.0, a)) {
        return fmt::format("{:.0f}", std::round(v));
    }
    if (a >= 0.1) return fmt::format("{:.2f}", v);
    return fmt::format("{:.3g}", v);
}

std::string formatMeasurement(double v) {
    if (std::isnan(v)) return kNoValue;
    if (!std::isfinite(v)) return v > 0 ? "inf" : "-inf";
    const double a = std::abs(v);
    if (a >= 1e4) return grouped(v);
    if (a >= 100.0) return fmt::format("{:.0f}", v);
    if (a >= 10.0 || a == 0.0) return fmt::format("{:.1f}", v);
    if (a >= 0.1) return fmt::format("{:.2f}", v);
    return fmt::format("{:.3g}", v);
}

std::string readableName(std::string_view name, std::string_view unit) {
    std::string n(name);
    // The unit is shown in brackets; a suffix repeating it ("_pct", "_kW", "_C", "_L_per_kWh"
    // for L/kWh) goes, or the sweep table's header read "wue L per kWh [L/kWh]".
    std::string per(unit);
    for (std::size_t i = per.find('/'); i != std::string::npos; i = per.find('/', i + 5)) {
        per.replace(i, 1, "_per_");
    }
    for (const std::string& suffix :
         {std::string(unit), per, std::string(unit == "%" ? "pct" : "")}) {
        if (!suffix.empty() && n.size() > suffix.size() + 1 && n.ends_with("_" + suffix)) {
            n.resize(n.size() - suffix.size() - 1);
            break;
        }
    }
    // Abbreviations engineers write in capitals ("PUE", "IT energy", "GPU junction").
    static constexpr std::array<std::string_view, 13> kAcronyms = {
        "pue", "wue", "it", "gpu", "tcs", "fws", "cdu", "ups", "mv", "lv", "bess", "crah", "hx"};
    std::string out;
    std::size_t start = 0;
    while (start <= n.size()) {
        const std::size_t end = std::min(n.find('_', start), n.size());
        std::string word = n.substr(start, end - start);
        if (!word.empty()) {
            if (std::find(kAcronyms.begin(), kAcronyms.end(), word) != kAcronyms.end()) {
                std::transform(word.begin(), word.end(), word.begin(),
                               [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
            }
            if (!out.empty()) out += ' ';
            out += word;
        }
        start = end + 1;
    }
    return out;
}

TableDisplay::TableDisplay(const Table& table, UnitSystem system) {
    const bool cooling = table.path == "sizing/cooling";
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
        const Table::Column& col = table.columns[c];
        if (col.name == "unit" && std::holds_alternative<std::vector<std::string>>(col.data)) {
            unit_column_ = static_cast<int>(c);
        }
    }
    if (unit_column_ >= 0) {
        const auto& row_unit = std::get<std::vector<std::string>>(
            table.columns[static_cast<std::size_t>(unit_column_)].data);
        for (std::size_t r = 0; r < row_unit.size(); ++r) {
            // The rating sets the row's scale; other unit-less numbers of the row follow it.
            double magnitude = 0.0;
            for (const Table::Column& col : table.columns) {
                const auto* n = std::get_if<std::vector<double>>(&col.data);
                if (n && col.unit.empty() && r < n->size() && std::isfinite((*n)[r])) {
                    magnitude = std::max(magnitude, std::abs((*n)[r]));
                    if (col.name == "rating") break;
                }
            }
            // In the cooling table a power in W is a heat duty (CDU, heat-rejection, CRAH and
            // chiller capacities), which IP reads in tons of refrigeration.
            row_ratio_.push_back(row_unit[r] == "1");
            row_units_.push_back(cooling && row_unit[r] == "W"
                                     ? unitForQuantity("heat_duty", "W", magnitude, system)
                                     : unitFor(row_unit[r], magnitude, system));
        }
    }
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
        const Table::Column& col = table.columns[c];
        const auto* numbers = std::get_if<std::vector<double>>(&col.data);
        // Percentages and per-unit values stay as they are; physical units get scaled.
        const bool keep = col.unit == "%" || col.unit == "pct" || col.name.ends_with("_pct");
        double max_abs = 0.0;
        if (numbers) {
            for (double v : *numbers) {
                if (std::isfinite(v)) max_abs = std::max(max_abs, std::abs(v));
            }
        }
        units_.push_back(numbers && !keep ? unitFor(col.unit, max_abs, system)
                                          : Unit{col.unit, 1.0, 0.0});
        int decimals = -1;
        if (numbers && col.unit == "s" && max_abs < 1e4) {
            const Unit& u = units_.back();
            const auto shows = [&](int d) {
                const double scale = std::pow(10.0, d);
                return std::all_of(numbers->begin(), numbers->end(), [&](double v) {
                    if (!std::isfinite(v)) return true;
                    const double x = u.fromSI(v) * scale;
                    return std::abs(x - std::round(x)) <= 1e-6 * std::max(1.0, std::abs(x));
                });
            };
            decimals = shows(0) ? 0 : shows(1) ? 1 : 2;
        }
        decimals_.push_back(decimals);
        if (numbers && loading_column_ < 0 && col.name.find("loading") != std::string::npos) {
            loading_column_ = static_cast<int>(c);
        }
    }
}

std::string TableDisplay::header(const Table& table, std::size_t column) const {
    const Table::Column& col = table.columns.at(column);
    const std::string name = readableName(col.name, col.unit);
    const std::string& unit = units_.at(column).label;
    return unit.empty() ? name : fmt::format("{} [{}]", name, unit);
}

std::string TableDisplay::cell(const Table& table, std::size_t row, std::size_t column) const {
    const Table::Column& col = table.columns.at(column);
    if (const auto* numbers = std::get_if<std::vector<double>>(&col.data)) {
        const double v = numbers->at(row);
        // A ratio near 1 (a partial PUE, 1.0048 beside 1.0093) says nothing at two decimals.
        const auto ratioText = [&]() -> std::optional<std::string> {
            const double a = std::abs(v);
            if (std::isfinite(v) && a >= 0.1 && a < 100.0 &&
                std::abs(v - std::round(v)) > 1e-9 * a) {
                return fmt::format("{:.4f}", v);
            }
            return std::nullopt;
        };
        if (col.unit.empty() && row < row_units_.size()) {
            // A row whose unit is "1" (an ensemble's PUE among its energies) is such a ratio.
            if (row_ratio_[row]) {
                if (auto t = ratioText()) return *t;
            }
            return formatNumber(row_units_[row].fromSI(v));
        }
        if (col.unit == "1") {
            if (auto t = ratioText()) return *t;
        }
        if (const int d = decimals_.at(column); d >= 0 && std::isfinite(v)) {
            return fmt::format("{:.{}f}", units_.at(column).fromSI(v), d);
        }
        return formatNumber(units_.at(column).fromSI(v));
    }
    if (static_cast<int>(column) == unit_column_ && row < row_units_.size()) {
        return row_units_[row].label;
    }
    return std::get<std::vector<std::string>>(col.data).at(row);
}

}  // namespace dctwin::display
