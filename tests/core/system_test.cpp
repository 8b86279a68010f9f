// System assembly: connections, unit and name checks, algebraic-loop detection, the Jacobian
// sparsity pattern derived from the component graph, and the evaluation shortcuts (sources once
// per time, derivatives of selected components).
#include "core/system.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/errors.h"

namespace dctwin {
namespace {

/// y = k·u: direct feedthrough, no state.
class Gain : public Component {
public:
    Gain(std::string name, double k, std::string unit = "1") : Component(std::move(name)), k_(k) {
        addInput({"u", unit, 1.0, 0.0, "input"});
        addOutput({"y", unit, 1.0, 0.0, "k·u"});
    }
    void computeOutputs(double, std::span<const double>, std::span<const double> u,
                        std::span<double> y) const override {
        y[0] = k_ * u[0];
    }

private:
    double k_;
};

/// Thermal node: C dT/dt = (T_neighbour - T)/R + (T_amb - T)/R_amb; output T (no feedthrough).
class Node : public Component {
public:
    explicit Node(std::string name) : Component(std::move(name)) {
        addState({"T", "K", 300.0, 300.0, "temperature"});
        addInput({"T_neighbour", "K", 300.0, 300.0, "neighbour temperature"});
        addInput({"P", "W", 1000.0, 0.0, "heat input"});
        addOutput({"T", "K", 300.0, 0.0, "temperature"});
    }
    void computeOutputs(double, std::span<const double> x, std::span<const double>,
                        std::span<double> y) const override {
        y[0] = x[0];
    }
    void computeDerivatives(double, std::span<const double> x, std::span<const double> u,
                            std::span<double> dxdt) const override {
        dxdt[0] = ((u[0] - x[0]) / 0.01 + (300.0 - x[0]) / 0.05 + u[1]) / 1000.0;
    }
    bool outputDependsOnInput(std::size_t, std::size_t) const override { return false; }
};

/// Two states where only the second sees the first: d(x0)/dt = -x0, d(x1)/dt = x0 - x1.
class Cascade : public Component {
public:
    explicit Cascade(std::string name) : Component(std::move(name)) {
        addState({"x0", "1", 1.0, 1.0});
        addState({"x1", "1", 1.0, 0.0});
        addOutput({"x1", "1", 1.0, 0.0});
    }
    void computeOutputs(double, std::span<const double> x, std::span<const double>,
                        std::span<double> y) const override {
        y[0] = x[1];
    }
    void computeDerivatives(double, std::span<const double> x, std::span<const double>,
                            std::span<double> dxdt) const override {
        dxdt[0] = -x[0];
        dxdt[1] = x[0] - x[1];
    }
    bool outputDependsOnState(std::size_t, std::size_t s) const override { return s == 1; }
    bool derivativeDependsOnState(std::size_t row, std::size_t s) const override {
        return row == 1 || s == 0;
    }
};

TEST(System, AlgebraicLoopNamesBothPorts) {
    System sys;
    sys.add(std::make_shared<const Gain>("a", 2.0));
    sys.add(std::make_shared<const Gain>("b", 0.5));
    sys.connect("a.y", "b.u");
    sys.connect("b.y", "a.u");
    try {
        sys.finalize();
        FAIL() << "an algebraic loop was accepted";
    } catch (const ModelError& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("algebraic loop"), std::string::npos) << msg;
        EXPECT_NE(msg.find("a.y -> b.u"), std::string::npos) << msg;
        EXPECT_NE(msg.find("b.y -> a.u"), std::string::npos) << msg;
    }
}

TEST(System, LoopBrokenByAStateIsAccepted) {
    System sys;
    sys.add(std::make_shared<const Node>("n"));
    sys.add(std::make_shared<const Gain>("g", 1.0, "K"));
    sys.connect("n.T", "g.u");
    sys.connect("g.y", "n.T_neighbour");
    EXPECT_NO_THROW(sys.finalize());
    EXPECT_EQ(sys.stateCount(), 1u);
}

TEST(System, UnitMismatchIsRejected) {
    System sys;
    sys.add(std::make_shared<const Node>("n"));
    sys.add(std::make_shared<const Gain>("g", 1.0, "K"));
    try {
        sys.connect("n.T", "n.P");
        FAIL() << "K was connected to W";
    } catch (const ModelError& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("n.T"), std::string::npos) << msg;
        EXPECT_NE(msg.find("[K]"), std::string::npos) << msg;
        EXPECT_NE(msg.find("[W]"), std::string::npos) << msg;
    }
}

