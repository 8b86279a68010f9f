// Grid-side metrics (power/grid_metrics.h) on a synthetic square wave against its analytic
// values: swing, ramp, band shares and band swing within 1 %.
#include "power/grid_metrics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "test_util.h"

namespace dctwin::power {
namespace {

constexpr double kPi = std::numbers::pi;

/// A 50 % duty square wave between lo and lo + A, period T, sampled every dt for `periods`.
std::vector<double> square(double lo, double A, double T, double dt, int periods) {
    const auto per = static_cast<std::size_t>(std::llround(T / dt));
    std::vector<double> p;
    for (int k = 0; k < periods; ++k) {
        for (std::size_t i = 0; i < per; ++i) p.push_back(i < per / 2 ? lo + A : lo);
    }
    return p;
}

TEST(power_GridMetrics, FourierTransformOfAnyLengthMatchesTheDefinition) {
    for (std::size_t n : {8u, 12u, 97u}) {
        std::mt19937 rng(static_cast<unsigned>(n));
        std::uniform_real_distribution<double> u(-1, 1);
        std::vector<std::complex<double>> x(n);
        for (auto& v : x) v = {u(rng), u(rng)};
        auto X = x;
        fourierTransform(X);
        for (std::size_t k = 0; k < n; ++k) {
            std::complex<double> s = 0;
            for (std::size_t j = 0; j < n; ++j) {
                s += x[j] * std::polar(1.0, -2 * kPi * static_cast<double>(j * k) / n);
            }
            EXPECT_NEAR(std::abs(X[k] - s), 0.0, 1e-9) << n << " " << k;
        }
        fourierTransform(X, true);
        for (std::size_t j = 0; j < n; ++j) EXPECT_NEAR(std::abs(X[j] - x[j]), 0.0, 1e-12);
    }
}

TEST(power_GridMetrics, SquareWaveMatchesItsAnalyticValues) {
    // 64 racks × 60 kW swing: A = 3.84 MW between 5 and 8.84 MW, T = 2 s, sampled at 10 ms
    // (200 samples a period, 50 periods; N = 10,000, not a power of two: Bluestein).
    const double A = 3.84e6, T = 2.0, dt = 0.01;
    const auto p = square(5e6, A, T, dt, 50);
    GridMetricsOptions o;  // bands 0.1–2 Hz and 2–50 Hz
    o.swing_window = 10.0;
    const GridMetrics m = gridMetrics(p, dt, o);
    EXPECT_NEAR(m.mean, 5e6 + A / 2, 1e-6 * A);
    EXPECT_NEAR(m.swing, A, 1e-9 * A);
    EXPECT_NEAR(m.windowed_swing, A, 1e-9 * A);
    // Edges are instantaneous: one sample step carries the whole swing, A/dt.
    EXPECT_NEAR(m.max_ramp_up, A / dt, 0.01 * A / dt);
    EXPECT_NEAR(m.max_ramp_down, A / dt, 0.01 * A / dt);
    EXPECT_NEAR(m.dominant_period, T, 0.01 * T);
    // Fourier series of a square wave: odd harmonics k with amplitude 2A/(πk); the variance
    // A²/4 splits as (8/π²)/k² per harmonic. 0.1–2 Hz holds k = 1 (0.5 Hz) and 3 (1.5 Hz).
    const double share_low = 8 / (kPi * kPi) * (1.0 + 1.0 / 9.0);  // 0.9006
    ASSERT_EQ(m.bands.size(), 2u);
    EXPECT_NEAR(m.bands[0].lo, 0.1, 1e-12);
    EXPECT_NEAR(m.bands[0].hi, 2.0, 1e-12);
    EXPECT_NEAR(m.bands[1].hi, 50.0, 1e-12);
    EXPECT_NEAR(m.bands[0].share, share_low, 0.01 * share_low);
    EXPECT_NEAR(m.bands[1].share, 1 - share_low, 0.01 * (1 - share_low));
    // Band-limited signal (2A/π)(sin ωt + sin 3ωt / 3) peaks at ωt = π/4 with
    // (2A/π)·(4/3)·(√2/2): its swing is twice that, 1.2004·A.
    const double band_swing = 2 * (2 * A / kPi) * (4.0 / 3.0) * (std::sqrt(2.0) / 2);
    EXPECT_NEAR(m.bands[0].swing, band_swing, 0.01 * band_swing);
    // Ramp over 1 s: a whole half period, A per second at most.
    o.ramp_window = 1.0;
    EXPECT_NEAR(gridMetrics(p, dt, o).max_ramp_up, A / 1.0, 0.01 * A);
}

TEST(power_GridMetrics, EachBandAndTheEnvelopeGetTheirOwnToneExactly) {
    // A tone in each part: 0.02 Hz (below the 0.1 Hz envelope cutoff), 0.5 Hz (0.1–2 Hz),
    // 3 Hz (2–4 Hz) and 5 Hz (4 Hz–Nyquist), cosines sampled at their peaks and troughs
    // (dt = 0.05 s: 1,000, 40, 6.67 and 4 samples a period), whole periods in the record.
    // Each band-limited signal is its own tone, so its swing is twice its amplitude and its
    // share its amplitude² over the sum. The inverse transforms go two at a time (one as the
    // real, one as the imaginary part): a mix-up of the pair, or a pair left out, shows here.
    const double dt = 0.05;
    const double amp[4] = {4e6, 1e6, 0.5e6, 0.25e6}, freq[4] = {0.02, 0.5, 3.0, 5.0};
    for (std::size_t n : {3000u, 4000u}) {  // 150 s and 200 s; neither a power of two
        std::vector<double> p(n);
        for (std::size_t i = 0; i < n; ++i) {
            const double t = static_cast<double>(i) * dt;
            p[i] = 10e6;
            for (int j = 0; j < 4; ++j) p[i] += amp[j] * std::cos(2 * kPi * freq[j] * t);
        }
        double var = 0;
        for (double a : amp) var += a * a;
        for (bool three_bands : {false, true}) {
            GridMetricsOptions o;
            o.envelope_cutoff = 0.1;
            o.band_edges =
                three_bands ? std::vector<double>{0.1, 2.0, 4.0} : std::vector<double>{0.1, 2.0};
            const GridMetrics m = gridMetrics(p, dt, o);
            ASSERT_EQ(m.bands.size(), three_bands ? 3u : 2u);
            EXPECT_NEAR(m.envelope_swing, 2 * amp[0], 1e-9 * amp[0]) << n;
            EXPECT_NEAR(m.bands[0].swing, 2 * amp[1], 1e-9 * amp[1]) << n;
            EXPECT_NEAR(m.bands[0].share, amp[1] * amp[1] / var, 1e-12) << n;
            if (three_bands) {
                // 3 Hz at 0.05 s: 6.67 samples a period, but every tenth sample (0.5 s, an
                // odd number of half periods) is a trough, so the sampled swing is 2A.
                EXPECT_NEAR(m.bands[1].swing, 2 * amp[2], 1e-9 * amp[2]) << n;
                EXPECT_NEAR(m.bands[2].swing, 2 * amp[3], 1e-9 * amp[3]) << n;
                EXPECT_NEAR(m.bands[2].share, amp[3] * amp[3] / var, 1e-12) << n;
            } else {
                // 3 and 5 Hz together: both peak at t = 0 (A₂ + A₃) and their sum's trough,
                // sampled, is found by brute force.
                double lo = INFINITY;
                for (std::size_t i = 0; i < n; ++i) {
                    const double t = static_cast<double>(i) * dt;
                    lo = std::min(lo, amp[2] * std::cos(2 * kPi * freq[2] * t) +
                                          amp[3] * std::cos(2 * kPi * freq[3] * t));
                }
                EXPECT_NEAR(m.bands[1].swing, amp[2] + amp[3] - lo, 1e-9 * amp[2]) << n;
            }
        }
    }
}

TEST(power_GridMetrics, LimitsPassAndFail) {
    const double A = 3.84e6, dt = 0.01;
    const auto p = square(5e6, A, 2.0, dt, 10);
    GridMetricsOptions o;
    o.ramp_window = 1.0;
    const GridMetrics m = gridMetrics(p, dt, o);
    GridLimits l;
    l.ramp_limit = 10e6 / 60.0;  // 10 MW/min; the wave ramps 3.84 MW/s = 230 MW/min
    l.max_swing = 5e6;
    GridCheck c = checkGridLimits(m, l);
    EXPECT_FALSE(c.pass);
    ASSERT_EQ(c.failures.size(), 2u);  // up and down
    EXPECT_NE(c.failures[0].find("ramp up 230.4 MW/min exceeds the limit 10 MW/min"),
              std::string::npos)
        << c.failures[0];
    l.ramp_limit.reset();
    EXPECT_TRUE(checkGridLimits(m, l).pass);  // swing 3.84 MW ≤ 5 MW
    l.swing_band = 0;
    l.max_swing = 4e6;  // band swing 4.61 MW > 4 MW
    c = checkGridLimits(m, l);
    EXPECT_FALSE(c.pass);
    EXPECT_NE(c.failures[0].find("swing in 0.1–2 Hz"), std::string::npos) << c.failures[0];
    test::expectInputError([&] { gridMetrics({1.0}, 0.1); }, {"at least 2 samples"});
    o.band_edges = {2.0, 1.0};
    test::expectInputError([&] { gridMetrics(p, dt, o); }, {"band edges must increase"});
}

TEST(power_GridMetrics, BandsTheRecordCannotSeeAreMarkedAndNeverPassALimit) {
    // A contingency's 1 s output: Nyquist 0.5 Hz. The default bands are 0.1–2 Hz, which the
    // record sees up to 0.5 Hz only, and 2 Hz–Nyquist, which it cannot see at all. A 0.25 Hz
    // square wave (4 s period) over 600 s: its fundamental is in band 0.
    const double dt = 1.0;
    const auto p = square(5e6, 1e6, 4.0, dt, 150);
    const GridMetrics m = gridMetrics(p, dt, {});
    EXPECT_DOUBLE_EQ(m.nyquist, 0.5);
    EXPECT_DOUBLE_EQ(m.frequency_step, 1.0 / 600.0);
    ASSERT_EQ(m.bands.size(), 2u);
    EXPECT_TRUE(m.bands[0].resolved);
    EXPECT_DOUBLE_EQ(m.bands[0].hi, 0.5);  // not 2 Hz: nothing above 0.5 Hz was looked at
    // Sampled at 1 s, the wave reads hi, hi, lo, lo: all its variance sits at 0.25 Hz.
    EXPECT_NEAR(m.bands[0].share, 1.0, 1e-12);
    EXPECT_FALSE(m.bands[1].resolved);
    // Exactly 0, not the round-off of band 0's inverse transform it was paired with
    // (1.1e-15 MW in the CDU pump trip's summary before).
    EXPECT_EQ(m.bands[1].swing, 0.0);
    EXPECT_EQ(m.bands[1].share, 0.0);
    // A swing limit on the band it cannot see fails, and says why; on band 0 it is checked.
    GridLimits l;
    l.max_swing = 10e6;
    l.swing_band = 1;
    const GridCheck c = checkGridLimits(m, l);
    EXPECT_FALSE(c.pass);
    ASSERT_EQ(c.failures.size(), 1u);
    EXPECT_NE(c.failures[0].find("does not resolve: it holds frequencies up to 0.5 Hz"),
              std::string::npos)
        << c.failures[0];
    l.swing_band = 0;
    EXPECT_TRUE(checkGridLimits(m, l).pass);
    // Too short a record is the other way to miss a band: in 20 s (Δf 0.05 Hz) 0.11–0.14 Hz
    // holds no bin (0.10 and 0.15 Hz are the nearest), 0.14–0.2 Hz holds 0.15 Hz.
    GridMetricsOptions o;
    o.band_edges = {0.11, 0.14, 0.2};
    const GridMetrics s = gridMetrics(square(5e6, 1e6, 4.0, 0.5, 5), 0.5, o);
    EXPECT_FALSE(s.bands[0].resolved);
    EXPECT_EQ(s.bands[0].swing, 0.0);
    EXPECT_TRUE(s.bands[1].resolved);
    EXPECT_TRUE(s.bands[2].resolved);
}

TEST(power_GridMetrics, WindowedRampsSwingsAndSlowEnvelopeMatchHandValues) {
    // Issue 18: what a utility states, over given windows. A 0.5 Hz square wave of 1 MW (the
    // iterations) on a 0.01 Hz sine of 4 MW peak to peak (the slow envelope a job start or a
    // checkpoint gives), 200 s at 0.1 s (both whole numbers of periods in the record).
    const double dt = 0.1, A = 1e6, S = 4e6;
    const std::vector<double> sq = square(0, A, 2.0, dt, 100);
    std::vector<double> p(sq.size());
    for (std::size_t i = 0; i < p.size(); ++i) {
        p[i] = sq[i] + 0.5 * S * std::sin(2 * kPi * 0.01 * static_cast<double>(i) * dt);
    }
    GridMetricsOptions o;
    o.ramp_windows = {0.1, 1.0};
    o.swing_windows = {1.0, 10.0, 60.0};
    o.envelope_cutoff = 0.1;
    const GridMetrics m = gridMetrics(p, dt, o);
    ASSERT_EQ(m.ramps.size(), 2u);
    ASSERT_EQ(m.swings.size(), 3u);
    // Over one sample the square's edge (A in 0.1 s = 10 MW/s) plus at most the sine's
    // steepest slope (π·0.01·S = 0.126 MW/s) times one sample.
    const double sine_slope = kPi * 0.01 * S;
    EXPECT_NEAR(m.ramps[0].value, A / dt, sine_slope * 1.01);
    // Over 1 s (half a period) the square wave changes by A at most: A/1 s + the sine.
    EXPECT_NEAR(m.ramps[1].value, A / 1.0, sine_slope * 1.01);
    // Within 1 s: the square's A plus ≤ 1 s of the sine. Within 10 s: A plus the sine's
    // largest change over 10 s, S·sin(π·0.01·10) = 0.309·S (around its zero crossing). Within
    // 60 s, more than the sine's half period: A + S.
    EXPECT_NEAR(m.swings[0].value, A, sine_slope * 1.01);
    EXPECT_NEAR(m.swings[1].value, A + S * std::sin(0.1 * kPi), 0.01 * S);
    EXPECT_NEAR(m.swings[2].value, A + S, 0.01 * S);
    // The slow envelope: the sine alone (the square wave has no content below 0.5 Hz), S.
    EXPECT_NEAR(m.envelope_swing, S, 0.01 * S);
}

}  // namespace
}  // namespace dctwin::power
