#pragma once
// JSON helpers for scenario and catalog files (DESIGN.md §5.1).
//
// A JsonView is a JSON value plus its JSON-pointer path ("/cooling/cdu/racks_per_cdu"), so
// every error names where it happened, what was found and what was expected. Keys carry their
// unit where it is not SI ("supply_temp_C"); quantity() finds the key with any accepted unit
// suffix and converts to SI. checkKeys() rejects unknown keys and suggests the nearest valid
// one (edit distance), to catch typos instead of silently ignoring them.
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dctwin {

using Json = nlohmann::json;

/// Parses a JSON file; throws InputError with file, line and column on a syntax error and a
/// clear message when the file cannot be read.
Json readJsonFile(const std::filesystem::path& path);
/// Parses JSON text; `origin` names it in errors. Besides syntax errors (with line and column)
/// it rejects, as InputError naming origin, line and column: nesting deeper than
/// kMaxJsonDepth (checked while parsing, before any value is built, so a hostile file cannot
/// exhaust the stack), numbers outside the range of a double ("1e400"), text that is not UTF-8,
/// and a key repeated within one object.
Json parseJson(std::string_view text, std::string_view origin);

/// Deepest nesting of objects and arrays parseJson accepts. Scenarios nest about 6 levels.
inline constexpr std::size_t kMaxJsonDepth = 256;

/// A value quoted in a message: as is when short, else its first `max` bytes (not splitting a
/// UTF-8 character) + "… (N characters)", so a pasted blob cannot drown the message.
std::string quoteValue(std::string_view value, std::size_t max = 80);

/// The candidate a "did you mean" suggests, by one rule for every message: the same name in
/// another case first ("H100" → "h100"), then the shortest candidate the name begins ("train"
/// → "training"), then the nearest by case-insensitive edit distance within a third of the
/// name's length (at least 2); "" if none is reasonably close.
std::string nearestName(std::string_view name, const std::vector<std::string>& candidates);
/// True when `name` is within nearestName's edit distance of a candidate (a typo of it), as
/// opposed to merely beginning one: an open object tells a typo of its own key ("ups_mdoe")
/// from a key it hands on ("ups", which begins "ups_mode") by this.
bool isNearMiss(std::string_view name, const std::vector<std::string>& candidates);

/// One key as a JSON-pointer token (RFC 6901: '~' → "~0", '/' → "~1"), so keys holding '/'
/// or '~' give unambiguous paths.
std::string escapeJsonPointerToken(std::string_view key);
/// A JSON pointer's unescaped tokens ("" has none); throws InputError for a pointer that does
/// not start with '/'.
std::vector<std::string> splitJsonPointer(std::string_view pointer);

/// Where the keys of a merged catalog record come from (DESIGN.md §2: every value keeps its
/// origin through catalog merges). A key the scenario overrides is reported at the scenario's
/// path first and the record second; a key from the record at the scenario object that named
/// the model, then the record's own path.
struct JsonProvenance {
    std::string user_path;                ///< the scenario object ("/cooling/cdu")
    std::string record;                   ///< the catalog record ("cdus.json/vertiv_xdu1350")
    std::vector<std::string> overridden;  ///< keys the scenario sets
};

/// An integer read from a scenario: converts implicitly to std::int64_t and, checked, to int.
/// `static_cast<int>(v.integer("units"))` throws an InputError naming the JSON path when the
/// value does not fit an int, instead of wrapping 4294967304 to 8. Prefer JsonView::count(),
/// which also checks the range the model allows.
class JsonInteger {
public:
    JsonInteger(std::int64_t value, std::string path) : value_(value), path_(std::move(path)) {}
    operator std::int64_t() const { return value_; }  // NOLINT: implicit by design
    /// Narrowing with a range check; InputError "<path>: value ... does not fit".
    explicit operator int() const;
    std::int64_t value() const { return value_; }

private:
    std::int64_t value_;
    std::string path_;
};

class JsonView {
public:
    JsonView(const Json& value, std::string path = "");
    /// A merged catalog record whose messages name the scenario's key first.
    static JsonView merged(const Json& value, JsonProvenance provenance);

    const Json& json() const { return *value_; }
    const std::string& path() const { return path_; }  // "" is the root
    /// Path for messages: "/" for the root.
    std::string where() const { return path_.empty() ? "/" : path_; }

    bool isObject() const { return value_->is_object(); }
    bool isArray() const { return value_->is_array(); }
    bool has(std::string_view key) const;

    /// Child of an object; InputError naming the path if absent or if this is not an object.
    JsonView at(std::string_view key) const;
    /// Child if present.
    std::optional<JsonView> find(std::string_view key) const;
    /// Element of an array.
    JsonView at(std::size_t index) const;
    std::size_t size() const;  // array length or object size
    /// Elements of an array (InputError if not an array).
    std::vector<JsonView> elements() const;
    /// Keys of an object, in file order is not guaranteed (nlohmann sorts them).
    std::vector<std::string> keys() const;

    // Typed reads of this value.
    double asNumber() const;
    std::int64_t asInteger() const;
    bool asBool() const;
    std::string asString() const;

    // Typed reads of a child; the optional forms take a default when the key is absent.
    double number(std::string_view key) const;
    double number(std::string_view key, double fallback) const;
    /// 64-bit integer (8.0 is accepted, 8.5 and 1e19 are not); see JsonInteger for narrowing.
    JsonInteger integer(std::string_view key) const;
    JsonInteger integer(std::string_view key, std::int64_t fallback) const;
    /// A count of things (racks, units, pumps, tiers): an integer in [min, max], or `fallback`
    /// when the key is absent. InputError naming the path, the value and the range otherwise.
    int count(std::string_view key, int min, int max) const;
    int count(std::string_view key, int min, int max, int fallback) const;
    bool boolean(std::string_view key, bool fallback) const;
    std::string string(std::string_view key) const;
    std::string string(std::string_view key, std::string_view fallback) const;
    /// A string that must be one of `choices`; the error lists them.
    std::string choice(std::string_view key, const std::vector<std::string>& choices) const;
    std::string choice(std::string_view key, const std::vector<std::string>& choices,
                       std::string_view fallback) const;

    /// Quantity whose key is `base` + "_" + unit suffix, e.g. base "supply_temp" matches
    /// "supply_temp_C" or "supply_temp_F" when both "C" and "F" are in `units`. Returns the
    /// value in SI. InputError if absent (first form), if more than one suffix is given, or if
    /// the value is not a number.
    double quantity(std::string_view base, const std::vector<std::string>& units) const;
    double quantity(std::string_view base, const std::vector<std::string>& units,
                    double fallback_si) const;
    /// True if any base_<unit> key is present.
    bool hasQuantity(std::string_view base, const std::vector<std::string>& units) const;

    /// Range checks that name the path, value and the expected range in the given unit.
    /// `value_si` is converted back to `unit` for the message.
    void requireRange(std::string_view key, double value_si, double min_si, double max_si,
                      std::string_view unit = "") const;

    /// InputError for the first key not in `allowed`, naming the nearest valid key and listing
    /// all valid keys.
    void checkKeys(const std::vector<std::string>& allowed) const;
    /// The same, also accepting (without listing them as choices) keys for which
    /// `also_accepted` is true — documentation keys of catalog records.
    void checkKeys(const std::vector<std::string>& allowed,
                   bool (*also_accepted)(std::string_view)) const;

    /// InputError "<where>/<key>: <message>".
    [[noreturn]] void fail(std::string_view key, std::string_view message) const;
    [[noreturn]] void fail(std::string_view message) const;

private:
    std::string childPath(std::string_view key) const;
    const Json* value_;
    std::string path_;
    std::shared_ptr<const JsonProvenance> provenance_;  // merged catalog records only
};

/// Merges `overrides` into `base` recursively (objects merge key by key; other values replace),
/// for catalog entries with scenario overrides. Unknown override keys are reported by the
/// caller's checkKeys on the merged result.
Json mergePatch(Json base, const Json& overrides);

}  // namespace dctwin
