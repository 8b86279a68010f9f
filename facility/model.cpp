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
        {"facility_energy", "W", 1.2},  {"it_energy", "W", 1.0},
        {"rack_demand_energy", "W", 1.0}, {"heat_out", "W", 1.2},
        {"cooling_energy", "W", 0.1},   {"loss_energy", "W", 0.05},
        {"cdu_pump_energy", "W", 0.01}, {"fws_pump_energy", "W", 0.005},
        {"plant_fan_energy", "W", 0.02}, {"chiller_energy", "W", 0.02},
        {"air_side_energy", "W", 0.02}, {"burn_energy", "W", 0.01},
        {"evaporation", "m3/s", 1.0},   {"drift", "m3/s", 0.01},
        {"blowdown", "m3/s", 0.5},      {"spray", "m3/s", 1.0},
    };
    return defs;
}

}  // namespace

const std::vector<std::string>& SiteModel::meterNames() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> v;
        for (const auto& d : meterDefs()) v.emplace_back(d.name);
        return v;
    }();
    return names;
}

std::size_t SiteModel::add(std::shared_ptr<const Component> c) {
    system_.addComponent(std::move(c));
    return system_.componentCount() - 1;
}

std::string SiteModel::port(std::size_t component, std::string_view p) const {
    return fmt::format("{}.{}", system_.component(component).name(), p);
}

