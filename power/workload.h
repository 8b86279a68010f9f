#pragma once
// Workload → GPU utilization per rack (DESIGN.md §3.1; domain-facts F1, F2, formula F1).
//
// Utilization u ∈ [0, 1] is the position between idle and the power cap in the rack model
// (P_gpu = P_idle + u·(P_cap − P_idle)); levels in the JSON are percentages of that range.
// Time t [s] counts from the study start; `start_weekday` and `start_hour` place it in the
// week for the inference shapes.
//
// Two resolutions from one description:
//  * resolved   utilization(rack, t): the iteration square wave, checkpoints, ramps.
//  * averaged   averagedUtilization(rack, t): the square wave replaced by its mean level
//               ū = (τ_c·u_hi + τ_x·u_lo)/T and each checkpoint cycle [start + k·I,
//               start + (k + 1)·I) by one level that carries its checkpoint's energy:
//               ū_k = ū + (u_ckpt − ū)·d/I on the plateau (cycleLevel); starts, ends and
//               ramps kept. ∫ averaged dt = ∫ resolved dt over every whole cycle (exactly when I
//               and d are whole iteration periods, else within (u_hi − u_lo)·T per edge).
//  * A job that starts at the study start (start_h 0) is running when the study opens: its
//    start ramp lies before the study (both resolutions), so a study starts in the steady
//    state of its load. Start it later to study its start.
//  * meanUtilization(rack, t0, t1): the exact average of the resolved waveform over an
//    interval (closed-form integral of the square wave; Simpson's rule on pieces where the
//    waveform is at most quadratic, which is exact there).
// discontinuities(rack, t0, t1, resolution) lists job starts and ends and ramp corners; when
// resolved also checkpoint edges and every square-wave edge, when averaged the changes of
// the cycle level (after the first interval, the last partial cycle).
//
// The keys are declared once in workloadSpec() (types, units, ranges, defaults, meanings); the
// JSON Schema of the section comes from there. In short (all keys optional unless marked;
// unknown keys are errors):
// {
//   "racks": 64,                              rack count (or given by the caller)
//   "tenants": {"research": 0.6, "product": 0.4},   shares of the racks (sum ≤ 1)
//   "placement": "first_fit" | "contiguous",  first-fit over the tenant's racks (default), or
//                                             the first contiguous block that is free
//   "start_weekday": 0..6 (0 = Monday), "start_hour": 0..24,
//   "jobs": [
//     { "name": "pretrain" (required, unique), "type": "training" (required),
//       "tenant": "research" (required when tenants are given), "racks": 32 (required),
//       "start_h": 0, "duration_h": 168 (required),
//       "iteration_period_s": 2 (required), "compute_fraction": 0.5,
//       "compute_util_pct": 100, "comm_util_pct": 40,
//       "checkpoint_interval_h": 0 (0 = none), "checkpoint_duration_s": 0,
//       "checkpoint_util_pct": 0,
//       "start_ramp_s": 0, "end": "stop" | "ramp_down", "end_ramp_s": 0 },
//     { "name": "chat", "type": "inference", "tenant": "product", "racks": 24,
//       "start_h": 0, "duration_h": 168 (default: to the end of time),
//       "peak_util_pct": 90, "peak_to_trough": 2 (domain-facts F2 placeholder),
//       "hourly_profile": [24 numbers, relative], "weekday_factors": [7 numbers, Mon..Sun] },
//     { "name": "replay", "type": "trace", "tenant": "research", "racks": 4,
//       "start_h": 0, "duration_h": 168 (default: to the end of time),
//       "file": "data/traces/cbsugpu08_usage_stats.txt" (required; relative to the source
//       tree unless absolute),
//       "format": "auto" | "nvidia_smi" | "dcgm_dmon" | "dcgm_prometheus" | "delimited" |
//                 "csv" | "cornell" (power/trace.h; default auto = detected),
//       "column": "power.draw" (default: the first W column for power, % for utilization),
//       "quantity": "utilization_pct" | "utilization" | "power_W" (default utilization_pct),
//       "gpu_model": "h100_sxm" (power/gpu_catalog.h: the measured GPU; its idle and TDP map
//                    power to utilization), "idle_W": 50, "max_W": 350 (override the model),
//       "aggregate": "mean" | "sum", "gpus_per_row": 1, "grid_s", "gap_fill": "interpolate" |
//       "hold" | "idle", "time_column", "group_column", "fields", "interval_s", "gpus",
//       "utc_offset_h", "time_unit": "ms" | "s" | "min" | "h", "offset_h": 0 (trace time at job
//       start), "max_gap_h": 48, "repeat": true,
//       "desync": "lockstep" | "step" | "spread" | "random" | "fixed", "desync_s": 1.6,
//       "seed": 1, "rack_offsets_s": [...] }
//   ]
// }
// Trace replay. The file's devices (GPUs, nodes) give one utilization series:
//   power      u_i = clamp((P_i/g − P_idle)/(P_tdp − P_idle), 0, 1)    (g = gpus_per_row)
//   utilization u_i = clamp(x_i/100) (pct) or clamp(x_i) (fraction)
//   mean rule  u = (1/n) Σ u_i;   sum rule  u = map(Σ x_i / n)  (the devices' values summed
//              first, as one measurement of n·g GPUs)
// on the grid of aggregateTrace, gaps filled by gap_fill. Each rack of the job replays u at
// trace time τ_r(t) = offset + δ_r + (t − start), δ_r its desynchronisation offset:
//   lockstep δ_r = 0;  step δ_r = r·desync_s;  spread δ_r = r·desync_s/n;
//   random δ_r uniform in [0, desync_s) (seeded, reproducible);  fixed δ_r = rack_offsets_s[r]
// (r = 0..n−1 the job's racks in placement order). Racks with different δ are not lumped.
// Racks without a job at time t are idle (u = 0), so the rack model gives idle power.
#include <compare>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/object_spec.h"
#include "power/trace.h"

