#pragma once
/// @file
/// @brief Declared shapes of scenario objects: each key once, with its type, unit, range,
/// choices, default and meaning (DESIGN.md §5.1).
///
/// Why: a scenario key used to be described in three places — the reader's checkKeys list,
/// a requireRange call beside the read, and the documentation. An ObjectSpec states it once;
/// the same declaration checks a file (SpecReader) and writes the JSON Schema editors and
/// `python3-jsonschema` use (ObjectSpec::schema()). Nothing here knows any physics.
///
/// Units: a key carries its unit in its name ("supply_temp_C"); `KeySpec::unit` is that unit
/// (a core/units.h name). Ranges and defaults are stated in the key's own unit — what the user
/// writes — and SpecReader::si() converts to SI once, where the file is read.
///
/// Alternatives: keys sharing a `group` ("duration_s", "duration_min", "duration_h") are one
/// quantity in different units; at most one may be given (the schema says so too).
///
/// Catalog-backed objects ({"model": "gb300_nvl72", overrides...}) are `open`: keys that are not
/// the object's own are handed to the catalog record as overrides. Their schema comes from a
/// callback that lists the catalog's parameter keys (documentation keys such as "*_source"
/// are never offered).
///
/// Tagged unions ({"type": "training", ...} or {"type": "trace", ...}): ObjectSpec::variants()
/// makes a spec whose selector key chooses the shape; the schema is a `oneOf` of the kinds,
/// each with `"const"` on the selector, and SpecReader reads the object against its kind.
///
/// Lists and maps of numbers: numberList() (fixed length, each element in a range) and
/// numberMap() (names the user chooses, each a number in a range, as {"research": 0.6}).
#include <cstddef>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/json.h"

namespace dctwin {

class ObjectSpec;

enum class KeyType { Number, Integer, Boolean, String, Object, Array };

/// One key of a scenario object.
struct KeySpec {
    std::string key;  ///< as written in the file, unit suffix included ("tcs_supply_temp_C")
    KeyType type = KeyType::Number;
    std::string unit;  ///< the key's unit (core/units.h name); "" for none or dimensionless
    double min = -std::numeric_limits<double>::infinity();  ///< [unit] smallest accepted
    double max = std::numeric_limits<double>::infinity();   ///< [unit] largest accepted
    std::vector<std::string> choices;  ///< strings: the valid values (empty: any string)
    Json fallback;                     ///< [unit] value when absent; null: none
    bool required = false;
    std::string description;  ///< what it means, for the schema and the GUI
    std::string group;        ///< alternative spellings of one quantity share a group
    std::shared_ptr<const ObjectSpec> object;  ///< Object: its shape; Array: each element's
    KeyType items = KeyType::Object;           ///< Array: the element type; an Object
                                               ///< without `object`: each value's type
    std::size_t length = 0;  ///< Array of scalars: the exact element count (0: any)
};

/// The declared shape of one JSON object.
class ObjectSpec {
public:
    explicit ObjectSpec(std::string description = "") : description_(std::move(description)) {}

    /// Adds a key; returns *this for chaining. Keys are unique.
    ObjectSpec& add(KeySpec k);
    /// A number in `unit`, accepted in [min, max]; `fallback` nullopt = required.
    ObjectSpec& number(std::string key, std::string unit, double min, double max,
                       std::optional<double> fallback, std::string description,
                       std::string group = "");
    /// A number that may be absent with no default (the reader decides).
    ObjectSpec& optionalNumber(std::string key, std::string unit, double min, double max,
                               std::string description, std::string group = "");
    ObjectSpec& integer(std::string key, double min, double max, std::optional<double> fallback,
                        std::string description);
    ObjectSpec& boolean(std::string key, std::optional<bool> fallback, std::string description);
    ObjectSpec& string(std::string key, std::optional<std::string> fallback,
                       std::string description);
    ObjectSpec& choice(std::string key, std::vector<std::string> choices,
                       std::optional<std::string> fallback, std::string description);
    ObjectSpec& object(std::string key, std::shared_ptr<const ObjectSpec> spec, bool required,
                       std::string description);
    ObjectSpec& array(std::string key, std::shared_ptr<const ObjectSpec> items, bool required,
                      std::string description);
    ObjectSpec& scalarArray(std::string key, KeyType items, std::string description);
    /// @brief An integer that may be absent with no default (the reader decides).
    /// @param key the key as written in the file
    /// @param min smallest accepted value
    /// @param max largest accepted value
    /// @param description what it means
    ObjectSpec& optionalInteger(std::string key, double min, double max, std::string description);
    /// @brief A list of numbers in `unit`, each in [min, max].
    /// @param key the key as written in the file
    /// @param unit the numbers' unit (core/units.h name)
    /// @param min [unit] smallest accepted element
    /// @param max [unit] largest accepted element
    /// @param description what it means
    /// @param length the exact element count (0: any)
    /// @param fallback [unit] the list when absent; nullopt: the key may be absent with no
    ///        default (the reader decides)
    ObjectSpec& numberList(std::string key, std::string unit, double min, double max,
                           std::size_t length, std::optional<std::vector<double>> fallback,
                           std::string description);
    /// @brief An object whose keys the user names (tenants, say), each value a number in
    /// `unit` in [min, max]. Read with SpecReader::numberMap().
    ObjectSpec& numberMap(std::string key, std::string unit, double min, double max, bool required,
                          std::string description);
    /// @brief Makes this spec a tagged union: the string under `selector` chooses which of
    /// `kinds` the object follows.
    ///
    /// The keys declared on this spec so far are common to all kinds (declare them first;
    /// adding keys afterwards is a std::logic_error). Each kind's own spec should not declare
    /// `selector`: it is added to it here as a key whose only choice is the kind's name.
    /// @param selector the key that names the kind ("type")
    /// @param kinds kind name → the keys of that kind, in the order the schema lists them
    ObjectSpec& variants(
        std::string selector,
        std::vector<std::pair<std::string, std::shared_ptr<const ObjectSpec>>> kinds);
    /// @brief The selector key of a tagged union ("" when this is not one).
    const std::string& selector() const { return selector_; }
    /// @brief The kind names of a tagged union, in declaration order.
    std::vector<std::string> variantNames() const;
    /// @brief The full spec of one kind (common keys, selector and the kind's keys); nullptr
    /// if there is no such kind.
    const ObjectSpec* variant(std::string_view kind) const;
    /// Keys this object does not know are catalog overrides; `properties` lists them for the
    /// schema (a JSON Schema "properties" object).
    ObjectSpec& open(std::function<Json()> properties);
    /// Keys this object does not know are accepted and checked by another reader (a section
    /// that a lower layer reads with its own spec), whose declaration is `spec`.
    ObjectSpec& delegated(std::shared_ptr<const ObjectSpec> spec);

