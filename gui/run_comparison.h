#pragma once
// Compare designs (issue 13): every run made since the app started is kept (its summary and
// sizing tables, not its time series), and two of them are shown side by side, metric by
// metric, with the difference, so a change of heat rejection or UPS topology reads as
// "PUE 1.12 → 1.09, −2.7 %" rather than two windows' worth of numbers.
#include <QAbstractTableModel>
#include <QWidget>
#include <memory>
#include <vector>

#include "core/results.h"

class QComboBox;
class QTableView;

namespace dctwin::gui {

/// One kept run: what it was (label) and its summary and sizing tables.
struct KeptRun {
    QString label;  ///< scenario, file and time, as the results label says
    std::vector<Metric> summary;
    std::vector<Table> tables;
};

/// Metric by metric: name, unit, run A, run B, B − A and (B − A)/|A| in %. Rows are the
/// metrics of either run, A's order first; a metric only one run has shows blank for the other.
/// Sizing counts (installed units per element of sizing/power and sizing/cooling) follow as
/// "count: ups" rows, so a design change that adds equipment shows.
class ComparisonModel : public QAbstractTableModel {
    Q_OBJECT
public:
    explicit ComparisonModel(QObject* parent = nullptr);

    void setRuns(const KeptRun* a, const KeptRun* b);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    /// The row of a metric by its key ("pue", "count: ups"), or -1.
    int rowOf(const QString& key) const;

private:
    struct Row {
        QString key, name, unit;
        bool ratio = false;  // unit "1": PUE and the like, shown to four decimals
        double a = 0, b = 0;
        bool has_a = false, has_b = false;
    };
    std::vector<Row> rows_;
};

/// The Compare tab: two lists of the kept runs and the comparison table.
class RunComparison : public QWidget {
    Q_OBJECT
public:
    explicit RunComparison(QWidget* parent = nullptr);

    /// Keeps a run (newest last) and compares it with the one before it.
    void addRun(const QString& label, const Report& report);
    int runCount() const { return static_cast<int>(runs_.size()); }
    /// Compares kept runs a and b (indices in the order they were added).
    void compare(int a, int b);
    ComparisonModel* model() const { return model_; }
    QTableView* view() const { return view_; }

private:
    void update();

    std::vector<KeptRun> runs_;
    QComboBox* a_;
    QComboBox* b_;
    ComparisonModel* model_;
    QTableView* view_;
};

}  // namespace dctwin::gui
