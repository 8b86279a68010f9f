#pragma once
// One exception family for the whole project (DESIGN.md §2, §9).
//
// Every message names what the user can fix: the component and variable, the JSON path, the
// file and line, the time, and the valid choices. The CLI maps the family to exit codes:
// InputError → 2 (bad input or usage), ModelError → 2 (the scenario describes an impossible
// model), SolverError and CancelledError → 1 (the simulation failed).
#include <cstdio>
#include <stdexcept>
#include <string>

namespace dctwin {

class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Bad input: malformed JSON or EPW, wrong types, out-of-range values, unknown names.
class InputError : public Error {
public:
    using Error::Error;
};

/// A model that cannot be built or has no solution: algebraic loops, unconnected ports,
/// a hydraulic network without an operating point, a property outside its table.
class ModelError : public Error {
public:
    using Error::Error;
};

/// The integrator failed; the message names the time and the worst states.
class SolverError : public Error {
public:
    using Error::Error;
};

/// The model left its valid range (a property table, a physical limit) during a simulation
/// that started valid: a SolverError (exit 1) that keeps the simulated time apart so callers
/// can add what they know about that time (the study's calendar, the last event).
class SimulationRangeError : public SolverError {
public:
    /// `t` [s] where the failing evaluation was; `last_output_t` [s] the last output time
    /// reached; `what` the model's message (naming the component and its states).
    SimulationRangeError(double t, double last_output_t, const std::string& what)
        : SolverError("the simulation left the model's valid range at t = " + seconds(t) +
                      " s (last output at " + seconds(last_output_t) + " s): " + what),
          t_(t),
          last_output_t_(last_output_t),
          detail_(what) {}
    double time() const { return t_; }
    double lastOutputTime() const { return last_output_t_; }
    const std::string& detail() const { return detail_; }

private:
    static std::string seconds(double t) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.6g", t);
        return buf;
    }
    double t_, last_output_t_;
    std::string detail_;
};

/// A run stopped because the user asked it to.
class CancelledError : public Error {
public:
    using Error::Error;
};

}  // namespace dctwin
