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
            const auto& str = v.get_ref<const std::string&>();
            if (str.size() <= 60) {
                return v.dump(-1, ' ', false, Json::error_handler_t::replace) + " (a string)";
            }
            return fmt::format("\"{}\" (a string)", quoteValue(str));
        }
        default:
            return v.dump(-1, ' ', false, Json::error_handler_t::replace);
    }
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

/// "<origin>:<line>:<column>" for a byte offset into `text`.
std::string position(std::string_view text, std::string_view origin, std::size_t offset) {
    const std::size_t off = std::min(offset, text.size());
    const std::size_t line =
        1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + off, '\n'));
    const std::size_t nl = off == 0 ? std::string_view::npos : text.rfind('\n', off - 1);
    const std::size_t line_start = nl == std::string_view::npos ? 0 : nl + 1;
    return fmt::format("{}:{}:{}", origin, line, off - line_start + 1);
}

/// Replaces bytes that are not printable ASCII by \xNN, so a message quoting raw input stays
/// valid UTF-8 text for terminals, JSON summaries and the GUI.
std::string printable(std::string_view s) {
    std::string out;
    for (unsigned char c : s) {
        if (c >= 0x20 && c < 0x7f) {
            out += static_cast<char>(c);
        } else {
            out += fmt::format("\\x{:02X}", c);
        }
    }
    return out;
}

/// Byte offset at which the nesting of objects and arrays first exceeds `limit`, skipping
/// strings; text.size() if it never does. Used only to place the depth error.
std::size_t offsetBeyondDepth(std::string_view text, std::size_t limit) {
    std::size_t depth = 0;
    bool in_string = false, escaped = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (escaped) {
                escaped = false;
            } else if (c == '\\') {
                escaped = true;
            } else if (c == '"') {
                in_string = false;
            }
        } else if (c == '"') {
            in_string = true;
        } else if (c == '{' || c == '[') {
            if (++depth > limit) return i;
        } else if ((c == '}' || c == ']') && depth > 0) {
            --depth;
        }
    }
    return text.size();
}

/// nlohmann's DOM builder behind a SAX filter that stops the parse (before building anything
/// deeper) when nesting exceeds kMaxJsonDepth, rejects a key repeated in one object (nlohmann
/// would keep the last silently; in a scenario that is almost always an edit mistake), and
/// records where a syntax or number-range error happened instead of throwing without the
/// position. nlohmann's SAX parser is iterative, so nothing here recurses on the input depth.
class CheckedSax {
public:
    explicit CheckedSax(Json& root) : dom_(root, /*allow_exceptions=*/false) {}

    enum class Problem { none, depth, duplicate_key, syntax };
    Problem problem = Problem::none;
    std::size_t error_offset = 0;  // [bytes] where the syntax/number error was found
    std::string error_message;     // nlohmann's message without its "[json.exception...]" tag
    int error_id = 0;              // nlohmann's exception id (101 syntax, 406 number overflow)
    std::string duplicate;
    std::string duplicate_path;  // JSON pointer of the key given twice

