// Studies: settle, design point, run (DESIGN.md §3.5). Each step a function of its own.
#include "facility/study.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <tuple>

#include "core/errors.h"
#include "core/simulator.h"
#include "core/units.h"
#include "facility/metrics.h"
#include "power/rack.h"
#include "thermal/cdu.h"
#include "thermal/rack_loop.h"

namespace dctwin::facility {
namespace {

constexpr double kSteadyHorizon = 8.0 * 3600.0;  // [s] long enough for every loop to settle

double at(const SiteModel& m, std::span<const double> y, OutputPort p) { return y[m.index(p)]; }

/// The chain sized for a cooling power, and the design operating point model.
Conditions designConditions(const SiteSizing& z, const power::ChainDesign& chain) {
    Conditions c;
    c.steady = true;
    c.utilization.assign(z.kinds.size(), 1.0);
    c.air = z.design_weather;
    c.chain = chain;
    c.horizon = kSteadyHorizon;
    return c;
}

/// Cooling table: every cooling element's rating, count, redundancy and loading at design.
Table coolingTable(const ScenarioSpec& sc, const SiteSizing& z, const SiteModel& m,
                   std::span<const double> y, const DesignPoint& d, double air_load) {
    const thermal::CduSpec& cdu = sc.cooling.cdu;
    double cdu_heat = 0, rack_flow_min = std::numeric_limits<double>::infinity();
    double pump_flow_actual = 0;
    for (const auto& cs : m.cdus()) {
        pump_flow_actual =
            std::max(pump_flow_actual, at(m, y, cs.cdu.out("secondary_flow")) / cdu.pumps_duty);
        cdu_heat = std::max(cdu_heat, at(m, y, cs.cdu.out("heat_transferred")));
    }
    for (const auto& rs : m.racks()) rack_flow_min = std::min(rack_flow_min, at(m, y, rs.flow));
    const double unit_capacity = sc.cooling.heat_rejection.unitCapacity();
    const thermal::AirCoilSpec& crah = sc.cooling.air_side.crah;
    // CRAH units and their chillers on the grown air load (facility/sizing.h).
    const CoolingCount crahs = countCrahs(sc, z, air_load);
    const CoolingCount chillers = countAirChillers(sc, z, air_load, crahs.count);
    const int crah_units = crahs.count;
    const double pump_flow = cdu.secondary_flow / cdu.pumps_duty;
    const double rack_flow_design = sc.it.racks.front().loop.flow_design;
    std::vector<std::string> element = {
        "cdu", "cdu_pump", "rack_loop_flow", "heat_rejection", "fws_pumps", "air_side_crah"};
    std::vector<std::string> model = {cdu.name,
                                      cdu.name + " pump",
                                      "rack loop",
                                      sc.cooling.heat_rejection.modelName(),
                                      "facility water pumps",
                                      crah.name};
    const thermal::PumpStationSpec& fp = z.plant.fws_pumps;
    const double fws_pump_flow = fp.design_flow / fp.duty;
    std::vector<double> rating = {cdu.capacity,  pump_flow,     rack_flow_design,
                                  unit_capacity, fws_pump_flow, crah.capacity};
    std::vector<std::string> unit = {"W", "m3/s", "m3/s", "W", "m3/s", "W"};
    std::vector<double> count = {static_cast<double>(z.cdus + z.cdu_spares),
                                 static_cast<double>(cdu.pumps_installed * (z.cdus + z.cdu_spares)),
                                 static_cast<double>(z.racks),
                                 static_cast<double>(z.plant.units),
                                 static_cast<double>(fp.duty + fp.standby),
                                 static_cast<double>(crah_units)};
    std::vector<std::string> redundancy = {
        z.cdu_spares == 0   ? "N"
        : z.cdu_spares == 1 ? "N+1"
                            : "2N",
        fmt::format("{}+{}", cdu.pumps_duty, cdu.pumps_installed - cdu.pumps_duty),
        "-",
        fmt::format("N+{}", sc.cooling.heat_rejection.redundancy_units),
        fmt::format("{}+{}", fp.duty, fp.standby),
        "N+1"};
    const double fws_flow = at(m, y, m.sums().fws_flow);
    const double fws_running = std::max(1.0, at(m, y, m.plant().out("fws_pumps_running")));
    std::vector<std::string> rule = {
        z.cdu_rule,
        fmt::format("{} per CDU x {} CDUs", cdu.pumps_installed, z.cdus + z.cdu_spares),
        "-",
        z.heat_rejection_rule,
        z.fws_pump_rule,
        crahs.rule};
    std::vector<double> load = {cdu_heat,        pump_flow_actual,       rack_flow_min,
                                d.heat_rejected, fws_flow / fws_running, air_load};
    std::vector<double> loading = {100.0 * cdu_heat / cdu.capacity,
                                   100.0 * pump_flow_actual / pump_flow,
                                   100.0 * rack_flow_min / rack_flow_design,
                                   100.0 * d.heat_rejected / (unit_capacity * z.plant.units),
                                   100.0 * fws_flow / fws_running / fws_pump_flow,
                                   100.0 * air_load / (crah.capacity * (crah_units - 1))};
    // N-1 (issue 15): the loading with the single failure each element's redundancy is meant
    // to cover, as the power table's failure_loading_pct. A standby unit (CDU, pump) takes the
    // failed one's duty, so its loading is unchanged; units that all share the load (heat
    // rejection, CRAH) carry it on one fewer. NaN where the redundancy covers no failure.
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const int cdu_pump_standby = cdu.pumps_installed - cdu.pumps_duty;
    std::vector<std::string> failure_case = {
        z.cdu_spares > 0 ? "one CDU lost (a standby CDU takes its racks)" : "",
        cdu_pump_standby > 0 ? "one pump per CDU lost (the standby runs)"
        : cdu.pumps_duty > 1 ? "one pump per CDU lost (the others carry the flow)"
                             : "",
        "",
        z.plant.units > 1 ? "one unit lost (the others reject the heat)" : "",
        fp.standby > 0 ? "one pump lost (the standby runs)"
        : fp.duty > 1  ? "one pump lost (the others carry the flow)"
                       : "",
        crah_units > 1 ? "one CRAH lost" : ""};
    std::vector<double> failure_loading = {
        z.cdu_spares > 0 ? loading[0] : nan,
        cdu_pump_standby > 0 ? loading[1]
        : cdu.pumps_duty > 1 ? loading[1] * cdu.pumps_duty / (cdu.pumps_duty - 1)
                             : nan,
        nan,
        z.plant.units > 1 ? 100.0 * d.heat_rejected / (unit_capacity * (z.plant.units - 1)) : nan,
        fp.standby > 0      ? loading[4]
        : fws_running > 1.0 ? loading[4] * fws_running / (fws_running - 1.0)
                            : nan,
        // The design loading is already on the N units of the N+1 plant.
        crah_units > 1 ? loading[5] : nan};
    // The secondary pumps under control (issue 9): the fastest CDU's speed against rated, the
    // highest header differential pressure against the setpoint it may reset up to.
    double speed_max = 0.0, dp_max = 0.0;
    for (const auto& cs : m.cdus()) {
        speed_max = std::max(speed_max, at(m, y, cs.cdu.out("pump_speed")));
        dp_max = std::max(dp_max, at(m, y, cs.cdu.out("header_dp")));
    }
    auto row = [&](const std::string& e, const std::string& mdl, double r, const std::string& u,
                   double n, const std::string& red, double l) {
        element.push_back(e);
        model.push_back(mdl);
        rating.push_back(r);
        unit.push_back(u);
        count.push_back(n);
        redundancy.push_back(red);
        load.push_back(l);
        loading.push_back(100.0 * l / r);
        rule.push_back("-");
        failure_case.push_back("");
        failure_loading.push_back(nan);
    };
    // The CRAH plant's air-cooled chillers: loading of today's coil load on the running units.
    row("air_side_chiller", sc.cooling.air_side.chiller.name, chillers.unit_capacity, "W",
        static_cast<double>(chillers.count), chillers.redundancy,
        chillers.load_today / (chillers.count - 1));
    rule.back() = chillers.rule;
    if (chillers.count > 1) {  // loaded on its N units already, as the CRAHs
        failure_case.back() = "one chiller lost";
        failure_loading.back() = loading.back();
    }
    row("cdu_pump_speed", cdu.name + " drive (" + cdu.control_variable + ")", 1.0, "1",
        static_cast<double>(cdu.pumps_installed * (z.cdus + z.cdu_spares)), "-", speed_max);
    row("cdu_header_dp", cdu.name + " rack headers", cdu.dp_setpoint, "Pa",
        static_cast<double>(z.cdus + z.cdu_spares), "-", dp_max);
    // The facility pumps at design: drive speed (staged pumps) and the head they make.
    row("fws_pump_speed", "facility pump drives (" + fp.control + ")", 1.0, "1",
        static_cast<double>(fp.duty + fp.standby), "-", at(m, y, m.plant().out("fws_pump_speed")));
    row("fws_pump_head", "facility pumps", fp.design_head, "Pa",
        static_cast<double>(fp.duty + fp.standby), "-", at(m, y, m.plant().out("fws_pump_head")));
    if (z.plant.chiller) {
        const double ch = at(m, y, m.plant().out("chiller_cooling"));
        element.push_back("trim_chiller");
        model.push_back(z.plant.chiller->name);
        rating.push_back(z.plant.chiller->capacity);
        unit.push_back("W");
        count.push_back(z.plant.chiller_units);
        redundancy.push_back("N");
        load.push_back(ch);
        loading.push_back(100.0 * ch / (z.plant.chiller->capacity * z.plant.chiller_units));
        rule.push_back("trim_chiller/units");
        failure_case.push_back("");
        failure_loading.push_back(nan);
    }
    // The case that governs each row: the failure where it loads the element more.
    std::vector<std::string> governs;
    for (std::size_t i = 0; i < element.size(); ++i) {
        governs.push_back(!std::isnan(failure_loading[i]) && failure_loading[i] > loading[i] + 1e-9
                              ? failure_case[i]
                              : "normal");
    }
    Table ct;
    ct.path = "sizing/cooling";
    ct.addText("element", element);
    ct.addText("model", model);
    ct.addNumbers("rating", "", rating);
    ct.addText("unit", unit);
    ct.addNumbers("count", "1", count);
    ct.addText("redundancy", redundancy);
    ct.addText("count_rule", rule);
    ct.addNumbers("design_load", "", load);
    ct.addNumbers("design_loading_pct", "%", loading);
    ct.addText("failure_case", failure_case);
    ct.addNumbers("failure_loading_pct", "%", failure_loading);
    ct.addText("governing_case", governs);
    return ct;
}

/// Water table at design: per hour and a design day of 24 design hours.
Table waterTable(const SiteModel& m, std::span<const double> y, double& makeup_rate) {
    const ComponentHandle& p = m.plant();
    const std::vector<double> rates = {
        at(m, y, p.out("evaporation_rate")), at(m, y, p.out("drift_rate")),
        at(m, y, p.out("blowdown_rate")), at(m, y, p.out("spray_rate"))};
    std::vector<double> all = rates;
    all.push_back(rates[0] + rates[1] + rates[2] + rates[3]);
    makeup_rate = all.back();
    Table wt;
    wt.path = "sizing/water";
    wt.addText("element", {"evaporation", "drift", "blowdown", "adiabatic_spray", "makeup"});
    std::vector<double> hour, day;
    for (double r : all) {
        hour.push_back(r * 3600.0);
        day.push_back(r * 86400.0);
    }
    wt.addNumbers("design_hour", "m3", hour);
    wt.addNumbers("design_day", "m3", day);
    return wt;
}

/// Event schedules for the study model; a utility loss's generator plan (facility/
/// utility_loss.h) decides when generator-fed loads return, the run what follows from it.
Json applyEvents(const ScenarioSpec& sc, const SiteSizing& z, const DesignPoint& d, Conditions& c) {
    Json report = Json::array();
    int units = z.plant.units;
    int fws_lost = 0;
    for (const auto& ev : sc.events) {
        Json r = {{"type", ev.type()}, {"at_s", ev.at_s}};
        if (const auto* trip = std::get_if<CduPumpTrip>(&ev.what)) {
            c.pumps_failed[trip->cdu].emplace_back(ev.at_s, trip->pumps);
            r["cdu"] = trip->cdu;
            r["pumps"] = trip->pumps;
        } else if (const auto* loss = std::get_if<HeatRejectionUnitLoss>(&ev.what)) {
            units -= loss->units;
            c.units_available.emplace_back(ev.at_s, units);
            r["units_remaining"] = units;
        } else if (const auto* valve = std::get_if<RackValve>(&ev.what)) {
            c.valve_openings[valve->cdu].emplace_back(ev.at_s, valve->opening);
            r["cdu"] = valve->cdu;
            r["opening_pct"] = valve->opening * 100.0;
        } else if (const auto* fws = std::get_if<FwsPumpTrip>(&ev.what)) {
            fws_lost += fws->pumps;
            c.fws_pumps_failed.emplace_back(ev.at_s, fws_lost);
            r["pumps"] = fws->pumps;
            r["pumps_remaining"] = z.plant.fws_pumps.duty + z.plant.fws_pumps.standby - fws_lost;
        } else if (const auto* co = std::get_if<CduPumpChangeover>(&ev.what)) {
            // One pump fewer runs during the transfer, then the standby carries the duty: the
            // failed count goes to installed − (running before − 1) and back.
            auto& sched = c.pumps_failed[co->cdu];
            const double before = sched.empty() ? 0.0 : sched.back().second;
            const thermal::CduSpec& cdu = sc.cooling.cdu;
            const int running = thermal::runningPumps(cdu.pumps_installed, cdu.pumps_duty, before);
            sched.emplace_back(ev.at_s, cdu.pumps_installed - running + 1);
            sched.emplace_back(ev.at_s + co->transfer, before);
            r["cdu"] = co->cdu;
            r["transfer_s"] = co->transfer;
            r["pumps_running_during"] = running - 1;
        } else if (std::holds_alternative<ChillerTrip>(ev.what)) {
            c.chiller_available.emplace_back(ev.at_s, 0.0);
        } else {  // utility loss: the plan here, its consequences in the simulation
            const auto& ul = std::get<UtilityLoss>(ev.what);
            UtilityLossOptions o;
            o.at = ev.at_s;
            o.generators_failing = ul.generators_failing;
            o.battery_soe = ul.battery_soe;
            o.cdu_pumps_on_ups = ul.cdu_pumps_on_ups;
            o.fws_pumps_on_ups = ul.fws_pumps_on_ups;
            o.fws_pumps_restart = ul.fws_pumps_restart;
            o.cdu_pumps_restart = ul.cdu_pumps_restart;
            o.fans_restart = ul.fans_restart;
            o.air_side_restart = ul.air_side_restart;
            o.chillers_restart = ul.chillers_restart;
            o.it_restart = ul.it_restart;
            o.walk_in = ul.walk_in;
            o.charge_limit = ul.charge_limit;
            if (c.utility) {
                throw InputError(fmt::format("{}: a study takes one utility_loss event", ev.where));
            }
            const auto& row = d.electrical.row("generator");
            if (ul.generators_failing > row.count) {
                throw InputError(fmt::format(
                    "{}/generators_failing: {} sets fail but the site has {} (sizing); expected "
                    "0 to {}",
                    ev.where, ul.generators_failing, row.count, row.count));
            }
            const power::GeneratorSpec& gen = sc.catalog->generator(row.model);
            const GeneratorFleet fleet{row.count, row.rating, gen.start_delay, gen.step_load_limit,
                                       gen.step_interval};
            const UtilityLossPlan plan = planUtilityLoss(o, fleet, d.utility_loads);
            c.utility = plan;
            auto outage = [&](std::vector<std::pair<double, double>>& sched, double off,
                              double on_at, double on) {
                sched.emplace_back(ev.at_s, off);
                if (std::isfinite(on_at)) sched.emplace_back(on_at, on);
            };
            outage(c.fans_available, 0.0, plan.fans_on, 1.0);
            outage(c.chiller_available, 0.0, plan.chillers_on, 1.0);
            outage(c.air_side_available, 0.0, plan.air_side_on, 1.0);
            if (!ul.fws_pumps_on_ups) {
                outage(c.fws_pumps_failed, z.plant.fws_pumps.duty + z.plant.fws_pumps.standby,
                       plan.fws_pumps_on, fws_lost);
            }
            Json blocks = Json::array();
            for (const auto& b : plan.blocks) {
                blocks.push_back({{"t_s", b.time},
                                  {"what", b.what},
                                  {"step_kW", b.step / 1e3},
                                  {"limit_kW", b.limit / 1e3},
                                  {"total_kW", b.total / 1e3},
                                  {"applied", b.applied}});
            }
            auto time_or_null = [](double t) { return std::isfinite(t) ? Json(t) : Json(nullptr); };
            r["generators"] = plan.generators;
            r["generators_failing"] = ul.generators_failing;
            r["battery_soe_at_loss"] = ul.battery_soe;
            r["cdu_pumps_bus"] = ul.cdu_pumps_on_ups ? "ups" : "generator";
            r["fws_pumps_bus"] = ul.fws_pumps_on_ups ? "ups" : "generator";
            // The plan: events in time decided before the run (what the run then simulates).
            r["plan"] = {{"generators_online_at_s", time_or_null(plan.generators_online)},
                         {"blocks", blocks},
                         {"ups_walk_in_end_at_s", time_or_null(plan.walk_in_end)},
                         {"fans_on_at_s", time_or_null(plan.fans_on)},
                         {"air_side_on_at_s", time_or_null(plan.air_side_on)},
                         {"chillers_on_at_s", time_or_null(plan.chillers_on)},
                         {"it_restart_at_s", time_or_null(plan.it_restart_at)}};
            r["overload"] = std::any_of(plan.blocks.begin(), plan.blocks.end(),
                                        [](const GeneratorBlock& b) { return !b.applied; });
        }
        report.push_back(r);
    }
    return report;
}

power::Resolution resolutionOf(const StudySpec& st) {
    return st.workload_resolution == "resolved" ? power::Resolution::Resolved
                                                : power::Resolution::Averaged;
}

/// The steady state at the study's first instant, which starts the study.
Conditions initialConditions(const ScenarioSpec& sc, const SiteSizing& z, const DesignPoint& d) {
    const StudySpec& st = sc.study;
    Conditions init;
    init.steady = true;
    for (const auto& k : z.kinds) {
        init.utilization.push_back(
            sc.workload->utilization(k.representative, 0.0, power::Resolution::Averaged));
    }
    init.air = sc.site.weather->at(st.start_s);
    init.resolution = resolutionOf(st);
    init.chain = d.chain;
    init.battery_blocks = d.battery_blocks;
    init.crah_units = d.crah_units;
    init.horizon = st.duration_s;
    return init;
}

Conditions studyConditions(const Conditions& init, const StudySpec& st) {
    Conditions c;
    c.resolution = init.resolution;
    // Averaged workload: a moving average over the output interval (at least a minute, at
    // most an hour), which keeps the energy of job starts and checkpoints without jumps.
    c.workload_window = std::clamp(st.output_interval_s, 60.0, 3600.0);
    c.weather_offset = st.start_s;
    c.stop_at_weather_hours = false;
    c.chain = init.chain;
    c.battery_blocks = init.battery_blocks;
    c.crah_units = init.crah_units;
    c.horizon = st.duration_s;
    return c;
}

std::string studyStartIso(const StudySpec& st) {
    const int sec = static_cast<int>(std::lround(st.start_s));
    return fmt::format("2026-{:02d}-{:02d}T{:02d}:{:02d}:00", st.start_month, st.start_day,
                       (sec / 3600) % 24, (sec / 60) % 60);
}

using Terms = std::vector<std::pair<std::size_t, double>>;
Recorder::Probe weightedMean(Terms terms) {
    return [terms](double, std::span<const double>, std::span<const double> y) {
        double a = 0, w = 0;
        for (const auto& [i, k] : terms) {
            a += k * y[i];
            w += k;
        }
        return a / w;
    };
}
/// The largest (or, `smallest`, the least) of outputs y[i] over the terms (weights unused).
Recorder::Probe extremeOf(const Terms& terms, bool smallest) {
    std::vector<std::size_t> idx;
    for (const auto& [i, w] : terms) idx.push_back(i);
    return [idx, smallest](double, std::span<const double>, std::span<const double> y) {
        double v = smallest ? std::numeric_limits<double>::infinity()
                            : -std::numeric_limits<double>::infinity();
        for (std::size_t i : idx) v = smallest ? std::min(v, y[i]) : std::max(v, y[i]);
        return v;
    };
}
Recorder::Probe sumOf(std::vector<std::size_t> idx, bool states) {
    return [idx, states](double, std::span<const double> x, std::span<const double> y) {
        double v = 0;
        for (std::size_t i : idx) v += states ? x[i] : y[i];
        return v;
    };
}

/// Records one output port as channel group/name.
void record(const SiteModel& m, Recorder& rec, OutputPort p, const char* group, const char* name,
            const char* what) {
    rec.addOutput(m.system().outputName(m.index(p)), group, name, what);
}

void recordPower(const SiteModel& m, Recorder& rec) {
    const ComponentHandle& site = m.sitePower();
    auto out = [&](OutputPort p, const char* g, const char* n, const char* w) {
        record(m, rec, p, g, n, w);
    };
    out(site.out("it_power"), "power", "it_power", "racks (grid side) + fabric");
    out(site.out("facility_power"), "power", "facility_power", "drawn from the utility");
    out(site.out("cooling_power"), "power", "cooling_power",
        "CDU and FWS pumps, heat rejection, air side");
    out(site.out("losses"), "power", "electrical_losses", "electrical chain losses");
    out(m.sums().rack_demand, "power", "rack_demand", "rack power before smoothing");
    if (m.battery()) {
        out(m.battery()->out("grid_power"), "power", "grid_power", "utility draw after the BESS");
        out(m.battery()->out("soc"), "power", "bess_soc", "site battery state of charge");
    } else {
        out(site.out("facility_power"), "power", "grid_power", "utility draw");
    }
    out(site.out("ups_loading"), "power", "ups_loading", "per UPS unit");
    out(site.out("transformer_loading"), "power", "transformer_loading", "per transformer");
    out(site.out("busway_loading"), "power", "busway_loading", "per busway");
    out(m.sums().burn_power, "power", "burn_power", "power burnt by the GPU floor");
    if (m.sums().deferred_power) {
        out(*m.sums().deferred_power, "power", "deferred_power",
            "demand held back by the GPU-side ramp limit");
        out(*m.sums().psu_stored_energy, "power", "psu_stored_energy_per_rack",
            "energy in the PSU stores, mean per rack");
    }
}

/// A stretch of time in which a training job swings a rack's GPUs between two utilizations
/// every iteration (what an averaged workload replaces by its mean).
struct SwingWindow {
    double start = 0, end = 0;      // [s] study time the job runs (its ramps included)
    double u_high = 0, u_low = 0;   // [1] compute and communication utilization
    double period = 1, duty = 0.5;  // [s], [1] compute fraction
};

/// The training swings of one rack (power/workload.h TrainingJob); ramps and checkpoints are
/// taken as swinging (a conservative peak).
std::vector<SwingWindow> swingWindows(const power::Workload& w, int rack) {
    std::vector<SwingWindow> out;
    for (std::size_t j = 0; j < w.jobs().size(); ++j) {
        const auto* job = dynamic_cast<const power::TrainingJob*>(w.jobs()[j].get());
        if (!job) continue;
        const auto& racks = w.racksOf(j);
        if (std::find(racks.begin(), racks.end(), rack) == racks.end()) continue;
        out.push_back(
            {job->start, job->end(), std::max(job->u_compute, job->u_comm),
             std::min(job->u_compute, job->u_comm), job->period,
             job->u_compute >= job->u_comm ? job->compute_fraction : 1.0 - job->compute_fraction});
    }
    return out;
}

/// One GPU class (rack slot) as the junction channels see it.
struct JunctionSlot {
    std::size_t junction = 0, plate = 0;  // output indices
    double gpus = 0;                      // [1] GPUs represented in the site
    double throttle = 0;                  // [K]
    std::vector<SwingWindow> swings;      // averaged workload: the iteration swings hidden
    double R_jp = 0, tau_j = 0;           // [K/W], [s]
    double gpu_range = 0, liquid = 0;     // [W] P_tdp − P_idle, [1] GPU liquid share
    double leak_gain = 0, leak_ref = 0, leak_doubling = 1;  // [W], [K], [K]
    const thermal::RackLoop* loop = nullptr;                // plate resistance at the present flow
    std::size_t flow = 0;                                   // output index: coolant flow per rack
    double rack_range = 0;                                  // [W] rack liquid heat per unit of Δu
    double C_plate = 0;  // [J/K] plates + the junctions riding on them
};

/// The expected junction peak above its averaged-power value at time t [K]: the first-order
/// periodic responses (thermal/rack_loop.h junctionSquareWaveExcess) of the junction and of its
/// plate to the square wave the averaged workload hides; both peak at the end of the high
/// phase, so they add. The leakage's feedback dP/dT at the junction temperature T_j raises the
/// junction's effective resistance to R/(1 − λ·R·dP/dT); the plate sees the rack's liquid-heat
/// swing through R(V̇) at the present flow V̇ (y[flow]).
double expectedExcess(const JunctionSlot& s, double t, double T_j, std::span<const double> y) {
    double excess = 0.0;
    for (const SwingWindow& w : s.swings) {
        if (t < w.start || t >= w.end) continue;
        const double du = w.u_high - w.u_low;
        const double G = s.leak_gain * std::log(2.0) / s.leak_doubling *
                         std::exp2(std::min(T_j - s.leak_ref, 150.0) / s.leak_doubling);
        const double R = s.R_jp / std::max(0.2, 1.0 - s.liquid * s.R_jp * G);
        const double junction = thermal::junctionSquareWaveExcess(
            R, s.tau_j, s.liquid * s.gpu_range * du, w.period, w.duty);
        const double R_p = s.loop->resistance(y[s.flow]);
        const double plate = thermal::junctionSquareWaveExcess(R_p, s.C_plate * R_p,
                                                               s.rack_range * du, w.period, w.duty);
        excess = std::max(excess, junction + plate);
    }
    return excess;
}

/// Channels of the GPU junctions and cold plates. Resolved workloads: the junction states
/// themselves. Averaged workloads: the junction at the averaged power plus the swing the
/// averaging hides (expectedExcess), so throttling is judged on the expected peak.
void recordJunctions(const SiteModel& m, const ScenarioSpec& sc, Recorder& rec) {
    const bool averaged = m.conditions().resolution == power::Resolution::Averaged;
    std::vector<JunctionSlot> slots;
    for (const auto& rs : m.racks()) {
        const RackKind& kind = m.sizing().kinds[rs.kind];
        const power::RackSpec& rack = sc.it.racks[kind.entry].rack;
        const auto& loop = static_cast<const thermal::RackLoop&>(rs.loop.component());
        JunctionSlot s;
        s.junction = m.index(rs.loop.out("junction_temp"));
        s.plate = m.index(rs.loop.out("plate_temp"));
        s.gpus = rs.weight * rack.gpus;
        s.throttle = rack.throttle_temp;
        s.R_jp = loop.params().R_junction;
        s.tau_j = loop.junctionTimeConstant();
        s.gpu_range = rack.gpu_tdp - rack.gpu_idle;
        s.liquid = rack.gpu_liquid_fraction;
        s.leak_gain = rack.leakage_fraction_at_ref * rack.gpu_tdp;
        s.leak_ref = rack.die_ref_temp;
        s.leak_doubling = rack.leakage_doubling;
        s.loop = &loop;
        s.flow = m.index(rs.flow);
        s.rack_range = rack.gpus * rack.gpu_liquid_fraction * s.gpu_range +
                       rack.cpus * rack.cpu_liquid_fraction * (rack.cpu_max - rack.cpu_idle) +
                       rack.switch_trays * rack.switch_liquid_fraction * rack.switch_tray_max *
                           (1.0 - rack.switch_tray_idle_fraction);
        s.C_plate = loop.params().C_metal + loop.params().gpus * loop.params().C_junction;
        if (averaged) s.swings = swingWindows(*sc.workload, kind.representative);
        slots.push_back(std::move(s));
    }
    auto peak = [slots](double t, std::span<const double> y, std::size_t k) {
        const JunctionSlot& s = slots[k];
        const double T = y[s.junction];
        return s.swings.empty() ? T : T + expectedExcess(s, t, T, y);
    };
    rec.addProbe(
        [slots, peak](double t, std::span<const double>, std::span<const double> y) {
            double v = 0;
            for (std::size_t k = 0; k < slots.size(); ++k) v = std::max(v, peak(t, y, k));
            return v;
        },
        "cooling", "max_gpu_junction_temp", "K",
        averaged ? "hottest GPU junction, expected peak: averaged power + the iteration swing"
                 : "hottest GPU junction (all rack groups)");
    rec.addProbe(
        [slots](double, std::span<const double>, std::span<const double> y) {
            double a = 0, w = 0;
            for (const auto& s : slots) {
                a += s.gpus * y[s.junction];
                w += s.gpus;
            }
            return a / w;
        },
        "cooling", "mean_gpu_junction_temp", "K",
        averaged ? "GPU junction at the averaged power, mean over all GPUs"
                 : "GPU junction, mean over all GPUs");
    rec.addProbe(
        [slots](double, std::span<const double>, std::span<const double> y) {
            double v = 0;
            for (const auto& s : slots) v = std::max(v, y[s.plate]);
            return v;
        },
        "cooling", "max_gpu_plate_temp", "K",
        "hottest cold plate (plate average, all rack groups)");
    rec.addProbe(
        [slots, peak](double t, std::span<const double>, std::span<const double> y) {
            double v = std::numeric_limits<double>::infinity();
            for (std::size_t k = 0; k < slots.size(); ++k) {
                v = std::min(v, slots[k].throttle - peak(t, y, k));
            }
            return v;
        },
        "cooling", "throttle_margin", "K",
        "throttle temperature minus GPU junction peak (smallest over rack groups)");
    // Resolved: each GPU class's junction history, for the thermal-cycle count (rainflow).
    if (!averaged) {
        for (const auto& rs : m.racks()) {
            rec.addOutput(
                m.system().outputName(m.index(rs.loop.out("junction_temp"))), "gpu_junction",
                rs.label + "_junction_temp",
                fmt::format("GPU junction, {} GPUs",
                            rs.weight * sc.it.racks[m.sizing().kinds[rs.kind].entry].rack.gpus));
        }
    }
}

void recordCooling(const SiteModel& m, const ScenarioSpec& sc, Recorder& rec) {
    const ComponentHandle& plant = m.plant();
    auto out = [&](OutputPort p, const char* g, const char* n, const char* w) {
        record(m, rec, p, g, n, w);
    };
    // Over CDU groups, weighted by the CDUs each stands for: TCS temperatures, and the
    // secondary loops' pump speed and header differential pressure.
    Terms sup, ret, speed, dp;
    for (const auto& cs : m.cdus()) {
        sup.emplace_back(m.index(cs.cdu.out("secondary_supply_temp")), cs.multiplicity);
        ret.emplace_back(m.index(cs.mixer.out("temp")), cs.multiplicity);
        speed.emplace_back(m.index(cs.cdu.out("pump_speed")), cs.multiplicity);
        dp.emplace_back(m.index(cs.cdu.out("header_dp")), cs.multiplicity);
    }
    rec.addProbe(weightedMean(sup), "cooling", "tcs_supply_temp", "K",
                 "TCS supply (mean over CDUs)");
    rec.addProbe(weightedMean(ret), "cooling", "tcs_return_temp", "K",
                 "TCS return (mean over CDUs)");
    // The warmest CDU's supply: the hours above the TCS setpoint are counted on it (a mean
    // hides the one CDU that lost its pumps).
    rec.addProbe(extremeOf(sup, false), "cooling", "tcs_supply_temp_max", "K",
                 "TCS supply of the warmest CDU");
    // The secondary loops (mean over CDUs), and the flow of one rack (mean over the racks,
    // and the smallest of any rack slot).
    rec.addProbe(weightedMean(speed), "cooling", "cdu_pump_speed", "1",
                 "CDU secondary pump speed, fraction of rated (mean over CDUs)");
    rec.addProbe(weightedMean(dp), "cooling", "cdu_header_dp", "Pa",
                 "differential pressure across the rack branches (mean over CDUs)");
    Terms rack_flow;
    for (const auto& rs : m.racks()) rack_flow.emplace_back(m.index(rs.flow), rs.weight);
    rec.addProbe(weightedMean(rack_flow), "cooling", "rack_flow", "m3/s",
                 "coolant flow of one rack (mean over the racks)");
    rec.addProbe(extremeOf(rack_flow, true), "cooling", "rack_flow_min", "m3/s",
                 "coolant flow of the least-fed rack");
    out(m.supplyPipe().out("outlet_temp"), "cooling", "fws_supply_temp", "facility supply");
    out(m.returnPipe().out("outlet_temp"), "cooling", "fws_return_temp", "facility return");
    recordJunctions(m, sc, rec);
    out(m.sums().heat_to_liquid, "cooling", "heat_to_liquid", "racks to coolant");
    out(m.sums().rack_heat_air, "cooling", "heat_to_air", "rack heat to air");
    out(m.sums().cdu_pump_power, "cooling", "cdu_pump_power", "CDU pumps");
    out(plant.out("fws_pump_power"), "cooling", "fws_pump_power", "facility pumps");
    out(plant.out("fan_power"), "cooling", "heat_rejection_fan_power", "plant fans");
    out(plant.out("chiller_power"), "cooling", "chiller_power", "trim chiller");
    out(m.sitePower().out("air_side_power"), "cooling", "air_side_power", "CRAH plant");
    out(m.sitePower().out("economizer_share"), "cooling", "air_economizer_share",
        "CRAH load carried by outdoor air");
    out(plant.out("heat_rejected"), "cooling", "heat_rejected", "plant, water side");
    out(plant.out("setpoint_unmet"), "cooling", "setpoint_unmet", "facility supply");
    out(m.sums().fws_flow, "cooling", "fws_flow", "facility water flow");
    out(plant.out("fws_pump_speed"), "cooling", "fws_pump_speed", "facility pump drive speed");
    out(plant.out("fws_pumps_running"), "cooling", "fws_pumps_running", "facility pumps staged on");
    out(plant.out("fws_pump_head"), "cooling", "fws_pump_head", "facility pump pressure rise");
    out(plant.out("fws_remote_dp"), "cooling", "fws_remote_dp",
        "differential-pressure setpoint at the remote CDU");
}

void recordWaterAndWeather(const SiteModel& m, Recorder& rec) {
    const System& sys = m.system();
    const ComponentHandle& plant = m.plant();
    auto out = [&](OutputPort p, const char* g, const char* n, const char* w) {
        record(m, rec, p, g, n, w);
    };
    const std::vector<std::size_t> water_idx = {
        m.index(plant.out("evaporation_rate")), m.index(plant.out("drift_rate")),
        m.index(plant.out("blowdown_rate")), m.index(plant.out("spray_rate"))};
    rec.addProbe(sumOf(water_idx, false), "water", "water_rate", "m3/s", "make-up and spray water");
    const auto& mn = SiteModel::meterNames();
    auto meterIdx = [&](std::string_view n) {
        return sys.stateIndex(
            m.meters().index(),
            static_cast<std::size_t>(std::find(mn.begin(), mn.end(), n) - mn.begin()));
    };
    rec.addProbe(
        sumOf({meterIdx("evaporation"), meterIdx("drift"), meterIdx("blowdown"), meterIdx("spray")},
              true),
        "water", "water_total", "m3", "water used since the study start");
    out(plant.out("evaporation_rate"), "water", "evaporation_rate", "");
    out(plant.out("blowdown_rate"), "water", "blowdown_rate", "");
    out(plant.out("spray_rate"), "water", "spray_rate", "");
    out(m.weather().out("dry_bulb"), "weather", "dry_bulb", "outdoor dry bulb");
    out(m.weather().out("wet_bulb"), "weather", "wet_bulb", "outdoor wet bulb");
}

/// Per rack group (one RackSlot: the racks of one kind on one lumped CDU group), channels
/// "racks/<label>/<name>" that the report stores as 2-D [time, rack_group] datasets
/// /timeseries/racks/<name> (issue 17), with the group's name, racks represented, rack model
/// and jobs as coordinates along rack_group.
void recordRackArray(const SiteModel& m, const ScenarioSpec& sc, Recorder& rec) {
    const System& sys = m.system();
    ChannelArray a;
    a.group = "racks";
    a.dimension = "rack_group";
    a.variables = {{"junction_temp", "GPU junction"},
                   {"plate_temp", "cold plate (plate average)"},
                   {"it_power", "all racks of the group on one CDU"},
                   {"outlet_temp", "rack loop outlet"},
                   {"coolant_flow", "coolant flow of one rack of the group"},
                   {"header_dp", "differential pressure across the rack branches of its CDU"}};
    std::vector<std::int64_t> racks;
    std::vector<std::string> models, jobs;
    for (const auto& rs : m.racks()) {
        a.labels.push_back(rs.label);
        const std::string g = a.group + "/" + rs.label;
        rec.addOutput(sys.outputName(m.index(rs.loop.out("junction_temp"))), g, "junction_temp",
                      fmt::format("GPU junction, {} racks", rs.weight));
        rec.addOutput(sys.outputName(m.index(rs.loop.out("plate_temp"))), g, "plate_temp",
                      "cold plate (plate average)");
        rec.addOutput(sys.outputName(m.index(rs.power.out("it_power"))), g, "it_power",
                      "all racks of the slot, per CDU");
        rec.addOutput(sys.outputName(m.index(rs.loop.out("outlet_temp"))), g, "outlet_temp", "");
        rec.addOutput(sys.outputName(m.index(rs.flow)), g, "coolant_flow",
                      "coolant flow of one rack");
        rec.addOutput(sys.outputName(m.index(m.cdus()[rs.group].cdu.out("header_dp"))), g,
                      "header_dp", "differential pressure across the rack branches of its CDU");
        // weight = CDU multiplicity x racks per CDU: a whole number of racks.
        racks.push_back(std::llround(rs.weight));
        const RackKind& kind = m.sizing().kinds[rs.kind];
        models.push_back(sc.it.racks[kind.entry].rack.name);
        std::string job;
        if (kind.workload_group >= 0 && sc.workload) {
            const auto& wg =
                m.sizing().workload_groups[static_cast<std::size_t>(kind.workload_group)];
            for (std::size_t j : wg.jobs) {
                job += (job.empty() ? "" : "+") + sc.workload->jobs()[j]->name;
            }
        }
        jobs.push_back(job.empty() ? "idle" : job);
    }
    a.coordinates = {
        {"rack_count", "1", "racks the group stands for", std::move(racks)},
        {"rack_model", "", "rack model", std::move(models)},
        {"job", "", "jobs the group runs, in time order ('idle': none)", std::move(jobs)}};
    rec.results().arrays.push_back(std::move(a));
}

/// The channels of a study (names are the report contract the GUI reads).
/// The UPS battery of a utility loss and what its bus sees.
void recordUtility(const SiteModel& m, Recorder& rec) {
    if (!m.upsBattery()) return;
    const ComponentHandle& b = *m.upsBattery();
    record(m, rec, b.out("soe"), "power", "ups_battery_soe", "UPS battery state of energy");
    record(m, rec, b.out("supply"), "power", "ups_supply",
           "UPS output supply to its loads (0: battery empty, IT dropped)");
    record(m, rec, b.out("mains"), "power", "ups_mains", "UPS input share from the generators");
    record(m, rec, m.sitePower().out("ups_battery_power"), "power", "ups_battery_power",
           "UPS battery to the UPS DC bus");
}

void recordChannels(const SiteModel& m, const ScenarioSpec& sc, Recorder& rec) {
    recordPower(m, rec);
    recordUtility(m, rec);
    recordCooling(m, sc, rec);
    recordWaterAndWeather(m, rec);
    if (sc.study.per_rack_channels) recordRackArray(m, sc, rec);
    recordComputeChannels(m, sc, rec);  // facility/metrics.h (issue 10: compute lost to heat)
    rec.results().start_iso8601 = studyStartIso(sc.study);
}

SimulationOptions simulationOptions(const StudySpec& st, const Conditions& c) {
    SimulationOptions so;
    so.t_end = st.duration_s;
    so.output_interval = st.output_interval_s;
    so.solver = solverOptions(st.rel_tol);
    // Resolved transients take sub-second steps through the smoothing controller's corners
    // and refactor often: KLU with a coloured Jacobian needs 8 rhs evaluations per Jacobian
    // on the 64-rack transient instead of one per state. The meters stay exact Newton states
    // there (their rows are short); as CVODE quadratures they cost one more rhs per step
    // (measured: 532k against 401k rhs evaluations on the 1 h transient).
    if (c.resolution == power::Resolution::Resolved) {
        so.solver.linear_solver = LinearSolverKind::Sparse;
    }
    if (st.linear_solver != "auto") {
        so.solver.linear_solver =
            st.linear_solver == "dense" ? LinearSolverKind::Dense : LinearSolverKind::Sparse;
    }
    if (c.resolution == power::Resolution::Averaged) so.solver.max_step = 1800.0;
    return so;
}

}  // namespace

SolverOptions solverOptions(double rel_tol) {
    SolverOptions o;
    o.rel_tol = rel_tol;
    o.abs_tol_factor = 1e-6;
    return o;
}

SteadyState settle(const SiteModel& m, const SolverOptions& solver) {
    // The boundary is constant, so the model is integrated to an hour before the horizon and
    // then one more hour: the temperature change over that last hour is the reported drift.
    auto advance = [&](double duration, std::span<const double> x0) {
        SimulationOptions o;
        o.t_end = duration;
        o.output_interval = duration;
        o.solver = solver;
        Simulator sim(m.system(), o);
        Recorder rec(m.system());
        sim.run(rec, {}, nullptr, x0);
        return sim.finalState();
    };
    const std::vector<double> before = advance(kSteadyHorizon - 3600.0, {});
    SteadyState s;
    s.x = advance(3600.0, before);
    System::Workspace ws = m.system().makeWorkspace();
    m.system().evaluateOutputs(kSteadyHorizon, s.x, ws);
    s.y = ws.y;
    for (std::size_t i = 0; i < m.system().stateCount(); ++i) {
        if (m.system().stateVariable(i).unit == "K") {
            s.drift = std::max(s.drift, std::abs(s.x[i] - before[i]));
        }
    }
    return s;
}

/// Design point: steady state at full utilization and the 0.4 % design weather; the chain is
/// sized twice (first with an estimated cooling power, then with the one the plant draws).
DesignPoint designPoint(const ScenarioSpec& sc, const SiteSizing& z) {
    DesignPoint d;
    power::SizingInput in = z.electrical;
    const power::SizingResult provisional = power::sizeElectrical(in, *sc.catalog);
    const SiteModel m(
        sc, z, designConditions(z, power::chainDesignFromSizing(provisional, in, *sc.catalog)));
    const SteadyState st = settle(m, solverOptions(1e-6));
    const auto& y = st.y;
    const ComponentHandle& sp = m.sitePower();
    d.it_power = at(m, y, sp.out("it_power"));
    d.cooling_power = at(m, y, sp.out("cooling_power"));

    // The final equipment, and the chain at the design operating point with it.
    in.cooling_power = d.cooling_power;
    d.electrical = power::sizeElectrical(in, *sc.catalog);
    d.chain = power::chainDesignFromSizing(d.electrical, in, *sc.catalog);
    SitePowerDesign spd = static_cast<const SitePower&>(sp.component()).design();
    spd.chain = d.chain;
    const SitePower final_site("site_final", spd);
    std::vector<double> u;  // the inputs' defaults (normal supply), then the design values
    for (const auto& port : sp.component().inputs()) u.push_back(port.start);
    for (const auto& [name, src] : {std::pair{"rack_power", m.sums().rack_grid},
                                    {"rack_heat_air", m.sums().rack_heat_air},
                                    {"cdu_pump_power", m.sums().cdu_pump_power},
                                    {"cdu_pump_heat", m.sums().cdu_pump_heat},
                                    {"plant_power", m.sums().plant_power}}) {
        u[final_site.inputIndex(name)] = at(m, y, src);
    }
    u[final_site.inputIndex("dry_bulb")] = z.design_weather.dry_bulb;
    d.chain_at_design = final_site.chainAt(u);
    d.facility_power = d.chain_at_design.facility_power;
    d.utility_loads.ups_input = d.chain_at_design.element("ups").input_power;
    d.utility_loads.fws_pumps = at(m, y, m.plant().out("fws_pump_power"));
    d.utility_loads.fans = at(m, y, m.plant().out("fan_power"));
    d.utility_loads.chillers = at(m, y, m.plant().out("chiller_power"));
    d.utility_loads.cdu_pumps = at(m, y, m.sums().cdu_pump_power);
    d.utility_loads.air_side = at(m, y, sp.out("air_side_power"));
    for (const auto& r : d.electrical.rows) {
        if (r.element == "bess") d.battery_blocks = std::max(1, r.count);
    }

    d.tcs_supply = 0;
    for (const auto& cs : m.cdus()) {
        d.tcs_supply = std::max(d.tcs_supply, at(m, y, cs.cdu.out("secondary_supply_temp")));
    }
    d.throttle_margin = std::numeric_limits<double>::infinity();
    for (const auto& r : m.racks()) {
        const double Tj = at(m, y, r.loop.out("junction_temp"));
        d.max_junction = std::max(d.max_junction, Tj);
        d.max_plate = std::max(d.max_plate, at(m, y, r.loop.out("plate_temp")));
        d.throttle_margin =
            std::min(d.throttle_margin, sc.it.racks[z.kinds[r.kind].entry].rack.throttle_temp - Tj);
    }
    d.heat_rejected = at(m, y, m.plant().out("heat_rejected"));
    d.setpoint_unmet = at(m, y, m.plant().out("setpoint_unmet"));
    d.fws_supply = at(m, y, m.supplyPipe().out("outlet_temp"));
    d.steady_drift = st.drift;
    const double air_load = u[final_site.inputIndex("rack_heat_air")] + z.fabricPower() +
                            sc.site.other_power + d.chain_at_design.hall_heat +
                            d.chain_at_design.electrical_room_heat;
    // Rear doors take the racks' air heat to the water: the CRAH units take the rest.
    const double crah_load = sc.cooling.air_side.kind == thermal::AirSideKind::RearDoor
                                 ? air_load - u[final_site.inputIndex("rack_heat_air")]
                                 : air_load;
    d.crah_units = countCrahs(sc, z, crah_load).count;  // N+1 on the grown load
    d.cooling = coolingTable(sc, z, m, y, d, crah_load);
    d.water = waterTable(m, y, d.water_rate);
    return d;
}

double StudyResults::meter(std::string_view name) const {
    for (const auto& [n, v] : meters) {
        if (n == name) return v;
    }
    throw ModelError(fmt::format("no meter '{}'", name));
}

namespace {

/// A run that left the model's range, told in the study's terms: the simulated calendar time
/// (a 365-day year, as the weather), the time into the study, the last event before it and the
/// model's own message (component, states, inputs). Issue 14: "enthalpy requested at 100 °C"
/// alone did not say when or after what.
std::string describeFailure(const ScenarioSpec& sc, const SimulationRangeError& e) {
    const double t = e.time();
    const double year_s = std::fmod(sc.study.start_s + t, 365.0 * 86400.0);
    static constexpr int kMonthDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int day = static_cast<int>(year_s / 86400.0), month = 0;
    while (month < 11 && day >= kMonthDays[month]) day -= kMonthDays[month++];
    const double sod = std::fmod(year_s, 86400.0);
    const int hh = static_cast<int>(sod / 3600.0),
              mm = static_cast<int>(std::fmod(sod, 3600.0) / 60.0);
    const double ss = std::fmod(sod, 60.0);
    std::string last_event = "no event before it";
    double last_at = -1.0;
    for (const auto& ev : sc.events) {
        if (ev.at_s <= t && ev.at_s >= last_at) {
            last_at = ev.at_s;
            last_event = fmt::format("last event before it: {} at {:g} s ({})", ev.type(), ev.at_s,
                                     ev.where);
        }
    }
    return fmt::format(
        "at {:02d}-{:02d} {:02d}:{:02d}:{:06.3f} ({:.6g} s into the study; "
        "{}): the model left its valid range: {}",
        month + 1, day + 1, hh, mm, ss, t, last_event, e.detail());
}

/// First time after t0 at which `v` crosses `level` going down (or up), linearly
/// interpolated between samples; NaN if it never does.
double crossing(const ResultSet& rs, const std::vector<double>& v, double t0, double level,
                bool down) {
    for (std::size_t i = 1; i < rs.time.size(); ++i) {
        if (rs.time[i] < t0) continue;
        const double a = v[i - 1] - level, b = v[i] - level;
        if (down ? (a > 0.0 && b <= 0.0) : (a < 0.0 && b >= 0.0)) {
            return rs.time[i - 1] + (rs.time[i] - rs.time[i - 1]) * a / (a - b);
        }
    }
    return NAN;
}

/// The utility loss's log from the run: the switches the simulation decided (battery empty,
/// IT dropped and back, the battery's minimum) beside the plan's events (generator blocks,
/// loads back), and the figures the summary reports (seconds after the loss).
void utilityLossLog(const ScenarioSpec& sc, const UtilityLossPlan& plan, StudyResults& r) {
    const ResultSet& rs = r.channels;
    const double t0 = plan.options.at;
    const auto& supply = rs.at("power", "ups_supply").values;
    const auto& soe = rs.at("power", "ups_battery_soe").values;
    const auto& it = rs.at("power", "it_power").values;
    std::vector<std::tuple<double, std::string, std::string>> log;  // time, what, source
    log.emplace_back(t0, "utility lost; UPS on battery, generator-fed loads off", "event");
    const double dropped = crossing(rs, supply, t0, 0.5, true);
    if (std::isfinite(dropped)) {
        log.emplace_back(dropped, "UPS battery empty: IT load dropped", "simulated");
        const double back = crossing(rs, supply, dropped, 0.5, false);
        if (std::isfinite(back))
            log.emplace_back(back, "IT load back (racks restarted)", "simulated");
    }
    if (std::isfinite(plan.generators_online)) {
        log.emplace_back(
            plan.generators_online,
            fmt::format("{} of {} generator sets online", plan.online, plan.generators), "plan");
    } else {
        log.emplace_back(t0, fmt::format("no generator set starts ({} fail)", plan.generators),
                         "plan");
    }
    for (const auto& b : plan.blocks) {
        log.emplace_back(
            b.time, (b.applied ? "generator block on: " : "generator block refused: ") + b.what,
            "plan");
    }
    auto back = [&](double t, const char* what) {
        if (std::isfinite(t) && t <= sc.study.duration_s) log.emplace_back(t, what, "plan");
    };
    back(plan.walk_in_end, "UPS input fully on the generators (battery recharging)");
    if (!plan.options.fws_pumps_on_ups) back(plan.fws_pumps_on, "facility water pumps running");
    if (!plan.options.cdu_pumps_on_ups) back(plan.cdu_pumps_on, "CDU pumps running");
    back(plan.fans_on, "heat-rejection fans running");
    back(plan.air_side_on, "air side running");
    back(plan.chillers_on, "trim chillers available");
    // Battery minimum and when.
    std::size_t imin = 0;
    for (std::size_t i = 0; i < soe.size(); ++i) {
        if (soe[i] < soe[imin]) imin = i;
    }
    log.emplace_back(rs.time[imin],
                     fmt::format("UPS battery at its minimum, {:.1f} %", 100 * soe[imin]),
                     "simulated");
    std::stable_sort(log.begin(), log.end(),
                     [](const auto& a, const auto& b) { return std::get<0>(a) < std::get<0>(b); });
    std::vector<double> t;
    std::vector<std::string> what, source;
    for (const auto& [tt, w, src] : log) {
        t.push_back(tt);
        what.push_back(w);
        source.push_back(src);
    }
    r.event_log.path = "contingency/event_log";
    r.event_log.addNumbers("t_s", "s", t);
    r.event_log.addText("event", what);
    r.event_log.addText("source", source);

    // IT power just before the loss: what the dropped racks would have drawn.
    double p_it = 0.0;
    for (std::size_t i = 0; i < rs.time.size() && rs.time[i] <= t0; ++i) p_it = it[i];
    double lost = 0.0;  // [J] ∫ (1 − s)·P_IT dt, trapezoids
    for (std::size_t i = 1; i < rs.time.size(); ++i) {
        lost += 0.5 * (2.0 - supply[i - 1] - supply[i]) * p_it * (rs.time[i] - rs.time[i - 1]);
    }
    const double ride = std::isfinite(dropped)            ? dropped - t0
                        : std::isfinite(plan.walk_in_end) ? plan.walk_in_end - t0
                                                          : NAN;
    Json log_json = Json::array();
    for (std::size_t i = 0; i < t.size(); ++i) {
        log_json.push_back({{"t_s", t[i]}, {"event", what[i]}, {"source", source[i]}});
    }
    for (auto& e : r.events) {
        if (e.value("type", "") != "utility_loss") continue;
        auto num = [](double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); };
        e["simulated"] = {{"ups_ride_through_s", num(ride)},
                          {"it_dropped_after_s", num(dropped - t0)},
                          {"it_load_lost_MWh", lost / 3.6e9},
                          {"ups_battery_soe_min", soe[imin]},
                          {"ups_battery_soe_min_after_s", rs.time[imin] - t0},
                          {"fans_back_after_s", num(plan.fans_on - t0)}};
        e["log"] = log_json;
    }
}

}  // namespace

