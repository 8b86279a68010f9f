// File → Export report as PDF (issue 13): a real run of the reference site, exported through
// MainWindow::exportPdf and checked in the bytes of the PDF (Qt's PDF module, which could
// parse it, is not a dependency): the header, the page objects, and the document title in
// the Info dictionary (content streams are compressed; the Info strings are not).
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QMessageBox>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <filesystem>

#include "core/json.h"
#include "gui/main_window.h"
#include "gui/plot/chart_adapter.h"
#include "gui/results_view.h"
#include "gui/run_controller.h"
#include "gui/table_models.h"

namespace dctwin::gui {
namespace {

namespace fs = std::filesystem;

const fs::path kScenarioDir = fs::path(DCTWIN_SOURCE_DIR) / "scenarios";
const fs::path kScenario = kScenarioDir / "azure_gb300_64.json";
const char* const kName = "pdf export check site";

QByteArray readAll(const fs::path& file) {
    QFile f(QString::fromStdString(file.string()));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Page objects ("/Type /Page"), not the page tree ("/Type /Pages").
int pageObjects(const QByteArray& pdf) {
    int n = 0;
    for (qsizetype at = pdf.indexOf("/Type /Page"); at >= 0;
         at = pdf.indexOf("/Type /Page", at + 1)) {
        const qsizetype next = at + 11;
        if (next >= pdf.size() || pdf[next] != 's') ++n;
    }
    return n;
}

// Qt writes Info strings as UTF-16BE.
QByteArray utf16be(const QString& s) {
    QByteArray out;
    for (QChar c : s) {
        out.append(static_cast<char>(c.unicode() >> 8));
        out.append(static_cast<char>(c.unicode() & 0xff));
    }
    return out;
}

// "Report written to … (N pages)": the count the exporter says it wrote.
int pagesSaid(const QString& messages) {
    static const QRegularExpression re(QStringLiteral("\\((\\d+) pages\\)"));
    QRegularExpressionMatch last;
    for (auto it = re.globalMatch(messages); it.hasNext();) last = it.next();
    return last.hasMatch() ? last.captured(1).toInt() : -1;
}

bool run(MainWindow& w, Json s) {
    s["name"] = kName;
    w.setScenario(s, kScenarioDir);
    QSignalSpy finished(w.runController(), &RunController::finished);
    QSignalSpy failed(w.runController(), &RunController::failed);
    if (!w.startRun()) return false;
    if (!(finished.count() > 0 || finished.wait(300000))) return false;
    return failed.count() == 0;
}

TEST(PdfReport, DesignPointExportHasTitleSummarySizingAndDiagram) {
    ASSERT_TRUE(fs::exists(kScenario)) << kScenario;
    MainWindow w;
    EXPECT_FALSE(w.exportPdfAction()->isEnabled());  // nothing to export yet
    Json s = readJsonFile(kScenario);
    s["study"] = {{"kind", "design_point"}};
    ASSERT_TRUE(run(w, s)) << w.messagesText().toStdString();
    EXPECT_TRUE(w.exportPdfAction()->isEnabled());
    EXPECT_EQ(w.exportPdfAction()->shortcut(), QKeySequence(QKeySequence::Print));

    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const fs::path file = fs::path(dir.path().toStdString()) / "design.pdf";
    ASSERT_TRUE(w.exportPdf(file)) << w.messagesText().toStdString();
    const QByteArray pdf = readAll(file);
    ASSERT_TRUE(pdf.startsWith("%PDF-")) << pdf.left(16).toStdString();
    // Title block and summary; electrical sizing (its 18 columns in three groups, one below
    // the other, onto a second page); cooling sizing; one-line diagram. A design point has no
    // charts and no cooling chain (no sample to show). Six pages: the summary (with the
    // frost line in "not held" on the first page) runs onto a second page.
    EXPECT_EQ(pageObjects(pdf), 6);
    EXPECT_EQ(pagesSaid(w.messagesText()), 6);
    EXPECT_TRUE(pdf.contains(utf16be(QStringLiteral("dctwin report: %1").arg(kName))));
    EXPECT_TRUE(pdf.contains(utf16be(QStringLiteral("dctwin-gui"))));
    // Only the report in the folder: the temporary file was renamed, not left beside it.
    EXPECT_EQ(QDir(dir.path()).entryList(QDir::Files), QStringList{"design.pdf"});

    // What a client reads (poppler's pdftotext, installed by scripts/install-deps.sh): the
    // title, the PUE and the sizing counts the tables hold, on the UPS and CDU rows.
    QProcess p;
    p.start(
        QStringLiteral("pdftotext"),
        {QStringLiteral("-layout"), QString::fromStdString(file.string()), QStringLiteral("-")});
    ASSERT_TRUE(p.waitForFinished(30000))
        << "pdftotext (poppler-utils) did not run: install it with scripts/install-deps.sh";
    ASSERT_EQ(p.exitCode(), 0) << p.readAllStandardError().toStdString();
    const QString text = QString::fromUtf8(p.readAllStandardOutput());
    // No row alone on a page: the summary's last row (the facility loop's freezing point)
    // went over by itself; the widow rule carries the row before it (the site's heating
    // design dry bulb) over with it.
    for (const QString& page : text.split(QChar('\f'))) {
        if (!page.contains(QStringLiteral("Freezing point of the facility loop"))) continue;
        EXPECT_TRUE(page.contains(QStringLiteral("ASHRAE 99.6 % heating dry bulb")))
            << page.toStdString();
    }
    // Nothing elided: the electrical table's 18 columns were squeezed onto one page width, so
    // the models read "static_…" and the headers "redun…".
    EXPECT_FALSE(text.contains(QChar(0x2026))) << text.toStdString();
    for (const char* whole : {"static_1500kw", "liquid_2500kva", "york_ycal0033ee_air_cooled",
                              "design loading [%]", "failure loading [%]", "redundancy",
                              "UPS system 2 lost: system 1 carries 37.5 % of the load"}) {
        EXPECT_TRUE(text.contains(QString::fromUtf8(whole))) << whole;
    }
    EXPECT_TRUE(text.contains(QStringLiteral("dctwin report: %1").arg(kName)))
        << text.left(400).toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("PUE"))) << text.left(2000).toStdString();
    // The summary's descriptions read whole: the longest of the design point's was cut at
    // "…rises above its setpo" while the first column was held to 260 pt.
    EXPECT_TRUE(text.contains(QStringLiteral(
        "How far the facility supply rises above its setpoint in the year's hottest hour at "
        "design heat")))
        << text.left(3000).toStdString();
    // The sizing tables' rows start with the element (the diagram's blocks say it too, but
    // with the model next to it): the UPS row holds 12 modules, the CDU row 9 CDUs.
    auto row = [&](const QString& element) {
        for (const QString& line : text.split('\n')) {
            if (line.startsWith(element + ' ')) return line;
        }
        return QString();
    };
    const QString ups = row(QStringLiteral("ups")), cdu = row(QStringLiteral("cdu"));
    EXPECT_TRUE(QRegularExpression(QStringLiteral("\\s12\\s")).match(ups).hasMatch())
        << ups.toStdString();
    EXPECT_TRUE(QRegularExpression(QStringLiteral("\\s9\\s")).match(cdu).hasMatch())
        << cdu.toStdString();

