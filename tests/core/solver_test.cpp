// CVODE adapter against analytic solutions, with the dense and the KLU sparse linear solvers:
// exponential decay, a two-node thermal RC network, a 2,000-node RC chain; error reporting.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <limits>
#include <memory>
#include <numbers>
#include <span>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/solver/ode_solver.h"
#include "core/system.h"

namespace dctwin {
namespace {

/// dx/dt = -x/tau.
class Decay : public Component {
public:
    Decay(std::string name, double tau, double x0) : Component(std::move(name)), tau_(tau) {
        addState({"x", "1", 1.0, x0, "decaying quantity"});
        addOutput({"x", "1", 1.0, 0.0});
    }
    void computeOutputs(double, std::span<const double> x, std::span<const double>,
                        std::span<double> y) const override {
        y[0] = x[0];
    }
    void computeDerivatives(double, std::span<const double> x, std::span<const double>,
                            std::span<double> dxdt) const override {
        dxdt[0] = -x[0] / tau_;
    }

private:
    double tau_;  // [s]
};

/// C dT/dt = (T_neighbour - T)/R12 + (T_amb - T)/R_amb.
class ThermalNode : public Component {
public:
    ThermalNode(std::string name, double C, double R12, double R_amb, double T_amb, double T0)
        : Component(std::move(name)), C_(C), R12_(R12), R_amb_(R_amb), T_amb_(T_amb) {
        addState({"T", "K", 300.0, T0, "node temperature"});
        addInput({"T_neighbour", "K", 300.0, T_amb, "temperature of the coupled node"});
        addOutput({"T", "K", 300.0, 0.0});
    }
    void computeOutputs(double, std::span<const double> x, std::span<const double>,
                        std::span<double> y) const override {
        y[0] = x[0];
    }
    void computeDerivatives(double, std::span<const double> x, std::span<const double> u,
                            std::span<double> dxdt) const override {
        dxdt[0] = ((u[0] - x[0]) / R12_ + (T_amb_ - x[0]) / R_amb_) / C_;
    }
    bool outputDependsOnInput(std::size_t, std::size_t) const override { return false; }

private:
    double C_, R12_, R_amb_, T_amb_;  // [J/K], [K/W], [K/W], [K]
};

/// n nodes in a line between two walls at T_amb: C dT_i/dt = (T_{i-1} - 2 T_i + T_{i+1})/R.
/// Starts in the slowest sine mode, so T_i - T_amb = A sin(π(i+1)/(n+1)) e^{λt} exactly, with
/// λ = -(2 - 2 cos(π/(n+1)))/(RC).
class RcChain : public Component {
public:
    RcChain(std::string name, std::size_t n, double RC, double T_amb, double A)
        : Component(std::move(name)), n_(n), RC_(RC), T_amb_(T_amb), A_(A) {
        for (std::size_t i = 0; i < n; ++i) addState({"T" + std::to_string(i), "K", 300.0});
    }
    void initialState(std::span<double> x0) const override {
        for (std::size_t i = 0; i < n_; ++i) x0[i] = exact(0.0, i);
    }
    double lambda() const {
        return -(2.0 - 2.0 * std::cos(std::numbers::pi / static_cast<double>(n_ + 1))) / RC_;
    }
    double exact(double t, std::size_t i) const {
        const double mode =
            std::sin(std::numbers::pi * static_cast<double>(i + 1) / static_cast<double>(n_ + 1));
        return T_amb_ + A_ * mode * std::exp(lambda() * t);
    }
    void computeOutputs(double, std::span<const double>, std::span<const double>,
                        std::span<double>) const override {}
    void computeDerivatives(double, std::span<const double> x, std::span<const double>,
                            std::span<double> dxdt) const override {
        for (std::size_t i = 0; i < n_; ++i) {
            const double left = i > 0 ? x[i - 1] : T_amb_;
            const double right = i + 1 < n_ ? x[i + 1] : T_amb_;
            dxdt[i] = (left - 2.0 * x[i] + right) / RC_;
        }
    }
    bool derivativeDependsOnState(std::size_t row, std::size_t s) const override {
        return s + 1 >= row && s <= row + 1;
    }

private:
    std::size_t n_;
    double RC_, T_amb_, A_;  // [s], [K], [K]
};

/// dx/dt = x², x(0) = 1: x = 1/(1 - t) runs away at t = 1.
class BlowUp : public Component {
public:
    explicit BlowUp(std::string name) : Component(std::move(name)) {
        addState({"x", "1", 1.0, 1.0});
    }
    void computeOutputs(double, std::span<const double>, std::span<const double>,
                        std::span<double>) const override {}
    void computeDerivatives(double, std::span<const double> x, std::span<const double>,
                            std::span<double> dxdt) const override {
        dxdt[0] = x[0] * x[0];
    }
};

/// dx/dt = -x until t = 1, then NaN (a model leaving its valid range).
class GoesNaN : public Component {
public:
    explicit GoesNaN(std::string name) : Component(std::move(name)) {
        addState({"x", "1", 1.0, 1.0});
    }
    void computeOutputs(double, std::span<const double>, std::span<const double>,
                        std::span<double>) const override {}
    void computeDerivatives(double t, std::span<const double> x, std::span<const double>,
                            std::span<double> dxdt) const override {
        dxdt[0] = t < 1.0 ? -x[0] : std::numeric_limits<double>::quiet_NaN();
    }
};

/// dx/dt = -x, but throws after t = 0.5 (as a property lookup out of its table would).
class Throws : public Component {
public:
    explicit Throws(std::string name) : Component(std::move(name)) {
        addState({"x", "1", 1.0, 1.0});
    }
    void computeOutputs(double, std::span<const double>, std::span<const double>,
                        std::span<double>) const override {}
    void computeDerivatives(double t, std::span<const double> x, std::span<const double>,
                            std::span<double> dxdt) const override {
        if (t > 0.5) throw ModelError("property table exceeded in 'thrower'");
        dxdt[0] = -x[0];
    }
};

/// dx/dt = -x; its first `failures` evaluations beyond t = 0.5 throw InputError, as a
/// component's port check does on a Newton iterate outside its range (a CDU handed 216 °C
/// water by one trial of a long step). Later evaluations, at shorter steps, succeed.
class ThrowsAtFirst : public Component {
public:
    ThrowsAtFirst(std::string name, int failures)
        : Component(std::move(name)), failures_left_(failures) {
        addState({"x", "1", 1.0, 1.0});
    }
    void computeOutputs(double, std::span<const double>, std::span<const double>,
                        std::span<double>) const override {}
    void computeDerivatives(double t, std::span<const double> x, std::span<const double>,
                            std::span<double> dxdt) const override {
        if (t > 0.5 && failures_left_ > 0) {
            --failures_left_;
            throw InputError("pump 'p': speed = 1.7; expected 0..1.2 of rated");
        }
        dxdt[0] = -x[0];
    }
    int failuresLeft() const { return failures_left_; }

private:
    mutable int failures_left_;
};

SolverOptions tightOptions(LinearSolverKind kind) {
    SolverOptions o;
    o.rel_tol = 1e-9;
    o.abs_tol_factor = 1e-10;
    o.linear_solver = kind;
    return o;
}

class BothSolvers : public ::testing::TestWithParam<LinearSolverKind> {};

TEST_P(BothSolvers, ExponentialDecayMatchesExp) {
    const double tau = 2.0;
    System sys;
    sys.add(std::make_shared<const Decay>("d", tau, 1.0));
    sys.finalize();
    SystemProblem problem(sys);
    auto solver = makeCvodeSolver(problem, tightOptions(GetParam()));
    EXPECT_EQ(solver->linearSolverName(),
              GetParam() == LinearSolverKind::Dense ? "dense" : "sparse (KLU)");
    std::vector<double> x{1.0};
    solver->reset(0.0, x);
    for (double t : {0.1, 0.5, 1.0, 2.0, 5.0, 10.0}) {
        solver->advance(t, x, false);
        EXPECT_NEAR(x[0], std::exp(-t / tau), 1e-7) << "t = " << t;
    }
    const SolverStats s = solver->stats();
    EXPECT_GT(s.steps, 0);
    EXPECT_GT(s.rhs_evals, s.steps);
    EXPECT_GT(s.factorizations, 0);
    EXPECT_EQ(s.reinits, 0);
}

/// Closed form of the two-node network θ' = Aθ (θ = T - T_amb) by its eigen-decomposition.
struct TwoNodeExact {
    double a11, a12, a21, a22, l1, l2, c1, c2, v1x, v1y, v2x, v2y;
    TwoNodeExact(double C1, double C2, double R12, double R1, double R2, double th1, double th2) {
        a11 = -(1.0 / R12 + 1.0 / R1) / C1;
        a12 = 1.0 / (R12 * C1);
        a21 = 1.0 / (R12 * C2);
        a22 = -(1.0 / R12 + 1.0 / R2) / C2;
        const double tr = a11 + a22, det = a11 * a22 - a12 * a21;
        const double disc = std::sqrt(tr * tr - 4.0 * det);  // real: A is similar to symmetric
        l1 = 0.5 * (tr + disc);
        l2 = 0.5 * (tr - disc);
        // Eigenvector for λ: (a12, λ - a11).
        v1x = a12, v1y = l1 - a11;
        v2x = a12, v2y = l2 - a11;
        // θ0 = c1 v1 + c2 v2 (Cramer).
        const double d = v1x * v2y - v2x * v1y;
        c1 = (th1 * v2y - v2x * th2) / d;
        c2 = (v1x * th2 - th1 * v1y) / d;
    }
    double theta1(double t) const {
        return c1 * v1x * std::exp(l1 * t) + c2 * v2x * std::exp(l2 * t);
    }
    double theta2(double t) const {
        return c1 * v1y * std::exp(l1 * t) + c2 * v2y * std::exp(l2 * t);
    }
};

TEST_P(BothSolvers, TwoNodeThermalNetworkMatchesEigenSolution) {
    const double C1 = 1000.0, C2 = 2000.0, R12 = 0.01, R1 = 0.05, R2 = 0.1, T_amb = 300.0;
    const double T1_0 = 350.0, T2_0 = 320.0;
    System sys;
    sys.add(std::make_shared<const ThermalNode>("n1", C1, R12, R1, T_amb, T1_0));
    sys.add(std::make_shared<const ThermalNode>("n2", C2, R12, R2, T_amb, T2_0));
    sys.connect("n2.T", "n1.T_neighbour");
    sys.connect("n1.T", "n2.T_neighbour");
    sys.finalize();
    const TwoNodeExact exact(C1, C2, R12, R1, R2, T1_0 - T_amb, T2_0 - T_amb);
    ASSERT_LT(exact.l1, 0.0);
    ASSERT_LT(exact.l2, 0.0);

    SystemProblem problem(sys);
    auto solver = makeCvodeSolver(problem, tightOptions(GetParam()));
    std::vector<double> x(2);
    sys.initialState(x);
    EXPECT_DOUBLE_EQ(x[0], T1_0);
    solver->reset(0.0, x);
    for (double t = 5.0; t <= 200.0; t += 5.0) {
        solver->advance(t, x, false);
        EXPECT_NEAR(x[sys.stateIndex("n1.T")], T_amb + exact.theta1(t), 1e-5) << "t = " << t;
        EXPECT_NEAR(x[sys.stateIndex("n2.T")], T_amb + exact.theta2(t), 1e-5) << "t = " << t;
    }
}

TEST_P(BothSolvers, StepWatchSeesEveryStepAndChangesNothing) {
    // The two-node network integrated twice through the same advances (output times with and
    // without a stop, a restart), once with a step watch: the states at every tout are the
    // same bit for bit; the watch sees each step's end in time order, never past the tout of
    // the advance in progress, with the states of the closed form there; a step past the last
    // tout before a restart is dropped, every other step is seen.
    const double C1 = 1000.0, C2 = 2000.0, R12 = 0.01, R1 = 0.05, R2 = 0.1, T_amb = 300.0;
    System sys;
    sys.add(std::make_shared<const ThermalNode>("n1", C1, R12, R1, T_amb, 350.0));
    sys.add(std::make_shared<const ThermalNode>("n2", C2, R12, R2, T_amb, 320.0));
    sys.connect("n2.T", "n1.T_neighbour");
    sys.connect("n1.T", "n2.T_neighbour");
    sys.finalize();
    const std::size_t i1 = sys.stateIndex("n1.T"), i2 = sys.stateIndex("n2.T");
    struct Seen {
        double t, tout, T2, T1;
    };
    std::vector<Seen> seen;
    double tout = 0.0;
    auto integrate = [&](bool watched, std::vector<std::vector<double>>& at_tout, long& steps_a) {
        SystemProblem problem(sys);
        auto solver = makeCvodeSolver(problem, tightOptions(GetParam()));
        if (watched) {
            solver->watchSteps({{i2, i1}, [&](double t, std::span<const double> v) {
                                    seen.push_back({t, tout, v[0], v[1]});
                                }});
        }
        std::vector<double> x(2);
        sys.initialState(x);
        solver->reset(0.0, x);
        for (double t : {3.0, 7.0, 10.0}) {  // no stops: the last step passes 10 s
            tout = t;
            solver->advance(t, x, false);
            at_tout.push_back(x);
        }
        steps_a = solver->stats().steps;
        solver->reset(10.0, x);  // what a discontinuity at an output time does
        for (auto [t, stop] : {std::pair{25.0, false}, {40.0, true}, {55.0, false}, {60.0, true}}) {
            tout = t;
            solver->advance(t, x, stop);
            at_tout.push_back(x);
        }
        return solver->stats().steps;
    };
    std::vector<std::vector<double>> plain, with;
    long steps_a_plain = 0, steps_a = 0;
    const long steps_plain = integrate(false, plain, steps_a_plain);
    const long steps = integrate(true, with, steps_a);
    ASSERT_EQ(steps, steps_plain);
    ASSERT_EQ(with.size(), plain.size());
    for (std::size_t k = 0; k < plain.size(); ++k) {
        EXPECT_EQ(with[k][0], plain[k][0]) << "output " << k;
        EXPECT_EQ(with[k][1], plain[k][1]) << "output " << k;
    }
    const TwoNodeExact exact(C1, C2, R12, R1, R2, 50.0, 20.0);
    std::size_t before_restart = 0;
    for (std::size_t k = 0; k < seen.size(); ++k) {
        const Seen& s = seen[k];
        if (k > 0) {
            EXPECT_GT(s.t, seen[k - 1].t) << "step " << k;
        }
        EXPECT_LE(s.t, s.tout) << "step " << k;
        EXPECT_NEAR(s.T1, T_amb + exact.theta1(s.t), 1e-5) << "t = " << s.t;
        EXPECT_NEAR(s.T2, T_amb + exact.theta2(s.t), 1e-5) << "t = " << s.t;
        if (s.t <= 10.0) ++before_restart;
    }
    // Before the restart: every step but the one that passed 10 s (CVODE steps past an
    // output time it need not stop at, unless it lands on it).
    EXPECT_GE(before_restart + 1, static_cast<std::size_t>(steps_a));
    EXPECT_LE(before_restart, static_cast<std::size_t>(steps_a));
    EXPECT_LT(seen[before_restart - 1].t, 10.0 + 1e-12);
    // After it: every step, the one past 25 s seen by the advance to 40 s; the stops are seen.
    EXPECT_EQ(seen.size() - before_restart, static_cast<std::size_t>(steps - steps_a));
    EXPECT_EQ(seen.back().t, 60.0);
    EXPECT_TRUE(std::any_of(seen.begin(), seen.end(), [](const Seen& s) { return s.t == 40.0; }));
    EXPECT_TRUE(std::any_of(seen.begin(), seen.end(),
                            [](const Seen& s) { return s.t > 25.0 && s.tout == 40.0; }));
}

INSTANTIATE_TEST_SUITE_P(Cvode, BothSolvers,
                         ::testing::Values(LinearSolverKind::Dense, LinearSolverKind::Sparse),
                         [](const ::testing::TestParamInfo<LinearSolverKind>& p) {
                             return p.param == LinearSolverKind::Dense ? "Dense" : "SparseKlu";
                         });

TEST(CvodeSolver, AutomaticChoosesByDenseLimit) {
    System sys;
    sys.add(std::make_shared<const RcChain>("chain", 10, 1.0, 300.0, 10.0));
    sys.finalize();
    SystemProblem problem(sys);
    SolverOptions o;
    o.dense_limit = 10;
    EXPECT_EQ(makeCvodeSolver(problem, o)->linearSolverName(), "dense");
    o.dense_limit = 9;
    EXPECT_EQ(makeCvodeSolver(problem, o)->linearSolverName(), "sparse (KLU)");
}

TEST(CvodeSolver, StopExactlyAndResetKeepStats) {
    System sys;
    sys.add(std::make_shared<const Decay>("d", 1.0, 1.0));
    sys.finalize();
    SystemProblem problem(sys);
    auto solver = makeCvodeSolver(problem, tightOptions(LinearSolverKind::Dense));
    std::vector<double> x{1.0};
    solver->reset(0.0, x);
    solver->advance(1.0, x, true);
    EXPECT_NEAR(x[0], std::exp(-1.0), 1e-7);
    const long steps_before = solver->stats().steps;
    // Restart from a different state: the history must be forgotten, the counters kept.
    x[0] = 2.0;
    solver->reset(1.0, x);
    solver->advance(1.5, x, false);
    solver->advance(3.0, x, true);
    EXPECT_NEAR(x[0], 2.0 * std::exp(-2.0), 2e-7);
    const SolverStats s = solver->stats();
    EXPECT_EQ(s.reinits, 1);
    EXPECT_GT(s.steps, steps_before);
    EXPECT_THROW(solver->advance(2.0, x, false), SolverError);  // backwards
}

TEST_P(BothSolvers, RestartsAFewUlpsApartAreNotAnError) {
    // 1,390 desynchronised square waves put discontinuities within an ulp of each other: the
    // simulator restarts at t and is asked for t + 1 ulp (CVODE alone says CV_TOO_CLOSE).
    System sys;
    sys.add(std::make_shared<const Decay>("d", 1.0, 1.0));
    sys.finalize();
    SystemProblem problem(sys);
    auto solver = makeCvodeSolver(problem, tightOptions(GetParam()));
    std::vector<double> x{1.0};
    const double t0 = 3.68;
    solver->reset(t0, x);
    const double t1 = std::nextafter(t0, 10.0);
    ASSERT_NO_THROW(solver->advance(t1, x, true));
    EXPECT_EQ(x[0], 1.0);
    solver->reset(t1, x);
    solver->advance(std::nextafter(t1, 10.0), x, true);
    solver->advance(t0 + 1.0, x, true);
    EXPECT_NEAR(x[0], std::exp(-1.0), 1e-7);
}

TEST(CvodeSolver, BlowUpReportsTheStateByName) {
    System sys;
    sys.add(std::make_shared<const BlowUp>("comp"));
    sys.finalize();
    SystemProblem problem(sys);
    auto solver = makeCvodeSolver(problem, SolverOptions{});
    std::vector<double> x{1.0};
    solver->reset(0.0, x);
    try {
        solver->advance(2.0, x, false);
        FAIL() << "integrated through a finite-time singularity";
    } catch (const SolverError& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("comp.x"), std::string::npos) << msg;
        EXPECT_NE(msg.find("t = "), std::string::npos) << msg;
        EXPECT_NE(msg.find("CV_"), std::string::npos) << msg;  // the CVODE flag name
        EXPECT_NE(msg.find("Likely cause"), std::string::npos) << msg;
    }
}

TEST(CvodeSolver, NonFiniteDerivativeNamesTheState) {
    System sys;
    sys.add(std::make_shared<const GoesNaN>("bad"));
    sys.finalize();
    SystemProblem problem(sys);
    for (auto kind : {LinearSolverKind::Dense, LinearSolverKind::Sparse}) {
        auto solver = makeCvodeSolver(problem, tightOptions(kind));
        std::vector<double> x{1.0};
        solver->reset(0.0, x);
        try {
            solver->advance(3.0, x, false);
            FAIL() << "NaN derivative went unnoticed";
        } catch (const SolverError& e) {
            const std::string msg = e.what();
            EXPECT_NE(msg.find("'bad.x'"), std::string::npos) << msg;
            EXPECT_NE(msg.find("nan"), std::string::npos) << msg;
        }
    }
}

TEST(CvodeSolver, ExceptionInRhsPropagatesUnchanged) {
    System sys;
    sys.add(std::make_shared<const Throws>("thrower"));
    sys.finalize();
    SystemProblem problem(sys);
    for (auto kind : {LinearSolverKind::Dense, LinearSolverKind::Sparse}) {
        auto solver = makeCvodeSolver(problem, tightOptions(kind));
        std::vector<double> x{1.0};
        solver->reset(0.0, x);
        EXPECT_THROW(solver->advance(1.0, x, false), ModelError);
    }
}

TEST(CvodeSolver, AnInputErrorOnATrialStateIsRetriedAndOnePersistingStands) {
    // A component's port check on a Newton iterate is not bad user input: CVODE retries with
    // a smaller step, as for a ModelError. Until 2026-12-05 the first such throw ended the run.
    for (auto kind : {LinearSolverKind::Dense, LinearSolverKind::Sparse}) {
        System sys;
        auto c = std::make_shared<const ThrowsAtFirst>("flaky", 3);
        sys.add(c);
        sys.finalize();
        SystemProblem problem(sys);
        auto solver = makeCvodeSolver(problem, tightOptions(kind));
        std::vector<double> x{1.0};
        solver->reset(0.0, x);
        ASSERT_NO_THROW(solver->advance(1.0, x, false));
        EXPECT_EQ(c->failuresLeft(), 0);
        EXPECT_NEAR(x[0], std::exp(-1.0), 1e-7);
    }
    // One that persists is rethrown as raised, type and message.
    for (auto kind : {LinearSolverKind::Dense, LinearSolverKind::Sparse}) {
        System sys;
        sys.add(std::make_shared<const ThrowsAtFirst>("stuck", 1 << 30));
        sys.finalize();
        SystemProblem problem(sys);
        auto solver = makeCvodeSolver(problem, tightOptions(kind));
        std::vector<double> x{1.0};
        solver->reset(0.0, x);
        try {
            solver->advance(1.0, x, false);
            FAIL() << "a persistent InputError went unnoticed";
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find("speed = 1.7"), std::string::npos) << e.what();
        }
    }
}

