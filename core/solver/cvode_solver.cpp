// CVODE adapter: makeCvodeSolver (BDF + Newton) with a dense or a KLU sparse direct linear
// solver (DESIGN.md §4). Everything SUNDIALS lives in this folder (this file, the compiled
// vector and sparse-matrix operations, and KLU with its pivot test, klu_solver.h); the rest of
// dctwin sees only OdeSolver/OdeProblem from ode_solver.h.
//
// The sparse Jacobian is formed here by finite differences with column colouring: columns that
// share no row are perturbed together, so a Jacobian costs one rhs evaluation per colour (a
// handful for the banded patterns our component graphs produce) instead of one per state.
#include <cvodes/cvodes.h>
#include <fmt/format.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>
#include <sunnonlinsol/sunnonlinsol_newton.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "core/errors.h"
#include "core/solver/klu_solver.h"
#include "core/solver/ode_solver.h"
#include "core/solver/serial_vector_ops.h"
#include "core/solver/sparse_matrix_ops.h"

namespace dctwin {
namespace {

// RAII owners for the SUNDIALS objects (C handles freed by C functions).
struct ContextDeleter {
    void operator()(SUNContext ctx) const { SUNContext_Free(&ctx); }
};
struct VectorDeleter {
    void operator()(N_Vector v) const { N_VDestroy(v); }
};
struct MatrixDeleter {
    void operator()(SUNMatrix m) const { SUNMatDestroy(m); }
};
struct LinSolDeleter {
    void operator()(SUNLinearSolver ls) const { SUNLinSolFree(ls); }
};
struct NonlinSolDeleter {
    void operator()(SUNNonlinearSolver nls) const { SUNNonlinSolFree(nls); }
};
struct CvodeDeleter {
    void operator()(void* mem) const { CVodeFree(&mem); }
};
using ContextPtr = std::unique_ptr<std::remove_pointer_t<SUNContext>, ContextDeleter>;
using VectorPtr = std::unique_ptr<std::remove_pointer_t<N_Vector>, VectorDeleter>;
using MatrixPtr = std::unique_ptr<std::remove_pointer_t<SUNMatrix>, MatrixDeleter>;
using LinSolPtr = std::unique_ptr<std::remove_pointer_t<SUNLinearSolver>, LinSolDeleter>;
using NonlinSolPtr = std::unique_ptr<std::remove_pointer_t<SUNNonlinearSolver>, NonlinSolDeleter>;
using CvodePtr = std::unique_ptr<void, CvodeDeleter>;

std::string flagName(int flag) {
    // CVodeGetReturnFlagName hands back malloc'ed memory.
    char* raw = CVodeGetReturnFlagName(flag);
    std::string name = raw ? raw : fmt::format("flag {}", flag);
    std::free(raw);
    return name;
}

bool isRhsFailure(int flag) {
    return flag == CV_RHSFUNC_FAIL || flag == CV_FIRST_RHSFUNC_ERR ||
           flag == CV_REPTD_RHSFUNC_ERR || flag == CV_UNREC_RHSFUNC_ERR;
}

std::string likelyCause(int flag) {
    switch (flag) {
        case CV_TOO_MUCH_WORK:
            return "the step size collapsed or the interval needs more than max_steps steps: a "
                   "state running away (finite-time blow-up), a very stiff or fast-oscillating "
                   "model, or max_steps too small";
        case CV_TOO_MUCH_ACC:
            return "tolerances too tight for double precision (raise rel_tol, abs_tol_factor or "
                   "the states' nominal values)";
        case CV_LSETUP_FAIL:
        case CV_LSOLVE_FAIL:
            return "a singular or badly scaled Jacobian: a state without dynamics, a sparsity "
                   "pattern missing a dependency, or a stiff/unstable model";
        case CV_RHSFUNC_FAIL:
        case CV_FIRST_RHSFUNC_ERR:
        case CV_REPTD_RHSFUNC_ERR:
        case CV_UNREC_RHSFUNC_ERR:
            return "the model produced NaN or Inf: a division by zero, a property outside its "
                   "range, or a state running away";
        default:
            return "tolerances too tight, a discontinuity not declared (Component::"
                   "discontinuities), or a stiff/unstable model";
    }
}

void validate(const SolverOptions& o) {
    auto positive = [](double v) { return std::isfinite(v) && v > 0.0; };
    if (!positive(o.rel_tol)) {
        throw InputError(
            fmt::format("solver rel_tol must be a positive number, got {}", o.rel_tol));
    }
    if (!positive(o.abs_tol_factor)) {
        throw InputError(fmt::format("solver abs_tol_factor must be a positive number, got {}",
                                     o.abs_tol_factor));
    }
    if (!std::isfinite(o.max_step) || o.max_step < 0.0) {
        throw InputError(
            fmt::format("solver max_step must be >= 0 s (0 = no limit), got {}", o.max_step));
    }
    if (o.max_steps <= 0) {
        throw InputError(fmt::format("solver max_steps must be positive, got {}", o.max_steps));
    }
    if (o.max_order < 1 || o.max_order > 5) {
        throw InputError(
            fmt::format("solver max_order must be between 1 and 5 (BDF), got {}", o.max_order));
    }
}

/// The problem's pattern, checked for shape and index range.
SparsityPattern checkedPattern(const OdeProblem& problem, std::size_t n) {
    SparsityPattern in = problem.jacobianPattern();
    if (in.n != n || in.col_ptr.size() != n + 1 ||
        in.col_ptr.back() != static_cast<std::int64_t>(in.row_index.size())) {
        throw ModelError(
            fmt::format("Jacobian sparsity pattern is malformed: n = {} (problem has "
                        "{} states), {} column pointers, {} row indices",
                        in.n, n, in.col_ptr.size(), in.row_index.size()));
    }
    for (std::size_t j = 0; j < n; ++j) {
        for (auto p = in.col_ptr[j]; p < in.col_ptr[j + 1]; ++p) {
            const std::int64_t r = in.row_index[static_cast<std::size_t>(p)];
            if (r < 0 || r >= static_cast<std::int64_t>(n)) {
                throw ModelError(fmt::format(
                    "Jacobian sparsity pattern has row {} in column {} (only {} states)", r, j, n));
            }
        }
    }
    return in;
}

/// The pattern restricted to the Newton states `core` (new index k ↔ state core[k]), with
/// sorted unique rows and the diagonal always present (CVODE forms I - γJ in place, and a
/// missing diagonal would force a reallocation).
SparsityPattern corePattern(const SparsityPattern& in, const std::vector<std::size_t>& core) {
    const std::size_t n = in.n, m = core.size();
    std::vector<std::int64_t> to_core(n, -1);
    for (std::size_t k = 0; k < m; ++k) to_core[core[k]] = static_cast<std::int64_t>(k);
    SparsityPattern out;
    out.n = m;
    out.col_ptr.assign(m + 1, 0);
    out.row_index.reserve(in.row_index.size() + m);
    std::vector<std::int64_t> rows;
    for (std::size_t k = 0; k < m; ++k) {
        const std::size_t j = core[k];
        rows.clear();
        for (auto p = in.col_ptr[j]; p < in.col_ptr[j + 1]; ++p) {
            const std::int64_t r = to_core[static_cast<std::size_t>(in.row_index[p])];
            if (r >= 0) rows.push_back(r);  // quadrature rows are integrated outside Newton
        }
        rows.push_back(static_cast<std::int64_t>(k));
        std::sort(rows.begin(), rows.end());
        rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
        out.row_index.insert(out.row_index.end(), rows.begin(), rows.end());
        out.col_ptr[k + 1] = static_cast<std::int64_t>(out.row_index.size());
    }
    return out;
}

/// States that no derivative depends on, their own included: energy and water meters, pure
/// integrals of the rest of the model. CVODE integrates them as quadratures, after each step's
/// Newton iteration has converged, so they take no part in it (issue 12): a meter summing
/// every rack is a dense Jacobian row, and one that Newton solves only approximately drifts,
/// because nothing pulls an integral back.
std::vector<std::size_t> quadratureStates(const SparsityPattern& raw) {
    std::vector<std::size_t> q;
    for (std::size_t j = 0; j < raw.n; ++j) {
        if (raw.col_ptr[j] == raw.col_ptr[j + 1]) q.push_back(j);
    }
    return q;
}

/// Whether any of `rows` has more than `limit` entries (limit 0: no limit, never).
bool anyRowLonger(const SparsityPattern& p, const std::vector<std::size_t>& rows,
                  std::size_t limit) {
    if (limit == 0 || rows.empty()) return false;
    std::vector<std::size_t> count(p.n, 0);
    for (const std::int64_t r : p.row_index) ++count[static_cast<std::size_t>(r)];
    return std::any_of(rows.begin(), rows.end(), [&](std::size_t r) { return count[r] > limit; });
}

/// What part of the rhs an evaluation computes (OdeProblem::rhs, rhsRows, rhsBase,
/// rhsGroup).
struct RhsPart {
    enum Kind { All, Rows, Base, Group } kind = All;
    std::span<const std::size_t> rows;  // Rows: only these entries are computed and checked
    std::size_t group = 0;              // Group: the Jacobian colour
};

class CvodeSolver final : public OdeSolver {
public:
    CvodeSolver(OdeProblem& problem, const SolverOptions& options)
        : problem_(problem), options_(options), n_(problem.size()) {
        validate(options_);
        sparse_ =
            options_.linear_solver == LinearSolverKind::Sparse ||
            (options_.linear_solver == LinearSolverKind::Automatic && n_ > options_.dense_limit);
        if (n_ == 0) return;  // nothing to integrate; advance() only moves the clock

        nominal_.resize(n_);
        for (std::size_t i = 0; i < n_; ++i) {
            nominal_[i] = problem_.nominal(i);
            if (!(nominal_[i] > 0.0) || !std::isfinite(nominal_[i])) {
                throw ModelError(fmt::format("state '{}' needs a positive nominal value, got {}",
                                             problem_.stateName(i), nominal_[i]));
            }
        }

        SUNContext raw_ctx = nullptr;
        if (SUNContext_Create(nullptr, &raw_ctx) != 0 || !raw_ctx) {
            throw SolverError("could not create a SUNDIALS context");
        }
        ctx_.reset(raw_ctx);
        // Newton states (core_) and quadratures (quad_). Only the sparse path separates them:
        // there a meter's dense row is what costs, and the dense path's small problems would
        // pay one extra rhs evaluation per step for the quadratures' right-hand side.
        SparsityPattern raw;
        if (sparse_) {
            raw = checkedPattern(problem_, n_);
            quad_ = quadratureStates(raw);
            if (options_.quadratures == QuadratureMode::Never ||
                (options_.quadratures == QuadratureMode::Automatic &&
                 !anyRowLonger(raw, quad_, options_.dense_row_limit))) {
                quad_.clear();
            }
            if (quad_.size() == n_) quad_.clear();  // nothing left for Newton: keep it simple
        }
        for (std::size_t i = 0, q = 0; i < n_; ++i) {
            if (q < quad_.size() && quad_[q] == i) {
                ++q;
            } else {
                core_.push_back(i);
            }
        }
        m_ = core_.size();
        full_x_.assign(n_, 0.0);
        full_dx_.assign(n_, 0.0);

        const auto m = static_cast<sunindextype>(m_);
        y_.reset(newVector(m));
        abstol_.reset(newVector(m));
        ele_.reset(newVector(m));
        ewt_.reset(newVector(m));
        if (!y_ || !abstol_ || !ele_ || !ewt_) throw SolverError("out of memory (N_Vector)");
        double* atol = N_VGetArrayPointer(abstol_.get());
        for (std::size_t k = 0; k < m_; ++k) {
            atol[k] = std::max(options_.abs_tol_factor * nominal_[core_[k]],
                               options_.rel_tol * problem_.errorScale(core_[k]));
        }
        if (!quad_.empty()) {
            const auto nq = static_cast<sunindextype>(quad_.size());
            q_.reset(newVector(nq));
            qabstol_.reset(newVector(nq));
            if (!q_ || !qabstol_) throw SolverError("out of memory (N_Vector)");
            double* qtol = N_VGetArrayPointer(qabstol_.get());
            for (std::size_t k = 0; k < quad_.size(); ++k) {
                qtol[k] = std::max(options_.abs_tol_factor * nominal_[quad_[k]],
                                   options_.rel_tol * problem_.errorScale(quad_[k]));
            }
        }

        if (sparse_) {
            pattern_ = corePattern(raw, core_);
            colour();
            matrix_.reset(SUNSparseMatrix(m, m, static_cast<sunindextype>(pattern_.nnz()), CSC_MAT,
                                          ctx_.get()));
            if (matrix_) {
                useCompiledSparseOps(matrix_.get());  // CVODE's saved copy of J clones them
                // KLU, re-pivoting only when the pivots went stale (klu_solver.h).
                linsol_.reset(kluSolver(y_.get(), matrix_.get(), ctx_.get()));
            }
        } else {
            matrix_.reset(SUNDenseMatrix(m, m, ctx_.get()));
            if (matrix_) linsol_.reset(SUNLinSol_Dense(y_.get(), matrix_.get(), ctx_.get()));
        }
        if (!matrix_ || !linsol_) throw SolverError("could not create the linear solver");

        cvode_.reset(CVodeCreate(CV_BDF, ctx_.get()));
        if (!cvode_) throw SolverError("could not create the CVODE integrator");
        // Route every SUNDIALS message into this object; nothing may print to stderr.
        check(CVodeSetErrHandlerFn(cvode_.get(), &CvodeSolver::errorHandler, this),
              "CVodeSetErrHandlerFn");
    }

