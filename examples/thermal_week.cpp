#include "examples/thermal_week.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <memory>
#include <numbers>

#include "core/errors.h"
#include "core/io/report_writer.h"
#include "core/simulator.h"
#include "core/system.h"
#include "core/units.h"
#include "core/weather/epw.h"
#include "dctwin/version.h"
#include "thermal/ambient.h"
#include "thermal/cdu.h"
#include "thermal/heat_rejection.h"
#include "thermal/pipe.h"
#include "thermal/rack_loop.h"
#include "thermal/water.h"

namespace dctwin::examples {
using namespace dctwin::thermal;

namespace {

/// Synthetic, smooth rack heat: racks [0, n_train) train at 92–100 % of the design heat with a
/// slow wobble; the others serve inference on a diurnal shape between 45 % and 90 %.
class ExampleLoad : public Component {
public:
    /// `gpu_share`: the part of a rack's heat its GPUs give, per GPU (share / GPUs per rack).
    ExampleLoad(std::string name, int racks, double design_heat, double gpu_share,
                double start_seconds)
        : Component(std::move(name)),
          racks_(racks),
          q_(design_heat),
          gpu_share_(gpu_share),
          start_(start_seconds) {
        for (int i = 1; i <= racks_; ++i) {
            addOutput({fmt::format("heat_{}", i), "W", q_, 0.0,
                       fmt::format("heat to liquid of rack {}", i)});
        }
        addOutput({"heat_total", "W", q_ * racks_, 0.0, "heat to liquid of all racks"});
        for (int i = 1; i <= racks_; ++i) {
            addOutput({fmt::format("gpu_heat_{}", i), "W", q_ * gpu_share_, 0.0,
                       fmt::format("heat of one GPU of rack {}", i)});
        }
    }
    void computeOutputs(double t, std::span<const double>, std::span<const double>,
                        std::span<double> y) const override {
        const int n_train = std::max(1, (racks_ * 5 + 7) / 8);
        const double day = units::day;
        const double tod = std::fmod(start_ + t, day) / day;  // local time of day, 0..1
        double total = 0.0;
        for (int i = 0; i < racks_; ++i) {
            double f;
            if (i < n_train) {
                f = 0.96 +
                    0.04 * std::sin(2 * std::numbers::pi * (t / (6 * units::hour) + 0.1 * i));
            } else {
                // Peak of requests mid-afternoon, trough before dawn.
                f = 0.675 - 0.225 * std::cos(2 * std::numbers::pi * (tod - 0.125));
            }
            y[static_cast<std::size_t>(i)] = f * q_;
            y[static_cast<std::size_t>(racks_ + 1 + i)] = f * q_ * gpu_share_;
            total += f * q_;
        }
        y[static_cast<std::size_t>(racks_)] = total;
    }
    bool outputDependsOnState(std::size_t, std::size_t) const override { return false; }
    bool outputDependsOnInput(std::size_t, std::size_t) const override { return false; }

private:
    int racks_;
    double q_;          // [W]
    double gpu_share_;  // [1/GPU]
    double start_;      // [s]
};

std::string isoStart(int day_of_year) {
    // A typical-meteorological year has no year; 2001 is a common non-leap stand-in.
    static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int month = 0, day = day_of_year;
    while (day > kDays[month]) day -= kDays[month++];
    return fmt::format("2001-{:02}-{:02}T00:00:00", month + 1, day);
}

std::string utcNow() {
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

}  // namespace

ThermalWeekSummary runThermalWeekExample(const std::filesystem::path& epw,
                                         const std::filesystem::path& out_h5,
                                         const ThermalWeekOptions& o) {
    if (o.start_day_of_year < 1 || o.start_day_of_year > 365 || !(o.days > 0.0) || o.days > 365.0 ||
        !(o.output_interval > 0.0) || o.racks < 1 || o.racks > 64 || o.dry_cooler_units < 1) {
        throw InputError(fmt::format(
            "thermal example: start day {}, {} days, output every {} s, {} racks, {} dry "
            "cooler units; expected day 1..365, 0 < days ≤ 365, interval > 0, 1..64 racks, "
            "≥ 1 unit",
            o.start_day_of_year, o.days, o.output_interval, o.racks, o.dry_cooler_units));
    }
    auto wx = std::make_shared<const weather::Weather>(weather::readEpw(epw));
    const double start = (o.start_day_of_year - 1) * units::day;

    const Coolant pg = Coolant::byName("PG25");
    const Coolant water = Coolant::byName("water");
    RackLoopParams rp = RackLoopParams::fromCatalog(o.rack_model);
    rp.initial_temp = o.tcs_supply_setpoint + 8.0;
    const CduModel cdu_model(CduSpec::fromCatalog(o.cdu_model));
    const AshraeLiquidClass cls = loadAshraeClass(o.ashrae_class);
    const double fws_setpoint = facilitySupplySetpoint(cls, o.facility_setpoint_margin);

    System sys;
    sys.add(std::make_shared<const AmbientWeather>("weather", wx, start));
    sys.add(std::make_shared<const ExampleLoad>("load", o.racks, rp.heat_design,
                                                rp.gpu_heat_design / rp.heat_design, start));
    // Every rack is a branch of its own on the CDU's headers (one branch law, PG25).
    rp.film_temp = o.tcs_supply_setpoint + 0.5 * cdu_model.spec().delta_t_setpoint;
    std::vector<RackManifold::Slot> slots(static_cast<std::size_t>(o.racks), {0, 1.0});
    const Cdu& cdu = sys.add(std::make_shared<const Cdu>(
        "cdu", cdu_model,
        std::vector<RackBranch>{
            RackBranch(rp.branch, FluidState::of(pg, rp.film_temp), 4.0 * rp.flow_design)},
        slots));
    std::vector<const RackLoop*> racks;
    for (int i = 1; i <= o.racks; ++i) {
        racks.push_back(
            &sys.add(std::make_shared<const RackLoop>(fmt::format("rack{:02}", i), pg, rp)));
    }
    sys.add(std::make_shared<const Mixer>("mixer", pg, std::vector<double>(o.racks, 1.0),
                                          rp.initial_temp, rp.flow_design));
    PipeParams pipe;
    pipe.volume = o.pipe_volume;
    pipe.segments = o.pipe_segments;
    pipe.initial_temp = fws_setpoint + 4.0;
    pipe.nominal_flow = cdu_model.spec().facility_flow;
    const Pipe& pipe_ret = sys.add(std::make_shared<const Pipe>("pipe_return", water, pipe));
    pipe.initial_temp = fws_setpoint;
    const Pipe& pipe_sup = sys.add(std::make_shared<const Pipe>("pipe_supply", water, pipe));
    const DryCooler dc(DryCoolerSpec::fromCatalog(o.dry_cooler_model), o.dry_cooler_units);
    sys.add(std::make_shared<const DryCoolerComponent>("dry_cooler", dc));
    sys.add(std::make_shared<const WaterUseMeter>("water", 1e-4));
    const double duration = o.days * units::day;
    const double q_total = rp.heat_design * o.racks;
    sys.add(std::make_shared<const Accumulator>(
        "energy",
        std::vector<Accumulator::Channel>{{"it_heat", "W", "J", q_total, q_total * duration},
                                          {"pump_heat", "W", "J", 1e4, 1e4 * duration},
                                          {"heat_rejected", "W", "J", q_total, q_total * duration},
                                          {"fan_power", "W", "J", 1e4, 1e4 * duration},
                                          {"pump_power", "W", "J", 1e4, 1e4 * duration}}));

    // Wiring.
    for (int i = 1; i <= o.racks; ++i) {
        const std::string r = fmt::format("rack{:02}", i);
        sys.connect(fmt::format("load.heat_{}", i), r + ".heat_liquid");
        sys.connect(fmt::format("load.gpu_heat_{}", i), r + ".gpu_heat");
        sys.connect("cdu.secondary_supply_temp", r + ".supply_temp");
        sys.connect(fmt::format("cdu.rack_flow_{}", i), r + ".flow");
        sys.connect(r + ".outlet_temp", fmt::format("mixer.temp_{}", i));
        sys.connect(fmt::format("cdu.rack_flow_{}", i), fmt::format("mixer.flow_{}", i));
    }
    sys.connect("mixer.temp", "cdu.secondary_return_temp");
    sys.connect("mixer.temp_max", "cdu.critical_return_temp");
    sys.connect("pipe_supply.outlet_temp", "cdu.facility_supply_temp");
    sys.setInput("cdu.supply_temp_setpoint", o.tcs_supply_setpoint);
    sys.connect("cdu.facility_return_temp", "pipe_return.inlet_temp");
    sys.connect("cdu.facility_flow", "pipe_return.flow");
    sys.connect("pipe_return.outlet_temp", "dry_cooler.inlet_temp");
    sys.connect("cdu.facility_flow", "dry_cooler.flow");
    sys.setInput("dry_cooler.setpoint", fws_setpoint);
    sys.connect("weather.dry_bulb", "dry_cooler.dry_bulb");
    sys.connect("weather.wet_bulb", "dry_cooler.wet_bulb");
    sys.connect("weather.pressure", "dry_cooler.pressure");
    sys.connect("dry_cooler.outlet_temp", "pipe_supply.inlet_temp");
    sys.connect("cdu.facility_flow", "pipe_supply.flow");
    sys.connect("dry_cooler.spray_water_rate", "water.spray_rate");
    sys.connect("load.heat_total", "energy.it_heat");
    sys.connect("cdu.pump_heat", "energy.pump_heat");
    sys.connect("dry_cooler.heat_rejected", "energy.heat_rejected");
    sys.connect("dry_cooler.fan_power", "energy.fan_power");
    sys.connect("cdu.pump_power", "energy.pump_power");
    sys.finalize();

    // Heat stored in every thermal mass, from the full state vector.
    auto slice = [&](std::string_view comp, std::span<const double> x) {
        const std::size_t c = sys.componentIndex(comp);
        return x.subspan(sys.stateOffset(c), sys.component(c).states().size());
    };
    auto stored = [&](std::span<const double> x) {
        double e = cdu.storedEnergy(slice("cdu", x)) +
                   pipe_ret.storedEnergy(slice("pipe_return", x)) +
                   pipe_sup.storedEnergy(slice("pipe_supply", x));
        for (const RackLoop* r : racks) e += r->storedEnergy(slice(r->name(), x));
        return e;
    };

    Recorder rec(sys);
    rec.addOutput("weather.dry_bulb", "weather", "dry_bulb");
    rec.addOutput("weather.wet_bulb", "weather", "wet_bulb");
    rec.addOutput("weather.pressure", "weather", "pressure");
    rec.addOutput("load.heat_total", "it", "heat_liquid");
    for (int i = 1; i <= o.racks; ++i) {
        const std::string r = fmt::format("rack{:02}", i);
        const std::string g = fmt::format("rack/r{:02}", i);
        rec.addOutput(r + ".junction_temp", g, "die_temp");
        rec.addOutput(r + ".outlet_temp", g, "outlet_temp");
        rec.addOutput(r + ".heat_to_coolant", g, "heat_to_coolant");
    }
    for (const char* n :
         {"secondary_supply_temp", "facility_return_temp", "secondary_flow", "facility_flow",
          "valve_position", "heat_transferred", "pump_power", "approach"}) {
        rec.addOutput(fmt::format("cdu.{}", n), "cdu", n);
    }
    rec.addOutput("mixer.temp", "cdu", "secondary_return_temp");
    rec.addOutput("pipe_supply.outlet_temp", "facility", "supply_temp");
    rec.addOutput("pipe_return.outlet_temp", "facility", "return_temp");
    for (const char* n : {"outlet_temp", "heat_rejected", "fan_power", "air_fraction",
                          "air_inlet_temp", "spray_water_rate", "setpoint_unmet"}) {
        rec.addOutput(fmt::format("dry_cooler.{}", n), "heat_rejection", n);
    }
    rec.addOutput("water.total", "water", "total");
    rec.addOutput("water.makeup_rate", "water", "makeup_rate");
    for (const char* n : {"it_heat_total", "pump_heat_total", "heat_rejected_total",
                          "fan_power_total", "pump_power_total"}) {
        rec.addOutput(fmt::format("energy.{}", n), "energy", n);
    }
    rec.addProbe(
        [&](double, std::span<const double> x, std::span<const double>) { return stored(x); },
        "energy", "stored", "J", "heat stored in racks, CDU and pipes (enthalpy basis)");

    SimulationOptions so;
    so.t_start = 0.0;
    so.t_end = duration;
    so.output_interval = o.output_interval;
    so.solver.rel_tol = 1e-6;
    so.solver.abs_tol_factor = 1e-6;
    Simulator sim(sys, so);
    std::vector<double> x0(sys.stateCount());
    sys.initialState(x0);
    const double stored0 = stored(x0);
    rec.results().start_iso8601 = isoStart(o.start_day_of_year);
    sim.run(rec);

    const std::vector<double>& xf = sim.finalState();
    auto finalOf = [&](std::string_view q) { return xf[sys.stateIndex(q)]; };
    ThermalWeekSummary s;
    s.it_heat = finalOf("energy.it_heat_total");
    s.pump_heat = finalOf("energy.pump_heat_total");
    s.heat_rejected = finalOf("energy.heat_rejected_total");
    s.fan_energy = finalOf("energy.fan_power_total");
    s.pump_energy = finalOf("energy.pump_power_total");
    s.stored_change = stored(xf) - stored0;
    s.energy_balance_rel_error =
        std::abs(s.it_heat + s.pump_heat - s.heat_rejected - s.stored_change) /
        (s.it_heat + s.pump_heat);
    s.water = finalOf("water.spray");
    const ResultSet& rs = rec.results();
    auto maxOf = [&](std::string_view g, std::string_view n) {
        const auto& v = rs.at(g, n).values;
        return *std::max_element(v.begin(), v.end());
    };
    s.max_dry_bulb = maxOf("weather", "dry_bulb");
    s.max_tcs_supply_temp = maxOf("cdu", "secondary_supply_temp");
    s.max_facility_supply_temp = maxOf("facility", "supply_temp");
    s.min_temp = INFINITY;
    for (const auto& ch : rs.channels) {
        // Absolute temperatures only (approach and setpoint_unmet are differences in K).
        if (ch.unit != "K" || ch.group == "weather" || ch.name.find("temp") == std::string::npos) {
            continue;
        }
        for (double v : ch.values) s.min_temp = std::min(s.min_temp, v);
        if (ch.name == "die_temp") {
            for (double v : ch.values) s.max_die_temp = std::max(s.max_die_temp, v);
        }
    }
    for (double v : rs.at("heat_rejection", "spray_water_rate").values) {
        if (v > 0.0) s.hours_with_spray += o.output_interval / units::hour;
    }
    s.samples = rs.time.size();
    s.channels = rs.channels.size();
    s.stats = sim.stats();

    Report report;
    report.attributes["generator"] = "dctwin thermal week example (examples/thermal_week.cpp)";
    report.attributes["version"] = kVersion;
    report.attributes["git_commit"] = kGitCommit;
    report.attributes["created_utc"] = utcNow();
    report.attributes["scenario_name"] =
        fmt::format("thermal week: {} x {}, {}, {} x {}, {}", o.racks, o.rack_model, o.cdu_model,
                    o.dry_cooler_units, o.dry_cooler_model, epw.filename().string());
    report.texts["scenario/weather_file"] = epw.string();
    report.summary = {
        {"it_heat_MWh", s.it_heat / units::MWh, "MWh"},
        {"heat_rejected_MWh", s.heat_rejected / units::MWh, "MWh"},
        {"pump_heat_MWh", s.pump_heat / units::MWh, "MWh"},
        {"stored_change_MWh", s.stored_change / units::MWh, "MWh"},
        {"energy_balance_rel_error", s.energy_balance_rel_error, "1"},
        {"water_m3", s.water, "m3"},
        {"fan_energy_MWh", s.fan_energy / units::MWh, "MWh"},
        {"pump_energy_MWh", s.pump_energy / units::MWh, "MWh"},
        {"max_gpu_junction_C", units::kelvinToCelsius(s.max_die_temp), "C"},
        {"max_tcs_supply_temp_C", units::kelvinToCelsius(s.max_tcs_supply_temp), "C"},
        {"wue_L_per_kWh", s.water * 1e3 / (s.it_heat / units::kWh), "L/kWh"},
    };
    report.timeseries = rs;
    makeHdf5Writer()->write(report, out_h5);
    return s;
}

}  // namespace dctwin::examples