    bool null() { return next() && dom_.null(); }
    bool boolean(bool v) { return next() && dom_.boolean(v); }
    bool number_integer(Json::number_integer_t v) { return next() && dom_.number_integer(v); }
    bool number_unsigned(Json::number_unsigned_t v) { return next() && dom_.number_unsigned(v); }
    bool number_float(Json::number_float_t v, const Json::string_t& s) {
        return next() && dom_.number_float(v, s);
    }
    bool string(Json::string_t& v) { return next() && dom_.string(v); }
    bool binary(Json::binary_t& v) { return next() && dom_.binary(v); }
    bool start_object(std::size_t n) {
        if (!next() || !enter()) return false;
        keys_.emplace_back();
        path_.push_back({false, {}, 0});
        return dom_.start_object(n);
    }
    bool key(Json::string_t& k) {
        if (!keys_.empty() && !keys_.back().insert(k).second) {
            problem = Problem::duplicate_key;
            duplicate = k;
            // Where, as a JSON pointer: "key 'x' appears more than once" alone left a user to
            // search a long scenario for which of its objects holds the second one.
            if (!path_.empty()) path_.back().key = k;
            for (const Frame& f : path_) {
                duplicate_path +=
                    "/" + (f.array ? std::to_string(f.index - 1) : escapeJsonPointerToken(f.key));
            }
            return false;
        }
        if (!path_.empty()) path_.back().key = k;
        return dom_.key(k);
    }
    bool end_object() {
        --depth_;
        if (!keys_.empty()) keys_.pop_back();
        if (!path_.empty()) path_.pop_back();
        return dom_.end_object();
    }
    bool start_array(std::size_t n) {
        if (!next() || !enter()) return false;
        path_.push_back({true, {}, 0});
        return dom_.start_array(n);
    }
    bool end_array() {
        --depth_;
        if (!path_.empty()) path_.pop_back();
        return dom_.end_array();
    }
    bool parse_error(std::size_t offset, const std::string& /*last_token*/,
                     const nlohmann::detail::exception& e) {
        problem = Problem::syntax;
        error_offset = offset;
        error_id = e.id;
        // "[json.exception.parse_error.101] parse error at line 1, column 2: <what>".
        std::string what = e.what();
        if (auto p = what.find("parse error"); p != std::string::npos) {
            if (auto colon = what.find(": ", p); colon != std::string::npos) {
                what = what.substr(colon + 2);
            }
        } else if (auto tag = what.find("] "); tag != std::string::npos) {
            what = what.substr(tag + 2);
        }
        error_message = std::move(what);
        return false;
    }

private:
    bool enter() {
        if (++depth_ > kMaxJsonDepth) {
            problem = Problem::depth;
            return false;
        }
        return true;
    }
    /// A value starts: in an array it is the next element.
    bool next() {
        if (!path_.empty() && path_.back().array) ++path_.back().index;
        return true;
    }
    /// Where the parser is: per open object its current key, per open array the count of its
    /// elements so far.
    struct Frame {
        bool array = false;
        std::string key;
        std::size_t index = 0;
    };
    nlohmann::detail::json_sax_dom_parser<Json> dom_;
    std::size_t depth_ = 0;
    std::vector<std::set<std::string>> keys_;
    std::vector<Frame> path_;
};

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
    Json result;
    CheckedSax sax(result);
    const bool ok = Json::sax_parse(text.begin(), text.end(), &sax);
    if (ok && sax.problem == CheckedSax::Problem::none) return result;
    switch (sax.problem) {
        case CheckedSax::Problem::depth: {
            const std::size_t at = offsetBeyondDepth(text, kMaxJsonDepth);
            throw InputError(
                fmt::format("{}: objects and arrays are nested more than {} levels "
                            "deep; a scenario needs fewer than 10",
                            position(text, origin, at), kMaxJsonDepth));
        }
        case CheckedSax::Problem::duplicate_key:
            throw InputError(fmt::format("{}: {}: key '{}' appears more than once in one object",
                                         origin, printable(sax.duplicate_path),
                                         quoteValue(printable(sax.duplicate))));
        default:
            break;
    }
    // nlohmann's offset counts the bytes read including the offending one.
    const std::string where =
        position(text, origin, sax.error_offset > 0 ? sax.error_offset - 1 : 0);
    if (sax.error_id == 406) {
        // "number overflow parsing '1e400'"
        std::string number = sax.error_message;
        if (auto q = number.find('\''); q != std::string::npos) {
            number = number.substr(q + 1);
            if (!number.empty() && number.back() == '\'') number.pop_back();
        }
        throw InputError(
            fmt::format("{}: number {} is out of range (a JSON number here must be "
                        "a finite double, magnitude below 1.8e308)",
                        where, quoteValue(printable(number))));
    }
    if (sax.error_message.find("ill-formed UTF-8") != std::string::npos) {
        throw InputError(
            fmt::format("{}: the text is not valid UTF-8 (a byte sequence inside a "
                        "string is not a UTF-8 character); save the file as UTF-8",
                        where));
    }
    throw InputError(fmt::format("{}: {}", where, quoteValue(printable(sax.error_message), 200)));
}

