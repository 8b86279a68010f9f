#include "gui/main_window.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QApplication>
#include <QFileInfo>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTreeView>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <thread>

#include "core/data_dir.h"
#include "core/display.h"
#include "core/errors.h"
#include "core/io/hdf5_reader.h"
#include "core/io/report_writer.h"
#include "gui/one_line_diagram.h"
#include "gui/plot/chart_adapter.h"
#include "gui/report_loader.h"
#include "gui/results_view.h"
#include "gui/run_controller.h"
#include "gui/scenario_form.h"
#include "gui/scenario_tree_model.h"
#include "gui/table_models.h"

namespace dctwin::gui {
namespace {

namespace fs = std::filesystem;

// A 60-day annual-style report with every channel of the report contract, hourly.
std::shared_ptr<const Report> syntheticReport() {
    auto r = std::make_shared<Report>();
    r->attributes = {{"generator", "gui test"}, {"scenario_name", "synthetic"}};
    ResultSet& ts = r->timeseries;
    ts.start_iso8601 = "2026-01-01T00:00:00";
    for (int h = 0; h <= 60 * 24; ++h) ts.time.push_back(h * 3600.0);
    const auto fill = [&](const char* g, const char* n, const char* u, auto f) {
        Channel& c = ts.addChannel(g, n, u);
        for (double t : ts.time) c.values.push_back(f(t));
    };
    const auto daily = [](double t) { return std::sin(2.0 * M_PI * t / 86400.0); };
    fill("power", "it_power", "W", [&](double t) { return 8.6e6 + 0.3e6 * daily(t); });
    fill("power", "cooling_power", "W", [&](double t) { return 0.5e6 + 0.1e6 * daily(t); });
    fill("power", "electrical_losses", "W", [](double) { return 0.3e6; });
    fill("power", "facility_power", "W", [&](double t) { return 9.45e6 + 0.4e6 * daily(t); });
    fill("power", "grid_power", "W", [&](double t) { return 8.6e6 + 0.3e6 * daily(t); });
    fill("cooling", "tcs_supply_temp", "K", [](double) { return 308.15; });
    fill("cooling", "tcs_return_temp", "K", [](double) { return 318.15; });
    fill("cooling", "fws_supply_temp", "K", [](double) { return 305.15; });
    fill("cooling", "fws_return_temp", "K", [](double) { return 315.15; });
    fill("cooling", "max_gpu_junction_temp", "K", [&](double t) { return 348.0 + 3.0 * daily(t); });
    fill("cooling", "max_gpu_plate_temp", "K", [&](double t) { return 333.0 + 3.0 * daily(t); });
    fill("cooling", "heat_to_liquid", "W", [&](double t) { return 7.7e6 + 0.3e6 * daily(t); });
    fill("cooling", "heat_to_air", "W", [](double) { return 0.9e6; });
    fill("cooling", "cdu_pump_power", "W", [](double) { return 0.12e6; });
    fill("cooling", "heat_rejection_fan_power", "W", [](double) { return 0.3e6; });
    fill("cooling", "chiller_power", "W", [](double) { return 0.0; });
    fill("water", "water_rate", "m3/s", [](double) { return 1e-3; });
    fill("water", "water_total", "m3", [](double t) { return 1e-3 * t; });
    fill("cooling", "throttle_margin", "K", [](double) { return 9.0; });  // a difference
    fill("weather", "dry_bulb", "K", [&](double t) { return 275.0 + 5.0 * daily(t); });
    fill("weather", "wet_bulb", "K", [&](double t) { return 272.0 + 4.0 * daily(t); });
    r->summary = {{"pue", 1.1, "1", "power usage effectiveness"},
                  {"wue_L_per_kWh", 0.42, "L/kWh"},
                  {"peak_it_kW", 8900.0, "kW"},
                  {"max_gpu_junction_C", 77.85, "C"},
                  {"energy_balance_rel_error", 2e-4, "1"}};
    Table power;
    power.path = "sizing/power";
    power.addText("element", {"transformer", "UPS", "busway"});
    power.addNumbers("rating", "W", {3.0e6, 1.5e6, 8.0e5});
    power.addNumbers("count", "1", {4, 8, 16});
    power.addText("redundancy", {"2N", "4N/3", "N"});
    power.addNumbers("design_loading_pct", "%", {40.0, 72.0, 85.0});
    Table cooling;
    cooling.path = "sizing/cooling";
    cooling.addText("element", {"CDU", "dry cooler"});
    cooling.addNumbers("rating", "W", {1.368e6, 2.0e6});
    cooling.addNumbers("count", "1", {9, 6});
    cooling.addText("redundancy", {"N+1", "N+1"});
    cooling.addNumbers("design_loading_pct", "%", {70.0, 55.0});
    Table water;
    water.path = "sizing/water";
    water.addText("element", {"make-up"});
    water.addNumbers("annual", "m3", {31536.0});
    r->tables = {power, cooling, water};
    return r;
}

// Not a blank image: a rendered chart has axes, text and series in several colours.
bool hasContent(const QString& png) {
    QImage img(png);
    if (img.isNull() || img.width() < 100 || img.height() < 100) return false;
    const QRgb first = img.pixel(0, 0);
    int different = 0;
    for (int y = 0; y < img.height(); y += 7) {
        for (int x = 0; x < img.width(); x += 7) different += img.pixel(x, y) != first;
    }
    return different > 100;
}

TEST(MainWindow, ResultsTabsHaveChartsWithSeries) {
    MainWindow w;
    w.showReport(syntheticReport());
    ResultsView* rv = w.results();
    ASSERT_EQ(rv->count(), 8);
    EXPECT_TRUE(rv->isTabVisible(ResultsView::DesignTab));  // the report has sizing tables
    EXPECT_FALSE(rv->isTabVisible(ResultsView::HallsTab));  // one hall: nothing to set apart
    // A new report (a re-run) keeps the tab being read.
    rv->setCurrentIndex(ResultsView::DesignTab);
    w.showReport(syntheticReport());
    EXPECT_EQ(rv->currentIndex(), ResultsView::DesignTab);
    EXPECT_FALSE(rv->isTabVisible(ResultsView::SweepTab));  // only for a sweep
    EXPECT_EQ(rv->tabText(ResultsView::PowerTab), QStringLiteral("Power"));
    EXPECT_EQ(rv->tabText(ResultsView::SummaryTab), QStringLiteral("Summary"));
    for (auto tab : {ResultsView::PowerTab, ResultsView::CoolingTab, ResultsView::WaterTab,
                     ResultsView::SummaryTab}) {
        const QList<ChartPanel*> charts = rv->charts(tab);
        ASSERT_FALSE(charts.isEmpty()) << tab;
        EXPECT_GT(charts.front()->seriesCount(), 0) << rv->tabText(tab).toStdString();
    }
    const QStringList power = rv->charts(ResultsView::PowerTab).front()->seriesNames();
    EXPECT_EQ(power,
              (QStringList{"IT power", "cooling power", "electrical losses", "facility power"}));
    const QStringList temps = rv->charts(ResultsView::CoolingTab).front()->seriesNames();
    EXPECT_TRUE(temps.contains(QStringLiteral("TCS supply")));
    EXPECT_TRUE(temps.contains(QStringLiteral("GPU junction (peak)")));
    EXPECT_TRUE(temps.contains(QStringLiteral("GPU cold plate (plate average)")));
    EXPECT_TRUE(temps.contains(QStringLiteral("outdoor wet bulb")));
    EXPECT_FALSE(temps.contains(QStringLiteral("throttle margin")));      // K difference, not °C
    EXPECT_EQ(rv->charts(ResultsView::CoolingTab)[1]->seriesCount(), 5);  // heat and powers
    EXPECT_EQ(rv->charts(ResultsView::CoolingTab)[2]->seriesCount(), 0);  // no flow channels
    // Water: Jan, Feb and the one day of March; WUE from the summary.
    ChartPanel* water = rv->charts(ResultsView::WaterTab).front();
    EXPECT_EQ(water->pointCount(QStringLiteral("water use")), 3);
    // Month numbers, as the WUE and PUE charts write them ("Jan 2026" was cut to "Ja…").
    EXPECT_EQ(water->categories(), (QStringList{"1", "2", "3"}));
    EXPECT_TRUE(rv->waterCaption().contains(QStringLiteral("WUE 0.42")))
        << rv->waterCaption().toStdString();
    // The sizing table carries the loading colours.
    SizingTableModel* sizing = rv->powerSizingModel();
    ASSERT_EQ(sizing->rowCount(), 3);
    EXPECT_EQ(sizing->data(sizing->index(2, 4), Qt::BackgroundRole).value<QColor>(),
              loadingColour(85.0));
    EXPECT_EQ(rv->summaryModel()->rowCount(), 5);
    // Energy by use, in names short enough for a half-width chart ("electrical losses" was
    // cut to "electrical lo…").
    EXPECT_EQ(rv->charts(ResultsView::SummaryTab)[0]->categories(),
              (QStringList{"IT", "cooling", "losses", "facility"}));
    // PUE and WUE by month: Jan, Feb and the one day of March of the 60-day series.
    ChartPanel* pue = rv->charts(ResultsView::SummaryTab)[1];
    EXPECT_EQ(pue->title(), QStringLiteral("PUE by month"));
    EXPECT_EQ(pue->pointCount(QStringLiteral("PUE")), 3);
    // Whole days of a daily sine: the month's PUE is the ratio of the means, 9.45 / 8.6, which
    // trapezoids on the hourly grid integrate exactly; the mean of the hourly ratios would
    // read 1.4e-4 lower, so the tolerance is round-off's.
    EXPECT_NEAR(pue->barValues(QStringLiteral("PUE"))[0], 9.45 / 8.6, 1e-9);
    ChartPanel* wue = rv->charts(ResultsView::WaterTab)[1];
    EXPECT_EQ(wue->pointCount(QStringLiteral("WUE")), 3);
    // 1 L/s of water over 8.6 MW of IT: 3,600 L per 8,600 kWh.
    EXPECT_NEAR(wue->barValues(QStringLiteral("WUE"))[0], 3600.0 / 8600.0, 1e-9);
}

TEST(MainWindow, MissingChannelsAreNamedNotFatal) {
    auto r = std::make_shared<Report>(*syntheticReport());
    auto& ch = r->timeseries.channels;
    std::erase_if(ch, [](const Channel& c) {
        return c.name == "cooling_power" || c.group == "water" || c.name == "max_gpu_junction_temp";
    });
    r->summary.clear();
    MainWindow w;
    w.showReport(r);
    EXPECT_EQ(w.results()->charts(ResultsView::PowerTab).front()->seriesCount(), 3);
    EXPECT_EQ(w.results()->charts(ResultsView::WaterTab).front()->seriesCount(), 0);
    EXPECT_TRUE(w.results()->waterCaption().contains(QStringLiteral("no water channels")));
}

TEST(MainWindow, FacilityMetricNamesAreUsed) {
    // The facility names each metric once, unit in the name (facility/metrics.h); the tabs
    // read those names.
    auto r = std::make_shared<Report>(*syntheticReport());
    r->summary = {{"wue_L_per_kWh", 0.25, "L/kWh", "water usage effectiveness"},
                  {"it_energy_MWh", 1000.0, "MWh", "IT energy"}};
    r->timeseries = {};
    MainWindow w;
    w.showReport(r);
    EXPECT_TRUE(w.results()->waterCaption().contains(QStringLiteral("WUE 0.25")))
        << w.results()->waterCaption().toStdString();
    ChartPanel* energy = w.results()->charts(ResultsView::SummaryTab).front();
    EXPECT_EQ(energy->pointCount(QStringLiteral("energy")), 1);  // IT from the metric
}

TEST(MainWindow, ExportsRefuseSymbolicLinksAndPipesAsTheCliDoes) {
    // The CLI refuses to write an output over a symbolic link or a device (core/io
    // checkOutputFile): the rename replaced a link with a file and left its target stale, and
    // replaced a device or pipe with a file. The app's exports wrote through them unchecked.
    // A named pipe made here (mkfifo) stands for a device; its read end is held open without
    // blocking so a write that should not happen cannot hang the test.
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const fs::path out(dir.path().toStdString());
    const fs::path pipe = out / "pipe.h5";
    ASSERT_EQ(::mkfifo(pipe.c_str(), 0600), 0);
    const int reader = ::open(pipe.c_str(), O_RDONLY | O_NONBLOCK);
    ASSERT_GE(reader, 0);
    const fs::path target = out / "target.png";
    std::ofstream(target) << "keep";
    fs::create_symlink(target, out / "link_1.png");
    fs::create_symlink(target, out / "link.h5");
    fs::create_symlink(target, out / "link.json");
    const fs::path pdf_pipe = out / "pipe.pdf";
    ASSERT_EQ(::mkfifo(pdf_pipe.c_str(), 0600), 0);
    const int pdf_reader = ::open(pdf_pipe.c_str(), O_RDONLY | O_NONBLOCK);
    ASSERT_GE(pdf_reader, 0);

    MainWindow w;
    w.showReport(syntheticReport());
    EXPECT_FALSE(w.exportHdf5(pipe));
    EXPECT_TRUE(w.messagesText().contains(
        QStringLiteral("Export HDF5: cannot write report '%1': it is not a regular file")
            .arg(QString::fromStdString(pipe.string()))))
        << w.messagesText().toStdString();
    EXPECT_FALSE(w.exportHdf5(out / "link.h5"));
    EXPECT_TRUE(w.messagesText().contains(QStringLiteral("it is a symbolic link")));
    w.results()->setCurrentIndex(ResultsView::PowerTab);
    ASSERT_EQ(w.results()->currentCharts().size(), 2);
    EXPECT_FALSE(w.exportCurrentChartsPng(out / "link.png"));  // link_1.png first
    EXPECT_TRUE(w.messagesText().contains(
        QStringLiteral("Export PNG: cannot write chart '%1': it is a symbolic link")
            .arg(QString::fromStdString((out / "link_1.png").string()))))
        << w.messagesText().toStdString();
    EXPECT_FALSE(w.exportPdf(pdf_pipe));
    EXPECT_TRUE(w.messagesText().contains(QStringLiteral("cannot write PDF report")))
        << w.messagesText().toStdString();
    EXPECT_FALSE(w.saveScenario(out / "link.json"));
    EXPECT_TRUE(w.messagesText().contains(QStringLiteral("Save: cannot write scenario")))
        << w.messagesText().toStdString();
    // Nothing was replaced or written through.
    EXPECT_TRUE(fs::is_fifo(pipe));
    EXPECT_TRUE(fs::is_fifo(pdf_pipe));
    char byte = 0;
    EXPECT_LE(::read(reader, &byte, 1), 0);
    EXPECT_LE(::read(pdf_reader, &byte, 1), 0);
    ::close(reader);
    ::close(pdf_reader);
    for (const char* link : {"link_1.png", "link.h5", "link.json"}) {
        EXPECT_TRUE(fs::is_symlink(out / link)) << link;
    }
    std::ifstream in(target);
    std::string kept;
    in >> kept;
    EXPECT_EQ(kept, "keep");
    // An ordinary file beside them is still written.
    EXPECT_TRUE(w.exportHdf5(out / "report.h5"));
}

TEST(MainWindow, ExportsPngHdf5AndCsv) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const fs::path out(dir.path().toStdString());
    MainWindow w;
    EXPECT_FALSE(w.exportHdf5(out / "none.h5"));  // nothing to export yet
    EXPECT_TRUE(w.messagesText().contains(QStringLiteral("nothing to export")));
    w.showReport(syntheticReport());