    void reset(double t0, std::span<const double> x0) override {
        if (x0.size() != n_) {
            throw SolverError(fmt::format("reset: initial state has {} values, the problem has {}",
                                          x0.size(), n_));
        }
        if (!std::isfinite(t0)) throw SolverError(fmt::format("reset: start time {} s", t0));
        t_ = t0;
        x_.assign(x0.begin(), x0.end());
        watch_pending_ = false;  // computed with the behaviour before the jump
        if (n_ == 0) {
            if (initialized_) ++reinits_;
            initialized_ = true;
            return;
        }
        for (std::size_t i = 0; i < n_; ++i) {
            if (!std::isfinite(x0[i])) {
                throw SolverError(fmt::format("initial value of '{}' is {} at t = {} s",
                                              problem_.stateName(i), x0[i], t0));
            }
        }
        std::copy(x0.begin(), x0.end(), full_x_.begin());
        double* y = N_VGetArrayPointer(y_.get());
        for (std::size_t k = 0; k < m_; ++k) y[k] = x0[core_[k]];
        if (q_) {
            double* q = N_VGetArrayPointer(q_.get());
            for (std::size_t k = 0; k < quad_.size(); ++k) q[k] = x0[quad_[k]];
        }
        if (!initialized_) {
            check(CVodeInit(cvode_.get(), &CvodeSolver::rhsCallback, t0, y_.get()), "CVodeInit");
            check(CVodeSVtolerances(cvode_.get(), options_.rel_tol, abstol_.get()),
                  "CVodeSVtolerances");
            check(CVodeSetUserData(cvode_.get(), this), "CVodeSetUserData");
            check(CVodeSetMaxNumSteps(cvode_.get(), options_.max_steps), "CVodeSetMaxNumSteps");
            check(CVodeSetMaxOrd(cvode_.get(), options_.max_order), "CVodeSetMaxOrd");
            check(CVodeSetNonlinConvCoef(cvode_.get(), newtonConvergenceCoef()),
                  "CVodeSetNonlinConvCoef");
            attachNewton();
            check(CVodeSetMaxStep(cvode_.get(), options_.max_step), "CVodeSetMaxStep");
            // The error handler already collects warnings; the hnil ones would only repeat.
            check(CVodeSetMaxHnilWarns(cvode_.get(), -1), "CVodeSetMaxHnilWarns");
            check(CVodeSetLinearSolver(cvode_.get(), linsol_.get(), matrix_.get()),
                  "CVodeSetLinearSolver");
            if (sparse_) {
                check(CVodeSetJacFn(cvode_.get(), &CvodeSolver::jacobianCallback), "CVodeSetJacFn");
            }
            if (q_) {
                check(CVodeQuadInit(cvode_.get(), &CvodeSolver::quadCallback, q_.get()),
                      "CVodeQuadInit");
                check(CVodeQuadSVtolerances(cvode_.get(), options_.rel_tol, qabstol_.get()),
                      "CVodeQuadSVtolerances");
                // The meters keep their place in the step error test, as when they were
                // Newton states: a report's energies are held to the same tolerance.
                check(CVodeSetQuadErrCon(cvode_.get(), SUNTRUE), "CVodeSetQuadErrCon");
            }
            initialized_ = true;
        } else {
            // ReInit zeroes CVODE's counters; keep what they counted so far.
            if (called_since_init_) accumulate(base_);
            check(CVodeReInit(cvode_.get(), t0, y_.get()), "CVodeReInit");
            if (q_) check(CVodeQuadReInit(cvode_.get(), q_.get()), "CVodeQuadReInit");
            ++reinits_;
        }
        called_since_init_ = false;
    }

