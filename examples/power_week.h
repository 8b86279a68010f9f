#pragma once
/// @file
/// @brief The power-layer week example: a composed model through the core framework, built
/// outside the product libraries (DESIGN.md §2) and run by examples/power_week_main.cpp and by
/// tests/power/composed_example_test.cpp, which checks its physics.
///
// It shows how power components compose without the facility layer (issue 3): one week of the
// 64-rack reference hall (64 × GB300 NVL72, ~9 MW IT) with training and inference split
// between two tenants (research 60 %, product 40 %):
//   WorkloadSource (per rack group, averaged resolution) → RackPower (× count)
//   → PowerSmoothing (per group: 65 J per GPU, 60 % floor while training, ramp limits)
//   → PowerBus (+ fabric power) → ElectricalChain (sized 4N/3 from the catalog) → SiteBattery
// integrated by the Simulator (CVODE) and written as an HDF5 report with units
// (core/io/report_writer.h): /timeseries/<group>/<channel>, /sizing/power, /summary.
// The cooling plant is not part of the power layer: its electrical load is a constant design
// estimate (12 % of IT) until the facility layer couples the thermal model.
#include <filesystem>
#include <string>

namespace dctwin::examples {

struct PowerWeekOptions {
    double days = 7.0;               // [d]
    double output_interval = 600.0;  // [s]
    double floor_pct = 60.0;         // [%] of GPU TGP
};

struct PowerWeekSummary {
    double it_energy = 0;                    // [J] rack shelf input, incl. smoothing burn
    double facility_energy = 0;              // [J] at the utility (before the site battery)
    double grid_energy = 0;                  // [J] after the site battery
    double peak_it = 0;                      // [W]
    double peak_facility = 0;                // [W]
    double max_ups_loading = 0;              // [1]
    double max_transformer_loading = 0;      // [1]
    double burnt_energy = 0;                 // [J] by power floors
    double smoothing_balance_rel_error = 0;  // [1]
    double battery_balance_rel_error = 0;    // [1]
    std::size_t channels = 0;
    std::size_t samples = 0;
    std::size_t groups = 0;  // lumped rack groups
};

/// @brief Builds, runs and writes the example; no report is left behind on failure.
/// @param report HDF5 file to write (/timeseries, /sizing/power, /summary, with units).
/// @param options length [d], output interval [s] and smoothing floor [% of TGP].
/// @return energies [J], peaks [W], loadings [1] and balance errors [1] of the run.
/// @throws dctwin::Error (InputError, SolverError, ...) on any failure.
PowerWeekSummary runPowerWeekExample(const std::filesystem::path& report,
                                     const PowerWeekOptions& options = {});

}  // namespace dctwin::examples