    // Exporting again replaces the file whole.
    ASSERT_TRUE(w.exportPdf(file));
    EXPECT_EQ(pageObjects(readAll(file)), 6);
    EXPECT_EQ(QDir(dir.path()).entryList(QDir::Files), QStringList{"design.pdf"});
}

TEST(PdfReport, AnnualExportAddsThePowerAndCoolingCharts) {
    ASSERT_TRUE(fs::exists(kScenario)) << kScenario;
    MainWindow w;
    Json s = readJsonFile(kScenario);
    s["study"]["days"] = 1;
    s["study"]["output_interval_s"] = 3600;
    ASSERT_TRUE(run(w, s)) << w.messagesText().toStdString();
    ASSERT_GT(w.results()->report()->timeseries.time.size(), 0u);
    QTemporaryDir dir;
    const fs::path file = fs::path(dir.path().toStdString()) / "annual.pdf";
    ASSERT_TRUE(w.exportPdf(file)) << w.messagesText().toStdString();
    const QByteArray pdf = readAll(file);
    ASSERT_TRUE(pdf.startsWith("%PDF-"));
    const int pages = pageObjects(pdf);
    EXPECT_EQ(pages, pagesSaid(w.messagesText()));
    // Title block and summary (an annual run has more metrics than a design point: they run
    // onto page 2, header repeated); electrical sizing with the power chart under it; cooling
    // sizing with the temperatures; heat and flows side by side; the one-line diagram; the
    // cooling chain. Nine since the electrical table is drawn whole in three column groups
    // (two pages, the power chart on a third).
    EXPECT_EQ(pages, 9);
    EXPECT_GT(pdf.size(), 20000);  // charts drawn as vectors, not an empty page
    // The cooling chain as the Design tab draws it, on the last page.
    QProcess p;
    p.start(QStringLiteral("pdftotext"),
            {QStringLiteral("-f"), QString::number(pages), QStringLiteral("-layout"),
             QString::fromStdString(file.string()), QStringLiteral("-")});
    ASSERT_TRUE(p.waitForFinished(30000)) << "pdftotext (poppler-utils) did not run";
    const QString last = QString::fromUtf8(p.readAllStandardOutput());
    for (const char* want : {"Cooling chain", "supply 35.0 °C", "Heat rejection"}) {
        EXPECT_TRUE(last.contains(QString::fromUtf8(want)))
            << want << " not in " << last.toStdString();
    }

    // The same report from a batch run: `dctwin-gui REPORT.h5 --pdf OUT.pdf`, no window, no
    // display. Titled by the scenario the report holds (a report opened from a file was
    // "unnamed scenario"), the same nine pages.
    const fs::path h5 = fs::path(dir.path().toStdString()) / "annual.h5";
    ASSERT_TRUE(w.exportHdf5(h5)) << w.messagesText().toStdString();
    const QString gui = QStringLiteral(DCTWIN_BINARY_DIR "/gui/dctwin-gui");
    const fs::path batch = fs::path(dir.path().toStdString()) / "batch.pdf";
    // Its settings in a folder of the test's own: a batch export writes none (it added the
    // report to the app's recent files).
    QTemporaryDir config;
    ASSERT_TRUE(config.isValid());
    QProcess b;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), config.path());
    b.setProcessEnvironment(env);
    b.start(gui, {QString::fromStdString(h5.string()), QStringLiteral("--pdf"),
                  QString::fromStdString(batch.string())});
    ASSERT_TRUE(b.waitForFinished(120000)) << "dctwin-gui did not finish";
    EXPECT_TRUE(QDir(config.path()).isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden))
        << "settings written under " << config.path().toStdString() << ": "
        << QDir(config.path())
               .entryList(QDir::AllEntries | QDir::NoDotAndDotDot)
               .join(' ')
               .toStdString();
    const QString said = QString::fromUtf8(b.readAllStandardOutput());
    EXPECT_EQ(b.exitCode(), 0) << b.readAllStandardError().toStdString();
    EXPECT_EQ(said.trimmed(), QStringLiteral("Report written to %1 (9 pages)")
                                  .arg(QString::fromStdString(batch.string())));
    EXPECT_EQ(pageObjects(readAll(batch)), 9);
    QProcess t;
    t.start(QStringLiteral("pdftotext"),
            {QStringLiteral("-l"), QStringLiteral("1"), QString::fromStdString(batch.string()),
             QStringLiteral("-")});
    ASSERT_TRUE(t.waitForFinished(30000));
    const QString first = QString::fromUtf8(t.readAllStandardOutput());
    EXPECT_TRUE(first.contains(QStringLiteral("dctwin report: %1").arg(kName)))
        << first.toStdString();
    EXPECT_TRUE(first.contains(
        QStringLiteral("held in the report %1").arg(QString::fromStdString(h5.string()))))
        << first.toStdString();
    EXPECT_TRUE(first.contains(QStringLiteral("Study: annual, 24.0 h simulated")))
        << first.toStdString();

    // Bad input, exit status 2 with the reason and no file: a report that is not there, a
    // scenario instead of a report.
    for (const QStringList& args :
         {QStringList{dir.filePath(QStringLiteral("missing.h5")), QStringLiteral("--pdf"),
                      dir.filePath(QStringLiteral("x.pdf"))},
          QStringList{QString::fromStdString(kScenario.string()), QStringLiteral("--pdf"),
                      dir.filePath(QStringLiteral("x.pdf"))}}) {
        QProcess bad;
        bad.start(gui, args);
        ASSERT_TRUE(bad.waitForFinished(60000));
        const QString err = QString::fromUtf8(bad.readAllStandardError());
        EXPECT_EQ(bad.exitCode(), 2) << err.toStdString();
        EXPECT_TRUE(err.contains(QStringLiteral("missing.h5': no such file")) ||
                    err.contains(QStringLiteral("--pdf needs exactly one report (.h5)")))
            << err.toStdString();
        EXPECT_FALSE(QFileInfo::exists(dir.filePath(QStringLiteral("x.pdf"))));
    }
}