TEST(System, UnknownPortListsValidNames) {
    System sys;
    sys.add(std::make_shared<const Node>("n"));
    sys.add(std::make_shared<const Gain>("g", 1.0, "K"));
    try {
        sys.connect("n.T", "g.input");
        FAIL() << "an unknown input was accepted";
    } catch (const ModelError& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("'input'"), std::string::npos) << msg;
        EXPECT_NE(msg.find("inputs are: u"), std::string::npos) << msg;
    }
    try {
        sys.connect("n.Temp", "g.u");
        FAIL() << "an unknown output was accepted";
    } catch (const ModelError& e) {
        EXPECT_NE(std::string(e.what()).find("outputs are: T"), std::string::npos) << e.what();
    }
    EXPECT_THROW(sys.connect("nobody.T", "g.u"), ModelError);
}

TEST(System, JacobianPatternFollowsTheGraph) {
    // States: a.T (0), b.T (1), c.x0 (2), c.x1 (3).
    // a sees b directly; b sees a through the feedthrough gain g; c is independent of both and
    // its consumer h has no states, so it adds no entries.
    System sys;
    sys.add(std::make_shared<const Node>("a"));
    sys.add(std::make_shared<const Node>("b"));
    sys.add(std::make_shared<const Gain>("g", 1.0, "K"));
    sys.add(std::make_shared<const Cascade>("c"));
    sys.add(std::make_shared<const Gain>("h", 1.0, "1"));
    sys.connect("b.T", "a.T_neighbour");
    sys.connect("a.T", "g.u");
    sys.connect("g.y", "b.T_neighbour");
    sys.connect("c.x1", "h.u");
    sys.finalize();
    ASSERT_EQ(sys.stateCount(), 4u);
    SparsityPattern p = sys.jacobianPattern();
    // Hand-written: column j lists the rows i whose derivative depends on state j.
    //   col a.T : rows a.T, b.T (via g)
    //   col b.T : rows a.T, b.T
    //   col c.x0: rows c.x0, c.x1
    //   col c.x1: row c.x1
    const std::vector<std::int64_t> col_ptr{0, 2, 4, 6, 7};
    const std::vector<std::int64_t> rows{0, 1, 0, 1, 2, 3, 3};
    EXPECT_EQ(p.n, 4u);
    EXPECT_EQ(p.col_ptr, col_ptr);
    EXPECT_EQ(p.row_index, rows);
    EXPECT_EQ(p.nnz(), 7u);
}

/// Nodes a and b coupled through a unit gain (a → g → b → a), 500 W into a; `b_first` adds
/// b before a (another evaluation order).
void addTwoNodeLoop(System& sys, bool b_first = false) {
    if (!b_first) sys.add(std::make_shared<const Node>("a"));
    sys.add(std::make_shared<const Gain>("g", 1.0, "K"));
    sys.add(std::make_shared<const Node>("b"));
    if (b_first) sys.add(std::make_shared<const Node>("a"));
    sys.connect("a.T", "g.u");
    sys.connect("g.y", "b.T_neighbour");
    sys.connect("b.T", "a.T_neighbour");
    sys.setInput("a.P", 500.0);
}

