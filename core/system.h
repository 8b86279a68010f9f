#pragma once
// System: many components and their connections (output → input) assembled into one ODE
// (DESIGN.md §2, §4).
//
// Evaluation order: outputs are computed component by component in an order in which every
// direct-feedthrough input is ready before it is read; a cycle of feedthrough connections is
// an algebraic loop and finalize() rejects it naming the ports. Then every component computes
// its derivatives from its (now complete) inputs. Couplings are therefore resolved inside
// each right-hand-side evaluation, never one step late.
//
// Unconnected inputs take their declared start value, or the value set with setInput().
// The Jacobian sparsity follows the component graph: ∂(dx_i)/∂x_j may be non-zero only if x_j
// reaches row i through the component's declared dependencies and the connections.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <memory_resource>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/component.h"
#include "core/solver/ode_solver.h"

namespace dctwin {

/// A checked handle to one output of a component in a System (as Drake's OutputPort): made
/// once from names, then used without strings and without index enums kept in sync by hand.
struct OutputPort {
    std::size_t component = 0;  ///< component index in the System
    std::size_t port = 0;       ///< output index in the component
};
/// A checked handle to one input of a component in a System.
struct InputPort {
    std::size_t component = 0;
    std::size_t port = 0;
};

/// A component added to a System: its index, and its ports by name (ModelError listing the
/// valid names when a name is wrong).
class ComponentHandle {
public:
    ComponentHandle() = default;
    ComponentHandle(const Component* c, std::size_t index) : c_(c), index_(index) {}
    std::size_t index() const { return index_; }
    const Component& component() const { return *c_; }
    OutputPort out(std::string_view name) const { return {index_, c_->outputIndex(name)}; }
    InputPort in(std::string_view name) const { return {index_, c_->inputIndex(name)}; }

private:
    const Component* c_ = nullptr;
    std::size_t index_ = 0;
};

class System {
public:
    /// Adds a component; names must be unique. Returns a reference valid for the System's life.
    template <class C>
    const C& add(std::shared_ptr<const C> c) {
        const C& ref = *c;
        addComponent(std::move(c));
        return ref;
    }
    void addComponent(std::shared_ptr<const Component> c);
    /// Adds a component and returns its handle.
    ComponentHandle insert(std::shared_ptr<const Component> c);
    /// Constructs a component in the System's own storage and adds it. Components made this
    /// way lie next to each other in the order they were made, rather than among the heap
    /// blocks their constructors allocate: at campus scale (~10^4 components) an evaluation
    /// then reads one rack's components from neighbouring cache lines (issue 12).
    template <class C, class... Args>
    ComponentHandle emplace(Args&&... args) {
        return insert(
            std::allocate_shared<C>(ArenaAllocator<C>(arena_), std::forward<Args>(args)...));
    }

    /// Connects an output to an input (units must agree; an input takes one connection). With
    /// a gain the input reads gain · output: a unit-preserving scaling, such as a rack group's
    /// heat shared out per rack, needs no component of its own (at campus scale a component
    /// per rack costs a cache miss per rack and evaluation, issue 12).
    void connect(OutputPort from, InputPort to, double gain = 1.0);
    /// Fixes an unconnected input to a constant value [SI].
    void setInput(InputPort to, double value);
    /// Global index of an output into Workspace::y (after finalize()).
    std::size_t outputIndex(OutputPort port) const;
    /// Global index of a component's state into the state vector (after finalize()).
    std::size_t stateIndex(std::size_t component, std::size_t state) const;

    /// Connects "component.output" to "component.input".
    void connect(std::string_view from, std::string_view to);
    /// Fixes an unconnected input to a constant value [SI].
    void setInput(std::string_view to, double value);

    /// Orders the evaluation, rejects algebraic loops and builds the index maps. No component
    /// or connection may be added afterwards.
    void finalize();
    bool finalized() const { return finalized_; }

    // Components
    std::size_t componentCount() const { return components_.size(); }
    const Component& component(std::size_t c) const { return *components_[c].component; }
    /// Index of the named component; throws ModelError listing close names.
    std::size_t componentIndex(std::string_view name) const;

    // States ("component.variable")
    std::size_t stateCount() const { return n_states_; }
    std::string stateName(std::size_t i) const;
    const Variable& stateVariable(std::size_t i) const;
    std::size_t stateOffset(std::size_t c) const { return components_[c].state_offset; }
    /// Global index of "component.state".
    std::size_t stateIndex(std::string_view qualified) const;

