#include "core/weather/psychrometrics.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string_view>

#include "core/errors.h"
#include "core/units.h"

namespace dctwin::psychro {
namespace {

using units::kelvinToCelsius;
using units::kZeroCelsius;

constexpr double kTMin = kZeroCelsius - 100.0;  // [K] lower end of ASHRAE eq. 5
constexpr double kTMax = kZeroCelsius + 200.0;  // [K] upper end of ASHRAE eq. 6
constexpr double kTriplePoint = 273.16;         // [K] eq. 5 is used up to here
constexpr double kMaxRelativeHumidity = 1.10;   // [-] EPW dictionary ceiling for measured RH
constexpr double kDewPointExcess = 0.5;         // [K] rounding allowance for T_dp > T_db
constexpr double kMolarMassRatio = 0.621945;    // [-] M_water / M_dry_air, ASHRAE eq. 20
constexpr double kRDryAir = 287.042;            // [J/(kg·K)] ASHRAE ch.1
constexpr double kSolverTolerance = 1e-7;       // [K] far below sensor resolution (0.1 K)

[[noreturn]] void fail(std::string_view what) {
    throw InputError(fmt::format("psychrometrics: {}", what));
}

void checkTemperature(double T, std::string_view name, double lo = kTMin, double hi = kTMax) {
    if (!std::isfinite(T) || T < lo || T > hi) {
        fail(fmt::format(
            "{} {:.3f} K ({:.2f} °C) is outside the valid range {:.2f}..{:.2f} K "
            "({:.0f}..{:.0f} °C, ASHRAE Fundamentals 2017 ch.1 eqs. 5-6)",
            name, T, kelvinToCelsius(T), lo, hi, kelvinToCelsius(lo), kelvinToCelsius(hi)));
    }
}

void checkPressure(double p) {
    if (!std::isfinite(p) || p <= 0.0) {
        fail(fmt::format("total pressure {} Pa must be positive and finite", p));
    }
}

void checkHumidityRatio(double W) {
    if (!std::isfinite(W) || W < 0.0) {
        fail(fmt::format("humidity ratio {} kg/kg must be non-negative and finite", W));
    }
}

void checkRelativeHumidity(double rh) {
    if (!std::isfinite(rh) || rh < 0.0 || rh > kMaxRelativeHumidity) {
        fail(fmt::format("relative humidity {} is outside 0..{:.2f} (a fraction, not percent)", rh,
                         kMaxRelativeHumidity));
    }
}

// Returns the dew point, clamped to the dry bulb when it exceeds it by rounding only.
double checkedDewPoint(double T_db, double T_dp) {
    checkTemperature(T_db, "dry-bulb temperature");
    checkTemperature(T_dp, "dew-point temperature");
    if (T_dp > T_db + kDewPointExcess) {
        fail(fmt::format("dew point {:.2f} °C is above the dry bulb {:.2f} °C",
                         kelvinToCelsius(T_dp), kelvinToCelsius(T_db)));
    }
    return std::min(T_dp, T_db);
}

double lnSaturationOverWater(double T) {
    constexpr double C8 = -5.8002206e3, C9 = 1.3914993, C10 = -4.8640239e-2, C11 = 4.1764768e-5,
                     C12 = -1.4452093e-8, C13 = 6.5459673;
    return C8 / T + C9 + T * (C10 + T * (C11 + T * C12)) + C13 * std::log(T);
}

double lnSaturationOverIce(double T) {
    constexpr double C1 = -5.6745359e3, C2 = 6.3925247, C3 = -9.6778430e-3, C4 = 6.2215701e-7,
                     C5 = 2.0747825e-9, C6 = -9.4840240e-13, C7 = 4.1635019;
    return C1 / T + C2 + T * (C3 + T * (C4 + T * (C5 + T * C6))) + C7 * std::log(T);
}

// The phase switch of saturationPressure without range checks, for inner solver loops whose
// bracket was checked once.
double lnSaturation(double T) {
    return T < kZeroCelsius ? lnSaturationOverIce(T) : lnSaturationOverWater(T);
}

// Brent's method (R. P. Brent, "Algorithms for Minimization without Derivatives", 1973,
// ch. 4): inverse quadratic interpolation or secant steps, falling back to bisection whenever
// they would leave the bracket or converge too slowly, so it keeps bisection's guarantee with
// near-Newton speed. Requires f(a), f(b) of opposite sign (or one of them zero).
template <class F>
double brentRoot(F&& f, double a, double b, double fa, double fb, double tol) {
    if (fa == 0.0) return a;
    if (fb == 0.0) return b;
    double c = a, fc = fa;
    double d = b - a, e = d;
    for (int iter = 0; iter < 200; ++iter) {
        if ((fb > 0.0) == (fc > 0.0)) {  // keep the root between b and c
            c = a;
            fc = fa;
            d = e = b - a;
        }
        if (std::abs(fc) < std::abs(fb)) {  // b is the best estimate so far
            a = b;
            b = c;
            c = a;
            fa = fb;
            fb = fc;
            fc = fa;
        }
        const double tol1 = 2.0 * 1e-15 * std::abs(b) + 0.5 * tol;
        const double m = 0.5 * (c - b);
        if (std::abs(m) <= tol1 || fb == 0.0) return b;
        if (std::abs(e) >= tol1 && std::abs(fa) > std::abs(fb)) {
            double p, q;
            const double s = fb / fa;
            if (a == c) {  // secant
                p = 2.0 * m * s;
                q = 1.0 - s;
            } else {  // inverse quadratic interpolation
                const double qa = fa / fc, r = fb / fc;
                p = s * (2.0 * m * qa * (qa - r) - (b - a) * (r - 1.0));
                q = (qa - 1.0) * (r - 1.0) * (s - 1.0);
            }
            if (p > 0.0) {
                q = -q;
            } else {
                p = -p;
            }
            if (2.0 * p < std::min(3.0 * m * q - std::abs(tol1 * q), std::abs(e * q))) {
                e = d;
                d = p / q;
            } else {
                d = m;
                e = m;
            }
        } else {
            d = m;
            e = m;
        }
        a = b;
        fa = fb;
        b += std::abs(d) > tol1 ? d : (m > 0.0 ? tol1 : -tol1);
        fb = f(b);
    }
    return b;  // unreachable for smooth f: 200 halvings shrink any bracket below tol
}

// Eqs. 33/35 with the saturation term given, so the wet-bulb solver evaluates each t* once.
double psychrometricEquation(double t_db, double t_wb, double W_s_star) {
    if (t_wb >= 0.0) {
        return ((2501.0 - 2.326 * t_wb) * W_s_star - 1.006 * (t_db - t_wb)) /
               (2501.0 + 1.86 * t_db - 4.186 * t_wb);
    }
    return ((2830.0 - 0.24 * t_wb) * W_s_star - 1.006 * (t_db - t_wb)) /
           (2830.0 + 1.86 * t_db - 2.1 * t_wb);
}

// Solves eq. 33/35 for t*; the caller has checked the inputs and passes the dew point T_lo.
double solveWetBulb(double T_db, double W, double p, double T_lo) {
    const double t_db = kelvinToCelsius(T_db);
    // W_s* needs p_ws(t*) < p, which the bracket below keeps (t* stays under boiling at p).
    auto f = [&](double T) {
        const double p_ws = std::exp(lnSaturation(T));
        return psychrometricEquation(t_db, kelvinToCelsius(T),
                                     kMolarMassRatio * p_ws / (p - p_ws)) -
               W;
    };
    // Lower end: the dew point, where the equation gives less than W (cooling the air to its
    // dew point takes up no water). Upper end: the dry bulb, unless the air is hotter than the
    // boiling point at p, which then caps the wet bulb.
    double hi = T_db;
    const double ln_p_cap = std::log(0.999 * p);
    if (ln_p_cap < lnSaturation(hi)) {
        hi = dewPointFromVapourPressure(std::min(0.999 * p, std::exp(lnSaturation(kTMax))));
    }
    double lo = std::min(T_lo, hi);
    // Saturated air: dew point = dry bulb = wet bulb (f is then zero up to rounding).
    if (hi - lo <= kSolverTolerance) return hi;
    double f_lo = f(lo), f_hi = f(hi);
    // Below freezing, air supersaturated over ice puts the ice-bulb root (eq. 35) above the
    // dry bulb (deposition heats the bulb); step the upper end up until the sign changes.
    for (int i = 0; f_hi < 0.0 && i < 40 && hi + 0.5 <= kTMax; ++i) {
        lo = hi;
        f_lo = f_hi;
        hi += 0.5;
        f_hi = f(hi);
    }
    if (f_lo > 0.0 && f_lo <= 1e-12 + 1e-9 * W) return lo;  // rounding at saturation
    if (f_lo > 0.0 || f_hi < 0.0) {
        throw ModelError(fmt::format(
            "psychrometrics: no wet bulb for dry bulb {:.2f} °C, humidity ratio {} kg/kg, "
            "pressure {} Pa (the psychrometric equation does not change sign between {:.2f} and "
            "{:.2f} °C)",
            t_db, W, p, kelvinToCelsius(lo), kelvinToCelsius(hi)));
    }
    return brentRoot(f, lo, hi, f_lo, f_hi, kSolverTolerance);
}

}  // namespace

double saturationPressureOverWater(double T) {
    checkTemperature(T, "temperature");
    return std::exp(lnSaturationOverWater(T));
}

double saturationPressureOverIce(double T) {
    checkTemperature(T, "temperature", kTMin, kTriplePoint);
    return std::exp(lnSaturationOverIce(T));
}

double saturationPressure(double T) {
    checkTemperature(T, "temperature");
    return std::exp(lnSaturation(T));
}

double humidityRatioFromVapourPressure(double p_w, double p) {
    checkPressure(p);
    if (!std::isfinite(p_w) || p_w < 0.0 || p_w >= p) {
        fail(fmt::format("vapour pressure {} Pa must be in 0..{} Pa (below the total pressure)",
                         p_w, p));
    }
    return kMolarMassRatio * p_w / (p - p_w);
}

double vapourPressureFromHumidityRatio(double W, double p) {
    checkPressure(p);
    checkHumidityRatio(W);
    return p * W / (kMolarMassRatio + W);
}

double dewPointFromVapourPressure(double p_w) {
    const double ln_lo = lnSaturation(kTMin), ln_hi = lnSaturation(kTMax);
    if (!std::isfinite(p_w) || p_w <= 0.0 || std::log(p_w) < ln_lo || std::log(p_w) > ln_hi) {
        fail(
            fmt::format("vapour pressure {} Pa is outside the saturation range {:.4g}..{:.6g} Pa "
                        "of -100..200 °C",
                        p_w, std::exp(ln_lo), std::exp(ln_hi)));
    }
    // ln p_ws(T) is smooth and monotonic, so the root in log space is well conditioned.
    const double target = std::log(p_w);
    auto f = [target](double T) { return lnSaturation(T) - target; };
    return brentRoot(f, kTMin, kTMax, ln_lo - target, ln_hi - target, kSolverTolerance);
}

double humidityRatioFromDewPoint(double T_dp, double p) {
    return humidityRatioFromVapourPressure(saturationPressure(T_dp), p);
}

double dewPointFromHumidityRatio(double W, double p) {
    return dewPointFromVapourPressure(vapourPressureFromHumidityRatio(W, p));
}

double relativeHumidity(double T_db, double T_dp) {
    T_dp = checkedDewPoint(T_db, T_dp);
    return std::exp(lnSaturation(T_dp) - lnSaturation(T_db));
}

double dewPointFromRelativeHumidity(double T_db, double rh) {
    checkTemperature(T_db, "dry-bulb temperature");
    checkRelativeHumidity(rh);
    if (rh == 0.0) fail("relative humidity 0 has no dew point (perfectly dry air)");
    return std::min(T_db, dewPointFromVapourPressure(std::min(rh, 1.0) * saturationPressure(T_db)));
}

WetBulbLine::WetBulbLine(double T_wb, double p) : T_wb_(T_wb) {
    checkTemperature(T_wb, "wet-bulb temperature");
    W_s_star_ = humidityRatioFromVapourPressure(saturationPressure(T_wb), p);
}

double WetBulbLine::humidityRatio(double T_db) const {
    checkTemperature(T_db, "dry-bulb temperature");
    return psychrometricEquation(kelvinToCelsius(T_db), kelvinToCelsius(T_wb_), W_s_star_);
}

double WetBulbLine::humidityRatioSlope(double T_db, double W) const {
    // W = (a − 1.006·(t − t*))/D, D = b + 1.86·t − c·t*: dW/dt = (−1.006 − 1.86·W)/D.
    const double t = kelvinToCelsius(T_db), t_wb = kelvinToCelsius(T_wb_);
    const double D =
        t_wb >= 0.0 ? 2501.0 + 1.86 * t - 4.186 * t_wb : 2830.0 + 1.86 * t - 2.1 * t_wb;
    return -(1.006 + 1.86 * W) / D;
}

double humidityRatioFromWetBulb(double T_db, double T_wb, double p) {
    checkTemperature(T_db, "dry-bulb temperature");
    return WetBulbLine(T_wb, p).humidityRatio(T_db);
}

double wetBulbFromHumidityRatio(double T_db, double W, double p) {
    checkTemperature(T_db, "dry-bulb temperature");
    checkPressure(p);
    checkHumidityRatio(W);
    // A dew point below -100 °C means nearly dry air; -100 °C then still brackets the wet bulb.
    const double p_w = vapourPressureFromHumidityRatio(W, p);
    const double T_dp =
        p_w > std::exp(lnSaturation(kTMin)) ? dewPointFromVapourPressure(p_w) : kTMin;
    return solveWetBulb(T_db, W, p, std::min(T_dp, T_db));
}

double wetBulbFromDewPoint(double T_db, double T_dp, double p) {
    T_dp = checkedDewPoint(T_db, T_dp);
    return solveWetBulb(T_db, humidityRatioFromDewPoint(T_dp, p), p, T_dp);
}

double wetBulbFromRelativeHumidity(double T_db, double rh, double p) {
    checkTemperature(T_db, "dry-bulb temperature");
    checkRelativeHumidity(rh);
    const double p_w = std::min(rh, 1.0) * saturationPressure(T_db);
    return wetBulbFromHumidityRatio(T_db, humidityRatioFromVapourPressure(p_w, p), p);
}

double moistAirEnthalpy(double T_db, double W) {
    checkTemperature(T_db, "dry-bulb temperature");
    checkHumidityRatio(W);
    const double t = kelvinToCelsius(T_db);
    return 1e3 * (1.006 * t + W * (2501.0 + 1.86 * t));
}

double moistAirSpecificVolume(double T_db, double W, double p) {
    checkTemperature(T_db, "dry-bulb temperature");
    checkHumidityRatio(W);
    checkPressure(p);
    return kRDryAir * T_db * (1.0 + W / kMolarMassRatio) / p;
}

double moistAirSpecificVolumeSlope(double T_db, double W, double p, double dW_dT) {
    return kRDryAir * ((1.0 + W / kMolarMassRatio) + T_db * dW_dT / kMolarMassRatio) / p;
}

double moistAirDensity(double T_db, double W, double p) {
    return (1.0 + W) / moistAirSpecificVolume(T_db, W, p);
}

double latentHeatOfVaporisation(double T) {
    checkTemperature(T, "water temperature");
    return 1e3 * (2501.0 - 2.326 * kelvinToCelsius(T));
}

}  // namespace dctwin::psychro
