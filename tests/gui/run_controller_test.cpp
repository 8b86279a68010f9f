#include "gui/run_controller.h"

#include <gtest/gtest.h>

#include <QSignalSpy>
#include <chrono>
#include <filesystem>
#include <thread>

#include "core/errors.h"

namespace dctwin::gui {
namespace {

using namespace std::chrono_literals;

bool waitFor(QSignalSpy& spy, int ms = 20000) { return spy.count() > 0 || spy.wait(ms); }

// The smallest scenario facility::parseScenario accepts; the fake runners below never build it.
// The reference site with a one-hour study: the loader reads every section (weather,
// catalog, workload) before the run function is called, so the scenario must be complete.
Json tinyScenario() {
    Json j = readJsonFile(std::filesystem::path(DCTWIN_SOURCE_DIR) / "scenarios" /
                          "azure_gb300_64.json");
    j["name"] = "tiny";
    j["study"] = {{"kind", "transient"}, {"hours", 1}, {"output_interval_s", 60}};
    return j;
}

facility::RunOutcome fakeOutcome(const facility::ScenarioSpec& s) {
    facility::RunOutcome o;
    o.report.attributes["scenario_name"] = s.name;
    o.report.timeseries.time = {0.0, 1800.0, 3600.0};
    o.report.timeseries.addChannel("power", "it_power", "W").values = {1e6, 1.1e6, 1.2e6};
    o.report.summary.push_back({"pue", 1.1, "1"});
    return o;
}

TEST(RunController, ReportsProgressAndFinishes) {
    const std::thread::id gui_thread = std::this_thread::get_id();
    std::thread::id runner_thread;
    RunController rc([&](const facility::ScenarioSpec& s, const facility::RunControl& c) {
        runner_thread = std::this_thread::get_id();
        for (int i = 0; i <= 20; ++i) {
            c.progress(i / 20.0, i * 180.0);
            std::this_thread::sleep_for(2ms);
        }
        return fakeOutcome(s);
    });
    QSignalSpy started(&rc, &RunController::started);
    QSignalSpy progress(&rc, &RunController::progress);
    QSignalSpy finished(&rc, &RunController::finished);
    QSignalSpy failed(&rc, &RunController::failed);
    std::vector<std::thread::id> progress_threads;
    QObject::connect(&rc, &RunController::progress,
                     [&] { progress_threads.push_back(std::this_thread::get_id()); });

    ASSERT_TRUE(rc.start(tinyScenario(), ".", "tiny.json"));
    EXPECT_EQ(started.count(), 1);
    EXPECT_TRUE(rc.isRunning());
    EXPECT_FALSE(rc.start(tinyScenario(), ".", "tiny.json"));  // one run at a time
    ASSERT_TRUE(waitFor(finished));
    EXPECT_EQ(failed.count(), 0);
    EXPECT_EQ(rc.state(), RunController::State::Finished);
    ASSERT_GE(progress.count(), 2);
    double last = -1.0;
    for (const auto& args : progress) {
        EXPECT_GE(args.at(0).toDouble(), last);  // monotonic
        last = args.at(0).toDouble();
    }
    EXPECT_DOUBLE_EQ(last, 1.0);
    EXPECT_DOUBLE_EQ(rc.lastFraction(), 1.0);
    // The work ran on another thread; the signals arrived on this one.
    EXPECT_NE(runner_thread, gui_thread);
    for (auto id : progress_threads) EXPECT_EQ(id, gui_thread);
    ASSERT_TRUE(rc.outcome());
    EXPECT_EQ(rc.outcome()->report.attributes.at("scenario_name"), "tiny");
    EXPECT_EQ(rc.outcome()->report.timeseries.time.size(), 3u);
}

TEST(RunController, CancelEndsInCancelledState) {
    RunController rc([](const facility::ScenarioSpec& s, const facility::RunControl& c) {
        // Behaves like the facility: checks the flag between steps and throws when set. If the
        // cancel never arrives it finishes normally, which the test reports as a failure.
        for (int i = 0; i < 10000; ++i) {
            if (c.cancel && c.cancel->load()) throw CancelledError("run cancelled at step");
            c.progress(i / 10000.0, i);
            std::this_thread::sleep_for(1ms);
        }
        return fakeOutcome(s);
    });
    QSignalSpy progress(&rc, &RunController::progress);
    QSignalSpy finished(&rc, &RunController::finished);
    QSignalSpy failed(&rc, &RunController::failed);
    QSignalSpy cancelled(&rc, &RunController::cancelled);
    ASSERT_TRUE(rc.start(tinyScenario(), ".", "tiny.json"));
    ASSERT_TRUE(waitFor(progress));
    rc.cancel();
    ASSERT_TRUE(waitFor(cancelled));
    EXPECT_EQ(rc.state(), RunController::State::Cancelled);
    EXPECT_EQ(finished.count(), 0);
    EXPECT_EQ(failed.count(), 0);
    EXPECT_FALSE(rc.outcome());
    EXPECT_LT(rc.lastFraction(), 1.0);
    // The controller can run again after a cancel.
    ASSERT_TRUE(rc.start(tinyScenario(), ".", "tiny.json"));
    rc.cancel();
    QSignalSpy cancelled_again(&rc, &RunController::cancelled);
    ASSERT_TRUE(waitFor(cancelled_again));
}

TEST(RunController, ErrorsArriveWithTheirText) {
    RunController rc(
        [](const facility::ScenarioSpec&, const facility::RunControl&) -> facility::RunOutcome {
            throw SolverError("CVODE failed at t = 3600 s: worst state cdu_03/T_supply");
        });
    QSignalSpy failed(&rc, &RunController::failed);
    ASSERT_TRUE(rc.start(tinyScenario(), ".", "tiny.json"));
    ASSERT_TRUE(waitFor(failed));
    EXPECT_EQ(rc.state(), RunController::State::Failed);
    EXPECT_EQ(failed.at(0).at(0).toString(),
              QStringLiteral("CVODE failed at t = 3600 s: worst state cdu_03/T_supply"));
    EXPECT_EQ(rc.lastError(), failed.at(0).at(0).toString());
}

TEST(RunController, ScenarioErrorsFailWithTheJsonPath) {
    bool ran = false;
    RunController rc([&](const facility::ScenarioSpec& s, const facility::RunControl&) {
        ran = true;
        return fakeOutcome(s);
    });
    QSignalSpy failed(&rc, &RunController::failed);
    Json bad = tinyScenario();
    bad["study"]["kind"] = "yearly";
    ASSERT_TRUE(rc.start(bad, ".", "bad.json"));
    ASSERT_TRUE(waitFor(failed));
    const QString msg = failed.at(0).at(0).toString();
    EXPECT_TRUE(msg.contains(QStringLiteral("/study/kind"))) << msg.toStdString();
    EXPECT_TRUE(msg.contains(QStringLiteral("annual"))) << msg.toStdString();  // valid choices
    EXPECT_FALSE(ran);
}

TEST(RunController, DestructionDuringARunCancelsAndJoins) {
    std::atomic<bool> saw_cancel{false};
    {
        RunController rc([&](const facility::ScenarioSpec& s, const facility::RunControl& c) {
            for (int i = 0; i < 20000; ++i) {
                if (c.cancel->load()) {
                    saw_cancel = true;
                    throw CancelledError("cancelled");
                }
                std::this_thread::sleep_for(1ms);
            }
            return fakeOutcome(s);
        });
        ASSERT_TRUE(rc.start(tinyScenario(), ".", "tiny.json"));
    }
    EXPECT_TRUE(saw_cancel);
}

}  // namespace
}  // namespace dctwin::gui
