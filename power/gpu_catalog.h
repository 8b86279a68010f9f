#pragma once
/// @file
/// @brief Power of the GPUs that measured logs come from (issue 11): board power limit (TDP)
/// and idle power, each with its source and confidence (H high, M medium, L low, as in
/// domain-facts).
///
/// Why: a measured power trace says how hard its own GPU worked, not how hard a GB300 would.
/// A sample P of a GPU model with idle power P_idle and TDP P_tdp is turned into the
/// utilization of that model,
///     u = clamp((P − P_idle) / (P_tdp − P_idle), 0, 1)                              [1]
/// and replayed as that utilization on the rack's GPUs (power/rack.h). Without a sourced pair
/// the user had to invent idle_W and max_W and the rack swing depended on the guess.
#include <string>
#include <vector>

namespace dctwin::power {

struct GpuModel {
    std::string name;         ///< scenario name ("h100_sxm")
    std::string description;  ///< product
    double tdp = 0;           ///< [W] board power limit (TDP/TGP)
    double idle = 0;          ///< [W] power at rest, clocks idle, no work
    std::string source;       ///< where tdp and idle come from, with confidence
};

/// @brief Every GPU model of the catalog, in the order of their generations.
const std::vector<GpuModel>& gpuCatalog();
/// @brief The names, for a scenario's choices and for messages.
std::vector<std::string> gpuModelNames();
/// @brief A model by name; InputError listing the valid names when unknown.
const GpuModel& gpuModel(const std::string& name);
/// @brief u = clamp((P − idle)/(tdp − idle), 0, 1) for a power sample P [W].
double gpuUtilization(const GpuModel& gpu, double power);

}  // namespace dctwin::power
