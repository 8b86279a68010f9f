// Studies: settle, design point, run (DESIGN.md §3.5). Each step a function of its own.
#include "facility/study.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <span>
#include <tuple>
#include <utility>

#include "core/errors.h"
#include "core/simulator.h"
#include "core/units.h"
#include "facility/metrics.h"
#include "facility/plant.h"
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

/// Rows of the cooling table, filled element by element.
struct CoolingRows {
    std::vector<std::string> hall, element, model, unit, redundancy, rule, failure_case;
    std::vector<double> rating, count, load, loading, failure_loading;
    /// A row; `l` is the load on one of its units (the most loaded where they differ; for the
    /// rack loops, whose share is a delivered flow, the least fed), in the rating's unit, so
    /// that every row's design loading is l / r. The table read "design load 4,013 kW" beside
    /// a 679 kW unit for heat rejection and the CRAHs (the plant's total) and the load on one
    /// unit for the CDUs, pumps and chillers. Its N-1 loading is NaN until failure() sets it.
    void add(const std::string& h, const std::string& e, const std::string& mdl, double r,
             const std::string& u, double n, const std::string& red, const std::string& why,
             double l) {
        hall.push_back(h);
        element.push_back(e);
        model.push_back(mdl);
        rating.push_back(r);
        unit.push_back(u);
        count.push_back(n);
        redundancy.push_back(red);
        rule.push_back(why);
        load.push_back(l);
        loading.push_back(100.0 * l / r);
        failure_case.push_back("");
        failure_loading.push_back(std::numeric_limits<double>::quiet_NaN());
    }
    /// The single failure the last row's redundancy covers and its loading then.
    void failure(const std::string& what, double pct) {
        failure_case.back() = what;
        failure_loading.back() = pct;
    }
    /// The last row's units lost one at a time, `sharing` of them carrying the load and
    /// `spares` standing by: a standby takes the failed unit's duty and the loading stays;
    /// without one the others take its share, ×n/(n − 1). No case with one unit and no spare.
    void oneLost(std::string_view unit, double sharing, int spares, std::string_view standby,
                 std::string_view others) {
        if (spares > 0) {
            failure(fmt::format("one {} lost ({})", unit, standby), loading.back());
        } else if (sharing > 1.0) {
            failure(fmt::format("one {} lost ({})", unit, others),
                    loading.back() * sharing / (sharing - 1.0));
        }
    }
};

/// Which of a hall's rows: its equipment (CDUs, their pumps, the rack loops, heat rejection,
/// facility pumps), listed before the campus's air side, or its pump drives and trim chiller,
/// listed after (the one-hall table's order).
enum class HallRows { Equipment, Drives };

/// The liquid-side rows of one hall.
void hallCoolingRows(const ScenarioSpec& sc, const SiteModel& m, std::span<const double> y,
                     std::size_t h, HallRows which, CoolingRows& rows) {
    const HallSpec& hs = sc.halls[h];
    const HallSizing& z = m.sizing().halls[h];
    const HallSlot& slot = m.halls()[h];
    const thermal::CduSpec& cdu = hs.cooling.cdu;
    const thermal::PumpStationSpec& fp = z.plant.fws_pumps;
    const std::string& hn = hs.name;
    const ComponentHandle& plant = slot.plant;
    double cdu_heat = 0, rack_flow_min = std::numeric_limits<double>::infinity();
    double pump_flow_actual = 0, speed_max = 0.0, dp_max = 0.0;
    for (std::size_t i = slot.first_cdu; i < slot.first_cdu + slot.cdu_count; ++i) {
        const CduSlot& cs = m.cdus()[i];
        pump_flow_actual =
            std::max(pump_flow_actual, at(m, y, cs.cdu.out("secondary_flow")) / cdu.pumps_duty);
        cdu_heat = std::max(cdu_heat, at(m, y, cs.cdu.out("heat_transferred")));
        speed_max = std::max(speed_max, at(m, y, cs.cdu.out("pump_speed")));
        dp_max = std::max(dp_max, at(m, y, cs.cdu.out("header_dp")));
    }
    for (const auto& rs : m.racks()) {
        if (m.cdus()[rs.group].hall == h)
            rack_flow_min = std::min(rack_flow_min, at(m, y, rs.flow));
    }
    const int cdus = z.cdus + z.cdu_spares;
    if (which == HallRows::Equipment) {
        const double pump_flow = cdu.secondary_flow / cdu.pumps_duty;
        const double rack_flow_design = sc.it.racks.front().loop.flow_design;
        const double unit_capacity = hs.cooling.heat_rejection.unitCapacity();
        const double heat_rejected = at(m, y, plant.out("heat_rejected"));
        const double fws_pump_flow = fp.design_flow / fp.duty;
        const double fws_flow = at(m, y, slot.fws_flow);
        const double fws_running = std::max(1.0, at(m, y, plant.out("fws_pumps_running")));
        // N-1 (issue 15): the loading with the single failure each element's redundancy is
        // meant to cover, as the power table's failure_loading_pct. A standby unit (CDU, pump)
        // takes the failed one's duty, so its loading is unchanged; units that all share the
        // load (heat rejection, CRAH) carry it on one fewer. NaN where the redundancy covers
        // no failure.
        rows.add(hn, "cdu", cdu.name, cdu.capacity, "W", cdus,
                 z.cdu_spares == 0   ? "N"
                 : z.cdu_spares == 1 ? "N+1"
                                     : "2N",
                 z.cdu_rule, cdu_heat);
        if (z.cdu_spares > 0) {
            rows.failure("one CDU lost (a standby CDU takes its racks)", rows.loading.back());
        }
        const int standby = cdu.pumps_installed - cdu.pumps_duty;
        rows.add(hn, "cdu_pump", cdu.name + " pump", pump_flow, "m3/s", cdu.pumps_installed * cdus,
                 fmt::format("{}+{}", cdu.pumps_duty, standby),
                 fmt::format("{} per CDU x {} CDUs", cdu.pumps_installed, cdus), pump_flow_actual);
        rows.oneLost("pump per CDU", cdu.pumps_duty, standby, "the standby runs",
                     "the others carry the flow");
        rows.add(hn, "rack_loop_flow", "rack loop", rack_flow_design, "m3/s", z.racks, "-", "-",
                 rack_flow_min);
        // Rated and loaded at the design weather, as the air-cooled chillers are (rated x
        // CAPFT): a dry cooler's or tower's catalog rating holds at its rating point, and the
        // reference's 1 MW adiabatic coolers reject 701 kW each on Milwaukee's 0.4 % day. Loaded
        // on their catalog rating they read 57 % (62 % with one lost) where they run at 82 %
        // (88 %), and the units the count rule found needed looked a third idle.
        const double unit_design = z.unit_capacity_at_design;
        rows.add(hn, "heat_rejection", hs.cooling.heat_rejection.modelName(), unit_design, "W",
                 z.plant.units, fmt::format("N+{}", hs.cooling.heat_rejection.redundancy_units),
                 fmt::format("{}; one unit {:.1f} kW at the design weather, fans{} at full "
                             "duty ({:.0f} kW rated)",
                             z.heat_rejection_rule, unit_design / 1e3,
                             z.plant.kind == PrimaryKind::DryCooler ? " and pads" : "",
                             unit_capacity / 1e3),
                 heat_rejected / z.plant.units);
        if (z.plant.units > 1) {
            rows.failure("one unit lost (the others reject the heat)",
                         100.0 * heat_rejected / (unit_design * (z.plant.units - 1)));
        }
        if (const auto& loop = z.plant.outdoor) {
            // The plate exchangers and the outdoor loop's pumps: rated at their share of the
            // design heat and flow, loaded at the design point's heat through the exchangers
            // and the glycol flow the pumps run at. Spares stand by, as the CDUs' and the
            // facility pumps' do, so a failure leaves the duty units' loading as it is.
            const thermal::OutdoorLoopSpec& ol = loop->spec();
            const int ex = ol.exchangers, ex_spare = ol.exchangers_standby;
            rows.add(hn, "outdoor_hx", "plate heat exchanger", loop->designDuty() / ex, "W",
                     ex + ex_spare, ex_spare == 0 ? "N" : fmt::format("N+{}", ex_spare),
                     fmt::format("{} duty x {:.2f} MW of the {:.2f} MW design heat at a {:.1f} K "
                                 "approach (UA {:.0f} kW/K in all), +{} standby",
                                 ex, loop->designDuty() / ex / 1e6, loop->designDuty() / 1e6,
                                 ol.approach, loop->designUa() / 1e3, ex_spare),
                     at(m, y, plant.out("hx_heat")) / ex);
            rows.oneLost("exchanger", ex, ex_spare, "a standby is valved in",
                         "the others pass the heat");
            const int pd = ol.pumps_duty, ps = ol.pumps_standby;
            rows.add(hn, "outdoor_pumps", "outdoor loop pumps", loop->flow() / pd, "m3/s", pd + ps,
                     fmt::format("{}+{}", pd, ps),
                     fmt::format("{}+{} (outdoor_loop/pumps_duty + pumps_standby): {} {:.1f} L/s "
                                 "at {:.0f} kPa, {:.1f} L/s and {:.0f} kW each ({})",
                                 pd, ps, ol.coolant, loop->flow() * 1e3, ol.pressure_drop / 1e3,
                                 loop->flow() / pd * 1e3, loop->pumpPower() / pd / 1e3,
                                 ol.track_flow ? "tracking the facility flow" : "constant speed"),
                     at(m, y, plant.out("outdoor_flow")) / pd);
            rows.oneLost("pump", pd, ps, "the standby runs", "the others carry the flow");
        }
        rows.add(hn, "fws_pumps", "facility water pumps", fws_pump_flow, "m3/s",
                 fp.duty + fp.standby, fmt::format("{}+{}", fp.duty, fp.standby), z.fws_pump_rule,
                 fws_flow / fws_running);
        rows.oneLost("pump", fws_running, fp.standby, "the standby runs",
                     "the others carry the flow");
        return;
    }
    // The secondary pumps under control (issue 9): the fastest CDU's speed against rated, the
    // highest header differential pressure against the setpoint it may reset up to.
    rows.add(hn, "cdu_pump_speed", cdu.name + " drive (" + cdu.control_variable + ")", 1.0, "1",
             cdu.pumps_installed * cdus, "-", "-", speed_max);
    rows.add(hn, "cdu_header_dp", cdu.name + " rack headers", cdu.dp_setpoint, "Pa", cdus, "-", "-",
             dp_max);
    // The facility pumps at design: drive speed (staged pumps) and the head they make.
    const double fws_speed = at(m, y, plant.out("fws_pump_speed"));
    rows.add(hn, "fws_pump_speed", "facility pump drives (" + fp.control + ")", 1.0, "1",
             fp.duty + fp.standby, "-", "-", fws_speed);
    const double head = at(m, y, plant.out("fws_pump_head"));
    rows.add(hn, "fws_pump_head", "facility pumps", fp.design_head, "Pa", fp.duty + fp.standby, "-",
             "-", head);
    if (z.plant.chiller) {
        const double ch = at(m, y, plant.out("chiller_cooling"));
        rows.add(hn, "trim_chiller", z.plant.chiller->name, z.plant.chiller->capacity, "W",
                 z.plant.chiller_units, "N", "trim_chiller/units", ch / z.plant.chiller_units);
    }
}

