// GPU-log replay findings of the trace audit (F2, F3, F5, F6, F8, F9, D2): each case was a
// silently wrong replay or a misleading error. The logs are written here; expected values are
// worked out by hand from them and the H100 SXM's catalog figures (idle 70 W, TDP 700 W:
// u = (P − 70)/630).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "core/json.h"
#include "power/trace.h"
#include "power/trace_inspect.h"
#include "power/workload.h"
#include "test_util.h"

namespace dctwin::power {
namespace {

namespace fs = std::filesystem;
using test::expectInputError;

double u(double watts) { return (watts - 70.0) / 630.0; }

class TraceAudit : public ::testing::Test {
protected:
    void SetUp() override {
        std::random_device rd;
        dir_ = fs::temp_directory_path() / ("dctwin_audit_" + std::to_string(rd()));
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }
    fs::path write(const std::string& name, const std::string& text) const {
        std::ofstream(dir_ / name, std::ios::binary) << text;
        return dir_ / name;
    }
    /// One trace job on one rack replaying `file` with the given keys.
    static Workload load(const fs::path& file, const std::string& keys) {
        const Json j = parseJson(fmt::format(R"({{"racks": 1, "jobs": [{{"name": "replay",
            "type": "trace", "racks": 1, "file": "{}", {}}}]}})",
                                             file.string(), keys),
                                 "workload");
        return Workload::fromJson(JsonView(j, "/workload"));
    }
    static const TraceSeries& series(const Workload& w) {
        const auto* t = dynamic_cast<const TraceJob*>(w.jobs().front().get());
        EXPECT_NE(t, nullptr);
        return *t->trace;
    }
    static std::string joined(const std::vector<std::string>& v) {
        std::string s;
        for (const auto& x : v) s += x + "\n";
        return s;
    }
    fs::path dir_;
};

// --- F2: the column a power_W job replays -------------------------------------------------

TEST_F(TraceAudit, NoheaderLogWithUtilizationFirstReplaysThePowerColumn) {
    // --query-gpu=timestamp,index,utilization.gpu,power.draw --format=csv,noheader,nounits:
    // no unit anywhere. power.draw is in W (nvidia-smi --help-query-gpu), so it is the power
    // column; column 0 (utilization 100) was replayed as 100 W.
    const auto log = write("noheader.csv",
                           "2025/01/31 12:00:00.000, 0, 100, 700.00\n"
                           "2025/01/31 12:00:01.000, 0, 0, 70.00\n"
                           "2025/01/31 12:00:02.000, 0, 50, 385.00\n");
    const std::string keys = R"("fields": "timestamp,index,utilization.gpu,power.draw",
        "quantity": "power_W", "gpu_model": "h100_sxm")";
    const Workload w = load(log, keys);
    EXPECT_NEAR(w.utilization(0, 0.0), u(700), 1e-12);  // 1, not u(100) = 0.048
    EXPECT_NEAR(w.utilization(0, 1.0), u(70), 1e-12);   // 0
    EXPECT_NEAR(w.utilization(0, 2.0), u(385), 1e-12);  // 0.5
    EXPECT_EQ(series(w).column, "power.draw");
    // trace inspect's statistics are of the same column (it takes the first in W).
    TraceReadOptions o;
    o.fields = "timestamp,index,utilization.gpu,power.draw";
    const Json j = inspectTrace(readTrace(log, o));
    EXPECT_EQ(j["statistic_column"]["name"], "power.draw");
    EXPECT_NEAR(j["devices"][0]["mean"].get<double>(), (700.0 + 70.0 + 385.0) / 3, 1e-9);
    // The same log read as utilization takes utilization.gpu (in % by the same rule).
    const Workload wu = load(log, R"("fields": "timestamp,index,utilization.gpu,power.draw",
        "quantity": "utilization_pct")");
    EXPECT_NEAR(wu.utilization(0, 2.0), 0.5, 1e-12);
}

TEST_F(TraceAudit, APowerLimitIsNotTheDefaultPowerColumn) {
    // enforced.power.limit is in W too; logged first it was replayed as a flat 700 W.
    const auto log = write("limit.csv",
                           "2025/01/31 12:00:00.000, 0, 700.00, 385.00\n"
                           "2025/01/31 12:00:01.000, 0, 700.00, 70.00\n");
    const Workload w = load(log, R"("fields": "timestamp,index,enforced.power.limit,power.draw",
        "quantity": "power_W", "gpu_model": "h100_sxm")");
    EXPECT_NEAR(w.utilization(0, 0.0), u(385), 1e-12);
    EXPECT_NEAR(w.utilization(0, 1.0), u(70), 1e-12);
}

