#pragma once
// GB300 NVL72 (and similar) rack power (DESIGN.md §3.1).
//
// Equations, per rack, for GPU utilization u ∈ [0, 1] and GPU junction temperature T [K] (the
// die temperature the GPU's own sensor reads and its firmware throttles on: the junction node
// of thermal/rack_loop.h, which follows the GPU's power within tens of milliseconds, not the
// cold plate's average):
//   throttle       θ = step((T − T_thr)/ΔT_thr)          (C¹ smoothstep, 0 below T_thr)
//   thermal trip   on = s·(1 − step((T − T_sd)/ΔT_sd)): GPU, CPU and NVLink trays off above
//                  T_sd, or with the supply s ∈ [0, 1] lost (utility loss, battery empty)
//   clock factor   f = 1 − θ·(1 − f_min)                  (throughput factor)
//   leakage        ΔP_leak = k_leak·P_tdp·(2^((T − T_ref)/ΔT_2) − 1)
//                  (TGP already contains the leakage at T_ref; ΔP_leak is the change)
//   GPU            P_gpu = on·(P_idle + u·(P_tdp − P_idle)·f + ΔP_leak)       per GPU
//   CPU            P_cpu = on·(P_cpu,idle + u·(P_cpu,max − P_cpu,idle))       per CPU
//   NVLink trays   P_sw  = on·P_sw,max·(φ_idle + (1 − φ_idle)·u)             per tray
//   fans           P_fan = P_fan,idle + u·(P_fan,max − P_fan,idle)             per rack
//   NICs, DPUs, SSDs: constant
//   DC load        P_dc = Σ of the above
//   PSU shelves    x = P_dc/(n_shelves·P_shelf), η = η(x) from the catalog curve,
//                  P_ac = P_dc/η, P_psu,loss = P_ac − P_dc
//   heat           Q_liquid = λ_gpu·ΣP_gpu + λ_cpu·ΣP_cpu + λ_sw·ΣP_sw,  Q_air = P_ac − Q_liquid
// The throttle reduces both power and throughput and is smooth over ΔT_thr so that a thermal
// model coupled through junction_temp stays well posed.
//
// Component RackPower (represents `count` identical racks; outputs are totals):
//   | kind   | name        | unit | meaning                                        |
//   |--------|-------------|------|------------------------------------------------|
//   | input  | utilization | 1    | GPU utilization u                              |
//   | input  | junction_temp | K  | GPU junction temperature (thermal side)        |
//   | input  | supply      | 1    | power at the rack feeds (1 = on, 0 = lost)     |
//   | output | it_power    | W    | AC power at the shelf inputs, all racks        |
//   | output | heat_liquid | W    | heat to the coolant                            |
//   | output | heat_air    | W    | heat to air (incl. PSU losses and fans)        |
//   | output | gpu_power   | W    | GPU power, all GPUs                            |
//   | output | throughput  | 1    | f·on (1 = full clocks, 0 = tripped)            |
//   | output | psu_loss    | W    | shelf conversion losses                        |
// No states. Every power output depends on every input; throughput on junction_temp and supply.
#include <memory>
#include <span>
#include <string>

#include "core/component.h"
#include "power/catalog.h"

namespace dctwin::power {

struct RackPowerResult {
    double it_power = 0;           // [W] AC at the shelf inputs
    double dc_power = 0;           // [W] at the ~50 V bus
    double psu_loss = 0;           // [W]
    double gpu_power = 0;          // [W] all GPUs of the rack
    double cpu_power = 0;          // [W]
    double switch_power = 0;       // [W] NVLink switch trays
    double other_power = 0;        // [W] NICs, DPUs, SSDs, fans
    double heat_to_liquid = 0;     // [W]
    double heat_to_air = 0;        // [W]
    double throughput_factor = 1;  // [1]
    double shelf_load = 0;         // [1] load fraction of the installed shelves
    double psu_efficiency = 1;     // [1]
};

class RackPowerModel {
public:
    explicit RackPowerModel(RackSpec spec);
    const RackSpec& spec() const { return spec_; }

    /// Steady rack power at utilization u [1] and die temperature T_die [K].
    RackPowerResult evaluate(double u, double T_die, double supply = 1.0) const;
    /// At the reference die temperature (where TGP is specified).
    RackPowerResult evaluate(double u) const { return evaluate(u, spec_.die_ref_temp); }

    /// Utilization at which one GPU draws `fraction` of its TGP (at T_ref); may be < 0 when
    /// the fraction is below idle.
    double utilizationForGpuFraction(double fraction) const;
    /// Σ shelf ratings [W] and the PSU energy storage of the rack [J].
    double installedShelfPower() const { return spec_.psu_shelves * spec_.shelfRating(); }
    double storageEnergy() const { return spec_.gpus * spec_.storage_per_gpu; }

private:
    RackSpec spec_;
};

class RackPower : public Component {
public:
    RackPower(std::string name, RackSpec spec, int count = 1);
    const RackPowerModel& model() const { return model_; }
    int count() const { return count_; }

    void computeOutputs(double t, std::span<const double> x, std::span<const double> u,
                        std::span<double> y) const override;
    bool outputDependsOnInput(std::size_t output, std::size_t input) const override;
    bool outputDependsOnState(std::size_t, std::size_t) const override { return false; }
    bool derivativeDependsOnState(std::size_t, std::size_t) const override { return false; }
    bool derivativeDependsOnInput(std::size_t, std::size_t) const override { return false; }

    // Port indices.
    static constexpr std::size_t kUtilization = 0, kJunctionTemp = 1, kSupply = 2;
    static constexpr std::size_t kItPower = 0, kHeatLiquid = 1, kHeatAir = 2, kGpuPower = 3,
                                 kThroughput = 4, kPsuLoss = 5;

private:
    RackPowerModel model_;
    int count_;
};

}  // namespace dctwin::power
