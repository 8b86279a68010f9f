// JSON helpers: file reading with positioned syntax errors, JsonView typed access with
// path-naming errors, unit-suffixed quantities, unknown-key detection and merge patches.
#include "core/json.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

#include "core/errors.h"
#include "core/units.h"

namespace dctwin {
namespace {

/// A short description of a value for "got ..." in messages; long strings are cut so a
/// pasted blob does not drown the message.
std::string describe(const Json& v) {
    switch (v.type()) {
        case Json::value_t::null:
            return "null";
        case Json::value_t::boolean:
            return v.get<bool>() ? "true" : "false";
        case Json::value_t::object:
            return "an object";
        case Json::value_t::array:
            return "an array";
        case Json::value_t::string: {
            std::string s = v.dump(-1, ' ', false, Json::error_handler_t::replace);
            if (s.size() > 60) s = s.substr(0, 57) + "...\"";
            return s + " (a string)";
        }
        default:
            return v.dump(-1, ' ', false, Json::error_handler_t::replace);
    }
}

/// JSON-pointer escaping (RFC 6901) so keys containing '/' or '~' give unambiguous paths.
std::string escapePointerToken(std::string_view key) {
    std::string out;
    out.reserve(key.size());
    for (char c : key) {
        if (c == '~') {
            out += "~0";
        } else if (c == '/') {
            out += "~1";
        } else {
            out += c;
        }
    }
    return out;
}

// Case-insensitive so "pg25" still suggests "PG25".
std::size_t editDistance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                              std::tolower(static_cast<unsigned char>(b[j - 1]));
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (same ? 0 : 1)});
        }
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

std::string quantityKey(std::string_view base, std::string_view unit) {
    return unit.empty() ? std::string(base) : fmt::format("{}_{}", base, unit);
}

std::string formatNumber(double v) { return fmt::format("{:.6g}", v); }

/// Builds "<origin>:<line>:<column>: <what>" from nlohmann's byte offset, because its own
/// message does not name the file.
[[noreturn]] void throwParseError(std::string_view text, std::string_view origin,
                                  const Json::parse_error& e) {
    const std::size_t off = std::min<std::size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
    const std::size_t line =
        1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + off, '\n'));
    const std::size_t nl = off == 0 ? std::string_view::npos : text.rfind('\n', off - 1);
    const std::size_t line_start = nl == std::string_view::npos ? 0 : nl + 1;
    const std::size_t column = off - line_start + 1;

    // nlohmann: "[json.exception.parse_error.101] parse error at line 1, column 2: <what>".
    std::string what = e.what();
    if (auto p = what.find("parse error"); p != std::string::npos) {
        if (auto colon = what.find(": ", p); colon != std::string::npos) {
            what = what.substr(colon + 2);
        }
    }
    throw InputError(fmt::format("{}:{}:{}: {}", origin, line, column, what));
}

}  // namespace

Json readJsonFile(const std::filesystem::path& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        throw InputError(fmt::format("cannot read scenario file '{}': {}", path.string(),
                                     std::strerror(EISDIR)));
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        const int err = errno;
        throw InputError(fmt::format("cannot read scenario file '{}': {}", path.string(),
                                     std::strerror(err != 0 ? err : ENOENT)));
    }
    std::ostringstream buffer;
    buffer << in.rdbuf();
    if (in.bad()) {
        throw InputError(fmt::format("cannot read scenario file '{}': read error", path.string()));
    }
    return parseJson(buffer.str(), path.string());
}

