#pragma once
// Compiled operations for SUNDIALS sparse matrices (issue 12). Part of the CVODE adapter: only
// core/solver/ and its tests include this header.
//
// Why: as serial_vector_ops.h explains, Debian 12's SUNDIALS 6.4.1 libraries are built without
// optimisation. Every Jacobian update runs the sparse matrix's zero, copy and "c·A + I"
// operations over all nonzeros (CVODE keeps a saved copy of J and forms M = I − γJ from it);
// perf put them at 1.4 % of a 1,390-rack annual run, 2.6–2.8 % of the 64-rack transient hour
// (two runs) and 3 % of a 5,560-rack week, in library loops that keep their counters on the stack.
//
// A SUNMatrix carries its own table of operations. useCompiledSparseOps() points zero, copy,
// scaleaddi and clone (so that CVODE's saved copy gets them too) at this file's versions, which
// leave the matrix exactly as the library's would: the same values in the same places, the
// scaled entries rounded the same way (c·a, and 1 + c·a on the diagonal; the file is compiled
// without floating-point contraction). The cases in which the library reallocates the matrix (a
// copy into a matrix with fewer slots, c·A + I on a pattern without its full diagonal) are handed
// to the library's own functions. tests/core/sparse_matrix_ops_test.cpp compares every
// operation with the library's, bit for bit, those cases included.
#include <sunmatrix/sunmatrix_sparse.h>

namespace dctwin {

/// Points the zero, copy, scale-add-identity and clone operations of sparse matrix `A` at this
/// file's compiled versions (a clone carries them too).
void useCompiledSparseOps(SUNMatrix A);

}  // namespace dctwin
