#include "gui/plot/chart_adapter.h"

#include <QAction>
#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QFileDialog>
#include <QLineSeries>
#include <QMessageBox>
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
    QValueAxis* x_axis = nullptr;
    QValueAxis* y_axis = nullptr;
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
            x_axis = new QValueAxis;
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
        if (x_axis) x_axis->setTitleText(x_title);
        if (y_axis) y_axis->setTitleText(yTitle());
        if (!have_range) return;
        if (x_axis) x_axis->setRange(x_min, x_max > x_min ? x_max : x_min + 1.0);
        if (y_axis) {
            const double pad =
                y_max > y_min ? 0.05 * (y_max - y_min) : 0.5 + 0.05 * std::abs(y_max);
            // Power and water start at zero; temperatures float.
            const double lo = y_min >= 0.0 && y_min < 0.5 * y_max ? 0.0 : y_min - pad;
            y_axis->setRange(lo, y_max + pad);
            y_axis->applyNiceNumbers();
        }
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
    d_->x_axis = d_->y_axis = nullptr;
    d_->category_axis = nullptr;
    d_->bars = nullptr;
    d_->have_range = false;
    d_->unit.clear();
}

void ChartPanel::setTitle(const QString& title) { d_->chart->setTitle(title); }
QString ChartPanel::title() const { return d_->chart->title(); }

void ChartPanel::setAxisTitles(const QString& x_title, const QString& y_quantity) {
    d_->x_title = x_title;
    d_->y_quantity = y_quantity;
    d_->applyRanges();
}

void ChartPanel::setSeries(const QString& name, const std::vector<double>& x,
                           const std::vector<double>& y, const QString& unit) {
    for (QAbstractSeries* s : d_->chart->series()) {
        if (s->name() == name) {
            d_->chart->removeSeries(s);
            delete s;
        }
    }
    auto* line = new QLineSeries;
    line->setName(name);
    const QList<QPointF> pts = toPoints(x, y, decimationIndices(y, kDrawBuckets));
    line->replace(pts);
    d_->unit = unit;
    d_->extend(pts);
    d_->attach(line);
    d_->applyRanges();
}

void ChartPanel::setStackedAreas(const QStringList& names, const std::vector<double>& x,
                                 const std::vector<std::vector<double>>& layers,
                                 const QString& unit) {
    clear();
    d_->unit = unit;
    if (layers.empty()) return;
    // Reduce on the stack's total so every layer keeps the same x samples (areas would
    // otherwise cross) and the peak of the total survives.
    std::vector<double> total(x.size(), 0.0);
    for (const auto& layer : layers) {
        for (std::size_t i = 0; i < total.size() && i < layer.size(); ++i) total[i] += layer[i];
    }
    const std::vector<std::size_t> idx = decimationIndices(total, kDrawBuckets);
    std::vector<double> base(x.size(), 0.0);
    for (std::size_t k = 0; k < layers.size(); ++k) {
        std::vector<double> top = base;
        for (std::size_t i = 0; i < top.size() && i < layers[k].size(); ++i) {
            if (std::isfinite(layers[k][i])) top[i] += layers[k][i];
        }
        auto* lower = new QLineSeries;
        auto* upper = new QLineSeries;
        lower->replace(toPoints(x, base, idx));
        const QList<QPointF> up = toPoints(x, top, idx);
        upper->replace(up);
        auto* area = new QAreaSeries(upper, lower);
        area->setName(k < static_cast<std::size_t>(names.size()) ? names[static_cast<int>(k)]
                                                                 : QString::number(k));
        d_->extend(up);
        d_->extend(toPoints(x, base, idx));
        d_->attach(area);
        base = std::move(top);
    }
    d_->applyRanges();
}

void ChartPanel::addScatter(const QString& name, const std::vector<double>& x,
                            const std::vector<double>& y, const QString& unit) {
    auto* points = new QScatterSeries;
    points->setName(name);
    points->setMarkerSize(11.0);
    std::vector<std::size_t> all(std::min(x.size(), y.size()));
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    const QList<QPointF> pts = toPoints(x, y, all);
    points->replace(pts);
    d_->unit = unit;
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