TEST(CvodeSolver, BadOptionsAreInputErrors) {
    System sys;
    sys.add(std::make_shared<const Decay>("d", 1.0, 1.0));
    sys.finalize();
    SystemProblem problem(sys);
    SolverOptions o;
    o.rel_tol = -1.0;
    EXPECT_THROW(makeCvodeSolver(problem, o), InputError);
    o = SolverOptions{};
    o.max_order = 7;
    EXPECT_THROW(makeCvodeSolver(problem, o), InputError);
}

TEST(CvodeSolver, TwoThousandNodeChainSparseMatchesDenseAndExact) {
    const std::size_t n = 2000;
    const double tau = 100.0;  // [s] slowest mode
    // RC chosen so that the slowest mode decays with tau; the fastest is ~16,000× faster (stiff).
    const double RC = tau * (2.0 - 2.0 * std::cos(std::numbers::pi / (n + 1.0)));
    System sys;
    const auto& chain = sys.add(std::make_shared<const RcChain>("chain", n, RC, 300.0, 50.0));
    sys.finalize();
    SystemProblem problem(sys);
    const SparsityPattern p = problem.jacobianPattern();
    EXPECT_EQ(p.nnz(), 3 * n - 2);  // tridiagonal

    auto run = [&](LinearSolverKind kind, std::string& name, SolverStats& stats) {
        SolverOptions o;
        o.rel_tol = 1e-8;
        o.abs_tol_factor = 1e-9;
        o.linear_solver = kind;
        auto solver = makeCvodeSolver(problem, o);
        name = solver->linearSolverName();
        std::vector<double> x(n);
        sys.initialState(x);
        const auto start = std::chrono::steady_clock::now();
        solver->reset(0.0, x);
        solver->advance(tau, x, true);
        const double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        stats = solver->stats();
        return std::pair{x, wall};
    };
    std::string sparse_name, dense_name;
    SolverStats sparse_stats, dense_stats;
    const auto [xs, wall_sparse] = run(LinearSolverKind::Automatic, sparse_name, sparse_stats);
    const auto [xd, wall_dense] = run(LinearSolverKind::Dense, dense_name, dense_stats);
    EXPECT_EQ(sparse_name, "sparse (KLU)");
    EXPECT_EQ(dense_name, "dense");

    double max_diff = 0.0, max_err = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        max_diff = std::max(max_diff, std::abs(xs[i] - xd[i]));
        max_err = std::max(max_err, std::abs(xs[i] - chain.exact(tau, i)));
    }
    EXPECT_LT(max_diff, 1e-4) << "sparse and dense disagree [K]";
    EXPECT_LT(max_err, 1e-4) << "sparse differs from the exact mode [K]";

    // Timing is reported, never asserted (DESIGN.md §6: budgets belong to the benchmark).
    std::cout << "[ timing ] 2000-state RC chain to t = " << tau << " s: dense " << wall_dense
              << " s (" << dense_stats.steps << " steps, " << dense_stats.factorizations
              << " factorizations, " << dense_stats.rhs_evals << " rhs), sparse (KLU) "
              << wall_sparse << " s (" << sparse_stats.steps << " steps, "
              << sparse_stats.factorizations << " factorizations, " << sparse_stats.rhs_evals
              << " rhs)\n";
    RecordProperty("dense_seconds", std::to_string(wall_dense));
    RecordProperty("sparse_klu_seconds", std::to_string(wall_sparse));
}

