// Fat-tree sizing against formula E1 and NVIDIA's DGX SuperPOD B300-XDR table
// (domain-facts E).
#include "power/fabric.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace dctwin::power {
namespace {

using test::catalog;

TEST(power_Fabric, ReferenceCluster4608GpusOn144PortSwitches) {
    FabricOptions o;
    o.gpus = 4608;
    const FabricResult r = sizeFabric(o, catalog());
    // Minimum: leaves = 4608/72 = 64, spines = 4608/144 = 32 (domain-facts formula E1).
    EXPECT_EQ(r.tiers, 2);
    EXPECT_EQ(r.leaves, 64);
    EXPECT_EQ(r.spines, 32);
    EXPECT_EQ(r.gpu_links, 4608);
    EXPECT_EQ(r.switch_links, 4608);
    // Optics: 4,608 NIC-side + 4,608 × 3 / 2 = 6,912 switch-side twin-port modules.
    EXPECT_EQ(r.nic_optics, 4608);
    EXPECT_EQ(r.switch_optics, 6912);
    // Power: 96 × 1.5 kW + 4,608 × 16 W + 6,912 × 27 W (+ NICs 4,608 × 30 W).
    EXPECT_DOUBLE_EQ(r.power_outside_racks, 96 * 1500.0 + 4608 * 16.0 + 6912 * 27.0);
    EXPECT_DOUBLE_EQ(r.total_power, r.power_outside_racks + 4608 * 30.0);
    std::printf("fabric 4608 GPUs: %d leaves, %d spines, %.1f kW outside racks, %.1f kW total\n",
                r.leaves, r.spines, r.power_outside_racks / 1e3, r.total_power / 1e3);
    // domain-facts E estimate 0.35-0.5 MW for switches + optics.
    EXPECT_GT(r.power_outside_racks, 0.35e6);
    EXPECT_LT(r.power_outside_racks, 0.5e6);
}

TEST(power_Fabric, ReferenceArchitectureRoundingReproducesNvidiaTable) {
    // DGX SuperPOD B300-XDR RA Table 3: 1 SU 8+4, 2 SU 16+8, 4 SU 32+18, 8 SU 64+36,
    // 18 SU 144+72 (576 GPUs per SU).
    const int su[] = {1, 2, 4, 8, 18};
    const int leaves[] = {8, 16, 32, 64, 144};
    const int spines[] = {4, 8, 18, 36, 72};
    for (int i = 0; i < 5; ++i) {
        FabricOptions o;
        o.gpus = 576 * su[i];
        o.ra_rounding = true;
        const FabricResult r = sizeFabric(o, catalog());
        EXPECT_EQ(r.leaves, leaves[i]) << su[i] << " SU";
        EXPECT_EQ(r.spines, spines[i]) << su[i] << " SU";
    }
}

TEST(power_Fabric, ThreeTiersBeyondK2Over2) {
    FabricOptions o;
    o.gpus = 100000;  // > 144²/2 = 10,368
    const FabricResult r = sizeFabric(o, catalog());
    EXPECT_EQ(r.tiers, 3);
    EXPECT_EQ(r.leaves, (100000 + 71) / 72);
    EXPECT_EQ(r.cores, (100000 + 143) / 144);
    o.tiers = 2;
    test::expectInputError([&] { sizeFabric(o, catalog()); }, {"10368", "3 tiers"});
}

}  // namespace
}  // namespace dctwin::power
