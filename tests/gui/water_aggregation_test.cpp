#include "gui/water_aggregation.h"

#include <gtest/gtest.h>

#include "core/errors.h"

namespace dctwin::gui {
namespace {

constexpr double kDay = 86400.0;

std::vector<double> hourlyAxis(double days) {
    std::vector<double> t;
    for (double s = 0.0; s <= days * kDay + 1e-9; s += 3600.0) t.push_back(s);
    return t;
}

CivilTime jan1(int year) { return *parseIso8601(std::to_string(year) + "-01-01T00:00:00"); }

TEST(WaterAggregation, ConstantRateOverJanuary) {
    const std::vector<double> t = hourlyAxis(31);
    const std::vector<double> rate(t.size(), 1e-3);  // [m3/s]
    const auto months = monthlyFromRate(t, rate, jan1(2026));
    ASSERT_EQ(months.size(), 1u);
    EXPECT_EQ(months[0].month, 1);
    EXPECT_EQ(months[0].year, 2026);
    EXPECT_NEAR(months[0].value, 2678.4, 1e-9);
}

TEST(WaterAggregation, CumulativeOverJanuary) {
    const std::vector<double> t = hourlyAxis(31);
    std::vector<double> total;
    for (double s : t) total.push_back(1e-3 * s);
    const auto months = monthlyFromCumulative(t, total, jan1(2026));
    ASSERT_EQ(months.size(), 1u);
    EXPECT_NEAR(months[0].value, 2678.4, 1e-9);
}

TEST(WaterAggregation, SplitsAtMonthBoundariesBetweenSamples) {
    // Start 31 Jan 12:00, samples every 7 h (so no sample lies on midnight), 2 days.
    const CivilTime start = *parseIso8601("2026-01-31T12:00:00");
    std::vector<double> t;
    for (double s = 0.0; s <= 2.0 * kDay; s += 7.0 * 3600.0) t.push_back(s);
    t.push_back(2.0 * kDay);
    std::vector<double> rate(t.size(), 2e-3), total;
    for (double s : t) total.push_back(2e-3 * s);
    for (const auto& months :
         {monthlyFromRate(t, rate, start), monthlyFromCumulative(t, total, start)}) {
        ASSERT_EQ(months.size(), 2u);
        EXPECT_EQ(months[0].month, 1);
        EXPECT_EQ(months[1].month, 2);
        EXPECT_NEAR(months[0].value, 2e-3 * 0.5 * kDay, 1e-9);  // 12 h of January
        EXPECT_NEAR(months[1].value, 2e-3 * 1.5 * kDay, 1e-9);
    }
}

TEST(WaterAggregation, LinearRateIsIntegratedExactlyAcrossTheBoundary) {
    // Rate rising linearly 0 → 1 m3/s over one 2-day interval straddling 1 March (leap year).
    const CivilTime start = *parseIso8601("2024-02-29T00:00:00");
    const std::vector<double> t = {0.0, 2.0 * kDay};
    const std::vector<double> rate = {0.0, 1.0};
    const auto months = monthlyFromRate(t, rate, start);
    ASSERT_EQ(months.size(), 2u);
    EXPECT_EQ(months[0].month, 2);                         // 29 Feb exists in 2024
    EXPECT_NEAR(months[0].value, 0.5 * kDay * 0.5, 1e-6);  // ∫0..1d of t/2d
    EXPECT_NEAR(months[1].value, 2.0 * kDay * 0.5 - 0.25 * kDay, 1e-6);
}

TEST(WaterAggregation, YearSpansTwelveMonthsWithCalendarLengths) {
    const std::vector<double> t = hourlyAxis(365);
    const std::vector<double> rate(t.size(), 1.0 / kDay);  // 1 m3 per day
    const auto months = monthlyFromRate(t, rate, jan1(2025));
    ASSERT_EQ(months.size(), 12u);
    const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    for (int i = 0; i < 12; ++i) EXPECT_NEAR(months[i].value, days[i], 1e-9) << i;
    EXPECT_EQ(months[11].label(true), QStringLiteral("Dec 2025"));
    EXPECT_EQ(months[0].label(false), QStringLiteral("Jan"));
}

TEST(WaterAggregation, MonthCategoriesAreUniqueAndTheAxisNamesTheYear) {
    const std::vector<double> rate(hourlyAxis(365).size(), 1.0);
    // A year from July: numbers, and the axis says which years they are.
    const auto year = monthlyFromRate(hourlyAxis(365), rate, *parseIso8601("2026-07-01"));
    ASSERT_EQ(year.size(), 12u);
    EXPECT_EQ(monthCategories(year, true).front(), QStringLiteral("7"));
    EXPECT_EQ(monthCategories(year, true).back(), QStringLiteral("6"));
    EXPECT_EQ(monthAxisTitle(year, true), QStringLiteral("month, 2026–2027"));
    EXPECT_EQ(monthAxisTitle(year, false), QStringLiteral("month"));
    const auto jan = monthlyFromRate(hourlyAxis(365), rate, jan1(2025));
    EXPECT_EQ(monthAxisTitle(jan, true), QStringLiteral("month of 2025"));
    // Two years: "1" twice would be merged into one bar by Qt; month and year instead.
    const std::vector<double> t2 = hourlyAxis(730);
    const auto two = monthlyFromRate(t2, std::vector<double>(t2.size(), 1.0), jan1(2025));
    ASSERT_EQ(two.size(), 24u);
    for (bool has_year : {true, false}) {
        QStringList c = monthCategories(two, has_year);
        ASSERT_EQ(c.size(), 24);
        c.removeDuplicates();
        EXPECT_EQ(c.size(), 24) << has_year;
    }
    EXPECT_EQ(monthCategories(two, true)[12], QStringLiteral("Jan 2026"));
    EXPECT_EQ(monthCategories(two, false)[12], QStringLiteral("Jan y2"));
    EXPECT_EQ(monthAxisTitle(two, true), QStringLiteral("month"));
}

TEST(WaterAggregation, PrefersTheTotalChannelAndChecksUnits) {
    ResultSet rs;
    const std::vector<double> axis = hourlyAxis(31);
    rs.time.assign(axis.begin(), axis.end());
    rs.start_iso8601 = "2026-01-01T00:00:00";
    Channel& rate = rs.addChannel("water", "water_rate", "m3/s");
    rate.values.assign(rs.time.size(), 1e-3);
    MonthlyWater w = monthlyWaterUse(rs);
    ASSERT_EQ(w.months.size(), 1u);
    EXPECT_NEAR(w.months[0].value, 2678.4, 1e-9);
    EXPECT_TRUE(w.source.contains(QStringLiteral("water_rate")));
    EXPECT_TRUE(w.has_year);

    // The model's own integral wins over re-integrating the rate (here it says 2x).
    Channel& total = rs.addChannel("water", "water_total", "m3");
    for (double s : rs.time) total.values.push_back(2e-3 * s);
    w = monthlyWaterUse(rs);
    ASSERT_EQ(w.months.size(), 1u);
    EXPECT_NEAR(w.months[0].value, 2.0 * 2678.4, 1e-9);
    EXPECT_TRUE(w.source.contains(QStringLiteral("water_total")));

    rs.find("water", "water_total")->unit = "L";
    EXPECT_THROW(monthlyWaterUse(rs), ModelError);
    EXPECT_TRUE(monthlyWaterUse(ResultSet{}).months.empty());
}

TEST(WaterAggregation, ParsesIso8601) {
    const auto a = parseIso8601("2026-07-01T06:30:15");
    ASSERT_TRUE(a);
    EXPECT_EQ(a->year, 2026);
    EXPECT_EQ(a->month, 7);
    EXPECT_DOUBLE_EQ(a->seconds_of_day, 6 * 3600 + 30 * 60 + 15);
    EXPECT_TRUE(parseIso8601("2026-07-01"));
    EXPECT_TRUE(parseIso8601("2026-07-01T00:00:00Z"));
    EXPECT_FALSE(parseIso8601(""));
    EXPECT_FALSE(parseIso8601("2026-02-30T00:00:00"));
    EXPECT_FALSE(parseIso8601("2026-13-01"));
    EXPECT_FALSE(parseIso8601("07-01"));
}

}  // namespace
}  // namespace dctwin::gui
