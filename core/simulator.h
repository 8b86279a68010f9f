#pragma once
// Simulator: advances a System through time with an OdeSolver, samples outputs on the
// requested grid, stops exactly at every discontinuity (and restarts the integrator there),
// reports progress and honours cancellation (DESIGN.md §4).
#include <atomic>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/results.h"
#include "core/solver/ode_solver.h"
#include "core/system.h"

namespace dctwin {

/// What to record at each output time: model outputs, states, or derived values.
class Recorder {
public:
    explicit Recorder(const System& system) : system_(system) {}
    /// Records output "component.output" as channel group/name (unit from the output).
    void addOutput(std::string_view qualified, std::string group, std::string name,
                   std::string description = {});
    /// Records state "component.state".
    void addState(std::string_view qualified, std::string group, std::string name,
                  std::string description = {});
    /// Records any function of (t, x, outputs).
    using Probe =
        std::function<double(double t, std::span<const double> x, std::span<const double> y)>;
    void addProbe(Probe probe, std::string group, std::string name, std::string unit,
                  std::string description = {});

    /// Several channels computed in one call: `fill` writes one value per channel of
    /// `channels`, in their order. A breakdown with many channels (four per job, 22,000 at
    /// 5,560 single-rack jobs) is then one pass over contiguous data per sample instead of a
    /// std::function call per channel (issue 12: 9 % of a campus year).
    using ProbeSet = std::function<void(double t, std::span<const double> x,
                                        std::span<const double> y, std::span<double> values)>;
    struct ProbeChannel {
        std::string group, name, unit, description;
    };
    void addProbeSet(ProbeSet fill, std::vector<ProbeChannel> channels);

    /// Called with every sample once it is kept (after its channels hold it): t is the
    /// recorded time, t_eval where the outputs were evaluated. For what a run needs from every
    /// sample but not as a time series (a running sum over many series that would not fit in
    /// memory). Must not throw: the sample is already kept.
    using Observer = std::function<void(double t, double t_eval, std::span<const double> x,
                                        std::span<const double> y)>;
    void addObserver(Observer observer);

    /// Called at the end of every internal step of the integrator with the states `states`
    /// there (in that order), for figures that must not depend on the output grid: the
    /// hottest junction or the time at a limit between two samples of an annual run. Step
    /// ends arrive in time order, each before the sample that follows it (one at a sample's
    /// time comes first, with the left limit at a discontinuity); the integration is the same
    /// with or without them. Must not throw.
    using StepProbe = std::function<void(double t, std::span<const double> values)>;
    void addStepProbe(std::vector<std::size_t> states, StepProbe probe);
    /// The states the step probes watch (theirs concatenated) and their callback, for the
    /// simulator.
    bool hasStepProbes() const { return !step_probes_.empty(); }
    const std::vector<std::size_t>& stepStates() const { return step_states_; }
    void step(double t, std::span<const double> values) const;

    /// Called by the simulator; appends one sample to every channel.
    void sample(double t, std::span<const double> x, std::span<const double> y) {
        sample(t, x, y, t);
    }
    /// The same, recorded at time t but with the probes evaluated at `t_eval` (the outputs y
    /// were evaluated there too): the left limit at the end of a run.
    void sample(double t, std::span<const double> x, std::span<const double> y, double t_eval);
    /// The recorded channels (samples still held in the recorder's block are written first).
    ResultSet& results() {
        flush();
        return results_;
    }
    const ResultSet& results() const {
        flush();
        return results_;
    }
    /// Room for `samples` more samples in every channel, all in one arena mapped now
    /// (core/sample_storage.h); samples already taken are moved into it. The simulator calls
    /// it with the output grid's size: a campus run records ~22,000 channels (four per job),
    /// and vectors grown by doubling would hold up to twice their samples (issue 12: memory).
    void reserve(std::size_t samples);

private:
    struct Source {
        enum Kind { Output, State, Function, SetValue } kind;
        std::size_t index;  // Output: into y; State: into x; SetValue: into set_values_
        Probe probe;
    };
    struct Set {
        ProbeSet fill;
        std::size_t first = 0, count = 0;  // its values in set_values_
    };
    const System& system_;
    std::vector<Source> sources_;
    std::vector<Set> sets_;
    std::vector<double> set_values_;
    std::vector<Observer> observers_;
    struct StepSource {
        StepProbe probe;
        std::size_t first = 0, count = 0;  // its states in step_states_
    };
    std::vector<StepSource> step_probes_;
    std::vector<std::size_t> step_states_;
    /// Writes the samples held in pending_ to their channels.
    void flush() const;
    // Channel values are held for up to kBlock samples, sample by sample, and written to the
    // channels a block at a time: a campus records ~5,600-22,000 channels, and appending one
    // value to each per sample touched a cache line per channel (issue 12: 9 % of a campus
    // year). A block of 64 writes eight whole cache lines per channel and visits each
    // channel's bookkeeping once per 64 samples (8 samples: still 7 % of bench case 5); it
    // holds 64 × 8 B per channel, 11 MB at 22,000 channels. results() flushes, so no reader
    // sees a partial block.
    static constexpr std::size_t kBlock = 64;
    mutable ResultSet results_;
    mutable std::vector<double> pending_;  // [sample][channel]
    mutable std::size_t pending_samples_ = 0;
};

struct SimulationOptions {
    double t_start = 0.0;           // [s]
    double t_end = 0.0;             // [s]
    double output_interval = 60.0;  // [s]
    SolverOptions solver;
};

/// fraction in [0, 1], simulated time [s]
using ProgressCallback = std::function<void(double fraction, double t)>;

class Simulator {
public:
    Simulator(const System& system, SimulationOptions options);
    /// Runs from t_start (initial state from the system, or x0 if given) to t_end, sampling
    /// into the recorder at t_start, t_start + interval, ..., t_end. A sample at a
    /// discontinuity shows the value after the jump, except at t_end: a jump there belongs to
    /// after the run, so the last sample is the left limit (a job ending with the study does
    /// not show as a drop in its last sample). Throws SolverError on
    /// integrator failure (SimulationRangeError when a model error arises after the start) and
    /// CancelledError when *cancel becomes true.
    void run(Recorder& recorder, const ProgressCallback& progress = {},
             const std::atomic<bool>* cancel = nullptr, std::span<const double> x0 = {});
    const SolverStats& stats() const { return stats_; }
    const std::string& linearSolverName() const { return linear_solver_; }
    /// Final state of the last run.
    const std::vector<double>& finalState() const { return x_; }

private:
    const System& system_;
    SimulationOptions options_;
    SolverStats stats_;
    std::string linear_solver_;
    std::vector<double> x_;
};

}  // namespace dctwin
