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
//     "cases": [ { "name": "...", "set": { "/json/pointer": value, ... } } ]  // explicit list
//   }
// "vary" and "cases" may be combined (each case is crossed with the product). Values are set
// with JSON pointers; setting a pointer whose parent does not exist in the base is an error
// (catches typos). Each case's scenario is validated like a scenario file.
//
// Output directory: <case>.summary.json per case, sweep_summary.json and sweep_summary.csv
// with one row per case (the DESIGN §5.2 summary keys), and <case>.error.txt for a case that
// failed (the others still run).
#include <atomic>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "core/json.h"
#include "facility/scenario.h"

namespace dctwin::facility {

struct SweepCase {
    std::string name;
    Json scenario;  // the base with this case's values applied
};

struct SweepPlan {
    std::string name;
    std::filesystem::path base_dir;  // folder of the base scenario
    std::vector<SweepCase> cases;
};

struct SweepResult {
    std::size_t cases = 0;
    std::size_t succeeded = 0;
    std::vector<Json> summaries;  // per case, in case order ("error" key for failures)
    std::string table_text;       // one line per case, for the terminal
};

SweepPlan loadSweep(const std::filesystem::path& file);
SweepPlan parseSweep(const Json& sweep, const std::filesystem::path& sweep_dir, std::string origin);

/// Runs every case on `threads` threads, writes the output files into out_dir.
SweepResult runSweep(const SweepPlan& plan, const std::filesystem::path& out_dir, int threads,
                     const std::function<void(double fraction)>& progress = {},
                     const std::atomic<bool>* cancel = nullptr);

}  // namespace dctwin::facility