namespace dctwin::power {

enum class Resolution { Resolved, Averaged };

/// One job's utilization over time (identical on each of its racks).
class Job {
public:
    virtual ~Job() = default;
    std::string name, tenant, type;
    int racks = 1;
    double start = 0;     // [s]
    double duration = 0;  // [s] nominal
    /// Last time the job draws power (incl. ramp-down) [s].
    virtual double end() const { return start + duration; }
    virtual double utilization(double t) const = 0;
    virtual double averagedUtilization(double t) const = 0;
    /// ∫ utilization dt over [t0, t1] (exact).
    virtual double integral(double t0, double t1) const = 0;
    virtual void discontinuities(double t0, double t1, Resolution r,
                                 std::vector<double>& out) const = 0;
    /// The averaged job as a study with a moving-average window `window` [s] over the output
    /// interval sees it, for a rack `shift` seconds ahead in its trace, in a study ending at
    /// `horizon` [s]. Default: the averaged utilization (already free of sub-interval detail).
    virtual double shiftedWindowed(double t, double /*window*/, double shift,
                                   double /*horizon*/) const {
        return shiftedAveraged(t, shift);
    }
    /// True while the job runs (power floor on for training).
    virtual bool floorActive(double t) const { return t >= start && t < end(); }
    /// The end of an interval [t, t_end) over which shiftedWindowed(·, window, shift,
    /// horizon) and floorActive(·) keep their values at t bit for bit; t when the job
    /// promises nothing (the default). A campus then reads a job again only where its level
    /// changes (Workload::windowedLevel, issue 12).
    virtual double windowedConstantUntil(double t, double /*window*/, double /*shift*/,
                                         double /*horizon*/) const {
        return t;
    }
    /// The job as one rack replays it when its copy runs `shift` seconds ahead in the trace
    /// (per-rack desynchronisation of trace jobs); jobs without a trace ignore the shift.
    virtual double shiftedUtilization(double t, double /*shift*/) const { return utilization(t); }
    virtual double shiftedAveraged(double t, double /*shift*/) const {
        return averagedUtilization(t);
    }
    virtual double shiftedIntegral(double t0, double t1, double /*shift*/) const {
        return integral(t0, t1);
    }
    /// Per-rack shifts [s] for `n` racks in placement order (all 0: lock-step).
    virtual std::vector<double> rackShifts(int n) const {
        return std::vector<double>(static_cast<std::size_t>(n), 0.0);
    }
};

class TrainingJob : public Job {
public:
    double period = 2.0;             // [s] iteration period T
    double compute_fraction = 0.5;   // [1] τ_c/T
    double u_compute = 1.0;          // [1]
    double u_comm = 0.4;             // [1]
    double checkpoint_interval = 0;  // [s] 0 = none
    double checkpoint_duration = 0;  // [s]
    double u_checkpoint = 0.0;       // [1]
    double start_ramp = 0;           // [s]
    bool ramp_down = false;
    double end_ramp = 0;  // [s]

