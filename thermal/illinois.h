#pragma once
// Illinois root finding (a bracketed secant): superlinear, never leaves its bracket, and ends
// at round-off so that finite-difference Jacobians of a caller stay clean. Shared by the
// cooling tower's fan search (thermal/heat_rejection.cpp) and the outdoor loop's settling
// point (thermal/outdoor_loop.h).
//   c = (a·f_b − b·f_a)/(f_b − f_a)   (the bracket's midpoint where that leaves it),
//   the end whose f has c's sign moves to c; an end kept twice in a row has its f halved.
#include <cmath>

namespace dctwin::thermal {

/// The x in (a, b) where f(x) = 0, given f(a) = fa and f(b) = fb of opposite signs (either
/// order). Returns the trial where |f| < f_tol, or the trial made on a bracket already
/// narrower than x_tol; after 100 trials, the bracket's midpoint (not evaluated).
template <class F>
double illinois(F&& f, double a, double b, double fa, double fb, double f_tol, double x_tol) {
    int side = 0;
    for (int i = 0; i < 100; ++i) {
        double c = (a * fb - b * fa) / (fb - fa);
        if (!(c > a && c < b)) c = 0.5 * (a + b);
        const double fc = f(c);
        if (fc == 0.0 || b - a < x_tol || std::abs(fc) < f_tol) return c;
        if ((fc > 0.0) == (fa > 0.0)) {
            a = c;
            fa = fc;
            if (side == -1) fb *= 0.5;
            side = -1;
        } else {
            b = c;
            fb = fc;
            if (side == 1) fa *= 0.5;
            side = 1;
        }
    }
    return 0.5 * (a + b);
}

}  // namespace dctwin::thermal
