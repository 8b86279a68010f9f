#pragma once
// Shared helpers of the facility tests: scenarios built in memory from the files in
// scenarios/ with overrides, short runs, and error checks.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <random>
#include <string>

#include "core/errors.h"
#include "core/json.h"
#include "facility/scenario.h"
#include "facility/twin.h"
#include "tests/common/expect_error.h"

namespace dctwin::facility::test {

/// The row of a sizing table (a JSON array of rows, as in summary["sizing"]["cooling"]) whose
/// "element" is `element`; nullptr if there is none.
inline const Json* findRow(const Json& table, const std::string& element) {
    for (const Json& row : table) {
        if (row.value("element", "") == element) return &row;
    }
    return nullptr;
}

inline std::filesystem::path scenariosDir() {
    return std::filesystem::path(DCTWIN_SOURCE_DIR) / "scenarios";
}

/// A scenario file of scenarios/ as JSON.
inline Json scenarioJson(const std::string& file) { return readJsonFile(scenariosDir() / file); }

/// The reference scenario (64 racks, Milwaukee, adiabatic coolers) with overrides merged in
/// (core mergePatch: objects merge key by key, every other value replaces).
inline Json reference(const Json& patch = Json::object()) {
    return mergePatch(scenarioJson("azure_gb300_64.json"), patch);
}

/// The reference with its adiabatic pads allowed from 20 °C instead of 28 °C, so that the
/// design day sets the heat-rejection count (at 28 °C the coils' dry hours just below the
/// switch-over set it; DesignPoint.AdiabaticCoolersAreCountedDryBelowTheirSwitchOver). For
/// tests of what the design day does to the count.
inline Json designDaySetsTheCount(Json j) {
    j["cooling"]["heat_rejection"]["switch_over_temp_C"] = 20.0;
    return j;
}

/// An annual study of `days` days from a calendar day, 10-minute output.
inline Json annualStudy(const std::string& start, double days, double interval_s = 600.0) {
    return Json{
        {"kind", "annual"}, {"start", start}, {"days", days}, {"output_interval_s", interval_s}};
}

inline ScenarioSpec scenario(const Json& j, const std::string& origin = "test") {
    return parseScenario(j, scenariosDir(), origin);
}

inline RunOutcome run(const Json& j) { return runScenario(scenario(j)); }

inline double num(const Json& summary, const char* key) {
    EXPECT_TRUE(summary.contains(key) && summary[key].is_number())
        << "summary lacks the number '" << key << "'";
    return summary.contains(key) && summary[key].is_number() ? summary[key].get<double>() : NAN;
}

/// Weather files of data/weather/ by city.
inline std::string weather(const std::string& city) {
    if (city == "phoenix") return "data/weather/USA_AZ_Phoenix-Sky.Harbor.epw";
    if (city == "dallas") return "data/weather/USA_TX_Dallas-Fort.Worth.epw";
    return "data/weather/USA_WI_Milwaukee-Mitchell.Intl.AP.726400_TMY3.epw";
}

/// The summary keys that DESIGN.md §5.2 requires.
inline const std::vector<std::string>& requiredSummaryKeys() {
    static const std::vector<std::string> k = {"it_energy_MWh",
                                               "facility_energy_MWh",
                                               "pue",
                                               "water_m3",
                                               "wue_L_per_kWh",
                                               "peak_it_kW",
                                               "peak_facility_kW",
                                               "max_gpu_junction_C",
                                               "energy_balance_rel_error",
                                               "sizing"};
    return k;
}

/// A fresh directory under the system temp dir, removed when the object goes.
class TempDir {
public:
    TempDir() {
        std::random_device rd;
        path_ = std::filesystem::temp_directory_path() /
                ("dctwin_test_" + std::to_string(rd()) + "_" + std::to_string(rd()));
        std::filesystem::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return path_; }
    std::filesystem::path operator/(const std::string& name) const { return path_ / name; }
    std::filesystem::path write(const std::string& name, const std::string& text) const {
        std::ofstream(path_ / name, std::ios::binary) << text;
        return path_ / name;
    }

private:
    std::filesystem::path path_;
};

using dctwin::test::expectInputError;

/// The row of the summary's sizing table `table` ("cooling", "power", "power_checks") whose
/// `key` column reads `value`; a test failure and a null row when there is none.
inline const Json& sizingRow(const RunOutcome& r, const std::string& table, const std::string& key,
                             const std::string& value) {
    for (const Json& row : r.summary["sizing"][table]) {
        if (row.value(key, "") == value) return row;
    }
    static const Json none;
    ADD_FAILURE() << "no " << table << " row with " << key << " " << value;
    return none;
}

}  // namespace dctwin::facility::test
