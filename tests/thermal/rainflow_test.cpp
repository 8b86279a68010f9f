// Rainflow counting (thermal/rainflow.h) against the worked example of ASTM E1049-85 (2017)
// §5.4.4 and hand-counted histories.
#include "thermal/rainflow.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

namespace dctwin::thermal {
namespace {

/// Cycles summed by range (ranges rounded to 1e-9).
std::map<double, double> byRange(const std::vector<RainflowCycle>& cycles) {
    std::map<double, double> m;
    for (const auto& c : cycles) m[std::round(c.range * 1e9) / 1e9] += c.count;
    return m;
}

TEST(Rainflow, AstmE1049WorkedExample) {
    // ASTM E1049 Fig. 6(a): the load history A..I = −2, 1, −3, 5, −1, 3, −4, 4, −2 units.
    // Its Table 4 (rainflow counting, Fig. 6(b)-(f)): range 3 — 0.5 cycle; 4 — 1.5; 6 — 0.5;
    // 8 — 1.0; 9 — 0.5; every other range 0; 4 cycles in all.
    const std::vector<double> h = {-2, 1, -3, 5, -1, 3, -4, 4, -2};
    const auto m = byRange(rainflowCycles(h));
    const std::map<double, double> table4 = {{3, 0.5}, {4, 1.5}, {6, 0.5}, {8, 1.0}, {9, 0.5}};
    EXPECT_EQ(m, table4);
    double total = 0;
    for (const auto& [r, n] : m) total += n;
    EXPECT_DOUBLE_EQ(total, 4.0);
}

TEST(Rainflow, ReversalsDropIntermediatePointsAndSmallWiggles) {
    // Points on a monotonic stretch are not reversals; with a hysteresis of 0.5, a 0.2 dip is
    // not either.
    EXPECT_EQ(reversals(std::vector<double>{0, 1, 2, 3, 2, 1, 4}),
              (std::vector<double>{0, 3, 1, 4}));
    EXPECT_EQ(reversals(std::vector<double>{0, 2, 1.8, 3, 0}, 0.5), (std::vector<double>{0, 3, 0}));
    EXPECT_EQ(reversals(std::vector<double>{5, 5, 5}), (std::vector<double>{5}));
    EXPECT_TRUE(rainflowCycles(std::vector<double>{5, 5, 5}).empty());
}

TEST(Rainflow, SquareWaveGivesOneFullCyclePerPeriod) {
    // A junction swinging between 70 and 77 °C n times: by hand, n − 1 full cycles of range
    // 7 K closed inside the history and the first rise and last fall as two half cycles of 7 K
    // (n in all), whatever the samples on the plateaus.
    std::vector<double> h;
    const int n = 50;
    for (int k = 0; k < n; ++k) {
        for (int i = 0; i < 5; ++i) h.push_back(70.0);
        for (int i = 0; i < 5; ++i) h.push_back(77.0);
    }
    h.push_back(70.0);
    const auto cycles = rainflowCycles(h);
    const auto m = byRange(cycles);
    ASSERT_EQ(m.size(), 1u);
    EXPECT_DOUBLE_EQ(m.at(7.0), n);
    const auto bins = histogram(cycles, {1, 2, 5, 10, 20});
    EXPECT_EQ(bins, (std::vector<double>{0, 0, n, 0}));
}

TEST(Rainflow, SmallCyclesRideOnALargeOne) {
    // By hand for 0 → 10 → 8 → 9 → 0. Stack {0, 10, 8, 9}: X = |9 − 8| = 1 < Y = |8 − 10| = 2,
    // nothing counted. Read 0: X = 9 ≥ Y = 1, Y does not hold the start: one cycle of range 1,
    // drop 8 and 9. Stack {0, 10, 0}: X = 10 ≥ Y = 10, Y holds the start: half a cycle of 10,
    // drop the start. {10, 0} left: half a cycle of 10. So 1 cycle of 1 and 1 cycle of 10.
    const auto m = byRange(rainflowCycles(std::vector<double>{0, 10, 8, 9, 0}));
    const std::map<double, double> expect = {{1, 1.0}, {10, 1.0}};
    EXPECT_EQ(m, expect);
    // Ranges below the first bin edge are not counted; the open top bin takes the 10.
    EXPECT_EQ(histogram(rainflowCycles(std::vector<double>{0, 10, 8, 9, 0}), {2, 5}),
              (std::vector<double>{1.0}));
    EXPECT_EQ(histogram(rainflowCycles(std::vector<double>{0, 10, 8, 9, 0}), {2, 5}, false),
              (std::vector<double>{0.0}));
}

}  // namespace
}  // namespace dctwin::thermal