Json parseJson(std::string_view text, std::string_view origin) {
    // nlohmann keeps the last of duplicate keys silently; a duplicated key in a scenario is
    // almost always an edit mistake, so it is rejected. One key set per open object.
    std::vector<std::set<std::string>> open_objects;
    std::string duplicate;
    auto callback = [&](int /*depth*/, Json::parse_event_t event, Json& parsed) {
        switch (event) {
            case Json::parse_event_t::object_start:
                open_objects.emplace_back();
                break;
            case Json::parse_event_t::object_end:
                if (!open_objects.empty()) open_objects.pop_back();
                break;
            case Json::parse_event_t::key:
                if (!open_objects.empty() &&
                    !open_objects.back().insert(parsed.get<std::string>()).second &&
                    duplicate.empty()) {
                    duplicate = parsed.get<std::string>();
                }
                break;
            default:
                break;
        }
        return true;
    };
    Json result;
    try {
        result = Json::parse(text.begin(), text.end(), callback);
    } catch (const Json::parse_error& e) {
        throwParseError(text, origin, e);
    }
    if (!duplicate.empty()) {
        throw InputError(
            fmt::format("{}: key '{}' appears more than once in one object", origin, duplicate));
    }
    return result;
}

std::string nearestName(std::string_view name, const std::vector<std::string>& candidates) {
    if (name.empty()) return {};
    const std::size_t limit = std::max<std::size_t>(2, name.size() / 3);
    std::string best;
    std::size_t best_distance = std::numeric_limits<std::size_t>::max();
    for (const auto& c : candidates) {
        const std::size_t d = editDistance(name, c);
        if (d < best_distance) {
            best_distance = d;
            best = c;
        }
    }
    return best_distance <= limit ? best : std::string{};
}

// ---------------------------------------------------------------------------------------------

JsonView::JsonView(const Json& value, std::string path) : value_(&value), path_(std::move(path)) {}

JsonView JsonView::merged(const Json& value, JsonProvenance provenance) {
    JsonView v(value, provenance.user_path);
    v.provenance_ = std::make_shared<const JsonProvenance>(std::move(provenance));
    return v;
}

std::string JsonView::childPath(std::string_view key) const {
    const std::string token = escapePointerToken(key);
    if (!provenance_) return fmt::format("{}/{}", path_, token);
    // A quantity is checked under its base name ("capacity") while the scenario wrote it with
    // a unit ("capacity_kW"): both count as the scenario's key.
    const auto& o = provenance_->overridden;
    const auto it = std::find_if(o.begin(), o.end(), [&](const std::string& k) {
        return k == key || (k.size() > key.size() + 1 && k.compare(0, key.size(), key) == 0 &&
                            k[key.size()] == '_');
    });
    if (it != o.end()) {
        return fmt::format("{}/{} (overriding catalog record {})", provenance_->user_path,
                           escapePointerToken(*it), provenance_->record);
    }
    return fmt::format("{}: catalog record {}/{}", provenance_->user_path.empty()
                                                       ? "/"
                                                       : provenance_->user_path,
                       provenance_->record, token);
}

void JsonView::fail(std::string_view key, std::string_view message) const {
    throw InputError(fmt::format("{}: {}", childPath(key), message));
}

void JsonView::fail(std::string_view message) const {
    throw InputError(fmt::format("{}: {}", where(), message));
}

bool JsonView::has(std::string_view key) const {
    return value_->is_object() && value_->contains(key);
}

JsonView JsonView::at(std::string_view key) const {
    if (!value_->is_object()) fail(fmt::format("expected an object, got {}", describe(*value_)));
    auto it = value_->find(key);
    if (it == value_->end()) fail(key, "required key is missing");
    return JsonView(*it, childPath(key));
}

std::optional<JsonView> JsonView::find(std::string_view key) const {
    if (!value_->is_object()) fail(fmt::format("expected an object, got {}", describe(*value_)));
    auto it = value_->find(key);
    if (it == value_->end()) return std::nullopt;
    return JsonView(*it, childPath(key));
}

JsonView JsonView::at(std::size_t index) const {
    if (!value_->is_array()) fail(fmt::format("expected an array, got {}", describe(*value_)));
    if (index >= value_->size()) {
        fail(fmt::format("index {} is out of range; the array has {} elements", index,
                         value_->size()));
    }
    return JsonView((*value_)[index], fmt::format("{}/{}", path_, index));
}

std::size_t JsonView::size() const {
    if (!value_->is_array() && !value_->is_object()) {
        fail(fmt::format("expected an array or an object, got {}", describe(*value_)));
    }
    return value_->size();
}

