// The power week example (examples/power_week.h) through the core framework: a week of the
// 64-rack hall written to an HDF5 report, read back with core/io/hdf5_reader.h.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "core/io/hdf5_reader.h"
#include "examples/power_week.h"
#include "power/rack.h"
#include "test_util.h"

namespace dctwin::power {
namespace {

TEST(power_ComposedExample, WeekOf64RacksToHdf5WithUnits) {
    const auto file =
        std::filesystem::temp_directory_path() /
        fmt::format("dctwin_power_week_{}.h5", ::testing::UnitTest::GetInstance()->random_seed());
    std::filesystem::remove(file);
    const examples::PowerWeekSummary s = examples::runPowerWeekExample(file);
    std::printf(
        "week: IT %.1f MWh, facility %.1f MWh, peak IT %.0f kW, peak facility %.0f kW, "
        "UPS max %.1f %%, burnt %.2f MWh, balance %.1e / %.1e, %zu groups, %zu channels\n",
        s.it_energy / 3.6e9, s.facility_energy / 3.6e9, s.peak_it / 1e3, s.peak_facility / 1e3,
        100 * s.max_ups_loading, s.burnt_energy / 3.6e9, s.smoothing_balance_rel_error,
        s.battery_balance_rel_error, s.groups, s.channels);
    ASSERT_TRUE(std::filesystem::exists(file));
    // 7 days at 10 min: 1,009 samples.
    EXPECT_EQ(s.samples, 1009u);
    // Groups: pretrain (32), finetune (6), chat (24), idle (2).
    EXPECT_EQ(s.groups, 4u);
    // Physical checks: IT below 64 racks at full power + fabric; facility above IT; the UPS
    // stays within the 4N/3 design loading; energy balances close.
    const double rack_full =
        RackPowerModel(test::catalog().rack("gb300_nvl72")).evaluate(1.0).it_power;
    EXPECT_LT(s.peak_it, 64 * rack_full + 0.5e6);
    EXPECT_GT(s.peak_it, 4e6);
    EXPECT_GT(s.facility_energy, s.it_energy);
    EXPECT_LT(s.facility_energy, 1.2 * s.it_energy + 0.15 * 64 * rack_full * 7 * 86400);
    EXPECT_LE(s.max_ups_loading, 0.8);
    EXPECT_GT(s.burnt_energy, 0.0);  // checkpoint dips under the 60 % floor
    EXPECT_LT(s.smoothing_balance_rel_error, 1e-6);
    EXPECT_LT(s.battery_balance_rel_error, 1e-6);

    // Read back: channels, units, sizing table, summary.
    hdf5::Reader h5(file);
    const auto t = h5.readDataset("/timeseries/time");
    EXPECT_EQ(t.size(), 1009u);
    EXPECT_EQ(h5.readStringAttribute("/timeseries/time", "units"), "s");
    const struct {
        const char* path;
        const char* unit;
    } channels[] = {
        {"/timeseries/power/it_power", "W"},   {"/timeseries/chain/facility_power", "W"},
        {"/timeseries/chain/ups_loss", "W"},   {"/timeseries/chain/ups_loading", "1"},
        {"/timeseries/chain/mv_current", "A"}, {"/timeseries/bess/soc", "1"}};
    for (const auto& c : channels) {
        SCOPED_TRACE(c.path);
        const auto v = h5.readDataset(c.path);
        ASSERT_EQ(v.size(), t.size());
        EXPECT_EQ(h5.readStringAttribute(c.path, "units"), c.unit);
        for (double x : v) ASSERT_TRUE(std::isfinite(x));
    }
    const auto groups = h5.listChildren("/timeseries/racks");
    EXPECT_EQ(groups.size(), 4u);
    const std::string g0 = "/timeseries/racks/" + groups.front();
    EXPECT_EQ(h5.readStringAttribute(g0 + "/stored_energy", "units"), "J");
    // Facility = IT + cooling + losses at every sample (ElectricalChain's balance).
    const auto it = h5.readDataset("/timeseries/power/it_power");
    const auto fac = h5.readDataset("/timeseries/chain/facility_power");
    const auto loss = h5.readDataset("/timeseries/chain/total_loss");
    const double cooling = fac[0] - it[0] - loss[0];
    EXPECT_GT(cooling, 0.0);
    for (std::size_t i = 0; i < it.size(); ++i)
        EXPECT_NEAR(fac[i], it[i] + loss[i] + cooling, 1e-3);
    const Table sizing = h5.readTable("/sizing/power");
    // psu_shelf, rack_feed, busway, ups, transformer, lv_switchgear, ups_bus (issue 15: the
    // UPS critical buses), transformer_primary (issue 15: the MV windings), generator,
    // mv_feeder, bess.
    EXPECT_EQ(sizing.rows(), 11u);
    EXPECT_NEAR(h5.readDoubleAttribute("/summary", "energy_balance_rel_error"),
                s.smoothing_balance_rel_error, 1e-18);
    std::filesystem::remove(file);
}

}  // namespace
}  // namespace dctwin::power
