#pragma once
// The coupled site model (DESIGN.md §3.4): one System for racks, rack loops, CDUs, the facility
// water loop, heat rejection, the air side and the electrical chain.
//
// Wiring, per CDU group g (multiplicity m_g) and rack kind k in it (n_k racks per CDU):
//   source_k ─u─▶ rack power_gk ─heat_liquid (+ burn)/n_k─▶ rack loop_gk[s]
//                 rack power_gk ─λ_gpu·gpu_power (+ burn)/(n_k·N_gpu)─▶ rack loop_gk.gpu_heat
//   rack loop_gk.junction_temp[s] ─▶ rack power_gk (leakage, throttling, thermal trip)
//   rack loops ─outlet─▶ mixer_g ─▶ cdu_g[s] ─supply, flow per rack─▶ rack loops
//   cdu_g.facility_return ─▶ fws mixer (weights m_g) ─▶ return pipe[s] ─▶ plant ─▶ supply
//   pipe[s] ─▶ cdu_g.facility_supply
//   Σ m_g·(rack grid power, rack air heat, CDU pumps) + plant power ─▶ site power (chain, air
//   side, FWS pumps) ─▶ facility power ─▶ [site battery] ─▶ grid
//   meters integrate facility, IT, heat to ambient, every consumer and water by kind.
//   Utility loss (study): UPS battery ─supply─▶ rack powers, CDU pumps on the UPS; ─mains,
//   available, charge─▶ site power ─battery power─▶ UPS battery (facility/utility_loss.h).
// Halls (issue 12): each hall h of ScenarioSpec::halls has its own CDU groups, fws mixer,
// pipes and plant, fed by its hall's events; the racks' sums, the site power (chain, air side,
// BESS) and the campus meters span every hall. Named halls (/halls) add per hall the sums of
// rack grid power, CDU pump power and rack air heat, and meters (hallMeterNames) that
// integrate the hall's IT, CDU pump, facility pump, fan, chiller, rejected-heat and water
// flows; the campus plant totals are sums of the halls' plant outputs (plantTotal). A
// scenario without /halls builds exactly the one-hall model, names unchanged.
// [s] marks states; every loop in the diagram passes through one, so there is no algebraic
// loop. With smoothing (resolved workload) a PowerSmoothing per (g, k) sits between the rack
// power and the grid; its burn power heats the coolant.
//
// Conditions choose the boundary: the study (workload and hourly weather in time) or a steady
// operating point (constant utilization per rack kind and constant weather), which the design
// point and the initial state of every study use. Both build the same states in the same order,
// so a steady state can start a study.
#include <compare>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "core/system.h"
#include "facility/sizing.h"
#include "facility/specs.h"
#include "facility/utility_loss.h"
#include "power/workload.h"
#include "thermal/cdu.h"
#include "thermal/coolant.h"
#include "thermal/hydraulics.h"
#include "thermal/rack_loop.h"

