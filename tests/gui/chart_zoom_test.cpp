#include <gtest/gtest.h>

#include <QApplication>
#include <QGraphicsView>
#include <QTest>
#include <QWheelEvent>
#include <cmath>
#include <vector>

#include "gui/plot/chart_adapter.h"

namespace dctwin::gui {
namespace {

constexpr double kDay = 86400.0;
constexpr double kStep = 600.0;  // 10-min output, as an annual run writes

// A year at 10 min (52,561 samples) with a daily swing and one 100-unit spike at noon on
// day 40 (10 Feb): the spike must survive the reduced view and be exact when zoomed.
struct Year {
    std::vector<double> t, y, other;
    Year() {
        for (int i = 0; i <= 365 * 144; ++i) {
            const double s = i * kStep;
            t.push_back(s);
            y.push_back(10.0 + std::sin(2.0 * M_PI * s / kDay));
            other.push_back(2.0);
        }
        y[static_cast<std::size_t>(40 * 144 + 72)] = 100.0;
    }
};

QDateTime newYear() { return QDateTime(QDate(2026, 1, 1), QTime(0, 0)); }

TEST(ChartZoom, ZoomIntoADayDrawsTheRawSamplesOfThatDay) {
    const Year year;
    ChartPanel p;
    p.setCalendarStart(newYear());
    p.setSeries(QStringLiteral("IT power"), year.t, year.y, QStringLiteral("MW"));
    ASSERT_TRUE(p.isZoomable());
    const int whole = p.pointCount(QStringLiteral("IT power"));
    EXPECT_LE(whole, 4002);  // 2,000 buckets' minima and maxima, and both ends
    double peak = 0.0;
    for (const QPointF& q : p.drawnPoints(QStringLiteral("IT power"))) peak = std::max(peak, q.y());
    EXPECT_EQ(peak, 100.0);  // the spike is a bucket maximum, so it is drawn

    p.zoomX(40 * kDay, 41 * kDay);
    EXPECT_TRUE(p.isZoomed());
    // 145 samples from 00:00 to 24:00 inclusive, and one beyond each edge so the line runs
    // to the plot's edges: 147, every one of them a raw sample 600 s apart.
    const std::vector<QPointF> day = p.drawnPoints(QStringLiteral("IT power"));
    ASSERT_EQ(day.size(), 147u);
    EXPECT_DOUBLE_EQ(day.front().x(), 40 * kDay - kStep);
    EXPECT_DOUBLE_EQ(day.back().x(), 41 * kDay + kStep);
    for (std::size_t i = 1; i < day.size(); ++i) {
        EXPECT_NEAR(day[i].x() - day[i - 1].x(), kStep, 1e-6) << i;
    }
    EXPECT_EQ(day[73].y(), 100.0);  // 12:00 is sample 72 of the day, after the one before it
    EXPECT_NEAR(day[1 + 18].y(), 10.0 + std::sin(2.0 * M_PI * 3.0 / 24.0), 1e-12);  // 03:00
    const auto [lo, hi] = p.visibleX();
    EXPECT_DOUBLE_EQ(lo, 40 * kDay);
    EXPECT_DOUBLE_EQ(hi, 41 * kDay);

    p.resetZoom();
    EXPECT_FALSE(p.isZoomed());
    EXPECT_EQ(p.pointCount(QStringLiteral("IT power")), whole);
}

TEST(ChartZoom, StackedMeansRefineToRawSamplesOnZoom) {
    const Year year;
    ChartPanel p;
    p.setCalendarStart(newYear());
    p.setStackedAreas({QStringLiteral("IT"), QStringLiteral("cooling")}, year.t,
                      {year.y, year.other}, QStringLiteral("MW"));
    // A year drawn as 2,000 means of 15,768 s (4.38 h) each.
    EXPECT_NEAR(p.meanBucketSeconds(), 365.0 * kDay / 2000.0, 1.0);
    EXPECT_EQ(p.pointCount(QStringLiteral("cooling")), 2000);
    p.zoomX(40 * kDay, 41 * kDay);
    EXPECT_EQ(p.meanBucketSeconds(), 0.0);  // raw samples: nothing averaged
    const std::vector<QPointF> top = p.drawnPoints(QStringLiteral("cooling"));
    ASSERT_EQ(top.size(), 147u);
    EXPECT_DOUBLE_EQ(top[73].x(), 40 * kDay + 12 * 3600.0);
    EXPECT_DOUBLE_EQ(top[73].y(), 102.0);  // the stack's top: 100 + 2 at noon
    // Zoomed to a week, still raw (1,008 samples < 2,000 buckets); to a quarter, averaged
    // again over 13,140 samples / 2,000 = 3.9 h buckets (the span / 2,000).
    p.zoomX(40 * kDay, 47 * kDay);
    EXPECT_EQ(p.meanBucketSeconds(), 0.0);
    EXPECT_EQ(p.pointCount(QStringLiteral("IT")), 7 * 144 + 3);
    p.zoomX(0, 91.25 * kDay);
    EXPECT_GT(p.meanBucketSeconds(), 0.0);
    EXPECT_NEAR(p.meanBucketSeconds(), 91.25 * kDay / 2000.0, 0.01 * 91.25 * kDay / 2000.0);
}

TEST(ChartZoom, ReadOutGivesTimeAndEveryValueFromTheFullSeries) {
    const Year year;
    ChartPanel p;
    p.setCalendarStart(newYear());
    p.setSeries(QStringLiteral("IT power"), year.t, year.y, QStringLiteral("MW"));
    p.setSeries(QStringLiteral("cooling"), year.t, year.other, QStringLiteral("MW"));
    // 12:03 on day 40: the nearest sample is 12:00, the spike, even in the reduced view.
    const QString text = p.readoutAt(40 * kDay + 12 * 3600.0 + 180.0);
    EXPECT_TRUE(text.startsWith(QStringLiteral("10 Feb 2026 12:00"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("IT power 100 MW"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("cooling 2 MW"))) << text.toStdString();
    EXPECT_TRUE(p.readoutAt(-kDay).isEmpty());  // before the data
    EXPECT_TRUE(p.readoutAt(400 * kDay).isEmpty());
}

TEST(ChartZoom, MouseDragZoomsShiftDragPansWheelZoomsDoubleClickResets) {
    const Year year;
    ChartPanel p;
    p.setCalendarStart(newYear());
    p.setSeries(QStringLiteral("IT power"), year.t, year.y, QStringLiteral("MW"));
    p.resize(1000, 500);
    p.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&p));
    auto* view = p.findChild<QGraphicsView*>();
    ASSERT_TRUE(view);
    QWidget* vp = view->viewport();
    const int y = vp->height() / 2;
    // The x under two pixels, then a drag between them: the view is that span.
    const double a = p.xAtViewPos(QPoint(300, y)), b = p.xAtViewPos(QPoint(500, y));
    ASSERT_LT(a, b);
    QTest::mousePress(vp, Qt::LeftButton, {}, QPoint(300, y));
    QTest::mouseMove(vp, QPoint(400, y));
    QTest::mouseRelease(vp, Qt::LeftButton, {}, QPoint(500, y));
    ASSERT_TRUE(p.isZoomed());
    auto [lo, hi] = p.visibleX();
    EXPECT_NEAR(lo, a, 1e-6 * (b - a));
    EXPECT_NEAR(hi, b, 1e-6 * (b - a));
    // The read-out follows the cursor.
    QTest::mouseMove(vp, QPoint(400, y));
    EXPECT_TRUE(p.readoutText().contains(QStringLiteral("IT power")))
        << p.readoutText().toStdString();

    // Shift+drag 100 px to the right: earlier times by 100 px worth, same width.
    const double width = hi - lo;
    const double per_px = (p.xAtViewPos(QPoint(500, y)) - p.xAtViewPos(QPoint(400, y))) / 100.0;
    QTest::mousePress(vp, Qt::LeftButton, Qt::ShiftModifier, QPoint(400, y));
    QTest::mouseMove(vp, QPoint(500, y));
    QTest::mouseRelease(vp, Qt::LeftButton, Qt::ShiftModifier, QPoint(500, y));
    auto [lo2, hi2] = p.visibleX();
    EXPECT_NEAR(hi2 - lo2, width, 1e-6 * width);
    EXPECT_NEAR(lo2, lo - 100.0 * per_px, 0.02 * width);

    // One wheel notch forward zooms in by a fifth about the cursor.
    const QPoint at(450, y);
    QWheelEvent wheel(at, vp->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(vp, &wheel);
    auto [lo3, hi3] = p.visibleX();
    EXPECT_NEAR(hi3 - lo3, 0.8 * width, 1e-6 * width);

    QTest::mouseDClick(vp, Qt::LeftButton, {}, QPoint(450, y));
    EXPECT_FALSE(p.isZoomed());
}

TEST(ChartZoom, BarAndScatterChartsDoNotZoom) {
    ChartPanel bars;
    bars.addBarSet({QStringLiteral("1"), QStringLiteral("2")}, QStringLiteral("PUE"), {1.1, 1.2},
                   QString());
    EXPECT_FALSE(bars.isZoomable());
    bars.zoomX(0, 1);
    EXPECT_FALSE(bars.isZoomed());
    ChartPanel points;
    points.addScatter(QStringLiteral("case"), {0.3}, {1.1}, QString());
    EXPECT_FALSE(points.isZoomable());
    EXPECT_TRUE(points.readoutAt(0.3).isEmpty());
}

}  // namespace
}  // namespace dctwin::gui