    void advance(double tout, std::span<double> x, bool stop_exactly) override {
        if (!initialized_) throw SolverError("OdeSolver::advance called before reset()");
        if (x.size() != n_) {
            throw SolverError(
                fmt::format("advance: state has {} values, the problem has {}", x.size(), n_));
        }
        if (!std::isfinite(tout) || tout < t_) {
            throw SolverError(fmt::format(
                "advance: output time {} s is not after the current time {} s", tout, t_));
        }
        // A step shorter than CVODE can take from a fresh start (CV_TOO_CLOSE: within a few
        // ulps of t) leaves the state as it is: the discontinuities of many desynchronised
        // jobs (1,390 square waves) fall that close together, and over 1e-15 s nothing moves.
        const double ulps = 64.0 * std::numeric_limits<double>::epsilon() *
                            std::max({1.0, std::abs(t_), std::abs(tout)});
        if (n_ == 0 || tout == t_ || (!called_since_init_ && tout - t_ <= ulps)) {
            t_ = tout;
            std::copy(x_.begin(), x_.end(), x.begin());
            return;
        }
        last_message_.clear();
        nonfinite_.reset();
        pending_ = nullptr;

        if (watch_pending_ && watch_pending_t_ <= tout) {
            watch_pending_ = false;
            watch_.observe(watch_pending_t_, watch_values_);
        }
        double tcur = t_;
        if (called_since_init_)
            check(CVodeGetCurrentTime(cvode_.get(), &tcur), "CVodeGetCurrentTime");
        int flag = 0;
        double tret = t_;
        if (stop_exactly && called_since_init_ && tout <= tcur) {
            // An earlier advance without a stop stepped past tout already; the last step covers
            // tout, so interpolating is as accurate as stopping there.
            flag = CVodeGetDky(cvode_.get(), tout, 0, y_.get());
            if (flag >= 0 && q_) flag = CVodeGetQuadDky(cvode_.get(), tout, 0, q_.get());
            tret = tout;
        } else {
            // CVODE 6.4 has no CVodeClearStopTime: a stop time at +inf never binds.
            check(CVodeSetStopTime(cvode_.get(),
                                   stop_exactly ? tout : std::numeric_limits<double>::infinity()),
                  "CVodeSetStopTime");
            if (watch_.observe) {
                flag = advanceWatched(tout, tret);
            } else {
                called_since_init_ = true;
                flag = CVode(cvode_.get(), tout, y_.get(), &tret, CV_NORMAL);
                if (flag >= 0 && q_) {
                    double tq = tret;
                    flag = CVodeGetQuad(cvode_.get(), &tq, q_.get());
                }
            }
        }
        // A recoverable model error that CVODE stepped around is forgotten; one that ended
        // the integration is the failure to report.
        if (pending_ && (flag < 0 || !pending_recoverable_)) {
            std::exception_ptr e = pending_;
            pending_ = nullptr;
            std::rethrow_exception(e);
        }
        pending_ = nullptr;
        if (flag < 0) throw SolverError(failureMessage(flag, tret));
        const double* y = N_VGetArrayPointer(y_.get());
        for (std::size_t k = 0; k < m_; ++k) full_x_[core_[k]] = y[k];
        if (q_) {
            const double* q = N_VGetArrayPointer(q_.get());
            for (std::size_t k = 0; k < quad_.size(); ++k) full_x_[quad_[k]] = q[k];
        }
        std::copy(full_x_.begin(), full_x_.end(), x.begin());
        x_ = full_x_;
        t_ = tout;
    }

