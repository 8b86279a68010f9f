// Workload: scheduler with tenants, two resolutions from one description, JSON errors.
#include "power/workload.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/errors.h"
#include "core/json.h"
#include "power/workload_source.h"
#include "test_util.h"

namespace dctwin::power {
namespace {

using test::expectInputError;

Workload load(const char* text) {
    const Json j = parseJson(text, "workload");
    return Workload::fromJson(JsonView(j, "/workload"));
}

/// Midpoint-rule average of the resolved waveform (fine enough to be exact to ~1e-6 here).
double numericMean(const Workload& w, int rack, double t0, double t1, int n = 400000) {
    double s = 0;
    const double h = (t1 - t0) / n;
    for (int i = 0; i < n; ++i) s += w.utilization(rack, t0 + (i + 0.5) * h);
    return s / n;
}

constexpr const char* kTraining = R"({"racks": 4, "jobs": [{"name": "t", "type": "training",
    "racks": 2, "start_h": 0.01, "duration_h": 2, "iteration_period_s": 2.5,
    "compute_fraction": 0.6, "compute_util_pct": 100, "comm_util_pct": 30,
    "checkpoint_interval_h": 0.5, "checkpoint_duration_s": 120, "checkpoint_util_pct": 5,
    "start_ramp_s": 30, "end": "ramp_down", "end_ramp_s": 20}]})";

TEST(power_Workload, MeanOverAPeriodEqualsAverageOfResolvedWaveform) {
    const Workload w = load(kTraining);
    const double s = 36.0;  // start_h 0.01
    // One full iteration on the plateau: (0.6 × 1 + 0.4 × 0.3) = 0.72 exactly.
    const double t0 = s + 100 * 2.5;
    EXPECT_NEAR(w.meanUtilization(0, t0, t0 + 2.5), 0.72, 1e-12);
    EXPECT_NEAR(numericMean(w, 0, t0, t0 + 2.5), 0.72, 1e-5);
    // A partial, unaligned interval, the start ramp, a checkpoint and the ramp-down: the
    // closed-form mean equals the numerical average of the resolved waveform.
    const double cases[][2] = {{t0 + 0.7, t0 + 9.1},
                               {0.0, s + 40.0},
                               {s + 1790, s + 1930},
                               {s + 7190, s + 7230},
                               {0.0, s + 7300}};
    for (const auto& c : cases) {
        EXPECT_NEAR(w.meanUtilization(0, c[0], c[1]), numericMean(w, 0, c[0], c[1]), 2e-5)
            << c[0] << ".." << c[1];
    }
    // Averaged resolution: the iteration mean level in the first half hour (no checkpoint
    // yet), then each 1,800 s cycle at the level that carries its 120 s checkpoint at 5 %:
    // 0.72 + (0.05 − 0.72)·120/1800 = 0.675333…, inside the checkpoint and outside alike.
    EXPECT_NEAR(w.averagedUtilization(0, t0 + 1.0), 0.72, 1e-12);
    EXPECT_NEAR(w.averagedUtilization(0, s + 1800 + 60), 0.72 - 0.67 * 120.0 / 1800.0, 1e-12);
    EXPECT_NEAR(w.averagedUtilization(0, s + 1800 + 900), 0.72 - 0.67 * 120.0 / 1800.0, 1e-12);
    EXPECT_NEAR(w.averagedUtilization(0, s + 15), 0.5 * 0.72, 1e-12);  // half-way up the ramp
    EXPECT_DOUBLE_EQ(w.utilization(3, t0), 0.0);                       // idle rack
}

