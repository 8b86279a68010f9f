#pragma once
/// @file
/// @brief A utility loss simulated in the site model (issue 10): the UPS battery as a state,
/// the bus each load sits on, and the generators' start and load acceptance as events.
///
/// Buses. The IT load (racks and fabric) is on the UPS. The CDU pumps are on the UPS by
/// default, the facility water pumps on the generators; both are configurable on the event.
/// The heat-rejection fans, the trim chillers and the air side (CRAH units and their chiller)
/// are on the generators. A generator-fed load is off from the loss until its block is
/// re-applied plus its restart delay.
///
/// Generator plan (planUtilityLoss, events in time, decided before the run as a load-shed
/// controller is programmed): the sets that start are online after the catalog's start delay;
/// blocks follow `step_interval` apart in a fixed order — (1) cooling water: facility pumps,
/// CDU pumps when generator-fed, heat-rejection fans; (2) air side and trim chillers; (3) the
/// UPS walking its input onto the generators over `walk_in`. A block is applied only if its
/// step (for the walk-in: its rise within one second) fits the online sets' step-load limit
/// and the total their capacity, judged on the design loads; otherwise it stays off (with
/// generators failing to start the UPS may then never be picked up). What follows from the
/// plan — battery energy, when the IT load is lost, temperatures — is simulated.
///
/// UpsBattery — all UPS systems lumped, with the state of the bus upstream of them. Equations:
///   bus           e(t) = 1 before the loss, 0 from the loss until the generators are online
///                 (t_gen, the plan's generators_online; never when no set starts), then 1.
///                 The generators parallel on the MV bus (catalog: 13.8 kV), so from t_gen the
///                 transformers are energised again and the loads off the UPS can be fed.
///                 While e = 0 nothing is drawn upstream (SitePower): no transformer no-load
///                 loss, the other load (lighting, offices, security) unserved, the
///                 generator-fed loads off (their blocks come at or after t_gen), the UPS on
///                 battery (t_gen ≤ walk-in start, so g = 0).
///   mains share   g(t) = 1 before the loss, 0 from the loss until the walk-in starts, rising
///                 linearly to 1 over the walk-in, then 1            (UPS input from upstream)
///   available     a = step01(E/E_w)   (1 while the battery holds energy, E_w = 1e-4·E_full)
///   charge        P_ch = g·[t ≥ t_loss]·P_ch,max·step01((E_full − E)/(0.01·E_full))
///   energy        dE/dt = −P_b/η + η·P_ch,  P_b = (1 − g)·a·P_ups,in the power the battery
///                 delivers to the UPS's DC bus (input from SitePower: the UPS input the
///                 chain's loss curve gives, rectifier side), η the catalog's discharge
///                 efficiency (taken for charging as well)
///   IT dropped    L: set–reset latch (smooth::latchRate), set drive (1 − g)·(1 − a) (on
///                 battery and empty), reset drive 1 from t_restart = walk-in end + the IT
///                 restart delay; τ = 0.1 s
///   supply        s = 1 − L to the racks (power/rack.h), the fabric and UPS-fed CDU pumps
/// Energy at the loss: E_0 = soe_0·E_full, E_full = n·S_r·(1 + l(1))·t_r/η — the catalog's
/// autonomy t_r at rated output of the n UPS units installed, inverter losses l(1) from the
/// fitted loss curve included (the same battery the sizing's autonomy check counts).
///   | state  | energy [J], it_dropped [1]                                          |
///   | input  | battery_power [W] (to the UPS DC bus; derivatives only)             |
///   | output | mains [1], available [1], supply [1], charge_power [W], soe [1],
///   |        | bus_energised [1] (e) (no feedthrough: time and states only)       |
#include <limits>
#include <string>
#include <vector>

#include "core/component.h"

