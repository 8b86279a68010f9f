#include "core/component.h"

#include <fmt/format.h>

#include <cmath>

#include "core/errors.h"

namespace dctwin {
namespace {

std::size_t findPort(const std::vector<Variable>& ports, std::string_view name,
                     std::string_view component, std::string_view kind) {
    for (std::size_t i = 0; i < ports.size(); ++i) {
        if (ports[i].name == name) return i;
    }
    // The list of valid names only for the error: built on every lookup, it made wiring a
    // 5,560-input site sum quadratic in string building (~1 s at bench case 6).
    std::string valid;
    for (std::size_t i = 0; i < ports.size(); ++i) valid += (i ? ", " : "") + ports[i].name;
    throw ModelError(fmt::format("component '{}' has no {} '{}'; its {}s are: {}", component, kind,
                                 name, kind, valid.empty() ? "(none)" : valid));
}

void checkNew(const std::vector<Variable>& ports, const Variable& v, std::string_view component,
              std::string_view kind) {
    if (v.name.empty() || v.name.find('.') != std::string::npos) {
        throw ModelError(
            fmt::format("component '{}': {} name '{}' must be non-empty and "
                        "contain no '.'",
                        component, kind, v.name));
    }
    for (const auto& p : ports) {
        if (p.name == v.name) {
            throw ModelError(
                fmt::format("component '{}' declares {} '{}' twice", component, kind, v.name));
        }
    }
    if (!(v.nominal > 0.0) || !std::isfinite(v.nominal)) {
        throw ModelError(
            fmt::format("component '{}': {} '{}' needs a positive nominal value, "
                        "got {}",
                        component, kind, v.name, v.nominal));
    }
}

void checkIndex(std::size_t expected, std::size_t actual, const Variable& v,
                std::string_view component, std::string_view kind) {
    if (expected != actual) {
        throw ModelError(fmt::format(
            "component '{}': {} '{}' is declared as {} {} but its index constant is {}; "
            "declare the {}s in the order of their constants",
            component, kind, v.name, kind, actual, expected, kind));
    }
}

}  // namespace

Component::Component(std::string name) : name_(std::move(name)) {
    if (name_.empty() || name_.find('.') != std::string::npos) {
        throw ModelError(
            fmt::format("component name '{}' must be non-empty and contain no '.'", name_));
    }
}

std::size_t Component::stateIndex(std::string_view name) const {
    return findPort(states_, name, name_, "state");
}
std::size_t Component::inputIndex(std::string_view name) const {
    return findPort(inputs_, name, name_, "input");
}
std::size_t Component::outputIndex(std::string_view name) const {
    return findPort(outputs_, name, name_, "output");
}

void Component::computeDerivativesGivenOutputs(double t, std::span<const double> x,
                                               std::span<const double> u, std::span<const double>,
                                               std::span<double> dxdt) const {
    computeDerivatives(t, x, u, dxdt);
}

void Component::computeDerivatives(double, std::span<const double>, std::span<const double>,
                                   std::span<double> dxdt) const {
    for (double& d : dxdt) d = 0.0;
}

void Component::initialState(std::span<double> x0) const {
    for (std::size_t i = 0; i < states_.size(); ++i) x0[i] = states_[i].start;
}

bool Component::outputDependsOnInput(std::size_t, std::size_t) const { return true; }
bool Component::outputDependsOnState(std::size_t, std::size_t) const { return true; }
bool Component::derivativeDependsOnState(std::size_t, std::size_t) const { return true; }
bool Component::derivativeDependsOnInput(std::size_t, std::size_t) const { return true; }
void Component::discontinuities(double, double, std::vector<double>&) const {}

std::size_t Component::addState(Variable v) {
    checkNew(states_, v, name_, "state");
    states_.push_back(std::move(v));
    return states_.size() - 1;
}
std::size_t Component::addInput(Variable v) {
    checkNew(inputs_, v, name_, "input");
    inputs_.push_back(std::move(v));
    return inputs_.size() - 1;
}
std::size_t Component::addOutput(Variable v) {
    checkNew(outputs_, v, name_, "output");
    outputs_.push_back(std::move(v));
    return outputs_.size() - 1;
}

std::size_t Component::addState(std::size_t expected_index, Variable v) {
    checkIndex(expected_index, states_.size(), v, name_, "state");
    return addState(std::move(v));
}
std::size_t Component::addInput(std::size_t expected_index, Variable v) {
    checkIndex(expected_index, inputs_.size(), v, name_, "input");
    return addInput(std::move(v));
}
std::size_t Component::addOutput(std::size_t expected_index, Variable v) {
    checkIndex(expected_index, outputs_.size(), v, name_, "output");
    return addOutput(std::move(v));
}

}  // namespace dctwin
