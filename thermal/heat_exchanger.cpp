#include "thermal/heat_exchanger.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/errors.h"

namespace dctwin::thermal {
namespace {

void checkArgs(std::string_view fn, double ntu, double cr) {
    if (!(ntu >= 0.0) || !std::isfinite(ntu) || !(cr >= 0.0 && cr <= 1.0 + 1e-12)) {
        throw InputError(
            fmt::format("{}: NTU = {} and C_r = {}: expected NTU ≥ 0 (finite) and "
                        "0 ≤ C_r ≤ 1",
                        fn, ntu, cr));
    }
}

}  // namespace

double effectivenessCounterflow(double ntu, double cr) {
    checkArgs("effectivenessCounterflow", ntu, cr);
    cr = std::min(cr, 1.0);
    if (cr < 1e-12) return -std::expm1(-ntu);
    if (std::abs(1.0 - cr) < 1e-9) return ntu / (1.0 + ntu);
    const double e = std::exp(-ntu * (1.0 - cr));
    return (1.0 - e) / (1.0 - cr * e);
}

double effectivenessCrossflowUnmixed(double ntu, double cr) {
    return effectivenessCrossflowUnmixedSlope(ntu, cr).eps;
}

EffectivenessSlope effectivenessCrossflowUnmixedSlope(double ntu, double cr) {
    checkArgs("effectivenessCrossflowUnmixed", ntu, cr);
    const bool clamped = cr > 1.0;
    cr = std::min(cr, 1.0);
    EffectivenessSlope s;
    if (ntu == 0.0) {
        s.d_ntu = 1.0;  // ε ≈ NTU for NTU → 0, any C_r
        return s;
    }
    if (cr < 1e-12) {
        // The C_r → 0 limit: ε = 1 − e^{−NTU}; a = −NTU + p·q²·C_r/2 + O(C_r²), p·q² = NTU^1.78.
        s.eps = -std::expm1(-ntu);
        s.d_ntu = 1.0 - s.eps;
        s.d_cr = -(1.0 - s.eps) * 0.5 * ntu * std::pow(ntu, 0.78);
        return s;
    }
    // expm1 keeps the small-C_r limit (→ 1 − e^{−NTU}) accurate. NTU^0.78 = NTU / NTU^0.22:
    // one pow, not two (the dry cooler's fan search calls this ~5 times per evaluation).
    const double p22 = std::pow(ntu, 0.22);
    const double q78 = ntu / p22;
    const double em1 = std::expm1(-cr * q78);  // E − 1
    const double arg = p22 / cr * em1;
    s.eps = -std::expm1(arg);
    const double one_minus_eps = 1.0 - s.eps;  // e^a
    const double pqE = p22 * q78 * (em1 + 1.0);
    s.d_ntu = -one_minus_eps * (0.22 * arg - 0.78 * pqE) / ntu;
    s.d_cr = clamped ? 0.0 : -one_minus_eps * (-arg - pqE) / cr;
    return s;
}

double effectiveness(HxArrangement arrangement, double ntu, double cr) {
    return arrangement == HxArrangement::Counterflow ? effectivenessCounterflow(ntu, cr)
                                                     : effectivenessCrossflowUnmixed(ntu, cr);
}

double ntuCounterflow(double eps, double cr) {
    if (!(eps >= 0.0 && eps < 1.0) || !(cr >= 0.0 && cr <= 1.0)) {
        throw InputError(
            fmt::format("ntuCounterflow: effectiveness {} with C_r = {} is not "
                        "reachable; expected 0 ≤ ε < 1 and 0 ≤ C_r ≤ 1",
                        eps, cr));
    }
    if (std::abs(1.0 - cr) < 1e-9) return eps / (1.0 - eps);
    return std::log((1.0 - eps * cr) / (1.0 - eps)) / (1.0 - cr);
}

double ntuFromEffectiveness(HxArrangement arrangement, double eps, double cr) {
    if (arrangement == HxArrangement::Counterflow) return ntuCounterflow(eps, cr);
    // ε(NTU) is increasing but saturates below 1 for C_r > 0: bracket before bisecting.
    double hi = 1.0;
    while (effectiveness(arrangement, hi, cr) < eps) {
        hi *= 2.0;
        if (hi > 1e4) {
            throw InputError(
                fmt::format("ntuFromEffectiveness: effectiveness {} is not reachable "
                            "by a {} exchanger with C_r = {}",
                            eps, arrangementName(arrangement), cr));
        }
    }
    double lo = 0.0;
    for (int i = 0; i < 200 && hi - lo > 1e-13 * hi; ++i) {
        const double mid = 0.5 * (lo + hi);
        (effectiveness(arrangement, mid, cr) < eps ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

double UaScaling::operator()(double mdot_hot, double mdot_cold) const {
    if (!(mdot_hot > 0.0) || !(mdot_cold > 0.0)) return 0.0;
    return conductance(mdot_hot, hotConductance(mdot_hot), mdot_cold);
}

double UaScaling::hotConductance(double mdot_hot) const {
    return hot_factor * UA_design / hot_resistance_fraction *
           std::pow(mdot_hot / mdot_hot_design, exponent_hot);
}

double UaScaling::conductance(double mdot_hot, double hA_hot, double mdot_cold) const {
    if (!(mdot_hot > 0.0) || !(mdot_cold > 0.0)) return 0.0;
    const double hA_cold = cold_factor * UA_design / (1.0 - hot_resistance_fraction) *
                           std::pow(mdot_cold / mdot_cold_design, exponent_cold);
    return 1.0 / (1.0 / hA_hot + 1.0 / hA_cold);
}

HxResult heatExchange(HxArrangement arrangement, double UA, double C_hot, double T_hot_in,
                      double C_cold, double T_cold_in) {
    HxResult r;
    r.C_hot = C_hot;
    r.C_cold = C_cold;
    const double C_min = std::min(C_hot, C_cold), C_max = std::max(C_hot, C_cold);
    if (!(C_min > 0.0) || !(UA > 0.0)) return r;
    r.cr = C_min / C_max;
    r.ntu = UA / C_min;
    r.effectiveness = effectiveness(arrangement, r.ntu, r.cr);
    r.Q = r.effectiveness * C_min * (T_hot_in - T_cold_in);
    return r;
}

std::string_view arrangementName(HxArrangement arrangement) {
    return arrangement == HxArrangement::Counterflow ? "counterflow" : "cross-flow (unmixed)";
}

}  // namespace dctwin::thermal