    void watchSteps(StepWatch watch) override {
        watch_pos_.clear();
        for (std::size_t i : watch.states) {
            if (i >= n_) {
                throw SolverError(
                    fmt::format("watchSteps: state {} of a problem with {} states", i, n_));
            }
            // Position in the Newton vector, or ~position in the quadratures'.
            const auto c = std::lower_bound(core_.begin(), core_.end(), i);
            if (c != core_.end() && *c == i) {
                watch_pos_.push_back(static_cast<std::ptrdiff_t>(c - core_.begin()));
            } else {
                const auto q = std::lower_bound(quad_.begin(), quad_.end(), i);
                watch_pos_.push_back(~static_cast<std::ptrdiff_t>(q - quad_.begin()));
            }
        }
        watch_values_.assign(watch.states.size(), 0.0);
        watch_pending_ = false;
        watch_ = std::move(watch);
    }

    SolverStats stats() const override {
        SolverStats s = base_;
        if (initialized_ && n_ > 0 && called_since_init_) accumulate(s);
        // CVODE counts every quadrature call; those answered from the last Newton evaluation
        // evaluated nothing.
        s.rhs_evals += fd_rhs_evals_ - quad_reused_;
        s.jacobian_rhs_evals = fd_rhs_evals_;
        s.quadratures_reused = quad_reused_;
        s.jacobian_colours = static_cast<long>(colour_ptr_.empty() ? 0 : colour_ptr_.size() - 1);
        s.quadratures = static_cast<long>(quad_.size());
        s.reinits = reinits_;
        return s;
    }

    std::string linearSolverName() const override { return sparse_ ? "sparse (KLU)" : "dense"; }

private:
    /// A serial vector with compiled operations (serial_vector_ops.h). CVODE clones its own
    /// work vectors from y_ and q_, operations included. Null if out of memory.
    N_Vector newVector(sunindextype length) const {
        N_Vector v = N_VNew_Serial(length, ctx_.get());
        if (v) useCompiledSerialOps(v);
        return v;
    }

    /// advance() with a step watch: CVODE one step at a time, each step's end reported, then
    /// x(tout) as CV_NORMAL gives it (the stop time's value, or the interpolant at tout once
    /// a step has passed it). CV_NORMAL runs the same steps; it only returns less often.
    int advanceWatched(double tout, double& tret) {
        double tn = t_;
        if (called_since_init_)
            check(CVodeGetCurrentTime(cvode_.get(), &tn), "CVodeGetCurrentTime");
        int flag = CV_SUCCESS;
        long steps = 0;
        while (tn < tout) {
            // CV_NORMAL's limit on the steps of one call.
            if (steps == options_.max_steps) return CV_TOO_MUCH_WORK;
            called_since_init_ = true;
            flag = CVode(cvode_.get(), tout, y_.get(), &tret, CV_ONE_STEP);
            if (flag < 0) return flag;
            ++steps;
            tn = tret;
            gatherWatched();
            if (tn <= tout) {
                watch_.observe(tn, watch_values_);
            } else {
                watch_pending_ = true;  // the next advance() reports it once it reaches tn
                watch_pending_t_ = tn;
            }
            if (flag == CV_TSTOP_RETURN) {
                if (q_) {
                    double tq = tret;
                    flag = CVodeGetQuad(cvode_.get(), &tq, q_.get());
                }
                return flag;
            }
        }
        flag = CVodeGetDky(cvode_.get(), tout, 0, y_.get());
        if (flag >= 0 && q_) flag = CVodeGetQuadDky(cvode_.get(), tout, 0, q_.get());
        tret = tout;
        return flag;
    }

    /// The watched states at the step just taken (y_ holds its end).
    void gatherWatched() {
        const double* y = N_VGetArrayPointer(y_.get());
        bool quads_read = false;
        for (std::size_t k = 0; k < watch_pos_.size(); ++k) {
            const std::ptrdiff_t p = watch_pos_[k];
            if (p >= 0) {
                watch_values_[k] = y[p];
                continue;
            }
            if (!quads_read) {
                double tq = 0.0;
                check(CVodeGetQuad(cvode_.get(), &tq, q_.get()), "CVodeGetQuad");
                quads_read = true;
            }
            watch_values_[k] = N_VGetArrayPointer(q_.get())[~p];
        }
    }

