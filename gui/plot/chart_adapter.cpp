#include "gui/plot/chart_adapter.h"

#include <QAction>
#include <QApplication>
#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QDateTimeAxis>
#include <QFileDialog>
#include <QFontMetricsF>
#include <QGraphicsItem>
#include <QGraphicsLineItem>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMessageBox>
#include <QMouseEvent>
#include <QPainter>
#include <QPixmap>
#include <QResizeEvent>
#include <QRubberBand>
#include <QScatterSeries>
#include <QVBoxLayout>
#include <QValueAxis>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <utility>

#include "gui/display_units.h"
#include "gui/export_check.h"

namespace dctwin::gui {

namespace {
// Enough points for a full-width chart on a large screen; above this, draw bucket extremes.
constexpr std::size_t kDrawBuckets = 2000;

// Twelve colours that stay apart on white (Okabe–Ito order, then darker tones): Qt's theme
// repeats after five, which put TCS supply and the outdoor dry bulb in the same blue.
const QColor kPalette[] = {
    QColor(0x00, 0x72, 0xb2), QColor(0xd5, 0x5e, 0x00), QColor(0x00, 0x9e, 0x73),
    QColor(0xcc, 0x79, 0xa7), QColor(0xe6, 0x9f, 0x00), QColor(0x56, 0xb4, 0xe9),
    QColor(0x44, 0x44, 0x44), QColor(0x88, 0x22, 0x55), QColor(0x11, 0x77, 0x33),
    QColor(0x99, 0x99, 0x33), QColor(0x33, 0x22, 0x88), QColor(0xaa, 0x44, 0x99)};

// Means of `buckets` equal runs of samples (x at each run's middle); the series as it is when
// it is not longer than that.
std::vector<double> bucketMeans(const std::vector<double>& v, std::size_t n, std::size_t buckets) {
    if (n <= buckets) return std::vector<double>(v.begin(), v.begin() + static_cast<long>(n));
    std::vector<double> out;
    out.reserve(buckets);
    for (std::size_t b = 0; b < buckets; ++b) {
        const std::size_t lo = b * n / buckets, hi = (b + 1) * n / buckets;
        double sum = 0.0;
        std::size_t k = 0;
        for (std::size_t i = lo; i < hi && i < v.size(); ++i) {
            if (std::isfinite(v[i])) {
                sum += v[i];
                ++k;
            }
        }
        out.push_back(k ? sum / static_cast<double>(k) : std::nan(""));
    }
    return out;
}

QList<QPointF> toPoints(const std::vector<double>& x, const std::vector<double>& y,
                        const std::vector<std::size_t>& idx) {
    QList<QPointF> pts;
    pts.reserve(static_cast<qsizetype>(idx.size()));
    for (std::size_t i : idx) {
        if (i < x.size() && i < y.size() && std::isfinite(x[i]) && std::isfinite(y[i])) {
            pts.append(QPointF(x[i], y[i]));
        }
    }
    return pts;
}

// Index range [first, last) of the samples of sorted `x` inside [lo, hi], widened by one
// sample on each side so a zoomed line runs to the edges of the plot.
std::pair<std::size_t, std::size_t> visibleSpan(const std::vector<double>& x, double lo,
                                                double hi) {
    auto first = static_cast<std::size_t>(std::lower_bound(x.begin(), x.end(), lo) - x.begin());
    auto last = static_cast<std::size_t>(std::upper_bound(x.begin(), x.end(), hi) - x.begin());
    if (first > 0) --first;
    if (last < x.size()) ++last;
    return {first, last};
}

std::vector<double> slice(const std::vector<double>& v, std::size_t first, std::size_t last) {
    last = std::min(last, v.size());
    first = std::min(first, last);
    return std::vector<double>(v.begin() + static_cast<long>(first),
                               v.begin() + static_cast<long>(last));
}

// The chart view with the mouse as engineers use it on a plot: drag to zoom into a span, wheel
// to zoom about the cursor, Shift+drag or middle-drag to pan, double-click to reset. Qt's own
// rubber band zooms both axes and cannot tell the panel to re-sample; this one hands the
// pixel span to the panel, which re-samples and sets the axes itself.
class ZoomView : public QChartView {
public:
    explicit ZoomView(QChart* chart, QWidget* parent) : QChartView(chart, parent) {
        band_ = new QRubberBand(QRubberBand::Rectangle, this);
        setMouseTracking(true);
        viewport()->setMouseTracking(true);
    }
    std::function<bool()> zoomable;
    std::function<void(int from_px, int to_px)> onSpan;
    std::function<void(int delta, const QPoint& pos)> onWheel;
    std::function<void(int dx_px)> onPan;
    std::function<void()> onReset;
    std::function<void(const QPoint& pos)> onHover;

protected:
    void mousePressEvent(QMouseEvent* e) override {
        if (!zoomable || !zoomable()) return QChartView::mousePressEvent(e);
        const bool pan = e->button() == Qt::MiddleButton ||
                         (e->button() == Qt::LeftButton && (e->modifiers() & Qt::ShiftModifier));
        if (pan) {
            panning_ = true;
            last_x_ = e->pos().x();
            setCursor(Qt::ClosedHandCursor);
        } else if (e->button() == Qt::LeftButton) {
            origin_ = e->pos();
            band_->setGeometry(bandRect(e->pos()));
            band_->show();
        } else {
            return QChartView::mousePressEvent(e);
        }
        e->accept();
    }
    void mouseMoveEvent(QMouseEvent* e) override {
        if (panning_) {
            onPan(e->pos().x() - last_x_);
            last_x_ = e->pos().x();
        } else if (band_->isVisible()) {
            band_->setGeometry(bandRect(e->pos()));
        }
        if (onHover) onHover(e->pos());
        QChartView::mouseMoveEvent(e);
    }
    void mouseReleaseEvent(QMouseEvent* e) override {
        if (panning_) {
            panning_ = false;
            unsetCursor();
        } else if (band_->isVisible()) {
            band_->hide();
            // A click without a drag is not a zoom.
            if (std::abs(e->pos().x() - origin_.x()) > 4) {
                onSpan(std::min(origin_.x(), e->pos().x()), std::max(origin_.x(), e->pos().x()));
            }
        } else {
            return QChartView::mouseReleaseEvent(e);
        }
        e->accept();
    }
    void wheelEvent(QWheelEvent* e) override {
        if (!zoomable || !zoomable()) return QChartView::wheelEvent(e);
        onWheel(e->angleDelta().y(), e->position().toPoint());
        e->accept();
    }
    void mouseDoubleClickEvent(QMouseEvent* e) override {
        if (zoomable && zoomable()) {
            onReset();
            e->accept();
            return;
        }
        QChartView::mouseDoubleClickEvent(e);
    }
    void leaveEvent(QEvent* e) override {
        if (onHover) onHover(QPoint(-1, -1));
        QChartView::leaveEvent(e);
    }

private:
    // Horizontal band over the plot's full height: the zoom is in time only; the value axes
    // refit to what is visible.
    QRect bandRect(const QPoint& to) const {
        const QRectF plot = chart()->plotArea();
        const QPoint top = mapFromScene(chart()->mapToScene(plot.topLeft()));
        const QPoint bottom = mapFromScene(chart()->mapToScene(plot.bottomRight()));
        return QRect(QPoint(std::min(origin_.x(), to.x()), top.y()),
                     QPoint(std::max(origin_.x(), to.x()), bottom.y()));
    }
    QRubberBand* band_;
    QPoint origin_;
    bool panning_ = false;
    int last_x_ = 0;
};
}  // namespace

struct ChartPanel::Impl {
    QChart* chart = nullptr;
    ZoomView* view = nullptr;
    QLabel* readout = nullptr;
    QAbstractAxis* x_axis = nullptr;
    QValueAxis* y_axis = nullptr;
    QValueAxis* y2_axis = nullptr;
    QDateTime calendar_start;  // invalid: x is a plain number
    bool scatter = false;      // unconnected points: pad the x range
    double bar_floor = 0.0;    // where a bar chart's value axis starts (setBarFloor)
    int lines = 0;             // lines added since clear(), for the palette
    double bucket_seconds = 0.0;
    QString y2_quantity, unit2;
    double y2_min = 0, y2_max = 0;
    bool have_y2 = false;
    QBarCategoryAxis* category_axis = nullptr;
    QBarSeries* bars = nullptr;
    QString x_title, y_quantity, unit;
    double x_min = 0, x_max = 0, y_min = 0, y_max = 0;
    bool have_range = false;

