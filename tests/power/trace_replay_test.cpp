// Trace jobs (power/workload.h, gpu_catalog.h): a measured GPU's power turned into utilization
// of its own model, per-GPU rows aggregated by the stated rule, per-rack offsets, and the
// errors a user meets. Expected values come from the logs written here and the catalog's
// published TDP and idle figures.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

#include "core/json.h"
#include "power/gpu_catalog.h"
#include "power/workload.h"
#include "test_util.h"

namespace dctwin::power {
namespace {

namespace fs = std::filesystem;
using test::expectInputError;

class TraceReplay : public ::testing::Test {
protected:
    void SetUp() override {
        std::random_device rd;
        dir_ = fs::temp_directory_path() / ("dctwin_replay_" + std::to_string(rd()));
        fs::create_directories(dir_);
        // Two H100 SXM, 1 s polling, 4 cycles: GPU 0 700/70/385/700 W, GPU 1 70/70/700/385 W.
        std::ofstream(dir_ / "smi.csv") << "timestamp, index, power.draw [W], utilization.gpu [%]\n"
                                           "2025/01/31 12:00:00.000, 0, 700.00 W, 100 %\n"
                                           "2025/01/31 12:00:00.002, 1, 70.00 W, 0 %\n"
                                           "2025/01/31 12:00:01.000, 0, 70.00 W, 0 %\n"
                                           "2025/01/31 12:00:01.002, 1, 70.00 W, 0 %\n"
                                           "2025/01/31 12:00:02.000, 0, 385.00 W, 50 %\n"
                                           "2025/01/31 12:00:02.002, 1, 700.00 W, 100 %\n"
                                           "2025/01/31 12:00:03.000, 0, 700.00 W, 100 %\n"
                                           "2025/01/31 12:00:03.002, 1, 385.00 W, 60 %\n";
    }
    void TearDown() override { fs::remove_all(dir_); }
    Workload load(const std::string& job_keys, int racks = 4) const {
        const Json j =
            parseJson(fmt::format(R"({{"racks": {}, "jobs": [{{"name": "replay", "type": "trace",
            "racks": {}, "file": "{}", {}}}]}})",
                                  racks, racks, (dir_ / "smi.csv").string(), job_keys),
                      "workload");
        return Workload::fromJson(JsonView(j, "/workload"));
    }
    fs::path dir_;
};

TEST_F(TraceReplay, PowerOfAMeasuredGpuBecomesUtilizationOfItsOwnModel) {
    const GpuModel& h100 = gpuModel("h100_sxm");
    ASSERT_DOUBLE_EQ(h100.tdp, 700.0);  // NVIDIA H100 datasheet, SXM5
    ASSERT_DOUBLE_EQ(h100.idle, 70.0);
    // u = (P − 70)/(700 − 70); mean rule: the mean of the two GPUs. The rows of GPU 1 are
    // 2 ms late, so GPU 1 at t = k s is read 2 ms before its own sample (interpolated).
    const Workload w = load(R"("quantity": "power_W", "gpu_model": "h100_sxm")");
    auto u = [](double p) { return (p - 70.0) / 630.0; };
    EXPECT_NEAR(w.utilization(0, 0.0), 0.5 * (u(700) + u(70)), 1e-9);
    EXPECT_NEAR(w.utilization(0, 1.0), 0.5 * (u(70) + u(70)), 1e-9);
    // At 2 s GPU 1 is 998/1000 of the way from 70 W to 700 W.
    EXPECT_NEAR(w.utilization(0, 2.0), 0.5 * (u(385) + u(70 + 0.998 * 630)), 1e-4);
    // The same log read as utilization.gpu [%].
    const Workload wu = load(R"("quantity": "utilization_pct")");
    EXPECT_NEAR(wu.utilization(0, 0.0), 0.5 * (1.0 + 0.0), 1e-9);
    EXPECT_NEAR(wu.utilization(0, 3.0), 0.5 * (1.0 + (1.0 - 0.998 * 0.4)), 1e-5);  // 100 → 60 %
    // idle_W and max_W override the model (here: an A100 SXM's 400 W cap would clamp).
    const Workload wo = load(R"("quantity": "power_W", "gpu_model": "a100_sxm")");
    EXPECT_NEAR(wo.utilization(0, 0.0), 0.5 * (1.0 + (70.0 - 50.0) / 350.0), 1e-9);
    const Workload wi =
        load(R"("quantity": "power_W", "gpu_model": "a100_sxm", "idle_W": 70, "max_W": 700)");
    EXPECT_NEAR(wi.utilization(0, 0.0), 0.5 * (u(700) + u(70)), 1e-9);
}

