// Issue 12: ensembles in sweeps — the percentile definition, the draws' distributions and their
// reproducibility, and the errors a bad "ensemble" gets. (mpirun against the threaded sweep is
// tests/mpi/mpi_sweep_test.sh.)
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "core/errors.h"
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