    // Full-resolution copies of what is drawn, re-sampled on every zoom and read by the
    // read-out; x in chart units (milliseconds since the epoch on a calendar axis).
    struct Line {
        QXYSeries* series = nullptr;
        std::vector<double> x, y;
        QString unit;
        bool right = false;
        bool mean = false;  // drawn as bucket means (a total over a stack), not min/max
    };
    std::vector<Line> data;
    std::vector<double> stack_x;
    std::vector<std::vector<double>> stack_layers;
    std::vector<QAreaSeries*> stack_areas;
    bool zoomed = false;
    double view_lo = 0, view_hi = 0;  // chart units

    // Event markers (setEventMarkers): x in chart units and the items that draw one, children
    // of the chart so that they are in its coordinates and go with it to a PNG or a PDF.
    struct Marker {
        double cx = 0.0;
        QString label;
        QGraphicsLineItem* line = nullptr;
        QGraphicsRectItem* hit = nullptr;  // a few pixels either side: the tooltip's target
        QGraphicsSimpleTextItem* text = nullptr;
    };
    std::vector<Marker> markers;
    QLabel* message = nullptr;  // setMessage's note over an empty chart

    // The x axis's span in chart units; false when there is none.
    bool xRange(double& lo, double& hi) const {
        if (const auto* v = qobject_cast<QValueAxis*>(x_axis)) {
            lo = v->min();
            hi = v->max();
        } else if (const auto* d = qobject_cast<QDateTimeAxis*>(x_axis)) {
            lo = static_cast<double>(d->min().toMSecsSinceEpoch());
            hi = static_cast<double>(d->max().toMSecsSinceEpoch());
        } else {
            return false;
        }
        return hi > lo;
    }
    void removeMarkers() {
        for (Marker& m : markers) {
            delete m.line;
            delete m.hit;
            delete m.text;
        }
        markers.clear();
    }
    // Each marker's line from the plot's top to its bottom at its x (hidden outside the span
    // shown); its label at the top, right of the line or left of it near the right edge, and
    // a line lower for each marker drawn before it, so that close events do not overprint.
    void placeMarkers() {
        if (markers.empty()) return;
        const QRectF plot = chart->plotArea();
        double lo = 0.0, hi = 0.0;
        const bool ok = plot.width() > 0.0 && plot.height() > 0.0 && xRange(lo, hi);
        int shown = 0;
        for (Marker& m : markers) {
            const bool in = ok && m.cx >= lo && m.cx <= hi;
            m.line->setVisible(in);
            m.hit->setVisible(in);
            m.text->setVisible(in);
            if (!in) continue;
            const double px = plot.left() + (m.cx - lo) / (hi - lo) * plot.width();
            m.line->setLine(px, plot.top(), px, plot.bottom());
            m.hit->setRect(px - 3.0, plot.top(), 6.0, plot.height());
            const QRectF box = m.text->boundingRect();
            const double tx =
                px + 4.0 + box.width() <= plot.right() ? px + 4.0 : px - 4.0 - box.width();
            m.text->setPos(tx, plot.top() + 2.0 + shown * box.height());
            ++shown;
        }
    }

