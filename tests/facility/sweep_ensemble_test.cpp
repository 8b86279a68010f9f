// Issue 12: ensembles in sweeps — the percentile definition, the draws' distributions and their
// reproducibility, and the errors a bad "ensemble" gets. (mpirun against the threaded sweep is
// tests/mpi/mpi_sweep_test.sh.)
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "core/errors.h"
#include "facility/scenario.h"
#include "facility/sweep.h"
#include "test_util.h"

using namespace dctwin;
using namespace dctwin::facility;

namespace {

Json sweepWith(const Json& ensemble) {
    Json j = {{"name", "ensemble"},
              {"base", "azure_gb300_64.json"},
              {"set", {{"/study/days", 1}}},
              {"ensemble", ensemble}};
    return j;
}

SweepPlan plan(const Json& ensemble) {
    return parseSweep(sweepWith(ensemble), facility::test::scenariosDir(), "test sweep");
}

std::vector<double> drawn(const SweepPlan& p, const std::string& pointer) {
    std::vector<double> v;
    for (const auto& c : p.cases)
        v.push_back(c.scenario.at(Json::json_pointer(pointer)).get<double>());
    return v;
}

double mean(const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return s / static_cast<double>(v.size());
}

double sd(const std::vector<double>& v) {
    const double m = mean(v);
    double s = 0;
    for (double x : v) s += (x - m) * (x - m);
    return std::sqrt(s / static_cast<double>(v.size() - 1));
}

}  // namespace

TEST(SweepEnsemble, PercentilesInterpolateBetweenOrderStatistics) {
    // Hyndman & Fan definition 7 (NumPy's default) on 1..10, by hand: h = 9p;
    // P10: h = 0.9 → 1 + 0.9·(2 − 1) = 1.9; P50: h = 4.5 → 5.5; P90: h = 8.1 → 9.1.
    const std::vector<double> v = {7, 3, 10, 1, 5, 2, 9, 4, 8, 6};  // order must not matter
    EXPECT_NEAR(percentile(v, 0.10), 1.9, 1e-12);
    EXPECT_NEAR(percentile(v, 0.50), 5.5, 1e-12);
    EXPECT_NEAR(percentile(v, 0.90), 9.1, 1e-12);
    EXPECT_DOUBLE_EQ(percentile({4.0}, 0.9), 4.0);
    EXPECT_THROW(percentile({}, 0.5), Error);
}

TEST(SweepEnsemble, DrawsFollowTheirDistributions) {
    constexpr int n = 200;
    const SweepPlan p = plan(
        {{"members", n},
         {"seed", 11},
         {"draw",
          {{"/site/other_load_kW", {{"distribution", "normal"}, {"mean", 150}, {"sd", 20}}},
           {"/cooling/tcs_supply_temp_C", {{"distribution", "uniform"}, {"min", 30}, {"max", 40}}},
           {"/power/growth_margin_pct",
            {{"distribution", "triangular"}, {"min", 0}, {"mode", 10}, {"max", 50}}}}}});
    ASSERT_EQ(p.cases.size(), static_cast<std::size_t>(n));
    EXPECT_TRUE(p.ensemble);
    EXPECT_EQ(p.cases.front().name, "m001");
    EXPECT_EQ(p.cases.back().name, "m200");
    // Sample means within 4 standard errors of the distribution's mean; standard deviations
    // within 15 % (the sd of a sample sd is σ/√(2(n−1)) ≈ 5 % here).
    const auto normal = drawn(p, "/site/other_load_kW");
    EXPECT_NEAR(mean(normal), 150.0, 4 * 20 / std::sqrt(n));
    EXPECT_NEAR(sd(normal), 20.0, 0.15 * 20);
    const auto uniform = drawn(p, "/cooling/tcs_supply_temp_C");
    for (double x : uniform) ASSERT_TRUE(x > 30 && x < 40) << x;
    EXPECT_NEAR(mean(uniform), 35.0, 4 * (10 / std::sqrt(12.0)) / std::sqrt(n));
    EXPECT_NEAR(sd(uniform), 10 / std::sqrt(12.0), 0.15 * 10 / std::sqrt(12.0));
    // Triangular(0, 10, 50): mean (a + b + c)/3 = 20, variance (a²+b²+c²−ab−ac−bc)/18 = 116.7.
    const auto tri = drawn(p, "/power/growth_margin_pct");
    for (double x : tri) ASSERT_TRUE(x >= 0 && x <= 50) << x;
    EXPECT_NEAR(mean(tri), 20.0, 4 * std::sqrt(116.7) / std::sqrt(n));
    EXPECT_NEAR(sd(tri), std::sqrt(116.7), 0.15 * std::sqrt(116.7));
}

