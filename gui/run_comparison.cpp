#include "gui/run_comparison.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "gui/display_units.h"
#include "gui/table_models.h"

namespace dctwin::gui {
namespace {

// Installed units per element of the sizing tables, as comparable "metrics".
std::vector<Metric> sizingCounts(const std::vector<Table>& tables) {
    std::vector<Metric> out;
    for (const char* path : {"sizing/power", "sizing/cooling"}) {
        const Table* t = findTable(tables, path);
        if (!t) continue;
        const std::vector<std::string>* element = nullptr;
        const std::vector<double>* count = nullptr;
        for (const auto& c : t->columns) {
            if (c.name == "element") element = std::get_if<std::vector<std::string>>(&c.data);
            if (c.name == "count") count = std::get_if<std::vector<double>>(&c.data);
        }
        if (!element || !count) continue;
        for (std::size_t i = 0; i < element->size() && i < count->size(); ++i) {
            out.push_back({"count: " + (*element)[i], (*count)[i], "1",
                           "installed " + (*element)[i] + " units"});
        }
    }
    return out;
}

QString unitLabel(const std::string& unit) { return displayUnitFor(unit, 0.0).label; }

}  // namespace

ComparisonModel::ComparisonModel(QObject* parent) : QAbstractTableModel(parent) {}

void ComparisonModel::setRuns(const KeptRun* a, const KeptRun* b) {
    beginResetModel();
    rows_.clear();
    const auto add = [&](const std::vector<Metric>& metrics, bool is_a) {
        for (const Metric& m : metrics) {
            const QString key = QString::fromStdString(m.name);
            auto it = std::find_if(rows_.begin(), rows_.end(),
                                   [&](const Row& r) { return r.key == key; });
            if (it == rows_.end()) {
                Row r;
                r.key = key;
                if (m.description.empty()) {
                    r.name = readableName(m.name, m.unit);
                } else {
                    r.name = QString::fromStdString(m.description);
                    r.name[0] = r.name[0].toUpper();
                }
                r.unit = unitLabel(m.unit);
                r.ratio = m.unit == "1";
                rows_.push_back(r);
                it = rows_.end() - 1;
            }
            (is_a ? it->a : it->b) = m.value;
            (is_a ? it->has_a : it->has_b) = std::isfinite(m.value);
        }
    };
    if (a) {
        add(a->summary, true);
        add(sizingCounts(a->tables), true);
    }
    if (b) {
        add(b->summary, false);
        add(sizingCounts(b->tables), false);
    }
    endResetModel();
}

int ComparisonModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int ComparisonModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : 6;
}

int ComparisonModel::rowOf(const QString& key) const {
    for (std::size_t i = 0; i < rows_.size(); ++i) {
        if (rows_[i].key == key) return static_cast<int>(i);
    }
    return -1;
}

