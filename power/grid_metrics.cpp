#include "power/grid_metrics.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <numbers>
#include <tuple>
#include <utility>

#include "core/errors.h"

namespace dctwin::power {
namespace {

using cplx = std::complex<double>;

bool isPowerOfTwo(std::size_t n) { return n && !(n & (n - 1)); }

/// The roots of unity e^{sign·2πi·k/n}, k < n/2, of a radix-2 transform of length n, each from
/// its own cos/sin (the running product w ← w·w_len drifted by ~n·ε at the end of a stage).
std::vector<cplx> twiddles(std::size_t n, int sign) {
    std::vector<cplx> w(n / 2);
    for (std::size_t k = 0; k < n / 2; ++k) {
        const double ang =
            sign * 2.0 * std::numbers::pi * static_cast<double>(k) / static_cast<double>(n);
        w[k] = cplx(std::cos(ang), std::sin(ang));
    }
    return w;
}

/// Iterative radix-2 Cooley–Tukey, forward (sign −1) or backward (sign +1), unscaled, with the
/// twiddles of twiddles(a.size(), sign). The butterfly is written in real arithmetic: the
/// operands are finite, so std::complex's NaN recovery (__muldc3) has nothing to do.
void radix2(std::vector<cplx>& a, const std::vector<cplx>& tw) {
    const std::size_t n = a.size();
    for (std::size_t i = 1, j = 0; i < n; ++i) {
        std::size_t bit = n >> 1;
        for (; j & bit; bit >>= 1) j ^= bit;
        j ^= bit;
        if (i < j) std::swap(a[i], a[j]);
    }
    auto* d = reinterpret_cast<double*>(a.data());  // [re, im] pairs (std::complex layout)
    const auto* t = reinterpret_cast<const double*>(tw.data());
    for (std::size_t len = 2; len <= n; len <<= 1) {
        const std::size_t half = len / 2, stride = n / len;
        for (std::size_t i = 0; i < n; i += len) {
            for (std::size_t k = 0; k < half; ++k) {
                const double wr = t[2 * k * stride], wi = t[2 * k * stride + 1];
                double* u = d + 2 * (i + k);
                double* v = d + 2 * (i + k + half);
                const double vr = v[0] * wr - v[1] * wi, vi = v[0] * wi + v[1] * wr;
                v[0] = u[0] - vr;
                v[1] = u[1] - vi;
                u[0] += vr;
                u[1] += vi;
            }
        }
    }
}

/// What a transform of length n needs besides its data, made once per length and direction
/// and kept for the thread's next transforms (a transient report transforms three channels of
/// the same length four times each).
struct Plan {
    std::size_t n = 0;
    int sign = 0;
    std::vector<cplx> tw;  // radix-2 twiddles: of n, or of Bluestein's padded length m
    // Bluestein (n not a power of two): the chirp c_j = e^{sign·iπ j²/n} and the transform of
    // the convolution kernel conj(c), both fixed by n and the sign.
    std::vector<cplx> chirp, kernel;
    std::vector<cplx> back;  // twiddles of the inverse length-m transform
};

const Plan& planFor(std::size_t n, int sign) {
    // The forward and the inverse plan of one length: a transient report's channels share
    // them, and a thread keeps at most those two (~9 MB at 36,001 samples, a Bluestein of
    // 131,072; a reference into the list lives only through one transform).
    thread_local std::vector<Plan> plans;
    for (const Plan& p : plans) {
        if (p.n == n && p.sign == sign) return p;
    }
    if (plans.size() >= 2) plans.erase(plans.begin());
    Plan p;
    p.n = n;
    p.sign = sign;
    if (isPowerOfTwo(n)) {
        p.tw = twiddles(n, sign);
    } else {
        std::size_t m = 1;
        while (m < 2 * n - 1) m <<= 1;
        p.tw = twiddles(m, -1);
        p.back = twiddles(m, +1);
        p.chirp.resize(n);
        for (std::size_t j = 0; j < n; ++j) {
            // j² mod 2N keeps the angle exact for long signals.
            const auto j2 = static_cast<double>((static_cast<unsigned long long>(j) * j) % (2 * n));
            const double ang = sign * std::numbers::pi * j2 / static_cast<double>(n);
            p.chirp[j] = cplx(std::cos(ang), std::sin(ang));
        }
        p.kernel.assign(m, 0.0);
        p.kernel[0] = std::conj(p.chirp[0]);
        for (std::size_t j = 1; j < n; ++j) p.kernel[j] = p.kernel[m - j] = std::conj(p.chirp[j]);
        radix2(p.kernel, p.tw);
    }
    plans.push_back(std::move(p));
    return plans.back();
}

/// Bluestein: X_k = conj(c_k) Σ_j (x_j conj(c_j)) c_{k−j}, c_j = e^{iπ j²/N}: a convolution
/// done with power-of-two FFTs.
void bluestein(std::vector<cplx>& x, const Plan& p) {
    const std::size_t n = x.size(), m = p.kernel.size();
    std::vector<cplx> a(m);
    for (std::size_t j = 0; j < n; ++j) a[j] = x[j] * p.chirp[j];
    radix2(a, p.tw);
    for (std::size_t k = 0; k < m; ++k) a[k] *= p.kernel[k];
    radix2(a, p.back);
    for (std::size_t k = 0; k < n; ++k) x[k] = a[k] * p.chirp[k] / static_cast<double>(m);
}

/// max − min of the real part and of the imaginary part of x.
std::pair<double, double> rangesOf(const std::vector<cplx>& x) {
    double rmin = INFINITY, rmax = -INFINITY, imin = INFINITY, imax = -INFINITY;
    for (const auto& v : x) {
        rmin = std::min(rmin, v.real());
        rmax = std::max(rmax, v.real());
        imin = std::min(imin, v.imag());
        imax = std::max(imax, v.imag());
    }
    return {rmax - rmin, imax - imin};
}

/// Largest (max − min) over windows of w samples (monotonic deques, O(N)).
double windowedSwing(const std::vector<double>& p, std::size_t w) {
    std::deque<std::size_t> hi, lo;
    double best = 0.0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        while (!hi.empty() && p[hi.back()] <= p[i]) hi.pop_back();
        while (!lo.empty() && p[lo.back()] >= p[i]) lo.pop_back();
        hi.push_back(i);
        lo.push_back(i);
        if (hi.front() + w <= i) hi.pop_front();
        if (lo.front() + w <= i) lo.pop_front();
        best = std::max(best, p[hi.front()] - p[lo.front()]);
    }
    return best;
}

/// Samples in a window of `window` seconds (at least one).
std::size_t samplesIn(double window, double dt) {
    return std::max<std::size_t>(1, static_cast<std::size_t>(std::llround(window / dt)));
}

/// Largest rise and largest fall [W/s] over `lag` samples.
std::pair<double, double> largestRamps(const std::vector<double>& p, double dt, std::size_t lag) {
    double up = 0, down = 0;
    for (std::size_t i = 0; i + lag < p.size(); ++i) {
        const double r = (p[i + lag] - p[i]) / (static_cast<double>(lag) * dt);
        up = std::max(up, r);
        down = std::max(down, -r);
    }
    return {up, down};
}

/// max − min over the whole signal, or over every window of w + 1 samples.
double swingOver(const std::vector<double>& p, std::size_t w) {
    if (w + 1 >= p.size()) {
        const auto [lo, hi] = std::minmax_element(p.begin(), p.end());
        return *hi - *lo;
    }
    return windowedSwing(p, w + 1);
}

}  // namespace

