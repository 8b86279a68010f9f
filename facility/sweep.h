#pragma once
// Sweeps: many variants of one base scenario, run on several threads (DESIGN.md §5.2).
//
// Sweep file:
//   {
//     "name": "climate x heat rejection",
//     "base": "azure_gb300_64.json",              // relative to the sweep file
//     "set":  { "/study/days": 365 },              // applied to every case (optional)
//     "vary": { "/site/weather": ["a.epw", "b.epw"],      // Cartesian product of the lists
//               "/cooling/heat_rejection/type": ["dry_cooler", "cooling_tower"] },
//     "cases": [ { "name": "...", "set": { "/json/pointer": value, ... } } ], // explicit list
//     "ensemble": { "members": 20, "seed": 7,                   // optional (issue 12)
//                   "draw": { "/site/other_load_kW":
//                               { "distribution": "normal", "mean": 150, "sd": 20 } } }
//   }
// "vary" and "cases" may be combined (each case is crossed with the product). Values are set
// with JSON pointers; setting a pointer whose parent does not exist in the base is an error
// (catches typos; the message says to add the parent to the base, or to set it whole). A
// case's "set" may override the common "set"; a pointer "vary" or an ensemble's "draw" sets
// (or one inside it) may be set nowhere else, since one value would silently replace the other
// in every case, except a key inside an object set earlier that the object lacks ("set":
// {"/power/transformers": {}} with "vary": {"/power/transformers/topology": [...]}): that adds
// the key and replaces nothing. Each case's scenario is validated like a scenario file; an
// error the base scenario alone gives names the base file.
//
// Ensembles: a sweep with an "ensemble" object reports the P10/P50/P90 of every numeric summary
// metric over its members. Without "draw" the members are the cases themselves (a weather-year
// ensemble is a "vary" over EPW files plus "ensemble": {}); with "draw" every case is crossed
// with `members` draws ("<case>__m01" … "<case>__m20" for 20 members: the member's number
// padded to the width of the count, so the names sort). Each drawn pointer takes a value from its
// distribution — uniform {min, max}, normal {mean, sd} (truncated with optional min, max:
// drawn again past them; the bounds must keep ≥ 1 % of the distribution), triangular {min,
// mode, max}, or choice {values: [...]} (equal weights) — from a SplitMix64 stream seeded by
// (seed, member, pointer),
// so a member's draws depend neither on the platform's <random>, nor on the other drawn
// pointers, nor on the case (the cases see common random numbers). Percentiles interpolate linearly
// between order statistics (Hyndman & Fan 1996, definition 7, as NumPy's default), over the members
// that succeeded.
//
// Output directory: <case>.summary.json per case, sweep_summary.json and sweep_summary.csv
// with one row per case (the terminal table's nine metrics, then every other metric any case's
// summary holds, a column each; the DESIGN §5.2 summary keys), sweep_summary.h5 (the same table,
// and the percentiles, as an HDF5 index, with the build that wrote it, when, and the sweep
// and base scenario as read: /sweep/input, /sweep/base), <case>.error.txt for a case that failed
// (the others still run), and for an ensemble sweep_percentiles.csv (metric, unit, members, P10,
// P50, P90, min, mean, max). A sweep into a folder an earlier sweep wrote removes, once its tables
// are in place, what would read as its own: the earlier member files of cases it does not have
// (named by the earlier sweep_summary.json) and, if it is no ensemble, sweep_percentiles.csv. Other
// files in the folder are left alone. As `dctwin run` replaces an existing report, nothing
// asks first; SweepResult::earlier_note says how many earlier case files were replaced and
// removed.
//
// Across machines (issue 12): runSweepDistributed spreads the cases over the ranks of an MPI job
// (core/parallel/work_queue.h, dynamic load balancing); each rank writes its members' files into
// the (shared) output folder and rank 0 gathers the summaries and writes the tables, the same
// code and the same files as the threaded sweep.
#include <atomic>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/parallel/work_queue.h"
#include "core/results.h"
#include "facility/scenario.h"