    /// See SolverOptions::newton_convergence_coef.
    double newtonConvergenceCoef() const {
        return options_.newton_convergence_coef > 0.0 ? options_.newton_convergence_coef : 0.1;
    }

    /// CVODE's Newton iteration with a convergence test that adds a per-state bound to
    /// CVODE's own (SolverOptions::newton_state_limit): CVODE's test runs first and keeps its
    /// bookkeeping (convergence rate, the correction norm the error test uses); the step is
    /// accepted only when both pass.
    void attachNewton() {
        if (options_.newton_state_limit <= 0.0) return;
        nls_.reset(SUNNonlinSol_Newton(y_.get(), ctx_.get()));
        if (!nls_) throw SolverError("could not create the Newton solver");
        check(CVodeSetNonlinearSolver(cvode_.get(), nls_.get()), "CVodeSetNonlinearSolver");
        // CVodeSetNonlinearSolver has installed CVODE's test; keep it and wrap it.
        auto* content = static_cast<SUNNonlinearSolverContent_Newton>(nls_->content);
        cvode_test_ = content->CTest;
        cvode_test_data_ = content->ctest_data;
        if (!cvode_test_) throw SolverError("CVODE installed no Newton convergence test");
        if (SUNNonlinSolSetConvTestFn(nls_.get(), &CvodeSolver::newtonTest, this) !=
            SUN_NLS_SUCCESS) {
            throw SolverError("SUNNonlinSolSetConvTestFn failed");
        }
    }

    /// CVODE's test (weighted RMS of the Newton update δ, scaled by the estimated convergence
    /// rate, against `tol`), then max_i |δ_i|·w_i · min(1, rate) ≤ L · tol with L the state
    /// limit. The RMS over m states dilutes one state's error by √m; the second test keeps any
    /// single state converged as an RMS over L² states would. The rate is estimated as CVODE
    /// does, from successive max norms of this solve.
    static int newtonTest(SUNNonlinearSolver nls, N_Vector ycor, N_Vector delta, sunrealtype tol,
                          N_Vector ewt, void* user) {
        auto* self = static_cast<CvodeSolver*>(user);
        const int rc = self->cvode_test_(nls, ycor, delta, tol, ewt, self->cvode_test_data_);
        const double* d = N_VGetArrayPointer(delta);
        const double* w = N_VGetArrayPointer(ewt);
        double dmax = 0.0;
        for (std::size_t i = 0; i < self->m_; ++i) dmax = std::max(dmax, std::abs(d[i]) * w[i]);
        int iter = 0;
        SUNNonlinSolGetCurIter(nls, &iter);
        if (iter == 0 || !(self->newton_dmax_prev_ > 0.0)) {
            self->newton_rate_ = 1.0;
        } else {
            self->newton_rate_ = std::max(0.3 * self->newton_rate_, dmax / self->newton_dmax_prev_);
        }
        self->newton_dmax_prev_ = dmax;
        self->newton_converged_seq_ = 0;
        if (rc != SUN_NLS_SUCCESS) return rc;
        const double limit = self->options_.newton_state_limit * tol;
        if (dmax * std::min(1.0, self->newton_rate_) <= limit) {
            self->newton_converged_seq_ = self->eval_seq_;
            self->newton_converged_evals_ = iter + 1;
            return SUN_NLS_SUCCESS;
        }
        return SUN_NLS_CONTINUE;
    }

    static int rhsCallback(sunrealtype t, N_Vector y, N_Vector ydot, void* user) {
        auto* self = static_cast<CvodeSolver*>(user);
        const int rc = self->evalCore(t, N_VGetArrayPointer(y), N_VGetArrayPointer(ydot));
        // Whole evaluations only: the meters' derivatives in full_dx_ are this point's.
        self->full_eval_seq_ = self->eval_seq_;
        self->full_eval_t_ = t;
        return rc;
    }

    static int quadCallback(sunrealtype t, N_Vector y, N_Vector qdot, void* user) {
        auto* self = static_cast<CvodeSolver*>(user);
        double* out = N_VGetArrayPointer(qdot);
        const double* dx = self->full_dx_.data();
        if (self->quadFromLastIterate(t)) {
            // The meters' derivatives at the Newton iteration's last evaluated point. CVODE
            // asks for them at the corrected state y_n = y^(k) + δ_k; the last update δ_k of
            // an iteration that needed a second pass is below its convergence bound (the
            // rate-scaled δ within a tenth of the error test's, every state within √48 of
            // that), so the meters read a point that differs from y_n by less than the step's
            // own error allowance, and a whole evaluation is saved per step (issue 12).
            ++self->quad_reused_;
            for (std::size_t k = 0; k < self->quad_.size(); ++k) out[k] = dx[self->quad_[k]];
            return 0;
        }
        // Every output, but only the meters' own derivatives: the Newton states' were not
        // asked for.
        const int rc =
            self->evalFullFromCore(t, N_VGetArrayPointer(y), {RhsPart::Rows, self->quad_});
        for (std::size_t k = 0; k < self->quad_.size(); ++k) out[k] = dx[self->quad_[k]];
        return rc;
    }

    /// Whether the last evaluation was a whole one at time t by a Newton iteration that then
    /// converged after at least two evaluations. After one only, the point evaluated is the
    /// predictor, as far from y_n as the step's whole correction: the meters are evaluated
    /// at y_n then.
    bool quadFromLastIterate(double t) const {
        return newton_converged_seq_ == eval_seq_ && full_eval_seq_ == eval_seq_ &&
               newton_converged_evals_ >= 2 && full_eval_t_ == t;
    }

    /// The full rhs (or a part) from the Newton states; the quadratures' slots in full_x_
    /// keep their last values (no derivative reads them, by their definition).
    int evalFullFromCore(double t, const double* y, RhsPart part = {}) noexcept {
        for (std::size_t k = 0; k < m_; ++k) full_x_[core_[k]] = y[k];
        return evalRhs(t, full_x_.data(), full_dx_.data(), part);
    }

    int evalCore(double t, const double* y, double* ydot, RhsPart part = {}) noexcept {
        if (quad_.empty()) return evalRhs(t, y, ydot, part);
        const int rc = evalFullFromCore(t, y, part);
        for (std::size_t k = 0; k < m_; ++k) ydot[k] = full_dx_[core_[k]];
        return rc;
    }

