// The CVODE adapter's compiled vector operations (core/solver/serial_vector_ops.h) against
// the SUNDIALS serial vector library's own: every operation, bit for bit, with the
// coefficients the library treats specially (±1, a = ±b) and with aliased arguments. A
// difference in one rounding would change every step CVODE takes, and with it the annual
// results (issue 12 asks speed work to leave them unchanged).
#include "core/solver/serial_vector_ops.h"

#include <gtest/gtest.h>
#include <sundials/sundials_context.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace dctwin {
namespace {

/// Four vectors of one kind (library or compiled operations) with the same contents as the
/// other kind's.
class VectorSet {
public:
    VectorSet(SUNContext ctx, const std::vector<std::vector<double>>& contents, bool compiled) {
        for (const auto& c : contents) {
            N_Vector v = N_VNew_Serial(static_cast<sunindextype>(c.size()), ctx);
            if (compiled) useCompiledSerialOps(v);
            std::copy(c.begin(), c.end(), N_VGetArrayPointer(v));
            v_.push_back(v);
        }
    }
    ~VectorSet() {
        for (N_Vector v : v_) N_VDestroy(v);
    }
    VectorSet(const VectorSet&) = delete;
    VectorSet& operator=(const VectorSet&) = delete;
    N_Vector operator[](std::size_t i) const { return v_[i]; }
    std::size_t size() const { return v_.size(); }

private:
    std::vector<N_Vector> v_;
};

std::uint64_t bits(double x) { return std::bit_cast<std::uint64_t>(x); }

class SerialVectorOps : public ::testing::Test {
protected:
    void SetUp() override { ASSERT_EQ(SUNContext_Create(nullptr, &ctx_), 0); }
    void TearDown() override { SUNContext_Free(&ctx_); }

    /// Contents of x, y, z, w: mixed signs and magnitudes, zeros; w positive (weights) and
    /// z used as a mask / constraint vector where an operation reads one.
    std::vector<std::vector<double>> contents(std::size_t n, unsigned seed) const {
        std::mt19937_64 rng(seed);
        std::uniform_real_distribution<double> mant(-1.0, 1.0);
        std::uniform_int_distribution<int> expo(-12, 12);
        std::vector<std::vector<double>> c(4, std::vector<double>(n));
        for (std::size_t i = 0; i < n; ++i) {
            for (int k = 0; k < 3; ++k) c[k][i] = std::ldexp(mant(rng), expo(rng));
            c[3][i] = std::ldexp(1.0 + std::abs(mant(rng)), expo(rng));
            if (i % 7 == 3) c[1][i] = 0.0;
        }
        // Constraint codes and mask values in z for constrMask / masked norms.
        for (std::size_t i = 0; i < n; ++i) {
            constexpr std::array<double, 5> codes{0.0, 1.0, -1.0, 2.0, -2.0};
            c[2][i] = codes[i % codes.size()];
        }
        return c;
    }

    /// Runs `op` on a library set and a compiled set built from the same contents and expects
    /// every vector and the returned value to agree bit for bit.
    void expectSame(const std::string& what, std::size_t n, unsigned seed,
                    const std::function<double(const VectorSet&)>& op) {
        const auto c = contents(n, seed);
        VectorSet lib(ctx_, c, false), ours(ctx_, c, true);
        const double r_lib = op(lib), r_ours = op(ours);
        EXPECT_EQ(bits(r_lib), bits(r_ours)) << what << ": returned " << r_lib << " vs " << r_ours;
        for (std::size_t k = 0; k < lib.size(); ++k) {
            const double* a = N_VGetArrayPointer(lib[k]);
            const double* b = N_VGetArrayPointer(ours[k]);
            for (std::size_t i = 0; i < n; ++i) {
                ASSERT_EQ(bits(a[i]), bits(b[i]))
                    << what << ": vector " << k << " entry " << i << ": " << a[i] << " vs " << b[i];
            }
        }
    }

