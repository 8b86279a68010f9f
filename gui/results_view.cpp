#include "gui/results_view.h"

#include <QDateTime>
#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QScrollBar>
#include <QSplitter>
#include <QStyleOptionHeader>
#include <QTabBar>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <span>

#include "core/display.h"
#include "core/units.h"
#include "facility/metrics.h"
#include "gui/cooling_schematic.h"
#include "gui/display_units.h"
#include "gui/load_duration.h"
#include "gui/one_line_diagram.h"
#include "gui/plot/chart_adapter.h"
#include "gui/run_comparison.h"
#include "gui/table_models.h"
#include "gui/water_aggregation.h"

namespace dctwin::gui {
namespace {

// Widest a column opens at: long texts (count rules) would otherwise push the loading
// columns off a 1280-pixel screen; the cell's tooltip has the whole text.
constexpr int kMaxColumnWidth = 220;

// Columns sized to their contents up to kMaxColumnWidth, and the loading columns (the answer
// a sizing table is read for) moved next to the counts.
void arrangeColumns(QTableView* view) {
    QHeaderView* h = view->horizontalHeader();
    view->resizeColumnsToContents();
    for (int c = 0; c < h->count(); ++c) {
        if (h->sectionSize(c) > kMaxColumnWidth) h->resizeSection(c, kMaxColumnWidth);
    }
    if (qobject_cast<const SummaryTableModel*>(view->model())) {
        // A metric's description tells what it is at its end ("IT power after smoothing:
        // share of the variance in 0.1–0.5 Hz"); cut off at the column's edge, twenty rows
        // read "IT power after smoothing: …". Wrapped, each row reads whole, and the column
        // takes the width the value and unit leave (no sideways scrolling in a narrow pane).
        h->setStretchLastSection(false);
        h->setSectionResizeMode(0, QHeaderView::Stretch);
        for (int c = 1; c < h->count(); ++c)
            h->setSectionResizeMode(c, QHeaderView::ResizeToContents);
        view->resizeRowsToContents();
        return;
    }
    const auto* sizing = qobject_cast<const SizingTableModel*>(view->model());
    if (!sizing) return;
    if (sizing->table().path == "sweep") {
        // A case's first shortfall whole, figures included ("facility supply above its
        // setpoint for 2866.2 h (up to 15.3 K)"): at 220 px every row read "facility supply
        // above its setpoint …". The rest is the cell's tooltip.
        const auto& cols = sizing->table().columns;
        for (std::size_t c = 0; c < cols.size(); ++c) {
            if (cols[c].name != "not held") continue;
            const int i = static_cast<int>(c);
            view->resizeColumnToContents(i);
            const int first = view->fontMetrics().horizontalAdvance(
                QStringLiteral("facility supply above its setpoint for 2866.2 h (up to 15.3 K)"));
            h->resizeSection(i, std::min(h->sectionSize(i), first + 24));
        }
        return;
    }
    if (sizing->table().path == "contingency/event_log" && h->count() > 1) {
        // The event's text takes the width; time and source are short.
        h->setStretchLastSection(false);
        h->setSectionResizeMode(1, QHeaderView::Stretch);
        return;
    }
    int after = -1;
    const auto& cols = sizing->table().columns;
    for (std::size_t c = 0; c < cols.size(); ++c) {
        if (cols[c].name == "redundancy") after = h->visualIndex(static_cast<int>(c));
    }
    if (after < 0) return;
    for (std::size_t c = 0; c < cols.size(); ++c) {
        if (cols[c].name.find("loading") == std::string::npos) continue;
        const int from = h->visualIndex(static_cast<int>(c));
        const int to = from > after ? after + 1 : after;
        h->moveSection(from, to);
        after = to;
    }
}

// Calls `f` once, after the first resize that gives `w` a height (a splitter's first layout,
// to give it its opening split), when the widget has laid itself out at that size.
void onFirstResize(QWidget* w, std::function<void()> f) {
    struct Filter : QObject {
        std::function<void()> f;
        bool eventFilter(QObject* o, QEvent* e) override {
            auto* target = static_cast<QWidget*>(o);
            if (e->type() == QEvent::Resize && target->height() > 0 && f) {
                QTimer::singleShot(0, target, std::move(f));
                f = nullptr;
                target->removeEventFilter(this);
                deleteLater();
            }
            return false;
        }
    };
    auto* filter = new Filter;
    filter->setParent(w);
    filter->f = std::move(f);
    w->installEventFilter(filter);
}

// A header whose captions of several words take two lines, broken at the space nearest their
// middle. On one line the Halls table's captions ("TCS hours above setpoint [h]", each far
// wider than its figures) took 1,100 pixels and the last was cut off ("TCS hours above se…")
// in a table with room for a second header line; on two they fit a 1280-pixel screen.
class TwoLineHeader : public QHeaderView {
public:
    explicit TwoLineHeader(QWidget* parent) : QHeaderView(Qt::Horizontal, parent) {
        // Not cut to one line: the style draws the caption's line break.
        setTextElideMode(Qt::ElideNone);
    }

