// Building the coupled site model (wiring in model.h).
#include "facility/model.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/errors.h"
#include "facility/plant.h"
#include "power/rack.h"
#include "power/smoothing.h"
#include "power/workload_source.h"
#include "thermal/ambient.h"
#include "thermal/cdu.h"
#include "thermal/pipe.h"
#include "thermal/rack_loop.h"
#include "thermal/water.h"

namespace dctwin::facility {
namespace {

struct MeterDef {
    const char* name;
    const char* unit;
    double nominal_fraction;  // of the site's design power (W) or of 1e-3 m3/s (water)
};

const std::vector<MeterDef>& meterDefs() {
    static const std::vector<MeterDef> defs = {
        {"facility_energy", "W", 1.2},    {"it_energy", "W", 1.0},
        {"rack_demand_energy", "W", 1.0}, {"heat_out", "W", 1.2},
        {"cooling_energy", "W", 0.1},     {"loss_energy", "W", 0.05},
        {"cdu_pump_energy", "W", 0.01},   {"fws_pump_energy", "W", 0.005},
        {"plant_fan_energy", "W", 0.02},  {"chiller_energy", "W", 0.02},
        {"air_side_energy", "W", 0.02},   {"burn_energy", "W", 0.01},
        {"evaporation", "m3/s", 1.0},     {"drift", "m3/s", 0.01},
        {"blowdown", "m3/s", 0.5},        {"spray", "m3/s", 1.0},
        {"economizer_time", "1", 1.0},  // air-side economizer share integrated [s]
    };
    return defs;
}

/// Plant outputs the campus sums over its halls (SiteModel::plantTotal), with their nominal
/// values as a fraction of the site's design power (or of 1e-3 m3/s for water).
const std::vector<MeterDef>& plantTotalDefs() {
    static const std::vector<MeterDef> defs = {
        {"fan_power", "W", 0.02},       {"chiller_power", "W", 0.02},
        {"fws_pump_power", "W", 0.005}, {"fws_pump_loss", "W", 0.001},
        {"heat_rejected", "W", 1.0},    {"evaporation_rate", "m3/s", 1.0},
        {"drift_rate", "m3/s", 0.01},   {"blowdown_rate", "m3/s", 0.5},
        {"spray_rate", "m3/s", 1.0},    {"extra_heat_taken", "W", 0.1},
    };
    return defs;
}

/// A named hall's meters: (meter, the hall output it integrates), nominal as meterDefs.
const std::vector<MeterDef>& hallMeterDefs() {
    static const std::vector<MeterDef> defs = {
        {"it_energy", "W", 1.0},         {"cdu_pump_energy", "W", 0.01},
        {"fws_pump_energy", "W", 0.005}, {"plant_fan_energy", "W", 0.02},
        {"chiller_energy", "W", 0.02},   {"heat_rejected", "W", 1.0},
        {"evaporation", "m3/s", 1.0},    {"drift", "m3/s", 0.01},
        {"blowdown", "m3/s", 0.5},       {"spray", "m3/s", 1.0},
    };
    return defs;
}

std::vector<thermal::Accumulator::Channel> meterChannels(const std::vector<MeterDef>& defs,
                                                         double P, double horizon) {
    std::vector<thermal::Accumulator::Channel> ch;
    for (const auto& d : defs) {
        const bool water_q = std::string_view(d.unit) == "m3/s";
        const bool share = std::string_view(d.unit) == "1";
        const double rate = water_q ? 1e-3 * d.nominal_fraction
                            : share ? d.nominal_fraction
                                    : P * d.nominal_fraction;
        ch.push_back({d.name, d.unit, water_q ? "m3" : share ? "s" : "J", rate, rate * horizon});
    }
    return ch;
}

}  // namespace

const Conditions::HallEvents& Conditions::hall(std::size_t h) const {
    static const HallEvents none;
    return h < halls.size() ? halls[h] : none;
}

Conditions::HallEvents& Conditions::hall(std::size_t h) {
    if (halls.size() <= h) halls.resize(h + 1);
    return halls[h];
}

const std::vector<std::string>& SiteModel::hallMeterNames() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> v;
        for (const auto& d : hallMeterDefs()) v.emplace_back(d.name);
        return v;
    }();
    return names;
}

OutputPort SiteModel::plantTotal(std::string_view port) const {
    const auto it = plant_totals_.find(port);
    if (it == plant_totals_.end()) throw ModelError(fmt::format("no plant total '{}'", port));
    return it->second;
}

const std::vector<std::string>& SiteModel::meterNames() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> v;
        for (const auto& d : meterDefs()) v.emplace_back(d.name);
        return v;
    }();
    return names;
}

void SiteModel::SumTerms::add(std::string name, double weight, OutputPort p) {
    terms.emplace_back(std::move(name), weight);
    sources.push_back(p);
}

void SiteModel::connect(const ComponentHandle& from, std::string_view out,
                        const ComponentHandle& to, std::string_view in, double gain) {
    system_.connect(from.out(out), to.in(in), gain);
}

void SiteModel::fix(const ComponentHandle& to, std::string_view in, double value) {
    system_.setInput(to.in(in), value);
}

ComponentHandle SiteModel::schedule(std::string name, const char* unit, double initial,
                                    const std::vector<std::pair<double, double>>& changes) {
    return make<Schedule>(std::move(name), unit, std::max(1.0, initial), initial, changes);
}

OutputPort SiteModel::addSum(std::string name, const SumTerms& t, const char* unit,
                             double nominal) {
    // A sum of the same outputs with the same weights as one made before is that one: without
    // smoothing the racks' grid power is their demand, and a second 5,560-input sum read every
    // rack once more at each evaluation of a campus (issue 12). Bit for bit the same number.
    SumKey key{unit, nominal, {}, {}};
    for (std::size_t i = 0; i < t.terms.size(); ++i) {
        key.weights.push_back(t.terms[i].second);
        key.sources.emplace_back(t.sources[i].component, t.sources[i].port);
    }
    if (const auto it = sums_made_.find(key); it != sums_made_.end()) return it->second;
    std::vector<LinearCombination::Term> terms;
    for (const auto& [n, w] : t.terms) terms.push_back({n, w});
    const ComponentHandle h = make<LinearCombination>(std::move(name), terms, unit, nominal);
    for (std::size_t i = 0; i < t.terms.size(); ++i) {
        system_.connect(t.sources[i], h.in(t.terms[i].first));
    }
    return sums_made_.emplace(std::move(key), h.out("value")).first->second;
}

