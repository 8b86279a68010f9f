// Recorder (what to sample) and Simulator (the run loop: output grid, discontinuities, solver
// restarts, progress and cancellation).
#include "core/simulator.h"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <limits>

#include "core/errors.h"

namespace dctwin {

// ---------------------------------------------------------------------------------------------
// Recorder

namespace {

void requireNoSamples(const ResultSet& r, std::string_view what) {
    if (!r.time.empty()) {
        throw ModelError(fmt::format("recorder: cannot add '{}' after sampling has started", what));
    }
}

}  // namespace

void Recorder::addOutput(std::string_view qualified, std::string group, std::string name,
                         std::string description) {
    requireNoSamples(results_, qualified);
    const std::size_t k = system_.outputIndex(qualified);
    const Variable& v = system_.outputVariable(k);
    results_.addChannel(std::move(group), std::move(name), v.unit,
                        description.empty() ? v.description : std::move(description));
    sources_.push_back({Source::Output, k, {}});
}

void Recorder::addState(std::string_view qualified, std::string group, std::string name,
                        std::string description) {
    requireNoSamples(results_, qualified);
    const std::size_t i = system_.stateIndex(qualified);
    const Variable& v = system_.stateVariable(i);
    results_.addChannel(std::move(group), std::move(name), v.unit,
                        description.empty() ? v.description : std::move(description));
    sources_.push_back({Source::State, i, {}});
}

void Recorder::addProbe(Probe probe, std::string group, std::string name, std::string unit,
                        std::string description) {
    requireNoSamples(results_, name);
    if (!probe) throw ModelError(fmt::format("recorder: probe '{}/{}' is empty", group, name));
    results_.addChannel(std::move(group), std::move(name), std::move(unit), std::move(description));
    sources_.push_back({Source::Function, 0, std::move(probe)});
}

void Recorder::addProbeSet(ProbeSet fill, std::vector<ProbeChannel> channels) {
    if (!fill) throw ModelError("recorder: probe set without a function");
    for (const ProbeChannel& c : channels) requireNoSamples(results_, c.name);
    Set set{std::move(fill), set_values_.size(), channels.size()};
    for (ProbeChannel& c : channels) {
        results_.addChannel(std::move(c.group), std::move(c.name), std::move(c.unit),
                            std::move(c.description));
        sources_.push_back({Source::SetValue, set_values_.size(), {}});
        set_values_.push_back(0.0);
    }
    sets_.push_back(std::move(set));
}

void Recorder::reserve(std::size_t samples) {
    // One arena for the time and every channel (core/sample_storage.h): mapped, in huge
    // pages where the kernel gives them, and populated now rather than page by page as the
    // samples arrive. The time holds every sample so far, flushed or not.
    const std::size_t rows = results_.time.size() + samples;
    const std::size_t bytes = (results_.channels.size() + 1) * rows * sizeof(double);
    auto arena = std::make_shared<SampleArena>(bytes);
    auto move_in = [&](SampleVector& v) {
        SampleVector w{SampleAllocator<double>(arena)};
        w.reserve(rows);
        w.assign(v.begin(), v.end());
        v = std::move(w);
    };
    move_in(results_.time);
    for (Channel& c : results_.channels) move_in(c.values);
}

void Recorder::sample(double t, std::span<const double> x, std::span<const double> y,
                      double t_eval) {
    // Channel k belongs to source k; channels added to results() by hand would break that.
    if (results_.channels.size() != sources_.size()) {
        throw ModelError(
            fmt::format("recorder has {} sources but {} channels: channels were "
                        "added to its ResultSet directly",
                        sources_.size(), results_.channels.size()));
    }
    for (const Set& set : sets_) {
        set.fill(t_eval, x, y, std::span<double>(set_values_).subspan(set.first, set.count));
    }
    const std::size_t n = sources_.size();
    pending_.resize(kBlock * n);
    double* row = pending_.data() + pending_samples_ * n;
    for (std::size_t k = 0; k < n; ++k) {
        const Source& s = sources_[k];
        double v = 0.0;
        switch (s.kind) {
            case Source::Output:
                v = y[s.index];
                break;
            case Source::State:
                v = x[s.index];
                break;
            case Source::Function:
                v = s.probe(t_eval, x, y);
                break;
            case Source::SetValue:
                v = set_values_[s.index];
                break;
        }
        row[k] = v;
    }
    // Only a complete sample is kept: a probe that throws leaves no partial row.
    results_.time.push_back(t);
    if (++pending_samples_ == kBlock) flush();
    for (const Observer& o : observers_) o(t, t_eval, x, y);
}

void Recorder::addObserver(Observer observer) {
    if (!observer) throw ModelError("recorder: observer without a function");
    observers_.push_back(std::move(observer));
}

void Recorder::addStepProbe(std::vector<std::size_t> states, StepProbe probe) {
    if (!probe) throw ModelError("recorder: step probe without a function");
    for (std::size_t i : states) {
        if (i >= system_.stateCount()) {
            throw ModelError(fmt::format("recorder: step probe watches state {} of {}", i,
                                         system_.stateCount()));
        }
    }
    step_probes_.push_back({std::move(probe), step_states_.size(), states.size()});
    step_states_.insert(step_states_.end(), states.begin(), states.end());
}

void Recorder::step(double t, std::span<const double> values) const {
    for (const StepSource& s : step_probes_) s.probe(t, values.subspan(s.first, s.count));
}

void Recorder::flush() const {
    if (pending_samples_ == 0) return;
    const std::size_t n = sources_.size();
    for (std::size_t k = 0; k < n && k < results_.channels.size(); ++k) {
        // Gathered on the stack and appended in one copy (resize would first zero the
        // block: 1.2 % of bench case 5 in memset).
        std::array<double, kBlock> column;
        for (std::size_t i = 0; i < pending_samples_; ++i) column[i] = pending_[i * n + k];
        SampleVector& values = results_.channels[k].values;
        values.insert(values.end(), column.begin(),
                      column.begin() + static_cast<std::ptrdiff_t>(pending_samples_));
    }
    pending_samples_ = 0;
}

// ---------------------------------------------------------------------------------------------
// Simulator

namespace {

/// The system as the integrator sees it during one segment between discontinuities.
///
/// A stop time keeps CVODE's steps from passing a discontinuity only when it integrates
/// straight to it; while it is heading for an output time before the discontinuity it may step
/// past and interpolate back. So the time handed to the components is clamped into the open
/// segment: beyond its end they see the behaviour just before the jump (a smooth continuation,
/// which the error test handles), at its start the behaviour just after. The integrator
/// therefore never integrates across a jump, whichever way a component writes its switch
/// (t < d or t <= d).
class SegmentProblem final : public OdeProblem {
public:
    explicit SegmentProblem(const System& system) : inner_(system) {}