// A normal draw with "min"/"max" is truncated: every member inside the bounds, the sample mean
// that of the truncated distribution, μ + σ·(φ(α) − φ(β))/(Φ(β) − Φ(α)) with α = (min − μ)/σ,
// β = (max − μ)/σ. For N(40, 6) on [30, 45]: α = −1.667, β = 0.833, φ(α) = 0.09942,
// φ(β) = 0.28200, Φ(β) − Φ(α) = 0.79767 − 0.04779 = 0.74988, mean 40 − 6·0.18258/0.74988 =
// 38.539 (the untruncated 40 is 5.4 standard errors away). Unbounded draws are unchanged.
TEST(SweepEnsemble, NormalDrawsWithBoundsAreTruncated) {
    constexpr int n = 200;  // 4 standard errors: ±1.08 around 38.54; 40 lies outside
    const Json bounded = {
        {"distribution", "normal"}, {"mean", 40}, {"sd", 6}, {"min", 30}, {"max", 45}};
    const SweepPlan p =
        plan({{"members", n}, {"seed", 4}, {"draw", {{"/cooling/tcs_supply_temp_C", bounded}}}});
    const auto v = drawn(p, "/cooling/tcs_supply_temp_C");
    for (double x : v) ASSERT_TRUE(x >= 30 && x <= 45) << x;
    // Variance of N(40, 6) truncated to [30, 45]: σ²·(1 + (αφ(α) − βφ(β))/Z − ((φ(α) − φ(β))/Z)²)
    // = 36·(1 + (−0.16570 − 0.23500)/0.74988 − 0.05928) = 14.62, sd 3.82.
    EXPECT_NEAR(mean(v), 38.539, 4 * 3.82 / std::sqrt(n));
    EXPECT_NEAR(sd(v), 3.82, 0.15 * 3.82);
    // One bound alone truncates one tail; without bounds the members draw what they drew
    // before bounds existed (the first Box–Muller pair of their stream).
    const SweepPlan upper =
        plan({{"members", 60},
              {"seed", 4},
              {"draw",
               {{"/cooling/tcs_supply_temp_C",
                 {{"distribution", "normal"}, {"mean", 40}, {"sd", 6}, {"max", 45}}}}}});
    for (double x : drawn(upper, "/cooling/tcs_supply_temp_C")) ASSERT_LE(x, 45) << x;
    const SweepPlan free = plan(
        {{"members", 20},
         {"seed", 4},
         {"draw",
          {{"/site/other_load_kW", {{"distribution", "normal"}, {"mean", 150}, {"sd", 20}}}}}});
    const SweepPlan wide = plan({{"members", 20},
                                 {"seed", 4},
                                 {"draw",
                                  {{"/site/other_load_kW",
                                    {{"distribution", "normal"},
                                     {"mean", 150},
                                     {"sd", 20},
                                     {"min", -1e9},
                                     {"max", 1e9}}}}}});
    EXPECT_EQ(drawn(free, "/site/other_load_kW"), drawn(wide, "/site/other_load_kW"));
}