SiteModel::SiteModel(const Site& site, const Conditions& conditions)
    : site_(site), c_(conditions) {
    const Site& s = site_;
    const thermal::Coolant coolant = thermal::Coolant::byName(s.coolant);
    const thermal::Coolant water = thermal::Coolant::byName("water");
    const double P_site = std::max(1e5, s.design_rack_power * s.racks);
    auto connect = [&](std::size_t a, std::string_view out, std::size_t b, std::string_view in) {
        system_.connect(port(a, out), port(b, in));
    };
    auto fix = [&](std::size_t b, std::string_view in, double v) {
        system_.setInput(port(b, in), v);
    };
    auto schedule = [&](std::string name, const char* unit, double initial,
                        const std::vector<std::pair<double, double>>& changes) {
        return add(std::make_shared<Schedule>(std::move(name), unit, std::max(1.0, initial),
                                              initial, changes));
    };

    // Boundary: weather and the utilization of every rack kind.
    if (c_.steady) {
        weather_ = add(std::make_shared<ConstantWeather>("weather", c_.air.dry_bulb,
                                                         c_.air.wet_bulb, c_.air.dew_point,
                                                         c_.air.pressure));
    } else {
        weather_ = add(std::make_shared<thermal::AmbientWeather>(
            "weather", s.weather, c_.weather_offset, c_.stop_at_weather_hours));
    }
    std::vector<std::size_t> source(s.kinds.size());
    std::vector<std::string> util_port(s.kinds.size()), floor_port(s.kinds.size());
    for (std::size_t k = 0; k < s.kinds.size(); ++k) {
        const RackKind& kind = s.kinds[k];
        if (c_.steady) {
            source[k] = schedule("u_" + kind.label, "1", c_.utilization.at(k), {});
            util_port[k] = "value";
        } else {
            source[k] = add(std::make_shared<power::WorkloadSource>(
                "u_" + kind.label, s.workload, kind.representative, c_.resolution,
                c_.resolution == power::Resolution::Averaged ? c_.workload_window : 0.0));
            util_port[k] = "utilization";
            floor_port[k] = "floor_active";
        }
    }

    // Facility water loop pieces that the CDUs refer to (added first so names resolve).
    std::vector<double> cdu_weights;
    for (const auto& g : s.cdu_groups) cdu_weights.push_back(g.multiplicity);
    const std::size_t fws_mix = add(std::make_shared<thermal::Mixer>(
        "fws_mix", water, cdu_weights, s.fws_supply_setpoint + 8.0, s.cdu.facility_flow));
    thermal::PipeParams pipe = s.pipe;
    pipe_return_ = add(std::make_shared<thermal::Pipe>("fws_return", water, pipe));
    pipe_supply_ = add(std::make_shared<thermal::Pipe>("fws_supply", water, pipe));
    plant_ = add(std::make_shared<HeatRejectionPlant>("plant", s.plant));

    // Racks, rack loops and CDUs.
    const thermal::CduModel cdu_model(s.cdu);
    std::vector<LinearCombination::Term> t_grid, t_demand, t_air, t_pump, t_pump_heat, t_burn,
        t_liquid;
    std::vector<std::pair<std::size_t, std::string>> grid_src, demand_src, air_src, pump_src,
        pump_heat_src, burn_src, liquid_src;
    for (std::size_t gi = 0; gi < s.cdu_groups.size(); ++gi) {
        const CduGroup& g = s.cdu_groups[gi];
        const std::string gname = fmt::format("g{}", gi);
        CduSlot cs;
        cs.multiplicity = g.multiplicity;
        cs.cdu = add(std::make_shared<thermal::Cdu>("cdu_" + gname, cdu_model,
                                                    static_cast<double>(g.racksPerCdu())));
        std::vector<double> rack_weights;
        for (const auto& [k, n] : g.racks) rack_weights.push_back(n);
        cs.mixer = add(std::make_shared<thermal::Mixer>("mix_" + gname, coolant, rack_weights,
                                                        s.tcs_supply_setpoint + 10.0,
                                                        s.rack_loops.front().flow_design));
        std::size_t j = 0;
        for (const auto& [k, n] : g.racks) {
            const RackKind& kind = s.kinds[k];
            const power::RackSpec& spec = s.rack_specs[kind.spec];
            const std::string label = fmt::format("{}_{}", gname, kind.label);
            RackSlot rs;
            rs.group = gi;
            rs.kind = k;
            rs.count = n;
            rs.weight = static_cast<double>(g.multiplicity) * n;
            rs.label = label;
            rs.power = add(std::make_shared<power::RackPower>("rp_" + label, spec, n));
            const power::RackPowerModel rpm(spec);
            // Smoothing acts within seconds: it exists in the model only when the workload is
            // resolved (an averaged workload has no swing to smooth).
            if (s.smoothing && c_.resolution == power::Resolution::Resolved) {
                power::SmoothingParams base;
                base.storage_energy = spec.gpus * spec.storage_per_gpu * n;
                base.nominal_power = rpm.evaluate(1.0).it_power * n;
                base.initial_power = rpm.evaluate(0.0).it_power * n;
                base.nominal_time = c_.horizon;
                const JsonView sv(s.smoothing_json, "/power/smoothing");
                auto params = power::SmoothingParams::fromJson(sv, base, base.nominal_power);
                // Ramp rates are given per GPU, as NVML's power-smoothing knobs are (W/s).
                const double gpus = static_cast<double>(spec.gpus) * n;
                if (sv.has("ramp_up_W_per_s")) params.ramp_up *= gpus;
                if (sv.has("ramp_down_W_per_s")) params.ramp_down *= gpus;
                rs.smoothing = add(std::make_shared<power::PowerSmoothing>("sm_" + label, params));
            }
            std::vector<LinearCombination::Term> heat_terms = {{"heat_liquid", 1.0 / n}};
            if (rs.smoothing) heat_terms.push_back({"burn", 1.0 / n});
            rs.heat = add(std::make_shared<LinearCombination>("hq_" + label, heat_terms, "W",
                                                              s.rack_loops[kind.spec].heat_design));
            thermal::RackLoopParams lp = s.rack_loops[kind.spec];
            lp.count = n;
            lp.initial_temp = s.tcs_supply_setpoint + 5.0;
            rs.loop = add(std::make_shared<thermal::RackLoop>("rl_" + label, coolant, lp));

            connect(source[k], util_port[k], rs.power, "utilization");
            connect(rs.loop, "die_temp", rs.power, "die_temp");
            connect(rs.power, "heat_liquid", rs.heat, "heat_liquid");
            if (rs.smoothing) {
                connect(rs.power, "it_power", *rs.smoothing, "load_power");
                if (c_.steady) {
                    fix(*rs.smoothing, "floor_active", 0.0);
                } else {
                    connect(source[k], floor_port[k], *rs.smoothing, "floor_active");
                }
                connect(*rs.smoothing, "burn_power", rs.heat, "burn");
            }
            connect(rs.heat, "value", rs.loop, "heat_liquid");
            connect(cs.cdu, "secondary_supply_temp", rs.loop, "supply_temp");
            connect(cs.cdu, "flow_per_rack", rs.loop, "flow");
            ++j;
            connect(rs.loop, "outlet_temp", cs.mixer, fmt::format("temp_{}", j));
            connect(cs.cdu, "flow_per_rack", cs.mixer, fmt::format("flow_{}", j));

            const double m = g.multiplicity;
            const std::string tn = fmt::format("t{}", racks_.size());
            t_grid.push_back({tn, m});
            grid_src.emplace_back(rs.smoothing ? *rs.smoothing : rs.power,
                                  rs.smoothing ? "grid_power" : "it_power");
            t_demand.push_back({tn, m});
            demand_src.emplace_back(rs.power, "it_power");
            t_air.push_back({tn, m});
            air_src.emplace_back(rs.power, "heat_air");
            t_liquid.push_back({tn, m});
            liquid_src.emplace_back(rs.loop, "heat_to_coolant_total");
            if (rs.smoothing) {
                t_burn.push_back({tn, m});
                burn_src.emplace_back(*rs.smoothing, "burn_power");
            }
            racks_.push_back(rs);
        }
        connect(cs.mixer, "temp", cs.cdu, "secondary_return_temp");
        connect(pipe_supply_, "outlet_temp", cs.cdu, "facility_supply_temp");
        fix(cs.cdu, "facility_flow_available", s.cdu.facility_flow);
        fix(cs.cdu, "supply_temp_setpoint", s.tcs_supply_setpoint);
        fix(cs.cdu, "pump_speed", 1.0);
        // A pump trip applies to one physical CDU, which site.cpp keeps in a group of its own.
        std::vector<std::pair<double, double>> trips;
        for (int c : g.cdu_indices) {
            if (auto it = c_.pumps_failed.find(c); it != c_.pumps_failed.end()) trips = it->second;
        }
        if (trips.empty()) {
            fix(cs.cdu, "pumps_failed", 0.0);
        } else {
            connect(schedule("pumps_failed_" + gname, "1", 0.0, trips), "value", cs.cdu,
                    "pumps_failed");
        }
        const std::string fj = std::to_string(gi + 1);
        connect(cs.cdu, "facility_return_temp", fws_mix, "temp_" + fj);
        connect(cs.cdu, "facility_flow", fws_mix, "flow_" + fj);
        t_pump.push_back({"t" + fj, static_cast<double>(g.multiplicity)});
        pump_src.emplace_back(cs.cdu, "pump_power");
        t_pump_heat.push_back({"t" + fj, static_cast<double>(g.multiplicity)});
        pump_heat_src.emplace_back(cs.cdu, "pump_heat");
        cdus_.push_back(cs);
    }

    auto sum = [&](std::string name, const std::vector<LinearCombination::Term>& terms,
                   const std::vector<std::pair<std::size_t, std::string>>& src,
                   const char* unit, double nominal) {
        const std::size_t i = add(std::make_shared<LinearCombination>(name, terms, unit, nominal));
        for (std::size_t t = 0; t < terms.size(); ++t) {
            connect(src[t].first, src[t].second, i, terms[t].name);
        }
        return i;
    };
    const std::size_t rack_grid = sum("rack_power", t_grid, grid_src, "W", P_site);
    const std::size_t rack_demand = sum("rack_demand", t_demand, demand_src, "W", P_site);
    const std::size_t rack_air = sum("rack_heat_air", t_air, air_src, "W", 0.1 * P_site);
    sum("heat_to_liquid", t_liquid, liquid_src, "W", P_site);  // recorded by name
    const std::size_t cdu_pumps = sum("cdu_pump_power", t_pump, pump_src, "W", 0.01 * P_site);
    const std::size_t cdu_pump_heat =
        sum("cdu_pump_heat", t_pump_heat, pump_heat_src, "W", 0.01 * P_site);
    const std::size_t burn = sum("burn_power", t_burn, burn_src, "W", 0.01 * P_site);
    const std::size_t plant_power =
        sum("plant_power", {{"fans", 1.0}, {"chiller", 1.0}, {"fws_pumps", 1.0}},
            {{plant_, "fan_power"}, {plant_, "chiller_power"}, {plant_, "fws_pump_power"}}, "W",
            0.02 * P_site);

    // Facility water loop.
    connect(fws_mix, "temp", pipe_return_, "inlet_temp");
    connect(fws_mix, "flow", pipe_return_, "flow");
    fix(pipe_return_, "ambient_temp", s.fws_ambient);
    connect(pipe_return_, "outlet_temp", plant_, "inlet_temp");
    connect(fws_mix, "flow", plant_, "flow");
    fix(plant_, "setpoint", s.fws_supply_setpoint);
    connect(weather_, "dry_bulb", plant_, "dry_bulb");
    connect(weather_, "wet_bulb", plant_, "wet_bulb");
    connect(weather_, "pressure", plant_, "pressure");
    auto scheduled = [&](const char* input, double normal,
                         const std::vector<std::pair<double, double>>& changes) {
        if (changes.empty()) {
            fix(plant_, input, normal);
        } else {
            connect(schedule(std::string("sched_") + input, "1", normal, changes), "value",
                    plant_, input);
        }
    };
    scheduled("units_available", s.plant.units, c_.units_available);
    scheduled("fans_available", 1.0, c_.fans_available);
    scheduled("chiller_available", 1.0, c_.chiller_available);
    connect(plant_, "outlet_temp", pipe_supply_, "inlet_temp");
    connect(fws_mix, "flow", pipe_supply_, "flow");
    fix(pipe_supply_, "ambient_temp", s.fws_ambient);

    // Electrical side and air side.
    SitePowerDesign spd;
    spd.chain = c_.chain;
    spd.ups_mode = s.ups_mode;
    spd.fabric_power = s.fabricPower();
    spd.other_power = s.other_power;
    spd.air_side_chiller = s.air_chiller;
    spd.air_supply_temp = s.air_supply_temp;
    spd.air_fan_power_per_W = s.crah.fan_power / s.crah.capacity;
    spd.nominal_power = 1.2 * P_site;
    site_power_ = add(std::make_shared<SitePower>("site", spd));
    connect(rack_grid, "value", site_power_, "rack_power");
    connect(rack_air, "value", site_power_, "rack_heat_air");
    connect(cdu_pumps, "value", site_power_, "cdu_pump_power");
    connect(cdu_pump_heat, "value", site_power_, "cdu_pump_heat");
    connect(plant_power, "value", site_power_, "plant_power");
    connect(weather_, "dry_bulb", site_power_, "dry_bulb");
    if (s.bess) {
        power::BatteryParams bp = s.bess_params;
        bp.count = c_.battery_blocks;
        bp.initial_load = 1.15 * P_site;
        bp.nominal_time = c_.horizon;
        battery_ = add(std::make_shared<power::SiteBattery>("bess", bp));
        connect(site_power_, "facility_power", *battery_, "load_power");
    }
    const std::size_t heat_out = sum(
        "heat_out",
        {{"plant_heat", 1.0}, {"plant_fans", 1.0}, {"chiller", 1.0}, {"pump_loss", 1.0},
         {"site", 1.0}},
        {{plant_, "heat_rejected"}, {plant_, "fan_power"}, {plant_, "chiller_power"},
         {plant_, "fws_pump_loss"}, {site_power_, "heat_to_ambient"}},
        "W", 1.2 * P_site);

    // Meters.
    std::vector<thermal::Accumulator::Channel> ch;
    for (const auto& d : meterDefs()) {
        const bool water_q = std::string_view(d.unit) == "m3/s";
        const double rate = water_q ? 1e-3 * d.nominal_fraction : P_site * d.nominal_fraction;
        ch.push_back({d.name, d.unit, water_q ? "m3" : "J", rate, rate * c_.horizon});
    }
    meters_ = add(std::make_shared<thermal::Accumulator>("meters", ch, c_.quadrature_meters));
    const std::vector<std::pair<std::size_t, std::string>> meter_src = {
        {site_power_, "facility_power"}, {site_power_, "it_power"}, {rack_demand, "value"},
        {heat_out, "value"},            {site_power_, "cooling_power"},
        {site_power_, "losses"},         {cdu_pumps, "value"},
        {plant_, "fws_pump_power"},      {plant_, "fan_power"},
        {plant_, "chiller_power"},       {site_power_, "air_side_power"},
        {burn, "value"},                 {plant_, "evaporation_rate"},
        {plant_, "drift_rate"},          {plant_, "blowdown_rate"},
        {plant_, "spray_rate"}};
    for (std::size_t i = 0; i < meter_src.size(); ++i) {
        connect(meter_src[i].first, meter_src[i].second, meters_, meterDefs()[i].name);
    }
    system_.finalize();
}