/// A hall in miniature (issue 12): n branches exchange heat with one mixer, and a meter
/// integrates the sum of the branch temperatures. The mixer's row and the meter's row each
/// hold every branch, the dense rows that made a coloured Jacobian cost one rhs per branch.
///   dT_i/dt = (T_M - T_i)/τ,  dT_M/dt = (mean T_i - T_M)/τ,  dE/dt = Σ T_i.
/// By hand: c = T_M + mean T_i is conserved, D = T_M - mean T_i decays as e^{-2t/τ}, so
/// T_M = c/2 + (D0/2) e^{-2t/τ}; with y_i = T_i - c/2,
///   y_i(t) = (y_i(0) + D0/2) e^{-t/τ} - (D0/2) e^{-2t/τ},
///   E(t)   = n c t/2 - n D0 τ/4 (1 - e^{-2t/τ}).
class Star : public Component {
public:
    Star(std::string name, std::size_t n, double tau)
        : Component(std::move(name)), n_(n), tau_(tau) {
        for (std::size_t i = 0; i < n; ++i) {
            addState({"T" + std::to_string(i), "K", 300.0, 290.0 + 20.0 * double(i % 7) / 6.0});
        }
        addState({"T_mix", "K", 300.0, 330.0});
        addState({"E", "K s", 300.0 * double(n) * tau, 0.0});
    }
    void computeOutputs(double, std::span<const double>, std::span<const double>,
                        std::span<double>) const override {}
    void computeDerivatives(double, std::span<const double> x, std::span<const double>,
                            std::span<double> dxdt) const override {
        double sum = 0.0;
        for (std::size_t i = 0; i < n_; ++i) sum += x[i];
        const double Tm = x[n_];
        for (std::size_t i = 0; i < n_; ++i) dxdt[i] = (Tm - x[i]) / tau_;
        dxdt[n_] = (sum / double(n_) - Tm) / tau_;
        dxdt[n_ + 1] = sum;
    }
    bool derivativeDependsOnState(std::size_t row, std::size_t s) const override {
        if (row < n_) return s == row || s == n_;
        if (row == n_) return s <= n_;
        return s < n_;  // the meter: every branch, not itself
    }
    double exactT(double t, std::size_t i, std::span<const double> x0) const {
        const auto [c, D0] = invariants(x0);
        const double y0 = x0[i] - c / 2.0;
        return c / 2.0 + (y0 + D0 / 2.0) * std::exp(-t / tau_) -
               D0 / 2.0 * std::exp(-2.0 * t / tau_);
    }
    double exactMix(double t, std::span<const double> x0) const {
        const auto [c, D0] = invariants(x0);
        return c / 2.0 + D0 / 2.0 * std::exp(-2.0 * t / tau_);
    }
    double exactE(double t, std::span<const double> x0) const {
        const auto [c, D0] = invariants(x0);
        const double n = double(n_);
        return n * c * t / 2.0 - n * D0 * tau_ / 4.0 * (1.0 - std::exp(-2.0 * t / tau_));
    }

private:
    std::pair<double, double> invariants(std::span<const double> x0) const {
        double mean = 0.0;
        for (std::size_t i = 0; i < n_; ++i) mean += x0[i] / double(n_);
        return {x0[n_] + mean, x0[n_] - mean};
    }
    std::size_t n_;
    double tau_;
};