/// Cooling table: every cooling element's rating, count, redundancy and loading at design;
/// per hall for the liquid side (column "hall" when the scenario names its halls), once for the
/// campus's air side.
Table coolingTable(const ScenarioSpec& sc, const SiteSizing& z, const SiteModel& m,
                   std::span<const double> y, double air_load) {
    CoolingRows rows;
    for (std::size_t h = 0; h < sc.halls.size(); ++h)
        hallCoolingRows(sc, m, y, h, HallRows::Equipment, rows);
    // CRAH units and their chillers on the grown air load (facility/sizing.h).
    const thermal::AirCoilSpec& crah = sc.cooling.air_side.crah;
    const CoolingCount crahs = countCrahs(sc, z, air_load);
    const CoolingCount chillers = countAirChillers(sc, z, air_load, crahs.count);
    const int crah_units = crahs.count;
    rows.add("", "air_side_crah", crah.name, crah.capacity, "W", crah_units, "N+1", crahs.rule,
             air_load / (crah_units - 1));
    // The design loading is already on the N units of the N+1 plant.
    if (crah_units > 1) rows.failure("one CRAH lost", rows.loading.back());
    // The CRAH plant's air-cooled chillers: loading of today's coil load on the running units.
    const double chiller_load = chillers.load_today / (chillers.count - 1);
    rows.add("", "air_side_chiller", sc.cooling.air_side.chiller.name, chillers.unit_capacity, "W",
             chillers.count, chillers.redundancy, chillers.rule, chiller_load);
    if (chillers.count > 1) rows.failure("one chiller lost", rows.loading.back());
    for (std::size_t h = 0; h < sc.halls.size(); ++h)
        hallCoolingRows(sc, m, y, h, HallRows::Drives, rows);
    // The case that governs each row: the failure where it loads the element more.
    std::vector<std::string> governs;
    for (std::size_t i = 0; i < rows.element.size(); ++i) {
        governs.push_back(!std::isnan(rows.failure_loading[i]) &&
                                  rows.failure_loading[i] > rows.loading[i] + 1e-9
                              ? rows.failure_case[i]
                              : "normal");
    }
    Table ct;
    ct.path = "sizing/cooling";
    if (sc.namedHalls()) {
        for (auto& h : rows.hall) {
            if (h.empty()) h = "campus";
        }
        ct.addText("hall", rows.hall);
    }
    ct.addText("element", rows.element);
    ct.addText("model", rows.model);
    ct.addNumbers("rating", "", rows.rating);
    ct.addText("unit", rows.unit);
    ct.addNumbers("count", "1", rows.count);
    ct.addText("redundancy", rows.redundancy);
    ct.addText("count_rule", rows.rule);
    ct.addNumbers("design_load_per_unit", "", rows.load);
    ct.addNumbers("design_loading_pct", "%", rows.loading);
    ct.addText("failure_case", rows.failure_case);
    ct.addNumbers("failure_loading_pct", "%", rows.failure_loading);
    ct.addText("governing_case", governs);
    return ct;
}

