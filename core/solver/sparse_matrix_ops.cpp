#include "core/solver/sparse_matrix_ops.h"

#include <algorithm>

namespace dctwin {
namespace {

int zeroOp(SUNMatrix A) {
    const sunindextype nnz = SM_NNZ_S(A);
    std::fill_n(SM_DATA_S(A), nnz, 0.0);
    std::fill_n(SM_INDEXVALS_S(A), nnz, sunindextype{0});
    std::fill_n(SM_INDEXPTRS_S(A), SM_NP_S(A) + 1, sunindextype{0});
    return SUNMAT_SUCCESS;
}

/// Copies A into B (same shape and format). The library zeroes all of B and then writes A's
/// nonzeros; writing them and zeroing only the rest leaves the same matrix.
int copyOp(SUNMatrix A, SUNMatrix B) {
    const bool same_shape = SUNMatGetID(B) == SUNMATRIX_SPARSE && SM_ROWS_S(A) == SM_ROWS_S(B) &&
                            SM_COLUMNS_S(A) == SM_COLUMNS_S(B) &&
                            SM_SPARSETYPE_S(A) == SM_SPARSETYPE_S(B);
    const sunindextype np = SM_NP_S(A);
    const sunindextype nz = SM_INDEXPTRS_S(A)[np];
    // Mismatched matrices (an error the library reports) and a B with fewer slots than A has
    // nonzeros (the library grows B) stay the library's.
    if (!same_shape || SM_NNZ_S(B) < nz) return SUNMatCopy_Sparse(A, B);
    const sunindextype nnz_b = SM_NNZ_S(B);
    std::copy_n(SM_DATA_S(A), nz, SM_DATA_S(B));
    std::fill(SM_DATA_S(B) + nz, SM_DATA_S(B) + nnz_b, 0.0);
    std::copy_n(SM_INDEXVALS_S(A), nz, SM_INDEXVALS_S(B));
    std::fill(SM_INDEXVALS_S(B) + nz, SM_INDEXVALS_S(B) + nnz_b, sunindextype{0});
    std::copy_n(SM_INDEXPTRS_S(A), np, SM_INDEXPTRS_S(B));
    SM_INDEXPTRS_S(B)[np] = nz;
    return SUNMAT_SUCCESS;
}

/// A = c·A + I when every one of the first min(M, N) outer vectors already holds its diagonal
/// entry (the library then scales in place, and like it this touches no vector beyond them).
int scaleAddIOp(sunrealtype c, SUNMatrix A) {
    const bool csc = SM_SPARSETYPE_S(A) == CSC_MAT;
    const sunindextype inner = csc ? SM_ROWS_S(A) : SM_COLUMNS_S(A);
    const sunindextype outer = csc ? SM_COLUMNS_S(A) : SM_ROWS_S(A);
    const sunindextype* p = SM_INDEXPTRS_S(A);
    const sunindextype* idx = SM_INDEXVALS_S(A);
    sunrealtype* x = SM_DATA_S(A);
    if (p == nullptr || idx == nullptr || x == nullptr) return SUNMatScaleAddI_Sparse(c, A);
    const sunindextype n = std::min(inner, outer);
    for (sunindextype j = 0; j < n; ++j) {
        if (std::find(idx + p[j], idx + p[j + 1], j) == idx + p[j + 1]) {
            return SUNMatScaleAddI_Sparse(c, A);  // restructures the pattern
        }
    }
    for (sunindextype j = 0; j < n; ++j) {
        for (sunindextype k = p[j]; k < p[j + 1]; ++k) {
            x[k] = idx[k] == j ? 1.0 + c * x[k] : c * x[k];
        }
    }
    return SUNMAT_SUCCESS;
}

SUNMatrix cloneOp(SUNMatrix A) {
    SUNMatrix B = SUNMatClone_Sparse(A);
    if (B) useCompiledSparseOps(B);
    return B;
}

}  // namespace

void useCompiledSparseOps(SUNMatrix A) {
    A->ops->zero = zeroOp;
    A->ops->copy = copyOp;
    A->ops->scaleaddi = scaleAddIOp;
    A->ops->clone = cloneOp;
}

}  // namespace dctwin