struct StarRun {
    std::vector<double> x0, x;
    SolverStats stats;
};

/// Counts the model evaluations a solver asks for, of every kind.
class CountingProblem final : public SystemProblem {
public:
    using SystemProblem::SystemProblem;
    void rhs(double t, std::span<const double> x, std::span<double> dxdt) override {
        ++evals;
        SystemProblem::rhs(t, x, dxdt);
    }
    void rhsRows(double t, std::span<const double> x, std::span<const std::size_t> rows,
                 std::span<double> dxdt) override {
        ++evals;
        SystemProblem::rhsRows(t, x, rows, dxdt);
    }
    void rhsBase(double t, std::span<const double> x, std::span<double> dxdt) override {
        ++evals;
        SystemProblem::rhsBase(t, x, dxdt);
    }
    void rhsGroup(double t, std::span<const double> x, std::size_t g,
                  std::span<double> dxdt) override {
        ++evals;
        SystemProblem::rhsGroup(t, x, g, dxdt);
    }
    long evals = 0;
};

/// The hall integrated on the sparse path to t through `outputs` equal output times, as a
/// study records (the quadrature is read back at each); with `stop_at_end` the last one is
/// a stop the integrator may not step past.
StarRun runStar(OdeProblem& problem, const System& sys, SolverOptions o, double t, int outputs = 4,
                bool stop_at_end = true) {
    o.linear_solver = LinearSolverKind::Sparse;
    auto solver = makeCvodeSolver(problem, o);
    StarRun r;
    r.x0.resize(sys.stateCount());
    sys.initialState(r.x0);
    r.x = r.x0;
    solver->reset(0.0, r.x);
    for (int k = 1; k <= outputs; ++k) {
        solver->advance(t * k / outputs, r.x, stop_at_end && k == outputs);
    }
    r.stats = solver->stats();
    return r;
}

