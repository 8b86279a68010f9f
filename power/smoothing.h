#pragma once
// GB300 power smoothing and a site battery (DESIGN.md §3.1, §3.2; domain-facts A5, D4 and the
// "GB300 smoothing at grid side" formula F1).
//
// ---------------------------------------------------------------------------------------------
// PowerSmoothing: PSU energy storage + power floor + ramp limits + ramp-down hysteresis.
//
// The GPUs want P_d (input load_power, the demand). The controller computes a grid-side
// command C that moves no faster than the ramp limits; the PSU store E_s covers C − P_d while
// it can. When it is full the surplus is burnt by the GPUs (the "power burner"); when it is
// empty the GPUs are held to what the grid side delivers: their power rise is capped and the
// work slows (the deferred power P_def), as NVIDIA describes the GPU-side ramp-up limit
// (domain-facts A5 "controls across a training run"). The grid side therefore never ramps
// faster than the limits, whether or not the store has energy (issue 18). With ⁺ a smooth
// positive part, smax a smooth max and step() a C¹ step:
//   target mean        dP_t/dt = (P_d − P_t)/τ_t           (τ_t > 0: NVML's primary floor
//                       target window; the level the command is steered to is the demand's
//                       mean over that window, not its instantaneous value)
//   reference          Q = P_t if τ_t > 0, else P_d
//   hold (hysteresis)  dP_h/dt = (Q − P_h)⁺/τ_r + (Q − P_h)⁻/τ_h
//                      (rises with Q at once, falls with time constant τ_h, NVML's ramp-down
//                       hysteresis, so a short dip does not start a ramp-down)
//   activation mean    dP_x/dt = (P_d − P_x)/τ_a            (NVML's activation window)
//   activation         g_act = step((P_x − F_s − O)/w_x + ½), w_x = 0.02·P_nominal
//                      (1 when no window, offset or secondary floor is set)
//   primary floor      F_1 = a·g_act·P_floor·ρ,  ρ = min(1, P_h/P_ref) (1 when P_ref = 0)
//                       (the floor is held relative to the recent operating level P_h, with
//                       the ramp-down hysteresis on the way down; at P_h = P_ref, the load
//                       with every GPU at TGP, it is the configured share of TGP)
//   floor              F = smax(F_1, a·F_s)   (F_s > 0: NVML's secondary power floor; else F_1)
//   level              R = P_t if τ_t > 0, else P_h
//   target             T = smax(smax(R, F) + (E_ref − E_s)/τ_E, F)   (store kept mid-way,
//                       never below the floor)
//   envelope           dP_e/dt = rateLimit((T − P_e)/τ_r, r_up, r_down)   (tanh saturation)
//   command            C = P_e   (the floor enters through T, so a floor switched on at a job
//                       start or off at its end is ramped too, as the "power-cap ramp" and the
//                       "ramp down at a limited rate" of the GB300 blog)
//   Δ = C − P_d,  g_full = 1 − step((E_s − E_max + w)/w),  g_empty = step(E_s/w)
//   store              dE_s/dt = Δ⁺·g_full + Δ⁻·g_empty
//   burn               P_burn = Δ⁺·(1 − g_full)
//   deferred           P_def = −Δ⁻·(1 − g_empty)   (demand the GPUs are held back from)
//   drawn              P_a = P_d − P_def           (what the racks actually draw)
//   grid               P_grid = P_a + P_burn + dE_s/dt = C
//   accumulators       dE_burn/dt = P_burn, dE_grid/dt = P_grid, dE_load/dt = P_a,
//                      dE_def/dt = P_def
// The energy balance E_grid = E_load + E_burn + ΔE_s therefore holds identically in the
// derivatives; a linear multistep method keeps it to round-off and the Newton tolerance.
// |dP_grid/dt| = |dP_e/dt| < r_up (r_down) for any load: the ramp limits hold by construction.
//
// Where the command sits between the low and the high phase of an iteration longer than the
// store bridges decides the price, not whether it is paid: with C steady, the burn is
// ∫(C − P_d)⁺ and the deferral ∫(P_d − C)⁺ less what the store moves, and their sum is fixed
// by the swing. R = P_h (no target window) holds C near the compute level (all burn); a
// target window several iterations long holds it at the mean (half burn, half deferral).
//
// NVML's power-smoothing profile (docs.nvidia.com/deploy/nvml-api, "Power Smoothing
// Information"; domain-facts A5) documents the units of percent TMP floor (%), ramp-up and
// ramp-down rates (W/s) and ramp-down hysteresis (ms), and only names the secondary power
// floor (W), the primary floor activation window multiplier, the primary floor target window
// multiplier and the primary floor activation offset (W). Interpretation here (not NVIDIA's
// text): the two window multipliers scale the ramp-down hysteresis (the profile's only time
// knob) into τ_a and τ_t; the primary floor engages once the demand averaged over τ_a exceeds
// the secondary floor by the offset; the secondary floor is the absolute floor held while a
// job runs when the primary floor has let go (scenarios/README.md, smoothing section).
//
//   | kind   | name            | unit | meaning                                          |
//   |--------|-----------------|------|--------------------------------------------------|
//   | state  | hold_power      | W    | P_h, peak-hold of the level (hysteresis)         |
//   | state  | envelope_power  | W    | P_e, ramp-limited grid-side command              |
//   | state  | stored_energy   | J    | E_s, PSU capacitor energy                        |
//   | state  | burnt_energy    | J    | ∫P_burn dt                                       |
//   | state  | grid_energy     | J    | ∫P_grid dt                                       |
//   | state  | load_energy     | J    | ∫P_a dt (drawn, after the GPU-side limit)        |
//   | state  | deferred_energy | J    | ∫P_def dt                                        |
//   | state  | target_mean     | W    | P_t, demand averaged over the target window      |
//   | state  | activation_mean | W    | P_x, demand averaged over the activation window  |
//   | input  | load_power      | W    | P_d, power the racks want                        |
//   | input  | floor_active    | 1    | a, 1 while a job runs (0 lets the floor go)      |
//   | output | grid_power      | W    | P_grid, grid-side (shelf input) power            |
//   | output | stored_energy   | J    | E_s                                              |
//   | output | burn_power      | W    | P_burn                                           |
//   | output | storage_power   | W    | dE_s/dt (charging positive)                      |
//   | output | deferred_power  | W    | P_def, demand held back by the GPU-side limit    |
//   | output | floor_power     | W    | F                                                |
//   | output | drawn_power     | W    | P_a = P_d − P_def                                |
// grid_power depends on the state only; burn, storage, deferred and drawn power on both
// inputs.
//
// ---------------------------------------------------------------------------------------------
// SiteBattery (BESS): power and energy limits, state of charge, round-trip efficiency.
// Mode "track_average" shaves the swing of the site load around its moving average:
//   dP_avg/dt = (P_d − P_avg)/τ_avg
//   request   R = (P_d − P_avg) − (E_ref − E)/τ_soc        (discharge positive)
//   P_b = P_max·tanh(R/P_max),  P⁺ = P_b⁺, P⁻ = P_b − P⁺
//   gates g_e = step((E − E_min)/w), g_f = 1 − step((E − E_max + w)/w)
//   P_bat = P⁺·g_e + P⁻·g_f,   η = √η_rt
//   dE/dt = −P⁺·g_e/η − P⁻·g_f·η,  P_loss = P⁺·g_e·(1/η − 1) − P⁻·g_f·(1 − η)
//   P_grid = P_d − P_bat  (= P_d + dE/dt + P_loss)
// Mode "off" holds the charge (R = 0).
//
//   | kind   | name          | unit | meaning                                   |
//   |--------|---------------|------|-------------------------------------------|
//   | state  | energy        | J    | E, stored energy                          |
//   | state  | average_load  | W    | P_avg                                     |
//   | state  | loss_energy   | J    | ∫P_loss dt                                |
//   | state  | grid_energy   | J    | ∫P_grid dt                                |
//   | state  | load_energy   | J    | ∫P_d dt                                   |
//   | input  | load_power    | W    | P_d, site load seen at the battery        |
//   | output | grid_power    | W    | P_grid                                    |
//   | output | battery_power | W    | P_bat (discharge positive)                |
//   | output | soc           | 1    | E / capacity                              |
//   | output | loss_power    | W    | P_loss                                    |
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "core/component.h"
#include "core/json.h"
#include "core/object_spec.h"
#include "power/catalog.h"

