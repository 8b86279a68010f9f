// Issue 18 on the whole site: scenarios/transient_job_start_checkpoints.json (64 GB300 racks,
// a job that starts at once, checkpoints to idle and stops) with GB300 power smoothing. The
// grid side must hold the configured ramp limit through the job start and every checkpoint
// (where the 65 J per GPU run empty within ~94 ms), by holding the GPUs back; the site's
// energy balance must still close with the deferred power taken out of the heat.
#include <gtest/gtest.h>

#include <cmath>

#include "power/catalog.h"
#include "power/rack.h"
#include "test_util.h"

namespace dctwin::facility::test {
namespace {

Json jobStart(bool smoothing) {
    Json j = scenarioJson("transient_job_start_checkpoints.json");
    j["power"]["smoothing"]["enabled"] = smoothing;
    return j;
}

TEST(SmoothingSite, GridRampHeldThroughJobStartAndCheckpointsAndDeferredWorkReported) {
    const RunOutcome on = run(jobStart(true));
    const RunOutcome off = run(jobStart(false));
    // The configured limit: 100 W/s per GPU × 72 GPUs × 64 racks = 0.4608 MW/s. The model
    // limits each rack's whole shelf-input power at that rate (non-GPU parts included) and
    // the fabric is constant, so the IT power after smoothing may not ramp faster, + 5 %.
    const double limit = 100.0 * 72 * 64 / 1e6;  // [MW/s]
    for (const char* k : {"it_grid_max_ramp_0p1s_MW_per_s", "it_grid_max_ramp_1s_MW_per_s"}) {
        EXPECT_LE(num(on.summary, k), 1.05 * limit) << k;
        EXPECT_GE(num(on.summary, k), 0.95 * limit) << k;  // the limit is what binds
    }
    // Without smoothing the job start reaches the grid in one sample: 64 racks × the rack's
    // idle-to-full rise (power/rack.h at its reference temperature, ~100 kW) in 0.1 s,
    // ≈ 64 MW/s. 10 %: leakage at the real die temperatures moves the rise.
    const power::RackPowerModel rpm(power::Catalog::load().rack("gb300_nvl72"));
    const double step = 64 * (rpm.evaluate(1.0).it_power - rpm.evaluate(0.0).it_power) / 1e6;
    EXPECT_NEAR(num(off.summary, "it_grid_max_ramp_0p1s_MW_per_s"), step / 0.1, 0.1 * step / 0.1);
    // The price: work held back at the start and after each of the three checkpoints (180,
    // 300, 420 s), and power burnt at each checkpoint and the end. By hand, a rise of the
    // command from C0 at the limit r against a demand D leaves ∫ (D − C)⁺ dt = (D − C0)²/(2r)
    // (less what the stores hold, ≤ 64 × 4,680 J per rise). The floor is held relative to
    // the recent operating level (power/smoothing.h), so in a 20 s checkpoint at idle it
    // decays with the 1 s hysteresis and the command ramps down from near the compute level
    // H to idle I in (H − I)/r ≈ 14 s: the start and the three recoveries all rise from I.
    // The demand alternates each second between H and the communication level M, so the
    // deferral lies between D = M throughout and D = H throughout, four times. Site levels:
    // 64 × the rack model at its reference temperature.
    const double H = 64 * rpm.evaluate(1.0).it_power / 1e6;  // [MW]
    const double I = 64 * rpm.evaluate(0.0).it_power / 1e6;
    const double M = 64 * rpm.evaluate(0.5).it_power / 1e6;
    ASSERT_LT((H - I) / limit, 20.0);       // the checkpoint is long enough to reach idle
    const double stores = 64 * 72 * 65e-6;  // [MJ]
    const double lower = 4 * ((M - I) * (M - I) / (2 * limit) - stores);
    const double upper = 4 * (H - I) * (H - I) / (2 * limit);
    const double deferred_MJ = num(on.summary, "smoothing_deferred_energy_MWh") * 3600;
    std::printf("deferred %.2f MJ (hand bounds %.2f–%.2f MJ), %.2f GPU-h, %.2f %% of demand\n",
                deferred_MJ, lower, upper, num(on.summary, "smoothing_deferred_gpu_h"),
                num(on.summary, "smoothing_deferred_pct"));
    EXPECT_GT(deferred_MJ, lower);
    EXPECT_LT(deferred_MJ, upper);
    EXPECT_GT(num(on.summary, "smoothing_burn_energy_MWh"), 0.0);
    EXPECT_EQ(num(off.summary, "smoothing_burn_energy_MWh"), 0.0);
    // The stores ran empty at the start and after checkpoints, and full when the load fell.
    EXPECT_GT(num(on.summary, "psu_store_empty_h"), 0.0);
    EXPECT_GT(num(on.summary, "psu_store_full_h"), 0.0);
    // The site's balance (DESIGN.md §3.4: better than 0.1 %) with deferred power out of the
    // heat.
    EXPECT_LT(std::abs(num(on.summary, "energy_balance_rel_error")), 1e-3);
}

TEST(SmoothingSite, TargetWindowMovesThePriceFromBurnToDeferral) {
    // NVML's primary floor target window (power/smoothing.h): the command is steered to the
    // demand's mean over 10 s instead of the held demand. With the ramp limit far below the
    // iteration swing the grid side is nearly flat either way, and each iteration costs
    // ∫|C − D| dt less what the stores move, split into burn (C above D) and deferral (C
    // below D) by where C sits: at the mean the two are about equal, held near the compute
    // level nearly all of it is burn. The sum is set by the swing, not by the window: it may
    // move by the start-up and checkpoint transients only (10 %).
    Json j = jobStart(true);
    const RunOutcome held = run(j);
    j["power"]["smoothing"]["primary_floor_target_window_mult"] = 10;
    const RunOutcome mean = run(j);
    const double b0 = num(held.summary, "smoothing_burn_energy_MWh");
    const double d0 = num(held.summary, "smoothing_deferred_energy_MWh");
    const double b1 = num(mean.summary, "smoothing_burn_energy_MWh");
    const double d1 = num(mean.summary, "smoothing_deferred_energy_MWh");
    std::printf(
        "held demand: burnt %.3f, deferred %.3f MWh; 10 s mean: burnt %.3f, deferred "
        "%.3f MWh\n",
        b0, d0, b1, d1);
    EXPECT_LT(b1, 0.7 * b0);
    EXPECT_GT(d1, 2 * d0);
    EXPECT_NEAR(b1 + d1, b0 + d0, 0.1 * (b0 + d0));
    // At the mean, burn and deferral are about equal (the job start and end tilt it: 20 %).
    EXPECT_NEAR(b1, d1, 0.2 * d1);
    // The ramp limit holds either way (0.4608 MW/s + 5 %).
    EXPECT_LE(num(mean.summary, "it_grid_max_ramp_0p1s_MW_per_s"), 1.05 * 0.4608);
    EXPECT_LT(std::abs(num(mean.summary, "energy_balance_rel_error")), 1e-3);
}

TEST(SmoothingSite, SecondaryFloorAboveTheGpuTgpIsRejected) {
    // NVML's secondary power floor is a GPU power: a GB300 GPU cannot hold 2,000 W (TGP
    // 1,400 W, domain-facts A2). The error names the key, the value and the range.
    Json j = jobStart(true);
    j["power"]["smoothing"]["secondary_floor_W"] = 2000;
    dctwin::test::expectInputError([&] { scenario(j); }, {"/power/smoothing/secondary_floor_W",
                                                          "2000 W", "1400", "0 to 1400 W"});
}

}  // namespace
}  // namespace dctwin::facility::test
