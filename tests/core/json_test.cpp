// JSON helpers: every error kind names the exact JSON path, what was found and what was
// expected; quantities convert to SI; merge patches for catalog overrides.
#include "core/json.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

#include "core/errors.h"
#include "tests/common/expect_error.h"

namespace dctwin {
namespace {

using dctwin::test::inputErrorOf;

const Json kScenario = Json::parse(R"({
  "cooling": {
    "coolant": "PG52",
    "tcs_supply_temp_C": 35,
    "facility_supply_temp_F": 95,
    "both_C": 30, "both_F": 86,
    "bare_temp": 20,
    "flow_Lpm": 120,
    "pump_flow_gpm": 100,
    "it_power_kW": 132,
    "text_temp_C": "35",
    "cdu": { "model": "x", "racks_per_cdu": -3, "racks_per_cud": 8, "half": 3.5, "flag": true,
             "name": "8", "whole": 8.0, "huge": 1e20 }
  },
  "it": { "racks": [ { "model": "gb300_nvl72", "count": 64 }, { "model": 7 } ] },
  "a/b": { "c~d": 1 }
})");

TEST(JsonTest, MissingKeyNamesThePath) {
    JsonView root(kScenario);
    EXPECT_EQ(inputErrorOf([&] { root.at("cooling").at("cdu").integer("pumps"); }),
              "/cooling/cdu/pumps: required key is missing");
    EXPECT_EQ(inputErrorOf([&] { root.at("power"); }), "/power: required key is missing");
}

TEST(JsonTest, WrongTypeNamesExpectedType) {
    const JsonView cdu = JsonView(kScenario).at("cooling").at("cdu");
    EXPECT_EQ(inputErrorOf([&] { cdu.integer("name"); }),
              "/cooling/cdu/name: expected an integer, got \"8\" (a string)");
    EXPECT_EQ(inputErrorOf([&] { cdu.number("model"); }),
              "/cooling/cdu/model: expected a number, got \"x\" (a string)");
    EXPECT_EQ(inputErrorOf([&] { cdu.string("racks_per_cdu"); }),
              "/cooling/cdu/racks_per_cdu: expected a string, got -3");
    EXPECT_EQ(inputErrorOf([&] { cdu.boolean("model", false); }),
              "/cooling/cdu/model: expected true or false, got \"x\" (a string)");
    EXPECT_EQ(inputErrorOf([&] { cdu.at("model").at("x"); }),
              "/cooling/cdu/model: expected an object, got \"x\" (a string)");
    EXPECT_EQ(inputErrorOf([&] { cdu.at("model").elements(); }),
              "/cooling/cdu/model: expected an array, got \"x\" (a string)");
    EXPECT_EQ(inputErrorOf([&] { cdu.number("flag"); }),
              "/cooling/cdu/flag: expected a number, got true");
}

TEST(JsonTest, NegativeIntegerIsOutOfRange) {
    const JsonView cdu = JsonView(kScenario).at("cooling").at("cdu");
    const auto racks = cdu.integer("racks_per_cdu");
    EXPECT_EQ(racks, -3);
    EXPECT_EQ(inputErrorOf([&] { cdu.requireRange("racks_per_cdu", racks, 1, 64); }),
              "/cooling/cdu/racks_per_cdu: value -3 is out of range; expected between 1 and 64");
    EXPECT_EQ(inputErrorOf([&] {
                  cdu.requireRange("racks_per_cdu", racks, 1,
                                   std::numeric_limits<double>::infinity());
              }),
              "/cooling/cdu/racks_per_cdu: value -3 is out of range; expected at least 1");
    EXPECT_NO_THROW(cdu.requireRange("racks_per_cdu", 8, 1, 64));
}

TEST(JsonTest, IntegerRejectsNonIntegralNumbersAndBooleans) {
    const JsonView cdu = JsonView(kScenario).at("cooling").at("cdu");
    EXPECT_EQ(inputErrorOf([&] { cdu.integer("half"); }),
              "/cooling/cdu/half: expected an integer, got 3.5");
    EXPECT_EQ(inputErrorOf([&] { cdu.integer("flag"); }),
              "/cooling/cdu/flag: expected an integer, got true");
    EXPECT_EQ(cdu.integer("whole"), 8);
    EXPECT_EQ(cdu.integer("absent", 4), 4);
    // Whole but beyond int64: the message says why (it read "expected an integer, got 1e+20").
    EXPECT_EQ(inputErrorOf([&] { cdu.integer("huge"); }),
              "/cooling/cdu/huge: expected an integer, got 1e+20 (too large)");
}

TEST(JsonTest, UnknownKeySuggestsNearestAndListsValidKeys) {
    const JsonView cdu = JsonView(kScenario).at("cooling").at("cdu");
    EXPECT_EQ(
        inputErrorOf([&] {
            cdu.checkKeys({"model", "racks_per_cdu", "half", "flag", "name", "whole", "huge"});
        }),
        "/cooling/cdu: unknown key 'racks_per_cud'; did you mean 'racks_per_cdu'? valid "
        "keys: model, racks_per_cdu, half, flag, name, whole, huge");
    // Far from every valid key: no suggestion, still the list.
    const Json j = Json::parse(R"({"zzzzzzzz": 1})");
    EXPECT_EQ(inputErrorOf([&] {
                  JsonView(j, "/site").checkKeys({"weather", "altitude_m"});
              }),
              "/site: unknown key 'zzzzzzzz'; valid keys: weather, altitude_m");
    EXPECT_NO_THROW(JsonView(kScenario).at("it").at("racks").at(0).checkKeys({"model", "count"}));
}

TEST(JsonTest, ChoiceListsValidChoices) {
    const JsonView cooling = JsonView(kScenario).at("cooling");
    EXPECT_EQ(inputErrorOf([&] {
                  cooling.choice("coolant", {"PG25", "water", "EG30"});
              }),
              "/cooling/coolant: unknown choice 'PG52'; did you mean 'PG25'? valid choices: "
              "PG25, water, EG30");
    EXPECT_EQ(inputErrorOf([&] {
                  cooling.choice("flow_Lpm", {"a", "b"});
              }),
              "/cooling/flow_Lpm: expected a string (one of: a, b), got 120");
    EXPECT_EQ(cooling.choice("missing", {"a", "b"}, "b"), "b");
    EXPECT_EQ(JsonView(kScenario).at("cooling").at("cdu").choice("model", {"x", "y"}), "x");
}

TEST(JsonTest, QuantityConvertsUnitSuffixToSi) {
    const JsonView cooling = JsonView(kScenario).at("cooling");
    EXPECT_DOUBLE_EQ(cooling.quantity("tcs_supply_temp", {"C", "F", "K"}), 308.15);
    EXPECT_NEAR(cooling.quantity("facility_supply_temp", {"C", "F"}), 308.15, 1e-9);
    EXPECT_NEAR(cooling.quantity("flow", {"Lpm", "gpm", "m3h"}), 120 * 1e-3 / 60, 1e-15);
    EXPECT_NEAR(cooling.quantity("pump_flow", {"Lpm", "gpm"}), 100 * 6.30901964e-5, 1e-9);
    EXPECT_DOUBLE_EQ(cooling.quantity("it_power", {"W", "kW", "MW"}), 132e3);
    EXPECT_DOUBLE_EQ(cooling.quantity("absent_power", {"W", "kW"}, 5.0), 5.0);
    EXPECT_TRUE(cooling.hasQuantity("flow", {"Lpm", "gpm"}));
    EXPECT_FALSE(cooling.hasQuantity("flow", {"gpm"}));
}

TEST(JsonTest, QuantityErrors) {
    const JsonView cooling = JsonView(kScenario).at("cooling");
    EXPECT_EQ(inputErrorOf([&] {
                  cooling.quantity("both", {"C", "F"});
              }),
              "/cooling: 'both' is given more than once (both_C, both_F); keep only one");
    EXPECT_EQ(inputErrorOf([&] {
                  cooling.quantity("return_temp", {"C", "F"});
              }),
              "/cooling/return_temp_C: required key is missing (give one of return_temp_C, "
              "return_temp_F)");
    EXPECT_EQ(inputErrorOf([&] {
                  cooling.quantity("bare_temp", {"C", "F"}, 300.0);
              }),
              "/cooling/bare_temp: the key needs a unit suffix: use bare_temp_C or bare_temp_F");
    EXPECT_EQ(inputErrorOf([&] { cooling.quantity("text_temp", {"C"}); }),
              "/cooling/text_temp_C: expected a number (in C), got \"35\" (a string)");
}

TEST(JsonTest, RequireRangeShowsValueAndBoundsInTheGivenUnit) {
    const JsonView cooling = JsonView(kScenario).at("cooling");
    const double t = cooling.quantity("tcs_supply_temp", {"C"});
    EXPECT_NO_THROW(cooling.requireRange("tcs_supply_temp_C", t, 288.15, 333.15, "C"));
    EXPECT_EQ(
        inputErrorOf([&] { cooling.requireRange("tcs_supply_temp_C", t, 288.15, 303.15, "C"); }),
        "/cooling/tcs_supply_temp_C: value 35 C is out of range; expected between 15 C "
        "and 30 C");
    EXPECT_EQ(inputErrorOf([&] { cooling.requireRange("flow_Lpm", 0.002, 0.0, 0.001, "Lpm"); }),
              "/cooling/flow_Lpm: value 120 Lpm is out of range; expected between 0 Lpm and "
              "60 Lpm");
}

TEST(JsonTest, ArrayElementsCarryIndexInPath) {
    const JsonView racks = JsonView(kScenario).at("it").at("racks");
    ASSERT_EQ(racks.size(), 2u);
    const auto elems = racks.elements();
    EXPECT_EQ(elems[1].path(), "/it/racks/1");
    EXPECT_EQ(inputErrorOf([&] { elems[1].string("model"); }),
              "/it/racks/1/model: expected a string, got 7");
    EXPECT_EQ(inputErrorOf([&] { racks.at(5); }),
              "/it/racks: index 5 is out of range; the array has 2 elements");
    EXPECT_EQ(racks.at(0).integer("count"), 64);
}

TEST(JsonTest, KeysWithSlashAndTildeAreEscapedInPaths) {
    const JsonView v = JsonView(kScenario).at("a/b").at("c~d");
    EXPECT_EQ(v.path(), "/a~1b/c~0d");
    EXPECT_EQ(JsonView(kScenario).where(), "/");
}

TEST(JsonTest, ParseErrorGivesLineAndColumn) {
    const std::string text = "{\n  \"a\": 1,\n  \"b\": }\n";
    const std::string msg = inputErrorOf([&] { parseJson(text, "scenario.json"); });
    EXPECT_EQ(msg.rfind("scenario.json:3:8: ", 0), 0u) << msg;
    EXPECT_NE(msg.find("syntax error"), std::string::npos) << msg;
    EXPECT_EQ(msg.find("[json.exception"), std::string::npos) << msg;
}

TEST(JsonTest, TruncatedFileReportsItsLastLine) {
    const std::string msg = inputErrorOf([] { parseJson("{\n\"a\": [1,\n2", "t.json"); });
    EXPECT_EQ(msg.rfind("t.json:3:", 0), 0u) << msg;
}

TEST(JsonTest, DuplicateKeyIsRejected) {
    EXPECT_EQ(inputErrorOf([] { parseJson(R"({"a": {"x": 1, "x": 2}})", "dup.json"); }),
              "dup.json: /a/x: key 'x' appears more than once in one object");
    // Where, through arrays and nested objects (the second rack's "count"; a key with '/').
    EXPECT_EQ(inputErrorOf([] {
                  parseJson(R"({"it": {"racks": [{"count": 1}, {"model": "m", "count": 2,
                                "count": 3}]}, "z": 0})",
                            "s.json");
              }),
              "s.json: /it/racks/1/count: key 'count' appears more than once in one object");
    EXPECT_EQ(inputErrorOf([] { parseJson(R"({"a/b": [[0], {"k": 1, "k": 1}]})", "s.json"); }),
              "s.json: /a~1b/1/k: key 'k' appears more than once in one object");
    EXPECT_NO_THROW(parseJson(R"({"a": {"x": 1}, "b": {"x": 2}})", "ok.json"));
}

