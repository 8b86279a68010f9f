// Sweep expansion (JSON pointers over a base scenario) and the thread pool that runs it.
#include "facility/sweep.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <mutex>
#include <set>
#include <thread>

#include "core/errors.h"
#include "core/io/report_writer.h"
#include "facility/twin.h"

namespace dctwin::facility {
namespace {

namespace fs = std::filesystem;

void setPointer(Json& doc, const std::string& pointer, const Json& value,
                const std::string& where) {
    Json::json_pointer ptr;
    try {
        ptr = Json::json_pointer(pointer);
    } catch (const Json::exception& e) {
        throw InputError(
            fmt::format("{}: '{}' is not a JSON pointer (expected e.g. "
                        "\"/cooling/heat_rejection/type\"): {}",
                        where, pointer, e.what()));
    }
    if (ptr.empty()) throw InputError(fmt::format("{}: cannot replace the whole scenario", where));
    const Json::json_pointer parent = ptr.parent_pointer();
    if (!doc.contains(parent) || !doc.at(parent).is_object()) {
        throw InputError(fmt::format("{}: '{}' has no parent object '{}' in the base scenario",
                                     where, pointer, parent.to_string()));
    }
    doc[ptr] = value;
}

std::string label(const Json& v) {
    std::string s = v.is_string() ? v.get<std::string>() : v.dump();
    // Weather files: the station part of the name is the informative bit.
    if (auto slash = s.find_last_of('/'); slash != std::string::npos) s = s.substr(slash + 1);
    if (s.size() > 4 && s.ends_with(".epw")) s.resize(s.size() - 4);
    std::string out;
    for (char c : s) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-') ? c : '_';
    return out;
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

}  // namespace

SweepPlan loadSweep(const fs::path& file) {
    Json j = readJsonFile(file);
    return parseSweep(j, file.has_parent_path() ? file.parent_path() : fs::path("."),
                      file.string());
}

SweepPlan parseSweep(const Json& sweep, const fs::path& sweep_dir, std::string origin) {
    JsonView v(sweep);
    if (!v.isObject()) v.fail(fmt::format("{}: a sweep file is a JSON object", origin));
    v.checkKeys({"name", "description", "base", "set", "vary", "cases"});
    SweepPlan plan;
    plan.name = v.string("name", "sweep");
    fs::path base = v.string("base");
    if (base.is_relative()) base = sweep_dir / base;
    if (!fs::exists(base)) {
        v.fail("base", fmt::format("base scenario '{}' does not exist", base.string()));
    }
    const Json base_json = readJsonFile(base);
    plan.base_dir = base.has_parent_path() ? base.parent_path() : fs::path(".");

    Json common = base_json;
    if (auto set = v.find("set")) {
        if (!set->isObject()) set->fail("expected an object of JSON pointer → value");
        for (const auto& key : set->keys()) {
            setPointer(common, key, set->json()[key], set->where() + "/" + key);
        }
    }

    // Explicit cases (or one unnamed case), crossed with the product of "vary".
    std::vector<SweepCase> cases;
    if (auto list = v.find("cases")) {
        for (const auto& c : list->elements()) {
            c.checkKeys({"name", "set"});
            SweepCase sc{c.string("name"), common};
            checkCaseName(sc.name, fmt::format("{}: {}/name", origin, c.where()));
            if (auto set = c.find("set")) {
                for (const auto& key : set->keys()) {
                    setPointer(sc.scenario, key, set->json()[key], set->where() + "/" + key);
                }
            }
            cases.push_back(std::move(sc));
        }
    } else {
        cases.push_back({"", common});
    }
    if (auto vary = v.find("vary")) {
        for (const auto& key : vary->keys()) {
            JsonView values = vary->at(key);
            if (!values.isArray() || values.size() == 0) {
                values.fail("expected a non-empty list of values");
            }
            std::vector<SweepCase> next;
            for (const auto& c : cases) {
                for (std::size_t i = 0; i < values.size(); ++i) {
                    SweepCase sc = c;
                    setPointer(sc.scenario, key, values.json()[i], values.where());
                    sc.name += (sc.name.empty() ? "" : "__") + label(values.json()[i]);
                    next.push_back(std::move(sc));
                }
            }
            cases = std::move(next);
        }
    }
    if (cases.size() == 1 && cases[0].name.empty()) cases[0].name = "base";
    std::set<std::string> names;
    for (std::size_t i = 0; i < cases.size(); ++i) {
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
            parseScenario(cases[i].scenario, plan.base_dir,
                          fmt::format("{} case '{}'", origin, cases[i].name));
        } catch (const InputError& e) {
            throw InputError(
                fmt::format("{}: case '{}': {}", origin, quoteValue(cases[i].name), e.what()));
        }
    }
    plan.cases = std::move(cases);
    return plan;
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

SweepResult runSweep(const SweepPlan& plan, const fs::path& out_dir, int threads,
                     const std::function<void(double)>& progress, const std::atomic<bool>* cancel) {
    SweepResult result;
    result.cases = plan.cases.size();
    result.summaries.assign(plan.cases.size(), Json());
    std::mutex mutex;
    std::size_t next = 0, done = 0;

    auto worker = [&] {
        for (;;) {
            std::size_t i;
            {
                std::lock_guard lock(mutex);
                if (next >= plan.cases.size()) return;
                i = next++;
            }
            const SweepCase& c = plan.cases[i];
            Json summary;
            try {
                if (cancel && cancel->load()) throw CancelledError("sweep cancelled");
                ScenarioSpec s = parseScenario(c.scenario, plan.base_dir, c.name);
                RunControl control;
                control.cancel = cancel;
                RunOutcome r = runScenario(s, control);
                summary = r.summary;
                writeMemberFile(out_dir, c.name, ".summary.json", summary.dump(2), ".error.txt");
            } catch (const std::exception& e) {
                std::string what = fmt::format("case '{}': {}", c.name, e.what());
                try {
                    writeMemberFile(out_dir, c.name, ".error.txt", what, ".summary.json");
                } catch (const std::exception& write_error) {
                    // The failure is still reported in the sweep's table and summaries.
                    what += fmt::format(" (and its error file was not written: {})",
                                        write_error.what());
                }
                summary = Json{{"error", what}};
            }
            summary["case"] = c.name;
            std::lock_guard lock(mutex);
            result.summaries[i] = std::move(summary);
            ++done;
            if (progress) progress(static_cast<double>(done) / plan.cases.size());
        }
    };
    const int n = std::max(1, std::min<int>(threads, static_cast<int>(plan.cases.size())));
    std::vector<std::thread> pool;
    for (int t = 0; t < n; ++t) pool.emplace_back(worker);
    for (auto& t : pool) t.join();

    const std::vector<std::string> keys = {
        "it_energy_MWh",    "facility_energy_MWh", "pue",
        "water_m3",         "wue_L_per_kWh",       "peak_it_kW",
        "peak_facility_kW", "max_gpu_junction_C",  "energy_balance_rel_error"};
    std::string csv = "case";
    result.table_text = fmt::format("{:<44}", "case");
    for (const auto& k : keys) {
        csv += "," + k;
        result.table_text += fmt::format(" {:>14}", k.substr(0, 14));
    }
    csv += ",error\n";
    result.table_text += "\n";
    for (const Json& s : result.summaries) {
        const bool ok = !s.contains("error");
        if (ok) ++result.succeeded;
        csv += s.value("case", std::string());
        result.table_text += fmt::format("{:<44}", s.value("case", std::string()));
        for (const auto& k : keys) {
            const bool has = ok && s.contains(k) && s[k].is_number();
            csv += "," + (has ? fmt::format("{}", s[k].get<double>()) : std::string());
            result.table_text +=
                has ? fmt::format(" {:>14.6g}", s[k].get<double>()) : fmt::format(" {:>14}", "-");
        }
        std::string err = ok ? "" : s["error"].get<std::string>();
        std::replace(err.begin(), err.end(), '\n', ' ');
        std::replace(err.begin(), err.end(), ',', ';');
        csv += "," + err + "\n";
        result.table_text += ok ? "\n" : "  FAILED: " + err + "\n";
    }
    // Both tables or neither: a sweep's results are not left half-replaced.
    OutputTransaction tables;
    if (!csv.empty() && csv.back() == '\n') csv.pop_back();  // stageText ends the file
    tables.stageText(out_dir / "sweep_summary.csv", csv);
    tables.stageText(out_dir / "sweep_summary.json", Json(result.summaries).dump(2));
    tables.commit();
    return result;
}

}  // namespace dctwin::facility