TEST(power_Workload, DiscontinuitiesPerResolution) {
    const Workload w = load(kTraining);
    std::vector<double> avg, res;
    w.discontinuities(0, 0, 200, Resolution::Averaged, avg);
    w.discontinuities(0, 0, 200, Resolution::Resolved, res);
    // Averaged: the start (36 s) and the end of the start ramp (66 s).
    std::sort(avg.begin(), avg.end());
    EXPECT_EQ(avg, (std::vector<double>{36.0, 66.0}));
    // Resolved adds the edges: every 2.5 s from 36 s and 1.5 s after each (164 s / 2.5 s).
    std::sort(res.begin(), res.end());
    res.erase(std::unique(res.begin(), res.end()), res.end());
    EXPECT_GT(res.size(), 100u);
    EXPECT_TRUE(std::binary_search(res.begin(), res.end(), 36.0 + 2.5 * 10 + 1.5));
    // Checkpoints: the first at 36 + 1800 s for 120 s. Resolved: both edges. Averaged: only
    // the change of level after the first (checkpoint-free) interval; the next cycles share
    // one level and need no stop.
    std::vector<double> ck, ck_res;
    w.discontinuities(0, 1800, 2000, Resolution::Averaged, ck);
    EXPECT_EQ(ck, (std::vector<double>{1836.0}));
    w.discontinuities(0, 1800, 2000, Resolution::Resolved, ck_res);
    EXPECT_NE(std::find(ck_res.begin(), ck_res.end(), 1836.0), ck_res.end());
    EXPECT_NE(std::find(ck_res.begin(), ck_res.end(), 1956.0), ck_res.end());
    std::vector<double> later;
    w.discontinuities(0, 3000, 5000, Resolution::Averaged, later);
    EXPECT_TRUE(later.empty()) << later.front();
}

/// ∫ f dt over [a, b] by the midpoint rule on cells of h [s] (exact for piecewise-linear f
/// whose corners lie on the cell grid).
template <class F>
double midpoint(F&& f, double a, double b, double h) {
    double s = 0;
    const auto n = static_cast<long>(std::llround((b - a) / h));
    for (long i = 0; i < n; ++i) s += f(a + (static_cast<double>(i) + 0.5) * h);
    return s * h;
}

TEST(power_Workload, AveragedCarriesTheEnergyOfEveryCheckpointCycle) {
    // Issue 10: checkpoint dips integrated exactly. The averaged waveform's integral over the
    // whole job (start ramp, four cycles, the ramp-down) equals the resolved waveform's
    // closed-form integral; I = 1800 s = 720 iterations and d = 120 s = 48 iterations, so the
    // square wave averages out exactly on every piece. Midpoint on 0.5 s cells (corners at
    // 36, 66, 36 + k·1800 and the end all on the grid).
    const Workload w = load(kTraining);
    const double s = 36.0, end = s + 7200.0 + 20.0;
    const double avg =
        midpoint([&](double t) { return w.averagedUtilization(0, t); }, 0.0, end + 10.0, 0.5);
    const double res = w.meanUtilization(0, 0.0, end + 10.0) * (end + 10.0);
    EXPECT_NEAR(avg, res, 1e-9 * res);
    // And cycle by cycle: cycle 2 (s + 3600 .. s + 5400), 0.675333… × 1800 s.
    const double c2 =
        midpoint([&](double t) { return w.averagedUtilization(0, t); }, s + 3600, s + 5400, 0.5);
    EXPECT_NEAR(c2, w.meanUtilization(0, s + 3600, s + 5400) * 1800.0, 1e-9 * c2);
    EXPECT_NEAR(c2, (0.72 * 1680 + 0.05 * 120), 1e-9 * c2);
}

