#pragma once
// GB300 NVL72 (and similar) rack power (DESIGN.md §3.1).
//
// Equations, per rack, for GPU utilization u ∈ [0, 1] and GPU junction temperature T [K] (the
// die temperature the GPU's own sensor reads and its firmware throttles on: the junction node
// of thermal/rack_loop.h, which follows the GPU's power within tens of milliseconds, not the
// cold plate's average):
//   throttle       θ = step((T − T_thr)/ΔT_thr)          (C¹ smoothstep, 0 below T_thr)
//   clock factor   f = 1 − θ·(1 − f_min)                  (throughput factor while running)
//   thermal trip   L ∈ [0, 1], a latch state (below); tripped racks are at standby
//   supply         s ∈ [0, 1]: power at the rack feeds (0 with the utility lost and the UPS
//                  battery empty); every draw below is multiplied by s
//   leakage        ΔP_leak = k_leak·P_tdp·(2^((T − T_ref)/ΔT_2) − 1)
//                  (TGP already contains the leakage at T_ref; ΔP_leak is the change)
//   standby "off"  (default) on = 1 − L, u_eff = u: the compute and NVLink switch trays power
//                  off while tripped (GPU, CPU and switch-tray power × on)
//   standby "idle" on = 1, u_eff = (1 − L)·u: the trays stay powered with the GPUs parked at
//                  their catalog idle power (gpu_idle_W, CPUs and switch trays at idle too)
//   GPU            P_gpu = on·max(0, P_idle + u_eff·(P_tdp − P_idle)·f + ΔP_leak)   per GPU
//   CPU            P_cpu = on·(P_cpu,idle + u_eff·(P_cpu,max − P_cpu,idle))         per CPU
//   NVLink trays   P_sw  = on·P_sw,max·(φ_idle + (1 − φ_idle)·u_eff)               per tray
//   fans           P_fan = P_fan,idle + u_eff·(P_fan,max − P_fan,idle)               per rack
//   NICs, DPUs, SSDs: constant
//   DC load        P_dc = Σ of the above
//   PSU shelves    x = P_dc/(n_shelves·P_shelf), η = η(x) from the catalog curve,
//                  P_ac = P_dc/η, P_psu,loss = P_ac − P_dc
//   heat           Q_liquid = λ_gpu·ΣP_gpu + λ_cpu·ΣP_cpu + λ_sw·ΣP_sw,  Q_air = P_ac − Q_liquid
//   throughput     (1 − L)·f
// The throttle reduces both power and throughput and is smooth over ΔT_thr so that a thermal
// model coupled through junction_temp stays well posed.
//
// Thermal trip (issue 10). NVIDIA GPUs shut down for hardware protection at their shutdown
// temperature and stay down until the node is reset; they do not come back by themselves when
// the die cools. A static switch on T (as before) let a rack sit in the trip band on partial
// power. The trip is therefore a continuous set–reset latch (smooth::latchRate):
//   dL/dt = (S·(1 − L) − R·L)/τ_L,   τ_L = 0.1 s
//   s_T = step((T − T_sd)/ΔT_sd)                            die above the shutdown temperature
//   g   = step((L − 0.02)/0.08)                             the latch holds itself once set
//   S   = s_T + (1 − s_T)·g·(1 − r)
//   R   = r + (1 − r)·(1 − s_T)·(1 − g)
// With no restart (r = 0) and the die cooled (s_T = 0): dL/dt ∝ g(L) − L, stable at 0 and 1
// with a threshold at L ≈ 0.028, so the die entering the band by ~0.1 K trips the rack fully
// and the rack stays tripped however far the die then cools (no re-trip oscillation); a partial
// latch below the threshold decays. The restart drive r (0 ≤ r ≤ 1) is the policy's:
//   never          r = 0                       (the node waits for an operator, outside the run)
//   after_cooling  r = C·(1 − s_T) with a second latch C ∈ [0, 1], "the die has cooled":
//                  dC/dt = latchRate(C, S_C, R_C, τ_L), S_C and R_C as S and R above with
//                  s_T → c_T = 1 − step(T − T_restart) [T in K, band 1 K], r → s_T, L → C:
//                  set once the die reads T_restart or less, reset by the next trip. A drive
//                  on T alone would stall: the restarted GPUs lift their die 17 K above the
//                  plate within ~50 ms, out of the restart band, and the rack would sit half
//                  restarted on partial power
//   after_delay    r = step(τ − t_delay)·(1 − s_T) [band 1 s] with a timer state τ [s]:
//                  dτ/dt = 1 − s_T·τ/τ_L, i.e. τ is held at 0 while the die is above T_sd and
//                  counts the seconds since it fell below (a few junction time constants,
//                  tens of ms, after the trays switched off)
// A restarted rack picks its workload up again; if the cooling has not recovered it trips again
// (a restart cycle of period ≈ the delay, not a latch oscillation).
//
// Component RackPower (represents `count` identical racks; outputs are totals; the latch is
// the representative rack's):
//   | kind   | name        | unit | meaning                                        |
//   |--------|-------------|------|------------------------------------------------|
//   | state  | trip        | 1    | trip latch L (1 = tripped)                     |
//   | state  | trip_cooled | 1    | after_cooling only: latch C (1 = die cooled)   |
//   | state  | trip_timer  | s    | after_delay only: time since the die cooled    |
//   | input  | utilization | 1    | GPU utilization u                              |
//   | input  | junction_temp | K  | GPU junction temperature (thermal side)        |
//   | input  | supply      | 1    | power at the rack feeds (1 = on, 0 = lost)     |
//   | output | it_power    | W    | AC power at the shelf inputs, all racks        |
//   | output | heat_liquid | W    | heat to the coolant                            |
//   | output | heat_air    | W    | heat to air (incl. PSU losses and fans)        |
//   | output | gpu_power   | W    | GPU power, all GPUs                            |
//   | output | throughput  | 1    | (1 − L)·f (1 = full clocks, 0 = tripped)       |
//   | output | psu_loss    | W    | shelf conversion losses                        |
//   | output | tripped     | 1    | L (0 for L < 1e-6, the latch's abs. tolerance) |
//   | output | clock       | 1    | f, the clock factor the throttle leaves        |
// Every power output depends on every input and on L; throughput on junction_temp, supply
// (and L); clock only on junction_temp; tripped only on L.
#include <algorithm>
#include <memory>
#include <span>
#include <string>
#include <utility>