namespace dctwin::facility {

struct Conditions {
    bool steady = false;              // constant boundary instead of workload + weather
    std::vector<double> utilization;  // steady: per rack kind [1]
    weather::WeatherSample air;       // steady: constant weather
    power::Resolution resolution = power::Resolution::Averaged;  // study (resolved: smoothing)
    double workload_window = 0.0;        // [s] averaged workload: moving-average window
    double weather_offset = 0.0;         // [s] study start after Jan 1 00:00
    bool stop_at_weather_hours = false;  // restart the integrator at hourly weather kinks
    power::ChainDesign chain;            // electrical chain from the sizing
    int battery_blocks = 1;              // site battery blocks (when the site has one)
    double crah_units = 0.0;             // CRAH units from the design point (0: from the load)
    double air_chiller_units = 0.0;      // air-cooled chillers from sizing (0: the CRAH rating)
    /// Event schedules of one hall's cooling: (time [s], value) changes.
    struct HallEvents {
        std::vector<std::pair<double, double>> units_available;  // heat rejection units
        std::vector<std::pair<double, double>> fans_available;   // plant fans and chiller power
        std::vector<std::pair<double, double>> chiller_available;
        std::map<int, std::vector<std::pair<double, double>>> pumps_failed;  // per physical CDU
        std::vector<std::pair<double, double>> fws_pumps_failed;             // facility water pumps
        std::vector<std::pair<double, double>> outdoor_hx_running;    // outdoor loop's duty plates
        std::vector<std::pair<double, double>> outdoor_pumps_failed;  // outdoor loop's pumps lost
        /// Branch-valve openings of the first rack of a physical CDU.
        std::map<int, std::vector<std::pair<double, double>>> valve_openings;
    };
    std::vector<HallEvents> halls;  // per hall (ScenarioSpec::halls); absent: no events
    /// The events of hall h (none if it has no entry).
    const HallEvents& hall(std::size_t h) const;
    HallEvents& hall(std::size_t h);                            ///< grows `halls` to h + 1
    std::vector<std::pair<double, double>> air_side_available;  // utility loss: air side power
    /// Utility loss (study only): the plan whose consequences the UPS battery simulates.
    std::optional<UtilityLossPlan> utility;
    double horizon = 3600.0;  // [s] typical run length (meter nominal values)
};

/// The model's parts, for recording and metrics: component handles give checked ports.
struct RackSlot {
    std::size_t group = 0, kind = 0;
    int count = 0;      // racks of this kind per CDU
    double weight = 0;  // racks represented in the site = m_g·n_k
    ComponentHandle power, loop;
    /// With smoothing only (burn and deferral terms): the heat of one rack into its coolant
    /// and of one GPU into its junction [W]. Without, the rack loop reads the rack power's
    /// outputs through connection gains (1/n and λ_gpu/(n·N_gpu)).
    std::optional<ComponentHandle> heat, gpu_heat;
    OutputPort flow;  ///< coolant flow of one rack of the slot [m3/s]
    std::optional<ComponentHandle> smoothing;
    std::string label;
};
struct CduSlot {
    ComponentHandle cdu, mixer;
    int multiplicity = 1;
    std::size_t hall = 0;  ///< index into SiteModel::halls()
};
/// One hall's facility water loop and plant, and what is summed over its racks and CDUs.
struct HallSlot {
    std::string name;    ///< "" for the one hall of a scenario without /halls
    std::string prefix;  ///< of its component names: "" or "<name>_"
    ComponentHandle fws_mix, plant, pipe_supply, pipe_return;
    OutputPort fws_flow;                                ///< facility water flow of the hall [m3/s]
    std::size_t first_cdu = 0, cdu_count = 0;           ///< its CDU groups in SiteModel::cdus()
    std::optional<ComponentHandle> cdu_flow_available;  ///< with facility pump failures
    /// Named halls only: the hall's sums [W] and meters (SiteModel::hallMeterNames()).
    std::optional<OutputPort> it_power, cdu_pump_power, rack_heat_air;
    std::optional<ComponentHandle> meters;
};
/// Site-wide sums (LinearCombination outputs "value") the metrics and the recorder read.
struct SiteSums {
    OutputPort rack_grid, rack_demand, rack_heat_air, heat_to_liquid, cdu_pump_power, cdu_pump_heat,
        burn_power, plant_power;
    /// Only with power smoothing in the model (issue 18): demand held back by the GPU-side
    /// ramp limit [W] (site total) and the energy in the PSU stores [J] (mean per rack).
    std::optional<OutputPort> deferred_power, psu_stored_energy;
};

class SiteModel {
public:
    SiteModel(const ScenarioSpec& spec, const SiteSizing& sizing, const Conditions& conditions);
    const System& system() const { return system_; }
    const ScenarioSpec& spec() const { return spec_; }
    const SiteSizing& sizing() const { return sizing_; }
    const Conditions& conditions() const { return c_; }

    const std::vector<RackSlot>& racks() const { return racks_; }
    const std::vector<CduSlot>& cdus() const { return cdus_; }
    const SiteSums& sums() const { return sums_; }
    const ComponentHandle& sitePower() const { return site_power_; }
    const std::vector<HallSlot>& halls() const { return halls_; }
    /// Campus totals of a plant output over the halls (one hall: its plant's own port):
    /// fan_power, chiller_power, fws_pump_power, heat_rejected, evaporation_rate, drift_rate,
    /// blowdown_rate, spray_rate, extra_heat_taken (model.cpp plantTotalDefs).
    OutputPort plantTotal(std::string_view port) const;
    const std::optional<ComponentHandle>& battery() const { return battery_; }
    /// The UPS battery of a utility loss (facility/utility_loss.h), when the study has one.
    const std::optional<ComponentHandle>& upsBattery() const { return ups_battery_; }
    const ComponentHandle& meters() const { return meters_; }
    const ComponentHandle& weather() const { return weather_; }
    /// Global output index of a port (model built).
    std::size_t index(OutputPort p) const { return system_.outputIndex(p); }

    /// Heat (and electrical energy) stored in the model's states [J]: rack loops, CDUs and
    /// pipes relative to each coolant's reference temperature, PSU capacitors, battery.
    double storedEnergy(std::span<const double> x) const;
    /// The meter quantities, in the order of the meter component's states.
    static const std::vector<std::string>& meterNames();
    double meterTotal(std::span<const double> x, std::string_view name) const;
    /// The meters each named hall has (HallSlot::meters), in the order of their states.
    static const std::vector<std::string>& hallMeterNames();
    double hallMeterTotal(std::span<const double> x, std::size_t hall, std::string_view name) const;