SiteModel::SiteModel(const ScenarioSpec& spec, const SiteSizing& sizing,
                     const Conditions& conditions)
    : spec_(spec), sizing_(sizing), c_(conditions) {
    cdu_models_.reserve(spec.halls.size());
    for (const HallSpec& h : spec.halls) {
        coolants_.push_back(thermal::Coolant::byName(h.cooling.coolant));
        cdu_models_.push_back(std::make_shared<const thermal::CduModel>(
            h.cooling.cdu, h.cooling.coolant, h.cooling.facility_loop.coolant));
    }
    const double P_site = std::max(1e5, sizing_.design_rack_power * sizing_.racks);
    const std::vector<KindSource> sources = addBoundary();
    SiteSumTerms sums;
    if (spec_.namedHalls()) {
        sums.hall_grid.resize(spec_.halls.size());
        sums.hall_pump.resize(spec_.halls.size());
        sums.hall_air.resize(spec_.halls.size());
    }
    // Hall by hall (one hall: the order of the one-hall model): loop parts, then its CDUs.
    for (std::size_t h = 0; h < spec_.halls.size(); ++h) {
        addFacilityLoopParts(h);
        halls_[h].first_cdu = cdus_.size();
        for (const CduGroup& g : sizing_.halls[h].cdu_groups) addCduGroup(h, g, sources, sums);
        halls_[h].cdu_count = cdus_.size() - halls_[h].first_cdu;
    }
    addSums(sums, P_site);
    for (std::size_t h = 0; h < halls_.size(); ++h) wireFacilityLoop(h);
    addSitePower(P_site);
    addMeters(P_site);
    if (spec_.namedHalls()) addHallMeters(P_site);
    if (c_.utility && !c_.steady) addUtilityLoss();
    system_.finalize();
}

double SiteModel::filmTemperature(std::size_t hall) const {
    const CoolingSpec& c = spec_.halls[hall].cooling;
    return c.tcs_supply_setpoint + 0.5 * c.cdu.delta_t_setpoint;
}

/// Weather and the utilization of every rack kind: the study's (workload, hourly weather) or
/// a steady operating point's (constant utilization and weather).
std::vector<SiteModel::KindSource> SiteModel::addBoundary() {
    if (c_.steady) {
        weather_ = make<ConstantWeather>("weather", c_.air.dry_bulb, c_.air.wet_bulb,
                                         c_.air.dew_point, c_.air.pressure);
    } else {
        weather_ = make<thermal::AmbientWeather>("weather", spec_.site.weather, c_.weather_offset,
                                                 c_.stop_at_weather_hours);
    }
    std::vector<KindSource> sources;
    if (c_.steady) {
        for (std::size_t k = 0; k < sizing_.kinds.size(); ++k) {
            const RackKind& kind = sizing_.kinds[k];
            sources.push_back(
                {schedule("u_" + kind.label, "1", c_.utilization.at(k), {}), "value", ""});
        }
        return sources;
    }
    // One source for every kind: their levels in one loop (power/workload_source.h).
    std::vector<int> racks;
    std::vector<std::string> labels;
    for (const RackKind& kind : sizing_.kinds) {
        racks.push_back(kind.representative);
        labels.push_back(kind.label);
    }
    const ComponentHandle workload = make<power::WorkloadSource>(
        "workload", spec_.workload, std::move(racks), labels, c_.resolution,
        c_.resolution == power::Resolution::Averaged ? c_.workload_window : 0.0, c_.horizon);
    for (const std::string& label : labels) {
        sources.push_back({workload, "utilization_" + label, "floor_active_" + label});
    }
    return sources;
}

/// A hall's facility water loop parts its CDUs refer to: return mixer, pipes, plant, all with
/// the loop's liquid (`water` below: water or the glycol the scenario gives).
void SiteModel::addFacilityLoopParts(std::size_t h) {
    const thermal::Coolant water =
        thermal::Coolant::byName(spec_.halls[h].cooling.facility_loop.coolant);
    const HallSizing& z = sizing_.halls[h];
    HallSlot hs;
    hs.name = spec_.halls[h].name;
    hs.prefix = spec_.namedHalls() ? hs.name + "_" : "";
    std::vector<double> cdu_weights;
    for (const auto& g : z.cdu_groups) cdu_weights.push_back(g.multiplicity);
    hs.fws_mix =
        make<thermal::Mixer>(hs.prefix + "fws_mix", water, cdu_weights, z.fws_supply_setpoint + 8.0,
                             spec_.halls[h].cooling.cdu.facility_flow);
    hs.fws_flow = hs.fws_mix.out("flow");
    hs.pipe_return = make<thermal::Pipe>(hs.prefix + "fws_return", water, z.pipe);
    hs.pipe_supply = make<thermal::Pipe>(hs.prefix + "fws_supply", water, z.pipe);
    hs.plant = make<HeatRejectionPlant>(hs.prefix + "plant", z.plant);
    halls_.push_back(std::move(hs));
}

const thermal::RackBranch& SiteModel::branchLaw(std::size_t hall, std::size_t entry) {
    const auto key = std::make_pair(hall, entry);
    auto it = branch_laws_.find(key);
    if (it == branch_laws_.end()) {
        const thermal::RackLoopParams& lp = spec_.it.racks[entry].loop;
        it = branch_laws_
                 .emplace(key, thermal::RackBranch(
                                   lp.branch,
                                   thermal::FluidState::of(coolants_[hall], filmTemperature(hall)),
                                   4.0 * lp.flow_design))
                 .first;
    }
    return it->second;
}

