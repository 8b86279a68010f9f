#pragma once
// Component: the unit of modelling (DESIGN.md §2, §9).
//
// A component declares named states, inputs and outputs, each with an SI unit and a nominal
// value (the typical magnitude; it sets absolute tolerances and the finite-difference step).
// It computes its outputs and the derivatives of its states from the slice of the state
// vector it is given. It holds parameters only: nothing in it changes during a run, so one
// built model can back many runs on several threads.
//
// Structure is declared through the dependsOn* hooks. The defaults (everything depends on
// everything) are always correct; components with many states override them so the Jacobian
// stays sparse and direct feedthrough (which orders the evaluation and detects algebraic
// loops) is exact.
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dctwin {

struct Variable {
    std::string name;
    std::string unit;      // SI unit: "K", "W", "m3/s", "Pa", "J", "1"
    double nominal = 1.0;  // typical magnitude (> 0) [unit]
    double start = 0.0;    // initial value of a state, default value of an input [unit]
    std::string description;
    /// States only: an error scale [unit] (0: none); the solver's absolute tolerance is at
    /// least rel_tol · error_scale (core/solver/ode_solver.h).
    double error_scale = 0.0;
};

class Component {
public:
    explicit Component(std::string name);
    virtual ~Component();
    Component(const Component&) = delete;
    Component& operator=(const Component&) = delete;

    const std::string& name() const;
    const std::vector<Variable>& states() const;
    const std::vector<Variable>& inputs() const;
    const std::vector<Variable>& outputs() const;

    /// Index of a named port; throws ModelError listing the valid names.
    std::size_t stateIndex(std::string_view name) const;
    std::size_t inputIndex(std::string_view name) const;
    std::size_t outputIndex(std::string_view name) const;

    /// y = g(t, x, u). Called once per evaluation, in feedthrough order.
    virtual void computeOutputs(double t, std::span<const double> x, std::span<const double> u,
                                std::span<double> y) const = 0;

    /// dx/dt = f(t, x, u). Components without states need not override it.
    virtual void computeDerivatives(double t, std::span<const double> x, std::span<const double> u,
                                    std::span<double> dxdt) const;

    /// The same, given y = g(t, x, u) this component's own outputs at the same point: what the
    /// System calls, right after the outputs pass. A component whose derivatives need a costly
    /// intermediate that its outputs already carry (a CDU's hydraulic operating point, a
    /// Newton solve per evaluation) reads it here instead of solving twice. Must equal
    /// computeDerivatives(t, x, u, dxdt); the default calls it.
    virtual void computeDerivativesGivenOutputs(double t, std::span<const double> x,
                                                std::span<const double> u,
                                                std::span<const double> y,
                                                std::span<double> dxdt) const;

    /// Initial state; the default takes each state's start value.
    virtual void initialState(std::span<double> x0) const;

    // Structure. Defaults are conservative (dense).
    virtual bool outputDependsOnInput(std::size_t output, std::size_t input) const;
    virtual bool outputDependsOnState(std::size_t output, std::size_t state) const;
    virtual bool derivativeDependsOnState(std::size_t row, std::size_t state) const;
    virtual bool derivativeDependsOnInput(std::size_t row, std::size_t input) const;

    /// Appends the times in (t0, t1] at which this component's behaviour jumps (job starts,
    /// events, step changes). The simulator stops there and restarts the integrator.
    virtual void discontinuities(double t0, double t1, std::vector<double>& times) const;

protected:
    // Declaring ports. A component's compute functions index x, u and y by constants
    // (`enum Input : std::size_t { kInletTemp, kFlow }`, `u[kFlow]`); a port's index is the
    // order of its add* call. Nothing else ties the two, so a reordered or missing add* would
    // silently feed one quantity into another. Declare every port that has such a constant
    // through the checked overload, `addInput(kFlow, {"flow", ...})`: it throws ModelError
    // (component, port kind and name, expected and actual index) when the port does not land
    // at that index, so each enum is verified when the component is built.
    std::size_t addState(std::size_t expected_index, Variable v);
    std::size_t addInput(std::size_t expected_index, Variable v);
    std::size_t addOutput(std::size_t expected_index, Variable v);
    // Unchecked, for ports with no constant: ports made in a loop and indexed arithmetically
    // (mixer temp_j/flow_j, pipe segment states, water meter volumes, bus in0..inN, linear
    // combination terms, accumulator channels) and the lone output of a one-output component
    // (index 0 by construction: a schedule's or linear combination's value, a bus's total).
    std::size_t addState(Variable v);
    std::size_t addInput(Variable v);
    std::size_t addOutput(Variable v);

private:
    /// Positions by name of the port kinds that have many ports (component.cpp): a site-wide
    /// sum has one input per rack, and a linear search per port made declaring and wiring it
    /// quadratic (5,560 inputs at bench case 6). Null while every kind is short.
    struct PortIndex;
    /// The name, the port descriptions and the PortIndex, held out of line: only model
    /// building and error messages read them (a System keeps the port counts itself), while
    /// the evaluation loop touches every component. In line they were 112 bytes between the
    /// vtable pointer and a derived component's own data, so each rack component of a campus
    /// cost the evaluation two or three cache lines instead of one (issue 12).
    struct Description;
    std::unique_ptr<Description> d_;
    enum class Kind : std::size_t { State, Input, Output };
    std::size_t addPort(Kind kind, Variable v);
    /// Position of the named port of a kind, or npos.
    std::size_t position(Kind kind, std::string_view name) const;
    const std::vector<Variable>& ports(Kind kind) const;
};

}  // namespace dctwin
