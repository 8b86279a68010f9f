// The results tabs on reports of real runs (the shipped reference site and two-hall campus,
// a year each): what the tabs show checked against the report's own summary and
// tables, which the facility computes without the GUI.
#include "gui/results_view.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QHeaderView>
#include <QScrollBar>
#include <QTableView>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <memory>

#include "core/json.h"
#include "facility/scenario.h"
#include "facility/twin.h"
#include "gui/plot/chart_adapter.h"
#include "gui/table_models.h"

namespace dctwin::gui {
namespace {

namespace fs = std::filesystem;

const fs::path kScenarios = fs::path(DCTWIN_SOURCE_DIR) / "scenarios";

// A shipped scenario run as shipped by the facility (no GUI involved): the reference and the
// campus a year at 10-min output (about a second of solver time each), the contingencies
// their 600 s.
std::shared_ptr<const Report> runShipped(const char* file) {
    Json s = readJsonFile(kScenarios / file);
    s.erase("$schema");
    const facility::ScenarioSpec spec =
        facility::parseScenario(s, kScenarios, (kScenarios / file).string());
    return std::make_shared<const Report>(facility::runScenario(spec).report);
}

const std::shared_ptr<const Report>& referenceRun() {
    static const std::shared_ptr<const Report> r = runShipped("azure_gb300_64.json");
    return r;
}

const std::shared_ptr<const Report>& campusRun() {
    static const std::shared_ptr<const Report> r = runShipped("campus_two_halls.json");
    return r;
}

// A shipped contingency (600 s around one event, 0.1 s of solver time).
const std::shared_ptr<const Report>& pumpTripRun() {
    static const std::shared_ptr<const Report> r = runShipped("contingency_cdu_pump_trip.json");
    return r;
}

const std::shared_ptr<const Report>& utilityLossRun() {
    static const std::shared_ptr<const Report> r = runShipped("contingency_utility_loss.json");
    return r;
}

// The study's span from its time series [s].
double spanOf(const Report& r) { return r.timeseries.time.back() - r.timeseries.time.front(); }

// The rows of contingency/event_log whose source is "event" (the scenario's trip or loss):
// their t_s and text.
std::vector<std::pair<double, std::string>> scenarioEvents(const Report& r) {
    std::vector<std::pair<double, std::string>> out;
    const Table* log = findTable(r.tables, "contingency/event_log");
    if (!log) return out;
    const std::vector<double>* t = nullptr;
    const std::vector<std::string>*what = nullptr, *source = nullptr;
    for (const Table::Column& c : log->columns) {
        if (c.name == "t_s") t = std::get_if<std::vector<double>>(&c.data);
        if (c.name == "event") what = std::get_if<std::vector<std::string>>(&c.data);
        if (c.name == "source") source = std::get_if<std::vector<std::string>>(&c.data);
    }
    if (!t || !what || !source) return out;
    for (std::size_t i = 0; i < t->size(); ++i) {
        if ((*source)[i] == "event") out.emplace_back((*t)[i], (*what)[i]);
    }
    return out;
}

double metric(const Report& r, const char* name) {
    const Metric* m = findMetric(r.summary, name);
    EXPECT_NE(m, nullptr) << name;
    return m ? m->value : std::nan("");
}

QTableView* viewOf(ResultsView& rv, const QAbstractItemModel* model) {
    for (QTableView* v : rv.findChildren<QTableView*>()) {
        if (v->model() == model) return v;
    }
    return nullptr;
}

// The facility bar was IT + cooling + losses + the site's other load (lighting, offices,
// security), which had no bar: the bars fell 1,314 MWh short of the facility's over the
// reference year, and the power stack ~150 kW short of the facility line.
TEST(ResultsView, TheEnergyAndPowerPartsAddUpToTheFacility) {
    const Report& r = *referenceRun();
    const double other = metric(r, "other_energy_MWh");
    const double facility = metric(r, "facility_energy_MWh");
    ASSERT_GT(other, 0.001 * facility) << "the reference site has an other load";
    ResultsView rv;
    rv.setReport(referenceRun());

    ChartPanel* energy = rv.charts(ResultsView::SummaryTab).front();
    const QStringList cats = energy->categories();
    const std::vector<double> mwh = energy->barValues(QStringLiteral("energy"));
    ASSERT_EQ(static_cast<std::size_t>(cats.size()), mwh.size());
    std::map<QString, double> bar;
    for (qsizetype i = 0; i < cats.size(); ++i) bar[cats[i]] = mwh[static_cast<std::size_t>(i)];
    ASSERT_EQ(cats.last(), QStringLiteral("facility"));
    double parts = 0.0;
    for (const auto& [name, value] : bar) {
        if (name != QStringLiteral("facility")) parts += value;
    }
    // The parts against the report's facility energy and against the facility bar.
    EXPECT_NEAR(parts, facility, 1e-3 * facility) << cats.join(", ").toStdString();
    EXPECT_NEAR(parts, bar[QStringLiteral("facility")], 1e-3 * facility);
    EXPECT_TRUE(bar.contains(QStringLiteral("other"))) << cats.join(", ").toStdString();
    EXPECT_NEAR(bar[QStringLiteral("other")], other, 1e-9 * other);

    // The stack's top edge (its last layer's) on the facility line, point by point.
    ChartPanel* power = rv.charts(ResultsView::PowerTab).front();
    const QStringList names = power->seriesNames();
    ASSERT_TRUE(names.contains(QStringLiteral("facility power"))) << names.join(", ").toStdString();
    QString top;
    for (const QString& n : names) {
        if (n != QStringLiteral("facility power")) top = n;  // the layers come in stack order
    }
    const std::vector<QPointF> stack = power->drawnPoints(top);
    const std::vector<QPointF> line = power->drawnPoints(QStringLiteral("facility power"));
    ASSERT_EQ(stack.size(), line.size());
    ASSERT_GT(stack.size(), 100u);
    for (std::size_t i = 0; i < stack.size(); ++i) {
        ASSERT_NEAR(stack[i].y(), line[i].y(), 1e-3 * line[i].y())
            << "point " << i << ", top layer " << top.toStdString();
    }
}

// The power sizing table stores 0 kA where the sizing works out no fault level (every row but
// the transformer's LV side, the LV switchgear and the UPS bus; power/sizing.h: "0: not
// computed") and showed "0" there, as if such a bus could not fault.
TEST(ResultsView, FaultLevelsNotWorkedOutAreADashNotZero) {
    ResultsView rv;
    rv.setReport(referenceRun());
    SizingTableModel* m = rv.powerSizingModel();
    const Table& t = m->table();
    int element = -1, fault = -1, breaking = -1;
    for (std::size_t c = 0; c < t.columns.size(); ++c) {
        if (t.columns[c].name == "element") element = static_cast<int>(c);
        if (t.columns[c].name == "fault_current_kA") fault = static_cast<int>(c);
        if (t.columns[c].name == "interrupting_kA") breaking = static_cast<int>(c);
    }
    ASSERT_GE(element, 0);
    ASSERT_GE(fault, 0);
    ASSERT_GE(breaking, 0);
    int dashes = 0, figures = 0;
    for (int row = 0; row < m->rowCount(); ++row) {
        const std::string e = m->index(row, element).data(Qt::UserRole).toString().toStdString();
        for (const int col : {fault, breaking}) {
            const double stored = m->index(row, col).data(Qt::UserRole).toDouble();
            const QString shown = m->index(row, col).data().toString();
            const bool computed =
                e == "lv_switchgear" || e == "ups_bus" || (col == fault && e == "transformer");
            if (computed) {
                // A figure the sizing worked out: shown, and not zero.
                EXPECT_GT(stored, 1.0) << e;
                EXPECT_NE(shown.toStdString(), "–") << e;
                EXPECT_NEAR(shown.toDouble(), stored, 0.01 * stored) << e;
                ++figures;
            } else {
                EXPECT_EQ(stored, 0.0) << e << ": the report's mark for not worked out";
                EXPECT_EQ(shown.toStdString(), "–") << e;
                EXPECT_FALSE(m->index(row, col).data(Qt::ToolTipRole).toString().isEmpty());
                ++dashes;
            }
        }
    }
    EXPECT_EQ(figures, 5);  // transformer, LV switchgear, UPS bus; LV switchgear, UPS bus
    EXPECT_GE(dashes, 10);

    // A 0 on a row whose kind does have a fault level is not hidden: it would be a wrong
    // figure, not a missing one.
    Table odd = t;
    std::get<std::vector<double>>(odd.columns[static_cast<std::size_t>(fault)].data)
        .assign(odd.rows(), 0.0);
    SizingTableModel zero;
    zero.setTable(odd);
    for (int row = 0; row < zero.rowCount(); ++row) {
        const QString e = zero.index(row, element).data(Qt::UserRole).toString();
        if (e == QStringLiteral("transformer")) {
            EXPECT_EQ(zero.index(row, fault).data().toString().toStdString(), "0");
        }
    }
}

// PUE and the partial PUEs read as the CLI prints them ("PUE 1.0774"), four decimals: at two,
// the reference's 1.0774 and the campus's 1.0762 both read 1.08, and hall A's cooling pPUE read
// 1.01 on the Summary tab and 1.0093 on the Halls tab. Whole ratios (counts) stay whole.
TEST(ResultsView, SummaryRatiosReadToFourDecimalsAsTheCliPrintsThem) {
    for (const auto& run : {referenceRun(), campusRun()}) {
        ResultsView rv;
        rv.setReport(run);
        SummaryTableModel* m = rv.summaryModel();
        int ratios = 0, counts = 0;
        for (int row = 0; row < m->rowCount(); ++row) {
            const Metric& x = m->metrics()[static_cast<std::size_t>(row)];
            if (x.unit != "1" || !std::isfinite(x.value) || std::abs(x.value) < 0.1) continue;
            const QString shown = m->index(row, 1).data().toString();
            if (x.value == std::round(x.value)) {
                EXPECT_EQ(shown.toStdString(), QString::number(x.value, 'f', 0).toStdString())
                    << x.name;
                ++counts;
            } else {
                EXPECT_EQ(shown.toStdString(), QString::number(x.value, 'f', 4).toStdString())
                    << x.name;
                ++ratios;
            }
        }
        EXPECT_GE(ratios, 4);  // pue, ppue_cooling, ppue_power, design_pue (and the halls')
        EXPECT_GE(counts, 1);  // fabric_switches
        // And the PUE the CLI prints ({:.4f}) from the same summary.
        for (int row = 0; row < m->rowCount(); ++row) {
            if (m->metrics()[static_cast<std::size_t>(row)].name != "pue") continue;
            EXPECT_EQ(m->index(row, 1).data().toString().toStdString(),
                      QString::number(metric(*run, "pue"), 'f', 4).toStdString());
        }
    }
}

// The campus's water by hall: hall A's (spray only) is a fraction of hall B's (wet towers),
// and went on a right-hand m³ axis at its own scale beside B's on the left, so equal heights
// read as different volumes. One unit, one axis; IT in MW beside cooling in kW keeps two.
TEST(ResultsView, OneUnitOnOneAxisOnTheHallsCharts) {
    const Report& r = *campusRun();
    const Channel* a = r.timeseries.find("halls/A", "water_total");
    const Channel* b = r.timeseries.find("halls/B", "water_total");
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    ASSERT_GT(b->values.back(), 20.0 * a->values.back()) << "far apart, as over the year";
    ResultsView rv;
    rv.setReport(campusRun());
    ASSERT_TRUE(rv.isTabVisible(ResultsView::HallsTab));
    const QList<ChartPanel*> charts = rv.charts(ResultsView::HallsTab);
    ASSERT_EQ(charts.size(), 3);
    EXPECT_EQ(charts[2]->seriesCount(), 2);
    EXPECT_FALSE(charts[2]->hasRightAxis()) << "water in m³ on two axes";
    // IT beside the halls' liquid cooling: the cooling is a few percent of IT most of the year
    // (checked below from the report's own channels, medians by hand) and goes on a right-hand
    // kW axis. Its peak on summer afternoons is within a twentieth of IT's peak, and a rule on
    // peaks drew it on the MW axis as a flat line at zero with spikes.
    double it_level = 0.0, cooling_level = 0.0, it_top = 0.0, cooling_top = 0.0;
    const auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    for (const char* h : {"halls/A", "halls/B"}) {
        const Channel* it = r.timeseries.find(h, "it_power");
        ASSERT_NE(it, nullptr);
        std::vector<double> sum(it->values.size(), 0.0);
        for (const char* n :
             {"cdu_pump_power", "fws_pump_power", "heat_rejection_fan_power", "chiller_power"}) {
            if (const Channel* c = r.timeseries.find(h, n)) {
                for (std::size_t i = 0; i < sum.size(); ++i) sum[i] += c->values[i];
            }
        }
        it_level = std::max(it_level, median({it->values.begin(), it->values.end()}));
        cooling_level = std::max(cooling_level, median(sum));
        for (double v : it->values) it_top = std::max(it_top, std::abs(v));
        for (double v : sum) cooling_top = std::max(cooling_top, std::abs(v));
    }
    ASSERT_LT(cooling_level * 20.0, it_level)
        << "IT " << it_level / 1e3 << " kW, cooling " << cooling_level / 1e3 << " kW";
    EXPECT_EQ(charts[1]->seriesCount(), 4);
    EXPECT_TRUE(charts[1]->hasRightAxis())
        << "cooling peak " << cooling_top / 1e3 << " kW beside IT peak " << it_top / 1e3 << " kW";
    EXPECT_EQ(charts[1]->rightUnit().toStdString(), "kW");
}

// The Halls table's captions ("TCS hours above setpoint [h]") were cut off at 1280 pixels,
// the last one to "TCS hours above se…": each column is as wide as its caption needs (on two
// lines) and the table fits without scrolling sideways.
TEST(ResultsView, TheHallsTableShowsEveryCaptionWholeAt1280) {
    ResultsView rv;
    rv.resize(1280 - 340, 640);  // the results pane of a 1280×800 window beside the editor
    rv.show();
    rv.setReport(campusRun());
    rv.setCurrentIndex(ResultsView::HallsTab);
    QApplication::processEvents();
    QApplication::processEvents();
    QTableView* view = viewOf(rv, rv.hallsModel());
    ASSERT_NE(view, nullptr);
    QHeaderView* h = view->horizontalHeader();
    const QFontMetrics fm = h->fontMetrics();
    ASSERT_GE(h->count(), 9);
    for (int c = 0; c < h->count(); ++c) {
        const QString caption = rv.hallsModel()->headerData(c, Qt::Horizontal).toString();
        // The caption's longest line once broken in two at a space.
        int need = fm.horizontalAdvance(caption);
        for (qsizetype i = caption.indexOf(u' '); i >= 0; i = caption.indexOf(u' ', i + 1)) {
            need = std::min(need, std::max(fm.horizontalAdvance(caption.left(i)),
                                           fm.horizontalAdvance(caption.mid(i + 1))));
        }
        EXPECT_GE(h->sectionSize(c), need) << caption.toStdString();
        const QRect cell = view->visualRect(view->model()->index(0, c));
        EXPECT_LE(cell.right(), view->viewport()->width()) << caption.toStdString();
    }
    EXPECT_GE(h->height(), 2 * fm.lineSpacing()) << "a header of two lines";
    EXPECT_EQ(view->horizontalScrollBar()->maximum(), 0) << "the Halls table scrolls sideways";
}

// A 10-minute contingency read as a year does: the CDU pumps' energy as 0.00421 MWh, the
// time at the throttle temperature as 0.00603 h (the CLI prints 22 s), the load-duration axis
// as 0.000-0.167 h, and "PUE by month" and the Water charts as one bar labelled "7". Small
// figures go to the unit of their size and charts by month give way to a note.
TEST(ResultsView, AShortStudyReadsInTheUnitsOfItsSize) {
    const Report& r = *pumpTripRun();
    const double span = spanOf(r);
    ASSERT_LT(span, 3600.0) << "a contingency of minutes";
    ResultsView rv;
    rv.setReport(pumpTripRun());

    SummaryTableModel* m = rv.summaryModel();
    int energies = 0, times = 0;
    for (int row = 0; row < m->rowCount(); ++row) {
        const Metric& x = m->metrics()[static_cast<std::size_t>(row)];
        const double shown = m->index(row, 1).data().toString().remove(u',').toDouble();
        const std::string unit = m->index(row, 2).data().toString().toStdString();
        if (!(x.value > 0.0 && x.value < 1.0)) continue;
        if (x.unit == "MWh") {
            EXPECT_EQ(unit, "kWh") << x.name;
            EXPECT_NEAR(shown, 1e3 * x.value, 0.01 * 1e3 * x.value) << x.name;
            ++energies;
        } else if (x.unit == "h" && x.description.find("-hours") == std::string::npos) {
            const bool minutes = x.value * 60.0 >= 1.0;
            EXPECT_EQ(unit, minutes ? "min" : "s") << x.name;
            const double expected = x.value * (minutes ? 60.0 : 3600.0);
            EXPECT_NEAR(shown, expected, 0.01 * expected) << x.name;
            ++times;
        }
    }
    EXPECT_GE(energies, 4);  // cooling, losses, CDU and facility pumps, fans, ...
    EXPECT_GE(times, 2);     // the study's length and the time at the throttle temperature
    for (int row = 0; row < m->rowCount(); ++row) {
        const Metric& x = m->metrics()[static_cast<std::size_t>(row)];
        if (x.name == "simulated_h") {
            EXPECT_EQ(m->index(row, 1).data().toString().toStdString(),
                      QString::number(span / 60.0).toStdString());
            EXPECT_EQ(m->index(row, 2).data().toString().toStdString(), "min");
        }
        if (x.name == "gpu_throttle_hours_h") {
            EXPECT_EQ(m->index(row, 2).data().toString().toStdString(), "s");
        }
    }

    // The load-duration curve ends at the study's length, in minutes.
    ChartPanel* ldc = rv.charts(ResultsView::PowerTab)[1];
    const std::vector<QPointF> curve = ldc->drawnPoints(QStringLiteral("IT power"));
    ASSERT_FALSE(curve.empty());
    EXPECT_NEAR(curve.back().x(), span / 60.0, 1e-6 * span);

    // No charts by month: each says why instead, naming the study's length.
    for (ChartPanel* c :
         {rv.charts(ResultsView::SummaryTab)[1], rv.charts(ResultsView::WaterTab)[0],
          rv.charts(ResultsView::WaterTab)[1]}) {
        EXPECT_EQ(c->seriesCount(), 0) << c->title().toStdString();
        EXPECT_TRUE(c->message().contains(QStringLiteral("10 min"))) << c->message().toStdString();
    }
    EXPECT_TRUE(rv.waterCaption().contains(QStringLiteral("over the study")));

    // A year keeps its months and its load-duration curve in hours.
    ResultsView year;
    year.setReport(referenceRun());
    const double year_span = spanOf(*referenceRun());
    for (ChartPanel* c :
         {year.charts(ResultsView::SummaryTab)[1], year.charts(ResultsView::WaterTab)[0],
          year.charts(ResultsView::WaterTab)[1]}) {
        EXPECT_EQ(c->categories().size(), 12) << c->title().toStdString();
        EXPECT_TRUE(c->message().isEmpty());
    }
    const std::vector<QPointF> hours =
        year.charts(ResultsView::PowerTab)[1]->drawnPoints(QStringLiteral("IT power"));
    ASSERT_FALSE(hours.empty());
    EXPECT_NEAR(hours.back().x(), year_span / 3600.0, 1e-6 * year_span);
}

// Nothing on the charts said when a contingency's event happened: each time chart of the
// Power and Cooling tabs has a marker at the t_s of every "event" row of the report's event
// log (not at the plan's or the simulation's rows), labelled with its text, drawn where the
// chart's own axis puts that time.
TEST(ResultsView, ContingencyEventsAreMarkedOnTheTimeCharts) {
    for (const auto& run : {pumpTripRun(), utilityLossRun()}) {
        const Report& r = *run;
        const auto events = scenarioEvents(r);
        ASSERT_EQ(events.size(), 1u) << "one scenario event in each shipped contingency";
        const Table* log = findTable(r.tables, "contingency/event_log");
        ASSERT_NE(log, nullptr);
        ResultsView rv;
        rv.resize(1060, 660);
        rv.show();
        rv.setReport(run);
        QList<ChartPanel*> charts = rv.charts(ResultsView::CoolingTab);
        charts.prepend(rv.charts(ResultsView::PowerTab).front());
        for (ChartPanel* c : charts) {
            if (c->seriesCount() == 0) continue;
            rv.setCurrentIndex(c == charts.front() ? ResultsView::PowerTab
                                                   : ResultsView::CoolingTab);
            QApplication::processEvents();
            QApplication::processEvents();
            const auto markers = c->eventMarkers();
            ASSERT_EQ(markers.size(), events.size()) << c->title().toStdString();
            // The series' x at the study's last sample says the axis's unit.
            const std::vector<QPointF> pts = c->drawnPoints(c->seriesNames().front());
            ASSERT_FALSE(pts.empty());
            const double per_second = pts.back().x() / r.timeseries.time.back();
            for (std::size_t i = 0; i < markers.size(); ++i) {
                EXPECT_NEAR(markers[i].x, events[i].first * per_second, 1e-9 * pts.back().x())
                    << c->title().toStdString();
                EXPECT_EQ(markers[i].label.toStdString(), events[i].second);
                const double px = c->eventMarkerViewX(static_cast<int>(i));
                ASSERT_TRUE(std::isfinite(px)) << c->title().toStdString() << ": not drawn";
                EXPECT_NEAR(c->xAtViewPos(QPoint(static_cast<int>(std::lround(px)), 50)),
                            markers[i].x, 0.01 * pts.back().x())
                    << c->title().toStdString();
            }
            EXPECT_EQ(c->visibleEventMarkers(), static_cast<int>(events.size()));
        }
        // The load-duration curve is not over time: no marker.
        EXPECT_TRUE(rv.charts(ResultsView::PowerTab)[1]->eventMarkers().empty());
        EXPECT_GT(log->rows(), events.size() - 1);
    }
}

// The Summary tab's tables pane showed one row of the first table (sizing/power) under its
// header, on a 2200x1500 screen too, and the event log could not be seen. At the results pane
// of a 1400x900 window every table of the report can be brought into view with several rows,
// and a contingency's event log shows, whole, without the user doing anything.
TEST(ResultsView, TheSummaryTablesShowSeveralRowsEach) {
    for (const auto& run : {pumpTripRun(), utilityLossRun()}) {
        const Report& r = *run;
        ResultsView rv;
        rv.resize(1060, 660);
        rv.show();
        rv.setReport(run);
        rv.setCurrentIndex(ResultsView::SummaryTab);
        for (int i = 0; i < 4; ++i) QApplication::processEvents();
        // A table's rows whose whole cell is on the screen (inside its viewport and whatever
        // clips the view).
        const auto rowsInView = [](QTableView* v) {
            const QRect seen = v->viewport()->visibleRegion().boundingRect();
            int n = 0;
            for (int row = 0; row < v->model()->rowCount(); ++row) {
                if (seen.contains(v->visualRect(v->model()->index(row, 0)))) ++n;
            }
            return n;
        };
        const auto viewOfTable = [&](const std::string& path) -> QTableView* {
            QWidget* summary = rv.widget(ResultsView::SummaryTab);
            for (QTableView* v : summary->findChildren<QTableView*>()) {
                const auto* m = qobject_cast<const SizingTableModel*>(v->model());
                if (m && m->table().path == path) return v;
            }
            return nullptr;
        };
        // The event log first: the pump trip's three rows whole, the utility loss's first
        // five (of ten).
        const Table* log = findTable(r.tables, "contingency/event_log");
        ASSERT_NE(log, nullptr);
        QTableView* log_view = viewOfTable(log->path);
        ASSERT_NE(log_view, nullptr);
        EXPECT_TRUE(log_view->isVisible());
        EXPECT_GE(rowsInView(log_view), std::min(5, static_cast<int>(log->rows())));
        // Every table, picked, with five rows or all of a shorter one.
        for (const Table& t : r.tables) {
            QTableView* v = viewOfTable(t.path);
            ASSERT_NE(v, nullptr) << t.path;
            for (QWidget* w = v; w; w = w->parentWidget()) {
                if (auto* tabs = qobject_cast<QTabWidget*>(w->parentWidget()->parentWidget())) {
                    if (tabs != &rv && tabs->indexOf(w) >= 0) {
                        tabs->setCurrentWidget(w);
                        break;
                    }
                }
                if (w->parentWidget() == &rv) break;
            }
            for (int i = 0; i < 2; ++i) QApplication::processEvents();
            EXPECT_TRUE(v->isVisible()) << t.path;
            EXPECT_GE(rowsInView(v), std::min(5, static_cast<int>(t.rows()))) << t.path;
        }
    }
}

}  // namespace
}  // namespace dctwin::gui
