#include "gui/plot/chart_adapter.h"

#include <QAction>
#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QDateTimeAxis>
#include <QFileDialog>
#include <QLineSeries>
#include <QMessageBox>
#include <QPainter>
#include <QPixmap>
#include <QScatterSeries>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "gui/display_units.h"

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
}  // namespace

struct ChartPanel::Impl {
    QChart* chart = nullptr;
    QChartView* view = nullptr;
    QAbstractAxis* x_axis = nullptr;
    QValueAxis* y_axis = nullptr;
    QValueAxis* y2_axis = nullptr;
    QDateTime calendar_start;  // invalid: x is a plain number
    bool scatter = false;      // unconnected points: pad the x range
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

    void extend(const QList<QPointF>& pts) {
        for (const QPointF& p : pts) {
            if (!have_range) {
                x_min = x_max = p.x();
                y_min = y_max = p.y();
                have_range = true;
            }
            x_min = std::min(x_min, p.x());
            x_max = std::max(x_max, p.x());
            y_min = std::min(y_min, p.y());
            y_max = std::max(y_max, p.y());
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
                x_axis = new QValueAxis;
            }
            chart->addAxis(x_axis, Qt::AlignBottom);
        }
        if (!y_axis) {
            y_axis = new QValueAxis;
            chart->addAxis(y_axis, Qt::AlignLeft);
        }
    }
    void applyRanges() {
        // Beyond a handful of series a bottom legend truncates names to "h..."; a side legend
        // lists them in full.
        chart->legend()->setAlignment(chart->series().size() > 5 ? Qt::AlignRight
                                                                 : Qt::AlignBottom);
        if (x_axis) x_axis->setTitleText(calendar_start.isValid() ? QString() : x_title);
        if (y_axis) y_axis->setTitleText(yTitle());
        if (y2_axis) {
            y2_axis->setTitleText(
                unit2.isEmpty() ? y2_quantity : QStringLiteral("%1 [%2]").arg(y2_quantity, unit2));
        }
        if (!have_range) return;
        if (auto* dates = qobject_cast<QDateTimeAxis*>(x_axis)) {
            dates->setRange(QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(x_min)),
                            QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(x_max)));
        } else if (auto* values = qobject_cast<QValueAxis*>(x_axis)) {
            // Points (a sweep's cases) would sit half outside a range that ends at them.
            const double pad = scatter ? 0.05 * std::max(x_max - x_min, std::abs(x_max)) : 0.0;
            values->setRange(x_min - pad, x_max > x_min ? x_max + pad : x_min + 1.0);
        }
        const auto fit = [](QValueAxis* axis, double lo_v, double hi_v) {
            const double pad = hi_v > lo_v ? 0.05 * (hi_v - lo_v) : 0.5 + 0.05 * std::abs(hi_v);
            // Power and water start at zero; temperatures float.
            const double lo = lo_v >= 0.0 && lo_v < 0.5 * hi_v ? 0.0 : lo_v - pad;
            axis->setRange(lo, hi_v + pad);
            axis->applyNiceNumbers();
        };
        if (y_axis) fit(y_axis, y_min, y_max);
        if (y2_axis && have_y2) fit(y2_axis, y2_min, y2_max);
    }
    // x of a sample: seconds, or milliseconds since the epoch on a calendar axis.
    std::vector<double> xs(const std::vector<double>& x) const {
        if (!calendar_start.isValid()) return x;
        const double t0 = static_cast<double>(calendar_start.toMSecsSinceEpoch());
        std::vector<double> out(x.size());
        for (std::size_t i = 0; i < x.size(); ++i) out[i] = t0 + 1e3 * x[i];
        return out;
    }
    void attach(QAbstractSeries* s) {
        chart->addSeries(s);
        ensureValueAxes();
        s->attachAxis(x_axis);
        s->attachAxis(y_axis);
    }
};