TEST(power_Workload, RememberedLevelsAreTheLevelsBitForBit) {
    // windowedLevel remembers each rack's level over the interval its jobs promise to keep it
    // (issue 12). Asked at every time a study could ask, in any order, it must give what
    // windowedUtilization and floorActive compute afresh, to the last bit: before a start, on
    // a start ramp, on every checkpoint cycle of the plateau and within a few ulps of its
    // edges, on a ramp down, after an end, and on a rack that runs two jobs in turn.
    const Workload w = load(R"({"racks": 2, "jobs": [
        {"name": "c", "type": "training", "racks": 1, "start_h": 0, "duration_h": 4,
         "iteration_period_s": 2, "compute_fraction": 0.6},
        {"name": "a", "type": "training", "racks": 1, "start_h": 0.5, "duration_h": 5,
         "iteration_period_s": 3, "compute_fraction": 0.7, "checkpoint_interval_h": 1,
         "checkpoint_duration_s": 90, "checkpoint_util_pct": 10, "start_ramp_s": 60,
         "end": "ramp_down", "end_ramp_s": 120},
        {"name": "b", "type": "inference", "racks": 1, "start_h": 6, "duration_h": 3,
         "peak_util_pct": 80}]})");
    bool two_in_turn = false;
    for (int r = 0; r < 2; ++r) two_in_turn = two_in_turn || w.jobsOf(r).size() == 2;
    ASSERT_TRUE(two_in_turn) << "the scheduler put no two jobs on one rack";
    const double W = 600.0, horizon = 10 * 3600.0;
    std::vector<double> times;
    for (double t = 0.0; t <= horizon; t += 7.0) times.push_back(t);
    std::vector<double> edges;
    for (int r = 0; r < 2; ++r) w.discontinuities(r, 0.0, horizon, Resolution::Averaged, edges);
    for (int k = 0; k <= 10; ++k) edges.push_back(1800.0 + k * 3600.0);  // a's cycles
    for (double e : {1800.0 + 60.0, 1800.0 + 5 * 3600.0 + 120.0}) edges.push_back(e);
    for (double e : edges) {
        for (double d : {0.0, 1e-9, 1e-7, 1e-6, 2e-6, 1e-3}) {
            times.push_back(std::nextafter(e - d, -1.0));
            times.push_back(e - d);
            times.push_back(e + d);
            times.push_back(std::nextafter(e + d, 1e9));
        }
    }
    const std::vector<double> forward = times;
    std::reverse(times.begin(), times.end());  // backwards too: a step retried, a sample
    times.insert(times.begin(), forward.begin(), forward.end());
    long checked = 0;
    for (double t : times) {
        if (t < 0.0) continue;
        for (int r = 0; r < 2; ++r) {
            const Workload::Level level = w.windowedLevel(r, t, W, horizon);
            const double u = w.windowedUtilization(r, t, W, horizon);
            ASSERT_EQ(std::memcmp(&level.utilization, &u, sizeof u), 0)
                << "rack " << r << " at t = " << t << " s: " << level.utilization << " vs " << u;
            ASSERT_EQ(level.floor_active, w.floorActive(r, t)) << "rack " << r << " t = " << t;
            ++checked;
        }
    }
    EXPECT_GT(checked, 20000);
}

TEST(power_WorkloadSource, OneSourceForManyRacksGivesEachRackItsOwnLevelsBitForBit) {
    // A campus feeds every rack kind from one source, which computes the levels in one loop
    // and reads the next racks' jobs ahead (Workload::windowedLevels, issue 12). Each rack's
    // outputs must be its levels as the workload computes them afresh (windowedUtilization or
    // utilization, and floorActive), to the last bit, windowed or resolved, forwards and
    // backwards in time, with some racks' levels remembered and some not.
    auto w = std::make_shared<const Workload>(load(R"({"racks": 23, "jobs": [
        {"name": "a", "type": "training", "racks": 9, "start_h": 0.5, "duration_h": 5,
         "iteration_period_s": 3, "compute_fraction": 0.7, "checkpoint_interval_h": 1,
         "checkpoint_duration_s": 90, "checkpoint_util_pct": 10, "start_ramp_s": 60},
        {"name": "b", "type": "inference", "racks": 8, "start_h": 0, "duration_h": 9,
         "peak_util_pct": 80},
        {"name": "c", "type": "training", "racks": 6, "start_h": 2, "duration_h": 3,
         "iteration_period_s": 2, "compute_fraction": 0.6}]})"));
    // Racks out of order and one twice, as kinds may list their representatives.
    const std::vector<int> racks = {22, 3, 0, 17, 9, 10, 4, 21, 5, 11, 12, 1, 2, 16, 8, 3};
    std::vector<std::string> labels;
    for (std::size_t i = 0; i < racks.size(); ++i) labels.push_back(fmt::format("k{}", i));
    const double W = 600.0, horizon = 10 * 3600.0;
    for (const double window : {W, 0.0}) {
        const Resolution res = window > 0.0 ? Resolution::Averaged : Resolution::Resolved;
        const WorkloadSource all("all", w, racks, labels, res, window, horizon);
        ASSERT_EQ(all.outputs().size(), 2 * racks.size());
        EXPECT_EQ(all.outputs()[2 * 4].name, "utilization_k4");
        EXPECT_EQ(all.outputs()[2 * 4 + 1].name, "floor_active_k4");
        std::vector<double> y(2 * racks.size()), one(2);
        std::vector<double> times;
        for (double t = 0.0; t <= horizon; t += 97.0) times.push_back(t);
        for (double t = horizon; t >= 0.0; t -= 131.0) times.push_back(t);
        long checked = 0;
        for (double t : times) {
            all.computeOutputs(t, {}, {}, y);
            for (std::size_t i = 0; i < racks.size(); ++i) {
                const int r = racks[i];
                one[0] = window > 0.0 ? w->windowedUtilization(r, t, window, horizon)
                                      : w->utilization(r, t, res);
                one[1] = w->floorActive(r, t) ? 1.0 : 0.0;
                ASSERT_EQ(std::memcmp(&y[2 * i], one.data(), 2 * sizeof(double)), 0)
                    << "rack " << racks[i] << " at t = " << t << " s, window " << window;
                ++checked;
            }
        }
        EXPECT_GT(checked, 1000);
    }
    // Every rack needs a label, and a rack must be in the workload.
    EXPECT_THROW(WorkloadSource("x", w, {1, 2}, {"a"}, Resolution::Averaged, W), ModelError);
    EXPECT_THROW(WorkloadSource("x", w, {1, 2}, {"a", ""}, Resolution::Averaged, W), ModelError);
    EXPECT_THROW(WorkloadSource("x", w, {1, 23}, {"a", "b"}, Resolution::Averaged, W), ModelError);
    EXPECT_THROW(WorkloadSource("x", w, {}, {}, Resolution::Averaged, W), ModelError);
    EXPECT_THROW(WorkloadSource("x", w, {1, 2}, {"a", "a"}, Resolution::Averaged, W), ModelError);
    std::vector<Workload::Level> two(2);
    EXPECT_THROW(w->windowedLevels(std::vector<int>{1, 2, 3}, 0.0, W, horizon, two), ModelError);
}