/// One CDU group of hall h: the CDU, its return mixer, its racks, and its pump-trip schedule.
void SiteModel::addCduGroup(std::size_t h, const CduGroup& g,
                            const std::vector<KindSource>& sources, SiteSumTerms& sums) {
    const CoolingSpec& cool = spec_.halls[h].cooling;
    const Conditions::HallEvents& events = c_.hall(h);
    HallSlot& hall = halls_[h];
    const std::size_t gi = cdus_.size();  // the group's index over the campus
    const std::string gname = fmt::format("g{}", gi);
    CduSlot cs;
    cs.multiplicity = g.multiplicity;
    cs.hall = h;
    // Rack slots on this CDU: (kind, racks). A branch-valve event acts on the first rack of
    // its CDU, which then gets a slot of its own (sizing keeps that CDU in a group alone).
    // The split follows the scenario's events, not the conditions, so the steady model that
    // starts a study has the same states as the study's.
    std::vector<std::pair<double, double>> valve;
    bool valve_slot = false;
    for (int c : g.cdu_indices) {
        if (auto it = events.valve_openings.find(c); it != events.valve_openings.end()) {
            valve = it->second;
        }
        for (const auto& ev : spec_.events) {
            const auto* rv = std::get_if<RackValve>(&ev.what);
            if (rv && rv->cdu == c && ev.hall == static_cast<int>(h)) valve_slot = true;
        }
    }
    std::vector<std::pair<std::size_t, int>> slots;
    for (const auto& [k, n] : g.racks) {
        if (valve_slot && slots.empty() && n > 1) {
            slots.emplace_back(k, 1);
            slots.emplace_back(k, n - 1);
        } else {
            slots.emplace_back(k, n);
        }
    }
    // One branch law per liquid-loop record; slots of one record share it.
    std::vector<thermal::RackBranch> branches;
    std::vector<thermal::RackManifold::Slot> manifold_slots;
    std::map<std::size_t, std::size_t> branch_of_entry;
    for (const auto& [k, n] : slots) {
        const std::size_t entry = sizing_.kinds[k].entry;
        auto [it, fresh] = branch_of_entry.try_emplace(entry, branches.size());
        if (fresh) branches.push_back(branchLaw(h, entry));
        manifold_slots.push_back({it->second, static_cast<double>(n)});
    }
    // CDUs of a hall that serve the same racks share one manifold (its start tables are read
    // at every evaluation): keyed by the branch laws' liquid-loop records and the slots.
    std::vector<std::pair<std::size_t, double>> key;
    for (const auto& [k, n] : slots) key.emplace_back(sizing_.kinds[k].entry, n);
    auto& manifold = manifolds_[{h, std::move(key)}];
    if (!manifold) {
        manifold = thermal::Cdu::makeManifold(*cdu_models_[h], std::move(branches),
                                              std::move(manifold_slots));
    }
    cs.cdu = make<thermal::Cdu>("cdu_" + gname, cdu_models_[h], manifold, thermal::Cdu::Control{});
    std::vector<double> rack_weights;
    for (const auto& [k, n] : slots) rack_weights.push_back(n);
    cs.mixer = make<thermal::Mixer>("mix_" + gname, coolants_[h], rack_weights,
                                    cool.tcs_supply_setpoint + 10.0,
                                    spec_.it.racks.front().loop.flow_design);
    std::size_t position = 0;
    for (const auto& [k, n] : slots) {
        // The valve event's rack is named apart from the other racks of its kind.
        const std::string suffix = valve_slot && position == 0 ? "_valve" : "";
        addRack(g, k, n, ++position, suffix, sources[k], cs, sums);
    }
    connect(cs.mixer, "temp", cs.cdu, "secondary_return_temp");
    connect(cs.mixer, "temp_max", cs.cdu, "critical_return_temp");
    connect(hall.pipe_supply, "outlet_temp", cs.cdu, "facility_supply_temp");
    // The facility pumps decide how much of its design flow a CDU can draw: all of it unless
    // pumps are lost beyond the standby, which the failure schedule alone decides.
    if (events.fws_pumps_failed.empty()) {
        fix(cs.cdu, "facility_flow_available", cool.cdu.facility_flow);
    } else {
        if (!hall.cdu_flow_available) {
            std::vector<std::pair<double, double>> available;
            const thermal::PumpStation pumps(sizing_.halls[h].plant.fws_pumps,
                                             "facility water pumps");
            for (const auto& [t, failed] : events.fws_pumps_failed) {
                available.emplace_back(t, cool.cdu.facility_flow * pumps.flowAvailable(failed));
            }
            hall.cdu_flow_available = schedule(hall.prefix + "cdu_flow_available", "m3/s",
                                               cool.cdu.facility_flow, std::move(available));
        }
        connect(*hall.cdu_flow_available, "value", cs.cdu, "facility_flow_available");
    }
    fix(cs.cdu, "supply_temp_setpoint", cool.tcs_supply_setpoint);
    fix(cs.cdu, "pump_speed", 1.0);
    fix(cs.cdu, "dp_setpoint", cool.cdu.dp_setpoint);
    for (std::size_t i = 0; i < slots.size(); ++i) {
        const std::string port = fmt::format("valve_{}", i + 1);
        if (i == 0 && !valve.empty()) {
            connect(schedule("valve_" + gname, "1", 1.0, valve), "value", cs.cdu, port);
        } else {
            fix(cs.cdu, port, 1.0);
        }
    }
    // A pump trip applies to one physical CDU, which sizing keeps in a group of its own.
    std::vector<std::pair<double, double>> trips;
    for (int c : g.cdu_indices) {
        if (auto it = events.pumps_failed.find(c); it != events.pumps_failed.end()) {
            trips = it->second;
        }
    }
    cdu_trips_.push_back(trips);
    if (c_.utility && !c_.steady) {
        // Wired with the utility loss's bus (addUtilityLoss).
    } else if (trips.empty()) {
        fix(cs.cdu, "pumps_failed", 0.0);
    } else {
        connect(schedule("pumps_failed_" + gname, "1", 0.0, trips), "value", cs.cdu,
                "pumps_failed");
    }
    // The hall's mixer numbers its CDU groups from 1; the campus sums over every group.
    const std::string fj = std::to_string(gi - hall.first_cdu + 1);
    connect(cs.cdu, "facility_return_temp", hall.fws_mix, "temp_" + fj);
    connect(cs.cdu, "facility_flow", hall.fws_mix, "flow_" + fj);
    const std::string tj = fmt::format("t{}", gi + 1);
    const double m = g.multiplicity;
    sums.pump.add(tj, m, cs.cdu.out("pump_power"));
    sums.pump_heat.add(tj, m, cs.cdu.out("pump_heat"));
    if (!sums.hall_pump.empty()) sums.hall_pump[h].add(tj, m, cs.cdu.out("pump_power"));
    cdus_.push_back(cs);
}

