#include "gui/pdf_report.h"

#include <QAbstractItemModel>
#include <QBuffer>
#include <QDateTime>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QPageLayout>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QTextLayout>
#include <QTextOption>
#include <algorithm>
#include <vector>

#include "facility/metrics.h"
#include "gui/cooling_schematic.h"
#include "gui/export_check.h"
#include "gui/one_line_diagram.h"
#include "gui/plot/chart_adapter.h"
#include "gui/results_view.h"
#include "gui/table_models.h"

namespace dctwin::gui {
namespace {

constexpr int kDpi = 96;                // one PDF unit per screen pixel: widgets render 1:1
constexpr double kChartHeight = 330.0;  // two charts and their legends to a landscape page
constexpr double kChartMinHeight = 0.5 * kChartHeight;  // legible, legends whole
constexpr double kMaxColumn = 260.0;  // a long text column would push the loadings off

// Lays content out top to bottom, page after page, with a footer on each page.
class PageFlow {
public:
    PageFlow(QPdfWriter& writer, QPainter& painter, QString footer, int total_pages)
        : writer_(writer),
          p_(painter),
          footer_(std::move(footer)),
          total_(total_pages),
          area_(QPointF(0, 0), writer.pageLayout().paintRectPixels(kDpi).size()) {
        y_ = area_.top();
    }

    QPainter& painter() { return p_; }
    double left() const { return area_.left(); }
    double width() const { return area_.width(); }
    double y() const { return y_; }
    double bottom() const { return area_.bottom() - 24.0; }  // the footer's band
    double room() const { return bottom() - y_; }
    bool atTop() const { return y_ <= area_.top(); }
    void advance(double h) { y_ += h; }
    int page() const { return page_; }

    void newPage() {
        drawFooter();
        writer_.newPage();
        ++page_;
        y_ = area_.top();
    }
    /// A new page unless `h` fits below (or the page is still empty).
    void ensure(double h) {
        if (!atTop() && y_ + h > bottom()) newPage();
    }
    void finish() { drawFooter(); }

    void heading(const QString& text, int point_size = 13) {
        QFont f = p_.font();
        f.setPointSize(point_size);
        f.setBold(true);
        const QFontMetricsF fm(f, &writer_);
        // Wrapped: a long scenario name in the 18 pt title ran off the page.
        const QRectF r = fm.boundingRect(QRectF(left(), 0, width(), 1e6), Qt::TextWordWrap, text);
        ensure(r.height() + fm.height() * 2);
        p_.save();
        p_.setFont(f);
        p_.drawText(QRectF(left(), y_, width(), r.height()), Qt::AlignLeft | Qt::TextWordWrap,
                    text);
        p_.restore();
        y_ += r.height() + fm.height() * 0.4;
    }

    void paragraph(const QString& text) {
        const QFontMetricsF fm(p_.font(), &writer_);
        const QRectF r = fm.boundingRect(QRectF(left(), 0, width(), 1e6), Qt::TextWordWrap, text);
        ensure(r.height());
        p_.drawText(QRectF(left(), y_, width(), r.height()), Qt::TextWordWrap, text);
        y_ += r.height() + fm.height() * 0.4;
    }

private:
    void drawFooter() {
        p_.save();
        QFont f = p_.font();
        f.setPointSize(8);
        p_.setFont(f);
        p_.setPen(QColor(90, 90, 90));
        const QRectF band(left(), area_.bottom() - 16.0, width(), 16.0);
        p_.drawLine(band.topLeft(), band.topRight());
        p_.drawText(band, Qt::AlignLeft | Qt::AlignBottom, footer_);
        p_.drawText(band, Qt::AlignRight | Qt::AlignBottom,
                    total_ > 0 ? QObject::tr("page %1 of %2").arg(page_).arg(total_)
                               : QObject::tr("page %1").arg(page_));
        p_.restore();
    }