ChartPanel::ChartPanel(QWidget* parent) : QWidget(parent), d_(std::make_unique<Impl>()) {
    d_->chart = new QChart;
    d_->chart->legend()->setAlignment(Qt::AlignBottom);
    d_->chart->setMargins(QMargins(4, 4, 4, 4));
    d_->view = new QChartView(d_->chart, this);
    d_->view->setRenderHint(QPainter::Antialiasing);
    d_->view->setMinimumSize(320, 220);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(d_->view);
    auto* save = new QAction(tr("Save chart as PNG…"), this);
    connect(save, &QAction::triggered, this, &ChartPanel::saveAsDialog);
    addAction(save);
    setContextMenuPolicy(Qt::ActionsContextMenu);
}

ChartPanel::~ChartPanel() = default;

void ChartPanel::clear() {
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
}

void ChartPanel::setMeanSeries(const QString& name, const std::vector<double>& x,
                               const std::vector<double>& y, const QString& unit) {
    const std::size_t n = std::min(x.size(), y.size());
    const std::vector<double> xm = bucketMeans(d_->xs(x), n, kDrawBuckets);
    const std::vector<double> ym = bucketMeans(y, n, kDrawBuckets);
    auto* line = new QLineSeries;
    line->setName(name);
    line->setColor(kPalette[static_cast<std::size_t>(d_->lines++) % std::size(kPalette)]);
    std::vector<std::size_t> idx(xm.size());
    for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
    const QList<QPointF> pts = toPoints(xm, ym, idx);
    line->replace(pts);
    d_->unit = unit;
    d_->extend(pts);
    d_->attach(line);
    d_->applyRanges();
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
            d_->chart->removeSeries(s);
            delete s;
        }
    }
    auto* line = new QLineSeries;
    line->setName(name);
    line->setColor(kPalette[static_cast<std::size_t>(d_->lines++) % std::size(kPalette)]);
    const QList<QPointF> pts = toPoints(d_->xs(x), y, decimationIndices(y, kDrawBuckets));
    line->replace(pts);
    if (axis == Axis::Right) {
        d_->chart->addSeries(line);
        d_->ensureValueAxes();
        if (!d_->y2_axis) {
            d_->y2_axis = new QValueAxis;
            d_->chart->addAxis(d_->y2_axis, Qt::AlignRight);
        }
        line->attachAxis(d_->x_axis);
        line->attachAxis(d_->y2_axis);
        // Dashed, so a line is matched to its axis without looking at the legend.
        QPen pen = line->pen();
        pen.setStyle(Qt::DashLine);
        line->setPen(pen);
        d_->unit2 = unit;
        for (const QPointF& p : pts) {
            if (!d_->have_y2) {
                d_->y2_min = d_->y2_max = p.y();
                d_->have_y2 = true;
            }
            d_->y2_min = std::min(d_->y2_min, p.y());
            d_->y2_max = std::max(d_->y2_max, p.y());
        }
        // The x range is shared: the left side's extend() keeps it, so widen it here too.
        const double y_keep_min = d_->y_min, y_keep_max = d_->y_max;
        const bool had = d_->have_range;
        d_->extend(pts);
        if (had) {
            d_->y_min = y_keep_min;
            d_->y_max = y_keep_max;
        } else {
            d_->y_min = d_->y2_min;
            d_->y_max = d_->y2_max;
        }
    } else {
        d_->unit = unit;
        d_->extend(pts);
        d_->attach(line);
    }
    d_->applyRanges();
}

