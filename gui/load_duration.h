#pragma once
// Load-duration curve (issue 13, "Charts that read"): a power series sorted from the highest
// value down, against the hours of the study at or above each value. It answers the sizing
// questions a time chart hides: how many hours the site runs above 90 % of its peak, how flat
// its load is, how often the last transformer or chiller would be needed.
//
// Each sample stands for the time the report's energy integral gives it (trapezoid rule: half
// the interval on each side, half an interval at the ends), so the area under the curve is the
// study's energy, the same number the Summary shows, and uneven sampling does not bias it.
#include <span>
#include <vector>

namespace dctwin::gui {

struct LoadDurationCurve {
    std::vector<double> hours;  ///< [h] time at or above the value, rising from 0
    std::vector<double> value;  ///< values sorted high to low, in the unit given
};

/// @brief The load-duration curve of `values` sampled at `time_s` (ascending seconds): one
/// point per sample at the cumulative hours up to and including it, preceded by (0, peak).
/// Non-finite samples are left out (with their time). Empty when fewer than two samples.
/// @param time_s [s] sample times
/// @param values samples, any unit
LoadDurationCurve loadDurationCurve(std::span<const double> time_s, std::span<const double> values);

}  // namespace dctwin::gui
