#pragma once
// KLU for CVODE's Newton matrix, with a pivot test that does not depend on the states' units
// (issue 12). Part of the CVODE adapter: only core/solver/ and its tests include this header.
//
// Why: SUNDIALS' KLU module (SUNLinSol_KLU) refactors M = I − γJ on the pivot sequence of its
// last factorisation and then checks KLU's cheap reciprocal-condition estimate, rcond =
// min|U_kk| / max|U_kk|. Below ε^(2/3) ≈ 3.7e-11 it computes klu_condest and, above 1/ε^(2/3),
// throws the refactorisation away and factors afresh with new pivots. That absolute threshold
// judges the matrix's units as much as its pivots. The reference site's energy meters are
// Newton states in joules (nominal 3e14) whose rows hold power derivatives of 1e9 W/K beside
// temperatures near 300 K: rcond sits near 1e-12 at every setup, fresh pivots or not (a
// Jacobian of the annual 64-rack run: 1-norm condition 3e11 row-scaled, 4e4 in the states'
// nominal units). On that run 5,536 of 5,839 setups estimated the condition number and
// factored afresh, 9.7 % of all instructions, and changed nothing.
//
// The test here adds one condition to the module's: a refactorisation whose rcond is below
// ε^(2/3) is thrown away only if its rcond has also fallen below kKluStalePivotRatio times the
// rcond of the factorisation that chose the pivots, i.e. only if the old pivot sequence has
// grown worse for the new values than fresh pivoting was. A low rcond that fresh pivots gave
// as well is the matrix's units, and a fresh factorisation would not change it. klu_condest is
// not needed. A zero pivot on the old sequence also factors afresh. The first setup is the
// module's own: ordering, then factorisation; solves are the module's. A re-initialisation
// (CVODE restarts at every discontinuity) keeps the ordering, which depends on the pattern
// alone, and factors afresh: the module would order the same pattern again (COLAMD, 13.5 × 10⁶
// instructions a time at 1,390 racks) and then factor the same way. So pivots are chosen
// afresh at least at every restart (55 a week in bench case 5), which bounds how long a
// sequence chosen on unrepresentative values can live. Wherever the module kept its
// refactorisations, this solver keeps the same ones, bit for bit.
//
// Scaling the columns by the nominal values instead (factor M·D, solve for D⁻¹x) passes the
// module's test too, but changes KLU's row scaling and with it the pivots: on the 1,390-rack
// annual run (bench case 5) that took Newton from 73 to 260–305 convergence failures (+8.5 %
// right-hand sides), so the matrix KLU factors is left as CVODE forms it.
#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>
#include <sundials/sundials_nvector.h>

#include <cmath>
#include <limits>

namespace dctwin {

/// SUNDIALS' threshold on rcond after a refactorisation, ε^(2/3).
inline const double kKluLowRcond =
    std::cbrt(std::numeric_limits<double>::epsilon() * std::numeric_limits<double>::epsilon());
/// Below kKluLowRcond, a refactorisation is still kept while rcond ≥ this × the rcond of the
/// factorisation that chose the pivots.
inline constexpr double kKluStalePivotRatio = 1e-3;

struct KluStats {
    long analyses = 0;          // symbolic analyses (orderings): one per solver
    long factorizations = 0;    // fresh numeric factorisations (first setups included)
    long refactorizations = 0;  // refactorisations on the kept pivot sequence
};

/// SUNLinSol_KLU for y and the CSC sparse matrix A, with the relative pivot test above.
/// Null if out of memory. Free with SUNLinSolFree.
SUNLinearSolver kluSolver(N_Vector y, SUNMatrix A, SUNContext ctx);

/// Counts of `S`'s setups by kind (S from kluSolver).
KluStats kluStats(SUNLinearSolver S);

}  // namespace dctwin