    static int jacobianCallback(sunrealtype t, N_Vector y, N_Vector fy, SUNMatrix J, void* user,
                                N_Vector tmp1, N_Vector tmp2, N_Vector /*tmp3*/) {
        return static_cast<CvodeSolver*>(user)->finiteDifferenceJacobian(t, y, fy, J, tmp1, tmp2);
    }

    static void errorHandler(int code, const char* module, const char* function, char* msg,
                             void* user) {
        auto* self = static_cast<CvodeSolver*>(user);
        // Warnings (code > 0) are kept only if no error message follows them.
        if (code < 0 || self->last_message_.empty()) {
            self->last_message_ = fmt::format("{} {}: {}", module ? module : "",
                                              function ? function : "", msg ? msg : "");
        }
    }

    /// Never lets an exception reach C code: it is stored and rethrown once CVode returns.
    int evalRhs(double t, const double* y, double* ydot, RhsPart part = {}) noexcept {
        ++eval_seq_;
        try {
            const std::span<const double> x(y, n_);
            const std::span<double> dx(ydot, n_);
            switch (part.kind) {
                case RhsPart::All:
                    problem_.rhs(t, x, dx);
                    break;
                case RhsPart::Rows:
                    problem_.rhsRows(t, x, part.rows, dx);
                    break;
                case RhsPart::Base:
                    problem_.rhsBase(t, x, dx);
                    break;
                case RhsPart::Group:
                    problem_.rhsGroup(t, x, part.group, dx);
                    break;
            }
        } catch (const Error&) {
            // A trial state outside a model's valid range (a property table, say) during a
            // too-long step: recoverable first, so CVODE retries with a smaller step; if it
            // persists at one time, the model itself left its range and the error stands.
            // Any of the project's errors, not only ModelError: a component checks its input
            // ports with InputError (a pump speed, a valve opening), and a Newton iterate is
            // no user's input. Until 2026-12-05 one such iterate (a CDU's facility supply at
            // 216 °C, 14 July days of Phoenix with four trim chillers) ended the run as "bad
            // input", exit 2. A persistent error is still rethrown as it was raised.
            pending_ = std::current_exception();
            const double resolution =
                64.0 * std::numeric_limits<double>::epsilon() * std::max(1.0, std::abs(t));
            const bool same_time = model_error_t_ && std::abs(t - *model_error_t_) <= resolution;
            model_error_repeats_ = same_time ? model_error_repeats_ + 1 : 1;
            model_error_t_ = t;
            pending_recoverable_ = model_error_repeats_ <= 10;
            return pending_recoverable_ ? 1 : -1;
        } catch (...) {
            pending_ = std::current_exception();
            pending_recoverable_ = false;
            return -1;
        }
        // Entries a part leaves alone hold values an earlier evaluation checked.
        const bool rows = part.kind == RhsPart::Rows;
        const std::size_t checked = rows ? part.rows.size() : n_;
        for (std::size_t r = 0; r < checked; ++r) {
            const std::size_t i = rows ? part.rows[r] : r;
            if (!std::isfinite(ydot[i])) {
                // Recoverable first: CVODE retries with a smaller step. But once the step has
                // shrunk below the resolution of t, CVODE keeps "stepping" in place until
                // max_steps; repeated failures at one time mean cutting cannot help.
                const double resolution =
                    64.0 * std::numeric_limits<double>::epsilon() * std::max(1.0, std::abs(t));
                const bool same_time = nonfinite_ && std::abs(t - nonfinite_->t) <= resolution;
                const int repeats = same_time ? nonfinite_->repeats + 1 : 1;
                nonfinite_ = NonFinite{t, i, ydot[i], y[i], repeats};
                return repeats > 20 ? -1 : 1;
            }
        }
        return 0;
    }

    int finiteDifferenceJacobian(double t, N_Vector y, N_Vector fy, SUNMatrix J, N_Vector tmp1,
                                 N_Vector tmp2) noexcept {
        const double* yv = N_VGetArrayPointer(y);
        const double* f0 = N_VGetArrayPointer(fy);
        double* yp = N_VGetArrayPointer(tmp1);
        double* fp = N_VGetArrayPointer(tmp2);
        sunindextype* colptr = SUNSparseMatrix_IndexPointers(J);
        sunindextype* rowval = SUNSparseMatrix_IndexValues(J);
        double* data = SUNSparseMatrix_Data(J);
        // CVODE zeroes the whole matrix, structure included, before each call.
        std::copy(pattern_.col_ptr.begin(), pattern_.col_ptr.end(), colptr);
        std::copy(pattern_.row_index.begin(), pattern_.row_index.end(), rowval);
        std::copy(yv, yv + m_, yp);
        if (partial_colours_) {
            // The base point the colours' partial evaluations start from (one evaluation;
            // CVODE's fy stays the reference the differences are taken against).
            const int rc = evalCore(t, yv, fp, {RhsPart::Base});
            ++fd_rhs_evals_;
            if (rc != 0) return rc;
        }
        static const double sqrt_eps = std::sqrt(std::numeric_limits<double>::epsilon());
        for (std::size_t c = 0; c + 1 < colour_ptr_.size(); ++c) {
            for (std::size_t k = colour_ptr_[c]; k < colour_ptr_[c + 1]; ++k) {
                const std::size_t j = colour_cols_[k];
                const double h = sqrt_eps * std::max(std::abs(yv[j]), nominal_[core_[j]]);
                yp[j] = yv[j] + h;
                step_[j] = yp[j] - yv[j];  // the step actually taken after rounding
            }
            // Only what the colour's states reach (System::perturbation), when the problem
            // can: at campus scale a colour moves one state of about a third of the racks.
            const int rc = partial_colours_ ? evalCore(t, yp, fp, {RhsPart::Group, {}, c})
                                            : evalCore(t, yp, fp);
            ++fd_rhs_evals_;
            if (rc != 0) return rc;
            // A shared (dense) row sees the sum of its entries over this colour's columns;
            // shareStep_ gathers the steps so that sum can be split below.
            for (std::size_t d : dense_rows_) share_step_[d] = 0.0;
            for (std::size_t k = colour_ptr_[c]; k < colour_ptr_[c + 1]; ++k) {
                const std::size_t j = colour_cols_[k];
                for (auto p = pattern_.col_ptr[j]; p < pattern_.col_ptr[j + 1]; ++p) {
                    const auto i = static_cast<std::size_t>(pattern_.row_index[p]);
                    if (is_dense_row_[i] && i != j) share_step_[i] += step_[j];
                }
            }
            for (std::size_t k = colour_ptr_[c]; k < colour_ptr_[c + 1]; ++k) {
                const std::size_t j = colour_cols_[k];
                for (auto p = pattern_.col_ptr[j]; p < pattern_.col_ptr[j + 1]; ++p) {
                    const auto i = static_cast<std::size_t>(pattern_.row_index[p]);
                    // Exact for an ordinary row and a dense row's diagonal. For a dense row's
                    // off-diagonal entries the colour's columns are taken to weigh equally:
                    // exact when they do (a mixer's identical branches, a pipe node fed by like
                    // racks), and the row's directional derivative is exact in any case.
                    // (A meter would drift under such a row: nothing pulls an integral back.
                    // That is why meters are quadratures, not dense rows.)
                    // Newton needs only an approximate Jacobian; accuracy is set by the
                    // error test, not by J.
                    const double denom = (is_dense_row_[i] && i != j) ? share_step_[i] : step_[j];
                    data[p] = (fp[i] - f0[i]) / denom;
                }
                yp[j] = yv[j];
            }
        }
        return 0;
    }