    QString yTitle() const {
        return unit.isEmpty() ? y_quantity : QStringLiteral("%1 [%2]").arg(y_quantity, unit);
    }
    void ensureValueAxes() {
        if (!x_axis) {
            if (calendar_start.isValid()) {
                auto* dates = new QDateTimeAxis;
                // Day and month only: "Feb 2026" was cut to "Feb 20…" at 1280 pixels.
                dates->setFormat(QStringLiteral("d MMM"));
                dates->setTickCount(7);
                x_axis = dates;
            } else {
                x_axis = valueAxis();
            }
            chart->addAxis(x_axis, Qt::AlignBottom);
        }
        if (!y_axis) {
            y_axis = valueAxis();
            chart->addAxis(y_axis, Qt::AlignLeft);
        }
    }
    // A bar chart's value axis: from the floor to a little above the tallest bar.
    void fitBarAxis() {
        if (!bars || !y_axis) return;
        double top = bar_floor;
        for (const QBarSet* s : bars->barSets()) {
            for (int i = 0; i < s->count(); ++i) top = std::max(top, s->at(i));
        }
        y_axis->setRange(bar_floor,
                         top > bar_floor ? bar_floor + 1.08 * (top - bar_floor) : bar_floor + 1.0);
        y_axis->applyNiceNumbers();
    }
    // A value axis whose labels read 2190 and 0.5, not 2190.0 and 0.50.
    static QValueAxis* valueAxis() {
        auto* a = new QValueAxis;
        a->setLabelFormat(QStringLiteral("%g"));
        return a;
    }
    // As many date labels as fit: seven in a half-width chart read "2 … 2 … 2 Jul".
    void fitDateTicks() {
        if (auto* dates = qobject_cast<QDateTimeAxis*>(x_axis)) {
            const double w =
                chart->plotArea().width() > 0 ? chart->plotArea().width() : view->width() * 0.8;
            dates->setTickCount(std::clamp(static_cast<int>(w / 90.0) + 1, 3, 7));
        }
    }
    // x of a sample: as given, or milliseconds since the epoch on a calendar axis.
    double toChart(double x) const {
        return calendar_start.isValid()
                   ? static_cast<double>(calendar_start.toMSecsSinceEpoch()) + 1e3 * x
                   : x;
    }
    double fromChart(double cx) const {
        return calendar_start.isValid()
                   ? (cx - static_cast<double>(calendar_start.toMSecsSinceEpoch())) / 1e3
                   : cx;
    }
    std::vector<double> xs(const std::vector<double>& x) const {
        std::vector<double> out(x.size());
        for (std::size_t i = 0; i < x.size(); ++i) out[i] = toChart(x[i]);
        return out;
    }
    bool zoomable() const { return !bars && !scatter && (!data.empty() || !stack_x.empty()); }
    // First and last x of all zoomable data (chart units).
    std::pair<double, double> fullSpan() const {
        double lo = std::numeric_limits<double>::infinity(), hi = -lo;
        const auto take = [&](const std::vector<double>& x) {
            if (x.empty()) return;
            lo = std::min(lo, x.front());
            hi = std::max(hi, x.back());
        };
        for (const Line& l : data) take(l.x);
        take(stack_x);
        return {lo, hi};
    }
    // The samples of [lo, hi] (everything when not zoomed), reduced to what a screen shows.
    void drawLine(Line& l) const {
        std::size_t first = 0, last = l.x.size();
        if (zoomed) std::tie(first, last) = visibleSpan(l.x, view_lo, view_hi);
        const std::vector<double> x = slice(l.x, first, last);
        const std::vector<double> y = slice(l.y, first, last);
        if (l.mean) {
            const std::vector<double> xm = bucketMeans(x, x.size(), kDrawBuckets);
            const std::vector<double> ym = bucketMeans(y, x.size(), kDrawBuckets);
            std::vector<std::size_t> all(xm.size());
            for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
            l.series->replace(toPoints(xm, ym, all));
        } else {
            l.series->replace(toPoints(x, y, decimationIndices(y, kDrawBuckets)));
        }
    }
    void drawStack() {
        if (stack_x.empty()) return;
        std::size_t first = 0, last = stack_x.size();
        if (zoomed) std::tie(first, last) = visibleSpan(stack_x, view_lo, view_hi);
        const std::vector<double> x = slice(stack_x, first, last);
        const std::size_t n = x.size();
        // Every layer averaged over the same buckets, so the areas never cross and each
        // layer's energy is kept; a min/max envelope drew a year of daily swings as a solid
        // band.
        const std::vector<double> xm = bucketMeans(x, n, kDrawBuckets);
        bucket_seconds = n > kDrawBuckets && n > 1 ? (fromChart(x.back()) - fromChart(x.front())) /
                                                         static_cast<double>(kDrawBuckets)
                                                   : 0.0;
        std::vector<std::size_t> idx(xm.size());
        for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
        std::vector<double> base(xm.size(), 0.0);
        for (std::size_t k = 0; k < stack_areas.size() && k < stack_layers.size(); ++k) {
            std::vector<double> top = base;
            const std::vector<double> layer =
                bucketMeans(slice(stack_layers[k], first, last), n, kDrawBuckets);
            for (std::size_t i = 0; i < top.size() && i < layer.size(); ++i) {
                if (std::isfinite(layer[i])) top[i] += layer[i];
            }
            stack_areas[k]->lowerSeries()->replace(toPoints(xm, base, idx));
            stack_areas[k]->upperSeries()->replace(toPoints(xm, top, idx));
            base = std::move(top);
        }
    }
    // Axis ranges from the points drawn now: the whole data, or the zoomed span with the
    // value axes fitted to what is visible in it.
    void refit() {
        have_range = have_y2 = false;
        const auto grow = [](double v, double& lo, double& hi, bool& have) {
            if (!have) {
                lo = hi = v;
                have = true;
            }
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        };
        bool have_x = false;
        const auto take = [&](const QList<QPointF>& pts, bool right) {
            for (const QPointF& p : pts) {
                grow(p.x(), x_min, x_max, have_x);
                if (zoomed && (p.x() < view_lo || p.x() > view_hi)) continue;
                if (right) {
                    grow(p.y(), y2_min, y2_max, have_y2);
                } else {
                    grow(p.y(), y_min, y_max, have_range);
                }
            }
        };
        for (QAbstractSeries* s : chart->series()) {
            if (auto* area = qobject_cast<QAreaSeries*>(s)) {
                take(area->upperSeries()->points(), false);
                if (area->lowerSeries()) take(area->lowerSeries()->points(), false);
            } else if (auto* xy = qobject_cast<QXYSeries*>(s)) {
                take(xy->points(), y2_axis && xy->attachedAxes().contains(y2_axis));
            }
        }
        if (!have_range && have_y2) {
            y_min = y2_min;
            y_max = y2_max;
            have_range = true;
        }
        if (!have_x) have_range = false;
        if (zoomed) {
            x_min = view_lo;
            x_max = view_hi;
        } else if (!data.empty() || !stack_x.empty()) {
            std::tie(x_min, x_max) = fullSpan();
        }
    }
    void applyRanges() {
        // Beyond a handful of series a bottom legend truncates names to "h..."; a side legend
        // lists them in full.
        const bool many = chart->series().size() > 5;
        chart->legend()->setAlignment(many ? Qt::AlignRight : Qt::AlignBottom);
        // Ten temperatures at the default size ran off the bottom of a 1280×800 chart.
        QFont legend = QApplication::font();
        if (many) legend.setPointSizeF(legend.pointSizeF() * 0.75);
        chart->legend()->setFont(legend);
        // A line's legend marker is a short piece of the line, in its pen: a right-axis series
        // reads dashed in the legend as on the plot, so the axis need not spell it out. Areas
        // and bars keep a filled square (from the series, an area's marker is its outline).
        for (QLegendMarker* m : chart->legend()->markers()) {
            m->setShape(m->type() == QLegendMarker::LegendMarkerTypeXY
                            ? QLegend::MarkerShapeFromSeries
                            : QLegend::MarkerShapeRectangle);
        }
        fitDateTicks();
        if (x_axis) x_axis->setTitleText(calendar_start.isValid() ? QString() : x_title);
        if (y_axis) y_axis->setTitleText(yTitle());
        if (y2_axis) {
            y2_axis->setTitleText(unit2.isEmpty() ? y2_quantity
                                  : y2_quantity.isEmpty()
                                      ? QStringLiteral("[%1]").arg(unit2)
                                      : QStringLiteral("%1 [%2]").arg(y2_quantity, unit2));
        }
        if (!have_range) return;
        const auto fit = [](QValueAxis* axis, double lo_v, double hi_v) {
            const auto [lo, hi] = paddedRange(lo_v, hi_v);
            axis->setRange(lo, hi);
            axis->applyNiceNumbers();
        };
        if (auto* dates = qobject_cast<QDateTimeAxis*>(x_axis)) {
            dates->setRange(QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(x_min)),
                            QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(x_max)));
            // A zoomed day reads in hours, not "3 Feb" seven times.
            const double span_days = (x_max - x_min) / 86.4e6;
            dates->setFormat(span_days > 3.0   ? QStringLiteral("d MMM")
                             : span_days > 0.5 ? QStringLiteral("d MMM HH:mm")
                                               : QStringLiteral("HH:mm"));
        } else if (auto* values = qobject_cast<QValueAxis*>(x_axis)) {
            if (scatter) {
                // Points (a sweep's cases) are placed by value, as the y axis's are: a rounded
                // range from zero for a quantity that starts there. The padded data range gave
                // a WUE axis of -0.02, 0.12, 0.25, 0.39, 0.53, and Qt's nice numbers take
                // that one to 0–1, half of it empty: steps of 1, 2 or 5 × 10^k, about five.
                const auto [lo, hi] = paddedRange(x_min, x_max);
                const double raw = (hi - lo) / 5.0;
                const double mag = std::pow(10.0, std::floor(std::log10(raw)));
                double step = 10.0 * mag;
                for (const double m : {1.0, 2.0, 5.0}) {
                    if (m * mag >= raw * (1.0 - 1e-9)) {
                        step = m * mag;
                        break;
                    }
                }
                const double nlo = std::floor(lo / step + 1e-9) * step;
                const double nhi = std::ceil(hi / step - 1e-9) * step;
                values->setRange(nlo, nhi);
                values->setTickCount(static_cast<int>(std::lround((nhi - nlo) / step)) + 1);
            } else {
                values->setRange(x_min, x_max > x_min ? x_max : x_min + 1.0);
            }
            // The ticks split the data's own range (not rounded: the curve ends at its last
            // hour), so "%g" wrote a 10-minute load-duration axis as 0.0416667, 0.0833333, …
            // and the labels were cut to "0.0416…". As many decimals as the tick step needs.
            const double step =
                (values->max() - values->min()) / std::max(1, values->tickCount() - 1);
            // A scatter's rounded step (0.1, 0.05, 2) needs its own decimals and no more.
            const int extra = scatter ? 0 : 1;
            const int decimals =
                step > 0.0
                    ? std::clamp(extra - static_cast<int>(std::floor(std::log10(step) + 1e-9)), 0,
                                 9)
                    : 0;
            values->setLabelFormat(QStringLiteral("%.%1f").arg(decimals));
        }
        if (y_axis) fit(y_axis, y_min, y_max);
        if (y2_axis && have_y2) fit(y2_axis, y2_min, y2_max);
        placeMarkers();
    }
    /// The range an axis shows for data from lo_v to hi_v, before rounding its ends.
    static std::pair<double, double> paddedRange(double lo_v, double hi_v) {
        // All zero (a sweep of dry coolers: no water at all): 0 to 1, not −0.5 to 0.5.
        if (lo_v == 0.0 && hi_v == 0.0) return {0.0, 1.0};
        // A series steady to a few parts in a million (a facility flow over a pump trip that
        // does not touch it) got an axis of that span, and every label read "611.742". Shown
        // over at least 2 % of its magnitude it reads as the flat line it is.
        const double min_span = 0.02 * std::max(std::abs(lo_v), std::abs(hi_v));
        if (hi_v - lo_v < min_span) {
            const double mid = 0.5 * (lo_v + hi_v);
            lo_v = mid - 0.5 * min_span;
            hi_v = mid + 0.5 * min_span;
        }
        const double pad = hi_v > lo_v ? 0.05 * (hi_v - lo_v) : 0.5 + 0.05 * std::abs(hi_v);
        // Power and water start at zero; temperatures float. A heat rejected of −1.7e-8 W
        // while the plant stands (round-off) is zero: taken as negative it put the axis of a
        // 12 MW chart at −5 MW.
        const double tiny = 1e-6 * std::max(std::abs(lo_v), std::abs(hi_v));
        const double lo = lo_v >= -tiny && lo_v < 0.5 * hi_v ? 0.0 : lo_v - pad;
        return {lo, hi_v + pad};
    }
    void redraw() {
        for (Line& l : data) drawLine(l);
        drawStack();
        refit();
        applyRanges();
    }
    void attach(QAbstractSeries* s) {
        chart->addSeries(s);
        ensureValueAxes();
        s->attachAxis(x_axis);
        s->attachAxis(y_axis);
    }
    /// A new line series in the next colour, its full-resolution copy appended to `data`.
    QLineSeries* addLine(const QString& name, const std::vector<double>& x,
                         const std::vector<double>& y, const QString& line_unit, bool right,
                         bool mean);
    QColor nextColour() {
        return kPalette[static_cast<std::size_t>(lines++) % std::size(kPalette)];
    }
};

