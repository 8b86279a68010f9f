#pragma once
/// @file
/// @brief What a telemetry file holds, for `dctwin trace inspect` (issue 11): the detected
/// format, columns and units, devices, span, sampling step and jitter, gaps, and statistics
/// of the power (or first) column per device and summed.
///
/// Statistics (x_i(t): the column of device i; S(t) = Σ_i x_i(t) on the common grid of
/// aggregateTrace, gaps interpolated):
///   min, mean, max per device over its samples (N/A skipped);
///   swing = max S − min S;
///   largest change = max |S(t + τ) − S(t)| over τ = max(1 s, grid step);
///   dominant period = 1/f of the largest DFT component of S − mean (grid_metrics.h).
#include "core/json.h"
#include "power/trace.h"

namespace dctwin::power {

/// @brief The inspection as JSON (keys: file, format, time_column, start_utc, columns,
/// devices, statistic_column, sum, warnings). Units: seconds, and the column's unit.
Json inspectTrace(const TraceData& data);

/// @brief The same as aligned text for a terminal.
std::string inspectionText(const Json& inspection);

}  // namespace dctwin::power