    /// Greedy colouring: a column takes the lowest colour not used by any column it shares a
    /// row with, except through dense rows. A row with more than options_.dense_row_limit
    /// entries (a facility-water pipe node fed by every CDU) would otherwise force one colour
    /// per column in it, i.e. one rhs evaluation per rack per Jacobian, O(n²) in racks
    /// (issue 12; the meters, the other dense rows, are quadratures and not in the pattern).
    /// Through a dense row only its own column is kept apart from the others, so its diagonal stays
    /// exact; its off-diagonal entries are shared out (see above).
    void colour() {
        const std::size_t n = m_;
        // Row → columns (transpose of the CSC pattern).
        std::vector<std::size_t> row_ptr(n + 1, 0), row_cols(pattern_.nnz());
        for (auto r : pattern_.row_index) ++row_ptr[static_cast<std::size_t>(r) + 1];
        std::partial_sum(row_ptr.begin(), row_ptr.end(), row_ptr.begin());
        {
            std::vector<std::size_t> fill(row_ptr.begin(), row_ptr.end() - 1);
            for (std::size_t j = 0; j < n; ++j) {
                for (auto p = pattern_.col_ptr[j]; p < pattern_.col_ptr[j + 1]; ++p) {
                    row_cols[fill[static_cast<std::size_t>(pattern_.row_index[p])]++] = j;
                }
            }
        }
        is_dense_row_.assign(n, 0);
        dense_rows_.clear();
        for (std::size_t r = 0; r < n; ++r) {
            const std::size_t limit = options_.dense_row_limit;
            if (limit > 0 && row_ptr[r + 1] - row_ptr[r] > limit) {
                is_dense_row_[r] = 1;
                dense_rows_.push_back(r);
            }
        }
        share_step_.assign(n, 0.0);
        constexpr std::size_t none = std::numeric_limits<std::size_t>::max();
        std::vector<std::size_t> col_colour(n, none);
        std::vector<std::size_t> forbidden_by;  // colour → last column that forbade it
        std::size_t colours = 0;
        for (std::size_t j = 0; j < n; ++j) {
            auto forbid = [&](std::size_t col) {
                const std::size_t c = col_colour[col];
                if (c != none) forbidden_by[c] = j;
            };
            for (auto p = pattern_.col_ptr[j]; p < pattern_.col_ptr[j + 1]; ++p) {
                const auto r = static_cast<std::size_t>(pattern_.row_index[p]);
                if (is_dense_row_[r] && r != j) {
                    forbid(r);  // keep apart from the row's own column only
                    continue;
                }
                for (std::size_t q = row_ptr[r]; q < row_ptr[r + 1]; ++q) forbid(row_cols[q]);
            }
            std::size_t c = 0;
            while (c < colours && forbidden_by[c] == j) ++c;
            if (c == colours) {
                ++colours;
                forbidden_by.push_back(none);
            }
            col_colour[j] = c;
        }
        colour_ptr_.assign(colours + 1, 0);
        for (std::size_t c : col_colour) ++colour_ptr_[c + 1];
        std::partial_sum(colour_ptr_.begin(), colour_ptr_.end(), colour_ptr_.begin());
        colour_cols_.resize(n);
        std::vector<std::size_t> fill(colour_ptr_.begin(), colour_ptr_.end() - 1);
        for (std::size_t j = 0; j < n; ++j) colour_cols_[fill[col_colour[j]]++] = j;
        step_.assign(n, 0.0);
        std::vector<std::vector<std::size_t>> groups(colours);
        for (std::size_t c = 0; c < colours; ++c) {
            for (std::size_t k = colour_ptr_[c]; k < colour_ptr_[c + 1]; ++k) {
                groups[c].push_back(core_[colour_cols_[k]]);
            }
            std::sort(groups[c].begin(), groups[c].end());
        }
        partial_colours_ = problem_.prepareGroups(groups);
    }

    void accumulate(SolverStats& s) const {
        long v = 0;
        void* mem = cvode_.get();
        if (CVodeGetNumSteps(mem, &v) == CV_SUCCESS) s.steps += v;
        if (CVodeGetNumRhsEvals(mem, &v) == CV_SUCCESS) s.rhs_evals += v;
        if (CVodeGetNumLinRhsEvals(mem, &v) == CV_SUCCESS) s.rhs_evals += v;  // dense DQ
        if (q_ && CVodeGetQuadNumRhsEvals(mem, &v) == CV_SUCCESS) s.rhs_evals += v;
        if (CVodeGetNumJacEvals(mem, &v) == CV_SUCCESS) s.jacobian_evals += v;
        if (CVodeGetNumLinSolvSetups(mem, &v) == CV_SUCCESS) s.factorizations += v;
        if (CVodeGetNumErrTestFails(mem, &v) == CV_SUCCESS) s.error_test_failures += v;
        if (CVodeGetNumNonlinSolvConvFails(mem, &v) == CV_SUCCESS) s.convergence_failures += v;
    }

