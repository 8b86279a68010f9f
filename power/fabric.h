#pragma once
// Scale-out fabric: a non-blocking folded-Clos (fat tree) for N GPUs on radix-k switches
// (DESIGN.md §1, §3.1; domain-facts E and formula E1; Al-Fares et al., SIGCOMM 2008).
//
// Two tiers (N ≤ k²/2): every leaf uses k/2 ports down (GPUs) and k/2 up (spines).
//   leaves = ⌈N/(k/2)⌉, uplinks = leaves·k/2, spines_min = ⌈uplinks/k⌉.
//   Reference-architecture rounding (option ra_rounding): every leaf spreads its k/2 uplinks
//   evenly over all spines, so the spine count must divide k/2; spines = the smallest divisor
//   of k/2 that is ≥ spines_min. For k = 144 (k/2 = 72) this reproduces NVIDIA's DGX SuperPOD
//   B300-XDR table: 1 SU 8 + 4, 2 SU 16 + 8, 4 SU 32 + 18, 8 SU 64 + 36, 18 SU 144 + 72.
// Three tiers (N ≤ k³/4): edge = ⌈N/(k/2)⌉, aggregation = edge, core = ⌈N/k⌉ (full-bisection
//   pods of k/2 edge + k/2 aggregation switches).
// Links: N GPU–leaf + N per switch-to-switch tier (non-blocking). Optics: one single-port
// module per NIC; every switch port carries one port of a twin-port module, so switch-side
// modules = ⌈switch ports used / ports per module⌉.
// Power: switches + switch-side optics + NIC-side optics (+ NICs, which the rack model already
// counts; power_outside_racks leaves them out so the hall total is not counted twice).
#include <string>

#include "power/catalog.h"

namespace dctwin::power {

struct FabricOptions {
    int gpus = 4608;
    int tiers = 0;             // 0 = fewest tiers that fit
    bool ra_rounding = false;  // balanced spines as in NVIDIA's reference architecture
    std::string switch_model = "quantum_x800_q3400";
    std::string nic_model = "connectx8";
    std::string nic_optic_model = "osfp_800g_single";
    std::string switch_optic_model = "osfp_1p6t_twin";
};

struct FabricResult {
    int tiers = 2;
    int radix = 0;
    int leaves = 0, spines = 0, cores = 0;  // cores only for 3 tiers
    int switches = 0;
    long gpu_links = 0, switch_links = 0;  // cables
    long switch_ports_used = 0;
    long nic_optics = 0, switch_optics = 0;
    double switch_power = 0;         // [W]
    double optics_power = 0;         // [W] NIC-side + switch-side
    double nic_power = 0;            // [W]
    double total_power = 0;          // [W] switches + optics + NICs
    double power_outside_racks = 0;  // [W] switches + optics
};

FabricResult sizeFabric(const FabricOptions& options, const Catalog& catalog);

}  // namespace dctwin::power
