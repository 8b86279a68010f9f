#pragma once
// Site: a scenario read into typed engineering objects (catalog records merged with the
// scenario's overrides, defaults filled, equipment counts derived), plus the fully resolved
// scenario JSON that goes into the report. Building a Site reads every file the scenario
// names (weather, traces, catalog), so any input error surfaces here, before a run.
//
// Scenario sections read here (units in key names; every key optional unless marked):
//   site     weather (required: EPW path), other_load_kW, fws_ambient_temp_C
//   it       racks (required: [{"model": name, "count": n, <rack overrides>}]),
//            fabric {switch, tiers, ra_rounding}, lump_identical_racks (default true)
//   workload the power layer's workload schema (power/workload.h); absent = all racks idle
//   power    sizing options (power/sizing.h: growth_margin_pct, ups {topology, model},
//            transformers, generators, bess {model, power_pct}, racks_per_row, ...), plus
//            ups_mode ("double_conversion" | "eco"), smoothing {enabled, floor_pct (% of
//            the rack power at full load), ramp_up_W_per_s and ramp_down_W_per_s (per GPU, as
//            the NVML power-smoothing knobs), hysteresis_s, ...} and bess_mode ("off" |
//            "track_average")
//   cooling  coolant, tcs_supply_temp_C, cdu {model, racks_per_cdu, redundancy, <overrides>},
//            facility_loop {supply_temp_C | ashrae_class, pipe_volume_m3, pipe_segments,
//            pressure_drop_kPa, pump_efficiency},
//            heat_rejection {type: dry_cooler | adiabatic_cooler | cooling_tower, model,
//            units (0 = sized), redundancy_units, trim_chiller {model, units}, <overrides>},
//            air_side {model, supply_air_temp_C, chiller_model}
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/weather/epw.h"
#include "facility/plant.h"
#include "facility/scenario.h"
#include "power/catalog.h"
#include "power/fabric.h"
#include "power/sizing.h"
#include "power/smoothing.h"
#include "power/workload.h"
#include "thermal/air_side.h"
#include "thermal/cdu.h"
#include "thermal/pipe.h"
#include "thermal/rack_loop.h"

namespace dctwin::facility {

/// Racks that are identical in hardware and workload (DESIGN.md §4).
struct RackKind {
    std::size_t spec = 0;       // index into Site::rack_specs
    int workload_group = -1;    // index into Site::workload_groups (-1: idle, no workload)
    int representative = 0;     // a rack of this kind (workload lookups)
    std::string label;          // for channel and component names
};

/// One CDU (or a set of identical CDUs lumped with a multiplicity) and its racks.
struct CduGroup {
    int multiplicity = 1;
    std::vector<std::pair<std::size_t, int>> racks;  // (kind, racks of that kind per CDU)
    std::vector<int> cdu_indices;                    // physical CDUs it stands for
    int racksPerCdu() const;
};

struct Site {
    const Scenario* scenario = nullptr;
    Json resolved;                          // the fully resolved scenario

    // Site and weather
    std::shared_ptr<const weather::Weather> weather;
    std::filesystem::path weather_file;
    double other_power = 0.0;               // [W]

    // IT
    power::Catalog catalog;
    std::vector<power::RackSpec> rack_specs;
    std::vector<thermal::RackLoopParams> rack_loops;  // per spec, count = 1
    std::vector<std::size_t> rack_spec_of;  // per rack
    int racks = 0;
    int gpus = 0;
    power::FabricResult fabric;
    bool lump = true;

    // Workload
    std::shared_ptr<const power::Workload> workload;
    std::vector<power::RackGroup> workload_groups;
    std::vector<RackKind> kinds;
    std::vector<std::size_t> kind_of;       // per rack

    // Power
    power::SizingInput sizing_input;
    power::UpsMode ups_mode = power::UpsMode::DoubleConversion;
    bool smoothing = false;
    Json smoothing_json;                    // the scenario's smoothing object (null if absent)
    bool bess = false;
    power::BatteryParams bess_params;

    // Cooling
    std::string coolant = "PG25";
    double tcs_supply_setpoint = 308.15;    // [K]
    thermal::CduSpec cdu;
    int racks_per_cdu = 8;
    int cdus = 0;                           // running
    int cdu_spares = 1;                     // installed on top (redundancy)
    std::vector<CduGroup> cdu_groups;
    double fws_supply_setpoint = 304.15;    // [K]
    thermal::PipeParams pipe;
    double fws_pressure_drop = 250e3;       // [Pa]
    double fws_pump_efficiency = 0.7;       // [1]
    double fws_ambient = 293.15;            // [K]
    PlantDesign plant;
    std::string heat_rejection_type;
    int plant_spare_units = 1;
    thermal::AirCoilSpec crah;
    thermal::ChillerSpec air_chiller;
    double air_supply_temp = 291.15;        // [K]

    // Design values derived while reading (heat-rejection sizing needs them)
    double design_rack_power = 0.0;         // [W] per rack of spec 0 at full utilization
    double design_heat_liquid = 0.0;        // [W] all racks, full utilization
    double design_fws_flow = 0.0;           // [m³/s]
    weather::WeatherSample design_weather;  // the 0.4 % design conditions used for sizing
    std::string design_weather_basis;

    /// Energy that is not modelled as heat (site loads outside the racks) [W].
    double fabricPower() const { return fabric.power_outside_racks; }
};

/// Reads and checks the whole scenario. InputError / ModelError name the JSON path.
std::unique_ptr<Site> readSite(const Scenario& scenario);

}  // namespace dctwin::facility
