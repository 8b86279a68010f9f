// The CVODE adapter's compiled sparse-matrix operations (core/solver/sparse_matrix_ops.h)
// against the SUNDIALS sparse-matrix library's own: zero, copy, c·A + I and clone leave the
// matrix bit for bit as the library's do, in CSC and CSR, square and not, including the cases
// handed back to the library (a copy into a matrix with too few slots, a pattern without its
// full diagonal). A difference in one rounding of M = I − γJ would change CVODE's Newton
// iterations, and with them the annual results (issue 12 asks speed work to leave them
// unchanged).
#include "core/solver/sparse_matrix_ops.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "sundials_context.h"

namespace dctwin {
namespace {

using Context = test::SundialsContext;

/// A random sparse matrix: every outer vector gets its diagonal entry unless `holes` says
/// otherwise, plus random off-diagonal entries; `spare` unused slots at the end.
SUNMatrix randomMatrix(SUNContext ctx, sunindextype rows, sunindextype cols, int type,
                       unsigned seed, bool holes, sunindextype spare) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> value(-3.0, 3.0);
    std::bernoulli_distribution fill(0.15), hole(holes ? 0.3 : 0.0);
    const sunindextype inner = type == CSC_MAT ? rows : cols;
    const sunindextype outer = type == CSC_MAT ? cols : rows;
    std::vector<sunindextype> ptr{0}, idx;
    std::vector<double> val;
    for (sunindextype j = 0; j < outer; ++j) {
        for (sunindextype i = 0; i < inner; ++i) {
            const bool diagonal = i == j;
            if (diagonal ? !hole(rng) : fill(rng)) {
                idx.push_back(i);
                // Some exact zeros and tiny values: c·0 and 1 + c·tiny must round as the library's.
                const double v = value(rng);
                val.push_back(i % 7 == 3 ? 0.0 : (i % 11 == 5 ? v * 1e-300 : v));
            }
        }
        ptr.push_back(static_cast<sunindextype>(idx.size()));
    }
    SUNMatrix A =
        SUNSparseMatrix(rows, cols, static_cast<sunindextype>(idx.size()) + spare, type, ctx);
    std::copy(ptr.begin(), ptr.end(), SM_INDEXPTRS_S(A));
    std::copy(idx.begin(), idx.end(), SM_INDEXVALS_S(A));
    std::copy(val.begin(), val.end(), SM_DATA_S(A));
    // Spare slots hold leftovers, as a matrix reused by CVODE would.
    for (sunindextype k = static_cast<sunindextype>(idx.size()); k < SM_NNZ_S(A); ++k) {
        SM_INDEXVALS_S(A)[k] = k % inner;
        SM_DATA_S(A)[k] = 42.0 + static_cast<double>(k);
    }
    return A;
}

/// Everything a sparse matrix holds, bit for bit.
void expectSame(SUNMatrix a, SUNMatrix b, const std::string& what) {
    SCOPED_TRACE(what);
    ASSERT_EQ(SM_NNZ_S(a), SM_NNZ_S(b));
    ASSERT_EQ(SM_NP_S(a), SM_NP_S(b));
    for (sunindextype k = 0; k <= SM_NP_S(a); ++k) {
        ASSERT_EQ(SM_INDEXPTRS_S(a)[k], SM_INDEXPTRS_S(b)[k]) << "pointer " << k;
    }
    for (sunindextype k = 0; k < SM_NNZ_S(a); ++k) {
        ASSERT_EQ(SM_INDEXVALS_S(a)[k], SM_INDEXVALS_S(b)[k]) << "index " << k;
        ASSERT_EQ(std::bit_cast<std::uint64_t>(SM_DATA_S(a)[k]),
                  std::bit_cast<std::uint64_t>(SM_DATA_S(b)[k]))
            << "value " << k << ": " << SM_DATA_S(a)[k] << " vs " << SM_DATA_S(b)[k];
    }
}

struct Shape {
    sunindextype rows, cols;
    int type;
    bool holes;
    sunindextype spare;
};

class SparseMatrixOps : public ::testing::TestWithParam<Shape> {};

TEST_P(SparseMatrixOps, EveryOperationLeavesTheLibrarysMatrixBitForBit) {
    const Shape s = GetParam();
    Context c;
    for (unsigned seed : {1u, 2u, 3u}) {
        for (double gamma : {-0.37, -1.0, 0.0, -1e-12, 2.5e3}) {
            const std::string at = "seed " + std::to_string(seed) + ", c " + std::to_string(gamma);
            SUNMatrix lib = randomMatrix(c.ctx, s.rows, s.cols, s.type, seed, s.holes, s.spare);
            SUNMatrix ours = randomMatrix(c.ctx, s.rows, s.cols, s.type, seed, s.holes, s.spare);
            useCompiledSparseOps(ours);
            ASSERT_NE(lib->ops->scaleaddi, ours->ops->scaleaddi);  // not the library's any more

            // Clone: the copy CVODE keeps of J gets the compiled operations too.
            SUNMatrix lib_saved = SUNMatClone(lib);
            SUNMatrix ours_saved = SUNMatClone(ours);
            EXPECT_EQ(ours_saved->ops->copy, ours->ops->copy);
            EXPECT_EQ(lib_saved->ops->copy, lib->ops->copy);
            // Copy into the clone (room for every nonzero), then back after M = I − γJ.
            ASSERT_EQ(SUNMatCopy(lib, lib_saved), SUNMatCopy(ours, ours_saved));
            expectSame(lib_saved, ours_saved, at + ": copy");
            ASSERT_EQ(SUNMatScaleAddI(gamma, lib), SUNMatScaleAddI(gamma, ours));
            expectSame(lib, ours, at + ": c·A + I");
            ASSERT_EQ(SUNMatCopy(lib_saved, lib), SUNMatCopy(ours_saved, ours));
            expectSame(lib, ours, at + ": copy back");
            ASSERT_EQ(SUNMatZero(lib), SUNMatZero(ours));
            expectSame(lib, ours, at + ": zero");

            // A copy into a matrix with fewer slots than nonzeros (the library grows it).
            SUNMatrix lib_src = randomMatrix(c.ctx, s.rows, s.cols, s.type, seed + 10, s.holes, 0);
            SUNMatrix lib_small = SUNSparseMatrix(s.rows, s.cols, 1, s.type, c.ctx);
            SUNMatrix ours_small = SUNSparseMatrix(s.rows, s.cols, 1, s.type, c.ctx);
            SUNMatrix ours_src = randomMatrix(c.ctx, s.rows, s.cols, s.type, seed + 10, s.holes, 0);
            useCompiledSparseOps(ours_src);
            ASSERT_EQ(SUNMatCopy(lib_src, lib_small), SUNMatCopy(ours_src, ours_small));
            expectSame(lib_small, ours_small, at + ": copy into a smaller matrix");

            for (SUNMatrix m :
                 {lib, ours, lib_saved, ours_saved, lib_src, lib_small, ours_small, ours_src}) {
                SUNMatDestroy(m);
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, SparseMatrixOps,
    ::testing::Values(Shape{37, 37, CSC_MAT, false, 0},    // the Jacobian's case
                      Shape{600, 600, CSC_MAT, false, 5},  // spare slots stay as they were
                      Shape{37, 37, CSR_MAT, false, 0},
                      Shape{5, 8, CSC_MAT, false, 0},  // columns past min(M, N) not scaled
                      Shape{8, 5, CSR_MAT, false, 0},
                      Shape{40, 40, CSC_MAT, true, 0},     // missing diagonal: reallocated
                      Shape{40, 40, CSC_MAT, true, 40}));  // missing diagonal: room to insert

}  // namespace
}  // namespace dctwin