StarRun runStar(const System& sys, SolverOptions o, double t) {
    SystemProblem problem(sys);
    return runStar(problem, sys, o, t);
}

TEST(CvodeSolver, DenseRowsKeepTheJacobianCostFlatInBranches) {
    const double tau = 50.0, t_end = 120.0;
    long colours_small = 0;
    for (std::size_t n : {100u, 1000u}) {
        System sys;
        const auto& star = sys.add(std::make_shared<const Star>("hall", n, tau));
        sys.finalize();
        SolverOptions o;
        o.rel_tol = 1e-8;
        o.abs_tol_factor = 1e-9;
        const StarRun r = runStar(sys, o, t_end);
        // The meter (row of n entries > dense_row_limit 48) is a quadrature; the mixer's row is
        // left out of the colouring: a branch, the mixer, and nothing else per colour.
        EXPECT_EQ(r.stats.quadratures, 1) << n;
        EXPECT_LE(r.stats.jacobian_colours, 3) << n;
        if (n == 100)
            colours_small = r.stats.jacobian_colours;
        else
            EXPECT_EQ(r.stats.jacobian_colours, colours_small) << "colours grew with n";
        double worst = 0.0;
        for (std::size_t i = 0; i < n; i += 37) {
            worst = std::max(worst, std::abs(r.x[i] - star.exactT(t_end, i, r.x0)));
        }
        worst = std::max(worst, std::abs(r.x[n] - star.exactMix(t_end, r.x0)));
        EXPECT_LT(worst, 1e-5) << "branch temperatures off the hand solution [K], n = " << n;
        const double E = star.exactE(t_end, r.x0);
        EXPECT_NEAR(r.x[n + 1], E, 1e-7 * E) << "meter off the hand integral, n = " << n;
        // Part of those steps took the meter's rate from the last Newton evaluation (the
        // band above covers them); the rest, converged at once, evaluated it afresh.
        EXPECT_GT(r.stats.quadratures_reused, 0) << n;
        EXPECT_LT(r.stats.quadratures_reused, r.stats.steps) << n;
    }
}