namespace {
// The read-out's hint when the cursor is not over data.
QString zoomHint() {
    return QObject::tr("Drag or wheel: zoom · Shift+drag: pan · double-click: reset");
}
}  // namespace

ChartPanel::ChartPanel(QWidget* parent) : QWidget(parent), d_(std::make_unique<Impl>()) {
    d_->chart = new QChart;
    d_->chart->legend()->setAlignment(Qt::AlignBottom);
    d_->chart->setMargins(QMargins(4, 4, 4, 4));
    d_->view = new ZoomView(d_->chart, this);
    d_->view->setRenderHint(QPainter::Antialiasing);
    d_->view->setMinimumSize(320, 220);
    d_->readout = new QLabel(this);
    d_->readout->setTextInteractionFlags(Qt::TextSelectableByMouse);
    d_->readout->setStyleSheet(QStringLiteral("color: palette(dark); padding: 0 4px;"));
    // A long read-out (eight series) must not widen the window past the screen: it is cut
    // at the chart's width instead (the tooltip-free text stays selectable).
    d_->readout->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    d_->readout->setMinimumWidth(0);
    d_->readout->hide();
    // setMessage's note: over the chart view (which keeps drawing the title), not in the
    // layout, so that a chart with a note takes the room a plotted one does.
    d_->message = new QLabel(this);
    d_->message->setWordWrap(true);
    d_->message->setAlignment(Qt::AlignCenter);
    d_->message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    d_->message->hide();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(d_->view, 1);
    layout->addWidget(d_->readout);

    d_->view->zoomable = [this] { return d_->zoomable(); };
    d_->view->onSpan = [this](int from_px, int to_px) {
        const double a = xAtViewPos(QPoint(from_px, 0)), b = xAtViewPos(QPoint(to_px, 0));
        if (std::isfinite(a) && std::isfinite(b)) zoomX(std::min(a, b), std::max(a, b));
    };
    d_->view->onWheel = [this](int delta, const QPoint& pos) {
        if (delta == 0) return;
        const auto [lo, hi] = visibleX();
        double at = xAtViewPos(pos);
        if (!std::isfinite(at)) at = 0.5 * (lo + hi);
        // One notch (120) zooms in by a fifth; the point under the cursor stays put.
        const double f = std::pow(0.8, delta / 120.0);
        zoomX(at - (at - lo) * f, at + (hi - at) * f);
    };
    d_->view->onPan = [this](int dx_px) {
        const double width = d_->chart->plotArea().width();
        if (!d_->zoomed || width <= 0.0) return;
        const auto [lo, hi] = visibleX();
        const auto [full_lo, full_hi] = d_->fullSpan();
        // Dragging right moves the view to earlier times, like dragging paper.
        double shift = -dx_px * (hi - lo) / width;
        shift = std::clamp(shift, d_->fromChart(full_lo) - lo, d_->fromChart(full_hi) - hi);
        zoomX(lo + shift, hi + shift);
    };
    d_->view->onReset = [this] { resetZoom(); };
    // The markers follow the plot when the chart is laid out anew (a resize, a legend that
    // moved); applyRanges() places them when the axes change.
    connect(d_->chart, &QChart::plotAreaChanged, this, [this] { d_->placeMarkers(); });
    d_->view->onHover = [this](const QPoint& pos) {
        const QString text = pos.x() < 0 ? QString() : readoutAt(xAtViewPos(pos));
        d_->readout->setText(text.isEmpty() ? zoomHint() : text);
    };

    auto* reset = new QAction(tr("Reset zoom"), this);
    connect(reset, &QAction::triggered, this, &ChartPanel::resetZoom);
    addAction(reset);
    auto* save = new QAction(tr("Save chart as PNG…"), this);
    connect(save, &QAction::triggered, this, &ChartPanel::saveAsDialog);
    addAction(save);
    setContextMenuPolicy(Qt::ActionsContextMenu);
}

