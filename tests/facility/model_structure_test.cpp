// The site model's dependency declarations against what its evaluations do. The Jacobian
// pattern, and the partial evaluations of its colours (System::perturbation), are built from each
// component's outputDependsOn… / derivativeDependsOn… answers; a dependency a component does not
// declare gives a Jacobian without that entry, and a colour evaluation that misses it. Here every
// state of a study model is moved on its own and the outputs and derivatives that change are
// checked against the declared reach, and the partial evaluations of Jacobian colours against
// full ones.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "facility/model.h"
#include "facility/study.h"
#include "test_util.h"

namespace dctwin::facility::test {
namespace {

void expectDeclaredReach(const std::string& file) {
    Json j = scenarioJson(file);
    j["study"] = Json{{"kind", "annual"}, {"days", 1}};
    const ScenarioSpec sc = scenario(j);
    const SiteSizing z = sizeSite(sc);
    const DesignPoint d = designPoint(sc, z);
    const PreparedStudy ps = prepareStudy(sc, z, d);
    const SiteModel m(sc, z, ps.conditions);
    const System& sys = m.system();
    const std::size_t n = sys.stateCount();
    const double t = 13.5 * 3600.0;  // an afternoon: load, flows and fans all away from zero
    System::Workspace ws = sys.makeWorkspace();
    std::vector<double> dx0(n), dx(n);
    sys.evaluate(t, ps.x0, dx0, ws);
    const std::vector<double> y0 = ws.y;
    std::size_t checked_outputs = 0, checked_rows = 0;
    for (std::size_t s = 0; s < n; ++s) {
        std::vector<double> x = ps.x0;
        x[s] += 1e-4 * std::max(std::abs(x[s]), sys.stateVariable(s).nominal);
        const std::size_t moved[] = {s};
        const System::Perturbation p = sys.perturbation(moved);
        sys.evaluate(t, x, dx, ws);
        for (std::size_t k = 0; k < y0.size(); ++k) {
            if (ws.y[k] == y0[k]) continue;
            ++checked_outputs;
            const bool declared =
                std::any_of(p.output_ranges.begin(), p.output_ranges.end(),
                            [&](const auto& r) { return k >= r.first && k < r.second; });
            EXPECT_TRUE(declared) << file << ": output " << sys.outputName(k)
                                  << " changes with state " << sys.stateName(s)
                                  << ", which its component does not declare";
        }
        for (std::size_t r = 0; r < n; ++r) {
            if (dx[r] == dx0[r]) continue;
            ++checked_rows;
            const std::size_t row[] = {r};
            const std::size_t owner = sys.stateOwners(row).front();
            EXPECT_TRUE(std::binary_search(p.derivatives_of.begin(), p.derivatives_of.end(), owner))
                << file << ": d(" << sys.stateName(r) << ")/dt changes with state "
                << sys.stateName(s) << ", which is not declared";
        }
    }
    // An evaluation depends on its point alone, not on the one before it: a component that
    // read an input it declares no feedthrough from would see the previous point's value.
    std::vector<double> far = ps.x0;
    for (std::size_t s = 0; s < n; ++s) {
        far[s] += 1e-2 * std::max(std::abs(far[s]), sys.stateVariable(s).nominal);
    }
    sys.evaluate(t, far, dx, ws);
    sys.evaluate(t, ps.x0, dx, ws);
    for (std::size_t k = 0; k < y0.size(); ++k) {
        EXPECT_EQ(ws.y[k], y0[k]) << file << ": output " << sys.outputName(k)
                                  << " depends on the previous evaluation";
    }
    for (std::size_t r = 0; r < n; ++r) {
        EXPECT_EQ(dx[r], dx0[r]) << file << ": d(" << sys.stateName(r)
                                 << ")/dt depends on the previous evaluation";
    }
    // A Jacobian colour's partial evaluation (SystemProblem::rhsGroup) against the full one, to
    // the bit, in every row: groups of every 7th state, evaluated one after the other from one
    // base point as the solver does.
    SystemProblem problem(sys);
    constexpr std::size_t kGroups = 7;
    std::vector<std::vector<std::size_t>> groups(kGroups);
    for (std::size_t s = 0; s < n; ++s) groups[s % kGroups].push_back(s);
    ASSERT_TRUE(problem.prepareGroups(groups));
    std::vector<double> base(n), part(n), full(n);
    EXPECT_THROW(problem.rhsGroup(t, ps.x0, 0, part), ModelError);  // no base point yet
    problem.rhsBase(t, ps.x0, base);
    System::Workspace ws_full = sys.makeWorkspace();
    for (std::size_t g = 0; g < kGroups; ++g) {
        std::vector<double> x = ps.x0;
        for (std::size_t s : groups[g]) {
            x[s] += 1e-4 * std::max(std::abs(x[s]), sys.stateVariable(s).nominal);
        }
        problem.rhsGroup(t, x, g, part);
        sys.evaluate(t, x, full, ws_full);
        for (std::size_t r = 0; r < n; ++r) {
            EXPECT_EQ(part[r], full[r])
                << file << ": group " << g << ", d(" << sys.stateName(r) << ")/dt";
        }
    }
    // The check saw the model couple: many outputs and rows moved.
    EXPECT_GT(checked_outputs, n);
    EXPECT_GT(checked_rows, n);
}

TEST(ModelStructure, ReferenceSiteDeclaresEveryDependency) {
    expectDeclaredReach("azure_gb300_64.json");
}

TEST(ModelStructure, TwoHallCampusDeclaresEveryDependency) {
    expectDeclaredReach("campus_two_halls.json");
}

TEST(ModelStructure, TheRacksGridPowerIsTheirDemandSumWhenNothingSmoothsIt) {
    // Without smoothing components (an annual study) grid power and demand are the same sum of
    // the same rack outputs, made once; with them (a resolved study) two sums that differ.
    for (const bool resolved : {false, true}) {
        Json j = scenarioJson("azure_gb300_64.json");
        j["study"] = resolved ? Json{{"kind", "transient"}, {"duration_s", 60.0}}
                              : Json{{"kind", "annual"}, {"days", 1}};
        const ScenarioSpec sc = scenario(j);
        const SiteSizing z = sizeSite(sc);
        const PreparedStudy ps = prepareStudy(sc, z, designPoint(sc, z));
        const SiteModel m(sc, z, ps.conditions);
        const SiteSums& s = m.sums();
        EXPECT_EQ(s.rack_demand.component == s.rack_grid.component, !resolved)
            << (resolved ? "resolved" : "annual");
        const System& sys = m.system();
        System::Workspace ws = sys.makeWorkspace();
        std::vector<double> dx(sys.stateCount());
        sys.evaluate(12 * 3600.0, ps.x0, dx, ws);
        const double grid = ws.y[sys.outputIndex(s.rack_grid)];
        const double demand = ws.y[sys.outputIndex(s.rack_demand)];
        EXPECT_GT(demand, 1e6);  // 64 racks at work, MW
        if (!resolved) {
            EXPECT_EQ(grid, demand);
        }
    }
}

}  // namespace
}  // namespace dctwin::facility::test
