// ScenarioSpec and sweep loading (DESIGN.md §5.1): the shipped files load, and errors name the
// JSON path, what was expected and the valid choices.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include "core/data_dir.h"
#include "facility/sizing.h"
#include "facility/sweep.h"
#include "test_util.h"
#include "tests/common/expect_error.h"

namespace dctwin::facility::test {
namespace {

namespace fs = std::filesystem;

bool isSweepFile(const fs::path& p) {
    return p.filename().string().find("sweep") != std::string::npos;
}

TEST(ScenarioFiles, EveryShippedScenarioLoadsWithItsStudy) {
    // Issue 5 lists the scenarios of scenarios/; each must load (the CLI tests also validate
    // each through `dctwin validate`, which builds the model).
    int n = 0;
    for (const auto& e : fs::directory_iterator(scenariosDir())) {
        if (e.path().extension() != ".json" || isSweepFile(e.path())) continue;
        SCOPED_TRACE(e.path().string());
        const ScenarioSpec s = loadScenario(e.path());
        EXPECT_FALSE(s.name.empty());
        EXPECT_GT(s.study.duration_s, 0.0);
        ++n;
    }
    EXPECT_GE(n, 5);
    // Studies as the issue describes them.
    EXPECT_EQ(loadScenario(scenariosDir() / "azure_gb300_64.json").study.kind, "annual");
    EXPECT_DOUBLE_EQ(loadScenario(scenariosDir() / "azure_gb300_64.json").study.duration_s,
                     365 * 86400.0);
    const ScenarioSpec tr = loadScenario(scenariosDir() / "transient_training_swings.json");
    EXPECT_EQ(tr.study.kind, "transient");
    EXPECT_EQ(tr.study.workload_resolution, "resolved");
    EXPECT_DOUBLE_EQ(tr.study.output_interval_s, 0.1);
    const ScenarioSpec pump = loadScenario(scenariosDir() / "contingency_cdu_pump_trip.json");
    ASSERT_EQ(pump.events.size(), 1u);
    EXPECT_EQ(pump.events[0].type(), "cdu_pump_trip");
    EXPECT_DOUBLE_EQ(pump.events[0].at_s, 60.0);
    // July 15, 15:00: day of year 195 (0-based) × 86,400 s + 15 h.
    EXPECT_DOUBLE_EQ(pump.study.start_s, 195 * 86400.0 + 15 * 3600.0);
}

TEST(ScenarioFiles, SweepFilesExpandIntoTheirCases) {
    // sweep_heat_rejection_climate.json: 3 climates × 3 heat-rejection types (issue 5).
    const SweepPlan climate = loadSweep(scenariosDir() / "sweep_heat_rejection_climate.json");
    EXPECT_EQ(climate.cases.size(), 9u);
    for (const auto& c : climate.cases) {
        EXPECT_NE(c.scenario["name"].get<std::string>().find(c.name), std::string::npos);
    }
    // transient_smoothing_sweep.json: smoothing on and off.
    const SweepPlan smoothing = loadSweep(scenariosDir() / "transient_smoothing_sweep.json");
    ASSERT_EQ(smoothing.cases.size(), 2u);
    EXPECT_TRUE(smoothing.cases[0].scenario["power"]["smoothing"]["enabled"].get<bool>());
    EXPECT_FALSE(smoothing.cases[1].scenario["power"]["smoothing"]["enabled"].get<bool>());
}

TEST(ScenarioErrors, FacilityPumpKeysAndEventsAreCheckedAgainstEachOther) {
    // The remote setpoint is part of the pumps' design head; the rest is pipes and plant.
    expectInputError(
        [] {
            scenario(reference({{"cooling", {{"facility_loop", {{"dp_setpoint_kPa", 300}}}}}}));
        },
        {"/cooling/facility_loop/dp_setpoint_kPa", "300 kPa",
         "below the loop's pressure drop 250"});
    expectInputError(
        [] {
            scenario(reference({{"cooling", {{"facility_loop", {{"dp_min_kPa", 120}}}}}}));
        },
        {"/cooling/facility_loop/dp_min_kPa", "above the setpoint 100 kPa"});
    expectInputError(
        [] {
            scenario(reference({{"cooling", {{"facility_loop", {{"pump_control", "delta_t"}}}}}}));
        },
        {"/cooling/facility_loop/pump_control", "valve_reset", "constant_speed"});
    // Events: more pumps lost than installed; a changeover with no standby to change over to.
    Json trip = reference({{"study", annualStudy("07-15", 1.0)}});
    trip["events"] = Json::array({{{"type", "fws_pump_trip"}, {"at_s", 60}, {"pumps", 2}},
                                  {{"type", "fws_pump_trip"}, {"at_s", 120}, {"pumps", 2}}});
    expectInputError([&] { sizeSite(scenario(trip)); },
                     {"/events/1/pumps", "4 facility pumps lost", "3 installed"});
    Json co = reference(
        {{"study", annualStudy("07-15", 1.0)}, {"cooling", {{"cdu", {{"pumps_installed", 1}}}}}});
    co["events"] = Json::array({{{"type", "cdu_pump_changeover"}, {"at_s", 60}, {"cdu", 0}}});
    expectInputError([&] { sizeSite(scenario(co)); },
                     {"/events/0/type", "needs a standby pump", "pumps_installed"});
}

TEST(ScenarioErrors, WhatAHostileInputAuditFoundMisleading) {
    // Each message before in the comment; each now says what is wrong at the key.
    // "c/ is a folder, not a file": an empty name resolved to the scenario's folder.
    expectInputError(
        [] {
            scenario(reference({{"site", {{"weather", ""}}}}));
        },
        {"/site/weather: the file name is empty"});
    // "fabric: tiers must be 2 or 3, got 1", without the key, for a value the reference's
    // range (0 to 3) allowed.
    expectInputError(
        [] {
            scenario(reference({{"it", {{"fabric", {{"tiers", 1}}}}}}));
        },
        {"/it/fabric/tiers: expected 2 or 3 tiers, or 0 for the fewest that fit"});
    // "value 90 s is out of range; expected between 0 s and 0 s".
    Json j = reference();
    j["workload"]["jobs"][0].erase("checkpoint_interval_h");
    expectInputError([&] { scenario(j); }, {"/workload/jobs/0/checkpoint_duration_s: a checkpoint "
                                            "duration needs \"checkpoint_interval_h\""});
    // "/workload/jobs/0/gpu_model: /workload/jobs/0/gpu_model: unknown choice 'h100'".
    Json t = scenarioJson("telemetry_replay.json");
    t["workload"]["jobs"][0]["gpu_model"] = "h100";
    std::string msg;
    try {
        scenario(t);
    } catch (const InputError& e) {
        msg = e.what();
    }
    const std::string key = "/workload/jobs/0/gpu_model: ";
    ASSERT_NE(msg.find(key + "unknown choice 'h100'"), std::string::npos) << msg;
    EXPECT_EQ(msg.find(key, msg.find(key) + 1), std::string::npos) << msg;
}

TEST(ScenarioErrors, StudyErrorsNameThePathAndTheExpectation) {
    // DESIGN.md §5.1: every error names the JSON path, the value and what was expected.
    expectInputError(
        [] {
            scenario(reference({{"study", {{"kind", "anual"}}}}));
        },
        {"/study/kind", "anual", "did you mean 'annual'", "transient"});
    expectInputError(
        [] {
            scenario(reference({{"study", {{"start", "13-01"}}}}));
        },
        {"/study/start", "13-01"});
    expectInputError([] { scenario(reference({{"study", {{"hours", 5}}}})); }, {"/study", "once"});
    expectInputError(
        [] {
            scenario(reference({{"study", {{"days", -1}}}}));
        },
        {"/study/days", "out of range"});
    expectInputError(
        [] {
            scenario(reference({{"stuudy", 1}}));
        },
        {"stuudy", "did you mean 'study'"});
}

TEST(ScenarioErrors, SiteErrorsSurfaceWhenTheModelIsBuilt) {
    // Equipment sections are checked by the builder (validateModel), with their JSON paths.
    expectInputError(
        [] {
            validateModel(scenario(reference({{"cooling", {{"cdu", {{"racks_per_cud", 8}}}}}})));
        },
        {"/cooling/cdu", "racks_per_cud", "did you mean 'racks_per_cdu'"});
    expectInputError(
        [] {
            validateModel(
                scenario(reference({{"site", {{"weather", "data/weather/nowhere.epw"}}}})));
        },
        {"/site/weather", "nowhere.epw"});
    // 16 racks × ~122 kW ≈ 1.95 MW to liquid exceed one 1,368 kW CDU (Vertiv XDU1350): the
    // message says how many racks fit.
    expectInputError(
        [] {
            validateModel(scenario(reference({{"cooling", {{"cdu", {{"racks_per_cdu", 16}}}}}})));
        },
        {"/cooling/cdu/racks_per_cdu", "exceeds the capacity"});
    // An event outside the study.
    Json late = scenarioJson("contingency_cdu_pump_trip.json");
    late["events"][0]["at_s"] = 900;
    expectInputError([&] { scenario(late); }, {"/events/0/at_s", "outside the study"});
}

using dctwin::test::inputErrorOf;

TEST(ScenarioErrors, AFileKeyNamingAFolderOrADeviceSaysSo) {
    // "." and /dev/null were reported as "not found", with the places looked in.
    expectInputError(
        [] {
            scenario(reference({{"workload", {{"jobs_file", "/tmp"}}}}));
        },
        {"/workload/jobs_file", "/tmp is a folder, not a file"});
    expectInputError(
        [] {
            scenario(reference({{"site", {{"weather", "/dev/null"}}}}));
        },
        {"/site/weather", "/dev/null is a device or another special file"});
}

TEST(Scenario, ATraceFileResolvesBesideTheScenarioAsTheWeatherDoes) {
    // A trace job's "file" was looked up as shipped data only: a log beside the scenario was
    // "not found" in data/, with one place named. It now resolves as the weather file and the
    // job list do (the scenario's folder, shipped data, the working folder).
    TempDir dir;
    fs::copy_file(dataFile("traces/nvidia_smi_training_8gpu.csv"), dir / "my_log.csv");
    Json j = reference();
    j["workload"] = {{"jobs",
                      {{{"name", "replay"},
                        {"type", "trace"},
                        {"racks", 64},
                        {"file", "my_log.csv"},
                        {"format", "nvidia_smi"},
                        {"column", "power.draw"},
                        {"quantity", "power_W"},
                        {"gpu_model", "h100_sxm"}}}}};
    const ScenarioSpec sc = parseScenario(j, dir.path(), "test");
    EXPECT_EQ(sc.workload->jobs().size(), 1u);
    // The shipped spelling still names the shipped log; a missing one lists where it looked.
    j["workload"]["jobs"][0]["file"] = "data/traces/nvidia_smi_training_8gpu.csv";
    EXPECT_NO_THROW(parseScenario(j, dir.path(), "test"));
    j["workload"]["jobs"][0]["file"] = "no_log.csv";
    const std::string msg = inputErrorOf([&] { parseScenario(j, dir.path(), "test"); });
    EXPECT_NE(msg.find("/workload/jobs/0/file: file no_log.csv not found; looked in"),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find((dir / "no_log.csv").string()), std::string::npos) << msg;
}

TEST(ScenarioErrors, AMissingFileListsEachPlaceLookedInOnce) {
    // Run from the scenario's own folder, the scenario's folder and the working folder are one
    // place; it was listed twice.
    Json j = reference({{"site", {{"weather", "no_such_weather.epw"}}}});
    const std::string msg = inputErrorOf([&] { parseScenario(j, fs::current_path(), "test"); });
    const std::string here = (fs::current_path() / "no_such_weather.epw").string();
    std::size_t n = 0;
    for (auto at = msg.find(here); at != std::string::npos; at = msg.find(here, at + 1)) ++n;
    EXPECT_EQ(n, 1u) << msg;
    EXPECT_NE(msg.find("/site/weather: file no_such_weather.epw not found"), std::string::npos)
        << msg;
}

TEST(ScenarioErrors, AMissingWeatherFileNamesTheShippedOneMeant) {
    // "data/weather/Milwaukee.epw" from the data folder's parent: the shipped data and the
    // working folder are one place (it was listed twice), and the error lists the shipped
    // .epw files and the one whose name holds "Milwaukee".
    const fs::path root = dataDir().parent_path();
    const fs::path was = fs::current_path();
    fs::current_path(root);
    Json j = reference({{"site", {{"weather", "data/weather/Milwaukee.epw"}}}});
    const std::string msg = inputErrorOf([&] { parseScenario(j, was, "test"); });
    fs::current_path(was);
    const std::string shipped = (root / "data/weather/Milwaukee.epw").lexically_normal().string();
    std::size_t n = 0;
    for (auto at = msg.find(shipped); at != std::string::npos; at = msg.find(shipped, at + 1)) ++n;
    EXPECT_EQ(n, 1u) << msg;
    EXPECT_NE(msg.find("did you mean data/weather/USA_WI_Milwaukee-Mitchell.Intl.AP.726400_TMY3"
                       ".epw?"),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("USA_AZ_Phoenix-Sky.Harbor.epw, USA_TX_Dallas-Fort.Worth.epw"),
              std::string::npos)
        << msg;
    // A typo is matched by edit distance; a name in no file and near none gets the list only.
    Json typo = reference({{"site", {{"weather", "data/weather/USA_TX_Dalas-Fort.Worth.epw"}}}});
    EXPECT_NE(inputErrorOf([&] {
                  parseScenario(typo, was, "test");
              }).find("did you mean data/weather/USA_TX_Dallas-Fort.Worth.epw?"),
              std::string::npos);
    Json none = reference({{"site", {{"weather", "data/weather/Reykjavik.epw"}}}});
    const std::string none_msg = inputErrorOf([&] { parseScenario(none, was, "test"); });
    EXPECT_EQ(none_msg.find("did you mean"), std::string::npos) << none_msg;
    EXPECT_NE(none_msg.find(".epw files in "), std::string::npos) << none_msg;
}

TEST(ScenarioErrors, CatalogOverrideErrorsNameTheUsersFileAndKeyFirst) {
    // Issue 8: an override merged into a catalog record keeps its origin. The message starts
    // with the user's file, then the user's JSON path, then names the record it overrides.
    const fs::path dir = fs::path(testing::TempDir()) / "dctwin_override";
    fs::create_directories(dir);
    const fs::path file = dir / "site.json";
    Json j = scenarioJson("azure_gb300_64.json");
    j["cooling"]["heat_rejection"] = {{"type", "cooling_tower"}, {"cycles_of_concentration", 0.5}};
    std::ofstream(file) << j.dump();
    const std::string msg = inputErrorOf([&] { loadScenario(file); });
    const auto at_file = msg.find(file.string());
    const auto at_key = msg.find("/cooling/heat_rejection/cycles_of_concentration");
    const auto at_record = msg.find("cooling_towers.json/cti_open_tower_cell_3500kW");
    EXPECT_EQ(at_file, 0u) << msg;
    ASSERT_NE(at_key, std::string::npos) << msg;
    ASSERT_NE(at_record, std::string::npos) << msg;
    EXPECT_LT(at_key, at_record) << msg;
    // A unit-suffixed override is reported under the key the user wrote.
    j = scenarioJson("azure_gb300_64.json");
    j["cooling"]["cdu"]["capacity_kW"] = -5;
    std::ofstream(file) << j.dump();
    expectInputError([&] { loadScenario(file); },
                     {file.string(),
                      "/cooling/cdu/capacity_kW (overriding catalog record "
                      "cdus.json/vertiv_xdu1350)"});
}

TEST(ScenarioErrors, TyposAreNotOfferedDocumentationKeys) {
    // Catalog records carry "*_source" citations; a typo's valid choices list parameters only.
    const std::string msg = inputErrorOf([] {
        scenario(reference({{"cooling", {{"cdu", {{"pumps_instaled", 3}}}}}}));
    });
    EXPECT_NE(msg.find("did you mean 'pumps_installed'"), std::string::npos) << msg;
    EXPECT_EQ(msg.find("_source"), std::string::npos) << msg;
}

TEST(ScenarioErrors, SuggestionsPreferTheNameInAnotherCaseThenAPrefix) {
    // core/json.h nearestName, one rule for every message: a job type 'train' suggested
    // 'trace' and a GPU 'H100' suggested 'h200'.
    Json j = reference();
    j["workload"]["jobs"][0]["type"] = "train";
    std::string msg = inputErrorOf([&] { scenario(j); });
    EXPECT_NE(msg.find("did you mean 'training'"), std::string::npos) << msg;
    j = reference();
    j["workload"]["jobs"] = Json::array({Json{{"name", "replay"},
                                              {"type", "trace"},
                                              {"racks", 64},
                                              {"file", "data/traces/nvidia_smi_training_8gpu.csv"},
                                              {"quantity", "power_W"},
                                              {"gpu_model", "H100"}}});
    msg = inputErrorOf([&] { scenario(j); });
    EXPECT_NE(msg.find("did you mean 'h100_sxm'"), std::string::npos) << msg;
    j = reference();
    j["it"]["racks"][0]["model"] = "GB300_NVL72";
    msg = inputErrorOf([&] { validateModel(scenario(j)); });
    EXPECT_NE(msg.find("did you mean 'gb300_nvl72'"), std::string::npos) << msg;
}

TEST(ScenarioErrors, IntegersAreRangeCheckedNotWrapped) {
    // 4294967304 = 2^32 + 8 once ran as 8 racks per CDU (issue 14); it is out of range.
    expectInputError(
        [] {
            scenario(reference({{"cooling", {{"cdu", {{"racks_per_cdu", 4294967304LL}}}}}}));
        },
        {"/cooling/cdu/racks_per_cdu", "out of range"});
    expectInputError(
        [] {
            scenario(reference({{"cooling", {{"cdu", {{"racks_per_cdu", 8.5}}}}}}));
        },
        {"/cooling/cdu/racks_per_cdu", "integer"});
}

TEST(ScenarioErrors, AdiabaticSwitchOverOutsideTheWeatherRangeIsRejected) {
    // Issue 14: −300 °C and 1000 °C once ran (pads always on / never on). The key is a catalog
    // field overridden in the scenario; the message names the user's key and the range.
    for (const double t : {-300.0, 1000.0}) {
        expectInputError(
            [&] {
                validateModel(scenario(
                    reference({{"cooling",
                                {{"heat_rejection",
                                  {{"type", "adiabatic_cooler"}, {"switch_over_temp_C", t}}}}}})));
            },
            {"/cooling/heat_rejection/switch_over_temp_C", "out of range", "-70", "70"});
    }
}

TEST(ScenarioErrors, DryCoolerFlowExponentsAreRangeChecked) {
    // A negative or large exponent once ran (UA falling with the flow, or the fan search's
    // slope at no air taken where it does not hold); the CDU's exchanger already had 0–1.5.
    for (const char* key : {"air_flow_exponent", "water_flow_exponent"}) {
        for (const double n : {-0.5, 3.0}) {
            expectInputError(
                [&] {
                    validateModel(scenario(reference(
                        {{"cooling", {{"heat_rejection", {{"type", "dry_cooler"}, {key, n}}}}}})));
                },
                {std::string("/cooling/heat_rejection/") + key, "out of range", "1.5"});
        }
    }
}

TEST(ScenarioSchema, GeneratedFromTheSpecsWithUnitsRangesAndChoices) {
    const Json s = scenarioSchema();
    EXPECT_EQ(s["$schema"], "https://json-schema.org/draft/2020-12/schema");
    const Json& tcs = s["properties"]["cooling"]["properties"]["tcs_supply_temp_C"];
    EXPECT_EQ(tcs["minimum"], 15.0);
    EXPECT_EQ(tcs["maximum"], 50.0);
    EXPECT_EQ(tcs["x-unit"], "C");
    const Json& kind = s["properties"]["study"]["properties"]["kind"]["enum"];
    EXPECT_EQ(kind.size(), 4u);
    // Catalog-backed objects list the record's parameters as overridable, not its citations.
    const Json& cdu = s["properties"]["cooling"]["properties"]["cdu"]["properties"];
    EXPECT_TRUE(cdu.contains("capacity_kW"));
    for (const auto& [key, v] : cdu.items()) EXPECT_EQ(key.find("_source"), std::string::npos);
    // Events: one shape per type.
    EXPECT_EQ(s["properties"]["events"]["items"]["oneOf"].size(), 9u);
}

}  // namespace
}  // namespace dctwin::facility::test