namespace dctwin::power {

/// @brief What a scenario's /power/smoothing section states, read once and range-checked.
///
/// Ramp rates are per GPU, as NVML's power-smoothing knobs are; SmoothingParams::make scales
/// them to the GPUs one controller serves. Absent optional values leave the caller's base.
struct SmoothingSettings {
    bool enabled = true;                      ///< smoothing modelled (resolved studies only)
    double floor_pct = 0.0;                   ///< [%] power floor, of GPU TGP in the site model
    std::optional<double> ramp_up_per_gpu;    ///< [W/s] per GPU; absent: the base's (no limit)
    std::optional<double> ramp_down_per_gpu;  ///< [W/s] per GPU; absent: the base's (no limit)
    std::optional<double> hysteresis;         ///< [s] τ_h; absent: the base's
    std::optional<double> tracking_time;      ///< [s] τ_r; absent: the base's
    std::optional<double> storage_time;       ///< [s] τ_E; absent: the base's
    std::optional<double> initial_soc;        ///< [1] E_s(0)/E_max; absent: the base's
    double secondary_floor_per_gpu = 0.0;     ///< [W] per GPU, NVML secondary power floor
    double activation_window_mult = 0.0;      ///< [1] τ_a / τ_h, NVML activation window mult.
    double target_window_mult = 0.0;          ///< [1] τ_t / τ_h, NVML target window mult.
    double activation_offset_per_gpu = 0.0;   ///< [W] per GPU, NVML activation offset