TEST(CvodeSolver, MetersFromTheLastNewtonEvaluationAreAsAccurateAsFreshOnes) {
    // The hall above at rel_tol 1e-3. A step whose Newton iteration needed a second pass takes
    // the meter's rate from that pass's evaluation (issue 12); one that converged at once
    // evaluates it again at the corrected state. Measured against the hand integral: -7.8e-7
    // with every rate evaluated afresh and the same with 5 of 25 steps reused, but 2.1e-4
    // when the one-pass steps read theirs at the predictor too (a temporary build): this band
    // tells the two apart.
    const std::size_t n = 400;
    const double tau = 50.0, t_end = 600.0;
    System sys;
    const auto& star = sys.add(std::make_shared<const Star>("hall", n, tau));
    sys.finalize();
    SolverOptions o;
    o.rel_tol = 1e-3;
    o.abs_tol_factor = 1e-6;
    SystemProblem problem(sys);
    const StarRun r = runStar(problem, sys, o, t_end, 20, false);
    EXPECT_GT(r.stats.quadratures_reused, 0);
    const double E = star.exactE(t_end, r.x0);
    EXPECT_NEAR(r.x[n + 1], E, 1e-5 * E) << "meter off the hand integral";
}

TEST(CvodeSolver, EvaluationsCountedAreThoseTheModelWasAskedFor) {
    // The hall above, with some steps' meters from the last Newton evaluation (issue 12):
    // those are not evaluations, and the statistics must not count them as such.
    const std::size_t n = 400;
    const double tau = 50.0, t_end = 600.0;
    System sys;
    const auto& star = sys.add(std::make_shared<const Star>("hall", n, tau));
    sys.finalize();
    SolverOptions o;
    o.rel_tol = 1e-8;
    o.abs_tol_factor = 1e-9;
    CountingProblem problem(sys);
    const StarRun r = runStar(problem, sys, o, t_end, 20, false);
    EXPECT_GT(r.stats.quadratures_reused, 0);
    EXPECT_EQ(r.stats.rhs_evals, problem.evals);
    const double E = star.exactE(t_end, r.x0);
    EXPECT_NEAR(r.x[n + 1], E, 1e-7 * E) << "meter off the hand integral";
}

