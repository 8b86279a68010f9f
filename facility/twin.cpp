// Studies of the facility twin: design point (sizing), annual, transient and contingency runs,
// their metrics, sizing tables and the report (DESIGN.md §3.5, §5.2, §5.3).
#include "facility/twin.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <limits>

#include "core/errors.h"
#include "core/simulator.h"
#include "core/units.h"
#include "dctwin/version.h"
#include "facility/model.h"
#include "facility/site.h"
#include "power/chain.h"
#include "power/rack.h"
#include "power/sizing.h"
#include "thermal/cdu.h"
#include "thermal/rack_loop.h"

namespace dctwin::facility {
namespace {

using Clock = std::chrono::steady_clock;
using units::kelvinToCelsius;

constexpr double kSteadyHorizon = 8.0 * 3600.0;  // [s] long enough for every loop to settle

struct SteadyState {
    std::vector<double> x;
    std::vector<double> y;  // all outputs at x
    double drift = 0.0;     // [K] largest temperature change over the last hour
};

/// Integrates the model with a constant boundary until it settles.
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

double out(const SiteModel& m, std::span<const double> y, std::size_t component,
           std::string_view port) {
    return y[m.system().outputIndex(
        fmt::format("{}.{}", m.system().component(component).name(), port))];
}

struct Design {
    power::SizingResult electrical;
    power::ChainDesign chain;
    power::ChainResult chain_at_design;
    Table cooling, water;
    std::vector<Metric> metrics;
    int battery_blocks = 1;
    double it_power = 0, cooling_power = 0, facility_power = 0;  // [W] at design
};

SolverOptions solverOptions(double rel_tol) {
    SolverOptions o;
    o.rel_tol = rel_tol;
    o.abs_tol_factor = 1e-6;
    return o;
}

/// Design point: steady state at full utilization and the 0.4 % design weather; the chain is
/// sized twice (first with an estimated cooling power, then with the one the plant draws).
Design designPoint(const Site& s) {
    Design d;
    power::SizingInput in = s.sizing_input;
    const power::SizingResult provisional = power::sizeElectrical(in, s.catalog);
    Conditions c;
    c.steady = true;
    c.utilization.assign(s.kinds.size(), 1.0);
    c.air = s.design_weather;
    c.chain = power::chainDesignFromSizing(provisional, in, s.catalog);
    c.horizon = kSteadyHorizon;
    const SiteModel m(s, c);
    const SteadyState st = settle(m, solverOptions(1e-6));
    const auto& y = st.y;
    const std::size_t sp = m.sitePower();
    d.it_power = out(m, y, sp, "it_power");
    d.cooling_power = out(m, y, sp, "cooling_power");

    in.cooling_power = d.cooling_power;
    d.electrical = power::sizeElectrical(in, s.catalog);
    d.chain = power::chainDesignFromSizing(d.electrical, in, s.catalog);
    // The chain at the design operating point with the final equipment.
    SitePowerDesign spd = static_cast<const SitePower&>(m.system().component(sp)).design();
    spd.chain = d.chain;
    const SitePower final_site("site_final", spd);
    // The site component's inputs at the steady state, from the outputs that feed them.
    std::vector<double> u(6);
    u[SitePower::kRackPower] = y[m.system().outputIndex("rack_power.value")];
    u[SitePower::kRackHeatAir] = y[m.system().outputIndex("rack_heat_air.value")];
    u[SitePower::kCduPumpPower] = y[m.system().outputIndex("cdu_pump_power.value")];
    u[SitePower::kCduPumpHeat] = y[m.system().outputIndex("cdu_pump_heat.value")];
    u[SitePower::kPlantPower] = y[m.system().outputIndex("plant_power.value")];
    u[SitePower::kDryBulb] = s.design_weather.dry_bulb;
    d.chain_at_design = final_site.chainAt(u);
    d.facility_power = d.chain_at_design.facility_power;
    for (const auto& r : d.electrical.rows) {
        if (r.element == "bess") d.battery_blocks = std::max(1, r.count);
    }

    // Cooling table.
    const thermal::CduModel cdu(s.cdu);
    double cdu_heat = 0, rack_flow_min = std::numeric_limits<double>::infinity();
    double tcs_supply = 0, max_die = 0, pump_flow_actual = 0;
    for (const auto& cs : m.cdus()) {
        pump_flow_actual = std::max(pump_flow_actual,
                                    out(m, y, cs.cdu, "secondary_flow") / s.cdu.pumps_duty);
        cdu_heat = std::max(cdu_heat, out(m, y, cs.cdu, "heat_transferred"));
        rack_flow_min = std::min(rack_flow_min, out(m, y, cs.cdu, "flow_per_rack"));
        tcs_supply = std::max(tcs_supply, out(m, y, cs.cdu, "secondary_supply_temp"));
    }
    double throttle_margin = std::numeric_limits<double>::infinity();
    for (const auto& r : m.racks()) {
        const double die = out(m, y, r.loop, "die_temp");
        max_die = std::max(max_die, die);
        throttle_margin = std::min(
            throttle_margin, s.rack_specs[s.kinds[r.kind].spec].throttle_temp - die);
    }
    const double plant_heat = out(m, y, m.plant(), "heat_rejected");
    const double unit_capacity = s.plant.kind == PrimaryKind::CoolingTower
                                     ? s.plant.tower.capacity
                                     : s.plant.dry_cooler.capacity;
    const double air_load = u[SitePower::kRackHeatAir] + s.fabricPower() + s.other_power +
                            d.chain_at_design.hall_heat + d.chain_at_design.electrical_room_heat;
    const int crah_units = static_cast<int>(std::ceil(air_load / s.crah.capacity)) + 1;
    const double pump_flow = s.cdu.secondary_flow / s.cdu.pumps_duty;
    const double rack_flow_design = s.rack_loops.front().flow_design;
    Table& ct = d.cooling;
    ct.path = "sizing/cooling";
    std::vector<std::string> element = {"cdu", "cdu_pump", "rack_loop_flow", "heat_rejection",
                                        "fws_pumps", "air_side_crah"};
    std::vector<std::string> model = {
        s.cdu.name, s.cdu.name + " pump", "rack loop",
        s.plant.kind == PrimaryKind::CoolingTower ? s.plant.tower.name : s.plant.dry_cooler.name,
        "facility water pumps", s.crah.name};
    std::vector<double> rating = {s.cdu.capacity, pump_flow, rack_flow_design, unit_capacity,
                                  s.design_fws_flow, s.crah.capacity};
    std::vector<std::string> unit = {"W", "m3/s", "m3/s", "W", "m3/s", "W"};
    std::vector<double> count = {
        static_cast<double>(s.cdus + s.cdu_spares),
        static_cast<double>(s.cdu.pumps_installed * (s.cdus + s.cdu_spares)),
        static_cast<double>(s.racks), static_cast<double>(s.plant.units), 1.0,
        static_cast<double>(crah_units)};
    std::vector<std::string> redundancy = {
        s.cdu_spares == 0 ? "N" : s.cdu_spares == 1 ? "N+1" : "2N",
        fmt::format("{}+{}", s.cdu.pumps_duty, s.cdu.pumps_installed - s.cdu.pumps_duty), "-",
        fmt::format("N+{}", s.plant_spare_units), "N", "N+1"};
    const double fws_flow = y[m.system().outputIndex("fws_mix.flow")];
    std::vector<double> load = {cdu_heat,   pump_flow_actual, rack_flow_min,
                                plant_heat, fws_flow,         air_load};
    std::vector<double> loading = {100.0 * cdu_heat / s.cdu.capacity,
                                   100.0 * pump_flow_actual / pump_flow,
                                   100.0 * rack_flow_min / rack_flow_design,
                                   100.0 * plant_heat / (unit_capacity * s.plant.units),
                                   100.0 * fws_flow / s.design_fws_flow,
                                   100.0 * air_load / (s.crah.capacity * (crah_units - 1))};
    if (s.plant.chiller) {
        const double ch = out(m, y, m.plant(), "chiller_cooling");
        element.push_back("trim_chiller");
        model.push_back(s.plant.chiller->name);
        rating.push_back(s.plant.chiller->capacity);
        unit.push_back("W");
        count.push_back(s.plant.chiller_units);
        redundancy.push_back("N");
        load.push_back(ch);
        loading.push_back(100.0 * ch / (s.plant.chiller->capacity * s.plant.chiller_units));
    }
    ct.addText("element", element);
    ct.addText("model", model);
    ct.addNumbers("rating", "", rating);
    ct.addText("unit", unit);
    ct.addNumbers("count", "1", count);
    ct.addText("redundancy", redundancy);
    ct.addNumbers("design_load", "", load);
    ct.addNumbers("peak_loading_pct", "%", loading);

    // Water table at design (per hour and a design day of 24 design hours).
    const double evap = out(m, y, m.plant(), "evaporation_rate");
    const double drift = out(m, y, m.plant(), "drift_rate");
    const double blow = out(m, y, m.plant(), "blowdown_rate");
    const double spray = out(m, y, m.plant(), "spray_rate");
    Table& wt = d.water;
    wt.path = "sizing/water";
    wt.addText("element", {"evaporation", "drift", "blowdown", "adiabatic_spray", "makeup"});
    const std::vector<double> rates = {evap, drift, blow, spray, evap + drift + blow + spray};
    std::vector<double> hour, day;
    for (double r : rates) {
        hour.push_back(r * 3600.0);
        day.push_back(r * 86400.0);
    }
    wt.addNumbers("design_hour", "m3", hour);
    wt.addNumbers("design_day", "m3", day);

    d.metrics = {
        {"design_it_power", d.it_power, "W"},
        {"design_cooling_power", d.cooling_power, "W"},
        {"design_facility_power", d.facility_power, "W"},
        {"design_pue", d.facility_power / d.it_power, "1"},
        {"design_dry_bulb", s.design_weather.dry_bulb, "K"},
        {"design_wet_bulb", s.design_weather.wet_bulb, "K"},
        {"design_tcs_supply_temp", tcs_supply, "K"},
        {"design_fws_supply_temp", out(m, y, m.supplyPipe(), "outlet_temp"), "K"},
        {"design_max_gpu_temp", max_die, "K"},
        {"design_throttle_margin", throttle_margin, "K"},
        {"design_setpoint_unmet", out(m, y, m.plant(), "setpoint_unmet"), "K"},
        {"design_heat_rejected", plant_heat, "W"},
        {"design_water_rate", rates.back(), "m3/s"},
        {"design_steady_drift", st.drift, "K"},
        {"fabric_power", s.fabricPower(), "W"},
        {"fabric_switches", static_cast<double>(s.fabric.switches), "1"},
    };
    return d;
}

Json tableJson(const Table& t) {
    Json rows = Json::array();
    for (std::size_t r = 0; r < t.rows(); ++r) {
        Json row = Json::object();
        for (const auto& c : t.columns) {
            const bool bare = c.unit.empty() || c.unit == "1" || c.unit == "%" ||
                              c.name.ends_with("_" + c.unit);
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

std::string isoNow() {
    std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

std::string studyStartIso(const StudySpec& st) {
    const int sec = static_cast<int>(std::lround(st.start_s));
    return fmt::format("2026-{:02d}-{:02d}T{:02d}:{:02d}:00", st.start_month, st.start_day,
                       (sec / 3600) % 24, (sec / 60) % 60);
}

void fillReportHeader(Report& r, const Scenario& sc, const Site& s) {
    r.attributes["generator"] = "dctwin";
    r.attributes["version"] = kVersion;
    r.attributes["git_commit"] = kGitCommit;
    r.attributes["created_utc"] = isoNow();
    r.attributes["scenario_name"] = sc.name;
    r.attributes["study"] = sc.study.kind;
    r.attributes["weather_file"] = s.weather_file.filename().string();
    r.texts["scenario/input"] = sc.input_text.empty() ? sc.input.dump(2) : sc.input_text;
    r.texts["scenario/resolved"] = s.resolved.dump(2);
}

Json baseSummary(const Scenario& sc, const Design& d) {
    Json j;
    j["scenario"] = sc.name;
    j["study"] = sc.study.kind;
    j["sizing"] = {{"power", tableJson(d.electrical.toTable())},
                   {"cooling", tableJson(d.cooling)},
                   {"water", tableJson(d.water)}};
    Json design;
    for (const auto& m : d.metrics) {
        design[m.unit == "K" && m.name.find("temp") != std::string::npos
                   ? m.name + "_C"
                   : m.name] =
            m.unit == "K" && m.name.find("temp") != std::string::npos ? kelvinToCelsius(m.value)
                                                                      : m.value;
    }
    j["design_point"] = design;
    return j;
}

/// Event schedules for the study model; the utility-loss analysis decides when fans return.
Json applyEvents(const Scenario& sc, const Site& s, const Design& d, Conditions& c) {
    Json report = Json::array();
    int units = s.plant.units;
    for (const auto& ev : sc.events) {
        const JsonView e(ev.params, ev.path);
        Json r = {{"type", ev.type}, {"at_s", ev.at_s}};
        if (ev.type == "cdu_pump_trip") {
            const int cdu = static_cast<int>(e.integer("cdu", 0));
            const int pumps = static_cast<int>(e.integer("pumps", 1));
            c.pumps_failed[cdu].emplace_back(ev.at_s, pumps);
            r["cdu"] = cdu;
            r["pumps"] = pumps;
        } else if (ev.type == "heat_rejection_unit_loss") {
            units -= static_cast<int>(e.integer("units", 1));
            c.units_available.emplace_back(ev.at_s, units);
            r["units_remaining"] = units;
        } else if (ev.type == "chiller_trip") {
            if (!s.plant.chiller) {
                e.fail("type", "chiller_trip needs a trim chiller in "
                               "/cooling/heat_rejection/trim_chiller");
            }
            c.chiller_available.emplace_back(ev.at_s, 0.0);
        } else {  // utility_loss
            power::UtilityLossSpec u;
            u.critical_load = d.it_power;
            u.mechanical_load = d.cooling_power;
            u.ups = d.chain.ups;
            u.ups_units = d.chain.ups_units;
            const auto& gen = d.electrical.row("generator");
            u.generator = s.catalog.generator(gen.model);
            u.generators = gen.count;
            u.duration = std::max(120.0, sc.study.duration_s - ev.at_s);
            const power::UtilityLossResult res = power::analyzeUtilityLoss(u);
            double fans_back = res.transfer_complete;
            for (const auto& st : res.steps) {
                if (st.what.find("mechanical") != std::string::npos) {
                    fans_back = st.time;
                    break;
                }
            }
            c.fans_available.emplace_back(ev.at_s, 0.0);
            c.fans_available.emplace_back(ev.at_s + fans_back, 1.0);
            Json steps = Json::array();
            for (const auto& st : res.steps) {
                steps.push_back({{"t_s", st.time},
                                 {"what", st.what},
                                 {"step_kW", st.step / 1e3},
                                 {"limit_kW", st.limit / 1e3},
                                 {"overload", st.overload}});
            }
            r["generator_online_s"] = res.generator_online;
            r["transfer_complete_s"] = res.transfer_complete;
            r["fans_restart_s"] = fans_back;
            r["ride_through_ok"] = res.ride_through_ok;
            r["battery_soe_min"] = res.battery_soe_min;
            r["overload"] = res.overload;
            r["generators"] = gen.count;
            r["load_steps"] = steps;
        }
        report.push_back(r);
    }
    return report;
}

RunOutcome runStudy(const Scenario& sc, const Site& s, const Design& d, const RunControl& ctl,
                    const Clock::time_point t0) {
    RunOutcome r;
    const StudySpec& st = sc.study;
    const power::Resolution res = st.workload_resolution == "resolved"
                                      ? power::Resolution::Resolved
                                      : power::Resolution::Averaged;
    // Initial state: the steady state at the study's first instant.
    Conditions init;
    init.steady = true;
    for (const auto& k : s.kinds) {
        init.utilization.push_back(
            s.workload->utilization(k.representative, 0.0, power::Resolution::Averaged));
    }
    init.air = s.weather->at(st.start_s);
    init.resolution = res;
    // Resolved transients take sub-second steps through the smoothing controller's corners:
    // there the meters run as quadratures (out of the Jacobian) and KLU with a coloured
    // Jacobian needs ~10 evaluations per Jacobian instead of one per state (measured 2.8x
    // faster on the 1 h transient, energy balance 2e-7). Annual steps are hours long, where a
    // quadrature's loose Newton update cost 1e-3 of the energy balance: meters stay exact.
    init.quadrature_meters = res == power::Resolution::Resolved;
    init.chain = d.chain;
    init.battery_blocks = d.battery_blocks;
    init.horizon = st.duration_s;
    const SiteModel m0(s, init);
    SteadyState x0 = settle(m0, solverOptions(1e-6));

    Conditions c;
    c.resolution = res;
    // Averaged workload: a moving average over the output interval (at least a minute, at
    // most an hour), which keeps the energy of job starts and checkpoints without jumps.
    c.workload_window = std::clamp(st.output_interval_s, 60.0, 3600.0);
    c.weather_offset = st.start_s;
    c.stop_at_weather_hours = false;
    c.chain = d.chain;
    c.battery_blocks = d.battery_blocks;
    c.horizon = st.duration_s;
    c.quadrature_meters = init.quadrature_meters;
    const Json events = applyEvents(sc, s, d, c);
    const SiteModel m(s, c);
    if (m.system().stateCount() != m0.system().stateCount()) {
        throw ModelError("internal: steady and study models differ in their states");
    }
    m.resetMeters(x0.x);
    const double U0 = m.storedEnergy(x0.x);

    // Channels (names are the report contract the GUI reads).
    const System& sys = m.system();
    Recorder rec(sys);
    auto outIdx = [&](std::size_t comp, std::string_view p) {
        return sys.outputIndex(fmt::format("{}.{}", sys.component(comp).name(), p));
    };
    rec.addOutput("site.it_power", "power", "it_power", "racks (grid side) + fabric");
    rec.addOutput("site.facility_power", "power", "facility_power", "drawn from the utility");
    rec.addOutput("site.cooling_power", "power", "cooling_power",
                  "CDU and FWS pumps, heat rejection, air side");
    rec.addOutput("site.losses", "power", "electrical_losses", "electrical chain losses");
    rec.addOutput("rack_demand.value", "power", "rack_demand", "rack power before smoothing");
    if (m.battery()) {
        rec.addOutput("bess.grid_power", "power", "grid_power", "utility draw after the BESS");
        rec.addOutput("bess.soc", "power", "bess_soc", "site battery state of charge");
    } else {
        rec.addOutput("site.facility_power", "power", "grid_power", "utility draw");
    }
    rec.addOutput("site.ups_loading", "power", "ups_loading", "per UPS unit");
    rec.addOutput("site.transformer_loading", "power", "transformer_loading", "per transformer");
    rec.addOutput("site.busway_loading", "power", "busway_loading", "per busway");
    rec.addOutput("burn_power.value", "power", "burn_power", "power burnt by the GPU floor");
    // Flow-weighted temperatures over CDU groups.
    auto weighted = [&](std::string port) {
        std::vector<std::pair<std::size_t, double>> terms;
        for (const auto& cs : m.cdus()) terms.emplace_back(outIdx(cs.cdu, port), cs.multiplicity);
        return terms;
    };
    const auto sup = weighted("secondary_supply_temp");
    std::vector<std::pair<std::size_t, double>> ret;
    for (const auto& cs : m.cdus()) ret.emplace_back(outIdx(cs.mixer, "temp"), cs.multiplicity);
    auto mean = [](std::vector<std::pair<std::size_t, double>> terms) {
        return [terms](double, std::span<const double>, std::span<const double> y) {
            double a = 0, w = 0;
            for (const auto& [i, k] : terms) {
                a += k * y[i];
                w += k;
            }
            return a / w;
        };
    };
    rec.addProbe(mean(sup), "cooling", "tcs_supply_temp", "K", "TCS supply (mean over CDUs)");
    rec.addProbe(mean(ret), "cooling", "tcs_return_temp", "K", "TCS return (mean over CDUs)");
    rec.addOutput("fws_supply.outlet_temp", "cooling", "fws_supply_temp", "facility supply");
    rec.addOutput("fws_return.outlet_temp", "cooling", "fws_return_temp", "facility return");
    std::vector<std::size_t> die;
    std::vector<double> throttle;
    for (const auto& rs : m.racks()) {
        die.push_back(outIdx(rs.loop, "die_temp"));
        throttle.push_back(s.rack_specs[s.kinds[rs.kind].spec].throttle_temp);
    }
    rec.addProbe(
        [die](double, std::span<const double>, std::span<const double> y) {
            double v = 0;
            for (std::size_t i : die) v = std::max(v, y[i]);
            return v;
        },
        "cooling", "max_gpu_temp", "K", "hottest GPU die (all rack groups)");
    rec.addProbe(
        [die, throttle](double, std::span<const double>, std::span<const double> y) {
            double v = std::numeric_limits<double>::infinity();
            for (std::size_t k = 0; k < die.size(); ++k) v = std::min(v, throttle[k] - y[die[k]]);
            return v;
        },
        "cooling", "throttle_margin", "K", "throttle temperature minus die temperature");
    rec.addOutput("heat_to_liquid.value", "cooling", "heat_to_liquid", "racks to coolant");
    rec.addOutput("rack_heat_air.value", "cooling", "heat_to_air", "rack heat to air");
    rec.addOutput("cdu_pump_power.value", "cooling", "cdu_pump_power", "CDU pumps");
    rec.addOutput("plant.fws_pump_power", "cooling", "fws_pump_power", "facility pumps");
    rec.addOutput("plant.fan_power", "cooling", "heat_rejection_fan_power", "plant fans");
    rec.addOutput("plant.chiller_power", "cooling", "chiller_power", "trim chiller");
    rec.addOutput("site.air_side_power", "cooling", "air_side_power", "CRAH plant");
    rec.addOutput("plant.heat_rejected", "cooling", "heat_rejected", "plant, water side");
    rec.addOutput("plant.setpoint_unmet", "cooling", "setpoint_unmet", "facility supply");
    rec.addOutput("fws_mix.flow", "cooling", "fws_flow", "facility water flow");
    const std::vector<std::size_t> water_idx = {outIdx(m.plant(), "evaporation_rate"),
                                                outIdx(m.plant(), "drift_rate"),
                                                outIdx(m.plant(), "blowdown_rate"),
                                                outIdx(m.plant(), "spray_rate")};
    rec.addProbe(
        [water_idx](double, std::span<const double>, std::span<const double> y) {
            double v = 0;
            for (std::size_t i : water_idx) v += y[i];
            return v;
        },
        "water", "water_rate", "m3/s", "make-up and spray water");
    const std::size_t mo = sys.stateOffset(m.meters());
    const auto& mn = SiteModel::meterNames();
    auto meterIdx = [&](std::string_view n) {
        return mo + static_cast<std::size_t>(std::find(mn.begin(), mn.end(), n) - mn.begin());
    };
    const std::vector<std::size_t> wstates = {meterIdx("evaporation"), meterIdx("drift"),
                                              meterIdx("blowdown"), meterIdx("spray")};
    rec.addProbe(
        [wstates](double, std::span<const double> x, std::span<const double>) {
            double v = 0;
            for (std::size_t i : wstates) v += x[i];
            return v;
        },
        "water", "water_total", "m3", "water used since the study start");
    rec.addOutput("plant.evaporation_rate", "water", "evaporation_rate", "");
    rec.addOutput("plant.blowdown_rate", "water", "blowdown_rate", "");
    rec.addOutput("plant.spray_rate", "water", "spray_rate", "");
    rec.addOutput("weather.dry_bulb", "weather", "dry_bulb", "outdoor dry bulb");
    rec.addOutput("weather.wet_bulb", "weather", "wet_bulb", "outdoor wet bulb");
    if (st.per_rack_channels) {
        for (const auto& rs : m.racks()) {
            const std::string g = "rack/" + rs.label;
            rec.addOutput(fmt::format("rl_{}.die_temp", rs.label), g, "die_temp",
                          fmt::format("{} racks", rs.weight));
            rec.addOutput(fmt::format("rp_{}.it_power", rs.label), g, "it_power",
                          "all racks of the slot, per CDU");
            rec.addOutput(fmt::format("rl_{}.outlet_temp", rs.label), g, "outlet_temp", "");
        }
    }
    rec.results().start_iso8601 = studyStartIso(st);

    SimulationOptions so;
    so.t_end = st.duration_s;
    so.output_interval = st.output_interval_s;
    so.solver = solverOptions(st.rel_tol);
    if (c.quadrature_meters) so.solver.linear_solver = LinearSolverKind::Sparse;
    if (st.linear_solver != "auto") {
        so.solver.linear_solver =
            st.linear_solver == "dense" ? LinearSolverKind::Dense : LinearSolverKind::Sparse;
    }
    if (res == power::Resolution::Averaged) so.solver.max_step = 1800.0;
    Simulator sim(sys, so);
    ProgressCallback progress;
    if (ctl.progress) progress = [&](double f, double t) { ctl.progress(f, t); };
    sim.run(rec, progress, ctl.cancel, x0.x);
    const std::vector<double>& xe = sim.finalState();

    // Metrics.
    const ResultSet& rs = rec.results();
    auto channel = [&](const char* g, const char* n) -> const std::vector<double>& {
        return rs.at(g, n).values;
    };
    auto maxOf = [](const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); };
    const double E_fac = m.meterTotal(xe, "facility_energy");
    const double E_it = m.meterTotal(xe, "it_energy");
    const double E_out = m.meterTotal(xe, "heat_out");
    const double U1 = m.storedEnergy(xe);
    const double balance = (E_fac - E_out - (U1 - U0)) / E_fac;
    double water = 0;
    for (const char* w : {"evaporation", "drift", "blowdown", "spray"}) water += m.meterTotal(xe, w);
    const double kWh = units::kWh;
    std::vector<Metric>& mt = r.report.summary;
    mt = {
        {"it_energy", E_it, "J"},
        {"facility_energy", E_fac, "J"},
        {"pue", E_fac / E_it, "1"},
        {"ppue_cooling", (E_it + m.meterTotal(xe, "cooling_energy")) / E_it, "1"},
        {"ppue_power", (E_it + m.meterTotal(xe, "loss_energy")) / E_it, "1"},
        {"water", water, "m3"},
        {"wue", water * 1000.0 / (E_it / kWh), "L/kWh"},
        {"water_evaporation", m.meterTotal(xe, "evaporation"), "m3"},
        {"water_drift", m.meterTotal(xe, "drift"), "m3"},
        {"water_blowdown", m.meterTotal(xe, "blowdown"), "m3"},
        {"water_spray", m.meterTotal(xe, "spray"), "m3"},
        {"peak_it_power", maxOf(channel("power", "it_power")), "W"},
        {"peak_facility_power", maxOf(channel("power", "facility_power")), "W"},
        {"max_gpu_temp", maxOf(channel("cooling", "max_gpu_temp")), "K"},
        {"energy_balance_rel_error", balance, "1"},
        {"cooling_energy", m.meterTotal(xe, "cooling_energy"), "J"},
        {"loss_energy", m.meterTotal(xe, "loss_energy"), "J"},
        {"cdu_pump_energy", m.meterTotal(xe, "cdu_pump_energy"), "J"},
        {"fws_pump_energy", m.meterTotal(xe, "fws_pump_energy"), "J"},
        {"plant_fan_energy", m.meterTotal(xe, "plant_fan_energy"), "J"},
        {"chiller_energy", m.meterTotal(xe, "chiller_energy"), "J"},
        {"air_side_energy", m.meterTotal(xe, "air_side_energy"), "J"},
        {"burn_energy", m.meterTotal(xe, "burn_energy"), "J"},
        {"other_energy", s.other_power * st.duration_s, "J"},
        {"peak_ups_loading", maxOf(channel("power", "ups_loading")), "1"},
        {"peak_transformer_loading", maxOf(channel("power", "transformer_loading")), "1"},
        {"peak_busway_loading", maxOf(channel("power", "busway_loading")), "1"},
    };
    for (const auto& dm : d.metrics) mt.push_back(dm);
    auto swing = [](const std::vector<double>& v, std::size_t from) {
        if (from >= v.size()) return 0.0;
        const auto [lo, hi] = std::minmax_element(v.begin() + from, v.end());
        return *hi - *lo;
    };
    // Skip the first 5 % of a transient: the start-up of the smoothing controller.
    const std::size_t skip = rs.time.size() / 20;
    const double swing_demand = swing(channel("power", "rack_demand"), skip);
    const double swing_grid = swing(channel("power", "it_power"), skip);
    const double swing_utility = swing(channel("power", "grid_power"), skip);
    mt.push_back({"rack_demand_swing", swing_demand, "W"});
    mt.push_back({"it_grid_swing", swing_grid, "W"});
    mt.push_back({"utility_swing", swing_utility, "W"});

    // Peak day of water (calendar days of the study).
    const auto& wtot = channel("water", "water_total");
    double peak_day = 0.0;
    for (std::size_t i = 0, j0 = 0; i < rs.time.size(); ++i) {
        const double day_end = (std::floor((st.start_s + rs.time[j0]) / 86400.0) + 1) * 86400.0;
        if (st.start_s + rs.time[i] >= day_end - 1e-6 || i + 1 == rs.time.size()) {
            peak_day = std::max(peak_day, wtot[i] - wtot[j0]);
            j0 = i;
        }
    }
    mt.push_back({"water_peak_day", peak_day, "m3"});

    // Contingency: seconds from the first event until a GPU reaches its throttle temperature.
    Json contingency;
    if (!sc.events.empty()) {
        double t_first = sc.events.front().at_s;
        for (const auto& e : sc.events) t_first = std::min(t_first, e.at_s);
        const auto& margin = channel("cooling", "throttle_margin");
        double t_throttle = -1.0;
        for (std::size_t i = 1; i < rs.time.size(); ++i) {
            if (rs.time[i] < t_first || margin[i] > 0.0) continue;
            const double a = margin[i - 1], b = margin[i];
            const double f = a > 0.0 && a != b ? a / (a - b) : 0.0;
            t_throttle = rs.time[i - 1] + f * (rs.time[i] - rs.time[i - 1]) - t_first;
            break;
        }
        bool overload = maxOf(channel("power", "ups_loading")) > 1.0 ||
                        maxOf(channel("power", "transformer_loading")) > 1.0;
        for (const auto& e : events) overload = overload || e.value("overload", false);
        contingency = {{"events", events},
                       {"first_throttle_after_s",
                        t_throttle >= 0 ? Json(t_throttle) : Json(nullptr)},
                       {"min_throttle_margin_K",
                        *std::min_element(margin.begin(), margin.end())},
                       {"overload", overload}};
        mt.push_back({"first_throttle_after", t_throttle >= 0 ? t_throttle : NAN, "s"});
    }

    // Water table gains the run's totals and peak day.
    Table water_t = d.water;
    std::vector<double> run_total = {m.meterTotal(xe, "evaporation"), m.meterTotal(xe, "drift"),
                                     m.meterTotal(xe, "blowdown"), m.meterTotal(xe, "spray"),
                                     water};
    water_t.addNumbers("study_total", "m3", run_total);
    std::vector<double> share;
    for (double v : run_total) share.push_back(water > 0 ? v / water * peak_day : 0.0);
    water_t.addNumbers("study_peak_day", "m3", share);

    fillReportHeader(r.report, sc, s);
    r.report.tables = {d.electrical.toTable(), d.cooling, water_t};

    Json j = baseSummary(sc, d);
    j["sizing"]["water"] = tableJson(water_t);
    j["simulated_hours"] = st.duration_s / 3600.0;
    j["it_energy_MWh"] = E_it / units::MWh;
    j["facility_energy_MWh"] = E_fac / units::MWh;
    j["pue"] = E_fac / E_it;
    j["ppue_cooling"] = (E_it + m.meterTotal(xe, "cooling_energy")) / E_it;
    j["ppue_power"] = (E_it + m.meterTotal(xe, "loss_energy")) / E_it;
    j["water_m3"] = water;
    j["wue_L_per_kWh"] = water * 1000.0 / (E_it / kWh);
    j["water_by_kind_m3"] = {{"evaporation", run_total[0]}, {"drift", run_total[1]},
                             {"blowdown", run_total[2]},   {"adiabatic_spray", run_total[3]}};
    j["water_peak_day_m3"] = peak_day;
    j["peak_it_kW"] = maxOf(channel("power", "it_power")) / 1e3;
    j["peak_facility_kW"] = maxOf(channel("power", "facility_power")) / 1e3;
    j["max_gpu_temp_C"] = kelvinToCelsius(maxOf(channel("cooling", "max_gpu_temp")));
    j["energy_balance_rel_error"] = balance;
    j["energy_by_consumer_MWh"] = {
        {"it", E_it / units::MWh},
        {"cdu_pumps", m.meterTotal(xe, "cdu_pump_energy") / units::MWh},
        {"fws_pumps", m.meterTotal(xe, "fws_pump_energy") / units::MWh},
        {"heat_rejection_fans", m.meterTotal(xe, "plant_fan_energy") / units::MWh},
        {"chiller", m.meterTotal(xe, "chiller_energy") / units::MWh},
        {"air_side", m.meterTotal(xe, "air_side_energy") / units::MWh},
        {"electrical_losses", m.meterTotal(xe, "loss_energy") / units::MWh},
        {"other", s.other_power * st.duration_s / units::MWh}};
    j["power_swing_kW"] = {{"rack_demand", swing_demand / 1e3},
                           {"it_grid_side", swing_grid / 1e3},
                           {"utility", swing_utility / 1e3},
                           {"smoothing", s.smoothing},
                           {"bess", s.bess}};
    j["peak_loading_pct"] = {
        {"ups", 100 * maxOf(channel("power", "ups_loading"))},
        {"transformer", 100 * maxOf(channel("power", "transformer_loading"))},
        {"busway", 100 * maxOf(channel("power", "busway_loading"))}};
    if (!contingency.is_null()) j["contingency"] = contingency;
    r.stats = sim.stats();
    r.linear_solver = sim.linearSolverName();
    r.state_count = sys.stateCount();
    r.wall_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    j["solver"] = {{"states", r.state_count},
                   {"linear_solver", r.linear_solver},
                   {"steps", r.stats.steps},
                   {"rhs_evals", r.stats.rhs_evals},
                   {"factorizations", r.stats.factorizations},
                   {"reinits", r.stats.reinits},
                   {"error_test_failures", r.stats.error_test_failures},
                   {"convergence_failures", r.stats.convergence_failures},
                   {"wall_s", r.wall_seconds}};
    r.summary = std::move(j);
    r.report.timeseries = std::move(rec.results());
    return r;
}

}  // namespace

RunOutcome sizeScenario(const Scenario& scenario) {
    const auto t0 = Clock::now();
    const auto site = readSite(scenario);
    const Design d = designPoint(*site);
    RunOutcome r;
    fillReportHeader(r.report, scenario, *site);
    r.report.summary = d.metrics;
    r.report.tables = {d.electrical.toTable(), d.cooling, d.water};
    r.summary = baseSummary(scenario, d);
    r.summary["pue"] = d.facility_power / d.it_power;
    r.summary["peak_it_kW"] = d.it_power / 1e3;
    r.summary["peak_facility_kW"] = d.facility_power / 1e3;
    r.summary["max_gpu_temp_C"] = r.summary["design_point"]["design_max_gpu_temp_C"];
    r.wall_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    r.summary["wall_s"] = r.wall_seconds;
    return r;
}

RunOutcome runScenario(const Scenario& scenario, const RunControl& control) {
    if (scenario.study.kind == "design_point") return sizeScenario(scenario);
    const auto t0 = Clock::now();
    const auto site = readSite(scenario);
    const Design d = designPoint(*site);
    return runStudy(scenario, *site, d, control, t0);
}

void validateModel(const Scenario& scenario) {
    const auto site = readSite(scenario);
    Conditions c;
    c.steady = true;
    c.utilization.assign(site->kinds.size(), 1.0);
    c.air = site->design_weather;
    c.chain = power::chainDesignFromSizing(power::sizeElectrical(site->sizing_input, site->catalog),
                                           site->sizing_input, site->catalog);
    const SiteModel steady(*site, c);
    c.steady = false;
    c.resolution = scenario.study.workload_resolution == "resolved" ? power::Resolution::Resolved
                                                                    : power::Resolution::Averaged;
    c.weather_offset = scenario.study.start_s;
    const SiteModel study(*site, c);
}

}  // namespace dctwin::facility