// A member whose draw leaves the parameter's valid range fails the sweep before any run, and
// the message says which member, what it drew and how to bound it; bounds that keep almost
// none of the distribution are refused.
TEST(SweepEnsemble, ADrawOutOfRangeNamesTheMemberAndItsDraw) {
    std::string msg;
    try {
        plan({{"members", 30},
              {"seed", 3},
              {"draw",
               {{"/cooling/tcs_supply_temp_C",
                 {{"distribution", "normal"}, {"mean", 40}, {"sd", 6}}}}}});
    } catch (const InputError& e) {
        msg = e.what();
    }
    EXPECT_NE(msg.find("case 'm07'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("out of range"), std::string::npos) << msg;
    EXPECT_NE(msg.find("drew /cooling/tcs_supply_temp_C = 50.13"), std::string::npos) << msg;
    EXPECT_NE(msg.find("\"min\"/\"max\""), std::string::npos) << msg;
    std::string sliver;
    try {
        plan({{"members", 3},
              {"draw",
               {{"/cooling/tcs_supply_temp_C",
                 {{"distribution", "normal"},
                  {"mean", 20},
                  {"sd", 1},
                  {"min", 30},
                  {"max", 40}}}}}});
    } catch (const InputError& e) {
        sliver = e.what();
    }
    EXPECT_NE(sliver.find("/ensemble/draw/~1cooling~1tcs_supply_temp_C"), std::string::npos)
        << sliver;
    EXPECT_NE(sliver.find("at least 1 %"), std::string::npos) << sliver;
    EXPECT_THROW(plan({{"members", 3},
                       {"draw",
                        {{"/cooling/tcs_supply_temp_C",
                          {{"distribution", "normal"},
                           {"mean", 35},
                           {"sd", 1},
                           {"min", 36},
                           {"max", 36}}}}}}),
                 InputError);
}

TEST(SweepEnsemble, DrawsAreReproducibleAndIndependentOfTheOtherPointers) {
    const Json normal = {{"distribution", "normal"}, {"mean", 150}, {"sd", 20}};
    const SweepPlan a =
        plan({{"members", 20}, {"seed", 5}, {"draw", {{"/site/other_load_kW", normal}}}});
    const SweepPlan b =
        plan({{"members", 20}, {"seed", 5}, {"draw", {{"/site/other_load_kW", normal}}}});
    const SweepPlan c =
        plan({{"members", 20}, {"seed", 6}, {"draw", {{"/site/other_load_kW", normal}}}});
    // A second drawn pointer that sorts before the first one.
    const SweepPlan d = plan({{"members", 20},
                              {"seed", 5},
                              {"draw",
                               {{"/site/other_load_kW", normal},
                                {"/cooling/tcs_supply_temp_C",
                                 {{"distribution", "uniform"}, {"min", 30}, {"max", 40}}}}}});
    EXPECT_EQ(drawn(a, "/site/other_load_kW"), drawn(b, "/site/other_load_kW"));
    EXPECT_EQ(drawn(a, "/site/other_load_kW"), drawn(d, "/site/other_load_kW"));
    EXPECT_NE(drawn(a, "/site/other_load_kW"), drawn(c, "/site/other_load_kW"));
}

TEST(SweepEnsemble, ChoiceDrawsEveryValueAndCasesCrossMembers) {
    Json sweep = sweepWith(
        {{"members", 60},
         {"draw",
          {{"/cooling/heat_rejection/type",
            {{"distribution", "choice"}, {"values", {"adiabatic_cooler", "cooling_tower"}}}}}}});
    sweep["cases"] = {{{"name", "a"}}, {{"name", "b"}}};
    const SweepPlan p = parseSweep(sweep, facility::test::scenariosDir(), "test sweep");
    ASSERT_EQ(p.cases.size(), 120u);
    EXPECT_EQ(p.cases[0].name, "a__m01");
    EXPECT_EQ(p.cases[60].name, "b__m01");
    std::map<std::string, int> counts;
    for (std::size_t i = 0; i < 60; ++i) {
        counts[p.cases[i].scenario["cooling"]["heat_rejection"]["type"].get<std::string>()]++;
        // Common random numbers: member k draws the same value in every case.
        EXPECT_EQ(p.cases[i].scenario["cooling"]["heat_rejection"]["type"],
                  p.cases[i + 60].scenario["cooling"]["heat_rejection"]["type"]);
    }
    // Binomial(60, 1/2): each value at least 15 times (over 4 σ below the mean of 30).
    EXPECT_GE(counts["adiabatic_cooler"], 15);
    EXPECT_GE(counts["cooling_tower"], 15);
}

// A choice value no member happens to draw is still checked: with two members and a seed that
// draws only valid values, -500 °C passed `validate`, and a later sweep with more members failed.
TEST(SweepEnsemble, AChoiceValueNoMemberDrawsIsCheckedToo) {
    const Json draw = {{"/cooling/tcs_supply_temp_C",
                        {{"distribution", "choice"}, {"values", {30, 31, 32, 31.5, -500}}}}};
    // Seed 1 with two members draws neither member from the last value (seen in the plan
    // below: the test would not show the check otherwise).
    Json drawn_valid_only = sweepWith({{"members", 2}, {"seed", 1}, {"draw", draw}});
    std::string message = "(no error)";
    try {
        parseSweep(drawn_valid_only, facility::test::scenariosDir(), "test sweep");
    } catch (const InputError& e) {
        message = e.what();
    }
    EXPECT_NE(message.find("/ensemble/draw/~1cooling~1tcs_supply_temp_C/values/4 (-500)"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("out of range"), std::string::npos) << message;
    EXPECT_EQ(message.find("this member drew"), std::string::npos)
        << "the bad value was drawn after all; pick a seed that does not draw it: " << message;
    // The same choice without the bad value passes.
    Json good = sweepWith({{"members", 2},
                           {"seed", 1},
                           {"draw",
                            {{"/cooling/tcs_supply_temp_C",
                              {{"distribution", "choice"}, {"values", {30, 31, 32, 31.5}}}}}}});
    EXPECT_NO_THROW(parseSweep(good, facility::test::scenariosDir(), "test sweep"));
}

TEST(SweepEnsemble, BadEnsemblesAreRefusedWithTheirPath) {
    auto message = [](const Json& ensemble) {
        try {
            plan(ensemble);
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("(no error)");
    };
    const std::string unknown =
        message({{"members", 3}, {"draw", {{"/site/other_load_kW", {{"distribution", "gamma"}}}}}});
    EXPECT_NE(unknown.find("/ensemble/draw/~1site~1other_load_kW"), std::string::npos) << unknown;
    EXPECT_NE(unknown.find("uniform, normal, triangular, choice"), std::string::npos) << unknown;
    EXPECT_NE(
        message({{"draw",
                  {{"/site/other_load_kW", {{"distribution", "normal"}, {"mean", 1}, {"sd", 1}}}}}})
            .find("needs \"members\""),
        std::string::npos);
    EXPECT_NE(
        message(
            {{"members", 3},
             {"draw",
              {{"/site/other_load_kW", {{"distribution", "normal"}, {"mean", 1}, {"sd", -1}}}}}})
            .find("standard deviation"),
        std::string::npos);
    EXPECT_NE(
        message(
            {{"members", 1.5},
             {"draw",
              {{"/site/other_load_kW", {{"distribution", "uniform"}, {"min", 1}, {"max", 2}}}}}})
            .find("whole number of members"),
        std::string::npos);
    EXPECT_NE(
        message({{"members", 3},
                 {"draw",
                  {{"/site/no_such_key", {{"distribution", "uniform"}, {"min", 1}, {"max", 2}}}}}})
            .find("(no error)"),
        0u)
        << "a new key under an existing object is what the scenario reader then rejects";
    EXPECT_NE(message({{"seed", 3}}).find("apply to draws"), std::string::npos);
}

TEST(SweepEnsemble, APointerSetTwiceIsRefusedNotSilentlyReplaced) {
    // A draw on a pointer that "vary" also sets replaced every varied value: the cases "1__m1"
    // and "-1__m1" ran the same scenario and reported as different ones. Each pointer that
    // "vary" or "draw" sets, or one inside it, may be set in one place only; the message names
    // both places and the file.
    const Json draw = {
        {"members", 3},
        {"draw",
         {{"/site/other_load_kW", {{"distribution", "normal"}, {"mean", 150}, {"sd", 5}}}}}};
    Json vary_and_draw = sweepWith(draw);
    vary_and_draw["vary"] = {{"/site/other_load_kW", {100, 200}}};
    dctwin::test::expectInputError(
        [&] { parseSweep(vary_and_draw, facility::test::scenariosDir(), "s.json"); },
        {"s.json: /vary: '/site/other_load_kW' is also set by /ensemble/draw"});
    // The drawn pointer also in the common "set".
    Json set_parent = sweepWith(draw);
    set_parent["set"]["/site/other_load_kW"] = 120;
    dctwin::test::expectInputError(
        [&] { parseSweep(set_parent, facility::test::scenariosDir(), "s.json"); },
        {"/ensemble/draw: '/site/other_load_kW' is also set by /set"});
    Json vary_in_case = {{"base", "azure_gb300_64.json"},
                         {"cases", {{{"name", "a"}, {"set", {{"/study/days", 2}}}}}},
                         {"vary", {{"/study", {Json::object()}}}}};
    dctwin::test::expectInputError(
        [&] { parseSweep(vary_in_case, facility::test::scenariosDir(), "s.json"); },
        {"/vary: '/study' is also set by /cases/0/set ('/study/days')"});
    // A case overriding the common "set" stays allowed (documented precedence), and sibling
    // pointers do not overlap (/site/weather is not inside /site/weather_year, say).
    Json ok = {{"base", "azure_gb300_64.json"},
               {"set", {{"/study/days", 1}}},
               {"cases", {{{"name", "a"}, {"set", {{"/study/days", 2}}}}}},
               {"vary", {{"/site/other_load_kW", {100, 200}}}}};
    const SweepPlan p = parseSweep(ok, facility::test::scenariosDir(), "s.json");
    ASSERT_EQ(p.cases.size(), 2u);
    EXPECT_EQ(p.cases[0].scenario["study"]["days"], 2);
}

TEST(SweepEnsemble, AKeyInsideAnObjectSetEarlierIsNoConflict) {
    // The reference lacks /power/transformers: varying its topology needs the object. Setting
    // it to {} in "set" and varying the key inside was refused as the pointer set twice,
    // although the vary only adds a key the object lacks and replaces nothing.
    const Json sweep = {{"base", "azure_gb300_64.json"},
                        {"set", {{"/study/days", 1}, {"/power/transformers", Json::object()}}},
                        {"vary", {{"/power/transformers/topology", {"N+1", "2N"}}}}};
    const SweepPlan p = parseSweep(sweep, facility::test::scenariosDir(), "s.json");
    ASSERT_EQ(p.cases.size(), 2u);
    EXPECT_EQ(p.cases[1].scenario["power"]["transformers"], (Json{{"topology", "2N"}}));
    // An object that holds the key is still replaced, and still refused; so is a vary of the
    // whole object over a key set before it.
    Json holds = sweep;
    holds["set"]["/power/transformers"] = {{"topology", "N"}};
    dctwin::test::expectInputError(
        [&] { parseSweep(holds, facility::test::scenariosDir(), "s.json"); },
        {"/vary: '/power/transformers/topology' is also set by /set ('/power/transformers')"});
    // Within "vary" the object goes first (keys are applied in order), so the same holds.
    const Json both = {{"base", "azure_gb300_64.json"},
                       {"set", {{"/study/days", 1}}},
                       {"vary",
                        {{"/power/transformers", {Json::object()}},
                         {"/power/transformers/topology", {"N+1", "2N"}}}}};
    EXPECT_EQ(parseSweep(both, facility::test::scenariosDir(), "s.json").cases.size(), 2u);
}

TEST(SweepEnsemble, AMissingParentSaysWhatIsMissingAndHowToAddIt) {
    // "'…' has no parent object '…' in the base scenario" gave no way out.
    const Json sweep = {{"base", "azure_gb300_64.json"},
                        {"vary", {{"/power/transformers/topology", {"N+1", "2N"}}}}};
    dctwin::test::expectInputError(
        [&] { parseSweep(sweep, facility::test::scenariosDir(), "s.json"); },
        {"s.json: /vary: '/power/transformers/topology' has no parent object '/power/transformers'",
         "azure_gb300_64.json", "'/power' has no key 'transformers'",
         "add the object '/power/transformers' to the base scenario",
         "\"/power/transformers\": {} in the sweep's \"set\""});
    // A typo in the parent: the key meant.
    const Json typo = {{"base", "azure_gb300_64.json"},
                       {"vary", {{"/cooling/heat_rejektion/type", {"dry_cooler"}}}}};
    dctwin::test::expectInputError(
        [&] { parseSweep(typo, facility::test::scenariosDir(), "s.json"); },
        {"'/cooling' has no key 'heat_rejektion' (did you mean 'heat_rejection'?)"});
    // A parent that is no object.
    const Json scalar = {{"base", "azure_gb300_64.json"},
                         {"set", {{"/site/other_load_kW/value", 1}}}};
    dctwin::test::expectInputError(
        [&] { parseSweep(scalar, facility::test::scenariosDir(), "s.json"); },
        {"/set: '/site/other_load_kW/value' sets a key in '/site/other_load_kW'",
         "is a number, not an object; set '/site/other_load_kW' as a whole instead"});
}

TEST(SweepEnsemble, AnErrorOfTheBaseScenarioNamesTheBaseFile) {
    // A fault in the base scenario, which every case inherits, was reported as the first
    // case's ("s.json: case 'x': /study/kind ..."): the user looked for it in the sweep.
    facility::test::TempDir dir;
    Json base = facility::test::reference();
    base["study"]["kind"] = "anual";
    base["site"]["weather"] =
        (facility::test::scenariosDir().parent_path() / facility::test::weather("milwaukee"))
            .string();
    dir.write("base.json", base.dump(2));
    const Json sweep = {{"base", "base.json"}, {"vary", {{"/site/other_load_kW", {100, 200}}}}};
    const std::string msg =
        dctwin::test::inputErrorOf([&] { parseSweep(sweep, dir.path(), "s.json"); });
    EXPECT_EQ(msg.rfind((dir / "base.json").string() + ": /study/kind", 0), 0u) << msg;
    EXPECT_NE(msg.find("in the base scenario of s.json, so in every case; the first is '100'"),
              std::string::npos)
        << msg;
    // A fault the sweep brings in is still the case's.
    Json good = facility::test::reference();
    good["site"]["weather"] = base["site"]["weather"];
    dir.write("good.json", good.dump(2));
    const Json bad_value = {{"base", "good.json"}, {"vary", {{"/site/other_load_kW", {100, -5}}}}};
    const std::string c =
        dctwin::test::inputErrorOf([&] { parseSweep(bad_value, dir.path(), "s.json"); });
    EXPECT_EQ(c.rfind("s.json: case '-5': /site/other_load_kW", 0), 0u) << c;
}

TEST(SweepEnsemble, SweepFileErrorsNameTheFileOnce) {
    // The file's own errors named only a place in it ("/: unknown key 'bogus'"); the cases'
    // named the file twice ("w.json: case 'x': w.json case 'x': ..."); a bad pointer leaked the
    // JSON library's text; a scenario given as a sweep said only "unknown key '$schema'".
    Json bogus = {{"base", "azure_gb300_64.json"}, {"bogus", 1}};
    EXPECT_EQ(dctwin::test::inputErrorOf([&] {
                  parseSweep(bogus, facility::test::scenariosDir(), "w.json");
              }).rfind("w.json: /: unknown key 'bogus'", 0),
              0u);
    Json bad_case = {{"base", "azure_gb300_64.json"}, {"set", {{"/site/other_load_kW", -5}}}};
    const std::string c = dctwin::test::inputErrorOf(
        [&] { parseSweep(bad_case, facility::test::scenariosDir(), "w.json"); });
    EXPECT_EQ(c.rfind("w.json: case 'base': /site/other_load_kW", 0), 0u) << c;
    EXPECT_EQ(c.find("w.json", 1), std::string::npos) << c;
    Json bad_pointer = {{"base", "azure_gb300_64.json"}, {"set", {{"site/other_load_kW", 1}}}};
    const std::string b = dctwin::test::inputErrorOf(
        [&] { parseSweep(bad_pointer, facility::test::scenariosDir(), "w.json"); });
    EXPECT_NE(b.find("is not a JSON pointer: expected '/' before each key"), std::string::npos)
        << b;
    EXPECT_EQ(b.find("json.exception"), std::string::npos) << b;
    const Json scenario = facility::test::scenarioJson("azure_gb300_64.json");
    dctwin::test::expectInputError(
        [&] { parseSweep(scenario, facility::test::scenariosDir(), "azure_gb300_64.json"); },
        {"azure_gb300_64.json: /: this is a scenario, not a sweep file"});
}

TEST(SweepEnsemble, ASweepOfTooManyCasesIsRefusedBeforeItIsBuilt) {
    // 1,000 × 30 × 100 values built 3 million scenario copies and ended in std::bad_alloc
    // (exit 1) or the kernel's OOM killer; the product is counted first and refused above
    // 100,000 cases, with its factors. Refused here within milliseconds: the cases are never
    // built (the test would take minutes and gigabytes otherwise).
    Json vary = sweepWith(Json::object());
    vary.erase("ensemble");
    Json a = Json::array(), b = Json::array();
    for (int i = 0; i < 400; ++i) a.push_back(100 + i);
    for (int i = 0; i < 300; ++i) b.push_back(30 + i);
    vary["vary"] = {{"/site/other_load_kW", a}, {"/site/elevation_m", b}};
    dctwin::test::expectInputError(
        [&] { parseSweep(vary, facility::test::scenariosDir(), "s.json"); },
        {"s.json: /vary: 300 × 400 makes 120000 cases; a sweep takes at most 100000"});
    // An ensemble over cases: members × cases.
    Json ens = sweepWith(
        {{"members", 60000},
         {"draw",
          {{"/site/other_load_kW", {{"distribution", "normal"}, {"mean", 150}, {"sd", 5}}}}}});
    ens["vary"] = {{"/site/elevation_m", {100, 200}}};
    dctwin::test::expectInputError(
        [&] { parseSweep(ens, facility::test::scenariosDir(), "s.json"); },
        {"/ensemble/members: 60000 members for each of 2 cases make 120000"});
}

TEST(SweepEnsemble, CheckingTheCasesStopsWhenCancelled) {
    // The CLI's Ctrl-C sets the flag; checking 10,000 cases took 4 minutes and did not look at
    // it. Set before the check, not one case is parsed.
    const std::atomic<bool> cancel{true};
    Json vary = sweepWith(Json::object());
    vary.erase("ensemble");
    vary["vary"] = {{"/site/other_load_kW", {100, 200, 300}}};
    EXPECT_THROW(parseSweep(vary, facility::test::scenariosDir(), "s.json", &cancel),
                 CancelledError);
    const std::atomic<bool> go{false};
    EXPECT_EQ(parseSweep(vary, facility::test::scenariosDir(), "s.json", &go).cases.size(), 3u);
}

TEST(SweepEnsemble, JobsOutsideTheStudyAreWarnedOf) {
    // A job list exported for the year run over a 2-day study: the jobs that start after it
    // never run. With every job outside it the site sat idle (peak IT 2.3 MW of 8.5 MW) with
    // exit 0 and no word; run, validate and sweep print these warnings.
    Json j = facility::test::scenarioJson("azure_gb300_64.json");
    j["study"] = {{"kind", "annual"}, {"start", "07-15"}, {"days", 2}, {"output_interval_s", 3600}};
    Json& jobs = j["workload"]["jobs"];
    ASSERT_GE(jobs.size(), 2u);
    jobs[0]["start_h"] = 60;
    const std::vector<std::string> one =
        scenarioWarnings(parseScenario(j, facility::test::scenariosDir(), "s.json"));
    ASSERT_EQ(one.size(), 1u);
    EXPECT_EQ(one[0], fmt::format("1 of the workload's {} jobs have no time in the study (0 to "
                                  "48 h) and do not run: '{}' (starts at 60 h)",
                                  jobs.size(), jobs[0]["name"].get<std::string>()));
    for (auto& job : jobs) job["start_h"] = 5000;
    const std::vector<std::string> all =
        scenarioWarnings(parseScenario(j, facility::test::scenariosDir(), "s.json"));
    ASSERT_EQ(all.size(), 1u);
    EXPECT_NE(all[0].find("so the racks are idle throughout"), std::string::npos) << all[0];
    // The shipped scenario: its jobs all run.
    EXPECT_TRUE(scenarioWarnings(parseScenario(facility::test::scenarioJson("azure_gb300_64.json"),
                                               facility::test::scenariosDir(), "s.json"))
                    .empty());
}

TEST(SweepEnsemble, ASweepAsTheBaseIsNamedAsSuch) {
    // A sweep whose base is a sweep (here the shipped climate sweep) was read as a scenario and
    // failed on the first pointer it set: "has no parent object '/cooling' in the base
    // scenario".
    Json j = sweepWith(Json::object());
    j.erase("ensemble");
    j["base"] = "sweep_heat_rejection_climate.json";
    dctwin::test::expectInputError(
        [&] { parseSweep(j, facility::test::scenariosDir(), "s.json"); },
        {"s.json: /base: ", "sweep_heat_rejection_climate.json' is a sweep file, not a scenario"});
}

// A helper audit of `dctwin sweep` (2026-12-08) found these inputs accepted, or refused with
// the wrong words; each was run against the build before the fix and went wrong there.
TEST(SweepEnsemble, PointersIntoArraysSayWhatTheArrayHolds) {
    // An index past any number ended in nlohmann's own "unresolved reference token" (exit 1),
    // and an index past the end was told to "add the object", which cannot be done.
    for (const char* index : {"99999999999999999999", "5", "-"}) {
        const Json sweep = {{"base", "azure_gb300_64.json"},
                            {"vary", {{fmt::format("/it/racks/{}/count", index), {1, 2}}}}};
        dctwin::test::expectInputError(
            [&] { parseSweep(sweep, facility::test::scenariosDir(), "s.json"); },
            {"s.json: /vary: ", "goes through '/it/racks', which in the base scenario",
             "is an array of 1 entry",
             fmt::format("and '{}' is not one of its indices (0 to 0)", index),
             "set '/it/racks' as a whole instead"});
    }
}

TEST(SweepEnsemble, EmptyOrSingleSweepsAndUndrawableSpansAreRefused) {
    const Json base = {{"base", "azure_gb300_64.json"}, {"set", {{"/study/days", 1}}}};
    auto refused = [&](const Json& extra, const std::string& part) {
        Json sweep = base;
        sweep.update(extra);
        dctwin::test::expectInputError(
            [&] { parseSweep(sweep, facility::test::scenariosDir(), "s.json"); },
            {"s.json: ", part});
    };
    // "vary": {} ran the base alone.
    refused({{"vary", Json::object()}}, "/vary: expected an object of JSON pointer");
    // An ensemble of one case reported P10 = P50 = P90.
    refused({{"ensemble", Json::object()}}, "/ensemble: an ensemble needs at least 2 members");
    // "" lay over every pointer and was reported as set twice.
    refused({{"vary", {{"", {1, 2}}}}}, "/vary: \"\" would replace the whole scenario");
    // A description that is no text passed.
    refused({{"description", {{"x", 1}}}}, "/description: expected a text");
    // Above 2^53 two seeds read alike; the bound is stated.
    refused(
        {{"ensemble",
          {{"members", 2},
           {"seed", 9007199254740993ULL},
           {"draw",
            {{"/site/other_load_kW", {{"distribution", "uniform"}, {"min", 1}, {"max", 2}}}}}}}},
        "/ensemble/seed: expected a whole number from 0 to 9007199254740992 (2^53)");
    // max − min past the largest double drew inf.
    refused({{"ensemble",
              {{"members", 2},
               {"draw",
                {{"/site/other_load_kW",
                  {{"distribution", "uniform"}, {"min", -1e308}, {"max", 1e308}}}}}}}},
            "max − min is beyond a finite number");
    // Two values that would name their cases alike.
    refused({{"vary", {{"/site/other_load_kW", {1.5, "1.5"}}}}},
            "values 0 (1.5) and 1 (\"1.5\") would both name their cases '1_5'");
    // Two explicit cases of one name: where both are.
    refused({{"cases", {{{"name", "a"}}, {{"name", "a"}}}}},
            "/cases/1/name: 'a' is already the name of /cases/0");
}

TEST(SweepEnsemble, FilesOfOneNameInSeveralFoldersKeepTheirFoldersInTheCaseNames) {
    // Weather years kept as <year>/<station>.epw were refused as "two cases named 'phoenix'".
    const facility::test::TempDir dir;
    const std::filesystem::path epw =
        std::filesystem::path(DCTWIN_SOURCE_DIR) / facility::test::weather("phoenix");
    for (const char* year : {"2019", "2020"}) {
        std::filesystem::create_directories(dir / year);
        std::filesystem::copy_file(epw, dir / year / "phoenix.epw");
    }
    const Json years = {
        {"base", "azure_gb300_64.json"},
        {"set", {{"/study/days", 1}}},
        {"vary",
         {{"/site/weather",
           {(dir / "2019" / "phoenix.epw").string(), (dir / "2020" / "phoenix.epw").string()}}}}};
    const SweepPlan y = parseSweep(years, facility::test::scenariosDir(), "s.json");
    ASSERT_EQ(y.cases.size(), 2u);
    EXPECT_EQ(y.cases[0].name, "2019_phoenix");
    EXPECT_EQ(y.cases[1].name, "2020_phoenix");
    // A file whose name is unique keeps its name alone (the shipped weather ensemble's).
    const Json one = {
        {"base", "azure_gb300_64.json"},
        {"set", {{"/study/days", 1}}},
        {"vary",
         {{"/site/weather",
           {facility::test::weather("phoenix"), facility::test::weather("dallas")}}}}};
    const SweepPlan o = parseSweep(one, facility::test::scenariosDir(), "s.json");
    ASSERT_EQ(o.cases.size(), 2u);
    EXPECT_EQ(o.cases[0].name, "USA_AZ_Phoenix-Sky_Harbor");
}
