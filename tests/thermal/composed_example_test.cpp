// The thermal week example (examples/thermal_week.h): 8 GB300 racks, a Vertiv XDU1350 CDU, a
// facility loop and two adiabatic dry coolers on a July week of Phoenix weather, through the
// core System/Simulator (CVODE) into an HDF5 report, read back with core/io/hdf5_reader.h.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "core/io/hdf5_reader.h"
#include "core/units.h"
#include "examples/thermal_week.h"

namespace dctwin::thermal {
namespace {

namespace fs = std::filesystem;

TEST(ComposedExample, PhoenixSummerWeekClosesEnergyAndWritesUnits) {
    const fs::path epw = fs::path(DCTWIN_SOURCE_DIR) / "data/weather/USA_AZ_Phoenix-Sky.Harbor.epw";
    ASSERT_TRUE(fs::exists(epw)) << epw;
    const fs::path out = fs::path(DCTWIN_BINARY_DIR) / "thermal_week_example_test.h5";
    fs::remove(out);
    examples::ThermalWeekOptions opt;  // 15-21 July, 8 racks, XDU1350, 2 adiabatic dry coolers
    const examples::ThermalWeekSummary s = examples::runThermalWeekExample(epw, out, opt);
    std::printf(
        "thermal week: IT heat %.1f MWh, rejected %.1f MWh, stored change %.3g MWh, "
        "energy rel. error %.2e, water %.1f m3 (%.1f h spraying), fans %.2f MWh, pumps "
        "%.2f MWh, max die %.1f C, max TCS supply %.2f C, max FWS supply %.2f C, max dry "
        "bulb %.1f C, steps %ld, rhs %ld\n",
        s.it_heat / 3.6e9, s.heat_rejected / 3.6e9, s.stored_change / 3.6e9,
        s.energy_balance_rel_error, s.water, s.hours_with_spray, s.fan_energy / 3.6e9,
        s.pump_energy / 3.6e9, s.max_die_temp - 273.15, s.max_tcs_supply_temp - 273.15,
        s.max_facility_supply_temp - 273.15, s.max_dry_bulb - 273.15, s.stats.steps,
        s.stats.rhs_evals);

    // Energy closes (DESIGN.md §3.4: better than 0.1 %): IT heat + pump work = heat rejected +
    // change of stored heat.
    EXPECT_LT(s.energy_balance_rel_error, 1e-3);
    // IT heat by hand from the example's load (examples/thermal_week.cpp, ExampleLoad): of
    // 8 racks, (8·5 + 7)/8 = 5 train at 0.96 + 0.04·sin(2π·t/6 h + …) and 3 serve inference
    // at 0.675 − 0.225·cos(2π·(time of day − 0.125)) of the 121.5 kW design heat to liquid
    // (rack_loops.json gb300_nvl72). 168 h hold 28 whole 6 h periods and 7 whole days, so
    // the sine and cosine integrate to zero: (5 × 0.96 + 3 × 0.675) × 121.5 kW × 168 h =
    // 139.31 MWh. Band 0.1 %: the accumulator integrates at rel_tol 1e-6, so what is left
    // is far below it, and a 0.1 % change of the load shape or the rack's heat trips it.
    EXPECT_NEAR(s.it_heat / units::MWh, (5 * 0.96 + 3 * 0.675) * 121.5e-3 * 168.0, 1e-3 * 139.31);
    EXPECT_NEAR((5 * 0.96 + 3 * 0.675) * 121.5e-3 * 168.0, 139.31, 0.005);  // the sum above
    // Phoenix in July is hot (TMY peak dry bulb above 40 °C), so the pads spray on hot hours.
    EXPECT_GT(s.max_dry_bulb, units::celsiusToKelvin(40.0));
    EXPECT_GT(s.water, 0.0);
    EXPECT_GT(s.hours_with_spray, 1.0);
    // Temperatures stay physical: no freezing, no boiling, GPU below a 95 °C shutdown level.
    EXPECT_GT(s.min_temp, units::celsiusToKelvin(5.0));
    EXPECT_LT(s.max_die_temp, units::celsiusToKelvin(95.0));
    EXPECT_LT(s.max_tcs_supply_temp, units::celsiusToKelvin(60.0));

    // Read the report back: every time series carries units, values are finite and the
    // temperatures physical; water accumulates on hot hours.
    hdf5::Reader r(out);
    ASSERT_TRUE(r.exists("/timeseries/time"));
    EXPECT_EQ(r.readStringAttribute("/timeseries/time", "units"), "s");
    const std::vector<double> t = r.readDataset("/timeseries/time");
    EXPECT_EQ(t.size(), s.samples);
    std::size_t checked = 0;
    std::function<void(const std::string&)> walk = [&](const std::string& g) {
        for (const std::string& c : r.listChildren(g)) {
            const std::string p = g + "/" + c;
            const auto attrs = r.listAttributes(p);
            if (std::find(attrs.begin(), attrs.end(), "units") == attrs.end()) {
                walk(p);  // a group
                continue;
            }
            const std::string unit = r.readStringAttribute(p, "units");
            EXPECT_FALSE(unit.empty()) << p;
            const std::vector<double> v = r.readDataset(p);
            if (c == "time" && g != "/timeseries") {  // a group's time coordinate (issue 17)
                EXPECT_EQ(v, t) << p;
                continue;
            }
            EXPECT_EQ(v.size(), t.size()) << p;
            for (double x : v) {
                ASSERT_TRUE(std::isfinite(x)) << p;
                if (unit == "K" && c.find("temp") != std::string::npos) {
                    ASSERT_GT(x, units::celsiusToKelvin(-10.0)) << p;
                    ASSERT_LT(x, units::celsiusToKelvin(100.0)) << p;
                }
            }
            ++checked;
        }
    };
    walk("/timeseries");
    EXPECT_EQ(checked, s.channels + 1);  // + time
    const std::vector<double> water = r.readDataset("/timeseries/water/total");
    const std::vector<double> spray = r.readDataset("/timeseries/heat_rejection/spray_water_rate");
    const std::vector<double> db = r.readDataset("/timeseries/weather/dry_bulb");
    EXPECT_NEAR(water.back(), s.water, 1e-9 * std::max(1.0, s.water));
    bool hot_hour_sprays = false;
    for (std::size_t i = 0; i < db.size(); ++i) {
        // Well above the 28 °C switch-over the pads must be wetting whenever heat is rejected.
        if (db[i] > units::celsiusToKelvin(35.0) && spray[i] > 0.0) hot_hour_sprays = true;
        if (db[i] < units::celsiusToKelvin(27.0)) {
            EXPECT_EQ(spray[i], 0.0);
        }
    }
    EXPECT_TRUE(hot_hour_sprays);
    EXPECT_NEAR(r.readDoubleAttribute("/summary", "energy_balance_rel_error"),
                s.energy_balance_rel_error, 1e-15);
}

}  // namespace
}  // namespace dctwin::thermal
