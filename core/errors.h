#pragma once
// One exception family for the whole project (DESIGN.md §2, §9).
//
// Every message names what the user can fix: the component and variable, the JSON path, the
// file and line, the time, and the valid choices. The CLI maps the family to exit codes:
// InputError → 2 (bad input or usage), ModelError → 2 (the scenario describes an impossible
// model), SolverError and CancelledError → 1 (the simulation failed).
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

/// A run stopped because the user asked it to.
class CancelledError : public Error {
public:
    using Error::Error;
};

}  // namespace dctwin
