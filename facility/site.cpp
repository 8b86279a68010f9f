// Reading a scenario into a Site: catalog lookups with overrides, the workload, weather,
// equipment counts, CDU grouping (lumping of identical racks) and heat-rejection sizing.
#include "facility/site.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "core/errors.h"
#include "core/units.h"
#include "core/weather/psychrometrics.h"
#include "power/rack.h"
#include "thermal/catalog.h"

namespace dctwin::facility {
namespace {

using units::celsiusToKelvin;

/// A copy of an object without the given keys (the rest are catalog overrides).
Json without(const Json& j, std::initializer_list<const char*> keys) {
    Json out = j.is_object() ? j : Json::object();
    for (const char* k : keys) out.erase(k);
    return out;
}

/// Runs a catalog lookup whose errors name catalog paths, re-labelling them with the
/// scenario path the user can edit.
template <class F>
auto atPath(const JsonView& where, F&& f) -> decltype(f()) {
    try {
        return f();
    } catch (const InputError& e) {
        throw InputError(fmt::format("{}: {}", where.where(), e.what()));
    }
}

/// Keys of a scenario object that the scenario reads itself; every other key goes to the
/// catalog as an override, whose key check cannot suggest these. A near miss of one of them
/// ("racks_per_cud") is a typo and is reported with the suggestion here.
void rejectNearMisses(const JsonView& v, const std::vector<std::string>& own) {
    for (const auto& k : v.keys()) {
        if (std::find(own.begin(), own.end(), k) != own.end()) continue;
        const std::string near = nearestName(k, own);
        if (!near.empty()) v.fail(fmt::format("unknown key '{}'; did you mean '{}'?", k, near));
    }
}

void readIt(Site& s, const JsonView& root) {
    const JsonView it = root.at("it");
    it.checkKeys({"racks", "fabric", "lump_identical_racks"});
    s.catalog = power::Catalog::load();
    const JsonView racks = it.at("racks");
    if (!racks.isArray() || racks.size() == 0) racks.fail("expected a non-empty list of racks");
    for (const JsonView& e : racks.elements()) {
        if (!e.isObject()) e.fail("expected {\"model\": \"gb300_nvl72\", \"count\": 64}");
        rejectNearMisses(e, {"model", "count", "rack_loop"});
        const std::int64_t count = e.integer("count");
        e.requireRange("count", static_cast<double>(count), 1, 100000);
        const Json ref = without(e.json(), {"count", "rack_loop"});
        const power::RackSpec spec = s.catalog.rack(JsonView(ref, e.path()));
        const std::string loop_name = e.string("rack_loop", spec.name);
        const auto loops = thermal::catalogEntries("rack_loops.json");
        if (std::find(loops.begin(), loops.end(), loop_name) == loops.end()) {
            e.fail("rack_loop", fmt::format("no liquid-loop record '{}' for rack '{}'; give "
                                            "\"rack_loop\" one of: {}",
                                            loop_name, spec.name, fmt::join(loops, ", ")));
        }
        thermal::RackLoopParams loop =
            atPath(e, [&] { return thermal::RackLoopParams::fromCatalog(loop_name); });
        s.rack_specs.push_back(spec);
        s.rack_loops.push_back(loop);
        for (std::int64_t i = 0; i < count; ++i) s.rack_spec_of.push_back(s.rack_specs.size() - 1);
        s.gpus += static_cast<int>(count) * spec.gpus;
    }
    s.racks = static_cast<int>(s.rack_spec_of.size());
    if (s.racks > 100000) racks.fail(fmt::format("{} racks is more than 100,000", s.racks));
    s.lump = it.boolean("lump_identical_racks", true);

    power::FabricOptions fo;
    fo.gpus = s.gpus;
    fo.ra_rounding = true;
    bool fabric = true;
    if (auto f = it.find("fabric")) {
        f->checkKeys({"enabled", "switch", "tiers", "ra_rounding", "nic", "nic_optic",
                      "switch_optic"});
        fabric = f->boolean("enabled", true);
        fo.switch_model = f->string("switch", fo.switch_model);
        fo.nic_model = f->string("nic", fo.nic_model);
        fo.nic_optic_model = f->string("nic_optic", fo.nic_optic_model);
        fo.switch_optic_model = f->string("switch_optic", fo.switch_optic_model);
        fo.tiers = static_cast<int>(f->integer("tiers", 0));
        f->requireRange("tiers", fo.tiers, 0, 3);
        fo.ra_rounding = f->boolean("ra_rounding", true);
    }
    if (fabric) s.fabric = atPath(it, [&] { return power::sizeFabric(fo, s.catalog); });
}

void readWorkload(Site& s, const JsonView& root) {
    const Json empty = Json::object();
    const JsonView w = root.has("workload") ? root.at("workload") : JsonView(empty, "/workload");
    // Trace files resolve against the repository root, as power/workload.h documents (the
    // shipped traces live in data/traces/).
    auto workload = std::make_shared<power::Workload>(
        power::Workload::fromJson(w, s.racks, std::filesystem::path(DCTWIN_SOURCE_DIR)));
    if (workload->racks() != s.racks) {
        w.fail("racks", fmt::format("the workload describes {} racks but /it/racks has {}",
                                    workload->racks(), s.racks));
    }
    s.workload = workload;
    s.workload_groups = workload->rackGroups();
    std::vector<int> group_of(s.racks, -1);
    for (std::size_t g = 0; g < s.workload_groups.size(); ++g) {
        for (int r : s.workload_groups[g].racks) group_of[r] = static_cast<int>(g);
    }
    // Rack kinds: identical hardware and workload (lumped), or one per rack.
    std::map<std::pair<std::size_t, int>, std::size_t> index;
    s.kind_of.assign(s.racks, 0);
    for (int r = 0; r < s.racks; ++r) {
        const auto key = s.lump ? std::make_pair(s.rack_spec_of[r], group_of[r])
                                : std::make_pair(static_cast<std::size_t>(r), -2);
        auto [it, fresh] = index.try_emplace(key, s.kinds.size());
        if (fresh) {
            RackKind k;
            k.spec = s.rack_spec_of[r];
            k.workload_group = group_of[r];
            k.representative = r;
            std::string jobs;
            if (group_of[r] >= 0) {
                for (std::size_t j : s.workload_groups[group_of[r]].jobs) {
                    jobs += (jobs.empty() ? "" : "+") + workload->jobs()[j]->name;
                }
            }
            k.label = s.lump ? fmt::format("k{}_{}", s.kinds.size(), jobs.empty() ? "idle" : jobs)
                             : fmt::format("r{:04d}", r);
            for (char& c : k.label) {
                if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
            }
            s.kinds.push_back(k);
        }
        s.kind_of[r] = it->second;
    }
}

void readPower(Site& s, const JsonView& root) {
    const Json empty = Json::object();
    const JsonView pw = root.has("power") ? root.at("power") : JsonView(empty, "/power");
    if (!pw.isObject()) pw.fail("expected an object");
    const Json sizing_json = without(pw.json(), {"ups_mode", "smoothing", "bess_mode"});
    s.sizing_input.readJson(JsonView(sizing_json, pw.path()));
    s.sizing_input.racks = s.racks;
    s.sizing_input.rack = s.rack_specs.front();
    s.sizing_input.fabric_power = s.fabricPower();
    s.sizing_input.other_power = s.other_power;
    s.ups_mode = pw.choice("ups_mode", {"double_conversion", "eco"}, "double_conversion") == "eco"
                     ? power::UpsMode::Eco
                     : power::UpsMode::DoubleConversion;
    if (auto sm = pw.find("smoothing")) {
        if (!sm->isObject()) sm->fail("expected an object");
        s.smoothing = sm->boolean("enabled", true);
        s.smoothing_json = without(sm->json(), {"enabled"});
        // Check the keys and ranges now rather than when the model is built.
        power::SmoothingParams::fromJson(JsonView(s.smoothing_json, sm->path()), {}, 1.0);
    }
    const std::string bess_mode = pw.choice("bess_mode", {"off", "track_average"}, "off");
    s.bess = bess_mode != "off";
    if (s.bess) {
        s.bess_params.spec = atPath(pw, [&] { return s.catalog.bess(s.sizing_input.bess_model); });
        s.bess_params.mode = power::BatteryParams::Mode::TrackAverage;
    }
}

thermal::AmbientAir designAir(const Site& s, bool evaporative) {
    const auto& dc = s.weather->designConditions();
    double p = 0.0;
    for (double v : s.weather->pressure()) p += v;
    p /= static_cast<double>(s.weather->hourCount());
    thermal::AmbientAir a;
    a.pressure = p;
    if (evaporative) {
        a.dry_bulb = dc.evaporation_mcdb_0_4;
        a.wet_bulb = dc.evaporation_wb_0_4;
    } else {
        a.dry_bulb = dc.cooling_db_0_4;
        a.wet_bulb = dc.cooling_mcwb_0_4;
    }
    a.wet_bulb = std::min(a.wet_bulb, a.dry_bulb);
    return a;
}

void readCooling(Site& s, const JsonView& root) {
    const JsonView cl = root.at("cooling");
    cl.checkKeys({"coolant", "tcs_supply_temp_C", "tcs_supply_temp_F", "cdu", "facility_loop",
                  "heat_rejection", "air_side"});
    s.coolant = cl.string("coolant", "PG25");
    try {
        thermal::Coolant::byName(s.coolant);
    } catch (const InputError& e) {
        cl.fail("coolant", e.what());
    }
    s.tcs_supply_setpoint = cl.quantity("tcs_supply_temp", {"C", "F"}, celsiusToKelvin(35.0));
    cl.requireRange(cl.has("tcs_supply_temp_F") ? "tcs_supply_temp_F" : "tcs_supply_temp_C",
                    s.tcs_supply_setpoint, celsiusToKelvin(15.0), celsiusToKelvin(50.0),
                    cl.has("tcs_supply_temp_F") ? "F" : "C");

    // CDU
    const Json cdu_default = Json{{"model", "vertiv_xdu1350"}};
    const JsonView cv = cl.has("cdu") ? cl.at("cdu") : JsonView(cdu_default, cl.path() + "/cdu");
    if (!cv.isObject()) cv.fail("expected an object like {\"model\": \"vertiv_xdu1350\"}");
    rejectNearMisses(cv, {"model", "racks_per_cdu", "redundancy"});
    const std::string cdu_model = cv.string("model", "vertiv_xdu1350");
    Json overrides = without(cv.json(), {"model", "racks_per_cdu", "redundancy"});
    if (!overrides.contains("secondary_coolant")) overrides["secondary_coolant"] = s.coolant;
    s.cdu = atPath(cv, [&] { return thermal::CduSpec::fromCatalog(cdu_model, overrides); });
    s.racks_per_cdu = static_cast<int>(cv.integer("racks_per_cdu", 8));
    cv.requireRange("racks_per_cdu", s.racks_per_cdu, 1, 64);
    const std::string red = cv.choice("redundancy", {"N", "N+1", "2N"}, "N+1");

    // Design rack heat (full utilization, reference die temperature) against CDU capacity.
    for (int r = 0; r < s.racks; ++r) {
        const power::RackPowerModel m(s.rack_specs[s.rack_spec_of[r]]);
        s.design_heat_liquid += m.evaluate(1.0).heat_to_liquid;
    }
    s.design_rack_power = power::RackPowerModel(s.rack_specs.front()).evaluate(1.0).it_power;
    const double heat_per_rack = s.design_heat_liquid / s.racks;
    if (std::min(s.racks_per_cdu, s.racks) * heat_per_rack > s.cdu.capacity * 1.0001) {
        cv.fail("racks_per_cdu",
                fmt::format("{} racks × {:.1f} kW to liquid = {:.0f} kW exceeds the capacity of "
                            "'{}' ({:.0f} kW); use at most {} racks per CDU or a larger CDU",
                            s.racks_per_cdu, heat_per_rack / 1e3,
                            s.racks_per_cdu * heat_per_rack / 1e3, cdu_model,
                            s.cdu.capacity / 1e3,
                            static_cast<int>(std::floor(s.cdu.capacity / heat_per_rack))));
    }
    s.cdus = (s.racks + s.racks_per_cdu - 1) / s.racks_per_cdu;
    s.cdu_spares = red == "N" ? 0 : red == "N+1" ? 1 : s.cdus;

    // Facility water loop
    const Json fl_default = Json::object();
    const JsonView fl = cl.has("facility_loop") ? cl.at("facility_loop")
                                                : JsonView(fl_default, cl.path() + "/facility_loop");
    fl.checkKeys({"supply_temp_C", "supply_temp_F", "ashrae_class", "pipe_volume_m3",
                  "pipe_segments", "pressure_drop_kPa", "pump_efficiency"});
    if (fl.has("ashrae_class") && fl.hasQuantity("supply_temp", {"C", "F"})) {
        fl.fail("give either ashrae_class or supply_temp_C, not both");
    }
    if (fl.has("ashrae_class")) {
        const auto cls = atPath(fl, [&] {
            return thermal::loadAshraeClass(fl.string("ashrae_class"));
        });
        s.fws_supply_setpoint = thermal::facilitySupplySetpoint(cls);
    } else {
        // Default: the CDU's design approach below the TCS setpoint, so the CDU meets its
        // setpoint at design with the valve open.
        s.fws_supply_setpoint = fl.quantity("supply_temp", {"C", "F"},
                                            s.tcs_supply_setpoint - s.cdu.approach);
    }
    if (s.fws_supply_setpoint > s.tcs_supply_setpoint - 0.5) {
        fl.fail(fmt::format("facility supply {:.1f} °C must be below the TCS supply {:.1f} °C "
                            "(the CDU needs an approach)",
                            units::kelvinToCelsius(s.fws_supply_setpoint),
                            units::kelvinToCelsius(s.tcs_supply_setpoint)));
    }
    s.design_fws_flow = s.cdus * s.cdu.facility_flow;
    s.pipe.volume = fl.number("pipe_volume_m3", 60.0 * s.design_fws_flow);
    fl.requireRange("pipe_volume_m3", s.pipe.volume, 1e-3, 1e5);
    s.pipe.segments = static_cast<int>(fl.integer("pipe_segments", 4));
    fl.requireRange("pipe_segments", s.pipe.segments, 1, 50);
    s.pipe.initial_temp = s.fws_supply_setpoint;
    s.pipe.nominal_flow = s.design_fws_flow;
    s.fws_pressure_drop = fl.quantity("pressure_drop", {"kPa", "bar", "psi"}, 250e3);
    fl.requireRange("pressure_drop_kPa", s.fws_pressure_drop, 1e3, 2e6, "kPa");
    s.fws_pump_efficiency = fl.number("pump_efficiency", 0.7);
    fl.requireRange("pump_efficiency", s.fws_pump_efficiency, 0.1, 0.95);
    s.plant.fws_design_flow = s.design_fws_flow;
    s.plant.fws_design_dp = s.fws_pressure_drop;
    s.plant.fws_pump_efficiency = s.fws_pump_efficiency;

    // Heat rejection
    const JsonView hr = cl.at("heat_rejection");
    rejectNearMisses(hr, {"type", "model", "units", "redundancy_units", "trim_chiller"});
    s.heat_rejection_type =
        hr.choice("type", {"dry_cooler", "adiabatic_cooler", "cooling_tower"});
    const bool tower = s.heat_rejection_type == "cooling_tower";
    const std::string default_model = tower ? "cti_open_tower_cell_3500kW"
                                      : s.heat_rejection_type == "adiabatic_cooler"
                                          ? "generic_adiabatic_dry_cooler_1MW"
                                          : "generic_dry_cooler_1MW";
    const std::string model = hr.string("model", default_model);
    const Json hro = without(hr.json(), {"type", "model", "units", "redundancy_units",
                                          "trim_chiller"});
    PlantDesign& p = s.plant;
    p.kind = tower ? PrimaryKind::CoolingTower : PrimaryKind::DryCooler;
    double unit_capacity = 0.0;
    if (tower) {
        p.tower = atPath(hr, [&] { return thermal::CoolingTowerSpec::fromCatalog(model, hro); });
        unit_capacity = p.tower.capacity;
    } else {
        p.dry_cooler = atPath(hr, [&] { return thermal::DryCoolerSpec::fromCatalog(model, hro); });
        if (s.heat_rejection_type == "adiabatic_cooler" && !p.dry_cooler.adiabatic) {
            hr.fail("model", fmt::format("'{}' has no adiabatic pads; an adiabatic_cooler needs "
                                         "a model with \"adiabatic\": true",
                                         model));
        }
        if (s.heat_rejection_type == "dry_cooler") p.dry_cooler.adiabatic = false;
        unit_capacity = p.dry_cooler.capacity;
    }
    s.plant_spare_units = static_cast<int>(hr.integer("redundancy_units", 1));
    hr.requireRange("redundancy_units", s.plant_spare_units, 0, 100);

    // Design point of the plant: all rack heat plus CDU pump work, at the site's 0.4 % design
    // weather (dry bulb for dry coolers, wet bulb for towers), design facility flow.
    const thermal::AmbientAir air = designAir(s, tower);
    s.design_weather.dry_bulb = air.dry_bulb;
    s.design_weather.wet_bulb = air.wet_bulb;
    s.design_weather.pressure = air.pressure;
    s.design_weather.humidity_ratio = thermal::ambientHumidityRatio(air);
    s.design_weather.dew_point = psychro::dewPointFromHumidityRatio(
        s.design_weather.humidity_ratio, air.pressure);
    s.design_weather_basis = tower ? "ASHRAE 0.4 % evaporation wet bulb with coincident dry bulb"
                                   : "ASHRAE 0.4 % cooling dry bulb with coincident wet bulb";
    const thermal::CduModel cdu_model_obj(s.cdu);
    // Heat the plant rejects at design: racks to liquid, CDU pump power and the facility pumps'
    // hydraulic work (which HeatRejectionPlant adds to the water ahead of the bank).
    const double design_heat = s.design_heat_liquid + s.cdus * cdu_model_obj.design().pump_power +
                               s.design_fws_flow * s.fws_pressure_drop;
    const thermal::Coolant water = thermal::Coolant::byName("water");
    const double mdot = water.massFlow(s.design_fws_flow);
    const double T_return =
        water.heatedTemperature(s.fws_supply_setpoint, mdot, design_heat);
    const int n_min = std::max(1, static_cast<int>(std::ceil(design_heat / unit_capacity)));
    int units = static_cast<int>(hr.integer("units", 0));
    hr.requireRange("units", units, 0, 10000);
    if (units == 0) {
        units = 4 * n_min;
        for (int n = n_min; n <= 4 * n_min; ++n) {
            double unmet = 0.0;
            if (tower) {
                thermal::CoolingTower t(p.tower, n);
                unmet = t.evaluate({T_return, s.design_fws_flow, s.fws_supply_setpoint, air})
                            .setpoint_unmet;
            } else {
                thermal::DryCooler d(p.dry_cooler, n);
                unmet = d.evaluate({T_return, s.design_fws_flow, s.fws_supply_setpoint, air})
                            .setpoint_unmet;
            }
            if (unmet < 0.05) {
                units = n;
                break;
            }
        }
        units += s.plant_spare_units;
    }
    p.units = units;
    p.coolant = "water";
    if (auto tc = hr.find("trim_chiller")) {
        tc->checkKeys({"model", "units"});
        p.chiller = atPath(*tc, [&] {
            return thermal::ChillerSpec::fromCatalog(tc->string("model", "carnot_centrifugal"));
        });
        p.chiller_units = static_cast<int>(tc->integer("units", 1));
        tc->requireRange("units", p.chiller_units, 1, 100);
    }
    int lost = 0;
    for (const auto& ev : s.scenario->events) {
        if (ev.type != "heat_rejection_unit_loss") continue;
        const JsonView e(ev.params, ev.path);
        lost += static_cast<int>(e.integer("units", 1));
        e.requireRange("units", lost, 1, p.units);
        p.unit_counts_needed.push_back(p.units - lost);
    }

    // Air side
    const Json as_default = Json::object();
    const JsonView as = cl.has("air_side") ? cl.at("air_side")
                                           : JsonView(as_default, cl.path() + "/air_side");
    as.checkKeys({"model", "supply_air_temp_C", "chiller_model"});
    s.crah = atPath(as, [&] {
        return thermal::AirCoilSpec::fromCatalog(as.string("model", "crah_150kW"));
    });
    s.air_chiller = atPath(as, [&] {
        return thermal::ChillerSpec::fromCatalog(as.string("chiller_model", "carnot_centrifugal"));
    });
    s.air_chiller.capacity = 1e12;  // the CRAH count is sized, not limited, here
    s.air_supply_temp = as.quantity("supply_air_temp", {"C"}, celsiusToKelvin(18.0));
    as.requireRange("supply_air_temp_C", s.air_supply_temp, celsiusToKelvin(10.0),
                    celsiusToKelvin(27.0), "C");
}

void groupCdus(Site& s) {
    std::vector<int> targeted;
    for (const auto& ev : s.scenario->events) {
        if (ev.type != "cdu_pump_trip") continue;
        const JsonView e(ev.params, ev.path);
        const int c = static_cast<int>(e.integer("cdu", 0));
        e.requireRange("cdu", c, 0, s.cdus - 1);
        const int pumps = static_cast<int>(e.integer("pumps", 1));
        e.requireRange("pumps", pumps, 1, s.cdu.pumps_installed);
        targeted.push_back(c);
    }
    std::map<std::vector<std::pair<std::size_t, int>>, std::size_t> index;
    for (int c = 0; c < s.cdus; ++c) {
        std::map<std::size_t, int> comp;
        for (int r = c * s.racks_per_cdu; r < std::min(s.racks, (c + 1) * s.racks_per_cdu); ++r) {
            ++comp[s.kind_of[r]];
        }
        std::vector<std::pair<std::size_t, int>> key(comp.begin(), comp.end());
        const bool alone = !s.lump ||
                           std::find(targeted.begin(), targeted.end(), c) != targeted.end();
        auto sig = key;
        if (alone) sig.emplace_back(static_cast<std::size_t>(-1), c);  // unique signature
        auto [it, fresh] = index.try_emplace(sig, s.cdu_groups.size());
        if (fresh) s.cdu_groups.push_back(CduGroup{0, key, {}});
        CduGroup& g = s.cdu_groups[it->second];
        ++g.multiplicity;
        g.cdu_indices.push_back(c);
    }
}

Json resolvedScenario(const Site& s) {
    Json r = s.scenario->input;
    r["site"]["weather_resolved"] = s.weather_file.string();
    r["site"]["design_weather"] = {
        {"basis", s.design_weather_basis},
        {"dry_bulb_C", units::kelvinToCelsius(s.design_weather.dry_bulb)},
        {"wet_bulb_C", units::kelvinToCelsius(s.design_weather.wet_bulb)},
        {"pressure_Pa", s.design_weather.pressure}};
    Json racks = Json::array();
    for (std::size_t i = 0; i < s.rack_specs.size(); ++i) {
        const auto& k = s.rack_specs[i];
        racks.push_back({{"model", k.name},
                         {"gpus", k.gpus},
                         {"gpu_tdp_W", k.gpu_tdp},
                         {"gpu_idle_W", k.gpu_idle},
                         {"psu_shelves", k.psu_shelves},
                         {"tdp_kW", k.tdp / 1e3},
                         {"throttle_temp_C", units::kelvinToCelsius(k.throttle_temp)},
                         {"rack_loop_flow_Lpm", s.rack_loops[i].flow_design / units::L_per_min},
                         {"rack_loop_R_K_per_W", s.rack_loops[i].R_design}});
    }
    r["it"]["racks_resolved"] = racks;
    r["it"]["total_racks"] = s.racks;
    r["it"]["total_gpus"] = s.gpus;
    r["it"]["rack_kinds"] = s.kinds.size();
    r["it"]["fabric_resolved"] = {{"tiers", s.fabric.tiers},
                                  {"leaves", s.fabric.leaves},
                                  {"spines", s.fabric.spines},
                                  {"cores", s.fabric.cores},
                                  {"power_outside_racks_kW", s.fabric.power_outside_racks / 1e3}};
    r["cooling"]["resolved"] = {
        {"coolant", s.coolant},
        {"tcs_supply_temp_C", units::kelvinToCelsius(s.tcs_supply_setpoint)},
        {"fws_supply_temp_C", units::kelvinToCelsius(s.fws_supply_setpoint)},
        {"cdu_model", s.cdu.name},
        {"cdu_capacity_kW", s.cdu.capacity / 1e3},
        {"cdu_approach_K", s.cdu.approach},
        {"cdus_running", s.cdus},
        {"cdus_installed", s.cdus + s.cdu_spares},
        {"cdu_groups", s.cdu_groups.size()},
        {"fws_design_flow_m3h", s.design_fws_flow / units::m3_per_h},
        {"heat_rejection_type", s.heat_rejection_type},
        {"heat_rejection_model", s.plant.kind == PrimaryKind::CoolingTower ? s.plant.tower.name
                                                                           : s.plant.dry_cooler.name},
        {"heat_rejection_units", s.plant.units},
        {"trim_chiller_units", s.plant.chiller ? s.plant.chiller_units : 0},
        {"air_side_model", s.crah.name}};
    r["power"]["resolved"] = {
        {"ups_mode", s.ups_mode == power::UpsMode::Eco ? "eco" : "double_conversion"},
        {"ups_model", s.sizing_input.ups_model},
        {"ups_topology", s.sizing_input.ups_redundancy.label()},
        {"transformer_model", s.sizing_input.transformer_model},
        {"generator_model", s.sizing_input.generator_model},
        {"growth_margin_pct", s.sizing_input.growth_margin * 100},
        {"smoothing", s.smoothing},
        {"bess", s.bess}};
    return r;
}

}  // namespace

int CduGroup::racksPerCdu() const {
    int n = 0;
    for (const auto& [kind, count] : racks) n += count;
    return n;
}

std::unique_ptr<Site> readSite(const Scenario& scenario) {
    auto s = std::make_unique<Site>();
    s->scenario = &scenario;
    const JsonView root(scenario.input);
    const JsonView site = root.at("site");
    site.checkKeys({"weather", "other_load_kW", "other_load_MW", "fws_ambient_temp_C"});
    s->weather_file = resolveDataPath(scenario, site.string("weather"), site.where() + "/weather");
    s->weather = std::make_shared<weather::Weather>(weather::readEpw(s->weather_file));
    s->other_power = site.quantity("other_load", {"kW", "MW"}, 0.0);
    site.requireRange("other_load_kW", s->other_power, 0.0, 1e9, "kW");
    s->fws_ambient = site.quantity("fws_ambient_temp", {"C"}, units::celsiusToKelvin(20.0));

    readIt(*s, root);
    readWorkload(*s, root);
    readPower(*s, root);
    readCooling(*s, root);
    groupCdus(*s);
    s->resolved = resolvedScenario(*s);
    return s;
}

}  // namespace dctwin::facility
