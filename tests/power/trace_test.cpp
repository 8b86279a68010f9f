// Trace readers on the real Cornell files (data/traces/SOURCES.md) and on broken copies.
#include "power/trace.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "test_util.h"

namespace dctwin::power {
namespace {

const std::filesystem::path kTraces = std::filesystem::path(DCTWIN_SOURCE_DIR) / "data/traces";

std::string readAll(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

class power_BrokenCopy : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ =
            std::filesystem::temp_directory_path() /
            ("dctwin_trace_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
             "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::create_directories(dir_);
        original_ = readAll(kTraces / "cbsugpu08_usage_stats.txt");
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }
    /// Writes the original with line `line` (1-based) replaced by `text`.
    std::filesystem::path withLine(std::size_t line, const std::string& text) {
        std::istringstream in(original_);
        std::string out, l;
        for (std::size_t n = 1; std::getline(in, l); ++n) out += (n == line ? text : l) + "\n";
        const auto p = dir_ / "broken.txt";
        std::ofstream(p, std::ios::binary) << out;
        return p;
    }
    std::filesystem::path dir_;
    std::string original_;
};

TEST(power_CornellTrace, RealFilesRowCountsAndGaps) {
    // data/traces/SOURCES.md: cbsugpu08 15,277 rows over 15,341 h; cbsugpu07 15,493 over 15,600.
    const TraceSeries a = readCornellTrace(kTraces / "cbsugpu08_usage_stats.txt");
    EXPECT_EQ(a.size(), 15277u);
    EXPECT_DOUBLE_EQ(a.nominal_step, 3600.0);
    EXPECT_DOUBLE_EQ(a.span(), 15340 * 3600.0);  // 2024-01-20 10:00 → 2025-10-20 14:00
    EXPECT_EQ(a.size() + a.missingSamples(), 15341u);
    EXPECT_FALSE(a.gaps.empty());
    const TraceSeries b = readCornellTrace(kTraces / "cbsugpu07_usage_stats.txt");
    EXPECT_EQ(b.size(), 15493u);
    EXPECT_EQ(b.size() + b.missingSamples(), 15600u);
    // Utilization mean 15.6 % (SOURCES.md) over the rows.
    double mean = 0;
    for (double v : b.value) mean += v;
    EXPECT_NEAR(mean / b.size(), 15.6, 0.1);
    // Power column, mean 147.8 W for cbsugpu08.
    TraceOptions o;
    o.column = "powerave";
    const TraceSeries p = readCornellTrace(kTraces / "cbsugpu08_usage_stats.txt", o);
    double pm = 0;
    for (double v : p.value) pm += v;
    EXPECT_NEAR(pm / p.size(), 147.8, 0.1);
    // Interpolation across a gap is linear.
    const TraceGap& g = a.gaps.front();
    const double mid = 0.5 * (g.from + g.to);
    EXPECT_NEAR(a.at(mid), 0.5 * (a.at(g.from) + a.at(g.to)), 1e-9);
}

TEST(power_CornellTrace, GapLongerThanTheLimitIsAnError) {
    // cbsugpu07 has a 28 h gap (the largest; the next is 20 h): a 24 h limit rejects it,
    // naming file and lines.
    TraceOptions o;
    o.max_gap = 24 * 3600.0;
    test::expectInputError([&] { readCornellTrace(kTraces / "cbsugpu07_usage_stats.txt", o); },
                           {"cbsugpu07_usage_stats.txt:", "gap of 28 h", "max_gap_h"});
}

TEST_F(power_BrokenCopy, TruncatedRow) {
    const auto p = withLine(100, "cbsugpu08\t2025-10-16 10:00:00.000\t50.1\t49");
    test::expectInputError([&] { readCornellTrace(p); },
                           {"broken.txt:100", "expected 14 tab-separated fields, found 4"});
}

TEST_F(power_BrokenCopy, NonNumericField) {
    const auto p = withLine(
        7,
        "cbsugpu08\t2025-10-20 08:00:00.000\tabc\t48.99\t51.17\t36.125\t34\t39\t0\t0\t0\t0\t0\t0");
    test::expectInputError([&] { readCornellTrace(p); },
                           {"broken.txt:7", "field 'powerave' is 'abc', not a number"});
}

TEST_F(power_BrokenCopy, WrongColumnCount) {
    const auto p = withLine(9,
                            "cbsugpu08\t2025-10-20 "
                            "06:00:00.000\t50.12\t49.02\t51.16\t36.5\t34\t39\t0\t0\t0\t0\t0\t0\t7");
    test::expectInputError([&] { readCornellTrace(p); }, {"broken.txt:9", "found 15"});
}

TEST_F(power_BrokenCopy, TruncatedFileFooterMismatch) {
    // Dropping a data row leaves the footer's "(15277 rows affected)" wrong.
    std::istringstream in(original_);
    std::string out, l;
    for (std::size_t n = 1; std::getline(in, l); ++n) {
        if (n != 50) out += l + "\n";
    }
    const auto p = dir_ / "short.txt";
    std::ofstream(p, std::ios::binary) << out;
    test::expectInputError([&] { readCornellTrace(p); }, {"short.txt:", "footer says 15277"});
}

TEST_F(power_BrokenCopy, RowsOutOfOrder) {
    const auto p =
        withLine(3, "cbsugpu08\t2025-10-21 13:00:00.000\t50\t49\t50\t36\t36\t37\t0\t0\t0\t0\t0\t0");
    test::expectInputError([&] { readCornellTrace(p); }, {"broken.txt:3", "newest first"});
}

TEST(power_CsvTrace, GoogleClusterFileAndErrors) {
    TraceOptions o;
    o.time_unit = 3600.0;
    const TraceSeries g = readCsvTrace(kTraces / "GoogleClusteData_CPU_Data_Hourly_1.csv", o);
    EXPECT_EQ(g.size(), 8760u);  // SOURCES.md: 8760 hourly rows, index 0..8759
    EXPECT_EQ(g.column, "cpu_load");
    EXPECT_TRUE(g.gaps.empty());
    double mean = 0;
    for (double v : g.value) mean += v;
    EXPECT_NEAR(mean / g.size(), 0.68, 0.01);  // SOURCES.md: mean 0.68
    // The exact integral of the interpolant over [0, 2 h] is a trapezoid sum.
    EXPECT_NEAR(g.integral(0, 7200), 3600 * (0.5 * g.value[0] + g.value[1] + 0.5 * g.value[2]),
                1e-9);
    const auto dir = std::filesystem::temp_directory_path() / "dctwin_csv_trace_test";
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "bad.csv") << "time,value\n0,1\n1,x\n";
    test::expectInputError([&] { readCsvTrace(dir / "bad.csv"); },
                           {"bad.csv:3", "value 'x' is not a number"});
    std::ofstream(dir / "back.csv") << "0,1\n2,1\n1,1\n";
    test::expectInputError([&] { readCsvTrace(dir / "back.csv"); }, {"back.csv:3", "increase"});
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace dctwin::power