    /// @brief Reads {"enabled", "floor_pct", "ramp_up_W_per_s", "ramp_down_W_per_s",
    /// "hysteresis_s", "tracking_time_s", "storage_time_s", "initial_soc",
    /// "secondary_floor_W", "primary_floor_activation_window_mult",
    /// "primary_floor_target_window_mult", "primary_floor_activation_offset_W"} (all optional)
    /// against smoothingSpec(); InputError naming the JSON path for an unknown key or a value
    /// out of range.
    /// @param v the smoothing object (e.g. at "/power/smoothing")
    static SmoothingSettings fromJson(const JsonView& v);
};

/// @brief The declared keys of the /power/smoothing section (ranges in the keys' own units:
/// floor_pct 0–90 % (domain-facts A5), ramps 1e-3–1e15 W/s per GPU, ...).
std::shared_ptr<const ObjectSpec> smoothingSpec();

struct SmoothingParams {
    double storage_energy = 0;         // [J] E_max (65 J per GPU on GB300)
    double initial_soc = 0.5;          // [1] E_s(0)/E_max, also the target E_ref/E_max
    double floor_power = 0;            // [W] P_floor in load units (0 = no floor)
    double ramp_up = 1e12;             // [W/s] r_up
    double ramp_down = 1e12;           // [W/s] r_down
    double hysteresis = 0;             // [s] τ_h (0 = no hold)
    double tracking_time = 0.01;       // [s] τ_r, response of hold and envelope inside the limits
    double storage_time = 2.0;         // [s] τ_E, store-restoring time constant
    double gate_width = 0.05;          // [1] w/E_max, width of the full/empty gates
    double initial_power = 0;          // [W] P_h(0) = P_e(0)
    double nominal_power = 1e5;        // [W] typical load (tolerances, smoothing widths)
    double nominal_time = 3600;        // [s] typical run length (nominal of energy accumulators)
    double floor_reference_power = 0;  // [W] P_ref, load at which F_1 = floor_power (0: absolute)
    double secondary_floor_power = 0;  // [W] F_s, held while a job runs (0 = none)
    double activation_window = 0;      // [s] τ_a (0 with no offset/secondary: always active)
    double target_window = 0;          // [s] τ_t (0: the command follows the held demand)
    double activation_offset = 0;      // [W] O