namespace dctwin::facility {

/// The generator-fed loads and the UPS, as the plan handles them.
struct UtilityLossOptions {
    double at = 0.0;                  ///< [s] study time of the loss
    int generators_failing = 0;       ///< [1] sets that fail to start
    double battery_soe = 1.0;         ///< [1] battery state of energy at the loss
    bool cdu_pumps_on_ups = true;     ///< CDU pumps on the UPS (else on the generators)
    bool fws_pumps_on_ups = false;    ///< facility water pumps on the UPS
    double fws_pumps_restart = 5.0;   ///< [s] after their block (VFD restart)
    double cdu_pumps_restart = 5.0;   ///< [s] (when generator-fed)
    double fans_restart = 10.0;       ///< [s] heat-rejection fan drives
    double air_side_restart = 30.0;   ///< [s] CRAH fans and air-side compressors
    double chillers_restart = 120.0;  ///< [s] chiller anti-recycle/restart
    double it_restart = 300.0;        ///< [s] racks that lost power: reboot after power returns
    double walk_in = 10.0;            ///< [s] UPS input ramp onto the generators
    double charge_limit = 0.1;        ///< [1] of the UPS rating: battery charger limit
};

/// Design loads the plan judges the blocks with [W].
struct UtilityLossLoads {
    double ups_input = 0, fws_pumps = 0, cdu_pumps = 0, fans = 0, air_side = 0, chillers = 0;
    /// Whether any hall has trim chillers: without, the second block is the air side alone
    /// and no chiller restart is planned (the reference's log read "trim chillers available").
    bool trim_chillers = false;
};

struct GeneratorBlock {
    std::string what;
    double time = 0.0;   ///< [s] study time the block is applied (or would have been)
    double step = 0.0;   ///< [W] design step (walk-in: per second)
    double limit = 0.0;  ///< [W] step-load limit of the online sets
    double total = 0.0;  ///< [W] generator load after the block
    bool applied = false;
};

struct UtilityLossPlan {
    UtilityLossOptions options;
    int generators = 0, online = 0;     ///< [1] installed, started
    double unit_rating = 0.0;           ///< [W] per set (derated)
    double generators_online = kNever;  ///< [s] study time
    std::vector<GeneratorBlock> blocks;
    double walk_in_start = kNever, walk_in_end = kNever;  ///< [s] study time
    /// [s] study time each generator-fed load runs again (kNever: not in the run).
    double fws_pumps_on = kNever, cdu_pumps_on = kNever, fans_on = kNever, air_side_on = kNever,
           chillers_on = kNever;
    double it_restart_at = kNever;  ///< [s] racks that dropped come back
    static constexpr double kNever = std::numeric_limits<double>::infinity();
};

struct GeneratorFleet {
    int count = 0;                 ///< [1] installed
    double unit_rating = 0.0;      ///< [W] per set
    double start_delay = 10.0;     ///< [s]
    double step_load_limit = 0.5;  ///< [1] of the online capacity
    double step_interval = 5.0;    ///< [s]
};

UtilityLossPlan planUtilityLoss(const UtilityLossOptions& o, const GeneratorFleet& g,
                                const UtilityLossLoads& loads);

struct UpsBatteryParams {
    double energy_full = 0.0;  ///< [J]
    double soe_initial = 1.0;  ///< [1] at the loss
    double efficiency = 0.95;  ///< [1]
    double charge_max = 0.0;   ///< [W]
    double t_loss = 0.0, walk_in_start = UtilityLossPlan::kNever,
           walk_in_end = UtilityLossPlan::kNever, it_restart = UtilityLossPlan::kNever;  ///< [s]
    /// [s] study time the generators are online and feed the bus (the plan's
    /// generators_online; kNever: no set starts); at or before the walk-in start.
    double generators_online = UtilityLossPlan::kNever;
    double latch_tau = 0.1;  ///< [s]
};

class UpsBattery : public Component {
public:
    UpsBattery(std::string name, UpsBatteryParams p);
    void computeDerivatives(double t, std::span<const double> x, std::span<const double> u,
                            std::span<double> dxdt) const override;
    void computeOutputs(double t, std::span<const double> x, std::span<const double> u,
                        std::span<double> y) const override;
    void discontinuities(double t0, double t1, std::vector<double>& times) const override;
    bool outputDependsOnInput(std::size_t, std::size_t) const override { return false; }
    bool derivativeDependsOnInput(std::size_t state, std::size_t) const override {
        return state == kEnergy;
    }
    /// UPS input share from upstream at t [1].
    double mains(double t) const;
    /// 1 while a source (utility or generators) feeds the bus upstream of the UPS at t [1].
    double bus(double t) const;
    const UpsBatteryParams& params() const { return p_; }

    enum State : std::size_t { kEnergy, kDropped };
    enum Input : std::size_t { kBatteryPower };
    enum Output : std::size_t { kMains, kAvailable, kSupply, kCharge, kSoe, kBus };

private:
    double available(double E) const;
    double charge(double t, double E) const;
    UpsBatteryParams p_;
};

}  // namespace dctwin::facility