    // One chart with data → the file itself: without IT and facility power there is no
    // load-duration curve, only the power chart.
    {
        auto grid_only = std::make_shared<Report>(*syntheticReport());
        std::erase_if(grid_only->timeseries.channels, [](const Channel& c) {
            return c.name == "it_power" || c.name == "facility_power";
        });
        MainWindow one;
        one.showReport(grid_only);
        one.results()->setCurrentIndex(ResultsView::PowerTab);
        ASSERT_EQ(one.results()->currentCharts().size(), 1);
        ASSERT_TRUE(one.exportCurrentChartsPng(out / "grid.png"));
        EXPECT_GT(QFileInfo(QString::fromStdString((out / "grid.png").string())).size(), 0);
        EXPECT_TRUE(hasContent(QString::fromStdString((out / "grid.png").string())));
    }
    // The power chart and the load-duration curve → two numbered files.
    w.results()->setCurrentIndex(ResultsView::PowerTab);
    ASSERT_TRUE(w.exportCurrentChartsPng(out / "power.png"));
    EXPECT_TRUE(hasContent(QString::fromStdString((out / "power_1.png").string())));
    EXPECT_TRUE(hasContent(QString::fromStdString((out / "power_2.png").string())));
    // Two charts with data on the Cooling tab → two numbered files.
    w.results()->setCurrentIndex(ResultsView::CoolingTab);
    ASSERT_TRUE(w.exportCurrentChartsPng(out / "cooling.png"));
    EXPECT_TRUE(hasContent(QString::fromStdString((out / "cooling_1.png").string())));
    EXPECT_TRUE(hasContent(QString::fromStdString((out / "cooling_2.png").string())));
    EXPECT_FALSE(fs::exists(out / "cooling_3.png"));
    // A folder that does not exist is an error with the path, not a crash.
    w.results()->setCurrentIndex(ResultsView::WaterTab);
    EXPECT_FALSE(w.exportCurrentChartsPng(out / "missing" / "water.png"));
    EXPECT_TRUE(w.messagesText().contains(QStringLiteral("missing/water_1.png")));