TEST_F(TraceAudit, AValueWhoseUnitContradictsItsFieldIsAnError) {
    // The values carry units but "fields" lists power.draw where the log has utilization.gpu:
    // "100 %" was read as 100 W.
    const auto log = write("units.csv",
                           "2025/01/31 12:00:00.000, 0, 100 %, 600.00 W\n"
                           "2025/01/31 12:00:01.000, 0, 100 %, 600.00 W\n");
    TraceReadOptions o;
    o.fields = "timestamp,index,power.draw,utilization.gpu";
    expectInputError([&] { readTrace(log, o); },
                     {"units.csv:1", "field 'power.draw' is '100 %'", "unit '%'",
                      "nvidia-smi logs power.draw in W", "\"fields\""});
    // In the scenario the message names the job's file key.
    expectInputError(
        [&] {
            load(log, R"("fields": "timestamp,index,power.draw,utilization.gpu",
                "quantity": "power_W", "gpu_model": "h100_sxm")");
        },
        {"/workload/jobs/0/file", "units.csv:1", "'100 %'"});
    // A field without an implied unit takes its first value's; a later value in another unit
    // is an error naming that first line.
    const auto mixed = write("mixed.csv",
                             "2025/01/31 12:00:00.000, 0, 600 W\n"
                             "2025/01/31 12:00:01.000, 0, 60 %\n"
                             "2025/01/31 12:00:02.000, 0, 610 W\n");
    TraceReadOptions m;
    m.fields = "timestamp,index,board_power";
    expectInputError([&] { readTrace(mixed, m); },
                     {"mixed.csv:2", "'60 %'", "values are in W (line 1)"});
    // Properly listed, the units agree and the power column is found.
    o.fields = "timestamp,index,utilization.gpu,power.draw";
    const TraceData d = readTrace(log, o);
    ASSERT_EQ(d.columns.size(), 2u);
    EXPECT_EQ(d.columns[1].unit, "W");
    EXPECT_DOUBLE_EQ(d.devices[0].values[1][0], 600.0);
}

TEST_F(TraceAudit, NoColumnInTheQuantitysUnitIsAnErrorNotColumnZero) {
    // Two value columns without units and power_W: nothing says which is power. Column 0 was
    // taken; now the user is told which columns exist and how to name one.
    const auto log = write("two.csv", "time,util,board\n0,100,700\n1,0,70\n");
    expectInputError(
        [&] { load(log, R"("quantity": "power_W", "gpu_model": "h100_sxm")"); },
        {"/workload/jobs/0/column", "two.csv", "no column is in W", "\"quantity\": \"power_W\"",
         "'util' (no unit), 'board' (no unit)", "\"column\": \"util\""});
    // Naming it replays it.
    const Workload w =
        load(log, R"("quantity": "power_W", "gpu_model": "h100_sxm", "column": "board")");
    EXPECT_NEAR(w.utilization(0, 0.0), u(700), 1e-12);
    // One value column leaves nothing to choose: it is the one (the quantity says what it
    // holds).
    const auto one = write("one.csv", "time,board\n0,385\n1,70\n");
    EXPECT_NEAR(load(one, R"("quantity": "power_W", "gpu_model": "h100_sxm")").utilization(0, 0.0),
                u(385), 1e-12);
}

// --- F3: a GPU without readings under "aggregate": "sum" -----------------------------------

// Three GPUs, 1 s polling, GPU 1's power always [N/A].
const char* kDeadGpu =
    "timestamp, index, power.draw [W]\n"
    "2025/01/31 12:00:00.000, 0, 700.00 W\n"
    "2025/01/31 12:00:00.000, 1, [N/A]\n"
    "2025/01/31 12:00:00.000, 2, 385.00 W\n"
    "2025/01/31 12:00:01.000, 0, 70.00 W\n"
    "2025/01/31 12:00:01.000, 1, [N/A]\n"
    "2025/01/31 12:00:01.000, 2, 700.00 W\n"
    "2025/01/31 12:00:02.000, 0, 385.00 W\n"
    "2025/01/31 12:00:02.000, 1, [N/A]\n"
    "2025/01/31 12:00:02.000, 2, 385.00 W\n";