std::vector<JsonView> JsonView::elements() const {
    if (!value_->is_array()) fail(fmt::format("expected an array, got {}", describe(*value_)));
    std::vector<JsonView> out;
    out.reserve(value_->size());
    for (std::size_t i = 0; i < value_->size(); ++i) {
        out.emplace_back((*value_)[i], fmt::format("{}/{}", path_, i));
    }
    return out;
}

std::vector<std::string> JsonView::keys() const {
    if (!value_->is_object()) fail(fmt::format("expected an object, got {}", describe(*value_)));
    std::vector<std::string> out;
    out.reserve(value_->size());
    for (const auto& item : value_->items()) out.push_back(item.key());
    return out;
}

double JsonView::asNumber() const {
    // is_number() is false for booleans in nlohmann, so `true` is not taken as 1.
    if (!value_->is_number()) fail(fmt::format("expected a number, got {}", describe(*value_)));
    return value_->get<double>();
}

std::int64_t JsonView::asInteger() const {
    const Json& v = *value_;
    if (v.is_number_unsigned()) {
        const auto u = v.get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
            fail(fmt::format("expected an integer, got {} (too large)", describe(v)));
        }
        return static_cast<std::int64_t>(u);
    }
    if (v.is_number_integer()) return v.get<std::int64_t>();
    if (v.is_number_float()) {
        // 8.0 is accepted (some tools write integers that way); 3.5 is not.
        const double d = v.get<double>();
        if (std::trunc(d) == d && std::abs(d) < 9.2e18) return static_cast<std::int64_t>(d);
    }
    fail(fmt::format("expected an integer, got {}", describe(v)));
}

bool JsonView::asBool() const {
    if (!value_->is_boolean()) {
        fail(fmt::format("expected true or false, got {}", describe(*value_)));
    }
    return value_->get<bool>();
}

std::string JsonView::asString() const {
    if (!value_->is_string()) fail(fmt::format("expected a string, got {}", describe(*value_)));
    return value_->get<std::string>();
}

double JsonView::number(std::string_view key) const { return at(key).asNumber(); }

double JsonView::number(std::string_view key, double fallback) const {
    auto child = find(key);
    return child ? child->asNumber() : fallback;
}

std::int64_t JsonView::integer(std::string_view key) const { return at(key).asInteger(); }

std::int64_t JsonView::integer(std::string_view key, std::int64_t fallback) const {
    auto child = find(key);
    return child ? child->asInteger() : fallback;
}

bool JsonView::boolean(std::string_view key, bool fallback) const {
    auto child = find(key);
    return child ? child->asBool() : fallback;
}

std::string JsonView::string(std::string_view key) const { return at(key).asString(); }

std::string JsonView::string(std::string_view key, std::string_view fallback) const {
    auto child = find(key);
    return child ? child->asString() : std::string(fallback);
}

namespace {

std::string checkChoice(const JsonView& v, const std::vector<std::string>& choices) {
    if (!v.json().is_string()) {
        v.fail(fmt::format("expected a string (one of: {}), got {}", fmt::join(choices, ", "),
                           describe(v.json())));
    }
    std::string s = v.json().get<std::string>();
    if (std::find(choices.begin(), choices.end(), s) != choices.end()) return s;
    const std::string near = nearestName(s, choices);
    v.fail(fmt::format("unknown choice '{}';{} valid choices: {}", s,
                       near.empty() ? "" : fmt::format(" did you mean '{}'?", near),
                       fmt::join(choices, ", ")));
}

}  // namespace

std::string JsonView::choice(std::string_view key, const std::vector<std::string>& choices) const {
    return checkChoice(at(key), choices);
}

std::string JsonView::choice(std::string_view key, const std::vector<std::string>& choices,
                             std::string_view fallback) const {
    auto child = find(key);
    return child ? checkChoice(*child, choices) : std::string(fallback);
}

bool JsonView::hasQuantity(std::string_view base, const std::vector<std::string>& units) const {
    return std::any_of(units.begin(), units.end(),
                       [&](const std::string& u) { return has(quantityKey(base, u)); });
}