PreparedStudy prepareStudy(const ScenarioSpec& sc, const SiteSizing& z, const DesignPoint& d) {
    const Conditions init = initialConditions(sc, z, d);
    const SiteModel m0(sc, z, init);
    SteadyState x0 = settle(m0, solverOptions(1e-6));
    PreparedStudy p;
    p.conditions = studyConditions(init, sc.study);
    p.events = applyEvents(sc, z, d, p.conditions);
    p.options = simulationOptions(sc.study, p.conditions);
    // The steady and the study model build the same states in the same order (model.h).
    m0.resetMeters(x0.x);
    p.x0 = std::move(x0.x);
    // States only the study has (a utility loss's UPS battery, added last): their start values.
    if (p.conditions.utility) {
        const SiteModel m(sc, z, p.conditions);
        std::vector<double> start(m.system().stateCount());
        m.system().initialState(start);
        for (std::size_t i = p.x0.size(); i < start.size(); ++i) p.x0.push_back(start[i]);
    }
    return p;
}

void recordStudyChannels(const SiteModel& m, const ScenarioSpec& sc, Recorder& rec) {
    recordChannels(m, sc, rec);
}

StudyResults runStudy(const ScenarioSpec& sc, const SiteSizing& z, const DesignPoint& d,
                      const RunControl& ctl) {
    StudyResults r;
    const PreparedStudy p = prepareStudy(sc, z, d);
    r.events = p.events;
    const SiteModel m(sc, z, p.conditions);
    if (m.system().stateCount() != p.x0.size()) {
        throw ModelError("internal: steady and study models differ in their states");
    }
    r.stored_start = m.storedEnergy(p.x0);

    Recorder rec(m.system());
    recordChannels(m, sc, rec);
    Simulator sim(m.system(), p.options);
    ProgressCallback progress;
    if (ctl.progress) progress = [&](double f, double t) { ctl.progress(f, t); };
    try {
        sim.run(rec, progress, ctl.cancel, p.x0);
    } catch (const SimulationRangeError& e) {
        throw SolverError(describeFailure(sc, e));
    }

    const std::vector<double>& xe = sim.finalState();
    for (const auto& n : SiteModel::meterNames()) r.meters.emplace_back(n, m.meterTotal(xe, n));
    r.stored_end = m.storedEnergy(xe);
    r.stats = sim.stats();
    r.linear_solver = sim.linearSolverName();
    r.state_count = m.system().stateCount();
    r.channels = std::move(rec.results());
    if (p.conditions.utility) utilityLossLog(sc, *p.conditions.utility, r);
    return r;
}

void buildModels(const ScenarioSpec& sc, const SiteSizing& z) {
    const power::SizingInput& in = z.electrical;
    Conditions c = designConditions(
        z, power::chainDesignFromSizing(power::sizeElectrical(in, *sc.catalog), in, *sc.catalog));
    const SiteModel steady(sc, z, c);
    c.steady = false;
    c.resolution = resolutionOf(sc.study);
    c.weather_offset = sc.study.start_s;
    const SiteModel study(sc, z, c);
}

}  // namespace dctwin::facility