    // Outputs
    std::size_t outputCount() const { return n_outputs_; }
    std::size_t outputOffset(std::size_t c) const { return components_[c].output_offset; }
    /// Global index of "component.output" into Workspace::y.
    std::size_t outputIndex(std::string_view qualified) const;
    std::string outputName(std::size_t k) const;
    const Variable& outputVariable(std::size_t k) const;

    /// Scratch space of one evaluating thread.
    struct Workspace {
        std::vector<double> u;  // all inputs, component by component
        std::vector<double> y;  // all outputs, component by component
        /// [s] time the sources' outputs in y were computed for (NaN: none yet)
        double sources_time = std::numeric_limits<double>::quiet_NaN();
    };
    Workspace makeWorkspace() const;

    void initialState(std::span<double> x0) const;
    /// Computes every output into ws.y.
    void evaluateOutputs(double t, std::span<const double> x, Workspace& ws) const;
    /// Computes every output into ws.y and dx/dt into dxdt.
    void evaluate(double t, std::span<const double> x, std::span<double> dxdt, Workspace& ws) const;
    /// Computes every output into ws.y and dx/dt of the states of `components` only (indices
    /// as stateOwners() returns them); the rest of dxdt is untouched. Each derivative equals
    /// evaluate()'s.
    void evaluate(double t, std::span<const double> x, std::span<double> dxdt, Workspace& ws,
                  std::span<const std::size_t> components) const;
    /// The components (ascending, unique) that own the given global states.
    std::vector<std::size_t> stateOwners(std::span<const std::size_t> states) const;

    /// What moving some states moves, from the components' dependency declarations (the
    /// ones the Jacobian pattern is built from): the components with an output that may
    /// change, in evaluation order, and those with a derivative that may change.
    struct Perturbation {
        std::vector<std::size_t> outputs_of;      ///< components, evaluation order
        std::vector<std::size_t> derivatives_of;  ///< components, ascending
        /// [begin, end) of ws.y that outputs_of write, merged where adjacent
        std::vector<std::pair<std::size_t, std::size_t>> output_ranges;
    };
    Perturbation perturbation(std::span<const std::size_t> states) const;
    /// Outputs of p.outputs_of into ws.y and dx/dt of p.derivatives_of' states, at x. Every
    /// other output in ws.y must be that of a point that differs from x only in the states p
    /// was made for (the base point of a finite-difference Jacobian): then every derivative
    /// computed equals evaluate()'s, and the others are those no perturbed state reaches.
    void evaluatePerturbed(double t, std::span<const double> x, std::span<double> dxdt,
                           Workspace& ws, const Perturbation& p) const;

    SparsityPattern jacobianPattern() const;
    /// Sorted, unique discontinuity times in (t0, t1] from all components.
    std::vector<double> discontinuities(double t0, double t1) const;

private:
    /// Allocates from a shared monotonic arena. Every object allocated keeps the arena alive
    /// through its copy of the allocator (the shared_ptr's control block holds one), so a
    /// component may outlive the System that made it.
    template <class T>
    struct ArenaAllocator {
        using value_type = T;
        std::shared_ptr<std::pmr::memory_resource> resource;
        explicit ArenaAllocator(std::shared_ptr<std::pmr::memory_resource> r)
            : resource(std::move(r)) {}
        template <class U>
        ArenaAllocator(const ArenaAllocator<U>& other) : resource(other.resource) {}
        T* allocate(std::size_t n) {
            return static_cast<T*>(resource->allocate(n * sizeof(T), alignof(T)));
        }
        void deallocate(T* p, std::size_t n) noexcept {
            resource->deallocate(p, n * sizeof(T), alignof(T));
        }
        template <class U>
        bool operator==(const ArenaAllocator<U>& other) const {
            return resource == other.resource;
        }
    };
    /// Where emplace() constructs components (monotonic: nothing is freed before the last
    /// component made in it).
    std::shared_ptr<std::pmr::memory_resource> arena_ =
        std::make_shared<std::pmr::monotonic_buffer_resource>();