    void setSegment(double begin, double end) {
        after_begin_ = std::nextafter(begin, std::numeric_limits<double>::infinity());
        before_end_ = std::nextafter(end, -std::numeric_limits<double>::infinity());
        begin_ = begin;
        end_ = end;
    }

    std::size_t size() const override { return inner_.size(); }
    void rhs(double t, std::span<const double> x, std::span<double> dxdt) override {
        inner_.rhs(inside(t), x, dxdt);
    }
    void rhsRows(double t, std::span<const double> x, std::span<const std::size_t> rows,
                 std::span<double> dxdt) override {
        inner_.rhsRows(inside(t), x, rows, dxdt);
    }
    bool prepareGroups(const std::vector<std::vector<std::size_t>>& groups) override {
        return inner_.prepareGroups(groups);
    }
    void rhsBase(double t, std::span<const double> x, std::span<double> dxdt) override {
        inner_.rhsBase(inside(t), x, dxdt);
    }
    void rhsGroup(double t, std::span<const double> x, std::size_t g,
                  std::span<double> dxdt) override {
        inner_.rhsGroup(inside(t), x, g, dxdt);
    }
    /// [s] time of the latest right-hand-side evaluation (where a model error arose).
    double lastTime() const { return last_t_; }
    double nominal(std::size_t i) const override { return inner_.nominal(i); }
    double errorScale(std::size_t i) const override { return inner_.errorScale(i); }
    std::string stateName(std::size_t i) const override { return inner_.stateName(i); }
    SparsityPattern jacobianPattern() const override { return inner_.jacobianPattern(); }

private:
    /// t moved just inside the segment; kept as the latest evaluation time.
    double inside(double t) {
        last_t_ = t >= end_ ? before_end_ : (t <= begin_ ? after_begin_ : t);
        return last_t_;
    }
    SystemProblem inner_;
    double begin_ = 0.0, end_ = 0.0, after_begin_ = 0.0, before_end_ = 0.0;
    double last_t_ = 0.0;
};

}  // namespace

Simulator::Simulator(const System& system, SimulationOptions options)
    : system_(system), options_(std::move(options)) {}

void Simulator::run(Recorder& recorder, const ProgressCallback& progress,
                    const std::atomic<bool>* cancel, std::span<const double> x0) {
    const double t0 = options_.t_start;
    const double t1 = options_.t_end;
    const double dt = options_.output_interval;
    if (!std::isfinite(t0) || !std::isfinite(t1) || !(t1 > t0)) {
        throw InputError(
            fmt::format("simulation: t_end ({} s) must be finite and after t_start "
                        "({} s)",
                        t1, t0));
    }
    if (!std::isfinite(dt) || !(dt > 0.0)) {
        throw InputError(
            fmt::format("simulation: output_interval must be a positive number of "
                        "seconds, got {}",
                        dt));
    }
    const double span = t1 - t0;
    // Output grid t0 + k·dt, with t_end always the last point. A grid point within a tiny
    // fraction of dt of t_end is t_end (so 0..10 by 0.1 has 101 points, not 102).
    const double tol = 1e-9 * dt;
    const double whole = std::floor(span / dt + 1e-9);
    if (whole > 1e9) {
        throw InputError(
            fmt::format("simulation: {} output points from {} s to {} s every {} s "
                        "is too many; choose a longer output_interval",
                        whole, t0, t1, dt));
    }
    std::vector<double> grid;
    grid.reserve(static_cast<std::size_t>(whole) + 2);
    for (std::size_t k = 0; k <= static_cast<std::size_t>(whole); ++k) {
        grid.push_back(t0 + static_cast<double>(k) * dt);
    }
    if (t1 - grid.back() > tol) {
        grid.push_back(t1);
    } else {
        grid.back() = t1;
    }

    // Discontinuities within rounding of an output time move onto it, so no sliver segment
    // (and no needless extra restart) appears next to an output.
    std::vector<double> jumps;
    for (double d : system_.discontinuities(t0, t1)) {
        const double k = std::round((d - t0) / dt);
        if (k >= 0.0 && k < static_cast<double>(grid.size())) {
            const double g = grid[static_cast<std::size_t>(k)];
            if (std::abs(d - g) <= tol) d = g;
        }
        if (std::abs(d - t1) <= tol) d = t1;
        if (d <= t0 || d > t1) continue;
        if (!jumps.empty() && d <= jumps.back()) continue;
        jumps.push_back(d);
    }

    const std::size_t n = system_.stateCount();
    if (!x0.empty()) {
        if (x0.size() != n) {
            throw InputError(
                fmt::format("simulation: initial state has {} values, the model has "
                            "{} states",
                            x0.size(), n));
        }
        x_.assign(x0.begin(), x0.end());
    } else {
        x_.assign(n, 0.0);
        system_.initialState(x_);
    }

    recorder.reserve(grid.size());
    SegmentProblem problem(system_);
    std::unique_ptr<OdeSolver> solver = makeCvodeSolver(problem, options_.solver);
    if (recorder.hasStepProbes()) {
        solver->watchSteps(
            {recorder.stepStates(),
             [&recorder](double t, std::span<const double> v) { recorder.step(t, v); }});
    }
    linear_solver_ = solver->linearSolverName();
    stats_ = SolverStats{};
    System::Workspace ws = system_.makeWorkspace();

    std::size_t next_jump = 0;
    auto segmentEnd = [&] { return next_jump < jumps.size() ? jumps[next_jump] : t1; };
    // A jump at t_end happens after the run: its last sample is the left limit.
    const bool jump_at_end = !jumps.empty() && jumps.back() == t1;
    const double before_end = std::nextafter(t1, -std::numeric_limits<double>::infinity());
    auto emit = [&](double t) {
        const double te = t == t1 && jump_at_end ? before_end : t;
        system_.evaluateOutputs(te, x_, ws);
        recorder.sample(t, x_, ws.y, te);
        if (progress) progress(t == t1 ? 1.0 : (t - t0) / span, t);
    };
    auto checkCancel = [&](double t) {
        if (cancel && cancel->load(std::memory_order_relaxed)) {
            throw CancelledError(fmt::format("run cancelled at t = {} s", t));
        }
    };

    double t = t0;
    try {
        problem.setSegment(t0, segmentEnd());
        solver->reset(t0, x_);
        emit(t);
    } catch (...) {
        stats_ = solver->stats();
        throw;
    }
    try {
        for (std::size_t k = 1; k < grid.size(); ++k) {
            checkCancel(t);
            const double tout = grid[k];
            while (next_jump < jumps.size() && jumps[next_jump] <= tout) {
                const double d = jumps[next_jump++];
                solver->advance(d, x_, true);
                t = d;
                if (d < t1) {
                    problem.setSegment(d, segmentEnd());
                    solver->reset(d, x_);
                }
            }
            if (t < tout) solver->advance(tout, x_, tout == t1);
            t = tout;
            stats_ = solver->stats();
            emit(t);
        }
    } catch (const ModelError& e) {
        // The model was valid at the start (the initial state evaluated), so leaving a
        // property table or a physical range later is the simulation failing (exit 1), not bad
        // input: say when, and from which state the last good output came.
        stats_ = solver->stats();
        throw SimulationRangeError(problem.lastTime(), t, e.what());
    } catch (...) {
        stats_ = solver->stats();
        throw;
    }
    stats_ = solver->stats();
}

}  // namespace dctwin
