#include "core/solver/serial_vector_ops.h"

#include <cmath>

// Every function below is one of the N_Vector operations of SUNDIALS 6.4's serial vector,
// computed with the same arithmetic in the same order (see the header). The element loops
// carry no restrict qualifiers: CVODE passes aliased vectors (z = x) to most of them.

namespace dctwin {
namespace {

using Real = sunrealtype;
using Index = sunindextype;

Index length(N_Vector v) { return NV_LENGTH_S(v); }
Real* values(N_Vector v) { return NV_DATA_S(v); }

/// y ← a·x + y, with a = ±1 as an add or subtract (as the library does).
void axpy(Real a, N_Vector x, N_Vector y) {
    const Index n = length(x);
    const Real* xd = values(x);
    Real* yd = values(y);
    if (a == 1.0) {
        for (Index i = 0; i < n; ++i) yd[i] += xd[i];
    } else if (a == -1.0) {
        for (Index i = 0; i < n; ++i) yd[i] -= xd[i];
    } else {
        for (Index i = 0; i < n; ++i) yd[i] += a * xd[i];
    }
}

void linearSum(Real a, N_Vector x, Real b, N_Vector y, N_Vector z) {
    if (b == 1.0 && z == y) return axpy(a, x, y);
    if (a == 1.0 && z == x) return axpy(b, y, x);
    const Index n = length(x);
    Real* zd = values(z);
    if (a == 1.0 && b == 1.0) {
        const Real *xd = values(x), *yd = values(y);
        for (Index i = 0; i < n; ++i) zd[i] = xd[i] + yd[i];
        return;
    }
    // One coefficient +1 and the other −1: a difference, minuend the +1 vector.
    if ((a == 1.0 && b == -1.0) || (a == -1.0 && b == 1.0)) {
        const bool x_plus = a == 1.0;
        const Real* p = values(x_plus ? x : y);
        const Real* m = values(x_plus ? y : x);
        for (Index i = 0; i < n; ++i) zd[i] = p[i] - m[i];
        return;
    }
    // One coefficient +1: c·v + w with v the other vector.
    if (a == 1.0 || b == 1.0) {
        const bool a_one = a == 1.0;
        const Real c = a_one ? b : a;
        const Real* v = values(a_one ? y : x);
        const Real* w = values(a_one ? x : y);
        for (Index i = 0; i < n; ++i) zd[i] = (c * v[i]) + w[i];
        return;
    }
    // One coefficient −1: c·v − w.
    if (a == -1.0 || b == -1.0) {
        const bool a_minus = a == -1.0;
        const Real c = a_minus ? b : a;
        const Real* v = values(a_minus ? y : x);
        const Real* w = values(a_minus ? x : y);
        for (Index i = 0; i < n; ++i) zd[i] = (c * v[i]) - w[i];
        return;
    }
    const Real *xd = values(x), *yd = values(y);
    if (a == b) {
        for (Index i = 0; i < n; ++i) zd[i] = a * (xd[i] + yd[i]);
        return;
    }
    if (a == -b) {
        for (Index i = 0; i < n; ++i) zd[i] = a * (xd[i] - yd[i]);
        return;
    }
    for (Index i = 0; i < n; ++i) zd[i] = (a * xd[i]) + (b * yd[i]);
}

void constant(Real c, N_Vector z) {
    const Index n = length(z);
    Real* zd = values(z);
    for (Index i = 0; i < n; ++i) zd[i] = c;
}

void product(N_Vector x, N_Vector y, N_Vector z) {
    const Index n = length(x);
    const Real *xd = values(x), *yd = values(y);
    Real* zd = values(z);
    for (Index i = 0; i < n; ++i) zd[i] = xd[i] * yd[i];
}

void quotient(N_Vector x, N_Vector y, N_Vector z) {
    const Index n = length(x);
    const Real *xd = values(x), *yd = values(y);
    Real* zd = values(z);
    for (Index i = 0; i < n; ++i) zd[i] = xd[i] / yd[i];
}

void scale(Real c, N_Vector x, N_Vector z) {
    const Index n = length(x);
    const Real* xd = values(x);
    Real* zd = values(z);
    if (z == x) {
        for (Index i = 0; i < n; ++i) zd[i] *= c;
    } else if (c == 1.0) {
        for (Index i = 0; i < n; ++i) zd[i] = xd[i];
    } else if (c == -1.0) {
        for (Index i = 0; i < n; ++i) zd[i] = -xd[i];
    } else {
        for (Index i = 0; i < n; ++i) zd[i] = c * xd[i];
    }
}

void absolute(N_Vector x, N_Vector z) {
    const Index n = length(x);
    const Real* xd = values(x);
    Real* zd = values(z);
    for (Index i = 0; i < n; ++i) zd[i] = std::abs(xd[i]);
}

void inverse(N_Vector x, N_Vector z) {
    const Index n = length(x);
    const Real* xd = values(x);
    Real* zd = values(z);
    for (Index i = 0; i < n; ++i) zd[i] = 1.0 / xd[i];
}

void addConstant(N_Vector x, Real b, N_Vector z) {
    const Index n = length(x);
    const Real* xd = values(x);
    Real* zd = values(z);
    for (Index i = 0; i < n; ++i) zd[i] = xd[i] + b;
}

Real dotProduct(N_Vector x, N_Vector y) {
    const Index n = length(x);
    const Real *xd = values(x), *yd = values(y);
    Real sum = 0.0;
    for (Index i = 0; i < n; ++i) sum += xd[i] * yd[i];
    return sum;
}

Real maxNorm(N_Vector x) {
    const Index n = length(x);
    const Real* xd = values(x);
    Real max = 0.0;
    for (Index i = 0; i < n; ++i) {
        if (std::abs(xd[i]) > max) max = std::abs(xd[i]);  // a NaN never wins, as in the library
    }
    return max;
}

Real weightedSquareSum(N_Vector x, N_Vector w) {
    const Index n = length(x);
    const Real *xd = values(x), *wd = values(w);
    Real sum = 0.0;
    for (Index i = 0; i < n; ++i) {
        const Real p = xd[i] * wd[i];
        sum += p * p;
    }
    return sum;
}

Real weightedSquareSumMasked(N_Vector x, N_Vector w, N_Vector id) {
    const Index n = length(x);
    const Real *xd = values(x), *wd = values(w), *mask = values(id);
    Real sum = 0.0;
    for (Index i = 0; i < n; ++i) {
        if (mask[i] > 0.0) {
            const Real p = xd[i] * wd[i];
            sum += p * p;
        }
    }
    return sum;
}

Real wrmsNorm(N_Vector x, N_Vector w) {
    return std::sqrt(weightedSquareSum(x, w) / static_cast<Real>(length(x)));
}

Real wrmsNormMasked(N_Vector x, N_Vector w, N_Vector id) {
    return std::sqrt(weightedSquareSumMasked(x, w, id) / static_cast<Real>(length(x)));
}

Real minimum(N_Vector x) {
    const Index n = length(x);
    const Real* xd = values(x);
    Real min = xd[0];
    for (Index i = 1; i < n; ++i) {
        if (xd[i] < min) min = xd[i];
    }
    return min;
}

Real weightedL2Norm(N_Vector x, N_Vector w) { return std::sqrt(weightedSquareSum(x, w)); }

Real l1Norm(N_Vector x) {
    const Index n = length(x);
    const Real* xd = values(x);
    Real sum = 0.0;
    for (Index i = 0; i < n; ++i) sum += std::abs(xd[i]);
    return sum;
}

void compare(Real c, N_Vector x, N_Vector z) {
    const Index n = length(x);
    const Real* xd = values(x);
    Real* zd = values(z);
    for (Index i = 0; i < n; ++i) zd[i] = std::abs(xd[i]) >= c ? 1.0 : 0.0;
}

sunbooleantype inverseTest(N_Vector x, N_Vector z) {
    const Index n = length(x);
    const Real* xd = values(x);
    Real* zd = values(z);
    sunbooleantype no_zero = SUNTRUE;
    for (Index i = 0; i < n; ++i) {
        if (xd[i] == 0.0) {
            no_zero = SUNFALSE;
        } else {
            zd[i] = 1.0 / xd[i];
        }
    }
    return no_zero;
}

sunbooleantype constraintMask(N_Vector c, N_Vector x, N_Vector m) {
    const Index n = length(x);
    const Real *cd = values(c), *xd = values(x);
    Real* md = values(m);
    bool violated = false;
    for (Index i = 0; i < n; ++i) {
        md[i] = 0.0;
        if (cd[i] == 0.0) continue;
        // |c| = 2: x > 0 required; |c| = 1: x ≥ 0 (signs by c's).
        const bool fails = (std::abs(cd[i]) > 1.5 && xd[i] * cd[i] <= 0.0) ||
                           (std::abs(cd[i]) > 0.5 && xd[i] * cd[i] < 0.0);
        if (fails) {
            md[i] = 1.0;
            violated = true;
        }
    }
    return violated ? SUNFALSE : SUNTRUE;
}

Real minQuotient(N_Vector num, N_Vector denom) {
    const Index n = length(num);
    const Real *nd = values(num), *dd = values(denom);
    bool first = true;
    Real min = SUN_BIG_REAL;
    for (Index i = 0; i < n; ++i) {
        if (dd[i] == 0.0) continue;
        const Real q = nd[i] / dd[i];
        if (first) {
            min = q;
            first = false;
        } else {
            min = min < q ? min : q;
        }
    }
    return min;
}

}  // namespace

void useCompiledSerialOps(N_Vector v) {
    N_Vector_Ops ops = v->ops;
    ops->nvlinearsum = linearSum;
    ops->nvconst = constant;
    ops->nvprod = product;
    ops->nvdiv = quotient;
    ops->nvscale = scale;
    ops->nvabs = absolute;
    ops->nvinv = inverse;
    ops->nvaddconst = addConstant;
    ops->nvdotprod = dotProduct;
    ops->nvmaxnorm = maxNorm;
    ops->nvwrmsnorm = wrmsNorm;
    ops->nvwrmsnormmask = wrmsNormMasked;
    ops->nvmin = minimum;
    ops->nvwl2norm = weightedL2Norm;
    ops->nvl1norm = l1Norm;
    ops->nvcompare = compare;
    ops->nvinvtest = inverseTest;
    ops->nvconstrmask = constraintMask;
    ops->nvminquotient = minQuotient;
    // The local reductions are the same functions on one process.
    ops->nvdotprodlocal = dotProduct;
    ops->nvmaxnormlocal = maxNorm;
    ops->nvminlocal = minimum;
    ops->nvl1normlocal = l1Norm;
    ops->nvinvtestlocal = inverseTest;
    ops->nvconstrmasklocal = constraintMask;
    ops->nvminquotientlocal = minQuotient;
    ops->nvwsqrsumlocal = weightedSquareSum;
    ops->nvwsqrsummasklocal = weightedSquareSumMasked;
}

}  // namespace dctwin
