#pragma once
// The solver interface: an ODE problem and an integrator that know nothing of SUNDIALS
// (DESIGN.md §4, §9). The CVODE adapter (cvode_solver.cpp) is the one implementation; no
// SUNDIALS type appears in this header.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace dctwin {

/// Compressed-sparse-column pattern of the Jacobian ∂f_i/∂x_j (rows i, columns j).
struct SparsityPattern {
    std::size_t n = 0;
    std::vector<std::int64_t> col_ptr;    // size n+1
    std::vector<std::int64_t> row_index;  // size nnz, sorted within each column
    std::size_t nnz() const { return row_index.size(); }
};

/// dx/dt = f(t, x). rhs may use internal scratch space; a problem serves one solver at a time.
class OdeProblem {
public:
    virtual ~OdeProblem() = default;
    virtual std::size_t size() const = 0;
    virtual void rhs(double t, std::span<const double> x, std::span<double> dxdt) = 0;
    /// dx/dt of the states `rows` (ascending) only; the other entries of dxdt are left
    /// unspecified. The solver's quadratures (meters) need every output of the model but the
    /// derivatives of a few components: a model that can skip the rest says so here (a third
    /// of a campus run's evaluations are the quadratures', issue 12). Default: the full rhs.
    virtual void rhsRows(double t, std::span<const double> x, std::span<const std::size_t> rows,
                         std::span<double> dxdt) {
        (void)rows;
        rhs(t, x, dxdt);
    }
    /// Typical magnitude of state i (> 0); absolute tolerance = abs_tol_factor · nominal.
    /// Finite-difference Jacobians perturb a group of states at a time (a colour) around one
    /// base point. A problem that can evaluate only what a group moves says so by returning
    /// true here; the solver then calls rhsBase() at the base point and rhsGroup() for each
    /// perturbed point. `groups` lists state indices (ascending); called once per solver.
    virtual bool prepareGroups(const std::vector<std::vector<std::size_t>>& groups) {
        (void)groups;
        return false;
    }
    /// The full rhs at the base point of the groups' evaluations that follow.
    virtual void rhsBase(double t, std::span<const double> x, std::span<double> dxdt) {
        rhs(t, x, dxdt);
    }
    /// dx/dt at x, which differs from the last rhsBase() point (same t) only in the states of
    /// group g: exact in every row that depends on one of them, the rest at their base values
    /// (which is what they are at x).
    virtual void rhsGroup(double t, std::span<const double> x, std::size_t g,
                          std::span<double> dxdt) {
        (void)g;
        rhs(t, x, dxdt);
    }
    virtual double nominal(std::size_t i) const = 0;
    /// Error scale of state i (0: none): the absolute tolerance is at least rel_tol · scale.
    /// For states whose accuracy follows from another state's (a controller's integral of a
    /// temperature error), so they are not held tighter than what drives them.
    virtual double errorScale(std::size_t) const { return 0.0; }
    /// "component.variable", for error messages.
    virtual std::string stateName(std::size_t i) const = 0;
    virtual SparsityPattern jacobianPattern() const = 0;
};

enum class LinearSolverKind { Automatic, Dense, Sparse };
enum class QuadratureMode { Automatic, Always, Never };