    QPdfWriter& writer_;
    QPainter& p_;
    QString footer_;
    int total_;
    QRectF area_;
    double y_ = 0.0;
    int page_ = 1;
};

// The columns in the order the results tabs show them: a sizing table's loading columns
// right after its redundancy column (results_view.cpp arrangeColumns), the rest as stored.
std::vector<int> displayedColumns(const QAbstractItemModel& m) {
    std::vector<int> order;
    for (int c = 0; c < m.columnCount(); ++c) order.push_back(c);
    const auto* sizing = qobject_cast<const SizingTableModel*>(&m);
    if (!sizing) return order;
    const auto& cols = sizing->table().columns;
    std::vector<int> loading, rest;
    int redundancy = -1;
    for (int c = 0; c < static_cast<int>(cols.size()) && c < m.columnCount(); ++c) {
        if (cols[c].name.find("loading") != std::string::npos) {
            loading.push_back(c);
        } else {
            rest.push_back(c);
            if (cols[c].name == "redundancy") redundancy = static_cast<int>(rest.size());
        }
    }
    if (redundancy < 0) return order;
    rest.insert(rest.begin() + redundancy, loading.begin(), loading.end());
    return rest;
}

QColor colourOf(const QVariant& v) {
    if (v.canConvert<QBrush>()) return v.value<QBrush>().color();
    if (v.canConvert<QColor>()) return v.value<QColor>();
    return {};
}

// Height of `text` wrapped to `width`, at word boundaries where it has them and anywhere in a
// token longer than the line (a catalog key such as "york_ycal0033ee_air_cooled").
double wrappedHeight(const QFont& font, QPaintDevice* device, const QString& text, double width) {
    QTextLayout layout(text, font, device);
    QTextOption o;
    o.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    layout.setTextOption(o);
    double h = 0.0;
    layout.beginLayout();
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
        line.setLineWidth(width);
        h += line.height();
    }
    layout.endLayout();
    return std::max(h, QFontMetricsF(font, device).height());
}

// `text` in `cell` (less the padding), wrapped as wrappedHeight measures it, centred
// vertically.
void drawWrapped(QPainter& p, QPaintDevice* device, const QRectF& cell, double pad,
                 const QString& text, Qt::Alignment horizontal) {
    const double w = cell.width() - 2 * pad;
    const double h = wrappedHeight(p.font(), device, text, w);
    QTextOption o(horizontal);
    o.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    p.drawText(QRectF(cell.left() + pad, cell.top() + (cell.height() - h) / 2, w, h), text, o);
}

// A table model drawn as the views show it: headers (with their units), display texts,
// alignments and the loading colours; the header is repeated on each page it runs onto.
// Every cell wraps, so nothing is elided: a client reads "static_1500kw", not "static_…".
// A table wider than the page (the electrical sizing's 18 columns) is drawn in column groups
// one below the other, each starting with the first column, which names the row.
void drawTable(PageFlow& flow, QPaintDevice* device, const QAbstractItemModel& m) {
    QPainter& p = flow.painter();
    const std::vector<int> cols = displayedColumns(m);
    if (m.rowCount() == 0 || cols.empty()) {
        flow.paragraph(QObject::tr("(not in this report)"));
        return;
    }
    QFont body = p.font();
    body.setPointSize(8);
    QFont head = body;
    head.setBold(true);
    const QFontMetricsF fb(body, device), fh(head, device);
    const double pad = 5.0;
    const double row_h = fb.height() + 6.0;
    // One-line widths; a column is given at most kMaxColumn and wraps beyond it.
    std::vector<double> natural;
    for (int c : cols) {
        double cw = fh.horizontalAdvance(m.headerData(c, Qt::Horizontal).toString());
        for (int r = 0; r < m.rowCount(); ++r) {
            cw = std::max(cw, fb.horizontalAdvance(m.index(r, c).data().toString()));
        }
        natural.push_back(cw + 2 * pad);
    }
    const auto capped = [&](std::size_t i) { return std::min(natural[i], kMaxColumn); };
    // Columns in order, a new group when the next would pass `limit`.
    const auto split = [&](double limit) {
        std::vector<std::vector<std::size_t>> groups{{0}};
        double used = capped(0);
        for (std::size_t i = 1; i < cols.size(); ++i) {
            if (groups.back().size() > 1 && used + capped(i) > limit) {
                groups.push_back({0});
                used = capped(0);
            }
            groups.back().push_back(i);
            used += capped(i);
        }
        return groups;
    };
    std::vector<std::vector<std::size_t>> groups = split(flow.width());
    if (groups.size() > 1) {
        // As many groups as the page needs, of even widths: the smallest limit that needs no
        // more groups (greedy filling alone left a last group of one column).
        double lo = 0.0, hi = flow.width();
        for (int k = 0; k < 40; ++k) {
            const double mid = 0.5 * (lo + hi);
            (split(mid).size() <= groups.size() ? hi : lo) = mid;
        }
        groups = split(hi);
    }

    for (const std::vector<std::size_t>& g : groups) {
        // Widths: each column's one-line width up to the cap; room left over goes to the
        // columns that wrap, in proportion to what they lack, so fewer of their rows wrap.
        std::vector<double> w;
        double total = 0.0, lack = 0.0;
        for (std::size_t i : g) {
            w.push_back(capped(i));
            total += w.back();
            lack += natural[i] - w.back();
        }
        if (total > flow.width()) {
            for (double& x : w) x *= flow.width() / total;
        } else if (lack > 0.0) {
            const double share = std::min(1.0, (flow.width() - total) / lack);
            for (std::size_t k = 0; k < g.size(); ++k) w[k] += share * (natural[g[k]] - w[k]);
        }
        double header_h = row_h;
        for (std::size_t k = 0; k < g.size(); ++k) {
            const QString t = m.headerData(cols[g[k]], Qt::Horizontal).toString();
            header_h = std::max(header_h, wrappedHeight(head, device, t, w[k] - 2 * pad) + 6.0);
        }
        const auto header = [&] {
            double x = flow.left();
            p.save();
            p.setFont(head);
            for (std::size_t k = 0; k < g.size(); ++k) {
                const QRectF cell(x, flow.y(), w[k], header_h);
                p.fillRect(cell, QColor(225, 225, 225));
                p.setPen(QColor(160, 160, 160));
                p.drawRect(cell);
                p.setPen(Qt::black);
                drawWrapped(p, device, cell, pad,
                            m.headerData(cols[g[k]], Qt::Horizontal).toString(), Qt::AlignLeft);
                x += w[k];
            }
            p.restore();
            flow.advance(header_h);
        };
        const auto rowHeight = [&](int r) {
            double h = row_h;
            for (std::size_t k = 0; k < g.size(); ++k) {
                const QString t = m.index(r, cols[g[k]]).data().toString();
                if (fb.horizontalAdvance(t) + 2 * pad <= w[k]) continue;  // one line
                h = std::max(h, wrappedHeight(body, device, t, w[k] - 2 * pad) + 6.0);
            }
            return h;
        };
        // No row alone on a page: a table starts where its header and first two rows fit (an
        // orphan), and when the next-to-last row fits but the last would not, both go over
        // (a widow: the design point's summary left its last row, the facility loop's
        // freezing point, alone at the top of a page).
        const int rows = m.rowCount();
        flow.ensure(header_h + (rows > 1 ? rowHeight(0) + rowHeight(1) : row_h));
        header();
        p.save();
        p.setFont(body);
        int on_page = 0;  // rows drawn below this page's header
        for (int r = 0; r < rows; ++r) {
            const double h = rowHeight(r);
            const bool widow =
                r == rows - 2 && on_page > 1 && flow.y() + h + rowHeight(r + 1) > flow.bottom();
            if (flow.y() + h > flow.bottom() || widow) {
                p.restore();
                flow.newPage();
                header();
                p.save();
                p.setFont(body);
                on_page = 0;
            }
            ++on_page;
            double x = flow.left();
            for (std::size_t k = 0; k < g.size(); ++k) {
                const QModelIndex idx = m.index(r, cols[g[k]]);
                const QRectF cell(x, flow.y(), w[k], h);
                if (const QColor bg = colourOf(idx.data(Qt::BackgroundRole)); bg.isValid()) {
                    p.fillRect(cell, bg);
                }
                p.setPen(QColor(200, 200, 200));
                p.drawRect(cell);
                const QColor fg = colourOf(idx.data(Qt::ForegroundRole));
                p.setPen(fg.isValid() ? fg : QColor(Qt::black));
                const QVariant a = idx.data(Qt::TextAlignmentRole);
                const Qt::Alignment align =
                    a.isValid() ? Qt::Alignment(a.toInt()) : (Qt::AlignLeft | Qt::AlignVCenter);
                drawWrapped(p, device, cell, pad, idx.data().toString(),
                            align & Qt::AlignHorizontal_Mask);
                x += w[k];
            }
            flow.advance(h);
        }
        p.restore();
        flow.advance(row_h * 0.6);
    }
}

// Charts with data side by side in one row (the app puts heat and flows side by side).
void drawCharts(PageFlow& flow, const QList<ChartPanel*>& charts) {
    QList<ChartPanel*> drawn;
    for (ChartPanel* c : charts) {
        if (c && c->seriesCount() > 0) drawn << c;
    }
    if (drawn.isEmpty()) return;
    // A row takes the rest of a page down to half its height rather than start a new page:
    // the campus's Halls page left the two hall charts a page of their own, two-thirds empty,
    // with a third of the page above them unused.
    flow.ensure(kChartMinHeight);
    const double h = std::min(kChartHeight, flow.room());
    const double gap = 8.0;
    const double w = (flow.width() - gap * (drawn.size() - 1)) / drawn.size();
    for (int i = 0; i < drawn.size(); ++i) {
        drawn[i]->renderTo(&flow.painter(), QRectF(flow.left() + i * (w + gap), flow.y(), w, h));
    }
    flow.advance(h + gap);
}

// Every page of the report; returns how many.
int layOut(QPdfWriter& writer, ResultsView& results, const PdfReportInfo& info, int total,
           QString* error) {
    QPainter p;
    if (!p.begin(&writer)) {
        *error = QObject::tr("the PDF writer could not start a page");
        return 0;
    }
    QFont base = p.font();
    base.setPointSize(9);
    p.setFont(base);
    PageFlow flow(writer, p, QObject::tr("dctwin report: %1").arg(info.scenario), total);

    // 1. Title block and summary metrics.
    flow.heading(QObject::tr("dctwin report: %1").arg(info.scenario), 18);
    flow.paragraph(QObject::tr("Scenario: %1").arg(info.scenario));
    flow.paragraph(QObject::tr("File: %1").arg(info.file));
    flow.paragraph(QObject::tr("Study: %1").arg(info.study));
    flow.paragraph(QObject::tr("Results: %1").arg(info.run));
    // What the plant did not hold, on the first page as above the app's results.
    if (const auto report = results.report()) {
        for (const std::string& l : facility::notHeld(report->summary)) {
            flow.paragraph(QObject::tr("Not held: %1.").arg(QString::fromStdString(l)));
        }
    }
    flow.paragraph(QObject::tr("Report written %1 by dctwin-gui.")
                       .arg(QDateTime::currentDateTimeUtc().toString(
                           QStringLiteral("yyyy-MM-dd HH:mm 'UTC'"))));
    flow.advance(8.0);
    // A contingency's event log before the metrics (which run over pages): what switched when
    // (the event, the generator plan, what the simulation found), as the app lists it first
    // among its tables and the CLI prints it under the summary.
    if (const auto report = results.report()) {
        for (const Table& t : report->tables) {
            if (t.path != "contingency/event_log" || t.rows() == 0) continue;
            SizingTableModel log;
            log.setTable(t);
            flow.heading(QObject::tr("Event log"));
            drawTable(flow, &writer, log);
        }
    }
    flow.heading(QObject::tr("Summary metrics"));
    drawTable(flow, &writer, *results.summaryModel());

    const bool series = results.report() && !results.report()->timeseries.time.empty();
    // 2. Electrical: sizing and the power chart.
    flow.newPage();
    flow.heading(QObject::tr("Electrical sizing"));
    drawTable(flow, &writer, *results.powerSizingModel());
    if (series) {
        flow.heading(QObject::tr("Power"));
        drawCharts(flow, {results.charts(ResultsView::PowerTab).value(0)});
    } else {
        flow.paragraph(
            QObject::tr("This report has no time series (a design-point study): no charts."));
    }
    // 3. Cooling: sizing and the cooling charts.
    flow.newPage();
    flow.heading(QObject::tr("Cooling sizing"));
    drawTable(flow, &writer, *results.coolingSizingModel());
    if (series) {
        const QList<ChartPanel*> cooling = results.charts(ResultsView::CoolingTab);
        drawCharts(flow, {cooling.value(0)});                    // temperatures, full width
        drawCharts(flow, {cooling.value(1), cooling.value(2)});  // heat and flows
    }
    // 3b. A campus: its halls side by side, as the Halls tab shows them.
    if (results.hallsModel()->rowCount() > 0) {
        flow.newPage();
        flow.heading(QObject::tr("Halls"));
        drawTable(flow, &writer, *results.hallsModel());
        if (series) {
            const QList<ChartPanel*> halls = results.charts(ResultsView::HallsTab);
            drawCharts(flow, {halls.value(0)});
            drawCharts(flow, {halls.value(1), halls.value(2)});
        }
    }
    // 4. The one-line diagram as the Design tab draws it.
    if (OneLineDiagram* d = results.oneLineDiagram(); d && !d->blocks().empty()) {
        flow.newPage();
        flow.heading(QObject::tr("One-line diagram"));
        QGraphicsScene* scene = d->scene();
        const QRectF source = scene->itemsBoundingRect().adjusted(-10, -10, 10, 10);
        scene->render(&p, QRectF(flow.left(), flow.y(), flow.width(), flow.room()), source,
                      Qt::KeepAspectRatio);
    }
    // 5. The cooling chain as the Design tab draws it: temperatures, flows and duties at the
    // sample where the liquid carries the most heat.
    if (CoolingSchematic* c = results.coolingSchematic(); c && c->state()) {
        flow.newPage();
        flow.heading(QObject::tr("Cooling chain"));
        QGraphicsScene* scene = c->scene();
        const QRectF source = scene->itemsBoundingRect().adjusted(-10, -10, 10, 10);
        const double h = std::min(flow.room(), flow.width() * source.height() / source.width());
        scene->render(&p, QRectF(flow.left(), flow.y(), flow.width(), h), source,
                      Qt::KeepAspectRatio);
    }
    flow.finish();
    const int pages = flow.page();
    if (!p.end()) {
        *error = QObject::tr("the PDF writer failed while finishing the file");
        return 0;
    }
    return pages;
}

void setUp(QPdfWriter& writer, const PdfReportInfo& info) {
    writer.setResolution(kDpi);
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Landscape,
                                     QMarginsF(12, 12, 12, 12), QPageLayout::Millimeter));
    writer.setTitle(QObject::tr("dctwin report: %1").arg(info.scenario));
    writer.setCreator(QStringLiteral("dctwin-gui"));
}

}  // namespace

