#pragma once
/// @file
/// @brief The thermal-layer week example: a composed model through the core framework, built
/// outside the product libraries (DESIGN.md §2) and run by examples/thermal_week_main.cpp and
/// by tests/thermal/composed_example_test.cpp, the regression test of the thermal layer as a
/// whole (`make run` runs the facility twin, not this).
///
// 8 GB300 racks, one CDU, a facility water loop (two pipes) and a dry-cooler bank with
// adiabatic assist, on a week of real weather, integrated by CVODE via dctwin::Simulator and
// written to an HDF5 report with units (issue 4).
//
// Wiring (→ data flow; [s] marks a component whose outputs are states, which is why the loop
// racks → CDU → facility loop → dry cooler → CDU has no algebraic loop):
//   load ─heat─▶ rack_i[s] ─outlet─▶ mixer ─▶ cdu[s].secondary_return_temp
//   cdu.secondary_supply_temp, cdu.flow_per_rack ─▶ rack_i
//   cdu.facility_return_temp ─▶ pipe_return[s] ─▶ dry_cooler ─▶ pipe_supply[s] ─▶ cdu
//   weather ─▶ dry_cooler;  dry_cooler.spray_water_rate ─▶ water meter;  energy accumulators
// The rack heat is a synthetic but smooth profile: five racks of training at 92–100 % of the
// liquid design heat (with a slow wobble) and three racks of inference following a diurnal
// shape between 45 % and 90 %.
#include <filesystem>
#include <string>

#include "core/solver/ode_solver.h"

namespace dctwin::examples {

struct ThermalWeekOptions {
    int start_day_of_year = 196;     // [1..365] 196 = 15 July
    double days = 7.0;               // [d]
    double output_interval = 600.0;  // [s]
    int racks = 8;                   // [1]
    std::string rack_model = "gb300_nvl72";
    std::string cdu_model = "vertiv_xdu1350";
    std::string dry_cooler_model = "generic_adiabatic_dry_cooler_1MW";
    int dry_cooler_units = 2;               // [1]
    double tcs_supply_setpoint = 313.15;    // [K] 40 °C (NVIDIA warm-water range 32–45 °C)
    std::string ashrae_class = "W40";       // facility water class (C1)
    double facility_setpoint_margin = 4.0;  // [K] setpoint = class maximum − margin (36 °C)
    double pipe_volume = 1.8;               // [m³] each of supply and return (100 m of DN150)
    int pipe_segments = 4;                  // [1]
};

struct ThermalWeekSummary {
    double it_heat = 0.0;                   // [J] heat to liquid from all racks
    double pump_heat = 0.0;                 // [J] CDU pump work into the coolant
    double heat_rejected = 0.0;             // [J] by the dry coolers
    double stored_change = 0.0;             // [J] change of heat stored in racks, CDU, pipes
    double energy_balance_rel_error = 0.0;  // [1] |in − out − Δstored| / in
    double water = 0.0;                     // [m³] adiabatic spray water
    double fan_energy = 0.0;                // [J]
    double pump_energy = 0.0;               // [J] CDU pumps, electric
    double max_die_temp = 0.0;              // [K]
    double max_tcs_supply_temp = 0.0;       // [K]
    double max_facility_supply_temp = 0.0;  // [K]
    double min_temp = 0.0;                  // [K] lowest coolant/water temperature recorded
    double max_dry_bulb = 0.0;              // [K]
    double hours_with_spray = 0.0;          // [h] output intervals with spray water > 0
    std::size_t samples = 0;
    std::size_t channels = 0;
    SolverStats stats;
};

/// @brief Runs the example and writes `out_h5` (HDF5, via core/io/report_writer.h); no report
/// is left behind on failure.
/// @param epw weather file (EPW, hourly), e.g. dataFile("weather/USA_AZ_Phoenix-Sky.Harbor.epw").
/// @param out_h5 HDF5 report to write.
/// @param options start day [1..365], length [d], output interval [s], equipment and setpoints.
/// @return energies [J], water [m³], temperatures [K] and solver statistics of the run.
/// @throws dctwin::Error family on bad input or solver failure.
ThermalWeekSummary runThermalWeekExample(const std::filesystem::path& epw,
                                         const std::filesystem::path& out_h5,
                                         const ThermalWeekOptions& options = {});

}  // namespace dctwin::examples