ChartPanel::~ChartPanel() = default;

void ChartPanel::clear() {
    d_->removeMarkers();
    d_->message->hide();
    d_->message->clear();
    d_->chart->removeAllSeries();
    for (QAbstractAxis* a : d_->chart->axes()) {
        d_->chart->removeAxis(a);
        delete a;
    }
    d_->x_axis = nullptr;
    d_->y_axis = d_->y2_axis = nullptr;
    d_->category_axis = nullptr;
    d_->bars = nullptr;
    d_->have_range = d_->have_y2 = false;
    d_->unit.clear();
    d_->unit2.clear();
    d_->calendar_start = QDateTime();
    d_->scatter = false;
    d_->lines = 0;
    d_->bucket_seconds = 0.0;
    d_->data.clear();
    d_->stack_x.clear();
    d_->stack_layers.clear();
    d_->stack_areas.clear();
    d_->zoomed = false;
    d_->readout->hide();
}

void ChartPanel::showAll() {
    d_->readout->setVisible(d_->zoomable());
    if (d_->readout->text().isEmpty()) d_->readout->setText(zoomHint());
    d_->redraw();
}

QLineSeries* ChartPanel::Impl::addLine(const QString& name, const std::vector<double>& x,
                                       const std::vector<double>& y, const QString& line_unit,
                                       bool right, bool mean) {
    auto* line = new QLineSeries;
    line->setName(name);
    line->setColor(nextColour());
    const std::size_t n = std::min(x.size(), y.size());
    Line l;
    l.series = line;
    l.x = xs(slice(x, 0, n));
    l.y = slice(y, 0, n);
    l.unit = line_unit;
    l.right = right;
    l.mean = mean;
    data.push_back(std::move(l));
    return line;
}

void ChartPanel::setMeanSeries(const QString& name, const std::vector<double>& x,
                               const std::vector<double>& y, const QString& unit) {
    QLineSeries* line = d_->addLine(name, x, y, unit, false, true);
    d_->unit = unit;
    d_->attach(line);
    showAll();
}

void ChartPanel::setRightAxisTitle(const QString& quantity) {
    d_->y2_quantity = quantity;
    d_->applyRanges();
}

void ChartPanel::setCalendarStart(const QDateTime& start) { d_->calendar_start = start; }

bool ChartPanel::hasRightAxis() const { return d_->y2_axis && d_->have_y2; }
QString ChartPanel::rightUnit() const { return hasRightAxis() ? d_->unit2 : QString(); }
QStringList ChartPanel::categories() const {
    return d_->category_axis ? d_->category_axis->categories() : QStringList();
}

void ChartPanel::setCategoryTitle(const QString& title) {
    if (d_->category_axis) d_->category_axis->setTitleText(title);
}