TEST(power_InferenceService, ServicesWithTheSameShapeShareIt) {
    // A campus of inference racks with the default shape holds it once (issue 12); a service
    // with its own numbers keeps them.
    const Workload w = load(R"({"racks": 3, "jobs": [
        {"name": "a", "type": "inference", "racks": 1, "peak_util_pct": 80},
        {"name": "b", "type": "inference", "racks": 1, "peak_util_pct": 60},
        {"name": "c", "type": "inference", "racks": 1, "peak_util_pct": 60,
         "weekday_factors": [1, 1, 1, 1, 1, 0.5, 0.5]}]})");
    const auto* a = dynamic_cast<const InferenceService*>(w.jobs()[0].get());
    const auto* b = dynamic_cast<const InferenceService*>(w.jobs()[1].get());
    const auto* c = dynamic_cast<const InferenceService*>(w.jobs()[2].get());
    ASSERT_TRUE(a && b && c);
    EXPECT_EQ(&a->hourly(), &b->hourly());
    EXPECT_EQ(&a->weekday(), &b->weekday());
    EXPECT_NE(&a->weekday(), &c->weekday());
    EXPECT_EQ(c->weekday(), (std::vector<double>{1, 1, 1, 1, 1, 0.5, 0.5}));
    // Same peak: c runs as b on weekdays and below it at the weekend, each by its own numbers.
    int same = 0, below = 0;
    for (double t = 0.0; t < 8 * 86400.0; t += 3600.0) {
        const double ub = b->utilization(t), uc = c->utilization(t);
        same += ub == uc;
        below += uc < ub;
        ASSERT_LE(uc, ub) << "t = " << t;
    }
    EXPECT_GT(same, 24 * 3);
    EXPECT_GT(below, 24);
}

TEST(power_Workload, AJobStartingWithTheStudyIsRunningWhenItOpens) {
    // Issue 10: "the first sample is the steady state". A job at start_h 0 has been running
    // before the study: no start ramp in either resolution (0.6 × 100 % + 0.4 × 30 % = 0.72
    // at t = 0); the same job started at 36 s ramps over its 30 s.
    const Workload w = load(R"({"racks": 2, "jobs": [{"name": "t", "type": "training",
        "racks": 1, "start_h": 0, "duration_h": 2, "iteration_period_s": 2.5,
        "compute_fraction": 0.6, "compute_util_pct": 100, "comm_util_pct": 30,
        "start_ramp_s": 30}]})");
    EXPECT_NEAR(w.averagedUtilization(0, 0.0), 0.72, 1e-12);
    EXPECT_NEAR(w.windowedUtilization(0, 0.0, 600.0), 0.72, 1e-12);
    EXPECT_DOUBLE_EQ(w.utilization(0, 0.0), 1.0);  // compute phase of the first iteration
    std::vector<double> d;
    w.discontinuities(0, 0.0, 100.0, Resolution::Averaged, d);
    EXPECT_TRUE(d.empty());  // no ramp corner at 30 s
    EXPECT_NEAR(load(kTraining).averagedUtilization(0, 36.0 + 15.0), 0.36, 1e-12);
}

