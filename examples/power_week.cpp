#include "examples/power_week.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "core/io/report_writer.h"
#include "core/json.h"
#include "core/simulator.h"
#include "core/system.h"
#include "dctwin/version.h"
#include "examples/electrical_chain.h"
#include "power/catalog.h"
#include "power/chain.h"
#include "power/fabric.h"
#include "power/rack.h"
#include "power/sizing.h"
#include "power/smoothing.h"
#include "power/workload.h"
#include "power/workload_source.h"

namespace dctwin::examples {
using namespace dctwin::power;

namespace {

// The week: a 32-rack pretraining run all week (hourly checkpoints, ramped start), a 6-rack
// fine-tune from day 2 to day 4, and a 24-rack inference service; 2 product racks idle.
constexpr const char* kWorkload = R"({
  "racks": 64,
  "tenants": {"research": 0.6, "product": 0.4},
  "placement": "first_fit",
  "start_weekday": 0,
  "jobs": [
    {"name": "pretrain", "type": "training", "tenant": "research", "racks": 32,
     "start_h": 1, "duration_h": 160, "iteration_period_s": 2.0, "compute_fraction": 0.6,
     "compute_util_pct": 100, "comm_util_pct": 30,
     "checkpoint_interval_h": 1, "checkpoint_duration_s": 60, "checkpoint_util_pct": 5,
     "start_ramp_s": 300, "end": "ramp_down", "end_ramp_s": 120},
    {"name": "finetune", "type": "training", "tenant": "research", "racks": 6,
     "start_h": 24, "duration_h": 48, "iteration_period_s": 0.8, "compute_fraction": 0.7,
     "compute_util_pct": 95, "comm_util_pct": 40,
     "checkpoint_interval_h": 2, "checkpoint_duration_s": 30, "start_ramp_s": 60},
    {"name": "chat", "type": "inference", "tenant": "product", "racks": 24,
     "peak_util_pct": 85, "peak_to_trough": 2.0}
  ]
})";

}  // namespace

