#pragma once
/// @file
/// @brief Every result figure computed once, with its unit in its name and a description
/// (DESIGN.md §3.4, §5.2). The HDF5 report's /summary, the summary JSON, the CLI text and the
/// GUI all read these; none recomputes a metric.
///
/// Names: the unit is part of the name where there is one (`it_energy_MWh`, `peak_it_kW`,
/// `max_gpu_junction_C`, `peak_ups_loading_pct`); design-point figures start with `design_`,
/// figures taken from a simulated run with `peak_`/`max_` or name the total. GPU temperatures
/// say which they are: `junction` (the die, what throttling acts on; with a resolved workload
/// its sampled peak, with an averaged one the expected peak = junction at the averaged power
/// + the iteration swing the averaging hides) or `plate` (the cold plate's average).
///
/// Equations:
///   PUE = E_facility / E_IT;  pPUE_cooling = (E_IT + E_cooling) / E_IT;
///   pPUE_power = (E_IT + E_losses) / E_IT;  WUE = V_water [L] / E_IT [kWh];
///   energy balance = (E_facility − E_rejected − ΔU_stored) / E_facility;
///   E_other = P_other · t_fed, t_fed = study length less each utility loss's dead-bus window
///   [loss, generators online) (the whole rest of the study when no set starts): the other load
///   is served only while a source feeds the bus (facility/plant.h SitePower). E_facility is
///   drawn at the MV incomer — from the utility, or from the generators while they carry the
///   site — and does not include the UPS battery's discharge (that energy is in ΔU_stored);
///   swing = max − min of a channel after the first 5 % of the run (controller start-up);
///   GPU thermal cycles: rainflow counting (ASTM E1049, thermal/rainflow.h) of each GPU
///   class's junction history (resolved workloads), changes < 0.5 K ignored, binned by range
///   (peak − valley) 0.5–2, 2–5, 5–10, 10–20, ≥ 20 K, per GPU of the most-cycled class and
///   per day = count · 86,400 s / study length;
///   throttle hours = Σ Δt of output intervals whose junction peak is ≥ the throttle temperature;
///   compute lost to heat (issue 10), from the racks' latch L and clock factor f
///   (power/rack.h), per rack group of N GPUs (racks represented × GPUs per rack):
///     GPUs tripped = Σ N·L,  GPUs throttled = Σ N·(1 − L)·[f < 1],  racks tripped = Σ n·L,
///     GPUs lost = Σ N·(1 − (1 − L)·f)  (GPU-equivalents of compute not delivered),
///   per job over the groups running it while it runs (start ≤ t < end); a job's GPU-hours
///   scheduled = its GPUs × its time in the study (from the schedule, exact); GPU-hours
///   tripped, throttled and lost (site and per job over its window) = those quantities
///   integrated over the integrator's step ends and the samples (trapezoids between them, the
///   throttle's crossing of T_thr placed linearly; ComputeNodes in metrics.cpp), so they do not
///   depend on the output grid (undefined for a job with no time in the study); compute lost
///   = GPU-hours lost / GPU-hours scheduled, the site's over the jobs in the study. Throttling
///   counts as clock time lost: a GPU at half clock for an hour loses half a GPU-hour whatever
///   its utilization.
///   hours above a setpoint = time the linear interpolant of the sampled excess (facility
///   supply: the plant's setpoint_unmet; TCS: the warmest CDU's supply − setpoint) exceeds
///   0.05 K, the tolerance sizing uses; the worst excess is the largest sample.
/// Grid side (transient and contingency studies, /power/grid): ramps, windowed swing, band
/// shares and band swings of power/grid_metrics.h on the rack demand, the IT power after
/// smoothing and the utility draw (same 5 % skip); grid_limits_pass checks the utility draw
/// against the scenario's limits; bess_throughput = ∫ |P_facility − P_grid| dt.
#include <span>
#include <vector>

#include "core/results.h"
#include "facility/sizing.h"
#include "facility/specs.h"
#include "facility/study.h"