TEST(power_Workload, AveragingWindowsStopAtJobStartsAndEnds) {
    // Issue 10: a window does not cross a job's start or end (nor the study's): next to an
    // edge it is one-sided, so the edge stays a step the simulator stops at instead of a
    // ramp averaging in zeros. A trace job from 1 h to 3 h, 600 s windows.
    const Workload w = load(R"({"racks": 1, "jobs": [{"name": "replay", "type": "trace",
        "racks": 1, "start_h": 1, "duration_h": 2, "file": "data/traces/cbsugpu08_usage_stats.txt",
        "format": "cornell", "quantity": "power_W", "column": "powerave", "idle_W": 40,
        "max_W": 400}]})");
    const double a = 3600.0, b = 3 * 3600.0, W = 600.0;
    EXPECT_EQ(w.windowedUtilization(0, a - 1e-6, W), 0.0);
    EXPECT_NEAR(w.windowedUtilization(0, a, W), w.meanUtilization(0, a, a + 300.0), 1e-12);
    EXPECT_NEAR(w.windowedUtilization(0, a + 100.0, W), w.meanUtilization(0, a, a + 400.0), 1e-12);
    EXPECT_NEAR(w.windowedUtilization(0, a + 1000.0, W), w.meanUtilization(0, a + 700, a + 1300),
                1e-12);
    EXPECT_NEAR(w.windowedUtilization(0, b - 1.0, W), w.meanUtilization(0, b - 301.0, b), 1e-12);
    EXPECT_EQ(w.windowedUtilization(0, b, W), 0.0);
    // A study ending at 2 h: the window stops there too.
    EXPECT_NEAR(w.windowedUtilization(0, 7200.0, W, 7200.0), w.meanUtilization(0, 6900, 7200),
                1e-12);
    // Both edges are discontinuities of the averaged workload.
    std::vector<double> d;
    w.discontinuities(0, 0.0, 4 * 3600.0, Resolution::Averaged, d);
    EXPECT_EQ(d, (std::vector<double>{a, b}));
}

TEST(power_Workload, ReferenceYearAveragedInputCarriesTheResolvedEnergy) {
    // Issue 10, "IT energy equals the resolved workload's energy": the input side. The
    // utilization an annual study feeds each rack group of scenarios/azure_gb300_64.json
    // (windowedUtilization, 600 s) integrates over the year to the resolved workload's
    // closed-form ∫u dt within 1e-6 (its checkpoint cycles are 2 h = 3,600 iterations, the
    // checkpoints 45). Midpoint on 60 s cells: exact for the training levels (corners at
    // whole 2 h), ~1e-9 for the inference shape (quadratic within an hour).
    const Json j = parseJson(R"({"tenants": {"research": 0.625, "product": 0.375},
      "start_weekday": 3, "racks": 64, "jobs": [
      {"name": "pretrain", "type": "training", "tenant": "research", "racks": 32, "start_h": 0,
       "duration_h": 8760, "iteration_period_s": 2.0, "compute_fraction": 0.75,
       "compute_util_pct": 100, "comm_util_pct": 80, "checkpoint_interval_h": 2,
       "checkpoint_duration_s": 90, "checkpoint_util_pct": 10, "start_ramp_s": 120},
      {"name": "research_runs", "type": "training", "tenant": "research", "racks": 8,
       "start_h": 0, "duration_h": 8760, "iteration_period_s": 1.0, "compute_fraction": 0.6,
       "compute_util_pct": 100, "comm_util_pct": 70},
      {"name": "chat", "type": "inference", "tenant": "product", "racks": 24, "start_h": 0,
       "peak_util_pct": 95, "peak_to_trough": 2.0}]})",
                             "workload");
    const Workload w = Workload::fromJson(JsonView(j, "/workload"));
    const double T = 8760 * 3600.0;
    for (const RackGroup& g : w.rackGroups()) {
        const int r = g.representative();
        const double resolved = w.meanUtilization(r, 0.0, T) * T;
        const double fed =
            midpoint([&](double t) { return w.windowedUtilization(r, t, 600.0, T); }, 0.0, T, 60.0);
        EXPECT_NEAR(fed, resolved, 1e-6 * std::max(resolved, 1.0)) << "rack " << r;
    }
    // Pretrain by hand: 0.95 for the first 2 h, then (0.95·7110 + 0.10·90)/7200 = 0.939375
    // for 4,379 cycles: ∫u dt = 0.95·7200 + 0.939375·7200·4379 s.
    const int pre = w.racksOf(0).front();
    EXPECT_NEAR(w.meanUtilization(pre, 0.0, T) * T, 0.95 * 7200 + 0.939375 * 7200 * 4379.0, 1.0);
}