    /// The caption on two lines, broken at the space nearest its middle (as it is, when it is
    /// one word).
    static QString twoLines(const QString& text) {
        int best = -1;
        for (int i = text.indexOf(QLatin1Char(' ')); i >= 0;
             i = text.indexOf(QLatin1Char(' '), i + 1)) {
            if (best < 0 || std::abs(2 * i - text.size()) < std::abs(2 * best - text.size())) {
                best = i;
            }
        }
        if (best < 0) return text;
        return text.left(best) + QLatin1Char('\n') + text.mid(best + 1);
    }

protected:
    // The line break is made here rather than by word wrap in the section's width: word wrap
    // also breaks after a slash ("WUE [L/" over "kWh]").
    void initStyleOptionForIndex(QStyleOptionHeader* option, int logical) const override {
        QHeaderView::initStyleOptionForIndex(option, logical);
        option->text = twoLines(option->text);
    }
    QSize sectionSizeFromContents(int logical) const override {
        QSize size = QHeaderView::sectionSizeFromContents(logical);
        if (!model()) return size;
        const QString text = model()->headerData(logical, orientation()).toString();
        const QFontMetrics fm = fontMetrics();
        int wide = 0;
        for (const QString& l : twoLines(text).split(QLatin1Char('\n'))) {
            wide = std::max(wide, fm.horizontalAdvance(l));
        }
        // The one-line caption's width gives way to its wider line's; every section is two
        // lines high, so that the header's height does not depend on which are shown.
        size.setWidth(size.width() - fm.horizontalAdvance(text) + wide);
        size.setHeight(size.height() + fm.lineSpacing());
        return size;
    }
};

QTableView* makeTableView(QAbstractItemModel* model, bool two_line_header = false) {
    auto* view = new QTableView;
    if (two_line_header) view->setHorizontalHeader(new TwoLineHeader(view));
    view->setModel(model);
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    view->horizontalHeader()->setStretchLastSection(true);
    const bool summary = qobject_cast<const SummaryTableModel*>(model) != nullptr;
    view->setWordWrap(summary);
    view->setTextElideMode(Qt::ElideRight);
    QObject::connect(model, &QAbstractItemModel::modelReset, view, [view] {
        // Back to the table's own order before arranging the new one.
        QHeaderView* h = view->horizontalHeader();
        for (int v = 0; v < h->count(); ++v) h->moveSection(h->visualIndex(v), v);
        arrangeColumns(view);
        // Once more after the header has taken the new columns in (sized now, its captions
        // came out one letter short).
        QTimer::singleShot(0, view, [view] { arrangeColumns(view); });
    });
    if (summary) {
        // Wrapped rows take their height from the metric column's width.
        QObject::connect(view->horizontalHeader(), &QHeaderView::sectionResized, view,
                         [view](int logical, int, int) {
                             if (logical == 0) view->resizeRowsToContents();
                         });
    }
    view->verticalHeader()->setVisible(false);
    view->setAlternatingRowColors(false);  // alternating rows would fight the loading colours
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    return view;
}

QLabel* makeNote() {
    auto* l = new QLabel;
    l->setWordWrap(true);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return l;
}

// Channels of `group` in `preferred` order that exist, then every other channel of the group
// whose unit is in `units` (so a channel the model adds later still shows up).
std::vector<const Channel*> pick(const ResultSet& rs, const std::string& group,
                                 const std::vector<std::string>& preferred,
                                 const std::vector<std::string>& units) {
    std::vector<const Channel*> out;
    for (const std::string& n : preferred) {
        if (const Channel* c = rs.find(group, n);
            c && std::find(units.begin(), units.end(), c->unit) != units.end()) {
            out.push_back(c);
        }
    }
    for (const Channel& c : rs.channels) {
        if (c.group != group || std::find(out.begin(), out.end(), &c) != out.end()) continue;
        if (std::find(units.begin(), units.end(), c.unit) != units.end()) out.push_back(&c);
    }
    return out;
}

std::vector<double> scaled(std::span<const double> v, double divisor) {
    std::vector<double> out(v.size());
    std::transform(v.begin(), v.end(), out.begin(), [divisor](double x) { return x / divisor; });
    return out;
}

// Studies longer than a few days with a start date get calendar dates on the time axis; the
// rest read in s, min, h or days since the start.
bool useCalendar(const ResultSet& rs) {
    return !rs.time.empty() && !rs.start_iso8601.empty() &&
           rs.time.back() - rs.time.front() > 3.0 * units::day &&
           QDateTime::fromString(QString::fromStdString(rs.start_iso8601), Qt::ISODate).isValid();
}

// Seconds per unit of a chart's time axis as timeAxis() makes it (1 on a calendar axis, whose
// x is seconds).
double timeDivisor(const ResultSet& rs) {
    if (rs.time.empty() || useCalendar(rs)) return 1.0;
    return timeAxisFor(rs.time.back() - rs.time.front()).divisor;
}

// Study length from the time series (0 without one).
double studySpan(const ResultSet& rs) {
    return rs.time.size() < 2 ? 0.0 : rs.time.back() - rs.time.front();
}

// Below two days a chart by month is one bar ("7"), a month's figure that is the study's
// own: such charts show a note instead.
constexpr double kMonthlyMinSpan = 2.0 * units::day;

// "10 min", "36 h": a study's length in words for the notes.
QString spanText(double s) {
    const auto num = [](double v) { return QString::number(v, 'g', 3); };
    if (s < 2.0 * units::minute) return QStringLiteral("%1 s").arg(num(s));
    if (s < 2.0 * units::hour) return QStringLiteral("%1 min").arg(num(s / units::minute));
    if (s < 2.0 * units::day) return QStringLiteral("%1 h").arg(num(s / units::hour));
    return QStringLiteral("%1 days").arg(num(s / units::day));
}

// The note a chart by month shows for a study shorter than kMonthlyMinSpan; `where` says
// where the study's figure is instead.
QString tooShortForMonths(const ResultSet& rs, const QString& where) {
    return QObject::tr("Not by month for a study of %1 (months need two days or more): %2")
        .arg(spanText(studySpan(rs)), where);
}

// A contingency's events on a chart over the study's time: the rows of contingency/event_log
// whose source is "event" (the trip or loss the scenario sets; the plan's and the simulation's
// rows follow from it and stay in the table). Its t_s is on the time series' clock.
void markEvents(ChartPanel* chart, const Report& r) {
    const ResultSet& rs = r.timeseries;
    const Table* log = findTable(r.tables, "contingency/event_log");
    if (!log || rs.time.empty() || chart->seriesCount() == 0) return;
    const std::vector<double>* t = nullptr;
    const std::vector<std::string>* what = nullptr;
    const std::vector<std::string>* source = nullptr;
    for (const Table::Column& c : log->columns) {
        if (c.name == "t_s") t = std::get_if<std::vector<double>>(&c.data);
        if (c.name == "event") what = std::get_if<std::vector<std::string>>(&c.data);
        if (c.name == "source") source = std::get_if<std::vector<std::string>>(&c.data);
    }
    if (!t || !what) return;
    const double divisor = timeDivisor(rs);
    std::vector<ChartPanel::EventMarker> markers;
    for (std::size_t i = 0; i < t->size() && i < what->size(); ++i) {
        if (source && i < source->size() && (*source)[i] != "event") continue;
        markers.push_back({(*t)[i] / divisor, QString::fromStdString((*what)[i])});
    }
    chart->setEventMarkers(markers);
}

// The x values and caption of a chart's time axis (seconds on a calendar axis).
std::vector<double> timeAxis(ChartPanel* chart, const ResultSet& rs, QString* caption) {
    if (useCalendar(rs)) {
        // Local time both ways (the axis labels in local time): only day and month are shown.
        const QDateTime start =
            QDateTime::fromString(QString::fromStdString(rs.start_iso8601), Qt::ISODate);
        chart->setCalendarStart(start);
        *caption = QString();
        return {rs.time.begin(), rs.time.end()};
    }
    const TimeAxis ta = timeAxisFor(rs.time.back() - rs.time.front());
    *caption = ta.label;
    return scaled(rs.time, ta.divisor);
}

// A quantity this much smaller than the chart's largest goes on the right-hand axis in its own
// unit: pumps in kW would be a flat line at zero beside MW of heat. Two axes only ever read in
// two units (MW and kW, tons and kW): two axes of one unit at two scales read as two numbers
// for the same height. Small and large are judged by the level a quantity sits at most of the
// time (typicalAbs, its median), not by its peak: the two-hall campus's hall A draws 34 kW of
// liquid cooling (median of the year) beside 4.2 MW of IT, but 232 kW on its hottest afternoon,
// and judged by that peak it was drawn on the MW axis as a flat line at zero with spikes.
constexpr double kSecondAxisRatio = 20.0;

// Lines on one chart; all channels share an SI unit (the caller groups them by unit).
void plotLines(ChartPanel* chart, const ResultSet& rs, const std::vector<const Channel*>& chans,
               const QString& quantity) {
    chart->clear();
    if (chans.empty() || rs.time.empty()) return;
    std::vector<std::span<const double>> all;
    for (const Channel* c : chans) all.emplace_back(c->values);
    const double top = maxAbs(all);
    // Small or not by quantity (the channel's name), at its largest series: one quantity of
    // several halls stays on one axis. Per series, a campus's small hall went on the right,
    // its water in m³ beside the large hall's water in m³ on the left at another scale.
    // Temperatures share one axis whatever their levels; other quantities' levels once per
    // name (a chart of many rack groups repeats one name).
    std::map<std::string, double> level;
    if (chans.front()->unit != "K") {
        for (const Channel* c : chans) {
            if (level.count(c->name)) continue;
            std::vector<std::span<const double>> same;
            for (const Channel* o : chans) {
                if (o->name == c->name) same.emplace_back(o->values);
            }
            level[c->name] = typicalAbs(same);
        }
    }
    double top_level = 0.0;
    for (const auto& [name, l] : level) top_level = std::max(top_level, l);
    std::vector<const Channel*> left, right;
    for (const Channel* c : chans) {
        const bool small = top_level > 0.0 && level[c->name] * kSecondAxisRatio < top_level;
        (small ? right : left).push_back(c);
    }
    std::vector<std::span<const double>> small_values;
    for (const Channel* c : right) small_values.emplace_back(c->values);
    // One unit per axis. Heat flows read in tons of refrigeration in IP, but only when every
    // series on the axis is one (pumps and fans stay in kW).
    const auto unitOf = [&](const std::vector<const Channel*>& side, double magnitude) {
        const bool heat = !side.empty() && std::all_of(side.begin(), side.end(),
                                                       [](auto* c) { return isHeatFlow(c->name); });
        return heat ? displayUnitForQuantity(side.front()->name, side.front()->unit, magnitude)
                    : displayUnitFor(chans.front()->unit, magnitude);
    };
    DisplayUnit du = unitOf(left, top);
    const DisplayUnit du2 = unitOf(right, maxAbs(small_values));
    if (!right.empty() && du2.label == du.label) {
        // One unit, one axis (m³ has no smaller unit to put the small quantity in).
        left = chans;
        right.clear();
        du = unitOf(left, top);
    }
    QString caption;
    const std::vector<double> x = timeAxis(chart, rs, &caption);
    const auto name = [](const Channel* c) {
        QString n = channelLabel(c->name);
        // Per-rack groups ("rack/r01") repeat channel names; the standard groups do not. A
        // hall's series read "FWS supply · A": the legend of a half-width chart has no room
        // for "(halls/A)".
        if (c->group.starts_with("halls/")) {
            n += QStringLiteral(" · %1").arg(QString::fromStdString(c->group.substr(6)));
        } else if (c->group.find('/') != std::string::npos) {
            n += QStringLiteral(" (%1)").arg(QString::fromStdString(c->group));
        }
        // A campus records one facility supply and return, the warmest hall's (its channel
        // says so, facility/study.cpp); the Cooling tab's legend read "FWS supply" beside
        // campus sums, as if the campus had one loop.
        if (c->description.ends_with("of the warmest hall")) n += QStringLiteral(" (warmest hall)");
        return n;
    };
    for (const Channel* c : left) chart->setSeries(name(c), x, du.fromSI(c->values), du.label);
    for (const Channel* c : right) {
        chart->setSeries(name(c), x, du2.fromSI(c->values), du2.label, ChartPanel::Axis::Right);
    }
    chart->setAxisTitles(caption, quantity);
    // Same quantity as the left axis (one unit per chart), and its lines are dashed in the
    // legend as on the plot, so the right title is the unit alone: "power (dashed) [kW]" was
    // cut to "power (dashe…" on the Halls tab's half-height charts at 1280×800, and
    // "dashed [L/min]" to "dashed [L/…" on the Cooling tab's flows.
    if (!right.empty()) chart->setRightAxisTitle(QString());
}

// Month by month: the ratio of two rates' integrals (facility over IT energy for PUE), from
// the time series; empty when a channel is missing or the study is shorter than two samples.
struct MonthlyRatio {
    QStringList months;  // monthCategories
    QString axis_title;  // monthAxisTitle
    std::vector<double> values;
};
MonthlyRatio monthlyRatio(const ResultSet& rs, const Channel* num, double num_scale,
                          const Channel* den, double den_scale) {
    MonthlyRatio out;
    if (!num || !den || rs.time.size() < 2) return out;
    const std::optional<CivilTime> start = parseIso8601(rs.start_iso8601);
    const CivilTime origin = start.value_or(CivilTime{});
    const auto n = monthlyFromRate(rs.time, num->values, origin);
    const auto d = monthlyFromRate(rs.time, den->values, origin);
    std::vector<MonthTotal> kept;
    for (std::size_t i = 0; i < n.size() && i < d.size(); ++i) {
        if (d[i].value <= 0.0) continue;
        kept.push_back(n[i]);
        out.values.push_back(n[i].value * num_scale / (d[i].value * den_scale));
    }
    out.months = monthCategories(kept, start.has_value());
    out.axis_title = monthAxisTitle(kept, start.has_value());
    return out;
}

// The site's other load (lighting, offices, security: site.other_load) in W. The facility
// draws it beside IT, cooling and the electrical losses, but no channel records it: it is a
// constant, and the summary has its energy (other_energy_MWh) over the study (simulated_h).
// Without it the parts of the facility did not add up (150 kW short on the reference site).
// NaN when the report does not say (an older report).
double otherPower(const std::vector<Metric>& summary) {
    const Metric* e = findMetric(summary, "other_energy_MWh");
    const Metric* h = findMetric(summary, "simulated_h");
    if (!e || !h || e->unit != "MWh" || h->unit != "h" || !(h->value > 0.0)) return std::nan("");
    return e->value * units::MWh / (h->value * units::hour);
}

QString missingText(const ResultSet& rs, const std::string& group,
                    const std::vector<std::string>& names) {
    QStringList missing;
    for (const std::string& n : names) {
        if (!rs.find(group, n)) missing << QString::fromStdString(group + "/" + n);
    }
    if (missing.isEmpty()) return {};
    return QObject::tr("Not in this report: %1.").arg(missing.join(QStringLiteral(", ")));
}

}  // namespace

QString channelLabel(const std::string& name) {
    static const std::pair<const char*, const char*> kLabels[] = {
        {"it_power", "IT power"},
        {"facility_power", "facility power"},
        {"cooling_power", "cooling power"},
        {"electrical_losses", "electrical losses"},
        {"grid_power", "grid power (IT after smoothing)"},
        {"tcs_supply_temp", "TCS supply"},
        {"tcs_return_temp", "TCS return"},
        {"fws_supply_temp", "FWS supply"},
        {"fws_return_temp", "FWS return"},
        {"max_gpu_junction_temp", "GPU junction (peak)"},
        {"max_gpu_plate_temp", "GPU cold plate (plate average)"},
        {"tcs_supply_temp_max", "TCS supply (max)"},
        {"mean_gpu_junction_temp", "GPU junction (mean)"},
        {"heat_rejected", "heat rejected"},
        {"fws_pump_power", "facility water pumps"},
        {"air_side_power", "air side (CRAH)"},
        {"fws_flow", "facility water flow"},
        {"heat_to_liquid", "heat to liquid"},
        {"heat_to_air", "heat to air"},
        {"cdu_pump_power", "CDU pumps"},
        {"heat_rejection_fan_power", "heat rejection fans"},
        {"chiller_power", "chillers"},
        {"liquid_cooling_power", "cooling"},           // a hall's pumps, fans and chiller
        {"other_power", "other (lighting, offices)"},  // the site's other load (otherPower)
        {"water_rate", "water use rate"},
        {"water_total", "water used"},
        {"dry_bulb", "outdoor dry bulb"},
        {"wet_bulb", "outdoor wet bulb"},
    };
    for (const auto& [key, label] : kLabels) {
        if (name == key) return QString::fromUtf8(label);
    }
    QString s = QString::fromStdString(name);
    s.replace(QLatin1Char('_'), QLatin1Char(' '));
    return s;
}

ResultsView::ResultsView(QWidget* parent) : QTabWidget(parent) {
    // Power
    power_chart_ = new ChartPanel;
    power_chart_->setTitle(tr("Power"));
    power_note_ = makeNote();
    power_sizing_ = new SizingTableModel(this);
    load_duration_chart_ = new ChartPanel;
    load_duration_chart_->setTitle(tr("Load-duration curve"));
    {
        auto* page = new QSplitter(Qt::Vertical);
        auto* top = new QWidget;
        auto* l = new QVBoxLayout(top);
        l->setContentsMargins(0, 0, 0, 0);
        // The year in time beside the same year sorted by load: the time chart shows when, the
        // load-duration curve how long.
        auto* charts = new QSplitter(Qt::Horizontal);
        charts->addWidget(power_chart_);
        charts->addWidget(load_duration_chart_);
        charts->setStretchFactor(0, 3);
        charts->setStretchFactor(1, 2);
        l->addWidget(charts, 1);
        l->addWidget(power_note_);
        page->addWidget(top);
        page->addWidget(makeTableView(power_sizing_));
        page->setStretchFactor(0, 3);
        page->setStretchFactor(1, 2);
        addTab(page, tr("Power"));
    }
    // Cooling
    temperature_chart_ = new ChartPanel;
    temperature_chart_->setTitle(tr("Temperatures"));
    heat_chart_ = new ChartPanel;
    heat_chart_->setTitle(tr("Heat and cooling power"));
    flow_chart_ = new ChartPanel;
    flow_chart_->setTitle(tr("Flows"));
    cooling_note_ = makeNote();
    cooling_sizing_ = new SizingTableModel(this);
    {
        // Temperatures get the full width: they are what an engineer checks first, and the
        // legend of seven series needs the room.
        auto* page = new QSplitter(Qt::Vertical);
        auto* lower = new QSplitter(Qt::Horizontal);
        lower->addWidget(heat_chart_);
        lower->addWidget(flow_chart_);
        page->addWidget(temperature_chart_);
        page->addWidget(lower);
        page->addWidget(cooling_note_);
        page->addWidget(makeTableView(cooling_sizing_));
        page->setStretchFactor(0, 3);
        page->setStretchFactor(1, 3);
        page->setStretchFactor(3, 2);
        addTab(page, tr("Cooling"));
    }
    // Water
    water_chart_ = new ChartPanel;
    water_chart_->setTitle(tr("Water use by month"));
    water_chart_->setAxisTitles(QString(), tr("water"));
    water_caption_ = makeNote();
    water_sizing_ = new SizingTableModel(this);
    monthly_wue_chart_ = new ChartPanel;
    monthly_wue_chart_->setTitle(tr("WUE by month"));
    {
        auto* page = new QSplitter(Qt::Vertical);
        auto* top = new QWidget;
        auto* l = new QVBoxLayout(top);
        l->setContentsMargins(0, 0, 0, 0);
        auto* charts = new QSplitter(Qt::Horizontal);
        charts->addWidget(water_chart_);
        charts->addWidget(monthly_wue_chart_);
        l->addWidget(charts, 1);
        l->addWidget(water_caption_);
        page->addWidget(top);
        page->addWidget(makeTableView(water_sizing_));
        page->setStretchFactor(0, 3);
        page->setStretchFactor(1, 2);
        addTab(page, tr("Water"));
    }
    // Summary
    energy_chart_ = new ChartPanel;
    energy_chart_->setTitle(tr("Energy by use"));
    energy_chart_->setAxisTitles(QString(), tr("energy"));
    summary_ = new SummaryTableModel(this);
    {
        auto* page = new QSplitter(Qt::Vertical);
        auto* top = new QSplitter(Qt::Horizontal);
        top->addWidget(makeTableView(summary_));
        // PUE by month under the energy: the season shows where the cooling costs. The two
        // charts share one column: side by side their minimum widths left the metrics table
        // 280 pixels at 1280, which cut every value off.
        monthly_pue_chart_ = new ChartPanel;
        monthly_pue_chart_->setTitle(tr("PUE by month"));
        auto* charts = new QSplitter(Qt::Vertical);
        charts->addWidget(energy_chart_);
        charts->addWidget(monthly_pue_chart_);
        top->addWidget(charts);
        top->setStretchFactor(0, 1);
        top->setStretchFactor(1, 1);
        page->addWidget(top);
        // The report's tables one per tab (the event log first), each with the pane's whole
        // height: stacked in a scroll area under the metrics, the pane opened at one row of
        // the first table, on a 2200×1500 screen too, and a contingency's event log was below
        // it out of sight.
        summary_tables_ = new QTabWidget;
        summary_tables_->setDocumentMode(true);
        page->addWidget(summary_tables_);
        page->setChildrenCollapsible(false);
        page->setStretchFactor(0, 3);
        page->setStretchFactor(1, 2);
        // QSplitter opens at its children's size hints, which gave the metrics nearly all of
        // it: the tables get two fifths of the page the first time it has a height (later the
        // user's own split stays), at least the minimum showSummary sets.
        onFirstResize(page, [page] {
            const int tables = std::max(page->widget(1)->minimumHeight(), page->height() * 2 / 5);
            page->setSizes({page->height() - tables, tables});
        });
        addTab(page, tr("Summary"));
    }
    // Sweep: only while a sweep's results are shown.
    sweep_chart_ = new ChartPanel;
    sweep_chart_->setTitle(tr("Cases: PUE against WUE"));
    sweep_table_ = new SizingTableModel(this);
    percentiles_table_ = new SizingTableModel(this);
    {
        auto* page = new QSplitter(Qt::Vertical);
        page->addWidget(sweep_chart_);
        page->addWidget(makeTableView(sweep_table_));
        // An ensemble's spread over its members, as the CLI prints it and
        // sweep_percentiles.csv holds it (every metric, not only the cases table's).
        percentiles_view_ = makeTableView(percentiles_table_);
        percentiles_view_->hide();
        page->addWidget(percentiles_view_);
        page->setStretchFactor(0, 3);
        page->setStretchFactor(1, 2);
        page->setStretchFactor(2, 2);
        addTab(page, tr("Sweep"));
    }
    // Design: the sizing answer at a glance.
    diagram_ = new OneLineDiagram;
    schematic_ = new CoolingSchematic;
    power_checks_ = new SizingTableModel(this);
    {
        // The sizing (counts, ratings, loading) on top; the plant's state at peak heat below
        // it; then the figures the sizing checks against their limits (fault levels,
        // generator step load, UPS autonomy, fuel and BESS energy: sizing/power_checks, issue
        // 15), full width so that the basis column can be read.
        auto* page = new QSplitter(Qt::Vertical);
        page->addWidget(diagram_);
        page->addWidget(schematic_);
        auto* checks = new QWidget;
        auto* l = new QVBoxLayout(checks);
        l->setContentsMargins(0, 0, 0, 0);
        l->addWidget(new QLabel(
            QStringLiteral("<b>%1</b>").arg(tr("Sizing checks: each value against its limit"))));
        l->addWidget(makeTableView(power_checks_), 1);
        page->addWidget(checks);
        page->setStretchFactor(0, 3);
        page->setStretchFactor(1, 2);
        page->setStretchFactor(2, 2);
        addTab(page, tr("Design"));
    }
    // Halls: a campus of named halls, hall beside hall (the other tabs show the campus).
    halls_temperature_chart_ = new ChartPanel;
    halls_temperature_chart_->setTitle(tr("Temperatures by hall"));
    halls_power_chart_ = new ChartPanel;
    halls_power_chart_->setTitle(tr("IT and liquid-cooling power by hall"));
    halls_water_chart_ = new ChartPanel;
    halls_water_chart_->setTitle(tr("Water used by hall, since the start"));
    halls_table_ = new SizingTableModel(this);
    {
        auto* page = new QSplitter(Qt::Vertical);
        page->addWidget(halls_temperature_chart_);
        auto* lower = new QSplitter(Qt::Horizontal);
        lower->addWidget(halls_power_chart_);
        lower->addWidget(halls_water_chart_);
        page->addWidget(lower);
        // Room for a campus's few halls without scrolling (three rows and the header of two
        // lines).
        QTableView* table = makeTableView(halls_table_, true);
        table->setMinimumHeight(60 + 28 * 3);
        page->addWidget(table);
        page->setStretchFactor(0, 3);
        page->setStretchFactor(1, 3);
        page->setStretchFactor(2, 1);
        addTab(page, tr("Halls"));
    }
    comparison_ = new RunComparison;
    addTab(comparison_, tr("Compare"));
    setTabVisible(CompareTab, false);
    clearReport();
}

ResultsView::~ResultsView() = default;

QList<ChartPanel*> ResultsView::charts(Tab tab) const {
    switch (tab) {
        case PowerTab:
            return {power_chart_, load_duration_chart_};
        case CoolingTab:
            return {temperature_chart_, heat_chart_, flow_chart_};
        case WaterTab:
            return {water_chart_, monthly_wue_chart_};
        case SummaryTab:
            return {energy_chart_, monthly_pue_chart_};
        case SweepTab:
            return {sweep_chart_};
        case HallsTab:
            return {halls_temperature_chart_, halls_power_chart_, halls_water_chart_};
        case DesignTab:
        case CompareTab:
            return {};  // a diagram and a table, no chart
    }
    return {};
}

QList<ChartPanel*> ResultsView::currentCharts() const {
    QList<ChartPanel*> out;
    for (ChartPanel* c : charts(static_cast<Tab>(currentIndex()))) {
        if (c->seriesCount() > 0) out << c;
    }
    return out;
}

QString ResultsView::waterCaption() const { return water_caption_->text(); }

void ResultsView::clearReport() {
    report_.reset();
    for (Tab t : {PowerTab, CoolingTab, WaterTab, SummaryTab, SweepTab, HallsTab}) {
        for (ChartPanel* c : charts(t)) c->clear();
    }
    flow_chart_->hide();
    power_sizing_->setTable({});
    cooling_sizing_->setTable({});
    water_sizing_->setTable({});
    power_checks_->setTable({});
    summary_->setMetrics({});
    sweep_table_->setTable({});
    percentiles_table_->setTable({});
    percentiles_view_->hide();
    setTabVisible(SweepTab, false);
    diagram_->setTables(nullptr, nullptr);
    schematic_->setReport(nullptr);
    setTabVisible(DesignTab, false);
    halls_table_->setTable({});
    setTabVisible(HallsTab, false);
    qDeleteAll(summary_table_widgets_);
    summary_table_widgets_.clear();
    // A newcomer's first screen: an empty form with nothing to run. Say where to start.
    const QString none =
        tr("No results yet: run the scenario (F5), start from a shipped one (File ▸ New from "
           "template), or open a report (File ▸ Open report).");
    power_note_->setText(none);
    cooling_note_->setText(none);
    water_caption_->setText(none);
}

void ResultsView::setReport(std::shared_ptr<const Report> report) {
    // A re-run keeps the tab the user is reading (clearReport hides Design and Sweep, which
    // would move the view to a neighbour).
    const int reading = currentIndex();
    clearReport();
    report_ = std::move(report);
    if (!report_) return;
    showPower(*report_);
    showCooling(*report_);
    showWater(*report_);
    showSummary(*report_);
    showHalls(*report_);
    const Table* power = findTable(report_->tables, "sizing/power");
    const Table* cooling = findTable(report_->tables, "sizing/cooling");
    diagram_->setTables(power, cooling);
    schematic_->setReport(report_.get());
    if (const Table* t = findTable(report_->tables, "sizing/power_checks")) {
        power_checks_->setTable(*t);
    }
    setTabVisible(DesignTab, power || cooling);
    if (reading >= 0 && isTabVisible(reading)) setCurrentIndex(reading);
}

void ResultsView::keepRun(const QString& label, const Report& report) {
    comparison_->addRun(label, report);
    setTabVisible(CompareTab, comparison_->runCount() >= 2);
}

void ResultsView::refreshUnits() {
    if (report_) setReport(report_);
    if (hasSweep()) {
        sweep_table_->setTable(Table(sweep_table_->table()));
        percentiles_table_->setTable(Table(percentiles_table_->table()));
    }
}

bool ResultsView::hasSweep() const { return sweep_table_->rowCount() > 0; }

void ResultsView::setSweep(const facility::SweepResult& sweep) {
    // The keys the facility's sweep summary table carries (facility/sweep.cpp), in its order;
    // each name carries its unit.
    const std::pair<const char*, const char*> keys[] = {{"pue", "1"},
                                                        {"wue_L_per_kWh", "L/kWh"},
                                                        {"it_energy_MWh", "MWh"},
                                                        {"facility_energy_MWh", "MWh"},
                                                        {"water_m3", "m3"},
                                                        {"peak_it_kW", "kW"},
                                                        {"peak_facility_kW", "kW"},
                                                        {"max_gpu_junction_C", "C"}};
    Table t;
    t.path = "sweep";
    std::vector<std::string> names, errors;
    for (const Json& s : sweep.summaries) {
        names.push_back(s.value("case", std::string()));
        errors.push_back(s.contains("error") && s["error"].is_string()
                             ? s["error"].get<std::string>()
                             : std::string());
    }
    t.addText("case", names);
    // What each case's plant did not hold, in the run's words (the CLI lists them under its
    // table), beside the case's name: a PUE that reads well may be a plant that ran hot.
    std::vector<std::string> short_of;
    for (const Json& s : sweep.summaries) {
        std::string text;
        for (const std::string& l : facility::notHeldInSummary(s)) {
            text += (text.empty() ? "" : "; ") + l;
        }
        short_of.push_back(text);
    }
    t.addText("not held", short_of);
    std::vector<std::vector<double>> columns;
    for (const auto& [key, unit] : keys) {
        std::vector<double> v;
        for (const Json& s : sweep.summaries) {
            v.push_back(s.contains(key) && s[key].is_number() ? s[key].get<double>()
                                                              : std::nan(""));
        }
        columns.push_back(v);
        t.addNumbers(key, unit, std::move(v));
    }
    t.addText("error", errors);
    sweep_table_->setTable(std::move(t));
    sweep_chart_->clear();
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (!std::isfinite(columns[0][i]) || !std::isfinite(columns[1][i])) continue;
        sweep_chart_->addScatter(QString::fromStdString(names[i]), {columns[1][i]}, {columns[0][i]},
                                 QString());
    }
    sweep_chart_->setAxisTitles(tr("WUE [L/kWh]"), tr("PUE"));
    // The metrics by name in words, as the Summary tab has them; the raw name is the tooltip
    // of the cell (text cells carry their full text), so it is the readable one here.
    // The cases table's metrics first, in its order (PUE, WUE, energies, ...), then the rest
    // by name: the 73 metrics by name put PUE under "power smoothing" and "pump energy".
    std::vector<facility::MetricPercentiles> rows = sweep.percentiles;
    const auto rank = [&](const facility::MetricPercentiles& m) {
        const auto* k = std::find_if(std::begin(keys), std::end(keys),
                                     [&](const auto& key) { return m.metric == key.first; });
        return static_cast<std::size_t>(k - std::begin(keys));
    };
    std::stable_sort(rows.begin(), rows.end(),
                     [&](const auto& a, const auto& b) { return rank(a) < rank(b); });
    Table p = facility::percentilesTable(rows);
    for (Table::Column& c : p.columns) {
        if (c.name == "p10" || c.name == "p50" || c.name == "p90") {
            c.name[0] = 'P';  // the header reads as the CLI's: P10, P50, P90
        }
        if (c.name != "metric") continue;
        auto& names_of = std::get<std::vector<std::string>>(c.data);
        for (std::size_t i = 0; i < names_of.size() && i < rows.size(); ++i) {
            names_of[i] = display::readableName(names_of[i], rows[i].unit);
        }
    }
    percentiles_table_->setTable(std::move(p));
    percentiles_view_->setVisible(!sweep.percentiles.empty());
    setTabVisible(SweepTab, true);
}

