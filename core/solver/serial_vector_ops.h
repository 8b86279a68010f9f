#pragma once
// Compiled element-wise operations for SUNDIALS serial vectors (issue 12). Part of the CVODE
// adapter: only core/solver/ and its tests include this header.
//
// Why: Debian 12's SUNDIALS 6.4.1 libraries are built without optimisation (every loop
// variable lives on the stack; see `gdb -batch -ex "disassemble N_VWSqrSumLocal_Serial"
// /usr/lib/x86_64-linux-gnu/libsundials_nvecserial.so.6`). A weighted RMS norm over the
// 6,629 Newton states of a 1,390-rack campus took 48.6 µs there against 4.3 µs for the same
// loop at -O2, and CVODE's vector operations were 13 % of that campus's year.
//
// An N_Vector carries its own table of operations, which CVODE copies into every vector it
// clones from the ones we hand it; replacing the table's entries on our vectors therefore
// routes all of CVODE's vector arithmetic through code compiled with the project's flags.
//
// Each operation computes what the library's does, operation for operation in the same order,
// including its special cases (z = c·(x + y) when a = b is not a·x + b·y in floating point), so
// results are bit-identical to the library's (tests/core/serial_vector_ops_test.cpp checks
// every operation, aliasing and special coefficients included). Reductions keep the library's
// sequential order; the file is compiled without floating-point contraction (no FMA), which
// would change the roundings.
#include <nvector/nvector_serial.h>

namespace dctwin {

/// Points the standard and local-reduction operations of serial vector `v` at this file's
/// compiled versions. Fused and vector-array operations stay as they are (the library leaves
/// them off by default, and CVODE then composes them from the standard ones).
void useCompiledSerialOps(N_Vector v);

}  // namespace dctwin
