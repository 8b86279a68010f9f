// Scenario → specs: the declarations of every scenario key (scenarioSpec) and the one pass that
// reads a file into ScenarioSpec. Derived quantities (counts, lumping, plant size) are sizing's.
#include "facility/scenario.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include "core/data_dir.h"
#include "core/errors.h"
#include "core/units.h"
#include "thermal/catalog.h"
#include "thermal/coolant.h"

namespace dctwin::facility {
namespace {

namespace fs = std::filesystem;
using units::celsiusToKelvin;

constexpr int kDaysInMonth[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
constexpr double kInf = std::numeric_limits<double>::infinity();

// ---------------------------------------------------------------------------------------------
// Catalog-backed objects: the keys a scenario may override, listed from the catalog records
// themselves (documentation keys never offered).

Json jsonType(const Json& v) {
    if (v.is_boolean()) return "boolean";
    if (v.is_number()) return "number";
    if (v.is_string()) return "string";
    if (v.is_array()) return "array";
    return "object";
}

Json recordProperties(const std::vector<const Json*>& records, const std::string& what) {
    Json props = Json::object();
    for (const Json* r : records) {
        for (const auto& [key, value] : r->items()) {
            if (thermal::isDocumentationKey(key) || props.contains(key)) continue;
            props[key] = {{"type", jsonType(value)},
                          {"description", fmt::format("override of the {} record's value", what)}};
        }
    }
    return props;
}

std::function<Json()> thermalOverrides(std::vector<std::string> files) {
    return [files] {
        std::vector<Json> docs;
        for (const auto& f : files) docs.push_back(readJsonFile(thermal::catalogDirectory() / f));
        std::vector<const Json*> records;
        for (const auto& d : docs) {
            for (const auto& [name, r] : d.items()) {
                if (r.is_object()) records.push_back(&r);
            }
        }
        return recordProperties(records, "catalog");
    };
}

std::vector<std::string> thermalNames(const char* file) { return thermal::catalogEntries(file); }

std::shared_ptr<ObjectSpec> spec(std::string description) {
    return std::make_shared<ObjectSpec>(std::move(description));
}

// ---------------------------------------------------------------------------------------------
// Declarations. Ranges are physical or what the models are valid for; defaults are the
// reference site's (domain-facts.md where they are equipment facts).

std::shared_ptr<const ObjectSpec> siteSpec() {
    auto s = spec("The site: weather and loads outside the IT and cooling plant.");
    s->string("weather", std::nullopt,
              "EPW weather file, relative to the scenario's folder or the data folder")
        .number("other_load_kW", "kW", 0, 1e6, 0.0, "lighting, offices, security (no UPS)",
                "other_load")
        .optionalNumber("other_load_MW", "MW", 0, 1e3, "the same in MW", "other_load")
        .number("fws_ambient_temp_C", "C", -50, 60, 20.0,
                "air around the facility water pipes (heat gain or loss)");
    return s;
}

/// /it/racks/i/thermal_trip: what a rack does after its GPUs reach the shutdown temperature
/// (power/rack.h). The trip temperature itself is the rack record's shutdown_temp_C.
std::shared_ptr<const ObjectSpec> thermalTripSpec() {
    auto s = spec(
        "Thermal trip of the racks' GPUs (at the rack model's shutdown_temp_C): what a tripped "
        "rack draws and when it restarts.");
    s->choice("restart", {"never", "after_cooling", "after_delay"}, "never",
              "never: the node waits for an operator (outside the run); after_cooling: restart "
              "once the GPU junction reads restart_temp_C or less; after_delay: restart "
              "restart_delay_s after the junction fell below the shutdown temperature")
        .optionalNumber("restart_temp_C", "C", 0, 150,
                        "after_cooling: junction temperature that allows a restart (default 50 C; "
                        "must lie below the throttle temperature)")
        .optionalNumber("restart_delay_s", "s", 1, 1e7,
                        "after_delay: seconds from the junction cooling below the shutdown "
                        "temperature to the restart (default 900 s)")
        .choice("standby", {"off", "idle"}, "off",
                "off: the compute and NVLink switch trays power off (hardware protection); "
                "idle: they stay powered at their catalog idle power with no work");
    return s;
}

std::shared_ptr<const ObjectSpec> rackEntrySpec() {
    auto s = spec("Racks of one model: a catalog rack with optional overrides of its fields.");
    s->choice("model", power::Catalog::load().names("racks"), std::nullopt,
              "rack model in data/catalog/power/racks.json")
        .integer("count", 1, 100000, std::nullopt, "racks of this model")
        .add(KeySpec{.key = "rack_loop",
                     .type = KeyType::String,
                     .choices = thermalNames("rack_loops.json"),
                     .description = "liquid-loop record in rack_loops.json (default: the rack "
                                    "model's own)"})
        .object("thermal_trip", thermalTripSpec(), false,
                "what a tripped rack draws and when it restarts");
    s->open([] {
        const power::Catalog cat = power::Catalog::load();
        std::vector<const Json*> records;
        for (const auto& n : cat.names("racks")) records.push_back(&cat.entry("racks", n));
        return recordProperties(records, "rack");
    });
    return s;
}

std::shared_ptr<const ObjectSpec> fabricSpec() {
    const power::FabricOptions d;
    auto s = spec("The scale-out fabric (switches, NICs and optics outside the racks).");
    s->boolean("enabled", true, "model the fabric's power")
        .string("switch", d.switch_model, "switch model in data/catalog/power/network.json")
        .string("nic", d.nic_model, "NIC model")
        .string("nic_optic", d.nic_optic_model, "optic module at the NIC")
        .string("switch_optic", d.switch_optic_model, "optic module at the switch")
        .integer("tiers", 0, 3, 0, "fat-tree tiers: 2 or 3, or 0 for the fewest that fit")
        .boolean("ra_rounding", true, "balanced spines as in NVIDIA's reference architecture");
    return s;
}

std::shared_ptr<const ObjectSpec> itSpec() {
    auto s = spec("The IT: racks and the fabric between them.");
    s->array("racks", rackEntrySpec(), true, "rack models and counts")
        .object("fabric", fabricSpec(), false, "scale-out network")
        .boolean("lump_identical_racks", true,
                 "simulate identical racks (hardware and workload) as one with a multiplicity");
    return s;
}

/// /power/grid: what the grid-side metrics look at and the limits a utility states.
std::shared_ptr<const ObjectSpec> gridSpec() {
    auto s = spec(
        "Grid-side metrics of transient studies (power/grid_metrics.h) on the rack demand, the "
        "IT power after smoothing and the utility draw after the battery, and the limits the "
        "utility draw is checked against.");
    s->numberList("band_edges_Hz", "Hz", 0.0, 1e3, 0, std::vector<double>{0.1, 2.0},
                  "edges of the frequency bands, increasing; the last band runs to Nyquist "
                  "(1/(2 x output interval)); a band the output cannot resolve is not reported")
        .number("swing_window_s", "s", 0.0, 1e7, 0.0,
                "window of the windowed swing (0: the whole study)")
        .number("ramp_window_s", "s", 0.0, 1e5, 1.0,
                "interval over which ramps are measured (at least one output interval)")
        .optionalNumber("ramp_limit_MW_per_min", "", 0.0, 1e5,
                        "utility ramp limit on the grid draw, up and down [MW/min]")
        .optionalNumber("max_swing_MW", "", 0.0, 1e5,
                        "largest swing of the grid draw [MW]: in swing_band if given, else "
                        "the windowed swing")
        .optionalInteger("swing_band", 0, 100,
                         "band (0-based index into the bands) that max_swing_MW applies to; "
                         "the check fails if the output does not resolve that band");
    return s;
}

std::shared_ptr<const ObjectSpec> powerSpec() {
    auto s = spec("Electrical chain: sizing options, UPS mode, power smoothing, site battery.");
    s->choice("ups_mode", {"double_conversion", "eco"}, "double_conversion", "UPS operating mode")
        .object("smoothing", power::smoothingSpec(), false, "GB300 power smoothing")
        .choice("bess_mode", {"off", "track_average"}, "off", "site battery operation")
        .object("grid", gridSpec(), false, "grid-side metrics and limits (transient studies)");
    s->delegated(power::sizingOptionsSpec());
    return s;
}

std::shared_ptr<const ObjectSpec> cduSpec() {
    auto s = spec("CDUs: a catalog model with optional overrides, and how racks share them.");
    s->choice("model", thermalNames("cdus.json"), "vertiv_xdu1350", "CDU model in cdus.json")
        .integer("racks_per_cdu", 1, 64, 8, "racks served by one CDU")
        .choice("redundancy", {"N", "N+1", "2N"}, "N+1", "installed spare CDUs")
        .add(KeySpec{.key = "dp_reset",
                     .type = KeyType::String,
                     .choices = {"critical_rack", "delta_t", "none"},
                     .description = "what the CDU pumps' differential-pressure setpoint is reset "
                                    "on: the hottest rack's TCS rise (ASHRAE 90.1 §6.5.4.2, the "
                                    "zone needing the most pressure), the mixed return's rise, or "
                                    "nothing (default: the catalog record's; critical_rack for "
                                    "the shipped CDUs)"});
    s->open(thermalOverrides({"cdus.json"}));
    return s;
}

std::shared_ptr<const ObjectSpec> facilityLoopSpec() {
    auto s = spec("Facility water loop between the CDUs and the heat rejection.");
    s->optionalNumber("supply_temp_C", "C", 5, 50,
                      "facility supply setpoint (default: TCS supply minus the CDU approach)",
                      "supply_temp")
        .optionalNumber("supply_temp_F", "F", 41, 122, "the same in °F", "supply_temp")
        .add(KeySpec{.key = "ashrae_class",
                     .type = KeyType::String,
                     .choices = thermalNames("ashrae_liquid_classes.json"),
                     .description = "ASHRAE liquid-cooling class setting the supply setpoint"});
    s->optionalNumber("pipe_volume_m3", "m3", 1e-3, 1e5,
                      "water in the loop's pipes (default: 60 s of design flow)")
        .integer("pipe_segments", 1, 50, 4, "pipe sections (transport delay resolution)")
        .choice("coolant", thermal::Coolant::knownNames(), "water",
                "liquid in the loop: water, or a propylene glycol where the dry coolers' coils "
                "stand in frost (the freeze check compares its freezing point with the site's "
                "99.6 % heating dry bulb); cooling towers run on water")
        .number("pressure_drop_kPa", "kPa", 1, 2000, 250.0,
                "loop pressure drop at design flow with water (a glycol's is scaled by its "
                "density and viscosity)",
                "pressure_drop")
        .optionalNumber("pressure_drop_bar", "bar", 0.01, 20, "the same in bar", "pressure_drop")
        .optionalNumber("pressure_drop_psi", "psi", 0.145, 290, "the same in psi", "pressure_drop")
        .number("pump_efficiency", "", 0.1, 0.95, 0.7, "facility pumps, wire to water")
        .integer("pumps_duty", 1, 50, 2, "facility pumps that carry the design flow")
        .integer("pumps_standby", 0, 10, 1, "installed spare facility pumps (N+1: 1)")
        .choice("pump_control", {"valve_reset", "differential_pressure", "constant_speed"},
                "valve_reset",
                "facility pump speed control: remote differential pressure reset on the "
                "most-open CDU valve (ASHRAE 90.1 §6.5.4.2), a fixed remote differential "
                "pressure, or rated speed")
        .number("dp_setpoint_kPa", "kPa", 1, 2000, 100.0,
                "differential pressure held across the remote CDU (HX and valve) at design",
                "dp_setpoint")
        .number("dp_min_kPa", "kPa", 1, 2000, 30.0, "lowest setpoint of the valve reset", "dp_min")
        .number("valve_target_pct", "%", 50, 100, 90.0, "most-open CDU valve the reset aims at")
        .number("pump_min_speed_pct", "%", 0, 90, 30.0, "facility pump minimum speed");
    return s;
}

std::shared_ptr<const ObjectSpec> trimChillerSpec() {
    auto s = spec("Air-cooled trim chiller after the heat-rejection bank.");
    s->choice("model", thermalNames("chillers.json"), "carnot_centrifugal",
              "chiller model in chillers.json")
        .integer("units", 1, 100, 1, "chillers");
    return s;
}

std::shared_ptr<const ObjectSpec> outdoorLoopSpec() {
    auto s = spec(
        "Glycol loop between the heat-rejection units and a counterflow plate heat exchanger "
        "that isolates the facility loop: only this loop's liquid stands in frost in the "
        "coils, and the facility loop and CDUs keep their own liquid indoors.");
    s->choice("coolant", thermal::Coolant::knownNames(), "PG40",
              "liquid in the outdoor loop and the units' coils (the freeze check compares its "
              "freezing point with the site's 99.6 % heating dry bulb); cooling towers: water")
        .number("approach_K", "K", 0.5, 10.0, 2.0,
                "plate exchanger: facility supply less the outdoor loop's supply at the design "
                "heat (balanced flows; plates reach below 1 K, 2 K is a common selection)")
        .number("pressure_drop_kPa", "kPa", 1, 2000, 150.0,
                "outdoor loop (coils, exchanger, pipes) at its design flow, with its liquid",
                "pressure_drop")
        .number("pump_efficiency", "", 0.1, 0.95, 0.7, "outdoor loop pumps, wire to liquid")
        .choice("pump_control", {"track_facility_flow", "constant_speed"}, "track_facility_flow",
                "outdoor pumps: variable speed keeping the glycol's flow in proportion to the "
                "facility water's (power by the cube of the speed), or rated speed")
        .number("pump_min_speed_pct", "%", 0, 90, 30.0, "outdoor pumps' minimum speed")
        .integer("exchangers", 1, 20, 1,
                 "duty plate heat exchangers in parallel, sharing the design heat equally")
        .integer("exchangers_standby", 0, 20, 1,
                 "spare plate exchangers, valved off (1: N+1, concurrently maintainable)")
        .integer("pumps_duty", 1, 20, 2, "outdoor loop pumps sharing its design flow")
        .integer("pumps_standby", 0, 20, 1, "spare outdoor loop pumps");
    return s;
}

std::shared_ptr<const ObjectSpec> heatRejectionSpec() {
    auto s = spec("Heat rejection: dry coolers, adiabatic coolers or cooling-tower cells.");
    std::vector<std::string> models = thermalNames("dry_coolers.json");
    for (const auto& n : thermalNames("cooling_towers.json")) models.push_back(n);
    s->choice("type", {"dry_cooler", "adiabatic_cooler", "cooling_tower"}, std::nullopt,
              "kind of heat rejection")
        .add(KeySpec{.key = "model",
                     .type = KeyType::String,
                     .choices = models,
                     .description = "unit model in dry_coolers.json or cooling_towers.json "
                                    "(default: the generic unit of the type)"});
    s->integer("units", 0, 10000, 0, "units installed (0: sized for the design day)")
        .integer("redundancy_units", 0, 100, 1, "spare units added to the sized count")
        .object("trim_chiller", trimChillerSpec(), false, "optional trim chiller")
        .object("outdoor_loop", outdoorLoopSpec(), false,
                "optional glycol loop behind a plate heat exchanger (facility loop indoors)")
        .boolean("accept_setpoint_exceedance", false,
                 "size the plant even when it cannot hold the facility supply setpoint on the "
                 "design day (the expected hours above it are reported); otherwise sizing "
                 "fails")
        .choice("design_basis", {"0.4%", "1%", "5-year", "10-year", "20-year", "50-year"},
                std::string("0.4%"),
                "design weather the units are counted at: the ASHRAE 0.4 % or 1 % annual "
                "design conditions, or the weather file's n-year extreme dry bulb (dry-bulb "
                "plant only); the generators are derated at its dry bulb")
        .number("water_storage_h", "h", 0.0, 720.0, 48.0,
                "make-up water storage, hours at the design make-up rate");
    s->open(thermalOverrides({"dry_coolers.json", "cooling_towers.json"}));
    return s;
}

std::shared_ptr<const ObjectSpec> airSideSpec() {
    auto s = spec(
        "Air side: the heat the liquid does not take (rack air share, fabric, other loads, "
        "electrical rooms).");
    s->choice("kind", {"crah_air_cooled_chiller", "rear_door"}, "crah_air_cooled_chiller",
              "crah_air_cooled_chiller: CRAH units on air-cooled chillers for all of it; "
              "rear_door: rear doors put the racks' air heat into the facility water, CRAH "
              "units take the rest")
        .choice("model", thermalNames("air_side.json"), "crah_150kW",
                "CRAH model in air_side.json (kind crah)")
        .number("supply_air_temp_C", "C", 10, 27, 18.0, "CRAH leaving air")
        .choice("chiller_model", thermalNames("chillers.json"), "york_ycal0033ee_air_cooled",
                "air-cooled chiller of the CRAH plant in chillers.json (outdoor dry bulb as "
                "its condenser temperature)")
        .choice("economizer", {"air_side", "none"}, "air_side",
                "air_side: outdoor air below the high limit and the return air, partial "
                "between supply air and return air temperature")
        .number("economizer_high_limit_C", "C", 10, 30, 21.1,
                "outdoor dry bulb above which the economizer closes (ASHRAE 90.1-2016 Table "
                "6.5.1.1.3 fixed dry bulb: 21.1 °C = 70 °F in humid zones 5A/6A, 23.9 °C = "
                "75 °F in dry or mild ones)")
        .choice("rear_door_model", thermalNames("air_side.json"), "passive_rear_door_20kW",
                "rear door in air_side.json, one per rack (kind rear_door)");
    return s;
}

std::shared_ptr<const ObjectSpec> coolingSpec() {
    auto s = spec("Cooling: coolant, CDUs, facility loop, heat rejection and air side.");
    s->choice("coolant", thermal::Coolant::knownNames(), "PG25", "rack-loop (TCS) coolant")
        .number("tcs_supply_temp_C", "C", 15, 50, 35.0, "rack-loop supply setpoint",
                "tcs_supply_temp")
        .optionalNumber("tcs_supply_temp_F", "F", 59, 122, "the same in °F", "tcs_supply_temp")
        .object("cdu", cduSpec(), false, "coolant distribution units")
        .object("facility_loop", facilityLoopSpec(), false, "facility water loop")
        .object("heat_rejection", heatRejectionSpec(), true, "heat rejection plant")
        .object("air_side", airSideSpec(), false, "air side");
    return s;
}

/// /halls/i/cooling: the keys of /cooling a hall replaces (each replaces the campus's key
/// whole: a hall's "heat_rejection" object is its plant, not a patch of the campus's). The air
/// side is the campus's (one CRAH plant for the fabric, the rooms and the racks' air heat).
std::shared_ptr<const ObjectSpec> hallCoolingSpec() {
    auto s = spec(
        "The hall's cooling: any key of /cooling except air_side, replacing the campus's key "
        "whole; keys not given are the campus's.");
    const auto campus = coolingSpec();  // held: a temporary in the range would dangle
    for (const KeySpec& k : campus->keys()) {
        if (k.key == "air_side") continue;
        KeySpec h = k;
        h.fallback = Json();
        h.required = false;
        h.description = k.description + " (default: the campus's /cooling)";
        s->add(std::move(h));
    }
    return s;
}

std::shared_ptr<const ObjectSpec> hallSpec() {
    auto s = spec(
        "One hall (building) of a campus: its racks (the next `racks` racks of /it/racks, in "
        "order), its CDUs, facility water loop and heat-rejection plant. Halls share the "
        "utility feed, MV distribution, generators, BESS, fabric and air side.");
    s->string("name", std::nullopt, "hall name (letters, digits, '_'), unique in the campus")
        .integer("racks", 1, 100000, std::nullopt, "racks in the hall")
        .object("cooling", hallCoolingSpec(), false, "the hall's cooling (absent: /cooling)");
    return s;
}

std::shared_ptr<const ObjectSpec> studySpec() {
    auto s = spec("What to simulate and how long.");
    s->choice("kind", {"design_point", "annual", "transient", "contingency"}, std::nullopt,
              "the study")
        .string("start", "01-01", "calendar day \"MM-DD\" of a 365-day year")
        .number("start_hour", "h", 0, 23.999, 0.0, "hour of the start day");
    // One length, in any of these units (a design point has none).
    s->optionalNumber("days", "days", 1.0 / 86400, 3650, "study length", "duration")
        .optionalNumber("hours", "h", 1.0 / 3600, 87600, "study length", "duration")
        .optionalNumber("duration_s", "s", 1, 3.1536e8, "study length", "duration")
        .optionalNumber("duration_min", "min", 1.0 / 60, 5.256e6, "study length", "duration")
        .optionalNumber("duration_h", "h", 1.0 / 3600, 87600, "study length", "duration")
        .optionalNumber("duration_days", "days", 1.0 / 86400, 3650, "study length", "duration");
    s->optionalNumber("output_interval_s", "s", 1e-3, kInf,
                      "output sampling (default 600 s annual, 1 s otherwise)", "output_interval")
        .optionalNumber("output_interval_min", "min", 1e-4, kInf, "the same in minutes",
                        "output_interval")
        .optionalNumber("output_interval_h", "h", 1e-6, kInf, "the same in hours",
                        "output_interval")
        .add(KeySpec{.key = "workload_resolution",
                     .type = KeyType::String,
                     .choices = {"mean", "resolved"},
                     .description = "workload averaged over the output interval (default for "
                                    "annual) or resolved to its iterations (transient)"});
    s->boolean("per_rack_channels", false, "per-rack-group time series in the report")
        // Optional without a default: the reader decides by the number of jobs.
        .add(KeySpec{.key = "per_job_channels",
                     .type = KeyType::Boolean,
                     .description = "per-job time series in the report (GPUs scheduled, tripped, "
                                    "throttled, lost); default: on for sites of up to 64 jobs. "
                                    "The study/jobs table is there either way"})
        .optionalNumber("rel_tol", "", 1e-10, 1e-2,
                        "integrator relative tolerance (default 5e-4 annual, 1e-6 otherwise)")
        .choice("linear_solver", {"auto", "dense", "sparse"}, "auto",
                "integrator's linear solver (sparse: KLU)");
    return s;
}

const std::vector<std::string> kEventTypes = {"cdu_pump_trip",       "heat_rejection_unit_loss",
                                              "chiller_trip",        "utility_loss",
                                              "rack_valve",          "fws_pump_trip",
                                              "cdu_pump_changeover", "outdoor_hx_loss",
                                              "outdoor_pump_trip"};

std::shared_ptr<ObjectSpec> eventBase(const std::string& type, std::string description) {
    auto s = spec(std::move(description));
    s->choice("type", {type}, std::nullopt, "event type")
        .optionalNumber("at_s", "s", 0, kInf, "event time after the study start", "at")
        .optionalNumber("at_min", "min", 0, kInf, "the same in minutes", "at")
        .optionalNumber("at_h", "h", 0, kInf, "the same in hours", "at");
    return s;
}

/// Event specs by type; the schema joins them with oneOf on "type".
const std::vector<std::shared_ptr<const ObjectSpec>>& eventSpecs() {
    static const std::vector<std::shared_ptr<const ObjectSpec>> specs = [] {
        auto trip = eventBase("cdu_pump_trip", "Secondary pumps of one CDU fail.");
        trip->integer("cdu", 0, 100000, 0, "CDU index, 0-based")
            .integer("pumps", 1, 16, 1,
                     "pumps that fail, on top of the CDU's earlier trips (none again once a "
                     "standby CDU has taken its racks)")
            .optionalNumber("standby_takeover_s", "s", 0, 86400,
                            "seconds after the trip at which the hall's standby CDU (N+1, 2N) "
                            "takes this CDU's racks: isolation valves and its pumps' start, no "
                            "published figure (absent: no standby is switched in; an operator "
                            "acts outside the study)");
        auto loss = eventBase("heat_rejection_unit_loss", "Heat-rejection units are lost.");
        loss->integer("units", 1, 10000, 1, "units lost");
        auto chiller = eventBase("chiller_trip", "The trim chiller trips.");
        auto utility = eventBase(
            "utility_loss",
            "The utility fails and stays off: the UPS battery carries its bus until the "
            "generators start and take the load in blocks; generator-fed loads (heat-rejection "
            "fans, air side, chillers, by default the facility pumps) restart after their block "
            "(facility/utility_loss.h).");
        utility
            ->integer("generators_failing", 0, 1000, 0,
                      "generator sets that fail to start (the rest take the load if they can)")
            .number("battery_soe_pct", "%", 0, 100, 100,
                    "UPS battery state of energy at the loss (100 = full)")
            .choice("cdu_pumps_bus", {"ups", "generator"}, "ups", "bus of the CDU pumps")
            .choice("fws_pumps_bus", {"ups", "generator"}, "generator",
                    "bus of the facility water pumps")
            .number("fws_pumps_restart_s", "s", 0, 3600, 5,
                    "facility pumps: restart after their generator block (drive restart)")
            .number("cdu_pumps_restart_s", "s", 0, 3600, 5,
                    "CDU pumps on the generators: restart after their block")
            .number("fans_restart_s", "s", 0, 3600, 10,
                    "heat-rejection fans: restart after their block")
            .number("air_side_restart_s", "s", 0, 3600, 30,
                    "CRAH fans and air-side chiller: restart after their block")
            .number("chillers_restart_s", "s", 0, 3600, 120,
                    "trim chillers: restart after their block (anti-recycle timer)")
            .number("it_restart_s", "s", 0, 86400, 300,
                    "racks that lost power: back this long after the generators carry the UPS "
                    "(reboot)")
            .number("ups_walk_in_s", "s", 0, 600, 10,
                    "UPS ramps its input onto the generators over this time")
            .number("charge_limit_pct", "%", 0, 100, 10,
                    "battery charger limit, % of the UPS rating (recharge on generators)");
        auto valve = eventBase("rack_valve",
                               "The balancing valve of one rack's coolant branch (the first rack "
                               "on a CDU) moves, e.g. closed by hand or blocked.");
        valve->integer("cdu", 0, 100000, 0, "CDU index, 0-based")
            .number("opening_pct", "%", 0, 100, 100, "valve opening, 100 = fully open");
        auto fws = eventBase("fws_pump_trip",
                             "Facility water pumps fail (beyond the standby the CDUs get less "
                             "than their design flow).");
        fws->integer("pumps", 1, 60, 1, "pumps that fail, on top of earlier trips");
        auto changeover = eventBase("cdu_pump_changeover",
                                    "Run-and-standby changeover of one CDU's secondary pumps: a "
                                    "running pump stops and the standby takes over.");
        changeover->integer("cdu", 0, 100000, 0, "CDU index, 0-based")
            .number("transfer_s", "s", 0.01, 600, 0.25,
                    "time with one pump fewer running (Vertiv CoolChip CDU 600 O&M guide: "
                    "250 ms)");
        auto hx = eventBase("outdoor_hx_loss",
                            "Plate heat exchangers of the outdoor glycol loop are taken out of "
                            "service (a leak, fouling): the others pass the heat, or none does.");
        hx->integer("exchangers", 1, 40, 1, "plate exchangers lost, on top of earlier losses")
            .optionalNumber("standby_takeover_s", "s", 0, 86400,
                            "seconds after the loss at which a standby plate "
                            "(outdoor_loop/exchangers_standby) is valved in, if one is left "
                            "(absent: none is; an operator acts outside the study)");
        auto outdoor_pumps = eventBase(
            "outdoor_pump_trip",
            "Pumps of the outdoor glycol loop fail: the standby pumps start in their place; "
            "beyond them the pumps left run at rated speed and the glycol's flow falls (none "
            "left: the loop stops).");
        outdoor_pumps->integer("pumps", 1, 40, 1, "pumps that fail, on top of earlier trips");
        // Cooling events act in one hall of a campus (/halls); a utility loss on all of them.
        for (const auto& e : {trip, loss, chiller, valve, fws, changeover, hx, outdoor_pumps}) {
            e->string("hall", "",
                      "hall the event acts in (a /halls name; required on a campus of several "
                      "halls)");
        }
        return std::vector<std::shared_ptr<const ObjectSpec>>{
            trip, loss, chiller, utility, valve, fws, changeover, hx, outdoor_pumps};
    }();
    return specs;
}

std::shared_ptr<const ObjectSpec> rootSpec() {
    auto s = spec("dctwin scenario: one site and one study (DESIGN.md §5.1).");
    s->string("$schema", "", "JSON Schema of this file (for editors)")
        .string("name", std::nullopt, "scenario name")
        .string("description", "", "what the scenario is")
        .object("site", siteSpec(), true, "site and weather")
        .object("it", itSpec(), true, "racks and fabric")
        .object("workload", power::workloadSpec(), false, "jobs on the racks (absent: idle)")
        .object("power", powerSpec(), false, "electrical chain")
        .object("cooling", coolingSpec(), true, "cooling")
        .array("halls", hallSpec(), false,
               "halls of a campus, each with its own cooling plant (absent: one hall)")
        .object("study", studySpec(), true, "the study");
    s->add(KeySpec{.key = "events",
                   .type = KeyType::Array,
                   .description = "events of a contingency study",
                   .items = KeyType::Object});
    return s;
}

// ---------------------------------------------------------------------------------------------
// Reading.

StudySpec readStudy(const SpecReader& v) {
    StudySpec s;
    s.kind = v.string("kind");
    const std::string start = v.string("start");
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
    s.start_s = doy * units::day + v.number("start_hour") * units::hour;

    const bool given = v.hasGroup("duration");
    if (s.kind == "design_point") {
        if (given) v.fail("a design_point study has no duration; remove days/hours/duration");
    } else {
        if (!given) v.fail("a study needs its length: \"days\", \"hours\" or \"duration_s\"");
        s.duration_s = v.quantity("duration");
    }
    s.output_interval_s =
        v.optionalQuantity("output_interval").value_or(s.kind == "annual" ? 600.0 : 1.0);
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
    s.workload_resolution = v.has("workload_resolution")
                                ? v.string("workload_resolution")
                                : (s.kind == "transient" ? "resolved" : "mean");
    s.per_rack_channels = v.boolean("per_rack_channels");
    if (v.has("per_job_channels")) s.per_job_channels = v.boolean("per_job_channels");
    // Annual studies answer energy and water questions: 5e-4 moves the PUE of the reference
    // site by < 2e-4 relative against 1e-5 and the hottest GPU by < 0.05 K, at a tenth of the
    // steps (measured on a 2-day run; the energy balance is exact by construction either way).
    // Transients resolve sub-second swings. Their steps are set by the restarts at every
    // square-wave edge more than by the tolerance, so 1e-6 costs little (the 64-rack training
    // hour: 4.5 s at 1e-5, 5.1 s at 1e-6) and settles what 1e-5 leaves: against 1e-7, that
    // hour's utility envelope swing was 2.4 % high at 1e-5 (1.2 % at 1e-6) and one of its
    // ~1,810 junction cycles fell in the wrong bin; the CDU pump trip's largest ramp-up was
    // 2.3 % low at 1e-5 (4e-5 at 1e-6).
    s.rel_tol = v.has("rel_tol") ? v.number("rel_tol") : (s.kind == "annual" ? 5e-4 : 1e-6);
    s.linear_solver = v.string("linear_solver");
    return s;
}

std::vector<EventSpec> readEvents(const JsonView& list, const StudySpec& study) {
    if (!list.isArray()) list.fail("expected a list of events");
    std::vector<EventSpec> events;
    for (const JsonView& e : list.elements()) {
        if (!e.isObject()) e.fail("expected an event object with a \"type\"");
        const std::string type = e.choice("type", kEventTypes);
        const auto idx = static_cast<std::size_t>(
            std::find(kEventTypes.begin(), kEventTypes.end(), type) - kEventTypes.begin());
        const SpecReader r(e, *eventSpecs()[idx]);
        EventSpec ev;
        ev.at_s = r.quantity("at");
        ev.where = e.where();
        if (type != "utility_loss") ev.hall_name = r.string("hall");
        if (type == "cdu_pump_trip") {
            CduPumpTrip trip{r.count("cdu"), r.count("pumps"), std::nullopt};
            if (r.has("standby_takeover_s")) trip.standby_takeover = r.number("standby_takeover_s");
            ev.what = trip;
        } else if (type == "heat_rejection_unit_loss") {
            ev.what = HeatRejectionUnitLoss{r.count("units")};
        } else if (type == "chiller_trip") {
            ev.what = ChillerTrip{};
        } else if (type == "rack_valve") {
            ev.what = RackValve{r.count("cdu"), r.number("opening_pct") / 100.0};
        } else if (type == "fws_pump_trip") {
            ev.what = FwsPumpTrip{r.count("pumps")};
        } else if (type == "cdu_pump_changeover") {
            ev.what = CduPumpChangeover{r.count("cdu"), r.number("transfer_s")};
        } else if (type == "outdoor_hx_loss") {
            OutdoorHxLoss hx{r.count("exchangers"), std::nullopt};
            if (r.has("standby_takeover_s")) hx.standby_takeover = r.number("standby_takeover_s");
            ev.what = hx;
        } else if (type == "outdoor_pump_trip") {
            ev.what = OutdoorPumpTrip{r.count("pumps")};
        } else {
            UtilityLoss u;
            u.generators_failing = r.count("generators_failing");
            u.battery_soe = r.number("battery_soe_pct") / 100.0;
            u.cdu_pumps_on_ups = r.string("cdu_pumps_bus") == "ups";
            u.fws_pumps_on_ups = r.string("fws_pumps_bus") == "ups";
            u.fws_pumps_restart = r.number("fws_pumps_restart_s");
            u.cdu_pumps_restart = r.number("cdu_pumps_restart_s");
            u.fans_restart = r.number("fans_restart_s");
            u.air_side_restart = r.number("air_side_restart_s");
            u.chillers_restart = r.number("chillers_restart_s");
            u.it_restart = r.number("it_restart_s");
            u.walk_in = r.number("ups_walk_in_s");
            u.charge_limit = r.number("charge_limit_pct") / 100.0;
            ev.what = u;
        }
        if (study.kind != "design_point" && ev.at_s >= study.duration_s) {
            r.fail(r.presentKey("at"),
                   fmt::format("event time {} s is outside the study: expected at least 0 "
                               "and less than its {} s",
                               ev.at_s, study.duration_s));
        }
        events.push_back(std::move(ev));
    }
    return events;
}

void readSite(ScenarioSpec& sc, const SpecReader& v) {
    sc.site.weather_file =
        resolveDataPath(sc.base_dir, v.string("weather"), v.view().where() + "/weather");
    // The file's own errors (rows missing, a bad field) name the file and line; the key that
    // named the file goes in front, as a trace's errors have theirs.
    try {
        sc.site.weather = weather::readEpwShared(sc.site.weather_file);
    } catch (const InputError& e) {
        throw InputError(fmt::format("{}/weather: {}", v.view().where(), e.what()));
    }
    sc.site.other_power = v.quantity("other_load");
    sc.site.fws_ambient = v.si("fws_ambient_temp_C");
}

power::TripPolicy readThermalTrip(const SpecReader& t, const power::RackSpec& rack) {
    power::TripPolicy p;
    const std::string restart = t.string("restart");
    p.restart = restart == "after_cooling" ? power::TripRestart::AfterCooling
                : restart == "after_delay" ? power::TripRestart::AfterDelay
                                           : power::TripRestart::Never;
    p.standby = t.string("standby") == "idle" ? power::TripStandby::Idle : power::TripStandby::Off;
    if (t.has("restart_temp_C")) {
        if (p.restart != power::TripRestart::AfterCooling) {
            t.fail("restart_temp_C",
                   fmt::format("applies to restart \"after_cooling\" only (restart is \"{}\")",
                               restart));
        }
        p.restart_temp = t.si("restart_temp_C");
    }
    if (t.has("restart_delay_s")) {
        if (p.restart != power::TripRestart::AfterDelay) {
            t.fail("restart_delay_s",
                   fmt::format("applies to restart \"after_delay\" only (restart is \"{}\")",
                               restart));
        }
        p.restart_delay = t.number("restart_delay_s");
    }
    // A restart temperature in the throttle band would restart the rack throttled and, at full
    // load, heat it straight back to the trip.
    if (p.restart == power::TripRestart::AfterCooling && p.restart_temp >= rack.throttle_temp) {
        t.fail(t.has("restart_temp_C") ? "restart_temp_C" : "restart",
               fmt::format("restart temperature {:.1f} C must lie below the throttle temperature "
                           "{:.1f} C of rack model '{}'",
                           units::kelvinToCelsius(p.restart_temp),
                           units::kelvinToCelsius(rack.throttle_temp), rack.name));
    }
    return p;
}

void readIt(ScenarioSpec& sc, const SpecReader& v) {
    const auto racks = v.array("racks");
    if (racks.empty()) v.fail("racks", "expected a non-empty list of racks");
    long total = 0;
    for (const SpecReader& e : racks) {
        RackEntry entry;
        entry.count = e.count("count");
        total += entry.count;
        Json ref = e.extraKeys();
        ref["model"] = e.string("model");
        entry.rack = sc.catalog->rack(JsonView(ref, e.view().path()));
        const std::string loop = e.has("rack_loop") ? e.string("rack_loop") : entry.rack.name;
        const auto loops = thermal::catalogEntries("rack_loops.json");
        if (std::find(loops.begin(), loops.end(), loop) == loops.end()) {
            e.fail("rack_loop", fmt::format("no liquid-loop record '{}' for rack '{}'; give "
                                            "\"rack_loop\" one of: {}",
                                            loop, entry.rack.name, fmt::join(loops, ", ")));
        }
        entry.loop = thermal::RackLoopParams::fromCatalog(loop);
        entry.trip = readThermalTrip(e.object("thermal_trip"), entry.rack);
        sc.it.racks.push_back(std::move(entry));
    }
    if (total > 100000) v.fail("racks", fmt::format("{} racks is more than 100,000", total));
    sc.it.lump_identical_racks = v.boolean("lump_identical_racks");
    const SpecReader f = v.object("fabric");
    power::FabricOptions& fo = sc.it.fabric_options;
    fo.gpus = sc.it.totalGpus();
    sc.it.fabric = f.boolean("enabled");
    fo.switch_model = f.string("switch");
    fo.nic_model = f.string("nic");
    fo.nic_optic_model = f.string("nic_optic");
    fo.switch_optic_model = f.string("switch_optic");
    fo.tiers = f.count("tiers");
    // 1 is inside the declared range (0 to 3) but no fat tree: said here, with the key.
    if (fo.tiers == 1)
        f.fail("tiers", "expected 2 or 3 tiers, or 0 for the fewest that fit; got 1");
    fo.ra_rounding = f.boolean("ra_rounding");
}

/// /power/grid into GridSpec (SI: W/s, W).
void readGrid(GridSpec& g, const SpecReader& v) {
    g.options.band_edges = v.numbers("band_edges_Hz");
    for (std::size_t b = 1; b < g.options.band_edges.size(); ++b) {
        if (!(g.options.band_edges[b] > g.options.band_edges[b - 1])) {
            v.fail("band_edges_Hz", "band edges must increase");
        }
    }
    g.options.swing_window = v.number("swing_window_s");
    g.options.ramp_window = v.number("ramp_window_s");
    if (v.has("ramp_limit_MW_per_min")) {
        g.limits.ramp_limit = v.number("ramp_limit_MW_per_min") * 1e6 / 60.0;
    }
    if (v.has("max_swing_MW")) g.limits.max_swing = v.number("max_swing_MW") * 1e6;
    if (v.has("swing_band")) {
        const auto b = static_cast<std::size_t>(v.integer("swing_band"));
        if (b >= g.options.band_edges.size()) {
            v.fail("swing_band",
                   fmt::format("there are {} bands (0 to {})", g.options.band_edges.size(),
                               g.options.band_edges.size() - 1));
        }
        if (!v.has("max_swing_MW"))
            v.fail("swing_band", "applies to max_swing_MW, which is absent");
        g.limits.swing_band = b;
    }
}

void readPower(ScenarioSpec& sc, const SpecReader& v) {
    PowerSpec& p = sc.power;
    // The section's own keys; the rest are the electrical sizing options (power/sizing.h).
    Json sizing = v.extraKeys();
    p.sizing.readJson(JsonView(sizing, v.view().path()));
    p.sizing.racks = sc.it.totalRacks();
    p.sizing.rack = sc.it.racks.front().rack;
    // Every model sized by its own racks (issue 15: a mixed hall was sized as its first model).
    p.sizing.rack_models.clear();
    for (const RackEntry& e : sc.it.racks) p.sizing.rack_models.push_back({e.rack, e.count});
    p.sizing.other_power = sc.site.other_power;
    p.ups_mode =
        v.string("ups_mode") == "eco" ? power::UpsMode::Eco : power::UpsMode::DoubleConversion;
    if (v.has("smoothing")) {
        p.smoothing_settings = power::SmoothingSettings::fromJson(v.object("smoothing").view());
        p.smoothing = p.smoothing_settings.enabled;
        // NVML's secondary floor is a GPU power (W): above a GPU's TGP it cannot be held.
        const double sec = p.smoothing_settings.secondary_floor_per_gpu;
        for (const RackEntry& e : sc.it.racks) {
            if (sec > e.rack.gpu_tdp) {
                v.object("smoothing")
                    .fail(
                        "secondary_floor_W",
                        fmt::format("{} W is above the GPU TGP of rack model '{}' ({} W); expected "
                                    "0 to {} W",
                                    sec, e.rack.name, e.rack.gpu_tdp, e.rack.gpu_tdp));
            }
        }
    }
    readGrid(p.grid, v.object("grid"));
    p.bess = v.string("bess_mode") != "off";
    // Sized (row "bess", check "bess_energy") only on a site that has one.
    p.sizing.site_battery = p.bess;
    if (p.bess) {
        try {
            p.bess_params.spec = sc.catalog->bess(p.sizing.bess_model);
        } catch (const InputError& e) {
            v.fail("bess", e.what());
        }
        p.bess_params.mode = power::BatteryParams::Mode::TrackAverage;
    }
}

/// /cooling, or a hall's: each key from `hall` when it gives it, else from the campus's
/// `campus` (so every error names the file's own key).
void readCooling(CoolingSpec& c, const SpecReader& campus, const SpecReader* hall) {
    auto from = [&](std::string_view key) -> const SpecReader& {
        return hall && hall->has(key) ? *hall : campus;
    };
    c.coolant = from("coolant").string("coolant");
    c.tcs_supply_setpoint =
        (hall && hall->hasGroup("tcs_supply_temp") ? *hall : campus).quantity("tcs_supply_temp");

    const SpecReader cdu = from("cdu").object("cdu");
    c.cdu_where = cdu.view().where();
    Json overrides = cdu.extraKeys();
    // Declared for the GUI and the schema, and still a catalog override.
    if (cdu.has("dp_reset")) overrides["dp_reset"] = cdu.string("dp_reset");
    c.cdu = thermal::CduSpec::fromCatalog(cdu.string("model"), overrides, c.cdu_where);
    c.racks_per_cdu = cdu.count("racks_per_cdu");
    c.cdu_redundancy = cdu.string("redundancy");

    const SpecReader fl = from("facility_loop").object("facility_loop");
    FacilityLoopSpec& f = c.facility_loop;
    c.facility_loop_where = fl.view().where();
    if (fl.has("ashrae_class") && fl.hasGroup("supply_temp")) {
        fl.fail("give either ashrae_class or supply_temp_C, not both");
    }
    if (fl.has("ashrae_class")) {
        f.supply_setpoint =
            thermal::facilitySupplySetpoint(thermal::loadAshraeClass(fl.string("ashrae_class")));
    } else if (fl.hasGroup("supply_temp")) {
        f.supply_setpoint = fl.quantity("supply_temp");
    }
    if (fl.has("pipe_volume_m3")) f.pipe_volume = fl.number("pipe_volume_m3");
    f.coolant = fl.string("coolant");
    f.pipe_segments = fl.count("pipe_segments");
    f.pressure_drop = fl.quantity("pressure_drop");
    f.pump_efficiency = fl.number("pump_efficiency");
    f.pumps_duty = fl.count("pumps_duty");
    f.pumps_standby = fl.count("pumps_standby");
    f.pump_control = fl.string("pump_control");
    f.dp_setpoint = fl.quantity("dp_setpoint");
    f.dp_min = fl.quantity("dp_min");
    f.valve_target = fl.number("valve_target_pct") / 100.0;
    f.pump_min_speed = fl.number("pump_min_speed_pct") / 100.0;
    if (f.dp_setpoint >= f.pressure_drop) {
        fl.fail(fl.presentKey("dp_setpoint"),
                fmt::format("differential-pressure setpoint {:.0f} kPa must be below the loop's "
                            "pressure drop {:.0f} kPa (the pumps' design head; the difference is "
                            "the pipes and the plant)",
                            f.dp_setpoint / 1e3, f.pressure_drop / 1e3));
    }
    if (f.dp_min > f.dp_setpoint) {
        fl.fail(fl.presentKey("dp_min"),
                fmt::format("lowest reset setpoint {:.0f} kPa is above the setpoint {:.0f} kPa",
                            f.dp_min / 1e3, f.dp_setpoint / 1e3));
    }

    const SpecReader hr = from("heat_rejection").object("heat_rejection");
    HeatRejectionSpec& h = c.heat_rejection;
    h.type = hr.string("type");
    h.tower = h.type == "cooling_tower";
    const std::string model = hr.has("model")                ? hr.string("model")
                              : h.tower                      ? "cti_open_tower_cell_3500kW"
                              : h.type == "adiabatic_cooler" ? "generic_adiabatic_dry_cooler_1MW"
                                                             : "generic_dry_cooler_1MW";
    const auto valid = thermalNames(h.tower ? "cooling_towers.json" : "dry_coolers.json");
    if (std::find(valid.begin(), valid.end(), model) == valid.end()) {
        hr.fail("model", fmt::format("'{}' is not a {} model; valid choices: {}", model, h.type,
                                     fmt::join(valid, ", ")));
    }
    const Json hro = hr.extraKeys();
    const std::string where = hr.view().where();
    if (h.tower) {
        h.tower_spec = thermal::CoolingTowerSpec::fromCatalog(model, hro, where);
    } else {
        h.dry_cooler = thermal::DryCoolerSpec::fromCatalog(model, hro, where);
        if (h.type == "adiabatic_cooler" && !h.dry_cooler.adiabatic) {
            hr.fail("model", fmt::format("'{}' has no adiabatic pads; an adiabatic_cooler needs "
                                         "a model with \"adiabatic\": true",
                                         model));
        }
        if (h.type == "dry_cooler") h.dry_cooler.adiabatic = false;
    }
    if (hr.has("outdoor_loop")) {
        const SpecReader ol = hr.object("outdoor_loop");
        thermal::OutdoorLoopSpec o;
        o.coolant = ol.string("coolant");
        o.approach = ol.number("approach_K");
        o.pressure_drop = ol.quantity("pressure_drop");
        o.pump_efficiency = ol.number("pump_efficiency");
        o.track_flow = ol.string("pump_control") == "track_facility_flow";
        o.pump_min_speed = ol.number("pump_min_speed_pct") / 100.0;
        o.exchangers = ol.count("exchangers");
        o.exchangers_standby = ol.count("exchangers_standby");
        o.pumps_duty = ol.count("pumps_duty");
        o.pumps_standby = ol.count("pumps_standby");
        if (h.tower && o.coolant != "water") {
            ol.fail("coolant",
                    fmt::format("'{}' cannot be the liquid of an outdoor loop whose units are "
                                "cooling towers: an open tower's cells spray the loop's own "
                                "water into the air; valid choice with cooling_tower: water",
                                o.coolant));
        }
        h.outdoor_loop = o;
    }
    if (h.tower && f.coolant != "water" && !h.outdoor_loop) {
        fl.fail("coolant",
                fmt::format("'{}' cannot be the liquid of a loop whose heat rejection is a "
                            "cooling tower ({}): an open tower's cells spray the loop's own "
                            "water into the air; valid choice with cooling_tower: water (a "
                            "tower is kept from frost by basin heaters and a winter bypass), "
                            "or a glycol facility loop behind a plate heat exchanger ({}/"
                            "outdoor_loop with coolant water)",
                            f.coolant, hr.view().where(), hr.view().where()));
    }
    h.redundancy_units = hr.count("redundancy_units");
    h.units = hr.count("units");
    h.accept_exceedance = hr.boolean("accept_setpoint_exceedance");
    h.design_basis = hr.string("design_basis");
    h.water_storage_hours = hr.number("water_storage_h");
    h.where = hr.view().where();
    if (hr.has("trim_chiller")) {
        const SpecReader tc = hr.object("trim_chiller");
        h.trim_chiller = thermal::ChillerSpec::fromCatalog(tc.string("model"));
        h.trim_chiller_units = tc.count("units");
    }

    const SpecReader as = campus.object("air_side");
    AirSideSpec& a = c.air_side;
    a.kind = as.string("kind") == "rear_door" ? thermal::AirSideKind::RearDoor
                                              : thermal::AirSideKind::CrahAirCooledChiller;
    a.crah = thermal::AirCoilSpec::fromCatalog(as.string("model"));
    if (a.crah.kind != thermal::AirCoilSpec::Kind::Crah) {
        as.fail("model", fmt::format("'{}' is a rear door, not a CRAH unit", a.crah.name));
    }
    a.chiller = thermal::ChillerSpec::fromCatalog(as.string("chiller_model"));
    a.supply_air_temp = as.si("supply_air_temp_C");
    a.economizer = as.string("economizer") == "air_side";
    a.economizer_high_limit = as.si("economizer_high_limit_C");
    a.rear_door = thermal::AirCoilSpec::fromCatalog(as.string("rear_door_model"));
    if (a.rear_door.kind == thermal::AirCoilSpec::Kind::Crah) {
        as.fail("rear_door_model",
                fmt::format("'{}' is a CRAH unit, not a rear door", a.rear_door.name));
    }
}

/// "a cdu_pump_trip", "an outdoor_pump_trip".
std::string withArticle(const std::string& type) {
    return fmt::format(
        "{} {}",
        std::string_view("aeiou").find(type.front()) == std::string_view::npos ? "a" : "an", type);
}

/// The outdoor loop's events against the hall they act in: it has a loop, and no more plates
/// or pumps are lost in all than it installs. Checked as the scenario is read, so `validate`
/// and `size` refuse what `run` would (they said "valid" to 4 pumps lost of 3).
void checkOutdoorLoopEvents(const ScenarioSpec& sc) {
    std::vector<int> plates(sc.halls.size(), 0), pumps(sc.halls.size(), 0);
    for (const EventSpec& ev : sc.events) {
        const auto* hx = std::get_if<OutdoorHxLoss>(&ev.what);
        const auto* pt = std::get_if<OutdoorPumpTrip>(&ev.what);
        if (!hx && !pt) continue;
        const auto hall = static_cast<std::size_t>(ev.hall);
        const HeatRejectionSpec& hr = sc.halls[hall].cooling.heat_rejection;
        if (!hr.outdoor_loop) {
            const std::string instead =
                hx ? "its coolers take the facility water themselves (their loss is a "
                     "heat_rejection_unit_loss)"
                   : "the facility pumps move the water through its coolers (their loss is an "
                     "fws_pump_trip)";
            if (!sc.namedHalls()) {
                throw InputError(fmt::format(
                    "{}: {} needs an outdoor loop in the plant ({}/outdoor_loop), and it has "
                    "none: {}",
                    ev.where, withArticle(ev.type()), hr.where, instead));
            }
            std::vector<std::string> with;
            for (const HallSpec& h : sc.halls) {
                if (h.cooling.heat_rejection.outdoor_loop) with.push_back(h.name);
            }
            throw InputError(fmt::format(
                "{}/hall: hall '{}' has no outdoor loop ({}/outdoor_loop), which {} needs: {}; "
                "{}",
                ev.where, sc.halls[hall].name, hr.where, withArticle(ev.type()), instead,
                with.empty() ? std::string("no hall has one")
                             : fmt::format("halls with one: {}", fmt::join(with, ", "))));
        }
        const thermal::OutdoorLoopSpec& ol = *hr.outdoor_loop;
        auto lose = [&](int& lost, int n, int installed, std::string_view key,
                        std::string_view what, std::string_view keys) {
            lost += n;
            if (lost > installed) {
                throw InputError(fmt::format(
                    "{}/{}: {} {} lost in all is more than the {} installed ({}/outdoor_loop/{})",
                    ev.where, key, lost, what, installed, hr.where, keys));
            }
        };
        if (hx) {
            lose(plates[hall], hx->exchangers, ol.exchangers + ol.exchangers_standby, "exchangers",
                 "plate exchangers", "exchangers + exchangers_standby");
        } else {
            lose(pumps[hall], pt->pumps, ol.pumps_duty + ol.pumps_standby, "pumps",
                 "outdoor loop pumps", "pumps_duty + pumps_standby");
        }
    }
}

/// /halls (or the one hall of a scenario without it), then the hall each cooling event names.
void readHalls(ScenarioSpec& sc, const SpecReader& v, const SpecReader& cooling) {
    const int total = sc.it.totalRacks();
    if (!v.has("halls")) {
        sc.halls.push_back({"", "/cooling", 0, total, sc.cooling});
    } else {
        const std::vector<SpecReader> halls = v.array("halls");
        if (halls.empty()) v.fail("halls", "expected at least one hall (or no \"halls\" key)");
        int first = 0;
        for (const SpecReader& h : halls) {
            HallSpec hs;
            hs.name = h.string("name");
            hs.where = h.view().where();
            if (hs.name.empty() ||
                !std::all_of(hs.name.begin(), hs.name.end(),
                             [](unsigned char ch) { return std::isalnum(ch) || ch == '_'; })) {
                h.fail("name", fmt::format("'{}': expected letters, digits and '_' (it names "
                                           "the hall's channels and metrics)",
                                           hs.name));
            }
            // Compared without case: a hall's name names its report group and, in CSV
            // reports, its files, which "A" and "a" would share on a case-insensitive file
            // system (macOS, Windows).
            auto folded = [](std::string n) {
                for (char& ch : n)
                    ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
                return n;
            };
            for (const HallSpec& o : sc.halls) {
                if (folded(o.name) == folded(hs.name)) {
                    h.fail("name", fmt::format("'{}' is also the name of {} ('{}'; hall names "
                                               "differ in more than case)",
                                               hs.name, o.where, o.name));
                }
            }
            hs.first_rack = first;
            hs.racks = h.count("racks");
            first += hs.racks;
            if (h.has("cooling")) {
                const SpecReader hc = h.object("cooling");
                readCooling(hs.cooling, cooling, &hc);
            } else {
                hs.cooling = sc.cooling;
            }
            sc.halls.push_back(std::move(hs));
        }
        if (first != total) {
            std::vector<std::string> counts;
            for (const HallSpec& h : sc.halls) counts.push_back(std::to_string(h.racks));
            v.fail("halls", fmt::format("the halls hold {} racks ({}) but /it/racks has {}; "
                                        "every rack belongs to one hall",
                                        first, fmt::join(counts, " + "), total));
        }
    }
    std::vector<std::string> names;
    for (const HallSpec& h : sc.halls) names.push_back(h.name);
    for (EventSpec& ev : sc.events) {
        if (std::holds_alternative<UtilityLoss>(ev.what)) continue;
        if (ev.hall_name.empty()) {
            if (sc.halls.size() > 1) {
                throw InputError(fmt::format(
                    "{}/hall: {} on a campus of {} halls needs the hall it acts in; valid "
                    "choices: {}",
                    ev.where, withArticle(ev.type()), sc.halls.size(), fmt::join(names, ", ")));
            }
            continue;
        }
        const auto it = std::find(names.begin(), names.end(), ev.hall_name);
        if (it == names.end()) {
            throw InputError(fmt::format(
                "{}/hall: '{}' is not a hall of this scenario; {}", ev.where, ev.hall_name,
                sc.namedHalls() ? "valid choices: " + fmt::format("{}", fmt::join(names, ", "))
                                : std::string("it has no /halls (remove the key)")));
        }
        ev.hall = static_cast<int>(it - names.begin());
    }
    checkOutdoorLoopEvents(sc);
}

ScenarioSpec readScenario(const Json& input, const fs::path& base_dir) {
    const JsonView root(input);
    if (!root.isObject()) {
        throw InputError(fmt::format("a scenario is a JSON object, got {}", input.type_name()));
    }
    // The mirror of the sweep reader's "this is a scenario, not a sweep file": a sweep given
    // where a scenario belongs read "unknown key 'base'; did you mean 'name'?".
    if (looksLikeSweep(input)) {
        root.fail(
            "this is a sweep file, not a scenario: it names a base scenario in \"base\" and "
            "what to change; run it with 'dctwin sweep FILE -o DIR' ('dctwin validate FILE' "
            "checks every case first)");
    }
    const SpecReader v(root, scenarioSpec());
    ScenarioSpec sc;
    sc.base_dir = base_dir;
    sc.input = input;
    sc.name = v.string("name");
    if (sc.name.empty()) v.fail("name", "must not be empty");
    sc.description = v.string("description");
    // Read for its type only: editors follow it, the twin does not (`"$schema": 123` passed).
    (void)v.string("$schema");
    // The study first: event times are checked against its length.
    sc.study = readStudy(v.object("study"));
    if (v.has("events")) sc.events = readEvents(root.at("events"), sc.study);
    if (sc.study.kind == "contingency" && sc.events.empty()) {
        v.fail("events", "a contingency study needs at least one event");
    }
    sc.catalog = std::make_shared<power::Catalog>(power::Catalog::load());
    readSite(sc, v.object("site"));
    readIt(sc, v.object("it"));
    const Json empty = Json::object();
    const JsonView given =
        root.has("workload") ? root.at("workload") : JsonView(empty, "/workload");
    // A trace file and a job list resolve like the weather file: beside the scenario, then
    // shipped data, then the working folder, and a missing one lists the places tried. Trace
    // files were looked up as shipped data only, so a log beside the scenario was "not found"
    // in data/. Relative trace paths are resolved here, in a copy the workload reads.
    Json workload_json = given.json();
    if (workload_json.contains("jobs") && workload_json["jobs"].is_array()) {
        Json& jobs = workload_json["jobs"];
        for (std::size_t i = 0; i < jobs.size(); ++i) {
            Json& job = jobs[i];
            // Trace jobs only: a "file" on another job is an unknown key, said as such by
            // the workload's reader, not a file looked for.
            const auto is_string = [&](const char* k) {
                return job.contains(k) && job[k].is_string();
            };
            if (!job.is_object() || !is_string("type") || job["type"] != "trace" ||
                !is_string("file")) {
                continue;
            }
            const std::string file = job["file"].get<std::string>();
            if (file.empty() || fs::path(file).is_absolute()) continue;
            job["file"] =
                resolveDataPath(sc.base_dir, file, fmt::format("{}/jobs/{}/file", given.where(), i))
                    .string();
        }
    }
    const JsonView w(workload_json, given.where());
    fs::path job_list;
    if (w.has("jobs_file") && w.at("jobs_file").json().is_string()) {
        job_list = resolveDataPath(sc.base_dir, w.string("jobs_file"), w.where() + "/jobs_file");
    }
    auto workload = std::make_shared<power::Workload>(
        power::Workload::fromJson(w, sc.it.totalRacks(), {}, job_list));
    if (workload->racks() != sc.it.totalRacks()) {
        w.fail("racks", fmt::format("the workload describes {} racks but /it/racks has {}",
                                    workload->racks(), sc.it.totalRacks()));
    }
    sc.workload = std::move(workload);
    readPower(sc, v.object("power"));
    const SpecReader cooling = v.object("cooling");
    readCooling(sc.cooling, cooling, nullptr);
    readHalls(sc, v, cooling);
    return sc;
}

}  // namespace

std::string EventSpec::type() const { return kEventTypes[what.index()]; }

std::vector<std::pair<fs::path, std::string>> ScenarioSpec::inputFiles() const {
    std::vector<std::pair<fs::path, std::string>> files;
    if (!file.empty()) files.emplace_back(file, "the scenario");
    if (!site.weather_file.empty()) files.emplace_back(site.weather_file, "the weather file");
    if (workload) {
        if (!workload->jobList().empty()) files.emplace_back(workload->jobList(), "the job list");
        for (const auto& job : workload->jobs()) {
            if (const auto* t = dynamic_cast<const power::TraceJob*>(job.get())) {
                files.emplace_back(t->file, fmt::format("the trace of job '{}'", t->name));
            }
        }
    }
    return files;
}

int ItSpec::totalRacks() const {
    int n = 0;
    for (const auto& r : racks) n += r.count;
    return n;
}

int ItSpec::totalGpus() const {
    int n = 0;
    for (const auto& r : racks) n += r.count * r.rack.gpus;
    return n;
}

double HeatRejectionSpec::unitCapacity() const {
    return tower ? tower_spec.capacity : dry_cooler.capacity;
}

const std::string& HeatRejectionSpec::modelName() const {
    return tower ? tower_spec.name : dry_cooler.name;
}

const ObjectSpec& scenarioSpec() {
    static const std::shared_ptr<const ObjectSpec> s = rootSpec();
    return *s;
}

std::string scenarioReference() {
    std::string out =
        "# Scenario reference\n\n"
        "Generated from the scenario specs by `dctwin schema --markdown` (do not edit by hand; "
        "a test checks it is current). Keys carry their unit in their name; ranges and "
        "defaults are in that unit. Keys of one group are the same quantity in different "
        "units: give at most one. Every error names the file, the JSON path, the value and "
        "what was expected.\n\n";
    out += scenarioSpec().markdown("");
    out += "### `/events/i`\n\nOne of these event types, chosen by `type`.\n\n";
    for (const auto& e : eventSpecs()) {
        out += e->markdown(fmt::format("/events/i ({})", e->at("type").choices.front()));
    }
    return out;
}

Json scenarioSchema() {
    Json s = scenarioSpec().schema();
    Json one_of = Json::array();
    for (const auto& e : eventSpecs()) one_of.push_back(e->schema());
    s["properties"]["events"]["items"] = {{"oneOf", one_of}};
    Json out = {{"$schema", "https://json-schema.org/draft/2020-12/schema"},
                {"$id", "https://github.com/dctwin/dctwin/scenarios/schema/scenario.schema.json"},
                {"title", "dctwin scenario"}};
    out.update(s);
    return out;
}

bool looksLikeSweep(const Json& j) {
    // "base" and no "it": a sweep, whatever else it holds. Asking for one of vary, cases,
    // ensemble or set as well sent a sweep with "varry" to the scenario reader: "/: unknown key
    // 'base'; did you mean 'name'?", where the sweep reader says "did you mean 'vary'?".
    return j.is_object() && j.contains("base") && !j.contains("it");
}

ScenarioSpec parseScenario(const Json& input, const fs::path& base_dir, std::string origin) {
    try {
        return readScenario(input, base_dir);
    } catch (const InputError& e) {
        if (origin.empty()) throw;
        throw InputError(fmt::format("{}: {}", origin, e.what()));
    }
}

ScenarioSpec loadScenario(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        throw InputError(fmt::format("cannot read scenario file '{}': {}", file.string(),
                                     fs::exists(file) ? "permission denied" : "no such file"));
    }
    std::stringstream buf;
    buf << in.rdbuf();
    const Json j = parseJson(buf.str(), file.string());
    ScenarioSpec s = parseScenario(j, file.has_parent_path() ? file.parent_path() : fs::path("."),
                                   file.string());
    s.file = file;
    s.input_text = buf.str();
    return s;
}

/// For a file not found: the files of its extension in `dir` (a folder looked in) and the
/// one meant, if `dir` has any: the one file whose name holds the given name ("Milwaukee.epw"
/// for the shipped "USA_WI_Milwaukee-Mitchell.Intl.AP.726400_TMY3.epw"), else the nearest
/// by edit distance (a typo). "" when the folder is missing or has none.
static std::string filesLikeIt(const fs::path& dir, const fs::path& wanted) {
    std::error_code ec;
    if (wanted.extension().empty() || !fs::is_directory(dir, ec)) return {};
    std::vector<std::string> names;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->is_regular_file(ec) && it->path().extension() == wanted.extension()) {
            names.push_back(it->path().filename().string());
        }
    }
    if (names.empty()) return {};
    std::sort(names.begin(), names.end());
    const auto lower = [](std::string v) {
        for (char& c : v) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return v;
    };
    const std::string stem = lower(wanted.stem().string());
    std::vector<std::string> holding;
    for (const std::string& n : names) {
        if (!stem.empty() && lower(n).find(stem) != std::string::npos) holding.push_back(n);
    }
    const std::string meant =
        holding.size() == 1 ? holding.front() : nearestName(wanted.filename().string(), names);
    std::string out;
    if (!meant.empty()) {
        out =
            fmt::format("\ndid you mean {}?", quoteValue((wanted.parent_path() / meant).string()));
    }
    constexpr std::size_t kList = 12;
    std::string list;
    for (std::size_t i = 0; i < names.size() && i < kList; ++i) {
        list += (i ? ", " : "") + names[i];
    }
    if (names.size() > kList) list += fmt::format(", and {} more", names.size() - kList);
    return out +
           fmt::format("\n{} files in {}: {}", wanted.extension().string(), dir.string(), list);
}

