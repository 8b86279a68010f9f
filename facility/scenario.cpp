// Scenario loading: the file's shape, the study and the events. Equipment sections are read
// by the builder (facility/builder.cpp), which knows the catalog.
#include "facility/scenario.h"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "core/errors.h"
#include "core/units.h"

namespace dctwin::facility {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kStudyKinds = {"design_point", "annual", "transient",
                                              "contingency"};
const std::vector<std::string> kEventTypes = {"cdu_pump_trip", "heat_rejection_unit_loss",
                                              "chiller_trip", "utility_loss"};

constexpr int kDaysInMonth[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

StudySpec parseStudy(const JsonView& v) {
    v.checkKeys({"kind", "start", "start_hour", "duration_s", "duration_min", "duration_h",
                 "duration_days", "days", "hours", "output_interval_s", "output_interval_min",
                 "output_interval_h", "workload_resolution", "per_rack_channels", "rel_tol",
                 "linear_solver"});
    StudySpec s;
    s.kind = v.choice("kind", kStudyKinds);
    const std::string start = v.string("start", "01-01");
    int m = 0, d = 0;
    char dash = 0;
    std::istringstream in(start);
    if (!(in >> m >> dash >> d) || dash != '-' || !in.eof() || m < 1 || m > 12 || d < 1 ||
        d > kDaysInMonth[m - 1]) {
        v.fail("start", fmt::format("expected a calendar day \"MM-DD\" of a 365-day year "
                                    "(e.g. \"07-01\"), got \"{}\"",
                                    start));
    }
    s.start_month = m;
    s.start_day = d;
    int doy = d - 1;
    for (int i = 0; i < m - 1; ++i) doy += kDaysInMonth[i];
    const double start_hour = v.number("start_hour", 0.0);
    v.requireRange("start_hour", start_hour, 0.0, 23.999, "");
    s.start_s = doy * units::day + start_hour * units::hour;

    // Duration: "days"/"hours" are the short forms engineers write; duration_<unit> also works.
    int given = 0;
    if (v.has("days")) {
        s.duration_s = v.number("days") * units::day;
        ++given;
    }
    if (v.has("hours")) {
        s.duration_s = v.number("hours") * units::hour;
        ++given;
    }
    if (v.hasQuantity("duration", {"s", "min", "h", "days"})) {
        s.duration_s = v.quantity("duration", {"s", "min", "h", "days"});
        ++given;
    }
    if (given > 1) v.fail("give the study length once: days, hours or duration_<unit>");
    if (s.kind == "design_point") {
        if (given) v.fail("a design_point study has no duration; remove days/hours/duration");
    } else {
        if (!given) v.fail("a study needs its length: \"days\", \"hours\" or \"duration_s\"");
        v.requireRange(v.has("days") ? "days" : v.has("hours") ? "hours" : "duration_s",
                       s.duration_s, 1.0, 10.0 * units::year, "s");
    }
    const double default_interval = s.kind == "annual" ? 600.0 : 1.0;
    s.output_interval_s =
        v.quantity("output_interval", {"s", "min", "h"}, default_interval);
    if (!(s.output_interval_s > 0.0)) {
        v.fail("output_interval_s", "must be a positive time");
    }
    if (s.kind != "design_point" && s.output_interval_s > s.duration_s) {
        v.fail("output_interval_s",
               fmt::format("output interval {} s is longer than the study ({} s)",
                           s.output_interval_s, s.duration_s));
    }
    if (s.kind != "design_point" && s.duration_s / s.output_interval_s > 2.0e6) {
        v.fail("output_interval_s",
               fmt::format("{:.0f} output samples is too many; use a longer interval",
                           s.duration_s / s.output_interval_s));
    }
    s.workload_resolution = v.choice("workload_resolution", {"mean", "resolved"},
                                     s.kind == "transient" ? "resolved" : "mean");
    s.per_rack_channels = v.boolean("per_rack_channels", false);
    // Annual studies answer energy and water questions: 5e-4 moves the PUE of the reference
    // site by < 2e-4 relative against 1e-5 and the hottest GPU by < 0.05 K, at a tenth of the
    // steps (measured on a 2-day run; the energy balance is exact by construction either way).
    // Transients resolve sub-second swings and keep the tight default.
    s.rel_tol = v.number("rel_tol", s.kind == "annual" ? 5e-4 : 1e-5);
    v.requireRange("rel_tol", s.rel_tol, 1e-10, 1e-2, "");
    s.linear_solver = v.choice("linear_solver", {"auto", "dense", "sparse"}, "auto");
    return s;
}

std::vector<EventSpec> parseEvents(const JsonView& v, const StudySpec& study) {
    std::vector<EventSpec> events;
    for (const JsonView& e : v.elements()) {
        EventSpec ev;
        ev.type = e.choice("type", kEventTypes);
        ev.at_s = e.quantity("at", {"s", "min", "h"});
        ev.path = e.where();
        ev.params = e.json();
        if (ev.type == "cdu_pump_trip") {
            e.checkKeys({"type", "at_s", "at_min", "at_h", "cdu", "pumps"});
        } else if (ev.type == "heat_rejection_unit_loss") {
            e.checkKeys({"type", "at_s", "at_min", "at_h", "units"});
        } else if (ev.type == "chiller_trip") {
            e.checkKeys({"type", "at_s", "at_min", "at_h"});
        } else {
            e.checkKeys({"type", "at_s", "at_min", "at_h", "restore_s", "restore_min"});
        }
        if (study.kind != "design_point" && (ev.at_s < 0.0 || ev.at_s >= study.duration_s)) {
            e.fail("at_s", fmt::format("event time {} s is outside the study (0 to {} s)",
                                       ev.at_s, study.duration_s));
        }
        events.push_back(std::move(ev));
    }
    return events;
}

}  // namespace

Scenario parseScenario(const Json& input, const fs::path& base_dir, std::string origin) {
    JsonView v(input);
    if (!v.isObject()) {
        throw InputError(fmt::format("{}: a scenario is a JSON object, got {}", origin,
                                     input.type_name()));
    }
    v.checkKeys({"name", "description", "site", "it", "workload", "power", "cooling", "study",
                 "events"});
    Scenario s;
    s.base_dir = base_dir;
    s.input = input;
    s.name = v.string("name");
    if (s.name.empty()) v.fail("name", "must not be empty");
    s.description = v.string("description", "");
    for (const char* section : {"site", "it", "cooling", "study"}) {
        if (!v.has(section)) v.fail(fmt::format("missing section \"{}\"", section));
        if (!v.at(section).isObject()) v.at(section).fail("expected an object");
    }
    s.study = parseStudy(v.at("study"));
    if (auto ev = v.find("events")) {
        if (!ev->isArray()) ev->fail("expected a list of events");
        s.events = parseEvents(*ev, s.study);
    }
    if (s.study.kind == "contingency" && s.events.empty()) {
        v.fail("events", "a contingency study needs at least one event");
    }
    return s;
}

Scenario loadScenario(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        throw InputError(fmt::format("cannot read scenario file '{}': {}", file.string(),
                                     fs::exists(file) ? "permission denied"
                                                      : "no such file"));
    }
    std::stringstream buf;
    buf << in.rdbuf();
    Json j = parseJson(buf.str(), file.string());
    Scenario s;
    try {
        s = parseScenario(j, file.has_parent_path() ? file.parent_path() : fs::path("."),
                          file.string());
    } catch (const InputError& e) {
        throw InputError(fmt::format("{}: {}", file.string(), e.what()));
    }
    s.file = file;
    s.input_text = buf.str();
    return s;
}

fs::path resolveDataPath(const Scenario& scenario, const std::string& relative,
                         const std::string& json_path) {
    const fs::path p(relative);
    std::vector<fs::path> tried;
    if (p.is_absolute()) {
        tried.push_back(p);
    } else {
        tried.push_back(scenario.base_dir / p);
        tried.push_back(fs::path(DCTWIN_SOURCE_DIR) / p);
        tried.push_back(fs::current_path() / p);
    }
    for (const auto& t : tried) {
        if (fs::is_regular_file(t)) return t;
    }
    std::string places;
    for (const auto& t : tried) places += "\n  " + t.string();
    throw InputError(fmt::format("{}: file '{}' not found; looked in:{}", json_path, relative,
                                 places));
}

}  // namespace dctwin::facility