/// `count` racks of one kind on a CDU: rack power, [smoothing], heat to liquid, rack loop.
void SiteModel::addRack(const CduGroup& g, std::size_t k, int n, std::size_t position,
                        const std::string& suffix, const KindSource& source, const CduSlot& cs,
                        SiteSumTerms& sums) {
    const CoolingSpec& cool = spec_.halls[cs.hall].cooling;
    const std::size_t gi = cdus_.size();  // the group being built (addCduGroup)
    const RackKind& kind = sizing_.kinds[k];
    const RackEntry& entry = spec_.it.racks[kind.entry];
    const power::RackSpec& rack = entry.rack;
    const std::string label = fmt::format("g{}_{}{}", gi, kind.label, suffix);
    RackSlot rs;
    rs.group = gi;
    rs.kind = k;
    rs.count = n;
    rs.weight = static_cast<double>(g.multiplicity) * n;
    rs.label = label;
    auto& shared_spec = rack_specs_[kind.entry];
    if (!shared_spec) shared_spec = std::make_shared<const power::RackSpec>(rack);
    rs.power = make<power::RackPower>("rp_" + label, shared_spec, n, entry.trip);
    // Smoothing acts within seconds: it exists in the model only when the workload is resolved
    // (an averaged workload has no swing to smooth).
    if (spec_.power.smoothing && c_.resolution == power::Resolution::Resolved) {
        const power::RackPowerModel rpm(shared_spec);
        power::SmoothingParams base;
        base.storage_energy = rack.gpus * rack.storage_per_gpu * n;
        base.nominal_power = rpm.evaluate(1.0).it_power * n;
        base.initial_power = rpm.evaluate(0.0).it_power * n;
        base.nominal_time = c_.horizon;
        // Ramp rates are given per GPU, as NVML's power-smoothing knobs are (W/s). The
        // controller acts on the rack's shelf-input power, so the per-GPU rate × GPUs limits
        // the whole rack, non-GPU parts included (stricter than the GPUs alone).
        power::SmoothingParams params = power::SmoothingParams::make(
            spec_.power.smoothing_settings, base, 0.0, static_cast<double>(rack.gpus) * n);
        // The floor is a share of GPU TGP, as NVML's "percent TMP floor" (domain-facts A5):
        // on the shelf-input side it is the rack power with every GPU at that share of TGP
        // (the other parts at the matching utilization). Below the GPUs' idle it is idle.
        const double floor_frac = spec_.power.smoothing_settings.floor_pct / 100.0;
        if (floor_frac > 0.0) {
            const double u_floor = std::max(0.0, rpm.utilizationForGpuFraction(floor_frac));
            params.floor_power = rpm.evaluate(u_floor).it_power * n;
            // Held relative to the recent operating level (power/smoothing.h): the share of
            // TGP applies at full load and scales down with the held demand.
            params.floor_reference_power = base.nominal_power;
        }
        // NVML's secondary floor is in W per GPU: on the shelf input, the rack with every GPU
        // at that power (the other parts at the matching utilization), as the primary floor.
        const double sec_W = spec_.power.smoothing_settings.secondary_floor_per_gpu;
        if (sec_W > 0.0) {
            const double u_sec = std::max(0.0, rpm.utilizationForGpuFraction(sec_W / rack.gpu_tdp));
            params.secondary_floor_power = rpm.evaluate(std::min(u_sec, 1.0)).it_power * n;
        }
        rs.smoothing = make<power::PowerSmoothing>("sm_" + label, params);
    }
    std::vector<LinearCombination::Term> heat_terms = {{"heat_liquid", 1.0 / n}};
    // Power the GPU-side limit holds back is neither drawn nor turned into heat. It is split
    // as the rack's idle-to-full rise of shelf-input power is: the liquid share of that rise
    // leaves the coolant (of which the GPUs' own part leaves their junctions), the rest the
    // air. The split sums to one, so the site's energy balance stays exact; and a deferral
    // never exceeds the rise above the command, so no heat goes negative.
    const power::RackPowerModel rise_model(shared_spec);
    const power::RackPowerResult r0 = rise_model.evaluate(0.0), r1 = rise_model.evaluate(1.0);
    const double rise = std::max(r1.it_power - r0.it_power, 1.0);
    const double defer_liquid = (r1.heat_to_liquid - r0.heat_to_liquid) / rise;
    const double defer_gpu =
        rack.gpu_liquid_fraction * (r1.gpu_power - r0.gpu_power) / rise;  // of the rack
    if (rs.smoothing) {
        heat_terms.push_back({"burn", 1.0 / n});
        heat_terms.push_back({"deferred", -defer_liquid / n});
        rs.heat = make<LinearCombination>("hq_" + label, heat_terms, "W", entry.loop.heat_design);
    }
    thermal::RackLoopParams lp = entry.loop;
    lp.count = n;
    lp.initial_temp = cool.tcs_supply_setpoint + 5.0;
    lp.film_temp = filmTemperature(cs.hall);
    if (lp.gpus != rack.gpus) {
        throw InputError(fmt::format(
            "rack model '{}' has {} GPUs but its liquid-loop record has gpus_per_rack = {}; "
            "give /it/racks an \"rack_loop\" record for this rack",
            rack.name, rack.gpus, lp.gpus));
    }
    auto& loop_kind = loop_kinds_[{cs.hall, kind.entry, n}];
    if (!loop_kind) loop_kind = thermal::RackLoop::makeKind(coolants_[cs.hall], lp, "rl_" + label);
    rs.loop = make<thermal::RackLoop>("rl_" + label, loop_kind);
    // One GPU's heat into its junction: its own power (the demand, not the smoothed grid
    // power) times its liquid share, plus its share of the smoothing burn, which the GPUs
    // themselves burn (domain-facts A5 "power burner").
    const double per_gpu = 1.0 / (static_cast<double>(n) * rack.gpus);
    std::vector<LinearCombination::Term> gpu_terms = {
        {"gpu_power", rack.gpu_liquid_fraction * per_gpu}};
    if (rs.smoothing) {
        gpu_terms.push_back({"burn", per_gpu});
        gpu_terms.push_back({"deferred", -defer_gpu * per_gpu});
        rs.gpu_heat = make<LinearCombination>("hg_" + label, gpu_terms, "W", rack.gpu_tdp);
    }

    connect(source.source, source.utilization, rs.power, "utilization");
    connect(rs.loop, "junction_temp", rs.power, "junction_temp");
    if (rs.smoothing) {
        connect(rs.power, "heat_liquid", *rs.heat, "heat_liquid");
        connect(rs.power, "gpu_power", *rs.gpu_heat, "gpu_power");
        connect(rs.power, "it_power", *rs.smoothing, "load_power");
        if (c_.steady) {
            fix(*rs.smoothing, "floor_active", 0.0);
        } else {
            connect(source.source, source.floor_active, *rs.smoothing, "floor_active");
        }
        connect(*rs.smoothing, "burn_power", *rs.heat, "burn");
        connect(*rs.smoothing, "burn_power", *rs.gpu_heat, "burn");
        connect(*rs.smoothing, "deferred_power", *rs.heat, "deferred");
        connect(*rs.smoothing, "deferred_power", *rs.gpu_heat, "deferred");
        connect(*rs.heat, "value", rs.loop, "heat_liquid");
        connect(*rs.gpu_heat, "value", rs.loop, "gpu_heat");
    } else {
        // One term each: the shares are gains on the connections, bit for bit what a
        // one-term LinearCombination computes (0 + w·u), without a component per rack.
        connect(rs.power, "heat_liquid", rs.loop, "heat_liquid", heat_terms[0].weight);
        connect(rs.power, "gpu_power", rs.loop, "gpu_heat", gpu_terms[0].weight);
    }
    connect(cs.cdu, "secondary_supply_temp", rs.loop, "supply_temp");
    const std::string rack_flow = fmt::format("rack_flow_{}", position);
    rs.flow = cs.cdu.out(rack_flow);
    connect(cs.cdu, rack_flow, rs.loop, "flow");
    connect(rs.loop, "outlet_temp", cs.mixer, fmt::format("temp_{}", position));
    connect(cs.cdu, rack_flow, cs.mixer, fmt::format("flow_{}", position));

    const double m = g.multiplicity;
    const std::string tn = fmt::format("t{}", racks_.size());
    sums.grid.add(tn, m, rs.smoothing ? rs.smoothing->out("grid_power") : rs.power.out("it_power"));
    sums.demand.add(tn, m, rs.power.out("it_power"));
    sums.air.add(tn, m, rs.power.out("heat_air"));
    sums.liquid.add(tn, m, rs.loop.out("heat_to_coolant_total"));
    if (!sums.hall_grid.empty()) {
        sums.hall_grid[cs.hall].add(
            tn, m, rs.smoothing ? rs.smoothing->out("grid_power") : rs.power.out("it_power"));
        sums.hall_air[cs.hall].add(tn, m, rs.power.out("heat_air"));
    }
    if (rs.smoothing) {
        sums.burn.add(tn, m, rs.smoothing->out("burn_power"));
        sums.air.add("d" + tn, -(1.0 - defer_liquid) * m, rs.smoothing->out("deferred_power"));
        if (!sums.hall_air.empty()) {
            sums.hall_air[cs.hall].add("d" + tn, -(1.0 - defer_liquid) * m,
                                       rs.smoothing->out("deferred_power"));
        }
        sums.deferred.add(tn, m, rs.smoothing->out("deferred_power"));
        // Mean per rack: what one rack's 72 × 65 J hold (issue 18 asks for energy per rack).
        sums.stored.add(tn, m / static_cast<double>(std::max(sizing_.racks, 1)),
                        rs.smoothing->out("stored_energy"));
    }
    racks_.push_back(rs);
}