TEST(System, EvaluateResolvesCouplingsInOneCall) {
    System sys;
    addTwoNodeLoop(sys);
    sys.finalize();
    auto ws = sys.makeWorkspace();
    std::vector<double> x{310.0, 305.0}, dxdt(2);
    sys.evaluate(0.0, x, dxdt, ws);
    EXPECT_DOUBLE_EQ(dxdt[0], ((305.0 - 310.0) / 0.01 + (300.0 - 310.0) / 0.05 + 500.0) / 1000.0);
    EXPECT_DOUBLE_EQ(dxdt[1], ((310.0 - 305.0) / 0.01 + (300.0 - 305.0) / 0.05) / 1000.0);
    EXPECT_EQ(sys.stateName(1), "b.T");
    EXPECT_EQ(sys.stateIndex("b.T"), 1u);
}

TEST(System, EvaluationsInOneWorkspaceEqualFreshOnesWhateverTheOrder) {
    // A workspace carries inputs from one evaluation to the next (an input fed from later in
    // the evaluation order is stale while the outputs are computed). Whichever of a and b
    // comes first, one of them reads the other's temperature from later in the order:
    // evaluating one point after another in one workspace must give what a fresh workspace
    // gives at each point, through every path (all derivatives, selected ones, a partial
    // Jacobian evaluation).
    for (int variant = 0; variant < 2; ++variant) {
        System sys;
        addTwoNodeLoop(sys, variant == 1);
        sys.finalize();
        auto ws = sys.makeWorkspace();
        const std::size_t ia = sys.stateIndex("a.T"), ib = sys.stateIndex("b.T");
        for (const auto& [Ta, Tb] : {std::pair{310.0, 305.0}, {320.0, 301.0}, {299.0, 333.0}}) {
            std::vector<double> x(2), d(2), fresh(2);
            x[ia] = Ta;
            x[ib] = Tb;
            sys.evaluate(0.0, x, d, ws);
            auto ws_fresh = sys.makeWorkspace();
            sys.evaluate(0.0, x, fresh, ws_fresh);
            EXPECT_EQ(d, fresh) << variant;
            // By hand (Node's law): dT_a/dt sees T_b, dT_b/dt sees T_a through the gain.
            EXPECT_DOUBLE_EQ(d[ia], ((Tb - Ta) / 0.01 + (300.0 - Ta) / 0.05 + 500.0) / 1000.0);
            EXPECT_DOUBLE_EQ(d[ib], ((Ta - Tb) / 0.01 + (300.0 - Tb) / 0.05) / 1000.0);
            std::vector<double> only_b(2, -1.0);
            const std::vector<std::size_t> owners = sys.stateOwners(std::vector<std::size_t>{ib});
            sys.evaluate(0.0, x, only_b, ws, owners);
            EXPECT_EQ(only_b[ib], fresh[ib]) << variant;
            // A perturbation of a alone, from this base point: b's derivative must follow.
            std::vector<double> xp = x, dp(2, 0.0);
            xp[ia] += 1.0;
            const System::Perturbation p = sys.perturbation(std::vector<std::size_t>{ia});
            sys.evaluatePerturbed(0.0, xp, dp, ws, p);
            EXPECT_DOUBLE_EQ(dp[ib], ((Ta + 1.0 - Tb) / 0.01 + (300.0 - Tb) / 0.05) / 1000.0);
        }
    }
}

/// dx/dt of a finalized system at state x and t = 0.
std::vector<double> derivativesAt(const System& sys, const std::vector<double>& x) {
    std::vector<double> dxdt(sys.stateCount());
    System::Workspace ws = sys.makeWorkspace();
    sys.evaluate(0.0, x, dxdt, ws);
    return dxdt;
}

/// A heat that decays: dE/dt = -E/60 s; output P = E [W] (no feedthrough).
class DecayingHeat : public Component {
public:
    explicit DecayingHeat(std::string name) : Component(std::move(name)) {
        addState({"E", "W", 1000.0, 700.0, "heat"});
        addOutput({"P", "W", 1000.0, 0.0, "heat"});
    }
    void computeOutputs(double, std::span<const double> x, std::span<const double>,
                        std::span<double> y) const override {
        y[0] = x[0];
    }
    void computeDerivatives(double, std::span<const double> x, std::span<const double>,
                            std::span<double> dxdt) const override {
        dxdt[0] = -x[0] / 60.0;
    }
};

