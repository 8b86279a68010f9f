#include "gui/one_line_diagram.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QImage>
#include <QRegularExpression>
#include <QTemporaryDir>

#include "gui/table_models.h"

namespace dctwin::gui {
namespace {

// The power sizing table in the order power/sizing.cpp writes it: loads first, the
// transformer's primary and the UPS output bus after the switchgear, the feeder and the
// standby sources last.
Table powerTable() {
    Table t;
    t.path = "sizing/power";
    t.addText("element", {"psu_shelf", "rack_feed", "busway", "ups", "transformer", "lv_switchgear",
                          "ups_bus", "transformer_primary", "generator", "mv_feeder", "bess"});
    t.addText("model", {"s", "f", "b", "static_1500kw", "liquid_2500kva", "lv", "lv_6300a",
                        "liquid_2500kva primary", "diesel", "mv", "liion"});
    t.addNumbers("rating", "", {33e3, 250, 2000, 1.5e6, 2.5e6, 5000, 6300, 105, 2.5e6, 600, 4e6});
    t.addText("unit", {"W", "A", "A", "W", "VA", "A", "A", "A", "W", "A", "W"});
    t.addNumbers("count", "1", {512, 128, 16, 12, 8, 8, 4, 8, 7, 2, 1});
    t.addText("redundancy", {"2N", "2N", "2N", "4N/3", "4N/3", "N", "4N/3", "N", "N+1", "2N", "N"});
    t.addNumbers("design_loading_pct", "%",
                 {49.7, 37.8, 37.8, 55.3, 56.7, 39.4, 55.5, 57.7, 85.0, 39.7, 74.5});
    return t;
}

TEST(OneLineDiagram, ReadsFromTheUtilityDownWithStandbyBesideTheFeeder) {
    OneLineDiagram d;
    const Table t = powerTable();
    d.setTables(&t, nullptr);
    QStringList order;
    for (const auto& b : d.blocks()) order << b.element;
    // The wiring from the MV feeder down: the transformer's MV side above the transformer, the
    // UPS output bus under the UPS (in the table's order they came after the PSU shelves).
    EXPECT_EQ(order, (QStringList{"utility", "mv_feeder", "generator", "bess",
                                  "transformer_primary", "transformer", "lv_switchgear", "ups",
                                  "ups_bus", "busway", "rack_feed", "psu_shelf", "racks"}));
    const auto& ups = d.blocks()[7];
    EXPECT_EQ(ups.count, 12);
    EXPECT_TRUE(ups.text.contains(QStringLiteral("12 × 1.50 MW, 4N/3"))) << ups.text.toStdString();
    EXPECT_EQ(ups.colour, loadingColour(55.3));
    EXPECT_EQ(d.blocks()[2].colour, loadingColour(85.0));  // the generator, red
    EXPECT_TRUE(d.blocks()[5].text.contains(QStringLiteral("8 × 2.50 MVA")));
    // The key under the diagram explains the fills.
    EXPECT_TRUE(d.sceneTexts().join(' ').contains(QStringLiteral("80 % continuous-load")));
    d.setTables(nullptr, nullptr);
    EXPECT_TRUE(d.blocks().empty());
    EXPECT_TRUE(d.sceneTexts().isEmpty());
}

TEST(OneLineDiagram, CoolingBlocksOfACampusNameTheirHall) {
    // A campus's cooling table (facility/study.cpp) has a "hall" column: one CDU row per hall
    // and the campus's CRAHs. Each block says whose it is.
    Table t;
    t.path = "sizing/cooling";
    t.addText("hall", {"A", "B", "campus"});
    t.addText("element", {"cdu", "cdu", "air_side_crah"});
    t.addText("model", {"vertiv_xdu1350", "vertiv_xdu1350", "crah_150kW"});
    t.addNumbers("rating", "", {1.368e6, 1.368e6, 150e3});
    t.addText("unit", {"W", "W", "W"});
    t.addNumbers("count", "1", {5, 5, 14});
    t.addText("redundancy", {"N+1", "N+1", "N+1"});
    t.addNumbers("design_loading_pct", "%", {73.1, 72.6, 89.2});
    OneLineDiagram d;
    d.setTables(nullptr, &t);
    // A column per hall, each from its racks, and the air side from the room: hall B's CDUs
    // hung under hall A's in one chain, and the CRAHs under both.
    ASSERT_EQ(d.blocks().size(), 6u);
    QStringList order;
    for (const auto& b : d.blocks()) order << b.element;
    EXPECT_EQ(order, (QStringList{"racks", "cdu", "racks", "cdu", "room", "air_side_crah"}));
    EXPECT_TRUE(d.blocks()[1].text.startsWith(QStringLiteral("A: cdu")))
        << d.blocks()[1].text.toStdString();
    EXPECT_TRUE(d.blocks()[3].text.startsWith(QStringLiteral("B: cdu")));
    EXPECT_TRUE(d.blocks()[5].text.startsWith(QStringLiteral("campus: air_side_crah")));
    const QString titles = d.sceneTexts().join('|');
    for (const char* want : {"Cooling chain, hall A", "Cooling chain, hall B", "Air side"}) {
        EXPECT_TRUE(titles.contains(QString::fromUtf8(want))) << want;
    }
    // Coloured on the cooling scale (their capacity at the design conditions), not the NEC's
    // 80 % for breakers: the CRAHs at 89.2 % are green, the CDUs too. The key under the
    // diagram says so (it gave the electrical 60/80 % for every block).
    for (std::size_t i : {1, 3, 5}) EXPECT_EQ(d.blocks()[i].colour, loadingColour(10.0)) << i;
    const QString key = d.sceneTexts().join(' ');
    EXPECT_TRUE(key.contains(QStringLiteral("green below 90 %, amber 90–100 %, red above 100 %")))
        << key.toStdString();
    EXPECT_FALSE(key.contains(QStringLiteral("continuous-load"))) << key.toStdString();
}

TEST(OneLineDiagram, TheRackLoopFlowIsADeliveredShareNotALoad) {
    // The reference's cooling table has the least-supplied rack's flow at 92.7 % of its
    // 200 L/min design flow. On the cooling scale that block was amber, "less than a tenth
    // left", where it means the CDU's pressure reset delivers a little less than design (more
    // would be better, not worse). It is now neutral and says what the share is of.
    Table t;
    t.path = "sizing/cooling";
    t.addText("element", {"cdu", "rack_loop_flow"});
    t.addText("model", {"vertiv_xdu1350", "rack loop"});
    t.addNumbers("rating", "", {1.368e6, 200.0 / 60000.0});
    t.addText("unit", {"W", "m3/s"});
    t.addNumbers("count", "1", {9, 64});
    t.addText("redundancy", {"N+1", "-"});
    t.addNumbers("design_loading_pct", "%", {92.0, 92.7});
    OneLineDiagram d;
    d.setTables(nullptr, &t);
    ASSERT_EQ(d.blocks().size(), 3u);
    EXPECT_EQ(d.blocks()[1].colour, loadingColour(92.0, LoadingScale::Cooling));  // amber
    EXPECT_NE(d.blocks()[2].colour, d.blocks()[1].colour);
    EXPECT_EQ(d.blocks()[2].colour, d.blocks()[0].colour);  // the racks' neutral grey
    EXPECT_TRUE(d.blocks()[2].text.contains(QStringLiteral("93 % of design flow")))
        << d.blocks()[2].text.toStdString();
    EXPECT_FALSE(d.blocks()[2].text.contains(QStringLiteral("design loading")));
    EXPECT_TRUE(d.blocks()[2].text.contains(QStringLiteral("64 × 200 L/min\n")))  // no ", -"
        << d.blocks()[2].text.toStdString();
    const QString key = d.sceneTexts().join(' ');
    EXPECT_TRUE(key.contains(QStringLiteral("rack loop flow, a delivered share, not a load")))
        << key.toStdString();
}

TEST(OneLineDiagram, EveryBlockHoldsItsText) {
    // An operating point's model wraps: "cdu_pump_speed  vertiv_xdu1350 drive
    // (differential_pressure)" took four lines, and its "design loading 67 %" ran out of the
    // 62-px box onto the line to the next block. A block is as tall as its text.
    Table t;
    t.path = "sizing/cooling";
    t.addText("element", {"cdu", "cdu_pump_speed"});
    t.addText("model", {"vertiv_xdu1350", "vertiv_xdu1350 drive (differential_pressure)"});
    t.addNumbers("rating", "", {1.368e6, 1.0});
    t.addText("unit", {"W", "1"});
    t.addNumbers("count", "1", {9, 18});
    t.addText("redundancy", {"N+1", "-"});
    t.addNumbers("design_loading_pct", "%", {73.1, 67.1});
    OneLineDiagram d;
    d.setTables(nullptr, &t);
    int checked = 0;
    for (const QGraphicsItem* item : d.scene()->items()) {
        const auto* text = dynamic_cast<const QGraphicsTextItem*>(item);
        if (!text || !text->toPlainText().contains(QRegularExpression("design loading [0-9]"))) {
            continue;  // the titles and the colour key
        }
        const QRectF r = text->sceneBoundingRect();
        const QGraphicsRectItem* box = nullptr;
        for (const QGraphicsItem* other : d.scene()->items(r.topLeft())) {
            if (const auto* b = dynamic_cast<const QGraphicsRectItem*>(other)) box = b;
        }
        ASSERT_NE(box, nullptr) << text->toPlainText().toStdString();
        EXPECT_LE(r.bottom(), box->sceneBoundingRect().bottom() + 0.5)
            << text->toPlainText().toStdString();
        ++checked;
    }
    EXPECT_EQ(checked, 2);
}

TEST(OneLineDiagram, ExportsTheWholeDiagramAsPng) {
    OneLineDiagram d;
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("design.png"));
    QString why;
    EXPECT_FALSE(d.savePng(path, &why));  // nothing drawn yet
    EXPECT_TRUE(why.contains(QStringLiteral("no design")));
    const Table t = powerTable();
    d.setTables(&t, nullptr);
    ASSERT_TRUE(d.savePng(path, &why)) << why.toStdString();
    QImage png(path);
    ASSERT_FALSE(png.isNull());
    // The whole scene at two pixels per unit, whatever part the view shows.
    EXPECT_EQ(png.width(), qRound(d.sceneRect().width() * 2.0));
    EXPECT_EQ(png.height(), qRound(d.sceneRect().height() * 2.0));
    // Every block's fill is there: the generator in red (85 %), the UPS in green (55 %), and
    // the page is white around them.
    int red = 0, green = 0;
    for (int y = 0; y < png.height(); y += 2) {
        for (int x = 0; x < png.width(); x += 2) {
            const QRgb c = png.pixel(x, y);
            red += c == loadingColour(85.0).rgb();
            green += c == loadingColour(55.3).rgb();
        }
    }
    EXPECT_GT(red, 100);
    EXPECT_GT(green, 100);
    EXPECT_EQ(png.pixel(0, 0), QColor(Qt::white).rgb());
    EXPECT_FALSE(d.savePng(dir.filePath(QStringLiteral("missing/design.png")), &why));
    EXPECT_TRUE(why.contains(QStringLiteral("missing/design.png")));
}

TEST(OneLineDiagram, ExportsTheWholeDiagramAsSvg) {
    OneLineDiagram d;
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("design.svg"));
    QString why;
    EXPECT_FALSE(d.saveSvg(path, &why));  // nothing drawn yet
    EXPECT_TRUE(why.contains(QStringLiteral("no design")));
    const Table t = powerTable();
    d.setTables(&t, nullptr);
    ASSERT_TRUE(d.saveSvg(path, &why)) << why.toStdString();
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    const QString svg = QString::fromUtf8(f.readAll());
    // A vector drawing of the whole scene: its view box is the scene's size, the blocks'
    // texts are text (searchable, not pixels), and the fills are the loading colours.
    EXPECT_TRUE(svg.contains(QStringLiteral("<svg")));
    const auto box =
        QRegularExpression(QStringLiteral("viewBox=\"0 0 ([0-9.]+) ([0-9.]+)\"")).match(svg);
    ASSERT_TRUE(box.hasMatch()) << svg.left(600).toStdString();
    EXPECT_NEAR(box.captured(1).toDouble(), d.sceneRect().width(), 1.0);
    EXPECT_NEAR(box.captured(2).toDouble(), d.sceneRect().height(), 1.0);
    EXPECT_TRUE(svg.contains(QStringLiteral("8 × 2.50 MVA"))) << "block text as text";
    EXPECT_TRUE(svg.contains(loadingColour(85.0).name(), Qt::CaseInsensitive));
    EXPECT_TRUE(svg.contains(loadingColour(55.3).name(), Qt::CaseInsensitive));
    // A folder that does not exist: refused with the file named, nothing left behind.
    EXPECT_FALSE(d.saveSvg(dir.filePath(QStringLiteral("missing/design.svg")), &why));
    EXPECT_TRUE(why.contains(QStringLiteral("missing/design.svg")));
    EXPECT_EQ(QDir(dir.path()).entryList(QDir::Files), QStringList{"design.svg"});
}

}  // namespace
}  // namespace dctwin::gui
