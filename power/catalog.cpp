#include "power/catalog.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

#include "core/data_dir.h"
#include "core/errors.h"
#include "core/units.h"

namespace dctwin::power {
namespace {

/// A required number in [lo, hi] (in the key's own unit), returned as is.
double num(const JsonView& v, std::string_view key, double lo, double hi) {
    const double x = v.number(key);
    v.requireRange(key, x, lo, hi);
    return x;
}
int count(const JsonView& v, std::string_view key, int lo, int hi) { return v.count(key, lo, hi); }

/// [[x, y], ...] with x strictly increasing.
std::vector<std::pair<double, double>> points(const JsonView& v, std::string_view key, double ylo,
                                              double yhi) {
    const JsonView arr = v.at(key);
    std::vector<std::pair<double, double>> out;
    for (const JsonView& p : arr.elements()) {
        if (!p.isArray() || p.size() != 2) p.fail("expected a pair [load fraction, value]");
        const double x = p.at(std::size_t{0}).asNumber();
        const double y = p.at(std::size_t{1}).asNumber();
        if (!(x > 0.0 && x <= 2.0)) p.fail(fmt::format("load fraction {} is not in (0, 2]", x));
        if (!(y >= ylo && y <= yhi)) {
            p.fail(fmt::format("value {} is not between {} and {}", y, ylo, yhi));
        }
        if (!out.empty() && x <= out.back().first) {
            p.fail("load fractions must increase strictly from point to point");
        }
        out.emplace_back(x, y);
    }
    if (out.empty()) arr.fail("needs at least one point");
    return out;
}

/// Keys every entry may carry besides its fields.
std::vector<std::string> withMeta(std::vector<std::string> keys) {
    keys.push_back("source");
    keys.push_back("model");
    return keys;
}

/// Every numeric (or array) field must have a source string, and every source must name a
/// field: an uncited number or a stale citation is a catalog bug.
void checkSources(const JsonView& entry) {
    const auto src = entry.find("source");
    if (!src) entry.fail("catalog entry has no \"source\" object citing domain-facts rows");
    if (!src->isObject()) src->fail("expected an object {field: citation}");
    for (const auto& key : entry.keys()) {
        const Json& value = entry.json().at(key);
        if (key == "source" || !(value.is_number() || value.is_array())) continue;
        if (!src->has(key)) {
            src->fail(fmt::format("field '{}' has no source; every number needs a citation", key));
        }
        if (src->at(key).asString().size() < 8) src->fail(key, "citation is too short");
    }
    for (const auto& key : src->keys()) {
        if (!entry.has(key)) src->fail(key, "cites a field the entry does not have");
    }
}

}  // namespace

// ---------------------------------------------------------------------------------------------
PiecewiseLinear::PiecewiseLinear(std::vector<std::pair<double, double>> points) {
    if (points.empty()) throw ModelError("PiecewiseLinear needs at least one point");
    for (std::size_t i = 1; i < points.size(); ++i) {
        if (!(points[i].first > points[i - 1].first)) {
            throw ModelError("PiecewiseLinear: x values must increase strictly");
        }
    }
    points_ = std::make_shared<const std::vector<std::pair<double, double>>>(std::move(points));
}

const std::vector<std::pair<double, double>>& PiecewiseLinear::points() const {
    static const std::vector<std::pair<double, double>> none;
    return points_ ? *points_ : none;
}

double PiecewiseLinear::operator()(double x) const {
    if (!points_) throw ModelError("PiecewiseLinear evaluated without points");
    const auto& p = *points_;
    if (x <= p.front().first) return p.front().second;
    if (x >= p.back().first) return p.back().second;
    auto it = std::upper_bound(p.begin(), p.end(), x,
                               [](double a, const auto& q) { return a < q.first; });
    const auto& [x1, y1] = *it;
    const auto& [x0, y0] = *(it - 1);
    return y0 + (y1 - y0) * (x - x0) / (x1 - x0);
}

double ConductorSpec::resistance() const {
    const double p_rated = std::sqrt(3.0) * voltage * rating;  // [W] at PF 1
    return loss_at_rating * p_rated / (3.0 * rating * rating);
}

// ---------------------------------------------------------------------------------------------
RackSpec parseRackSpec(const JsonView& v, std::string name, const Catalog* catalog) {
    v.checkKeys(withMeta({"provisional",
                          "gpus",
                          "gpu_tdp_W",
                          "gpu_idle_W",
                          "cpus",
                          "cpu_max_W",
                          "cpu_idle_W",
                          "compute_trays",
                          "switch_trays",
                          "switch_tray_max_W",
                          "switch_tray_idle_fraction",
                          "nics",
                          "nic_W",
                          "tray_other_W",
                          "fan_max_W",
                          "fan_idle_W",
                          "psu_shelves",
                          "psus_per_shelf",
                          "psu_rating_W",
                          "psu_curve",
                          "gpu_liquid_fraction",
                          "cpu_liquid_fraction",
                          "switch_liquid_fraction",
                          "leakage_fraction_at_ref",
                          "leakage_doubling_K",
                          "die_ref_temp_C",
                          "throttle_temp_C",
                          "throttle_width_K",
                          "throttle_min_clock_fraction",
                          "shutdown_temp_C",
                          "shutdown_width_K",
                          "storage_per_gpu_J",
                          "ac_voltage_V",
                          "power_factor",
                          "tdp_W",
                          "idle_fraction",
                          "heat_to_liquid_fraction"}));
    RackSpec r;
    r.name = std::move(name);
    r.provisional = v.boolean("provisional", false);
    r.gpus = count(v, "gpus", 1, 1024);
    r.gpu_tdp = num(v, "gpu_tdp_W", 50, 5000);
    r.gpu_idle = num(v, "gpu_idle_W", 0, 5000);
    if (r.gpu_idle >= r.gpu_tdp) v.fail("gpu_idle_W", "must be below gpu_tdp_W");
    r.cpus = count(v, "cpus", 0, 1024);
    r.cpu_max = num(v, "cpu_max_W", 0, 5000);
    r.cpu_idle = num(v, "cpu_idle_W", 0, r.cpu_max);
    r.compute_trays = count(v, "compute_trays", 1, 256);
    r.switch_trays = count(v, "switch_trays", 0, 256);
    r.switch_tray_max = num(v, "switch_tray_max_W", 0, 20000);
    r.switch_tray_idle_fraction = num(v, "switch_tray_idle_fraction", 0, 1);
    r.nics = count(v, "nics", 0, 4096);
    r.nic_power = num(v, "nic_W", 0, 1000);
    r.tray_other = num(v, "tray_other_W", 0, 5000);
    r.fan_max = num(v, "fan_max_W", 0, 50000);
    r.fan_idle = num(v, "fan_idle_W", 0, r.fan_max);
    r.psu_shelves = count(v, "psu_shelves", 1, 64);
    r.psus_per_shelf = count(v, "psus_per_shelf", 1, 64);
    r.psu_rating = num(v, "psu_rating_W", 100, 1e6);
    r.psu_curve_name = v.string("psu_curve");
    if (catalog) {
        try {
            r.psu_curve = catalog->psuCurve(r.psu_curve_name);
        } catch (const InputError& e) {
            v.fail("psu_curve", e.what());
        }
    }
    r.gpu_liquid_fraction = num(v, "gpu_liquid_fraction", 0, 1);
    r.cpu_liquid_fraction = num(v, "cpu_liquid_fraction", 0, 1);
    r.switch_liquid_fraction = num(v, "switch_liquid_fraction", 0, 1);
    r.leakage_fraction_at_ref = num(v, "leakage_fraction_at_ref", 0, 0.5);
    r.leakage_doubling = num(v, "leakage_doubling_K", 1, 200);
    r.die_ref_temp = units::celsiusToKelvin(num(v, "die_ref_temp_C", 0, 150));
    r.throttle_temp = units::celsiusToKelvin(num(v, "throttle_temp_C", 30, 150));
    r.throttle_width = num(v, "throttle_width_K", 0.1, 50);
    r.throttle_min_clock_fraction = num(v, "throttle_min_clock_fraction", 0.05, 1);
    r.shutdown_temp = units::celsiusToKelvin(num(v, "shutdown_temp_C", 30, 150));
    r.shutdown_width = num(v, "shutdown_width_K", 0.1, 20);
    if (r.shutdown_temp <= r.throttle_temp + r.throttle_width) {
        v.fail("shutdown_temp_C",
               "must lie above the throttle band (throttle_temp_C + "
               "throttle_width_K)");
    }
    r.storage_per_gpu = num(v, "storage_per_gpu_J", 0, 1e5);
    r.ac_voltage = num(v, "ac_voltage_V", 100, 1000);
    r.power_factor = num(v, "power_factor", 0.5, 1);
    r.tdp = num(v, "tdp_W", 1000, 2e6);
    r.idle_fraction = num(v, "idle_fraction", 0, 1);
    r.heat_to_liquid_fraction = num(v, "heat_to_liquid_fraction", 0, 1);
    return r;
}

UpsSpec parseUpsSpec(const JsonView& v, std::string name) {
    v.checkKeys(withMeta({"rating_W", "voltage_V", "power_factor", "double_conversion_points",
                          "eco_points", "ride_through_min", "battery_discharge_efficiency"}));
    UpsSpec u;
    u.name = std::move(name);
    u.rating = num(v, "rating_W", 1e3, 1e8);
    u.voltage = num(v, "voltage_V", 100, 50000);
    u.power_factor = num(v, "power_factor", 0.5, 1);
    u.double_conversion_points = points(v, "double_conversion_points", 0.5, 1.0);
    u.eco_points = points(v, "eco_points", 0.5, 1.0);
    if (u.double_conversion_points.size() < 3) {
        v.fail("double_conversion_points", "needs at least 3 points to fit a + b x + c x²");
    }
    if (u.eco_points.size() < 3) v.fail("eco_points", "needs at least 3 points");
    u.ride_through = num(v, "ride_through_min", 0, 240) * units::minute;
    u.battery_discharge_efficiency = num(v, "battery_discharge_efficiency", 0.5, 1);
    return u;
}

TransformerSpec parseTransformerSpec(const JsonView& v, std::string name) {
    v.checkKeys(withMeta({"rating_VA", "primary_V", "secondary_V", "doe_efficiency_50pct",
                          "no_load_loss_W", "load_loss_W", "impedance_pct"}));
    TransformerSpec t;
    t.name = std::move(name);
    t.rating = num(v, "rating_VA", 1e3, 1e9);
    t.primary_voltage = num(v, "primary_V", 100, 1e6);
    t.secondary_voltage = num(v, "secondary_V", 100, 1e6);
    t.doe_efficiency_50pct = num(v, "doe_efficiency_50pct", 0.9, 1.0);
    t.no_load_loss = num(v, "no_load_loss_W", 0, 0.05 * t.rating);
    t.load_loss = num(v, "load_loss_W", 0, 0.1 * t.rating);
    // Distribution transformers run 4-8 %; outside 1-20 % a value is a typo.
    t.impedance = num(v, "impedance_pct", 1.0, 20.0) / 100.0;
    return t;
}

namespace {

ConductorSpec parseConductor(const JsonView& v, std::string name, std::string category) {
    v.checkKeys(withMeta({"rating_A", "voltage_V", "loss_at_rating_pct", "interrupting_kA"}));
    ConductorSpec c;
    c.name = std::move(name);
    c.category = std::move(category);
    c.rating = num(v, "rating_A", 1, 1e5);
    c.voltage = num(v, "voltage_V", 100, 1e6);
    c.loss_at_rating = num(v, "loss_at_rating_pct", 0, 10) / 100.0;
    // LV air-circuit breakers break 40-200 kA (IEC 60947-2 Icu); outside 1-300 kA a typo.
    if (v.has("interrupting_kA")) c.interrupting = num(v, "interrupting_kA", 1, 300) * 1e3;
    return c;
}

GeneratorSpec parseGenerator(const JsonView& v, std::string name) {
    v.checkKeys(
        withMeta({"rating_W", "voltage_V", "power_factor", "start_delay_s", "step_load_limit_pct",
                  "fuel_gal_per_kWh", "prime_rating_W", "continuous_rating_W", "derate_above_C",
                  "derate_pct_per_K", "derate_above_m", "derate_pct_per_100m", "step_interval_s"}));
    GeneratorSpec g;
    g.name = std::move(name);
    g.rating = num(v, "rating_W", 1e3, 1e8);
    g.voltage = num(v, "voltage_V", 100, 1e6);
    g.power_factor = num(v, "power_factor", 0.5, 1);
    g.start_delay = num(v, "start_delay_s", 0, 600);
    g.step_load_limit = num(v, "step_load_limit_pct", 1, 100) / 100.0;
    g.fuel_gal_per_kWh = num(v, "fuel_gal_per_kWh", 0, 1);
    // ISO 8528-1: continuous ≤ prime ≤ standby.
    if (v.has("prime_rating_W")) g.prime_rating = num(v, "prime_rating_W", 1e3, g.rating);
    if (v.has("continuous_rating_W")) {
        g.continuous_rating =
            num(v, "continuous_rating_W", 1e3, g.prime_rating > 0 ? g.prime_rating : g.rating);
    }
    if (v.has("derate_above_C")) {
        g.derate_above = units::celsiusToKelvin(num(v, "derate_above_C", -20, 60));
    }
    if (v.has("derate_pct_per_K")) g.derate_per_K = num(v, "derate_pct_per_K", 0, 10) / 100.0;
    if (v.has("derate_above_m")) g.derate_above_altitude = num(v, "derate_above_m", 0, 5000);
    if (v.has("derate_pct_per_100m")) {
        g.derate_per_m = num(v, "derate_pct_per_100m", 0, 10) / 100.0 / 100.0;
    }
    if (v.has("step_interval_s")) g.step_interval = num(v, "step_interval_s", 0, 120);
    return g;
}

}  // namespace

double GeneratorSpec::ratingFor(std::string_view basis) const {
    std::vector<std::string> have{"standby"};
    if (prime_rating > 0) have.emplace_back("prime");
    if (continuous_rating > 0) have.emplace_back("continuous");
    if (basis == "standby") return rating;
    if (basis == "prime" && prime_rating > 0) return prime_rating;
    if (basis == "continuous" && continuous_rating > 0) return continuous_rating;
    throw InputError(fmt::format(
        "generator '{}' has no {} rating in the catalog; expected one of its ISO 8528-1 rating "
        "bases: {}",
        name, basis, fmt::join(have, ", ")));
}

double GeneratorSpec::derating(double T, double h) const {
    const double f = 1.0 - derate_per_K * std::max(0.0, T - derate_above) -
                     derate_per_m * std::max(0.0, h - derate_above_altitude);
    if (!(f > 0.05)) {
        throw InputError(fmt::format(
            "generator '{}' derated to {:.0f} % at {:.1f} °C and {:.0f} m: outside its range", name,
            100 * f, units::kelvinToCelsius(T), h));
    }
    return std::min(1.0, f);
}

namespace {

BessSpec parseBess(const JsonView& v, std::string name) {
    v.checkKeys(withMeta({"power_W", "energy_J", "round_trip_efficiency", "min_soc", "max_soc"}));
    BessSpec b;
    b.name = std::move(name);
    b.power = num(v, "power_W", 1, 1e10);
    b.energy = num(v, "energy_J", 1, 1e14);
    b.round_trip_efficiency = num(v, "round_trip_efficiency", 0.5, 1);
    b.min_soc = num(v, "min_soc", 0, 1);
    b.max_soc = num(v, "max_soc", b.min_soc, 1);
    if (b.max_soc <= b.min_soc) v.fail("max_soc", "must be above min_soc");
    return b;
}

SwitchSpec parseSwitch(const JsonView& v, std::string name) {
    v.checkKeys(withMeta({"ports", "port_speed_Gbps", "power_W"}));
    SwitchSpec s;
    s.name = std::move(name);
    s.ports = count(v, "ports", 4, 4096);
    if (s.ports % 2) v.fail("ports", "a fat-tree switch needs an even radix");
    s.port_speed_Gbps = num(v, "port_speed_Gbps", 1, 1e5);
    s.power = num(v, "power_W", 0, 1e5);
    return s;
}

NicSpec parseNic(const JsonView& v, std::string name) {
    v.checkKeys(withMeta({"speed_Gbps", "power_W"}));
    return NicSpec{std::move(name), num(v, "speed_Gbps", 1, 1e5), num(v, "power_W", 0, 1e4)};
}

OpticSpec parseOptic(const JsonView& v, std::string name) {
    v.checkKeys(withMeta({"ports", "power_W"}));
    return OpticSpec{std::move(name), count(v, "ports", 1, 8), num(v, "power_W", 0, 1e3)};
}

PiecewiseLinear parsePsuCurve(const JsonView& v) {
    v.checkKeys(withMeta({"points"}));
    return PiecewiseLinear(points(v, "points", 0.5, 1.0));
}

const std::vector<std::string>& conductorCategories() {
    static const std::vector<std::string> c{"busways", "rack_feeds", "breakers"};
    return c;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
std::filesystem::path Catalog::defaultDirectory() { return dataDir() / "catalog" / "power"; }

Catalog Catalog::load(const std::filesystem::path& directory) {
    if (!std::filesystem::is_directory(directory)) {
        throw InputError(
            fmt::format("power catalog directory '{}' does not exist", directory.string()));
    }
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(directory)) {
        if (e.path().extension() == ".json") files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    if (files.empty()) {
        throw InputError(
            fmt::format("power catalog directory '{}' has no *.json files", directory.string()));
    }
    Catalog cat;
    std::vector<Json> docs;
    docs.reserve(files.size());
    for (const auto& f : files) docs.push_back(readJsonFile(f));
    for (std::size_t i = 0; i < files.size(); ++i) {
        const std::string file = files[i].filename().string();
        const JsonView root(docs[i], file + ":");
        if (!root.isObject()) root.fail("expected an object of catalog categories");
        for (const auto& category : root.keys()) {
            if (category == "description") continue;
            const JsonView cat_view = root.at(category);
            if (!cat_view.isObject()) cat_view.fail("expected an object of entries");
            if (cat.entries_.count(category)) {
                cat_view.fail(fmt::format("category '{}' is also defined in {}", category,
                                          cat.originOf(category)));
            }
            cat.origin_[category] = file;
            auto& slot = cat.entries_[category];
            for (const auto& name : cat_view.keys()) {
                checkSources(cat_view.at(name));
                slot.emplace(name, cat_view.json().at(name));
            }
        }
    }
    // Parse every entry once so a broken catalog fails at load, not in the middle of a run.
    // PSU curves first: racks refer to them.
    for (const auto& [category, entries] : cat.entries_) {
        for (const auto& [name, json] : entries) {
            const JsonView v(json,
                             fmt::format("{}:/{}/{}", cat.originOf(category), category, name));
            if (category == "psu_curves") {
                parsePsuCurve(v);
            }
        }
    }
    for (const auto& [category, entries] : cat.entries_) {
        for (const auto& [name, json] : entries) {
            const JsonView v(json,
                             fmt::format("{}:/{}/{}", cat.originOf(category), category, name));
            if (category == "racks") {
                parseRackSpec(v, name, &cat);
            } else if (category == "ups") {
                parseUpsSpec(v, name);
            } else if (category == "transformers") {
                parseTransformerSpec(v, name);
            } else if (category == "generators") {
                parseGenerator(v, name);
            } else if (category == "bess") {
                parseBess(v, name);
            } else if (category == "switches") {
                parseSwitch(v, name);
            } else if (category == "nics") {
                parseNic(v, name);
            } else if (category == "optics") {
                parseOptic(v, name);
            } else if (category == "psu_curves") {
                // parsed above
            } else if (std::find(conductorCategories().begin(), conductorCategories().end(),
                                 category) != conductorCategories().end()) {
                parseConductor(v, name, category);
            } else {
                throw InputError(fmt::format(
                    "{}: unknown catalog category '{}'; valid categories: racks, psu_curves, "
                    "ups, transformers, busways, rack_feeds, breakers, generators, bess, "
                    "switches, nics, optics",
                    cat.originOf(category), category));
            }
        }
    }
    return cat;
}

std::string Catalog::originOf(std::string_view category) const {
    auto it = origin_.find(category);
    return it == origin_.end() ? std::string("catalog") : it->second;
}

std::vector<std::string> Catalog::categories() const {
    std::vector<std::string> out;
    for (const auto& [k, v] : entries_) out.push_back(k);
    return out;
}

std::vector<std::string> Catalog::names(std::string_view category) const {
    auto it = entries_.find(category);
    if (it == entries_.end()) {
        throw InputError(fmt::format("power catalog has no category '{}'; categories: {}", category,
                                     fmt::join(categories(), ", ")));
    }
    std::vector<std::string> out;
    for (const auto& [k, v] : it->second) out.push_back(k);
    return out;
}

const Json& Catalog::entry(std::string_view category, std::string_view name) const {
    const auto valid = names(category);
    const auto& entries = entries_.find(category)->second;
    auto it = entries.find(std::string(name));
    if (it == entries.end()) {
        const std::string near = nearestName(name, valid);
        throw InputError(fmt::format(
            "unknown {} model '{}';{} valid choices: {}", category, quoteValue(name),
            near.empty() ? "" : fmt::format(" did you mean '{}'?", near), fmt::join(valid, ", ")));
    }
    return it->second;
}

std::pair<Json, std::string> Catalog::resolve(std::string_view category,
                                              const JsonView& ref) const {
    if (ref.json().is_string()) {
        const std::string name = ref.asString();
        try {
            return {entry(category, name), ref.where()};
        } catch (const InputError& e) {
            ref.fail(e.what());
        }
    }
    if (!ref.isObject()) {
        ref.fail(
            fmt::format("expected a {} model name or an object {{\"model\": name, "
                        "overrides...}}",
                        category));
    }
    const std::string name = ref.string("model");
    Json base;
    try {
        base = entry(category, name);
    } catch (const InputError& e) {
        ref.fail("model", e.what());
    }
    Json overrides = ref.json();
    overrides.erase("model");
    // An override replaces the catalog value; its citation no longer applies.
    for (const auto& item : overrides.items()) {
        if (base.contains("source") && base["source"].contains(item.key())) {
            base["source"][item.key()] = "overridden by the scenario";
        }
    }
    return {mergePatch(std::move(base), overrides), ref.where()};
}

#define DCTWIN_CATALOG_GETTERS(Type, method, category, parse)                                      \
    Type Catalog::method(const JsonView& ref) const {                                              \
        auto [json, where] = resolve(category, ref);                                               \
        std::string name = ref.json().is_string() ? ref.asString() : ref.string("model");          \
        return parse(JsonView(json, where), std::move(name));                                      \
    }                                                                                              \
    Type Catalog::method(std::string_view name) const {                                            \
        const Json& json = entry(category, name);                                                  \
        return parse(JsonView(json, fmt::format("{}:/{}/{}", originOf(category), category, name)), \
                     std::string(name));                                                           \
    }

DCTWIN_CATALOG_GETTERS(UpsSpec, ups, "ups", parseUpsSpec)
DCTWIN_CATALOG_GETTERS(TransformerSpec, transformer, "transformers", parseTransformerSpec)
DCTWIN_CATALOG_GETTERS(GeneratorSpec, generator, "generators", parseGenerator)
DCTWIN_CATALOG_GETTERS(BessSpec, bess, "bess", parseBess)
#undef DCTWIN_CATALOG_GETTERS

RackSpec Catalog::rack(const JsonView& ref) const {
    auto [json, where] = resolve("racks", ref);
    std::string name = ref.json().is_string() ? ref.asString() : ref.string("model");
    return parseRackSpec(JsonView(json, where), std::move(name), this);
}
RackSpec Catalog::rack(std::string_view name) const {
    const Json& json = entry("racks", name);
    return parseRackSpec(JsonView(json, fmt::format("{}:/racks/{}", originOf("racks"), name)),
                         std::string(name), this);
}

ConductorSpec Catalog::conductor(std::string_view category, const JsonView& ref) const {
    auto [json, where] = resolve(category, ref);
    std::string name = ref.json().is_string() ? ref.asString() : ref.string("model");
    return parseConductor(JsonView(json, where), std::move(name), std::string(category));
}
ConductorSpec Catalog::conductor(std::string_view category, std::string_view name) const {
    const Json& json = entry(category, name);
    return parseConductor(
        JsonView(json, fmt::format("{}:/{}/{}", originOf(category), category, name)),
        std::string(name), std::string(category));
}

SwitchSpec Catalog::fabricSwitch(std::string_view name) const {
    return parseSwitch(JsonView(entry("switches", name), fmt::format("/switches/{}", name)),
                       std::string(name));
}
NicSpec Catalog::nic(std::string_view name) const {
    return parseNic(JsonView(entry("nics", name), fmt::format("/nics/{}", name)),
                    std::string(name));
}
OpticSpec Catalog::optic(std::string_view name) const {
    return parseOptic(JsonView(entry("optics", name), fmt::format("/optics/{}", name)),
                      std::string(name));
}
PiecewiseLinear Catalog::psuCurve(std::string_view name) const {
    return parsePsuCurve(JsonView(entry("psu_curves", name), fmt::format("/psu_curves/{}", name)));
}

std::vector<ConductorSpec> Catalog::conductors(std::string_view category,
                                               std::string_view name_prefix) const {
    std::vector<ConductorSpec> out;
    for (const auto& name : names(category)) {
        if (name.rfind(name_prefix, 0) == 0) out.push_back(conductor(category, name));
    }
    std::sort(out.begin(), out.end(),
              [](const ConductorSpec& a, const ConductorSpec& b) { return a.rating < b.rating; });
    return out;
}

std::vector<TransformerSpec> Catalog::transformers() const {
    std::vector<TransformerSpec> out;
    for (const auto& name : names("transformers")) out.push_back(transformer(name));
    std::sort(out.begin(), out.end(), [](const TransformerSpec& a, const TransformerSpec& b) {
        return a.rating < b.rating;
    });
    return out;
}

}  // namespace dctwin::power