TEST(power_Workload, InferenceDiurnalPeakToTroughAndWeekend) {
    const Workload w = load(R"({"racks": 1, "jobs": [{"name": "chat", "type": "inference",
        "racks": 1, "peak_util_pct": 80, "peak_to_trough": 2.5}]})");
    double hi = 0, lo = 1;
    for (int h = 0; h < 24; ++h) {
        const double u = w.utilization(0, 2 * 86400.0 + 12 * 3600 + (h - 12) * 3600.0 + 0.0);
        hi = std::max(hi, u);
        lo = std::min(lo, u);
    }
    // Wednesday at the hourly points; the weekday factor is 1 all day (Tue-Thu all 1).
    EXPECT_NEAR(hi, 0.8, 1e-12);
    EXPECT_NEAR(hi / lo, 2.5, 1e-9);
    // Saturday midday factor 0.85.
    EXPECT_NEAR(
        w.utilization(0, 5 * 86400.0 + 15 * 3600) / w.utilization(0, 2 * 86400.0 + 15 * 3600), 0.85,
        1e-12);
    // Mean over a week equals the numerical average.
    EXPECT_NEAR(w.meanUtilization(0, 0, 7 * 86400.0), numericMean(w, 0, 0, 7 * 86400.0), 1e-6);
}

TEST(power_Workload, TraceReplayMeanMatchesResolved) {
    const Workload w = load(R"({"racks": 2, "jobs": [{"name": "replay", "type": "trace",
        "racks": 2, "file": "data/traces/cbsugpu08_usage_stats.txt", "format": "cornell",
        "quantity": "power_W", "column": "powerave", "idle_W": 40, "max_W": 400}]})");
    const double t1 = 30 * 86400.0;
    EXPECT_NEAR(w.meanUtilization(1, 0, t1), numericMean(w, 1, 0, t1), 1e-5);
    // First sample: 87.07 W → (87.07 − 40)/360.
    EXPECT_NEAR(w.utilization(0, 0.0), (87.07 - 40) / 360, 1e-12);
}

TEST(power_Scheduler, TenantsFirstFitAndClearErrorWhenAJobDoesNotFit) {
    // 64 racks, research 0.6 → 38, product 0.4 → 26 (largest remainder of 38.4 / 25.6).
    const Workload w = load(R"({"racks": 64, "tenants": {"research": 0.6, "product": 0.4},
        "jobs": [
          {"name": "a", "type": "training", "tenant": "research", "racks": 32,
           "duration_h": 10, "iteration_period_s": 2},
          {"name": "b", "type": "training", "tenant": "research", "racks": 6,
           "duration_h": 10, "iteration_period_s": 2},
          {"name": "c", "type": "training", "tenant": "research", "racks": 20, "start_h": 10,
           "duration_h": 5, "iteration_period_s": 2},
          {"name": "serve", "type": "inference", "tenant": "product", "racks": 24}]})");
    EXPECT_EQ(w.tenants().at("research").size(), 38u);
    EXPECT_EQ(w.tenants().at("product").size(), 26u);
    // First fit: job c reuses the first racks of job a after it ends.
    EXPECT_EQ(w.racksOf(2).front(), w.racksOf(0).front());
    for (int r : w.racksOf(3)) EXPECT_EQ(w.tenantOf(r), "product");
    // Two product racks stay idle.
    int idle = 0;
    for (int r = 0; r < 64; ++r) idle += w.utilization(r, 3600.0) == 0.0;
    EXPECT_EQ(idle, 2);
    // Groups: a→c racks (20), a-only (12), b (6), serve (24), idle (2).
    EXPECT_EQ(w.rackGroups().size(), 5u);

    expectInputError(
        [] {
            load(R"({"racks": 64, "tenants": {"research": 0.6, "product": 0.4}, "jobs": [
          {"name": "a", "type": "training", "tenant": "research", "racks": 32,
           "duration_h": 10, "iteration_period_s": 2},
          {"name": "b", "type": "training", "tenant": "research", "racks": 8,
           "duration_h": 10, "iteration_period_s": 2}]})");
        },
        {"/workload/jobs/1/racks", "job 'b' needs 8", "tenant 'research' has 38 racks of 64",
         "only 6 of them are free"});
}

