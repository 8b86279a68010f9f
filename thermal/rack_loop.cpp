#include "thermal/rack_loop.h"

#include <fmt/format.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <map>
#include <mutex>
#include <utility>

#include "core/errors.h"
#include "core/units.h"
#include "thermal/catalog.h"

namespace dctwin::thermal {

namespace {

/// A process-wide number for each distinct set of film parameters (the same parameters, bit
/// for bit, get the same number), so RackLoop::resistance's memo compares one integer instead
/// of eleven doubles held in each rack: at 5,560 racks that comparison was 3 % of the year in
/// memcmp, mostly waiting for each rack's parameters to reach the cache.
std::uint64_t filmIdentity(const std::array<double, 11>& key) {
    static std::mutex mutex;
    static std::map<std::array<std::uint64_t, 11>, std::uint64_t> ids;
    std::array<std::uint64_t, 11> bits{};
    for (std::size_t i = 0; i < key.size(); ++i) bits[i] = std::bit_cast<std::uint64_t>(key[i]);
    const std::lock_guard<std::mutex> lock(mutex);
    return ids.try_emplace(bits, ids.size() + 1).first->second;
}

}  // namespace

RackLoopParams RackLoopParams::fromJson(const JsonView& v) {
    checkEntryKeys(v, {"heat_liquid_kW",
                       "flow_Lpm",
                       "gpus_per_rack",
                       "gpu_heat_share",
                       "gpu_resistance_K_per_W",
                       "junction_resistance_K_per_W",
                       "junction_capacity_J_per_K",
                       "metal_capacity_kJ_per_K",
                       "fluid_volume_L",
                       "count",
                       "initial_temp_C",
                       "rated_coolant",
                       "hose_diameter_mm",
                       "hose_length_m",
                       "hose_roughness_um",
                       "minor_loss_K",
                       "channel_diameter_mm",
                       "channel_length_mm",
                       "channels",
                       "plate_length_mm",
                       "valve_kvs_m3h"});
    RackLoopParams p;
    p.heat_design = v.quantity("heat_liquid", {"kW"});
    p.flow_design = v.quantity("flow", {"Lpm"});
    p.rated_coolant = v.string("rated_coolant", p.rated_coolant);
    RackBranchSpec& b = p.branch;
    b.hose.diameter = v.number("hose_diameter_mm") * 1e-3;
    b.hose.length = v.number("hose_length_m");
    b.hose.roughness = v.number("hose_roughness_um", 1.5) * 1e-6;
    b.minor_loss_K = v.number("minor_loss_K");
    b.channels.diameter = v.number("channel_diameter_mm") * 1e-3;
    b.channels.length = v.number("channel_length_mm") * 1e-3;
    b.channels.count = v.number("channels");
    b.channels.roughness = 0.0;
    b.plate_length = v.number("plate_length_mm") * 1e-3;
    b.valve_kvs = v.number("valve_kvs_m3h", 0.0);
    v.requireRange("hose_diameter_mm", b.hose.diameter * 1e3, 1.0, 500.0);
    v.requireRange("hose_length_m", b.hose.length, 0.0, 1000.0);
    v.requireRange("hose_roughness_um", b.hose.roughness * 1e6, 0.0, 5000.0);
    v.requireRange("minor_loss_K", b.minor_loss_K, 0.0, 1000.0);
    v.requireRange("channel_diameter_mm", b.channels.diameter * 1e3, 0.01, 50.0);
    v.requireRange("channel_length_mm", b.channels.length * 1e3, 1.0, 1e4);
    v.requireRange("channels", b.channels.count, 1.0, 1e7);
    v.requireRange("plate_length_mm", b.plate_length * 1e3, 1.0, 1e4);
    v.requireRange("valve_kvs_m3h", b.valve_kvs, 0.0, 1e4);
    const double gpus = v.number("gpus_per_rack");
    const double share = v.number("gpu_heat_share");
    const double r_gpu = v.number("gpu_resistance_K_per_W");
    v.requireRange("gpus_per_rack", gpus, 1, 1e4);
    v.requireRange("gpu_heat_share", share, 0.01, 1.0);
    v.requireRange("gpu_resistance_K_per_W", r_gpu, 1e-4, 1.0);
    p.gpus = gpus;
    p.R_junction = v.number("junction_resistance_K_per_W");
    p.C_junction = v.number("junction_capacity_J_per_K");
    // The junction-to-plate part must leave a positive plate-to-coolant resistance.
    v.requireRange("junction_resistance_K_per_W", p.R_junction, 1e-5, 0.9 * r_gpu);
    v.requireRange("junction_capacity_J_per_K", p.C_junction, 0.01, 1e4);
    p.R_design = (r_gpu - p.R_junction) * share / gpus;
    p.gpu_heat_design = share * p.heat_design / gpus;
    p.C_metal = v.number("metal_capacity_kJ_per_K") * 1e3;
    p.fluid_volume = v.quantity("fluid_volume", {"L"});
    p.count = v.number("count", 1.0);
    p.initial_temp = v.quantity("initial_temp", {"C"}, p.initial_temp);
    v.requireRange("heat_liquid_kW", p.heat_design, 1.0, 10e6, "kW");
    v.requireRange("flow_Lpm", p.flow_design, 1e-6, 1.0, "Lpm");
    v.requireRange("metal_capacity_kJ_per_K", p.C_metal, 1.0, 1e9);
    v.requireRange("fluid_volume_L", p.fluid_volume, 1e-5, 100.0, "L");
    v.requireRange("count", p.count, 1.0, 1e6);
    return p;
}

RackLoopParams RackLoopParams::fromCatalog(std::string_view name) {
    const Json entry = loadCatalogEntry("rack_loops.json", name);
    return fromJson(JsonView(entry, fmt::format("rack_loops.json/{}", name)));
}

std::shared_ptr<const RackLoop::Kind> RackLoop::makeKind(Coolant coolant, RackLoopParams params,
                                                         std::string_view who) {
    auto k = std::make_shared<Kind>();
    k->coolant = std::move(coolant);
    k->p = std::move(params);
    const RackLoopParams& p = k->p;
    auto bad = [&](const char* what, double v, const char* expected) {
        throw InputError(fmt::format("rack loop '{}': {} = {} ({})", who, what, v, expected));
    };
    if (!(p.count >= 1.0)) bad("count", p.count, "expected ≥ 1");
    if (!(p.C_metal > 0)) bad("C_metal [J/K]", p.C_metal, "expected > 0");
    if (!(p.fluid_volume > 0)) bad("fluid_volume [m3]", p.fluid_volume, "expected > 0");
    if (!(p.R_design > 0)) bad("R_design [K/W]", p.R_design, "expected > 0");
    if (!(p.gpus >= 1.0)) bad("gpus", p.gpus, "expected ≥ 1");
    if (!(p.C_junction > 0)) bad("C_junction [J/K]", p.C_junction, "expected > 0");
    if (!(p.R_junction > 0)) bad("R_junction [K/W]", p.R_junction, "expected > 0");
    if (!(p.flow_design > 0)) bad("flow_design [m3/s]", p.flow_design, "expected > 0");
    const Duct& ch = p.branch.channels;
    if (!(ch.diameter > 0 && ch.count >= 1 && p.branch.plate_length > 0)) {
        bad("cold-plate channel diameter [m]", ch.diameter,
            "expected channels with a positive diameter, count and plate length");
    }
    k->fluid_mass = k->coolant.referenceDensity() * p.fluid_volume;
    k->film_fluid = FluidState::of(k->coolant, p.film_temp);
    k->area = ch.count * M_PI * ch.diameter * p.branch.plate_length;
    const FluidState rated = FluidState::of(Coolant::byName(p.rated_coolant), p.film_temp);
    const double R_film_rated =
        1.0 / (ch.filmCoefficient(p.flow_design, rated, p.branch.plate_length) * k->area);
    k->R_cond = p.R_design - R_film_rated;
    if (!(k->R_cond > 0.0)) {
        throw InputError(fmt::format(
            "rack loop '{}': the film alone in {} channels of {:.2f} mm over {:.0f} mm plates "
            "gives {:.3g} K/W, more than the whole plate-to-coolant resistance {:.3g} K/W; give "
            "more channels or a larger gpu_resistance_K_per_W",
            who, ch.count, ch.diameter * 1e3, p.branch.plate_length * 1e3, R_film_rated,
            p.R_design));
    }
    const FluidState& f = k->film_fluid;
    k->film_id = filmIdentity({k->R_cond, k->area, ch.diameter, ch.length, ch.roughness, ch.count,
                               p.branch.plate_length, f.density, f.viscosity, f.conductivity,
                               f.specific_heat});
    return k;
}

RackLoop::RackLoop(std::string name, Coolant coolant, RackLoopParams params)
    : RackLoop(name, makeKind(std::move(coolant), std::move(params), name)) {}

RackLoop::RackLoop(std::string name, std::shared_ptr<const Kind> kind)
    : Component(std::move(name)), k_(std::move(kind)) {
    if (!k_) throw ModelError(fmt::format("rack loop '{}': no kind", this->name()));
    const RackLoopParams& p = k_->p;
    const double T0 = p.initial_temp;
    const double dT = std::max(1.0, p.heat_design * p.R_design);
    const double q_gpu = std::max(1.0, p.gpu_heat_design);  // [W] nominal only
    addState(kPlate, {"plate_temp", "K", T0, T0, "cold-plate metal temperature (plate average)"});
    addState(kFluid, {"fluid_temp", "K", T0, T0, "coolant temperature in the rack (= outlet)"});
    addState(kJunction, {"junction_temp", "K", T0, T0, "GPU junction (die) temperature"});
    addInput(kHeat, {"heat_liquid", "W", std::max(1.0, p.heat_design), p.heat_design,
                     "heat to liquid per rack, GPUs included"});
    addInput(kSupplyTemp, {"supply_temp", "K", T0, T0, "coolant supply temperature"});
    addInput(kFlow, {"flow", "m3/s", p.flow_design, p.flow_design, "coolant flow per rack"});
    addInput(kGpuHeat, {"gpu_heat", "W", q_gpu, 0.0, "heat one GPU gives its cold plate"});
    addOutput(kOutletTemp, {"outlet_temp", "K", T0, 0.0, "coolant outlet temperature"});
    addOutput(kJunctionTemp, {"junction_temp", "K", T0 + dT + q_gpu * p.R_junction, 0.0,
                              "GPU junction temperature"});
    addOutput(kHeatToCoolant, {"heat_to_coolant", "W", std::max(1.0, p.heat_design), 0.0,
                               "enthalpy rise of the coolant stream per rack"});
    addOutput(kHeatTotal, {"heat_to_coolant_total", "W", std::max(1.0, p.count * p.heat_design),
                           0.0, "enthalpy rise of the coolant streams of all racks represented"});
    addOutput(kFlowTotal, {"flow_total", "m3/s", p.count * p.flow_design, 0.0,
                           "coolant flow of all racks represented"});
    addOutput(kPlateTemp,
              {"plate_temp", "K", T0 + dT, 0.0, "cold-plate temperature (plate average)"});
}

double RackLoop::filmCoefficient(double flow) const {
    return k_->p.branch.channels.filmCoefficient(std::max(flow, 0.0), k_->film_fluid,
                                                 k_->p.branch.plate_length);
}

double RackLoop::resistance(double flow) const {
    // The racks on one CDU get one flow (RackManifold inverts a branch law once per branch
    // type) and mostly share their cold plates, and are evaluated one after the other: the
    // last result on this thread is reused when the flow and the film parameters (k_->film_id)
    // match bit for bit. The film correlation (two pow) was ~6 % of a campus evaluation
    // (bench case 5).
    struct Memo {
        std::uint64_t id = 0;  // 0: empty (identities start at 1)
        std::uint64_t flow_bits = 0;
        double R = 0.0;
    };
    thread_local Memo memo;
    const auto flow_bits = std::bit_cast<std::uint64_t>(flow);
    if (memo.id == k_->film_id && memo.flow_bits == flow_bits) return memo.R;
    const double R = k_->R_cond + 1.0 / (filmCoefficient(flow) * k_->area);
    memo = {k_->film_id, flow_bits, R};
    return R;
}

double RackLoop::fluidCapacity(double T) const {
    return k_->fluid_mass * k_->coolant.specificHeat(T);
}

double RackLoop::storedEnergy(std::span<const double> x) const {
    return k_->p.count * (k_->p.C_metal * x[kPlate] + k_->p.gpus * k_->p.C_junction * x[kJunction] +
                          k_->fluid_mass * k_->coolant.enthalpy(x[kFluid]));
}

void RackLoop::checkInputs(std::span<const double> u, bool with_heat) const {
    // computeOutputs must not read heat_liquid or gpu_heat (no output depends on them; they
    // may be stale).
    if (with_heat && (!(u[kHeat] >= 0.0) || !std::isfinite(u[kHeat]))) {
        throw InputError(
            fmt::format("rack loop '{}': heat_liquid = {} W; expected a finite "
                        "value ≥ 0",
                        name(), u[kHeat]));
    }
    if (with_heat && (!(u[kGpuHeat] >= 0.0) || !std::isfinite(u[kGpuHeat]))) {
        throw InputError(fmt::format("rack loop '{}': gpu_heat = {} W; expected a finite value ≥ 0",
                                     name(), u[kGpuHeat]));
    }
    if (!(u[kFlow] >= 0.0) || !std::isfinite(u[kFlow])) {
        throw InputError(fmt::format("rack loop '{}': flow = {} m3/s; expected a finite value ≥ 0",
                                     name(), u[kFlow]));
    }
    const double T = u[kSupplyTemp];
    // A property outside its table is a ModelError (core/errors.h): a state the run
    // reached, so a persistent one ends it as a simulation failure with its time, not
    // as bad input.
    if (!(T >= k_->coolant.minTemperature() && T <= k_->coolant.maxTemperature())) {
        throw ModelError(fmt::format(
            "rack loop '{}': supply_temp = {:.2f} K ({:.2f} °C) is outside the {} table, "
            "{:.1f}..{:.1f} °C",
            name(), T, units::kelvinToCelsius(T), k_->coolant.name(),
            units::kelvinToCelsius(k_->coolant.minTemperature()),
            units::kelvinToCelsius(k_->coolant.maxTemperature())));
    }
}

void RackLoop::computeOutputs(double, std::span<const double> x, std::span<const double> u,
                              std::span<double> y) const {
    checkInputs(u, false);
    const double mdot = k_->coolant.massFlow(u[kFlow]);
    const double q =
        mdot * (k_->coolant.enthalpy(x[kFluid]) - k_->coolant.enthalpy(u[kSupplyTemp]));
    y[kOutletTemp] = x[kFluid];
    y[kJunctionTemp] = x[kJunction];
    y[kPlateTemp] = x[kPlate];
    y[kHeatToCoolant] = q;
    y[kHeatTotal] = k_->p.count * q;
    y[kFlowTotal] = k_->p.count * u[kFlow];
}

void RackLoop::computeDerivatives(double t, std::span<const double> x, std::span<const double> u,
                                  std::span<double> dxdt) const {
    std::array<double, kPlateTemp + 1> y{};
    computeOutputs(t, x, u, y);
    computeDerivativesGivenOutputs(t, x, u, y, dxdt);
}

void RackLoop::computeDerivativesGivenOutputs(double, std::span<const double> x,
                                              std::span<const double> u, std::span<const double> y,
                                              std::span<double> dxdt) const {
    checkInputs(u, true);
    const double q_jp = (x[kJunction] - x[kPlate]) / k_->p.R_junction;  // [W] per GPU
    const double q_plate = (x[kPlate] - x[kFluid]) / resistance(u[kFlow]);
    const double q_out = y[kHeatToCoolant];  // ṁ·(h(T_fluid) − h(T_sup)), two enthalpies
    // The GPUs' heat reaches the plate through the junctions; the rest of heat_liquid directly.
    const double q_direct = u[kHeat] - k_->p.gpus * u[kGpuHeat];
    dxdt[kJunction] = (u[kGpuHeat] - q_jp) / k_->p.C_junction;
    dxdt[kPlate] = (q_direct + k_->p.gpus * q_jp - q_plate) / k_->p.C_metal;
    dxdt[kFluid] = (q_plate - q_out) / fluidCapacity(x[kFluid]);
}

bool RackLoop::outputDependsOnInput(std::size_t o, std::size_t i) const {
    switch (o) {
        case kOutletTemp:
        case kJunctionTemp:
        case kPlateTemp:
            return false;
        case kHeatToCoolant:
        case kHeatTotal:
            return i == kSupplyTemp || i == kFlow;
        default:
            return i == kFlow;
    }
}

bool RackLoop::outputDependsOnState(std::size_t o, std::size_t s) const {
    switch (o) {
        case kOutletTemp:
        case kHeatToCoolant:
        case kHeatTotal:
            return s == kFluid;
        case kJunctionTemp:
            return s == kJunction;
        case kPlateTemp:
            return s == kPlate;
        default:
            return false;
    }
}

bool RackLoop::derivativeDependsOnState(std::size_t row, std::size_t s) const {
    if (row == kJunction) return s != kFluid;
    if (row == kFluid) return s != kJunction;
    return true;
}

bool RackLoop::derivativeDependsOnInput(std::size_t row, std::size_t i) const {
    if (row == kJunction) return i == kGpuHeat;
    if (row == kPlate) return i == kHeat || i == kFlow || i == kGpuHeat;
    return i == kSupplyTemp || i == kFlow;
}

namespace {
/// (1 − a)/(1 − a·b) and (1 − b) of the square-wave response; τ = 0 is the instant node.
std::pair<double, double> squareWaveFactors(double tau, double period, double duty) {
    if (!(tau > 0)) return {1.0, 1.0};
    const double a = std::exp(-duty * period / tau), b = std::exp(-(1 - duty) * period / tau);
    return {(1 - a) / (1 - a * b), 1 - b};
}
}  // namespace

double junctionSquareWaveSwing(double R, double tau, double dP, double period, double duty) {
    const auto [f, one_minus_b] = squareWaveFactors(tau, period, duty);
    return R * dP * f * one_minus_b;
}

double junctionSquareWaveExcess(double R, double tau, double dP, double period, double duty) {
    return R * dP * (squareWaveFactors(tau, period, duty).first - duty);
}

}  // namespace dctwin::thermal
