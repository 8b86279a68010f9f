#include "gui/load_duration.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace dctwin::gui {
namespace {

// Five hourly samples 3, 1, 4, 1, 5. Trapezoid weights: 0.5, 1, 1, 1, 0.5 h (4 h in all).
// Sorted by hand: 5 (0.5 h), 4 (1 h), 3 (0.5 h), 1 (1 h), 1 (1 h), so the hours at or above
// each are 0.5, 1.5, 2.0, 3.0, 4.0, after the (0, peak) start.
TEST(LoadDuration, MatchesAHandSortedSeries) {
    const std::vector<double> t{0, 3600, 7200, 10800, 14400};
    const std::vector<double> p{3, 1, 4, 1, 5};
    const LoadDurationCurve c = loadDurationCurve(t, p);
    const std::vector<double> hours{0.0, 0.5, 1.5, 2.0, 3.0, 4.0};
    const std::vector<double> value{5, 5, 4, 3, 1, 1};
    ASSERT_EQ(c.hours.size(), hours.size());
    for (std::size_t i = 0; i < hours.size(); ++i) {
        EXPECT_DOUBLE_EQ(c.hours[i], hours[i]) << i;
        EXPECT_DOUBLE_EQ(c.value[i], value[i]) << i;
    }
}

// Held as steps, the curve's area is the trapezoid energy: (3+1)/2 + (1+4)/2 + (4+1)/2 +
// (1+5)/2 = 10 (unit·h), whatever the order of the samples.
TEST(LoadDuration, AreaIsTheStudyEnergyAndUnevenSamplingCounts) {
    const std::vector<double> t{0, 3600, 7200, 10800, 14400};
    const std::vector<double> p{3, 1, 4, 1, 5};
    const LoadDurationCurve c = loadDurationCurve(t, p);
    double area = 0.0;
    for (std::size_t i = 1; i < c.hours.size(); ++i) {
        area += (c.hours[i] - c.hours[i - 1]) * c.value[i];
    }
    EXPECT_DOUBLE_EQ(area, 10.0);
    // Samples 2, 6, 6 at 0, 1 h and 4 h: the middle one holds half of each interval beside it
    // (0.5 + 1.5 = 2 h), the last half of the 3-h interval (1.5 h), the first 0.5 h.
    const LoadDurationCurve u =
        loadDurationCurve(std::vector<double>{0, 3600, 14400}, std::vector<double>{2, 6, 6});
    ASSERT_EQ(u.hours.size(), 4u);
    EXPECT_DOUBLE_EQ(u.hours[1], 2.0);  // the first 6 in sample order (stable sort)
    EXPECT_DOUBLE_EQ(u.hours[2], 3.5);
    EXPECT_DOUBLE_EQ(u.hours[3], 4.0);
    EXPECT_DOUBLE_EQ(u.value[3], 2.0);
}

TEST(LoadDuration, GapsAreLeftOutAndShortSeriesGiveNothing) {
    const LoadDurationCurve c =
        loadDurationCurve(std::vector<double>{0, 3600, 7200}, std::vector<double>{1, NAN, 2});
    ASSERT_EQ(c.value.size(), 3u);  // start + two finite samples
    EXPECT_EQ(c.value[0], 2.0);
    EXPECT_EQ(c.value[2], 1.0);
    EXPECT_DOUBLE_EQ(c.hours.back(), 1.0);  // 0.5 h + 0.5 h; the gap's hour is not counted
    EXPECT_TRUE(loadDurationCurve(std::vector<double>{0}, std::vector<double>{1}).hours.empty());
    EXPECT_TRUE(loadDurationCurve(std::vector<double>{}, std::vector<double>{}).hours.empty());
}

}  // namespace
}  // namespace dctwin::gui