int writePdfReport(const QString& path, ResultsView& results, const PdfReportInfo& info,
                   QString* error) {
    QString err;
    if (!results.report()) {
        *error = QObject::tr("nothing to export: run the scenario or open a report first");
        return 0;
    }
    // QSaveFile renames over the target, which replaces a symbolic link or a device: refused
    // before any work, as the CLI refuses them.
    if (!checkExportFile(path, "PDF report", error)) return 0;
    // First pass in memory, for "page n of N".
    int total = 0;
    {
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        QPdfWriter writer(&buffer);
        setUp(writer, info);
        total = layOut(writer, results, info, 0, &err);
        if (total == 0) {
            *error = err;
            return 0;
        }
    }
    // QSaveFile writes beside the target and renames on commit(); without commit() the
    // temporary file is removed, so the target is never partial.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = file.errorString();
        return 0;
    }
    int pages = 0;
    {
        QPdfWriter writer(&file);
        setUp(writer, info);
        pages = layOut(writer, results, info, total, &err);
    }
    if (pages == 0 || file.error() != QFileDevice::NoError) {
        *error = pages == 0 ? err : file.errorString();
        file.cancelWriting();
        return 0;
    }
    if (!file.commit()) {
        *error = file.errorString();
        return 0;
    }
    return pages;
}

}  // namespace dctwin::gui
