// The CVODE adapter's KLU solver (core/solver/klu_solver.h) against SUNDIALS' own KLU module:
// the same solutions, bit for bit, where the module keeps its refactorisations; a Newton matrix
// whose units differ by 1e12 (two temperatures and an energy meter, as in the annual reference
// run) refactored instead of re-pivoted at every setup; and a pivot sequence gone stale still
// replaced by fresh pivots.
#include "core/solver/klu_solver.h"

#include <gtest/gtest.h>
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <algorithm>
#include <functional>
#include <vector>

#include "sundials_context.h"

namespace dctwin {
namespace {

using Context = test::SundialsContext;

/// A dense n×n pattern in CSC whose values `values(setup)` gives column by column.
using Values = std::function<std::vector<double>(int setup)>;

struct Outcome {
    std::vector<std::vector<double>> x;  // the solution after each setup
    KluStats stats;                      // this solver's counts (ours only)
    double condest = 0.0;                // KLU's condest after the last setup (0: not computed)
};

/// `setups` setups of the solver on successive values, each followed by a solve of M x = M·x*;
/// before the setups listed in `restarts` the solver is initialised again, as CVODE does when
/// it restarts at a discontinuity.
Outcome run(bool ours, int n, const Values& values, const std::vector<double>& exact, int setups,
            const std::vector<int>& restarts = {}) {
    Context c;
    SUNMatrix A = SUNSparseMatrix(n, n, n * n, CSC_MAT, c.ctx);
    N_Vector x = N_VNew_Serial(n, c.ctx), b = N_VNew_Serial(n, c.ctx);
    SUNLinearSolver S = ours ? kluSolver(x, A, c.ctx) : SUNLinSol_KLU(x, A, c.ctx);
    EXPECT_EQ(SUNLinSolInitialize(S), SUNLS_SUCCESS);
    Outcome o;
    for (int s = 0; s < setups; ++s) {
        sunindextype* col = SUNSparseMatrix_IndexPointers(A);
        sunindextype* row = SUNSparseMatrix_IndexValues(A);
        double* v = SUNSparseMatrix_Data(A);
        const std::vector<double> m = values(s);
        for (int j = 0; j <= n; ++j) col[j] = j * n;
        for (int p = 0; p < n * n; ++p) {
            row[p] = p % n;
            v[p] = m[p];
        }
        for (int i = 0; i < n; ++i) NV_Ith_S(b, i) = 0.0;
        for (int j = 0; j < n; ++j) {
            for (int i = 0; i < n; ++i) NV_Ith_S(b, i) += m[j * n + i] * exact[j];
        }
        if (std::find(restarts.begin(), restarts.end(), s) != restarts.end()) {
            EXPECT_EQ(SUNLinSolInitialize(S), SUNLS_SUCCESS);
        }
        if (!ours) SUNLinSol_KLUGetCommon(S)->condest = 0.0;
        EXPECT_EQ(SUNLinSolSetup(S, A), SUNLS_SUCCESS) << "setup " << s;
        EXPECT_EQ(SUNLinSolSolve(S, A, x, b, 0.0), SUNLS_SUCCESS) << "solve " << s;
        o.x.emplace_back(N_VGetArrayPointer(x), N_VGetArrayPointer(x) + n);
    }
    if (ours) {
        o.stats = kluStats(S);
    } else {
        o.condest = SUNLinSol_KLUGetCommon(S)->condest;
    }
    SUNLinSolFree(S);
    N_VDestroy(x);
    N_VDestroy(b);
    SUNMatDestroy(A);
    return o;
}

void expectSolved(const Outcome& o, const std::vector<double>& exact, double rel) {
    for (const auto& x : o.x) {
        for (std::size_t i = 0; i < exact.size(); ++i) {
            EXPECT_NEAR(x[i], exact[i], rel * std::abs(exact[i])) << "unknown " << i;
        }
    }
}

TEST(KluSolver, SameSolutionsAsTheModuleWhereItKeepsItsRefactorisations) {
    // A well-conditioned 4×4 M = I − γJ (diffusion between four nodes) at four values of γ.
    const std::vector<double> exact{310.0, 305.0, 300.0, 298.0};
    const Values m = [](int s) {
        const double g = 10.0 * (1 + s);
        std::vector<double> v(16, 0.0);
        for (int j = 0; j < 4; ++j) {
            for (int i = 0; i < 4; ++i) {
                const double J = i == j ? -0.1 * (1 + (i == 1 || i == 2)) : (std::abs(i - j) == 1);
                v[j * 4 + i] = (i == j ? 1.0 : 0.0) - g * 0.1 * J;
            }
        }
        return v;
    };
    const Outcome ours = run(true, 4, m, exact, 4);
    const Outcome module = run(false, 4, m, exact, 4);
    EXPECT_EQ(ours.stats.factorizations, 1);
    EXPECT_EQ(ours.stats.refactorizations, 3);
    EXPECT_EQ(module.condest, 0.0);  // the module too kept every refactorisation
    ASSERT_EQ(ours.x.size(), module.x.size());
    for (std::size_t s = 0; s < ours.x.size(); ++s) {
        for (int i = 0; i < 4; ++i) EXPECT_EQ(ours.x[s][i], module.x[s][i]);  // bit for bit
    }
    expectSolved(ours, exact, 1e-13);
}

TEST(KluSolver, ARestartFactorsAfreshWithoutOrderingThePatternAgain) {
    // Five setups with restarts before the third and fifth: the module orders the pattern
    // three times and factors afresh at each restart; this solver orders it once and factors
    // afresh at the same setups, so every solution is the module's bit for bit. The matrix
    // (a 5-node chain whose coupling grows with each setup, and a corner entry that grows)
    // leaves the module refactoring in between.
    const std::vector<double> exact{310.0, 305.0, 300.0, 298.0, 296.0};
    const Values m = [](int s) {
        std::vector<double> v(25, 0.0);
        const double c = 0.3 * (1 + s);
        for (int j = 0; j < 5; ++j) {
            for (int i = 0; i < 5; ++i) {
                v[j * 5 + i] = i == j ? 1.0 + 2.0 * c + 0.1 * i : std::abs(i - j) == 1 ? -c : 0.0;
            }
        }
        v[0 * 5 + 4] = 0.01 * s;
        return v;
    };
    const Outcome ours = run(true, 5, m, exact, 5, {2, 4});
    const Outcome module = run(false, 5, m, exact, 5, {2, 4});
    EXPECT_EQ(ours.stats.analyses, 1);
    EXPECT_EQ(ours.stats.factorizations, 3);  // the first setup and the two restarts
    EXPECT_EQ(ours.stats.refactorizations, 2);
    ASSERT_EQ(ours.x.size(), module.x.size());
    for (std::size_t s = 0; s < ours.x.size(); ++s) {
        for (int i = 0; i < 5; ++i) EXPECT_EQ(ours.x[s][i], module.x[s][i]) << s << " " << i;
    }
    expectSolved(ours, exact, 1e-13);
}

TEST(KluSolver, AMatrixLowInRcondByItsUnitsIsRefactoredNotRepivoted) {
    // M = I − γJ for two coolant temperatures T1, T2 [K] exchanging heat (time constants of
    // 25 s) and a meter E [J] integrating 1e9·T1 + 2e9·T2 [W], at γ = 1,800 s (an annual step)
    // and 10 % more at each later setup:
    //   M = [  73      −72    0 ]
    //       [ −72      145    0 ]
    //       [ −1.8e12 −3.6e12 1 ]   (columns T1, T2, E)
    // Row-scaled, E's pivot is 1/3.6e12 ≈ 2.8e-13 of the largest, below ε^(2/3) ≈ 3.7e-11,
    // whatever the pivots: fresh ones give the same rcond.
    const std::vector<double> exact{310.0, 305.0, 2.6e14};
    const Values m = [](int s) {
        const double g = 1800.0 * (1.0 + 0.1 * s), a = 1.0 / 25.0;
        return std::vector<double>{1.0 + g * a, -g * a,
                                   -g * 1e9,  // column T1
                                   -g * a,      1.0 + 2.0 * g * a,
                                   -g * 2e9,  // column T2
                                   0.0,         0.0,
                                   1.0};  // column E
    };
    const Outcome module = run(false, 3, m, exact, 3);
    const Outcome ours = run(true, 3, m, exact, 3);
    // The module estimated the condition number (in joules against kelvin, ~1e23) and, above
    // 1/ε^(2/3), factored afresh: for nothing, as the same solutions show.
    EXPECT_GT(module.condest, 1.0 / kKluLowRcond);
    EXPECT_EQ(ours.stats.factorizations, 1);
    EXPECT_EQ(ours.stats.refactorizations, 2);
    // Each unknown to 1e-12 of itself: in its own units the system's condition is ~1e2.
    expectSolved(ours, exact, 1e-12);
    expectSolved(module, exact, 1e-12);
}

TEST(KluSolver, AStalePivotSequenceIsReplaced) {
    // First [[1, 0.5], [0.5, 1]]: KLU pivots on the diagonal. Then [[1e-14, 1], [1, 1]]: on
    // the old sequence the first pivot is 1e-14 and U_22 = 1 − 1e14, rcond ~1e-28, a growth of
    // 1e14 that would leave the solution with ~1e-2 relative error; fresh pivots (row 2 first)
    // solve it to round-off.
    const std::vector<double> exact{2.0, 3.0};
    const Values m = [](int s) {
        return s == 0 ? std::vector<double>{1.0, 0.5, 0.5, 1.0}
                      : std::vector<double>{1e-14, 1.0, 1.0, 1.0};
    };
    const Outcome ours = run(true, 2, m, exact, 2);
    EXPECT_EQ(ours.stats.factorizations, 2);
    EXPECT_EQ(ours.stats.refactorizations, 1);
    expectSolved(ours, exact, 1e-13);
}

}  // namespace
}  // namespace dctwin
