// Sweep expansion (JSON pointers over a base scenario) and the thread pool that runs it.
#include "facility/sweep.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <fstream>
#include <limits>
#include <map>
#include <mutex>
#include <new>
#include <numbers>
#include <set>
#include <system_error>
#include <thread>

#include "core/errors.h"
#include "core/io/report_writer.h"
#include "dctwin/version.h"
#include "facility/metrics.h"
#include "facility/twin.h"
#include "power/workload.h"

namespace dctwin::facility {
namespace {

namespace fs = std::filesystem;

/// Cases a sweep may hold, vary products and ensemble members alike: each is a scenario copy
/// checked before the first runs (a 64-rack case ~25 ms), so 100,000 already take ~40 min to
/// check.
constexpr int kMaxSweepCases = 100000;

/// What a JSON value is, for messages ("a number", "an array").
std::string kindOf(const Json& v) {
    return v.is_object()    ? "an object"
           : v.is_array()   ? "an array"
           : v.is_string()  ? "a string"
           : v.is_boolean() ? "a boolean"
           : v.is_null()    ? "null"
                            : "a number";
}

/// Whether `p` names a value in `doc`; false, not an exception, for an array index too large
/// for a number ("/it/racks/99999999999999999999").
bool has(const Json& doc, const Json::json_pointer& p) {
    try {
        return doc.contains(p);
    } catch (const Json::exception&) {
        return false;
    }
}

/// Sets `pointer` in `doc` (the base scenario, with what the sweep set before). The parent
/// must exist, so a typo in a pointer is an error, not a new key the scenario reader refuses
/// far from its cause; the message says which part is missing, the nearest key that exists, and
/// the two ways to add it.
void setPointer(Json& doc, const std::string& pointer, const Json& value, const std::string& where,
                const std::string& base_name) {
    Json::json_pointer ptr;
    try {
        ptr = Json::json_pointer(pointer);
    } catch (const Json::exception&) {
        throw InputError(
            fmt::format("{}: '{}' is not a JSON pointer: expected '/' before each key, as in "
                        "\"/cooling/heat_rejection/type\" (a '~' in a key is written ~0, a '/' ~1)",
                        where, quoteValue(pointer)));
    }
    if (ptr.empty()) throw InputError(fmt::format("{}: cannot replace the whole scenario", where));
    const Json::json_pointer parent = ptr.parent_pointer();
    if (has(doc, parent) && doc.at(parent).is_object()) {
        doc[ptr] = value;
        return;
    }
    // The deepest part of the parent that exists, and what is missing below it.
    Json::json_pointer found = parent;
    std::string missing;
    while (!found.empty() && !has(doc, found)) {
        missing = found.back();
        found = found.parent_pointer();
    }
    const Json& at = doc.at(found);
    const std::string base = base_name.empty() ? std::string("the base scenario")
                                               : fmt::format("the base scenario '{}'", base_name);
    if (has(doc, parent)) {
        throw InputError(fmt::format(
            "{}: '{}' sets a key in '{}', which in {} is {}, not an object; set '{}' as a whole "
            "instead",
            where, pointer, parent.to_string(), base, kindOf(doc.at(parent)), parent.to_string()));
    }
    if (at.is_array()) {
        // An array cannot take a new entry by pointer: neither "add the object" nor a "set"
        // of {} would help (a set of an index is refused the same way).
        throw InputError(fmt::format(
            "{}: '{}' goes through '{}', which in {} is an array of {} {}, and '{}' is not "
            "one of its indices (0 to {}); set '{}' as a whole instead (\"{}\": [...])",
            where, pointer, found.to_string(), base, at.size(),
            at.size() == 1 ? "entry" : "entries", missing,
            at.empty() ? std::string("none") : std::to_string(at.size() - 1), found.to_string(),
            found.to_string()));
    }
    std::string why;
    if (!at.is_object()) {
        why = fmt::format("'{}' is {}, not an object", found.to_string(), kindOf(at));
    } else {
        std::vector<std::string> keys;
        for (const auto& [k, v] : at.items()) keys.push_back(k);
        const std::string near = nearestName(missing, keys);
        why = fmt::format("'{}' has no key '{}'{}", found.empty() ? "/" : found.to_string(),
                          missing, near.empty() ? "" : fmt::format(" (did you mean '{}'?)", near));
    }
    const std::string p = parent.to_string();
    throw InputError(fmt::format(
        "{}: '{}' has no parent object '{}' in {}: {}. Either add the object '{}' to the base "
        "scenario, or set it whole (\"{}\": {{...}} in place of '{}'), or put \"{}\": {{}} in "
        "the sweep's \"set\" and keep '{}' here",
        where, pointer, p, base, why, p, p, pointer, p, pointer));
}

/// A case's name part for a varied value: the value, a file by its name without ".epw" and
/// with the last `folders` of its folders (-1: all of them; more for files of one name in
/// several folders), other characters than letters, digits and '-' as '_'.
std::string label(const Json& v, int folders = 0) {
    std::string s = v.is_string() ? v.get<std::string>() : v.dump();
    // Weather files: the station part of the name is the informative bit.
    std::size_t cut = s.size();
    for (int k = 0; folders >= 0 && k <= folders && cut != std::string::npos && cut > 0; ++k) {
        cut = s.find_last_of('/', cut - 1);
    }
    if (folders >= 0 && cut != std::string::npos && cut < s.size()) s = s.substr(cut + 1);
    if (s.size() > 4 && s.ends_with(".epw")) s.resize(s.size() - 4);
    std::string out;
    for (char c : s) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-') ? c : '_';
    return out;
}

/// Two JSON pointers set the same value if one is the other or lies inside it.
bool overlaps(const std::string& a, const std::string& b) {
    const std::string& shorter = a.size() <= b.size() ? a : b;
    const std::string& longer = a.size() <= b.size() ? b : a;
    return longer.compare(0, shorter.size(), shorter) == 0 &&
           (longer.size() == shorter.size() || longer[shorter.size()] == '/');
}

/// Where a sweep sets a pointer, for the error that finds it set twice ("vary", say).
struct PointerUse {
    std::string pointer;
    std::string where;
    int stage = 0;  // order of application: 0 "set", 1 a case's "set", 2 "vary", 3 "draw"
    std::vector<Json> values;  // the values it may set (a vary: each of its list)
};

/// True when `later` (applied after `earlier`) only fills in a key inside the object(s)
/// `earlier` sets, which none of them holds: "set": {"/cooling/economizer": {}} with "vary":
/// {"/cooling/economizer/enabled": [...]} adds the key, it replaces nothing.
bool fillsIn(const PointerUse& earlier, const PointerUse& later) {
    if (later.pointer.size() <= earlier.pointer.size() || earlier.values.empty()) return false;
    Json::json_pointer inside;
    try {
        inside = Json::json_pointer(later.pointer.substr(earlier.pointer.size()));
    } catch (const Json::exception&) {
        return false;  // not a pointer: refused with its own message where it is set
    }
    return std::all_of(earlier.values.begin(), earlier.values.end(),
                       [&](const Json& v) { return v.is_object() && !v.contains(inside); });
}

/// A pointer that "vary" or an ensemble's "draw" sets may not also be set elsewhere: the later
/// value would replace the earlier in every case without a word (a draw replaced every varied
/// value; a vary every value of "set"). "set" under an explicit case's "set" stays allowed:
/// a common value a case overrides, as documented; and so does a pointer inside an object set
/// earlier that does not hold it (the later only adds a key).
void checkNoOverlap(const std::vector<PointerUse>& owned, const std::vector<PointerUse>& others) {
    for (std::size_t i = 0; i < owned.size(); ++i) {
        auto clash = [&](const PointerUse& o) {
            if (!overlaps(owned[i].pointer, o.pointer)) return;
            // Applied first: the earlier stage, or in one object the shorter pointer (keys are
            // applied in sorted order, a parent before what is inside it).
            const bool owned_first = owned[i].stage != o.stage
                                         ? owned[i].stage < o.stage
                                         : owned[i].pointer.size() < o.pointer.size();
            if (owned_first ? fillsIn(owned[i], o) : fillsIn(o, owned[i])) return;
            throw InputError(fmt::format(
                "{}: '{}' is also set by {} ('{}'): the later value would replace the other in "
                "every case; set each pointer in one place (\"set\", a case's \"set\", "
                "\"vary\" or an ensemble's \"draw\"), or set an object in one and a key it "
                "lacks in another",
                owned[i].where, owned[i].pointer, o.where, o.pointer));
        };
        for (std::size_t k = i + 1; k < owned.size(); ++k) clash(owned[k]);
        for (const PointerUse& o : others) clash(o);
    }
}

/// A case name becomes a file name in the output folder ("<case>.summary.json"): it must not
/// be empty, leave the folder or name a hidden or special file.
void checkCaseName(const std::string& name, const std::string& where) {
    std::string why;
    if (name.empty()) {
        why = "is empty";
    } else if (name.find_first_of("/\\") != std::string::npos) {
        why = "contains a path separator ('/' or '\\')";
    } else if (name.find("..") != std::string::npos || name.front() == '.') {
        why = "starts with '.' or contains '..'";
    } else if (name.size() > 200) {
        why = fmt::format("is {} characters long (at most 200)", name.size());
    } else if (std::any_of(name.begin(), name.end(),
                           [](unsigned char c) { return c < 0x20 || c == 0x7f; })) {
        why = "contains a control character";
    }
    if (!why.empty()) {
        throw InputError(
            fmt::format("{}: case name '{}' {}; a case name becomes a file name in "
                        "the output folder",
                        where, quoteValue(name), why));
    }
}

/// SplitMix64 (Steele, Lea & Flood 2014): a fixed, documented generator, so an ensemble's draws
/// are the same on every platform and standard library.
std::uint64_t splitmix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/// Uniform on the open interval (0, 1): 53 random bits, offset by half a step.
double uniform01(std::uint64_t& state) {
    return (static_cast<double>(splitmix64(state) >> 11) + 0.5) * 0x1.0p-53;
}

/// One "draw" entry of an ensemble: a JSON pointer and its distribution.
struct Draw {
    std::string pointer, where;
    std::string kind;  // uniform, normal, triangular, choice
    double a = 0, b = 0, c = 0;
    // normal: the truncation bounds (±inf when not given)
    double lo = -std::numeric_limits<double>::infinity();
    double hi = std::numeric_limits<double>::infinity();
    Json values;  // choice

