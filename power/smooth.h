#pragma once
// Smooth replacements for max(), clamp() and switches, so right-hand sides stay continuously
// differentiable and CVODE's Newton iteration converges (DESIGN.md §4: no integration across
// a jump). Each takes a width that sets how sharp the corner is; the exact function is the
// limit width → 0.
#include <algorithm>
#include <cmath>

namespace dctwin::power::smooth {

/// ≈ max(x, 0); C∞, exceeds max(x, 0) by at most eps/2 (at x = 0).
inline double positivePart(double x, double eps) {
    return 0.5 * (x + std::sqrt(x * x + eps * eps));
}

/// ≈ max(a, b) with a corner of width eps.
inline double max(double a, double b, double eps) { return b + positivePart(a - b, eps); }

/// C¹ step: 0 for z ≤ 0, 1 for z ≥ 1, 3z² − 2z³ between.
inline double step01(double z) {
    if (z <= 0.0) return 0.0;
    if (z >= 1.0) return 1.0;
    return z * z * (3.0 - 2.0 * z);
}

/// Saturates a rate x to (−down, up): up·tanh(x/up) for x > 0, down·tanh(x/down) otherwise.
/// Both branches have value 0 and slope 1 at x = 0 (and zero curvature), so the join is C².
inline double rateLimit(double x, double up, double down) {
    if (x >= 0.0) return up > 0.0 ? up * std::tanh(x / up) : 0.0;
    return down > 0.0 ? down * std::tanh(x / down) : 0.0;
}

/// Rate of a continuous set–reset latch L ∈ [0, 1] (1 = set):
///   dL/dt = (s·(1 − L) − r·L)/τ
/// with set and reset drives s, r ∈ [0, 1]. With s = r = 0, L keeps its value (the latch's
/// memory); s = 1 drives L to 1 within a few τ, r = 1 drives it to 0. A state, not a switch,
/// so the integrator sees a smooth right-hand side and no root finding is needed.
inline double latchRate(double L, double set, double reset, double tau) {
    return (set * (1.0 - L) - reset * L) / tau;
}

}  // namespace dctwin::power::smooth
