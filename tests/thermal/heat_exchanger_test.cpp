// ε-NTU relations (thermal/heat_exchanger.h) against the textbook formulas, computed here
// independently (Incropera & DeWitt, Fundamentals of Heat and Mass Transfer, Table 11.3;
// domain-facts "Key formulas" C3).
#include "thermal/heat_exchanger.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/errors.h"

namespace dctwin::thermal {
namespace {

double counterflowByHand(double ntu, double cr) {
    if (cr == 1.0) return ntu / (1.0 + ntu);
    return (1.0 - std::exp(-ntu * (1.0 - cr))) / (1.0 - cr * std::exp(-ntu * (1.0 - cr)));
}
double crossflowByHand(double ntu, double cr) {
    return 1.0 -
           std::exp((1.0 / cr) * std::pow(ntu, 0.22) * (std::exp(-cr * std::pow(ntu, 0.78)) - 1.0));
}

TEST(EpsilonNtu, CounterflowAtThreePoints) {
    // NTU = 1, C_r = 0.5: (1 − e^−0.5)/(1 − 0.5·e^−0.5) = 0.393469/0.696735 = 0.5647334
    EXPECT_NEAR(effectivenessCounterflow(1.0, 0.5), 0.5647334, 1e-7);
    for (auto [ntu, cr] : {std::pair{1.0, 0.5}, {2.0, 0.75}, {3.0, 1.0}}) {
        EXPECT_NEAR(effectivenessCounterflow(ntu, cr), counterflowByHand(ntu, cr), 1e-14)
            << ntu << " " << cr;
    }
    EXPECT_NEAR(effectivenessCounterflow(3.0, 1.0), 0.75, 1e-15);  // NTU/(1+NTU)
    EXPECT_NEAR(effectivenessCounterflow(2.0, 0.0), 1.0 - std::exp(-2.0), 1e-15);
    // Continuity at C_r → 1.
    EXPECT_NEAR(effectivenessCounterflow(2.0, 1.0 - 1e-7), 2.0 / 3.0, 1e-6);
}

TEST(EpsilonNtu, CrossflowBothUnmixedAtThreePoints) {
    for (auto [ntu, cr] : {std::pair{1.0, 0.5}, {2.0, 0.25}, {3.0, 1.0}}) {
        EXPECT_NEAR(effectivenessCrossflowUnmixed(ntu, cr), crossflowByHand(ntu, cr), 1e-14)
            << ntu << " " << cr;
    }
    // NTU = 1, C_r = 0.5: 1 − exp(2·(e^−0.5 − 1)) = 0.5448 (Incropera Fig. 11.18 reads ≈ 0.55).
    EXPECT_NEAR(effectivenessCrossflowUnmixed(1.0, 0.5), 0.54475, 1e-4);
    EXPECT_NEAR(effectivenessCrossflowUnmixed(2.0, 1e-14), 1.0 - std::exp(-2.0), 1e-9);
    // Cross-flow is less effective than counterflow at equal NTU and C_r.
    EXPECT_LT(effectivenessCrossflowUnmixed(2.0, 0.8), effectivenessCounterflow(2.0, 0.8));
}

TEST(EpsilonNtu, CrossflowSlopeIsTheEffectivenessAndItsDerivatives) {
    // The dry cooler's Newton fan search steps on these derivatives (effectivenessCrossflow-
    // Unmixed is this function's ε, so the search's root is the plain function's). Derivatives
    // against central differences of the textbook formula (steps of 1e-6·NTU and 1e-3·C_r:
    // ε varies with C_r on the scale 1/NTU^0.78 ≫ C_r, so the wider step keeps truncation
    // below 1e-8 while a change of ε of ≥ 4e-9 keeps round-off below 1e-7), over the
    // cooler's range of NTU (0.05–8) and C_r (1e-3–1), plus the C_r → 0 branch against its
    // own limit ε = 1 − e^{−NTU}.
    // The differences are taken of 1 − ε = exp{(1/C_r)·NTU^0.22·[exp(−C_r·NTU^0.78) − 1]},
    // with expm1 for the inner e^x − 1: crossflowByHand's ε loses ~1e-13 to cancellation at
    // C_r = 1e-3, and ε near 1 keeps only ~1e-16 of its small changes at NTU = 8.
    auto omeps = [](double ntu, double cr) {
        return std::exp(std::pow(ntu, 0.22) / cr * std::expm1(-cr * std::pow(ntu, 0.78)));
    };
    auto eps = [&](double ntu, double cr) { return 1.0 - omeps(ntu, cr); };
    for (double ntu : {0.05, 0.3, 1.0, 2.5, 8.0}) {
        for (double cr : {1e-3, 0.1, 0.5, 0.9, 0.999}) {
            const EffectivenessSlope s = effectivenessCrossflowUnmixedSlope(ntu, cr);
            // ε against the textbook formula (1e-12: its plain e^x − 1 loses ~1e-13 at C_r =
            // 1e-3).
            EXPECT_NEAR(s.eps, crossflowByHand(ntu, cr), 1e-12) << ntu << " " << cr;
            const double hn = 1e-6 * ntu, hc = 1e-3 * cr;
            const double dn = -(omeps(ntu + hn, cr) - omeps(ntu - hn, cr)) / (2 * hn);
            const double dc = -(omeps(ntu, cr + hc) - omeps(ntu, cr - hc)) / (2 * hc);
            EXPECT_NEAR(s.d_ntu, dn, 1e-7 * std::abs(dn) + 1e-12) << ntu << " " << cr;
            EXPECT_NEAR(s.d_cr, dc, 1e-6 * std::abs(dc) + 1e-10) << ntu << " " << cr;
        }
    }
    // C_r below 1e-12: ε = 1 − e^{−NTU}, ∂ε/∂NTU = e^{−NTU}, ∂ε/∂C_r = −e^{−NTU}·NTU^1.78/2
    // (the first-order term of the formula in C_r), against the formula's difference at
    // C_r = 1e-4 (second-order terms ~1e-4 relative).
    const EffectivenessSlope z = effectivenessCrossflowUnmixedSlope(2.0, 1e-13);
    EXPECT_EQ(z.eps, -std::expm1(-2.0));
    EXPECT_NEAR(z.d_ntu, std::exp(-2.0), 1e-15);
    const double dc0 = (eps(2.0, 1e-4) - (1.0 - std::exp(-2.0))) / 1e-4;
    EXPECT_NEAR(z.d_cr, dc0, 1e-3 * std::abs(dc0));
    // C_r clamped at 1 (rounding above it): ε does not change with C_r there.
    EXPECT_EQ(effectivenessCrossflowUnmixedSlope(2.0, 1.0 + 1e-13).d_cr, 0.0);
}

TEST(EpsilonNtu, InversesRoundTrip) {
    for (double cr : {0.0, 0.3, 0.8, 1.0}) {
        for (double ntu : {0.2, 1.0, 2.5, 6.0}) {
            EXPECT_NEAR(ntuCounterflow(effectivenessCounterflow(ntu, cr), cr), ntu, 1e-9 * ntu);
            EXPECT_NEAR(ntuFromEffectiveness(HxArrangement::CrossflowUnmixed,
                                             effectivenessCrossflowUnmixed(ntu, cr), cr),
                        ntu, 1e-9 * ntu);
        }
    }
}

TEST(EpsilonNtu, UaScalesWithFlowOnBothSides) {
    const UaScaling ua{1e5, 10.0, 20.0, 0.5, 0.8, 0.8};
    EXPECT_NEAR(ua(10.0, 20.0), 1e5, 1e-9);
    // Both flows halved: each film conductance × 0.5^0.8, so UA × 0.5^0.8.
    EXPECT_NEAR(ua(5.0, 10.0), 1e5 * std::pow(0.5, 0.8), 1e-9);
    // One side halved: 1/UA = 1/(2e5·0.5^0.8) + 1/2e5.
    EXPECT_NEAR(ua(5.0, 20.0), 1.0 / (1.0 / (2e5 * std::pow(0.5, 0.8)) + 1.0 / 2e5), 1e-9);
    EXPECT_EQ(ua(0.0, 20.0), 0.0);
}

TEST(EpsilonNtu, HeatExchangeConservesEnergyAndRejectsBadInput) {
    const HxResult r = heatExchange(HxArrangement::Counterflow, 5e4, 4e4, 320.0, 6e4, 300.0);
    EXPECT_NEAR(r.Q, counterflowByHand(5e4 / 4e4, 4e4 / 6e4) * 4e4 * 20.0, 1e-9);
    // Outlet temperatures from Q: the hot stream loses what the cold one gains.
    const double Th_out = 320.0 - r.Q / 4e4, Tc_out = 300.0 + r.Q / 6e4;
    EXPECT_NEAR(4e4 * (320.0 - Th_out), 6e4 * (Tc_out - 300.0), 1e-9 * r.Q);
    EXPECT_LT(Tc_out, 320.0);
    EXPECT_EQ(heatExchange(HxArrangement::Counterflow, 5e4, 0.0, 320.0, 6e4, 300.0).Q, 0.0);
    EXPECT_THROW(effectivenessCounterflow(1.0, 1.5), InputError);
    EXPECT_THROW(effectivenessCrossflowUnmixed(-1.0, 0.5), InputError);
    EXPECT_THROW(ntuCounterflow(1.0, 0.5), InputError);
}

}  // namespace
}  // namespace dctwin::thermal
