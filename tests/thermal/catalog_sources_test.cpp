// Every number of the thermal catalog carries a citation with a confidence level, as the power
// catalog's do (tests/power/catalog_test.cpp, issue 10).
//
// The thermal convention (thermal/catalog.h): a numeric field "<stem>_<unit>" (or "<stem>" when
// it has no unit) is cited by its sibling "<stem>_source", a string that ends in the confidence
// of domain-facts.md ("How to read this file"): ", H", ", M", ", L" or a range ", L-M" /
// ", M-H". Every "*_source" must cite a field the entry has, so a citation cannot outlive its
// number. The readers skip every "*_source" key (thermal::isDocumentationKey).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "core/json.h"
#include "thermal/catalog.h"
#include "thermal/coolant.h"

namespace dctwin::thermal {
namespace {

/// Unit suffixes used in catalog keys, longest first so "K_per_W" wins over "W".
const std::vector<std::string>& unitSuffixes() {
    static const std::vector<std::string> units = [] {
        std::vector<std::string> u = {"K_per_W", "J_per_K", "kJ_per_K", "kW",  "W",   "K",   "C",
                                      "F",       "gpm",     "Lpm",      "psi", "kPa", "pct", "L",
                                      "mm",      "um",      "m",        "m3s", "m3h"};
        std::sort(u.begin(), u.end(),
                  [](const auto& a, const auto& b) { return a.size() > b.size(); });
        return u;
    }();
    return units;
}

/// "capacity_kW" -> "capacity", "gpu_resistance_K_per_W" -> "gpu_resistance", "channels" ->
/// "channels".
std::string stemOf(const std::string& key) {
    for (const auto& u : unitSuffixes()) {
        const std::string suffix = "_" + u;
        if (key.size() > suffix.size() &&
            key.compare(key.size() - suffix.size(), suffix.size(), suffix) == 0) {
            return key.substr(0, key.size() - suffix.size());
        }
    }
    return key;
}

bool isNumeric(const Json& v) {
    if (v.is_number()) return true;
    if (!v.is_array() || v.empty()) return false;
    return std::all_of(v.begin(), v.end(), [](const Json& x) { return isNumeric(x); });
}

/// The problems of one catalog entry, one line each; empty when every number is cited.
std::vector<std::string> citationProblems(const Json& entry) {
    static const std::regex confidence(R"(, (H|M|L|L-M|M-H)$)");
    std::vector<std::string> problems;
    for (const auto& item : entry.items()) {
        const std::string& key = item.key();
        if (isDocumentationKey(key) || !isNumeric(item.value())) continue;
        const std::string cite = stemOf(key) + "_source";
        if (!entry.contains(cite) || !entry[cite].is_string()) {
            problems.push_back(key + ": no \"" + cite + "\"");
            continue;
        }
        const std::string text = entry[cite].get<std::string>();
        if (text.size() < 20) problems.push_back(cite + ": citation too short: " + text);
        if (!std::regex_search(text, confidence)) {
            problems.push_back(cite +
                               ": no confidence tag (\", H\", \", M\", \", L\", \", L-M\", "
                               "\", M-H\") at the end: " +
                               text);
        }
    }
    // A citation names a field the entry has: "<stem>_source" for some field of that stem.
    for (const auto& item : entry.items()) {
        const std::string& key = item.key();
        const std::string suffix = "_source";
        if (key.size() <= suffix.size() ||
            key.compare(key.size() - suffix.size(), suffix.size(), suffix) != 0)
            continue;
        const std::string cited = key.substr(0, key.size() - suffix.size());
        bool found = false;
        for (const auto& other : entry.items()) {
            if (!isDocumentationKey(other.key()) && stemOf(other.key()) == cited) found = true;
        }
        if (!found) problems.push_back(key + ": cites a field the entry does not have");
    }
    return problems;
}

std::vector<std::filesystem::path> catalogFiles() {
    std::vector<std::filesystem::path> files;
    for (const auto& f : std::filesystem::directory_iterator(catalogDirectory())) {
        if (f.path().extension() == ".json") files.push_back(f.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

TEST(thermal_CatalogSources, EveryNumberInTheThermalCatalogIsCitedWithAConfidence) {
    const auto files = catalogFiles();
    // air_side, ashrae_liquid_classes, cdus, chillers, cooling_towers, dry_coolers, rack_loops.
    ASSERT_GE(files.size(), 7u);
    int numbers = 0;
    for (const auto& file : files) {
        const Json doc = readJsonFile(file);
        for (const auto& entry : doc.items()) {
            if (!entry.value().is_object()) continue;
            for (const auto& item : entry.value().items()) {
                numbers += !isDocumentationKey(item.key()) && isNumeric(item.value());
            }
            for (const auto& p : citationProblems(entry.value())) {
                ADD_FAILURE() << file.filename().string() << "/" << entry.key() << "/" << p;
            }
        }
    }
    // The catalog holds 146 numbers today; a change that made the walk miss them would
    // otherwise pass silently.
    EXPECT_GE(numbers, 140);
}

TEST(thermal_CatalogSources, TheCheckCatchesAnUncitedNumberAMissingConfidenceAndAStaleCitation) {
    // The checker above must be able to fail: one entry with each defect.
    const Json uncited = parseJson(R"({"capacity_kW": 100})", "test");
    ASSERT_EQ(citationProblems(uncited).size(), 1u);
    EXPECT_NE(citationProblems(uncited)[0].find("capacity_source"), std::string::npos);

    const Json no_confidence = parseJson(
        R"({"capacity_kW": 100, "capacity_source": "domain-facts B4 rating of the unit"})", "test");
    ASSERT_EQ(citationProblems(no_confidence).size(), 1u);
    EXPECT_NE(citationProblems(no_confidence)[0].find("confidence"), std::string::npos);

    const Json stale = parseJson(
        R"({"capacity_kW": 100, "capacity_source": "domain-facts B4 rating of the unit, M",
            "approach_source": "domain-facts B4 default approach of a CDU, M"})",
        "test");
    ASSERT_EQ(citationProblems(stale).size(), 1u);
    EXPECT_NE(citationProblems(stale)[0].find("approach_source"), std::string::npos);

    // A curve (array of numbers) needs a citation too; strings and booleans do not.
    const Json curve =
        parseJson(R"({"capft": [1, 2, 3], "adiabatic": true, "coolant": "water"})", "test");
    ASSERT_EQ(citationProblems(curve).size(), 1u);
    EXPECT_NE(citationProblems(curve)[0].find("capft_source"), std::string::npos);

    const Json good = parseJson(
        R"({"gpu_resistance_K_per_W": 0.022,
            "gpu_resistance_source": "domain-facts B3 cold-plate resistance, L"})",
        "test");
    EXPECT_TRUE(citationProblems(good).empty());
}

TEST(thermal_CatalogSources, CoolantTablesCiteTheirPropertySource) {
    // data/coolants/*.json carry property tables, not catalog entries: one file-level "source"
    // (the handbook or formulation the tables come from) covers the tables, and the freezing
    // point has its own citation. These files carry no confidence tag (all H: ASHRAE Handbook
    // and IAPWS tables); the reader, thermal/coolant.cpp, checks their keys strictly.
    for (const auto& name : Coolant::knownNames()) {
        std::string file = name;
        std::transform(file.begin(), file.end(), file.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        const Json doc = readJsonFile(Coolant::dataDirectory() / (file + ".json"));
        ASSERT_TRUE(doc.contains("source") && doc["source"].is_string()) << name;
        EXPECT_GE(doc["source"].get<std::string>().size(), 40u) << name;
        ASSERT_TRUE(doc.contains("freezing_point_source")) << name;
        EXPECT_GE(doc["freezing_point_source"].get<std::string>().size(), 20u) << name;
    }
}

}  // namespace
}  // namespace dctwin::thermal