std::string quoteValue(std::string_view value, std::size_t max) {
    if (value.size() <= max) return std::string(value);
    std::size_t cut = max;
    // Do not split a UTF-8 character: back up over continuation bytes (10xxxxxx).
    while (cut > 0 && (static_cast<unsigned char>(value[cut]) & 0xC0) == 0x80) --cut;
    return fmt::format("{}… ({} characters)", value.substr(0, cut), value.size());
}

namespace {

/// The candidate nearest by case-insensitive edit distance, within a third of the name's
/// length (at least 2); "" when none is that near.
std::string nearestByEdits(std::string_view name, const std::vector<std::string>& candidates) {
    if (name.empty()) return {};
    const std::size_t limit = std::max<std::size_t>(2, name.size() / 3);
    std::string best;
    std::size_t best_distance = std::numeric_limits<std::size_t>::max();
    for (const auto& c : candidates) {
        // The distance is at least the length difference; skipping hopeless candidates keeps a
        // megabyte-long name from costing seconds.
        const std::size_t diff =
            name.size() > c.size() ? name.size() - c.size() : c.size() - name.size();
        if (diff > limit) continue;
        const std::size_t d = editDistance(name, c);
        if (d < best_distance) {
            best_distance = d;
            best = c;
        }
    }
    return best_distance <= limit ? best : std::string{};
}

}  // namespace

std::string nearestName(std::string_view name, const std::vector<std::string>& candidates) {
    if (name.empty()) return {};
    auto lower = [](std::string_view s) {
        std::string out(s);
        for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return out;
    };
    const std::string key = lower(name);
    // 1. The same name in another case ("H100" for "h100", "pg25" for "PG25").
    for (const auto& c : candidates) {
        if (c.size() == key.size() && lower(c) == key) return c;
    }
    // 2. A name the input begins, the shortest ("train" is "training", not the nearer
    //    "trace"; "H100" is "h100_sxm" before "h100_pcie").
    const std::string* prefixed = nullptr;
    for (const auto& c : candidates) {
        if (c.size() > key.size() && lower(c).starts_with(key) &&
            (prefixed == nullptr || c.size() < prefixed->size())) {
            prefixed = &c;
        }
    }
    if (prefixed != nullptr) return *prefixed;
    // 3. The nearest by edit distance.
    return nearestByEdits(name, candidates);
}

bool isNearMiss(std::string_view name, const std::vector<std::string>& candidates) {
    return !nearestByEdits(name, candidates).empty();
}

// ---------------------------------------------------------------------------------------------

JsonView::JsonView(const Json& value, std::string path) : value_(&value), path_(std::move(path)) {}

JsonView JsonView::merged(const Json& value, JsonProvenance provenance) {
    JsonView v(value, provenance.user_path);
    v.provenance_ = std::make_shared<const JsonProvenance>(std::move(provenance));
    return v;
}

