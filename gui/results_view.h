#pragma once
// The results tabs (DESIGN.md §5.4): Power, Cooling, Water, Summary; Sweep, Design, Halls (a
// campus of named halls) and Compare when there is something to show. Every channel is optional:
// a tab shows what the report has and says what it lacks, so a design-point report (no time
// series) or an older report still opens. Values are converted for display only here, from
// each channel's own unit.
#include <QList>
#include <QTabWidget>
#include <memory>

#include "core/results.h"
#include "facility/sweep.h"

class QLabel;
class QTableView;

namespace dctwin::gui {

class ChartPanel;
class CoolingSchematic;
class OneLineDiagram;
class RunComparison;
class SizingTableModel;
class SummaryTableModel;

class ResultsView : public QTabWidget {
    Q_OBJECT
public:
    enum Tab {
        PowerTab = 0,
        CoolingTab = 1,
        WaterTab = 2,
        SummaryTab = 3,
        SweepTab = 4,
        DesignTab = 5,
        HallsTab = 6,
        CompareTab = 7
    };

    explicit ResultsView(QWidget* parent = nullptr);
    ~ResultsView() override;

    /// Shows a report; replaces what was shown.
    void setReport(std::shared_ptr<const Report> report);
    std::shared_ptr<const Report> report() const { return report_; }
    /// Shows the report and the sweep again in the current display units (View ▸ Units).
    void refreshUnits();
    /// Clears the report and any sweep.
    void clearReport();
    /// Shows a sweep's cases side by side (one row each, the facility's sweep summary keys)
    /// and PUE against WUE, one point per case; the Sweep tab appears.
    void setSweep(const facility::SweepResult& sweep);
    bool hasSweep() const;
    /// The sweep's table (case, metrics, error), for tests and export.
    SizingTableModel* sweepModel() const { return sweep_table_; }
    /// An ensemble's P10/P50/P90 (and min, mean, max) of every metric; empty for a sweep that
    /// is no ensemble, and then not shown.
    SizingTableModel* percentilesModel() const { return percentiles_table_; }
    /// The percentiles' view, shown only for an ensemble.
    QWidget* percentilesView() const { return percentiles_view_; }
    /// The Design tab's one-line diagram (drawn from the report's sizing tables).
    OneLineDiagram* oneLineDiagram() const { return diagram_; }
    /// The Design tab's cooling schematic (temperatures and flows at peak heat).
    CoolingSchematic* coolingSchematic() const { return schematic_; }
    /// Keeps a finished run for the Compare tab (shown from the second run on); clearReport()
    /// leaves the kept runs alone.
    void keepRun(const QString& label, const Report& report);
    RunComparison* comparison() const { return comparison_; }
    /// The charts on a tab, top to bottom.
    QList<ChartPanel*> charts(Tab tab) const;
    /// The charts on the tab being shown.
    QList<ChartPanel*> currentCharts() const;
    SizingTableModel* powerSizingModel() const { return power_sizing_; }
    SizingTableModel* coolingSizingModel() const { return cooling_sizing_; }
    /// The Design tab's sizing checks (sizing/power_checks: value, relation, limit, basis).
    SizingTableModel* powerChecksModel() const { return power_checks_; }
    SummaryTableModel* summaryModel() const { return summary_; }
    /// The Halls tab's table: one row per hall of a campus (its IT and liquid-cooling energy,
    /// pPUE, water, WUE, hottest junction, hours above the facility and TCS setpoints).
    SizingTableModel* hallsModel() const { return halls_table_; }
    QString waterCaption() const;
    /// The Summary tab's report tables, one per tab (contingency/event_log first, then the
    /// sizing tables and the rest in the report's order).
    QTabWidget* summaryTables() const { return summary_tables_; }

private:
    void showPower(const Report& r);
    void showCooling(const Report& r);
    void showWater(const Report& r);
    void showSummary(const Report& r);
    void showHalls(const Report& r);

    std::shared_ptr<const Report> report_;

    ChartPanel* power_chart_;
    ChartPanel* load_duration_chart_;
    QLabel* power_note_;
    SizingTableModel* power_sizing_;

    ChartPanel* temperature_chart_;
    ChartPanel* heat_chart_;
    ChartPanel* flow_chart_;
    QLabel* cooling_note_;
    SizingTableModel* cooling_sizing_;

    ChartPanel* water_chart_;
    QLabel* water_caption_;
    SizingTableModel* water_sizing_;

    OneLineDiagram* diagram_;
    CoolingSchematic* schematic_;
    SizingTableModel* power_checks_;
    RunComparison* comparison_;
    ChartPanel* sweep_chart_;
    SizingTableModel* sweep_table_;
    SizingTableModel* percentiles_table_;
    QWidget* percentiles_view_;
    ChartPanel* energy_chart_;
    ChartPanel* monthly_pue_chart_;
    ChartPanel* monthly_wue_chart_;
    SummaryTableModel* summary_;
    ChartPanel* halls_temperature_chart_;
    ChartPanel* halls_power_chart_;
    ChartPanel* halls_water_chart_;
    SizingTableModel* halls_table_;
    QTabWidget* summary_tables_;  // one tab per report table, the event log first
    QList<QWidget*> summary_table_widgets_;
};

/// "IT power" for power/it_power: a readable label for a channel name.
QString channelLabel(const std::string& name);

}  // namespace dctwin::gui