TEST(CvodeSolver, ExactColouringAndNewtonMetersAgreeWithTheSharedRows) {
    // The same hall with every row exact (no dense-row limit, the meter a Newton state): one
    // colour per branch, and the same answer as the shared rows above to the tolerance.
    const std::size_t n = 200;
    const double tau = 50.0, t_end = 120.0;
    System sys;
    const auto& star = sys.add(std::make_shared<const Star>("hall", n, tau));
    sys.finalize();
    SolverOptions exact;
    exact.rel_tol = 1e-8;
    exact.abs_tol_factor = 1e-9;
    exact.dense_row_limit = 0;
    exact.quadratures = QuadratureMode::Never;
    SolverOptions shared = exact;
    shared.dense_row_limit = 48;
    shared.quadratures = QuadratureMode::Automatic;
    const StarRun a = runStar(sys, exact, t_end);
    const StarRun b = runStar(sys, shared, t_end);
    EXPECT_EQ(a.stats.quadratures, 0);
    EXPECT_GE(a.stats.jacobian_colours, static_cast<long>(n));
    EXPECT_LE(b.stats.jacobian_colours, 3);
    for (std::size_t i = 0; i <= n + 1; ++i) {
        EXPECT_NEAR(a.x[i], b.x[i], 1e-6 * std::max(1.0, std::abs(a.x[i]))) << i;
    }
    const double E = star.exactE(t_end, a.x0);
    EXPECT_NEAR(a.x[n + 1], E, 1e-7 * E);
}