    /// Sets the meters and integrator-only states of x to their start values (a steady state
    /// handed to a study keeps its temperatures, controller states and stored energies).
    void resetMeters(std::span<double> x) const;

private:
    /// The utilization source of one rack kind and its port names.
    struct KindSource {
        ComponentHandle source;
        std::string utilization, floor_active;
    };
    /// Terms of a site-wide sum: (term name, weight) and the output feeding each.
    struct SumTerms {
        std::vector<std::pair<std::string, double>> terms;
        std::vector<OutputPort> sources;
        void add(std::string name, double weight, OutputPort p);
    };
    struct SiteSumTerms {
        SumTerms grid, demand, air, pump, pump_heat, burn, liquid, deferred, stored;
        /// Per hall (named halls): rack grid power, CDU pump power, rack heat to air.
        std::vector<SumTerms> hall_grid, hall_pump, hall_air;
    };

    /// Constructs a component in the system's storage (System::emplace) and adds it.
    template <class C, class... Args>
    ComponentHandle make(Args&&... args) {
        return system_.emplace<C>(std::forward<Args>(args)...);
    }
    void connect(const ComponentHandle& from, std::string_view out, const ComponentHandle& to,
                 std::string_view in, double gain = 1.0);
    void fix(const ComponentHandle& to, std::string_view in, double value);
    ComponentHandle schedule(std::string name, const char* unit, double initial,
                             const std::vector<std::pair<double, double>>& changes);
    /// A LinearCombination of the terms, or the one already made with the same unit,
    /// nominal, weights and sources (its name then goes unused).
    OutputPort addSum(std::string name, const SumTerms& t, const char* unit, double nominal);
    struct SumKey {
        std::string unit;
        double nominal = 0.0;
        std::vector<double> weights;
        std::vector<std::pair<std::size_t, std::size_t>> sources;  // (component, output)
        auto operator<=>(const SumKey&) const = default;
    };
    std::map<SumKey, OutputPort> sums_made_;

    // Construction steps, in the order the components are added (the state order).
    std::vector<KindSource> addBoundary();
    void addFacilityLoopParts(std::size_t hall);
    void addCduGroup(std::size_t hall, const CduGroup& g, const std::vector<KindSource>& sources,
                     SiteSumTerms& sums);
    void addRack(const CduGroup& g, std::size_t kind, int count, std::size_t position,
                 const std::string& suffix, const KindSource& source, const CduSlot& cdu,
                 SiteSumTerms& sums);
    void addSums(const SiteSumTerms& t, double P_site);
    void wireFacilityLoop(std::size_t hall);
    void addHallMeters(double P_site);
    void addSitePower(double P_site);
    void addMeters(double P_site);
    /// The UPS battery and the buses of a utility loss; added last, so its states follow
    /// those of the steady model that starts the study.
    void addUtilityLoss();
    /// Coolant temperature at which a hall's branch hydraulics and cold-plate films are
    /// evaluated: the TCS supply setpoint plus half the design temperature difference.  [K]
    double filmTemperature(std::size_t hall) const;
    /// The branch law of a liquid-loop record (/it/racks entry) in a hall's coolant, built
    /// once: every CDU's copy shares its tables (thermal::MonotoneTable), so a campus of CDUs
    /// reads one set.
    const thermal::RackBranch& branchLaw(std::size_t hall, std::size_t entry);

    const ScenarioSpec& spec_;
    const SiteSizing& sizing_;
    Conditions c_;
    std::vector<thermal::Coolant> coolants_;  // per hall: rack loops (read once)
    std::vector<std::shared_ptr<const thermal::CduModel>> cdu_models_;  // per hall: its CDUs'
    /// Rack manifolds by hall and slots ((liquid-loop record, racks) each): shared by the CDUs
    /// that serve alike.
    std::map<std::pair<std::size_t, std::vector<std::pair<std::size_t, double>>>,
             std::shared_ptr<const thermal::RackManifold>>
        manifolds_;
    System system_;
    std::vector<RackSlot> racks_;
    /// One rack spec per IT entry, shared by its racks' power models (read on every
    /// evaluation; a copy per rack made the campus model memory-bound).
    std::map<std::size_t, std::shared_ptr<const power::RackSpec>> rack_specs_;
    /// Likewise one rack-loop kind per (hall, IT entry, racks lumped).
    std::map<std::tuple<std::size_t, std::size_t, int>,
             std::shared_ptr<const thermal::RackLoop::Kind>>
        loop_kinds_;
    std::vector<CduSlot> cdus_;
    SiteSums sums_;
    std::vector<HallSlot> halls_;
    std::map<std::string, OutputPort, std::less<>> plant_totals_;  // plantTotal()
    ComponentHandle site_power_, meters_, weather_;
    std::optional<ComponentHandle> battery_;
    std::optional<ComponentHandle> ups_battery_;
    std::vector<std::vector<std::pair<double, double>>> cdu_trips_;  // per CDU group
    // By (hall, /it/racks entry).
    std::map<std::pair<std::size_t, std::size_t>, thermal::RackBranch> branch_laws_;
};

}  // namespace dctwin::facility