    const KeySpec* find(std::string_view key) const;
    const KeySpec& at(std::string_view key) const;  ///< std::logic_error if undeclared
    const std::vector<KeySpec>& keys() const { return keys_; }
    std::vector<std::string> keyNames() const;
    const std::string& description() const { return description_; }
    bool isOpen() const { return static_cast<bool>(overrides_) || static_cast<bool>(delegate_); }

    /// JSON Schema (draft 2020-12) of this object.
    Json schema() const;
    /// A reference in Markdown: one table of keys (type, unit, range, default, meaning) per
    /// object, headed by its JSON path, nested objects after their parent.
    std::string markdown(const std::string& path) const;

private:
    std::string description_;
    std::vector<KeySpec> keys_;
    std::function<Json()> overrides_;
    std::shared_ptr<const ObjectSpec> delegate_;
    std::string selector_;
    std::vector<std::pair<std::string, std::shared_ptr<const ObjectSpec>>> variants_;
};

/// Reads one JSON object against its ObjectSpec: the object's type, unknown keys (with the
/// nearest valid key suggested), each value's type, range and choices, and the defaults. Every
/// error names the JSON path, the value, and what was expected.
class SpecReader {
public:
    /// Checks `v` is an object (an absent section is read from an empty object at its path)
    /// and that it has no unknown keys (unless the spec is open) and at most one key of
    /// every alternative group. For a tagged union, the selector is read first (an error
    /// lists the kinds) and the object is read against its kind's spec.
    SpecReader(const JsonView& v, const ObjectSpec& spec);

    const JsonView& view() const { return view_; }
    const ObjectSpec& spec() const { return *spec_; }
    /// The key is present in the file.
    bool has(std::string_view key) const;
    /// Some key of the alternative group is present.
    bool hasGroup(std::string_view group) const;

    /// A number in the key's own unit (range-checked; the default when absent).
    double number(std::string_view key) const;
    /// The same in SI (core/units.h conversion of the key's unit).
    double si(std::string_view key) const;
    /// The present key of an alternative group, in SI; the group's default (from the first key
    /// that declares one) when none is present; InputError naming the keys when none is
    /// present and there is no default.
    double quantity(std::string_view group) const;
    std::optional<double> optionalQuantity(std::string_view group) const;
    /// The key of `group` that is present (or "" when none).
    std::string presentKey(std::string_view group) const;
    /// An integer, range-checked, 64-bit.
    std::int64_t integer(std::string_view key) const;
    /// An integer narrowed to int (range must fit).
    int count(std::string_view key) const;
    bool boolean(std::string_view key) const;
    std::string string(std::string_view key) const;
    /// A nested object (an empty one at its path when absent).
    SpecReader object(std::string_view key) const;
    /// The elements of an array of objects.
    std::vector<SpecReader> array(std::string_view key) const;
    /// The keys that are not this object's own (catalog overrides of an open object).
    Json extraKeys() const;
    /// @brief A list of numbers (ObjectSpec::numberList), each range-checked, in the key's own
    /// unit; the declared list when absent.
    std::vector<double> numbers(std::string_view key) const;
    /// @brief The entries of a map of numbers (ObjectSpec::numberMap) in key order, each
    /// range-checked, in the key's own unit; empty when absent.
    std::vector<std::pair<std::string, double>> numberMap(std::string_view key) const;

    [[noreturn]] void fail(std::string_view key, std::string_view message) const;
    [[noreturn]] void fail(std::string_view message) const;

private:
    const KeySpec& declared(std::string_view key) const;
    std::optional<JsonView> value(const KeySpec& k) const;
    void checkRange(const KeySpec& k, double v) const;
    static void checkRange(const JsonView& where, std::string_view key, const KeySpec& k, double v);

    JsonView view_;
    const ObjectSpec* spec_;
    std::shared_ptr<const Json> empty_;  // keeps an absent section's stand-in alive
};

/// "description [unit]: range" text used by the schema and the GUI's tooltips.
std::string describeKey(const KeySpec& k);

/// " (1 s)" when a range bound `v` in `unit` reads poorly (an exponent, or more than four
/// significant digits) and is a whole number in the unit's SI unit: the study length's least
/// value is 1 s, which in days is 1.15741e-05. "" otherwise (also for an unknown unit).
std::string boundEquivalent(double v, std::string_view unit);

}  // namespace dctwin