TEST_F(TraceReplay, ReadingsAboveFullPowerAreClampedAndSaidSo) {
    // The H100 log read as an A100 SXM (400 W): its 700 W readings are replayed as full
    // utilization, which was silent (a log at 2.5× the TDP replayed as 100 % without a word).
    const auto warnings = [](const Workload& w) {
        const auto* t = dynamic_cast<const TraceJob*>(w.jobs().front().get());
        return t ? t->trace->warnings : std::vector<std::string>{"not a trace job"};
    };
    const std::vector<std::string> a100 =
        warnings(load(R"("quantity": "power_W", "gpu_model": "a100_sxm")"));
    ASSERT_EQ(a100.size(), 1u);
    EXPECT_NE(a100[0].find("are above the GPU's full power, 400 W (the highest 700) and are "
                           "replayed as full utilization; check \"gpu_model\""),
              std::string::npos)
        << a100[0];
    // On its own model (700 W) nothing is above full power.
    EXPECT_TRUE(warnings(load(R"("quantity": "power_W", "gpu_model": "h100_sxm")")).empty());
}

TEST_F(TraceReplay, SumRuleTreatsTheDevicesAsOneMeasurement) {
    // Per-node power (8 GPUs a row), long format: node a 8·700 W then 8·70 W, node b 8·385 W.
    std::ofstream(dir_ / "nodes.csv") << "time,node,power_kW\n"
                                         "0,a,5.6\n0,b,3.08\n"
                                         "10,a,0.56\n10,b,3.08\n";
    const Json j = parseJson(fmt::format(R"({{"racks": 2, "jobs": [{{"name": "n",
        "type": "trace", "racks": 2, "file": "{}", "quantity": "power_W",
        "gpu_model": "h100_sxm", "aggregate": "sum", "gpus_per_row": 8}}]}})",
                                         (dir_ / "nodes.csv").string()),
                             "w");
    const Workload w = Workload::fromJson(JsonView(j, "/workload"));
    // u = (Σ P / (2 nodes · 8 GPUs) − 70)/630: (5600 + 3080)/16 = 542.5 W → 0.75.
    EXPECT_NEAR(w.utilization(0, 0.0), (8680.0 / 16 - 70) / 630, 1e-12);
    EXPECT_NEAR(w.utilization(1, 10.0), (3640.0 / 16 - 70) / 630, 1e-12);
    // On a 5 s grid the midpoint is interpolated per node: a (5.6 + 0.56)/2 = 3.08 kW, b 3.08 kW.
    const Json g = parseJson(fmt::format(R"({{"racks": 1, "jobs": [{{"name": "n",
        "type": "trace", "racks": 1, "file": "{}", "quantity": "power_W", "grid_s": 5,
        "gpu_model": "h100_sxm", "aggregate": "sum", "gpus_per_row": 8, "repeat": false}}]}})",
                                         (dir_ / "nodes.csv").string()),
                             "w");
    const Workload wg = Workload::fromJson(JsonView(g, "/workload"));
    const auto* job = dynamic_cast<const TraceJob*>(wg.jobs().front().get());
    ASSERT_NE(job, nullptr);
    ASSERT_EQ(job->trace->size(), 3u);
    EXPECT_NEAR(wg.utilization(0, 5.0), ((3080.0 + 3080.0) / 16 - 70) / 630, 1e-12);
}