/// Term name of hall h in a sum over halls (one hall: the name alone, as the one-hall model).
static std::string hallTerm(const char* base, std::size_t h, std::size_t halls) {
    return halls == 1 ? std::string(base) : fmt::format("{}_{}", base, h + 1);
}

void SiteModel::addSums(const SiteSumTerms& t, double P_site) {
    SumTerms plant;
    const std::size_t nh = halls_.size();
    for (std::size_t h = 0; h < nh; ++h) {
        plant.add(hallTerm("fans", h, nh), 1.0, halls_[h].plant.out("fan_power"));
        plant.add(hallTerm("chiller", h, nh), 1.0, halls_[h].plant.out("chiller_power"));
        plant.add(hallTerm("fws_pumps", h, nh), 1.0, halls_[h].plant.out("fws_pump_power"));
    }
    sums_.rack_grid = addSum("rack_power", t.grid, "W", P_site);
    sums_.rack_demand = addSum("rack_demand", t.demand, "W", P_site);
    sums_.rack_heat_air = addSum("rack_heat_air", t.air, "W", 0.1 * P_site);
    sums_.heat_to_liquid = addSum("heat_to_liquid", t.liquid, "W", P_site);
    sums_.cdu_pump_power = addSum("cdu_pump_power", t.pump, "W", 0.01 * P_site);
    sums_.cdu_pump_heat = addSum("cdu_pump_heat", t.pump_heat, "W", 0.01 * P_site);
    sums_.burn_power = addSum("burn_power", t.burn, "W", 0.01 * P_site);
    sums_.plant_power = addSum("plant_power", plant, "W", 0.02 * P_site);
    if (!t.deferred.terms.empty()) {
        sums_.deferred_power = addSum("deferred_power", t.deferred, "W", 0.01 * P_site);
        sums_.psu_stored_energy = addSum("psu_stored_energy_per_rack", t.stored, "J",
                                         1e-4 * P_site / std::max(sizing_.racks, 1));
    }
    // Campus plant totals: one hall's plant ports, or sums over the halls' plants.
    for (const auto& d : plantTotalDefs()) {
        if (nh == 1) {
            plant_totals_.emplace(d.name, halls_.front().plant.out(d.name));
            continue;
        }
        SumTerms total;
        for (std::size_t h = 0; h < nh; ++h) {
            total.add(hallTerm("p", h, nh), 1.0, halls_[h].plant.out(d.name));
        }
        const bool water_q = std::string_view(d.unit) == "m3/s";
        plant_totals_.emplace(d.name, addSum(std::string("plant_total_") + d.name, total, d.unit,
                                             (water_q ? 1e-3 : P_site) * d.nominal_fraction));
    }
    // Named halls: the hall's own sums (its share of the site's nominal).
    for (std::size_t h = 0; h < t.hall_grid.size(); ++h) {
        const double share =
            P_site * sizing_.halls[h].racks / static_cast<double>(std::max(sizing_.racks, 1));
        HallSlot& hs = halls_[h];
        hs.it_power = addSum(hs.prefix + "rack_power", t.hall_grid[h], "W", share);
        hs.cdu_pump_power = addSum(hs.prefix + "cdu_pump_power", t.hall_pump[h], "W", 0.01 * share);
        hs.rack_heat_air = addSum(hs.prefix + "rack_heat_air", t.hall_air[h], "W", 0.1 * share);
    }
}

