#pragma once
/// @file
/// @brief A scenario read into typed specs (DESIGN.md §2, §5.1): the first step of the facility
/// layer's one-way flow scenario → specs → sizing → site model → study → metrics → report.
///
/// The loader (facility/scenario.cpp) reads the JSON once into these structs, SI inside;
/// nothing downstream sees raw JSON. Catalog records are merged with the scenario's
/// overrides here, so an equipment spec is complete. Each spec keeps the JSON path it came
/// from (`where`) for the few checks that need sizing results first (an event naming CDU 9
/// of 8), so those errors still name the user's key.
///
/// What is *not* here: anything derived (counts of CDUs and heat-rejection units, rack kinds
/// and lumping, the electrical one-line): that is sizing (facility/sizing.h).
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/json.h"
#include "core/weather/epw.h"
#include "power/catalog.h"
#include "power/chain.h"
#include "power/fabric.h"
#include "power/grid_metrics.h"
#include "power/rack.h"
#include "power/sizing.h"
#include "power/smoothing.h"
#include "power/workload.h"
#include "thermal/air_side.h"
#include "thermal/cdu.h"
#include "thermal/heat_rejection.h"
#include "thermal/outdoor_loop.h"
#include "thermal/rack_loop.h"

namespace dctwin::facility {

/// /study
struct StudySpec {
    std::string kind;                 ///< design_point | annual | transient | contingency
    int start_month = 1;              ///< [1..12] calendar start (weather lookup)
    int start_day = 1;                ///< [1..31]
    double start_s = 0.0;             ///< [s] since Jan 1 00:00
    double duration_s = 0.0;          ///< [s]
    double output_interval_s = 0.0;   ///< [s]
    std::string workload_resolution;  ///< "mean" (annual) or "resolved" (transient)
    bool per_rack_channels = false;   ///< per-rack-group time series in the report
    /// Per-job time series in the report; unset: on for sites of up to 64 jobs (four series a
    /// job: at 5,560 single-rack jobs a year of them was 1.56 of case 6's 1.62 GB).
    std::optional<bool> per_job_channels;
    double rel_tol = 1e-5;               ///< [1] integrator tolerance (annual default 5e-4)
    std::string linear_solver = "auto";  ///< auto | dense | sparse (KLU)
};

/// /events/i: one of four typed events.
struct CduPumpTrip {
    int cdu = 0;    ///< [1] physical CDU index, 0-based
    int pumps = 1;  ///< [1] pumps lost
    /// [s] after the trip, the hall's standby CDU takes this CDU's racks (absent: none does)
    std::optional<double> standby_takeover;
};
struct HeatRejectionUnitLoss {
    int units = 1;  ///< [1] units lost
};
struct ChillerTrip {};
/// The utility fails (facility/utility_loss.h): which loads sit on which bus, when they
/// restart, and what goes wrong on top (generators failing to start, a part-empty battery).
struct UtilityLoss {
    int generators_failing = 0;       ///< [1] sets that fail to start
    double battery_soe = 1.0;         ///< [1] UPS battery state of energy at the loss
    bool cdu_pumps_on_ups = true;     ///< else on the generators
    bool fws_pumps_on_ups = false;    ///< else on the generators
    double fws_pumps_restart = 5.0;   ///< [s] after their generator block
    double cdu_pumps_restart = 5.0;   ///< [s] (generator-fed)
    double fans_restart = 10.0;       ///< [s]
    double air_side_restart = 30.0;   ///< [s]
    double chillers_restart = 120.0;  ///< [s]
    double it_restart = 300.0;        ///< [s] racks that lost power, after power returns
    double walk_in = 10.0;            ///< [s] UPS input ramp onto the generators
    double charge_limit = 0.1;        ///< [1] of the UPS rating
};
/// The balancing valve of one rack's branch (the first rack of a CDU) moves to an opening.
struct RackValve {
    int cdu = 0;           ///< [1] physical CDU index, 0-based
    double opening = 1.0;  ///< [1] 0 (closed) .. 1 (open)
};
/// The facility water pumps lose `pumps` (cumulative over events).
struct FwsPumpTrip {
    int pumps = 1;  ///< [1]
};
/// Run-and-standby changeover of one CDU's secondary pumps: a running pump stops and the
/// standby takes over after `transfer` (one pump fewer runs meanwhile).
struct CduPumpChangeover {
    int cdu = 0;             ///< [1] physical CDU index, 0-based
    double transfer = 0.25;  ///< [s]
};
/// Plate exchangers of a hall's outdoor loop are taken out of service (cumulative over
/// events); standbys are valved in after `standby_takeover` when given, as many as are left
/// and needed (none left: the event's report says so, and nothing is valved in).
struct OutdoorHxLoss {
    int exchangers = 1;                      ///< [1]
    std::optional<double> standby_takeover;  ///< [s] after the loss; absent: none valved in
};
/// Pumps of a hall's outdoor loop fail (cumulative over events); the standby pumps start in
/// their place, as the facility pumps' do.
struct OutdoorPumpTrip {
    int pumps = 1;  ///< [1]
};
struct EventSpec {
    double at_s = 0.0;  ///< [s] since study start
    std::string where;  ///< JSON path of the event ("/events/0"), for messages
    /// [1] index into ScenarioSpec::halls of the hall a cooling event acts in (its "hall" key;
    /// 0 on a site of one hall). A utility loss acts on the whole campus.
    int hall = 0;
    std::string hall_name;  ///< the "hall" key as given ("": absent)
    std::variant<CduPumpTrip, HeatRejectionUnitLoss, ChillerTrip, UtilityLoss, RackValve,
                 FwsPumpTrip, CduPumpChangeover, OutdoorHxLoss, OutdoorPumpTrip>
        what;
    std::string type() const;  ///< the scenario's name of the event type
};

/// /site
struct SiteSpec {
    std::filesystem::path weather_file;               ///< resolved EPW path
    std::shared_ptr<const weather::Weather> weather;  ///< the file, read
    double other_power = 0.0;                         ///< [W] lighting, offices (no UPS)
    double fws_ambient = 293.15;                      ///< [K] around the facility pipes
};

/// /it/racks/i: a rack model from the catalog (with overrides) and its liquid loop.
struct RackEntry {
    power::RackSpec rack;
    thermal::RackLoopParams loop;  ///< count = 1
    int count = 0;                 ///< [1] racks of this entry
    power::TripPolicy trip;        ///< thermal trip: standby and restart (thermal_trip)
};

/// /it
struct ItSpec {
    std::vector<RackEntry> racks;
    bool lump_identical_racks = true;
    bool fabric = true;  ///< model the scale-out fabric outside the racks
    power::FabricOptions fabric_options;
    int totalRacks() const;
    int totalGpus() const;
};

/// /power/grid: grid-side metrics of transient studies and the limits they are checked
/// against (power/grid_metrics.h).
struct GridSpec {
    power::GridMetricsOptions options;  ///< bands, swing and ramp windows
    power::GridLimits limits;           ///< [W/s], [W]; absent limits are not checked
};

/// /power
struct PowerSpec {
    power::SizingInput sizing;  ///< sizing options (racks, rack model and loads filled in)
    power::UpsMode ups_mode = power::UpsMode::DoubleConversion;
    bool smoothing = false;  ///< GB300 power smoothing on (resolved workloads only)
    power::SmoothingSettings smoothing_settings;
    bool bess = false;  ///< site battery tracking the average
    power::BatteryParams bess_params;
    GridSpec grid;  ///< grid-side metrics and limits (transient studies)
};

/// /cooling/facility_loop
struct FacilityLoopSpec {
    std::optional<double> supply_setpoint;     ///< [K] given; default: TCS supply − CDU approach
    std::optional<double> pipe_volume;         ///< [m³] given; default: 60 s of design flow
    int pipe_segments = 4;                     ///< [1] transport-delay resolution
    std::string coolant = "water";             ///< liquid in the loop (thermal/coolant.h)
    double pressure_drop = 250e3;              ///< [Pa] loop at design flow with water
    double pump_efficiency = 0.7;              ///< [1] wire to water
    int pumps_duty = 2;                        ///< [1] pumps carrying the design flow
    int pumps_standby = 1;                     ///< [1] installed spares
    std::string pump_control = "valve_reset";  ///< | differential_pressure | constant_speed
    double dp_setpoint = 100e3;                ///< [Pa] remote CDU branch at design
    double dp_min = 30e3;                      ///< [Pa] lowest setpoint of the reset
    double valve_target = 0.9;                 ///< [1] most-open CDU valve under the reset
    double pump_min_speed = 0.3;               ///< [1] of rated
};

/// /cooling/heat_rejection
struct HeatRejectionSpec {
    std::string type;  ///< dry_cooler | adiabatic_cooler | cooling_tower
    bool tower = false;
    thermal::DryCoolerSpec dry_cooler;     ///< when !tower
    thermal::CoolingTowerSpec tower_spec;  ///< when tower
    int units = 0;                         ///< [1] installed; 0 = sized
    int redundancy_units = 1;              ///< [1] spares added to the sized count
    std::optional<thermal::ChillerSpec> trim_chiller;
    int trim_chiller_units = 0;  ///< [1]
    /// A glycol loop between the units and a plate heat exchanger to the facility loop.
    std::optional<thermal::OutdoorLoopSpec> outdoor_loop;
    bool accept_exceedance = false;  ///< size even if the design day's setpoint is out of reach
    /// Design weather the units are counted at: "0.4%", "1%" (ASHRAE annual cooling or
    /// evaporation design conditions) or "5-year" … "50-year" (the EPW's n-year extreme dry
    /// bulb; dry-bulb plant only).
    std::string design_basis = "0.4%";
    double water_storage_hours = 48.0;              ///< [h] make-up water stored at the design rate
    std::string where = "/cooling/heat_rejection";  ///< JSON path, for messages
    double unitCapacity() const;                    ///< [W]
    const std::string& modelName() const;
};

/// /cooling/air_side
struct AirSideSpec {
    thermal::AirSideKind kind = thermal::AirSideKind::CrahAirCooledChiller;
    thermal::AirCoilSpec crah;
    thermal::ChillerSpec chiller;           ///< air-cooled chiller curve (outdoor dry bulb)
    double supply_air_temp = 291.15;        ///< [K]
    bool economizer = true;                 ///< air-side economizer
    double economizer_high_limit = 294.26;  ///< [K] fixed dry-bulb high limit
    thermal::AirCoilSpec rear_door;         ///< per rack, kind RearDoor only
};

/// /cooling
struct CoolingSpec {
    std::string coolant = "PG25";
    double tcs_supply_setpoint = 308.15;  ///< [K]
    thermal::CduSpec cdu;
    std::string cdu_where;               ///< JSON path of /cooling/cdu (capacity messages)
    int racks_per_cdu = 8;               ///< [1]
    std::string cdu_redundancy = "N+1";  ///< N | N+1 | 2N
    FacilityLoopSpec facility_loop;
    std::string facility_loop_where;
    HeatRejectionSpec heat_rejection;
    AirSideSpec air_side;
};

/// /halls/i: one building of a campus (issue 12) with its own racks, CDUs, facility water loop
/// and heat-rejection plant; halls share the utility feed, MV distribution, generators, BESS,
/// the fabric and the air side. A scenario without /halls is one hall holding every rack.
struct HallSpec {
    std::string name;    ///< /halls/i/name; "" for the one hall of a scenario without /halls
    std::string where;   ///< JSON path ("/halls/1"; "/cooling" for the implicit hall)
    int first_rack = 0;  ///< [1] the hall's racks are the campus racks first_rack ..
    int racks = 0;       ///<     first_rack + racks − 1, in /it/racks order
    /// /cooling with the keys /halls/i/cooling gives replaced by the hall's (the air side is
    /// the campus's).
    CoolingSpec cooling;
};

/// The whole scenario, typed.
struct ScenarioSpec {
    std::filesystem::path file;      ///< where it was read from ("" for in-memory)
    std::filesystem::path base_dir;  ///< relative paths resolve against this
    std::string name;
    std::string description;
    std::string input_text;  ///< the file as read (for the report)
    Json input;              ///< the parsed input (for the report only)
    SiteSpec site;
    ItSpec it;
    std::shared_ptr<const power::Workload> workload;
    std::shared_ptr<const power::Catalog> catalog;
    PowerSpec power;
    CoolingSpec cooling;          ///< /cooling: the campus's (air side) and the halls' default
    std::vector<HallSpec> halls;  ///< at least one; a scenario without /halls has one, unnamed
    StudySpec study;
    std::vector<EventSpec> events;
    /// The scenario names its halls (/halls): per-hall channels and metrics are reported.
    bool namedHalls() const { return !halls.empty() && !halls.front().name.empty(); }
    /// The files the scenario was read from, each with what it is ("the scenario", "the
    /// weather file", "the job list", "the trace of job 'x'"): no output may replace them.
    std::vector<std::pair<std::filesystem::path, std::string>> inputFiles() const;
};

}  // namespace dctwin::facility
