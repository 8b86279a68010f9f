#include "power/smoothing.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/errors.h"
#include "power/smooth.h"

namespace dctwin::power {

std::shared_ptr<const ObjectSpec> smoothingSpec() {
    static const std::shared_ptr<const ObjectSpec> spec = [] {
        const SmoothingParams d;  // the defaults a controller starts from
        auto s = std::make_shared<ObjectSpec>(
            "GB300 power smoothing: PSU storage, power floor, ramp limits, hysteresis");
        s->boolean("enabled", true, "model the smoothing (resolved studies)")
            .number("floor_pct", "pct", 0.0, 90.0, 0.0,  // domain-facts A5: 0-90 % of TGP
                    "power floor while a job runs, % of GPU TGP at full load, held relative to the "
                    "recent operating level (NVML percent TMP floor)")
            .optionalNumber("ramp_up_W_per_s", "W/s", 1e-3, 1e15,
                            "grid-side ramp-up limit per GPU (absent: no limit)")
            .optionalNumber("ramp_down_W_per_s", "W/s", 1e-3, 1e15,
                            "grid-side ramp-down limit per GPU (absent: no limit)")
            .number("hysteresis_s", "s", 0.0, 3600.0, d.hysteresis,
                    "time constant of the hold before a ramp-down")
            .number("tracking_time_s", "s", 1e-3, 60.0, d.tracking_time,
                    "response time inside the ramp limits")
            .number("storage_time_s", "s", 1e-3, 3600.0, d.storage_time,
                    "time constant restoring the PSU store to its target charge")
            .number("initial_soc", "", 0.0, 1.0, d.initial_soc,
                    "initial and target charge of the PSU store, fraction of capacity")
            // NVML names these four knobs without defining them; the interpretation is in
            // power/smoothing.h and scenarios/README.md.
            .number("secondary_floor_W", "W", 0.0, 5000.0, 0.0,
                    "NVML secondary power floor per GPU, W: held while a job runs once the "
                    "primary floor has let go (0: none)")
            .number("primary_floor_activation_window_mult", "", 0.0, 1000.0, 0.0,
                    "NVML primary floor activation window multiplier: the window over which "
                    "the demand must exceed the secondary floor plus the offset, in units of "
                    "hysteresis_s")
            .number("primary_floor_target_window_mult", "", 0.0, 1000.0, 0.0,
                    "NVML primary floor target window multiplier: the command is steered to "
                    "the demand averaged over this many hysteresis_s (0: to the held demand)")
            .number("primary_floor_activation_offset_W", "W", 0.0, 5000.0, 0.0,
                    "NVML primary floor activation offset per GPU, W");
        return s;
    }();
    return spec;
}

SmoothingSettings SmoothingSettings::fromJson(const JsonView& v) {
    const SpecReader r(v, *smoothingSpec());
    SmoothingSettings s;
    auto given = [&](const char* key) -> std::optional<double> {
        if (!r.has(key)) return std::nullopt;
        return r.number(key);
    };
    s.enabled = r.boolean("enabled");
    s.floor_pct = r.number("floor_pct");
    s.ramp_up_per_gpu = given("ramp_up_W_per_s");
    s.ramp_down_per_gpu = given("ramp_down_W_per_s");
    s.hysteresis = given("hysteresis_s");
    s.tracking_time = given("tracking_time_s");
    s.storage_time = given("storage_time_s");
    s.initial_soc = given("initial_soc");
    s.secondary_floor_per_gpu = r.number("secondary_floor_W");
    s.activation_window_mult = r.number("primary_floor_activation_window_mult");
    s.target_window_mult = r.number("primary_floor_target_window_mult");
    s.activation_offset_per_gpu = r.number("primary_floor_activation_offset_W");
    return s;
}

SmoothingParams SmoothingParams::make(const SmoothingSettings& s, SmoothingParams base,
                                      double floor_base_W, double gpus) {
    SmoothingParams p = base;
    p.floor_power = s.floor_pct / 100.0 * floor_base_W;
    // Ramp rates are given per GPU, as NVML's power-smoothing knobs are (W/s).
    if (s.ramp_up_per_gpu) p.ramp_up = *s.ramp_up_per_gpu * gpus;
    if (s.ramp_down_per_gpu) p.ramp_down = *s.ramp_down_per_gpu * gpus;
    if (s.hysteresis) p.hysteresis = *s.hysteresis;
    if (s.tracking_time) p.tracking_time = *s.tracking_time;
    if (s.storage_time) p.storage_time = *s.storage_time;
    if (s.initial_soc) p.initial_soc = *s.initial_soc;
    p.secondary_floor_power = s.secondary_floor_per_gpu * gpus;
    p.activation_offset = s.activation_offset_per_gpu * gpus;
    // The windows are multipliers of the ramp-down hysteresis (interpretation, smoothing.h).
    p.activation_window = s.activation_window_mult * p.hysteresis;
    p.target_window = s.target_window_mult * p.hysteresis;
    return p;
}

SmoothingParams SmoothingParams::fromJson(const JsonView& v, SmoothingParams base,
                                          double floor_base_W) {
    return make(SmoothingSettings::fromJson(v), base, floor_base_W, 1.0);
}

PowerSmoothing::PowerSmoothing(std::string name, SmoothingParams params)
    : Component(std::move(name)), p_(params) {
    auto bad = [&](const char* what, double v) {
        throw ModelError(
            fmt::format("PowerSmoothing '{}': {} = {} is out of range", this->name(), what, v));
    };
    if (!(p_.storage_energy >= 0)) bad("storage_energy", p_.storage_energy);
    if (!(p_.initial_soc >= 0 && p_.initial_soc <= 1)) bad("initial_soc", p_.initial_soc);
    if (!(p_.floor_power >= 0)) bad("floor_power", p_.floor_power);
    if (!(p_.ramp_up > 0)) bad("ramp_up", p_.ramp_up);
    if (!(p_.ramp_down > 0)) bad("ramp_down", p_.ramp_down);
    if (!(p_.hysteresis >= 0)) bad("hysteresis", p_.hysteresis);
    if (!(p_.tracking_time > 0)) bad("tracking_time", p_.tracking_time);
    if (!(p_.storage_time > 0)) bad("storage_time", p_.storage_time);
    if (!(p_.gate_width > 0 && p_.gate_width < 0.5)) bad("gate_width", p_.gate_width);
    if (!(p_.nominal_power > 0)) bad("nominal_power", p_.nominal_power);
    if (!(p_.floor_reference_power >= 0)) bad("floor_reference_power", p_.floor_reference_power);
    if (!(p_.secondary_floor_power >= 0)) bad("secondary_floor_power", p_.secondary_floor_power);
    if (!(p_.activation_window >= 0)) bad("activation_window", p_.activation_window);
    if (!(p_.target_window >= 0)) bad("target_window", p_.target_window);
    if (!(p_.activation_offset >= 0)) bad("activation_offset", p_.activation_offset);
    activation_ =
        p_.activation_window > 0 || p_.activation_offset > 0 || p_.secondary_floor_power > 0;
    // The hold cannot fall faster than it rises; a hysteresis below τ_r just means "no hold".
    p_.hysteresis = std::max(p_.hysteresis, p_.tracking_time);
    eps_ = 1e-4 * p_.nominal_power;
    const double P = p_.nominal_power;
    const double E = std::max(p_.storage_energy, 1.0);
    const double Eacc = P * p_.nominal_time;
    addState(kHold, {"hold_power", "W", P, p_.initial_power, "peak-hold of the load (hysteresis)"});
    addState(kEnvelope,
             {"envelope_power", "W", P, p_.initial_power, "ramp-limited grid-side target"});
    addState(kStored, {"stored_energy", "J", E, p_.initial_soc * p_.storage_energy, "PSU storage"});
    addState(kBurnt, {"burnt_energy", "J", Eacc, 0.0, "energy burnt by floor and ramp-down limit"});
    addState(kGrid, {"grid_energy", "J", Eacc, 0.0, "grid-side energy"});
    addState(kLoad,
             {"load_energy", "J", Eacc, 0.0, "load energy drawn (after the GPU-side limit)"});
    addState(kDeferred,
             {"deferred_energy", "J", 0.1 * Eacc, 0.0, "demand held back by the GPU-side limit"});
    addState(kTargetMean, {"target_mean", "W", P, p_.initial_power,
                           "demand averaged over the primary floor target window"});
    addState(kActivationMean, {"activation_mean", "W", P, p_.initial_power,
                               "demand averaged over the primary floor activation window"});
    addInput(kLoadPower, {"load_power", "W", P, p_.initial_power, "power the racks want"});
    addInput(kFloorActive, {"floor_active", "1", 1.0, 1.0, "1 while a job runs"});
    addOutput(kGridPower, {"grid_power", "W", P, 0.0, "grid-side power"});
    addOutput(kStoredOut, {"stored_energy", "J", E, 0.0, "PSU storage"});
    addOutput(kBurnPower, {"burn_power", "W", P, 0.0, "power burnt by floor and ramp-down limit"});
    addOutput(kStoragePower, {"storage_power", "W", P, 0.0, "into storage (charging positive)"});
    addOutput(kDeferredPower,
              {"deferred_power", "W", P, 0.0, "demand held back by the GPU-side ramp limit"});
    addOutput(kFloorPower, {"floor_power", "W", P, 0.0, "active power floor"});
    addOutput(kDrawnPower,
              {"drawn_power", "W", P, 0.0, "power the racks draw after the GPU-side limit"});
}

double PowerSmoothing::floorOf(std::span<const double> x, std::span<const double> u) const {
    const double active = std::clamp(u[kFloorActive], 0.0, 1.0);
    double primary = active * p_.floor_power;
    if (p_.floor_reference_power > 0.0) {
        // Relative to the recent operating level: ρ = min(1, P_h / P_ref), smooth.
        const double rho =
            1.0 - smooth::positivePart(1.0 - x[kHold] / p_.floor_reference_power, 1e-4);
        primary *= std::max(rho, 0.0);
    }
    if (!activation_) return primary;
    const double w = 0.02 * p_.nominal_power;
    const double g = smooth::step01(
        (x[kActivationMean] - p_.secondary_floor_power - p_.activation_offset) / w + 0.5);
    primary *= g;
    if (p_.secondary_floor_power <= 0.0) return primary;
    return smooth::max(primary, active * p_.secondary_floor_power, eps_);
}

PowerSmoothing::Flows PowerSmoothing::flows(std::span<const double> x,
                                            std::span<const double> u) const {
    const double load = u[kLoadPower];
    Flows f{};
    f.floor = floorOf(x, u);
    // The floor acts through the envelope's target, so the command is ramp-limited always.
    f.command = x[kEnvelope];
    const double delta = f.command - load;
    const double surplus = smooth::positivePart(delta, eps_);
    const double deficit = delta - surplus;  // ≤ 0; exactly delta − surplus keeps the balance
    const double Emax = p_.storage_energy;
    double g_full = 0.0, g_empty = 0.0;
    if (Emax > 0.0) {
        const double w = p_.gate_width * Emax;
        g_full = 1.0 - smooth::step01((x[kStored] - (Emax - w)) / w);
        g_empty = smooth::step01(x[kStored] / w);
    }
    f.storage = surplus * g_full + deficit * g_empty;
    f.burn = surplus * (1.0 - g_full);
    // An empty store cannot cover the deficit: the GPUs are held to the command (work slows).
    f.deferred = -deficit * (1.0 - g_empty);
    f.grid = (load - f.deferred) + f.burn + f.storage;
    return f;
}

void PowerSmoothing::computeOutputs(double, std::span<const double> x, std::span<const double> u,
                                    std::span<double> y) const {
    const Flows f = flows(x, u);
    y[kGridPower] = f.grid;
    y[kStoredOut] = x[kStored];
    y[kBurnPower] = f.burn;
    y[kStoragePower] = f.storage;
    y[kDeferredPower] = f.deferred;
    y[kFloorPower] = f.floor;
    y[kDrawnPower] = u[kLoadPower] - f.deferred;
}

void PowerSmoothing::computeDerivatives(double, std::span<const double> x,
                                        std::span<const double> u, std::span<double> dxdt) const {
    const double load = u[kLoadPower];
    const Flows f = flows(x, u);
    const bool windowed = p_.target_window > 0.0;
    dxdt[kTargetMean] = (load - x[kTargetMean]) / std::max(p_.target_window, p_.tracking_time);
    dxdt[kActivationMean] =
        (load - x[kActivationMean]) / std::max(p_.activation_window, p_.tracking_time);
    const double q = windowed ? x[kTargetMean] : load;
    const double dh = q - x[kHold];
    const double rise = smooth::positivePart(dh, eps_);
    dxdt[kHold] = rise / p_.tracking_time + (dh - rise) / p_.hysteresis;
    const double level = windowed ? x[kTargetMean] : x[kHold];
    double target = smooth::max(level, f.floor, eps_);
    if (p_.storage_energy > 0.0) {
        target += (p_.initial_soc * p_.storage_energy - x[kStored]) / p_.storage_time;
        // A full store pulls the target down; the floor still holds (the surplus is burnt).
        target = smooth::max(target, f.floor, eps_);
    }
    dxdt[kEnvelope] =
        smooth::rateLimit((target - x[kEnvelope]) / p_.tracking_time, p_.ramp_up, p_.ramp_down);
    dxdt[kStored] = f.storage;
    dxdt[kBurnt] = f.burn;
    dxdt[kGrid] = f.grid;
    dxdt[kLoad] = load - f.deferred;
    dxdt[kDeferred] = f.deferred;
}

bool PowerSmoothing::outputDependsOnInput(std::size_t output, std::size_t input) const {
    // The grid side follows the envelope state alone: it breaks any algebraic loop through
    // the racks (the drawn power feeds back into heat, not into the demand).
    if (output == kStoredOut || output == kGridPower) return false;
    if (output == kFloorPower) return input == kFloorActive;
    return input == kLoadPower;
}

bool PowerSmoothing::outputDependsOnState(std::size_t output, std::size_t state) const {
    if (output == kStoredOut) return state == kStored;
    if (output == kFloorPower) return state == kHold || state == kActivationMean;
    if (output == kGridPower) return state == kEnvelope;
    return state == kEnvelope || state == kStored;
}

bool PowerSmoothing::derivativeDependsOnState(std::size_t row, std::size_t state) const {
    switch (row) {
        case kHold:
            return state == kHold || state == kTargetMean;
        case kEnvelope:
            return state == kHold || state == kEnvelope || state == kStored ||
                   state == kTargetMean || state == kActivationMean;
        case kTargetMean:
            return state == kTargetMean;
        case kActivationMean:
            return state == kActivationMean;
        default:  // store, burn, grid, drawn load, deferred
            return state == kEnvelope || state == kStored;
    }
}

bool PowerSmoothing::derivativeDependsOnInput(std::size_t row, std::size_t input) const {
    if (row == kHold) return input == kLoadPower;
    if (row == kEnvelope) return input == kFloorActive;
    if (row == kGrid) return false;
    return input == kLoadPower;
}

// ---------------------------------------------------------------------------------------------
SiteBattery::SiteBattery(std::string name, BatteryParams params)
    : Component(std::move(name)), p_(std::move(params)) {
    if (p_.count < 1) {
        throw ModelError(fmt::format("SiteBattery '{}': count must be at least 1", this->name()));
    }
    if (!(p_.initial_soc >= p_.spec.min_soc && p_.initial_soc <= p_.spec.max_soc)) {
        throw ModelError(fmt::format("SiteBattery '{}': initial_soc {} is outside [{}, {}]",
                                     this->name(), p_.initial_soc, p_.spec.min_soc,
                                     p_.spec.max_soc));
    }
    if (!(p_.averaging_time > 0) || !(p_.soc_time > 0)) {
        throw ModelError(
            fmt::format("SiteBattery '{}': time constants must be positive", this->name()));
    }
    const double P = powerLimit();
    const double E = capacity();
    const double Pload = std::max(p_.initial_load, P);
    const double Eacc = Pload * p_.nominal_time;
    addState(kEnergy, {"energy", "J", E, p_.initial_soc * E, "stored energy"});
    addState(kAverage, {"average_load", "W", Pload, p_.initial_load, "moving average of the load"});
    addState(kLossEnergy, {"loss_energy", "J", P * p_.nominal_time, 0.0, "conversion losses"});
    addState(kGridEnergy, {"grid_energy", "J", Eacc, 0.0, "grid-side energy"});
    addState(kLoadEnergy, {"load_energy", "J", Eacc, 0.0, "load energy drawn"});
    addInput(kLoadPower, {"load_power", "W", Pload, p_.initial_load, "site load at the battery"});
    addOutput(kGridPower, {"grid_power", "W", Pload, 0.0, "grid-side power"});
    addOutput(kBatteryPower, {"battery_power", "W", P, 0.0, "battery power (discharge positive)"});
    addOutput(kSoc, {"soc", "1", 1.0, p_.initial_soc, "state of charge"});
    addOutput(kLossPower, {"loss_power", "W", 0.05 * P, 0.0, "conversion losses"});
}

SiteBattery::Flows SiteBattery::flows(std::span<const double> x, double load) const {
    const double Pmax = powerLimit();
    const double cap = capacity();
    const double Emin = p_.spec.min_soc * cap, Emax = p_.spec.max_soc * cap;
    const double w = 0.02 * cap;
    double request = 0.0;
    if (p_.mode == BatteryParams::Mode::TrackAverage) {
        request = (load - x[kAverage]) - (p_.initial_soc * cap - x[kEnergy]) / p_.soc_time;
    }
    const double pb = Pmax * std::tanh(request / Pmax);
    const double dis = smooth::positivePart(pb, 1e-6 * Pmax);
    const double chg = pb - dis;  // ≤ 0
    const double ge = smooth::step01((x[kEnergy] - Emin) / w);
    const double gf = 1.0 - smooth::step01((x[kEnergy] - (Emax - w)) / w);
    const double eta = std::sqrt(p_.spec.round_trip_efficiency);
    Flows f{};
    f.battery = dis * ge + chg * gf;
    f.dE = -dis * ge / eta - chg * gf * eta;
    f.loss = dis * ge * (1.0 / eta - 1.0) - chg * gf * (1.0 - eta);
    return f;
}

void SiteBattery::computeOutputs(double, std::span<const double> x, std::span<const double> u,
                                 std::span<double> y) const {
    const double load = u[kLoadPower];
    const Flows f = flows(x, load);
    y[kGridPower] = load - f.battery;
    y[kBatteryPower] = f.battery;
    y[kSoc] = x[kEnergy] / capacity();
    y[kLossPower] = f.loss;
}

void SiteBattery::computeDerivatives(double, std::span<const double> x, std::span<const double> u,
                                     std::span<double> dxdt) const {
    const double load = u[kLoadPower];
    const Flows f = flows(x, load);
    dxdt[kEnergy] = f.dE;
    dxdt[kAverage] = (load - x[kAverage]) / p_.averaging_time;
    dxdt[kLossEnergy] = f.loss;
    dxdt[kGridEnergy] = load - f.battery;
    dxdt[kLoadEnergy] = load;
}

bool SiteBattery::outputDependsOnInput(std::size_t output, std::size_t) const {
    return output != kSoc;
}

bool SiteBattery::derivativeDependsOnState(std::size_t row, std::size_t state) const {
    if (row == kAverage) return state == kAverage;
    if (row == kLoadEnergy) return false;
    return state == kEnergy || state == kAverage;
}

}  // namespace dctwin::power