TEST(System, ConnectionGainEqualsAGainComponent) {
    // The same coupling two ways: h.P feeds node a's heat input through a Gain component, or
    // through a connection with the same gain. a's derivative must agree bit for bit (the site
    // model relies on it: a rack's heat share is a connection gain, issue 12), and so must the
    // Jacobian pattern.
    const double k = 1.0 / 7.0;  // not exactly representable
    System with_component, with_gain;
    for (System* sys : {&with_component, &with_gain}) {
        sys->add(std::make_shared<const DecayingHeat>("h"));
        sys->add(std::make_shared<const Node>("a"));
        sys->setInput("a.T_neighbour", 300.0);
    }
    with_component.add(std::make_shared<const Gain>("k", k, "W"));
    with_component.connect("h.P", "k.u");
    with_component.connect("k.y", "a.P");
    const std::size_t h = with_gain.componentIndex("h"), a = with_gain.componentIndex("a");
    with_gain.connect(ComponentHandle(&with_gain.component(h), h).out("P"),
                      ComponentHandle(&with_gain.component(a), a).in("P"), k);
    with_component.finalize();
    with_gain.finalize();
    const std::vector<double> x{734.25, 312.5};
    const std::vector<double> d1 = derivativesAt(with_component, x);
    const std::vector<double> d2 = derivativesAt(with_gain, x);
    EXPECT_EQ(d1[1], d2[1]);  // bit for bit
    // Hand calculation (Node's equation) with P = k·E:
    EXPECT_NEAR(d2[1], ((300.0 - 312.5) / 0.01 + (300.0 - 312.5) / 0.05 + 734.25 / 7.0) / 1000.0,
                1e-12);
    const SparsityPattern p1 = with_component.jacobianPattern();
    const SparsityPattern p2 = with_gain.jacobianPattern();
    // Column h.E reaches rows h.E and a.T in both.
    EXPECT_EQ(p1.col_ptr, p2.col_ptr);
    EXPECT_EQ(p1.row_index, p2.row_index);
    EXPECT_EQ(p2.row_index, (std::vector<std::int64_t>{0, 1, 1}));
}

TEST(System, EmplacedComponentsLieTogetherAndEvaluateAsAddedOnes) {
    // Made with make_shared, each node would sit among the heap blocks of its own variable
    // descriptions; emplaced, consecutive nodes are one object (plus its shared_ptr control
    // block) apart, which is what keeps a rack's components in neighbouring cache lines.
    System emplaced, added;
    const ComponentHandle a = emplaced.emplace<Node>("a");
    const ComponentHandle g = emplaced.emplace<Gain>("g", 1.0, "K");
    const ComponentHandle b = emplaced.emplace<Node>("b");
    const auto address = [](const ComponentHandle& h) {
        return reinterpret_cast<std::uintptr_t>(&h.component());
    };
    EXPECT_LT(address(g) - address(a), sizeof(Node) + 64);
    EXPECT_LT(address(b) - address(g), sizeof(Gain) + 64);
    emplaced.connect("a.T", "g.u");
    emplaced.connect("g.y", "b.T_neighbour");
    emplaced.connect("b.T", "a.T_neighbour");
    emplaced.setInput("a.P", 500.0);
    addTwoNodeLoop(added);
    emplaced.finalize();
    added.finalize();
    const std::vector<double> x{310.0, 305.0};
    EXPECT_EQ(derivativesAt(emplaced, x), derivativesAt(added, x));
}

TEST(System, NonFiniteConnectionGainIsRejected) {
    System sys;
    sys.add(std::make_shared<const Node>("a"));
    sys.add(std::make_shared<const Node>("b"));
    const ComponentHandle a(&sys.component(0), 0), b(&sys.component(1), 1);
    try {
        sys.connect(a.out("T"), b.in("T_neighbour"), std::numeric_limits<double>::quiet_NaN());
        FAIL() << "a NaN gain was accepted";
    } catch (const ModelError& e) {
        EXPECT_NE(std::string(e.what()).find("'a.T' -> 'b.T_neighbour'"), std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find("not finite"), std::string::npos) << e.what();
    }
}