/// Water table at design: per hour and a design day of 24 design hours.
Table waterTable(const SiteModel& m, std::span<const double> y, double& makeup_rate) {
    const std::vector<double> rates = {
        at(m, y, m.plantTotal("evaporation_rate")), at(m, y, m.plantTotal("drift_rate")),
        at(m, y, m.plantTotal("blowdown_rate")), at(m, y, m.plantTotal("spray_rate"))};
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

/// What the events ask of the sized site: one utility loss a study, and no more generator
/// sets failing than the sizing installs. Checked where the events are applied and by
/// validateModel (buildModels), which `dctwin validate` runs: it said "valid" to 1,000 sets
/// failing of 7, which the run then refused.
void checkEventsAgainstSizing(const ScenarioSpec& sc, const power::SizingResult& electrical) {
    bool utility = false;
    for (const auto& ev : sc.events) {
        const auto* ul = std::get_if<UtilityLoss>(&ev.what);
        if (!ul) continue;
        if (utility) {
            throw InputError(fmt::format("{}: a study takes one utility_loss event", ev.where));
        }
        utility = true;
        const auto& row = electrical.row("generator");
        if (ul->generators_failing > row.count) {
            throw InputError(fmt::format(
                "{}/generators_failing: {} sets fail but the site has {} (sizing); expected "
                "0 to {}",
                ev.where, ul->generators_failing, row.count, row.count));
        }
    }
}

/// Event schedules for the study model; a utility loss's generator plan (facility/
/// utility_loss.h) decides when generator-fed loads return, the run what follows from it.
Json applyEvents(const ScenarioSpec& sc, const SiteSizing& z, const DesignPoint& d, Conditions& c) {
    // (checkEventsAgainstSizing ran in designPoint, which made d.)
    Json report = Json::array();
    // Per hall: units still running, facility pumps lost so far.
    std::vector<int> units, fws_lost(z.halls.size(), 0);
    // Per hall: outdoor-loop plates lost so far and duty plates in service; its pumps lost.
    std::vector<int> hx_lost(z.halls.size(), 0), hx_running, outdoor_pumps_lost(z.halls.size(), 0);
    for (const HallSizing& h : z.halls) {
        units.push_back(h.plant.units);
        hx_running.push_back(h.plant.outdoor ? h.plant.outdoor->spec().exchangers : 0);
    }
    // The events in time order: losses add up over the events before them in time, whatever
    // their order in the file (a trip listed after a later one counted the later one's pumps).
    // The report keeps the file's order.
    std::vector<std::size_t> order(sc.events.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return sc.events[a].at_s < sc.events[b].at_s;
    });
    // Each CDU's pumps over time, from its trips and changeovers together (checked by sizing).
    std::vector<std::map<int, std::vector<std::pair<double, double>>>> cdu_schedules;
    for (std::size_t h = 0; h < z.halls.size(); ++h) {
        cdu_schedules.push_back(cduPumpSchedules(sc, h));
        if (!cdu_schedules.back().empty()) c.hall(h).pumps_failed = cdu_schedules.back();
    }
    // A utility loss's outages: the schedule forced to `off` from the loss until the load is
    // back, then to what the other events leave it at by then (laid over them once all are
    // in: a chiller tripped before the loss stays tripped, a pump lost during it stays lost).
    using Changes = std::vector<std::pair<double, double>>;
    struct Outage {
        std::size_t hall;                         // of `member`; ignored for the air side
        Changes Conditions::HallEvents::*member;  // nullptr: the site's air side
        double normal, off, from, until;
    };
    std::vector<Outage> outages;
    std::vector<Json> reports(sc.events.size());
    // Standby plates to valve in later: (time, hall, the event asking). Each is applied when
    // the events reach its time, so a plate lost meanwhile counts before it.
    struct Takeover {
        double t;
        std::size_t hall, event;
    };
    std::vector<Takeover> takeovers;
    auto valveInStandbys = [&](double until) {
        std::stable_sort(takeovers.begin(), takeovers.end(),
                         [](const Takeover& a, const Takeover& b) { return a.t < b.t; });
        while (!takeovers.empty() && takeovers.front().t <= until) {
            const Takeover k = takeovers.front();
            takeovers.erase(takeovers.begin());
            const thermal::OutdoorLoopSpec& ol = z.halls[k.hall].plant.outdoor.value().spec();
            const int healthy = ol.exchangers + ol.exchangers_standby - hx_lost[k.hall];
            Json& r = reports[k.event];
            if (healthy <= hx_running[k.hall]) {  // lost meanwhile: none left to valve in
                r["standby_left_at_takeover"] = 0;
                continue;
            }
            hx_running[k.hall] = std::min(ol.exchangers, healthy);
            c.hall(k.hall).outdoor_hx_running.emplace_back(k.t, hx_running[k.hall]);
            r["exchangers_running_after_takeover"] = hx_running[k.hall];
        }
    };
    for (const std::size_t idx : order) {
        const EventSpec& ev = sc.events[idx];
        valveInStandbys(ev.at_s);
        Json& r = reports[idx];
        r = {{"type", ev.type()}, {"at_s", ev.at_s}};
        const auto hall = static_cast<std::size_t>(ev.hall);
        Conditions::HallEvents& he = c.hall(hall);
        const PlantDesign& plant = z.halls[hall].plant;
        if (sc.namedHalls() && !std::holds_alternative<UtilityLoss>(ev.what)) {
            r["hall"] = sc.halls[hall].name;
        }
        if (const auto* trip = std::get_if<CduPumpTrip>(&ev.what)) {
            // The schedule is the hall's cduPumpSchedules (below the loop).
            r["cdu"] = trip->cdu;
            r["pumps"] = trip->pumps;
            if (trip->standby_takeover) r["standby_takeover_s"] = *trip->standby_takeover;
        } else if (const auto* loss = std::get_if<HeatRejectionUnitLoss>(&ev.what)) {
            units[hall] -= loss->units;
            he.units_available.emplace_back(ev.at_s, units[hall]);
            r["units"] = loss->units;
            r["units_remaining"] = units[hall];
        } else if (const auto* valve = std::get_if<RackValve>(&ev.what)) {
            he.valve_openings[valve->cdu].emplace_back(ev.at_s, valve->opening);
            r["cdu"] = valve->cdu;
            r["opening_pct"] = valve->opening * 100.0;
        } else if (const auto* fws = std::get_if<FwsPumpTrip>(&ev.what)) {
            fws_lost[hall] += fws->pumps;
            he.fws_pumps_failed.emplace_back(ev.at_s, fws_lost[hall]);
            r["pumps"] = fws->pumps;
            r["pumps_remaining"] = plant.fws_pumps.duty + plant.fws_pumps.standby - fws_lost[hall];
        } else if (const auto* co = std::get_if<CduPumpChangeover>(&ev.what)) {
            // One pump fewer runs during the transfer (cduPumpSchedules), then the standby
            // carries the duty.
            const auto& sched = cdu_schedules[hall].at(co->cdu);
            const thermal::CduSpec& cdu = sc.halls[hall].cooling.cdu;
            r["cdu"] = co->cdu;
            r["transfer_s"] = co->transfer;
            r["pumps_running_during"] = thermal::runningPumps(cdu.pumps_installed, cdu.pumps_duty,
                                                              scheduledValue(sched, ev.at_s, 0.0));
        } else if (const auto* hx = std::get_if<OutdoorHxLoss>(&ev.what)) {
            // The hall has a loop and the plates lost fit those installed (checkOutdoorLoopEvents,
            // as the scenario is read).
            const thermal::OutdoorLoopSpec& ol = plant.outdoor.value().spec();
            const int installed = ol.exchangers + ol.exchangers_standby;
            hx_lost[hall] += hx->exchangers;
            // The lost plates are taken from those in service first; a standby is valved in
            // only by the takeover.
            hx_running[hall] = std::max(0, hx_running[hall] - hx->exchangers);
            he.outdoor_hx_running.emplace_back(ev.at_s, hx_running[hall]);
            r["exchangers"] = hx->exchangers;
            r["exchangers_running"] = hx_running[hall];
            // Healthy plates not in service: the standbys a takeover can valve in.
            const int standby_left = installed - hx_lost[hall] - hx_running[hall];
            r["standby_left"] = standby_left;
            if (hx->standby_takeover && standby_left > 0) {
                r["standby_takeover_s"] = *hx->standby_takeover;
                takeovers.push_back({ev.at_s + *hx->standby_takeover, hall, idx});
            }
        } else if (const auto* op = std::get_if<OutdoorPumpTrip>(&ev.what)) {
            const thermal::OutdoorLoop& loop = plant.outdoor.value();  // checked as read
            const thermal::OutdoorLoopSpec& ol = loop.spec();
            const int installed = ol.pumps_duty + ol.pumps_standby;
            int& lost = outdoor_pumps_lost[hall];
            lost += op->pumps;
            he.outdoor_pumps_failed.emplace_back(ev.at_s, lost);
            r["pumps"] = op->pumps;
            r["pumps_running"] = thermal::runningPumps(installed, ol.pumps_duty, lost);
            // To 0.01 % for the log line; the flow itself is in the series.
            r["flow_available_pct"] = std::round(1e4 * loop.maxSpeed(lost)) / 100.0;
        } else if (std::holds_alternative<ChillerTrip>(ev.what)) {
            he.chiller_available.emplace_back(ev.at_s, 0.0);
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
            const auto& row = d.electrical.row("generator");
            const power::GeneratorSpec& gen = sc.catalog->generator(row.model);
            const GeneratorFleet fleet{row.count, row.rating, gen.start_delay, gen.step_load_limit,
                                       gen.step_interval};
            const UtilityLossPlan plan = planUtilityLoss(o, fleet, d.utility_loads);
            c.utility = plan;
            // Every hall's plant is on the campus's generators. (A hall and a member, not a
            // pointer: c.hall() may grow the halls' vector until all events are in.)
            using HE = Conditions::HallEvents;
            for (std::size_t h = 0; h < z.halls.size(); ++h) {
                const thermal::PumpStationSpec& fp = z.halls[h].plant.fws_pumps;
                outages.push_back({h, &HE::fans_available, 1.0, 0.0, ev.at_s, plan.fans_on});
                outages.push_back({h, &HE::chiller_available, 1.0, 0.0, ev.at_s, plan.chillers_on});
                if (!ul.fws_pumps_on_ups) {
                    outages.push_back({h, &HE::fws_pumps_failed, 0.0,
                                       static_cast<double>(fp.duty + fp.standby), ev.at_s,
                                       plan.fws_pumps_on});
                }
            }
            outages.push_back({0, nullptr, 1.0, 0.0, ev.at_s, plan.air_side_on});
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
    }
    valveInStandbys(std::numeric_limits<double>::infinity());
    for (const Outage& o : outages) {
        Changes& sched = o.member ? c.hall(o.hall).*o.member : c.air_side_available;
        const double back = scheduledValue(sched, o.until, o.normal);
        std::erase_if(sched,
                      [&](const auto& ch) { return ch.first > o.from && ch.first < o.until; });
        sched.emplace_back(o.from, o.off);
        if (std::isfinite(o.until)) sched.emplace_back(o.until, back);
    }
    for (Json& r : reports) report.push_back(std::move(r));
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
    init.air_chiller_units = d.air_chiller_units;
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
    c.air_chiller_units = init.air_chiller_units;
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
/// Σ w·y[i] over the terms.
Recorder::Probe weightedSum(Terms terms) {
    return [terms](double, std::span<const double>, std::span<const double> y) {
        double a = 0;
        for (const auto& [i, k] : terms) a += k * y[i];
        return a;
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
    out(site.out("facility_power"), "power", "facility_power",
        "drawn at the MV incomer (utility; generators after a utility loss)");
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
/// taken as swinging (a conservative peak). In the rack's start order (the peak is their max).
std::vector<SwingWindow> swingWindows(const power::Workload& w, int rack) {
    std::vector<SwingWindow> out;
    for (std::size_t j : w.jobsOf(rack)) {
        const auto* job = dynamic_cast<const power::TrainingJob*>(w.jobs()[j].get());
        if (!job) continue;
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
    double gpu_share = 0;  // [1] the GPUs' part of rack_range (the part the clock scales)
    const power::RackPowerModel* power = nullptr;  // clock factor at a step end's junction
    std::size_t throughput = 0, clock = 0;  // output indices: (1 − L)·f·s and f of the rack
    double C_plate = 0;                     // [J/K] plates + the junctions riding on them
    std::size_t hall = 0;                   // index into SiteModel::halls()
    double racks = 0;                       // [1] racks the slot represents
    std::size_t tripped = 0;                // output index: the representative rack's trip latch L
};

/// The expected-peak excess of one rack group with its racks running at full clocks [K]: the
/// junction's own part and its plate's (expectedExcess).
struct SwingExcess {
    double junction = 0.0, plate = 0.0;
    /// What is left of it with the racks running at share `running` = (1 − L)·s [1] (trip
    /// latch L, supply s at the rack feeds) and clock factor f [1]: a tripped or unpowered
    /// rack draws no iteration swing, and a throttled GPU's swing is its dynamic power's,
    /// f·Δu·(P_tdp − P_idle) (power/rack.h), whatever the standby; of the plate's swing only
    /// the GPUs' part (`gpu_share`) is clocked, the CPUs' and switch trays' is not.
    double at(double running, double f, double gpu_share) const {
        return running * (f * junction + plate * (gpu_share * f + 1.0 - gpu_share));
    }
};

/// Extremes of the junction channels over one output interval, shared by the step probe (the
/// integrator's step ends) and the sample's probe set (recordJunctions).
struct JunctionExtremes {
    JunctionExtremes(std::size_t slots, std::size_t halls, double t_watch)
        : excess(slots),
          flow(slots, 0.0),
          supply(slots, 1.0),
          windows(slots, {-std::numeric_limits<double>::infinity(),
                          std::numeric_limits<double>::infinity()}),
          hall_max(halls, 0.0),
          t_watch(t_watch) {}
    std::vector<SwingExcess> excess;  // [K] per slot: excess of the racks at full clocks
    std::vector<double> flow;         // [m³/s] per slot: rack flow at the last sample
    std::vector<double> supply;       // [1] per slot: supply at the rack feeds, last sample
    std::vector<std::pair<double, double>> windows;  // per slot: where `excess` has its windows
    std::vector<double> hall_max;                    // [K] per named hall, this interval
    double site_max = 0.0, plate_max = 0.0;          // [K] this interval
    double min_margin = std::numeric_limits<double>::infinity();  // [K] this interval
    double throttled = 0.0;                  // [s] this interval with the site margin ≤ 0
    double t_sample = NAN;                   // [s] the last sample (NaN before the first)
    double t_node = NAN, margin_node = 0.0;  // the last step end or sample: time, margin
    double trip_node = 0.0;                  // and racks tripped (Σ n·L) there
    double t_watch;                          // [s] the first event (+inf: none)
    StepCrossings crossings;
    /// A step end or sample at t with site margin `margin` [K] and `racks_tripped` (Σ n·L):
    /// the time at the throttle since the last one, linear in the margin between them (a
    /// crossing placed where it is 0), and the first crossings after the first event.
    void node(double t, double margin, double racks_tripped) {
        min_margin = std::min(min_margin, margin);
        if (!std::isnan(t_node) && t > t_node) {
            const double dt = t - t_node, a = margin_node, b = margin;
            if (a <= 0.0 && b <= 0.0) {
                throttled += dt;
            } else if (a <= 0.0 || b <= 0.0) {
                throttled += dt * (a <= 0.0 ? a : b) / (a <= 0.0 ? a - b : b - a);
            }
        }
        firstReach(crossings.first_throttle, t, -margin, -margin_node, 0.0);
        firstReach(crossings.first_trip, t, racks_tripped, trip_node, 0.5);
        t_node = t;
        margin_node = margin;
        trip_node = racks_tripped;
    }
    /// The first time, at or after the first event, that a quantity reached `level` from
    /// below: v at this node (t), v_last at the last; placed linearly between them, at the last
    /// node if it was past the level already. `first` is set once.
    void firstReach(double& first, double t, double v, double v_last, double level) const {
        if (!std::isnan(first) || v < level || t < t_watch) return;
        const bool no_last = std::isnan(t_node) || !(t > t_node);
        first = std::max(t_watch, no_last ? t
                                  : v_last < level
                                      ? t_node + (t - t_node) * (level - v_last) / (v - v_last)
                                      : t_node);
    }
    /// The interval that ends at a sample at t [s] (0 for the first sample).
    double sampleLength(double t) const { return std::isnan(t_sample) ? 0.0 : t - t_sample; }
    void startInterval(double t) {
        t_sample = t;
        site_max = plate_max = 0.0;
        std::fill(hall_max.begin(), hall_max.end(), 0.0);
        min_margin = std::numeric_limits<double>::infinity();
        throttled = 0.0;
    }
};

/// The expected junction peak above its averaged-power value at time t [K]: the first-order
/// periodic responses (thermal/rack_loop.h junctionSquareWaveExcess) of the junction and of its
/// plate to the square wave the averaged workload hides; both peak at the end of the high
/// phase, so they add. The leakage's feedback dP/dT at the junction temperature T_j raises the
/// junction's effective resistance to R/(1 − λ·R·dP/dT); the plate sees the rack's liquid-heat
/// swing through R(V̇) at the flow V̇ [m³/s] (y[flow] at a sample). With the racks running at
/// full clocks; SwingExcess::at scales it to what they run at. Of several windows at once, the
/// one with the largest sum.
SwingExcess expectedExcess(const JunctionSlot& s, double t, double T_j, double flow) {
    SwingExcess excess;
    for (const SwingWindow& w : s.swings) {
        if (t < w.start || t >= w.end) continue;
        const double du = w.u_high - w.u_low;
        const double G = s.leak_gain * std::log(2.0) / s.leak_doubling *
                         std::exp2(std::min(T_j - s.leak_ref, 150.0) / s.leak_doubling);
        const double R = s.R_jp / std::max(0.2, 1.0 - s.liquid * s.R_jp * G);
        const double junction = thermal::junctionSquareWaveExcess(
            R, s.tau_j, s.liquid * s.gpu_range * du, w.period, w.duty);
        const double R_p = s.loop->resistance(flow);
        const double plate = thermal::junctionSquareWaveExcess(R_p, s.C_plate * R_p,
                                                               s.rack_range * du, w.period, w.duty);
        if (junction + plate > excess.junction + excess.plate) excess = {junction, plate};
    }
    return excess;
}

/// The interval [lo, hi) around t [s] in which the same swing windows of s are running.
std::pair<double, double> sameWindows(const JunctionSlot& s, double t) {
    double lo = -std::numeric_limits<double>::infinity();
    double hi = std::numeric_limits<double>::infinity();
    for (const SwingWindow& w : s.swings) {
        for (double e : {w.start, w.end}) {
            if (e <= t) lo = std::max(lo, e);
            if (e > t) hi = std::min(hi, e);
        }
    }
    return {lo, hi};
}

/// Channels of the GPU junctions and cold plates. Resolved workloads: the junction states
/// themselves. Averaged workloads: the junction at the averaged power plus the swing the
/// averaging hides (expectedExcess), so throttling is judged on the expected peak.
std::shared_ptr<const StepCrossings> recordJunctions(const SiteModel& m, const ScenarioSpec& sc,
                                                     Recorder& rec) {
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
        s.gpu_share = rack.gpus * rack.gpu_liquid_fraction * s.gpu_range /
                      std::max(s.rack_range, std::numeric_limits<double>::min());
        s.power = &static_cast<const power::RackPower&>(rs.power.component()).model();
        s.throughput = m.index(rs.power.out("throughput"));
        s.clock = m.index(rs.power.out("clock"));
        s.C_plate = loop.params().C_metal + loop.params().gpus * loop.params().C_junction;
        s.hall = m.cdus()[rs.group].hall;
        s.racks = rs.weight;
        s.tripped = m.index(rs.power.out("tripped"));
        if (averaged) s.swings = swingWindows(*sc.workload, kind.representative);
        slots.push_back(std::move(s));
    }
    // One probe set for the junction and plate channels: each slot's expected peak (an exp2
    // and two periodic responses per swing window when averaged) is computed once per sample
    // and serves the site maximum, each hall's maximum and the throttle margin alike; as
    // separate probes it was computed twice, three times with named halls (the reference
    // year: 1.8 % of its instructions, callgrind).
    //
    // The maxima, the margin and the time at the throttle are over the interval that ends at
    // the sample, not at the sample alone: a step probe reads every slot's junction and plate
    // states at each of the integrator's step ends. A CDU pump trip on a 10-minute grid took
    // its racks past 95 °C and back to the coolant within one interval; read at the samples
    // alone, the run said "8 racks tripped" beside "GPU throttle none; least margin 6.0 K".
    // At step ends the averaged workload's excess is the last sample's while the same swing
    // windows run, and is evaluated again (with the sample's flow and the step's junction) once
    // a window has started or ended since: a job that ends between two hourly samples does not
    // carry its swing to the step ends after it. It is scaled at every node by what the racks
    // run at (SwingExcess::at): at a step end from its trip latch and the clock factor at its
    // junction, with the last sample's supply. Unscaled, a tripped rack's dies (drawing
    // nothing, at their plate's temperature) read 2 K above it for the rest of a pump trip.
    std::vector<Recorder::ProbeChannel> channels;
    channels.push_back({"cooling", "max_gpu_junction_temp", "K",
                        averaged ? "hottest GPU junction, expected peak: averaged power + the "
                                   "iteration swing; over the interval ending at the sample"
                                 : "hottest GPU junction (all rack groups), over the interval "
                                   "ending at the sample"});
    const std::size_t hall_channels = sc.namedHalls() ? m.halls().size() : 0;
    for (std::size_t h = 0; h < hall_channels; ++h) {
        channels.push_back({"halls/" + m.halls()[h].name, "max_gpu_junction_temp", "K",
                            "hottest GPU junction of the hall (as cooling/max_gpu_junction_temp)"});
    }
    channels.push_back({"cooling", "mean_gpu_junction_temp", "K",
                        averaged ? "GPU junction at the averaged power, mean over all GPUs"
                                 : "GPU junction, mean over all GPUs"});
    channels.push_back({"cooling", "max_gpu_plate_temp", "K",
                        "hottest cold plate (plate average, all rack groups), over the interval "
                        "ending at the sample"});
    channels.push_back({"cooling", "throttle_margin", "K",
                        "throttle temperature minus GPU junction peak (smallest over rack "
                        "groups and over the interval ending at the sample)"});
    channels.push_back({"cooling", "throttle_fraction", "1",
                        "share of the interval ending at the sample with the hottest GPU junction "
                        "peak at or above its throttle temperature (from the integrator's step "
                        "ends, crossings interpolated)"});
    double t_watch = std::numeric_limits<double>::infinity();
    for (const auto& e : sc.events) t_watch = std::min(t_watch, e.at_s);
    auto ext = std::make_shared<JunctionExtremes>(slots.size(), hall_channels, t_watch);
    // Watched at step ends: every slot's junction, then its plate, then its trip latch.
    std::vector<std::size_t> watched;
    auto state = [&](const ComponentHandle& c, const char* name) {
        return m.system().stateIndex(c.index(), c.component().stateIndex(name));
    };
    for (const auto& rs : m.racks()) watched.push_back(state(rs.loop, "junction_temp"));
    for (const auto& rs : m.racks()) watched.push_back(state(rs.loop, "plate_temp"));
    for (const auto& rs : m.racks()) watched.push_back(state(rs.power, "trip"));
    rec.addStepProbe(std::move(watched), [slots, ext](double t, std::span<const double> x) {
        const std::size_t n = slots.size();
        double margin = std::numeric_limits<double>::infinity(), tripped = 0.0;
        for (std::size_t i = 0; i < n; ++i) {
            const JunctionSlot& s = slots[i];
            const auto [lo, hi] = ext->windows[i];
            if (t < lo || t >= hi) {
                ext->excess[i] = expectedExcess(s, t, x[i], ext->flow[i]);
                ext->windows[i] = sameWindows(s, t);
            }
            double peak = x[i];
            if (const SwingExcess& e = ext->excess[i]; e.junction != 0.0 || e.plate != 0.0) {
                // Only where a swing is hidden (training racks of an averaged study): the
                // clock factor reads the rack's spec, once per group and step end.
                const double running = ext->supply[i] * (1.0 - std::clamp(x[2 * n + i], 0.0, 1.0));
                peak += e.at(running, s.power->clockFactor(x[i]), s.gpu_share);
            }
            ext->site_max = std::max(ext->site_max, peak);
            if (!ext->hall_max.empty())
                ext->hall_max[s.hall] = std::max(ext->hall_max[s.hall], peak);
            ext->plate_max = std::max(ext->plate_max, x[n + i]);
            margin = std::min(margin, s.throttle - peak);
            tripped += s.racks * x[2 * n + i];
        }
        ext->node(t, margin, tripped);
    });
    rec.addProbeSet(
        [slots, hall_channels, ext](double t, std::span<const double>, std::span<const double> y,
                                    std::span<double> v) {
            double a = 0, w = 0, tripped = 0;
            double margin = std::numeric_limits<double>::infinity();
            for (std::size_t i = 0; i < slots.size(); ++i) {
                const JunctionSlot& s = slots[i];
                const double T = y[s.junction];
                double peak = T;
                if (!s.swings.empty()) {
                    ext->flow[i] = y[s.flow];
                    ext->excess[i] = expectedExcess(s, t, T, ext->flow[i]);
                    ext->windows[i] = sameWindows(s, t);
                    // throughput = (1 − L)·f·s: the running share is throughput/f (f ≥ f_min
                    // > 0), the supply that share over 1 − L while the latch leaves any.
                    const double f = y[s.clock], running = y[s.throughput] / f;
                    const double on = 1.0 - std::clamp(y[s.tripped], 0.0, 1.0);
                    if (on > 1e-9) ext->supply[i] = std::clamp(running / on, 0.0, 1.0);
                    peak += ext->excess[i].at(running, f, s.gpu_share);
                }
                ext->site_max = std::max(ext->site_max, peak);
                if (hall_channels > 0)
                    ext->hall_max[s.hall] = std::max(ext->hall_max[s.hall], peak);
                a += s.gpus * T;
                w += s.gpus;
                ext->plate_max = std::max(ext->plate_max, y[s.plate]);
                margin = std::min(margin, s.throttle - peak);
                tripped += s.racks * y[s.tripped];
            }
            const double length = ext->sampleLength(t);
            ext->node(t, margin, tripped);
            v[0] = ext->site_max;
            std::copy(ext->hall_max.begin(), ext->hall_max.end(), v.begin() + 1);
            v[1 + hall_channels] = a / w;
            v[2 + hall_channels] = ext->plate_max;
            v[3 + hall_channels] = ext->min_margin;
            v[4 + hall_channels] =
                length > 0.0 ? std::min(ext->throttled / length, 1.0) : (margin <= 0.0 ? 1.0 : 0.0);
            ext->startInterval(t);
        },
        std::move(channels));
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
    return {ext, &ext->crossings};
}

/// Output indices of one plant output in every hall.
Terms hallPlantTerms(const SiteModel& m, const char* port) {
    Terms t;
    for (const auto& h : m.halls()) t.emplace_back(m.index(h.plant.out(port)), 1.0);
    return t;
}

/// Named halls: each hall's own channels, group "halls/<name>".
void recordHalls(const SiteModel& m, Recorder& rec) {
    const System& sys = m.system();
    const auto& hn = SiteModel::hallMeterNames();
    for (std::size_t h = 0; h < m.halls().size(); ++h) {
        const HallSlot& hs = m.halls()[h];
        const std::string g = "halls/" + hs.name;
        auto out = [&](OutputPort p, const char* n, const char* w) {
            rec.addOutput(sys.outputName(m.index(p)), g, n, w);
        };
        out(*hs.it_power, "it_power", "the hall's racks (grid side)");
        out(*hs.cdu_pump_power, "cdu_pump_power", "the hall's CDU pumps");
        out(hs.plant.out("fws_pump_power"), "fws_pump_power",
            "the hall's facility pumps (and its outdoor loop's, where installed)");
        out(hs.plant.out("fan_power"), "heat_rejection_fan_power", "the hall's plant fans");
        out(hs.plant.out("chiller_power"), "chiller_power", "the hall's trim chiller");
        out(hs.plant.out("heat_rejected"), "heat_rejected", "the hall's plant, water side");
        out(hs.plant.out("setpoint_unmet"), "setpoint_unmet", "the hall's facility supply");
        out(hs.pipe_supply.out("outlet_temp"), "fws_supply_temp", "the hall's facility supply");
        out(hs.pipe_return.out("outlet_temp"), "fws_return_temp", "the hall's facility return");
        out(hs.fws_flow, "fws_flow", "the hall's facility water flow");
        if (m.sizing().halls[h].plant.outdoor) {
            out(hs.plant.out("outdoor_supply_temp"), "outdoor_supply_temp",
                "the hall's outdoor loop entering its plate heat exchanger");
            out(hs.plant.out("hx_heat"), "hx_heat", "the hall's plate heat exchanger");
            out(hs.plant.out("outdoor_flow"), "outdoor_flow", "the hall's outdoor loop flow");
            out(hs.plant.out("outdoor_pump_power"), "outdoor_pump_power",
                "the hall's outdoor loop pumps (also in its fws_pump_power)");
        }
        // The hall's own rack loops, as the cooling group gives them for the campus, so the
        // cooling chain of each hall reads its own temperatures, flows and heat (a campus's
        // chain read hall A's equipment beside the campus's heat). Weighted by the CDUs each
        // group stands for (the warmest-CDU extreme ignores the weights).
        Terms tcs, ret, dp, flow, liquid;
        for (std::size_t i = hs.first_cdu; i < hs.first_cdu + hs.cdu_count; ++i) {
            const CduSlot& cs = m.cdus()[i];
            tcs.emplace_back(m.index(cs.cdu.out("secondary_supply_temp")), cs.multiplicity);
            ret.emplace_back(m.index(cs.mixer.out("temp")), cs.multiplicity);
            dp.emplace_back(m.index(cs.cdu.out("header_dp")), cs.multiplicity);
        }
        rec.addProbe(extremeOf(tcs, false), g, "tcs_supply_temp_max", "K",
                     "TCS supply of the hall's warmest CDU");
        for (const auto& rs : m.racks()) {
            const CduSlot& cs = m.cdus()[rs.group];
            if (cs.hall != h) continue;
            flow.emplace_back(m.index(rs.flow), rs.weight);
            liquid.emplace_back(m.index(rs.loop.out("heat_to_coolant_total")), cs.multiplicity);
        }
        rec.addProbe(weightedMean(tcs), g, "tcs_supply_temp", "K",
                     "the hall's TCS supply (mean over its CDUs)");
        rec.addProbe(weightedMean(ret), g, "tcs_return_temp", "K",
                     "the hall's TCS return (mean over its CDUs)");
        rec.addProbe(weightedMean(dp), g, "cdu_header_dp", "Pa",
                     "differential pressure across the hall's rack branches (mean over its CDUs)");
        rec.addProbe(weightedMean(flow), g, "rack_flow", "m3/s",
                     "coolant flow of one of the hall's racks (mean over them)");
        rec.addProbe(weightedSum(liquid), g, "heat_to_liquid", "W", "the hall's racks to coolant");
        std::vector<std::size_t> water;
        for (const char* p : {"evaporation_rate", "drift_rate", "blowdown_rate", "spray_rate"}) {
            water.push_back(m.index(hs.plant.out(p)));
        }
        rec.addProbe(sumOf(water, false), g, "water_rate", "m3/s", "the hall's water");
        std::vector<std::size_t> total;
        for (const char* n : {"evaporation", "drift", "blowdown", "spray"}) {
            total.push_back(sys.stateIndex(
                hs.meters->index(),
                static_cast<std::size_t>(std::find(hn.begin(), hn.end(), n) - hn.begin())));
        }
        rec.addProbe(sumOf(total, true), g, "water_total", "m3",
                     "the hall's water since the study start");
    }
}

std::shared_ptr<const StepCrossings> recordCooling(const SiteModel& m, const ScenarioSpec& sc,
                                                   Recorder& rec) {
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
    // One plant: its own channels (the names the GUI reads). A campus: the halls' extremes or
    // sums (each hall's own in halls/<name>).
    const bool one = !sc.namedHalls();
    const HallSlot& h0 = m.halls().front();
    Terms supply, ret_pipe, flows;
    for (const auto& h : m.halls()) {
        supply.emplace_back(m.index(h.pipe_supply.out("outlet_temp")), 1.0);
        ret_pipe.emplace_back(m.index(h.pipe_return.out("outlet_temp")), 1.0);
        flows.emplace_back(m.index(h.fws_flow), 1.0);
    }
    if (one) {
        out(h0.pipe_supply.out("outlet_temp"), "cooling", "fws_supply_temp", "facility supply");
        out(h0.pipe_return.out("outlet_temp"), "cooling", "fws_return_temp", "facility return");
    } else {
        rec.addProbe(extremeOf(supply, false), "cooling", "fws_supply_temp", "K",
                     "facility supply of the warmest hall");
        rec.addProbe(extremeOf(ret_pipe, false), "cooling", "fws_return_temp", "K",
                     "facility return of the warmest hall");
    }
    auto crossings = recordJunctions(m, sc, rec);
    out(m.sums().heat_to_liquid, "cooling", "heat_to_liquid", "racks to coolant");
    out(m.sums().rack_heat_air, "cooling", "heat_to_air", "rack heat to air");
    out(m.sums().cdu_pump_power, "cooling", "cdu_pump_power", "CDU pumps");
    out(m.plantTotal("fws_pump_power"), "cooling", "fws_pump_power",
        "facility pumps (and the outdoor loop's, where installed)");
    out(m.plantTotal("fan_power"), "cooling", "heat_rejection_fan_power", "plant fans");
    out(m.plantTotal("chiller_power"), "cooling", "chiller_power", "trim chiller");
    out(m.sitePower().out("air_side_power"), "cooling", "air_side_power", "CRAH plant");
    out(m.sitePower().out("economizer_share"), "cooling", "air_economizer_share",
        "CRAH load carried by outdoor air");
    out(m.sitePower().out("air_side_unmet"), "cooling", "air_side_unmet",
        "room heat the CRAH plant cannot take (fans at rated flow, chillers at capacity)");
    out(m.plantTotal("heat_rejected"), "cooling", "heat_rejected", "plant, water side");
    if (one) {
        const ComponentHandle& plant = h0.plant;
        out(plant.out("setpoint_unmet"), "cooling", "setpoint_unmet", "facility supply");
        out(h0.fws_flow, "cooling", "fws_flow", "facility water flow");
        out(plant.out("fws_pump_speed"), "cooling", "fws_pump_speed", "facility pump drive speed");
        out(plant.out("fws_pumps_running"), "cooling", "fws_pumps_running",
            "facility pumps staged on");
        out(plant.out("fws_pump_head"), "cooling", "fws_pump_head", "facility pump pressure rise");
        out(plant.out("fws_remote_dp"), "cooling", "fws_remote_dp",
            "differential-pressure setpoint at the remote CDU");
        if (m.sizing().halls.front().plant.outdoor) {
            out(plant.out("outdoor_supply_temp"), "cooling", "outdoor_supply_temp",
                "outdoor loop's glycol entering the plate heat exchanger");
            out(plant.out("hx_heat"), "cooling", "hx_heat",
                "plate heat exchanger, heat from the facility water");
            out(plant.out("outdoor_flow"), "cooling", "outdoor_flow", "outdoor loop's glycol flow");
            out(plant.out("outdoor_pump_power"), "cooling", "outdoor_pump_power",
                "outdoor loop's glycol pumps (also in fws_pump_power)");
        }
        return crossings;
    }
    auto indices = [](const Terms& t) {
        std::vector<std::size_t> v;
        for (const auto& [i, w] : t) v.push_back(i);
        return v;
    };
    rec.addProbe(extremeOf(hallPlantTerms(m, "setpoint_unmet"), false), "cooling", "setpoint_unmet",
                 "K", "facility supply, the hall furthest above its setpoint");
    rec.addProbe(sumOf(indices(flows), false), "cooling", "fws_flow", "m3/s",
                 "facility water flow, all halls");
    rec.addProbe(extremeOf(hallPlantTerms(m, "fws_pump_speed"), false), "cooling", "fws_pump_speed",
                 "1", "facility pump drive speed, fastest hall");
    rec.addProbe(sumOf(indices(hallPlantTerms(m, "fws_pumps_running")), false), "cooling",
                 "fws_pumps_running", "1", "facility pumps staged on, all halls");
    rec.addProbe(extremeOf(hallPlantTerms(m, "fws_pump_head"), false), "cooling", "fws_pump_head",
                 "Pa", "facility pump pressure rise, highest hall");
    rec.addProbe(extremeOf(hallPlantTerms(m, "fws_remote_dp"), false), "cooling", "fws_remote_dp",
                 "Pa", "remote-CDU differential-pressure setpoint, highest hall");
    recordHalls(m, rec);
    return crossings;
}

void recordWaterAndWeather(const SiteModel& m, Recorder& rec) {
    const System& sys = m.system();
    auto out = [&](OutputPort p, const char* g, const char* n, const char* w) {
        record(m, rec, p, g, n, w);
    };
    const std::vector<std::size_t> water_idx = {
        m.index(m.plantTotal("evaporation_rate")), m.index(m.plantTotal("drift_rate")),
        m.index(m.plantTotal("blowdown_rate")), m.index(m.plantTotal("spray_rate"))};
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
    // Each kind's own running total: a kind's largest calendar day (the sizing/water table's
    // study_peak_day) falls on its own day, a hot one for the adiabatic spray, and is not the
    // site's peak day shared out by annual totals.
    for (const auto& [n, what] :
         {std::pair{"evaporation", "evaporated"}, std::pair{"drift", "carried off as drift"},
          std::pair{"blowdown", "blown down"},
          std::pair{"spray", "sprayed on adiabatic coolers"}}) {
        rec.addProbe(sumOf({meterIdx(n)}, true), "water", std::string(n) + "_total", "m3",
                     std::string("water ") + what + " since the study start");
    }
    out(m.plantTotal("evaporation_rate"), "water", "evaporation_rate", "");
    out(m.plantTotal("blowdown_rate"), "water", "blowdown_rate", "");
    out(m.plantTotal("spray_rate"), "water", "spray_rate", "");
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

/// What the channels' probes leave besides the channels, complete once the run has ended.
struct RecordedSums {
    std::shared_ptr<const ComputeSums> compute;
    std::shared_ptr<const StepCrossings> crossings;
};

RecordedSums recordChannels(const SiteModel& m, const ScenarioSpec& sc, Recorder& rec) {
    recordPower(m, rec);
    recordUtility(m, rec);
    auto crossings = recordCooling(m, sc, rec);
    recordWaterAndWeather(m, rec);
    if (sc.study.per_rack_channels) recordRackArray(m, sc, rec);
    // facility/metrics.h (issue 10: compute lost to heat)
    auto compute = recordComputeChannels(m, sc, rec);
    rec.results().start_iso8601 = studyStartIso(sc.study);
    return {std::move(compute), std::move(crossings)};
}

/// [s] The shortest sample step of the logs a resolved study replays (infinity: none). A
/// replayed log is linear between its samples and tells the integrator of no corner, so a log
/// that starts flat (one GPU, a GPU at its power cap, rounded readings) let CVODE grow its step
/// past every later sample: 13 steps for a 60-s replay of a 2-s square wave, IT energy 28 %
/// high, the junction held at its peak (issue 12 audit). Capping the step at the log's own
/// step lets it see every sample; a log's sampling is coarser than the steps the racks take
/// anyway (2,768 steps in the same replay with noisy readings).
double shortestReplayedStep(const ScenarioSpec& sc) {
    double step = std::numeric_limits<double>::infinity();
    if (!sc.workload) return step;
    for (const auto& job : sc.workload->jobs()) {
        const auto* t = dynamic_cast<const power::TraceJob*>(job.get());
        if (t == nullptr || !t->trace || !(t->trace->nominal_step > 0.0)) continue;
        if (t->start >= sc.study.duration_s || t->start + t->duration <= 0.0) continue;
        step = std::min(step, t->trace->nominal_step);
    }
    return step;
}

SimulationOptions simulationOptions(const ScenarioSpec& sc, const Conditions& c) {
    const StudySpec& st = sc.study;
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
    // Averaged studies replay a log through its moving average (Conditions::workload_window),
    // which is smooth at the 1,800-s cap; resolved ones replay it sample by sample.
    if (c.resolution == power::Resolution::Resolved) {
        const double step = shortestReplayedStep(sc);
        if (std::isfinite(step)) {
            so.solver.max_step =
                so.solver.max_step > 0.0 ? std::min(so.solver.max_step, step) : step;
        }
    }
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
    for (const auto& [name, src] :
         {std::pair{"rack_power", m.sums().rack_grid},
          {"rack_heat_air", m.sums().rack_heat_air},
          {"cdu_pump_power", m.sums().cdu_pump_power},
          {"cdu_pump_heat", m.sums().cdu_pump_heat},
          {"plant_power", m.sums().plant_power},
          {"rear_door_heat_to_water", m.plantTotal("extra_heat_taken")}}) {
        u[final_site.inputIndex(name)] = at(m, y, src);
    }
    u[final_site.inputIndex("dry_bulb")] = z.design_weather.dry_bulb;
    d.chain_at_design = final_site.chainAt(u);
    d.facility_power = d.chain_at_design.facility_power;
    d.utility_loads.ups_input = d.chain_at_design.element("ups").input_power;
    d.utility_loads.fws_pumps = at(m, y, m.plantTotal("fws_pump_power"));
    d.utility_loads.fans = at(m, y, m.plantTotal("fan_power"));
    d.utility_loads.chillers = at(m, y, m.plantTotal("chiller_power"));
    d.utility_loads.trim_chillers =
        std::any_of(z.halls.begin(), z.halls.end(),
                    [](const HallSizing& h) { return h.plant.chiller.has_value(); });
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
    d.heat_rejected = at(m, y, m.plantTotal("heat_rejected"));
    d.halls.resize(m.halls().size());
    for (std::size_t h = 0; h < m.halls().size(); ++h) {
        const HallSlot& hs = m.halls()[h];
        DesignPoint::Hall& dh = d.halls[h];
        const ComponentHandle& p = hs.plant;
        dh.heat_rejected = at(m, y, p.out("heat_rejected"));
        dh.setpoint_unmet = at(m, y, p.out("setpoint_unmet"));
        dh.fws_supply = at(m, y, hs.pipe_supply.out("outlet_temp"));
        dh.water_rate = at(m, y, p.out("evaporation_rate")) + at(m, y, p.out("drift_rate")) +
                        at(m, y, p.out("blowdown_rate")) + at(m, y, p.out("spray_rate"));
        dh.cooling_power = at(m, y, p.out("fan_power")) + at(m, y, p.out("chiller_power")) +
                           at(m, y, p.out("fws_pump_power"));
        for (std::size_t i = hs.first_cdu; i < hs.first_cdu + hs.cdu_count; ++i) {
            const CduSlot& cs = m.cdus()[i];
            dh.cooling_power += cs.multiplicity * at(m, y, cs.cdu.out("pump_power"));
            dh.tcs_supply = std::max(dh.tcs_supply, at(m, y, cs.cdu.out("secondary_supply_temp")));
        }
        d.setpoint_unmet = std::max(d.setpoint_unmet, dh.setpoint_unmet);
        d.fws_supply = std::max(d.fws_supply, dh.fws_supply);
    }
    for (const auto& r : m.racks()) {
        DesignPoint::Hall& dh = d.halls[m.cdus()[r.group].hall];
        dh.max_junction = std::max(dh.max_junction, at(m, y, r.loop.out("junction_temp")));
        dh.it_power += r.weight / r.count * at(m, y, r.power.out("it_power"));
    }
    d.steady_drift = st.drift;
    const double air_load = u[final_site.inputIndex("rack_heat_air")] + z.fabricPower() +
                            sc.site.other_power + d.chain_at_design.hall_heat +
                            d.chain_at_design.electrical_room_heat;
    // Rear doors take the racks' air heat to the water: the CRAH units take the rest.
    const double crah_load = sc.cooling.air_side.kind == thermal::AirSideKind::RearDoor
                                 ? air_load - u[final_site.inputIndex("rack_heat_air")]
                                 : air_load;
    d.crah_units = countCrahs(sc, z, crah_load).count;  // N+1 on the grown load
    // The study runs the chillers the cooling table installs (all of them available).
    d.air_chiller_units = countAirChillers(sc, z, crah_load, static_cast<int>(d.crah_units)).count;
    d.cooling = coolingTable(sc, z, m, y, crah_load);
    d.water = waterTable(m, y, d.water_rate);
    // What the events ask of the sized site, here so that `size` refuses what `run` would
    // (it printed the sizing of 8 generator sets failing of 7).
    checkEventsAgainstSizing(sc, d.electrical);
    return d;
}

namespace {
/// A total by name from a (name, total) list.
std::optional<double> findMeter(const std::vector<std::pair<std::string, double>>& list,
                                std::string_view name) {
    for (const auto& [n, v] : list) {
        if (n == name) return v;
    }
    return std::nullopt;
}
}  // namespace

double StudyResults::meter(std::string_view name) const {
    if (const auto v = findMeter(meters, name)) return *v;
    throw ModelError(fmt::format("no meter '{}'", name));
}

double StudyResults::hallMeter(std::size_t hall, std::string_view name) const {
    if (hall < hall_meters.size()) {
        if (const auto v = findMeter(hall_meters[hall], name)) return *v;
    }
    throw ModelError(fmt::format("no meter '{}' of hall {}", name, hall));
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
double crossing(const ResultSet& rs, std::span<const double> v, double t0, double level,
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

/// A contingency's log: time [s], what happened, and where it is from ("event", "plan" or
/// "simulated").
using EventLog = std::vector<std::tuple<double, std::string, std::string>>;

/// The utility loss's part of the log: the switches the simulation decided (battery empty, IT
/// dropped and back, the battery's minimum) beside the plan's events (generator blocks, loads
/// back); and the figures the summary reports (seconds after the loss) on its event.
void utilityLossLog(const ScenarioSpec& sc, const UtilityLossPlan& plan, StudyResults& r,
                    EventLog& log) {
    const ResultSet& rs = r.channels;
    const double t0 = plan.options.at;
    const auto& supply = rs.at("power", "ups_supply").values;
    const auto& soe = rs.at("power", "ups_battery_soe").values;
    const auto& it = rs.at("power", "it_power").values;
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
    // Battery minimum and when. A battery that emptied is at 0 from the drop on: its charge
    // then trails off below 1e-5 within the integrator's tolerance, and the lowest of those
    // round-off values came ~350 s after it had emptied ("at its minimum, -0.0 %" at 1,047 s for
    // a battery empty at 697 s); the drop's entry says it. Otherwise the first time at the
    // lowest charge.
    std::size_t imin = 0;
    for (std::size_t i = 0; i < soe.size(); ++i) {
        if (soe[i] < soe[imin]) imin = i;
    }
    double soe_min = soe[imin], t_min = rs.time[imin];
    if (std::isfinite(dropped)) {
        soe_min = 0.0;
        t_min = dropped;
    } else {
        log.emplace_back(t_min, fmt::format("UPS battery at its minimum, {:.1f} %", 100 * soe_min),
                         "simulated");
    }

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
    for (auto& e : r.events) {
        if (e.value("type", "") != "utility_loss") continue;
        auto num = [](double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); };
        e["simulated"] = {{"ups_ride_through_s", num(ride)},
                          {"it_dropped_after_s", num(dropped - t0)},
                          {"it_load_lost_MWh", lost / 3.6e9},
                          {"ups_battery_soe_min", soe_min},
                          {"ups_battery_soe_min_after_s", t_min - t0},
                          {"fans_back_after_s", num(plan.fans_on - t0)}};
    }
}

/// An event as given, one line of the log: its type and what it acted on, as its report entry
/// holds them (applyEvents): "cdu_pump_trip, cdu 0, pumps 2".
std::string eventText(const Json& e) {
    std::string what = e.value("type", std::string("event"));
    for (const auto& [k, v] : e.items()) {
        if (k == "type" || k == "at_s") continue;
        what += fmt::format(", {} {}", k, v.is_string() ? v.get<std::string>() : v.dump());
    }
    return what;
}

/// The contingency's log in time order, the report's table contingency/event_log and the
/// summary's contingency.log: every event as given; what the integrator's step ends found (the
/// first GPU at its throttle temperature, the first rack tripped on GPU temperature: not
/// rounded to the output grid); a utility loss's simulated and planned switches. Before, only a
/// utility loss had a log, and a CDU pump trip's report did not say when its racks went.
void contingencyLog(const ScenarioSpec& sc, const Conditions& c, StudyResults& r) {
    if (sc.events.empty()) return;
    EventLog log;
    for (const Json& e : r.events) {
        if (e.value("type", "") != "utility_loss") {
            log.emplace_back(e.value("at_s", 0.0), eventText(e), "event");
        }
        if (e.contains("standby_takeover_s")) {
            const double t = e.value("at_s", 0.0) + e["standby_takeover_s"].get<double>();
            if (t <= sc.study.duration_s) {
                const std::string hall =
                    e.contains("hall") ? fmt::format(" (hall {})", e.value("hall", "")) : "";
                const std::string what =
                    e.value("type", "") != "outdoor_hx_loss"
                        ? fmt::format("standby CDU takes CDU {}'s racks{}", e["cdu"].dump(), hall)
                    : e.contains("exchangers_running_after_takeover")
                        ? fmt::format("standby plate exchanger valved in: {} in service{}",
                                      e.value("exchangers_running_after_takeover", 0), hall)
                        : fmt::format("no standby plate exchanger left to valve in{}", hall);
                log.emplace_back(t, what, "plan");
            }
        }
    }
    if (r.crossings && std::isfinite(r.crossings->first_throttle)) {
        log.emplace_back(r.crossings->first_throttle, "first GPU at its throttle temperature",
                         "simulated");
    }
    if (r.crossings && std::isfinite(r.crossings->first_trip)) {
        log.emplace_back(r.crossings->first_trip, "first rack tripped on GPU temperature",
                         "simulated");
    }
    if (c.utility) utilityLossLog(sc, *c.utility, r, log);
    std::stable_sort(log.begin(), log.end(),
                     [](const auto& a, const auto& b) { return std::get<0>(a) < std::get<0>(b); });
    std::vector<double> t;
    std::vector<std::string> what, source;
    for (const auto& [tt, w, src] : log) {
        t.push_back(tt);
        what.push_back(w);
        source.push_back(src);
        r.log.push_back({{"t_s", tt}, {"event", w}, {"source", src}});
    }
    r.event_log.path = "contingency/event_log";
    r.event_log.addNumbers("t_s", "s", t);
    r.event_log.addText("event", what);
    r.event_log.addText("source", source);
}

}  // namespace

PreparedStudy prepareStudy(const ScenarioSpec& sc, const SiteSizing& z, const DesignPoint& d) {
    const Conditions init = initialConditions(sc, z, d);
    const SiteModel m0(sc, z, init);
    SteadyState x0 = settle(m0, solverOptions(1e-6));
    PreparedStudy p;
    p.conditions = studyConditions(init, sc.study);
    p.events = applyEvents(sc, z, d, p.conditions);
    p.options = simulationOptions(sc, p.conditions);
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
    RecordedSums sums = recordChannels(m, sc, rec);
    r.compute = std::move(sums.compute);
    r.crossings = std::move(sums.crossings);
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
    if (sc.namedHalls()) {
        for (std::size_t h = 0; h < m.halls().size(); ++h) {
            auto& hm = r.hall_meters.emplace_back();
            for (const auto& n : SiteModel::hallMeterNames()) {
                hm.emplace_back(n, m.hallMeterTotal(xe, h, n));
            }
        }
    }
    r.stored_end = m.storedEnergy(xe);
    r.stats = sim.stats();
    r.linear_solver = sim.linearSolverName();
    r.state_count = m.system().stateCount();
    r.channels = std::move(rec.results());
    contingencyLog(sc, p.conditions, r);
    return r;
}

void buildModels(const ScenarioSpec& sc, const SiteSizing& z) {
    const power::SizingInput& in = z.electrical;
    const power::SizingResult electrical = power::sizeElectrical(in, *sc.catalog);
    checkEventsAgainstSizing(sc, electrical);
    Conditions c = designConditions(z, power::chainDesignFromSizing(electrical, in, *sc.catalog));
    const SiteModel steady(sc, z, c);
    c.steady = false;
    c.resolution = resolutionOf(sc.study);
    c.weather_offset = sc.study.start_s;
    const SiteModel study(sc, z, c);
}

}  // namespace dctwin::facility