    /// The value for member m: its own stream, seeded by (seed, member, pointer), the pointer
    /// by its FNV-1a hash so that adding another draw leaves this one's values alone.
    Json value(std::uint64_t seed, std::size_t member) const {
        std::uint64_t h = 0xCBF29CE484222325ULL;
        for (unsigned char ch : pointer) h = (h ^ ch) * 0x100000001B3ULL;
        std::uint64_t state = seed;
        state = splitmix64(state) ^ (0x9E3779B97F4A7C15ULL * (member + 1));
        state = splitmix64(state) ^ h;
        const double u = uniform01(state);
        if (kind == "uniform") return a + (b - a) * u;
        if (kind == "normal") {  // Box–Muller; bounded: drawn again until inside [lo, hi]
            double v1 = u;
            while (true) {
                const double u2 = uniform01(state);
                const double x =
                    a + b * std::sqrt(-2.0 * std::log(v1)) * std::cos(2.0 * std::numbers::pi * u2);
                // parseDraw made sure the bounds hold at least 1 % of the distribution, so
                // this ends after ~100 pairs at worst; unbounded draws take the first.
                if (x >= lo && x <= hi) return x;
                v1 = uniform01(state);
            }
        }
        if (kind == "triangular") {  // inverse CDF; a = min, b = mode, c = max
            const double f = (b - a) / (c - a);
            return u < f ? a + std::sqrt(u * (c - a) * (b - a))
                         : c - std::sqrt((1.0 - u) * (c - a) * (c - b));
        }
        const auto k = std::min(values.size() - 1, static_cast<std::size_t>(u * values.size()));
        return values[k];
    }
};

Draw parseDraw(const std::string& pointer, const JsonView& d) {
    Draw draw;
    draw.pointer = pointer;
    draw.where = d.where();
    if (!d.isObject()) d.fail("expected an object with \"distribution\" and its parameters");
    draw.kind = d.string("distribution");
    auto finite = [&](const char* key) {
        const double v = d.number(key);
        if (!std::isfinite(v)) d.at(key).fail("expected a finite number");
        return v;
    };
    if (draw.kind == "uniform") {
        d.checkKeys({"distribution", "min", "max"});
        draw.a = finite("min");
        draw.b = finite("max");
        if (!(draw.a < draw.b)) d.at("max").fail(fmt::format("expected max > min ({})", draw.a));
        // The draw is min + u·(max − min): a span past the largest double drew inf.
        if (!std::isfinite(draw.b - draw.a)) d.fail("max − min is beyond a finite number");
    } else if (draw.kind == "normal") {
        d.checkKeys({"distribution", "mean", "sd", "min", "max"});
        draw.a = finite("mean");
        draw.b = finite("sd");
        if (draw.b < 0) d.at("sd").fail("expected a standard deviation ≥ 0");
        // A truncated normal: the tails past "min"/"max" are drawn again, so a parameter with
        // a valid range (a setpoint, a share) can take a normal spread without a member
        // leaving the range.
        if (d.find("min")) draw.lo = finite("min");
        if (d.find("max")) draw.hi = finite("max");
        if (!(draw.lo < draw.hi)) d.at("max").fail(fmt::format("expected max > min ({})", draw.lo));
        // Probability mass inside the bounds: Φ(z) = erfc(−z/√2)/2.
        auto cdf = [&](double x) {
            if (draw.b == 0) return x >= draw.a ? 1.0 : 0.0;
            return 0.5 * std::erfc(-(x - draw.a) / (draw.b * std::numbers::sqrt2));
        };
        const double mass = cdf(draw.hi) - cdf(draw.lo);
        if (mass < 0.01) {
            d.fail(fmt::format(
                "\"min\" and \"max\" keep {:.3g} % of normal(mean {}, sd {}); they should cut "
                "its tails, not most of it (at least 1 %): move the mean inside the bounds, or "
                "draw from a uniform or triangular distribution over them",
                100.0 * mass, draw.a, draw.b));
        }
    } else if (draw.kind == "triangular") {
        d.checkKeys({"distribution", "min", "mode", "max"});
        draw.a = finite("min");
        draw.b = finite("mode");
        draw.c = finite("max");
        if (!(draw.a <= draw.b && draw.b <= draw.c && draw.a < draw.c)) {
            d.fail(fmt::format("expected min ≤ mode ≤ max and min < max (got {}, {}, {})", draw.a,
                               draw.b, draw.c));
        }
        if (!std::isfinite(draw.c - draw.a)) d.fail("max − min is beyond a finite number");
    } else if (draw.kind == "choice") {
        d.checkKeys({"distribution", "values"});
        JsonView values = d.at("values");
        if (!values.isArray() || values.size() == 0) values.fail("expected a non-empty list");
        draw.values = values.json();
    } else {
        d.at("distribution")
            .fail(fmt::format("unknown distribution '{}'; valid: uniform, normal, triangular, "
                              "choice",
                              quoteValue(draw.kind)));
    }
    return draw;
}

}  // namespace

std::vector<std::string> scenarioWarnings(const ScenarioSpec& scenario) {
    std::vector<std::string> out;
    std::set<std::pair<std::string, std::string>> seen;
    if (!scenario.workload) return out;
    for (const auto& job : scenario.workload->jobs()) {
        const auto* t = dynamic_cast<const power::TraceJob*>(job.get());
        if (t == nullptr || !t->trace) continue;
        for (const std::string& w : t->trace->warnings) {
            // Once per file and warning, however many jobs replay the file.
            if (seen.insert({t->trace->file, w}).second) {
                out.push_back(fmt::format("trace {} (job '{}'): {}", t->trace->file, t->name, w));
            }
        }
    }
    // Jobs with no time in the study run nowhere: every job starting at 5,000 h in a 48-h
    // study left the site idle (peak IT 2.3 MW of the 8.5 MW design) with exit 0 and no word.
    const double d = scenario.study.duration_s;
    std::vector<std::string> outside;
    std::size_t n_outside = 0;
    for (const auto& job : scenario.workload->jobs()) {
        if (job->start < d && job->end() > 0.0) continue;
        ++n_outside;
        if (outside.size() < 3) {
            outside.push_back(fmt::format("'{}' ({} at {:g} h)", job->name,
                                          job->start >= d ? "starts" : "ends",
                                          (job->start >= d ? job->start : job->end()) / 3600.0));
        }
    }
    if (n_outside > 0) {
        const std::size_t n = scenario.workload->jobs().size();
        out.push_back(fmt::format(
            "{} of the workload's {} jobs have no time in the study (0 to {:g} h) and do not "
            "run{}: {}{}",
            n_outside, n, d / 3600.0, n_outside == n ? ", so the racks are idle throughout" : "",
            fmt::join(outside, ", "), n_outside > outside.size() ? ", ..." : ""));
    }
    return out;
}

Table percentilesTable(const std::vector<MetricPercentiles>& percentiles) {
    Table t;
    t.path = "sweep/percentiles";
    std::vector<std::string> metric, unit;
    std::vector<double> members, p10, p50, p90, mn, mean, mx;
    for (const auto& p : percentiles) {
        metric.push_back(p.metric);
        unit.push_back(p.unit);
        members.push_back(static_cast<double>(p.members));
        p10.push_back(p.p10);
        p50.push_back(p.p50);
        p90.push_back(p.p90);
        mn.push_back(p.min);
        mean.push_back(p.mean);
        mx.push_back(p.max);
    }
    t.addText("metric", metric);
    t.addText("unit", unit);
    t.addNumbers("members", "1", members);
    t.addNumbers("p10", "", p10);
    t.addNumbers("p50", "", p50);
    t.addNumbers("p90", "", p90);
    t.addNumbers("min", "", mn);
    t.addNumbers("mean", "", mean);
    t.addNumbers("max", "", mx);
    return t;
}

double percentile(std::vector<double> values, double p) {
    if (values.empty()) throw Error("percentile of no values");
    std::sort(values.begin(), values.end());
    const double h = (static_cast<double>(values.size()) - 1.0) * std::clamp(p, 0.0, 1.0);
    const auto lo = static_cast<std::size_t>(std::floor(h));
    const std::size_t hi = std::min(lo + 1, values.size() - 1);
    return values[lo] + (h - static_cast<double>(lo)) * (values[hi] - values[lo]);
}

SweepPlan loadSweep(const fs::path& file, const std::atomic<bool>* cancel) {
    Json j = readJsonFile(file);
    SweepPlan plan = parseSweep(j, file.has_parent_path() ? file.parent_path() : fs::path("."),
                                file.string(), cancel);
    plan.input_files.insert(plan.input_files.begin(), {file, "the sweep file"});
    return plan;
}

std::string baseScenarioError(const SweepPlan& plan, const std::string& error,
                              const std::string& sweep, const std::string& case_name,
                              const std::function<void(const ScenarioSpec&)>& check) {
    std::string base_error;
    try {
        const ScenarioSpec base = parseScenario(plan.base, plan.base_dir, "");
        if (check) check(base);
    } catch (const InputError& b) {
        base_error = b.what();
    }
    if (base_error != error) return {};
    return fmt::format(
        "{}: {}\n  (in the base scenario of {}, so in every case; the first is '{}')",
        plan.base_file.string(), error, sweep, quoteValue(case_name));
}

namespace {

/// An error of the base scenario itself: named by the base file, not the sweep's.
class BaseScenarioError : public InputError {
public:
    using InputError::InputError;
};

SweepPlan parseSweepIn(const Json& sweep, const fs::path& sweep_dir, const std::string& origin,
                       const std::atomic<bool>* cancel) {
    JsonView v(sweep);
    if (!v.isObject()) v.fail("a sweep file is a JSON object");
    if (!v.find("base") && (v.find("it") || v.find("cooling") || v.find("study"))) {
        v.fail(
            "this is a scenario, not a sweep file: a sweep file names its base scenario in "
            "\"base\" and what to change in \"set\", \"vary\", \"cases\" or \"ensemble\" "
            "(scenarios/sweep_heat_rejection_climate.json is an example)");
    }
    v.checkKeys({"name", "description", "base", "set", "vary", "cases", "ensemble"});
    if (auto d = v.find("description"); d && !d->json().is_string()) {
        d->fail("expected a text saying what the sweep is for");
    }
    // Every pointer the sweep sets, by where: "vary" and "draw" may share none with the rest.
    std::vector<PointerUse> set_uses, vary_uses, draw_uses;
    // Each pointer with the values it may set: a vary's list, a choice draw's values (other
    // draws are numbers).
    auto uses = [](const JsonView& obj, int stage) {
        std::vector<PointerUse> u;
        if (!obj.isObject()) return u;
        for (const auto& key : obj.keys()) {
            // Checked before the overlaps: "" lies over every pointer, and was reported as
            // "also set by /set".
            if (key.empty()) {
                obj.fail(
                    "\"\" would replace the whole scenario; a pointer names a value inside it, "
                    "as \"/study/days\"");
            }
            const Json& value = obj.json()[key];
            std::vector<Json> values;
            if (stage == 2 && value.is_array()) {
                values.assign(value.begin(), value.end());
            } else if (stage == 3) {
                if (value.is_object() && value.contains("values") && value["values"].is_array()) {
                    values.assign(value["values"].begin(), value["values"].end());
                } else {
                    values.push_back(0.0);
                }
            } else {
                values.push_back(value);
            }
            u.push_back({key, obj.where(), stage, std::move(values)});
        }
        return u;
    };
    if (auto set = v.find("set")) set_uses = uses(*set, 0);
    if (auto list = v.find("cases"); list && list->isArray()) {
        for (const auto& c : list->elements()) {
            if (auto set = c.find("set")) {
                for (PointerUse& u : uses(*set, 1)) set_uses.push_back(std::move(u));
            }
        }
    }
    if (auto vary = v.find("vary")) vary_uses = uses(*vary, 2);
    if (auto ens = v.find("ensemble"); ens && ens->isObject()) {
        if (auto draw = ens->find("draw")) draw_uses = uses(*draw, 3);
    }
    {
        std::vector<PointerUse> rest = set_uses;
        rest.insert(rest.end(), draw_uses.begin(), draw_uses.end());
        checkNoOverlap(vary_uses, rest);
        checkNoOverlap(draw_uses, set_uses);
    }
    SweepPlan plan;
    plan.name = v.string("name", "sweep");
    plan.sweep = sweep;
    fs::path base = v.string("base");
    if (base.is_relative()) base = sweep_dir / base;
    if (!fs::exists(base)) {
        v.fail("base", fmt::format("base scenario '{}' does not exist", base.string()));
    }
    const Json base_json = readJsonFile(base);
    // A sweep as the base (or the sweep itself) was read as a scenario, and the first pointer
    // set failed: "'/cooling/...' has no parent object '/cooling' in the base scenario".
    if (looksLikeSweep(base_json)) {
        v.fail("base", fmt::format("'{}' is a sweep file, not a scenario; a sweep's base is the "
                                   "scenario its cases change",
                                   base.string()));
    }
    plan.base_dir = base.has_parent_path() ? base.parent_path() : fs::path(".");
    plan.base_file = base;
    plan.base = base_json;
    plan.input_files.emplace_back(base, "the base scenario");
    const std::string base_name = base.string();

    Json common = base_json;
    if (auto set = v.find("set")) {
        if (!set->isObject()) set->fail("expected an object of JSON pointer → value");
        for (const auto& key : set->keys()) {
            setPointer(common, key, set->json()[key], set->where(), base_name);
        }
    }

    // Explicit cases (or one unnamed case), crossed with the product of "vary".
    std::vector<SweepCase> cases;
    if (auto list = v.find("cases")) {
        // An empty list ran nothing, exited 0 and replaced an earlier sweep's tables with
        // empty ones.
        if (!list->isArray() || list->size() == 0) {
            list->fail("expected a non-empty list of cases ({\"name\": ..., \"set\": {...}})");
        }
        std::map<std::string, std::string> named;  // name → where it was first given
        for (const auto& c : list->elements()) {
            c.checkKeys({"name", "set"});
            SweepCase sc{c.string("name"), common};
            checkCaseName(sc.name, fmt::format("{}: {}/name", origin, c.where()));
            if (auto [it, fresh] = named.emplace(sc.name, c.where()); !fresh) {
                c.at("name").fail(
                    fmt::format("'{}' is already the name of {}; each case needs "
                                "a name of its own (it names the case's files)",
                                quoteValue(sc.name), it->second));
            }
            if (auto set = c.find("set")) {
                for (const auto& key : set->keys()) {
                    setPointer(sc.scenario, key, set->json()[key], set->where(), base_name);
                }
            }
            cases.push_back(std::move(sc));
        }
    } else {
        cases.push_back({"", common});
    }
    if (auto vary = v.find("vary")) {
        // An empty object ran the base alone, as if there were no "vary".
        if (!vary->isObject() || vary->keys().empty()) {
            vary->fail("expected an object of JSON pointer → list of values, not empty");
        }
        // The product is counted before it is built: 1,000 × 30 × 100 values made 3 million
        // scenario copies and ended in std::bad_alloc (exit 1) or the kernel's OOM killer.
        double product = static_cast<double>(cases.size());
        std::string factors = cases.size() > 1 ? fmt::format("{} cases", cases.size()) : "";
        for (const auto& key : vary->keys()) {
            const JsonView values = vary->at(key);
            if (!values.isArray() || values.size() == 0) {
                values.fail("expected a non-empty list of values");
            }
            product *= static_cast<double>(values.size());
            factors += fmt::format("{}{}", factors.empty() ? "" : " × ", values.size());
        }
        if (product > kMaxSweepCases) {
            vary->fail(
                fmt::format("{} makes {:.0f} cases; a sweep takes at most {} (split it into "
                            "several sweeps, or draw an ensemble)",
                            factors, product, kMaxSweepCases));
        }
        for (const auto& key : vary->keys()) {
            JsonView values = vary->at(key);
            // Each value's part of the case names; files of one name in several folders
            // (weather/2019/phoenix.epw, weather/2020/phoenix.epw) keep their folders.
            std::vector<std::string> labels;
            for (int folders : {0, 1, -1}) {
                labels.clear();
                for (const Json& x : values.json()) labels.push_back(label(x, folders));
                std::set<std::string> seen(labels.begin(), labels.end());
                if (seen.size() == labels.size()) break;
            }
            for (std::size_t i = 0; i < labels.size(); ++i) {
                for (std::size_t j = 0; j < i; ++j) {
                    if (labels[i] != labels[j]) continue;
                    values.fail(fmt::format(
                        "values {} ({}) and {} ({}) would both name their cases '{}'; list each "
                        "value once, or give the cases names of their own in \"cases\"",
                        j, values.json()[j].dump(), i, values.json()[i].dump(), labels[i]));
                }
            }
            std::vector<SweepCase> next;
            for (const auto& c : cases) {
                for (std::size_t i = 0; i < values.size(); ++i) {
                    SweepCase sc = c;
                    setPointer(sc.scenario, key, values.json()[i], vary->where(), base_name);
                    sc.name += (sc.name.empty() ? "" : "__") + labels[i];
                    next.push_back(std::move(sc));
                }
            }
            cases = std::move(next);
        }
    }
    if (cases.size() == 1 && cases[0].name.empty()) cases[0].name = "base";
    std::vector<std::string> drawn;  // per case of an ensemble with draws: what it drew
    // Choice values no member drew are checked too, after the members (below): a bad value
    // passed a sweep of few members and failed when more members were asked for.
    std::vector<Draw> draws;
    Json undrawn_base;
    std::uint64_t draw_seed = 1;
    if (auto ens = v.find("ensemble")) {
        if (!ens->isObject()) ens->fail("expected an object (members, seed, draw)");
        ens->checkKeys({"members", "seed", "draw"});
        plan.ensemble = true;
        if (auto draw_spec = ens->find("draw")) {
            if (!draw_spec->isObject() || draw_spec->keys().empty()) {
                draw_spec->fail("expected an object of JSON pointer → distribution");
            }
            for (const auto& key : draw_spec->keys())
                draws.push_back(parseDraw(key, draw_spec->at(key)));
            if (!ens->find("members")) ens->fail("\"draw\" needs \"members\" (how many draws)");
            const double members = ens->number("members");
            if (!(members >= 2 && members <= kMaxSweepCases) || members != std::floor(members)) {
                ens->at("members").fail(
                    fmt::format("expected a whole number of members from 2 to {}", kMaxSweepCases));
            }
            if (members * static_cast<double>(cases.size()) > kMaxSweepCases) {
                ens->at("members").fail(fmt::format(
                    "{} members for each of {} cases make {:.0f}; a sweep takes at most {}",
                    members, cases.size(), members * static_cast<double>(cases.size()),
                    kMaxSweepCases));
            }
            // Up to 2^53: a seed is read as a number, and above that two seeds read alike
            // (9007199254740993 drew what 9007199254740992 drew).
            constexpr std::uint64_t kMaxSeed = std::uint64_t{1} << 53;
            const Json* raw = ens->find("seed") ? &ens->at("seed").json() : nullptr;
            const double seed = raw ? ens->number("seed") : 1.0;
            const bool too_big =
                raw && raw->is_number_unsigned() && raw->get<std::uint64_t>() > kMaxSeed;
            if (!(seed >= 0 && seed <= static_cast<double>(kMaxSeed)) || seed != std::floor(seed) ||
                too_big) {
                ens->at("seed").fail(
                    fmt::format("expected a whole number from 0 to {} (2^53)", kMaxSeed));
            }
            undrawn_base = cases.front().scenario;
            draw_seed = static_cast<std::uint64_t>(seed);
            std::vector<SweepCase> next;
            const auto n = static_cast<std::size_t>(members);
            const int width = static_cast<int>(std::to_string(n).size());
            for (const auto& c : cases) {
                for (std::size_t m = 0; m < n; ++m) {
                    SweepCase sc = c;
                    std::vector<std::string> values;
                    for (std::size_t k = 0; k < draws.size(); ++k) {
                        const Json value = draws[k].value(static_cast<std::uint64_t>(seed), m);
                        setPointer(sc.scenario, draws[k].pointer, value, draws[k].where, base_name);
                        sc.drawn[draws[k].pointer] = value;
                        values.push_back(fmt::format("{} = {} ({})", draws[k].pointer, value.dump(),
                                                     draws[k].kind));
                    }
                    drawn.push_back(fmt::format("{}", fmt::join(values, ", ")));
                    sc.name =
                        (c.name == "base" && cases.size() == 1 ? std::string() : c.name + "__") +
                        fmt::format("m{:0{}}", m + 1, width);
                    next.push_back(std::move(sc));
                }
            }
            cases = std::move(next);
        } else if (ens->find("members") || ens->find("seed")) {
            ens->fail(
                "\"members\" and \"seed\" apply to draws; without \"draw\" the members are "
                "the sweep's cases");
        }
        // One member gave P10 = P50 = P90, a spread that says nothing.
        if (cases.size() < 2) {
            ens->fail(
                "an ensemble needs at least 2 members for its percentiles: without \"draw\" "
                "its members are the sweep's cases (\"vary\" or \"cases\"), and this sweep "
                "has one");
        }
    }
    std::set<std::string> names;
    for (std::size_t i = 0; i < cases.size(); ++i) {
        // Checking 10,000 cases took 4 minutes, deaf to Ctrl-C.
        if (cancel && cancel->load()) throw CancelledError("sweep check cancelled");
        checkCaseName(cases[i].name, fmt::format("{}: case {}", origin, i));
        if (!names.insert(cases[i].name).second) {
            throw InputError(fmt::format("{}: two sweep cases are named '{}'", origin,
                                         quoteValue(cases[i].name)));
        }
        if (cases[i].scenario.contains("name") && cases[i].scenario["name"].is_string()) {
            cases[i].scenario["name"] =
                cases[i].scenario["name"].get<std::string>() + " [" + cases[i].name + "]";
        }
        // Validate now, so a typo fails the sweep before hours of runs; the message names the
        // member ("case 'x': /study/kind: ...").
        try {
            const ScenarioSpec spec = parseScenario(cases[i].scenario, plan.base_dir, "");
            // Not a structured binding: clang 14 (the fuzz build) cannot capture one.
            for (const auto& input : spec.inputFiles()) {
                const bool known =
                    std::any_of(plan.input_files.begin(), plan.input_files.end(),
                                [&](const auto& f) { return f.first == input.first; });
                if (!known) {
                    plan.input_files.emplace_back(
                        input.first,
                        fmt::format("{} of case '{}'", input.second, quoteValue(cases[i].name)));
                }
            }
            for (std::string& w : scenarioWarnings(spec)) {
                if (std::find(plan.warnings.begin(), plan.warnings.end(), w) ==
                    plan.warnings.end()) {
                    plan.warnings.push_back(std::move(w));
                }
            }
        } catch (const InputError& e) {
            // The base scenario's own error, which every case inherits, names the base file
            // (it named the first case, and the user looked for the fault in the sweep).
            const std::string base_error =
                baseScenarioError(plan, e.what(), origin, cases[i].name, nullptr);
            if (!base_error.empty()) throw BaseScenarioError(base_error);
            const std::string in_case =
                fmt::format("{}: case '{}': {}", origin, quoteValue(cases[i].name), e.what());
            if (drawn.size() != cases.size()) throw InputError(in_case);
            // A drawn member: say what it drew, and how to keep the draws in range. A key that
            // takes whole numbers or names cannot be drawn from a range at all.
            const bool numbers_only = std::all_of(draws.begin(), draws.end(),
                                                  [](const Draw& d) { return d.kind != "choice"; });
            throw InputError(fmt::format(
                "{}\n  (this member drew {}; every member is checked before any runs: give a "
                "normal draw \"min\"/\"max\" to keep it inside the valid range, or narrow "
                "the distribution{})",
                in_case, drawn[i],
                numbers_only ? "; a key that takes whole numbers or names is drawn with "
                               "\"distribution\": \"choice\" and its \"values\""
                             : ""));
        }
    }
    for (const Draw& d : draws) {
        if (d.kind != "choice") continue;
        for (std::size_t k = 0; k < d.values.size(); ++k) {
            if (cancel && cancel->load()) throw CancelledError("sweep check cancelled");
            // The first case with the other draws at member 1's values and this choice's value
            // k: every value a larger ensemble could draw is known good before any runs.
            Json scenario = undrawn_base;
            for (const Draw& other : draws) {
                const Json value = &other == &d ? d.values[k] : other.value(draw_seed, 0);
                setPointer(scenario, other.pointer, value, other.where, base_name);
            }
            try {
                (void)parseScenario(scenario, plan.base_dir, "");
            } catch (const InputError& e) {
                throw InputError(fmt::format(
                    "{}: {}/values/{} ({}): {}\n  (every value a choice lists is checked "
                    "before any runs, drawn or not)",
                    origin, d.where, k, d.values[k].dump(), e.what()));
            }
        }
    }
    plan.cases = std::move(cases);
    return plan;
}

}  // namespace

SweepPlan parseSweep(const Json& sweep, const fs::path& sweep_dir, std::string origin,
                     const std::atomic<bool>* cancel) {
    try {
        return parseSweepIn(sweep, sweep_dir, origin, cancel);
    } catch (const BaseScenarioError&) {
        throw;  // names the base file and the sweep already
    } catch (const InputError& e) {
        // Messages from the sweep file itself name only their place in it; the file goes first
        // (the cases' own messages already start with it).
        const std::string what = e.what();
        if (origin.empty() || what.starts_with(origin + ":")) throw;
        throw InputError(fmt::format("{}: {}", origin, what));
    }
}

namespace {

/// Writes `<out_dir>/<name><suffix>` atomically (temporary, then rename) and removes the
/// member's `<name><stale_suffix>` left by an earlier sweep in the same folder, so the folder
/// never shows a success and a failure, or an old result, for one case. Error naming the file.
void writeMemberFile(const fs::path& out_dir, const std::string& name, const std::string& suffix,
                     const std::string& text, const std::string& stale_suffix) {
    OutputTransaction out;
    out.stageText(out_dir / (name + suffix), text);
    out.commit();
    std::error_code ec;
    fs::remove(out_dir / (name + stale_suffix), ec);
}

}  // namespace

namespace {

/// Runs member i, writes its summary (or error) file, returns its summary with "case" set. A
/// failure becomes {"error": ...}: it never stops the other members.
Json runMember(const SweepPlan& plan, std::size_t i, const fs::path& out_dir,
               const std::atomic<bool>* cancel) {
    const SweepCase& c = plan.cases[i];
    Json summary;
    try {
        if (cancel && cancel->load()) throw CancelledError("sweep cancelled");
        ScenarioSpec s = parseScenario(c.scenario, plan.base_dir, c.name);
        RunControl control;
        control.cancel = cancel;
        RunOutcome r = runScenario(s, control);
        summary = r.summary;
        if (c.drawn.is_object()) summary["drawn"] = c.drawn;
        writeMemberFile(out_dir, c.name, ".summary.json", summary.dump(2), ".error.txt");
    } catch (const CancelledError& e) {
        // A case cancelled (mid-run or before it started) is no failure and writes nothing: it
        // wrote "<case>.error.txt" and so removed an earlier sweep's summary of the same case,
        // while that sweep's tables, kept by the cancel, still listed it as succeeded.
        summary =
            Json{{"error", fmt::format("case '{}': {}", c.name, e.what())}, {"cancelled", true}};
    } catch (const std::exception& e) {
        std::string what = fmt::format("case '{}': {}", c.name, e.what());
        try {
            writeMemberFile(out_dir, c.name, ".error.txt", what, ".summary.json");
        } catch (const std::exception& write_error) {
            // The failure is still reported in the sweep's table and summaries.
            what += fmt::format(" (and its error file was not written: {})", write_error.what());
        }
        summary = Json{{"error", what}};
    }
    summary["case"] = c.name;
    if (c.drawn.is_object()) summary["drawn"] = c.drawn;
    return summary;
}

/// P10/P50/P90 (and min, mean, max) of every numeric top-level summary metric over the members
/// that succeeded, by metric name.
std::vector<MetricPercentiles> ensemblePercentiles(const std::vector<Json>& summaries) {
    std::map<std::string, std::vector<double>> values;
    std::map<std::string, std::string> units;
    for (const Json& s : summaries) {
        if (s.contains("error")) continue;
        for (const auto& [key, v] : s.items()) {
            if (!v.is_number()) continue;
            values[key].push_back(v.get<double>());
            if (s.contains("units") && s["units"].contains(key) && s["units"][key].is_string()) {
                units[key] = s["units"][key].get<std::string>();
            }
        }
    }
    std::vector<MetricPercentiles> out;
    for (const auto& [key, v] : values) {
        MetricPercentiles p;
        p.metric = key;
        p.unit = units.count(key) ? units[key] : "";
        p.members = v.size();
        p.p10 = percentile(v, 0.10);
        p.p50 = percentile(v, 0.50);
        p.p90 = percentile(v, 0.90);
        p.min = *std::min_element(v.begin(), v.end());
        p.max = *std::max_element(v.begin(), v.end());
        double sum = 0;
        for (double x : v) sum += x;
        p.mean = sum / static_cast<double>(v.size());
        out.push_back(std::move(p));
    }
    return out;
}

/// How many of the plan's member files (<case>.summary.json or .error.txt) an earlier sweep
/// left in out_dir: counted before the run replaces them.
std::size_t existingMemberFiles(const SweepPlan& plan, const fs::path& out_dir) {
    std::size_t n = 0;
    std::error_code ec;
    for (const SweepCase& c : plan.cases) {
        for (const char* suffix : {".summary.json", ".error.txt"}) {
            if (fs::is_regular_file(out_dir / (c.name + suffix), ec)) ++n;
        }
    }
    return n;
}

/// The sweep's tables from the members' summaries (in case order): the terminal table,
/// sweep_summary.csv/.json, the HDF5 index sweep_summary.h5 and, for an ensemble,
/// sweep_percentiles.csv — all renamed into place together. `replaced`: the member files of
/// an earlier sweep this one wrote over (for SweepResult::earlier_note).
void writeSweepTables(const SweepPlan& plan, const fs::path& out_dir, SweepResult& result,
                      std::size_t replaced) {
    // The summary keys the terminal table shows, each with a short header (its
    // unit in it) and the precision the single run prints it at (PUE to four decimals,
    // energies to 0.1 MWh); the CSV beside it keeps the keys and every digit. With the keys as
    // headers and %g figures the shipped sweep's table was ~230 characters wide.
    struct Shown {
        std::string key;
        const char* header;
        const char* format;
    };
    const std::vector<Shown> shown = {{"it_energy_MWh", "IT [MWh]", "{:.1f}"},
                                      {"facility_energy_MWh", "facility [MWh]", "{:.1f}"},
                                      {"pue", "PUE", "{:.4f}"},
                                      {"water_m3", "water [m3]", "{:.1f}"},
                                      {"wue_L_per_kWh", "WUE [L/kWh]", "{:.3f}"},
                                      {"peak_it_kW", "peak IT [kW]", "{:.0f}"},
                                      {"peak_facility_kW", "peak fac. [kW]", "{:.0f}"},
                                      {"max_gpu_junction_C", "junction [C]", "{:.1f}"},
                                      {"energy_balance_rel_error", "balance", "{:.1e}"}};
    // The CSV and the HDF5 index carry the table's keys first, then every other metric any
    // case reported (a summary's top-level numbers, in their JSON order): with the table's
    // nine alone, a sweep over pump redundancy could not be read for its GPU-hours lost, nor a
    // climate sweep for its hours above the setpoint, without opening each case's summary.
    std::vector<std::string> keys;
    for (const Shown& k : shown) keys.push_back(k.key);
    for (const Json& s : result.summaries) {
        if (!s.is_object() || s.contains("error")) continue;
        for (const auto& [key, value] : s.items()) {
            if (value.is_number() && std::find(keys.begin(), keys.end(), key) == keys.end()) {
                keys.push_back(key);
            }
        }
    }
    std::string csv = "case";
    // Every header whole and the case column as wide as its longest name, so the columns line
    // up.
    std::size_t case_width = 4;
    for (const Json& s : result.summaries) {
        case_width = std::max(case_width, s.value("case", std::string()).size());
    }
    std::vector<std::size_t> width;
    for (const auto& k : shown) width.push_back(std::max<std::size_t>(9, std::strlen(k.header)));
    result.table_text = fmt::format("{:<{}}", "case", case_width);
    for (std::size_t k = 0; k < keys.size(); ++k) {
        csv += "," + csvField(keys[k]);
        if (k < shown.size())
            result.table_text += fmt::format("  {:>{}}", shown[k].header, width[k]);
    }
    // An ensemble's draws, one column per pointer, after the metrics: what each member drew
    // was in no output, so a result could not be tied to its inputs.
    std::vector<std::string> drawn_keys;
    if (!plan.cases.empty() && plan.cases.front().drawn.is_object()) {
        for (const auto& item : plan.cases.front().drawn.items()) drawn_keys.push_back(item.key());
    }
    for (const std::string& d : drawn_keys) csv += "," + csvField("drawn:" + d);
    csv += ",error\n";
    result.table_text += "\n";
    Table index;
    index.path = "sweep/cases";
    std::vector<std::string> names, errors;
    std::vector<std::vector<double>> columns(keys.size());
    for (const Json& s : result.summaries) {
        const bool ok = !s.contains("error");
        if (ok) ++result.succeeded;
        names.push_back(s.value("case", std::string()));
        csv += csvField(names.back());
        result.table_text += fmt::format("{:<{}}", names.back(), case_width);
        for (std::size_t k = 0; k < keys.size(); ++k) {
            const bool has = ok && s.contains(keys[k]) && s[keys[k]].is_number();
            const double x =
                has ? s[keys[k]].get<double>() : std::numeric_limits<double>::quiet_NaN();
            columns[k].push_back(x);
            csv += "," + (has ? fmt::format("{}", x) : std::string());
            if (k >= shown.size()) continue;
            result.table_text += fmt::format(
                "  {:>{}}", has ? fmt::format(fmt::runtime(shown[k].format), x) : std::string("-"),
                width[k]);
        }
        const std::size_t row = names.size() - 1;
        for (const std::string& d : drawn_keys) {
            const Json& v = plan.cases[row].drawn.value(d, Json());
            csv += "," + csvField(v.is_string() ? v.get<std::string>() : v.dump());
        }
        std::string err = ok ? "" : s["error"].get<std::string>();
        errors.push_back(err);
        // One line per case (a reader that splits on lines still sees the rows); the commas
        // stay, quoted, as the message wrote them.
        std::replace(err.begin(), err.end(), '\n', ' ');
        csv += "," + csvField(err) + "\n";
        result.table_text += ok ? "\n" : "  FAILED: " + err + "\n";
    }
    // What each case's plant did not hold, in the single run's words (facility::notHeld): the
    // table's PUE and water read alike for a plant that held its setpoints and one that ran
    // hot, and the shipped climate sweep's dry coolers in Phoenix (PUE 1.1392) were 2,866 h
    // above the facility setpoint with GPUs throttling 79 h, which no column showed.
    std::string short_of;
    for (const Json& s : result.summaries) {
        if (s.contains("error")) continue;
        const std::vector<std::string> lines = notHeldInSummary(s);
        if (lines.empty()) continue;
        short_of += fmt::format("  {}\n", s.value("case", std::string()));
        for (const std::string& l : lines) short_of += fmt::format("      {}\n", l);
    }
    if (!short_of.empty()) result.table_text += "\nnot held\n" + short_of;
    index.addText("case", names);
    for (std::size_t k = 0; k < keys.size(); ++k) {
        const Json* unit_of = nullptr;
        for (const Json& s : result.summaries) {
            if (s.contains("units") && s["units"].contains(keys[k])) unit_of = &s["units"][keys[k]];
        }
        index.addNumbers(keys[k],
                         unit_of && unit_of->is_string() ? unit_of->get<std::string>() : "",
                         std::move(columns[k]));
    }
    for (const std::string& d : drawn_keys) {
        std::vector<double> numbers;
        std::vector<std::string> texts;
        bool all_numbers = true;
        for (const SweepCase& c : plan.cases) {
            const Json& v = c.drawn.value(d, Json());
            all_numbers = all_numbers && v.is_number();
            numbers.push_back(v.is_number() ? v.get<double>()
                                            : std::numeric_limits<double>::quiet_NaN());
            texts.push_back(v.is_string() ? v.get<std::string>() : v.dump());
        }
        if (all_numbers) {
            index.addNumbers("drawn:" + d, "", std::move(numbers));
        } else {
            index.addText("drawn:" + d, texts);
        }
    }
    index.addText("error", errors);

    Report report;
    // What made the index and from what, as a single run's report says it (fillReportHeader):
    // a folder of summaries read months later names the build and the sweep that wrote it.
    report.attributes["generator"] = "dctwin sweep";
    report.attributes["version"] = kVersion;
    report.attributes["git_commit"] = kGitCommit;
    report.attributes["created_utc"] = isoNow();
    report.attributes["sweep"] = plan.name;
    report.attributes["base_scenario"] = plan.base_file.string();
    report.texts["sweep/input"] = plan.sweep.dump(2);
    report.texts["sweep/base"] = plan.base.dump(2);
    report.texts["sweep/summaries"] = Json(result.summaries).dump(2);
    report.tables.push_back(std::move(index));

    std::string percentile_csv;
    if (plan.ensemble) {
        result.percentiles = ensemblePercentiles(result.summaries);
        percentile_csv = "metric,unit,members,p10,p50,p90,min,mean,max";
        for (const auto& p : result.percentiles) {
            percentile_csv +=
                fmt::format("\n{},{},{},{},{},{},{},{},{}", csvField(p.metric), csvField(p.unit),
                            p.members, p.p10, p.p50, p.p90, p.min, p.mean, p.max);
        }
        report.tables.push_back(percentilesTable(result.percentiles));
        result.table_text += fmt::format("\nensemble of {} members that succeeded (of {}):\n",
                                         result.succeeded, result.cases);
        // The case table's metrics, in its order, named and rounded as its columns are (the
        // percentiles read 1.07952 and 77140.4 beside the cases' 1.0774 and 76989.7).
        result.table_text +=
            fmt::format("{:<16} {:>12} {:>12} {:>12}\n", "metric", "P10", "P50", "P90");
        for (const Shown& k : shown) {
            const auto p = std::find_if(result.percentiles.begin(), result.percentiles.end(),
                                        [&](const auto& q) { return q.metric == k.key; });
            if (p == result.percentiles.end()) continue;
            const auto f = [&](double x) { return fmt::format(fmt::runtime(k.format), x); };
            result.table_text += fmt::format("{:<16} {:>12} {:>12} {:>12}\n", k.header, f(p->p10),
                                             f(p->p50), f(p->p90));
        }
    }

    // The cases an earlier sweep into this folder recorded (its own sweep_summary.json), read
    // before that file is replaced: their member files go once these tables are in place.
    std::vector<std::string> earlier;
    try {
        const fs::path previous = out_dir / "sweep_summary.json";
        std::error_code ec;
        if (fs::is_regular_file(previous, ec)) {
            const Json old = readJsonFile(previous);
            if (old.is_array()) {
                for (const Json& s : old) {
                    if (s.is_object() && s.contains("case") && s["case"].is_string()) {
                        earlier.push_back(s["case"].get<std::string>());
                    }
                }
            }
        }
    } catch (const std::exception&) {
        earlier.clear();  // not a summary we wrote: leave the folder's other files alone
    }

    // All tables or none: a sweep's results are not left half-replaced.
    OutputTransaction tables;
    auto hdf5 = makeHdf5Writer();
    tables.stage(*hdf5, report, out_dir / "sweep_summary.h5");
    if (!csv.empty() && csv.back() == '\n') csv.pop_back();  // stageText ends the file
    tables.stageText(out_dir / "sweep_summary.csv", csv);
    tables.stageText(out_dir / "sweep_summary.json", Json(result.summaries).dump(2));
    if (plan.ensemble) tables.stageText(out_dir / "sweep_percentiles.csv", percentile_csv);
    tables.commit();
    // What an earlier sweep left that would now read as this one's: its percentiles beside a
    // sweep that is no ensemble, and the member files of its cases this sweep does not have.
    // Only those: the folder may hold the user's own files.
    std::error_code ec;
    const bool percentiles_removed =
        !plan.ensemble && fs::remove(out_dir / "sweep_percentiles.csv", ec);
    const std::set<std::string> current(names.begin(), names.end());
    std::size_t removed = 0;
    for (const std::string& name : earlier) {
        if (current.count(name)) continue;
        try {
            checkCaseName(name, "");  // a name that could leave the folder is not removed
        } catch (const InputError&) {
            continue;
        }
        removed += fs::remove(out_dir / (name + ".summary.json"), ec) ? 1 : 0;
        removed += fs::remove(out_dir / (name + ".error.txt"), ec) ? 1 : 0;
    }
    // Replaced without asking, as `dctwin run` replaces a report; but said, so that results
    // that vanished from the folder are not a mystery.
    if (replaced > 0 || removed > 0 || percentiles_removed) {
        std::vector<std::string> what;
        if (replaced > 0) {
            what.push_back(fmt::format("{} case file{} replaced by this sweep's", replaced,
                                       replaced == 1 ? "" : "s"));
        }
        if (removed > 0) {
            what.push_back(fmt::format("{} case file{} of cases this sweep does not have removed",
                                       removed, removed == 1 ? "" : "s"));
        }
        if (percentiles_removed) what.push_back("its sweep_percentiles.csv removed");
        result.earlier_note = fmt::format("'{}' held an earlier sweep's results: {}",
                                          out_dir.string(), fmt::join(what, "; "));
    }
}

/// A sweep stopped by Ctrl-C (or the app's Cancel) writes no summary tables: they wrote the
/// cases that had finished over an earlier complete sweep_summary.csv, with no word that the
/// sweep had been cancelled. The finished cases' own files stay.
void throwIfCancelled(const SweepResult& result, const fs::path& out_dir,
                      const std::atomic<bool>* cancel) {
    if (!cancel || !cancel->load()) return;
    std::size_t finished = 0;
    for (const Json& s : result.summaries) finished += s.is_object() && !s.contains("error");
    throw CancelledError(fmt::format(
        "sweep cancelled with {} of {} cases finished (their files are in '{}'); the sweep's "
        "summary tables were not written, so those of an earlier sweep there stay",
        finished, result.cases, out_dir.string()));
}

/// The sweep's tables and its members' files must be files where they exist: a folder named
/// sweep_summary.h5 in the output folder was found only after every case had run.
void checkOutputPaths(const SweepPlan& plan, const fs::path& out_dir) {
    std::vector<fs::path> paths;
    for (const char* table :
         {"sweep_summary.csv", "sweep_summary.json", "sweep_summary.h5", "sweep_percentiles.csv"}) {
        paths.push_back(out_dir / table);
    }
    for (const SweepCase& c : plan.cases) {
        for (const char* suffix : {".summary.json", ".error.txt"}) {
            paths.push_back(out_dir / (c.name + suffix));
        }
    }
    std::error_code ec;
    for (const fs::path& p : paths) {
        const fs::file_status st = fs::symlink_status(p, ec);
        if (!fs::exists(st)) continue;
        // A link is refused as the report writer refuses it (OutputTransaction), and now, not
        // after the runs: it was found only when the tables were written, and a member's
        // link was deleted on the way.
        if (fs::is_symlink(st) || !fs::is_regular_file(st)) {
            throw InputError(fmt::format(
                "'{}' is in the way of the sweep's output: it exists and is not a file (a "
                "folder, a device or a symbolic link); move it, or give another output folder "
                "with -o",
                p.string()));
        }
        // `sweep s.json -o .` wrote sweep_summary.json over a sweep file of that name.
        for (const auto& [input, what] : plan.input_files) {
            if (fs::equivalent(p, input, ec)) {
                throw InputError(fmt::format(
                    "the sweep's output '{}' would overwrite {} ('{}'); give another output "
                    "folder with -o",
                    p.string(), what, input.string()));
            }
        }
    }
}

}  // namespace

SweepResult runSweep(const SweepPlan& plan, const fs::path& out_dir, int threads,
                     const std::function<void(double)>& progress, const std::atomic<bool>* cancel) {
    checkOutputPaths(plan, out_dir);
    SweepResult result;
    result.cases = plan.cases.size();
    result.summaries.assign(plan.cases.size(), Json());
    const std::size_t replaced = existingMemberFiles(plan, out_dir);
    std::mutex mutex;
    std::size_t next = 0, done = 0;
    std::exception_ptr failure;

    auto worker = [&] {
        for (;;) {
            std::size_t i;
            {
                std::lock_guard lock(mutex);
                if (next >= plan.cases.size()) return;
                i = next++;
            }
            Json summary;
            try {
                summary = runMember(plan, i, out_dir, cancel);
            } catch (...) {
                // runMember turns a case's failure into its summary; what escapes is the
                // process failing (out of memory while reporting one). An exception leaving a
                // thread ends the program, so it is kept for the caller, and no more cases start.
                std::lock_guard lock(mutex);
                if (!failure) failure = std::current_exception();
                next = plan.cases.size();
                return;
            }
            std::lock_guard lock(mutex);
            // A cancelled case is not done: the bar read "100 %" after a Ctrl-C.
            const bool counted = !summary.contains("cancelled");
            result.summaries[i] = std::move(summary);
            if (!counted) continue;
            ++done;
            if (progress) progress(static_cast<double>(done) / plan.cases.size());
        }
    };
    const int n = std::max(1, std::min<int>(threads, static_cast<int>(plan.cases.size())));
    std::vector<std::thread> pool;
    try {
        for (int t = 0; t < n; ++t) pool.emplace_back(worker);
    } catch (const std::exception&) {
        // A thread the system would not give (std::system_error at a process limit,
        // std::bad_alloc for its state at a memory limit): the threads that
        // started take every case between them. With none, this thread runs them. A thread
        // left joinable here would end the program (std::terminate).
        if (pool.empty()) worker();
    }
    for (auto& t : pool) t.join();
    if (failure) {
        try {
            std::rethrow_exception(failure);
        } catch (const std::bad_alloc&) {
            throw Error(fmt::format(
                "the sweep ran out of memory with {} case{} at a time; the cases that finished "
                "are in '{}', and no summary tables were written: run it again with fewer at a "
                "time (-j)",
                n, n == 1 ? "" : "s", out_dir.string()));
        }
    }
    throwIfCancelled(result, out_dir, cancel);
    writeSweepTables(plan, out_dir, result, replaced);
    return result;
}

SweepResult runSweepDistributed(const SweepPlan& plan, const fs::path& out_dir,
                                const parallel::MpiSession& session,
                                const std::function<void(double)>& progress,
                                const std::atomic<bool>* cancel) {
    checkOutputPaths(plan, out_dir);
    SweepResult result;
    result.cases = plan.cases.size();
    // Rank 0's count is used: it is taken before rank 0, the coordinator, hands out a case.
    const std::size_t replaced = existingMemberFiles(plan, out_dir);
    std::size_t done = 0;
    const std::vector<std::string> texts = parallel::distribute(
        session, plan.cases.size(),
        [&](std::size_t i) { return runMember(plan, i, out_dir, cancel).dump(); },
        [&](std::size_t, const std::string& text) {
            if (text.find("\"cancelled\":true") != std::string::npos) return;
            if (progress) progress(static_cast<double>(++done) / plan.cases.size());
        });
    if (session.rank() != 0) return result;
    for (const auto& t : texts) result.summaries.push_back(Json::parse(t));
    throwIfCancelled(result, out_dir, cancel);
    writeSweepTables(plan, out_dir, result, replaced);
    return result;
}

}  // namespace dctwin::facility