PowerWeekSummary runPowerWeekExample(const std::filesystem::path& report,
                                     const PowerWeekOptions& opt) {
    const Catalog catalog = Catalog::load();
    const RackSpec spec = catalog.rack("gb300_nvl72");
    const RackPowerModel rack(spec);
    const Json workload_json = parseJson(kWorkload, "power week example");
    auto workload =
        std::make_shared<const Workload>(Workload::fromJson(JsonView(workload_json, "/workload")));

    // Fabric and sizing of the hall (4N/3 UPS and transformers).
    FabricOptions fo;
    fo.gpus = workload->racks() * spec.gpus;
    const FabricResult fabric = sizeFabric(fo, catalog);
    SizingInput si;
    si.racks = workload->racks();
    si.rack = spec;
    si.fabric_power = fabric.power_outside_racks;
    const SizingResult sizing = sizeElectrical(si, catalog);
    const double it_peak = si.racks * rack.evaluate(1.0).it_power + fabric.power_outside_racks;
    const double cooling = si.cooling_fraction * it_peak;  // [W] constant design estimate

    System sys;
    const auto groups = workload->rackGroups();
    auto bus =
        std::make_shared<const PowerBus>("it_bus", static_cast<int>(groups.size()) + 1, it_peak);
    sys.add(bus);
    std::vector<std::string> group_names;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        const RackGroup& grp = groups[g];
        const int n = static_cast<int>(grp.racks.size());
        std::string label = "idle";
        if (!grp.jobs.empty()) {
            label.clear();
            for (std::size_t j : grp.jobs) {
                label += (label.empty() ? "" : "+") + workload->jobs()[j]->name;
            }
        }
        const std::string name = fmt::format("g{}_{}", g, label);
        group_names.push_back(name);
        sys.add(std::make_shared<const WorkloadSource>(name + "_work", workload,
                                                       grp.representative(), Resolution::Averaged));
        sys.add(std::make_shared<const RackPower>(name + "_rack", spec, n));
        SmoothingParams sp;
        sp.storage_energy = n * rack.storageEnergy();
        // The floor is on the GPUs; in shelf-input terms it is the rack power with the GPUs
        // at floor_pct of TGP.
        sp.floor_power =
            n * rack.evaluate(rack.utilizationForGpuFraction(opt.floor_pct / 100.0)).it_power;
        sp.ramp_up = sp.ramp_down = n * 20e3;  // [W/s] 20 kW/s per rack (illustrative)
        sp.hysteresis = 2.0;
        sp.initial_power =
            n * rack.evaluate(workload->averagedUtilization(grp.representative(), 0.0)).it_power;
        sp.nominal_power = n * spec.tdp;
        sp.nominal_time = opt.days * 86400.0;
        sys.add(std::make_shared<const PowerSmoothing>(name + "_smooth", sp));
        sys.connect(name + "_work.utilization", name + "_rack.utilization");
        sys.connect(name + "_work.floor_active", name + "_smooth.floor_active");
        sys.connect(name + "_rack.it_power", name + "_smooth.load_power");
        sys.connect(name + "_smooth.grid_power", fmt::format("it_bus.in{}", g));
    }
    sys.setInput(fmt::format("it_bus.in{}", groups.size()), fabric.power_outside_racks);
    sys.add(std::make_shared<const ElectricalChain>(
        "chain", chainDesignFromSizing(sizing, si, catalog), UpsMode::DoubleConversion, it_peak));
    sys.connect("it_bus.total", "chain.it_power");
    sys.setInput("chain.cooling_power", cooling);
    BatteryParams bp;
    bp.spec = catalog.bess(si.bess_model);
    bp.count = sizing.row("bess").count;
    bp.averaging_time = 900.0;
    bp.soc_time = 4 * 3600.0;
    bp.initial_load = 0.6 * (it_peak + cooling);
    bp.nominal_time = opt.days * 86400.0;
    sys.add(std::make_shared<const SiteBattery>("bess", bp));
    sys.connect("chain.facility_power", "bess.load_power");
    sys.finalize();

    SimulationOptions so;
    so.t_end = opt.days * 86400.0;
    so.output_interval = opt.output_interval;
    so.solver.rel_tol = 1e-7;
    so.solver.abs_tol_factor = 1e-7;
    Simulator sim(sys, so);
    Recorder rec(sys);
    for (const auto& name : group_names) {
        const std::string grp = "racks/" + name;
        rec.addOutput(name + "_work.utilization", grp, "utilization", "GPU utilization");
        rec.addOutput(name + "_rack.it_power", grp, "it_power", "rack shelf input power, group");
        rec.addOutput(name + "_rack.gpu_power", grp, "gpu_power", "GPU power, group");
        rec.addOutput(name + "_rack.heat_liquid", grp, "heat_liquid", "heat to coolant");
        rec.addOutput(name + "_rack.heat_air", grp, "heat_air", "heat to air");
        rec.addOutput(name + "_smooth.grid_power", grp, "grid_power", "after PSU smoothing");
        rec.addOutput(name + "_smooth.burn_power", grp, "burn_power", "power floor burn");
        rec.addOutput(name + "_smooth.stored_energy", grp, "stored_energy", "PSU storage");
    }
    rec.addOutput("it_bus.total", "power", "it_power", "IT power incl. fabric");
    for (const char* out :
         {"facility_power", "total_loss", "ups_loss", "transformer_loss", "distribution_loss",
          "hall_heat", "electrical_room_heat", "feed_loading", "busway_loading", "ups_loading",
          "transformer_loading", "mv_current"}) {
        rec.addOutput(std::string("chain.") + out, "chain", out);
    }
    rec.addOutput("bess.grid_power", "bess", "grid_power", "utility power after the battery");
    rec.addOutput("bess.battery_power", "bess", "battery_power", "discharge positive");
    rec.addOutput("bess.soc", "bess", "soc", "state of charge");
    sim.run(rec);

    // Summary from the final state (energies) and the sampled channels (peaks).
    const ResultSet& rs = rec.results();
    const std::vector<double>& xf = sim.finalState();
    PowerWeekSummary s;
    s.groups = groups.size();
    double grid = 0, load = 0, burn = 0, dstore = 0;
    std::vector<double> x0(sys.stateCount());
    sys.initialState(x0);
    for (const auto& name : group_names) {
        const auto at = [&](const char* st) { return sys.stateIndex(name + "_smooth." + st); };
        grid += xf[at("grid_energy")];
        load += xf[at("load_energy")];
        burn += xf[at("burnt_energy")];
        dstore += xf[at("stored_energy")] - x0[at("stored_energy")];
    }
    s.it_energy = grid + fabric.power_outside_racks * so.t_end;
    s.burnt_energy = burn;
    s.smoothing_balance_rel_error = std::abs(grid - load - burn - dstore) / grid;
    const auto bi = [&](const char* st) { return sys.stateIndex(std::string("bess.") + st); };
    s.facility_energy = xf[bi("load_energy")];
    s.grid_energy = xf[bi("grid_energy")];
    s.battery_balance_rel_error =
        std::abs(s.grid_energy - s.facility_energy - (xf[bi("energy")] - x0[bi("energy")]) -
                 xf[bi("loss_energy")]) /
        s.grid_energy;
    const auto peak = [&](const char* g, const char* c) {
        const auto& v = rs.at(g, c).values;
        return *std::max_element(v.begin(), v.end());
    };
    s.peak_it = peak("power", "it_power");
    s.peak_facility = peak("chain", "facility_power");
    s.max_ups_loading = peak("chain", "ups_loading");
    s.max_transformer_loading = peak("chain", "transformer_loading");
    s.channels = rs.channels.size();
    s.samples = rs.time.size();

    Report r;
    r.attributes["generator"] = "dctwin power week example (examples/power_week.cpp)";
    r.attributes["version"] = kVersion;
    r.attributes["git_commit"] = kGitCommit;
    r.attributes["scenario_name"] = "64 x GB300 NVL72, one week, research 60 % / product 40 %";
    r.texts["scenario/input"] = workload_json.dump(2);
    r.summary = {{"it_energy_MWh", s.it_energy / 3.6e9, "MWh"},
                 {"facility_energy_MWh", s.facility_energy / 3.6e9, "MWh"},
                 {"grid_energy_MWh", s.grid_energy / 3.6e9, "MWh"},
                 {"peak_it_kW", s.peak_it / 1e3, "kW"},
                 {"peak_facility_kW", s.peak_facility / 1e3, "kW"},
                 {"max_ups_loading_pct", 100 * s.max_ups_loading, "%"},
                 {"burnt_energy_MWh", s.burnt_energy / 3.6e9, "MWh"},
                 {"energy_balance_rel_error", s.smoothing_balance_rel_error, "1"}};
    r.tables.push_back(sizing.toTable());
    r.timeseries = rec.results();
    r.timeseries.start_iso8601 = "2026-01-05T00:00:00";  // a Monday, as start_weekday 0 says
    makeHdf5Writer()->write(r, report);
    return s;
}

}  // namespace dctwin::examples