TEST(power_WorkloadJson, ErrorsNameTheJsonPath) {
    expectInputError(
        [] {
            load(R"({"racks": 4, "jobs": [{"name": "t", "type": "training", "racks": 1,
            "duration_h": 1, "iteration_perod_s": 2}]})");
        },
        {"/workload/jobs/0", "iteration_perod_s", "iteration_period_s"});
    expectInputError(
        [] {
            load(R"({"racks": 4, "jobs": [{"name": "t", "type": "training", "racks": 1,
            "duration_h": 1}]})");
        },
        {"/workload/jobs/0/iteration_period_s"});
    expectInputError(
        [] { load(R"({"racks": 4, "jobs": [{"name": "t", "type": "fine-tune", "racks": 1}]})"); },
        {"/workload/jobs/0/type", "training", "inference", "trace"});
    // The hourly profile is a shape scaled between trough and peak: all zeros read as flat
    // and ran the service at its peak all day, like all ones.
    expectInputError(
        [] {
            load(R"({"racks": 4, "jobs": [{"name": "chat", "type": "inference", "racks": 1,
            "hourly_profile": [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]}]})");
        },
        {"/workload/jobs/0/hourly_profile", "every hour is 0", "at least one positive value"});
    expectInputError(
        [] {
            load(R"({"racks": 4, "tenants": {"a": 0.5}, "jobs": [{"name": "t",
            "type": "inference", "tenant": "b", "racks": 1}]})");
        },
        {"/workload/jobs/0/tenant", "'b'", "a"});
    expectInputError(
        [] {
            load(R"({"racks": 4, "jobs": [{"name": "t", "type": "training", "racks": "two",
            "duration_h": 1, "iteration_period_s": 2}]})");
        },
        {"/workload/jobs/0/racks"});
    expectInputError([] { load(R"({"racks": 4, "tenants": {"a": 0.7, "b": 0.5}, "jobs": []})"); },
                     {"/workload/tenants", "more than 1"});
    expectInputError(
        [] {
            load(R"({"racks": 4, "jobs": [{"name": "t", "type": "trace", "racks": 1,
            "file": "data/traces/missing.txt", "format": "cornell"}]})");
        },
        {"/workload/jobs/0/file", "missing.txt"});
    expectInputError(
        [] {
            load(R"({"racks": 4, "jobs": [{"name": "t", "type": "training", "racks": 1,
            "duration_h": 1, "iteration_period_s": 2, "compute_util_pct": 120}]})");
        },
        {"/workload/jobs/0/compute_util_pct"});
}