double JsonView::quantity(std::string_view base, const std::vector<std::string>& units,
                          double fallback_si) const {
    if (!hasQuantity(base, units)) {
        // A bare "supply_temp" would otherwise only surface as an unknown key (or not at all
        // when the caller does not check keys); say what is missing.
        if (has(base)) {
            std::vector<std::string> keys;
            for (const auto& u : units) keys.push_back(quantityKey(base, u));
            fail(base, fmt::format("the key needs a unit suffix: use {}", fmt::join(keys, " or ")));
        }
        return fallback_si;
    }
    return quantity(base, units);
}

double JsonView::quantity(std::string_view base, const std::vector<std::string>& units) const {
    if (!value_->is_object()) fail(fmt::format("expected an object, got {}", describe(*value_)));
    std::vector<std::string> keys;
    std::vector<std::string> present;
    const std::string* unit_found = nullptr;
    for (const auto& u : units) {
        keys.push_back(quantityKey(base, u));
        if (has(keys.back())) {
            present.push_back(keys.back());
            unit_found = &u;
        }
    }
    if (present.size() > 1) {
        fail(fmt::format("'{}' is given more than once ({}); keep only one", base,
                         fmt::join(present, ", ")));
    }
    if (present.empty()) {
        if (has(base)) {
            fail(base, fmt::format("the key needs a unit suffix: use {}", fmt::join(keys, " or ")));
        }
        if (keys.size() == 1) fail(keys.front(), "required key is missing");
        fail(keys.front(),
             fmt::format("required key is missing (give one of {})", fmt::join(keys, ", ")));
    }
    const JsonView child = at(present.front());
    if (!child.json().is_number()) {
        child.fail(fmt::format("expected a number (in {}), got {}",
                               unit_found->empty() ? "SI" : *unit_found, describe(child.json())));
    }
    return units::toSI(child.json().get<double>(), *unit_found);
}

void JsonView::requireRange(std::string_view key, double value_si, double min_si, double max_si,
                            std::string_view unit) const {
    if (value_si >= min_si && value_si <= max_si) return;  // NaN fails here as well
    const std::string u = unit.empty() ? "" : fmt::format(" {}", unit);
    auto show = [&](double si) { return formatNumber(units::fromSI(si, unit)) + u; };
    std::string expected;
    if (std::isfinite(min_si) && std::isfinite(max_si)) {
        expected = fmt::format("between {} and {}", show(min_si), show(max_si));
    } else if (std::isfinite(min_si)) {
        expected = fmt::format("at least {}", show(min_si));
    } else if (std::isfinite(max_si)) {
        expected = fmt::format("at most {}", show(max_si));
    } else {
        expected = "a finite number";
    }
    fail(key, fmt::format("value {} is out of range; expected {}", show(value_si), expected));
}

void JsonView::checkKeys(const std::vector<std::string>& allowed) const {
    checkKeys(allowed, nullptr);
}

void JsonView::checkKeys(const std::vector<std::string>& allowed,
                         bool (*also_accepted)(std::string_view)) const {
    if (!value_->is_object()) fail(fmt::format("expected an object, got {}", describe(*value_)));
    for (const auto& item : value_->items()) {
        const std::string& key = item.key();
        if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
        if (also_accepted && also_accepted(key)) continue;
        const std::string near = nearestName(key, allowed);
        fail(fmt::format("unknown key '{}';{} valid keys: {}", key,
                         near.empty() ? "" : fmt::format(" did you mean '{}'?", near),
                         fmt::join(allowed, ", ")));
    }
}

Json mergePatch(Json base, const Json& overrides) {
    if (!base.is_object() || !overrides.is_object()) return overrides;
    for (const auto& item : overrides.items()) {
        auto it = base.find(item.key());
        if (it != base.end() && it->is_object() && item.value().is_object()) {
            *it = mergePatch(std::move(*it), item.value());
        } else {
            base[item.key()] = item.value();
        }
    }
    return base;
}

}  // namespace dctwin
