// The telemetry readers (power/trace.h) on small files written here in each tool's exact
// format: parsed values against the file's own numbers, and broken copies (bad datetime,
// unknown unit, non-numeric field, missing column) against file, line and field.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "power/trace.h"
#include "test_util.h"

namespace dctwin::power {
namespace {

namespace fs = std::filesystem;

class TraceFormats : public ::testing::Test {
protected:
    void SetUp() override {
        std::random_device rd;
        dir_ = fs::temp_directory_path() / ("dctwin_fmt_" + std::to_string(rd()));
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }
    fs::path write(const std::string& name, const std::string& text) {
        std::ofstream(dir_ / name, std::ios::binary) << text;
        return dir_ / name;
    }
    fs::path dir_;
};

// Unix time of 2025-01-31 12:00:00 UTC: 20119 days after 1970-01-01 (1970–2024: 55 years,
// 14 of them leap → 20089 days; + 30 days of January) = 1,738,281,600 + 43,200 s.
constexpr double kJan31Noon = 20119 * 86400.0 + 12 * 3600.0;

// nvidia-smi --query-gpu=timestamp,index,power.draw,utilization.gpu,temperature.gpu
// --format=csv -lms 100, two GPUs, the last line cut short.
const char* kSmi =
    "timestamp, index, power.draw [W], utilization.gpu [%], temperature.gpu\n"
    "2025/01/31 12:00:00.100, 0, 312.45 W, 85 %, 45\n"
    "2025/01/31 12:00:00.101, 1, 298.10 W, 80 %, 47\n"
    "2025/01/31 12:00:00.200, 0, 651.00 W, 99 %, 46\n"
    "2025/01/31 12:00:00.201, 1, 640.50 W, 98 %, 48\n"
    "2025/01/31 12:00:00.300, 0, 120.25 W, 10 %, 46\n"
    "2025/01/31 12:00:00.301, 1, [N/A], 12 %, 48\n"
    "2025/01/31 12:00:00.400, 0, 33";

TEST_F(TraceFormats, NvidiaSmiWithIndexUnitsAndTruncatedLastLine) {
    const TraceData d = readTrace(write("smi.csv", kSmi));
    EXPECT_EQ(d.format, "nvidia_smi");
    ASSERT_EQ(d.columns.size(), 3u);
    EXPECT_EQ(d.columns[0].name, "power.draw");
    EXPECT_EQ(d.columns[0].unit, "W");
    EXPECT_EQ(d.columns[1].unit, "%");
    EXPECT_EQ(d.columns[2].unit, "C");
    ASSERT_EQ(d.devices.size(), 2u);
    EXPECT_EQ(d.devices[0].id, "0");
    EXPECT_EQ(d.devices[1].id, "1");
    ASSERT_EQ(d.devices[0].time.size(), 3u);  // the cut line 9 is dropped
    EXPECT_DOUBLE_EQ(d.devices[0].values[0][1], 651.00);
    EXPECT_DOUBLE_EQ(d.devices[1].values[1][0], 80.0);
    EXPECT_TRUE(std::isnan(d.devices[1].values[0][2]));  // [N/A]
    EXPECT_NEAR(d.devices[0].time[1] - d.devices[0].time[0], 0.1, 1e-6);
    EXPECT_NEAR(d.devices[1].time[0], 0.001, 1e-6);
    EXPECT_NEAR(d.start_epoch, kJan31Noon + 0.1, 1e-4);
    ASSERT_EQ(d.warnings.size(), 1u);
    EXPECT_NE(d.warnings[0].find("line 8"), std::string::npos) << d.warnings[0];
    // Summed power on the 0.1 s grid of GPU 0: 312.45 + 298.10 (GPU 1 at t = 0 is held flat
    // back to its first sample 1 ms later).
    AggregateOptions a;
    a.column = 0;
    a.rule = TraceAggregate::Sum;
    const TraceSeries s = aggregateTrace(d, a);
    ASSERT_EQ(s.size(), 3u);
    EXPECT_NEAR(s.value[0], 312.45 + 298.10, 1e-9);
    // At 0.2 s GPU 1 is interpolated between 298.10 (0.101) and 640.50 (0.201): 0.99 of the way.
    // (Times are differences of Unix stamps near 1.7e9 s: exact to ~1e-6 s.)
    EXPECT_NEAR(s.value[1], 651.00 + 298.10 + 0.99 * (640.50 - 298.10), 1e-2);
    a.rule = TraceAggregate::Mean;
    a.column = 1;
    EXPECT_NEAR(aggregateTrace(d, a).value[0], (85 + 80) / 2.0, 1e-9);
}

TEST_F(TraceFormats, NvidiaSmiNounitsNoheaderAndBusIds) {
    // --format=csv,noheader,nounits: the field list comes from the scenario.
    const auto p = write("noheader.csv",
                         "2025/01/31 12:00:00.000, 00000000:18:00.0, 400.5, 90\n"
                         "2025/01/31 12:00:00.000, 00000000:2A:00.0, 410.0, 91\n"
                         "2025/01/31 12:00:01.000, 00000000:18:00.0, 100.0, 5\n"
                         "2025/01/31 12:00:01.000, 00000000:2A:00.0, 110.0, 6\n");
    test::expectInputError([&] { readTrace(p); }, {"noheader.csv:1", "fields"});
    TraceReadOptions o;
    o.fields = "timestamp,pci.bus_id,power.draw [W],utilization.gpu [%]";
    const TraceData d = readTrace(p, o);
    ASSERT_EQ(d.devices.size(), 2u);
    EXPECT_EQ(d.devices[1].id, "00000000:2A:00.0");
    EXPECT_DOUBLE_EQ(d.devices[1].values[0][1], 110.0);
    EXPECT_DOUBLE_EQ(d.devices[0].time[1], 1.0);
}

TEST_F(TraceFormats, NvidiaSmiRowsWithoutIndexGroupedByPollingCycle) {
    // Three GPUs, rows 2 ms apart inside a cycle, cycles 0.5 s apart; the count is inferred.
    std::string text = "timestamp, power.draw [W]\n";
    for (int c = 0; c < 4; ++c) {
        for (int g = 0; g < 3; ++g) {
            text += fmt::format("2025/01/31 12:00:{:06.3f}, {:.2f} W\n", 0.5 * c + 0.002 * g,
                                100.0 * (g + 1) + c);
        }
    }
    const TraceData d = readTrace(write("cycles.csv", text));
    ASSERT_EQ(d.devices.size(), 3u);
    EXPECT_DOUBLE_EQ(d.devices[2].values[0][3], 303.0);  // GPU 2, cycle 3
    EXPECT_NEAR(traceSampling(d.devices[0]).nominal_step, 0.5, 1e-9);
    // A cycle with a GPU missing in the middle of the log is an error naming its line.
    std::string broken = "timestamp, power.draw [W]\n";
    int line = 1;
    std::size_t bad_line = 0;
    for (int c = 0; c < 4; ++c) {
        for (int g = 0; g < 3; ++g) {
            if (c == 1 && g == 2) continue;
            ++line;
            if (c == 1 && g == 0) bad_line = static_cast<std::size_t>(line);
            broken += fmt::format("2025/01/31 12:00:{:06.3f}, 100 W\n", 0.5 * c + 0.002 * g);
        }
    }
    test::expectInputError([&] { readTrace(write("short_cycle.csv", broken)); },
                           {fmt::format("short_cycle.csv:{}", bad_line), "2 rows, the others 3"});
}

TEST_F(TraceFormats, NvidiaSmiBrokenCopies) {
    const std::string head = "timestamp, index, power.draw [W], utilization.gpu [%]\n";
    const std::string ok = "2025/01/31 12:00:00.100, 0, 312.45 W, 85 %\n";
    const std::string tail = "2025/01/31 12:00:00.300, 0, 300 W, 85 %\n";
    test::expectInputError(
        [&] {
            readTrace(write("a.csv", head + ok + "2025/13/31 12:00:00.200, 0, 1 W, 1 %\n" + tail));
        },
        {"a.csv:3", "field 'timestamp'", "'2025/13/31 12:00:00.200' is not a datetime"});
    test::expectInputError(
        [&] {
            readTrace(
                write("b.csv", head + ok + "2025/01/31 12:00:00.200, 0, 1 furlong, 1 %\n" + tail));
        },
        {"b.csv:3", "field 'power.draw'", "unknown unit 'furlong'", "kW"});
    test::expectInputError(
        [&] {
            readTrace(
                write("c.csv", head + ok + "2025/01/31 12:00:00.200, 0, abc W, 1 %\n" + tail));
        },
        {"c.csv:3", "field 'power.draw' is 'abc W', not a number"});
    test::expectInputError(
        [&] { readTrace(write("d.csv", head + ok + "2025/01/31 12:00:00.200, 0, 1 W\n" + tail)); },
        {"d.csv:3", "expected 4 comma-separated fields", "found 3"});
}

// dcgmi dmon -e 155,150,203 -d 100
const char* kDmon =
    "#Entity   POWER      GTEMP      GPUTL\n"
    "ID        W          C          \n"
    "GPU 0     312.513    45         85\n"
    "GPU 1     298.000    47         80\n"
    "GPU 0     650.250    46         99\n"
    "GPU 1     N/A        48         98\n"
    "#Entity   POWER      GTEMP      GPUTL\n"
    "ID        W          C          \n"
    "GPU 0     120.000    46         10\n"
    "GPU 1     118.500    48         11\n";

TEST_F(TraceFormats, DcgmDmon) {
    TraceReadOptions o;
    o.interval = 0.1;
    const TraceData d = readTrace(write("dmon.txt", kDmon), o);
    EXPECT_EQ(d.format, "dcgm_dmon");
    ASSERT_EQ(d.columns.size(), 3u);
    EXPECT_EQ(d.columns[0].unit, "W");
    EXPECT_EQ(d.columns[2].unit, "%");
    ASSERT_EQ(d.devices.size(), 2u);
    EXPECT_EQ(d.devices[1].id, "GPU 1");
    ASSERT_EQ(d.devices[0].time.size(), 3u);
    EXPECT_DOUBLE_EQ(d.devices[0].values[0][1], 650.250);
    EXPECT_DOUBLE_EQ(d.devices[1].values[0][2], 118.5);
    EXPECT_TRUE(std::isnan(d.devices[1].values[0][1]));
    EXPECT_NEAR(d.devices[0].time[2], 0.2, 1e-12);
    test::expectInputError(
        [&] {
            readTrace(write("dmon_bad.txt", std::string(kDmon).replace(
                                                std::string(kDmon).find("298.000"), 7, "29x.000")),
                      o);
        },
        {"dmon_bad.txt:4", "field 'POWER' is '29x.000', not a number"});
    // Cut short while dmon was writing: the last row lost "1\n" ("GPU 1 118.500 48 1" still
    // parses, utilization 1 instead of 11) — dropped with a warning, as is a last row cut to
    // too few fields; a bad row elsewhere stays an error (above).
    std::string cut(kDmon);
    cut.resize(cut.size() - 2);
    const TraceData c = readTrace(write("dmon_cut.txt", cut), o);
    ASSERT_EQ(c.warnings.size(), 1u);
    EXPECT_NE(c.warnings[0].find("line 10 dropped: the file ends without a newline"),
              std::string::npos)
        << c.warnings[0];
    EXPECT_EQ(c.devices[1].time.size(), 2u);
    std::string few(kDmon);
    few.resize(few.size() - std::string("00         48         11\n").size());
    const TraceData c2 = readTrace(write("dmon_cut2.txt", few + "\n"), o);
    ASSERT_EQ(c2.warnings.size(), 1u);
    EXPECT_NE(c2.warnings[0].find("line 10 dropped (truncated last line?)"), std::string::npos)
        << c2.warnings[0];
    EXPECT_EQ(c2.devices[1].time.size(), 2u);
}

// dcgm-exporter scrapes (curl localhost:9400/metrics), two concatenated, with timestamps.
const char* kProm =
    "# HELP DCGM_FI_DEV_POWER_USAGE Power draw (in W).\n"
    "# TYPE DCGM_FI_DEV_POWER_USAGE gauge\n"
    "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\",UUID=\"GPU-aa\",device=\"nvidia0\",modelName=\"NVIDIA "
    "H100 80GB HBM3\",Hostname=\"n1\"} 312.5 1738324800000\n"
    "DCGM_FI_DEV_POWER_USAGE{gpu=\"1\",UUID=\"GPU-bb\",device=\"nvidia1\",modelName=\"NVIDIA "
    "H100 80GB HBM3\",Hostname=\"n1\"} 300.25 1738324800000\n"
    "# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).\n"
    "# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n"
    "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",Hostname=\"n1\"} 85 1738324800000\n"
    "DCGM_FI_DEV_GPU_UTIL{gpu=\"1\",Hostname=\"n1\"} 80 1738324800000\n"
    "# HELP DCGM_FI_DEV_POWER_USAGE Power draw (in W).\n"
    "# TYPE DCGM_FI_DEV_POWER_USAGE gauge\n"
    "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\",Hostname=\"n1\"} 650 1738324801000\n"
    "DCGM_FI_DEV_POWER_USAGE{gpu=\"1\",Hostname=\"n1\"} 640.75 1738324801000\n"
    "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",Hostname=\"n1\"} 99 1738324801000\n"
    "DCGM_FI_DEV_GPU_UTIL{gpu=\"1\",Hostname=\"n1\"} 98 1738324801000\n";

TEST_F(TraceFormats, DcgmPrometheusScrapes) {
    const TraceData d = readTrace(write("metrics.prom", kProm));
    EXPECT_EQ(d.format, "dcgm_prometheus");
    ASSERT_EQ(d.columns.size(), 2u);
    EXPECT_EQ(d.columns[d.columnIndex("DCGM_FI_DEV_POWER_USAGE")].unit, "W");
    ASSERT_EQ(d.devices.size(), 2u);
    ASSERT_EQ(d.devices[1].time.size(), 2u);
    EXPECT_DOUBLE_EQ(d.devices[1].values[0][1], 640.75);
    EXPECT_DOUBLE_EQ(d.devices[0].values[1][0], 85.0);
    EXPECT_DOUBLE_EQ(d.devices[0].time[1], 1.0);
    EXPECT_DOUBLE_EQ(d.start_epoch, 1738324800.0);
    // Without timestamps a scrape ends where a series repeats; `interval` spaces them.
    std::string plain = kProm;
    for (std::size_t p; (p = plain.find(" 17383248")) != std::string::npos;) plain.erase(p, 14);
    TraceReadOptions o;
    o.interval = 15;
    const TraceData u = readTrace(write("plain.prom", plain), o);
    ASSERT_EQ(u.devices[0].time.size(), 2u);
    EXPECT_DOUBLE_EQ(u.devices[0].time[1], 15.0);
    EXPECT_DOUBLE_EQ(u.devices[0].values[0][1], 650.0);
    std::string bad = kProm;
    bad.replace(bad.find("300.25"), 6, "3OO.25");
    test::expectInputError([&] { readTrace(write("bad.prom", bad)); },
                           {"bad.prom:4", "'DCGM_FI_DEV_POWER_USAGE' is '3OO.25', not a number"});
}

TEST_F(TraceFormats, DelimitedIsoTimesUnitsAndTimeColumnByName) {
    // Semicolons, the time in the third column with zones, kW in the header, W in values.
    const auto p = write("site.csv",
                         "node; power [kW]; time; gpu_util_pct\n"
                         "a; 1.5; 2025-01-31T12:00:00Z; 50\n"
                         "a; 1.75; 2025-01-31T13:00:01+01:00; 60\n"
                         "a; 2000 W; 2025-01-31T12:00:02.500Z; 70\n");
    const TraceData d = readTrace(p);
    EXPECT_EQ(d.format, "delimited");
    EXPECT_EQ(d.time_column, "time");
    ASSERT_EQ(d.columns.size(), 2u);
    EXPECT_EQ(d.columns[0].name, "power");
    EXPECT_EQ(d.columns[0].unit, "W");
    EXPECT_EQ(d.columns[1].unit, "%");
    const auto& dev = d.devices.at(0);
    ASSERT_EQ(dev.time.size(), 3u);
    EXPECT_DOUBLE_EQ(dev.values[0][0], 1500.0);
    EXPECT_DOUBLE_EQ(dev.values[0][1], 1750.0);
    EXPECT_DOUBLE_EQ(dev.values[0][2], 2000.0);
    EXPECT_NEAR(dev.time[1], 1.0, 1e-6);  // 13:00:01+01:00 is 12:00:01 UTC
    EXPECT_NEAR(dev.time[2], 2.5, 1e-6);
    EXPECT_NEAR(d.start_epoch, kJan31Noon, 1e-3);
    // Broken copies.
    const std::string h = "node; power [kW]; time; gpu_util_pct\n";
    const std::string r1 = "a; 1.5; 2025-01-31T12:00:00Z; 50\n";
    const std::string r3 = "a; 1.5; 2025-01-31T12:00:05Z; 50\n";
    test::expectInputError(
        [&] { readTrace(write("e1.csv", h + r1 + "a; 1.5; 2025-01-31T25:00:00Z; 50\n" + r3)); },
        {"e1.csv:3", "field 'time'", "'2025-01-31T25:00:00Z' is not a datetime"});
    test::expectInputError(
        [&] {
            readTrace(write("e2.csv", h + r1 + "a; 1.5 parsecs; 2025-01-31T12:00:01Z; 50\n" + r3));
        },
        {"e2.csv:3", "field 'power'", "unknown unit 'parsecs'"});
    test::expectInputError(
        [&] { readTrace(write("e3.csv", h + r1 + "a; 1.5; 2025-01-31T12:00:01Z; lots\n" + r3)); },
        {"e3.csv:3", "field 'gpu_util' is 'lots', not a number"});
    TraceReadOptions o;
    o.time_column = "when";
    test::expectInputError([&] { readTrace(p, o); },
                           {"site.csv:1", "no time column 'when'", "node, power, time, gpu_util"});
    test::expectInputError(
        [&] { readTrace(write("e4.csv", h + r1 + "a; 1.5; 2025-01-31T12:00:01Z\n" + r3)); },
        {"e4.csv:3", "expected 4 semicolon-separated fields", "found 3"});
}

TEST_F(TraceFormats, DelimitedLongFormatGroupedAndAggregated) {
    // One row per (time, device): the case the issue reports ("column": "value" listed but not
    // found; the utilization read as time). Times in ms.
    const auto p = write("long.csv",
                         "time_ms,device,value\n"
                         "0,gpu0,100\n0,gpu1,300\n"
                         "1000,gpu0,200\n1000,gpu1,500\n"
                         "2000,gpu0,150\n2000,gpu1,250\n");
    TraceReadOptions o;
    o.time_unit = 1e-3;
    const TraceData d = readTrace(p, o);
    ASSERT_EQ(d.devices.size(), 2u);
    EXPECT_EQ(d.devices[1].id, "gpu1");
    const std::size_t c = d.columnIndex("value");
    AggregateOptions a;
    a.column = c;
    a.rule = TraceAggregate::Sum;
    const TraceSeries s = aggregateTrace(d, a);
    ASSERT_EQ(s.size(), 3u);
    EXPECT_DOUBLE_EQ(s.nominal_step, 1.0);
    EXPECT_DOUBLE_EQ(s.value[0], 400.0);
    EXPECT_DOUBLE_EQ(s.value[1], 700.0);
    EXPECT_DOUBLE_EQ(s.value[2], 400.0);
    a.rule = TraceAggregate::Mean;
    EXPECT_DOUBLE_EQ(aggregateTrace(d, a).value[1], 350.0);
    // Without a device column the repeated times are an error that says what to do.
    test::expectInputError([&] { readTrace(write("nodev.csv", "t,value\n0,1\n0,2\n1,3\n")); },
                           {"nodev.csv:3", "does not increase", "group_column"});
    test::expectInputError([&] { d.columnIndex("power"); }, {"no value column 'power'", "value"});
}

TEST_F(TraceFormats, GapPolicies) {
    // Two devices, device b misses t = 2, 3 (a gap from 1 to 4 s).
    const auto p = write("gaps.csv",
                         "t,device,p\n0,a,10\n0,b,100\n1,a,10\n1,b,100\n2,a,10\n3,a,10\n"
                         "4,a,10\n4,b,400\n5,a,10\n5,b,400\n");
    const TraceData d = readTrace(p);
    AggregateOptions a;
    a.rule = TraceAggregate::Sum;
    a.fill = GapFill::Interpolate;
    const TraceSeries lin = aggregateTrace(d, a);
    ASSERT_EQ(lin.size(), 6u);
    EXPECT_DOUBLE_EQ(lin.value[2], 10 + 200);  // 100 → 400 over 3 s, at 1 s in
    ASSERT_EQ(lin.gaps.size(), 1u);
    EXPECT_DOUBLE_EQ(lin.gaps[0].from, 1.0);
    EXPECT_DOUBLE_EQ(lin.gaps[0].to, 4.0);
    a.fill = GapFill::Hold;
    EXPECT_DOUBLE_EQ(aggregateTrace(d, a).value[3], 10 + 100);
    a.fill = GapFill::Idle;
    a.idle_value = 50;
    EXPECT_DOUBLE_EQ(aggregateTrace(d, a).value[3], 10 + 50);
    a.max_gap = 2.0;
    test::expectInputError([&] { aggregateTrace(d, a); },
                           {"gaps.csv:9", "gap of", "lines 5 and 9", "device 'b'"});
}

TEST_F(TraceFormats, DetectionAndUnknownFormat) {
    EXPECT_EQ(detectTraceFormat({"timestamp, index, power.draw [W]"}), "nvidia_smi");
    EXPECT_EQ(detectTraceFormat({"#Entity   POWER"}), "dcgm_dmon");
    EXPECT_EQ(detectTraceFormat({"# HELP DCGM_FI_DEV_POWER_USAGE x"}), "dcgm_prometheus");
    EXPECT_EQ(detectTraceFormat({"time,power"}), "delimited");
    TraceReadOptions o;
    o.format = "parquet";
    test::expectInputError([&] { readTrace(write("x.csv", "t,p\n0,1\n1,2\n"), o); },
                           {"unknown trace format 'parquet'", "nvidia_smi", "dcgm_prometheus"});
}

TEST_F(TraceFormats, LastLineWithoutNewlineIsCutEvenIfItParses) {
    // "330.12 W" cut to "33" leaves a number: only the missing newline tells.
    const std::string text = std::string(kSmi).substr(0, std::string(kSmi).rfind('\n') + 1) +
                             "2025/01/31 12:00:00.400, 0, 33";
    const TraceData d = readTrace(write("cut.csv", text + "0.12 W, 85 %, 45"));
    EXPECT_EQ(d.devices[0].time.size(), 3u);
    ASSERT_EQ(d.warnings.size(), 1u);
    EXPECT_NE(d.warnings[0].find("without a newline"), std::string::npos);
    // With its newline the same line is data.
    EXPECT_EQ(readTrace(write("whole.csv", text + "0.12 W, 85 %, 45\n")).devices[0].time.size(),
              4u);
}

TEST_F(TraceFormats, MangledFilesGiveInputErrorsOnly) {
    // Random deletions, insertions and byte flips in every format: the reader and the
    // aggregation either succeed or throw InputError, never anything else.
    const std::string seeds[] = {kSmi, kDmon, kProm,
                                 "time_ms,device,value\n0,a,1\n0,b,2\n1000,a,3\n1000,b,4\n",
                                 "t; p [kW]\n2025-01-31T12:00:00Z; 1\n2025-01-31T12:00:01Z; 2\n"};
    std::mt19937 rng(11);
    int accepted = 0;
    for (const std::string& seed : seeds) {
        for (int k = 0; k < 150; ++k) {
            std::string t = seed;
            const int edits = 1 + static_cast<int>(rng() % 4);
            for (int e = 0; e < edits && !t.empty(); ++e) {
                const std::size_t at = rng() % t.size();
                switch (rng() % 3) {
                    case 0:
                        t.erase(at, 1 + rng() % 8);
                        break;
                    case 1:
                        t.insert(at, 1, static_cast<char>(rng() % 256));
                        break;
                    default: {
                        static const std::string kChars = "0123456789,;\t\n :/-.[]{}\"=#eE";
                        t[at] = kChars[rng() % kChars.size()];
                    }
                }
            }
            const auto p = write("m.txt", t);
            try {
                const TraceData d = readTrace(p);
                AggregateOptions a;
                aggregateTrace(d, a);
                ++accepted;
            } catch (const InputError&) {
            } catch (const std::exception& e) {
                ADD_FAILURE() << "not an InputError: " << e.what() << "\n---\n" << t;
            }
        }
    }
    EXPECT_GT(accepted, 0);
}

TEST_F(TraceFormats, CornellThroughTheGenericReader) {
    const TraceData d =
        readTrace(fs::path(DCTWIN_SOURCE_DIR) / "data/traces/cbsugpu08_usage_stats.txt");
    EXPECT_EQ(d.format, "cornell");
    ASSERT_EQ(d.devices.size(), 1u);
    EXPECT_EQ(d.devices[0].time.size(), 15277u);  // SOURCES.md
    EXPECT_EQ(d.columns[d.columnIndex("powerave")].unit, "W");
    // The newest row (line 2) holds powerave 50.12375 W and is the last sample.
    EXPECT_DOUBLE_EQ(d.devices[0].values[d.columnIndex("powerave")].back(), 50.12375);
}

TEST_F(TraceFormats, NegativePowerIsAnInputErrorInEveryFormat) {
    // A power reading below 0 W is no measurement (a logger's sign or offset fault); it was
    // read silently and replayed as a GPU below idle. Every reader refuses it, naming file,
    // line, column and value, in the file's line order (also on the last line, which is no
    // cut-off: a cut line does not turn a reading negative).
    std::string smi = std::string(kSmi).substr(0, std::string(kSmi).rfind('\n') + 1);
    smi.replace(smi.find("640.50 W"), 8, "-640.50 W");
    test::expectInputError([&] { readTrace(write("neg_smi.csv", smi)); },
                           {"neg_smi.csv:5:", "field 'power.draw'", "(device '1')", "-640.5 W",
                            "a power reading must be >= 0 W"});
    std::string smi_last = std::string(kSmi).substr(0, std::string(kSmi).rfind('\n') + 1) +
                           "2025/01/31 12:00:00.400, 0, -3.5 W, 10 %, 46\n";
    test::expectInputError([&] { readTrace(write("neg_last.csv", smi_last)); },
                           {"neg_last.csv:8:", "-3.5 W", ">= 0 W"});
    TraceReadOptions o;
    o.interval = 0.1;
    std::string dmon = kDmon;
    dmon.replace(dmon.find("120.000"), 7, "-12.000");
    test::expectInputError([&] { readTrace(write("neg.dmon", dmon), o); },
                           {"neg.dmon:9:", "field 'POWER'", "-12 W", ">= 0 W"});
    std::string prom = kProm;
    prom.replace(prom.find("640.75"), 6, "-0.75");
    test::expectInputError([&] { readTrace(write("neg.prom", prom)); },
                           {"neg.prom:12:", "'DCGM_FI_DEV_POWER_USAGE'", "-0.75 W", ">= 0 W"});
    // Delimited, in kW: the value as converted, and the unit it came from.
    test::expectInputError(
        [&] {
            readTrace(write("neg_kw.csv",
                            "time, power [kW], util [%]\n0, 1.5, 50\n1, -0.25, 60\n2, 1.0, 70\n"));
        },
        {"neg_kw.csv:3:", "field 'power'", "-250 W (converted from kW)", ">= 0 W"});
    // Other quantities may be negative (a temperature below 0 C): not refused.
    const TraceData cold = readTrace(
        write("cold.csv", "time, power [W], inlet [C]\n0, 100, -5\n1, 110, -4\n2, 120, -3\n"));
    EXPECT_DOUBLE_EQ(cold.devices[0].values[1][0], -5.0);
    // -0 is 0 W.
    EXPECT_NO_THROW(readTrace(write("zero.csv", "time, power [W]\n0, -0\n1, 0\n2, 5\n")));
}

TEST_F(TraceFormats, AggregatedSeriesKeepsTheReadersWarnings) {
    // A run replays the aggregated series, not TraceData: the warning about a cut-off last line
    // travels with it so that `dctwin run` can say what `trace inspect` says.
    const TraceData d = readTrace(write("smi_cut.csv", kSmi));
    ASSERT_EQ(d.warnings.size(), 1u);
    AggregateOptions a;
    const TraceSeries s = aggregateTrace(d, a);
    ASSERT_EQ(s.warnings.size(), 1u);
    EXPECT_EQ(s.warnings[0], d.warnings[0]);
}

}  // namespace
}  // namespace dctwin::power