// The text pdftotext reads (with `options`) from the PDF the app exports of report `r`.
QString exportedText(std::shared_ptr<Report> r, const QStringList& options) {
    MainWindow w;
    w.showReport(std::move(r));
    QTemporaryDir dir;
    const fs::path file = fs::path(dir.path().toStdString()) / "report.pdf";
    EXPECT_TRUE(w.exportPdf(file)) << w.messagesText().toStdString();
    QProcess p;
    p.start(QStringLiteral("pdftotext"),
            options + QStringList{QString::fromStdString(file.string()), QStringLiteral("-")});
    EXPECT_TRUE(p.waitForFinished(30000)) << "pdftotext (poppler-utils) did not run";
    return QString::fromUtf8(p.readAllStandardOutput());
}

TEST(PdfReport, TheFirstPageSaysWhatThePlantDidNotHold) {
    // A report whose run did not hold its air side (as the utility-loss contingency's): the
    // sentence the app's banner shows is on page 1, under the title block.
    auto r = std::make_shared<Report>();
    r->attributes = {{"scenario_name", "not held check"}};
    r->summary = {{"pue", 1.16, "1", "power usage effectiveness"},
                  {"air_side_unmet_hours_h", 45.0 / 3600, "h"},
                  {"max_air_side_unmet_kW", 1704.2, "kW"}};
    const QString first = exportedText(r, {QStringLiteral("-l"), QStringLiteral("1")});
    EXPECT_TRUE(first.contains(
        QStringLiteral("Not held: air side short for 45 s (up to 1704 kW of room heat).")))
        << first.toStdString();
}