    /// @brief The controller's parameters from the scenario's settings.
    ///
    /// floor_power = floor_pct / 100 · floor_base_W; ramp_up = ramp_up_per_gpu · gpus when
    /// given, else base.ramp_up unscaled (likewise ramp_down); hysteresis, tracking_time,
    /// storage_time and initial_soc replace the base's when given; secondary_floor_power =
    /// secondary_floor_per_gpu · gpus and activation_offset = activation_offset_per_gpu ·
    /// gpus (GPU watts; a caller that knows the rack converts the floor to shelf input);
    /// activation_window and target_window are the multipliers × the hysteresis; the rest is
    /// `base`.
    /// @param s the settings as read
    /// @param base storage, nominal and initial values of this controller, and the values
    ///        the settings do not state
    /// @param floor_base_W [W] what floor_pct is a percentage of
    /// @param gpus [1] GPUs this controller serves (ramp rates are per GPU)
    static SmoothingParams make(const SmoothingSettings& s, SmoothingParams base,
                                double floor_base_W, double gpus);
    /// @brief make(SmoothingSettings::fromJson(v), base, floor_base_W, 1.0): ramp rates as
    /// given, unscaled.
    /// @param v the smoothing object of a scenario
    /// @param base parameters the settings are applied on top of
    /// @param floor_base_W [W] what floor_pct is a percentage of
    static SmoothingParams fromJson(const JsonView& v, SmoothingParams base, double floor_base_W);
};

class PowerSmoothing : public Component {
public:
    PowerSmoothing(std::string name, SmoothingParams params);
    const SmoothingParams& params() const { return p_; }

    void computeOutputs(double t, std::span<const double> x, std::span<const double> u,
                        std::span<double> y) const override;
    void computeDerivatives(double t, std::span<const double> x, std::span<const double> u,
                            std::span<double> dxdt) const override;
    bool outputDependsOnInput(std::size_t output, std::size_t input) const override;
    bool outputDependsOnState(std::size_t output, std::size_t state) const override;
    bool derivativeDependsOnState(std::size_t row, std::size_t state) const override;
    bool derivativeDependsOnInput(std::size_t row, std::size_t input) const override;

    static constexpr std::size_t kHold = 0, kEnvelope = 1, kStored = 2, kBurnt = 3, kGrid = 4,
                                 kLoad = 5, kDeferred = 6, kTargetMean = 7, kActivationMean = 8;
    static constexpr std::size_t kLoadPower = 0, kFloorActive = 1;
    static constexpr std::size_t kGridPower = 0, kStoredOut = 1, kBurnPower = 2, kStoragePower = 3,
                                 kDeferredPower = 4, kFloorPower = 5, kDrawnPower = 6;

private:
    struct Flows {
        double floor, command, grid, burn, storage, deferred;
    };
    Flows flows(std::span<const double> x, std::span<const double> u) const;
    double floorOf(std::span<const double> x, std::span<const double> u) const;
    bool activation_ = false;  // the activation gate is configured (else g_act = 1)
    SmoothingParams p_;
    double eps_;  // [W] corner width of the smooth max / positive part
};

struct BatteryParams {
    BessSpec spec;  // one block
    int count = 1;  // blocks in parallel
    enum class Mode { Off, TrackAverage } mode = Mode::TrackAverage;
    double initial_soc = 0.5;       // [1], also the target
    double averaging_time = 300.0;  // [s] τ_avg
    double soc_time = 3600.0;       // [s] τ_soc
    double initial_load = 0;        // [W] P_avg(0)
    double nominal_time = 3600;     // [s] nominal of the energy accumulators
};

class SiteBattery : public Component {
public:
    SiteBattery(std::string name, BatteryParams params);
    const BatteryParams& params() const { return p_; }
    double capacity() const { return p_.spec.energy * p_.count; }   // [J]
    double powerLimit() const { return p_.spec.power * p_.count; }  // [W]

    void computeOutputs(double t, std::span<const double> x, std::span<const double> u,
                        std::span<double> y) const override;
    void computeDerivatives(double t, std::span<const double> x, std::span<const double> u,
                            std::span<double> dxdt) const override;
    bool outputDependsOnInput(std::size_t output, std::size_t input) const override;
    bool derivativeDependsOnState(std::size_t row, std::size_t state) const override;

    static constexpr std::size_t kEnergy = 0, kAverage = 1, kLossEnergy = 2, kGridEnergy = 3,
                                 kLoadEnergy = 4;
    static constexpr std::size_t kLoadPower = 0;
    static constexpr std::size_t kGridPower = 0, kBatteryPower = 1, kSoc = 2, kLossPower = 3;

private:
    struct Flows {
        double battery, loss, dE;
    };
    Flows flows(std::span<const double> x, double load) const;
    BatteryParams p_;
};

}  // namespace dctwin::power