void ResultsView::showPower(const Report& r) {
    const ResultSet& rs = r.timeseries;
    const std::vector<std::string> stack_names = {"it_power", "cooling_power", "electrical_losses"};
    QStringList names;
    std::vector<const Channel*> layers;
    for (const std::string& n : stack_names) {
        if (const Channel* c = rs.find("power", n); c && c->unit == "W") {
            layers.push_back(c);
            names << channelLabel(n);
        }
    }
    QString note = missingText(
        rs, "power", {"it_power", "cooling_power", "electrical_losses", "facility_power"});
    if (rs.time.empty()) {
        note =
            tr("This report has no time series (a design-point study); see the sizing "
               "table below.");
    } else if (!layers.empty()) {
        // The site's other load on top (a constant, from the summary): with it the stack
        // reaches the facility line; without it the stack sat ~150 kW under it on the reference
        // site, as if IT, cooling and losses were all the facility drew.
        Channel other{"power", "other_power", "W", {}, {}};
        if (const double p = otherPower(r.summary); p > 0.0) {
            other.values.assign(rs.time.size(), p);
            layers.push_back(&other);
            names << channelLabel(other.name);
        }
        std::vector<double> total(rs.time.size(), 0.0);
        for (const Channel* c : layers) {
            for (std::size_t i = 0; i < total.size() && i < c->values.size(); ++i) {
                total[i] += c->values[i];
            }
        }
        std::vector<std::span<const double>> all{total};
        const Channel* facility = rs.find("power", "facility_power");
        if (facility) all.emplace_back(facility->values);
        const DisplayUnit du = displayUnitFor("W", maxAbs(all));
        power_chart_->clear();
        QString caption;
        const std::vector<double> x = timeAxis(power_chart_, rs, &caption);
        std::vector<std::vector<double>> ys;
        for (const Channel* c : layers) ys.push_back(du.fromSI(c->values));
        power_chart_->setStackedAreas(names, x, ys, du.label);
        // Facility power over the stack: where the two part, the stack misses a use.
        if (facility && facility->unit == "W") {
            power_chart_->setMeanSeries(channelLabel(facility->name), x,
                                        du.fromSI(facility->values), du.label);
        }
        power_chart_->setAxisTitles(caption, tr("power"));
        markEvents(power_chart_, r);
        // IT and facility power sorted high to low over the study's hours, in the time
        // chart's unit so the two read against each other.
        load_duration_chart_->clear();
        // In hours for a year; a 10-minute contingency's axis read 0.000-0.167 h.
        const DurationAxis da = durationAxisFor(studySpan(rs));
        for (const Channel* c : {rs.find("power", "it_power"), facility}) {
            if (!c || c->unit != "W") continue;
            const LoadDurationCurve ldc = loadDurationCurve(rs.time, c->values);
            load_duration_chart_->setSeries(channelLabel(c->name),
                                            scaled(ldc.hours, 1.0 / da.per_hour),
                                            du.fromSI(ldc.value), du.label);
            load_duration_chart_->setSeriesColour(
                channelLabel(c->name),
                c == facility ? ChartPanel::totalLineColour() : ChartPanel::stackColour(0));
        }
        load_duration_chart_->setAxisTitles(da.label, tr("power"));
        if (const double b = power_chart_->meanBucketSeconds(); b > 0.0) {
            note =
                tr("Each point is the mean over %1 h (%2 samples drawn as 2,000); peaks are in "
                   "the Summary. %3")
                    .arg(b / units::hour, 0, 'f', 1)
                    .arg(QLocale(QLocale::English).toString(static_cast<qlonglong>(rs.time.size())))
                    .arg(note);
        }
    } else {
        plotLines(power_chart_, rs, pick(rs, "power", {}, {"W"}), tr("power"));
        markEvents(power_chart_, r);
        if (power_chart_->seriesCount() == 0) note = tr("This report has no power channels.");
    }
    power_note_->setText(note);
    if (const Table* t = findTable(r.tables, "sizing/power")) power_sizing_->setTable(*t);
}