TEST(PdfReport, AContingencyPrintsItsEventLog) {
    // The event log was in the app and the CLI, not on paper: on page 1 before the summary
    // metrics (which run over three pages for a contingency), in time order.
    auto r = std::make_shared<Report>();
    r->attributes = {{"scenario_name", "event log check"}};
    r->summary = {{"pue", 1.16, "1", "power usage effectiveness"}};
    Table log;
    log.path = "contingency/event_log";
    log.addNumbers("t_s", "s", {60.0, 70.0, 105.0});
    log.addText("event", {"utility lost; UPS on battery", "7 of 7 generator sets online",
                          "air side running"});
    log.addText("source", {"event", "plan", "plan"});
    r->tables.push_back(log);
    const QString text = exportedText(r, {QStringLiteral("-layout")});
    const qsizetype at = text.indexOf(QStringLiteral("Event log"));
    ASSERT_GE(at, 0) << text.toStdString();
    EXPECT_LT(at, text.indexOf(QStringLiteral("Summary metrics"))) << text.toStdString();
    const QString after = text.mid(at);
    const qsizetype lost = after.indexOf(QStringLiteral("utility lost; UPS on battery"));
    const qsizetype online = after.indexOf(QStringLiteral("7 of 7 generator sets online"));
    const qsizetype air = after.indexOf(QStringLiteral("air side running"));
    EXPECT_GE(lost, 0) << after.toStdString();
    EXPECT_GT(online, lost) << after.toStdString();
    EXPECT_GT(air, online) << after.toStdString();
    EXPECT_TRUE(
        QRegularExpression(QStringLiteral("105\\s+air side running")).match(after).hasMatch())
        << after.toStdString();
}