    double end() const override { return start + duration + (ramp_down ? end_ramp : 0.0); }
    double utilization(double t) const override;
    double averagedUtilization(double t) const override;
    double integral(double t0, double t1) const override;
    void discontinuities(double t0, double t1, Resolution r,
                         std::vector<double>& out) const override;
    double meanLevel() const {
        return compute_fraction * u_compute + (1 - compute_fraction) * u_comm;
    }
    /// Before the start: until the start. On the plateau: until the checkpoint cycle ends
    /// (1 µs short of it, so the cycle index's rounding cannot differ) or the job's nominal
    /// end. After the end (ramp included): for ever. On a ramp: nothing.
    double windowedConstantUntil(double t, double window, double shift,
                                 double horizon) const override;
    /// Averaged level of checkpoint cycle k (k = 0: [start, start + I), no checkpoint; k ≥ 1:
    /// [start + k·I, start + (k + 1)·I), the last one to end()), per unit of the ramp factor:
    /// ū_k = ū + (u_ckpt − ū)·∫_dip m dt / ∫_cycle m dt, so ∫_cycle m·ū_k dt carries the dip.
    double cycleLevel(int k) const;
    /// Index of the last checkpoint cycle (0 without checkpoints: one cycle, the whole job).
    int lastCycle() const;
    /// [s] start and end of cycle k.
    std::pair<double, double> cycle(int k) const;
    /// [s] the start ramp in force: none when the job starts at the study start (t = 0), where
    /// it is already running.
    double rampUp() const;

private:
    // cycle() and cycleLevel() given last = lastCycle() (computed once per evaluation).
    std::pair<double, double> cycle(int k, int last) const;
    double cycleLevel(int k, int last) const;
    double multiplier(double t) const;                    // ramp factor m(t) ∈ [0, 1]
    double multiplierIntegral(double a, double b) const;  // ∫ m dt over [a, b], exact
    bool inCheckpoint(double t) const;
    double square(double t) const;                    // u_compute or u_comm
    double squareIntegral(double a, double b) const;  // ∫ square over [a, b], closed form
};

class InferenceService : public Job {
public:
    /// `hourly`: 24 relative request rates at hours 0..23 (any scale); `weekday`: 7
    /// factors Monday..Sunday; `week_offset` [s]: time of the study start after Monday 00:00.
    /// InputError unless there are 24 and 7 finite values.
    InferenceService(double u_peak, double peak_to_trough, std::vector<double> hourly,
                     std::vector<double> weekday, double week_offset);

    double peakUtilization() const { return u_peak_; }                        // [1]
    double peakToTrough() const { return peak_to_trough_; }                   // [1]
    const std::vector<double>& hourly() const { return profile_->hourly; }    // 24 values
    const std::vector<double>& weekday() const { return profile_->weekday; }  // 7 factors
    double weekOffset() const { return week_offset_; }                        // [s]

    double utilization(double t) const override;
    double averagedUtilization(double t) const override { return utilization(t); }
    double integral(double t0, double t1) const override;
    void discontinuities(double t0, double t1, Resolution r,
                         std::vector<double>& out) const override;
    bool floorActive(double) const override { return false; }  // floor is for training
    /// Zero before the start and after the end; the diurnal shape itself changes all along.
    double windowedConstantUntil(double t, double window, double shift,
                                 double horizon) const override;

private:
    /// The diurnal and weekly shape with the hourly extremes, found once (the search over 24
    /// values on every call was ~4 % of a year of 5,560 distinct racks, issue 12). Shared by
    /// every service with the same numbers: a campus of services with the default shape read
    /// a copy per rack at each new time, two more cache misses each.
    struct Profile {
        std::vector<double> hourly, weekday;
        double lo = 0.0, hi = 0.0;
        auto operator<=>(const Profile&) const = default;  // sharedValue() (core)
    };
    static std::shared_ptr<const Profile> shareProfile(std::vector<double> hourly,
                                                       std::vector<double> weekday);
    double u_peak_, peak_to_trough_;
    double week_offset_;
    std::shared_ptr<const Profile> profile_;
};

class TraceJob : public Job {
public:
    /// The trace as it is replayed: utilization after mapping (quantity Utilization), or the
    /// raw value when a caller builds a job by hand with another quantity.
    std::shared_ptr<const TraceSeries> trace;
    std::filesystem::path file;  ///< the log it was read from, as resolved (the CLI keeps
                                 ///< reports off it)
    enum class Quantity { UtilizationPct, Utilization, Power } quantity = Quantity::UtilizationPct;
    double idle_power = 0, max_power = 1;  // [W] for power traces
    double offset = 0;                     // [s] trace time at the job start
    bool repeat = true;
    enum class Desync { Lockstep, Step, Spread, Random, Fixed } desync = Desync::Lockstep;
    double desync_window = 0;           // [s] step or spread
    std::uint64_t seed = 1;             // random offsets
    std::vector<double> fixed_offsets;  // [s] Desync::Fixed, one per rack