void ResultsView::showCooling(const Report& r) {
    const ResultSet& rs = r.timeseries;
    std::vector<const Channel*> temps =
        pick(rs, "cooling",
             {"tcs_supply_temp", "tcs_return_temp", "fws_supply_temp", "fws_return_temp",
              "max_gpu_junction_temp", "max_gpu_plate_temp"},
             {"K"});
    for (const Channel* c : pick(rs, "weather", {"dry_bulb", "wet_bulb"}, {"K"})) {
        temps.push_back(c);
    }
    // Differences in K (throttle margin, unmet setpoint) would read as −250 °C on this axis;
    // they stay in the exports.
    std::erase_if(temps, [](const Channel* c) { return !isAbsoluteTemperature(c->name); });
    plotLines(temperature_chart_, rs, temps, tr("temperature"));
    plotLines(heat_chart_, rs,
              pick(rs, "cooling",
                   {"heat_to_liquid", "heat_to_air", "cdu_pump_power", "heat_rejection_fan_power",
                    "chiller_power"},
                   {"W"}),
              tr("power"));
    // Flows only when the model reports them; an empty third chart would just take room.
    const auto flows = pick(rs, "cooling", {}, {"m3/s"});
    plotLines(flow_chart_, rs, flows, tr("flow"));
    flow_chart_->setVisible(!flows.empty());
    for (ChartPanel* c : {temperature_chart_, heat_chart_, flow_chart_}) markEvents(c, r);
    cooling_note_->setText(
        rs.time.empty() ? tr("This report has no time series (a design-point study).")
                        : missingText(rs, "cooling",
                                      {"tcs_supply_temp", "tcs_return_temp", "fws_supply_temp",
                                       "fws_return_temp", "max_gpu_junction_temp"}));
    if (const Table* t = findTable(r.tables, "sizing/cooling")) cooling_sizing_->setTable(*t);
}

