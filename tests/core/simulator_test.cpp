// Simulator and Recorder: output grid, stops at discontinuities, progress, cancellation,
// solver failures and option checks.
#include "core/simulator.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/errors.h"

namespace dctwin {
namespace {

/// tau dx/dt = u(t) - x with u stepping from u0 to u1 at t_step (declared as a discontinuity).
/// Output "u" shows the step, output "x" the state.
class StepLag : public Component {
public:
    StepLag(std::string name, double tau, double t_step, double u0, double u1, double x0)
        : Component(std::move(name)), tau_(tau), t_step_(t_step), u0_(u0), u1_(u1) {
        addState({"x", "1", 1.0, x0, "lagged response"});
        addOutput({"u", "1", 1.0, 0.0, "step input"});
        addOutput({"x", "1", 1.0, 0.0, "lagged response"});
    }
    double input(double t) const { return t < t_step_ ? u0_ : u1_; }
    void computeOutputs(double t, std::span<const double> x, std::span<const double>,
                        std::span<double> y) const override {
        y[0] = input(t);
        y[1] = x[0];
    }
    void computeDerivatives(double t, std::span<const double> x, std::span<const double>,
                            std::span<double> dxdt) const override {
        dxdt[0] = (input(t) - x[0]) / tau_;
    }
    void discontinuities(double t0, double t1, std::vector<double>& times) const override {
        if (t_step_ > t0 && t_step_ <= t1) times.push_back(t_step_);
    }
    /// Exact piecewise solution.
    double exact(double t, double x0) const {
        if (t < t_step_) return u0_ + (x0 - u0_) * std::exp(-t / tau_);
        const double xs = u0_ + (x0 - u0_) * std::exp(-t_step_ / tau_);
        return u1_ + (xs - u1_) * std::exp(-(t - t_step_) / tau_);
    }

private:
    double tau_, t_step_, u0_, u1_;  // [s], [s], [1], [1]
};

/// dx/dt = x², x(0) = 1: singular at t = 1.
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

SimulationOptions options(double t_end, double interval) {
    SimulationOptions o;
    o.t_start = 0.0;
    o.t_end = t_end;
    o.output_interval = interval;
    o.solver.rel_tol = 1e-9;
    o.solver.abs_tol_factor = 1e-10;
    return o;
}

TEST(Simulator, OutputGridIncludesStartAndEnd) {
    System sys;
    const auto& lag = sys.add(std::make_shared<const StepLag>("lag", 1.0, 1e9, 0.0, 0.0, 1.0));
    sys.finalize();
    {
        Recorder rec(sys);
        rec.addState("lag.x", "test", "x");
        Simulator sim(sys, options(10.0, 0.3));
        sim.run(rec);
        const auto& t = rec.results().time;
        // 0, 0.3, ..., 9.9 (34 points) and t_end = 10.
        ASSERT_EQ(t.size(), 35u);
        EXPECT_DOUBLE_EQ(t.front(), 0.0);
        EXPECT_DOUBLE_EQ(t.back(), 10.0);
        EXPECT_NEAR(t[33], 9.9, 1e-12);
        const auto& x = rec.results().at("test", "x").values;
        ASSERT_EQ(x.size(), t.size());
        // Room for exactly the grid's samples, reserved once: grown by doubling, a campus
        // run's ~22,000 channels would hold up to twice their samples (35 is no power of 2).
        EXPECT_EQ(x.capacity(), 35u);
        EXPECT_EQ(t.capacity(), 35u);
        for (std::size_t k = 0; k < t.size(); ++k) {
            EXPECT_NEAR(x[k], lag.exact(t[k], 1.0), 1e-7) << "t = " << t[k];
        }
        EXPECT_EQ(sim.linearSolverName(), "dense");
        EXPECT_NEAR(sim.finalState()[0], std::exp(-10.0), 1e-8);
    }
    {
        // An interval that divides the span up to rounding: no sliver point before t_end.
        Recorder rec(sys);
        rec.addOutput("lag.x", "test", "x");
        Simulator sim(sys, options(10.0, 0.1));
        sim.run(rec);
        ASSERT_EQ(rec.results().time.size(), 101u);
        EXPECT_DOUBLE_EQ(rec.results().time.back(), 10.0);
        EXPECT_EQ(rec.results().at("test", "x").unit, "1");
    }
}

TEST(Simulator, StopsAtDiscontinuityAndFollowsPiecewiseSolution) {
    System sys;
    const auto& lag = sys.add(std::make_shared<const StepLag>("lag", 0.7, 2.5, 0.0, 3.0, 1.0));
    sys.finalize();
    for (double interval : {1.0, 0.5}) {  // 2.5 between outputs, then on an output
        Recorder rec(sys);
        rec.addState("lag.x", "lag", "x");
        rec.addOutput("lag.u", "lag", "u");
        rec.addProbe(
            [](double, std::span<const double> x, std::span<const double>) { return 2.0 * x[0]; },
            "lag", "twice_x", "1");
        Simulator sim(sys, options(6.0, interval));
        sim.run(rec);
        const auto& r = rec.results();
        const auto& x = r.at("lag", "x").values;
        const auto& u = r.at("lag", "u").values;
        const auto& x2 = r.at("lag", "twice_x").values;
        for (std::size_t k = 0; k < r.time.size(); ++k) {
            const double t = r.time[k];
            EXPECT_NEAR(x[k], lag.exact(t, 1.0), 1e-7) << "t = " << t << ", interval " << interval;
            EXPECT_DOUBLE_EQ(u[k], t < 2.5 ? 0.0 : 3.0) << "t = " << t;
            EXPECT_DOUBLE_EQ(x2[k], 2.0 * x[k]);
        }
        EXPECT_GE(sim.stats().reinits, 1);
        EXPECT_GT(sim.stats().steps, 0);
        EXPECT_GT(sim.stats().rhs_evals, 0);
        EXPECT_NEAR(sim.finalState()[0], lag.exact(6.0, 1.0), 1e-7);
    }
}

TEST(Simulator, SteadyStateBeforeAStepDoesNotLeakAcrossIt) {
    // At rest until the step, CVODE takes very long steps past the next output and past the
    // discontinuity; the samples before the step and the restart at it must still be exact.
    System sys;
    const auto& lag = sys.add(std::make_shared<const StepLag>("lag", 1.0, 3.3, 0.0, 1.0, 0.0));
    sys.finalize();
    for (auto kind : {LinearSolverKind::Dense, LinearSolverKind::Sparse}) {
        SimulationOptions o = options(7.0, 0.5);
        o.solver.linear_solver = kind;
        Recorder rec(sys);
        rec.addState("lag.x", "lag", "x");
        Simulator sim(sys, o);
        sim.run(rec);
        EXPECT_EQ(sim.linearSolverName(),
                  kind == LinearSolverKind::Dense ? "dense" : "sparse (KLU)");
        const auto& r = rec.results();
        ASSERT_EQ(r.time.size(), 15u);
        for (std::size_t k = 0; k < r.time.size(); ++k) {
            EXPECT_NEAR(r.at("lag", "x").values[k], lag.exact(r.time[k], 0.0), 1e-7)
                << "t = " << r.time[k];
        }
        EXPECT_EQ(sim.stats().reinits, 1);
    }
}

TEST(Simulator, ProgressIsMonotoneAndEndsAtOne) {
    System sys;
    sys.add(std::make_shared<const StepLag>("lag", 1.0, 3.3, 0.0, 1.0, 0.0));
    sys.finalize();
    Recorder rec(sys);
    std::vector<double> fractions, times;
    Simulator sim(sys, options(7.0, 0.5));
    sim.run(rec, [&](double f, double t) {
        fractions.push_back(f);
        times.push_back(t);
    });
    ASSERT_EQ(fractions.size(), rec.results().time.size());
    EXPECT_DOUBLE_EQ(fractions.front(), 0.0);
    EXPECT_DOUBLE_EQ(fractions.back(), 1.0);
    for (std::size_t k = 1; k < fractions.size(); ++k) {
        EXPECT_GT(fractions[k], fractions[k - 1]);
        EXPECT_NEAR(fractions[k], times[k] / 7.0, 1e-12);
    }
}

TEST(Simulator, CancelStopsTheRun) {
    System sys;
    sys.add(std::make_shared<const StepLag>("lag", 1.0, 3.3, 0.0, 1.0, 0.0));
    sys.finalize();
    Recorder rec(sys);
    std::atomic<bool> cancel{false};
    Simulator sim(sys, options(100.0, 1.0));
    try {
        sim.run(
            rec, [&](double, double t) { cancel = t >= 5.0; }, &cancel);
        FAIL() << "the run ignored cancellation";
    } catch (const CancelledError& e) {
        EXPECT_NE(std::string(e.what()).find("run cancelled at t = 5 s"), std::string::npos)
            << e.what();
    }
    EXPECT_EQ(rec.results().time.size(), 6u);  // 0..5
}

TEST(Simulator, SolverFailureNamesTheState) {
    System sys;
    sys.add(std::make_shared<const BlowUp>("comp"));
    sys.finalize();
    Recorder rec(sys);
    Simulator sim(sys, options(2.0, 0.25));
    try {
        sim.run(rec);
        FAIL() << "integrated through a finite-time singularity";
    } catch (const SolverError& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("comp.x"), std::string::npos) << msg;
        EXPECT_NE(msg.find("Likely cause"), std::string::npos) << msg;
    }
    EXPECT_GT(sim.stats().steps, 0);
    // Samples before the singularity (t = 0 ... 0.75) were recorded, nothing after it.
    EXPECT_EQ(rec.results().time.size(), 4u);
}

TEST(Simulator, RejectsBadOptions) {
    System sys;
    sys.add(std::make_shared<const BlowUp>("comp"));
    sys.finalize();
    Recorder rec(sys);
    EXPECT_THROW(Simulator(sys, options(0.0, 1.0)).run(rec), InputError);   // t_end = t_start
    EXPECT_THROW(Simulator(sys, options(1.0, 0.0)).run(rec), InputError);   // interval 0
    EXPECT_THROW(Simulator(sys, options(1.0, -1.0)).run(rec), InputError);  // negative
    EXPECT_THROW(Simulator(sys, options(NAN, 1.0)).run(rec), InputError);
    EXPECT_THROW(Simulator(sys, options(INFINITY, 1.0)).run(rec), InputError);
    std::vector<double> wrong_size{1.0, 2.0};
    EXPECT_THROW(Simulator(sys, options(1.0, 0.5)).run(rec, {}, nullptr, wrong_size), InputError);
}

TEST(Simulator, StartsFromAGivenState) {
    System sys;
    const auto& lag = sys.add(std::make_shared<const StepLag>("lag", 1.0, 1e9, 0.0, 0.0, 1.0));
    sys.finalize();
    Recorder rec(sys);
    rec.addState("lag.x", "lag", "x");
    std::vector<double> x0{4.0};
    Simulator sim(sys, options(2.0, 1.0));
    sim.run(rec, {}, nullptr, x0);
    EXPECT_DOUBLE_EQ(rec.results().at("lag", "x").values.front(), 4.0);
    EXPECT_NEAR(rec.results().at("lag", "x").values.back(), lag.exact(2.0, 4.0), 1e-7);
}

TEST(Recorder, AProbeSetFillsItsChannelsInOrderBesideSingleProbes) {
    System sys;
    const auto& lag = sys.add(std::make_shared<const StepLag>("lag", 1.0, 1e9, 0.0, 0.0, 1.0));
    sys.finalize();
    Recorder rec(sys);
    rec.addState("lag.x", "g", "x");
    int calls = 0;
    rec.addProbeSet(
        [&calls](double t, std::span<const double> x, std::span<const double>,
                 std::span<double> v) {
            ++calls;
            ASSERT_EQ(v.size(), 3u);
            v[0] = t;
            v[1] = 2.0 * x[0];
            v[2] = -1.0;
        },
        {{"set", "t", "s", ""}, {"set", "twice_x", "1", ""}, {"set", "minus_one", "1", ""}});
    rec.addProbe([](double t, std::span<const double>, std::span<const double>) { return 3 * t; },
                 "g", "three_t", "s");
    Simulator sim(sys, options(2.0, 0.5));
    sim.run(rec);
    const ResultSet& r = rec.results();
    ASSERT_EQ(r.time.size(), 5u);
    EXPECT_EQ(calls, 5);                 // once per sample for all three channels
    EXPECT_EQ(r.channels[1].name, "t");  // in the order given, after the state
    EXPECT_EQ(r.channels[3].name, "minus_one");
    EXPECT_EQ(r.at("set", "t").unit, "s");
    for (std::size_t k = 0; k < r.time.size(); ++k) {
        const double t = r.time[k];
        EXPECT_DOUBLE_EQ(r.at("set", "t").values[k], t);
        EXPECT_NEAR(r.at("set", "twice_x").values[k], 2.0 * lag.exact(t, 1.0), 1e-7);
        EXPECT_DOUBLE_EQ(r.at("set", "minus_one").values[k], -1.0);
        EXPECT_DOUBLE_EQ(r.at("g", "three_t").values[k], 3.0 * t);
    }
    Recorder empty(sys);
    EXPECT_THROW(empty.addProbeSet({}, {{"g", "n", "1", ""}}), ModelError);
}

TEST(Recorder, SamplesHeldInABlockReachTheChannelsAndAFailedSampleLeavesNone) {
    System sys;
    sys.add(std::make_shared<const StepLag>("lag", 1.0, 1e9, 0.0, 0.0, 1.0));
    sys.finalize();
    Recorder rec(sys);
    rec.addState("lag.x", "g", "x");
    rec.addProbe(
        [](double t, std::span<const double>, std::span<const double>) {
            if (t == 5.0) throw ModelError("probe fails at t = 5");
            return t;
        },
        "g", "t", "s");
    const std::vector<double> x{2.0}, y(sys.outputCount(), 0.0);
    for (int k = 0; k < 5; ++k) rec.sample(k, x, y);  // fewer than a block
    EXPECT_THROW(rec.sample(5.0, x, y), ModelError);
    const ResultSet& r = rec.results();
    ASSERT_EQ(r.time.size(), 5u);
    ASSERT_EQ(r.at("g", "t").values.size(), 5u);
    ASSERT_EQ(r.at("g", "x").values.size(), 5u);
    EXPECT_DOUBLE_EQ(r.at("g", "t").values[4], 4.0);
    for (int k = 6; k < 26; ++k) rec.sample(k, x, y);
    EXPECT_EQ(rec.results().at("g", "t").values.size(), 25u);
    EXPECT_DOUBLE_EQ(rec.results().at("g", "t").values.back(), 25.0);
    // Across two boundaries of the recorder's 64-sample block, after a flush by results().
    for (int k = 26; k < 200; ++k) rec.sample(k, x, y);
    const auto& t = rec.results().at("g", "t").values;
    ASSERT_EQ(t.size(), 199u);
    for (std::size_t i = 0; i < t.size(); ++i) {
        ASSERT_DOUBLE_EQ(t[i], i < 5 ? static_cast<double>(i) : static_cast<double>(i + 1)) << i;
    }
    EXPECT_DOUBLE_EQ(rec.results().at("g", "x").values.back(), 2.0);
}

TEST(Recorder, ReserveMovesTheSamplesSoFarIntoOneArenaForAllChannels) {
    System sys;
    sys.add(std::make_shared<const StepLag>("lag", 1.0, 1e9, 0.0, 0.0, 1.0));
    sys.finalize();
    Recorder rec(sys);
    rec.addState("lag.x", "g", "x");
    rec.addProbe([](double t, std::span<const double>, std::span<const double>) { return t; }, "g",
                 "t", "s");
    const std::vector<double> x{2.0}, y(sys.outputCount(), 0.0);
    for (int k = 0; k < 70; ++k) rec.sample(k, x, y);  // one block flushed, six pending
    rec.reserve(100);
    for (int k = 70; k < 170; ++k) rec.sample(k, x, y);
    const ResultSet& r = rec.results();
    const std::shared_ptr<SampleArena> arena = r.time.get_allocator().arena();
    ASSERT_NE(arena, nullptr);
    // Room for all 170 samples of the time and both channels: nothing moved to the heap.
    EXPECT_TRUE(arena->owns(r.time.data()));
    for (const Channel& c : r.channels) {
        EXPECT_EQ(c.values.get_allocator().arena(), arena) << c.name;
        EXPECT_TRUE(arena->owns(c.values.data())) << c.name;
        EXPECT_TRUE(arena->owns(&c.values.back())) << c.name;
    }
    const auto& t = r.at("g", "t").values;
    ASSERT_EQ(t.size(), 170u);
    for (std::size_t i = 0; i < t.size(); ++i) ASSERT_EQ(t[i], static_cast<double>(i)) << i;
    EXPECT_EQ(r.at("g", "x").values.back(), 2.0);
    // A copy of the results stands on its own.
    ResultSet copy = r;
    EXPECT_EQ(copy.time.get_allocator().arena(), nullptr);
    EXPECT_EQ(copy.at("g", "t").values, t);
}

TEST(Recorder, RejectsUnknownNamesAndDuplicates) {
    System sys;
    sys.add(std::make_shared<const StepLag>("lag", 1.0, 1e9, 0.0, 0.0, 1.0));
    sys.finalize();
    Recorder rec(sys);
    EXPECT_THROW(rec.addOutput("lag.nope", "g", "n"), ModelError);
    EXPECT_THROW(rec.addState("nobody.x", "g", "n"), ModelError);
    rec.addState("lag.x", "g", "x");
    EXPECT_THROW(rec.addOutput("lag.x", "g", "x"), ModelError);  // same group/name
    try {
        rec.results().at("g", "y");
        FAIL();
    } catch (const ModelError& e) {
        EXPECT_NE(std::string(e.what()).find("g/x"), std::string::npos) << e.what();
    }
}

TEST(ResultSet, FindsChannelsHoweverTheyWereAddedCopiedOrMoved) {
    // The lookups go through an index (a campus records ~22,000 channels); it must answer as
    // a search of `channels` would, whichever way the vector was filled or passed on.
    ResultSet rs;
    for (int i = 0; i < 300; ++i)
        rs.addChannel("g" + std::to_string(i % 7), "c" + std::to_string(i), "W");
    rs.channels.push_back(Channel{"direct", "a", "1", "", {}});  // appended by hand
    const ResultSet& view = rs;  // the const lookups only read the index
    ASSERT_NE(view.find("direct", "a"), nullptr);
    EXPECT_EQ(view.find("direct", "a"), &rs.channels.back());
    EXPECT_EQ(&view.at("g3", "c3"), &rs.channels[3]);
    ASSERT_NE(rs.find("direct", "a"), nullptr);
    EXPECT_EQ(rs.find("direct", "a"), &rs.channels.back());
    EXPECT_EQ(&rs.at("g5", "c299"), &rs.channels[299]);
    EXPECT_EQ(rs.find("g6", "c299"), nullptr);  // right name, wrong group
    EXPECT_THROW(rs.addChannel("g5", "c299", "W"), ModelError);
    EXPECT_THROW(rs.addChannel("direct", "a", "1"), ModelError);

    ResultSet copy = rs;  // its own vector: pointers into it, not into rs
    copy.addChannel("only", "in_copy", "1");
    EXPECT_EQ(&copy.at("g0", "c0"), &copy.channels[0]);
    EXPECT_EQ(rs.find("only", "in_copy"), nullptr);
    ResultSet moved = std::move(copy);
    EXPECT_EQ(&moved.at("only", "in_copy"), &moved.channels.back());
    rs.channels.clear();
    EXPECT_EQ(view.find("g0", "c0"), nullptr);
    rs.channels.push_back(Channel{"g1", "c1", "W", "", {}});  // a new list under the index
    EXPECT_EQ(view.find("g1", "c1"), &rs.channels[0]);
    EXPECT_EQ(view.find("g0", "c0"), nullptr);
    rs.channels.clear();
    EXPECT_EQ(rs.find("g0", "c0"), nullptr);
    rs.addChannel("g0", "c0", "W");  // not a duplicate of the cleared one
    EXPECT_EQ(&rs.at("g0", "c0"), &rs.channels[0]);
}

TEST(Table, ColumnsMustAgreeInLength) {
    Table t;
    t.path = "sizing/power";
    EXPECT_EQ(t.rows(), 0u);
    t.addText("item", {"UPS", "transformer"});
    t.addNumbers("rating", "W", {1.0e6, 2.5e6});
    EXPECT_EQ(t.rows(), 2u);
    EXPECT_THROW(t.addNumbers("loss", "W", {1.0}), ModelError);
    EXPECT_THROW(t.addNumbers("rating", "W", {1.0, 2.0}), ModelError);
}

}  // namespace
}  // namespace dctwin
