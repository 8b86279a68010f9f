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
    // (less what the stores hold, ≤ 64 × 4,680 J per rise). The demand alternates each second
    // between the compute level H and the communication level M, so the deferral lies between
    // D = M throughout (the start from idle I only: M is below the 60 % floor F the
    // checkpoint recoveries start from) and D = H throughout (the start and three recoveries
    // from F). Site levels: 64 × the rack model at its reference temperature.
    const double H = 64 * rpm.evaluate(1.0).it_power / 1e6;  // [MW]
    const double I = 64 * rpm.evaluate(0.0).it_power / 1e6;
    const double M = 64 * rpm.evaluate(0.5).it_power / 1e6;
    const double F = 64 * rpm.evaluate(rpm.utilizationForGpuFraction(0.6)).it_power / 1e6;
    ASSERT_LT(M, F);
    const double stores = 64 * 72 * 65e-6;  // [MJ]
    const double lower = (M - I) * (M - I) / (2 * limit) - stores;
    const double upper = (H - I) * (H - I) / (2 * limit) + 3 * (H - F) * (H - F) / (2 * limit);
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

}  // namespace
}  // namespace dctwin::facility::test
