#include "core/units.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>

#include "core/errors.h"

namespace dctwin::units {
namespace {

struct Linear {
    double scale;  // SI = value * scale + offset
    double offset;
    const char* si;
};

const std::map<std::string, Linear, std::less<>>& table() {
    static const std::map<std::string, Linear, std::less<>> t = {
        {"", {1.0, 0.0, "1"}},
        {"C", {1.0, kZeroCelsius, "K"}},
        {"F", {5.0 / 9.0, kZeroCelsius - 32.0 * 5.0 / 9.0, "K"}},
        {"K", {1.0, 0.0, "K"}},
        {"dC", {1.0, 0.0, "K"}},
        {"dK", {1.0, 0.0, "K"}},
        {"dF", {5.0 / 9.0, 0.0, "K"}},
        {"W", {1.0, 0.0, "W"}},
        {"kW", {kW, 0.0, "W"}},
        {"MW", {MW, 0.0, "W"}},
        {"VA", {1.0, 0.0, "VA"}},
        {"kVA", {kVA, 0.0, "VA"}},
        {"MVA", {MVA, 0.0, "VA"}},
        {"V", {1.0, 0.0, "V"}},
        {"kV", {kV, 0.0, "V"}},
        {"A", {1.0, 0.0, "A"}},
        {"J", {1.0, 0.0, "J"}},
        {"kJ", {1e3, 0.0, "J"}},
        {"kWh", {kWh, 0.0, "J"}},
        {"MWh", {MWh, 0.0, "J"}},
        {"Lpm", {L_per_min, 0.0, "m3/s"}},
        {"m3h", {m3_per_h, 0.0, "m3/s"}},
        {"m3s", {1.0, 0.0, "m3/s"}},
        {"gpm", {gpm, 0.0, "m3/s"}},
        {"L", {litre, 0.0, "m3"}},
        {"m3", {1.0, 0.0, "m3"}},
        {"gal", {US_gallon, 0.0, "m3"}},
        {"Pa", {1.0, 0.0, "Pa"}},
        {"kPa", {kPa, 0.0, "Pa"}},
        {"bar", {bar, 0.0, "Pa"}},
        {"psi", {psi, 0.0, "Pa"}},
        {"s", {1.0, 0.0, "s"}},
        {"ms", {1e-3, 0.0, "s"}},
        {"min", {minute, 0.0, "s"}},
        {"h", {hour, 0.0, "s"}},
        {"days", {day, 0.0, "s"}},
        {"pct", {0.01, 0.0, "1"}},
        {"kg", {1.0, 0.0, "kg"}},
        {"kgs", {1.0, 0.0, "kg/s"}},
        {"W/s", {1.0, 0.0, "W/s"}},
        {"kW/s", {kW, 0.0, "W/s"}},
        {"MW/s", {MW, 0.0, "W/s"}},
    };
    return t;
}

const Linear& lookup(std::string_view unit) {
    auto it = table().find(unit);
    if (it == table().end()) {
        throw InputError(
            fmt::format("unknown unit '{}'; valid units: {}", unit, fmt::join(knownUnits(), ", ")));
    }
    return it->second;
}

}  // namespace

double toSI(double value, std::string_view unit) {
    const Linear& l = lookup(unit);
    return value * l.scale + l.offset;
}

double fromSI(double value_si, std::string_view unit) {
    const Linear& l = lookup(unit);
    return (value_si - l.offset) / l.scale;
}

std::string siUnitOf(std::string_view unit) { return lookup(unit).si; }

const std::vector<std::string>& knownUnits() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> v;
        for (const auto& [k, _] : table()) {
            if (!k.empty()) v.push_back(k);
        }
        return v;
    }();
    return names;
}

}  // namespace dctwin::units
