#include "core/object_spec.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/errors.h"
#include "core/units.h"

namespace dctwin {
namespace {

std::string fmtNumber(double v) {
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    // Whole numbers in full (4294967304 must not read as 4.29497e+09 in a message).
    if (std::trunc(v) == v && std::abs(v) < 1e15) return fmt::format("{:.0f}", v);
    return fmt::format("{:g}", v);
}

const char* typeName(KeyType t) {
    switch (t) {
        case KeyType::Number:
            return "number";
        case KeyType::Integer:
            return "integer";
        case KeyType::Boolean:
            return "boolean";
        case KeyType::String:
            return "string";
        case KeyType::Object:
            return "object";
        case KeyType::Array:
            return "array";
    }
    return "null";
}

}  // namespace

std::string boundEquivalent(double v, std::string_view unit) {
    if (unit.empty() || !std::isfinite(v) || v == 0.0) return {};
    // Whole numbers read well as they are (fmtNumber writes them in full).
    if (std::trunc(v) == v) return {};
    const std::string text = fmtNumber(v);
    int significant = 0;
    for (const char c : text) {
        if (c >= '1' && c <= '9')
            significant += 1;
        else if (c == '0' && significant > 0)
            significant += 1;
    }
    if (text.find('e') == std::string::npos && significant <= 4) return {};
    try {
        const double si = units::toSI(v, unit);
        const double whole = std::round(si);
        if (whole == 0.0 || std::abs(si - whole) > 1e-9 * std::abs(whole)) return {};
        const std::string si_unit = units::siUnitOf(unit);
        if (si_unit == unit) return {};
        return fmt::format(" ({}{}{})", fmtNumber(whole), si_unit == "1" ? "" : " ",
                           si_unit == "1" ? "" : si_unit);
    } catch (const InputError&) {
        return {};  // not a unit toSI knows: say the bound as it is
    }
}

std::string describeKey(const KeySpec& k) {
    std::string s = k.description;
    if (!k.unit.empty()) s += fmt::format(" [{}]", k.unit);
    if (std::isfinite(k.min) || std::isfinite(k.max)) {
        s += fmt::format(" ({} to {})", fmtNumber(k.min), fmtNumber(k.max));
    }
    return s;
}

// ---------------------------------------------------------------------------------------------

ObjectSpec& ObjectSpec::add(KeySpec k) {
    if (!variants_.empty()) {
        throw std::logic_error("ObjectSpec: key '" + k.key + "' added after variants()");
    }
    if (find(k.key)) throw std::logic_error("ObjectSpec: key declared twice: " + k.key);
    keys_.push_back(std::move(k));
    return *this;
}

ObjectSpec& ObjectSpec::number(std::string key, std::string unit, double min, double max,
                               std::optional<double> fallback, std::string description,
                               std::string group) {
    KeySpec k;
    k.key = std::move(key);
    k.unit = std::move(unit);
    k.min = min;
    k.max = max;
    if (fallback) k.fallback = *fallback;
    k.required = !fallback && group.empty();
    k.description = std::move(description);
    k.group = std::move(group);
    return add(std::move(k));
}

ObjectSpec& ObjectSpec::optionalNumber(std::string key, std::string unit, double min, double max,
                                       std::string description, std::string group) {
    KeySpec k;
    k.key = std::move(key);
    k.unit = std::move(unit);
    k.min = min;
    k.max = max;
    k.description = std::move(description);
    k.group = std::move(group);
    return add(std::move(k));
}

ObjectSpec& ObjectSpec::integer(std::string key, double min, double max,
                                std::optional<double> fallback, std::string description) {
    KeySpec k;
    k.key = std::move(key);
    k.type = KeyType::Integer;
    k.min = min;
    k.max = max;
    if (fallback) k.fallback = static_cast<std::int64_t>(*fallback);
    k.required = !fallback;
    k.description = std::move(description);
    return add(std::move(k));
}

ObjectSpec& ObjectSpec::boolean(std::string key, std::optional<bool> fallback,
                                std::string description) {
    KeySpec k;
    k.key = std::move(key);
    k.type = KeyType::Boolean;
    if (fallback) k.fallback = *fallback;
    k.required = !fallback;
    k.description = std::move(description);
    return add(std::move(k));
}

ObjectSpec& ObjectSpec::string(std::string key, std::optional<std::string> fallback,
                               std::string description) {
    KeySpec k;
    k.key = std::move(key);
    k.type = KeyType::String;
    if (fallback) k.fallback = *fallback;
    k.required = !fallback;
    k.description = std::move(description);
    return add(std::move(k));
}

ObjectSpec& ObjectSpec::choice(std::string key, std::vector<std::string> choices,
                               std::optional<std::string> fallback, std::string description) {
    KeySpec k;
    k.key = std::move(key);
    k.type = KeyType::String;
    k.choices = std::move(choices);
    if (fallback) k.fallback = *fallback;
    k.required = !fallback;
    k.description = std::move(description);
    return add(std::move(k));
}

ObjectSpec& ObjectSpec::object(std::string key, std::shared_ptr<const ObjectSpec> spec,
                               bool required, std::string description) {
    KeySpec k;
    k.key = std::move(key);
    k.type = KeyType::Object;
    k.object = std::move(spec);
    k.required = required;
    k.description = std::move(description);
    return add(std::move(k));
}

ObjectSpec& ObjectSpec::array(std::string key, std::shared_ptr<const ObjectSpec> items,
                              bool required, std::string description) {
    KeySpec k;
    k.key = std::move(key);
    k.type = KeyType::Array;
    k.object = std::move(items);
    k.required = required;
    k.description = std::move(description);
    return add(std::move(k));
}

ObjectSpec& ObjectSpec::scalarArray(std::string key, KeyType items, std::string description) {
    KeySpec k;
    k.key = std::move(key);
    k.type = KeyType::Array;
    k.items = items;
    k.description = std::move(description);
    return add(std::move(k));
}

ObjectSpec& ObjectSpec::optionalInteger(std::string key, double min, double max,
                                        std::string description) {
    KeySpec k;
    k.key = std::move(key);
    k.type = KeyType::Integer;
    k.min = min;
    k.max = max;
    k.description = std::move(description);
    return add(std::move(k));
}

ObjectSpec& ObjectSpec::numberList(std::string key, std::string unit, double min, double max,
                                   std::size_t length, std::optional<std::vector<double>> fallback,
                                   std::string description) {
    KeySpec k;
    k.key = std::move(key);
    k.type = KeyType::Array;
    k.items = KeyType::Number;
    k.unit = std::move(unit);
    k.min = min;
    k.max = max;
    k.length = length;
    if (fallback) k.fallback = *fallback;
    k.description = std::move(description);
    return add(std::move(k));
}

ObjectSpec& ObjectSpec::numberMap(std::string key, std::string unit, double min, double max,
                                  bool required, std::string description) {
    KeySpec k;
    k.key = std::move(key);
    k.type = KeyType::Object;
    k.items = KeyType::Number;
    k.unit = std::move(unit);
    k.min = min;
    k.max = max;
    k.required = required;
    k.description = std::move(description);
    return add(std::move(k));
}

ObjectSpec& ObjectSpec::variants(
    std::string selector,
    std::vector<std::pair<std::string, std::shared_ptr<const ObjectSpec>>> kinds) {
    if (!variants_.empty()) throw std::logic_error("ObjectSpec: variants() given twice");
    if (kinds.empty()) throw std::logic_error("ObjectSpec: variants() needs at least one kind");
    if (find(selector)) {
        throw std::logic_error("ObjectSpec: selector '" + selector + "' is a common key");
    }
    std::vector<std::pair<std::string, std::shared_ptr<const ObjectSpec>>> full;
    for (const auto& [name, spec] : kinds) {
        for (const auto& [other, _] : full) {
            if (other == name) throw std::logic_error("ObjectSpec: kind declared twice: " + name);
        }
        auto f = std::make_shared<ObjectSpec>(spec->description());
        f->choice(selector, {name}, std::nullopt, description_.empty() ? "kind" : description_);
        for (const auto& k : keys_) f->add(k);
        for (const auto& k : spec->keys()) f->add(k);
        f->overrides_ = spec->overrides_;
        f->delegate_ = spec->delegate_;
        full.emplace_back(name, std::move(f));
    }
    selector_ = std::move(selector);
    variants_ = std::move(full);
    return *this;
}

std::vector<std::string> ObjectSpec::variantNames() const {
    std::vector<std::string> names;
    for (const auto& [name, _] : variants_) names.push_back(name);
    return names;
}

const ObjectSpec* ObjectSpec::variant(std::string_view kind) const {
    for (const auto& [name, spec] : variants_) {
        if (name == kind) return spec.get();
    }
    return nullptr;
}

ObjectSpec& ObjectSpec::open(std::function<Json()> properties) {
    overrides_ = std::move(properties);
    return *this;
}

ObjectSpec& ObjectSpec::delegated(std::shared_ptr<const ObjectSpec> spec) {
    delegate_ = std::move(spec);
    return *this;
}

const KeySpec* ObjectSpec::find(std::string_view key) const {
    for (const auto& k : keys_) {
        if (k.key == key) return &k;
    }
    return nullptr;
}

const KeySpec& ObjectSpec::at(std::string_view key) const {
    if (const KeySpec* k = find(key)) return *k;
    throw std::logic_error(fmt::format("ObjectSpec: key '{}' is not declared", key));
}

std::vector<std::string> ObjectSpec::keyNames() const {
    std::vector<std::string> names;
    for (const auto& k : keys_) names.push_back(k.key);
    return names;
}

Json ObjectSpec::schema() const {
    Json s = {{"type", "object"}};
    if (!description_.empty()) s["description"] = description_;
    if (!variants_.empty()) {
        // A tagged union: one object schema per kind, told apart by "const" on the selector.
        const std::vector<std::string> names = variantNames();
        Json one_of = Json::array();
        for (const auto& [name, spec] : variants_) {
            Json k = spec->schema();
            Json& sel = k["properties"][selector_];
            sel.erase("enum");
            sel["const"] = name;
            one_of.push_back(std::move(k));
        }
        s["properties"] = {
            {selector_,
             {{"type", "string"},
              {"enum", names},
              {"description", fmt::format("selects the kind: {}", fmt::join(names, ", "))}}}};
        s["required"] = {selector_};
        s["oneOf"] = std::move(one_of);
        return s;
    }
    Json props = Json::object();
    Json required = Json::array();
    std::vector<std::string> groups;
    for (const auto& k : keys_) {
        Json p;
        // The type and range of a scalar (the key itself, a list element or a map value).
        auto scalar = [&k] {
            Json e = {{"type", typeName(k.items)}};
            if (std::isfinite(k.min)) e["minimum"] = k.min;
            if (std::isfinite(k.max)) e["maximum"] = k.max;
            if (!k.unit.empty()) e["x-unit"] = k.unit;
            return e;
        };
        if (k.type == KeyType::Object && k.object) {
            p = k.object->schema();
        } else if (k.type == KeyType::Object && k.items != KeyType::Object) {
            p = {{"type", "object"}, {"additionalProperties", scalar()}};
        } else if (k.type == KeyType::Array) {
            p = {{"type", "array"}};
            if (k.object) {
                p["items"] = k.object->schema();
            } else {
                p["items"] = scalar();
                if (k.length > 0) {
                    p["minItems"] = k.length;
                    p["maxItems"] = k.length;
                }
            }
        } else {
            p["type"] = typeName(k.type);
            if (std::isfinite(k.min)) p["minimum"] = k.min;
            if (std::isfinite(k.max)) p["maximum"] = k.max;
            if (!k.choices.empty()) p["enum"] = k.choices;
            if (!k.unit.empty()) p["x-unit"] = k.unit;
        }
        p["description"] = describeKey(k);
        if (!k.fallback.is_null()) p["default"] = k.fallback;
        props[k.key] = std::move(p);
        if (k.required) required.push_back(k.key);
        if (!k.group.empty() && std::find(groups.begin(), groups.end(), k.group) == groups.end()) {
            groups.push_back(k.group);
        }
    }
    // At most one key of each alternative group: "not both" for every pair.
    Json all_of = Json::array();
    for (const auto& g : groups) {
        std::vector<std::string> members;
        for (const auto& k : keys_) {
            if (k.group == g) members.push_back(k.key);
        }
        for (std::size_t i = 0; i < members.size(); ++i) {
            for (std::size_t j = i + 1; j < members.size(); ++j) {
                all_of.push_back({{"not", {{"required", {members[i], members[j]}}}}});
            }
        }
    }
    if (overrides_) {
        const Json overrides = overrides_();  // iterated below: must outlive the loop
        for (const auto& [key, value] : overrides.items()) {
            if (!props.contains(key)) props[key] = value;
        }
    }
    if (delegate_) {
        const Json d = delegate_->schema();
        if (d.contains("properties")) {
            for (const auto& [key, value] : d["properties"].items()) {
                if (!props.contains(key)) props[key] = value;
            }
        }
        if (d.contains("allOf")) {
            for (const auto& a : d["allOf"]) all_of.push_back(a);
        }
    }
    s["properties"] = std::move(props);
    if (!required.empty()) s["required"] = std::move(required);
    if (!all_of.empty()) s["allOf"] = std::move(all_of);
    s["additionalProperties"] = false;
    return s;
}

std::string ObjectSpec::markdown(const std::string& path) const {
    std::string out = fmt::format("### `{}`\n\n", path.empty() ? "/" : path);
    if (!description_.empty()) out += description_ + "\n\n";
    const std::string head =
        "| key | type | unit | range | default | meaning |\n|---|---|---|---|---|---|\n";
    auto cell = [](std::string s) {
        std::string o;
        for (char c : s) o += c == '|' ? std::string("\\|") : std::string(1, c);
        return o;
    };
    auto row = [&](const KeySpec& k) {
        std::string type = typeName(k.type);
        if (k.type == KeyType::Array) {
            type = fmt::format("list of {}", k.object ? "objects" : typeName(k.items));
        }
        std::string range;
        if (!k.choices.empty()) {
            range = fmt::format("one of: {}", fmt::join(k.choices, ", "));
        } else if (std::isfinite(k.min) || std::isfinite(k.max)) {
            range = fmt::format("{} to {}", fmtNumber(k.min), fmtNumber(k.max));
        }
        std::string fallback =
            k.fallback.is_null() ? (k.required ? "required" : "") : k.fallback.dump();
        std::string meaning = k.description;
        if (!k.group.empty()) meaning += fmt::format(" (one of the `{}` keys)", k.group);
        return fmt::format("| `{}` | {} | {} | {} | {} | {} |\n", k.key, type, k.unit, cell(range),
                           cell(fallback), cell(meaning));
    };
    out += head;
    for (const auto& k : keys_) out += row(k);
    if (!variants_.empty()) {
        // A tagged union: the selector, then each kind's own keys in a table of their own (the
        // reference listed only the common keys, so a job list's columns could not be found).
        out += fmt::format(
            "| `{}` | string |  | one of: {} | required | the kind; its own keys "
            "follow, one table per kind |\n",
            selector_, fmt::join(variantNames(), ", "));
    }
    if (overrides_) {
        out += "\nAny other key overrides the named catalog record's value of that key.\n";
    }
    out += "\n";
    if (delegate_) out += delegate_->markdown(path);
    std::vector<std::pair<std::string, const KeySpec*>> nested;
    for (const auto& k : keys_) {
        if (k.object) nested.emplace_back(path, &k);
    }
    for (const auto& [name, spec] : variants_) {
        const std::string kind_path = fmt::format("{} ({}: {})", path, selector_, name);
        out += fmt::format("#### `{}` with `\"{}\": \"{}\"`\n\n", path, selector_, name);
        if (!spec->description_.empty()) out += spec->description_ + "\n\n";
        out += head;
        for (const auto& k : spec->keys_) {
            if (k.key == selector_ || find(k.key)) continue;
            out += row(k);
            if (k.object) nested.emplace_back(kind_path, &k);
        }
        out += "\n";
    }
    for (const auto& [parent, k] : nested) {
        out += k->object->markdown(
            fmt::format("{}/{}{}", parent, k->key, k->type == KeyType::Array ? "/i" : ""));
    }
    return out;
}

// ---------------------------------------------------------------------------------------------

SpecReader::SpecReader(const JsonView& v, const ObjectSpec& union_or_spec)
    : view_(v), spec_(&union_or_spec) {
    if (!view_.isObject()) view_.fail("expected an object");
    if (!union_or_spec.selector().empty()) {
        const std::string kind =
            view_.choice(union_or_spec.selector(), union_or_spec.variantNames());
        spec_ = union_or_spec.variant(kind);
    }
    const ObjectSpec& spec = *spec_;
    std::vector<std::string> own = spec.keyNames();
    if (!spec.isOpen()) {
        view_.checkKeys(own);
    } else {
        // An open object hands unknown keys on, but a near miss of one of its own keys
        // ("racks_per_cud") is a typo, reported here with the suggestion.
        for (const auto& key : view_.keys()) {
            if (spec.find(key) || !isNearMiss(key, own)) continue;
            view_.fail(
                fmt::format("unknown key '{}'; did you mean '{}'?", key, nearestName(key, own)));
        }
    }
    for (const auto& k : spec.keys()) {
        if (k.required && !view_.has(k.key)) view_.fail(k.key, "required key is missing");
        if (k.group.empty() || !view_.has(k.key)) continue;
        for (const auto& other : spec.keys()) {
            if (&other != &k && other.group == k.group && view_.has(other.key)) {
                view_.fail(
                    fmt::format("give '{}' or '{}', not both: they are the same "
                                "quantity in different units; give it once",
                                k.key, other.key));
            }
        }
    }
}

const KeySpec& SpecReader::declared(std::string_view key) const { return spec_->at(key); }

bool SpecReader::has(std::string_view key) const { return view_.has(key); }

bool SpecReader::hasGroup(std::string_view group) const { return !presentKey(group).empty(); }

std::string SpecReader::presentKey(std::string_view group) const {
    for (const auto& k : spec_->keys()) {
        if (k.group == group && view_.has(k.key)) return k.key;
    }
    return {};
}

std::optional<JsonView> SpecReader::value(const KeySpec& k) const { return view_.find(k.key); }

void SpecReader::checkRange(const KeySpec& k, double v) const { checkRange(view_, k.key, k, v); }

void SpecReader::checkRange(const JsonView& where, std::string_view key, const KeySpec& k,
                            double v) {
    if (v >= k.min && v <= k.max) return;  // NaN fails here as well
    const std::string u = k.unit.empty() ? "" : " " + k.unit;
    const auto bound = [&](double b) { return fmtNumber(b) + u + boundEquivalent(b, k.unit); };
    std::string expected;
    if (std::isfinite(k.min) && std::isfinite(k.max)) {
        expected = fmt::format("between {} and {}", bound(k.min), bound(k.max));
    } else if (std::isfinite(k.min)) {
        expected = fmt::format("at least {}", bound(k.min));
    } else {
        expected = fmt::format("at most {}", bound(k.max));
    }
    where.fail(key,
               fmt::format("value {}{} is out of range; expected {}", fmtNumber(v), u, expected));
}

double SpecReader::number(std::string_view key) const {
    const KeySpec& k = declared(key);
    double v = 0.0;
    if (auto c = value(k)) {
        v = k.type == KeyType::Integer ? static_cast<double>(c->asInteger()) : c->asNumber();
    } else if (k.fallback.is_number()) {
        return k.fallback.get<double>();
    } else {
        view_.fail(k.key, "required key is missing");
    }
    checkRange(k, v);
    return v;
}

double SpecReader::si(std::string_view key) const {
    const KeySpec& k = declared(key);
    return units::toSI(number(key), k.unit);
}

std::optional<double> SpecReader::optionalQuantity(std::string_view group) const {
    const std::string present = presentKey(group);
    if (!present.empty()) return si(present);
    for (const auto& k : spec_->keys()) {
        if (k.group == group && k.fallback.is_number()) {
            return units::toSI(k.fallback.get<double>(), k.unit);
        }
    }
    return std::nullopt;
}

double SpecReader::quantity(std::string_view group) const {
    if (auto v = optionalQuantity(group)) return *v;
    std::vector<std::string> names;
    for (const auto& k : spec_->keys()) {
        if (k.group == group) names.push_back(k.key);
    }
    view_.fail(group, fmt::format("required; give one of: {}", fmt::join(names, ", ")));
}

std::int64_t SpecReader::integer(std::string_view key) const {
    const KeySpec& k = declared(key);
    std::int64_t v = 0;
    if (auto c = value(k)) {
        v = c->asInteger();
    } else if (k.fallback.is_number()) {
        return k.fallback.get<std::int64_t>();
    } else {
        view_.fail(k.key, "required key is missing");
    }
    checkRange(k, static_cast<double>(v));
    return v;
}

int SpecReader::count(std::string_view key) const {
    const KeySpec& k = declared(key);
    if (!(k.min >= std::numeric_limits<int>::min() && k.max <= std::numeric_limits<int>::max())) {
        throw std::logic_error("SpecReader::count: range of '" + k.key + "' does not fit int");
    }
    return static_cast<int>(integer(key));
}

bool SpecReader::boolean(std::string_view key) const {
    const KeySpec& k = declared(key);
    if (auto c = value(k)) return c->asBool();
    if (k.fallback.is_boolean()) return k.fallback.get<bool>();
    view_.fail(k.key, "required key is missing");
}

std::string SpecReader::string(std::string_view key) const {
    const KeySpec& k = declared(key);
    if (!k.choices.empty()) {
        return k.fallback.is_string()
                   ? view_.choice(k.key, k.choices, k.fallback.get<std::string>())
                   : view_.choice(k.key, k.choices);
    }
    if (auto c = value(k)) return c->asString();
    if (k.fallback.is_string()) return k.fallback.get<std::string>();
    view_.fail(k.key, "required key is missing");
}

SpecReader SpecReader::object(std::string_view key) const {
    const KeySpec& k = declared(key);
    if (k.type != KeyType::Object || !k.object) {
        throw std::logic_error("SpecReader::object: '" + k.key + "' is not an object key");
    }
    if (auto c = value(k)) return SpecReader(*c, *k.object);
    auto empty = std::make_shared<const Json>(Json::object());
    SpecReader r(JsonView(*empty, fmt::format("{}/{}", view_.path(), k.key)), *k.object);
    r.empty_ = std::move(empty);
    return r;
}

std::vector<SpecReader> SpecReader::array(std::string_view key) const {
    const KeySpec& k = declared(key);
    if (k.type != KeyType::Array || !k.object) {
        throw std::logic_error("SpecReader::array: '" + k.key + "' is not an array of objects");
    }
    std::vector<SpecReader> out;
    auto c = value(k);
    if (!c) return out;
    if (!c->isArray()) c->fail("expected a list");
    for (const JsonView& e : c->elements()) {
        if (!e.isObject()) e.fail("expected an object");
        out.emplace_back(e, *k.object);
    }
    return out;
}

Json SpecReader::extraKeys() const {
    Json out = Json::object();
    for (const auto& [key, value] : view_.json().items()) {
        if (!spec_->find(key)) out[key] = value;
    }
    return out;
}

std::vector<double> SpecReader::numbers(std::string_view key) const {
    const KeySpec& k = declared(key);
    if (k.type != KeyType::Array || k.object || k.items != KeyType::Number) {
        throw std::logic_error("SpecReader::numbers: '" + k.key + "' is not a list of numbers");
    }
    const auto c = value(k);
    if (!c) {
        if (k.fallback.is_array()) return k.fallback.get<std::vector<double>>();
        view_.fail(k.key, "required key is missing");
    }
    if (!c->isArray()) {
        c->fail(k.length > 0 ? fmt::format("expected a list of {} numbers", k.length)
                             : std::string("expected a list of numbers"));
    }
    if (k.length > 0 && c->size() != k.length) {
        c->fail(fmt::format("expected a list of {} numbers, got {}", k.length, c->size()));
    }
    std::vector<double> out;
    const std::vector<JsonView> elements = c->elements();
    for (std::size_t i = 0; i < elements.size(); ++i) {
        const double x = elements[i].asNumber();
        checkRange(*c, std::to_string(i), k, x);
        out.push_back(x);
    }
    return out;
}

std::vector<std::pair<std::string, double>> SpecReader::numberMap(std::string_view key) const {
    const KeySpec& k = declared(key);
    if (k.type != KeyType::Object || k.object || k.items != KeyType::Number) {
        throw std::logic_error("SpecReader::numberMap: '" + k.key + "' is not a map of numbers");
    }
    std::vector<std::pair<std::string, double>> out;
    const auto c = value(k);
    if (!c) return out;
    if (!c->isObject()) c->fail("expected an object of names and numbers");
    for (const auto& name : c->keys()) {
        const double x = c->at(name).asNumber();
        checkRange(*c, name, k, x);
        out.emplace_back(name, x);
    }
    return out;
}

void SpecReader::fail(std::string_view key, std::string_view message) const {
    view_.fail(key, message);
}

void SpecReader::fail(std::string_view message) const { view_.fail(message); }

}  // namespace dctwin