#include "core/component.h"
#include "power/catalog.h"

namespace dctwin::power {

/// What a tripped rack draws (see the header comment).
enum class TripStandby { Off, Idle };
/// When a tripped rack comes back.
enum class TripRestart { Never, AfterCooling, AfterDelay };

/// The thermal trip's standby and restart policy (scenario /it/racks/i/thermal_trip).
struct TripPolicy {
    TripRestart restart = TripRestart::Never;
    TripStandby standby = TripStandby::Off;
    double restart_temp = 323.15;  // [K] after_cooling: die temperature that allows a restart
    double restart_delay = 900.0;  // [s] after_delay: seconds after the die cooled
};

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
    double throughput_factor = 1;  // [1] (1 − L)·f
    double clock_factor = 1;       // [1] f
    double shelf_load = 0;         // [1] load fraction of the installed shelves
    double psu_efficiency = 1;     // [1]
};

class RackPowerModel {
public:
    explicit RackPowerModel(RackSpec spec);
    /// The same on a spec shared with other racks of its kind (not null).
    explicit RackPowerModel(std::shared_ptr<const RackSpec> spec);
    const RackSpec& spec() const { return *spec_; }

    /// Steady rack power at utilization u [1] and die temperature T_die [K].
    RackPowerResult evaluate(double u, double T_die) const {
        return evaluate(u, T_die, 0.0, TripStandby::Off);
    }
    /// With the trip latch at `trip` [1] (0 running, 1 tripped), the tripped rack's standby and
    /// the supply at the rack feeds [1] (1 = on, 0 = lost).
    RackPowerResult evaluate(double u, double T_die, double trip, TripStandby standby,
                             double supply = 1.0) const;
    /// At the reference die temperature (where TGP is specified).
    RackPowerResult evaluate(double u) const { return evaluate(u, spec_->die_ref_temp); }
    /// Clock factor f the throttle leaves at die temperature T_die [K] (1 at or below the
    /// throttle temperature).
    double clockFactor(double T_die) const;

