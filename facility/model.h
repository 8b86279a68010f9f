#pragma once
// The coupled site model (DESIGN.md §3.4): one System for racks, rack loops, CDUs, the facility
// water loop, heat rejection, the air side and the electrical chain.
//
// Wiring, per CDU group g (multiplicity m_g) and rack kind k in it (n_k racks per CDU):
//   source_k ─u─▶ rack power_gk ─heat_liquid (+ burn)/n_k─▶ rack loop_gk[s]
//   rack loop_gk.die_temp ─▶ rack power_gk (leakage, throttling)
//   rack loops ─outlet─▶ mixer_g ─▶ cdu_g[s] ─supply, flow per rack─▶ rack loops
//   cdu_g.facility_return ─▶ fws mixer (weights m_g) ─▶ return pipe[s] ─▶ plant ─▶ supply
//   pipe[s] ─▶ cdu_g.facility_supply
//   Σ m_g·(rack grid power, rack air heat, CDU pumps) + plant power ─▶ site power (chain, air
//   side, FWS pumps) ─▶ facility power ─▶ [site battery] ─▶ grid
//   meters integrate facility, IT, heat to ambient, every consumer and water by kind.
// [s] marks states; every loop in the diagram passes through one, so there is no algebraic
// loop. With smoothing (resolved workload) a PowerSmoothing per (g, k) sits between the rack
// power and the grid; its burn power heats the coolant.
//
// Conditions choose the boundary: the study (workload and hourly weather in time) or a steady
// operating point (constant utilization per rack kind and constant weather), which the design
// point and the initial state of every study use. Both build the same states in the same order,
// so a steady state can start a study.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/system.h"
#include "facility/site.h"
#include "power/workload.h"

namespace dctwin::facility {

struct Conditions {
    bool steady = false;                 // constant boundary instead of workload + weather
    std::vector<double> utilization;     // steady: per rack kind [1]
    weather::WeatherSample air;          // steady: constant weather
    power::Resolution resolution = power::Resolution::Averaged;  // study (resolved: smoothing)
    double workload_window = 0.0;        // [s] averaged workload: moving-average window
    double weather_offset = 0.0;         // [s] study start after Jan 1 00:00
    bool stop_at_weather_hours = false;  // restart the integrator at hourly weather kinks
    power::ChainDesign chain;            // electrical chain from the sizing
    int battery_blocks = 1;              // site battery blocks (when the site has one)
    // Event schedules: (time [s], value) changes.
    std::vector<std::pair<double, double>> units_available;    // heat rejection units
    std::vector<std::pair<double, double>> fans_available;     // plant fans and chiller power
    std::vector<std::pair<double, double>> chiller_available;
    std::map<int, std::vector<std::pair<double, double>>> pumps_failed;  // per physical CDU
    double horizon = 3600.0;             // [s] typical run length (meter nominal values)
    bool quadrature_meters = false;      // meters out of the Jacobian (resolved transients)
};

/// Indices of the model's parts, for recording and metrics.
struct RackSlot {
    std::size_t group = 0, kind = 0;
    int count = 0;            // racks of this kind per CDU
    double weight = 0;        // racks represented in the site = m_g·n_k
    std::size_t power = 0, loop = 0, heat = 0;   // component indices
    std::optional<std::size_t> smoothing;
    std::string label;
};
struct CduSlot {
    std::size_t cdu = 0, mixer = 0;
    int multiplicity = 1;
};

class SiteModel {
public:
    SiteModel(const Site& site, const Conditions& conditions);
    const System& system() const { return system_; }
    const Site& site() const { return site_; }
    const Conditions& conditions() const { return c_; }

    const std::vector<RackSlot>& racks() const { return racks_; }
    const std::vector<CduSlot>& cdus() const { return cdus_; }
    std::size_t sitePower() const { return site_power_; }
    std::size_t plant() const { return plant_; }
    std::size_t supplyPipe() const { return pipe_supply_; }
    std::size_t returnPipe() const { return pipe_return_; }
    std::optional<std::size_t> battery() const { return battery_; }
    std::size_t meters() const { return meters_; }
    std::size_t weather() const { return weather_; }

    /// Heat (and electrical energy) stored in the model's states [J]: rack loops, CDUs and
    /// pipes relative to each coolant's reference temperature, PSU capacitors, battery.
    double storedEnergy(std::span<const double> x) const;
    /// The meter quantities, in the order of the meter component's states.
    static const std::vector<std::string>& meterNames();
    double meterTotal(std::span<const double> x, std::string_view name) const;

    /// Sets the meters and integrator-only states of x to their start values (a steady state
    /// handed to a study keeps its temperatures, controller states and stored energies).
    void resetMeters(std::span<double> x) const;

private:
    std::size_t add(std::shared_ptr<const Component> c);
    std::string port(std::size_t component, std::string_view port) const;

    const Site& site_;
    Conditions c_;
    System system_;
    std::vector<RackSlot> racks_;
    std::vector<CduSlot> cdus_;
    std::size_t site_power_ = 0, plant_ = 0, pipe_supply_ = 0, pipe_return_ = 0;
    std::size_t meters_ = 0, weather_ = 0;
    std::optional<std::size_t> battery_;
};

}  // namespace dctwin::facility
