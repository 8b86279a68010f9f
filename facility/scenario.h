#pragma once
/// @file
/// @brief Scenario files (DESIGN.md §5.1) read once into typed specs (facility/specs.h).
///
/// Top-level keys: name, description, site, it, workload, power, cooling, study, events.
/// Keys carry their unit where it is not SI (supply_temp_C, days, output_interval_s). Catalog
/// entries are referred to by name ("model": "gb300_nvl72") and any of their fields may be
/// overridden next to the name. Every key is declared once in scenarioSpec() — type, unit,
/// range, choices, default, meaning — and that declaration both checks a file and generates
/// the JSON Schema (`dctwin schema`). Every error names the file, the JSON path, the value,
/// what was expected and, for names, the valid choices; an error in a catalog record merged
/// with overrides names the user's key first and the record second.
///
/// Loading reads every file the scenario names (weather, traces, catalog), so any input error
/// surfaces before a run.
#include <filesystem>
#include <memory>
#include <string>

#include "core/json.h"
#include "core/object_spec.h"
#include "facility/specs.h"

namespace dctwin::facility {

/// Reads and checks a scenario file. InputError with file and JSON path on any problem.
ScenarioSpec loadScenario(const std::filesystem::path& file);

/// Same, from JSON already in memory (`origin` names it in errors). Relative paths resolve
/// against `base_dir`, then as shipped data (core/data_dir.h), so scenarios can say
/// "data/weather/x.epw" wherever they are.
ScenarioSpec parseScenario(const Json& input, const std::filesystem::path& base_dir,
                           std::string origin);

/// A sweep file (facility/sweep.h: "base" and no "it")
/// rather than a scenario: the scenario reader refuses it saying so, and `dctwin validate`
/// checks every case of it.
bool looksLikeSweep(const Json& j);

/// The declared shape of a scenario file (every key with type, unit, range and meaning).
const ObjectSpec& scenarioSpec();

/// JSON Schema (draft 2020-12) of scenario files, generated from scenarioSpec().
Json scenarioSchema();

/// The scenario reference (docs/scenario-reference.md) in Markdown, generated from the specs.
std::string scenarioReference();

/// Resolves a data path from a scenario: absolute as is; else relative to the scenario's
/// folder if it exists there; else as shipped data (core/data_dir.h dataFile: "data/…" works
/// from an installed copy); else relative to the working folder. InputError naming the JSON
/// path and the places tried.
std::filesystem::path resolveDataPath(const std::filesystem::path& base_dir,
                                      const std::string& relative, const std::string& json_path);

}  // namespace dctwin::facility