    void check(int flag, const char* what) const {
        if (flag >= 0) return;
        throw SolverError(fmt::format("{} failed ({}){}{}", what, flagName(flag),
                                      last_message_.empty() ? "" : ": ", last_message_));
    }

    std::string failureMessage(int flag, double t) {
        std::string msg = fmt::format("integration failed at t = {:.9g} s ({}", t, flagName(flag));
        if (!last_message_.empty()) msg += fmt::format(": {}", last_message_);
        msg += ").";
        if (nonfinite_) {
            msg += fmt::format(
                " The right-hand side gave d/dt '{}' = {} at t = {:.9g} s (state "
                "value {:.6g}).",
                problem_.stateName(nonfinite_->state), nonfinite_->value, nonfinite_->t,
                nonfinite_->x);
        }
        // Weighted local error = what the error test compares with 1; its largest entries
        // point at the states that forced the step size down.
        if (CVodeGetEstLocalErrors(cvode_.get(), ele_.get()) == CV_SUCCESS &&
            CVodeGetErrWeights(cvode_.get(), ewt_.get()) == CV_SUCCESS) {
            const double* ele = N_VGetArrayPointer(ele_.get());
            const double* ewt = N_VGetArrayPointer(ewt_.get());
            const double* y = N_VGetArrayPointer(y_.get());
            std::vector<std::pair<double, std::size_t>> err(m_);
            for (std::size_t i = 0; i < m_; ++i) {
                const double e = std::abs(ele[i] * ewt[i]);
                err[i] = {std::isnan(e) ? std::numeric_limits<double>::infinity() : e, i};
            }
            std::size_t k = std::min<std::size_t>(5, m_);
            std::partial_sort(err.begin(), err.begin() + static_cast<std::ptrdiff_t>(k), err.end(),
                              [](const auto& a, const auto& b) { return a > b; });
            if (err.front().first == 0.0) {
                // Happens when the step failed in the rhs or the Newton iteration, before its
                // error test: there is no ranking to report.
                msg += " No local error estimate (the step failed before its error test).";
                k = 0;
            } else {
                msg += " States with the largest weighted local error:";
            }
            for (std::size_t r = 0; r < k; ++r) {
                const std::size_t i = err[r].second;
                msg += fmt::format("{} {} (error {:.3g}, value {:.6g})", r ? "," : "",
                                   problem_.stateName(core_[i]), err[r].first, y[i]);
            }
            if (k > 0) msg += ".";
        } else if (nonfinite_ == std::nullopt && n_ > 0 && isRhsFailure(flag)) {
            msg += " The model's right-hand side failed.";
        }
        msg += fmt::format(" Likely cause: {}.",
                           nonfinite_ ? likelyCause(CV_RHSFUNC_FAIL) : likelyCause(flag));
        return msg;
    }

    struct NonFinite {
        double t;
        std::size_t state;
        double value;
        double x;
        int repeats;  // consecutive failures at (about) this time
    };

    OdeProblem& problem_;
    SolverOptions options_;
    std::size_t n_;                         // all states
    std::size_t m_ = 0;                     // Newton states
    std::vector<std::size_t> core_, quad_;  // state indices of each kind, ascending
    bool partial_colours_ =
        false;  // the problem evaluates Jacobian colours partially (prepareGroups)
    std::vector<double> full_x_, full_dx_;  // all states, for the problem's rhs
    bool sparse_ = false;
    std::vector<double> nominal_;

    // Declaration order is destruction order reversed: CVODE goes first, the context last.
    ContextPtr ctx_;
    VectorPtr y_, abstol_, ele_, ewt_;  // over the Newton states core_
    VectorPtr q_, qabstol_;             // over the quadratures quad_ (null when none)
    MatrixPtr matrix_;
    LinSolPtr linsol_;
    NonlinSolPtr nls_;  // before cvode_: CVODE uses it until freed, and does not free it
    SUNNonlinSolConvTestFn cvode_test_ = nullptr;  // CVODE's own Newton test, wrapped
    void* cvode_test_data_ = nullptr;
    double newton_rate_ = 1.0, newton_dmax_prev_ = 0.0;  // newtonTest's rate estimate
    // Which evaluation was last (eval_seq_ counts them all), which was the last whole one
    // from rhsCallback and at what time, and after which one a Newton iteration converged and
    // how many evaluations it took: quadFromLastIterate().
    std::uint64_t eval_seq_ = 0, full_eval_seq_ = 0, newton_converged_seq_ = 0;
    double full_eval_t_ = 0.0;
    int newton_converged_evals_ = 0;
    long quad_reused_ = 0;  // quadrature calls answered from the last Newton iterate
    CvodePtr cvode_;

    SparsityPattern pattern_;
    std::vector<std::size_t> colour_ptr_, colour_cols_;  // columns grouped by colour
    std::vector<double> step_;                           // FD step per column
    std::vector<char> is_dense_row_;                     // row → 1 if left out of the colouring
    std::vector<std::size_t> dense_rows_;
    std::vector<double> share_step_;  // dense row → sum of this colour's steps in it

    bool initialized_ = false;
    bool called_since_init_ = false;  // CVode ran since the last (re)init
    double t_ = 0.0;                  // time of x_
    std::vector<double> x_;
    SolverStats base_;  // counters from before the last reinit
    long reinits_ = 0;
    long fd_rhs_evals_ = 0;

    std::string last_message_;
    std::optional<NonFinite> nonfinite_;
    std::exception_ptr pending_;
    bool pending_recoverable_ = false;
    StepWatch watch_;
    std::vector<std::ptrdiff_t> watch_pos_;  // watched state → y_ position, or ~q_ position
    std::vector<double> watch_values_;
    bool watch_pending_ = false;  // a step end past the last tout, in watch_values_
    double watch_pending_t_ = 0.0;
    std::optional<double> model_error_t_;  // [s] time of the last recoverable model error
    int model_error_repeats_ = 0;
};

}  // namespace

std::unique_ptr<OdeSolver> makeCvodeSolver(OdeProblem& problem, const SolverOptions& options) {
    return std::make_unique<CvodeSolver>(problem, options);
}

}  // namespace dctwin