QVariant ComparisonModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) return {};
    const Row& r = rows_[static_cast<std::size_t>(index.row())];
    const bool both = r.has_a && r.has_b;
    const double diff = r.b - r.a;
    if (role == Qt::UserRole) {
        switch (index.column()) {
            case 2:
                return r.has_a ? QVariant(r.a) : QVariant();
            case 3:
                return r.has_b ? QVariant(r.b) : QVariant();
            case 4:
                return both ? QVariant(diff) : QVariant();
            default:
                return {};
        }
    }
    if (role == Qt::ToolTipRole && index.column() == 0) return r.key;
    if (role == Qt::TextAlignmentRole && index.column() >= 2) {
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role == Qt::BackgroundRole && both && diff != 0.0 && index.column() >= 4) {
        return QColor(0xff, 0xf4, 0xcc);  // the rows that differ, at a glance
    }
    if (role == Qt::ForegroundRole && both && diff != 0.0 && index.column() >= 4) {
        return QColor(Qt::black);
    }
    if (role != Qt::DisplayRole) return {};
    // A ratio to four decimals unless whole (a count), as the Summary and the CLI write PUE:
    // at two, two runs of PUE 1.0774 and 1.0762 read "1.08" both and their difference "+0.00".
    const auto cell = [&r](double v) {
        return r.ratio && v != std::round(v) ? QString::number(v, 'f', 4) : formatNumber(v);
    };
    switch (index.column()) {
        case 0:
            return r.name;
        case 1:
            return r.unit;
        case 2:
            return r.has_a ? cell(r.a) : QString();
        case 3:
            return r.has_b ? cell(r.b) : QString();
        case 4:
            if (!both) return QString();
            return diff == 0.0 ? QStringLiteral("=")
                               : (diff > 0 ? QStringLiteral("+") : QString()) + cell(diff);
        case 5:
            if (!both || diff == 0.0 || r.a == 0.0) return QString();
            return QStringLiteral("%1%2 %")
                .arg(diff > 0 ? QStringLiteral("+") : QString())
                .arg(100.0 * diff / std::abs(r.a), 0, 'f', 1);
        default:
            return {};
    }
}

QVariant ComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal) return {};
    const QString names[] = {tr("metric"), tr("unit"), tr("A"), tr("B"), tr("B − A"), tr("change")};
    return section >= 0 && section < 6 ? names[section] : QVariant();
}

RunComparison::RunComparison(QWidget* parent)
    : QWidget(parent),
      a_(new QComboBox),
      b_(new QComboBox),
      model_(new ComparisonModel(this)),
      view_(nullptr) {
    auto* pick = new QGridLayout;
    pick->addWidget(new QLabel(tr("A")), 0, 0);
    pick->addWidget(a_, 0, 1);
    pick->addWidget(new QLabel(tr("B")), 1, 0);
    pick->addWidget(b_, 1, 1);
    pick->setColumnStretch(1, 1);
    auto* view = view_ = new QTableView;
    view->setModel(model_);
    view->verticalHeader()->setVisible(false);
    // The metric column takes the width the numbers leave and wraps: sized to its longest
    // description ("How far the facility supply rises above its setpoint in the year's hottest
    // hour at design heat"), it pushed B − A and the change off a 1280×800 screen.
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    view->setWordWrap(true);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    connect(view->horizontalHeader(), &QHeaderView::sectionResized, view,
            [view](int logical, int, int) {
                if (logical == 0) view->resizeRowsToContents();
            });
    connect(model_, &QAbstractItemModel::modelReset, view,
            [view] { view->resizeRowsToContents(); });
    auto* note =
        new QLabel(tr("Every run since the app started is kept (summary and sizing, not "
                      "the time series). Highlighted rows differ."));
    note->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(pick);
    layout->addWidget(note);
    layout->addWidget(view, 1);
    connect(a_, &QComboBox::currentIndexChanged, this, &RunComparison::update);
    connect(b_, &QComboBox::currentIndexChanged, this, &RunComparison::update);
}

void RunComparison::addRun(const QString& label, const Report& report) {
    runs_.push_back(
        {QStringLiteral("%1. %2").arg(runs_.size() + 1).arg(label), report.summary, report.tables});
    for (QComboBox* c : {a_, b_}) c->addItem(runs_.back().label);
    // The newest against the one before it: what an engineer changing one thing wants.
    compare(std::max(0, runCount() - 2), runCount() - 1);
}

void RunComparison::compare(int a, int b) {
    const QSignalBlocker ba(a_), bb(b_);
    a_->setCurrentIndex(a);
    b_->setCurrentIndex(b);
    update();
}

void RunComparison::update() {
    const auto at = [&](int i) {
        return i >= 0 && i < runCount() ? &runs_[static_cast<std::size_t>(i)] : nullptr;
    };
    model_->setRuns(at(a_->currentIndex()), at(b_->currentIndex()));
}

}  // namespace dctwin::gui
