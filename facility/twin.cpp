// Entry points: specs → sizing → design point → study → metrics → report.
#include "facility/twin.h"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>

#include "core/errors.h"
#include "core/units.h"
#include "dctwin/version.h"
#include "facility/metrics.h"
#include "facility/sizing.h"

namespace dctwin::facility {
namespace {

using Clock = std::chrono::steady_clock;
using units::kelvinToCelsius;

Json tableJson(const Table& t) {
    Json rows = Json::array();
    for (std::size_t r = 0; r < t.rows(); ++r) {
        Json row = Json::object();
        for (const auto& c : t.columns) {
            const bool bare =
                c.unit.empty() || c.unit == "1" || c.unit == "%" || c.name.ends_with("_" + c.unit);
            const std::string key = bare ? c.name : fmt::format("{}_{}", c.name, c.unit);
            if (const auto* v = std::get_if<std::vector<double>>(&c.data)) {
                row[key] = std::isfinite((*v)[r]) ? Json((*v)[r]) : Json(nullptr);
            } else {
                row[key] = std::get<std::vector<std::string>>(c.data)[r];
            }
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

/// The scenario as the twin resolved it: catalog records merged, defaults filled, counts
/// sized — the report's /scenario/resolved.
Json resolvedScenario(const ScenarioSpec& sc, const SiteSizing& z) {
    Json r = sc.input;
    r.erase("$schema");
    r["site"]["weather_resolved"] = sc.site.weather_file.string();
    r["site"]["design_weather"] = {{"basis", z.design_weather_basis},
                                   {"dry_bulb_C", kelvinToCelsius(z.design_weather.dry_bulb)},
                                   {"wet_bulb_C", kelvinToCelsius(z.design_weather.wet_bulb)},
                                   {"pressure_Pa", z.design_weather.pressure}};
    Json racks = Json::array();
    for (const auto& e : sc.it.racks) {
        const auto& k = e.rack;
        racks.push_back({{"model", k.name},
                         {"gpus", k.gpus},
                         {"gpu_tdp_W", k.gpu_tdp},
                         {"gpu_idle_W", k.gpu_idle},
                         {"psu_shelves", k.psu_shelves},
                         {"tdp_kW", k.tdp / 1e3},
                         {"throttle_temp_C", kelvinToCelsius(k.throttle_temp)},
                         {"rack_loop_flow_Lpm", e.loop.flow_design / units::L_per_min},
                         {"rack_loop_plate_R_K_per_W", e.loop.R_design},
                         {"gpu_junction_R_K_per_W", e.loop.R_junction},
                         {"gpu_junction_C_J_per_K", e.loop.C_junction}});
    }
    r["it"]["racks_resolved"] = racks;
    r["it"]["total_racks"] = z.racks;
    r["it"]["total_gpus"] = z.gpus;
    r["it"]["rack_kinds"] = z.kinds.size();
    r["it"]["fabric_resolved"] = {{"tiers", z.fabric.tiers},
                                  {"leaves", z.fabric.leaves},
                                  {"spines", z.fabric.spines},
                                  {"cores", z.fabric.cores},
                                  {"power_outside_racks_kW", z.fabric.power_outside_racks / 1e3}};
    auto coolingResolved = [&](const CoolingSpec& c, const HallSizing& h) {
        return Json{{"coolant", c.coolant},
                    {"tcs_supply_temp_C", kelvinToCelsius(c.tcs_supply_setpoint)},
                    {"fws_supply_temp_C", kelvinToCelsius(h.fws_supply_setpoint)},
                    {"cdu_model", c.cdu.name},
                    {"cdu_capacity_kW", c.cdu.capacity / 1e3},
                    {"cdu_approach_K", c.cdu.approach},
                    {"fws_coolant", c.facility_loop.coolant},
                    {"racks", h.racks},
                    {"cdus_running", h.cdus},
                    {"cdus_installed", h.cdus + h.cdu_spares},
                    {"cdu_groups", h.cdu_groups.size()},
                    {"fws_design_flow_m3h", h.design_fws_flow / units::m3_per_h},
                    {"heat_rejection_type", c.heat_rejection.type},
                    {"heat_rejection_model", c.heat_rejection.modelName()},
                    {"heat_rejection_units", h.plant.units},
                    {"trim_chiller_units", h.plant.chiller ? h.plant.chiller_units : 0},
                    {"design_weather_basis", h.design_weather_basis},
                    {"air_side_model", sc.cooling.air_side.crah.name}};
    };
    if (!sc.namedHalls()) {
        r["cooling"]["resolved"] = coolingResolved(sc.halls.front().cooling, z.halls.front());
    } else {
        r["cooling"]["resolved"] = {{"air_side_model", sc.cooling.air_side.crah.name},
                                    {"cdus_running", z.cdus()},
                                    {"cdus_installed", z.cdusInstalled()}};
        for (std::size_t h = 0; h < sc.halls.size(); ++h) {
            r["halls"][h]["resolved"] = coolingResolved(sc.halls[h].cooling, z.halls[h]);
        }
    }
    const power::SizingInput& in = z.electrical;
    r["power"]["resolved"] = {
        {"ups_mode", sc.power.ups_mode == power::UpsMode::Eco ? "eco" : "double_conversion"},
        {"ups_model", in.ups_model},
        {"ups_topology", in.ups_redundancy.label()},
        {"transformer_model", in.transformer_model},
        {"generator_model", in.generator_model},
        {"growth_margin_pct", in.growth_margin * 100},
        {"smoothing", sc.power.smoothing},
        {"bess", sc.power.bess}};
    return r;
}

void fillReportHeader(Report& r, const ScenarioSpec& sc, const SiteSizing& z) {
    r.attributes["generator"] = "dctwin";
    r.attributes["version"] = kVersion;
    r.attributes["git_commit"] = kGitCommit;
    r.attributes["created_utc"] = isoNow();
    r.attributes["scenario_name"] = sc.name;
    r.attributes["study"] = sc.study.kind;
    r.attributes["weather_file"] = sc.site.weather_file.filename().string();
    // The folder /scenario/input's relative paths (weather, job lists, traces) resolved
    // against, so the GUI can load that scenario again (File ▸ Edit the report's scenario).
    {
        std::error_code ec;
        const std::filesystem::path dir = std::filesystem::absolute(sc.base_dir, ec);
        r.attributes["scenario_dir"] = (ec ? sc.base_dir : dir.lexically_normal()).string();
    }
    r.texts["scenario/input"] = sc.input_text.empty() ? sc.input.dump(2) : sc.input_text;
    r.texts["scenario/resolved"] = resolvedScenario(sc, z).dump(2);
}

/// The water table gains the study's totals and each kind's largest calendar day: its own
/// day, not the site's peak day shared out by annual totals, which put the adiabatic spray's
/// peak day on the two-hall campus's year at 1.07 m³ where its hottest day sprayed 53 m³.
/// And each kind's largest clock hour, beside the design hour: the make-up connection must
/// pass it, and the reference year sprays 13.65 m³ in its largest clock hour (14.2 m³/h at
/// its peak sample) against the 7.93 m³ of the design hour (the 0.4 % design dry bulb is exceeded
/// ~35 h a year, and the pads run hardest then).
Table studyWaterTable(const Table& design, const std::vector<Metric>& m, const ResultSet& rs,
                      double start_s) {
    Table t = design;
    const std::vector<double> total = {
        metricValue(m, "water_evaporation_m3"), metricValue(m, "water_drift_m3"),
        metricValue(m, "water_blowdown_m3"), metricValue(m, "water_spray_m3"),
        metricValue(m, "water_m3")};
    std::vector<double> peak, peak_hour;
    for (const char* n : {"evaporation_total", "drift_total", "blowdown_total", "spray_total"}) {
        peak.push_back(peakCalendarDay(rs, "water", n, start_s));
        peak_hour.push_back(peakCalendarPeriod(rs, "water", n, start_s, 3600.0));
    }
    peak.push_back(metricValue(m, "water_peak_day_m3"));
    peak_hour.push_back(peakCalendarPeriod(rs, "water", "water_total", start_s, 3600.0));
    t.addNumbers("study_total", "m3", total);
    t.addNumbers("study_peak_day", "m3", peak);
    t.addNumbers("study_peak_hour", "m3", peak_hour);
    return t;
}

}  // namespace

bool smoothingModelled(const ScenarioSpec& sc) {
    return sc.power.smoothing && sc.study.workload_resolution == "resolved";
}

std::string smoothingNotModelledNote(const ScenarioSpec& sc) {
    if (!sc.power.smoothing || smoothingModelled(sc) || sc.study.kind == "design_point") return {};
    return fmt::format(
        "power smoothing is enabled (power.smoothing) but not modelled in this {} study: it "
        "acts within seconds and is modelled only with study.workload_resolution \"resolved\" "
        "(this study's is \"{}\"), so the results are without smoothing",
        sc.study.kind, sc.study.workload_resolution);
}

Json summaryJson(const ScenarioSpec& sc, const std::vector<Metric>& metrics,
                 const std::vector<Table>& tables) {
    Json j;
    j["scenario"] = sc.name;
    j["study"] = sc.study.kind;
    Json units = Json::object();
    for (const auto& m : metrics) {
        j[m.name] = std::isfinite(m.value) ? Json(m.value) : Json(nullptr);
        units[m.name] = m.unit;
    }
    j["units"] = std::move(units);
    Json sizing = Json::object();
    for (const auto& t : tables) {
        const auto slash = t.path.rfind('/');
        sizing[t.path.substr(slash + 1)] = tableJson(t);
    }
    j["sizing"] = std::move(sizing);
    return j;
}

namespace {
/// Sizing and the design point, their model errors told as such: the message alone ("coolant
/// water: enthalpy requested at 91.00 °C") did not say that the site could not be sized or
/// solved at full load in its design weather, which is where sizes a scenario overrides (one
/// heat-rejection unit, a CDU flow of 1 L/min) first show.
template <class F>
auto atDesign(F&& f) {
    try {
        return f();
    } catch (const ModelError& e) {
        throw ModelError(fmt::format(
            "the site cannot be sized and solved at its design point (full IT load in the "
            "design weather; check the sizes the scenario overrides in /cooling): {}",
            e.what()));
    }
}
}  // namespace

RunOutcome sizeScenario(const ScenarioSpec& sc) {
    const auto t0 = Clock::now();
    const SiteSizing z = atDesign([&] { return sizeSite(sc); });
    const DesignPoint d = atDesign([&] { return designPoint(sc, z); });
    RunOutcome r;
    fillReportHeader(r.report, sc, z);
    r.report.summary = designMetrics(z, d);
    r.report.tables = {d.electrical.toTable(), d.electrical.checksTable(), d.cooling, d.water};
    r.summary = summaryJson(sc, r.report.summary, r.report.tables);
    r.wall_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    r.summary["wall_s"] = r.wall_seconds;
    return r;
}

RunOutcome runScenario(const ScenarioSpec& sc, const RunControl& control) {
    if (sc.study.kind == "design_point") return sizeScenario(sc);
    const auto t0 = Clock::now();
    const SiteSizing z = atDesign([&] { return sizeSite(sc); });
    const DesignPoint d = atDesign([&] { return designPoint(sc, z); });
    StudyResults s = runStudy(sc, z, d, control);

    RunOutcome r;
    std::vector<Metric> metrics = studyMetrics(sc, s);
    for (auto& m : designMetrics(z, d)) metrics.push_back(std::move(m));
    fillReportHeader(r.report, sc, z);
    r.report.tables = {d.electrical.toTable(), d.electrical.checksTable(), d.cooling,
                       studyWaterTable(d.water, metrics, s.channels, sc.study.start_s)};
    r.report.summary = metrics;
    r.summary = summaryJson(sc, metrics, r.report.tables);
    // The contingency's event log goes to the report (HDF5 /contingency/event_log); the
    // summary JSON has it as contingency/log.
    if (s.event_log.rows() > 0) r.report.tables.push_back(s.event_log);
    if (Json c = contingencyReport(sc, s); !c.is_null()) r.summary["contingency"] = c;
    // Per job: compute lost to heat (issue 10), a report table and a summary object.
    if (Table jobs = jobComputeTable(sc, s); jobs.rows() > 0) {
        r.summary["jobs"] = tableJson(jobs);
        r.report.tables.push_back(std::move(jobs));
    }
    // Whether the run modelled smoothing, not whether the scenario asks for it: smoothing acts
    // within seconds and exists in the model only with the workload resolved (model.cpp), so
    // a contingency at its default "mean" resolution printed "burnt 0.0 kWh, deferred nan".
    // Asked for and not modelled, the summary says so: the reference year asked for it and
    // its summary said only power_smoothing false.
    r.summary["power_smoothing"] = smoothingModelled(sc);
    if (const std::string note = smoothingNotModelledNote(sc); !note.empty()) {
        r.summary["power_smoothing_note"] = note;
    }
    r.summary["site_battery"] = sc.power.bess;
    r.stats = s.stats;
    r.linear_solver = s.linear_solver;
    r.state_count = s.state_count;
    r.wall_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    r.summary["solver"] = {{"states", r.state_count},
                           {"linear_solver", r.linear_solver},
                           {"steps", r.stats.steps},
                           {"rhs_evals", r.stats.rhs_evals},
                           {"jacobian_rhs_evals", r.stats.jacobian_rhs_evals},
                           {"jacobian_colours", r.stats.jacobian_colours},
                           {"quadratures", r.stats.quadratures},
                           {"quadratures_reused", r.stats.quadratures_reused},
                           {"factorizations", r.stats.factorizations},
                           {"reinits", r.stats.reinits},
                           {"error_test_failures", r.stats.error_test_failures},
                           {"convergence_failures", r.stats.convergence_failures},
                           {"wall_s", r.wall_seconds}};
    r.report.timeseries = std::move(s.channels);
    return r;
}

void validateModel(const ScenarioSpec& sc) {
    atDesign([&] {
        buildModels(sc, sizeSite(sc));
        return 0;
    });
}

std::string isoNow() {
    std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

}  // namespace dctwin::facility
