// The GUI's run path through the real facility: scenarios/azure_gb300_64.json, shortened so the
// test takes seconds, run by the RunController on its worker thread and shown in the window.
#include <gtest/gtest.h>

#include <QSignalSpy>
#include <filesystem>

#include "core/json.h"
#include "gui/main_window.h"
#include "gui/plot/chart_adapter.h"
#include "gui/results_view.h"
#include "gui/run_controller.h"
#include "gui/scenario_tree_model.h"
#include "gui/table_models.h"

namespace dctwin::gui {
namespace {

namespace fs = std::filesystem;

const fs::path kScenarioDir = fs::path(DCTWIN_SOURCE_DIR) / "scenarios";
const fs::path kScenario = kScenarioDir / "azure_gb300_64.json";

bool waitFor(QSignalSpy& spy, int ms) { return spy.count() > 0 || spy.wait(ms); }

// The reference site for two days at 10-min output: every subsystem, a short run.
Json shortScenario() {
    Json s = readJsonFile(kScenario);
    s["study"].erase("days");
    s["study"]["hours"] = 48;
    s["study"]["output_interval_s"] = 600;
    return s;
}

TEST(EndToEnd, RunControllerRunsTheFacilityAndTheWindowShowsIt) {
    ASSERT_TRUE(fs::exists(kScenario)) << kScenario;
    MainWindow w;
    w.setScenario(shortScenario(), kScenarioDir);
    RunController* rc = w.runController();
    QSignalSpy progress(rc, &RunController::progress);
    QSignalSpy finished(rc, &RunController::finished);
    QSignalSpy failed(rc, &RunController::failed);
    ASSERT_TRUE(w.startRun());
    ASSERT_TRUE(waitFor(finished, 300000) || failed.count() > 0);
    ASSERT_EQ(failed.count(), 0) << failed.at(0).at(0).toString().toStdString();
    ASSERT_GE(progress.count(), 1);
    EXPECT_DOUBLE_EQ(progress.last().at(0).toDouble(), 1.0);
    ASSERT_TRUE(rc->outcome());
    const Report& r = rc->outcome()->report;
    ASSERT_NE(r.timeseries.find("power", "it_power"), nullptr);
    EXPECT_GE(r.timeseries.time.size(), 48u * 6u);  // 10-min samples over two days
    // The window took the outcome: the Power and Cooling tabs have series.
    EXPECT_EQ(w.results()->report().get(), &r);
    EXPECT_GT(w.results()->charts(ResultsView::PowerTab).front()->seriesCount(), 0);
    EXPECT_GT(w.results()->charts(ResultsView::CoolingTab).front()->seriesCount(), 0);
    EXPECT_GT(w.results()->summaryModel()->rowCount(), 0);
}

TEST(EndToEnd, CancellingAFacilityRunEndsCancelled) {
    ASSERT_TRUE(fs::exists(kScenario)) << kScenario;
    Json s = readJsonFile(kScenario);  // the full year: long enough to cancel mid-run
    RunController rc;
    QSignalSpy progress(&rc, &RunController::progress);
    QSignalSpy finished(&rc, &RunController::finished);
    QSignalSpy failed(&rc, &RunController::failed);
    QSignalSpy cancelled(&rc, &RunController::cancelled);
    ASSERT_TRUE(rc.start(s, kScenarioDir, QString::fromStdString(kScenario.string())));
    ASSERT_TRUE(waitFor(progress, 300000) || failed.count() > 0);
    ASSERT_EQ(failed.count(), 0) << failed.at(0).at(0).toString().toStdString();
    rc.cancel();
    ASSERT_TRUE(waitFor(cancelled, 300000)) << "finished=" << finished.count();
    EXPECT_EQ(rc.state(), RunController::State::Cancelled);
    EXPECT_EQ(finished.count(), 0);
    EXPECT_EQ(failed.count(), 0);
}

TEST(EndToEnd, ValidateAcceptsTheReferenceScenarioAndNamesABadValue) {
    ASSERT_TRUE(fs::exists(kScenario)) << kScenario;
    MainWindow w;
    ASSERT_TRUE(w.openScenario(kScenario));
    EXPECT_TRUE(w.validateScenario()) << w.messagesText().toStdString();
    ASSERT_TRUE(w.scenarioModel()->setValue("/cooling/cdu/racks_per_cdu", -3));
    EXPECT_FALSE(w.validateScenario());
    EXPECT_TRUE(w.messagesText().contains(QStringLiteral("racks_per_cdu")))
        << w.messagesText().toStdString();
}

}  // namespace
}  // namespace dctwin::gui