TEST_F(TraceAudit, SumLeavesOutAGpuWithoutReadingsAndSaysSo) {
    const auto log = write("dead.csv", kDeadGpu);
    // Per GPU that reports: (700 + 385)/2 = 542.5 W, (70 + 700)/2 = 385 W, 385 W. Divided by 3
    // GPUs the dead one read as 0 W: 361.7 W at t = 0.
    const Workload s =
        load(log, R"("quantity": "power_W", "gpu_model": "h100_sxm", "aggregate": "sum")");
    EXPECT_NEAR(s.utilization(0, 0.0), u(542.5), 1e-12);
    EXPECT_NEAR(s.utilization(0, 1.0), u(385), 1e-12);
    EXPECT_NEAR(s.utilization(0, 2.0), u(385), 1e-12);
    EXPECT_EQ(series(s).devices, 2u);
    // The mean rule left it out already; both now agree.
    const Workload m =
        load(log, R"("quantity": "power_W", "gpu_model": "h100_sxm", "aggregate": "mean")");
    EXPECT_NEAR(m.utilization(0, 0.0), s.utilization(0, 0.0), 1e-12);
    // One warning, naming the device.
    const auto& w = series(s).warnings;
    ASSERT_EQ(w.size(), 1u) << joined(w);
    EXPECT_NE(w[0].find("device '1' has no reading in column 'power.draw'"), std::string::npos)
        << w[0];
    EXPECT_NE(w[0].find("the other 2 of 3 devices"), std::string::npos) << w[0];
    // trace inspect: the sum is of the 2 GPUs that report (mean of 1085, 770, 770 W), with the
    // same warning; sum ÷ devices is the per-GPU power the run replays.
    const Json j = inspectTrace(readTrace(log));
    EXPECT_EQ(j["sum"]["devices"], 2);
    EXPECT_NEAR(j["sum"]["mean"].get<double>(), (1085.0 + 770.0 + 770.0) / 3, 1e-9);
    EXPECT_EQ(j["devices"][1]["unread_samples"], 3);
    EXPECT_NE(joined(j["warnings"].get<std::vector<std::string>>()).find("device '1' has no"),
              std::string::npos);
    EXPECT_NE(inspectionText(j).find("sum of 2 devices"), std::string::npos) << inspectionText(j);
}

// --- A GPU that joins the log late follows the gap fill ---------------------------------

TEST_F(TraceAudit, AGpuThatJoinsLateIsAGapAtTheStartFilledAsTheFillSays) {
    // GPUs 0 and 1 at 700 W from 12:00:00 for 10 s; GPU 2 at 385 W from 12:00:05 only (a node
    // that came up late). Before 12:00:05 GPU 2 has no reading: a gap of 5 s at the start,
    // which was held at its first reading (385 W) whatever gap_fill said.
    std::string text = "timestamp, index, power.draw [W]\n";
    for (int i = 0; i < 10; ++i) {
        for (int g = 0; g < 3; ++g) {
            if (g == 2 && i < 5) continue;
            text +=
                fmt::format("2025/01/31 12:00:{:02d}.000, {}, {}.00 W\n", i, g, g == 2 ? 385 : 700);
        }
    }
    const auto log = write("late.csv", text);
    // idle (the H100's 70 W): mean at t = 0 is (700 + 700 + 70)/3 = 490 W, at t = 5 s
    // (700 + 700 + 385)/3 = 595 W.
    const Workload idle =
        load(log, R"("quantity": "power_W", "gpu_model": "h100_sxm", "gap_fill": "idle")");
    EXPECT_NEAR(idle.utilization(0, 0.0), u(490.0), 1e-12);
    EXPECT_NEAR(idle.utilization(0, 5.0), u(595.0), 1e-12);
    const auto& w = series(idle).warnings;
    ASSERT_EQ(w.size(), 1u) << joined(w);
    EXPECT_NE(w[0].find("device '2' has no reading in column 'power.draw' for the first 5 s of "
                        "the log: filled with the idle value there ('idle')"),
              std::string::npos)
        << w[0];
    // hold: nothing earlier to hold, so its first reading, (700 + 700 + 385)/3 = 595 W; said.
    const Workload hold =
        load(log, R"("quantity": "power_W", "gpu_model": "h100_sxm", "gap_fill": "hold")");
    EXPECT_NEAR(hold.utilization(0, 0.0), u(595.0), 1e-12);
    EXPECT_NE(joined(series(hold).warnings).find("filled with its first reading there ('hold')"),
              std::string::npos)
        << joined(series(hold).warnings);
    // Longer than max_gap_h: refused, as a gap between readings is.
    expectInputError(
        [&] { load(log, R"("quantity": "power_W", "gpu_model": "h100_sxm", "max_gap_h": 0.001)"); },
        {"late.csv", "device '2'", "first 5 s of the log", "max_gap_h"});
    // Devices that start within a step of each other are not a gap: no warning.
    std::string close = "timestamp, index, power.draw [W]\n";
    for (int i = 0; i < 10; ++i) {
        for (int g = 0; g < 2; ++g) {
            close += fmt::format("2025/01/31 12:00:{:02d}.{:03d}, {}, 700.00 W\n", i, g * 500, g);
        }
    }
    EXPECT_TRUE(
        series(load(write("close.csv", close), R"("quantity": "power_W", "gpu_model": "h100_sxm")"))
            .warnings.empty());
}