    ASSERT_TRUE(w.exportHdf5(out / "report.h5"));
    ASSERT_TRUE(w.exportCsv(out / "csv"));
    EXPECT_GT(fs::file_size(out / "csv" / "timeseries.csv"), 0u);
    EXPECT_TRUE(fs::exists(out / "csv" / "sizing_power.csv"));

    // Reading the HDF5 back gives the same report.
    const Report back = loadReportFile(out / "report.h5");
    const auto original = syntheticReport();
    EXPECT_EQ(back.timeseries.time, original->timeseries.time);
    EXPECT_EQ(back.timeseries.start_iso8601, original->timeseries.start_iso8601);
    ASSERT_EQ(back.timeseries.channels.size(), original->timeseries.channels.size());
    for (const Channel& c : original->timeseries.channels) {
        const Channel* b = back.timeseries.find(c.group, c.name);
        ASSERT_NE(b, nullptr) << c.group << "/" << c.name;
        EXPECT_EQ(b->unit, c.unit);
        EXPECT_EQ(b->values, c.values);
    }
    ASSERT_EQ(back.summary.size(), original->summary.size());
    for (std::size_t i = 0; i < back.summary.size(); ++i) {
        EXPECT_EQ(back.summary[i].name, original->summary[i].name);
        EXPECT_DOUBLE_EQ(back.summary[i].value, original->summary[i].value);
        EXPECT_EQ(back.summary[i].unit, original->summary[i].unit);
        EXPECT_EQ(back.summary[i].description, original->summary[i].description);
    }
    EXPECT_EQ(back.tables.size(), 3u);
    EXPECT_EQ(back.attributes.at("scenario_name"), "synthetic");

    MainWindow w2;
    ASSERT_TRUE(w2.openReport(out / "report.h5"));
    EXPECT_EQ(w2.results()->charts(ResultsView::PowerTab).front()->seriesCount(), 4);
    EXPECT_FALSE(w2.openReport(out / "power.png"));  // not HDF5: the error names the file
    EXPECT_TRUE(w2.messagesText().contains(QStringLiteral("power.png")));
}

// Issue 17: per-rack-group series are a 2-D [time, rack_group] array in the file; opening the
// report gives the run's per-group channels back, and saving it writes the same array again.
TEST(ReportLoader, RackArrayBecomesChannelsAndIsSavedAgain) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const fs::path out(dir.path().toStdString());
    Report r = *syntheticReport();
    ResultSet& ts = r.timeseries;
    ChannelArray a;
    a.group = "racks";
    a.dimension = "rack_group";
    a.labels = {"g0_train", "g1_infer"};
    a.coordinates = {{"rack_count", "1", "racks", std::vector<std::int64_t>{40, 24}},
                     {"job", "", "jobs", std::vector<std::string>{"pretrain", "chat"}}};
    a.variables = {{"junction_temp", "GPU junction"}};
    for (std::size_t j = 0; j < a.labels.size(); ++j) {
        Channel& c = ts.addChannel(a.channelGroup(j), "junction_temp", "K", "GPU junction");
        for (std::size_t i = 0; i < ts.time.size(); ++i) {
            c.values.push_back(330.0 + 10.0 * static_cast<double>(j) +
                               std::sin(static_cast<double>(i)));
        }
    }
    ts.arrays.push_back(a);
    makeHdf5Writer()->write(r, out / "a.h5");

    const Report back = loadReportFile(out / "a.h5");
    ASSERT_EQ(back.timeseries.channels.size(), ts.channels.size());
    for (const Channel& c : ts.channels) {
        const Channel* b = back.timeseries.find(c.group, c.name);
        ASSERT_NE(b, nullptr) << c.group << "/" << c.name;
        EXPECT_EQ(b->values, c.values) << c.group << "/" << c.name;
    }
    ASSERT_EQ(back.timeseries.arrays.size(), 1u);
    const ChannelArray& ba = back.timeseries.arrays.front();
    EXPECT_EQ(ba.dimension, "rack_group");
    EXPECT_EQ(ba.labels, a.labels);
    ASSERT_EQ(ba.coordinates.size(), 2u);
    EXPECT_EQ(std::get<std::vector<std::int64_t>>(ba.coordinates[0].values),
              (std::vector<std::int64_t>{40, 24}));
    EXPECT_EQ(std::get<std::vector<std::string>>(ba.coordinates[1].values),
              (std::vector<std::string>{"pretrain", "chat"}));

    makeHdf5Writer()->write(back, out / "b.h5");
    EXPECT_EQ(hdf5::readDataset(out / "b.h5", "/timeseries/racks/junction_temp"),
              hdf5::readDataset(out / "a.h5", "/timeseries/racks/junction_temp"));
    EXPECT_FALSE(hdf5::exists(out / "b.h5", "/timeseries/racks/g0_train"));
}

TEST(MainWindow, OpenSaveAndValidationErrorsShowTheirText) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const fs::path out(dir.path().toStdString());
    MainWindow w;
    Json s = Json::parse(R"({"name": "validate me", "site": {}, "it": {}, "cooling": {},
                             "study": {"kind": "yearly", "days": 1}})");
    w.setScenario(s, out);
    EXPECT_FALSE(w.isModified());
    EXPECT_FALSE(w.validateScenario());
    EXPECT_TRUE(w.messagesText().contains(QStringLiteral("/study/kind")))
        << w.messagesText().toStdString();
    // The tree lands on the value to fix.
    EXPECT_EQ(w.scenarioModel()->jsonPointer(w.tree()->currentIndex()),
              QStringLiteral("/study/kind"));

    ASSERT_TRUE(w.scenarioModel()->setValue("/study/kind", "annual"));
    EXPECT_TRUE(w.isModified());
    ASSERT_TRUE(w.saveScenario(out / "s.json"));
    EXPECT_FALSE(w.isModified());
    MainWindow w2;
    ASSERT_TRUE(w2.openScenario(out / "s.json"));
    EXPECT_EQ(w2.scenarioModel()->toJson()["study"]["kind"], "annual");
    EXPECT_EQ(w2.scenarioModel()->toJson(), w.scenarioModel()->toJson());

    EXPECT_FALSE(w2.openScenario(out / "nope.json"));
    EXPECT_TRUE(w2.messagesText().contains(QStringLiteral("nope.json")));
    std::ofstream(out / "broken.json") << "{\"name\": ";
    EXPECT_FALSE(w2.openScenario(out / "broken.json"));
    EXPECT_TRUE(w2.messagesText().contains(QStringLiteral("broken.json")));
    EXPECT_FALSE(w2.saveScenario(out / "no-such-dir" / "s.json"));
    EXPECT_TRUE(w2.messagesText().contains(QStringLiteral("no-such-dir")));
}

fs::path sourceDir() { return fs::path(DCTWIN_SOURCE_DIR); }

void writeJson(const fs::path& f, const Json& j) { std::ofstream(f) << j.dump(2); }

// The reference site as a short transient: complete for the loader, quick to fake.
Json shortSite() {
    Json j = readJsonFile(sourceDir() / "scenarios/azure_gb300_64.json");
    j.erase("$schema");
    j["study"] = {{"kind", "transient"}, {"hours", 1}, {"output_interval_s", 60}};
    return j;
}

