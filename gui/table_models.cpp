#include "gui/table_models.h"

#include <cmath>
#include <span>

namespace dctwin::gui {

QString readableName(const std::string& name, const std::string& unit) {
    return QString::fromStdString(display::readableName(name, unit));
}

LoadingScale loadingScaleOf(const std::string& table_path, const std::string& element) {
    if (table_path != "sizing/cooling") return LoadingScale::Electrical;
    return element == "rack_loop_flow" ? LoadingScale::Delivered : LoadingScale::Cooling;
}

namespace {

// One scale: amber from `amber` %, red above `red` %, and what each band says; a scale that
// is not `coloured` says its one text (green_text) for every value.
struct Scale {
    bool coloured;
    double amber, red;
    const char* of;     // what the percentage is of
    const char* limit;  // what the red threshold is
    const char* red_text;
    const char* amber_text;
    const char* green_text;
};

const Scale& scaleOf(LoadingScale s) {
    static const Scale kElectrical{
        true,
        60.0,
        80.0,
        QT_TR_NOOP("of rating"),
        QT_TR_NOOP("the 80 % continuous-load limit"),
        QT_TR_NOOP("red, above the 80 % continuous-load limit (NEC) for breakers and busway"),
        QT_TR_NOOP("amber, 60–80 %, within the 80 % continuous-load limit but with little growth "
                   "room"),
        QT_TR_NOOP("green, below 60 %")};
    static const Scale kCooling{true,
                                90.0,
                                100.0,
                                QT_TR_NOOP("of its capacity at the design conditions"),
                                QT_TR_NOOP("100 % (cannot carry the design load)"),
                                QT_TR_NOOP("red, above 100 %, it cannot carry the design load"),
                                QT_TR_NOOP("amber, 90–100 %, less than a tenth left"),
                                QT_TR_NOOP("green, below 90 %")};
    static const Scale kDelivered{
        false,
        0.0,
        0.0,
        QT_TR_NOOP("of the design flow, to the least-supplied rack at the design point"),
        "",
        "",
        "",
        QT_TR_NOOP("a delivered share, not a load, so not coloured: below 100 % is the CDU's "
                   "pressure reset at work; the GPU junction margin says whether it is enough")};
    switch (s) {
        case LoadingScale::Cooling:
            return kCooling;
        case LoadingScale::Delivered:
            return kDelivered;
        case LoadingScale::Electrical:
            break;
    }
    return kElectrical;
}

// The power sizing works out a fault level (fault_current_kA) only at the buses whose
// switchgear it picks against one, and a breaking capacity (interrupting_kA) only for that
// switchgear (power/sizing.cpp: the transformer's LV side, the LV switchgear and the UPS
// critical bus). Every other row (PSU shelves, feeds, busway, UPS, the MV side, generator,
// BESS) stores 0, not NaN: power/sizing.h documents 0 as "not computed" / "n/a", and a report
// holds no other mark for it. Shown as "0 kA" such a cell read as a bus that cannot fault.
// A 0 is blanked only on the rows whose kind has no such figure, so that a 0 where the sizing
// does compute one (which no real bus has) still shows.
bool notWorkedOut(const Table& table, const Table::Column& col, std::size_t row) {
    if (table.path != "sizing/power") return false;
    const bool fault = col.name == "fault_current_kA";
    if (!fault && col.name != "interrupting_kA") return false;
    const auto* numbers = std::get_if<std::vector<double>>(&col.data);
    if (!numbers || row >= numbers->size() || (*numbers)[row] != 0.0) return false;
    for (const Table::Column& c : table.columns) {
        const auto* text = std::get_if<std::vector<std::string>>(&c.data);
        if (c.name != "element" || !text || row >= text->size()) continue;
        const std::string& e = (*text)[row];
        const bool has = e == "lv_switchgear" || e == "ups_bus" || (fault && e == "transformer");
        return !has;
    }
    return false;
}

enum class Band { Green, Amber, Red };
Band bandOf(double loading_pct, const Scale& s) {
    if (!s.coloured) return Band::Green;  // its one text is green_text
    return loading_pct > s.red ? Band::Red : loading_pct >= s.amber ? Band::Amber : Band::Green;
}

}  // namespace

QString loadingKey(LoadingScale scale) {
    const Scale& s = scaleOf(scale);
    if (!s.coloured) return QObject::tr(s.green_text);
    return QObject::tr("green below %1 %, amber %1–%2 %, red above %3")
        .arg(s.amber)
        .arg(s.red)
        .arg(QObject::tr(s.limit));
}

QString loadingExplanation(double loading_pct, LoadingScale scale) {
    if (!std::isfinite(loading_pct)) return {};
    const Scale& s = scaleOf(scale);
    const Band b = bandOf(loading_pct, s);
    const char* words = b == Band::Red     ? s.red_text
                        : b == Band::Amber ? s.amber_text
                                           : s.green_text;
    return QStringLiteral("%1 % %2: %3")
        .arg(QString::number(loading_pct, 'f', 1), QObject::tr(s.of), QObject::tr(words));
}

QColor loadingColour(double loading_pct, LoadingScale scale) {
    if (!std::isfinite(loading_pct) || !scaleOf(scale).coloured) return QColor();
    switch (bandOf(loading_pct, scaleOf(scale))) {
        case Band::Red:
            return QColor(0xf4, 0x9a, 0x9a);
        case Band::Amber:
            return QColor(0xff, 0xd5, 0x80);
        case Band::Green:
            break;
    }
    return QColor(0xa8, 0xdf, 0xa8);
}

SizingTableModel::SizingTableModel(QObject* parent) : QAbstractTableModel(parent) {}

LoadingScale SizingTableModel::scaleOfRow(std::size_t row) const {
    for (const Table::Column& c : table_.columns) {
        const auto* text = std::get_if<std::vector<std::string>>(&c.data);
        if (c.name == "element" && text && row < text->size()) {
            return loadingScaleOf(table_.path, (*text)[row]);
        }
    }
    return loadingScaleOf(table_.path);
}

void SizingTableModel::setTable(Table table) {
    beginResetModel();
    table_ = std::move(table);
    display_ = tableDisplay(table_);
    endResetModel();
}

int SizingTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || table_.columns.empty() ? 0 : static_cast<int>(table_.rows());
}

int SizingTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(table_.columns.size());
}

QVariant SizingTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) return {};
    const Table::Column& col = table_.columns[static_cast<std::size_t>(index.column())];
    const auto row = static_cast<std::size_t>(index.row());
    const auto* numbers = std::get_if<std::vector<double>>(&col.data);
    if (numbers && row >= numbers->size()) return {};
    if (!numbers && row >= std::get<std::vector<std::string>>(col.data).size()) return {};
    switch (role) {
        case Qt::DisplayRole:
            if (notWorkedOut(table_, col, row)) return formatNumber(std::nan(""));  // "–"
            return QString::fromStdString(
                display_.cell(table_, row, static_cast<std::size_t>(index.column())));
        case Qt::UserRole:  // the raw SI value, for sorting and tests
            if (numbers) return (*numbers)[row];
            return QString::fromStdString(std::get<std::vector<std::string>>(col.data)[row]);
        case Qt::TextAlignmentRole:
            return numbers ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
        case Qt::BackgroundRole:
            if (index.column() == display_.loadingColumn()) {
                const QColor c = loadingColour((*numbers)[row], scaleOfRow(row));
                if (c.isValid()) return c;
            }
            return {};
        case Qt::ToolTipRole:
            // Every coloured cell says which limit it is measured against.
            if (index.column() == display_.loadingColumn())
                return loadingExplanation((*numbers)[row], scaleOfRow(row));
            if (notWorkedOut(table_, col, row)) {
                return tr(
                    "Not worked out for this element: the sizing computes fault levels "
                    "at the transformer's LV side, the LV switchgear and the UPS bus.");
            }
            // Long texts (count rules) are cut to the column width; the tooltip has them whole.
            if (!numbers) {
                return QString::fromStdString(std::get<std::vector<std::string>>(col.data)[row]);
            }
            return {};
        case Qt::ForegroundRole:
            // The loading colours are light; keep the text dark under a dark desktop theme.
            if (index.column() == display_.loadingColumn()) return QColor(Qt::black);
            return {};
        default:
            return {};
    }
}

QVariant SizingTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole) return {};
    if (orientation == Qt::Vertical) return section + 1;
    if (section < 0 || section >= static_cast<int>(table_.columns.size())) return {};
    return QString::fromStdString(display_.header(table_, static_cast<std::size_t>(section)));
}

SummaryTableModel::SummaryTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void SummaryTableModel::setMetrics(std::vector<Metric> metrics) {
    beginResetModel();
    metrics_ = std::move(metrics);
    endResetModel();
}

int SummaryTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(metrics_.size());
}

int SummaryTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : 3;
}

QVariant SummaryTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) return {};
    const Metric& m = metrics_[static_cast<std::size_t>(index.row())];
    if (role == Qt::DisplayRole) {
        // By the value's size: a 10-minute study's CDU pumps read 4.21 kWh, not 0.00421 MWh.
        const DisplayUnit du = metricDisplayUnit(m.name, m.unit, m.value, m.description);
        switch (index.column()) {
            case 0: {
                // The metric's own description reads as words; its key is in the tooltip.
                if (m.description.empty()) return readableName(m.name, m.unit);
                QString d = QString::fromStdString(m.description);
                d[0] = d[0].toUpper();
                return d;
            }
            case 1:
                if (m.unit == "1") {
                    // A ratio (PUE, a partial PUE) as the tables and the CLI write it, to four
                    // decimals unless whole (a count): at two, the reference's 1.0774 and the
                    // campus's 1.0762 both read "1.08", and hall A's pPUE read 1.01 here and
                    // 1.0093 on the Halls tab. The rule is core/display.h's TableDisplay's, so
                    // that the two never drift apart.
                    Table one;
                    one.addNumbers(m.name, m.unit, {m.value});
                    return QString::fromStdString(tableDisplay(one).cell(one, 0, 0));
                }
                return formatNumber(du.fromSI(m.value));
            default:
                return du.label;
        }
    }
    if (role == Qt::UserRole && index.column() == 1) return m.value;
    if (role == Qt::ToolTipRole) {
        return m.description.empty()
                   ? QString::fromStdString(m.name)
                   : QStringLiteral("%1 — %2").arg(QString::fromStdString(m.name),
                                                   QString::fromStdString(m.description));
    }
    if (role == Qt::TextAlignmentRole && index.column() == 1) {
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QVariant SummaryTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal) return {};
    switch (section) {
        case 0:
            return tr("metric");
        case 1:
            return tr("value");
        case 2:
            return tr("unit");
        default:
            return {};
    }
}

const Metric* findMetric(const std::vector<Metric>& metrics, const std::string& name) {
    for (const Metric& m : metrics) {
        if (m.name == name) return &m;
    }
    return nullptr;
}

const Table* findTable(const std::vector<Table>& tables, const std::string& path) {
    for (const Table& t : tables) {
        if (t.path == path) return &t;
    }
    return nullptr;
}

}  // namespace dctwin::gui
