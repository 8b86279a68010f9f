#include "core/component.h"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <string>
#include <unordered_map>

#include "core/errors.h"

namespace dctwin {
namespace {

/// The error for a port name that is not there, listing the valid names (built only here:
/// built on every lookup, it made wiring a 5,560-input site sum quadratic, ~1 s at bench case 6).
[[noreturn]] void noSuchPort(const std::vector<Variable>& ports, std::string_view name,
                             std::string_view component, std::string_view kind) {
    std::string valid;
    for (std::size_t i = 0; i < ports.size(); ++i) valid += (i ? ", " : "") + ports[i].name;
    throw ModelError(fmt::format("component '{}' has no {} '{}'; its {}s are: {}", component, kind,
                                 name, kind, valid.empty() ? "(none)" : valid));
}

const char* kindName(std::size_t kind) {
    static constexpr const char* names[] = {"state", "input", "output"};
    return names[kind];
}

/// A new port's own checks (the duplicate check is Component::addPort's).
void checkNew(const Variable& v, std::string_view component, std::string_view kind) {
    if (v.name.empty() || v.name.find('.') != std::string::npos) {
        throw ModelError(
            fmt::format("component '{}': {} name '{}' must be non-empty and "
                        "contain no '.'",
                        component, kind, v.name));
    }
    if (!(v.nominal > 0.0) || !std::isfinite(v.nominal)) {
        throw ModelError(
            fmt::format("component '{}': {} '{}' needs a positive nominal value, "
                        "got {}",
                        component, kind, v.name, v.nominal));
    }
}

/// Kinds with fewer ports are searched linearly (most components have a handful; an index
/// for each would cost memory per rack at campus scale for nothing).
constexpr std::size_t kIndexedPorts = 32;

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

struct Component::PortIndex {
    std::array<std::unordered_map<std::string, std::size_t>, 3> by_name;  // by Kind
    std::array<bool, 3> built{};
};

struct Component::Description {
    std::string name;
    std::vector<Variable> states, inputs, outputs;
    std::unique_ptr<PortIndex> port_index;  // null while every kind is short
};

Component::Component(std::string name) : d_(std::make_unique<Description>()) {
    d_->name = std::move(name);
    if (d_->name.empty() || d_->name.find('.') != std::string::npos) {
        throw ModelError(
            fmt::format("component name '{}' must be non-empty and contain no '.'", d_->name));
    }
}

Component::~Component() = default;

const std::string& Component::name() const { return d_->name; }
const std::vector<Variable>& Component::states() const { return d_->states; }
const std::vector<Variable>& Component::inputs() const { return d_->inputs; }
const std::vector<Variable>& Component::outputs() const { return d_->outputs; }

const std::vector<Variable>& Component::ports(Kind kind) const {
    switch (kind) {
        case Kind::State:
            return d_->states;
        case Kind::Input:
            return d_->inputs;
        case Kind::Output:
            break;
    }
    return d_->outputs;
}

std::size_t Component::position(Kind kind, std::string_view name) const {
    const auto k = static_cast<std::size_t>(kind);
    if (d_->port_index && d_->port_index->built[k]) {
        const auto& m = d_->port_index->by_name[k];
        const auto it = m.find(std::string(name));
        return it == m.end() ? std::string::npos : it->second;
    }
    const std::vector<Variable>& p = ports(kind);
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (p[i].name == name) return i;
    }
    return std::string::npos;
}

std::size_t Component::addPort(Kind kind, Variable v) {
    const auto k = static_cast<std::size_t>(kind);
    checkNew(v, d_->name, kindName(k));
    if (position(kind, v.name) != std::string::npos) {
        throw ModelError(
            fmt::format("component '{}' declares {} '{}' twice", d_->name, kindName(k), v.name));
    }
    std::vector<Variable>& p = kind == Kind::State   ? d_->states
                               : kind == Kind::Input ? d_->inputs
                                                     : d_->outputs;
    p.push_back(std::move(v));
    const std::size_t i = p.size() - 1;
    if (d_->port_index && d_->port_index->built[k]) {
        d_->port_index->by_name[k].emplace(p[i].name, i);
    } else if (p.size() >= kIndexedPorts) {
        if (!d_->port_index) d_->port_index = std::make_unique<PortIndex>();
        auto& m = d_->port_index->by_name[k];
        for (std::size_t j = 0; j < p.size(); ++j) m.emplace(p[j].name, j);
        d_->port_index->built[k] = true;
    }
    return i;
}

std::size_t Component::stateIndex(std::string_view name) const {
    const std::size_t i = position(Kind::State, name);
    if (i == std::string::npos) noSuchPort(d_->states, name, d_->name, "state");
    return i;
}
std::size_t Component::inputIndex(std::string_view name) const {
    const std::size_t i = position(Kind::Input, name);
    if (i == std::string::npos) noSuchPort(d_->inputs, name, d_->name, "input");
    return i;
}
std::size_t Component::outputIndex(std::string_view name) const {
    const std::size_t i = position(Kind::Output, name);
    if (i == std::string::npos) noSuchPort(d_->outputs, name, d_->name, "output");
    return i;
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
    for (std::size_t i = 0; i < d_->states.size(); ++i) x0[i] = d_->states[i].start;
}

bool Component::outputDependsOnInput(std::size_t, std::size_t) const { return true; }
bool Component::outputDependsOnState(std::size_t, std::size_t) const { return true; }
bool Component::derivativeDependsOnState(std::size_t, std::size_t) const { return true; }
bool Component::derivativeDependsOnInput(std::size_t, std::size_t) const { return true; }
void Component::discontinuities(double, double, std::vector<double>&) const {}

std::size_t Component::addState(Variable v) { return addPort(Kind::State, std::move(v)); }
std::size_t Component::addInput(Variable v) { return addPort(Kind::Input, std::move(v)); }
std::size_t Component::addOutput(Variable v) { return addPort(Kind::Output, std::move(v)); }

std::size_t Component::addState(std::size_t expected_index, Variable v) {
    checkIndex(expected_index, d_->states.size(), v, d_->name, "state");
    return addState(std::move(v));
}
std::size_t Component::addInput(std::size_t expected_index, Variable v) {
    checkIndex(expected_index, d_->inputs.size(), v, d_->name, "input");
    return addInput(std::move(v));
}
std::size_t Component::addOutput(std::size_t expected_index, Variable v) {
    checkIndex(expected_index, d_->outputs.size(), v, d_->name, "output");
    return addOutput(std::move(v));
}

}  // namespace dctwin