TEST(JsonTest, ReadJsonFile) {
    const auto dir =
        std::filesystem::temp_directory_path() / ("dctwin_json_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto good = dir / "good.json";
    std::ofstream(good) << R"({"name": "x", "n": 3})";
    EXPECT_EQ(readJsonFile(good).at("n"), 3);

    const auto bad = dir / "bad.json";
    std::ofstream(bad) << "{\"name\": \"x\",\n \"n\": 3,,}";
    const std::string msg = inputErrorOf([&] { readJsonFile(bad); });
    EXPECT_EQ(msg.rfind(bad.string() + ":2:", 0), 0u) << msg;

    EXPECT_EQ(inputErrorOf([&] { readJsonFile(dir / "absent.json"); }),
              "cannot read scenario file '" + (dir / "absent.json").string() +
                  "': No such file or directory");
    EXPECT_EQ(inputErrorOf([&] { readJsonFile(dir); }),
              "cannot read scenario file '" + dir.string() + "': Is a directory");
    std::filesystem::remove_all(dir);
}

TEST(JsonTest, NearestName) {
    EXPECT_EQ(nearestName("racks_per_cud", {"model", "racks_per_cdu"}), "racks_per_cdu");
    EXPECT_EQ(nearestName("pg25", {"PG25", "water"}), "PG25");
    EXPECT_EQ(nearestName("zzzz", {"PG25", "water"}), "");
    EXPECT_EQ(nearestName("", {"a"}), "");
    // Long names allow more edits: 18 characters → up to 6.
    EXPECT_EQ(nearestName("supply_temperature", {"supply_temp"}), "");
    EXPECT_EQ(nearestName("suply_tempratur_C", {"supply_temp_C"}), "");
    EXPECT_EQ(nearestName("supply_tmp_CC", {"supply_temp_C"}), "supply_temp_C");
}

TEST(JsonTest, NearestNameRanksCaseThenPrefixThenEditDistance) {
    // One rule for every "did you mean": the same name in another case, then the shortest
    // candidate the input begins, then edit distance. By edit distance alone 'train' was
    // 'trace' (1 edit, against 3 for 'training') and 'H100' was 'h200' (1 edit), which is
    // another GPU.
    EXPECT_EQ(nearestName("train", {"training", "inference", "trace"}), "training");
    const std::vector<std::string> gpus = {"a100_pcie", "a100_sxm", "h100_pcie", "h100_sxm",
                                           "h200",      "b200",     "gb200",     "gb300"};
    EXPECT_EQ(nearestName("H100", gpus), "h100_sxm");
    EXPECT_EQ(nearestName("H200", gpus), "h200");  // the name in another case first
    EXPECT_EQ(nearestName("H100", {"h200", "H100x", "h100"}), "h100");
    EXPECT_EQ(nearestName("GB300_NVL72", {"gb200_nvl72", "gb300_nvl72"}), "gb300_nvl72");
    EXPECT_EQ(nearestName("tra", {"training", "transient", "trace"}), "trace");  // shortest
    // Edit distance still finds typos that are no prefix.
    EXPECT_EQ(nearestName("trainnig", {"training", "trace"}), "training");
    EXPECT_EQ(nearestName("anual", {"annual", "transient"}), "annual");
}

TEST(JsonTest, MergePatchMergesObjectsAndReplacesOtherValues) {
    const Json base = Json::parse(R"({"a": 1, "cdu": {"flow_Lpm": 100, "pumps": 2},
                                     "list": [1, 2, 3]})");
    const Json over = Json::parse(R"({"cdu": {"pumps": 3, "extra": true}, "list": [9],
                                     "new": "x"})");
    const Json merged = mergePatch(base, over);
    EXPECT_EQ(merged, Json::parse(R"({"a": 1, "cdu": {"flow_Lpm": 100, "pumps": 3,
                                      "extra": true}, "list": [9], "new": "x"})"));
    EXPECT_EQ(mergePatch(Json(1), Json::parse(R"({"a": 2})")), Json::parse(R"({"a": 2})"));
    EXPECT_EQ(mergePatch(base, Json::object()), base);
}