void ChartPanel::setStackedAreas(const QStringList& names, const std::vector<double>& x,
                                 const std::vector<std::vector<double>>& layers,
                                 const QString& unit) {
    const QDateTime calendar = d_->calendar_start;
    clear();
    d_->calendar_start = calendar;
    d_->unit = unit;
    if (layers.empty()) return;
    // Every layer averaged over the same buckets, so the areas never cross and each layer's
    // energy is kept; a min/max envelope here drew a year of daily swings as a solid band.
    const std::size_t n = x.size();
    const std::vector<double> xm = bucketMeans(d_->xs(x), n, kDrawBuckets);
    if (n > kDrawBuckets && n > 1) {
        d_->bucket_seconds = (x.back() - x.front()) / static_cast<double>(kDrawBuckets);
    }
    std::vector<std::size_t> idx(xm.size());
    for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
    static const QColor kStack[] = {QColor(0x00, 0x72, 0xb2), QColor(0x00, 0x9e, 0x73),
                                    QColor(0xe6, 0x9f, 0x00), QColor(0xcc, 0x79, 0xa7)};
    std::vector<double> base(xm.size(), 0.0);
    for (std::size_t k = 0; k < layers.size(); ++k) {
        std::vector<double> top = base;
        const std::vector<double> layer = bucketMeans(layers[k], n, kDrawBuckets);
        for (std::size_t i = 0; i < top.size() && i < layer.size(); ++i) {
            if (std::isfinite(layer[i])) top[i] += layer[i];
        }
        auto* lower = new QLineSeries;
        auto* upper = new QLineSeries;
        lower->replace(toPoints(xm, base, idx));
        const QList<QPointF> up = toPoints(xm, top, idx);
        upper->replace(up);
        auto* area = new QAreaSeries(upper, lower);
        area->setName(k < static_cast<std::size_t>(names.size()) ? names[static_cast<int>(k)]
                                                                 : QString::number(k));
        const QColor c = kStack[k % std::size(kStack)];
        area->setColor(c);
        area->setBorderColor(c.darker(120));
        d_->extend(up);
        d_->extend(toPoints(xm, base, idx));
        d_->attach(area);
        base = std::move(top);
    }
    d_->lines = 6;  // a line over the stack (facility power) in dark grey, not a layer's colour
    d_->applyRanges();
}

void ChartPanel::addScatter(const QString& name, const std::vector<double>& x,
                            const std::vector<double>& y, const QString& unit) {
    auto* points = new QScatterSeries;
    points->setName(name);
    points->setMarkerSize(11.0);
    d_->scatter = true;
    std::vector<std::size_t> all(std::min(x.size(), y.size()));
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    const QList<QPointF> pts = toPoints(x, y, all);
    points->replace(pts);
    d_->unit = unit;
    points->setColor(kPalette[static_cast<std::size_t>(d_->lines++) % std::size(kPalette)]);
    d_->extend(pts);
    d_->attach(points);
    d_->applyRanges();
}

void ChartPanel::addBarSet(const QStringList& categories, const QString& set_name,
                           const std::vector<double>& values, const QString& unit) {
    if (!d_->bars) {
        clear();
        d_->bars = new QBarSeries;
        d_->chart->addSeries(d_->bars);
        d_->category_axis = new QBarCategoryAxis;
        d_->category_axis->append(categories);
        d_->chart->addAxis(d_->category_axis, Qt::AlignBottom);
        d_->y_axis = new QValueAxis;
        d_->chart->addAxis(d_->y_axis, Qt::AlignLeft);
        d_->bars->attachAxis(d_->category_axis);
        d_->bars->attachAxis(d_->y_axis);
    }
    auto* set = new QBarSet(set_name);
    for (double v : values) set->append(std::isfinite(v) ? v : 0.0);
    d_->bars->append(set);
    d_->unit = unit;
    double top = 0.0;
    for (const QBarSet* s : d_->bars->barSets()) {
        for (int i = 0; i < s->count(); ++i) top = std::max(top, s->at(i));
    }
    d_->y_axis->setTitleText(d_->yTitle());
    d_->y_axis->setRange(0.0, top > 0.0 ? 1.08 * top : 1.0);
    d_->y_axis->applyNiceNumbers();
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

void ChartPanel::renderTo(QPainter* painter, const QRectF& target) {
    if (!d_->view->isVisible() && d_->view->width() < 400) d_->view->resize(1000, 560);
    const QSize size = d_->view->size();
    if (size.isEmpty() || target.isEmpty()) return;
    const double scale = std::min(target.width() / size.width(), target.height() / size.height());
    painter->save();
    painter->translate(target.left() + (target.width() - size.width() * scale) / 2.0,
                       target.top() + (target.height() - size.height() * scale) / 2.0);
    painter->scale(scale, scale);
    // QWidget::render lays a never-shown view out first (pending resize events).
    static_cast<QWidget*>(d_->view)->render(painter, QPoint(), QRegion(), QWidget::DrawChildren);
    painter->restore();
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