bool waitFor(QSignalSpy& spy, int ms = 60000) { return spy.count() > 0 || spy.wait(ms); }

TEST(MainWindow, OpeningAnotherFileResetsTheFormAndClearsResults) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const fs::path out(dir.path().toStdString());
    Json a = shortSite();
    a["cooling"]["cdu"]["racks_per_cdu"] = 4;
    a["cooling"]["tcs_supply_temp_C"] = 40;
    Json b = shortSite();
    b["cooling"].erase("tcs_supply_temp_C");
    b["cooling"]["cdu"].erase("racks_per_cdu");
    writeJson(out / "a.json", a);
    writeJson(out / "b.json", b);
    MainWindow w;
    ASSERT_TRUE(w.openScenario(out / "a.json"));
    EXPECT_EQ(w.form()->lineEdit(ScenarioForm::RacksPerCdu)->text(), QStringLiteral("4"));
    w.showReport(syntheticReport());
    ASSERT_TRUE(w.results()->report());
    ASSERT_TRUE(w.openScenario(out / "b.json"));
    EXPECT_EQ(w.form()->lineEdit(ScenarioForm::RacksPerCdu)->text(), QString());
    EXPECT_EQ(w.form()->lineEdit(ScenarioForm::SupplyTemp)->text(), QString());
    EXPECT_EQ(w.scenarioModel()->toJson(), b);  // what runs is what the file says
    EXPECT_EQ(w.results()->report(), nullptr);
    EXPECT_EQ(w.results()->charts(ResultsView::PowerTab).front()->seriesCount(), 0);
    EXPECT_TRUE(w.resultsSource().contains(QStringLiteral("No results")));
}

TEST(MainWindow, TheFirstScreenSaysWhereToStart) {
    // Opened without a file, the app shows an empty form and empty charts; their note said
    // "run the scenario or open a report" with no scenario to run. It names the templates.
    MainWindow w;
    bool said = false;
    for (const QLabel* l : w.results()->findChildren<QLabel*>()) {
        if (l->text().startsWith(QStringLiteral("No results yet"))) {
            EXPECT_TRUE(l->text().contains(QStringLiteral("File ▸ New from template")))
                << l->text().toStdString();
            said = true;
        }
    }
    EXPECT_TRUE(said);
}

TEST(MainWindow, InvalidFormInputBlocksRunAndSave) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const fs::path out(dir.path().toStdString());
    bool ran = false;
    auto* rc = new RunController([&](const facility::ScenarioSpec&, const facility::RunControl&) {
        ran = true;
        return facility::RunOutcome{};
    });
    MainWindow w(nullptr, rc);
    w.setScenario(shortSite(), sourceDir() / "scenarios");
    // Typed but not confirmed with Return: Run still checks it.
    w.form()->lineEdit(ScenarioForm::SupplyTemp)->setText(QStringLiteral("100"));
    EXPECT_FALSE(w.startRun());
    EXPECT_FALSE(rc->isRunning());
    EXPECT_TRUE(w.messagesText().contains(QStringLiteral("15 to 50 °C")))
        << w.messagesText().toStdString();
    EXPECT_EQ(w.scenarioModel()->toJson()["cooling"]["tcs_supply_temp_C"], 35);
    EXPECT_EQ(w.scenarioModel()->jsonPointer(w.tree()->currentIndex()),
              QStringLiteral("/cooling/tcs_supply_temp_C"));
    EXPECT_FALSE(w.saveScenario(out / "s.json"));
    EXPECT_FALSE(fs::exists(out / "s.json"));
    EXPECT_FALSE(w.validateScenario());
    rc->wait();
    EXPECT_FALSE(ran);
}

TEST(MainWindow, FailedAndCancelledRunsClearTheResults) {
    std::atomic<bool> cancel_next{false};
    auto* rc = new RunController([&](const facility::ScenarioSpec&, const facility::RunControl& c) {
        if (!cancel_next) throw InputError("/cooling/tcs_supply_temp_C: the plant cannot hold it");
        while (!c.cancel->load()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
        throw CancelledError("cancelled");
        return facility::RunOutcome{};
    });
    MainWindow w(nullptr, rc);
    w.setScenario(shortSite(), sourceDir() / "scenarios");
    w.showReport(syntheticReport());
    QSignalSpy failed(rc, &RunController::failed);
    ASSERT_TRUE(w.startRun());
    ASSERT_TRUE(waitFor(failed));
    EXPECT_EQ(w.results()->report(), nullptr);
    EXPECT_TRUE(w.resultsSource().contains(QStringLiteral("failed")));
    EXPECT_TRUE(w.resultsSource().contains(QStringLiteral("Azure GB300")));

    w.showReport(syntheticReport());
    cancel_next = true;
    QSignalSpy cancelled(rc, &RunController::cancelled);
    ASSERT_TRUE(w.startRun());
    w.cancelRun();
    ASSERT_TRUE(waitFor(cancelled));
    EXPECT_EQ(w.results()->report(), nullptr);
    EXPECT_TRUE(w.resultsSource().contains(QStringLiteral("cancelled")));
}

TEST(MainWindow, ResultsSayWhichRunTheyCameFrom) {
    auto* rc = new RunController([](const facility::ScenarioSpec& s, const facility::RunControl&) {
        facility::RunOutcome o;
        o.report.attributes["scenario_name"] = s.name;
        o.report.timeseries.time = {0.0, 1800.0, 3600.0};
        o.report.timeseries.addChannel("power", "it_power", "W").values = {1e6, 1.1e6, 1.2e6};
        return o;
    });
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const fs::path file = fs::path(dir.path().toStdString()) / "short.json";
    writeJson(file, shortSite());
    MainWindow w(nullptr, rc);
    ASSERT_TRUE(w.openScenario(file));
    QSignalSpy finished(rc, &RunController::finished);
    ASSERT_TRUE(w.startRun());
    ASSERT_TRUE(waitFor(finished));
    EXPECT_NE(w.results()->report(), nullptr);
    EXPECT_TRUE(w.resultsSource().contains(QStringLiteral("Azure GB300 NVL72 cluster, 64 racks")));
    EXPECT_TRUE(w.resultsSource().contains(QStringLiteral("short.json")));
    // An edit after the run: the results stay, labelled as older than the scenario.
    ASSERT_TRUE(w.scenarioModel()->setValue("/cooling/tcs_supply_temp_C", 30));
    EXPECT_TRUE(w.resultsSource().contains(QStringLiteral("edited since")));
}

TEST(MainWindow, SweepFileRunsEveryCaseAndPlotsThem) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const fs::path out(dir.path().toStdString());
    // Two short cases of the reference site (a sweep's base is relative to the sweep file).
    const Json sweep = {
        {"name", "gui sweep"},
        {"base", (sourceDir() / "scenarios/azure_gb300_64.json").string()},
        {"set",
         {{"/study/days", 1},
          {"/study/output_interval_s", 3600},
          {"/cooling/heat_rejection/accept_setpoint_exceedance", true}}},
        {"vary", {{"/cooling/heat_rejection/type", {"dry_cooler", "cooling_tower"}}}}};
    writeJson(out / "sweep.json", sweep);
    MainWindow w;
    w.showReport(syntheticReport());
    ASSERT_TRUE(w.openScenario(out / "sweep.json"));
    EXPECT_TRUE(w.isSweep());
    EXPECT_EQ(w.results()->report(), nullptr);
    QSignalSpy done(w.runController(), &RunController::sweepFinished);
    QSignalSpy failed(w.runController(), &RunController::failed);
    ASSERT_TRUE(w.startRun());
    ASSERT_TRUE(waitFor(done, 300000)) << w.messagesText().toStdString();
    EXPECT_EQ(failed.count(), 0);
    ResultsView* rv = w.results();
    EXPECT_TRUE(rv->isTabVisible(ResultsView::SweepTab));
    SizingTableModel* t = rv->sweepModel();
    ASSERT_EQ(t->rowCount(), 2);
    int pue_column = -1;
    for (int c = 0; c < t->columnCount(); ++c) {
        if (t->table().columns[static_cast<std::size_t>(c)].name == "pue") pue_column = c;
    }
    ASSERT_GE(pue_column, 0);
    for (int r = 0; r < 2; ++r) {
        const double pue = t->data(t->index(r, pue_column), Qt::UserRole).toDouble();
        EXPECT_GT(pue, 1.0) << r;
        EXPECT_LT(pue, 2.0) << r;
        EXPECT_TRUE(t->data(t->index(r, t->columnCount() - 1)).toString().isEmpty());
    }
    EXPECT_EQ(rv->charts(ResultsView::SweepTab).front()->seriesCount(), 2);
    EXPECT_TRUE(fs::exists(w.sweepOutputDir() / "sweep_summary.csv"));
    EXPECT_TRUE(w.resultsSource().contains(QStringLiteral("sweep.json")));
}