/// A hall's CDUs → return mixer → return pipe → plant → supply pipe; its events as plant-input
/// schedules.
void SiteModel::wireFacilityLoop(std::size_t h) {
    const HallSlot& hs = halls_[h];
    const HallSizing& z = sizing_.halls[h];
    const Conditions::HallEvents& events = c_.hall(h);
    const ComponentHandle& plant = hs.plant;
    connect(hs.fws_mix, "temp", hs.pipe_return, "inlet_temp");
    connect(hs.fws_mix, "flow", hs.pipe_return, "flow");
    fix(hs.pipe_return, "ambient_temp", spec_.site.fws_ambient);
    connect(hs.pipe_return, "outlet_temp", plant, "inlet_temp");
    connect(hs.fws_mix, "flow", plant, "flow");
    fix(plant, "setpoint", z.fws_supply_setpoint);
    connect(weather_, "dry_bulb", plant, "dry_bulb");
    connect(weather_, "wet_bulb", plant, "wet_bulb");
    connect(weather_, "pressure", plant, "pressure");
    auto scheduled = [&](const char* input, double normal,
                         const std::vector<std::pair<double, double>>& changes) {
        if (changes.empty()) {
            fix(plant, input, normal);
        } else {
            connect(schedule(hs.prefix + "sched_" + input, "1", normal, changes), "value", plant,
                    input);
        }
    };
    scheduled("units_available", z.plant.units, events.units_available);
    scheduled("fans_available", 1.0, events.fans_available);
    scheduled("chiller_available", 1.0, events.chiller_available);
    scheduled("fws_pumps_failed", 0.0, events.fws_pumps_failed);
    scheduled("outdoor_hx_running", z.plant.outdoor ? z.plant.outdoor->spec().exchangers : 0.0,
              events.outdoor_hx_running);
    scheduled("outdoor_pumps_failed", 0.0, events.outdoor_pumps_failed);
    // The facility pumps' valve reset reads the most-open CDU valve of the hall.
    if (z.plant.fws_pumps.control == "valve_reset") {
        std::vector<std::string> names;
        for (std::size_t i = 0; i < hs.cdu_count; ++i) names.push_back(fmt::format("g{}", i));
        const ComponentHandle vmax =
            make<Maximum>(hs.prefix + "cdu_valve_max", std::move(names), "1", 1.0);
        for (std::size_t i = 0; i < hs.cdu_count; ++i) {
            connect(cdus_[hs.first_cdu + i].cdu, "valve_position", vmax, fmt::format("g{}", i));
        }
        connect(vmax, "value", plant, "cdu_valve_max");
    } else {
        fix(plant, "cdu_valve_max", 1.0);
    }
    fix(plant, "fan_limit", z.plant.fan_limit);
    if (spec_.cooling.air_side.kind == thermal::AirSideKind::RearDoor) {
        // Rear doors: the hall's rack air heat goes to its water.
        system_.connect(hs.rack_heat_air ? *hs.rack_heat_air : sums_.rack_heat_air,
                        plant.in("extra_heat"));
    } else {
        fix(plant, "extra_heat", 0.0);
    }
    connect(plant, "outlet_temp", hs.pipe_supply, "inlet_temp");
    connect(hs.fws_mix, "flow", hs.pipe_supply, "flow");
    fix(hs.pipe_supply, "ambient_temp", spec_.site.fws_ambient);
}