TEST(PdfReport, ACampusReportHasAPageOfItsHalls) {
    // The Halls tab's table goes into the PDF on a page of its own, after the cooling.
    auto r = std::make_shared<Report>();
    r->attributes = {{"scenario_name", "campus check"}};
    r->summary = {{"pue", 1.0762, "1", "power usage effectiveness"},
                  {"hall_A_it_energy_MWh", 36933.6, "MWh"},
                  {"hall_A_ppue_cooling", 1.0093, "1"},
                  {"hall_A_water_m3", 237.3, "m3"},
                  {"hall_B_it_energy_MWh", 30755.3, "MWh"},
                  {"hall_B_ppue_cooling", 1.0048, "1"},
                  {"hall_B_water_m3", 39407.9, "m3"}};
    // A day of each hall's series, hourly, so the Halls tab draws its three charts.
    ResultSet& rs = r->timeseries;
    for (int i = 0; i <= 24; ++i) rs.time.push_back(3600.0 * i);
    const auto fill = [&](const std::string& g, const char* n, const char* u, double v) {
        rs.addChannel(g, n, u).values.assign(rs.time.size(), v);
    };
    for (const std::string h : {"A", "B"}) {
        const std::string g = "halls/" + h;
        fill(g, "fws_supply_temp", "K", 304.15);
        fill(g, "tcs_supply_temp_max", "K", 308.15);
        fill(g, "max_gpu_junction_temp", "K", 349.0);
        fill(g, "it_power", "W", 4.0e6);
        fill(g, "cdu_pump_power", "W", 30e3);
        rs.addChannel(g, "water_total", "m3").values = rs.time;
    }
    const QString text = exportedText(r, {QStringLiteral("-layout")});
    const qsizetype halls = text.indexOf(QStringLiteral("Halls\n"));
    ASSERT_GE(halls, 0) << text.toStdString();
    // The page, up to pdftotext's form feed: the table and all three charts. The two side by
    // side had a page of their own, two-thirds empty, beside a third of this one unused.
    const QString page = text.mid(halls, text.indexOf(QLatin1Char('\f'), halls) - halls);
    for (const char* want : {"1.0093", "1.0048", "39,408", "36,934", "Temperatures by hall",
                             "IT and liquid-cooling power by hall", "Water used by hall"}) {
        EXPECT_TRUE(page.contains(QString::fromUtf8(want)))
            << want << " not in " << page.toStdString();
    }
}