namespace dctwin::facility {

/// Design-point figures (the `size` command's, and part of every run's).
std::vector<Metric> designMetrics(const SiteSizing& sizing, const DesignPoint& d);

/// A study's figures from what it recorded (design-point figures not included).
std::vector<Metric> studyMetrics(const ScenarioSpec& spec, const StudyResults& r);

/// Contingency details beyond the metrics: the events as analysed, the time to the first
/// throttle, whether anything overloaded (null when the study had no events).
Json contingencyReport(const ScenarioSpec& spec, const StudyResults& r);

/// Sites of up to this many jobs record per-job time series unless the study says otherwise
/// (StudySpec::per_job_channels).
inline constexpr std::size_t kPerJobChannelsUpTo = 64;

/// Channels of the compute lost to heat (group "compute": site totals; "jobs/<job name>": per
/// job, '/' in a name read as '_', where the study records them): records them on `rec`, and
/// returns the site's and each job's GPU-hours integrated over the integrator's step ends and
/// the samples (complete once the run has ended; StudyResults::compute). Called by the study
/// with its other channels.
std::shared_ptr<const ComputeSums> recordComputeChannels(const SiteModel& m,
                                                         const ScenarioSpec& spec, Recorder& rec);

/// Per job: GPUs, GPU-hours scheduled, tripped, throttled and lost, and the share of compute
/// lost (report table "study/jobs"); no rows without a workload.
Table jobComputeTable(const ScenarioSpec& spec, const StudyResults& r);

/// The largest increase of a running total (a water meter recorded as group/total, e.g.
/// "water"/"spray_total") within one calendar period of `period_s` [s] (86,400 for a day,
/// 3,600 for a clock hour) [the total's unit]: periods are counted from midnight of the
/// study's start (start_s [s] since local midnight of 1 January), a period's increase is the
/// total at its last sample less the total at its first, the first and last periods partial.
/// ModelError if the channel was not recorded.
double peakCalendarPeriod(const ResultSet& rs, std::string_view group, std::string_view total,
                          double start_s, double period_s);
inline double peakCalendarDay(const ResultSet& rs, std::string_view group, std::string_view total,
                              double start_s) {
    return peakCalendarPeriod(rs, group, total, start_s, 86400.0);
}

/// The largest increase of a running total (sampled at `time` [s], linear between samples)
/// over any window of `window_s` [s] that lies inside the samples, wherever it starts: the
/// heaviest use a store of that many hours must carry, as opposed to peakCalendarPeriod's
/// clock periods. W(t) − W(t − window) is linear between the times where t or t − window is a
/// sample, so its largest value is found at one of them (two pointers, O(n)). NaN when the
/// samples span less than the window or the sizes differ.
double peakWindow(std::span<const double> time, std::span<const double> total, double window_s);

/// The value of a metric by name (std::out_of_range if absent).
double metricValue(const std::vector<Metric>& metrics, std::string_view name);

/// A study length or a time above a limit, read at its scale: "20 s" under an hour, else
/// "2.5 h".
std::string durationText(double hours);

/// The named halls of a campus run, in report order, from their hall_<name>_it_energy_MWh
/// metrics; empty for a site of one hall or a design point.
std::vector<std::string> hallNames(const std::vector<Metric>& metrics);

/// What a run's plant did not hold, one sentence each, from its metrics: the facility and
/// TCS supplies above their setpoints ("facility supply above its setpoint for 20 s (up to
/// 10.2 K)"; on a campus of named halls, hall by hall: "TCS supply of hall B above its
/// setpoint for …"), the air side short, GPUs at their throttle temperature, racks tripped on
/// GPU temperature and the compute lost to heat. Empty when everything held or the metrics are
/// not a run's (a design point). The CLI prints these under "not
/// held", the GUI above its results and the PDF on its first page.
std::vector<std::string> notHeld(const std::vector<Metric>& metrics);
/// The same from a summary JSON's numeric keys (a sweep member's, facility/sweep.h): the
/// sweep's terminal table and the app's Sweep tab name each case that fell short.
std::vector<std::string> notHeldInSummary(const Json& summary);

}  // namespace dctwin::facility