std::vector<double> ChartPanel::barValues(const QString& set_name) const {
    std::vector<double> out;
    if (!d_->bars) return out;
    for (const QBarSet* s : d_->bars->barSets()) {
        if (s->label() != set_name) continue;
        for (int i = 0; i < s->count(); ++i) out.push_back(s->at(i));
    }
    return out;
}

QList<QColor> ChartPanel::seriesColours() const {
    QList<QColor> out;
    for (const QAbstractSeries* s : d_->chart->series()) {
        if (const auto* xy = qobject_cast<const QXYSeries*>(s)) {
            out << xy->color();
        } else if (const auto* area = qobject_cast<const QAreaSeries*>(s)) {
            out << area->color();
        }
    }
    return out;
}

bool ChartPanel::hasCalendarAxis() const {
    return qobject_cast<QDateTimeAxis*>(d_->x_axis) != nullptr;
}

double ChartPanel::meanBucketSeconds() const { return d_->bucket_seconds; }

void ChartPanel::setTitle(const QString& title) { d_->chart->setTitle(title); }
QString ChartPanel::title() const { return d_->chart->title(); }

void ChartPanel::setAxisTitles(const QString& x_title, const QString& y_quantity) {
    d_->x_title = x_title;
    d_->y_quantity = y_quantity;
    d_->applyRanges();
}

void ChartPanel::setSeries(const QString& name, const std::vector<double>& x,
                           const std::vector<double>& y, const QString& unit, Axis axis) {
    for (QAbstractSeries* s : d_->chart->series()) {
        if (s->name() == name) {
            std::erase_if(d_->data, [s](const Impl::Line& l) { return l.series == s; });
            d_->chart->removeSeries(s);
            delete s;
        }
    }
    QLineSeries* line = d_->addLine(name, x, y, unit, axis == Axis::Right, false);
    if (axis == Axis::Right) {
        d_->chart->addSeries(line);
        d_->ensureValueAxes();
        if (!d_->y2_axis) {
            d_->y2_axis = Impl::valueAxis();
            d_->chart->addAxis(d_->y2_axis, Qt::AlignRight);
        }
        line->attachAxis(d_->x_axis);
        line->attachAxis(d_->y2_axis);
        // Dashed, so a line is matched to its axis without looking at the legend.
        QPen pen = line->pen();
        pen.setStyle(Qt::DashLine);
        line->setPen(pen);
        d_->unit2 = unit;
    } else {
        d_->unit = unit;
        d_->attach(line);
    }
    showAll();
}

void ChartPanel::setStackedAreas(const QStringList& names, const std::vector<double>& x,
                                 const std::vector<std::vector<double>>& layers,
                                 const QString& unit) {
    const QDateTime calendar = d_->calendar_start;
    clear();
    d_->calendar_start = calendar;
    d_->unit = unit;
    if (layers.empty()) return;
    d_->stack_x = d_->xs(x);
    d_->stack_layers = layers;
    for (std::size_t k = 0; k < layers.size(); ++k) {
        auto* area = new QAreaSeries(new QLineSeries, new QLineSeries);
        area->setName(k < static_cast<std::size_t>(names.size()) ? names[static_cast<int>(k)]
                                                                 : QString::number(k));
        const QColor c = stackColour(static_cast<int>(k));
        area->setColor(c);
        area->setBorderColor(c.darker(120));
        d_->stack_areas.push_back(area);
        d_->attach(area);
    }
    // A line over the stack (facility power) in dark grey (kPalette[6], totalLineColour()),
    // not a layer's colour.
    d_->lines = 6;
    showAll();
}

void ChartPanel::addScatter(const QString& name, const std::vector<double>& x,
                            const std::vector<double>& y, const QString& unit) {
    auto* points = new QScatterSeries;
    points->setName(name);
    points->setMarkerSize(11.0);
    d_->scatter = true;
    std::vector<std::size_t> all(std::min(x.size(), y.size()));
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    points->replace(toPoints(x, y, all));
    d_->unit = unit;
    points->setColor(d_->nextColour());
    d_->attach(points);
    d_->refit();
    d_->applyRanges();
}

QColor ChartPanel::stackColour(int i) {
    static const QColor kStack[] = {QColor(0x00, 0x72, 0xb2), QColor(0x00, 0x9e, 0x73),
                                    QColor(0xe6, 0x9f, 0x00), QColor(0xcc, 0x79, 0xa7)};
    return kStack[static_cast<std::size_t>(std::max(0, i)) % std::size(kStack)];
}

QColor ChartPanel::totalLineColour() { return kPalette[6]; }

bool ChartPanel::setSeriesColour(const QString& name, const QColor& colour) {
    for (QAbstractSeries* s : d_->chart->series()) {
        if (s->name() != name) continue;
        if (auto* xy = qobject_cast<QXYSeries*>(s)) {
            // setColor on a line replaces its pen: keep a dashed right-axis line dashed.
            QPen pen = xy->pen();
            pen.setColor(colour);
            xy->setPen(pen);
            return true;
        }
        if (auto* area = qobject_cast<QAreaSeries*>(s)) {
            area->setColor(colour);
            area->setBorderColor(colour.darker(120));
            return true;
        }
    }
    return false;
}

void ChartPanel::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    d_->fitDateTicks();
    // The note under the title, across the plot's room.
    d_->message->setGeometry(d_->view->geometry().adjusted(24, 48, -24, -24));
}

void ChartPanel::setEventMarkers(const std::vector<EventMarker>& markers) {
    d_->removeMarkers();
    // Dark red and dashed: apart from the palette's lines, and read as a moment, not data.
    const QColor colour(0xb0, 0x1c, 0x1c);
    QPen pen(colour);
    pen.setWidthF(1.2);
    pen.setStyle(Qt::DashLine);
    QFont font = QApplication::font();
    font.setPointSizeF(font.pointSizeF() * 0.8);
    const QFontMetricsF fm(font);
    for (const EventMarker& e : markers) {
        if (!std::isfinite(e.x)) continue;
        Impl::Marker m;
        m.cx = d_->toChart(e.x);
        m.label = e.label;
        m.line = new QGraphicsLineItem(d_->chart);
        m.line->setPen(pen);
        m.hit = new QGraphicsRectItem(d_->chart);
        m.hit->setPen(Qt::NoPen);
        m.hit->setBrush(Qt::NoBrush);
        // A long label ("utility lost; UPS on battery, generator-fed loads off") would cover
        // the plot: cut short beside the line, whole in the tooltip.
        m.text =
            new QGraphicsSimpleTextItem(fm.elidedText(e.label, Qt::ElideRight, 200.0), d_->chart);
        m.text->setFont(font);
        m.text->setBrush(colour);
        for (QGraphicsItem* item :
             {static_cast<QGraphicsItem*>(m.line), static_cast<QGraphicsItem*>(m.hit),
              static_cast<QGraphicsItem*>(m.text)}) {
            item->setZValue(100.0);  // over the series
            item->setToolTip(e.label);
            item->hide();  // until placed on the axis
        }
        d_->markers.push_back(std::move(m));
    }
    d_->placeMarkers();
}

