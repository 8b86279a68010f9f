// Issue 18: GB300 power smoothing holds its ramp limits when the PSU store runs empty, by
// holding the GPUs back (the work slows), and reports what that defers. One GB300 NVL72 rack's
// shelf-input demand stepping through a job start, iterations with plateaus far longer than
// the 65 J per GPU can bridge, a checkpoint dip and a job end, integrated by CVODE.
//
// Sources: NVIDIA Technical Blog, "How New GB300 NVL72 Features Provide Steady Power for AI"
// (Jul 28 2025): 65 J per GPU of PSU storage, a power-cap ramp at the job start, storage that
// charges in the valleys and discharges on the peaks, a power floor ("GPU burn") and a
// ramp-down at a limited rate at the end (domain-facts A5). NVML "Power Smoothing" knobs:
// ramp rates in W/s per GPU and the floor as a percentage of TGP (domain-facts A5).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "core/simulator.h"
#include "core/system.h"
#include "power/rack.h"
#include "power/smoothing.h"
#include "test_util.h"

namespace dctwin::power {
namespace {

using test::catalog;

/// A piecewise-constant demand and floor switch: level i holds from breaks[i] to breaks[i+1].
struct Profile : Component {
    std::vector<double> breaks, power, floor;
    Profile(std::vector<double> b, std::vector<double> p, std::vector<double> f)
        : Component("profile"), breaks(std::move(b)), power(std::move(p)), floor(std::move(f)) {
        addOutput({"power", "W", 1e5, power.front(), "demand"});
        addOutput({"floor_active", "1", 1.0, floor.front(), "job running"});
    }
    std::size_t at(double t) const {
        std::size_t i = 0;
        while (i + 1 < breaks.size() && t >= breaks[i + 1]) ++i;
        return i;
    }
    void computeOutputs(double t, std::span<const double>, std::span<const double>,
                        std::span<double> y) const override {
        y[0] = power[at(t)];
        y[1] = floor[at(t)];
    }
    void discontinuities(double t0, double t1, std::vector<double>& out) const override {
        for (double b : breaks) {
            if (b > t0 && b <= t1) out.push_back(b);
        }
    }
};

struct SmoothRun {
    SampleVector t, grid, deferred, stored;   // sampled [s], [W], [W], [J]
    SampleVector floor, burnt_e, deferred_e;  // sampled [W], [J], [J]
    double E_grid = 0, E_load = 0, E_burn = 0, E_def = 0, E_s0 = 0, E_s1 = 0;  // [J]
};

SmoothRun simulate(std::shared_ptr<const Profile> prof, const SmoothingParams& p, double t_end,
                   double dt_out) {
    System sys;
    sys.add(std::move(prof));
    sys.add(std::make_shared<const PowerSmoothing>("smooth", p));
    sys.connect("profile.power", "smooth.load_power");
    sys.connect("profile.floor_active", "smooth.floor_active");
    sys.finalize();
    SimulationOptions o;
    o.t_end = t_end;
    o.output_interval = dt_out;
    o.solver.rel_tol = 1e-9;
    o.solver.abs_tol_factor = 1e-9;
    o.solver.max_step = 0.01;
    Simulator sim(sys, o);
    Recorder rec(sys);
    rec.addOutput("smooth.grid_power", "p", "grid");
    rec.addOutput("smooth.deferred_power", "p", "deferred");
    rec.addOutput("smooth.floor_power", "p", "floor");
    rec.addState("smooth.stored_energy", "e", "stored");
    rec.addState("smooth.grid_energy", "e", "grid");
    rec.addState("smooth.load_energy", "e", "load");
    rec.addState("smooth.burnt_energy", "e", "burnt");
    rec.addState("smooth.deferred_energy", "e", "deferred");
    sim.run(rec);
    const ResultSet& rs = rec.results();
    SmoothRun r;
    r.t = rs.time;
    r.grid = rs.at("p", "grid").values;
    r.deferred = rs.at("p", "deferred").values;
    r.stored = rs.at("e", "stored").values;
    r.floor = rs.at("p", "floor").values;
    r.burnt_e = rs.at("e", "burnt").values;
    r.deferred_e = rs.at("e", "deferred").values;
    r.E_grid = rs.at("e", "grid").values.back();
    r.E_load = rs.at("e", "load").values.back();
    r.E_burn = rs.at("e", "burnt").values.back();
    r.E_def = rs.at("e", "deferred").values.back();
    r.E_s0 = r.stored.front();
    r.E_s1 = r.stored.back();
    return r;
}

/// Index of the first sample at or after t.
std::size_t sampleAt(const SmoothRun& r, double t) {
    return static_cast<std::size_t>(std::lower_bound(r.t.begin(), r.t.end(), t - 1e-9) -
                                    r.t.begin());
}

/// Largest |ΔP/Δt| between consecutive samples [W/s].
double largestRamp(const SmoothRun& r) {
    double m = 0;
    for (std::size_t i = 1; i < r.t.size(); ++i) {
        m = std::max(m, std::abs(r.grid[i] - r.grid[i - 1]) / (r.t[i] - r.t[i - 1]));
    }
    return m;
}

TEST(power_SmoothingRamp, GridRampHeldWhenTheStoreRunsEmptyAndDeferredMatchesHandIntegral) {
    const RackSpec spec = catalog().rack("gb300_nvl72");
    const RackPowerModel rpm(spec);
    // Shelf-input power of one rack: idle I, full H (every GPU at TGP), floor F (every GPU at
    // 60 % of TGP, the transient scenario's floor; NVML states the floor as % of TGP).
    const double I = rpm.evaluate(0.0).it_power;
    const double H = rpm.evaluate(1.0).it_power;
    const double F = rpm.evaluate(rpm.utilizationForGpuFraction(0.6)).it_power;
    const double M = rpm.evaluate(rpm.utilizationForGpuFraction(0.5)).it_power;  // comm phase
    ASSERT_LT(M, F);  // the floor holds the communication phase up
    const double E_max = spec.gpus * spec.storage_per_gpu;  // 72 × 65 J = 4,680 J
    // 500 W/s per GPU: the top of the illustrative 70–500 W/s presets (domain-facts A5), so a
    // rise from the floor to full load (ΔP ≈ 50 kW) takes 1.4 s, inside a 4 s plateau.
    const double r = 500.0 * spec.gpus;  // [W/s] per rack, up and down

    // 0–2 s idle, no job. 2 s: job start (floor on, full load). Iterations of 4 s at full load
    // and 4 s in communication; a checkpoint dip to idle 22–26 s in place of a communication
    // phase; iterations again;
    // 50 s: job end (floor off, idle). Every plateau is > 40 times the 94 ms the store
    // bridges.
    std::vector<double> b = {0, 2}, P = {I, H}, A = {0, 1};
    for (double t = 6; t < 50; t += 4) {
        b.push_back(t);
        const bool ckpt = t == 22;
        const bool high = static_cast<int>(std::lround((t - 2) / 4)) % 2 == 0;
        P.push_back(ckpt ? I : (high ? H : M));
        A.push_back(1);
    }
    b.push_back(50);
    P.push_back(I);
    A.push_back(0);
    const auto prof = std::make_shared<const Profile>(b, P, A);

    SmoothingParams p;
    p.storage_energy = E_max;
    p.initial_soc = 0.5;
    p.floor_power = F;
    p.ramp_up = p.ramp_down = r;
    p.hysteresis = 0;      // no hold: the hand calculation follows the load's steps
    p.storage_time = 1e4;  // no pull back to half charge within the run
    p.initial_power = I;
    p.nominal_power = H;
    p.nominal_time = 60;
    const SmoothRun run = simulate(prof, p, 60.0, 0.01);

    // (1) The grid side never ramps faster than the limit. The whole rack (GPUs and the rest)
    // is limited, so the bound "per GPU × GPUs + non-GPU parts' own ramp" × 1.05 is
    // looser than the r × 1.05 checked here. Without the GPU-side limit the grid took the
    // rest of a step at once when the store ran empty (issue 18: 13.5 MW/s on 64 racks
    // against a 0.46 MW/s limit).
    const double ramp = largestRamp(run);
    std::printf("largest grid ramp %.1f W/s (limit %.1f W/s); demand steps of %.1f kW\n", ramp, r,
                (H - I) / 1e3);
    EXPECT_LE(ramp, 1.05 * r);
    EXPECT_GT(ramp, 0.9 * r);  // the limit is what shapes the rises

    // (2) Deferred energy by hand: a rise of ΔP met by a command ramping at r leaves a
    // shortfall ΔP − r·t for ΔP/r seconds, ∫ = ΔP²/(2r); the store covers what it holds at
    // the start of the rise and the GPUs are held back for the rest. The job start rises
    // from I with the store half full; the other five rises (10, 18, 26, 34, 42 s) start from
    // the floor F (the communication phases and the checkpoint dip sit on the floor) with
    // the store full (each fall's surplus ΔP²/(2r) ≈ 35 kJ ≫ 4.7 kJ filled it).
    const double rises_from_floor = 5;
    const double hand = ((H - I) * (H - I) / (2 * r) - 0.5 * E_max) +
                        rises_from_floor * ((H - F) * (H - F) / (2 * r) - E_max);
    // As compute: the energy over one GPU's idle-to-full shelf-input power = GPU-seconds of
    // full-speed work held back.
    const double per_gpu = (H - I) / spec.gpus;
    std::printf("deferred %.1f kJ = %.1f GPU-s (hand %.1f kJ = %.1f GPU-s), burnt %.1f kJ\n",
                run.E_def / 1e3, run.E_def / per_gpu, hand / 1e3, hand / per_gpu, run.E_burn / 1e3);
    EXPECT_NEAR(run.E_def / per_gpu, hand / per_gpu, 0.02 * hand / per_gpu);

    // (3) Energy balance over the run: grid = load drawn + burnt + change in storage.
    const double residual = run.E_grid - run.E_load - run.E_burn - (run.E_s1 - run.E_s0);
    std::printf("energy balance residual %.3e of %.1f MJ\n", residual / run.E_grid,
                run.E_grid / 1e6);
    EXPECT_LT(std::abs(residual) / run.E_grid, 1e-6);
    // The store stays within its capacity.
    for (double e : run.stored) {
        EXPECT_GE(e, -1e-6 * E_max);
        EXPECT_LE(e, E_max * (1 + 1e-6));
    }
}

TEST(power_SmoothingRamp, SixtyFiveJoulesPerGpuBridgeAFiftyKilowattStepForAbout94ms) {
    // Arithmetic limit (domain-facts A5, "ride-through of the storage"): 72 GPUs × 65 J =
    // 4,680 J covers a 50 kW rack step for 4,680 / 50,000 = 93.6 ms. A full store and a
    // grid command that does not move (ramp limit 1 mW/s per GPU): the GPUs must be held back
    // from the moment the store is spent. The store's empty gate tapers the last 5 % of its
    // energy (power/smoothing.h), so half the step is deferred ~3 ms before the arithmetic
    // time (88.9 ms at full rate, then ~3 ms of taper): 5 % tolerance.
    const RackSpec spec = catalog().rack("gb300_nvl72");
    const double E_max = spec.gpus * spec.storage_per_gpu;
    const double base = 60e3, step = 50e3, t_step = 0.1;
    const auto prof = std::make_shared<const Profile>(std::vector<double>{0, t_step},
                                                      std::vector<double>{base, base + step},
                                                      std::vector<double>{0, 0});
    SmoothingParams p;
    p.storage_energy = E_max;
    p.initial_soc = 1.0;
    p.ramp_up = p.ramp_down = 1e-3 * spec.gpus;
    p.initial_power = base;
    p.nominal_power = base + step;
    p.nominal_time = 1;
    const SmoothRun run = simulate(prof, p, 0.4, 1e-4);
    double t_half = -1;
    for (std::size_t i = 0; i < run.t.size(); ++i) {
        if (run.t[i] > t_step && run.deferred[i] >= 0.5 * step) {
            t_half = run.t[i] - t_step;
            break;
        }
    }
    const double bridge = E_max / step;
    std::printf("store bridges %.1f ms (arithmetic %.1f ms)\n", 1e3 * t_half, 1e3 * bridge);
    EXPECT_NEAR(bridge, 0.0936, 1e-9);
    EXPECT_NEAR(t_half, bridge, 0.05 * bridge);
    // Once the store is spent the grid side stays where it was: the step is deferred.
    EXPECT_NEAR(run.grid.back(), base, 1e-3 * step);
    EXPECT_NEAR(run.deferred.back(), step, 1e-3 * step);
}

/// Bursts at full load (every GPU at TGP) for `on` seconds every `period` seconds on a base of
/// `base_frac` of TGP, for `t_end` seconds, on one rack's shelf input.
std::shared_ptr<const Profile> bursts(const RackPowerModel& rpm, double base_frac, double on,
                                      double period, double t_end) {
    const double H = rpm.evaluate(1.0).it_power;
    const double B = rpm.evaluate(rpm.utilizationForGpuFraction(base_frac)).it_power;
    std::vector<double> b, P, A;
    for (double t = 0; t < t_end - 1e-9; t += period) {
        b.insert(b.end(), {t, t + on});
        P.insert(P.end(), {H, B});
        A.insert(A.end(), {0, 0});
    }
    return std::make_shared<const Profile>(b, P, A);
}

TEST(power_SmoothingRamp, StorageLowersPeakGridDemandAgainstAShelfWithoutStorage) {
    // NVIDIA (GB300 steady-power blog, Jul 2025; domain-facts A5): the GB300 shelf's storage
    // "reduce[s] peak grid demand by up to 30 %" on Megatron LLM training against the GB200
    // shelf (which has none: its grid side is the demand). The blog gives the result as a
    // figure, not the profile, so the profile here is built to its description: compute
    // bursts at full power between lower-power phases, in lock-step. Bursts of 40 ms at TGP
    // every 200 ms on 60 % of TGP (pipeline micro-batches): each cycle moves 0.8 × 0.4 × 1,400
    // W × 40 ms ≈ 18 J per GPU through the store, well inside 65 J. The grid side then sits at
    // the mean (the store's restoring term keeps it there), so the peak falls by
    // 1 − mean/peak; by hand at the rack's shelf input that is 1 − (0.2·H + 0.8·B)/H.
    // What sets it: the depth and duty of the bursts (the twin gives ~28 % here; "up to 30 %"
    // needs bursts at least this deep and short) and that a cycle's energy fits in 65 J per
    // GPU. Bursts 10× longer (400 ms every 2 s, ~180 J per GPU per cycle) do not fit: the grid
    // peak still falls (31 % when written), but because the GPU-side ramp limit holds the
    // GPUs back (7.8 % of the demand deferred), which the blog's storage result does not
    // include. Measured when written: 27.7 % against the hand 28.0 %, nothing deferred.
    const RackSpec spec = catalog().rack("gb300_nvl72");
    const RackPowerModel rpm(spec);
    const double H = rpm.evaluate(1.0).it_power;
    const double B = rpm.evaluate(rpm.utilizationForGpuFraction(0.6)).it_power;
    SmoothingParams p;
    p.storage_energy = spec.gpus * spec.storage_per_gpu;
    p.ramp_up = p.ramp_down = 100.0 * spec.gpus;  // the transient scenario's 100 W/s per GPU
    p.hysteresis = 0;
    // The envelope chases the instantaneous target at its rate limit, so on its own it settles
    // at the low phase; the store's restoring term (E_ref − E_s)/τ_E lifts it to the mean only
    // if E_ref/τ_E exceeds mean − low (here 0.2·(H − B) ≈ 8 kW): τ_E = 0.1 s gives 23 kW. With
    // the default 2 s (1.2 kW) the store runs empty and the GPUs are held back instead.
    p.storage_time = 0.1;
    p.initial_power = 0.2 * H + 0.8 * B;
    p.nominal_power = H;
    p.nominal_time = 30;
    auto peakAfter = [](const SmoothRun& r, double t0) {
        double m = 0;
        for (std::size_t i = 0; i < r.t.size(); ++i) {
            if (r.t[i] >= t0) m = std::max(m, r.grid[i]);
        }
        return m;
    };
    const SmoothRun fits = simulate(bursts(rpm, 0.6, 0.04, 0.2, 30), p, 30, 0.005);
    const double cut = 1 - peakAfter(fits, 10) / H;
    const double hand = 1 - (0.2 * H + 0.8 * B) / H;
    std::printf("short bursts: peak grid demand %.1f %% lower (hand %.1f %%), deferred %.3f %%\n",
                100 * cut, 100 * hand, 100 * fits.E_def / (fits.E_load + fits.E_def));
    EXPECT_NEAR(cut, hand, 0.01);
    EXPECT_LT(fits.E_def, 1e-4 * fits.E_load);  // the store alone did it
    const SmoothRun longer = simulate(bursts(rpm, 0.6, 0.4, 2.0, 30), p, 30, 0.005);
    const double cut_long = 1 - peakAfter(longer, 10) / H;
    const double deferred = longer.E_def / (longer.E_load + longer.E_def);
    std::printf("long bursts: peak grid demand %.1f %% lower, deferred %.2f %% of the demand\n",
                100 * cut_long, 100 * deferred);
    EXPECT_GT(deferred, 0.01);  // the GPUs, not the store, now hold the peak down

    // The same short bursts with NVML's primary floor target window (power/smoothing.h) and
    // the default 2 s store time: the command follows the demand's 2 s mean by itself, so the
    // store's restoring term no longer has to lift it off the low phase. Same hand figure.
    SmoothingParams w = p;
    w.storage_time = 2.0;
    w.hysteresis = 0.2;
    w.target_window = 2.0;  // multiplier 10 × 0.2 s
    const SmoothRun mean = simulate(bursts(rpm, 0.6, 0.04, 0.2, 30), w, 30, 0.005);
    const double cut_mean = 1 - peakAfter(mean, 10) / H;
    std::printf("short bursts, 2 s target window: peak %.1f %% lower (hand %.1f %%)\n",
                100 * cut_mean, 100 * hand);
    EXPECT_NEAR(cut_mean, hand, 0.01);
    EXPECT_LT(mean.E_def, 1e-4 * mean.E_load);
    // Without the window and with the default store time the envelope sits at the low phase
    // and the GPUs are held back instead (what the window fixes).
    SmoothingParams low = w;
    low.target_window = 0;
    low.hysteresis = 0;
    const SmoothRun lowr = simulate(bursts(rpm, 0.6, 0.04, 0.2, 30), low, 30, 0.005);
    EXPECT_GT(lowr.E_def, 0.01 * (lowr.E_load + lowr.E_def));
}

TEST(power_SmoothingRamp, FloorAloneLeavesTheSwingAboveTheFloor) {
    // Choukse et al., "Power Stabilization for AI Training Datacenters" (Microsoft, OpenAI,
    // NVIDIA; arXiv 2508.14318 and slides, domain-facts A5/D4): the GPU power floor alone
    // (20–90 % of TDP) leaves "an achievable swing of 20 %" once EDPp (the electrical design
    // point peak, short excursions above TDP) is taken into account. The twin's GPUs never
    // exceed TGP (power/rack.h caps utilization at 1), so with the floor at its 90 % maximum
    // and no storage or ramp limit, the GPUs' swing left is 100 % − 90 % = 10 % of TGP; the
    // 20 % corresponds to peaks at ~110 % of TDP, which the twin does not model. At the
    // shelf input the non-GPU parts follow utilization too: by hand the swing left is
    // (H − F)/H with F the rack at 90 % GPU power. Training at 2 s iterations, 100 % ↔ 30 %.
    const RackSpec spec = catalog().rack("gb300_nvl72");
    const RackPowerModel rpm(spec);
    const double H = rpm.evaluate(1.0).it_power;
    const double L = rpm.evaluate(rpm.utilizationForGpuFraction(0.3)).it_power;
    const double F = rpm.evaluate(rpm.utilizationForGpuFraction(0.9)).it_power;
    std::vector<double> b, P, A;
    for (double t = 0; t < 30; t += 2) {
        b.insert(b.end(), {t, t + 1});
        P.insert(P.end(), {H, L});
        A.insert(A.end(), {1, 1});
    }
    SmoothingParams p;
    p.floor_power = F;
    p.tracking_time = 0.002;
    p.initial_power = H;
    p.nominal_power = H;
    p.nominal_time = 30;
    const SmoothRun r = simulate(std::make_shared<const Profile>(b, P, A), p, 30, 0.01);
    double lo = 1e300, hi = 0;
    for (std::size_t i = 0; i < r.t.size(); ++i) {
        if (r.t[i] < 10) continue;
        lo = std::min(lo, r.grid[i]);
        hi = std::max(hi, r.grid[i]);
    }
    const double demand_swing = (H - L) / H, left = (hi - lo) / H, hand = (H - F) / H;
    std::printf(
        "demand swing %.1f %%, left by the 90 %% floor %.1f %% (hand %.1f %%, slides 20 %%)\n",
        100 * demand_swing, 100 * left, 100 * hand);
    EXPECT_NEAR(left, hand, 0.005);
    EXPECT_LT(left, 0.2);  // below the published 20 %: no EDPp excursions in the twin
}

/// A square wave between `hi` and `lo`, `half` seconds each, starting high, for `t_end`
/// seconds, with the floor switch on throughout.
std::shared_ptr<const Profile> square(double hi, double lo, double half, double t_end) {
    std::vector<double> b, P, A;
    for (double t = 0; t < t_end - 1e-9; t += 2 * half) {
        b.insert(b.end(), {t, t + half});
        P.insert(P.end(), {hi, lo});
        A.insert(A.end(), {1, 1});
    }
    return std::make_shared<const Profile>(b, P, A);
}

TEST(power_SmoothingRamp, TargetWindowHoldsTheCommandAtTheMeanAndSplitsBurnAndDeferral) {
    // Issue 18: without a target window the command follows the held demand, so iterations
    // longer than the store bridges are held near the compute level and the whole swing is
    // burnt in the communication phases (1.37 MWh of 10.06 MWh in the 1 h transient). NVML's
    // primary floor target window (power/smoothing.h) steers the command to the demand's mean
    // over the window instead. By hand: a first-order mean (τ_t) of a square wave ±A about its
    // mean, half-period h, oscillates between mean ± A·tanh(h/2τ_t); in a low phase the
    // command, which follows it (its slope ≤ 2A/τ_t is far inside the ramp limit), exceeds the
    // demand by ∫ = 2·A·τ_t·tanh(h/2τ_t). The store takes E_max of it and the rest is burnt;
    // in the high phase the same amount falls short, the store gives E_max back and the GPUs
    // are held back for the rest. So per cycle burn = deferral = 2·A·τ_t·tanh(h/2τ_t) − E_max.
    const RackSpec spec = catalog().rack("gb300_nvl72");
    const RackPowerModel rpm(spec);
    const double H = rpm.evaluate(1.0).it_power;
    const double L = rpm.evaluate(rpm.utilizationForGpuFraction(0.5)).it_power;
    const double mean = 0.5 * (H + L), A = 0.5 * (H - L);
    const double E_max = spec.gpus * spec.storage_per_gpu;
    const double half = 4.0, tau_t = 20.0;
    SmoothingParams p;
    p.storage_energy = E_max;
    p.ramp_up = p.ramp_down = 100.0 * spec.gpus;  // the transient scenario's 100 W/s per GPU
    p.hysteresis = 1.0;
    p.target_window = tau_t;  // multiplier 20 × the 1 s hysteresis
    p.storage_time = 1e4;     // no pull back to half charge: the hand count has none
    p.initial_power = mean;
    p.nominal_power = H;
    p.nominal_time = 128;
    const auto prof = square(H, L, half, 128);
    const SmoothRun win = simulate(prof, p, 128, 0.01);
    // Eight cycles after 64 s (the start-up offset has decayed to e^(−64/20) = 4 %).
    const std::size_t i0 = sampleAt(win, 64), i1 = sampleAt(win, 128);
    const double burn = (win.burnt_e[i1] - win.burnt_e[i0]) / 8;
    const double def = (win.deferred_e[i1] - win.deferred_e[i0]) / 8;
    const double hand = 2 * A * tau_t * std::tanh(half / (2 * tau_t)) - E_max;
    std::printf("target window 20 s: per cycle burnt %.1f kJ, deferred %.1f kJ (hand %.1f kJ)\n",
                burn / 1e3, def / 1e3, hand / 1e3);
    EXPECT_NEAR(burn, hand, 0.02 * hand);
    EXPECT_NEAR(def, hand, 0.02 * hand);
    EXPECT_LE(largestRamp(win), 1.05 * p.ramp_up);

    // The same demand without the window: the command follows the held demand. Its burn is
    // what the window removes; the hand figure above is the mean-tracking one.
    SmoothingParams q = p;
    q.target_window = 0;
    const SmoothRun held = simulate(prof, q, 128, 0.01);
    const double burn_held = (held.burnt_e[i1] - held.burnt_e[i0]) / 8;
    const double def_held = (held.deferred_e[i1] - held.deferred_e[i0]) / 8;
    std::printf("no window: per cycle burnt %.1f kJ, deferred %.1f kJ\n", burn_held / 1e3,
                def_held / 1e3);
    EXPECT_GT(burn_held, 1.3 * burn);  // the held demand burns markedly more
    EXPECT_LT(def_held, def);          // and defers less: the price moved, not vanished
    // Energy balance of both runs: grid = drawn + burnt + change in storage.
    for (const SmoothRun* r : {&win, &held}) {
        const double res = r->E_grid - r->E_load - r->E_burn - (r->E_s1 - r->E_s0);
        EXPECT_LT(std::abs(res) / r->E_grid, 1e-6);
    }
}

TEST(power_SmoothingRamp, FloorHeldRelativeToTheRecentOperatingLevel) {
    // A job at 40 % of TGP under a 60 % floor. As an absolute share of TGP the floor lifts the
    // grid side to the 60 % level and burns the difference for the whole job; held relative
    // to the recent operating level (P_ref = the rack with every GPU at TGP) it is
    // F·P_h/P_ref, below the demand, and burns nothing. Hand values at the shelf input.
    const RackSpec spec = catalog().rack("gb300_nvl72");
    const RackPowerModel rpm(spec);
    const double H = rpm.evaluate(1.0).it_power;
    const double D = rpm.evaluate(rpm.utilizationForGpuFraction(0.4)).it_power;
    const double F = rpm.evaluate(rpm.utilizationForGpuFraction(0.6)).it_power;
    const double E_max = spec.gpus * spec.storage_per_gpu;
    SmoothingParams p;
    p.storage_energy = E_max;
    p.floor_power = F;
    p.ramp_up = p.ramp_down = 500.0 * spec.gpus;
    p.hysteresis = 1.0;
    p.storage_time = 1e4;
    p.initial_power = D;
    p.nominal_power = H;
    p.nominal_time = 30;
    const auto prof = std::make_shared<const Profile>(
        std::vector<double>{0.0}, std::vector<double>{D}, std::vector<double>{1.0});
    const SmoothRun absolute = simulate(prof, p, 30, 0.01);
    p.floor_reference_power = H;
    const SmoothRun relative = simulate(prof, p, 30, 0.01);
    // Absolute: the grid side rises to F at the ramp limit; burn = (F − D)·30 s less the
    // ramp's triangle (F − D)²/(2r) and the half store it filled first.
    const double r = p.ramp_up;
    const double hand_abs = (F - D) * 30 - (F - D) * (F - D) / (2 * r) - 0.5 * E_max;
    std::printf("light job: burnt %.1f kJ absolute floor (hand %.1f), %.3f kJ relative\n",
                absolute.E_burn / 1e3, hand_abs / 1e3, relative.E_burn / 1e3);
    EXPECT_NEAR(absolute.E_burn, hand_abs, 0.02 * hand_abs);
    EXPECT_NEAR(absolute.grid.back(), F, 1e-3 * F);
    EXPECT_NEAR(relative.floor.back(), F * D / H, 1e-3 * F);
    // The hold's smooth corner (width ε = 1e-4·P_nominal, power/smoothing.cpp) biases it
    // above a steady demand until ε²/(4·δ·τ_r) = δ/τ_h: δ = (ε/2)·√(τ_h/τ_r), 68 W here.
    const double bias = 0.5e-4 * H * std::sqrt(p.hysteresis / p.tracking_time);
    EXPECT_NEAR(relative.grid.back(), D + bias, 1e-4 * D);
    EXPECT_LT(relative.E_burn, 1e-3 * hand_abs);
}

TEST(power_SmoothingRamp, SecondaryFloorAndActivationWindowByHand) {
    // NVML's secondary power floor and primary floor activation window (interpretation in
    // power/smoothing.h). A job starts at full load from idle at 2 s and its GPUs drop to
    // idle (a checkpoint) at 32 s, the job still running. Primary floor 60 % of TGP relative
    // to the operating level, secondary floor the rack with its GPUs at 30 % of TGP (S),
    // activation window τ_a = 5 s: the activation mean P_a = H − (H − I)·e^(−t/τ_a) crosses S
    // (offset 0) at t* = τ_a·ln((H − I)/(H − S)) after the start, when the primary floor
    // engages. In the dip the held level decays to I, so the primary floor falls to F·I/H,
    // and the grid side settles on S instead of I.
    const RackSpec spec = catalog().rack("gb300_nvl72");
    const RackPowerModel rpm(spec);
    const double H = rpm.evaluate(1.0).it_power;
    const double I = rpm.evaluate(0.0).it_power;
    const double F = rpm.evaluate(rpm.utilizationForGpuFraction(0.6)).it_power;
    const double S = rpm.evaluate(rpm.utilizationForGpuFraction(0.3)).it_power;
    ASSERT_GT(S, I);
    ASSERT_GT(S, F * I / H);
    SmoothingParams p;
    p.storage_energy = spec.gpus * spec.storage_per_gpu;
    p.floor_power = F;
    p.floor_reference_power = H;
    p.secondary_floor_power = S;
    p.activation_window = 5.0;
    p.ramp_up = p.ramp_down = 500.0 * spec.gpus;
    p.hysteresis = 1.0;
    p.storage_time = 1e4;
    p.initial_power = I;
    p.nominal_power = H;
    p.nominal_time = 60;
    const auto prof = std::make_shared<const Profile>(std::vector<double>{0.0, 2.0, 32.0},
                                                      std::vector<double>{I, H, I},
                                                      std::vector<double>{1.0, 1.0, 1.0});
    const SmoothRun run = simulate(prof, p, 60, 0.01);
    const double t_star = 2.0 + 5.0 * std::log((H - I) / (H - S));
    std::printf(
        "activation at %.2f s (hand); floor %.1f kW before, %.1f kW after; grid in the "
        "dip %.1f kW (S %.1f kW, I %.1f kW)\n",
        t_star, run.floor[sampleAt(run, t_star - 0.3)] / 1e3,
        run.floor[sampleAt(run, t_star + 0.3)] / 1e3, run.grid.back() / 1e3, S / 1e3, I / 1e3);
    // Before t* the secondary floor holds (the primary has not engaged), after it the primary.
    EXPECT_NEAR(run.floor[sampleAt(run, t_star - 0.3)], S, 0.01 * S);
    EXPECT_NEAR(run.floor[sampleAt(run, t_star + 0.3)], F, 0.01 * F);
    // In the dip the grid side settles on the secondary floor, not on idle.
    EXPECT_NEAR(run.grid.back(), S, 1e-3 * S);
    EXPECT_NEAR(run.floor.back(), S, 1e-3 * S);

    // An activation offset larger than the job's level keeps the primary floor off: the
    // secondary floor is all there is while the job runs at full load.
    p.activation_offset = H;
    const SmoothRun off = simulate(prof, p, 60, 0.01);
    EXPECT_NEAR(off.floor[sampleAt(off, 30)], S, 0.01 * S);
}

}  // namespace
}  // namespace dctwin::power