void ResultsView::showWater(const Report& r) {
    const ResultSet& rs = r.timeseries;
    QStringList lines;
    double total_m3 = std::nan("");
    try {
        const MonthlyWater w = monthlyWaterUse(rs);
        if (!w.months.empty()) {
            std::vector<double> values;
            total_m3 = 0.0;
            // As the WUE and PUE charts beside it write them (monthCategories).
            const QStringList categories = monthCategories(w.months, w.has_year);
            for (const MonthTotal& m : w.months) {
                values.push_back(m.value);
                total_m3 += m.value;
            }
            // m³, or US gallons in IP.
            const DisplayUnit wu = displayUnitFor("m3", total_m3);
            if (studySpan(rs) < kMonthlyMinSpan) {
                water_chart_->setMessage(
                    tooShortForMonths(rs, tr("the study's water is under the charts.")));
                lines << tr("From %1: %2 %3 over the study.")
                             .arg(w.source, formatNumber(wu.fromSI(total_m3)), wu.label);
            } else {
                water_chart_->addBarSet(categories, tr("water use"), wu.fromSI(values), wu.label);
                water_chart_->setCategoryTitle(monthAxisTitle(w.months, w.has_year));
                lines << tr("Monthly totals from %1; %2 %3 over the study.")
                             .arg(w.source, formatNumber(wu.fromSI(total_m3)), wu.label);
            }
            if (!w.has_year && studySpan(rs) >= kMonthlyMinSpan) {
                lines << tr(
                    "The report has no start date; months assume a study starting "
                    "1 January.");
            }
        } else if (w.source.isEmpty()) {
            lines << tr(
                "This report has no water channels (water/water_total or "
                "water/water_rate).");
        } else {
            lines << tr("The time series is too short for monthly totals.");
        }
    } catch (const std::exception& e) {
        lines << QString::fromStdString(e.what());
    }
    const Metric* wue = findMetric(r.summary, "wue_L_per_kWh");
    if (wue && wue->unit == "L/kWh") {
        lines << tr("WUE %1 L/kWh (site water per IT energy).").arg(formatNumber(wue->value));
    } else if (const Channel* it = rs.find("power", "it_power");
               it && it->unit == "W" && std::isfinite(total_m3)) {
        const double it_kWh = integrate(rs.time, it->values) / units::kWh;
        if (it_kWh > 0.0) {
            lines << tr("WUE %1 L/kWh (site water per IT energy, from the time series).")
                         .arg(formatNumber(total_m3 / units::litre / it_kWh));
        }
    }
    water_caption_->setText(lines.join(QLatin1Char(' ')));
    // WUE by month: litres of site water per kWh of IT energy, from the water rate.
    const Channel* rate = rs.find("water", "water_rate");
    const Channel* it = rs.find("power", "it_power");
    if (rate && it && rate->unit == "m3/s" && it->unit == "W" && studySpan(rs) < kMonthlyMinSpan) {
        monthly_wue_chart_->setMessage(
            tooShortForMonths(rs, tr("the study's WUE is under the charts.")));
    } else if (rate && it && rate->unit == "m3/s" && it->unit == "W") {
        const MonthlyRatio by_month =
            monthlyRatio(rs, rate, 1.0 / units::litre, it, 1.0 / units::kWh);
        if (!by_month.values.empty()) {
            monthly_wue_chart_->addBarSet(by_month.months, tr("WUE"), by_month.values,
                                          QStringLiteral("L/kWh"));
            monthly_wue_chart_->setAxisTitles(QString(), tr("WUE"));
            monthly_wue_chart_->setCategoryTitle(by_month.axis_title);
        }
    }
    if (const Table* t = findTable(r.tables, "sizing/water")) water_sizing_->setTable(*t);
}