fs::path resolveDataPath(const fs::path& base_dir, const std::string& relative,
                         const std::string& json_path) {
    const fs::path p(relative);
    // "" named the scenario's folder ("c/ is a folder, not a file").
    if (relative.empty()) throw InputError(fmt::format("{}: the file name is empty", json_path));
    std::vector<fs::path> tried;
    if (p.is_absolute()) {
        tried.push_back(p);
    } else {
        tried.push_back(base_dir / p);
        tried.push_back(dataFile(p));  // shipped data: "data/weather/X.epw" or "weather/X.epw"
        tried.push_back(fs::current_path() / p);
        // Run from the scenario's folder (or the data's), two of them are one place: each
        // place listed once.
        std::vector<fs::path> once;
        for (const fs::path& t : tried) {
            const auto same = [&](const fs::path& o) {
                return o.lexically_normal() == t.lexically_normal();
            };
            if (std::none_of(once.begin(), once.end(), same)) once.push_back(t);
        }
        tried = std::move(once);
    }
    // The non-throwing lookups: a path the system cannot even look up (longer than its limit)
    // is an input error at the scenario key like any missing file.
    std::error_code ec;
    bool too_long = false;
    for (const auto& t : tried) {
        if (fs::is_regular_file(t, ec)) {
            // Absolute: the path is handed on (a trace to the workload, a job list whose rows
            // name traces beside it) to readers that resolve what is still relative against
            // the shipped data, so "nv.csv" beside "scen.json", run as `dctwin run scen.json`
            // from its folder, became <data>/nv.csv ("cannot open trace file").
            std::error_code abs_ec;
            const fs::path a = fs::absolute(t, abs_ec);
            return abs_ec ? t : a.lexically_normal();
        }
        too_long = too_long || ec == std::errc::filename_too_long;
    }
    if (too_long) {
        throw InputError(fmt::format("{}: file name {} is longer than the system allows", json_path,
                                     quoteValue(relative)));
    }
    // Found, but not a file: say what it is rather than "not found" ("." is a folder,
    // /dev/null a device).
    for (const auto& t : tried) {
        const auto st = fs::status(t, ec);
        if (ec || !fs::exists(st)) continue;
        throw InputError(fmt::format("{}: {} is {}", json_path, quoteValue(t.string()),
                                     fs::is_directory(st)
                                         ? "a folder, not a file"
                                         : "a device or another special file, not a regular file"));
    }
    std::string places;
    for (const auto& t : tried) places += "\n  " + t.string();
    std::string nearby;
    for (const auto& t : tried) {
        nearby = filesLikeIt(t.parent_path(), p);
        if (!nearby.empty()) break;
    }
    throw InputError(fmt::format("{}: file {} not found; looked in:{}{}", json_path,
                                 quoteValue(relative), places, nearby));
}

}  // namespace dctwin::facility