    double utilization(double t) const override { return shiftedUtilization(t, 0.0); }
    double averagedUtilization(double t) const override { return shiftedUtilization(t, 0.0); }
    double integral(double t0, double t1) const override { return shiftedIntegral(t0, t1, 0.0); }
    double shiftedUtilization(double t, double shift) const override;
    double shiftedAveraged(double t, double shift) const override {
        return shiftedUtilization(t, shift);
    }
    double shiftedIntegral(double t0, double t1, double shift) const override;
    /// The moving average over `window` centred on t, clipped to the job ([start, end)) and to
    /// the study ([0, horizon]): one-sided next to an edge, never averaging in the zeros
    /// outside.
    double shiftedWindowed(double t, double window, double shift, double horizon) const override;
    std::vector<double> rackShifts(int n) const override;
    void discontinuities(double t0, double t1, Resolution r,
                         std::vector<double>& out) const override;
    bool floorActive(double) const override { return false; }

private:
    double traceTime(double t, double shift) const;
    double map(double v) const;
};

struct RackGroup {
    std::vector<int> racks;         // identical racks (same job sequence and shifts)
    std::vector<std::size_t> jobs;  // jobs they run, in time order
    std::vector<double> shifts;     // [s] their trace shift in each job
    std::string tenant;             // "" for unallocated racks
    int representative() const { return racks.front(); }
};

/// @brief The declared keys of the /workload section: racks, tenants, placement,
/// start_weekday, start_hour and jobs, each job a tagged union on "type" ("training",
/// "inference", "trace") whose keys depend on the kind. Workload::fromJson reads through it;
/// its schema() is the section's JSON Schema.
std::shared_ptr<const ObjectSpec> workloadSpec();
/// @brief One entry of /workload/jobs (a tagged union on "type"); power/job_list.h reads CSV
/// rows through it.
std::shared_ptr<const ObjectSpec> jobSpec();
/// The keys of a trace job that say how to read its file (format, fields, interval_s,
/// utc_offset_h, time_unit, time_column, group_column, gpus): `dctwin trace inspect` takes
/// the same as options, so a log inspects as the run reads it.
std::shared_ptr<const ObjectSpec> traceReadSpec();
TraceReadOptions traceReadOptions(const SpecReader& r);

class Workload {
public:
    /// `racks` is used when the JSON has no "racks"; `trace_dir` resolves relative trace paths.
    /// An empty `trace_dir` (the default) resolves them as shipped data with dataFile()
    /// (core/data_dir.h): "data/traces/x.csv" and "traces/x.csv" both name
    /// dataDir()/traces/x.csv, installed or in the source tree.
    /// `job_list`: the resolved path of "jobs_file" (empty: the key's value as given).
    static Workload fromJson(const JsonView& v, int racks = 0,
                             const std::filesystem::path& trace_dir = {},
                             const std::filesystem::path& job_list = {});

    int racks() const { return racks_; }
    const std::vector<std::unique_ptr<Job>>& jobs() const { return jobs_; }
    /// The job list ("jobs_file") it read, as resolved; empty without one.
    const std::filesystem::path& jobList() const { return job_list_; }
    const std::vector<int>& racksOf(std::size_t job) const { return placement_[job]; }
    /// Indices into jobs() of the jobs `rack` runs, in start order (ModelError for a rack
    /// outside 0..racks()-1). Asking each rack's jobs this way is linear in the site; searching
    /// every job's racks for each rack was quadratic (issue 12).
    std::vector<std::size_t> jobsOf(int rack) const;
    /// Tenant name → racks allocated to it.
    const std::map<std::string, std::vector<int>>& tenants() const { return tenant_racks_; }
    std::string tenantOf(int rack) const;