TEST(ResultsView, AnEnsembleShowsItsPercentilesAndASweepDoesNot) {
    // The CLI printed an ensemble's P10/P50/P90 and wrote sweep_percentiles.csv; the app's
    // Sweep tab showed the cases only. Figures of the shipped weather ensemble (facility
    // energy over five climates).
    facility::SweepResult sweep;
    sweep.cases = sweep.succeeded = 2;
    sweep.summaries = {Json{{"case", "a"}, {"pue", 1.08}, {"wue_L_per_kWh", 0.01}},
                       Json{{"case", "b"}, {"pue", 1.12}, {"wue_L_per_kWh", 0.5}}};
    sweep.percentiles = {
        {"air_side_energy_MWh", "MWh", 5, 978.3, 1430.9, 2731.9, 891.4, 1750.3, 3018.5},
        {"facility_energy_MWh", "MWh", 5, 77140.4, 77699.7, 79705.5, 76989.7, 78011.3, 80165.7},
        {"max_gpu_junction_C", "C", 5, 76.02, 76.02, 79.12, 76.0, 77.1, 80.8}};
    ResultsView rv;
    rv.resize(1280, 800);
    rv.show();
    rv.setSweep(sweep);
    QApplication::processEvents();
    SizingTableModel* p = rv.percentilesModel();
    ASSERT_EQ(p->rowCount(), 3);
    EXPECT_FALSE(rv.percentilesView()->isHidden());  // on the Sweep tab, if not the current
    const auto column = [&](const char* name) {
        for (int c = 0; c < p->columnCount(); ++c) {
            if (p->table().columns[static_cast<std::size_t>(c)].name == name) return c;
        }
        ADD_FAILURE() << name;
        return 0;
    };
    // In words, with each row's unit, the P50 as given (rounded for display only). The cases
    // table's metrics come first in its order (facility energy before the junction), the
    // rest after them (the air side, first by name).
    EXPECT_EQ(p->data(p->index(0, column("metric"))).toString().toStdString(),
              display::readableName("facility_energy_MWh", "MWh"));
    EXPECT_DOUBLE_EQ(p->data(p->index(0, column("P50")), Qt::UserRole).toDouble(), 77699.7);
    EXPECT_EQ(p->data(p->index(0, column("P50"))).toString(), QStringLiteral("77,700"));
    EXPECT_EQ(p->data(p->index(1, column("P90"))).toString(), QStringLiteral("79.12"));
    EXPECT_EQ(p->data(p->index(1, column("unit"))).toString(), QStringLiteral("°C"));
    EXPECT_EQ(p->data(p->index(2, column("metric"))).toString().toStdString(),
              display::readableName("air_side_energy_MWh", "MWh"));
    EXPECT_EQ(p->headerData(column("P10"), Qt::Horizontal).toString(), QStringLiteral("P10"));
    // A sweep that is no ensemble has none, and the view goes.
    sweep.percentiles.clear();
    rv.setSweep(sweep);
    EXPECT_EQ(p->rowCount(), 0);
    EXPECT_TRUE(rv.percentilesView()->isHidden());
}

TEST(ResultsView, TheSweepTableSaysWhatACaseDidNotHold) {
    // A case's PUE read alike whether its plant held its setpoints or ran hot (the climate
    // sweep's Phoenix dry coolers: PUE 1.1392, 2,866 h above the facility setpoint). Each row
    // now says what it did not hold, in the single run's words; a case that held says nothing.
    facility::SweepResult sweep;
    sweep.cases = sweep.succeeded = 2;
    sweep.summaries = {Json{{"case", "dry"},
                            {"pue", 1.1392},
                            {"wue_L_per_kWh", 0.0},
                            {"fws_hours_above_setpoint_h", 2866.24},
                            {"fws_max_excess_K", 15.27},
                            {"gpu_throttle_hours_h", 79.33}},
                       Json{{"case", "tower"},
                            {"pue", 1.1059},
                            {"wue_L_per_kWh", 1.381},
                            {"fws_hours_above_setpoint_h", 0.0}}};
    ResultsView rv;
    rv.setSweep(sweep);
    SizingTableModel* t = rv.sweepModel();
    int col = -1;
    for (int c = 0; c < t->columnCount(); ++c) {
        if (t->table().columns[static_cast<std::size_t>(c)].name == "not held") col = c;
    }
    ASSERT_GE(col, 0);
    EXPECT_EQ(t->data(t->index(0, col)).toString().toStdString(),
              "facility supply above its setpoint for 2866.2 h (up to 15.3 K); GPUs at their "
              "throttle temperature for 79.3 h");
    EXPECT_TRUE(t->data(t->index(1, col)).toString().isEmpty());
}

TEST(MainWindow, ASweepsLongKeysLeaveItsValuesInView) {
    // A sweep's tree holds JSON pointers as keys; the key column, sized to the longest
    // ("/cooling/heat_rejection/accept_setpoint_exceedance"), took the whole tree at
    // 1280×800 and the values (the base scenario's name, the varied weather) were off screen.
    MainWindow w;
    w.resize(1280, 800);
    w.show();
    ASSERT_TRUE(w.openScenario(sourceDir() / "scenarios/sweep_heat_rejection_climate.json"));
    w.tree()->expandAll();
    QApplication::processEvents();
    QHeaderView* h = w.tree()->header();
    const int value_x = h->sectionViewportPosition(ScenarioTreeModel::ValueColumn);
    EXPECT_LE(h->sectionSize(ScenarioTreeModel::KeyColumn), 200);
    EXPECT_LT(value_x + 60, w.tree()->viewport()->width())
        << "value column at " << value_x << " of " << w.tree()->viewport()->width();
}

TEST(MainWindow, SaveNeverTargetsAShippedScenario) {
    const fs::path shipped = sourceDir() / "scenarios/azure_gb300_64.json";
    ASSERT_TRUE(MainWindow::isShippedScenario(shipped));
    std::ifstream in(shipped);
    const std::string before((std::istreambuf_iterator<char>(in)), {});
    MainWindow w;
    ASSERT_TRUE(w.openScenario(shipped));
    const fs::path proposal = w.defaultSaveAsPath();
    EXPECT_FALSE(MainWindow::isShippedScenario(proposal)) << proposal;
    EXPECT_NE(proposal.filename(), shipped.filename());
    ASSERT_TRUE(w.scenarioModel()->setValue("/cooling/tcs_supply_temp_C", 30));
    EXPECT_FALSE(w.saveScenario(shipped));  // what Ctrl+S would do
    EXPECT_TRUE(w.messagesText().contains(QStringLiteral("shipped scenario")));
    std::ifstream again(shipped);
    EXPECT_EQ(std::string((std::istreambuf_iterator<char>(again)), {}), before);
    EXPECT_TRUE(w.isModified());
}

