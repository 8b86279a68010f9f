#pragma once
// A SUNDIALS context for the CVODE adapter's tests (serial_vector_ops, sparse_matrix_ops,
// klu_solver), freed when it goes out of scope.
#include <sundials/sundials_context.h>

namespace dctwin::test {

struct SundialsContext {
    SundialsContext() { SUNContext_Create(nullptr, &ctx); }
    ~SundialsContext() { SUNContext_Free(&ctx); }
    SundialsContext(const SundialsContext&) = delete;
    SundialsContext& operator=(const SundialsContext&) = delete;
    SUNContext ctx = nullptr;
};

}  // namespace dctwin::test