// --- F5: gaps far longer than the step are warned of -------------------------------------

/// One GPU at 0.1 s from 12:00:00 for `n` samples, then `n` more from `resume` (a stamp).
std::string jumpLog(int n, const std::string& resume_hm, double resume_s) {
    std::string s = "timestamp, index, power.draw [W]\n";
    for (int i = 0; i < n; ++i) {
        s += fmt::format("2025/01/31 12:00:{:06.3f}, 0, {}.00 W\n", 0.1 * i, i % 2 ? 600 : 200);
    }
    for (int i = 0; i < n; ++i) {
        s += fmt::format("2025/01/31 {}:{:06.3f}, 0, {}.00 W\n", resume_hm, resume_s + 0.1 * i,
                         i % 2 ? 600 : 200);
    }
    return s;
}

TEST_F(TraceAudit, AClockJumpOfAnHourIsWarnedOf) {
    // 100 samples 0–9.9 s (lines 2–101), then the clock jumps: 13:00:10.000 on line 102. The gap
    // is 3600.1 s, 36001 steps; the default max_gap_h (48 h) bridges it, which was silent.
    const auto log = write("jump.csv", jumpLog(100, "13:00", 10.0));
    const Workload w =
        load(log, R"("quantity": "power_W", "gpu_model": "h100_sxm", "gap_fill": "hold")");
    const auto& warnings = series(w).warnings;
    ASSERT_EQ(warnings.size(), 1u) << joined(warnings);
    for (const char* frag :
         {"jump.csv:102: gap of 3600 s between lines 101 and 102", "36001× the 0.1 s step",
          "2025-01-31T12:00:09.900Z to 2025-01-31T13:00:10.000Z", "('hold')", "max_gap_h"}) {
        EXPECT_NE(warnings[0].find(frag), std::string::npos) << frag << "\n" << warnings[0];
    }
    // inspect says the same.
    const Json j = inspectTrace(readTrace(log));
    EXPECT_NE(joined(j["warnings"].get<std::vector<std::string>>()).find("gap of 3600 s"),
              std::string::npos);
}

TEST_F(TraceAudit, ShortOrFewStepGapsAreNotWarnedOf) {
    // 9.9 s → 10.8 s: 0.9 s, 9 steps of 0.1 s (not above 10 steps).
    const auto nine = write("nine.csv", jumpLog(100, "12:00", 10.8));
    EXPECT_TRUE(
        series(load(nine, R"("quantity": "power_W", "gpu_model": "h100_sxm")")).warnings.empty());
    // 0.01 s polling, a 0.5 s gap: 50 steps but under a second.
    std::string s = "timestamp, index, power.draw [W]\n";
    for (int i = 0; i < 200; ++i) {
        const double t = 0.01 * i + (i >= 100 ? 0.49 : 0.0);
        s += fmt::format("2025/01/31 12:00:{:06.3f}, 0, 300.00 W\n", t);
    }
    const auto fast = write("fast.csv", s);
    const Workload w = load(fast, R"("quantity": "power_W", "gpu_model": "h100_sxm")");
    EXPECT_TRUE(series(w).warnings.empty()) << joined(series(w).warnings);
    ASSERT_EQ(series(w).gaps.size(), 1u);  // a gap all the same (50 steps)
    EXPECT_NEAR(series(w).gaps[0].to - series(w).gaps[0].from, 0.5, 1e-6);
}