/// y = t (a clock); counts its evaluations, and throws once at t = throw_at.
class CountingClock : public Component {
public:
    CountingClock(std::string name, int& calls, double throw_at = -1.0)
        : Component(std::move(name)), calls_(calls), throw_at_(throw_at) {
        addOutput({"t", "s", 1.0, 0.0, "time"});
    }
    void computeOutputs(double t, std::span<const double>, std::span<const double>,
                        std::span<double> y) const override {
        ++calls_;
        y[0] = t;
        if (t == throw_at_ && !thrown_) {
            thrown_ = true;
            throw ModelError("clock: once");
        }
    }

private:
    int& calls_;
    double throw_at_;
    mutable bool thrown_ = false;  // test double: fails the first time only
};

TEST(System, SourcesAreEvaluatedOncePerTime) {
    // A Jacobian's columns and a step's Newton iterations all evaluate at one t; a source
    // (no states, no inputs: a workload per rack at campus scale) is computed once for it.
    int calls_a = 0, calls_b = 0;
    System sys;
    sys.add(std::make_shared<const CountingClock>("a", calls_a));
    sys.add(std::make_shared<const CountingClock>("b", calls_b, 7.0));
    sys.add(std::make_shared<const Gain>("g", 2.0, "s"));
    sys.connect("a.t", "g.u");
    sys.finalize();
    auto ws = sys.makeWorkspace();
    const std::vector<double> x;
    sys.evaluateOutputs(3.0, x, ws);
    sys.evaluateOutputs(3.0, x, ws);
    EXPECT_EQ(calls_a, 1);
    EXPECT_DOUBLE_EQ(ws.y[sys.outputIndex("g.y")], 6.0);  // the gain still runs every time
    sys.evaluateOutputs(5.0, x, ws);
    EXPECT_EQ(calls_a, 2);
    EXPECT_DOUBLE_EQ(ws.y[sys.outputIndex("g.y")], 10.0);
    // A source that fails leaves the time unmarked: the next call at that t computes all of
    // them again instead of reading a half-updated set.
    EXPECT_THROW(sys.evaluateOutputs(7.0, x, ws), ModelError);
    const int before = calls_a;
    sys.evaluateOutputs(7.0, x, ws);
    EXPECT_EQ(calls_a, before + 1);
    EXPECT_DOUBLE_EQ(ws.y[sys.outputIndex("a.t")], 7.0);
    EXPECT_DOUBLE_EQ(ws.y[sys.outputIndex("b.t")], 7.0);
    // A fresh workspace knows no time yet.
    auto ws2 = sys.makeWorkspace();
    sys.evaluateOutputs(7.0, x, ws2);
    EXPECT_EQ(calls_a, before + 2);
}

TEST(System, SelectedDerivativesEqualTheFullEvaluation) {
    System sys;
    addTwoNodeLoop(sys);
    sys.add(std::make_shared<const Cascade>("c"));
    sys.finalize();
    auto ws = sys.makeWorkspace();
    const std::vector<double> x{310.0, 305.0, 0.7, 0.2};
    std::vector<double> full(4), some(4, -99.0);
    sys.evaluate(0.0, x, full, ws);
    // States 1 (b.T) and 3 (c.x1): their owners b and c, each once, ascending.
    const std::vector<std::size_t> rows{1, 3};
    const std::vector<std::size_t> owners = sys.stateOwners(rows);
    EXPECT_EQ(owners, (std::vector<std::size_t>{2, 3}));
    sys.evaluate(0.0, x, some, ws, owners);
    EXPECT_EQ(some[1], full[1]);
    EXPECT_EQ(some[2], full[2]);  // c's other state comes with its owner
    EXPECT_EQ(some[3], full[3]);
    EXPECT_EQ(some[0], -99.0);  // a's derivative was not asked for
    const std::vector<std::size_t> past_end{4};
    EXPECT_THROW(sys.stateOwners(past_end), ModelError);
}

}  // namespace
}  // namespace dctwin