void ResultsView::showHalls(const Report& r) {
    // The halls of a campus run (their hall_<name>_… metrics); none, and the tab stays hidden.
    const std::vector<std::string> halls = facility::hallNames(r.summary);
    if (halls.empty()) return;
    setTabVisible(HallsTab, true);

    // One row per hall: metric (after "hall_<name>_"), column, unit.
    struct Column {
        const char* metric;
        const char* name;
        const char* unit;
    };
    const Column columns[] = {{"it_energy_MWh", "it_energy_MWh", "MWh"},
                              {"cooling_energy_MWh", "cooling_energy_MWh", "MWh"},
                              {"ppue_cooling", "pPUE_cooling", "1"},
                              {"water_m3", "water_m3", "m3"},
                              {"wue_L_per_kWh", "wue_L_per_kWh", "L/kWh"},
                              {"max_gpu_junction_C", "max_gpu_junction_C", "C"},
                              {"fws_hours_above_setpoint_h", "fws_hours_above_setpoint_h", "h"},
                              {"tcs_hours_above_setpoint_h", "tcs_hours_above_setpoint_h", "h"}};
    Table t;
    t.path = "halls";
    t.addText("hall", halls);
    for (const Column& c : columns) {
        std::vector<double> v;
        for (const std::string& h : halls) {
            const Metric* m = findMetric(r.summary, "hall_" + h + "_" + c.metric);
            v.push_back(m ? m->value : std::nan(""));
        }
        t.addNumbers(c.name, c.unit, std::move(v));
    }
    halls_table_->setTable(std::move(t));

    // The series, hall beside hall: plotLines names each "(halls/<name>)".
    const ResultSet& rs = r.timeseries;
    std::vector<const Channel*> temps, water;
    for (const std::string& h : halls) {
        // These three by name: the group's other series in K include differences
        // (setpoint_unmet), which would read as −273 °C on this axis.
        for (const char* n : {"fws_supply_temp", "tcs_supply_temp_max", "max_gpu_junction_temp"}) {
            if (const Channel* c = rs.find("halls/" + h, n)) temps.push_back(c);
        }
        if (const Channel* c = rs.find("halls/" + h, "water_total")) water.push_back(c);
    }
    plotLines(halls_temperature_chart_, rs, temps, tr("temperature"));
    plotLines(halls_water_chart_, rs, water, tr("water"));
    // A hall's liquid cooling is its CDU and facility pumps, heat-rejection fans and trim
    // chiller (as hall_<name>_cooling_energy_MWh); summed here, the series are the report's.
    std::vector<Channel> cooling;
    cooling.reserve(halls.size());
    for (const std::string& h : halls) {
        Channel sum{"halls/" + h, "liquid_cooling_power", "W", {}, {}};
        sum.values.assign(rs.time.size(), 0.0);
        bool any = false;
        for (const char* n :
             {"cdu_pump_power", "fws_pump_power", "heat_rejection_fan_power", "chiller_power"}) {
            const Channel* c = rs.find("halls/" + h, n);
            if (!c || c->values.size() != sum.values.size()) continue;
            any = true;
            for (std::size_t i = 0; i < sum.values.size(); ++i) sum.values[i] += c->values[i];
        }
        if (any) cooling.push_back(std::move(sum));
    }
    std::vector<const Channel*> power;
    for (const std::string& h : halls) {
        if (const Channel* c = rs.find("halls/" + h, "it_power")) power.push_back(c);
    }
    for (const Channel& c : cooling) power.push_back(&c);
    plotLines(halls_power_chart_, rs, power, tr("power"));
}