// --- F6: runs of N/A readings are gaps ---------------------------------------------------

/// Two GPUs, 0.1 s polling, 100 cycles; GPU 1 (rows 1 ms later) reads N/A in cycles 20–69.
std::string naRunLog() {
    std::string s = "timestamp, index, power.draw [W]\n";
    for (int k = 0; k < 100; ++k) {
        s += fmt::format("2025/01/31 12:00:{:06.3f}, 0, 400.00 W\n", 0.1 * k);
        s += fmt::format("2025/01/31 12:00:{:06.3f}, 1, {}\n", 0.1 * k + 0.001,
                         k >= 20 && k < 70 ? std::string("[N/A]") : std::string("300.00 W"));
    }
    return s;
}

TEST_F(TraceAudit, NaRunsAreGapsForMaxGapAndInspect) {
    // GPU 1's last reading before the run is cycle 19 (line 41, t = 1.901 s), its first after
    // cycle 70 (line 143, t = 7.001 s): a 5.1 s gap with 50 N/A rows.
    const auto log = write("na.csv", naRunLog());
    const TraceData d = readTrace(log);
    const TraceSampling s = traceSampling(d.devices[1], 0);
    ASSERT_EQ(s.gaps.size(), 1u);
    EXPECT_EQ(s.gaps[0].line_before, 41u);
    EXPECT_EQ(s.gaps[0].line, 143u);
    EXPECT_EQ(s.gaps[0].unread, 50u);
    EXPECT_NEAR(s.gaps[0].to - s.gaps[0].from, 5.1, 1e-6);
    EXPECT_NEAR(s.nominal_step, 0.1, 1e-9);  // the polling, from all rows
    // max_gap_h 0.0005 (1.8 s) refuses it, as it refuses 5 s of missing rows.
    expectInputError(
        [&] {
            load(log, R"("quantity": "power_W", "gpu_model": "h100_sxm", "max_gap_h": 0.0005)");
        },
        {"/workload/jobs/0/file", "na.csv:143: gap of 0.001417 h between lines 41 and 143",
         "device '1'; the 50 rows between read N/A", "max_gap_h"});
    // inspect: device 1 has a gap of 5.1 s and 50 unread readings, device 0 none.
    const Json j = inspectTrace(d);
    EXPECT_EQ(j["devices"][1]["gaps"], 1);
    EXPECT_NEAR(j["devices"][1]["largest_gap_s"].get<double>(), 5.1, 1e-6);
    EXPECT_EQ(j["devices"][1]["unread_samples"], 50);
    EXPECT_EQ(j["devices"][0]["gaps"], 0);
    const std::string text = inspectionText(j);
    EXPECT_NE(text.find("50 readings of power.draw are N/A (device 1)"), std::string::npos) << text;
}

// --- F8: dcgm-exporter samples repeated at one timestamp ----------------------------------

TEST_F(TraceAudit, PrometheusRepeatedSamplesAreRefusedOrDropped) {
    const std::string head =
        "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\",Hostname=\"n1\"} 300 1738324800000\n"
        "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\",Hostname=\"n1\"} 400 1738324801000\n";
    const std::string tail =
        "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\",Hostname=\"n1\"} 500 1738324802000\n";
    // Another value at the same time: the last one won quietly.
    const auto diff = write(
        "diff.prom",
        head + "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\",Hostname=\"n1\"} 50 1738324801000\n" + tail);
    expectInputError([&] { readTrace(diff); },
                     {"diff.prom:3", "'DCGM_FI_DEV_POWER_USAGE' of gpu '0'",
                      "timestamp 1738324801000 ms", "is 50 here but 400 on line 2"});
    // The same value again (a scrape concatenated twice): dropped, said once.
    const auto same = write(
        "same.prom",
        head + "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\",Hostname=\"n1\"} 400 1738324801000\n" + tail);
    const TraceData d = readTrace(same);
    ASSERT_EQ(d.devices.size(), 1u);
    ASSERT_EQ(d.devices[0].time.size(), 3u);
    EXPECT_DOUBLE_EQ(d.devices[0].values[0][1], 400.0);
    EXPECT_DOUBLE_EQ(d.devices[0].time[2], 2.0);
    ASSERT_EQ(d.warnings.size(), 1u);
    EXPECT_NE(d.warnings[0].find("line 3 repeats line 2"), std::string::npos) << d.warnings[0];
}