/// Everything electrical above the racks, the air side, and the optional site battery.
void SiteModel::addSitePower(double P_site) {
    const AirSideSpec& air = spec_.cooling.air_side;
    SitePowerDesign spd;
    spd.chain = c_.chain;
    spd.ups_mode = spec_.power.ups_mode;
    spd.fabric_power = sizing_.fabricPower();
    spd.other_power = spec_.site.other_power;
    spd.air_side = {air.crah, air.chiller, air.supply_air_temp, air.economizer,
                    air.economizer_high_limit};
    spd.crah_units = c_.crah_units;
    spd.air_chiller_units = c_.air_chiller_units;
    spd.air_kind = air.kind;
    spd.rear_door = air.rear_door;
    spd.rear_doors = sizing_.racks;
    spd.nominal_power = 1.2 * P_site;
    // The bus of the CDU pumps is the scenario's (not the study's), so the steady state that
    // starts a study has the same chain.
    for (const auto& ev : spec_.events) {
        if (const auto* ul = std::get_if<UtilityLoss>(&ev.what)) {
            spd.cdu_pumps_on_ups = ul->cdu_pumps_on_ups;
        }
    }
    spd.battery_efficiency = c_.chain.ups.battery_discharge_efficiency;
    site_power_ = make<SitePower>("site", spd);
    if (!c_.air_side_available.empty()) {
        connect(schedule("sched_air_side_available", "1", 1.0, c_.air_side_available), "value",
                site_power_, "air_side_available");
    }
    system_.connect(sums_.rack_grid, site_power_.in("rack_power"));
    system_.connect(sums_.rack_heat_air, site_power_.in("rack_heat_air"));
    system_.connect(sums_.cdu_pump_power, site_power_.in("cdu_pump_power"));
    system_.connect(sums_.cdu_pump_heat, site_power_.in("cdu_pump_heat"));
    system_.connect(sums_.plant_power, site_power_.in("plant_power"));
    if (spec_.cooling.air_side.kind == thermal::AirSideKind::RearDoor) {
        system_.connect(plantTotal("extra_heat_taken"), site_power_.in("rear_door_heat_to_water"));
    }
    connect(weather_, "dry_bulb", site_power_, "dry_bulb");
    if (spec_.power.bess) {
        power::BatteryParams bp = spec_.power.bess_params;
        bp.count = c_.battery_blocks;
        bp.initial_load = 1.15 * P_site;
        bp.nominal_time = c_.horizon;
        battery_ = make<power::SiteBattery>("bess", bp);
        connect(site_power_, "facility_power", *battery_, "load_power");
    }
}

/// Heat leaving the site and the meters that integrate energy and water.
void SiteModel::addMeters(double P_site) {
    SumTerms out;
    const std::size_t nh = halls_.size();
    for (std::size_t h = 0; h < nh; ++h) {
        const ComponentHandle& plant = halls_[h].plant;
        out.add(hallTerm("plant_heat", h, nh), 1.0, plant.out("heat_rejected"));
        out.add(hallTerm("plant_fans", h, nh), 1.0, plant.out("fan_power"));
        out.add(hallTerm("chiller", h, nh), 1.0, plant.out("chiller_power"));
        out.add(hallTerm("pump_loss", h, nh), 1.0, plant.out("fws_pump_loss"));
    }
    out.add("site", 1.0, site_power_.out("heat_to_ambient"));
    const OutputPort heat_out = addSum("heat_out", out, "W", 1.2 * P_site);
    meters_ = make<thermal::Accumulator>("meters", meterChannels(meterDefs(), P_site, c_.horizon));
    const std::vector<OutputPort> meter_src = {site_power_.out("facility_power"),
                                               site_power_.out("it_power"),
                                               sums_.rack_demand,
                                               heat_out,
                                               site_power_.out("cooling_power"),
                                               site_power_.out("losses"),
                                               sums_.cdu_pump_power,
                                               plantTotal("fws_pump_power"),
                                               plantTotal("fan_power"),
                                               plantTotal("chiller_power"),
                                               site_power_.out("air_side_power"),
                                               sums_.burn_power,
                                               plantTotal("evaporation_rate"),
                                               plantTotal("drift_rate"),
                                               plantTotal("blowdown_rate"),
                                               plantTotal("spray_rate"),
                                               site_power_.out("economizer_share")};
    for (std::size_t i = 0; i < meter_src.size(); ++i) {
        system_.connect(meter_src[i], meters_.in(meterDefs()[i].name));
    }
}

/// Named halls: each hall's meters, on its own sums and its plant's outputs.
void SiteModel::addHallMeters(double P_site) {
    for (std::size_t h = 0; h < halls_.size(); ++h) {
        HallSlot& hs = halls_[h];
        const double share =
            P_site * sizing_.halls[h].racks / static_cast<double>(std::max(sizing_.racks, 1));
        hs.meters = make<thermal::Accumulator>(hs.prefix + "meters",
                                               meterChannels(hallMeterDefs(), share, c_.horizon));
        const ComponentHandle& p = hs.plant;
        const std::vector<OutputPort> src = {*hs.it_power,
                                             *hs.cdu_pump_power,
                                             p.out("fws_pump_power"),
                                             p.out("fan_power"),
                                             p.out("chiller_power"),
                                             p.out("heat_rejected"),
                                             p.out("evaporation_rate"),
                                             p.out("drift_rate"),
                                             p.out("blowdown_rate"),
                                             p.out("spray_rate")};
        for (std::size_t i = 0; i < src.size(); ++i) {
            system_.connect(src[i], hs.meters->in(hallMeterDefs()[i].name));
        }
    }
}

