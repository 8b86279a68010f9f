#include "core/solver/klu_solver.h"

#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <cmath>
#include <limits>
#include <new>

namespace dctwin {
namespace {

struct Content {
    SUNLinearSolver klu;       // SUNDIALS' KLU module: analysis, first factorisation, solves
    double pivot_ratio = 0.0;  // KLU's rcond (min/max |U_kk|) when the pivots were chosen
    bool fresh_next = false;   // re-initialised: the next setup factors afresh
    KluStats stats;
};

Content& content(SUNLinearSolver S) { return *static_cast<Content*>(S->content); }
SUNLinearSolver klu(SUNLinearSolver S) { return content(S).klu; }
SUNLinearSolverContent_KLU kluContent(SUNLinearSolver S) {
    return static_cast<SUNLinearSolverContent_KLU>(klu(S)->content);
}

SUNLinearSolver_Type getType(SUNLinearSolver S) { return SUNLinSolGetType(klu(S)); }
SUNLinearSolver_ID getId(SUNLinearSolver S) { return SUNLinSolGetID(klu(S)); }
int initialize(SUNLinearSolver S) {
    // CVODE initialises its linear solver at every (re)start. The module then forgets its
    // symbolic analysis and orders the pattern again (COLAMD), though the pattern is the
    // same; only the numeric factorisation is redone here, as the module would after its
    // analysis (which depends on the pattern alone), so the factors are the same.
    SUNLinearSolverContent_KLU k = kluContent(S);
    if (!k->symbolic) return SUNLinSolInitialize(klu(S));
    content(S).fresh_next = true;
    k->last_flag = SUNLS_SUCCESS;
    return SUNLS_SUCCESS;
}

/// After a factorisation with fresh pivots: the rcond later refactorisations are judged by.
void rememberPivots(SUNLinearSolver S) {
    SUNLinearSolverContent_KLU k = kluContent(S);
    sun_klu_rcond(k->symbolic, k->numeric, &k->common);
    content(S).pivot_ratio = k->common.rcond;
}

/// Fresh pivots: KLU's numeric factorisation from scratch on A, with the symbolic analysis kept.
int factorAfresh(SUNLinearSolver S, SUNMatrix A) {
    Content& c = content(S);
    SUNLinearSolverContent_KLU k = kluContent(S);
    if (k->numeric) sun_klu_free_numeric(&k->numeric, &k->common);
    k->numeric = sun_klu_factor(SUNSparseMatrix_IndexPointers(A), SUNSparseMatrix_IndexValues(A),
                                SUNSparseMatrix_Data(A), k->symbolic, &k->common);
    ++c.stats.factorizations;
    if (!k->numeric) {
        k->last_flag = SUNLS_PACKAGE_FAIL_REC;
        return SUNLS_PACKAGE_FAIL_REC;
    }
    rememberPivots(S);
    k->last_flag = SUNLS_SUCCESS;
    return SUNLS_SUCCESS;
}

int setup(SUNLinearSolver S, SUNMatrix A) {
    Content& c = content(S);
    SUNLinearSolverContent_KLU k = kluContent(S);
    if (k->first_factorize || !k->symbolic) {
        // The module's own first setup: symbolic analysis (ordering) and a factorisation.
        const int rc = SUNLinSolSetup(klu(S), A);
        ++c.stats.analyses;
        ++c.stats.factorizations;
        if (rc == SUNLS_SUCCESS && k->numeric) rememberPivots(S);
        return rc;
    }
    if (c.fresh_next || !k->numeric) {  // a restart, or the last fresh factorisation failed
        c.fresh_next = false;
        return factorAfresh(S, A);
    }
    // Later setups reuse the pivot sequence (klu_refactor), as the module does.
    const auto ok =
        sun_klu_refactor(SUNSparseMatrix_IndexPointers(A), SUNSparseMatrix_IndexValues(A),
                         SUNSparseMatrix_Data(A), k->symbolic, k->numeric, &k->common);
    ++c.stats.refactorizations;
    if (!ok) return factorAfresh(S, A);  // a zero pivot on the old sequence
    sun_klu_rcond(k->symbolic, k->numeric, &k->common);
    // The module's threshold, and (new) only when the pivots have degraded since they were
    // chosen: a low rcond that fresh pivots gave as well is the matrix's units, not staleness.
    const double rcond = k->common.rcond;
    if (rcond < kKluLowRcond && rcond < kKluStalePivotRatio * c.pivot_ratio) {
        return factorAfresh(S, A);
    }
    k->last_flag = SUNLS_SUCCESS;
    return SUNLS_SUCCESS;
}

int solve(SUNLinearSolver S, SUNMatrix A, N_Vector x, N_Vector b, double tol) {
    return SUNLinSolSolve(klu(S), A, x, b, tol);
}

sunindextype lastFlag(SUNLinearSolver S) { return SUNLinSolLastFlag(klu(S)); }

int space(SUNLinearSolver S, long* lenrw, long* leniw) {
    return SUNLinSolSpace(klu(S), lenrw, leniw);
}

int freeSolver(SUNLinearSolver S) {
    if (!S) return SUNLS_SUCCESS;
    if (S->content) {
        SUNLinSolFree(klu(S));
        delete static_cast<Content*>(S->content);
        S->content = nullptr;
    }
    SUNLinSolFreeEmpty(S);
    return SUNLS_SUCCESS;
}

}  // namespace

SUNLinearSolver kluSolver(N_Vector y, SUNMatrix A, SUNContext ctx) {
    SUNLinearSolver inner = SUNLinSol_KLU(y, A, ctx);
    if (!inner) return nullptr;
    SUNLinearSolver S = SUNLinSolNewEmpty(ctx);
    Content* c = S ? new (std::nothrow) Content{inner} : nullptr;
    if (!c) {
        SUNLinSolFree(inner);
        if (S) SUNLinSolFreeEmpty(S);
        return nullptr;
    }
    S->content = c;
    S->ops->gettype = getType;
    S->ops->getid = getId;
    S->ops->initialize = initialize;
    S->ops->setup = setup;
    S->ops->solve = solve;
    S->ops->lastflag = lastFlag;
    S->ops->space = space;
    S->ops->free = freeSolver;
    return S;
}

KluStats kluStats(SUNLinearSolver S) { return content(S).stats; }

}  // namespace dctwin
