#include "gui/run_comparison.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableView>

#include "core/json.h"
#include "gui/main_window.h"
#include "gui/results_view.h"
#include "gui/run_controller.h"

namespace dctwin::gui {
namespace {

Report design(double pue, double ups_count) {
    Report r;
    r.summary = {{"pue", pue, "1", "power usage effectiveness"},
                 {"water_m3", 1000.0, "m3", "make-up and spray water"}};
    Table t;
    t.path = "sizing/power";
    t.addText("element", {"ups", "transformer"});
    t.addNumbers("count", "1", {ups_count, 8});
    r.tables = {t};
    return r;
}

TEST(RunComparison, ShowsTwoRunsSideBySideWithTheirDifferences) {
    RunComparison c;
    c.addRun(QStringLiteral("dry coolers"), design(1.12, 12));
    c.addRun(QStringLiteral("cooling tower"), design(1.09, 16));
    ComparisonModel* m = c.model();
    const int pue = m->rowOf(QStringLiteral("pue"));
    ASSERT_GE(pue, 0);
    EXPECT_EQ(m->data(m->index(pue, 0)).toString(), QStringLiteral("Power usage effectiveness"));
    EXPECT_EQ(m->data(m->index(pue, 2)).toString(), QStringLiteral("1.1200"));
    EXPECT_EQ(m->data(m->index(pue, 3)).toString(), QStringLiteral("1.0900"));
    EXPECT_EQ(m->data(m->index(pue, 4)).toString(), QStringLiteral("-0.0300"));
    EXPECT_NEAR(m->data(m->index(pue, 4), Qt::UserRole).toDouble(), -0.03, 1e-12);
    EXPECT_EQ(m->data(m->index(pue, 5)).toString(), QStringLiteral("-2.7 %"));
    EXPECT_TRUE(m->data(m->index(pue, 4), Qt::BackgroundRole).isValid());  // differs
    const int water = m->rowOf(QStringLiteral("water_m3"));
    EXPECT_EQ(m->data(m->index(water, 4)).toString(), QStringLiteral("="));
    EXPECT_FALSE(m->data(m->index(water, 4), Qt::BackgroundRole).isValid());
    EXPECT_EQ(m->data(m->index(water, 1)).toString(), QStringLiteral("m³"));
    // Equipment counts from the sizing tables compare too.
    const int ups = m->rowOf(QStringLiteral("count: ups"));
    ASSERT_GE(ups, 0);
    EXPECT_EQ(m->data(m->index(ups, 4)).toString(), QStringLiteral("+4"));
    // Any two kept runs, either way round.
    c.compare(1, 0);
    EXPECT_EQ(m->data(m->index(m->rowOf(QStringLiteral("count: ups")), 4)).toString(),
              QStringLiteral("-4"));
}

TEST(RunComparison, TheDifferenceColumnsStayInViewBesideALongDescription) {
    // At 1280×800 the results pane is ~930 px wide; a metric column sized to its longest
    // description pushed B − A and the change past its edge.
    Report a = design(1.12, 12), b = design(1.09, 16);
    const Metric longest{"design_worst_fws_excess_K", 1.98, "K",
                         "how far the facility supply rises above its setpoint in the year's "
                         "hottest hour at design heat, with every installed unit running"};
    a.summary.push_back(longest);
    b.summary.push_back(longest);
    RunComparison c;
    c.resize(900, 500);
    c.addRun(QStringLiteral("A"), a);
    c.addRun(QStringLiteral("B"), b);
    c.show();
    QApplication::processEvents();
    QTableView* v = c.view();
    ComparisonModel* m = c.model();
    const int row = m->rowOf(QStringLiteral("design_worst_fws_excess_K"));
    ASSERT_GE(row, 0);
    for (int col = 2; col < m->columnCount(); ++col) {
        const QRect cell = v->visualRect(m->index(0, col));
        EXPECT_TRUE(v->viewport()->rect().contains(cell.center()))
            << "column " << col << " at x=" << cell.x() << " of " << v->viewport()->width();
    }
    EXPECT_EQ(v->horizontalScrollBar()->maximum(), 0);  // nothing to scroll to
    // The description wraps instead: its row is taller than a one-line row.
    EXPECT_GT(v->rowHeight(row), v->rowHeight(m->rowOf(QStringLiteral("pue"))));
}

TEST(RunComparison, TheWindowKeepsEveryFinishedRun) {
    int run = 0;
    auto* rc = new RunController([&](const facility::ScenarioSpec&, const facility::RunControl&) {
        facility::RunOutcome o;
        o.report = design(run++ == 0 ? 1.12 : 1.10, 12);
        return o;
    });
    MainWindow w(nullptr, rc);
    Json s =
        readJsonFile(std::filesystem::path(DCTWIN_SOURCE_DIR) / "scenarios/azure_gb300_64.json");
    s["study"] = {{"kind", "transient"}, {"hours", 1}};
    w.setScenario(s, std::filesystem::path(DCTWIN_SOURCE_DIR) / "scenarios");
    QSignalSpy finished(rc, &RunController::finished);
    ASSERT_TRUE(w.startRun());
    ASSERT_TRUE(finished.wait(20000));
    EXPECT_FALSE(w.results()->isTabVisible(ResultsView::CompareTab));  // one run: nothing yet
    ASSERT_TRUE(w.startRun());
    ASSERT_TRUE(finished.wait(20000));
    EXPECT_TRUE(w.results()->isTabVisible(ResultsView::CompareTab));
    RunComparison* c = w.results()->comparison();
    EXPECT_EQ(c->runCount(), 2);
    ComparisonModel* m = c->model();
    // PUE to four decimals, as the Summary and the CLI (it read "1.10"), and the difference
    // of the two runs (1.12 then 1.10) too.
    EXPECT_EQ(m->data(m->index(m->rowOf(QStringLiteral("pue")), 3)).toString(),
              QStringLiteral("1.1000"));
    EXPECT_EQ(m->data(m->index(m->rowOf(QStringLiteral("pue")), 4)).toString(),
              QStringLiteral("-0.0200"));
    // Opening another file clears the results but keeps the runs to compare.
    w.setScenario(s, std::filesystem::path(DCTWIN_SOURCE_DIR) / "scenarios");
    EXPECT_EQ(c->runCount(), 2);
}

}  // namespace
}  // namespace dctwin::gui