    /// Component c's outputs into ws.y.
    void outputsOf(std::size_t c, double t, std::span<const double> x, Workspace& ws) const;
    /// dx/dt of component c's states from ws.y (outputs already evaluated). With
    /// `after_full_pass`, every component's outputs were just evaluated in order, so only its
    /// late inputs are gathered again; otherwise all of them.
    void derivativesOf(std::size_t c, double t, std::span<const double> x, std::span<double> dxdt,
                       Workspace& ws, bool after_full_pass) const;
    struct Entry {
        const Component* component = nullptr;  // owned by owned_[same index]
        std::uint32_t state_offset = 0, input_offset = 0, output_offset = 0;
        // The component's sizes, kept here so the evaluation loops read this array alone and
        // touch a component only to call it (at campus scale the components, ~10^4 scattered
        // heap objects, no longer fit the caches). 32 bits each and a plain pointer: two
        // entries to a cache line, where a shared_ptr and six size_t took one each (issue 12;
        // finalize() refuses a model whose counts would not fit).
        std::uint32_t states = 0, inputs = 0, outputs = 0;
    };
    struct Connection {
        std::size_t from_component, from_output, to_component, to_input;
        double gain = 1.0;
    };
    void requireFinalized(const char* what) const;
    void requireOpen(const char* what) const;
    std::pair<std::size_t, std::size_t> resolve(std::string_view qualified, bool output) const;
    void gatherInputs(std::size_t c, Workspace& ws) const;

    std::vector<Entry> components_;
    std::vector<std::shared_ptr<const Component>> owned_;   // the components, by index
    std::unordered_map<std::string, std::size_t> by_name_;  // component name → index
    std::vector<Connection> connections_;
    std::set<std::pair<std::size_t, std::size_t>> connected_inputs_;  // (component, input)
    std::vector<std::pair<InputPort, double>> fixed_inputs_;
    bool finalized_ = false;
    std::size_t n_states_ = 0, n_inputs_ = 0, n_outputs_ = 0;
    std::vector<std::size_t> order_;       // evaluation order of components
    std::vector<std::size_t> sources_;     // of order_, those without states or inputs
    std::vector<std::size_t> dependents_;  // the rest of order_, in its order
    /// Where a global input's value comes from: input = y[source] when connected with gain 1,
    /// input = gain · y[source] when connected with another gain (kScaled set; the gain in
    /// input_value_), input = input_value_ when not connected (kUnconnected: written into a
    /// workspace once, when it is made, and never gathered again). Four bytes per input, where
    /// a (source, value) pair took sixteen: gathering is the evaluation's largest single cost
    /// at campus scale, and it waits on memory (issue 12).
    static constexpr std::uint32_t kUnconnected = 0xFFFFFFFFu;
    static constexpr std::uint32_t kScaled = 0x80000000u;
    std::vector<std::uint32_t> input_source_;
    std::vector<double> input_value_;  // constant or gain; read only off the common path
    /// Global inputs of component c fed by a component evaluated at or after c in an outputs
    /// pass: late_inputs_[late_begin_[c] .. late_begin_[c + 1]) (components with states only).
    std::vector<std::uint32_t> late_begin_;
    std::vector<std::uint32_t> late_inputs_;
    /// Global output index feeding a global input, or −1 when it is not connected.
    std::ptrdiff_t inputSource(std::size_t global_input) const;
    std::vector<std::size_t> state_owner_;  // global state → component
};

/// Adapts a finalized System to the solver interface.
class SystemProblem : public OdeProblem {
public:
    explicit SystemProblem(const System& system);
    std::size_t size() const override { return system_.stateCount(); }
    void rhs(double t, std::span<const double> x, std::span<double> dxdt) override;
    void rhsRows(double t, std::span<const double> x, std::span<const std::size_t> rows,
                 std::span<double> dxdt) override;
    bool prepareGroups(const std::vector<std::vector<std::size_t>>& groups) override;
    void rhsBase(double t, std::span<const double> x, std::span<double> dxdt) override;
    void rhsGroup(double t, std::span<const double> x, std::size_t g,
                  std::span<double> dxdt) override;
    double nominal(std::size_t i) const override;
    double errorScale(std::size_t i) const override;
    std::string stateName(std::size_t i) const override { return system_.stateName(i); }
    SparsityPattern jacobianPattern() const override { return system_.jacobianPattern(); }
    const System& system() const { return system_; }
    System::Workspace& workspace() { return ws_; }

private:
    const System& system_;
    System::Workspace ws_;
    std::vector<std::size_t> rows_, row_owners_;  // the last rhsRows() rows and their owners
    std::vector<System::Perturbation> groups_;    // prepareGroups()
    std::vector<double> base_y_, base_dx_;        // outputs and dx/dt at the rhsBase() point
};

}  // namespace dctwin