void fourierTransform(std::vector<cplx>& x, bool inverse) {
    if (x.size() <= 1) return;
    const Plan& p = planFor(x.size(), inverse ? +1 : -1);
    if (p.chirp.empty()) {
        radix2(x, p.tw);
    } else {
        bluestein(x, p);
    }
    if (inverse) {
        for (auto& v : x) v /= static_cast<double>(x.size());
    }
}

GridMetrics gridMetrics(const std::vector<double>& p, double dt, const GridMetricsOptions& o) {
    if (!(dt > 0.0) || !std::isfinite(dt)) {
        throw InputError(fmt::format("grid metrics: sample step {} s must be positive", dt));
    }
    if (p.size() < 2) {
        throw InputError(fmt::format("grid metrics: need at least 2 samples, got {}", p.size()));
    }
    for (std::size_t b = 0; b < o.band_edges.size(); ++b) {
        if (!(o.band_edges[b] >= 0.0) || (b > 0 && !(o.band_edges[b] > o.band_edges[b - 1]))) {
            throw InputError(fmt::format(
                "grid metrics: band edges must increase from ≥ 0 Hz, got {}", o.band_edges[b]));
        }
    }
    const std::size_t n = p.size();
    GridMetrics m;
    double sum = 0;
    for (double v : p) sum += v;
    m.mean = sum / static_cast<double>(n);
    const auto [lo, hi] = std::minmax_element(p.begin(), p.end());
    m.swing = *hi - *lo;
    const std::size_t w = o.swing_window > 0.0 ? samplesIn(o.swing_window, dt) : n;
    m.windowed_swing = w >= n ? m.swing : windowedSwing(p, w + 1);
    std::tie(m.max_ramp_up, m.max_ramp_down) =
        largestRamps(p, dt, samplesIn(std::max(o.ramp_window, dt), dt));
    for (double tw : o.ramp_windows) {
        const auto [up, down] = largestRamps(p, dt, samplesIn(std::max(tw, dt), dt));
        m.ramps.push_back({tw, std::max(up, down)});
    }
    for (double tw : o.swing_windows) m.swings.push_back({tw, swingOver(p, samplesIn(tw, dt))});

    if (!o.spectrum) return m;
    std::vector<cplx> X(n);
    for (std::size_t i = 0; i < n; ++i) X[i] = p[i] - m.mean;
    fourierTransform(X);
    const double df = 1.0 / (static_cast<double>(n) * dt), nyquist = 0.5 / dt;
    m.frequency_step = df;
    m.nyquist = nyquist;
    auto freq = [&](std::size_t k) { return static_cast<double>(std::min(k, n - k)) * df; };
    double total = 0, peak = 0;
    std::size_t kpeak = 0;
    for (std::size_t k = 1; k < n; ++k) {
        const double e = std::norm(X[k]);
        total += e;
        if (k <= n / 2 && e > peak) {
            peak = e;
            kpeak = k;
        }
    }
    if (kpeak > 0) {
        // A period that is not a whole fraction of the record falls between bins: the
        // parabola through the peak magnitude and its neighbours places it (δ in bins).
        double delta = 0;
        if (kpeak + 1 <= n / 2 && kpeak > 1) {
            const double a = std::abs(X[kpeak - 1]), b = std::abs(X[kpeak]),
                         c = std::abs(X[kpeak + 1]);
            const double den = a - 2 * b + c;
            if (den < 0) delta = std::clamp(0.5 * (a - c) / den, -0.5, 0.5);
        }
        m.dominant_period = 1.0 / ((static_cast<double>(kpeak) + delta) * df);
    }
    // The band-limited and slow signals: each selects |f| ranges, so its spectrum is Hermitian
    // and its inverse real. Two of them go through one inverse transform as Y1 + i·Y2, whose
    // inverse is y1 + i·y2 (half the transforms of a transient report).
    // A part with no spectral energy (no bin in its band, or only zeros) is transformed not at
    // all: its swing is 0 exactly. Paired with another, it read that one's round-off (1e-15 MW
    // for the empty 2 Hz band of a 1 s record).
    std::vector<std::vector<cplx>> parts;
    std::vector<double*> swings;
    m.bands.reserve(o.band_edges.size());  // swings point into it
    for (std::size_t b = 0; b < o.band_edges.size(); ++b) {
        BandShare s;
        s.lo = o.band_edges[b];
        const bool last = b + 1 == o.band_edges.size();
        s.hi = last ? nyquist : std::min(o.band_edges[b + 1], nyquist);
        std::vector<cplx> band(n, 0.0);
        double e = 0;
        std::size_t bins = 0;
        for (std::size_t k = 1; k < n; ++k) {
            const double f = freq(k);
            if (f >= s.lo && (f < s.hi || (last && f <= s.hi + 1e-12 * nyquist))) {
                band[k] = X[k];
                e += std::norm(X[k]);
                ++bins;
            }
        }
        s.resolved = bins > 0;
        s.share = total > 0 ? e / total : 0.0;
        m.bands.push_back(s);
        if (e > 0) {
            parts.push_back(std::move(band));
            swings.push_back(&m.bands.back().swing);
        }
    }
    if (o.envelope_cutoff > 0.0) {
        std::vector<cplx> slow(n, 0.0);
        double e = 0;
        for (std::size_t k = 1; k < n; ++k) {
            if (freq(k) < o.envelope_cutoff) {
                slow[k] = X[k];
                e += std::norm(X[k]);
            }
        }
        if (e > 0) {
            parts.push_back(std::move(slow));
            swings.push_back(&m.envelope_swing);
        }
    }
    for (std::size_t i = 0; i < parts.size(); i += 2) {
        std::vector<cplx>& z = parts[i];
        if (i + 1 < parts.size()) {
            const std::vector<cplx>& y = parts[i + 1];
            for (std::size_t k = 0; k < n; ++k) z[k] += cplx(-y[k].imag(), y[k].real());
        }
        fourierTransform(z, true);
        const auto [re, im] = rangesOf(z);
        *swings[i] = re;
        if (i + 1 < parts.size()) *swings[i + 1] = im;
    }
    return m;
}

