#pragma once
/// @file
/// @brief Sizing (DESIGN.md §2): pure functions from the typed specs to what a facility
/// engineer would size before building a model — racks mapped to rack kinds and CDUs, CDU
/// count and grouping, facility loop, heat-rejection units for the design day, design
/// weather, and the inputs of the electrical sizing.
///
/// Equations (cooling):
///   operating die temp      T_j per rack model at u = 1, the fixed point of
///                           Q_l = RackPowerModel(1, T_j).heat_to_liquid,
///                           T_out = T_tcs + ΔT (ΔT the CDU's TCS-rise target when its pumps
///                           reset on it; else ΔT from the rack loop's design flow),
///                           T_j = T_out + Q_l·R(V̇) + q_gpu·R_jp   (thermal/rack_loop.h steady)
///   design heat to liquid   Q_l = Σ_racks Q_l(T_j)                                        [W]
///   CDU duty                Q_cdu = (1 + g)·Σ_its racks Q_l(T_j) + W_pump (rated-speed
///                           hydraulic work V̇_s·Δp_pump, an upper bound of the pump heat);
///                           g the growth margin (/power/growth_margin_pct)
///   CDUs                    at g = 0 every CDU's Q_cdu must fit its capacity with the stated
///                           racks_per_cdu (else InputError); racks per CDU r is then the
///                           largest r ≤ racks_per_cdu whose grown Q_cdu fits; n_cdu = ⌈racks/r⌉,
///                           spares by N | N+1 | 2N; racks go to CDUs in /it/racks order
///   facility design flow    V̇_d = n_cdu · V̇_cdu,facility                               [m³/s]
///   plant design heat       Q_d = (1 + g)·Q_l + n_cdu · P_pump,cdu + V̇_d · Δp_fws       [W]
///   return temperature      T_r = T_set + Q_d / (ṁ·c_p)   (water)                      [K]
///   heat-rejection units    the fewest n ≥ ⌈Q_d / Q_unit⌉ that meet T_set (unmet < 0.05 K)
///                           at the design weather (design_basis: 0.4 %, 1 % or an n-year
///                           extreme), plus redundancy_units
/// Halls (issue 12): every cooling step above runs per hall, on the hall's racks (the next
/// /halls/i/racks of /it/racks) and its cooling spec; events name their hall. The IT (kinds,
/// fabric) and the electrical inputs are the campus's; the campus design weather is the hall's
/// with the highest design dry bulb, and the generators are derated at the hottest hall's.
/// Growth (issue 15): the installed cooling plant is sized for the grown load, as the electrical
/// chain is; the site model then runs today's load on it (the extra CDUs and heat-rejection
/// units share the load, the facility pumps carry the grown design flow at part speed).
/// The electrical one-line is sized by power::sizeElectrical from `electrical`; the design
/// point study (facility/study.h) refines it with the cooling power the plant draws.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/weather/epw.h"
#include "facility/plant.h"
#include "facility/specs.h"
#include "power/fabric.h"
#include "power/sizing.h"
#include "thermal/pipe.h"

namespace dctwin::facility {

/// Racks identical in hardware and workload (DESIGN.md §4), simulated as one.
struct RackKind {
    std::size_t entry = 0;    ///< index into ItSpec::racks
    int workload_group = -1;  ///< index into SiteSizing::workload_groups (-1: idle)
    int representative = 0;   ///< a rack of this kind (workload lookups)
    std::string label;        ///< for channel and component names
};

/// One CDU (or identical CDUs lumped with a multiplicity) and its racks.
struct CduGroup {
    int multiplicity = 1;
    std::vector<std::pair<std::size_t, int>> racks;  ///< (kind, racks of that kind per CDU)
    std::vector<int> cdu_indices;                    ///< physical CDUs it stands for
    int racksPerCdu() const;
};

/// What the installed heat-rejection units reach with every unit running at the design heat
/// (all rack heat at full utilization plus pump work): on the design day, and hour by hour over
/// the weather file's year (a conservative count: the real load is mostly below design).
struct HeatRejectionReach {
    double design_supply = 0.0;         ///< [K] facility supply reached on the design day
    double design_shortfall = 0.0;      ///< [K] by which it misses the setpoint (0: held)
    double hours_above_setpoint = 0.0;  ///< [h] weather hours missing the setpoint by > 0.05 K
    double worst_excess = 0.0;          ///< [K] the largest miss over those hours
    bool trim_chiller = false;          ///< a trim chiller is installed to cover misses
};

/// The cooling of one hall (facility/specs.h HallSpec): its racks' operating point, CDUs,
/// facility water loop and heat-rejection units, sized on the hall's own racks and cooling spec.
struct HallSizing {
    std::string name;    ///< the hall's name ("" for the one hall of a scenario without /halls)
    int first_rack = 0;  ///< [1] campus index of the hall's first rack
    int racks = 0;       ///< [1] racks in the hall
    double design_heat_liquid = 0.0;       ///< [W] its racks, full utilization, operating die temp
    std::vector<double> rack_die_temp;     ///< [K] per /it/racks entry, operating, u = 1
    std::vector<double> rack_heat_liquid;  ///< [W] per /it/racks entry at that die temperature
    double cdu_pump_heat = 0.0;            ///< [W] per CDU, rated-speed hydraulic work
    double cdu_duty_worst = 0.0;           ///< [W] the largest grown CDU duty (with pump heat)
    int racks_per_cdu = 0;                 ///< [1] racks on a CDU after the growth check
    int cdus = 0;                          ///< [1] running
    int cdu_spares = 1;                    ///< [1] installed on top
    std::string cdu_rule;                  ///< how the CDU count came about
    std::string heat_rejection_rule;       ///< how the heat-rejection count came about
    std::string fws_pump_rule;             ///< how the facility pumps came about
    std::vector<CduGroup> cdu_groups;
    double fws_supply_setpoint = 304.15;  ///< [K]
    double design_fws_flow = 0.0;         ///< [m³/s]
    /// [1] the loop's pressure drop with its liquid over the one given for water (1: water)
    double fws_pressure_drop_factor = 1.0;
    thermal::PipeParams pipe;               ///< each of supply and return
    PlantDesign plant;                      ///< heat-rejection units sized
    HeatRejectionReach reach;               ///< what those units hold, design day and year
    weather::WeatherSample design_weather;  ///< the design conditions its units are counted at
    std::string design_weather_basis;
    double generator_ambient = 0.0;  ///< [K] the design basis's cooling dry bulb
    /// [W] what one heat-rejection unit rejects at the design weather with its fans (and pads)
    /// at full duty, water entering at the design return temperature with its share of the
    /// design flow over the units the count needs (spares left out): the unit capacity derated
    /// for the design basis.
    double unit_capacity_at_design = 0.0;
    double design_heat_rejection = 0.0;  ///< [W] plant design heat the units are counted for
    double water_storage_hours = 48.0;   ///< [h] make-up storage (heat_rejection/water_storage_h)
    /// Frost on the outdoor coils: a dry or adiabatic cooler's tubes hold the facility loop's
    /// liquid outdoors, and a stopped pump in a winter night freezes it there (a cooling tower
    /// is kept from frost by basin heaters and bypass instead; not checked).
    bool coilsOutdoors() const { return plant.kind == PrimaryKind::DryCooler; }
    double freezing_point = 273.15;      ///< [K] the liquid's in the outdoor coils
    bool outdoor_loop = false;           ///< the coils hold an outdoor loop's glycol
    double frost_design_dry_bulb = 0.0;  ///< [K] the site's ASHRAE 99.6 % heating dry bulb
};

struct SiteSizing {
    // IT
    int racks = 0;                      ///< [1]
    int gpus = 0;                       ///< [1]
    std::vector<std::size_t> entry_of;  ///< per rack: index into ItSpec::racks
    power::FabricResult fabric;
    std::vector<power::RackGroup> workload_groups;
    std::vector<RackKind> kinds;
    std::vector<std::size_t> kind_of;  ///< per rack

