// Issue 15: the MV voltage reaches the transformers' primaries and the generators (through
// step-up transformers when the site's MV is not the sets' 13.8 kV). Hand currents
// I = S/(√3·V) in the comments, from the catalog (data/catalog/power).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "power/sizing.h"
#include "test_util.h"

namespace dctwin::power {
namespace {

using test::catalog;

bool hasRow(const SizingResult& r, const std::string& element) {
    for (const auto& row : r.rows) {
        if (row.element == element) return true;
    }
    return false;
}

SizingInput hallAt(double mv_voltage) {
    SizingInput in;
    in.rack_models = {{catalog().rack("gb300_nvl72"), 64}};
    in.mv_voltage = mv_voltage;
    return in;
}

TEST(power_SizingMv, TransformerPrimariesAndGeneratorsFollowTheMvVoltage) {
    const SizingResult a = sizeElectrical(hallAt(13800.0), catalog());
    const SizingResult b = sizeElectrical(hallAt(34500.0), catalog());
    // liquid_2500kva: rated primary current 2,500,000/(√3 × 13,800) = 104.59 A, and
    // 2,500,000/(√3 × 34,500) = 41.84 A; the same 8 transformers in both (the LV side does
    // not change).
    for (const auto& [r, I_rated, V] :
         {std::tuple{&a, 104.59, 13800.0}, std::tuple{&b, 41.84, 34500.0}}) {
        const SizingRow& p = r->row("transformer_primary");
        EXPECT_NEAR(p.unit_current, I_rated, 0.01) << V;
        EXPECT_EQ(p.voltage, V);
        EXPECT_EQ(p.count, r->row("transformer").count);
        EXPECT_EQ(p.count, 8);
        // Each primary carries its transformer's loading of its rated current.
        EXPECT_NEAR(p.design_current, r->row("transformer").normal_loading * I_rated, 0.01);
        EXPECT_DOUBLE_EQ(p.failure_loading, r->row("transformer").failure_loading);
    }
    // The primary currents scale as 13.8/34.5 = 0.4 exactly.
    EXPECT_NEAR(
        b.row("transformer_primary").design_current / a.row("transformer_primary").design_current,
        0.4, 1e-12);
    // Generators: diesel_2500kw sets at 13.8 kV (the catalog's MV paralleling sets). At a
    // 13.8 kV site they connect directly: no step-up. At 34.5 kV each set has a unit step-up
    // transformer of 2,500 kW / 0.8 = 3,125 kVA, rated 3,125,000/(√3 × 34,500) = 52.30 A on
    // the MV side; the count follows the sets (7 for the 64-rack hall, N+1).
    EXPECT_FALSE(hasRow(a, "generator_step_up"));
    ASSERT_TRUE(hasRow(b, "generator_step_up"));
    const SizingRow& su = b.row("generator_step_up");
    EXPECT_NEAR(su.rating, 3.125e6, 1.0);
    EXPECT_NEAR(su.unit_current, 52.30, 0.01);
    EXPECT_EQ(su.voltage, 34500.0);
    EXPECT_EQ(su.count, b.row("generator").count);
    EXPECT_EQ(su.count, 7);
    // MV-side design current: the facility's design load over √3 × 34.5 kV × PF 0.99, 0.4 of
    // the MV feeders' current at 13.8 kV; the sets themselves stay at 13.8 kV.
    EXPECT_NEAR(su.design_current, b.facility_design / (std::sqrt(3.0) * 34500.0 * 0.99), 1e-6);
    EXPECT_NEAR(b.row("mv_feeder").design_current / a.row("mv_feeder").design_current, 0.4, 1e-12);
    EXPECT_EQ(b.row("generator").voltage, 13800.0);
    EXPECT_EQ(b.row("generator").count, a.row("generator").count);
    // Step-up loading in kVA: the sets' kW loading × pf_set/pf = × 0.8/0.99.
    EXPECT_NEAR(su.normal_loading, b.row("generator").normal_loading * 0.8 / 0.99, 1e-12);
}

}  // namespace
}  // namespace dctwin::power