GridCheck checkGridLimits(const GridMetrics& m, const GridLimits& l) {
    GridCheck c;
    if (l.ramp_limit) {
        for (const auto& [what, r] :
             {std::pair{"ramp up", m.max_ramp_up}, std::pair{"ramp down", m.max_ramp_down}}) {
            if (r > *l.ramp_limit) {
                c.failures.push_back(fmt::format("{} {:.4g} MW/min exceeds the limit {:.4g} MW/min",
                                                 what, r * 60 / 1e6, *l.ramp_limit * 60 / 1e6));
            }
        }
    }
    if (l.max_swing) {
        double s = m.windowed_swing;
        std::string where = "swing";
        if (l.swing_band) {
            if (*l.swing_band >= m.bands.size()) {
                throw InputError(fmt::format("grid limits: band {} does not exist ({} bands)",
                                             *l.swing_band, m.bands.size()));
            }
            const auto& b = m.bands[*l.swing_band];
            if (!b.resolved) {
                // A check that cannot be made must not pass: the band's swing would read 0.
                c.failures.push_back(fmt::format(
                    "the swing limit applies to band {} (from {:.3g} Hz), which the record does "
                    "not resolve: it holds frequencies up to {:.3g} Hz, in steps of {:.3g} Hz; "
                    "a shorter output interval or a longer study would",
                    *l.swing_band, b.lo, m.nyquist, m.frequency_step));
                c.pass = false;
                return c;
            }
            s = b.swing;
            where = fmt::format("swing in {:.3g}–{:.3g} Hz", b.lo, b.hi);
        }
        if (s > *l.max_swing) {
            c.failures.push_back(fmt::format("{} {:.4g} MW exceeds the limit {:.4g} MW", where,
                                             s / 1e6, *l.max_swing / 1e6));
        }
    }
    c.pass = c.failures.empty();
    return c;
}

}  // namespace dctwin::power