/// One stiff, steep state among many quiet ones (issue 12): a GPU junction on its throttle band
/// (τ_j = 24 ms, power falling by half over 3 K) under a cold plate that swings ±20 K over an
/// hour, beside n − 1 states at rest. The junction is quasi-static at the solver's steps, so
/// at any time it sits where T = T_p(t) + R·P(T), solved by bisection (its lag behind that
/// point is τ_j·dT_p/dt ≈ 1e-3 K here).
class JunctionAmongQuiet final : public OdeProblem {
public:
    explicit JunctionAmongQuiet(std::size_t n) : n_(n) {}
    static double plate(double t) {
        return 340.0 + 20.0 * std::sin(2.0 * std::numbers::pi * t / 3600.0);
    }
    static double power(double T) {
        const double s = std::clamp((T - 360.0) / 3.0, 0.0, 1.0);
        return 1400.0 * (1.0 - 0.5 * s * s * (3.0 - 2.0 * s));  // [W] C¹ smoothstep
    }
    static double equilibrium(double t) {
        double lo = 300.0, hi = 400.0;  // T − T_p − R·P(T) rises with T: one root
        for (int i = 0; i < 200; ++i) {
            const double mid = 0.5 * (lo + hi);
            (mid - plate(t) - kR * power(mid) > 0.0 ? hi : lo) = mid;
        }
        return 0.5 * (lo + hi);
    }
    std::size_t size() const override { return n_; }
    void rhs(double t, std::span<const double> x, std::span<double> dxdt) override {
        dxdt[0] = (plate(t) + kR * power(x[0]) - x[0]) / kTau;
        for (std::size_t i = 1; i < n_; ++i) dxdt[i] = (330.0 - x[i]) / 600.0;
    }
    double nominal(std::size_t) const override { return 300.0; }
    std::string stateName(std::size_t i) const override { return "x" + std::to_string(i); }
    SparsityPattern jacobianPattern() const override {
        SparsityPattern p;
        p.n = n_;
        for (std::size_t j = 0; j <= n_; ++j) p.col_ptr.push_back(static_cast<std::int64_t>(j));
        for (std::size_t j = 0; j < n_; ++j) p.row_index.push_back(static_cast<std::int64_t>(j));
        return p;
    }
    static constexpr double kR = 0.012, kTau = 0.024;  // [K/W], [s]

private:
    std::size_t n_;
};

TEST(CvodeSolver, OneStiffStateStaysConvergedAmongThousandsOfQuietOnes) {
    // CVODE's Newton test is an RMS over all states: among 3,000 states one state's error is
    // diluted 55-fold. The per-state bound (SolverOptions::newton_state_limit) keeps it as
    // converged as the same junction alone. Steps are capped at 60 s so the truncation error
    // (a 2 K move per step on a smooth sine) is far below the Newton error under test.
    auto worst = [](std::size_t n, double limit) {
        JunctionAmongQuiet problem(n);
        SolverOptions o;
        o.rel_tol = 5e-4;  // the annual studies' tolerance: 0.18 K at 360 K
        o.linear_solver = LinearSolverKind::Sparse;
        o.newton_state_limit = limit;
        o.max_step = 60.0;
        auto solver = makeCvodeSolver(problem, o);
        std::vector<double> x(n, 330.0);
        x[0] = JunctionAmongQuiet::equilibrium(0.0);
        solver->reset(0.0, x);
        double err = 0.0;
        for (double t = 60.0; t <= 7200.0; t += 60.0) {
            solver->advance(t, x, false);
            err = std::max(err, std::abs(x[0] - JunctionAmongQuiet::equilibrium(t)));
        }
        return err;
    };
    const double alone = worst(1, std::sqrt(48.0));
    const double with_bound = worst(3000, std::sqrt(48.0));
    const double without = worst(3000, 0.0);
    // Measured (GCC 12, Release): alone 1.09 K, with the bound 1.05 K, without 2.23 K. CVODE's
    // Newton itself leaves ~1 K on this steep law even alone (its rate estimate lets the chord
    // iteration stop early); the bound removes what the dilution adds on top.
    std::cout << "[ newton ] junction off its equilibrium: alone " << alone << " K, among 2,999 "
              << "quiet states " << with_bound << " K with the per-state bound, " << without
              << " K without\n";
    EXPECT_LT(with_bound, 1.25 * alone);
    EXPECT_GT(without, 1.5 * with_bound) << "the dilution this bound is for no longer shows";
}

}  // namespace
}  // namespace dctwin