TEST_F(TraceReplay, PerRackOffsetsAndLumping) {
    // Lock-step: every rack replays the same instant; one group.
    const Workload lock = load(R"("quantity": "power_W", "gpu_model": "h100_sxm")");
    EXPECT_EQ(lock.rackGroups().size(), 1u);
    for (int r = 1; r < 4; ++r) EXPECT_EQ(lock.utilization(r, 1.3), lock.utilization(0, 1.3));
    // Step of 1 s: rack r at time t replays rack 0's t + r.
    const Workload step =
        load(R"("quantity": "power_W", "gpu_model": "h100_sxm", "desync": "step", "desync_s": 1)");
    for (int r = 0; r < 4; ++r) {
        EXPECT_DOUBLE_EQ(step.shiftOf(r, 0), r * 1.0);
        EXPECT_NEAR(step.utilization(r, 0.5), lock.utilization(0, 0.5 + r), 1e-12);
        // The exact mean over an interval moves with the shift too.
        EXPECT_NEAR(step.meanUtilization(r, 0.0, 1.0), lock.meanUtilization(0, r, r + 1.0), 1e-9);
    }
    EXPECT_EQ(step.rackGroups().size(), 4u);  // distinct: never lumped
    // Spread over 4 s: r·4/4.
    const Workload spread = load(
        R"("quantity": "power_W", "gpu_model": "h100_sxm", "desync": "spread", "desync_s": 4)");
    EXPECT_DOUBLE_EQ(spread.shiftOf(3, 0), 3.0);
    // Random: in [0, 4), reproducible with the seed, different with another.
    const std::string rnd =
        R"("quantity": "power_W", "gpu_model": "h100_sxm", "desync": "random", "desync_s": 4)";
    const Workload a = load(rnd + R"(, "seed": 7)"), b = load(rnd + R"(, "seed": 7)"),
                   c = load(rnd + R"(, "seed": 8)");
    for (int r = 0; r < 4; ++r) {
        EXPECT_GE(a.shiftOf(r, 0), 0.0);
        EXPECT_LT(a.shiftOf(r, 0), 4.0);
        EXPECT_EQ(a.shiftOf(r, 0), b.shiftOf(r, 0));
    }
    EXPECT_NE(a.shiftOf(0, 0), c.shiftOf(0, 0));
    const Workload fixed = load(R"("quantity": "power_W", "gpu_model": "h100_sxm",
        "desync": "fixed", "rack_offsets_s": [0, 0, 2, 2])");
    EXPECT_EQ(fixed.rackGroups().size(), 2u);  // two distinct offsets
    EXPECT_DOUBLE_EQ(fixed.shiftOf(2, 0), 2.0);
}

TEST_F(TraceReplay, ErrorsNameTheKeyAndTheChoices) {
    expectInputError([&] { load(R"("quantity": "power_W")"); },
                     {"/workload/jobs/0/gpu_model", "h100_sxm", "gb300", "idle_W"});
    expectInputError([&] { load(R"("quantity": "power_W", "gpu_model": "h100")"); },
                     {"/workload/jobs/0/gpu_model", "'h100'", "h100_sxm"});
    expectInputError(
        [&] { load(R"("column": "power.draw")"); },
        {"/workload/jobs/0/quantity", "column 'power.draw'", "is in W", "\"power_W\""});
    expectInputError(
        [&] {
            load(R"("quantity": "power_W", "gpu_model": "h100_sxm",
                                  "column": "power")");
        },
        {"/workload/jobs/0/column", "no value column 'power'", "power.draw [W]"});
    expectInputError(
        [&] {
            load(R"("quantity": "power_W", "gpu_model": "h100_sxm",
                                  "desync": "random")");
        },
        {"/workload/jobs/0/desync_s", "needs desync_s > 0"});
    expectInputError(
        [&] {
            load(R"("quantity": "power_W", "gpu_model": "h100_sxm",
                                  "desync": "fixed", "rack_offsets_s": [0, 1])");
        },
        {"/workload/jobs/0/rack_offsets_s", "2 offsets for 4 racks"});
    expectInputError([&] { load(R"("format": "dcgm_dmon")"); },
                     {"/workload/jobs/0/file", "smi.csv"});
}

}  // namespace
}  // namespace dctwin::power