// A year at 10-minute output, as the reference annual run writes it.
std::shared_ptr<const Report> yearReport() {
    auto r = std::make_shared<Report>();
    ResultSet& ts = r->timeseries;
    ts.start_iso8601 = "2026-01-01T00:00:00";
    for (int i = 0; i <= 365 * 144; ++i) ts.time.push_back(i * 600.0);
    const auto fill = [&](const char* g, const char* n, const char* u, auto f) {
        Channel& c = ts.addChannel(g, n, u);
        for (double t : ts.time) c.values.push_back(f(t));
    };
    const auto daily = [](double t) { return std::sin(2.0 * M_PI * t / 86400.0); };
    fill("power", "it_power", "W", [&](double t) { return 7.0e6 + 1.0e6 * daily(t); });
    fill("power", "cooling_power", "W", [&](double t) { return 0.6e6 + 0.2e6 * daily(t); });
    fill("power", "electrical_losses", "W", [](double) { return 0.4e6; });
    fill("power", "facility_power", "W", [&](double t) { return 8.15e6 + 1.2e6 * daily(t); });
    fill("cooling", "tcs_supply_temp", "K", [](double) { return 308.15; });
    fill("cooling", "tcs_return_temp", "K", [](double) { return 318.15; });
    fill("cooling", "fws_supply_temp", "K", [](double) { return 305.15; });
    fill("cooling", "fws_return_temp", "K", [](double) { return 315.15; });
    fill("cooling", "max_gpu_junction_temp", "K", [&](double t) { return 348.0 + 3.0 * daily(t); });
    fill("cooling", "max_gpu_plate_temp", "K", [&](double t) { return 333.0 + 3.0 * daily(t); });
    fill("weather", "dry_bulb", "K", [&](double t) { return 275.0 + 5.0 * daily(t); });
    fill("weather", "wet_bulb", "K", [&](double t) { return 272.0 + 4.0 * daily(t); });
    fill("cooling", "heat_to_liquid", "W", [&](double t) { return 6.3e6 + 0.9e6 * daily(t); });
    fill("cooling", "cdu_pump_power", "W", [](double) { return 0.12e6; });
    fill("cooling", "heat_rejection_fan_power", "W", [](double) { return 0.18e6; });
    return r;
}

TEST(MainWindow, ChartsOfAYearAreReducedColouredAndDated) {
    MainWindow w;
    const auto year = yearReport();
    ASSERT_EQ(year->timeseries.time.size(), 52561u);
    w.showReport(year);
    ChartPanel* power = w.results()->charts(ResultsView::PowerTab).front();
    // 52,561 samples per layer are drawn as 2,000 bucket means, not a solid band.
    for (const QString& n : power->seriesNames()) {
        EXPECT_GT(power->pointCount(n), 0) << n.toStdString();
        EXPECT_LE(power->pointCount(n), 2000) << n.toStdString();
    }
    EXPECT_NEAR(power->meanBucketSeconds(), 365.0 * 86400.0 / 2000.0, 1.0);
    EXPECT_TRUE(power->hasCalendarAxis());
    // Twelve months, twelve bars (equal category labels would be merged into one).
    EXPECT_EQ(w.results()->charts(ResultsView::SummaryTab)[1]->categories().size(), 12);
    // Seven temperatures, seven colours (TCS supply and the outdoor dry bulb were both blue).
    ChartPanel* temps = w.results()->charts(ResultsView::CoolingTab)[0];
    const QList<QColor> colours = temps->seriesColours();
    ASSERT_EQ(colours.size(), 8);
    for (int i = 0; i < colours.size(); ++i) {
        for (int j = i + 1; j < colours.size(); ++j) {
            EXPECT_NE(colours[i], colours[j]) << temps->seriesNames()[i].toStdString() << " / "
                                              << temps->seriesNames()[j].toStdString();
        }
    }
    EXPECT_FALSE(temps->hasRightAxis());  // all °C, one axis
    // MW of heat on the left, kW of pumps and fans on their own axis.
    ChartPanel* heat = w.results()->charts(ResultsView::CoolingTab)[1];
    EXPECT_TRUE(heat->hasRightAxis());
    EXPECT_EQ(heat->rightUnit(), QStringLiteral("kW"));
    // A short study keeps hours on a numeric axis.
    MainWindow w2;
    w2.showReport(syntheticReport());
    EXPECT_TRUE(w2.results()->charts(ResultsView::PowerTab).front()->hasCalendarAxis());
    auto hour = std::make_shared<Report>(*syntheticReport());
    hour->timeseries.time.resize(2);
    for (Channel& c : hour->timeseries.channels) c.values.resize(2);
    w2.showReport(hour);
    EXPECT_FALSE(w2.results()->charts(ResultsView::PowerTab).front()->hasCalendarAxis());
}

TEST(MainWindow, PowerChartOfAYearZoomsToRawSamplesAndHasALoadDurationCurve) {
    MainWindow w;
    w.showReport(yearReport());
    ChartPanel* power = w.results()->charts(ResultsView::PowerTab)[0];
    ASSERT_TRUE(power->isZoomable());
    EXPECT_EQ(power->pointCount(QStringLiteral("IT power")), 2000);
    // 3 Mar 2026 is day 61 of the year: zoomed to it, every 10-minute sample is drawn.
    power->zoomX(61 * 86400.0, 62 * 86400.0);
    EXPECT_EQ(power->meanBucketSeconds(), 0.0);
    const std::vector<QPointF> day = power->drawnPoints(QStringLiteral("IT power"));
    ASSERT_EQ(day.size(), 147u);  // 145 in the day and one beyond each edge
    EXPECT_NEAR(day[7].y(), 7.0 + std::sin(2.0 * M_PI * 1.0 / 24.0), 1e-9);  // 01:00, in MW

    // The load-duration curve: IT and facility power, highest first, over 8,760 h. IT power is
    // 7 + sin MW, so its curve starts at 8 MW and ends at 6 MW, and it is above 7.5 MW for a
    // third of the time (sin > 0.5 for 1/3 of each day): 2,920 h.
    ChartPanel* ldc = w.results()->charts(ResultsView::PowerTab)[1];
    EXPECT_EQ(ldc->seriesNames(), (QStringList{"IT power", "facility power"}));
    const std::vector<QPointF> it = ldc->drawnPoints(QStringLiteral("IT power"));
    ASSERT_FALSE(it.empty());
    EXPECT_NEAR(it.front().y(), 8.0, 1e-6);
    EXPECT_NEAR(it.back().y(), 6.0, 1e-6);
    EXPECT_NEAR(it.back().x(), 8760.0, 1e-6);
    for (std::size_t i = 1; i < it.size(); ++i) EXPECT_LE(it[i].y(), it[i - 1].y());
    const auto above =
        std::find_if(it.begin(), it.end(), [](const QPointF& q) { return q.y() < 7.5; });
    ASSERT_NE(above, it.end());
    EXPECT_NEAR(above->x(), 8760.0 / 3.0, 10.0);  // within the decimation's bucket of ~4.4 h
    // Drawn in the quantity's colours of the power chart: IT as its layer, facility in grey.
    EXPECT_EQ(ldc->seriesColours()[0], ChartPanel::stackColour(0));
    EXPECT_EQ(ldc->seriesColours()[1], ChartPanel::totalLineColour());
}

TEST(MainWindow, ResultsTabsAreChosenByTitle) {
    MainWindow w;
    EXPECT_FALSE(w.showResultsTab(QStringLiteral("Design")));  // no report: hidden
    w.showReport(syntheticReport());
    ASSERT_TRUE(w.showResultsTab(QStringLiteral("design")));
    EXPECT_EQ(w.results()->currentIndex(), ResultsView::DesignTab);
    ASSERT_TRUE(w.showResultsTab(QStringLiteral("Cooling")));
    EXPECT_EQ(w.results()->currentIndex(), ResultsView::CoolingTab);
    EXPECT_FALSE(w.showResultsTab(QStringLiteral("Sweep")));  // only after a sweep
    EXPECT_FALSE(w.showResultsTab(QStringLiteral("nope")));
    EXPECT_EQ(w.results()->currentIndex(), ResultsView::CoolingTab);
    EXPECT_EQ(w.resultsTabTitles(),
              (QStringList{"Power", "Cooling", "Water", "Summary", "Design"}));
}