    double utilization(int rack, double t) const;
    double averagedUtilization(int rack, double t) const;
    double utilization(int rack, double t, Resolution r) const {
        return r == Resolution::Resolved ? utilization(rack, t) : averagedUtilization(rack, t);
    }
    double meanUtilization(int rack, double t0, double t1) const;
    /// The utilization an averaged study feeds its racks (WorkloadSource with a window W):
    ///  * training: the averaged level m(t)·ū_k of its checkpoint cycle (cycleLevel), exact
    ///    in energy per cycle; starts, ends and ramp corners stay where they are
    ///  * inference: the diurnal shape itself (continuous, nothing to average)
    ///  * trace: the moving average over W centred on t, clipped to the job and to the study
    ///    [0, horizon] (one-sided at an edge)
    /// The jumps left (job starts and ends, cycle-level changes) are listed by
    /// discontinuities(.., Averaged), so the integrator stops at them.
    double windowedUtilization(int rack, double t, double window,
                               double horizon = std::numeric_limits<double>::infinity()) const;
    bool floorActive(int rack, double t) const;
    /// What a WorkloadSource with a window feeds its rack: windowedUtilization and
    /// floorActive at one time, the same values bit for bit. Each rack's pair is remembered
    /// per thread with the interval its jobs keep it over (Job::windowedConstantUntil): a
    /// training job on its plateau holds one level a checkpoint cycle, and reading 5,560 job
    /// objects at every new time was ~13 % of a year of 5,560 distinct racks (issue 12).
    struct Level {
        double utilization = 0.0;  // [1]
        bool floor_active = false;
    };
    Level windowedLevel(int rack, double t, double window,
                        double horizon = std::numeric_limits<double>::infinity()) const;
    /// windowedLevel of each of `racks` at t into `out` (as many), the same values bit for
    /// bit. A campus asks for every rack at each new time, and each job a rack's level is not
    /// remembered for is read from memory: this reads the jobs of the racks a few places
    /// ahead while it computes the current one (~5 % of a year of 5,560 distinct racks).
    void windowedLevels(std::span<const int> racks, double t, double window, double horizon,
                        std::span<Level> out) const;
    void discontinuities(int rack, double t0, double t1, Resolution r,
                         std::vector<double>& out) const;
    /// Racks grouped by identical job sequence and per-job shifts (for lumping with a
    /// multiplicity): racks that replay a trace with different offsets are distinct.
    std::vector<RackGroup> rackGroups() const;
    /// The trace shift [s] of `rack` in job `job` (0 when it does not run it).
    double shiftOf(int rack, std::size_t job) const;

private:
    void checkRack(int rack) const;
    /// Starts reading the jobs windowedLevel(rack, t, ...) will read, unless the rack's level
    /// at t is remembered.
    void readAhead(int rack, double t) const;
    int racks_ = 0;
    std::vector<std::unique_ptr<Job>> jobs_;
    std::filesystem::path job_list_;
    std::vector<std::vector<int>> placement_;  // job → racks
    /// One job of a rack, in start order: the job, its index in jobs_ and the rack's shift
    /// in it [s]. Every rack's entries lie in one array, rack after rack (rack r's from
    /// rack_begin_[r] to rack_begin_[r + 1]): a campus model asks for every rack's
    /// utilization at each new time, and a list per rack on the heap cost two scattered reads
    /// each before the job itself (issue 12).
    struct RackEntry {
        const Job* job = nullptr;
        std::size_t index = 0;
        double shift = 0.0;
    };
    std::span<const RackEntry> rackEntries(int rack) const {
        const auto r = static_cast<std::size_t>(rack);
        return {rack_entries_.data() + rack_begin_[r], rack_begin_[r + 1] - rack_begin_[r]};
    }
    std::vector<std::size_t> rack_begin_;
    std::vector<RackEntry> rack_entries_;
    std::map<std::string, std::vector<int>> tenant_racks_;
    /// Tells this workload's remembered levels (windowedLevel) from another's; a moved
    /// workload keeps its number.
    std::uint64_t serial_ = nextSerial();
    static std::uint64_t nextSerial();
};

}  // namespace dctwin::power
