#include "core/system.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

#include "core/errors.h"

namespace dctwin {

void System::requireFinalized(const char* what) const {
    if (!finalized_) throw ModelError(fmt::format("System::{} called before finalize()", what));
}
void System::requireOpen(const char* what) const {
    if (finalized_) throw ModelError(fmt::format("System::{} called after finalize()", what));
}

void System::addComponent(std::shared_ptr<const Component> c) {
    requireOpen("addComponent");
    if (!c) throw ModelError("System::addComponent: null component");
    // By name through a map: a campus of distinct racks adds ~10^4 components, and a linear
    // search here and in connect() made building it O(n²) (issue 12: 40 % of a day's run).
    if (!by_name_.emplace(c->name(), components_.size()).second) {
        throw ModelError(fmt::format("two components are named '{}'", c->name()));
    }
    components_.push_back({c.get()});
    owned_.push_back(std::move(c));
}

std::size_t System::componentIndex(std::string_view name) const {
    if (const auto it = by_name_.find(std::string(name)); it != by_name_.end()) return it->second;
    std::string some;
    for (std::size_t i = 0; i < components_.size() && i < 12; ++i) {
        some += (i ? ", " : "") + components_[i].component->name();
    }
    if (components_.size() > 12) some += ", ...";
    throw ModelError(fmt::format("no component named '{}'; components: {}", name, some));
}

std::pair<std::size_t, std::size_t> System::resolve(std::string_view qualified, bool output) const {
    auto dot = qualified.rfind('.');
    if (dot == std::string_view::npos) {
        throw ModelError(fmt::format("port '{}' must be written 'component.{}'", qualified,
                                     output ? "output" : "input"));
    }
    std::size_t c = componentIndex(qualified.substr(0, dot));
    const Component& comp = *components_[c].component;
    std::size_t p = output ? comp.outputIndex(qualified.substr(dot + 1))
                           : comp.inputIndex(qualified.substr(dot + 1));
    return {c, p};
}

void System::connect(std::string_view from, std::string_view to) {
    auto [fc, fo] = resolve(from, true);
    auto [tc, ti] = resolve(to, false);
    connect(OutputPort{fc, fo}, InputPort{tc, ti});
}

void System::connect(OutputPort from, InputPort to, double gain) {
    requireOpen("connect");
    const Component& fc = *components_.at(from.component).component;
    const Component& tc = *components_.at(to.component).component;
    const auto& out = fc.outputs().at(from.port);
    const auto& in = tc.inputs().at(to.port);
    if (connected_inputs_.count({to.component, to.port}) > 0) {
        throw ModelError(fmt::format("input '{}.{}' is connected twice", tc.name(), in.name));
    }
    if (out.unit != in.unit) {
        throw ModelError(fmt::format("cannot connect '{}.{}' [{}] to '{}.{}' [{}]: units differ",
                                     fc.name(), out.name, out.unit, tc.name(), in.name, in.unit));
    }
    if (!std::isfinite(gain)) {
        throw ModelError(fmt::format("connection '{}.{}' -> '{}.{}': gain {} is not finite",
                                     fc.name(), out.name, tc.name(), in.name, gain));
    }
    connections_.push_back({from.component, from.port, to.component, to.port, gain});
    connected_inputs_.insert({to.component, to.port});
}

void System::setInput(std::string_view to, double value) {
    auto [c, i] = resolve(to, false);  // validates the name
    setInput(InputPort{c, i}, value);
}

void System::setInput(InputPort to, double value) {
    requireOpen("setInput");
    components_.at(to.component).component->inputs().at(to.port);  // validates the handle
    fixed_inputs_.emplace_back(to, value);
}

ComponentHandle System::insert(std::shared_ptr<const Component> c) {
    const Component* raw = c.get();
    addComponent(std::move(c));
    return ComponentHandle(raw, components_.size() - 1);
}

std::size_t System::outputIndex(OutputPort port) const {
    requireFinalized("outputIndex");
    return components_.at(port.component).output_offset + port.port;
}

std::size_t System::stateIndex(std::size_t component, std::size_t state) const {
    requireFinalized("stateIndex");
    return components_.at(component).state_offset + state;
}

void System::finalize() {
    requireOpen("finalize");
    const std::size_t nc = components_.size();
    n_states_ = n_inputs_ = n_outputs_ = 0;
    for (auto& e : components_) {
        n_states_ += e.component->states().size();
        n_inputs_ += e.component->inputs().size();
        n_outputs_ += e.component->outputs().size();
    }
    constexpr std::size_t kMaxCount = std::numeric_limits<std::uint32_t>::max();
    if (n_states_ > kMaxCount || n_inputs_ > kMaxCount || n_outputs_ > kMaxCount) {
        throw ModelError(
            fmt::format("model too large: {} states, {} inputs, {} outputs; at most {} of each",
                        n_states_, n_inputs_, n_outputs_, kMaxCount));
    }
    n_states_ = n_inputs_ = n_outputs_ = 0;
    for (auto& e : components_) {
        e.state_offset = static_cast<std::uint32_t>(n_states_);
        e.input_offset = static_cast<std::uint32_t>(n_inputs_);
        e.output_offset = static_cast<std::uint32_t>(n_outputs_);
        e.states = static_cast<std::uint32_t>(e.component->states().size());
        e.inputs = static_cast<std::uint32_t>(e.component->inputs().size());
        e.outputs = static_cast<std::uint32_t>(e.component->outputs().size());
        n_states_ += e.states;
        n_inputs_ += e.inputs;
        n_outputs_ += e.outputs;
    }
    state_owner_.assign(n_states_, 0);
    for (std::size_t c = 0; c < nc; ++c) {
        for (std::size_t s = 0; s < components_[c].component->states().size(); ++s) {
            state_owner_[components_[c].state_offset + s] = c;
        }
    }

    input_source_.assign(n_inputs_, kUnconnected);
    input_value_.assign(n_inputs_, 0.0);
    for (std::size_t c = 0; c < nc; ++c) {
        const auto& ins = components_[c].component->inputs();
        for (std::size_t i = 0; i < ins.size(); ++i) {
            input_value_[components_[c].input_offset + i] = ins[i].start;
        }
    }
    for (const auto& [port, value] : fixed_inputs_) {
        input_value_[components_[port.component].input_offset + port.port] = value;
    }
    if (n_outputs_ >= kScaled) {
        throw ModelError(fmt::format("model has {} outputs; at most {} can be connected",
                                     n_outputs_, kScaled - 1));
    }
    for (const auto& k : connections_) {
        const std::size_t g = components_[k.to_component].input_offset + k.to_input;
        const auto source =
            static_cast<std::uint32_t>(components_[k.from_component].output_offset + k.from_output);
        input_source_[g] = k.gain == 1.0 ? source : source | kScaled;
        input_value_[g] = k.gain;
    }

    // Feedthrough graph between components: edge a → b when an output of a feeds an input of b
    // that some output of b depends on directly. Topological sort (Kahn); what remains is a
    // cycle = algebraic loop.
    std::vector<std::vector<std::size_t>> succ(nc);
    std::vector<std::vector<const Connection*>> feed_edges(nc);  // incoming feedthrough edges
    std::vector<std::size_t> indeg(nc, 0);
    for (const auto& k : connections_) {
        const Component& to = *components_[k.to_component].component;
        bool feeds = false;
        for (std::size_t o = 0; o < to.outputs().size() && !feeds; ++o) {
            feeds = to.outputDependsOnInput(o, k.to_input);
        }
        if (!feeds) continue;
        if (k.from_component == k.to_component) {
            throw ModelError(fmt::format(
                "algebraic loop: '{}.{}' feeds '{}.{}' of the same component directly", to.name(),
                components_[k.from_component].component->outputs()[k.from_output].name, to.name(),
                to.inputs()[k.to_input].name));
        }
        succ[k.from_component].push_back(k.to_component);
        feed_edges[k.to_component].push_back(&k);
        ++indeg[k.to_component];
    }
    order_.clear();
    std::vector<std::size_t> ready;
    for (std::size_t c = nc; c-- > 0;) {
        if (indeg[c] == 0) ready.push_back(c);
    }
    while (!ready.empty()) {
        std::size_t c = ready.back();
        ready.pop_back();
        order_.push_back(c);
        for (std::size_t s : succ[c]) {
            if (--indeg[s] == 0) ready.push_back(s);
        }
    }
    if (order_.size() != nc) {
        // Walk back along feedthrough edges inside the remaining set until a component
        // repeats: that walk is one loop, which we print port by port.
        std::size_t start = 0;
        while (indeg[start] == 0) ++start;
        std::vector<const Connection*> path;
        std::vector<int> seen(nc, -1);
        std::size_t c = start;
        while (seen[c] < 0) {
            seen[c] = static_cast<int>(path.size());
            const Connection* in = nullptr;
            for (const Connection* k : feed_edges[c]) {
                if (indeg[k->from_component] > 0) {
                    in = k;
                    break;
                }
            }
            path.push_back(in);
            c = in->from_component;
        }
        std::string loop;
        for (std::size_t i = path.size(); i-- > static_cast<std::size_t>(seen[c]);) {
            const Connection* k = path[i];
            const Component& a = *components_[k->from_component].component;
            const Component& b = *components_[k->to_component].component;
            loop += fmt::format("{}{}.{} -> {}.{}", loop.empty() ? "" : ", ", a.name(),
                                a.outputs()[k->from_output].name, b.name(),
                                b.inputs()[k->to_input].name);
        }
        throw ModelError(fmt::format(
            "algebraic loop through direct-feedthrough ports: {}. Break it with a state "
            "(a component whose output does not depend directly on its input).",
            loop));
    }
    // Sources (no states, no inputs) first: their outputs are functions of t alone.
    sources_.clear();
    dependents_.clear();
    for (std::size_t c : order_) {
        const Entry& e = components_[c];
        (e.states == 0 && e.inputs == 0 ? sources_ : dependents_).push_back(c);
    }
    // Late inputs: fed by a component evaluated at or after their own in an outputs pass
    // (sources, first, feed none). After a full pass they are the only stale ones.
    std::vector<std::size_t> position(nc, 0);
    for (std::size_t k = 0; k < dependents_.size(); ++k) position[dependents_[k]] = k;
    std::vector<char> is_source(nc, 0);
    for (std::size_t c : sources_) is_source[c] = 1;
    std::vector<std::size_t> owner_of_output(n_outputs_, 0);
    for (std::size_t c = 0; c < nc; ++c) {
        const Entry& e = components_[c];
        std::fill_n(owner_of_output.begin() + e.output_offset, e.outputs, c);
    }
    late_begin_.assign(nc + 1, 0);
    late_inputs_.clear();
    for (std::size_t c = 0; c < nc; ++c) {
        const Entry& e = components_[c];
        late_begin_[c] = static_cast<std::uint32_t>(late_inputs_.size());
        if (e.states == 0) continue;  // no derivatives to refresh inputs for
        for (std::size_t i = 0; i < e.inputs; ++i) {
            const std::ptrdiff_t src = inputSource(e.input_offset + i);
            if (src < 0) continue;
            const std::size_t k = owner_of_output[static_cast<std::size_t>(src)];
            if (!is_source[k] && position[k] >= position[c]) {
                late_inputs_.push_back(static_cast<std::uint32_t>(e.input_offset + i));
            }
        }
    }
    late_begin_[nc] = static_cast<std::uint32_t>(late_inputs_.size());
    finalized_ = true;
}

std::string System::stateName(std::size_t i) const {
    requireFinalized("stateName");
    const auto& e = components_[state_owner_.at(i)];
    return e.component->name() + "." + e.component->states()[i - e.state_offset].name;
}

const Variable& System::stateVariable(std::size_t i) const {
    requireFinalized("stateVariable");
    const auto& e = components_[state_owner_.at(i)];
    return e.component->states()[i - e.state_offset];
}

std::size_t System::stateIndex(std::string_view qualified) const {
    requireFinalized("stateIndex");
    auto dot = qualified.rfind('.');
    if (dot == std::string_view::npos) {
        throw ModelError(fmt::format("state '{}' must be written 'component.state'", qualified));
    }
    std::size_t c = componentIndex(qualified.substr(0, dot));
    return components_[c].state_offset +
           components_[c].component->stateIndex(qualified.substr(dot + 1));
}

std::size_t System::outputIndex(std::string_view qualified) const {
    requireFinalized("outputIndex");
    auto [c, o] = resolve(qualified, true);
    return components_[c].output_offset + o;
}

std::string System::outputName(std::size_t k) const {
    requireFinalized("outputName");
    auto it = std::upper_bound(components_.begin(), components_.end(), k,
                               [](std::size_t v, const Entry& e) { return v < e.output_offset; });
    // The entry whose range holds k: the last one starting at or before k with outputs.
    for (auto e = it; e != components_.begin();) {
        --e;
        if (k < e->output_offset + e->component->outputs().size()) {
            return e->component->name() + "." + e->component->outputs()[k - e->output_offset].name;
        }
    }
    throw ModelError(fmt::format("output index {} out of range", k));
}

const Variable& System::outputVariable(std::size_t k) const {
    requireFinalized("outputVariable");
    for (const auto& e : components_) {
        if (k >= e.output_offset && k < e.output_offset + e.component->outputs().size()) {
            return e.component->outputs()[k - e.output_offset];
        }
    }
    throw ModelError(fmt::format("output index {} out of range", k));
}

System::Workspace System::makeWorkspace() const {
    requireFinalized("makeWorkspace");
    Workspace ws{std::vector<double>(n_inputs_), std::vector<double>(n_outputs_),
                 std::numeric_limits<double>::quiet_NaN()};
    for (std::size_t g = 0; g < n_inputs_; ++g) {
        if (input_source_[g] == kUnconnected) ws.u[g] = input_value_[g];
    }
    return ws;
}

void System::initialState(std::span<double> x0) const {
    requireFinalized("initialState");
    for (const auto& e : components_) {
        e.component->initialState(x0.subspan(e.state_offset, e.component->states().size()));
    }
}

void System::gatherInputs(std::size_t c, Workspace& ws) const {
    const Entry& e = components_[c];
    const std::uint32_t* source = input_source_.data() + e.input_offset;
    double* u = ws.u.data() + e.input_offset;
    const double* y = ws.y.data();
    for (std::size_t i = 0; i < e.inputs; ++i) {
        const std::uint32_t s = source[i];
        if (s < kScaled) {
            u[i] = y[s];
        } else if (s != kUnconnected) {
            u[i] = input_value_[e.input_offset + i] * y[s & ~kScaled];
        }
        // Unconnected: the constant makeWorkspace() wrote stays.
    }
}

std::ptrdiff_t System::inputSource(std::size_t global_input) const {
    const std::uint32_t s = input_source_[global_input];
    return s == kUnconnected ? -1 : static_cast<std::ptrdiff_t>(s & ~kScaled);
}

namespace {

/// "component 'x' (states T = 351.2 K, …; inputs flow = 0 m3/s, …)": where a model error
/// arose, with the values that led there, so a run leaving a property table says which part of
/// the plant got there and how (issue 14). At most eight of each, so a lumped component with
/// hundreds of states does not flood the message.
std::string componentContext(const Component& comp, std::span<const double> x,
                             std::span<const double> u) {
    auto list = [](const std::vector<Variable>& vars, std::span<const double> values) {
        std::string out;
        const std::size_t n = std::min<std::size_t>(vars.size(), 8);
        for (std::size_t i = 0; i < n && i < values.size(); ++i) {
            out += fmt::format("{}{} = {:.6g} {}", i ? ", " : "", vars[i].name, values[i],
                               vars[i].unit);
        }
        if (vars.size() > n) out += fmt::format(", … ({} more)", vars.size() - n);
        return out;
    };
    std::string s = fmt::format("component '{}'", comp.name());
    std::string parts;
    if (!comp.states().empty()) parts += "states " + list(comp.states(), x);
    if (!comp.inputs().empty()) {
        parts += (parts.empty() ? "" : "; ") + std::string("inputs ") + list(comp.inputs(), u);
    }
    if (!parts.empty()) s += " (" + parts + ")";
    return s;
}

}  // namespace

void System::outputsOf(std::size_t c, double t, std::span<const double> x, Workspace& ws) const {
    const Entry& e = components_[c];
    const Component& comp = *e.component;
    gatherInputs(c, ws);
    const auto xs = x.subspan(e.state_offset, e.states);
    const auto us = std::span<const double>(ws.u).subspan(e.input_offset, e.inputs);
    try {
        comp.computeOutputs(t, xs, us, std::span<double>(ws.y).subspan(e.output_offset, e.outputs));
    } catch (const ModelError& err) {
        throw ModelError(fmt::format("{}: {}", componentContext(comp, xs, us), err.what()));
    }
}

void System::evaluateOutputs(double t, std::span<const double> x, Workspace& ws) const {
    // A Jacobian's columns and a step's Newton iterations and quadrature all evaluate at one
    // t: the sources (a workload per rack at campus scale) are computed once for it.
    if (!(ws.sources_time == t)) {
        ws.sources_time = std::numeric_limits<double>::quiet_NaN();  // until all succeed
        for (std::size_t c : sources_) outputsOf(c, t, x, ws);
        ws.sources_time = t;
    }
    for (std::size_t c : dependents_) outputsOf(c, t, x, ws);
}

void System::derivativesOf(std::size_t c, double t, std::span<const double> x,
                           std::span<double> dxdt, Workspace& ws, bool after_full_pass) const {
    const Entry& e = components_[c];
    const std::size_t ns = e.states;
    if (ns == 0) return;
    const Component& comp = *e.component;
    // Inputs fed by components later in the order were stale during output evaluation
    // (harmlessly: no output depended on them); refresh them for the derivatives. After a
    // full outputs pass every other input is as gathered then, so only those are read again
    // (half the gathering of a campus evaluation was this second pass, issue 12); after a
    // partial pass this component's inputs may not have been gathered at all.
    if (after_full_pass) {
        for (std::uint32_t k = late_begin_[c]; k < late_begin_[c + 1]; ++k) {
            const std::uint32_t g = late_inputs_[k];
            const std::uint32_t src = input_source_[g];
            ws.u[g] = src < kScaled ? ws.y[src] : input_value_[g] * ws.y[src & ~kScaled];
        }
    } else {
        gatherInputs(c, ws);
    }
    const auto xs = x.subspan(e.state_offset, ns);
    const auto us = std::span<const double>(ws.u).subspan(e.input_offset, e.inputs);
    try {
        // Own outputs are current: they depend only on inputs that were fresh for the outputs
        // pass (a stale input is one no output reads).
        comp.computeDerivativesGivenOutputs(
            t, xs, us, std::span<const double>(ws.y).subspan(e.output_offset, e.outputs),
            dxdt.subspan(e.state_offset, ns));
    } catch (const ModelError& err) {
        throw ModelError(fmt::format("{}: {}", componentContext(comp, xs, us), err.what()));
    }
}

void System::evaluate(double t, std::span<const double> x, std::span<double> dxdt,
                      Workspace& ws) const {
    evaluateOutputs(t, x, ws);
    for (std::size_t c = 0; c < components_.size(); ++c) derivativesOf(c, t, x, dxdt, ws, true);
}

void System::evaluate(double t, std::span<const double> x, std::span<double> dxdt, Workspace& ws,
                      std::span<const std::size_t> components) const {
    evaluateOutputs(t, x, ws);
    for (std::size_t c : components) derivativesOf(c, t, x, dxdt, ws, true);
}

System::Perturbation System::perturbation(std::span<const std::size_t> states) const {
    requireFinalized("perturbation");
    std::vector<char> moved_state(n_states_, 0), moved_output(n_outputs_, 0);
    for (std::size_t s : states) {
        if (s >= n_states_) {
            throw ModelError(fmt::format("perturbation: state {} of {}", s, n_states_));
        }
        moved_state[s] = 1;
    }
    auto inputMoved = [&](std::size_t global_input) {
        const std::ptrdiff_t src = inputSource(global_input);
        return src >= 0 && moved_output[static_cast<std::size_t>(src)] != 0;
    };
    Perturbation p;
    for (std::size_t c : dependents_) {  // sources have neither states nor inputs
        const Entry& e = components_[c];
        const Component& comp = *e.component;
        bool any = false;
        for (std::size_t o = 0; o < e.outputs; ++o) {
            bool moved = false;
            for (std::size_t s = 0; s < e.states && !moved; ++s) {
                moved = moved_state[e.state_offset + s] && comp.outputDependsOnState(o, s);
            }
            for (std::size_t i = 0; i < e.inputs && !moved; ++i) {
                moved = inputMoved(e.input_offset + i) && comp.outputDependsOnInput(o, i);
            }
            moved_output[e.output_offset + o] = moved ? 1 : 0;
            any = any || moved;
        }
        if (!any) continue;
        p.outputs_of.push_back(c);
        const std::pair range{e.output_offset, e.output_offset + e.outputs};
        if (!p.output_ranges.empty() && p.output_ranges.back().second == range.first) {
            p.output_ranges.back().second = range.second;
        } else {
            p.output_ranges.push_back(range);
        }
    }
    for (std::size_t c = 0; c < components_.size(); ++c) {
        const Entry& e = components_[c];
        const Component& comp = *e.component;
        bool moved = false;
        for (std::size_t r = 0; r < e.states && !moved; ++r) {
            for (std::size_t s = 0; s < e.states && !moved; ++s) {
                moved = moved_state[e.state_offset + s] && comp.derivativeDependsOnState(r, s);
            }
            for (std::size_t i = 0; i < e.inputs && !moved; ++i) {
                moved = inputMoved(e.input_offset + i) && comp.derivativeDependsOnInput(r, i);
            }
        }
        if (moved) p.derivatives_of.push_back(c);
    }
    return p;
}

void System::evaluatePerturbed(double t, std::span<const double> x, std::span<double> dxdt,
                               Workspace& ws, const Perturbation& p) const {
    for (std::size_t c : p.outputs_of) outputsOf(c, t, x, ws);
    for (std::size_t c : p.derivatives_of) derivativesOf(c, t, x, dxdt, ws, false);
}

std::vector<std::size_t> System::stateOwners(std::span<const std::size_t> states) const {
    requireFinalized("stateOwners");
    std::vector<std::size_t> owners;
    owners.reserve(states.size());
    for (std::size_t s : states) {
        if (s >= n_states_) {
            throw ModelError(fmt::format("stateOwners: state {} of {}", s, n_states_));
        }
        owners.push_back(state_owner_[s]);
    }
    std::sort(owners.begin(), owners.end());
    owners.erase(std::unique(owners.begin(), owners.end()), owners.end());
    return owners;
}

SparsityPattern System::jacobianPattern() const {
    requireFinalized("jacobianPattern");
    // deps[k]: sorted global states that output k depends on.
    std::vector<std::vector<std::int64_t>> deps(n_outputs_);
    auto inputDeps = [&](std::size_t global_input) -> const std::vector<std::int64_t>* {
        const std::ptrdiff_t src = inputSource(global_input);
        return src >= 0 ? &deps[static_cast<std::size_t>(src)] : nullptr;
    };
    // A dependency list is the union of its inputs' lists: appended, then sorted once. (Merged
    // input by input, a site-wide sum's list was rebuilt once per rack: quadratic in racks,
    // ~1 s per model at 5,560 racks.)
    auto append = [](std::vector<std::int64_t>& into, const std::vector<std::int64_t>& add) {
        into.insert(into.end(), add.begin(), add.end());
    };
    auto sortUnique = [](std::vector<std::int64_t>& v) {
        std::sort(v.begin(), v.end());
        v.erase(std::unique(v.begin(), v.end()), v.end());
    };
    for (std::size_t c : order_) {
        const Entry& e = components_[c];
        const Component& comp = *e.component;
        for (std::size_t o = 0; o < comp.outputs().size(); ++o) {
            auto& d = deps[e.output_offset + o];
            for (std::size_t s = 0; s < comp.states().size(); ++s) {
                if (comp.outputDependsOnState(o, s)) {
                    d.push_back(static_cast<std::int64_t>(e.state_offset + s));
                }
            }
            for (std::size_t i = 0; i < comp.inputs().size(); ++i) {
                if (!comp.outputDependsOnInput(o, i)) continue;
                if (const auto* src = inputDeps(e.input_offset + i)) append(d, *src);
            }
            sortUnique(d);
        }
    }
    // Rows per column: build (row, col) pairs then compress.
    std::vector<std::vector<std::int64_t>> cols(n_states_);
    std::vector<std::int64_t> row_deps;
    for (const Entry& e : components_) {
        const Component& comp = *e.component;
        for (std::size_t r = 0; r < comp.states().size(); ++r) {
            const auto row = static_cast<std::int64_t>(e.state_offset + r);
            row_deps.clear();
            for (std::size_t s = 0; s < comp.states().size(); ++s) {
                if (comp.derivativeDependsOnState(r, s)) {
                    row_deps.push_back(static_cast<std::int64_t>(e.state_offset + s));
                }
            }
            for (std::size_t i = 0; i < comp.inputs().size(); ++i) {
                if (!comp.derivativeDependsOnInput(r, i)) continue;
                if (const auto* src = inputDeps(e.input_offset + i)) append(row_deps, *src);
            }
            sortUnique(row_deps);
            for (std::int64_t col : row_deps) cols[static_cast<std::size_t>(col)].push_back(row);
        }
    }
    SparsityPattern p;
    p.n = n_states_;
    p.col_ptr.assign(n_states_ + 1, 0);
    for (std::size_t j = 0; j < n_states_; ++j) {
        auto& rows = cols[j];
        std::sort(rows.begin(), rows.end());
        rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
        p.col_ptr[j + 1] = p.col_ptr[j] + static_cast<std::int64_t>(rows.size());
        p.row_index.insert(p.row_index.end(), rows.begin(), rows.end());
    }
    return p;
}

std::vector<double> System::discontinuities(double t0, double t1) const {
    std::vector<double> times;
    for (const auto& e : components_) e.component->discontinuities(t0, t1, times);
    std::erase_if(times, [&](double t) { return !(t > t0 && t <= t1); });
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    return times;
}

SystemProblem::SystemProblem(const System& system) : system_(system), ws_(system.makeWorkspace()) {}

void SystemProblem::rhs(double t, std::span<const double> x, std::span<double> dxdt) {
    system_.evaluate(t, x, dxdt, ws_);
}

void SystemProblem::rhsRows(double t, std::span<const double> x, std::span<const std::size_t> rows,
                            std::span<double> dxdt) {
    // A solver asks for the same rows every time (its quadratures): find their owners once.
    if (!std::equal(rows.begin(), rows.end(), rows_.begin(), rows_.end())) {
        row_owners_ = system_.stateOwners(rows);
        rows_.assign(rows.begin(), rows.end());
    }
    system_.evaluate(t, x, dxdt, ws_, row_owners_);
}

bool SystemProblem::prepareGroups(const std::vector<std::vector<std::size_t>>& groups) {
    groups_.clear();
    groups_.reserve(groups.size());
    for (const auto& g : groups) groups_.push_back(system_.perturbation(g));
    return true;
}

void SystemProblem::rhsBase(double t, std::span<const double> x, std::span<double> dxdt) {
    system_.evaluate(t, x, dxdt, ws_);
    base_y_ = ws_.y;
    base_dx_.assign(dxdt.begin(), dxdt.end());
}

void SystemProblem::rhsGroup(double t, std::span<const double> x, std::size_t g,
                             std::span<double> dxdt) {
    const System::Perturbation& p = groups_.at(g);
    if (base_y_.size() != ws_.y.size() || base_dx_.size() != dxdt.size()) {
        throw ModelError("SystemProblem::rhsGroup called before rhsBase");
    }
    // The next group starts from the base point again, also after a failed evaluation.
    struct Restore {
        const System::Perturbation& p;
        const std::vector<double>& base;
        std::vector<double>& y;
        ~Restore() {
            for (const auto& [b, e] : p.output_ranges) {
                std::copy(base.begin() + static_cast<std::ptrdiff_t>(b),
                          base.begin() + static_cast<std::ptrdiff_t>(e),
                          y.begin() + static_cast<std::ptrdiff_t>(b));
            }
        }
    } restore{p, base_y_, ws_.y};
    // Rows the group does not reach keep their base values (a Jacobian reads its diagonal
    // whether or not the state moves its own derivative); an earlier group may have written
    // them.
    std::copy(base_dx_.begin(), base_dx_.end(), dxdt.begin());
    system_.evaluatePerturbed(t, x, dxdt, ws_, p);
}

double SystemProblem::nominal(std::size_t i) const { return system_.stateVariable(i).nominal; }

double SystemProblem::errorScale(std::size_t i) const {
    return system_.stateVariable(i).error_scale;
}

}  // namespace dctwin
