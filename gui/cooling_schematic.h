#pragma once
// The cooling schematic of the Design tab (issue 13): racks → CDUs → facility water → heat
// rejection, each loop drawn as a supply line (blue) and a return line (red) labelled with its
// temperature, and each loop's flow, duty and pressure beside it. The state shown is the
// report's sample of peak heat to liquid — the moment the plant is sized for — so the numbers
// belong together (one instant, not a maximum of each); the counts come from the cooling
// sizing table. A campus of named halls gets one chain per hall, each from the hall's own
// channels and sizing rows, all at the campus's sample of peak heat. Nothing is computed here
// but the pick of that instant and unit conversion.
#include <QDateTime>
#include <QGraphicsView>
#include <optional>
#include <string>
#include <vector>

#include "core/results.h"

class QGraphicsScene;

namespace dctwin::gui {

/// @brief One hall's cooling chain at one instant, in SI.
struct CoolingChain {
    std::string hall;                      ///< "" for a site without named halls
    std::optional<double> tcs_supply;      ///< [K] CDU supply to the racks
    std::optional<double> tcs_return;      ///< [K] rack return to the CDUs
    std::optional<double> fws_supply;      ///< [K] facility water to the CDUs
    std::optional<double> fws_return;      ///< [K] facility water back to heat rejection
    std::optional<double> rack_flow;       ///< [m3/s] one rack's coolant flow (mean)
    std::optional<double> fws_flow;        ///< [m3/s] facility water flow
    std::optional<double> heat_to_liquid;  ///< [W] racks' heat into the TCS
    std::optional<double> heat_rejected;   ///< [W] heat the plant rejects
    std::optional<double> cdu_dp;          ///< [Pa] across the rack branches
};

/// @brief The cooling plant at one instant of a report: a chain per hall (one for a site
/// without named halls), all at the same sample.
struct CoolingState {
    double time_s = 0.0;               ///< [s] since the study start
    QDateTime when;                    ///< the sample's date, when the report has a start
    std::vector<CoolingChain> chains;  ///< in the report's hall order
    std::optional<double> dry_bulb;    ///< [K] outdoor
    std::optional<double> wet_bulb;    ///< [K] outdoor
};

/// @brief The sample of peak cooling/heat_to_liquid (the first if several), or nullopt when
/// the report has no such channel or no samples. A campus's halls are read from their own
/// channels (timeseries/halls/NAME) at that sample: each hall's chain is its own racks, CDUs
/// and plant, where the cooling group holds campus sums, means and the warmest hall's values.
std::optional<CoolingState> coolingAtPeakHeat(const Report& report);

class CoolingSchematic : public QGraphicsView {
    Q_OBJECT
public:
    explicit CoolingSchematic(QWidget* parent = nullptr);

    /// Draws the schematic of `report` (cleared when null or without cooling channels),
    /// counts from its sizing/cooling table, values in the current display units.
    void setReport(const Report* report);
    /// Texts of every text item in the scene, for tests and the PDF.
    QStringList sceneTexts() const;
    /// The state drawn (nullopt when nothing is).
    const std::optional<CoolingState>& state() const { return state_; }

private:
    QGraphicsScene* scene_;
    std::optional<CoolingState> state_;
};

}  // namespace dctwin::gui
