#include "gui/table_models.h"

#include <cmath>
#include <span>

namespace dctwin::gui {

QString readableName(const std::string& name, const std::string& unit) {
    std::string n = name;
    // The unit is shown in brackets; a suffix repeating it ("_pct", "_kW", "_C", "_L_per_kWh"
    // for L/kWh) goes, or the sweep table's header read "wue L per kWh [L/kWh]".
    std::string per = unit;
    for (std::size_t i = per.find('/'); i != std::string::npos; i = per.find('/', i + 5)) {
        per.replace(i, 1, "_per_");
    }
    for (const std::string& suffix : {unit, per, std::string(unit == "%" ? "pct" : "")}) {
        if (!suffix.empty() && n.size() > suffix.size() + 1 && n.ends_with("_" + suffix)) {
            n.resize(n.size() - suffix.size() - 1);
            break;
        }
    }
    QStringList words = QString::fromStdString(n).split(QLatin1Char('_'), Qt::SkipEmptyParts);
    // Abbreviations engineers write in capitals ("PUE", "IT energy", "GPU junction").
    static const QStringList kAcronyms = {"pue", "wue", "it", "gpu",  "tcs",  "fws", "cdu",
                                          "ups", "mv",  "lv", "bess", "crah", "hx"};
    for (QString& w : words) {
        if (kAcronyms.contains(w)) w = w.toUpper();
    }
    return words.join(QLatin1Char(' '));
}

QString loadingExplanation(double loading_pct) {
    if (!std::isfinite(loading_pct)) return {};
    const QString v = QString::number(loading_pct, 'f', 1);
    if (loading_pct > 80.0) {
        return QObject::tr(
                   "%1 % of rating: red, above the 80 % continuous-load limit (NEC) for "
                   "breakers and busway")
            .arg(v);
    }
    if (loading_pct >= 60.0) {
        return QObject::tr(
                   "%1 % of rating: amber, 60–80 %, within the 80 % continuous-load "
                   "limit but with little growth room")
            .arg(v);
    }
    return QObject::tr("%1 % of rating: green, below 60 %").arg(v);
}

QColor loadingColour(double loading_pct) {
    if (!std::isfinite(loading_pct)) return QColor();
    if (loading_pct > 80.0) return QColor(0xf4, 0x9a, 0x9a);   // red
    if (loading_pct >= 60.0) return QColor(0xff, 0xd5, 0x80);  // amber
    return QColor(0xa8, 0xdf, 0xa8);                           // green
}

SizingTableModel::SizingTableModel(QObject* parent) : QAbstractTableModel(parent) {}

namespace {
// The display unit of one row's ratings: W → kW/MW and VA → kVA/MVA by the row's magnitude.
// In the cooling table a power in W is a heat duty (CDU, heat-rejection, CRAH and chiller
// capacities), which IP reads in tons of refrigeration; the electrical table's stay kW/MW.
DisplayUnit rowUnit(const std::string& unit, double magnitude, bool cooling) {
    if (cooling && unit == "W") return displayUnitForQuantity("heat_duty", unit, magnitude);
    if (unit == "VA") {
        if (magnitude >= 1e6) return {QStringLiteral("MVA"), 1e-6, 0.0};
        if (magnitude >= 1e3) return {QStringLiteral("kVA"), 1e-3, 0.0};
        return {QStringLiteral("VA"), 1.0, 0.0};
    }
    return displayUnitFor(unit, magnitude);
}
}  // namespace

void SizingTableModel::setTable(Table table) {
    beginResetModel();
    table_ = std::move(table);
    units_.clear();
    row_units_.clear();
    unit_column_ = -1;
    loading_column_ = -1;
    for (std::size_t c = 0; c < table_.columns.size(); ++c) {
        const Table::Column& col = table_.columns[c];
        if (col.name == "unit" && std::holds_alternative<std::vector<std::string>>(col.data)) {
            unit_column_ = static_cast<int>(c);
        }
    }
    if (unit_column_ >= 0) {
        const auto& row_unit = std::get<std::vector<std::string>>(
            table_.columns[static_cast<std::size_t>(unit_column_)].data);
        for (std::size_t r = 0; r < row_unit.size(); ++r) {
            // The rating sets the row's scale; other unit-less numbers of the row follow it.
            double magnitude = 0.0;
            for (const Table::Column& col : table_.columns) {
                const auto* n = std::get_if<std::vector<double>>(&col.data);
                if (n && col.unit.empty() && r < n->size() && std::isfinite((*n)[r])) {
                    magnitude = std::max(magnitude, std::abs((*n)[r]));
                    if (col.name == "rating") break;
                }
            }
            row_units_.push_back(rowUnit(row_unit[r], magnitude, table_.path == "sizing/cooling"));
        }
    }
    for (std::size_t c = 0; c < table_.columns.size(); ++c) {
        const Table::Column& col = table_.columns[c];
        const auto* numbers = std::get_if<std::vector<double>>(&col.data);
        // Percentages and per-unit values stay as they are; physical units get scaled.
        const bool keep = col.unit == "%" || col.unit == "pct" || col.name.ends_with("_pct");
        units_.push_back(numbers && !keep ? displayUnitFor(col.unit, maxAbs({*numbers}))
                                          : DisplayUnit{QString::fromStdString(col.unit)});
        if (numbers && loading_column_ < 0 && col.name.find("loading") != std::string::npos) {
            loading_column_ = static_cast<int>(c);
        }
    }
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
            if (numbers && col.unit.empty() && row < row_units_.size()) {
                return formatNumber(row_units_[row].fromSI((*numbers)[row]));
            }
            if (numbers) {
                return formatNumber(
                    units_[static_cast<std::size_t>(index.column())].fromSI((*numbers)[row]));
            }
            if (index.column() == unit_column_ && row < row_units_.size()) {
                return row_units_[row].label;
            }
            return QString::fromStdString(std::get<std::vector<std::string>>(col.data)[row]);
        case Qt::UserRole:  // the raw SI value, for sorting and tests
            if (numbers) return (*numbers)[row];
            return QString::fromStdString(std::get<std::vector<std::string>>(col.data)[row]);
        case Qt::TextAlignmentRole:
            return numbers ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
        case Qt::BackgroundRole:
            if (index.column() == loading_column_) {
                const QColor c = loadingColour((*numbers)[row]);
                if (c.isValid()) return c;
            }
            return {};
        case Qt::ToolTipRole:
            // Every coloured cell says which limit it is measured against.
            if (index.column() == loading_column_) return loadingExplanation((*numbers)[row]);
            // Long texts (count rules) are cut to the column width; the tooltip has them whole.
            if (!numbers) {
                return QString::fromStdString(std::get<std::vector<std::string>>(col.data)[row]);
            }
            return {};
        case Qt::ForegroundRole:
            // The loading colours are light; keep the text dark under a dark desktop theme.
            if (index.column() == loading_column_) return QColor(Qt::black);
            return {};
        default:
            return {};
    }
}

QVariant SizingTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole) return {};
    if (orientation == Qt::Vertical) return section + 1;
    if (section < 0 || section >= static_cast<int>(table_.columns.size())) return {};
    const auto s = static_cast<std::size_t>(section);
    const QString name = readableName(table_.columns[s].name, table_.columns[s].unit);
    const QString unit = units_[s].label;
    return unit.isEmpty() ? name : QStringLiteral("%1 [%2]").arg(name, unit);
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
        const DisplayUnit du = displayUnitForQuantity(m.name, m.unit, std::abs(m.value));
        switch (index.column()) {
            case 0: {
                // The metric's own description reads as words; its key is in the tooltip.
                if (m.description.empty()) return readableName(m.name, m.unit);
                QString d = QString::fromStdString(m.description);
                d[0] = d[0].toUpper();
                return d;
            }
            case 1:
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