double SiteModel::storedEnergy(std::span<const double> x) const {
    auto slice = [&](std::size_t c) {
        return x.subspan(system_.stateOffset(c), system_.component(c).states().size());
    };
    double e = 0.0;
    for (const auto& r : racks_) {
        const auto& loop = static_cast<const thermal::RackLoop&>(system_.component(r.loop));
        e += cdus_[r.group].multiplicity * loop.storedEnergy(slice(r.loop));
        if (r.smoothing) {
            e += cdus_[r.group].multiplicity *
                 slice(*r.smoothing)[power::PowerSmoothing::kStored];
        }
    }
    for (const auto& c : cdus_) {
        const auto& cdu = static_cast<const thermal::Cdu&>(system_.component(c.cdu));
        e += c.multiplicity * cdu.storedEnergy(slice(c.cdu));
    }
    for (std::size_t p : {pipe_supply_, pipe_return_}) {
        e += static_cast<const thermal::Pipe&>(system_.component(p)).storedEnergy(slice(p));
    }
    return e;
}

double SiteModel::meterTotal(std::span<const double> x, std::string_view name) const {
    const auto& names = meterNames();
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end()) throw ModelError(fmt::format("no meter '{}'", name));
    return x[system_.stateOffset(meters_) + static_cast<std::size_t>(it - names.begin())];
}

void SiteModel::resetMeters(std::span<double> x) const {
    const std::size_t m = system_.stateOffset(meters_);
    for (std::size_t i = 0; i < meterNames().size(); ++i) x[m + i] = 0.0;
    for (const auto& r : racks_) {
        if (!r.smoothing) continue;
        const std::size_t o = system_.stateOffset(*r.smoothing);
        x[o + power::PowerSmoothing::kBurnt] = 0.0;
        x[o + power::PowerSmoothing::kGrid] = 0.0;
        x[o + power::PowerSmoothing::kLoad] = 0.0;
    }
    if (battery_) {
        const std::size_t o = system_.stateOffset(*battery_);
        x[o + power::SiteBattery::kLossEnergy] = 0.0;
        x[o + power::SiteBattery::kGridEnergy] = 0.0;
        x[o + power::SiteBattery::kLoadEnergy] = 0.0;
    }
}

}  // namespace dctwin::facility