    SUNContext ctx_ = nullptr;
};

TEST_F(SerialVectorOps, LinearSumMatchesTheLibraryForEveryCoefficientCaseAndAliasing) {
    // ±1 and a = ±b select the library's special loops; 0.37/−2.5 the general one.
    const std::vector<double> coef{1.0, -1.0, 0.37, -0.37, -2.5, 0.0};
    int cases = 0;
    for (double a : coef) {
        for (double b : coef) {
            for (int alias = 0; alias < 3; ++alias) {  // z separate, z = x, z = y
                const std::string what = "linearSum a=" + std::to_string(a) +
                                         " b=" + std::to_string(b) +
                                         " alias=" + std::to_string(alias);
                expectSame(what, 37, 11u + static_cast<unsigned>(cases), [&](const VectorSet& v) {
                    N_Vector z = alias == 0 ? v[2] : alias == 1 ? v[0] : v[1];
                    N_VLinearSum(a, v[0], b, v[1], z);
                    return 0.0;
                });
                ++cases;
            }
        }
    }
    EXPECT_EQ(cases, 108);
}

TEST_F(SerialVectorOps, ElementWiseOperationsMatchTheLibrary) {
    for (double c : {1.0, -1.0, 0.37, 0.0}) {
        for (int alias = 0; alias < 2; ++alias) {
            expectSame("scale " + std::to_string(c) + " alias " + std::to_string(alias), 37, 5,
                       [&](const VectorSet& v) {
                           N_VScale(c, v[0], alias ? v[0] : v[2]);
                           return 0.0;
                       });
        }
    }
    expectSame("const", 37, 6, [](const VectorSet& v) {
        N_VConst(-3.25, v[2]);
        return 0.0;
    });
    expectSame("prod", 37, 7, [](const VectorSet& v) {
        N_VProd(v[0], v[1], v[2]);
        return 0.0;
    });
    expectSame("div", 37, 8, [](const VectorSet& v) {
        N_VDiv(v[0], v[3], v[2]);
        return 0.0;
    });
    expectSame("abs", 37, 9, [](const VectorSet& v) {
        N_VAbs(v[0], v[2]);
        return 0.0;
    });
    expectSame("inv", 37, 10, [](const VectorSet& v) {
        N_VInv(v[3], v[2]);
        return 0.0;
    });
    expectSame("addconst", 37, 11, [](const VectorSet& v) {
        N_VAddConst(v[0], 0.125, v[2]);
        return 0.0;
    });
    expectSame("compare", 37, 12, [](const VectorSet& v) {
        N_VCompare(0.01, v[0], v[2]);
        return 0.0;
    });
    expectSame("invtest (zeros in y)", 37, 13,
               [](const VectorSet& v) { return static_cast<double>(N_VInvTest(v[1], v[2])); });
    expectSame("invtest (no zero)", 37, 14,
               [](const VectorSet& v) { return static_cast<double>(N_VInvTest(v[3], v[2])); });
    expectSame("constrmask", 37, 15, [](const VectorSet& v) {
        return static_cast<double>(N_VConstrMask(v[2], v[0], v[1]));
    });
}

TEST_F(SerialVectorOps, ReductionsMatchTheLibraryInEveryBit) {
    for (std::size_t n : {std::size_t{1}, std::size_t{37}, std::size_t{6629}}) {
        const std::string len = " n=" + std::to_string(n);
        expectSame("wrmsnorm" + len, n, 21,
                   [](const VectorSet& v) { return N_VWrmsNorm(v[0], v[3]); });
        expectSame("wrmsnormmask" + len, n, 22,
                   [](const VectorSet& v) { return N_VWrmsNormMask(v[0], v[3], v[2]); });
        expectSame("wl2norm" + len, n, 23,
                   [](const VectorSet& v) { return N_VWL2Norm(v[0], v[3]); });
        expectSame("dotprod" + len, n, 24,
                   [](const VectorSet& v) { return N_VDotProd(v[0], v[1]); });
        expectSame("maxnorm" + len, n, 25, [](const VectorSet& v) { return N_VMaxNorm(v[0]); });
        expectSame("min" + len, n, 26, [](const VectorSet& v) { return N_VMin(v[0]); });
        expectSame("l1norm" + len, n, 27, [](const VectorSet& v) { return N_VL1Norm(v[0]); });
        expectSame("minquotient" + len, n, 28,
                   [](const VectorSet& v) { return N_VMinQuotient(v[0], v[1]); });
        expectSame("wsqrsumlocal" + len, n, 29,
                   [](const VectorSet& v) { return N_VWSqrSumLocal(v[0], v[3]); });
    }
    // A sum over 6,629 terms of mixed magnitude rounds differently in any other order; check
    // that the test would see it (the library's result is not the pairwise sum).
    const auto c = contents(6629, 29);
    VectorSet lib(ctx_, c, false);
    double pairwise = 0.0;
    {
        std::vector<double> sq(6629);
        for (std::size_t i = 0; i < sq.size(); ++i) sq[i] = std::pow(c[0][i] * c[3][i], 2);
        for (std::size_t w = 1; w < sq.size(); w *= 2) {
            for (std::size_t i = 0; i + w < sq.size(); i += 2 * w) sq[i] += sq[i + w];
        }
        pairwise = sq[0];
    }
    EXPECT_NE(bits(N_VWSqrSumLocal(lib[0], lib[3])), bits(pairwise))
        << "the reduction test cannot tell summation orders apart";
}

TEST_F(SerialVectorOps, ClonesCarryTheCompiledOperations) {
    // CVODE clones its work vectors from the ones the adapter gives it.
    N_Vector v = N_VNew_Serial(4, ctx_);
    useCompiledSerialOps(v);
    N_Vector w = N_VClone(v);
    EXPECT_EQ(w->ops->nvwrmsnorm, v->ops->nvwrmsnorm);
    EXPECT_EQ(w->ops->nvlinearsum, v->ops->nvlinearsum);
    N_Vector plain = N_VNew_Serial(4, ctx_);
    EXPECT_NE(plain->ops->nvwrmsnorm, v->ops->nvwrmsnorm);
    // A hand value: weights 2, entries (1, −1, 3, 0) → √((4 + 4 + 36 + 0)/4) = √11.
    N_VConst(2.0, w);
    double* d = N_VGetArrayPointer(v);
    d[0] = 1.0;
    d[1] = -1.0;
    d[2] = 3.0;
    d[3] = 0.0;
    EXPECT_DOUBLE_EQ(N_VWrmsNorm(v, w), std::sqrt(11.0));
    N_VDestroy(plain);
    N_VDestroy(w);
    N_VDestroy(v);
}

TEST_F(SerialVectorOps, NaNNeverWinsTheMaximumNormAsInTheLibrary) {
    const std::vector<std::vector<double>> c{
        {1.0, std::numeric_limits<double>::quiet_NaN(), -3.0, 2.0}};
    VectorSet lib(ctx_, c, false), ours(ctx_, c, true);
    EXPECT_EQ(N_VMaxNorm(ours[0]), 3.0);
    EXPECT_EQ(bits(N_VMaxNorm(lib[0])), bits(N_VMaxNorm(ours[0])));
    EXPECT_EQ(bits(N_VMin(lib[0])), bits(N_VMin(ours[0])));
}

}  // namespace
}  // namespace dctwin
