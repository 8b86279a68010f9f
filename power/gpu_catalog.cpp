#include "power/gpu_catalog.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "core/errors.h"

namespace dctwin::power {

const std::vector<GpuModel>& gpuCatalog() {
    // Idle powers are seldom published. Two are measured on the logs shipped in data/traces/
    // (hourly minima of powermin, SOURCES.md); the rest are estimates, marked L.
    static const std::vector<GpuModel> kModels = {
        {"a100_pcie", "NVIDIA A100 PCIe", 300.0, 45.0,
         "TDP 300 W: NVIDIA A100 Tensor Core GPU datasheet (PCIe), H. Idle 45 W: measured, "
         "median hourly minimum of the A100 80GB in data/traces/cbsugpu07 (45.0 W), M"},
        {"a100_sxm", "NVIDIA A100 SXM4", 400.0, 50.0,
         "TDP 400 W: NVIDIA A100 Tensor Core GPU datasheet (SXM4), H. Idle 50 W: estimate from "
         "the 45 W of the A100 80GB of data/traces/cbsugpu07 (whose hourly maxima reach 407 W) "
         "plus NVLink/HBM margin, L"},
        {"h100_pcie", "NVIDIA H100 PCIe / NVL", 350.0, 50.0,
         "TDP 350 W: NVIDIA H100 datasheet (PCIe; H100 NVL 350-400 W), H. Idle 50 W: "
         "measured, median hourly minimum of data/traces/cbsugpu08 (50.0 W per GPU), M"},
        {"h100_sxm", "NVIDIA H100 SXM5", 700.0, 70.0,
         "TDP 700 W: NVIDIA H100 datasheet (SXM5, up to 700 W), H. Idle 70 W: estimate, 10 % "
         "of TDP (domain-facts A4 comparables: V100 75 W of 300 W, MI250X 88 W of 560 W), L"},
        {"h200", "NVIDIA H200 SXM", 700.0, 75.0,
         "TDP 700 W: NVIDIA H200 datasheet (SXM, up to 700 W), M. Idle 75 W: estimate as for "
         "H100 SXM with more HBM, L"},
        {"b200", "NVIDIA B200 (HGX/DGX B200)", 1000.0, 140.0,
         "TDP 1,000 W: domain-facts A2 'B200 TGP in HGX/DGX B200', H. Idle 140 W: domain-facts "
         "A4 estimate 10-18 % of TGP (14 %), L"},
        {"gb200", "NVIDIA B200 in GB200 NVL72", 1200.0, 170.0,
         "TGP 1,200 W: domain-facts A2 'B200 TGP in GB200 NVL72', M-H. Idle 170 W: domain-facts "
         "A4 estimate (14 %), L"},
        {"gb300", "NVIDIA B300 in GB300 NVL72", 1400.0, 200.0,
         "TGP 1,400 W: domain-facts A2 'B300 TGP in GB300 NVL72', M. Idle 200 W: domain-facts "
         "A4 estimate (14 %), the same as the gb300_nvl72 rack record, L"},
    };
    return kModels;
}

std::vector<std::string> gpuModelNames() {
    std::vector<std::string> n;
    for (const auto& g : gpuCatalog()) n.push_back(g.name);
    return n;
}

const GpuModel& gpuModel(const std::string& name) {
    const auto& c = gpuCatalog();
    const auto it =
        std::find_if(c.begin(), c.end(), [&](const GpuModel& g) { return g.name == name; });
    if (it == c.end()) {
        throw InputError(fmt::format("unknown GPU model '{}'; valid choices: {}", name,
                                     fmt::join(gpuModelNames(), ", ")));
    }
    return *it;
}

double gpuUtilization(const GpuModel& gpu, double power) {
    return std::clamp((power - gpu.idle) / (gpu.tdp - gpu.idle), 0.0, 1.0);
}

}  // namespace dctwin::power
