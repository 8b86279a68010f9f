#pragma once
/// @file
/// @brief What the grid sees of a power signal (DESIGN.md §3.5 transient studies; issue 11):
/// swings, ramps and the share of the variance in frequency bands, and a pass/fail check
/// against the limits a utility states.
///
/// The signal p_i = P(t_0 + i·Δt), i = 0..N−1, is uniformly sampled [W, Δt in s].
/// Equations:
///   swing           S = max p − min p                                               [W]
///   windowed swing  S_W = max over windows of W seconds of (max − min) inside      [W]
///   ramp            r_i = (p_{i+m} − p_i)/(m·Δt), m = max(1, round(τ/Δt)) for a ramp
///                   window τ; max ramp up = max r_i, max ramp down = max(−r_i)       [W/s]
///   spectrum        X_k = Σ_i (p_i − p̄)·e^{−2πi·ik/N} (DFT, radix-2 or Bluestein),
///                   f_k = k/(N·Δt); by Parseval the variance is σ² = Σ_{k≠0} |X_k|²/N²
///   band share      s_b = Σ_{f_lo ≤ |f_k| < f_hi} |X_k|² / Σ_{k≠0} |X_k|²            [1]
///                   (the last band runs to the Nyquist frequency 1/(2Δt) inclusive, and no
///                   band beyond it; a band no f_k falls in is not resolved)
///   band swing      max − min of the band-limited signal IDFT(X·1_band)              [W]
///   dominant period 1/((k* + δ)·Δf), k* the largest |X_k| (k ≠ 0), δ the vertex of the
///                   parabola through |X_{k*−1}|, |X_{k*}|, |X_{k*+1}|                 [s]
///   envelope swing  max − min of IDFT(X·1_{|f| < f_env}) + p̄: what job starts, checkpoints
///                   and job ends do, with the iteration oscillation (≥ f_env) taken out [W]
///   window lists    the ramp max(max r_i, max −r_i) and the windowed swing for each of a
///                   list of windows (issue 18: 0.1 s and 1 s ramps, 1/10/60 s swings)
/// Default bands 0.1–2 Hz (training iterations, domain-facts F: 0.2–3 Hz seen in
/// production) and 2 Hz–Nyquist (sub-iteration transients).
#include <complex>
#include <optional>
#include <string>
#include <vector>

namespace dctwin::power {

/// @brief In-place discrete Fourier transform of any length (radix-2 FFT; Bluestein's
/// chirp-z for other lengths). `inverse` gives Σ X_k e^{+2πi·ik/N} / N.
void fourierTransform(std::vector<std::complex<double>>& x, bool inverse = false);

struct GridMetricsOptions {
    double swing_window = 0.0;                 ///< [s] W; 0: the whole signal
    double ramp_window = 0.0;                  ///< [s] τ; 0: one sample
    std::vector<double> band_edges{0.1, 2.0};  ///< [Hz] increasing; last band to Nyquist
    bool spectrum = true;                      ///< false: no DFT (no bands, dominant period 0)
    std::vector<double> ramp_windows;          ///< [s] extra ramp windows (GridMetrics::ramps)
    std::vector<double> swing_windows;         ///< [s] extra swing windows (GridMetrics::swings)
    double envelope_cutoff = 0.0;              ///< [Hz] f_env; 0: no envelope swing
};

/// One figure at a stated window (a window shorter than the sample step is one sample).
struct WindowFigure {
    double window = 0;  ///< [s] as asked
    double value = 0;   ///< [W/s] for a ramp (largest up or down), [W] for a swing
};

struct BandShare {
    double lo = 0;     ///< [Hz]
    double hi = 0;     ///< [Hz] the next edge or the Nyquist frequency, whichever is lower
    double share = 0;  ///< [1] of the variance
    double swing = 0;  ///< [W] max − min of the band-limited signal (0 without energy in it)
    /// False when no frequency f_k of the record falls in the band (it starts at or above the
    /// Nyquist frequency, or it is narrower than Δf): share and swing then say nothing of it.
    bool resolved = true;
};

struct GridMetrics {
    double mean = 0;             ///< [W]
    double swing = 0;            ///< [W] whole signal
    double windowed_swing = 0;   ///< [W] largest within a window
    double max_ramp_up = 0;      ///< [W/s]
    double max_ramp_down = 0;    ///< [W/s] (positive number)
    double dominant_period = 0;  ///< [s] 0 for a constant signal
    double frequency_step = 0;   ///< [Hz] Δf = 1/(N·Δt) (0 without a spectrum)
    double nyquist = 0;          ///< [Hz] 1/(2Δt) (0 without a spectrum)
    std::vector<BandShare> bands;
    std::vector<WindowFigure> ramps;   ///< one per GridMetricsOptions::ramp_windows
    std::vector<WindowFigure> swings;  ///< one per GridMetricsOptions::swing_windows
    double envelope_swing = 0;         ///< [W] (0 without a cutoff or spectrum)
};

/// @brief The metrics above of p sampled every dt seconds (InputError if dt ≤ 0 or fewer than
/// 2 samples, or band edges not increasing and positive).
GridMetrics gridMetrics(const std::vector<double>& p, double dt,
                        const GridMetricsOptions& options = {});

/// Limits a scenario states; absent ones are not checked.
struct GridLimits {
    std::optional<double> ramp_limit;       ///< [W/s] on the max ramp up and down
    std::optional<double> max_swing;        ///< [W] on the swing of `swing_band` (or the windowed
                                            ///< swing when swing_band is absent)
    std::optional<std::size_t> swing_band;  ///< index into GridMetrics::bands
};

struct GridCheck {
    bool pass = true;
    std::vector<std::string> failures;  ///< what exceeded which limit, for the report
};

/// @brief Compares metrics with limits.
GridCheck checkGridLimits(const GridMetrics& m, const GridLimits& limits);

}  // namespace dctwin::power