TEST(MainWindow, DesignTabShowsTheSizingChecks) {
    // Issue 15: the figures the sizing checks against a limit (sizing/power_checks) are on the
    // Design page beside the schematic, row for row, and go with the report.
    auto report = std::make_shared<Report>(*syntheticReport());
    Table checks;
    checks.path = "sizing/power_checks";
    checks.addText("item", {"lv_main_fault_current", "ups_autonomy_failure"});
    checks.addNumbers("value", "", {57.97, 6.03});
    checks.addText("unit", {"kA", "min"});
    checks.addText("relation", {"<=", ">="});
    checks.addNumbers("limit", "", {150.0, 0.5});
    checks.addText("basis", {"S/(sqrt3 V Z)", "5 min / 82.9 %"});
    report->tables.push_back(checks);
    MainWindow w;
    w.resize(1280, 800);
    w.show();
    w.showReport(report);
    ResultsView* rv = w.results();
    ASSERT_TRUE(w.showResultsTab(QStringLiteral("Design")));
    QApplication::processEvents();
    SizingTableModel* m = rv->powerChecksModel();
    ASSERT_EQ(m->rowCount(), 2);
    ASSERT_EQ(m->columnCount(), 6);
    EXPECT_EQ(m->data(m->index(0, 0)).toString(), QStringLiteral("lv_main_fault_current"));
    EXPECT_EQ(m->data(m->index(1, 3)).toString(), QStringLiteral(">="));
    EXPECT_TRUE(m->data(m->index(0, 1)).toString().startsWith(QStringLiteral("57.97")))
        << m->data(m->index(0, 1)).toString().toStdString();
    // Its view is on the Design page and visible there.
    QTableView* view = nullptr;
    for (QTableView* v : rv->widget(ResultsView::DesignTab)->findChildren<QTableView*>()) {
        if (v->model() == m) view = v;
    }
    ASSERT_NE(view, nullptr);
    EXPECT_TRUE(view->isVisible());
    EXPECT_GT(view->height(), 60);
    // A report without checks leaves the table empty.
    w.showReport(syntheticReport());
    EXPECT_EQ(m->rowCount(), 0);
}

TEST(MainWindow, AReportFileKeepsItsEventLogAndJobTables) {
    // Opening a contingency's report from its file lost /contingency/event_log and
    // /study/jobs (the loader read /sizing only); a run in the app showed them.
    QTemporaryDir dir;
    const fs::path file = fs::path(dir.path().toStdString()) / "c.h5";
    Report r = *syntheticReport();
    Table log;
    log.path = "contingency/event_log";
    log.addNumbers("t_s", "s", {60.0, 105.0});
    log.addText("event", {"utility lost; UPS on battery", "air side running"});
    log.addText("source", {"event", "plan"});
    Table jobs;
    jobs.path = "study/jobs";
    jobs.addText("job", {"pretrain"});
    jobs.addNumbers("gpus", "1", {4608});
    r.tables.push_back(log);
    r.tables.push_back(jobs);
    makeHdf5Writer()->write(r, file);
    const Report back = loadReportFile(file);
    const Table* l = findTable(back.tables, "contingency/event_log");
    ASSERT_NE(l, nullptr);
    EXPECT_EQ(std::get<std::vector<std::string>>(l->columns[1].data)[1], "air side running");
    EXPECT_EQ(std::get<std::vector<double>>(l->columns[0].data)[0], 60.0);
    ASSERT_NE(findTable(back.tables, "study/jobs"), nullptr);
    EXPECT_EQ(back.tables.size(), r.tables.size());
}

TEST(MainWindow, ACampusReportSetsItsHallsSideBySide) {
    // A campus of halls showed only campus totals and the campus's warmest plant; each hall's
    // series and metrics were in the report only. Two halls on the synthetic report: A's
    // liquid cooling 10 + 20 + 30 + 40 kW, B's 1 + 2 + 3 + 4 kW.
    auto r = std::make_shared<Report>(*syntheticReport());
    ResultSet& ts = r->timeseries;
    const auto constant = [&](const std::string& hall, const char* n, const char* u, double v) {
        ts.addChannel("halls/" + hall, n, u).values.assign(ts.time.size(), v);
    };
    const double k = 1e3;
    for (const auto& [hall, scale] : {std::pair{std::string("A"), 10.0}, {std::string("B"), 1.0}}) {
        constant(hall, "fws_supply_temp", "K", 304.15);
        constant(hall, "tcs_supply_temp_max", "K", 308.15);
        constant(hall, "max_gpu_junction_temp", "K", 349.15);
        constant(hall, "setpoint_unmet", "K", 0.0);  // a difference: not on the °C axis
        constant(hall, "it_power", "W", 4.3e6);
        constant(hall, "cdu_pump_power", "W", 1 * scale * k);
        constant(hall, "fws_pump_power", "W", 2 * scale * k);
        constant(hall, "heat_rejection_fan_power", "W", 3 * scale * k);
        constant(hall, "chiller_power", "W", 4 * scale * k);
        constant(hall, "water_total", "m3", 100.0);
    }
    // The campus's own facility supply is the warmest hall's (facility/study.cpp names it so).
    for (Channel& c : ts.channels) {
        if (c.group == "cooling" && c.name == "fws_supply_temp") {
            c.description = "facility supply of the warmest hall";
        }
    }
    r->summary.push_back({"hall_A_it_energy_MWh", 36933.6, "MWh"});
    r->summary.push_back({"hall_A_ppue_cooling", 1.0093, "1"});
    r->summary.push_back({"hall_B_it_energy_MWh", 30755.3, "MWh"});
    r->summary.push_back({"hall_B_ppue_cooling", 1.0048, "1"});
    MainWindow w;
    w.showReport(r);
    ResultsView* rv = w.results();
    ASSERT_TRUE(rv->isTabVisible(ResultsView::HallsTab));
    EXPECT_EQ(rv->tabText(ResultsView::HallsTab), QStringLiteral("Halls"));
    // One row a hall; the partial PUEs apart at four decimals (two read 1.01 and 1.00).
    SizingTableModel* t = rv->hallsModel();
    ASSERT_EQ(t->rowCount(), 2);
    EXPECT_EQ(t->data(t->index(1, 0)).toString(), QStringLiteral("B"));
    EXPECT_EQ(t->data(t->index(0, 1)).toString(), QStringLiteral("36,934"));
    EXPECT_EQ(t->data(t->index(0, 3)).toString(), QStringLiteral("1.0093"));
    EXPECT_EQ(t->data(t->index(1, 3)).toString(), QStringLiteral("1.0048"));
    EXPECT_EQ(t->headerData(1, Qt::Horizontal).toString(), QStringLiteral("IT energy [MWh]"));
    const QList<ChartPanel*> charts = rv->charts(ResultsView::HallsTab);
    ASSERT_EQ(charts.size(), 3);
    EXPECT_EQ(charts[0]->seriesNames(),
              (QStringList{"FWS supply · A", "TCS supply (max) · A", "GPU junction (peak) · A",
                           "FWS supply · B", "TCS supply (max) · B", "GPU junction (peak) · B"}));
    // IT on the left in MW; the cooling sums by hand, on the right in kW (20x smaller).
    EXPECT_EQ(charts[1]->seriesNames(),
              (QStringList{"IT power · A", "IT power · B", "cooling · A", "cooling · B"}));
    EXPECT_NEAR(charts[1]->drawnPoints(QStringLiteral("cooling · A")).front().y(), 100.0, 1e-9);
    EXPECT_NEAR(charts[1]->drawnPoints(QStringLiteral("cooling · B")).front().y(), 10.0, 1e-9);
    EXPECT_EQ(charts[2]->seriesCount(), 2);
    const QStringList cooling = rv->charts(ResultsView::CoolingTab).front()->seriesNames();
    EXPECT_TRUE(cooling.contains(QStringLiteral("FWS supply (warmest hall)")))
        << cooling.join(", ").toStdString();
    EXPECT_FALSE(cooling.contains(QStringLiteral("FWS supply")));
    // Another report without halls hides the tab again.
    w.showReport(syntheticReport());
    EXPECT_FALSE(rv->isTabVisible(ResultsView::HallsTab));
    EXPECT_EQ(rv->hallsModel()->rowCount(), 0);
}

TEST(MainWindow, ABannerSaysWhatThePlantDidNotHold) {
    MainWindow w;
    w.showReport(syntheticReport());  // holds everything (no such metrics)
    EXPECT_TRUE(w.notHeldText().isEmpty());
    auto r = std::make_shared<Report>(*syntheticReport());
    r->summary.push_back({"air_side_unmet_hours_h", 45.0 / 3600, "h"});
    r->summary.push_back({"max_air_side_unmet_kW", 1704.2, "kW"});
    r->summary.push_back({"gpu_throttle_hours_h", 22.0 / 3600, "h"});
    w.showReport(r);
    EXPECT_EQ(w.notHeldText(),
              QStringLiteral("Not held: air side short for 45 s (up to 1704 kW of room heat); "
                             "GPUs at their throttle temperature for 22 s."));
    // Gone with the results.
    w.setScenario(shortSite(), sourceDir() / "scenarios");
    EXPECT_TRUE(w.notHeldText().isEmpty());
}

