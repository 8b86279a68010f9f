#pragma once
// Table models for the results tabs: the sizing tables (DESIGN.md §3.2: loading of every
// element, coloured so an overloaded breaker stands out) and the summary metrics. Both are plain
// QAbstractTableModels, testable without a display.
#include <QAbstractTableModel>
#include <QColor>
#include <vector>

#include "core/results.h"
#include "gui/display_units.h"

namespace dctwin::gui {

/// Which limit a loading is read against.
///  - Electrical (the power table): green below 60 %, amber from 60 % to 80 %, red above 80 %,
///    the NEC continuous-load limit for breakers and busway (domain-facts D: NEC 210.19/215.2).
///  - Cooling (the cooling table): a unit's load against its capacity at the design conditions
///    (CDUs at their approach, heat rejection and air-cooled chillers at the design weather):
///    green below 90 %, amber from 90 % to 100 % (less than a tenth left), red above 100 %
///    (it cannot carry the design load). No code puts a cooling unit's limit at 80 %; the
///    project's N+1 and growth margin are in the counts already.
///  - Delivered (the cooling table's rack_loop_flow row): the least-supplied rack's flow
///    against its design flow. More is better and under 100 % is the CDU's pressure reset at
///    work, not a shortfall, so it is not coloured: read on the cooling scale, 93 % was amber
///    ("less than a tenth left"). Whether the flow is enough is the junction margin's to say.
enum class LoadingScale { Electrical, Cooling, Delivered };

/// The scale of a sizing table's row by the table's path and the row's element:
/// "sizing/cooling" Cooling (its "rack_loop_flow" row Delivered), every other Electrical.
LoadingScale loadingScaleOf(const std::string& table_path, const std::string& element = {});

/// The scale in words for a colour key: "green below 60 %, amber 60–80 %, red above the 80 %
/// continuous-load limit" (from the same record the colours and tooltips read).
QString loadingKey(LoadingScale scale);

/// Loading colour of a sizing row on its scale (above); invalid (no fill) for a NaN and on
/// the Delivered scale.
QColor loadingColour(double loading_pct, LoadingScale scale = LoadingScale::Electrical);

/// "design loading" for the column design_loading_pct in %: words, without a unit suffix the
/// header shows in brackets anyway.
QString readableName(const std::string& name, const std::string& unit);

/// The tooltip of a loading cell: the value and the limit its colour refers to (on the
/// Delivered scale, what the share is and why it has no colour).
QString loadingExplanation(double loading_pct, LoadingScale scale = LoadingScale::Electrical);

/// A sizing table (Report::tables entry). Numeric columns are shown in display units (W →
/// kW/MW per column; per row where a "unit" column gives each row its unit, so a 1,500,000 W
/// UPS reads 1.50 MW); text cells carry their full text as tooltip; the loading column
/// (design_loading_pct) gets its cell coloured by loadingColour().
class SizingTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    explicit SizingTableModel(QObject* parent = nullptr);

    void setTable(Table table);
    const Table& table() const { return table_; }
    /// Index of the loading column, or -1 when the table has none.
    int loadingColumn() const { return display_.loadingColumn(); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    LoadingScale scaleOfRow(std::size_t row) const;  // by the table and the row's element
    Table table_;
    display::TableDisplay display_;  // display units per column and per row
};

/// Report::summary as three columns: metric, value, unit. Values are shown in display units
/// (K → °C for temperatures, J → kWh/MWh, W → kW/MW; a short study's MWh below 1 in kWh and h
/// below 1 in min or s, metricDisplayUnit); Qt::UserRole gives the stored value.
class SummaryTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    explicit SummaryTableModel(QObject* parent = nullptr);

    void setMetrics(std::vector<Metric> metrics);
    const std::vector<Metric>& metrics() const { return metrics_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::vector<Metric> metrics_;
};

/// The metric called `name`, or nullptr.
const Metric* findMetric(const std::vector<Metric>& metrics, const std::string& name);
/// The table at `path` ("sizing/power"), or nullptr.
const Table* findTable(const std::vector<Table>& tables, const std::string& path);

}  // namespace dctwin::gui