    /// Utilization at which one GPU draws `fraction` of its TGP (at T_ref); may be < 0 when
    /// the fraction is below idle.
    double utilizationForGpuFraction(double fraction) const;
    /// Σ shelf ratings [W] and the PSU energy storage of the rack [J].
    double installedShelfPower() const { return spec_->psu_shelves * spec_->shelfRating(); }
    double storageEnergy() const { return spec_->gpus * spec_->storage_per_gpu; }

private:
    /// Shared by the racks of one kind: a campus model holds a RackPower per distinct rack,
    /// and its own copy of the spec (strings and PSU curve included) was most of its 496
    /// bytes, read on every evaluation (issue 12: memory-bound at 5,560 racks).
    std::shared_ptr<const RackSpec> spec_;
};

class RackPower : public Component {
public:
    RackPower(std::string name, RackSpec spec, int count = 1, TripPolicy trip = {});
    /// The same on a spec shared with the other racks of its kind (not null).
    RackPower(std::string name, std::shared_ptr<const RackSpec> spec, int count = 1,
              TripPolicy trip = {});
    const RackPowerModel& model() const { return model_; }
    int count() const { return count_; }
    const TripPolicy& tripPolicy() const { return trip_; }

    void computeOutputs(double t, std::span<const double> x, std::span<const double> u,
                        std::span<double> y) const override;
    void computeDerivatives(double t, std::span<const double> x, std::span<const double> u,
                            std::span<double> dxdt) const override;
    bool outputDependsOnInput(std::size_t output, std::size_t input) const override;
    bool outputDependsOnState(std::size_t output, std::size_t state) const override;
    bool derivativeDependsOnState(std::size_t row, std::size_t state) const override;
    bool derivativeDependsOnInput(std::size_t row, std::size_t input) const override;

    /// Latch drives at die temperature T [K], latch L [1] and the restart state (C [1] or
    /// τ [s]; ignored for "never"): (S, R) of the header's equations; exposed for tests.
    std::pair<double, double> latchDrives(double T, double L, double memory) const;

    // Port indices.
    // State 1 exists for after_cooling (C) and after_delay (τ) only.
    static constexpr std::size_t kTrip = 0, kRestartState = 1;
    static constexpr std::size_t kUtilization = 0, kJunctionTemp = 1, kSupply = 2;
    static constexpr std::size_t kItPower = 0, kHeatLiquid = 1, kHeatAir = 2, kGpuPower = 3,
                                 kThroughput = 4, kPsuLoss = 5, kTripped = 6, kClock = 7;
    /// [s] latch time constant τ_L: a protective shutdown acts within a fraction of a second;
    /// the value only sets how sharp the modelled switch-off is.
    static constexpr double kLatchTime = 0.1;
    /// [1] the output `tripped` reads 0 below this (rack.cpp, computeOutputs).
    static constexpr double kTrippedResolution = 1e-6;
    /// The output `tripped` [1] for the latch state L [1].
    static double trippedReading(double L) {
        return L < kTrippedResolution ? 0.0 : std::min(L, 1.0);
    }

private:
    double shutdownDrive(double T) const;  ///< s_T [1]
    RackPowerModel model_;
    int count_;
    TripPolicy trip_;
};

}  // namespace dctwin::power