// A report opened on its own left the editor empty, although the file holds the scenario it
// was run from. File ▸ Edit the report's scenario loads it, resolving its relative paths where
// the run did, so the study can be changed and run again.
TEST(MainWindow, EditingAReportsScenarioLoadsWhatTheRunRead) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const fs::path root(dir.path().toStdString());
    const fs::path site = root / "site";
    const fs::path reports = root / "reports";
    fs::create_directories(site);
    fs::create_directories(reports);
    // The weather beside the scenario under a name only that folder has: resolving it against
    // the report's folder (or the shipped data) fails.
    Json s = shortSite();
    const fs::path epw = sourceDir() / s["site"]["weather"].get<std::string>();
    fs::copy_file(epw, site / "own_weather.epw");
    s["site"]["weather"] = "own_weather.epw";
    s["study"] = {{"kind", "design_point"}};
    s["cooling"]["cdu"]["racks_per_cdu"] = 4;
    writeJson(site / "s.json", s);
    {
        auto* rc = new RunController;
        MainWindow w(nullptr, rc);
        ASSERT_TRUE(w.openScenario(site / "s.json"));
        QSignalSpy finished(rc, &RunController::finished);
        ASSERT_TRUE(w.startRun());
        ASSERT_TRUE(waitFor(finished)) << w.messagesText().toStdString();
        ASSERT_TRUE(w.exportHdf5(reports / "r.h5"));
    }

    MainWindow w;
    EXPECT_FALSE(w.editReportScenario());  // nothing on screen
    EXPECT_TRUE(w.messagesText().contains(QStringLiteral("no report is shown")));
    ASSERT_TRUE(w.openReport(reports / "r.h5"));
    EXPECT_TRUE(w.reportHasScenario());
    EXPECT_TRUE(w.messagesText().contains(QStringLiteral("Edit the report's scenario")));
    ASSERT_TRUE(w.editReportScenario()) << w.messagesText().toStdString();
    EXPECT_EQ(w.scenarioModel()->toJson(), s);
    EXPECT_EQ(w.form()->lineEdit(ScenarioForm::RacksPerCdu)->text(), QStringLiteral("4"));
    EXPECT_TRUE(w.scenarioFile().empty());  // Save never overwrites a file it did not open
    EXPECT_FALSE(w.isModified());
    EXPECT_NE(w.results()->report(), nullptr);  // the report stays: it is this scenario's
    EXPECT_TRUE(w.resultsSource().contains(QStringLiteral("r.h5")));
    EXPECT_EQ(w.defaultSaveAsPath().filename(), fs::path("r_copy.json"));
    EXPECT_TRUE(w.validateScenario()) << w.messagesText().toStdString();

    // The site folder gone (a report sent to a colleague with its weather beside it): the
    // paths resolve against the report's folder instead.
    fs::remove_all(site);
    fs::copy_file(epw, reports / "own_weather.epw");
    MainWindow w2;
    ASSERT_TRUE(w2.openReport(reports / "r.h5"));
    ASSERT_TRUE(w2.editReportScenario());
    EXPECT_TRUE(w2.validateScenario()) << w2.messagesText().toStdString();
    fs::remove(reports / "own_weather.epw");
    EXPECT_FALSE(w2.validateScenario());
    EXPECT_TRUE(w2.messagesText().contains(QStringLiteral("own_weather.epw")));

    // A report without the scenario (another program's) says so.
    MainWindow w3;
    w3.showReport(syntheticReport());
    EXPECT_FALSE(w3.reportHasScenario());
    EXPECT_FALSE(w3.editReportScenario());
    EXPECT_TRUE(w3.messagesText().contains(QStringLiteral("no /scenario/input")));
}

TEST(MainWindow, SizingLoadingColumnsAreVisibleAt1280x800) {
    auto* rc = new RunController;
    MainWindow w(nullptr, rc);
    w.resize(1280, 800);
    w.show();
    Json s = shortSite();
    s["study"] = {{"kind", "design_point"}};
    w.setScenario(s, sourceDir() / "scenarios");
    QSignalSpy finished(rc, &RunController::finished);
    ASSERT_TRUE(w.startRun());
    ASSERT_TRUE(waitFor(finished)) << w.messagesText().toStdString();
    EXPECT_TRUE(w.messagesText().contains(QStringLiteral("no time series")));
    EXPECT_FALSE(w.messagesText().contains(QStringLiteral("0 samples")));
    w.results()->setCurrentIndex(ResultsView::PowerTab);
    QApplication::processEvents();
    QTableView* view = nullptr;
    for (QTableView* v : w.results()->findChildren<QTableView*>()) {
        if (v->model() == w.results()->powerSizingModel()) view = v;
    }
    ASSERT_NE(view, nullptr);
    const int loading = w.results()->powerSizingModel()->loadingColumn();
    ASSERT_GE(loading, 0);
    const QRect cell = view->visualRect(view->model()->index(0, loading));
    EXPECT_TRUE(view->viewport()->rect().contains(cell.center()))
        << "loading column at x=" << cell.x() << " of " << view->viewport()->width();

    // The Design tab's one-line diagram says what the sizing says, block by block, read back
    // from the scene's texts.
    const Table& t = w.results()->powerSizingModel()->table();
    const auto& elements = std::get<std::vector<std::string>>(t.columns[0].data);
    const std::vector<double>* counts = nullptr;
    for (const auto& c : t.columns) {
        if (c.name == "count") counts = std::get_if<std::vector<double>>(&c.data);
    }
    ASSERT_NE(counts, nullptr);
    const QStringList texts = w.results()->oneLineDiagram()->sceneTexts();
    for (std::size_t i = 0; i < elements.size(); ++i) {
        const QString head = QString::fromStdString(elements[i]) + QStringLiteral("  ");
        const QString count = QStringLiteral("\n%1 × ").arg(std::lround((*counts)[i]));
        const bool drawn = std::any_of(texts.begin(), texts.end(), [&](const QString& x) {
            return x.startsWith(head) && x.contains(count);
        });
        EXPECT_TRUE(drawn) << elements[i] << " with " << (*counts)[i] << " units";
    }
    // Today's reference sizing (dctwin size): 12 UPS modules, 8 transformers, 9 CDUs.
    const auto has = [&](const char* head, const char* count) {
        return std::any_of(texts.begin(), texts.end(), [&](const QString& x) {
            return x.startsWith(QString::fromUtf8(head)) && x.contains(QString::fromUtf8(count));
        });
    };
    EXPECT_TRUE(has("ups  ", "\n12 × 1.50 MW"));
    EXPECT_TRUE(has("transformer  ", "\n8 × 2.50 MVA"));
    EXPECT_TRUE(has("cdu  ", "\n9 × "));
}

TEST(MainWindow, SummaryRowsReadWholeAt1280x800) {
    // A metric's description says what it is at its end ("…: share of the variance in
    // 0.1–1 Hz"); cut at the column's edge, twenty rows of a transient's summary read the
    // same. The metric column wraps and takes the width the value and unit leave.
    auto r = std::make_shared<Report>(*syntheticReport());
    const std::string long_text =
        "IT power after smoothing: max − min of its component below 0.1 Hz (job start, "
        "checkpoints, job end; not the iterations)";
    r->summary = {{"pue", 1.1, "1", "power usage effectiveness"},
                  {"it_grid_envelope_swing_MW", 1.12, "MW", long_text}};
    MainWindow w;
    w.resize(1280, 800);
    w.show();
    w.showReport(r);
    w.results()->setCurrentIndex(ResultsView::SummaryTab);
    QApplication::processEvents();
    QTableView* view = nullptr;
    for (QTableView* v : w.results()->findChildren<QTableView*>()) {
        if (v->model() == w.results()->summaryModel()) view = v;
    }
    ASSERT_NE(view, nullptr);
    EXPECT_EQ(view->horizontalScrollBar()->maximum(), 0) << "the summary scrolls sideways";
    const QRect unit = view->visualRect(view->model()->index(1, 2));
    EXPECT_TRUE(view->viewport()->rect().contains(unit.center()))
        << "unit column at x=" << unit.x() << " of " << view->viewport()->width();
    // The long description takes more than one line, the short one does not.
    EXPECT_GT(view->rowHeight(1), 1.5 * view->rowHeight(0));
    const QFontMetrics fm(view->font());
    EXPECT_GT(fm.horizontalAdvance(QString::fromStdString(long_text)), view->columnWidth(0));
}

}  // namespace
}  // namespace dctwin::gui
