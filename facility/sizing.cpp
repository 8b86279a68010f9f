// Sizing from specs: the steps below follow the order an engineer sizes a hall in — what the
// racks are, how they share CDUs, what the facility loop carries, how many heat-rejection
// units meet the design day.
#include "facility/sizing.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

#include "core/errors.h"
#include "core/units.h"
#include "core/weather/psychrometrics.h"
#include "power/rack.h"
#include "thermal/coolant.h"
#include "thermal/hydraulics.h"
#include "thermal/rack_loop.h"

namespace dctwin::facility {
namespace {

void mapRacks(const ScenarioSpec& sc, SiteSizing& z) {
    for (std::size_t e = 0; e < sc.it.racks.size(); ++e) {
        for (int i = 0; i < sc.it.racks[e].count; ++i) z.entry_of.push_back(e);
        z.gpus += sc.it.racks[e].count * sc.it.racks[e].rack.gpus;
    }
    z.racks = static_cast<int>(z.entry_of.size());
    if (sc.it.fabric) {
        try {
            z.fabric = power::sizeFabric(sc.it.fabric_options, *sc.catalog);
        } catch (const InputError& e) {
            throw InputError(fmt::format("/it/fabric: {}", e.what()));
        }
    }
}

/// Rack kinds: identical hardware and workload lumped into one, or one kind per rack.
void groupRackKinds(const ScenarioSpec& sc, SiteSizing& z) {
    const power::Workload& workload = *sc.workload;
    z.workload_groups = workload.rackGroups();
    std::vector<int> group_of(z.racks, -1);
    for (std::size_t g = 0; g < z.workload_groups.size(); ++g) {
        for (int r : z.workload_groups[g].racks) group_of[r] = static_cast<int>(g);
    }
    const bool lump = sc.it.lump_identical_racks;
    std::map<std::pair<std::size_t, int>, std::size_t> index;
    z.kind_of.assign(z.racks, 0);
    for (int r = 0; r < z.racks; ++r) {
        const auto key = lump ? std::make_pair(z.entry_of[r], group_of[r])
                              : std::make_pair(static_cast<std::size_t>(r), -2);
        auto [it, fresh] = index.try_emplace(key, z.kinds.size());
        if (fresh) {
            RackKind k;
            k.entry = z.entry_of[r];
            k.workload_group = group_of[r];
            k.representative = r;
            std::string jobs;
            if (group_of[r] >= 0) {
                for (std::size_t j : z.workload_groups[group_of[r]].jobs) {
                    jobs += (jobs.empty() ? "" : "+") + workload.jobs()[j]->name;
                }
            }
            k.label = lump ? fmt::format("k{}_{}", z.kinds.size(), jobs.empty() ? "idle" : jobs)
                           : fmt::format("r{:04d}", r);
            for (char& c : k.label) {
                if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
            }
            z.kinds.push_back(k);
        }
        z.kind_of[r] = it->second;
    }
}

/// The steady operating point of one rack of `e` at full utilization: its die temperature and
/// heat to liquid (see sizing.h). Issue 15: the CDU check used the heat at the reference die
/// temperature (65 °C), while the racks run near 78 °C, where leakage adds ~4 %: 11 racks per
/// CDU passed the check and then ran at 101.6 % of the CDU's capacity.
std::pair<double, double> operatingRack(const CoolingSpec& c, const RackEntry& e) {
    const thermal::Coolant coolant = thermal::Coolant::byName(c.coolant);
    thermal::RackLoopParams lp = e.loop;
    lp.count = 1.0;
    lp.film_temp = c.tcs_supply_setpoint + 0.5 * c.cdu.delta_t_setpoint;  // as the site model
    const thermal::RackLoop loop("sizing_rack", coolant, lp);
    const power::RackPowerModel rpm(e.rack);
    // The CDU pumps hold the TCS rise at delta_t_setpoint when they run on it or reset their
    // pressure on it (thermal/cdu.h); otherwise the rack draws its loop's design flow.
    const bool on_rise =
        c.cdu.control_variable == "delta_t" ||
        (c.cdu.control_variable == "differential_pressure" && c.cdu.dp_reset != "none");
    double Tj = e.rack.die_ref_temp, Q = 0.0;
    for (int it = 0; it < 100; ++it) {
        const power::RackPowerResult r = rpm.evaluate(1.0, Tj);
        Q = r.heat_to_liquid;
        double flow = lp.flow_design, T_out = 0.0;
        if (on_rise) {
            const double T_mean = c.tcs_supply_setpoint + 0.5 * c.cdu.delta_t_setpoint;
            const double mdot = Q / (coolant.specificHeat(T_mean) * c.cdu.delta_t_setpoint);
            flow = mdot / coolant.density(T_mean);
            T_out = c.tcs_supply_setpoint + c.cdu.delta_t_setpoint;
        } else {
            const double mdot = flow * coolant.density(c.tcs_supply_setpoint);
            T_out = coolant.heatedTemperature(c.tcs_supply_setpoint, mdot, Q);
        }
        const double q_gpu = e.rack.gpu_liquid_fraction * r.gpu_power / e.rack.gpus;
        const double next = T_out + Q * loop.resistance(flow) + q_gpu * lp.R_junction;
        const bool done = std::abs(next - Tj) < 1e-6;
        Tj = next;
        if (done) break;
    }
    return {Tj, rpm.evaluate(1.0, Tj).heat_to_liquid};
}

void sizeCdus(const ScenarioSpec& sc, const HallSpec& hs, const SiteSizing& site, HallSizing& z) {
    const CoolingSpec& c = hs.cooling;
    const double g = site.growth_margin;
    // Design rack heat (full utilization, operating die temperature) of the racks each CDU
    // actually serves (racks in /it/racks order, racks_per_cdu to a CDU, as groupCdus and the
    // site model map them), plus the pumps' heat, against the CDU's capacity. Issue 15: the
    // hall's mean rack was checked, so a CDU of Vera Rubin racks in a mixed hall passed at
    // 107 % of its capacity.
    std::vector<double>& heat = z.rack_heat_liquid;
    for (const RackEntry& e : sc.it.racks) {
        const auto [Tj, q] = operatingRack(c, e);
        z.rack_die_temp.push_back(Tj);
        heat.push_back(q);
    }
    // The pumps' work at rated speed and design flow goes into the coolant the CDU cools (an
    // upper bound: under control they run slower).
    const thermal::CduModel model(c.cdu, c.coolant, c.facility_loop.coolant);
    z.cdu_pump_heat = model.design().pump_power * c.cdu.pump_efficiency;
    // Campus rack index of the hall's i-th rack.
    auto entry = [&](int i) { return site.entry_of[static_cast<std::size_t>(hs.first_rack + i)]; };
    for (int r = 0; r < z.racks; ++r) z.design_heat_liquid += heat[entry(r)];
    // The heaviest CDU's duty with n racks to a CDU, its index and racks, at growth f.
    struct Worst {
        double q = 0;
        int cdu = 0, racks = 0;
    };
    auto worstCdu = [&](int n, double f) {
        Worst w;
        for (int first = 0; first < z.racks; first += n) {
            double q = 0;
            const int last = std::min(z.racks, first + n);
            for (int r = first; r < last; ++r) q += heat[entry(r)];
            q = f * q + z.cdu_pump_heat;
            if (q > w.q) w = {q, first / n, last - first};
        }
        return w;
    };
    auto fits = [&](int n, double f) { return worstCdu(n, f).q <= c.cdu.capacity * 1.0001; };
    const int per_cdu = c.racks_per_cdu;
    if (!fits(per_cdu, 1.0)) {
        const Worst w = worstCdu(per_cdu, 1.0);
        int fit = 0;  // the most racks per CDU that fit today's load
        while (fit < per_cdu && fits(fit + 1, 1.0)) ++fit;
        throw InputError(fmt::format(
            "{}/racks_per_cdu: {} racks per CDU: the {:.0f} kW of CDU {} ({} racks, mean "
            "{:.1f} kW each to liquid at their {:.1f} °C operating die temperature, plus "
            "{:.1f} kW of pump heat) exceeds the capacity of '{}' ({:.0f} kW); use at most {} "
            "racks per CDU or a larger CDU",
            c.cdu_where, per_cdu, w.q / 1e3, w.cdu, w.racks,
            (w.q - z.cdu_pump_heat) / w.racks / 1e3,
            units::kelvinToCelsius(
                *std::max_element(z.rack_die_temp.begin(), z.rack_die_temp.end())),
            z.cdu_pump_heat / 1e3, c.cdu.name, c.cdu.capacity / 1e3, fit));
    }
    // Growth: fewer racks to a CDU until the grown duty fits (more CDUs installed).
    int n = per_cdu;
    while (n > 1 && !fits(n, 1.0 + g)) --n;
    if (!fits(n, 1.0 + g)) {
        throw InputError(fmt::format(
            "/power/growth_margin_pct: with {:.0f} % growth one rack's {:.0f} kW exceeds the "
            "capacity of '{}' ({:.0f} kW); lower the growth margin or use a larger CDU "
            "({}/model)",
            100 * g, worstCdu(1, 1.0 + g).q / 1e3, c.cdu.name, c.cdu.capacity / 1e3, c.cdu_where));
    }
    z.racks_per_cdu = n;
    const Worst w = worstCdu(n, 1.0 + g);
    z.cdu_duty_worst = w.q;
    z.cdus = (z.racks + n - 1) / n;
    z.cdu_spares = c.cdu_redundancy == "N" ? 0 : c.cdu_redundancy == "N+1" ? 1 : z.cdus;
    z.cdu_rule = fmt::format(
        "N=ceil({} racks/{} per CDU)={}, {}; worst CDU {:.0f} kW = {:.2f} x {:.0f} kW racks "
        "(die {:.1f} °C) + {:.1f} kW pump heat at rated speed <= {:.0f} kW",
        z.racks, n, z.cdus,
        c.cdu_redundancy == "N" ? std::string("no spare")
                                : fmt::format("+{} ({})", z.cdu_spares, c.cdu_redundancy),
        w.q / 1e3, 1.0 + g, (w.q - z.cdu_pump_heat) / (1.0 + g) / 1e3,
        units::kelvinToCelsius(*std::max_element(z.rack_die_temp.begin(), z.rack_die_temp.end())),
        z.cdu_pump_heat / 1e3, c.cdu.capacity / 1e3);
    if (n < per_cdu) {
        z.cdu_rule += fmt::format(
            "; {} per CDU (racks_per_cdu) would reach {:.1f} % with {:.0f} % "
            "growth",
            per_cdu, 100 * worstCdu(per_cdu, 1.0 + g).q / c.cdu.capacity, 100 * g);
    }
}

/// CDUs with the same racks are lumped; a CDU an event targets stays alone.
void groupCdus(const ScenarioSpec& sc, std::size_t hall, const SiteSizing& site, HallSizing& z) {
    const HallSpec& hs = sc.halls[hall];
    // CDU indices name the hall's own CDUs; the message says which hall when there are several.
    const std::string of_hall = sc.namedHalls() ? fmt::format(" hall '{}'", hs.name) : "";
    std::vector<int> targeted;
    int standbys_taken = 0;
    for (const auto& ev : sc.events) {
        if (ev.hall != static_cast<int>(hall)) continue;
        if (const auto* valve = std::get_if<RackValve>(&ev.what)) {
            if (valve->cdu > z.cdus - 1) {
                throw InputError(fmt::format(
                    "{}/cdu: value {} is out of range; the{} has {} CDUs (0 to {})", ev.where,
                    valve->cdu, of_hall.empty() ? " site" : of_hall, z.cdus, z.cdus - 1));
            }
            targeted.push_back(valve->cdu);
            continue;
        }
        if (const auto* co = std::get_if<CduPumpChangeover>(&ev.what)) {
            if (co->cdu > z.cdus - 1) {
                throw InputError(fmt::format(
                    "{}/cdu: value {} is out of range; the{} has {} CDUs (0 to {})", ev.where,
                    co->cdu, of_hall.empty() ? " site" : of_hall, z.cdus, z.cdus - 1));
            }
            const thermal::CduSpec& cdu = hs.cooling.cdu;
            if (cdu.pumps_installed <= cdu.pumps_duty) {
                throw InputError(fmt::format(
                    "{}/type: cdu_pump_changeover needs a standby pump; '{}' runs {} of {} "
                    "installed pumps (set /cooling/cdu/pumps_installed above pumps_duty)",
                    ev.where, cdu.name, cdu.pumps_duty, cdu.pumps_installed));
            }
            targeted.push_back(co->cdu);
            continue;
        }
        const auto* trip = std::get_if<CduPumpTrip>(&ev.what);
        if (!trip) continue;
        if (trip->cdu > z.cdus - 1) {
            throw InputError(fmt::format(
                "{}/cdu: value {} is out of range; the{} has {} CDUs "
                "(0 to {})",
                ev.where, trip->cdu, of_hall.empty() ? " site" : of_hall, z.cdus, z.cdus - 1));
        }
        if (trip->pumps > hs.cooling.cdu.pumps_installed) {
            throw InputError(fmt::format("{}/pumps: value {} is out of range; '{}' has {} pumps",
                                         ev.where, trip->pumps, hs.cooling.cdu.name,
                                         hs.cooling.cdu.pumps_installed));
        }
        if (trip->standby_takeover) {
            // Each takeover puts one standby CDU in service for the rest of the study.
            if (++standbys_taken > z.cdu_spares) {
                throw InputError(fmt::format(
                    "{}/standby_takeover_s: the{} has {} standby CDU{} ({} redundancy){}; "
                    "remove the key (no takeover){}",
                    ev.where, of_hall.empty() ? " site" : of_hall, z.cdu_spares,
                    z.cdu_spares == 1 ? "" : "s", hs.cooling.cdu_redundancy,
                    z.cdu_spares > 0 ? ", taken by earlier trips" : "",
                    hs.cooling.cdu_redundancy == "2N"
                        ? std::string()
                        : fmt::format(" or install more (/cooling/cdu/redundancy: {})",
                                      hs.cooling.cdu_redundancy == "N" ? "N+1 or 2N" : "2N")));
            }
        }
        targeted.push_back(trip->cdu);
    }
    cduPumpSchedules(sc, hall);  // the trips and changeovers over time, checked
    const int per_cdu = z.racks_per_cdu;
    std::map<std::vector<std::pair<std::size_t, int>>, std::size_t> index;
    for (int c = 0; c < z.cdus; ++c) {
        std::map<std::size_t, int> comp;
        for (int r = c * per_cdu; r < std::min(z.racks, (c + 1) * per_cdu); ++r) {
            ++comp[site.kind_of[static_cast<std::size_t>(hs.first_rack + r)]];
        }
        std::vector<std::pair<std::size_t, int>> key(comp.begin(), comp.end());
        const bool alone = !sc.it.lump_identical_racks ||
                           std::find(targeted.begin(), targeted.end(), c) != targeted.end();
        auto sig = key;
        if (alone) sig.emplace_back(static_cast<std::size_t>(-1), c);  // unique signature
        auto [it, fresh] = index.try_emplace(sig, z.cdu_groups.size());
        if (fresh) z.cdu_groups.push_back(CduGroup{0, key, {}});
        CduGroup& g = z.cdu_groups[it->second];
        ++g.multiplicity;
        g.cdu_indices.push_back(c);
    }
}

void sizeFacilityLoop(const ScenarioSpec& sc, std::size_t hall, HallSizing& z) {
    const CoolingSpec& c = sc.halls[hall].cooling;
    const FacilityLoopSpec& f = c.facility_loop;
    // Default: the CDU's design approach below the TCS setpoint, so the CDU meets its setpoint
    // at design with the valve open.
    z.fws_supply_setpoint = f.supply_setpoint.value_or(c.tcs_supply_setpoint - c.cdu.approach);
    if (z.fws_supply_setpoint > c.tcs_supply_setpoint - 0.5) {
        throw InputError(fmt::format(
            "{}: facility supply {:.1f} °C must be below the TCS supply {:.1f} °C (the CDU "
            "needs an approach)",
            c.facility_loop_where, units::kelvinToCelsius(z.fws_supply_setpoint),
            units::kelvinToCelsius(c.tcs_supply_setpoint)));
    }
    z.design_fws_flow = z.cdus * c.cdu.facility_flow;
    z.pipe.volume = f.pipe_volume.value_or(60.0 * z.design_fws_flow);
    z.pipe.segments = f.pipe_segments;
    z.pipe.initial_temp = z.fws_supply_setpoint;
    z.pipe.nominal_flow = z.design_fws_flow;
    // The loop's pressure drop is given with water; a glycol's, through the same pipes at the
    // same flow, is higher by its density and viscosity (turbulent, Blasius), at the supply
    // setpoint, where the liquid is coldest and most viscous.
    const thermal::Coolant water = thermal::Coolant::byName("water");
    const thermal::Coolant liquid = thermal::Coolant::byName(f.coolant);
    // (1 exactly for water.)
    z.fws_pressure_drop_factor =
        thermal::turbulentPressureDropFactor(thermal::FluidState::of(liquid, z.fws_supply_setpoint),
                                             thermal::FluidState::of(water, z.fws_supply_setpoint));
    const double head = f.pressure_drop * z.fws_pressure_drop_factor;
    thermal::PumpStationSpec& p = z.plant.fws_pumps;
    p.design_flow = z.design_fws_flow;
    p.design_head = head;
    p.efficiency = f.pump_efficiency;
    p.duty = f.pumps_duty;
    p.standby = f.pumps_standby;
    p.control = f.pump_control;
    p.dp_setpoint = f.dp_setpoint;
    p.dp_min = f.dp_min;
    p.valve_target = f.valve_target;
    p.min_speed = f.pump_min_speed;
    z.fws_pump_rule = fmt::format(
        "{}+{} (pumps_duty + pumps_standby): the duty pumps share the {:.1f} L/s design flow of "
        "{} CDUs x {:.1f} L/s, {:.1f} L/s each at {:.0f} kPa",
        p.duty, p.standby, 1e3 * z.design_fws_flow, z.cdus, 1e3 * c.cdu.facility_flow,
        1e3 * z.design_fws_flow / p.duty, head / 1e3);
    if (f.coolant != "water") {
        z.fws_pump_rule += fmt::format(
            " ({} through pipes of {:.0f} kPa with water: x{:.2f} for its density and viscosity)",
            f.coolant, f.pressure_drop / 1e3, z.fws_pressure_drop_factor);
    }
    int lost = 0;
    for (const auto& ev : sc.events) {
        if (ev.hall != static_cast<int>(hall)) continue;
        if (const auto* trip = std::get_if<FwsPumpTrip>(&ev.what)) {
            lost += trip->pumps;
            if (lost > p.duty + p.standby) {
                throw InputError(fmt::format(
                    "{}/pumps: {} facility pumps lost in all is more than the {} installed "
                    "({}/pumps_duty + pumps_standby)",
                    ev.where, lost, p.duty + p.standby, c.facility_loop_where));
            }
        }
    }
}

/// The site's design weather at /cooling/heat_rejection/design_basis: dry bulb (coincident wet
/// bulb) for dry coolers, wet bulb (coincident dry bulb) for evaporative plant, from the ASHRAE
/// 0.4 % or 1 % annual conditions; or the file's n-year extreme dry bulb with the 0.4 % mean
/// coincident wet bulb (the extremes give no coincident wet bulb; capped at the dry bulb), dry-
/// bulb plant only. Pressure: the file's mean.
void designWeather(const ScenarioSpec& sc, const CoolingSpec& c, HallSizing& z) {
    const weather::Weather& w = *sc.site.weather;
    const auto& dc = w.designConditions();
    const HeatRejectionSpec& h = c.heat_rejection;
    double p = 0.0;
    for (double v : w.pressure()) p += v;
    p /= static_cast<double>(w.hourCount());
    thermal::AmbientAir a;
    a.pressure = p;
    const bool evaporative = h.tower;
    const std::string& basis = h.design_basis;
    const bool one = basis == "1%";
    if (basis == "0.4%" || one) {
        if (evaporative) {
            a.dry_bulb = one ? dc.evaporation_mcdb_1 : dc.evaporation_mcdb_0_4;
            a.wet_bulb = one ? dc.evaporation_wb_1 : dc.evaporation_wb_0_4;
        } else {
            a.dry_bulb = one ? dc.cooling_db_1 : dc.cooling_db_0_4;
            a.wet_bulb = one ? dc.cooling_mcwb_1 : dc.cooling_mcwb_0_4;
        }
        const char* pct = one ? "1" : "0.4";
        z.design_weather_basis =
            evaporative
                ? fmt::format("ASHRAE {} % evaporation wet bulb with coincident dry bulb", pct)
                : fmt::format("ASHRAE {} % cooling dry bulb with coincident wet bulb", pct);
        z.generator_ambient = one ? dc.cooling_db_1 : dc.cooling_db_0_4;
    } else {
        const int years = std::stoi(basis.substr(0, basis.find('-')));
        if (evaporative) {
            throw InputError(fmt::format(
                "{}/design_basis: '{}' is an extreme dry bulb, but a cooling tower is sized on "
                "the wet bulb; valid choices for a tower: 0.4%, 1%",
                h.where, basis));
        }
        if (!dc.extremes_from_file) {
            throw InputError(fmt::format(
                "{}/design_basis: '{}' needs the n-year extremes of the weather file's DESIGN "
                "CONDITIONS line, and '{}' has none; valid choices for it: 0.4%, 1%",
                h.where, basis, w.name()));
        }
        std::size_t n = 0;
        while (weather::DesignConditions::kReturnPeriods[n] != years) ++n;
        a.dry_bulb = dc.extreme_db_max[n];
        a.wet_bulb = dc.cooling_mcwb_0_4;
        z.design_weather_basis = fmt::format(
            "{}-year extreme dry bulb (weather file) with the 0.4 % mean coincident wet bulb",
            years);
        z.generator_ambient = a.dry_bulb;
    }
    a.wet_bulb = std::min(a.wet_bulb, a.dry_bulb);
    // Freeze protection is designed to the winter design condition, the ASHRAE 99.6 % heating
    // dry bulb (colder for 35 of the year's 8,760 hours); below it, a glycol at its freezing
    // point turns to slush but does not burst a coil (burst protection reaches tens of kelvin
    // lower, ASHRAE Handbook - Fundamentals ch. 31).
    // The liquid in the outdoor coils: the outdoor loop's where one isolates the facility loop.
    z.outdoor_loop = c.heat_rejection.outdoor_loop.has_value();
    z.freezing_point =
        thermal::Coolant::byName(z.outdoor_loop ? c.heat_rejection.outdoor_loop->coolant
                                                : c.facility_loop.coolant)
            .freezingPoint();
    z.frost_design_dry_bulb = dc.heating_db_99_6;
    z.design_weather.dry_bulb = a.dry_bulb;
    z.design_weather.wet_bulb = a.wet_bulb;
    z.design_weather.pressure = a.pressure;
    z.design_weather.humidity_ratio = thermal::ambientHumidityRatio(a);
    z.design_weather.dew_point =
        psychro::dewPointFromHumidityRatio(z.design_weather.humidity_ratio, a.pressure);
}

/// [K] a miss of the facility supply setpoint below this is "held" (sizing, hours counted).
constexpr double kSetpointTolerance = 0.05;

/// Issue 10: the plant could not hold the setpoint and sizing said nothing. The message gives
/// the numbers and what would reach the setpoint.
std::string shortfallMessage(const CoolingSpec& cool, const HallSizing& z, int units) {
    const HeatRejectionSpec& h = cool.heat_rejection;
    const double reach_C = units::kelvinToCelsius(z.reach.design_supply);
    const std::string air =
        h.tower
            ? fmt::format("wet bulb {:.1f} °C", units::kelvinToCelsius(z.design_weather.wet_bulb))
            : fmt::format("dry bulb {:.1f} °C", units::kelvinToCelsius(z.design_weather.dry_bulb));
    std::string fixes = fmt::format(
        "a facility supply of at least {:.1f} °C (a TCS supply of at least {:.1f} °C with the "
        "CDU's {:.1f} K approach)",
        std::ceil(reach_C * 10.0) / 10.0, std::ceil((reach_C + cool.cdu.approach) * 10.0) / 10.0,
        cool.cdu.approach);
    if (h.type == "dry_cooler") fixes += ", adiabatic assist (\"type\": \"adiabatic_cooler\")";
    if (!h.tower) fixes += ", evaporative cooling (\"type\": \"cooling_tower\")";
    fixes += fmt::format(", a trim chiller ({}/trim_chiller)", h.where);
    return fmt::format(
        "{}: the facility supply setpoint {:.1f} °C is out of reach on the design day ({}, {}): "
        "{} × {} running at the design heat of {:.0f} kW reach {:.1f} °C ({:.1f} K above), and "
        "{:.0f} h of the weather year would miss it. What would reach it: {}; or accept the "
        "exceedance with {}/accept_setpoint_exceedance: true (the hours above the setpoint are "
        "then reported)",
        h.where, units::kelvinToCelsius(z.fws_supply_setpoint), air, z.design_weather_basis, units,
        h.modelName(), z.design_heat_rejection / 1e3, reach_C, z.reach.design_shortfall,
        z.reach.hours_above_setpoint, fixes, h.where);
}

/// Heat-rejection units: the fewest that hold the facility supply setpoint on the design day
/// with all rack heat, CDU pump work and the facility pumps' hydraulic work, plus spares.
void sizeHeatRejection(const ScenarioSpec& sc, std::size_t hall, double growth_margin,
                       HallSizing& z) {
    const CoolingSpec& cool = sc.halls[hall].cooling;
    const HeatRejectionSpec& h = cool.heat_rejection;
    PlantDesign& p = z.plant;
    p.kind = h.tower ? PrimaryKind::CoolingTower : PrimaryKind::DryCooler;
    if (h.tower) {
        p.tower = h.tower_spec;
    } else {
        p.dry_cooler = h.dry_cooler;
    }
    const thermal::AmbientAir air{z.design_weather.dry_bulb, z.design_weather.wet_bulb,
                                  z.design_weather.pressure};
    const thermal::CduModel cdu(cool.cdu, cool.coolant, cool.facility_loop.coolant);
    // The grown rack heat (growth margin, as the electrical chain) and the pumps at rated
    // speed: the installed units carry the load the site may grow to.
    const double design_heat = (1.0 + growth_margin) * z.design_heat_liquid +
                               z.cdus * cdu.design().pump_power +
                               z.design_fws_flow * p.fws_pumps.design_head;
    z.design_heat_rejection = design_heat;
    p.coolant = cool.facility_loop.coolant;
    const thermal::Coolant fluid = thermal::Coolant::byName(p.coolant);
    const double mdot = fluid.massFlow(z.design_fws_flow);
    // With an outdoor loop the units cool its glycol at its flow, and the plate exchanger is
    // sized for the design heat at the facility supply setpoint (thermal/outdoor_loop.h).
    if (h.outdoor_loop) {
        p.outdoor.emplace(*h.outdoor_loop, fluid, z.design_fws_flow, design_heat,
                          z.fws_supply_setpoint);
    }
    const std::string& liquid = p.bankCoolant();
    const double bank_flow = p.outdoor ? p.outdoor->flow() : z.design_fws_flow;
    const int n_min = std::max(1, static_cast<int>(std::ceil(design_heat / h.unitCapacity())));
    // The miss [K] of n running units at design heat, for one hour's air, when the loop's
    // supply is held at T_supply (the return then follows from the design heat).
    // One bank per unit count, built once: the hour-by-hour year below asks ~10^4 times.
    std::map<int, thermal::CoolingTower> towers;
    std::map<int, thermal::DryCooler> coolers;
    struct BankRun {
        double heat_rejected, setpoint_unmet;
    };
    auto bankAt = [&](int n, const thermal::AmbientAir& a, double T_in, double q,
                      double T_set) -> BankRun {
        if (h.tower) {
            const auto o =
                towers.try_emplace(n, p.tower, n).first->second.evaluate({T_in, q, T_set, a});
            return {o.heat_rejected, o.setpoint_unmet};
        }
        const auto o = coolers.try_emplace(n, p.dry_cooler, n, liquid)
                           .first->second.evaluate({T_in, q, T_set, a});
        return {o.heat_rejected, o.setpoint_unmet};
    };
    auto missAt = [&](int n, const thermal::AmbientAir& a, double T_supply) {
        const double T_in = fluid.heatedTemperature(T_supply, mdot, design_heat);
        if (!p.outdoor) return bankAt(n, a, T_in, z.design_fws_flow, T_supply).setpoint_unmet;
        auto bank = [&](double T_o_in, double q, double T_o_set) {
            return bankAt(n, a, T_o_in, q, T_o_set);
        };
        return p.outdoor->operate(T_in, mdot, T_supply, bank).first.unmet;
    };
    auto unmet = [&](int n, const thermal::AmbientAir& a) {
        return missAt(n, a, z.fws_supply_setpoint);
    };
    // The supply [K] the loop settles at when n units cannot hold the setpoint: the lowest at
    // which they reject the design heat (the miss shrinks as the loop warms). Bisection, 1 mK.
    auto reachable = [&](int n, const thermal::AmbientAir& a) {
        double lo = z.fws_supply_setpoint;
        if (missAt(n, a, lo) < kSetpointTolerance) return lo;
        double hi = lo + 10.0;
        while (missAt(n, a, hi) >= kSetpointTolerance && hi < lo + 150.0) hi += 10.0;
        while (hi - lo > 1e-3) {
            const double mid = 0.5 * (lo + hi);
            (missAt(n, a, mid) < kSetpointTolerance ? hi : lo) = mid;
        }
        return hi;
    };
    // Adiabatic pads run only above their switch-over dry bulb, so the hottest air the coils
    // meet dry is the switch-over's lower band edge: when that lies below the design dry bulb,
    // the count must hold the setpoint there too, dry. Sized at the design point alone (pads
    // wet), the reference site's 13 + 1 units missed the setpoint in 189 hours of the TMY year
    // at design heat, all of them dry hours of 27-28 °C, against the ~35 h a 0.4 % basis admits
    // (decisions.md, 2026-12-07). The wet bulb does not matter to a dry coil; it is kept at
    // the design air's (no higher than the dry bulb) so the pads' search sees a valid state.
    std::optional<thermal::AmbientAir> dry_limit;
    if (!h.tower && p.dry_cooler.adiabatic) {
        const double T = p.dry_cooler.switch_over_temp - 0.5 * p.dry_cooler.switch_band;
        if (T < air.dry_bulb) {
            dry_limit = thermal::AmbientAir{T, std::min(air.wet_bulb, T), air.pressure};
        }
    }
    auto holds = [&](int n) {
        return unmet(n, air) < kSetpointTolerance &&
               (!dry_limit || unmet(n, *dry_limit) < kSetpointTolerance);
    };
    // Searched up to four times the count the capacity alone needs: beyond that the approach,
    // not the unit count, limits the plant (a dry cooler cannot cool below the dry bulb).
    const int n_cap = 4 * n_min;
    int units = h.units;
    std::string dry_note;
    if (units == 0 && dry_limit && unmet(n_cap, *dry_limit) >= kSetpointTolerance) {
        // No count holds the setpoint dry just below the switch-over (the air is too close to
        // the setpoint or above it). The switch-over that would let the design day's count
        // hold it: the warmest dry air that count holds, by bisection (1 mK), plus half the
        // band.
        int n_day = n_cap;
        for (int n = n_min; n <= n_cap; ++n) {
            if (unmet(n, air) < kSetpointTolerance) {
                n_day = n;
                break;
            }
        }
        auto dryAir = [&](double T) {
            return thermal::AmbientAir{T, std::min(air.wet_bulb, T), air.pressure};
        };
        double lo = z.fws_supply_setpoint - 40.0, hi = dry_limit->dry_bulb;
        while (hi - lo > 1e-3) {
            const double mid = 0.5 * (lo + hi);
            (unmet(n_day, dryAir(mid)) < kSetpointTolerance ? lo : hi) = mid;
        }
        const double suggested = lo + 0.5 * p.dry_cooler.switch_band;
        const std::string what = fmt::format(
            "{}/switch_over_temp_C: the pads run only above {:.1f} °C, and in the air just below "
            "it ({:.1f} °C) the coils alone cannot hold the facility supply setpoint {:.1f} °C at "
            "the design heat of {:.0f} kW with any count up to {} units",
            h.where, units::kelvinToCelsius(p.dry_cooler.switch_over_temp),
            units::kelvinToCelsius(dry_limit->dry_bulb),
            units::kelvinToCelsius(z.fws_supply_setpoint), design_heat / 1e3, n_cap);
        if (!h.accept_exceedance) {
            throw InputError(fmt::format(
                "{}. What would hold it: a switch-over at or below {:.1f} °C (the {} units the "
                "design day needs hold the setpoint dry up to {:.1f} °C), or a warmer facility "
                "supply; or accept the exceedance with {}/accept_setpoint_exceedance: true (the "
                "units are then counted on the design day and the hours above the setpoint "
                "reported)",
                what, std::floor(units::kelvinToCelsius(suggested) * 10.0) / 10.0, n_day,
                units::kelvinToCelsius(lo), h.where));
        }
        dry_note = fmt::format("; {} (accepted: counted on the design day alone)", what);
        dry_limit.reset();
    }
    if (units == 0) {
        units = n_cap;
        for (int n = n_min; n <= n_cap; ++n) {
            if (holds(n)) {
                units = n;
                break;
            }
        }
        // The dry point sets the count when the design day alone would have taken fewer.
        const bool dry_binds =
            dry_limit && units > n_min && unmet(units - 1, air) < kSetpointTolerance;
        const std::string where =
            dry_limit ? fmt::format(
                            "{} and, pads dry, at {:.1f} °C (their switch-over less half its "
                            "band){}",
                            z.design_weather_basis, units::kelvinToCelsius(dry_limit->dry_bulb),
                            dry_binds ? ", which sets the count" : "")
                      : z.design_weather_basis;
        z.heat_rejection_rule = fmt::format(
            "N={}: the fewest holding {:.1f} °C{} with {:.0f} kW = {:.2f} x {:.0f} kW racks + "
            "pump work (ceil(Q/{:.0f} kW rated)={}) at {}; +{} spare",
            units, units::kelvinToCelsius(z.fws_supply_setpoint),
            p.outdoor ? fmt::format(" (their {} at {:.1f} °C, the plate exchanger's {:.1f} K "
                                    "approach below)",
                                    liquid, units::kelvinToCelsius(p.outdoor->designSupply()),
                                    p.outdoor->spec().approach)
                      : std::string(),
            design_heat / 1e3, 1.0 + growth_margin, z.design_heat_liquid / 1e3,
            h.unitCapacity() / 1e3, n_min, where, h.redundancy_units);
        z.heat_rejection_rule += dry_note;
        units += h.redundancy_units;
    } else {
        z.heat_rejection_rule = fmt::format("{} stated ({}/units)", units, h.where);
    }
    // On the design day every unit runs (spares included): this is what the plant reaches.
    z.reach.trim_chiller = h.trim_chiller.has_value();
    z.reach.design_supply = reachable(units, air);
    z.reach.design_shortfall = z.reach.design_supply - z.fws_supply_setpoint;
    // Over the year: the hours the units miss the setpoint at design heat, and how far the loop
    // then rises in the hottest of them (the top day by dry bulb and by wet bulb; the miss
    // grows with both).
    const weather::Weather& w = *sc.site.weather;
    std::vector<std::size_t> missed;
    for (std::size_t i = 0; i < w.hourCount(); ++i) {
        if (unmet(units, {w.dryBulb()[i], w.wetBulb()[i], w.pressure()[i]}) > kSetpointTolerance) {
            missed.push_back(i);
        }
    }
    z.reach.hours_above_setpoint = static_cast<double>(missed.size());
    std::vector<std::size_t> hottest;
    for (const auto* series : {&w.dryBulb(), &w.wetBulb()}) {
        std::vector<std::size_t> order = missed;
        const std::size_t top = std::min<std::size_t>(order.size(), 24);
        std::partial_sort(
            order.begin(), order.begin() + static_cast<std::ptrdiff_t>(top), order.end(),
            [&](std::size_t a, std::size_t b) { return (*series)[a] > (*series)[b]; });
        hottest.insert(hottest.end(), order.begin(),
                       order.begin() + static_cast<std::ptrdiff_t>(top));
    }
    for (std::size_t i : hottest) {
        z.reach.worst_excess =
            std::max(z.reach.worst_excess,
                     reachable(units, {w.dryBulb()[i], w.wetBulb()[i], w.pressure()[i]}) -
                         z.fws_supply_setpoint);
    }
    if (z.reach.design_shortfall >= kSetpointTolerance && !h.trim_chiller && !h.accept_exceedance) {
        throw InputError(shortfallMessage(cool, z, units));
    }
    p.units = units;
    {
        // One unit's capacity at the design weather: full duty (a setpoint below the wet bulb
        // it cannot reach), water entering at the design return with its share of the flow
        // among the units the count needs (spares left out, as in the count's search).
        const double T_in = p.outdoor
                                ? p.outdoor->designReturn()
                                : fluid.heatedTemperature(z.fws_supply_setpoint, mdot, design_heat);
        const int running = h.units == 0 ? std::max(1, units - h.redundancy_units) : units;
        const double q = bank_flow / running;
        const double below = air.wet_bulb - 5.0;
        z.unit_capacity_at_design =
            h.tower
                ? thermal::CoolingTower(p.tower, 1).evaluate({T_in, q, below, air}).heat_rejected
                : thermal::DryCooler(p.dry_cooler, 1, liquid)
                      .evaluate({T_in, q, below, air})
                      .heat_rejected;
    }
    if (h.trim_chiller) {
        p.chiller = h.trim_chiller;
        p.chiller_units = h.trim_chiller_units;
    }
    // Unit losses of a contingency: the counts the plant will run with.
    int lost = 0;
    for (const auto& ev : sc.events) {
        if (ev.hall != static_cast<int>(hall)) continue;
        if (const auto* loss = std::get_if<HeatRejectionUnitLoss>(&ev.what)) {
            lost += loss->units;
            if (lost > p.units) {
                throw InputError(
                    fmt::format("{}/units: {} units lost in all is more than the {} installed",
                                ev.where, lost, p.units));
            }
            p.unit_counts_needed.push_back(p.units - lost);
        } else if (std::holds_alternative<ChillerTrip>(ev.what) && !p.chiller) {
            throw InputError(
                fmt::format("{}/type: chiller_trip needs a trim chiller in "
                            "/cooling/heat_rejection/trim_chiller",
                            ev.where));
        }
    }
}

}  // namespace

CoolingCount countCrahs(const ScenarioSpec& sc, const SiteSizing& z, double crah_load) {
    const thermal::AirCoilSpec& crah = sc.cooling.air_side.crah;
    CoolingCount n;
    n.design_load = (1.0 + z.growth_margin) * crah_load;
    n.load_today = crah_load;
    n.unit_capacity = crah.capacity;
    const int need = std::max(1, static_cast<int>(std::ceil(n.design_load / crah.capacity - 1e-9)));
    n.count = need + 1;
    n.redundancy = "N+1";
    n.rule = fmt::format("N=ceil({:.2f} x {:.0f} kW air load / {:.0f} kW)={}, +1",
                         1.0 + z.growth_margin, crah_load / 1e3, crah.capacity / 1e3, need);
    return n;
}

CoolingCount countAirChillers(const ScenarioSpec& sc, const SiteSizing& z, double crah_load,
                              int crah_units) {
    const AirSideSpec& air = sc.cooling.air_side;
    const thermal::CrahPlant plant(
        {air.crah, air.chiller, air.supply_air_temp, air.economizer, air.economizer_high_limit},
        crah_units);
    const double T_db = z.design_weather.dry_bulb;
    CoolingCount n;
    // The coil load the chillers take on the design day: the grown air load, the CRAH fans
    // at it, less what the economizer carries at the design dry bulb (none above the return
    // air or the high limit).
    n.design_load = plant.evaluate((1.0 + z.growth_margin) * crah_load, T_db).coil_load;
    n.load_today = plant.evaluate(crah_load, T_db).coil_load;
    // One unit's capacity at the design chilled water and outdoor air: capacity x CAPFT.
    n.unit_capacity =
        thermal::Chiller(air.chiller).evaluate(1e12, plant.chilledWaterTemp(), T_db).capacity;
    const int need =
        std::max(1, static_cast<int>(std::ceil(n.design_load / n.unit_capacity - 1e-9)));
    n.count = need + 1;
    n.redundancy = "N+1";
    n.rule = fmt::format(
        "N=ceil({:.0f} kW coil load / {:.1f} kW)={}, +1; unit {:.1f} kW rated x CAPFT at {:.1f} "
        "°C chilled water and {:.1f} °C outdoor air",
        n.design_load / 1e3, n.unit_capacity / 1e3, need, air.chiller.capacity / 1e3,
        units::kelvinToCelsius(plant.chilledWaterTemp()), units::kelvinToCelsius(T_db));
    return n;
}

int CduGroup::racksPerCdu() const {
    int n = 0;
    for (const auto& [kind, count] : racks) n += count;
    return n;
}

int SiteSizing::cdus() const {
    int n = 0;
    for (const HallSizing& h : halls) n += h.cdus;
    return n;
}

int SiteSizing::cdusInstalled() const {
    int n = 0;
    for (const HallSizing& h : halls) n += h.cdus + h.cdu_spares;
    return n;
}

std::map<int, std::vector<std::pair<double, double>>> cduPumpSchedules(const ScenarioSpec& sc,
                                                                       std::size_t hall) {
    const thermal::CduSpec& cdu = sc.halls[hall].cooling.cdu;
    const int installed = cdu.pumps_installed, duty = cdu.pumps_duty;
    enum Kind { kTrip, kTakeover, kTransferEnd, kChangeover };
    struct Step {
        double t;
        Kind kind;
        const EventSpec* ev;
        int cdu, pumps;
    };
    std::vector<Step> steps;
    for (const EventSpec& ev : sc.events) {
        if (ev.hall != static_cast<int>(hall)) continue;
        if (const auto* trip = std::get_if<CduPumpTrip>(&ev.what)) {
            steps.push_back({ev.at_s, kTrip, &ev, trip->cdu, trip->pumps});
            if (trip->standby_takeover) {
                steps.push_back({ev.at_s + *trip->standby_takeover, kTakeover, &ev, trip->cdu, 0});
            }
        } else if (const auto* co = std::get_if<CduPumpChangeover>(&ev.what)) {
            steps.push_back({ev.at_s, kChangeover, &ev, co->cdu, 0});
            steps.push_back({ev.at_s + co->transfer, kTransferEnd, &ev, co->cdu, 0});
        }
    }
    // In time order; at one time a transfer ends before a changeover starts.
    std::stable_sort(steps.begin(), steps.end(), [](const Step& a, const Step& b) {
        return a.t < b.t || (a.t == b.t && a.kind == kTransferEnd && b.kind != kTransferEnd);
    });
    struct State {
        int failed = 0;
        const EventSpec* transfer = nullptr;  // the changeover under way
    };
    std::map<int, State> state;
    std::map<int, std::vector<std::pair<double, double>>> schedules;
    for (const Step& s : steps) {
        State& c = state[s.cdu];
        const int running = thermal::runningPumps(installed, duty, c.failed);
        switch (s.kind) {
            case kTrip:
                c.failed += s.pumps;
                if (c.failed > installed) {
                    throw InputError(fmt::format(
                        "{}/pumps: {} pumps of CDU {} lost by then in all (its earlier trips "
                        "with no standby CDU taking its racks between) is more than the {} '{}' "
                        "has",
                        s.ev->where, c.failed, s.cdu, installed, cdu.name));
                }
                break;
            case kTakeover:
                c.failed = 0;
                break;
            case kTransferEnd:
                if (c.transfer == s.ev) c.transfer = nullptr;
                break;
            case kChangeover:
                if (c.transfer) {
                    throw InputError(fmt::format(
                        "{}/at: CDU {} is still changing over at {:g} s (the changeover of {} "
                        "ends at {:g} s); a changeover starts once the last has ended",
                        s.ev->where, s.cdu, s.t, c.transfer->where,
                        c.transfer->at_s + std::get<CduPumpChangeover>(c.transfer->what).transfer));
                }
                if (running < 1 || installed - c.failed - running < 1) {
                    throw InputError(fmt::format(
                        "{}/cdu: CDU {} has {} at {:g} s ({} of its {} pumps lost by then, {} "
                        "running); a changeover stops a running pump for a healthy standby",
                        s.ev->where, s.cdu,
                        running < 1 ? "no running pump" : "no healthy standby pump", s.t, c.failed,
                        installed, running));
                }
                c.transfer = s.ev;
                break;
        }
        // The failed count the CDU's running pumps follow (one fewer during a transfer).
        const int run =
            std::max(0, thermal::runningPumps(installed, duty, c.failed) - (c.transfer ? 1 : 0));
        schedules[s.cdu].emplace_back(s.t, c.transfer ? installed - run : c.failed);
    }
    return schedules;
}

SiteSizing sizeSite(const ScenarioSpec& sc) {
    SiteSizing z;
    mapRacks(sc, z);
    groupRackKinds(sc, z);
    z.electrical = sc.power.sizing;
    z.electrical.fabric_power = z.fabricPower();
    z.growth_margin = sc.power.sizing.growth_margin;
    z.design_rack_power = power::RackPowerModel(sc.it.racks.front().rack).evaluate(1.0).it_power;
    for (std::size_t i = 0; i < sc.halls.size(); ++i) {
        const HallSpec& hs = sc.halls[i];
        HallSizing h;
        h.name = hs.name;
        h.first_rack = hs.first_rack;
        h.racks = hs.racks;
        sizeCdus(sc, hs, z, h);
        sizeFacilityLoop(sc, i, h);
        designWeather(sc, hs.cooling, h);
        h.water_storage_hours = hs.cooling.heat_rejection.water_storage_hours;
        sizeHeatRejection(sc, i, z.growth_margin, h);
        groupCdus(sc, i, z, h);
        // The campus design point runs at the hottest hall's design air; the generators
        // breathe the site's air, derated at the hottest design basis's dry bulb.
        if (i == 0 || h.design_weather.dry_bulb > z.design_weather.dry_bulb) {
            z.design_weather = h.design_weather;
            z.design_weather_basis = h.design_weather_basis;
        }
        z.generator_ambient = std::max(z.generator_ambient, h.generator_ambient);
        z.halls.push_back(std::move(h));
    }
    // The generators breathe the site's air: derated at the design basis's dry bulb (a cooling
    // dry bulb whatever the heat rejection) and the station's elevation.
    z.electrical.design_ambient = z.generator_ambient;
    z.electrical.site_altitude = sc.site.weather->location().elevation;
    return z;
}

}  // namespace dctwin::facility