void ResultsView::showSummary(const Report& r) {
    summary_->setMetrics(r.summary);
    // Energy by use from the time series; a design-point report has none, then the run's
    // energy metrics (if any) stand in.
    const ResultSet& rs = r.timeseries;
    QStringList categories;
    std::vector<double> mwh;
    // Short category names: "electrical losses" was cut to "electrical lo…" in a half-width
    // chart; beside IT, cooling and facility, "losses" reads as the electrical chain's.
    const std::pair<const char*, QString> uses[] = {{"it_power", tr("IT")},
                                                    {"cooling_power", tr("cooling")},
                                                    {"electrical_losses", tr("losses")},
                                                    {"facility_power", tr("facility")}};
    // The site's other load (lighting, offices, security) has no channel: its bar is the
    // summary's other_energy_MWh, between the losses and the facility, so that the parts add up
    // to the facility bar (1,314 MWh short on the reference site without it).
    const Metric* other = findMetric(r.summary, "other_energy_MWh");
    if (other && (other->unit != "MWh" || !(other->value > 0.0))) other = nullptr;
    for (const auto& [n, label] : uses) {
        const Channel* c = rs.find("power", n);
        if (!c || c->unit != "W" || rs.time.size() < 2) continue;
        if (other && std::string_view(n) == "facility_power") {
            categories << tr("other");
            mwh.push_back(other->value);
            other = nullptr;  // once
        }
        categories << label;
        mwh.push_back(integrate(rs.time, c->values) / units::MWh);
    }
    if (other && !categories.isEmpty()) {  // no facility channel: the parts still
        categories << tr("other");
        mwh.push_back(other->value);
    }
    if (categories.isEmpty()) {
        // The facility's metric names (facility/metrics.h), one set for CLI, report and GUI.
        const std::pair<const char*, QString> metrics[] = {
            {"it_energy_MWh", tr("IT")},
            {"cooling_energy_MWh", tr("cooling")},
            {"electrical_loss_energy_MWh", tr("losses")},
            {"other_energy_MWh", tr("other")},
            {"facility_energy_MWh", tr("facility")}};
        for (const auto& [name, label] : metrics) {
            const Metric* m = findMetric(r.summary, name);
            if (!m || m->unit != "MWh") continue;
            if (std::string_view(name) == "other_energy_MWh" && !(m->value > 0.0)) continue;
            categories << label;
            mwh.push_back(m->value);
        }
    }
    if (!categories.isEmpty()) {
        // kWh below 1 MWh, as the metrics beside it (metricDisplayUnit): a short study's bars
        // read 0.004 on an MWh axis.
        double top = 0.0;
        for (double v : mwh) top = std::max(top, std::isfinite(v) ? std::abs(v) : 0.0);
        const DisplayUnit eu = metricDisplayUnit("energy", "MWh", top);
        std::vector<double> shown(mwh.size());
        for (std::size_t i = 0; i < mwh.size(); ++i) shown[i] = eu.fromSI(mwh[i]);
        energy_chart_->addBarSet(categories, tr("energy"), shown, eu.label);
    }
    const Channel* it = rs.find("power", "it_power");
    const Channel* facility = rs.find("power", "facility_power");
    if (it && facility && it->unit == "W" && facility->unit == "W" &&
        studySpan(rs) < kMonthlyMinSpan) {
        monthly_pue_chart_->setMessage(
            tooShortForMonths(rs, tr("the study's PUE is in the table.")));
    } else if (it && facility && it->unit == "W" && facility->unit == "W") {
        const MonthlyRatio pue = monthlyRatio(rs, facility, 1.0, it, 1.0);
        if (!pue.values.empty()) {
            // From 1, PUE's floor: from 0 the twelve bars of 1.07-1.10 looked alike.
            monthly_pue_chart_->setBarFloor(1.0);
            monthly_pue_chart_->addBarSet(pue.months, tr("PUE"), pue.values, QString());
            monthly_pue_chart_->setAxisTitles(QString(), tr("PUE"));
            monthly_pue_chart_->setCategoryTitle(pue.axis_title);
        }
    }
    // A contingency's event log first: what happened when is what its reader looks for; the
    // sizing tables have tabs of their own.
    std::vector<const Table*> tables;
    for (const Table& t : r.tables) {
        if (t.path == "contingency/event_log")
            tables.insert(tables.begin(), &t);
        else
            tables.push_back(&t);
    }
    int least = 0;
    for (const Table* tp : tables) {
        const Table& t = *tp;
        auto* model = new SizingTableModel;
        model->setTable(t);
        auto* view = makeTableView(model);
        model->setParent(view);  // deleted with its view
        arrangeColumns(view);    // the model was filled before the view connected to it
        QTimer::singleShot(0, view, [view] { arrangeColumns(view); });
        summary_tables_->addTab(view, QString::fromStdString(t.path));
        summary_tables_->setTabToolTip(
            summary_tables_->count() - 1,
            tr("%1: %2 rows").arg(QString::fromStdString(t.path)).arg(t.rows()));
        summary_table_widgets_ << view;
        // The header and five rows (or all of a shorter table) in view without scrolling,
        // under the sideways scroll bar of a wide table (the sizing tables at 1400 pixels).
        const int rows = std::min(5, static_cast<int>(t.rows()));
        least = std::max(least, view->horizontalHeader()->sizeHint().height() +
                                    rows * view->verticalHeader()->defaultSectionSize() +
                                    view->horizontalScrollBar()->sizeHint().height() +
                                    2 * view->frameWidth());
    }
    summary_tables_->setCurrentIndex(0);
    summary_tables_->setMinimumHeight(
        least > 0 ? least + summary_tables_->tabBar()->sizeHint().height() + 4 : 0);
}

}  // namespace dctwin::gui
