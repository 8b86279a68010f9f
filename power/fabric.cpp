#include "power/fabric.h"

#include <fmt/format.h>

#include "core/errors.h"

namespace dctwin::power {

FabricResult sizeFabric(const FabricOptions& o, const Catalog& catalog) {
    const SwitchSpec sw = catalog.fabricSwitch(o.switch_model);
    const NicSpec nic = catalog.nic(o.nic_model);
    const OpticSpec nic_optic = catalog.optic(o.nic_optic_model);
    const OpticSpec sw_optic = catalog.optic(o.switch_optic_model);
    const long N = o.gpus;
    const long k = sw.ports;
    if (N < 1) throw InputError(fmt::format("fabric: gpus must be ≥ 1, got {}", N));
    const long max2 = k * k / 2, max3 = k * k * k / 4;
    FabricResult r;
    r.radix = static_cast<int>(k);
    r.tiers = o.tiers;
    if (r.tiers == 0) r.tiers = N <= max2 ? 2 : 3;
    if (r.tiers != 2 && r.tiers != 3) {
        throw InputError(fmt::format("fabric: tiers must be 2 or 3, got {}", r.tiers));
    }
    if (r.tiers == 2 && N > max2) {
        throw InputError(
            fmt::format("fabric: {} GPUs exceed a 2-tier fat tree of radix {} "
                        "(at most k²/2 = {}); use 3 tiers",
                        N, k, max2));
    }
    if (N > max3) {
        throw InputError(
            fmt::format("fabric: {} GPUs exceed a 3-tier fat tree of radix {} (at "
                        "most k³/4 = {})",
                        N, k, max3));
    }
    const long half = k / 2;
    r.leaves = static_cast<int>((N + half - 1) / half);
    if (r.tiers == 2) {
        const long uplinks = static_cast<long>(r.leaves) * half;
        long spines = (uplinks + k - 1) / k;
        if (o.ra_rounding) {
            long d = spines;
            while (half % d != 0) ++d;  // terminates at k/2 at the latest
            spines = d;
        }
        r.spines = static_cast<int>(spines);
        r.switch_links = N;
        r.switch_ports_used = 3 * N;  // leaf down + leaf up + spine down
    } else {
        r.spines = r.leaves;  // aggregation switches, one per edge switch in full pods
        r.cores = static_cast<int>((N + k - 1) / k);
        r.switch_links = 2 * N;
        r.switch_ports_used = 5 * N;
    }
    r.switches = r.leaves + r.spines + r.cores;
    r.gpu_links = N;
    r.nic_optics = N;  // one module per NIC
    r.switch_optics = (r.switch_ports_used + sw_optic.ports - 1) / sw_optic.ports;
    r.switch_power = r.switches * sw.power;
    r.optics_power = r.nic_optics * nic_optic.power + r.switch_optics * sw_optic.power;
    r.nic_power = N * nic.power;
    r.power_outside_racks = r.switch_power + r.optics_power;
    r.total_power = r.power_outside_racks + r.nic_power;
    return r;
}

}  // namespace dctwin::power