struct SolverOptions {
    double rel_tol = 1e-6;
    double abs_tol_factor = 1e-6;  // absolute tolerance per state = factor · nominal
    LinearSolverKind linear_solver = LinearSolverKind::Automatic;
    std::size_t dense_limit = 48;  // Automatic picks dense at or below this many states
    double max_step = 0.0;         // [s] 0 = no limit
    long max_steps = 500000;       // per advance call
    int max_order = 5;
    /// Sparse path only: whether states no derivative depends on (meters) are integrated as
    /// CVODE quadratures, outside the Newton iteration. Automatic does so when one of their
    /// rows is longer than dense_row_limit (a meter summing every rack): then the quadratures
    /// keep the Jacobian's colouring bounded. Otherwise they stay Newton states: an exact row
    /// keeps the energy balance at round-off, and the step control counts them as before.
    QuadratureMode quadratures = QuadratureMode::Automatic;
    /// Sparse path only. A Jacobian row with more entries than this (a mixer fed by every
    /// CDU) is left out of the column colouring, so a Jacobian costs a bounded number of rhs
    /// evaluations however many racks there are; its entries become approximate (see
    /// cvode_solver.cpp). 0 = no limit (exact colouring).
    std::size_t dense_row_limit = 48;
    /// Newton convergence coefficient (CVodeSetNonlinConvCoef): the iteration stops when the
    /// weighted RMS norm of its estimated remaining error is below this fraction of the error
    /// test's bound. 0 = CVODE's 0.1.
    double newton_convergence_coef = 0.0;
    /// Per-state Newton bound L (0 = off): besides CVODE's RMS test, the iteration goes on
    /// until every state's weighted update, scaled by the convergence rate, is below L times
    /// the RMS test's bound — any single state is then as converged as in an RMS over L²
    /// states. An RMS over m states dilutes one state's error by √m: at campus scale (6,600
    /// states) CVODE's test alone lets one rack's junction, stiff on its throttle band, stop
    /// short of its implicit solution; the next step overshoots the other way and the solver
    /// settles into 0.07 s steps (measured: 54,236 steps for 2 h 10 min of 1,390 distinct
    /// racks). √48: the dense-solver limit, below which the RMS test alone was never seen
    /// to chatter. Unlike a coefficient shrunk by √(48/m) for all states (the fix before),
    /// it does not demand more of the many states whose updates are small.
    double newton_state_limit = 6.928203230275509;  // √48
};

struct SolverStats {
    long steps = 0;
    long rhs_evals = 0;  // including those spent on Jacobians
    long jacobian_evals = 0;
    long factorizations = 0;  // linear solver setups
    long error_test_failures = 0;
    long convergence_failures = 0;
    long reinits = 0;
    long jacobian_rhs_evals = 0;  // of rhs_evals, those spent forming sparse Jacobians
    long jacobian_colours = 0;    // rhs evaluations per sparse Jacobian (0: dense path)
    long quadratures = 0;         // states integrated as quadratures
    long quadratures_reused = 0;  // steps whose quadratures took the last Newton evaluation
};

class OdeSolver {
public:
    virtual ~OdeSolver() = default;
    /// Starts (or restarts after a discontinuity) at t0 from x0. Forgets step history.
    virtual void reset(double t0, std::span<const double> x0) = 0;
    /// Integrates to tout. With stop_exactly the integrator never steps past tout (use it at
    /// discontinuities); otherwise it may step past and interpolate. x receives x(tout).
    /// Throws SolverError naming the time and the states with the largest error.
    virtual void advance(double tout, std::span<double> x, bool stop_exactly) = 0;
    /// What the integrator computed at the end of each of its internal steps, for figures
    /// that must not depend on the output grid: a junction that passes its throttle and trip
    /// temperatures within a minute between two 10-minute samples.
    struct StepWatch {
        std::vector<std::size_t> states;  ///< state indices reported, in this order
        /// Called with a step's end time [s] and the watched states there.
        std::function<void(double t, std::span<const double> values)> observe;
    };
    /// From the next advance() on, `observe` is called after every internal step, in time
    /// order and never past the tout of the advance() in progress: a step that passes tout is
    /// reported by the advance() that reaches it, and dropped by reset() (past a
    /// discontinuity it was computed with the behaviour before the jump). A step that ends on
    /// a stop time is reported there (the left limit). The steps and x(tout) are the ones
    /// advance() gives without a watch, bit for bit. An empty `observe` removes the watch.
    virtual void watchSteps(StepWatch watch) = 0;
    virtual SolverStats stats() const = 0;
    /// "dense" or "sparse (KLU)".
    virtual std::string linearSolverName() const = 0;
};

/// CVODE (BDF, Newton) with a dense or KLU sparse direct linear solver. The sparse Jacobian
/// is formed by finite differences with column colouring from the problem's pattern.
std::unique_ptr<OdeSolver> makeCvodeSolver(OdeProblem& problem, const SolverOptions& options);

}  // namespace dctwin