// --- F9: dcgmi dmon cycles when an entity misses one ------------------------------------

/// dcgmi dmon -e 155, three GPUs, 5 cycles; `skip` misses cycle 2. POWER = 100·cycle + gpu.
std::string dmonLog(int skip) {
    std::string s = "#Entity   POWER\nID        W\n";
    for (int c = 0; c < 5; ++c) {
        for (int g = 0; g < 3; ++g) {
            if (c == 2 && g == skip) continue;
            s += fmt::format("GPU {}     {}.000\n", g, 100 * c + g);
        }
    }
    return s;
}

TEST_F(TraceAudit, DmonCycleThatMissesTheFirstEntityIsNotMerged) {
    TraceReadOptions o;
    o.interval = 1.0;
    for (const int skip : {0, 1, 2}) {
        SCOPED_TRACE(skip);
        const TraceData d = readTrace(write("dmon.txt", dmonLog(skip)), o);
        ASSERT_EQ(d.devices.size(), 3u);
        for (int g = 0; g < 3; ++g) {
            // Cycles 0, 1, 3, 4 for the GPU that missed one, 0–4 for the others; the value
            // says which cycle each sample is from.
            const auto& dev = d.devices[static_cast<std::size_t>(g)];
            ASSERT_EQ(dev.time.size(), g == skip ? 4u : 5u);
            for (std::size_t i = 0; i < dev.time.size(); ++i) {
                EXPECT_DOUBLE_EQ(dev.time[i] * 100 + g, dev.values[0][i]) << "GPU " << g;
            }
        }
        // GPU `skip` has a 2 s gap (1 s → 3 s); the run is told the cycle lacked it. Cycle 2
        // starts on line 9 (2 header lines, 3 rows a cycle).
        const auto& dev = d.devices[static_cast<std::size_t>(skip)];
        ASSERT_EQ(traceSampling(dev).gaps.size(), 1u);
        EXPECT_DOUBLE_EQ(traceSampling(dev).gaps[0].from, 1.0);
        EXPECT_DOUBLE_EQ(traceSampling(dev).gaps[0].to, 3.0);
        ASSERT_EQ(d.warnings.size(), 1u) << joined(d.warnings);
        EXPECT_NE(d.warnings[0].find("1 of 5 polling cycles lack some of the 3 entities (the "
                                     "first from line 9)"),
                  std::string::npos)
            << d.warnings[0];
    }
}

// --- D2: nvidia-smi dmon is named as such ------------------------------------------------

TEST_F(TraceAudit, NvidiaSmiDmonIsRefusedWithHowToLogInstead) {
    const std::string dmon =
        "# gpu    pwr  gtemp  mtemp     sm    mem    enc    dec   mclk   pclk\n"
        "# Idx      W      C      C      %      %      %      %    MHz    MHz\n"
        "    0     69     33      -      0      0      0      0   1593    345\n"
        "    1     72     35      -      0      0      0      0   1593    345\n";
    const auto log = write("smi_dmon.txt", dmon);
    for (const char* format : {"auto", "nvidia_smi", "delimited"}) {
        TraceReadOptions o;
        o.format = format;
        expectInputError(
            [&] { readTrace(log, o); },
            {"smi_dmon.txt:1", "`nvidia-smi dmon`", "not a supported trace format",
             "nvidia-smi --query-gpu=timestamp,index,power.draw --format=csv -lms 100"});
    }
    // With -o DT the date and time columns come first.
    const auto dt = write("smi_dmon_dt.txt",
                          "#Date       Time        gpu    pwr  gtemp\n"
                          "#YYYYMMDD   HH:MM:SS    Idx      W      C\n"
                          " 20250131   12:00:00      0     69     33\n");
    expectInputError([&] { readTrace(dt); }, {"smi_dmon_dt.txt:1", "`nvidia-smi dmon`"});
    // A delimited log whose comment mentions a gpu is still read.
    const auto ok = write("ok.csv", "# per gpu mem usage, power\ntime,power_W\n0,300\n1,310\n");
    EXPECT_DOUBLE_EQ(readTrace(ok).devices[0].values[0][1], 310.0);
}

}  // namespace
}  // namespace dctwin::power
