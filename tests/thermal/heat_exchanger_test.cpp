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