void SiteModel::addUtilityLoss() {
    const UtilityLossPlan& plan = *c_.utility;
    const power::UpsSpec& ups = c_.chain.ups;
    const power::UpsLossCurve curve = power::UpsLossCurve::fit(
        spec_.power.ups_mode == power::UpsMode::Eco ? ups.eco_points
                                                    : ups.double_conversion_points);
    const double rated = c_.chain.ups_units * ups.rating;
    UpsBatteryParams bp;
    // The catalog's autonomy at rated output, inverter losses included (utility_loss.h).
    bp.energy_full = rated * (1.0 + curve.lossFraction(1.0)) * ups.ride_through /
                     ups.battery_discharge_efficiency;
    bp.soe_initial = plan.options.battery_soe;
    bp.efficiency = ups.battery_discharge_efficiency;
    bp.charge_max = plan.options.charge_limit * rated;
    bp.t_loss = plan.options.at;
    bp.walk_in_start = plan.walk_in_start;
    bp.walk_in_end = plan.walk_in_end;
    bp.it_restart = plan.it_restart_at;
    bp.generators_online = plan.generators_online;
    ups_battery_ = make<UpsBattery>("ups_battery", bp);
    const ComponentHandle& b = *ups_battery_;
    connect(b, "mains", site_power_, "ups_mains");
    connect(b, "available", site_power_, "ups_battery_available");
    connect(b, "supply", site_power_, "ups_supply");
    connect(b, "charge_power", site_power_, "ups_charge_power");
    connect(b, "bus_energised", site_power_, "bus_energised");  // dead bus: facility/plant.h
    connect(site_power_, "ups_battery_power", b, "battery_power");
    for (const auto& r : racks_) connect(b, "supply", r.power, "supply");
    // CDU pumps: on the UPS they stop when its supply does; on the generators they are off
    // from the loss until their block (a schedule). Pump trips of the scenario add to it.
    for (std::size_t gi = 0; gi < cdus_.size(); ++gi) {
        const double installed = spec_.halls[cdus_[gi].hall].cooling.cdu.pumps_installed;
        const std::string gname = fmt::format("g{}", gi + 1);
        ComponentHandle off = [&] {
            if (plan.options.cdu_pumps_on_ups) {
                const ComponentHandle h = make<LinearCombination>(
                    "cdu_pumps_unpowered_" + gname,
                    std::vector<LinearCombination::Term>{{"supply", -installed}}, "1", 1.0,
                    installed);
                connect(b, "supply", h, "supply");
                return h;
            }
            std::vector<std::pair<double, double>> sched = {{plan.options.at, installed}};
            if (std::isfinite(plan.cdu_pumps_on)) sched.emplace_back(plan.cdu_pumps_on, 0.0);
            return schedule("cdu_pumps_unpowered_" + gname, "1", 0.0, sched);
        }();
        const auto& trips = cdu_trips_[gi];
        if (trips.empty()) {
            connect(off, "value", cdus_[gi].cdu, "pumps_failed");
        } else {
            const ComponentHandle mx =
                make<Maximum>("cdu_pumps_failed_" + gname,
                              std::vector<std::string>{"trips", "utility"}, "1", 1.0);
            connect(schedule("pumps_failed_" + gname, "1", 0.0, trips), "value", mx, "trips");
            connect(off, "value", mx, "utility");
            connect(mx, "value", cdus_[gi].cdu, "pumps_failed");
        }
    }
}

double SiteModel::storedEnergy(std::span<const double> x) const {
    auto slice = [&](const ComponentHandle& c) {
        return x.subspan(system_.stateOffset(c.index()), c.component().states().size());
    };
    double e = 0.0;
    for (const auto& r : racks_) {
        const auto& loop = static_cast<const thermal::RackLoop&>(r.loop.component());
        e += cdus_[r.group].multiplicity * loop.storedEnergy(slice(r.loop));
        if (r.smoothing) {
            e += cdus_[r.group].multiplicity * slice(*r.smoothing)[power::PowerSmoothing::kStored];
        }
    }
    for (const auto& c : cdus_) {
        const auto& cdu = static_cast<const thermal::Cdu&>(c.cdu.component());
        e += c.multiplicity * cdu.storedEnergy(slice(c.cdu));
    }
    if (ups_battery_) e += slice(*ups_battery_)[UpsBattery::kEnergy];
    for (const HallSlot& h : halls_) {
        for (const ComponentHandle* p : {&h.pipe_supply, &h.pipe_return}) {
            e += static_cast<const thermal::Pipe&>(p->component()).storedEnergy(slice(*p));
        }
    }
    return e;
}

double SiteModel::meterTotal(std::span<const double> x, std::string_view name) const {
    const auto& names = meterNames();
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end()) throw ModelError(fmt::format("no meter '{}'", name));
    return x[system_.stateOffset(meters_.index()) + static_cast<std::size_t>(it - names.begin())];
}

double SiteModel::hallMeterTotal(std::span<const double> x, std::size_t hall,
                                 std::string_view name) const {
    const auto& names = hallMeterNames();
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end() || hall >= halls_.size() || !halls_[hall].meters) {
        throw ModelError(fmt::format("no meter '{}' of hall {}", name, hall));
    }
    return x[system_.stateOffset(halls_[hall].meters->index()) +
             static_cast<std::size_t>(it - names.begin())];
}

void SiteModel::resetMeters(std::span<double> x) const {
    const std::size_t m = system_.stateOffset(meters_.index());
    for (std::size_t i = 0; i < meterNames().size(); ++i) x[m + i] = 0.0;
    for (const HallSlot& h : halls_) {
        if (!h.meters) continue;
        const std::size_t o = system_.stateOffset(h.meters->index());
        for (std::size_t i = 0; i < hallMeterNames().size(); ++i) x[o + i] = 0.0;
    }
    for (const auto& r : racks_) {
        if (!r.smoothing) continue;
        const std::size_t o = system_.stateOffset(r.smoothing->index());
        x[o + power::PowerSmoothing::kBurnt] = 0.0;
        x[o + power::PowerSmoothing::kGrid] = 0.0;
        x[o + power::PowerSmoothing::kLoad] = 0.0;
        x[o + power::PowerSmoothing::kDeferred] = 0.0;
    }
    if (battery_) {
        const std::size_t o = system_.stateOffset(battery_->index());
        x[o + power::SiteBattery::kLossEnergy] = 0.0;
        x[o + power::SiteBattery::kGridEnergy] = 0.0;
        x[o + power::SiteBattery::kLoadEnergy] = 0.0;
    }
}

}  // namespace dctwin::facility