    // Electrical: the scenario's options with the site's racks and loads filled in.
    power::SizingInput electrical;

    // Cooling
    double design_rack_power = 0.0;  ///< [W] per rack of the first model at full utilization
    double growth_margin = 0.0;      ///< [1] applied to the cooling plant's design load
    std::vector<HallSizing> halls;   ///< one per ScenarioSpec::halls, in order
    /// The campus's design weather: the hall's whose design dry bulb is the highest (the air
    /// side, fans and chillers of the design point; one hall: its own).
    weather::WeatherSample design_weather;
    std::string design_weather_basis;
    double generator_ambient = 0.0;  ///< [K] dry bulb the generators are derated at (hottest hall)

    /// Fabric power outside the racks [W].
    double fabricPower() const { return fabric.power_outside_racks; }
    /// [1] CDUs running / installed on the campus.
    int cdus() const;
    int cdusInstalled() const;
};

/// A count of cooling units with its redundancy and the rule that gave it (sizing tables).
struct CoolingCount {
    int count = 0;               ///< [1] installed
    std::string redundancy;      ///< "N+1", ...
    std::string rule;            ///< the rule and the numbers that gave the count
    double unit_capacity = 0.0;  ///< [W] one unit at the design conditions
    double design_load = 0.0;    ///< [W] the grown load the count carries
    double load_today = 0.0;     ///< [W] the same without growth
};

/// CRAH units for the design air load `crah_load` [W] (today's, at the design point): N+1 on
/// the grown load, n = ⌈(1 + g)·Q_air / Q_crah⌉ + 1.
CoolingCount countCrahs(const ScenarioSpec& spec, const SiteSizing& sizing, double crah_load);

/// Air-cooled chillers of the CRAH plant: N+1 on the grown coil load at the design weather
/// (CRAH fans included, economizer as the plant runs it at the design dry bulb), each unit at
/// its catalog capacity times CAPFT(T_chw, T_db,design): n = ⌈Q_coil / Q_unit⌉ + 1.
CoolingCount countAirChillers(const ScenarioSpec& spec, const SiteSizing& sizing, double crah_load,
                              int crah_units);

/// The pumps out of service of each physical CDU of hall `hall` over time (the CDU's
/// pumps_failed input: changes (time [s], pumps), keyed by CDU index), from the hall's
/// cdu_pump_trip and cdu_pump_changeover events walked in time order:
///   trip           failed += pumps (on top of the CDU's earlier trips)
///   takeover       failed = 0 (a standby CDU, every pump healthy, takes the racks)
///   changeover     one pump fewer runs for transfer_s: the schedule reads
///                  installed − (min(duty, installed − failed) − 1) meanwhile
/// InputError naming the event for more pumps lost than installed, a changeover while one is
/// under way on the same CDU, or one with no running pump or no healthy standby left.
std::map<int, std::vector<std::pair<double, double>>> cduPumpSchedules(const ScenarioSpec& spec,
                                                                       std::size_t hall);

/// Sizes the site from its specs. InputError naming the scenario key when the specs cannot
/// be sized (racks per CDU over the CDU's capacity, an event naming CDU 9 of 8, a facility
/// supply setpoint no count of units holds on the design day unless the scenario accepts the
/// exceedance, ...).
SiteSizing sizeSite(const ScenarioSpec& spec);

}  // namespace dctwin::facility