std::vector<ChartPanel::EventMarker> ChartPanel::eventMarkers() const {
    std::vector<EventMarker> out;
    for (const Impl::Marker& m : d_->markers) out.push_back({d_->fromChart(m.cx), m.label});
    return out;
}

int ChartPanel::visibleEventMarkers() const {
    return static_cast<int>(
        std::count_if(d_->markers.begin(), d_->markers.end(),
                      [](const Impl::Marker& m) { return m.line->isVisible(); }));
}

double ChartPanel::eventMarkerViewX(int i) const {
    if (i < 0 || i >= static_cast<int>(d_->markers.size())) return std::nan("");
    const QGraphicsLineItem* line = d_->markers[static_cast<std::size_t>(i)].line;
    if (!line->isVisible()) return std::nan("");
    const QPointF scene = d_->chart->mapToScene(line->line().p1());
    return d_->view->mapFromScene(scene).x();
}

void ChartPanel::setMessage(const QString& text) {
    clear();
    d_->message->setText(text);
    d_->message->setGeometry(d_->view->geometry().adjusted(24, 48, -24, -24));
    d_->message->setVisible(!text.isEmpty());
}

QString ChartPanel::message() const { return d_->message->text(); }

bool ChartPanel::isZoomable() const { return d_->zoomable(); }
bool ChartPanel::isZoomed() const { return d_->zoomed; }

std::pair<double, double> ChartPanel::visibleX() const {
    if (d_->zoomed) return {d_->fromChart(d_->view_lo), d_->fromChart(d_->view_hi)};
    const auto [lo, hi] = d_->fullSpan();
    return {d_->fromChart(lo), d_->fromChart(hi)};
}

void ChartPanel::zoomX(double from, double to) {
    if (!d_->zoomable() || !std::isfinite(from) || !std::isfinite(to)) return;
    if (from > to) std::swap(from, to);
    const auto [full_lo, full_hi] = d_->fullSpan();
    const double lo = std::max(d_->toChart(from), full_lo);
    const double hi = std::min(d_->toChart(to), full_hi);
    // Zoomed out to everything (or past it): the reduced whole-series view.
    if (lo <= full_lo && hi >= full_hi) return resetZoom();
    // A span narrower than a millionth of the data is a slip of the mouse, not a zoom.
    if (!(hi - lo > 1e-6 * (full_hi - full_lo))) return;
    d_->zoomed = true;
    d_->view_lo = lo;
    d_->view_hi = hi;
    d_->redraw();
}

void ChartPanel::resetZoom() {
    if (!d_->zoomed) return;
    d_->zoomed = false;
    d_->redraw();
}

double ChartPanel::xAtViewPos(const QPoint& pos) const {
    const QList<QAbstractSeries*> series = d_->chart->series();
    if (series.isEmpty() || !d_->x_axis) return std::nan("");
    const QPointF scene = d_->view->mapToScene(pos);
    const QPointF value = d_->chart->mapToValue(d_->chart->mapFromScene(scene), series.front());
    return d_->fromChart(value.x());
}

QString ChartPanel::readoutAt(double x) const {
    if (!d_->zoomable() || !std::isfinite(x)) return {};
    const double cx = d_->toChart(x);
    const auto [full_lo, full_hi] = d_->fullSpan();
    if (cx < full_lo || cx > full_hi) return {};
    // The sample nearest cx in a sorted series (index), or npos when empty.
    const auto nearest = [cx](const std::vector<double>& xs) {
        if (xs.empty()) return std::string::npos;
        auto i = static_cast<std::size_t>(std::lower_bound(xs.begin(), xs.end(), cx) - xs.begin());
        if (i == xs.size() || (i > 0 && cx - xs[i - 1] < xs[i] - cx)) --i;
        return i;
    };
    QStringList parts;
    double at = cx;
    const auto value = [](double v, const QString& unit) {
        return unit.isEmpty() ? formatNumber(v)
                              : QStringLiteral("%1 %2").arg(formatNumber(v), unit);
    };
    if (const std::size_t i = nearest(d_->stack_x); i != std::string::npos) {
        at = d_->stack_x[i];
        for (std::size_t k = 0; k < d_->stack_layers.size() && k < d_->stack_areas.size(); ++k) {
            if (i < d_->stack_layers[k].size()) {
                parts << QStringLiteral("%1 %2").arg(d_->stack_areas[k]->name(),
                                                     value(d_->stack_layers[k][i], d_->unit));
            }
        }
    }
    for (const Impl::Line& l : d_->data) {
        const std::size_t i = nearest(l.x);
        if (i == std::string::npos || !std::isfinite(l.y[i])) continue;
        if (d_->stack_x.empty() && &l == &d_->data.front()) at = l.x[i];
        parts << QStringLiteral("%1 %2").arg(l.series->name(), value(l.y[i], l.unit));
    }
    if (parts.isEmpty()) return {};
    const QString when =
        d_->calendar_start.isValid()
            ? QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(std::llround(at)))
                  .toString(QStringLiteral("d MMM yyyy HH:mm"))
            : QStringLiteral("%1 = %2").arg(
                  d_->x_title.isEmpty() ? QStringLiteral("x") : d_->x_title, formatNumber(at));
    return when + QStringLiteral(":  ") + parts.join(QStringLiteral(" · "));
}

QString ChartPanel::readoutText() const { return d_->readout->text(); }

std::vector<QPointF> ChartPanel::drawnPoints(const QString& name) const {
    std::vector<QPointF> out;
    for (QAbstractSeries* s : d_->chart->series()) {
        if (s->name() != name) continue;
        const QXYSeries* xy = qobject_cast<QXYSeries*>(s);
        if (auto* area = qobject_cast<QAreaSeries*>(s)) xy = area->upperSeries();
        if (!xy) continue;
        for (const QPointF& p : xy->points()) out.emplace_back(d_->fromChart(p.x()), p.y());
    }
    return out;
}