TEST(power_WorkloadJson, SchemaDeclaresEveryKeyAndOneShapePerJobType) {
    const Json s = workloadSpec()->schema();
    EXPECT_EQ(s["type"], "object");
    for (const char* key : {"racks", "tenants", "placement", "start_weekday", "start_hour", "jobs"})
        EXPECT_TRUE(s["properties"].contains(key)) << key;
    EXPECT_EQ(s["properties"]["placement"]["enum"], Json::array({"first_fit", "contiguous"}));
    EXPECT_EQ(s["properties"]["tenants"]["additionalProperties"]["maximum"], 1.0);
    const Json& job = s["properties"]["jobs"]["items"];
    EXPECT_EQ(job["properties"]["type"]["enum"], Json::array({"training", "inference", "trace"}));
    ASSERT_EQ(job["oneOf"].size(), 3u);
    auto kind = [&](const char* name) -> const Json& {
        for (const Json& k : job["oneOf"]) {
            if (k["properties"]["type"]["const"] == name) return k;
        }
        ADD_FAILURE() << "no kind " << name;
        return job;
    };
    const Json& training = kind("training");
    EXPECT_EQ(training["properties"]["iteration_period_s"]["minimum"], 0.05);
    EXPECT_EQ(training["properties"]["comm_util_pct"]["default"], 40.0);
    EXPECT_EQ(training["properties"]["end"]["enum"], Json::array({"stop", "ramp_down"}));
    EXPECT_TRUE(training["properties"].contains("name"));
    EXPECT_FALSE(training["properties"].contains("file"));
    const Json& inference = kind("inference");
    EXPECT_EQ(inference["properties"]["hourly_profile"]["minItems"], 24);
    EXPECT_EQ(inference["properties"]["weekday_factors"]["default"].size(), 7u);
    const Json& trace = kind("trace");
    for (const char* key : {"file", "format", "column", "quantity", "idle_W", "max_W", "time_unit",
                            "offset_h", "max_gap_h", "repeat"})
        EXPECT_TRUE(trace["properties"].contains(key)) << key;
    EXPECT_EQ(trace["properties"]["quantity"]["enum"],
              Json::array({"utilization_pct", "utilization", "power_W"}));
    EXPECT_EQ(trace["properties"]["idle_W"]["x-unit"], "W");
}

TEST(power_WorkloadJson, RangeErrorsNameThePathAndTheRange) {
    expectInputError(
        [] {
            load(R"({"racks": 4, "jobs": [{"name": "t", "type": "training", "racks": 1,
            "duration_h": 1, "iteration_period_s": 0.01}]})");
        },
        {"/workload/jobs/0/iteration_period_s", "0.01 s", "between 0.05 s and 600 s"});
    expectInputError([] { load(R"({"racks": 4, "start_hour": 25, "jobs": []})"); },
                     {"/workload/start_hour", "between 0 h and 24 h"});
    expectInputError([] { load(R"({"racks": 4, "tenants": {"a": 1.5}, "jobs": []})"); },
                     {"/workload/tenants/a", "between 0 and 1"});
    expectInputError(
        [] {
            load(R"({"racks": 4, "jobs": [{"name": "c", "type": "inference", "racks": 1,
            "weekday_factors": [1, 1, 1, 1, 1, 1.5, 1]}]})");
        },
        {"/workload/jobs/0/weekday_factors/5", "between 0 and 1"});
    expectInputError(
        [] {
            load(R"({"racks": 4, "jobs": [{"name": "c", "type": "inference", "racks": 1,
            "iteration_period_s": 2}]})");
        },
        {"/workload/jobs/0", "iteration_period_s"});
    expectInputError([] { load(R"({"racks": 4294967304, "jobs": []})"); },
                     {"/workload/racks", "between 1 and 10000000"});
}

TEST(power_WorkloadJson, DefaultsAreTheDeclaredOnes) {
    const Workload w = load(R"({"racks": 2, "jobs": [
        {"name": "t", "type": "training", "racks": 1, "duration_h": 1, "iteration_period_s": 2},
        {"name": "c", "type": "inference", "racks": 1}]})");
    const auto& t = dynamic_cast<const TrainingJob&>(*w.jobs()[0]);
    EXPECT_EQ(t.compute_fraction, 0.5);
    EXPECT_EQ(t.u_compute, 1.0);
    EXPECT_EQ(t.u_comm, 40.0 / 100.0);
    EXPECT_EQ(t.start, 0.0);
    EXPECT_EQ(t.duration, 3600.0);
    const auto& c = dynamic_cast<const InferenceService&>(*w.jobs()[1]);
    EXPECT_EQ(c.peakUtilization(), 90.0 / 100.0);
    EXPECT_EQ(c.peakToTrough(), 2.0);
    EXPECT_EQ(c.hourly().size(), 24u);
    EXPECT_EQ(c.weekday(), (std::vector<double>{1, 1, 1, 1, 1, 0.85, 0.85}));
    EXPECT_GT(c.duration, 1e11);  // to the end of any study
}

}  // namespace
}  // namespace dctwin::power
