#pragma once
// Scenario files (DESIGN.md §5.1): one JSON file describes one site and one study.
//
// Top-level keys: name, description, site, it, workload, power, cooling, study, events,
// output. Keys carry their unit where it is not SI (supply_temp_C, days, output_interval_s).
// Catalog entries are referred to by name ("model": "gb300_nvl72") and any of their fields may
// be overridden next to the name. Every error names the JSON path, the value, what was
// expected and, for names, the valid choices; unknown keys are errors with the nearest valid
// key suggested.
//
// The loader checks the shape of the file and reads the study; the sections that describe
// equipment are read (and checked) by the model builder, which also records the fully
// resolved scenario (catalog records merged, defaults filled) for the report.
#include <filesystem>
#include <string>
#include <vector>

#include "core/json.h"

namespace dctwin::facility {

struct StudySpec {
    std::string kind;               // design_point | annual | transient | contingency
    int start_month = 1;            // [1..12] calendar start (weather lookup)
    int start_day = 1;              // [1..31]
    double start_s = 0.0;           // [s] since Jan 1 00:00, from start_month/start_day/hour
    double duration_s = 0.0;        // [s]
    double output_interval_s = 0.0; // [s]
    std::string workload_resolution;  // "mean" (annual) or "resolved" (transient)
    bool per_rack_channels = false;   // per-rack-group time series in the report
    double rel_tol = 1e-5;            // [1] integrator tolerance (annual default 5e-4)
    std::string linear_solver = "auto";  // auto | dense | sparse (KLU)
};

struct EventSpec {
    std::string type;   // cdu_pump_trip | heat_rejection_unit_loss | chiller_trip | utility_loss
    double at_s = 0.0;  // [s] since study start
    std::string path;   // JSON path of the event, for messages
    Json params;        // the event object (read by the builder)
};

struct Scenario {
    std::filesystem::path file;      // where it was read from ("" for in-memory)
    std::filesystem::path base_dir;  // relative paths (weather, traces) resolve against this
    std::string name;
    std::string description;
    std::string input_text;          // the file as read
    Json input;                      // parsed input
    StudySpec study;
    std::vector<EventSpec> events;
};

/// Reads and checks a scenario file. InputError with file and JSON path on any problem.
Scenario loadScenario(const std::filesystem::path& file);
/// Same, from JSON already in memory. Relative paths resolve against `base_dir`, then
/// against the repository root (so scenarios can say "data/weather/x.epw").
Scenario parseScenario(const Json& input, const std::filesystem::path& base_dir,
                       std::string origin);

/// Builds the whole model (catalog lookups, weather, workload, hydraulics, wiring) without
/// running it, so `dctwin validate` reports every error a run would hit at build time.
void validateModel(const Scenario& scenario);

/// Resolves a data path from a scenario: absolute as is; else relative to the scenario's
/// folder if it exists there; else relative to the repository root. InputError naming the
/// JSON path and the places tried when it exists nowhere.
std::filesystem::path resolveDataPath(const Scenario& scenario, const std::string& relative,
                                      const std::string& json_path);

}  // namespace dctwin::facility