void ChartPanel::addBarSet(const QStringList& categories, const QString& set_name,
                           const std::vector<double>& values, const QString& unit) {
    if (!d_->bars) {
        clear();
        d_->bars = new QBarSeries;
        d_->chart->addSeries(d_->bars);
        d_->category_axis = new QBarCategoryAxis;
        d_->category_axis->append(categories);
        // Twelve month names in a third of a 1280-pixel window were cut to "J…" at the
        // default size.
        QFont small = d_->category_axis->labelsFont();
        small.setPointSizeF(small.pointSizeF() * 0.8);
        d_->category_axis->setLabelsFont(small);
        d_->chart->addAxis(d_->category_axis, Qt::AlignBottom);
        d_->y_axis = Impl::valueAxis();
        d_->chart->addAxis(d_->y_axis, Qt::AlignLeft);
        d_->bars->attachAxis(d_->category_axis);
        d_->bars->attachAxis(d_->y_axis);
    }
    auto* set = new QBarSet(set_name);
    for (double v : values) set->append(std::isfinite(v) ? v : 0.0);
    d_->bars->append(set);
    d_->unit = unit;
    d_->y_axis->setTitleText(d_->yTitle());
    d_->fitBarAxis();
}

void ChartPanel::setBarFloor(double floor) {
    d_->bar_floor = floor;
    d_->fitBarAxis();
}

int ChartPanel::seriesCount() const {
    if (d_->bars) return static_cast<int>(d_->bars->count());
    return static_cast<int>(d_->chart->series().size());
}

QStringList ChartPanel::seriesNames() const {
    QStringList names;
    if (d_->bars) {
        for (const QBarSet* s : d_->bars->barSets()) names << s->label();
        return names;
    }
    for (const QAbstractSeries* s : d_->chart->series()) names << s->name();
    return names;
}

int ChartPanel::pointCount(const QString& name) const {
    if (d_->bars) {
        for (const QBarSet* s : d_->bars->barSets()) {
            if (s->label() == name) return static_cast<int>(s->count());
        }
        return -1;
    }
    for (QAbstractSeries* s : d_->chart->series()) {
        if (s->name() != name) continue;
        if (auto* line = qobject_cast<QXYSeries*>(s)) return static_cast<int>(line->count());
        if (auto* area = qobject_cast<QAreaSeries*>(s)) {
            return static_cast<int>(area->upperSeries()->count());
        }
    }
    return -1;
}

bool ChartPanel::savePng(const QString& path, QString* error) {
    if (!checkExportFile(path, "chart", error)) return false;
    // A chart on a hidden tab has never been laid out; give it a printable size first.
    if (!d_->view->isVisible() && d_->view->width() < 400) d_->view->resize(1200, 700);
    const QPixmap pixmap = d_->view->grab();
    if (pixmap.isNull() || !pixmap.save(path, "PNG")) {
        if (error) {
            *error = tr("could not write the chart '%1' to '%2' (check the folder exists and "
                        "is writable)")
                         .arg(title(), path);
        }
        return false;
    }
    return true;
}

namespace {
// Delivers the resize events a widget that was never shown keeps pending. QChartView lays its
// chart out to the view on its viewport's resize (QAbstractScrollArea forwards it to
// QChartView::resizeEvent), which QWidget::render does not deliver: a PDF drew such a chart
// at the size it had before, a shrunken plot.
void deliverPendingResize(QWidget* w) {
    if (!w->testAttribute(Qt::WA_PendingResizeEvent)) return;
    QResizeEvent resize(w->size(), QSize());
    QCoreApplication::sendEvent(w, &resize);
    w->setAttribute(Qt::WA_PendingResizeEvent, false);
}
}  // namespace

void ChartPanel::renderTo(QPainter* painter, const QRectF& target) {
    if (target.width() < 1.0 || target.height() < 1.0) return;
    // The chart is laid out afresh at the target's shape, its text at kPrintScale of its
    // on-screen size: scaling the on-screen layout instead put a 1000×560 chart into a
    // half-width slot with its labels at half size, and a wide slot's chart left room unused.
    constexpr double kPrintScale = 0.75;
    const QSize on_screen = d_->view->size();
    const QSize size(static_cast<int>(std::lround(target.width() / kPrintScale)),
                     static_cast<int>(std::lround(target.height() / kPrintScale)));
    d_->view->resize(size);
    deliverPendingResize(d_->view);
    deliverPendingResize(d_->view->viewport());
    // The chart's layout, then its legend's that it invalidates, run on posted LayoutRequests.
    for (int pass = 0; pass < 3; ++pass) {
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    }
    const double scale = std::min(target.width() / size.width(), target.height() / size.height());
    painter->save();
    painter->translate(target.left() + (target.width() - size.width() * scale) / 2.0,
                       target.top() + (target.height() - size.height() * scale) / 2.0);
    painter->scale(scale, scale);
    // The legend clips its entries to its shape; on a PDF painter that clip kept the first
    // entry only (an on-screen or image painter draws them all). Laid out above, the entries
    // lie inside the legend, so the clip is dropped while drawing.
    QLegend* legend = d_->chart->legend();
    const bool clips = legend->flags() & QGraphicsItem::ItemClipsChildrenToShape;
    legend->setFlag(QGraphicsItem::ItemClipsChildrenToShape, false);
    static_cast<QWidget*>(d_->view)->render(painter, QPoint(), QRegion(), QWidget::DrawChildren);
    legend->setFlag(QGraphicsItem::ItemClipsChildrenToShape, clips);
    painter->restore();
    if (!on_screen.isEmpty()) d_->view->resize(on_screen);
}

void ChartPanel::saveAsDialog() {
    QString path = QFileDialog::getSaveFileName(
        this, tr("Save chart as PNG"),
        title().isEmpty() ? QStringLiteral("chart.png") : title() + ".png",
        tr("PNG images (*.png)"));
    if (path.isEmpty()) return;
    if (!path.endsWith(QStringLiteral(".png"), Qt::CaseInsensitive)) path += ".png";
    QString error;
    if (!savePng(path, &error)) QMessageBox::warning(this, tr("Save chart"), error);
}

}  // namespace dctwin::gui