namespace dctwin::facility {

struct SweepCase {
    std::string name;
    Json scenario;  // the base with this case's values applied
    /// An ensemble member's draws, JSON pointer → value (null for a case with no draws): kept
    /// in its summary ("drawn") and as the sweep tables' "drawn:<pointer>" columns, so each
    /// member's result can be tied to what it drew.
    Json drawn;
};

struct SweepPlan {
    std::string name;
    Json sweep;                       // the sweep file as read (the index's /texts/sweep/input)
    std::filesystem::path base_file;  // the base scenario as the sweep names it
    Json base;                        // and as read
    std::filesystem::path base_dir;   // folder of the base scenario
    std::vector<SweepCase> cases;
    bool ensemble = false;  // report percentiles over the cases
    /// What reading the cases' inputs warned about (scenarioWarnings), each once.
    std::vector<std::string> warnings;
    /// The files the sweep reads, each once, with what it is: the sweep file (when read from
    /// one), the base scenario, and the weather files, job lists and traces of its cases. No
    /// output of the sweep may replace one.
    std::vector<std::pair<std::filesystem::path, std::string>> input_files;
};

/// The message for a case's error `error` (without its origin) when it is the base scenario's
/// own, which every case inherits: the base alone, read and given to `check` (validateModel,
/// say; may be empty), fails with the same message. It names the base file first, then the
/// sweep (`sweep`) and the case; "" when the error is the case's.
std::string baseScenarioError(const SweepPlan& plan, const std::string& error,
                              const std::string& sweep, const std::string& case_name,
                              const std::function<void(const ScenarioSpec&)>& check);

/// What reading a scenario's inputs warned about without refusing them: a workload trace's
/// cut-off last line that was dropped, say (TraceSeries::warnings), as "trace FILE (job
/// 'NAME'): WARNING", each once. The CLI prints them for run, size, validate and sweep.
std::vector<std::string> scenarioWarnings(const ScenarioSpec& scenario);

/// The spread of one summary metric over an ensemble's members that succeeded.
struct MetricPercentiles {
    std::string metric, unit;
    std::size_t members = 0;
    double p10 = 0, p50 = 0, p90 = 0, min = 0, mean = 0, max = 0;
};

struct SweepResult {
    std::size_t cases = 0;
    std::size_t succeeded = 0;
    std::vector<Json> summaries;  // per case, in case order ("error" key for failures)
    std::string table_text;       // one line per case, for the terminal
    std::vector<MetricPercentiles> percentiles;  // ensembles only, by metric name
    /// What the sweep replaced or removed of an earlier sweep into the same folder, for the
    /// user ("" when the folder held none).
    std::string earlier_note;
};

/// An ensemble's percentiles as the table "sweep/percentiles" of the sweep's HDF5 index and
/// of the app's Sweep tab: metric, unit (each row's own), members, p10, p50, p90, min, mean,
/// max, one row per metric.
Table percentilesTable(const std::vector<MetricPercentiles>& percentiles);

/// Percentile p ∈ [0, 1] of `values` (not empty) by linear interpolation between order
/// statistics (Hyndman & Fan definition 7): h = (n − 1)·p, x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]).
double percentile(std::vector<double> values, double p);

/// Reads a sweep and checks every case; `cancel` (set by Ctrl-C in the CLI) stops the check of
/// a large sweep with CancelledError, as it stops a run.
SweepPlan loadSweep(const std::filesystem::path& file, const std::atomic<bool>* cancel = nullptr);
SweepPlan parseSweep(const Json& sweep, const std::filesystem::path& sweep_dir, std::string origin,
                     const std::atomic<bool>* cancel = nullptr);

/// Runs every case on `threads` threads, writes the output files into out_dir.
SweepResult runSweep(const SweepPlan& plan, const std::filesystem::path& out_dir, int threads,
                     const std::function<void(double fraction)>& progress = {},
                     const std::atomic<bool>* cancel = nullptr);

/// Runs the cases over the ranks of `session` (every rank calls it with the same plan). Rank 0
/// writes the tables and returns the result; the other ranks return a result with only
/// `cases` set. progress is called on rank 0 only.
SweepResult runSweepDistributed(const SweepPlan& plan, const std::filesystem::path& out_dir,
                                const parallel::MpiSession& session,
                                const std::function<void(double fraction)>& progress = {},
                                const std::atomic<bool>* cancel = nullptr);

}  // namespace dctwin::facility