std::string JsonView::childPath(std::string_view key) const {
    const std::string token = escapeJsonPointerToken(key);
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
                           escapeJsonPointerToken(*it), provenance_->record);
    }
    return fmt::format("{}: catalog record {}/{}",
                       provenance_->user_path.empty() ? "/" : provenance_->user_path,
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
        // 1e20 is whole, so "expected an integer, got 1e+20" read as a contradiction.
        if (std::trunc(d) == d) {
            fail(fmt::format("expected an integer, got {} (too large)", describe(v)));
        }
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

JsonInteger::operator int() const {
    if (value_ < std::numeric_limits<int>::min() || value_ > std::numeric_limits<int>::max()) {
        throw InputError(
            fmt::format("{}: value {} is too large for a count; expected between "
                        "{} and {}",
                        path_.empty() ? "/" : path_, value_, std::numeric_limits<int>::min(),
                        std::numeric_limits<int>::max()));
    }
    return static_cast<int>(value_);
}

JsonInteger JsonView::integer(std::string_view key) const {
    return JsonInteger(at(key).asInteger(), childPath(key));
}

JsonInteger JsonView::integer(std::string_view key, std::int64_t fallback) const {
    auto child = find(key);
    return JsonInteger(child ? child->asInteger() : fallback, childPath(key));
}

int JsonView::count(std::string_view key, int min, int max) const {
    const std::int64_t n = at(key).asInteger();
    if (n < min || n > max) {
        fail(key, fmt::format("value {} is out of range; expected a whole number between {} "
                              "and {}",
                              n, min, max));
    }
    return static_cast<int>(n);
}

int JsonView::count(std::string_view key, int min, int max, int fallback) const {
    return find(key) ? count(key, min, max) : fallback;
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
    v.fail(fmt::format("unknown choice '{}';{} valid choices: {}", quoteValue(s),
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
    // Six digits unless that makes the value look like a bound it lies just outside of
    // ("value 50 is out of range; expected between 50 and ..." for 49.9999999).
    const bool close =
        formatNumber(units::fromSI(value_si, unit)) == formatNumber(units::fromSI(min_si, unit)) ||
        formatNumber(units::fromSI(value_si, unit)) == formatNumber(units::fromSI(max_si, unit));
    auto show = [&](double si) {
        const double x = units::fromSI(si, unit);
        return (close ? fmt::format("{}", x) : formatNumber(x)) + u;
    };
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
        fail(fmt::format("unknown key '{}';{} valid keys: {}", quoteValue(key),
                         near.empty() ? "" : fmt::format(" did you mean '{}'?", near),
                         fmt::join(allowed, ", ")));
    }
}

namespace {
/// The record's keys that give the quantity of `key` in another unit: for "capacity_MW",
/// "capacity_kW" (units of one SI dimension, core/units.h); none when `key` has no unit suffix.
std::vector<std::string> sameQuantityKeys(const Json& base, std::string_view key) {
    std::vector<std::string> same;
    for (const std::string& u : units::knownUnits()) {
        if (u.empty() || key.size() <= u.size() + 1 || !key.ends_with(u) ||
            key[key.size() - u.size() - 1] != '_') {
            continue;
        }
        const std::string_view stem = key.substr(0, key.size() - u.size());  // "capacity_"
        const std::string si = units::siUnitOf(u);
        for (const auto& item : base.items()) {
            const std::string& k = item.key();
            if (k == key || !k.starts_with(stem)) continue;
            const std::string_view v = std::string_view(k).substr(stem.size());
            const auto& known = units::knownUnits();
            if (!v.empty() && std::find(known.begin(), known.end(), v) != known.end() &&
                units::siUnitOf(v) == si) {
                same.push_back(k);
            }
        }
    }
    return same;
}
}  // namespace

Json mergePatch(Json base, const Json& overrides) {
    if (!base.is_object() || !overrides.is_object()) return overrides;
    for (const auto& item : overrides.items()) {
        // An override in another unit than the record's replaces it: "capacity_MW": 1.5 on a
        // record with "capacity_kW" read as the quantity given twice ("keep only one"), though
        // the user gave it once, in a unit the reference offers.
        if (!item.value().is_object()) {
            for (const std::string& k : sameQuantityKeys(base, item.key())) base.erase(k);
        }
        auto it = base.find(item.key());
        if (it != base.end() && it->is_object() && item.value().is_object()) {
            *it = mergePatch(std::move(*it), item.value());
        } else {
            base[item.key()] = item.value();
        }
    }
    return base;
}

std::string escapeJsonPointerToken(std::string_view key) {
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

std::vector<std::string> splitJsonPointer(std::string_view pointer) {
    std::vector<std::string> tokens;
    if (pointer.empty()) return tokens;
    if (pointer.front() != '/') {
        throw InputError(
            fmt::format("'{}' is not a JSON pointer; it must start with '/'", pointer));
    }
    std::string token;
    for (std::size_t i = 1; i <= pointer.size(); ++i) {
        if (i == pointer.size() || pointer[i] == '/') {
            tokens.push_back(token);
            token.clear();
        } else if (pointer[i] == '~' && i + 1 < pointer.size() &&
                   (pointer[i + 1] == '0' || pointer[i + 1] == '1')) {
            token += pointer[i + 1] == '0' ? '~' : '/';
            ++i;
        } else {
            token += pointer[i];
        }
    }
    return tokens;
}

}  // namespace dctwin
