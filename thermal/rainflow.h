#pragma once
/// @file
/// @brief Rainflow cycle counting (ASTM E1049-85 (2017), "Standard Practices for Cycle Counting
/// in Fatigue Analysis", §5.4.4) of a temperature history, for the thermal cycles that
/// synchronized training imposes on GPU packages (solder and underfill fatigue).
///
/// Pure functions, no model state. The procedure, as the standard gives it:
///   1. reduce the history to its reversals (peaks and valleys; repeated values and points
///      between a rise and a further rise dropped);
///   2. read reversals one by one onto a stack; with X the range of the two newest points and Y
///      the range of the two before them: while the stack holds ≥ 3 points and X ≥ Y, if Y
///      contains the first point of the history count Y as a half cycle and drop that first
///      point, otherwise count Y as one cycle and drop its two points;
///   3. count the ranges left on the stack as half cycles.
/// A "range" is the difference between the two extremes of a cycle (peak − valley, ΔT for a
/// temperature); the amplitude is half of it.
///
/// | function           | input                            | output                          |
/// |--------------------|----------------------------------|---------------------------------|
/// | reversals()        | history [any unit]               | peaks and valleys [same unit]   |
/// | rainflowCycles()   | history [any unit]               | (range [same unit], count [1])  |
/// | histogram()        | cycles, bin edges [same unit]    | cycles per bin [1]              |
#include <span>
#include <vector>

namespace dctwin::thermal {

/// One counted cycle: its range (peak − valley) and 1.0 (full) or 0.5 (half) cycles.
struct RainflowCycle {
    double range = 0.0;  ///< [unit of the history] peak − valley
    double count = 0.0;  ///< [1] 1 or 0.5
    double mean = 0.0;   ///< [unit of the history] (peak + valley)/2
};

/// @brief The peaks and valleys of a history, in order (ASTM E1049 §3.2.7 reversals).
/// @param history samples in time order; the first and last samples are kept as reversals
/// @param hysteresis changes smaller than this do not make a reversal (0: every change does);
/// it keeps sampling noise from counting as cycles
std::vector<double> reversals(std::span<const double> history, double hysteresis = 0.0);

/// @brief Rainflow counting of a history (ASTM E1049 §5.4.4), in the order cycles close.
/// @param history samples in time order
/// @param hysteresis see reversals()
std::vector<RainflowCycle> rainflowCycles(std::span<const double> history, double hysteresis = 0.0);

/// @brief Cycles per range bin: bin i counts ranges in [edges[i], edges[i+1]) (the last bin
/// also takes ranges ≥ its upper edge when `open_top`); ranges below edges[0] are not counted.
std::vector<double> histogram(const std::vector<RainflowCycle>& cycles,
                              const std::vector<double>& edges, bool open_top = true);

}  // namespace dctwin::thermal