// What a reader of the PDF sees, not what pdftotext reads: the legend's text objects were
// in the file, but on paper a chart showed its first legend entry only (the legend's clip on
// a PDF painter). A chart of four lines drawn into a PDF, rasterised by poppler's pdftoppm:
// the legend row under the plot must hold a marker of each line's colour.
TEST(PdfReport, AChartOnPaperShowsEveryLegendEntry) {
    ChartPanel chart;
    chart.setTitle(QStringLiteral("legend check"));
    const std::vector<double> x{0.0, 10.0};
    for (int i = 1; i <= 4; ++i) {  // ≤ 5 lines: the legend is the row under the plot
        chart.setSeries(QStringLiteral("line %1").arg(i), x, {double(i), double(i)},
                        QStringLiteral("K"));
    }
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString pdf = dir.filePath(QStringLiteral("chart.pdf"));
    const QRectF target(0, 0, 1000, 330);  // a full-width chart of the report, 96 dpi units
    {
        QPdfWriter writer(pdf);
        writer.setResolution(96);
        writer.setPageLayout(
            QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Landscape, QMarginsF(0, 0, 0, 0)));
        QPainter painter(&writer);
        chart.renderTo(&painter, target);
    }
    QProcess p;
    p.start(QStringLiteral("pdftoppm"),
            {QStringLiteral("-r"), QStringLiteral("96"), QStringLiteral("-png"),
             QStringLiteral("-singlefile"), pdf, dir.filePath(QStringLiteral("page"))});
    ASSERT_TRUE(p.waitForFinished(30000)) << "pdftoppm (poppler-utils) did not run";
    ASSERT_EQ(p.exitCode(), 0) << p.readAllStandardError().toStdString();
    const QImage page(dir.filePath(QStringLiteral("page.png")));
    ASSERT_FALSE(page.isNull());
    // The bottom eighth of the chart: below the axis labels, where only the legend is.
    const int y0 = static_cast<int>(target.height() * 7 / 8),
              y1 = static_cast<int>(target.height());
    const QList<QColor> colours = chart.seriesColours();
    ASSERT_EQ(colours.size(), 4);
    for (int i = 0; i < colours.size(); ++i) {
        const QColor want = colours[i];
        bool found = false;
        for (int y = y0; y < y1 && !found; ++y) {
            for (int xp = 0; xp < static_cast<int>(target.width()) && !found; ++xp) {
                const QColor c = page.pixelColor(xp, y);
                found = std::abs(c.red() - want.red()) <= 12 &&
                        std::abs(c.green() - want.green()) <= 12 &&
                        std::abs(c.blue() - want.blue()) <= 12;
            }
        }
        EXPECT_TRUE(found) << "no legend marker of line " << i + 1 << " ("
                           << want.name().toStdString() << ") under the plot";
    }
}

TEST(PdfReport, WriteErrorIsShownAndLeavesNoFile) {
    MainWindow w;
    Json s = readJsonFile(kScenario);
    s["study"] = {{"kind", "design_point"}};
    ASSERT_TRUE(run(w, s)) << w.messagesText().toStdString();
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const fs::path root(dir.path().toStdString());
    // A folder that does not exist, and one that cannot be written (tests may run as root,
    // for whom a mode of 0555 is no bar: /proc refuses new files to everyone).
    fs::create_directory(root / "locked");
    fs::permissions(root / "locked", fs::perms::owner_read | fs::perms::owner_exec);
    const bool locked_works =
        !QFileInfo(QString::fromStdString((root / "locked").string())).isWritable();
    const fs::path locked = locked_works ? root / "locked" : fs::path("/proc");
    for (const fs::path& target : {root / "missing" / "r.pdf", locked / "dctwin_report.pdf"}) {
        SCOPED_TRACE(target.string());
        EXPECT_FALSE(w.exportPdf(target));
        EXPECT_FALSE(fs::exists(target));
        const QString name = QString::fromStdString(target.string());
        EXPECT_TRUE(w.messagesText().contains(QStringLiteral("could not write '%1': ").arg(name)))
            << w.messagesText().toStdString();
        QMessageBox* box = nullptr;
        for (QMessageBox* b : w.findChildren<QMessageBox*>()) {
            if (b->isVisible() && b->text().contains(name)) box = b;
        }
        ASSERT_NE(box, nullptr) << "no message box names the file";
        // The reason follows the file's name.
        EXPECT_GT(box->text().size(), QStringLiteral("could not write '%1': ").arg(name).size());
        box->close();
        QApplication::processEvents();
    }
    fs::permissions(root / "locked", fs::perms::owner_all);
    EXPECT_TRUE(fs::is_empty(root / "locked"));
    EXPECT_FALSE(fs::exists(root / "missing"));
}

}  // namespace
}  // namespace dctwin::gui
