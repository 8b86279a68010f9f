#pragma once
// Heat exchangers by the ε-NTU method (domain-facts "Key formulas" C3; Incropera & DeWitt,
// Fundamentals of Heat and Mass Transfer, Table 11.3). Plain functions, used by the CDU
// (counterflow plate HX), the dry cooler (cross-flow finned coil), air-side coils and the
// water-side economizer, and directly by tests and design-point solvers.
//
//   C = ṁ·c_p,  C_min = min(C_h, C_c),  C_r = C_min/C_max,  NTU = UA/C_min
//   Q = ε · C_min · (T_h,in − T_c,in)
//   counterflow:            ε = (1 − e^{−NTU(1−C_r)}) / (1 − C_r·e^{−NTU(1−C_r)}),
//                           ε = NTU/(1+NTU) for C_r = 1
//   cross-flow, both unmixed (Incropera 11.32, the approximation used for finned coils):
//                           ε = 1 − exp{(1/C_r)·NTU^0.22·[exp(−C_r·NTU^0.78) − 1]}
//   any arrangement, C_r = 0 (condensing/evaporating side or infinite flow):
//                           ε = 1 − e^{−NTU}
//
// UA scaling with flow: the conductance is the series sum of the two film conductances,
// 1/UA = 1/(hA)_h + 1/(hA)_c, and each film coefficient scales with its flow as
// (ṁ/ṁ_design)^n (n ≈ 0.8 for turbulent liquid flow in plate channels, Dittus–Boelter;
// n ≈ 0.5–0.6 for air over finned coils). At the design point a fraction f_h of the
// resistance is on the hot side:
//   (hA)_h = UA_d/f_h · r_h^{n_h},  (hA)_c = UA_d/(1−f_h) · r_c^{n_c},  r = ṁ/ṁ_design.
// With f_h = 0.5 and n_h = n_c = 0.8 this is the "UA ∝ flow^0.8 on both sides" rule of C3.
#include <string_view>

namespace dctwin::thermal {

enum class HxArrangement { Counterflow, CrossflowUnmixed };

/// Effectiveness for NTU ≥ 0, 0 ≤ C_r ≤ 1. InputError outside.
double effectivenessCounterflow(double ntu, double cr);
double effectivenessCrossflowUnmixed(double ntu, double cr);
double effectiveness(HxArrangement arrangement, double ntu, double cr);

/// effectivenessCrossflowUnmixed(ntu, cr) (which is its .eps) with its partial derivatives,
/// for Newton searches on a coil's air flow. With p = NTU^0.22, q = NTU^0.78, E = e^{−C_r·q} and
/// a = (p/C_r)(E − 1), ε = 1 − e^a:
///   ∂ε/∂NTU = −(1 − ε)·[0.22·a − 0.78·p·q·E] / NTU,
///   ∂ε/∂C_r = −(1 − ε)·[−a − p·q·E] / C_r.
struct EffectivenessSlope {
    double eps = 0.0;    // [1]
    double d_ntu = 0.0;  // [1] ∂ε/∂NTU
    double d_cr = 0.0;   // [1] ∂ε/∂C_r (0 where C_r is clamped to 1)
};
EffectivenessSlope effectivenessCrossflowUnmixedSlope(double ntu, double cr);

/// Inverse of the counterflow relation: the NTU that gives effectiveness ε (0 ≤ ε < 1, and
/// ε < 1/C_r). Closed form: NTU = ln((1 − ε·C_r)/(1 − ε)) / (1 − C_r); ε/(1−ε) for C_r = 1.
double ntuCounterflow(double eps, double cr);
/// Inverse for any arrangement (bisection on the monotone ε(NTU)).
double ntuFromEffectiveness(HxArrangement arrangement, double eps, double cr);

/// UA at off-design flows, see header comment.                                     [W/K]
struct UaScaling {
    double UA_design = 0.0;                // [W/K] at design flows
    double mdot_hot_design = 0.0;          // [kg/s]
    double mdot_cold_design = 0.0;         // [kg/s]
    double hot_resistance_fraction = 0.5;  // [1] share of 1/UA on the hot side at design
    double exponent_hot = 0.8;             // [1]
    double exponent_cold = 0.8;            // [1]
    /// hA of each side relative to the rated one at equal mass flow (another coolant than
    /// the one rated: the film-coefficient ratio). 1 for the rated coolants.
    double hot_factor = 1.0;   // [1]
    double cold_factor = 1.0;  // [1]
    double operator()(double mdot_hot, double mdot_cold) const;
    /// The hot side's film conductance hA_hot at mdot_hot > 0 [W/K]. A caller that varies only
    /// the cold flow (a fan search) computes it once and passes it to conductance().
    double hotConductance(double mdot_hot) const;
    /// operator()(mdot_hot, mdot_cold), bit for bit, given hA_hot = hotConductance(mdot_hot).
    double conductance(double mdot_hot, double hA_hot, double mdot_cold) const;
};

struct HxResult {
    double Q = 0.0;              // [W] from hot to cold, ≥ 0 when T_h,in ≥ T_c,in
    double effectiveness = 0.0;  // [1]
    double ntu = 0.0;            // [1]
    double cr = 0.0;             // [1]
    double C_hot = 0.0;          // [W/K]
    double C_cold = 0.0;         // [W/K]
};

/// Heat flow between two streams given UA and capacity rates. Zero capacity on either side
/// gives Q = 0. A "hot" inlet colder than the "cold" inlet gives Q < 0 (heat flows back).
HxResult heatExchange(HxArrangement arrangement, double UA, double C_hot, double T_hot_in,
                      double C_cold, double T_cold_in);

std::string_view arrangementName(HxArrangement arrangement);

}  // namespace dctwin::thermal