TEST(JsonTest, MergePatchInAnotherUnitReplacesTheRecordsKey) {
    // A scenario may give a catalog value in any unit the reference offers: "capacity_MW" over
    // a record's "capacity_kW" read as the quantity given twice ("keep only one"). The record's
    // key of the same quantity goes; keys that only share a stem (a note, another quantity, a
    // unit of another dimension) stay.
    const Json record = Json::parse(R"({"capacity_kW": 1350, "capacity_note": "rated",
        "flow_Lpm": 1200, "flow_kPa": 30, "supply_temp_C": 35, "pump_efficiency": 0.6})");
    const Json merged = mergePatch(record, Json::parse(R"({"capacity_MW": 1.5, "flow_gpm": 300,
                                            "supply_temp_F": 95})"));
    EXPECT_EQ(merged, Json::parse(R"({"capacity_MW": 1.5, "capacity_note": "rated",
        "flow_gpm": 300, "flow_kPa": 30, "supply_temp_F": 95, "pump_efficiency": 0.6})"));
    // The same unit replaces the value, as before.
    EXPECT_EQ(mergePatch(record, Json::parse(R"({"capacity_kW": 1500})"))["capacity_kW"], 1500);
}

}  // namespace
}  // namespace dctwin

namespace dctwin {
namespace {

TEST(JsonTest, PointerTokensRoundTripThroughNlohmannsOwnPointer) {
    // The app builds pointers to scenario keys with escapeJsonPointerToken and reads them back
    // with splitJsonPointer; a sweep's pointers are read by nlohmann's json_pointer. Keys with
    // '/' and '~' (RFC 6901 §4: "~01" is "~1", not "/") must address the same value in both.
    const Json doc = {{"a/b", {{"~x", 1}, {"m~1n", {{"", 2}}}}}, {"plain", {{"k", 3}}}};
    const std::vector<std::vector<std::string>> paths = {
        {"a/b", "~x"}, {"a/b", "m~1n", ""}, {"plain", "k"}};
    for (const auto& keys : paths) {
        std::string pointer;
        for (const std::string& k : keys) pointer += "/" + escapeJsonPointerToken(k);
        EXPECT_EQ(splitJsonPointer(pointer), keys) << pointer;
        const Json* v = &doc;
        for (const std::string& k : keys) v = &v->at(k);
        EXPECT_EQ(doc.at(Json::json_pointer(pointer)), *v) << pointer;
    }
    EXPECT_EQ(escapeJsonPointerToken("m~1n"), "m~01n");
    EXPECT_TRUE(splitJsonPointer("").empty());
    EXPECT_EQ(splitJsonPointer("/"), std::vector<std::string>{""});
    EXPECT_THROW(splitJsonPointer("cooling/tcs"), InputError);
}

}  // namespace
}  // namespace dctwin
