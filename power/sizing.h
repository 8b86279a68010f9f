#pragma once
// Electrical sizing (DESIGN.md §3.2, §3.5 "design point"; domain-facts D2).
//
// Design loads, built up from the racks:
//   P_rack      rack AC power at full utilization (RackPowerModel, reference die temperature)
//   P_IT        = (racks·P_rack + fabric)·(1 + growth)
//   P_UPS       = P_IT + feed and busway losses + UPS-backed cooling share
//   P_LV        = P_UPS + UPS losses + other cooling + other loads (cooling and other also
//                 grow with the margin)
//   P_facility  = P_LV + transformer losses
// Currents I = P/(√3·V·PF) (DC shelves: I = P/V_bus). Each element has a normal loading limit
// (NEC 80 % continuous-load rule, applied to every element in the design case) and a limit
// after the worst single failure the redundancy covers (conductors and breakers stay at 80 %
// because a failover can last for hours; equipment — PSUs, UPS, transformers, generators — may
// run at 100 % of rating).
//
// Counts for a design current I, unit rated current I_u, limits l_n (normal) and l_f (failure):
//   N            n = ⌈I/(I_u·l_n)⌉                              all share
//   N+1          m = ⌈I/(I_u·l_n)⌉ (N as above), n = m + 1                  all share
//                (Uptime Institute Tier Standard: Topology; TIA-942-B: "N+1" is the units
//                the load needs plus one)
//   2N           two systems, each able to carry I alone:
//                m = max(⌈I/(I_u·l_f)⌉, ⌈I/(2·I_u·l_n)⌉), n = 2m        all share
//   sN/(s−1)     distributed redundant ("4N/3": 4 systems, any 3 carry the load; "3N/2"):
//                m = max(⌈I/((s−1)·I_u·l_f)⌉, ⌈I/(s·I_u·l_n)⌉), n = s·m   all share
//   block        block redundant (catcher): m = ⌈I/(I_u·l_n)⌉ active blocks + 1 idle reserve
//                block behind static transfer switches, n = m + 1
// Normal loading = I/(n_sharing·I_u); failure loading = I/((n_sharing − lost)·I_u) where the
// worst failure loses one unit (N+1), one system (2N, distributed) or one block (block: the
// reserve takes over, loading unchanged).
//
// What sits on each element (issue 15):
//   rack models   every model its own PSU shelves, rack feeds and busway rows, sized for its
//                 own rack; the hall's loads are the sum over the models
//   rows          racks fill rows by model: a model of n racks takes ⌈n/racks_per_row⌉ rows of
//                 its own (the last one partial); no row mixes models
//   systems       2N and distributed-redundant UPS systems: every row's A and B busways go to
//                 a pair of systems (mapRowsToSystems); with one system lost each of its rows
//                 moves whole onto its other system. The system shares from this mapping
//                 replace the even spread 1/s, 1/(s−1) in the count:
//                 m = max(⌈f_fail·I/(I_u·l_f)⌉, ⌈f_normal·I/(I_u·l_n)⌉)
//                 with f the largest share any system carries (normal / any single loss).
//                 The fabric, distribution losses and the UPS-backed cooling follow the rows in
//                 proportion to their rack power (network racks take their A/B feeds from the
//                 rows they serve). Transformers of the same topology as the UPS feed one UPS
//                 system each and carry its input plus an even share of the loads off the UPS
//                 (mechanical and other loads are dual-fed and spread over the systems left).
// Each row names the case that governs it: the one whose loading is the larger fraction of its
// limit (normal, or the worst single failure the redundancy covers).
//
// Fault level: each transformer feeds its own LV bus (no paralleled secondaries); the
// available three-phase fault current there, from an infinite MV source, without impedance
// tolerance and without motor contribution (the LV loads are UPS rectifiers and drive-fed fans
// and pumps, which do not feed a fault), is I_sc = S_r/(√3·V_LV·Z_pu); the LV main breaker is
// the smallest catalog frame rated ≥ I_r/0.8 whose interrupting rating Icu ≥ I_sc. Each UPS
// system's frames are paralleled on critical buses; through the static bypasses a critical bus
// is fed by every transformer feeding it, t·I_sc. A system splits into b buses, the fewest with
// (1) the bus current within a catalog LV frame's rating, 80 % of it in normal operation and
// 100 % after the covered failure (a switchboard bus is equipment rated for its current
// continuously, IEC 61439-1; each UPS frame's own output breaker carries only that frame), and
// (2) t = ⌈m_t/b⌉·I_sc within that frame's Icu; frames and transformers then go ⌈m/b⌉ to a bus
// (N+1: ⌈N/b⌉ + 1). Rows are taken as spread evenly over a system's buses.
//
// MV voltage (issue 15): the transformers are wound for the site's MV (ANSI C57.12.00
// primaries 4.16–34.5 kV; the catalog entry's rating, losses and impedance held): row
// transformer_primary carries I = S/(√3·V_MV) per unit. The generators run at their catalog
// terminal voltage (MV paralleling sets, 13.8 kV); at another site MV each set gets a
// unit-connected step-up transformer (row generator_step_up, S = P_set/pf_set, currents at
// V_MV). MV feeders and the BESS are at V_MV.
//
// Generators (ISO 8528-1): counted at the chosen rating basis (standby, prime, continuous) times
// the catalog's derating at the design ambient and altitude,
//   P_unit = P_basis·(1 − k_T·max(0, T − T_0) − k_h·max(0, h − h_0)),
// then raised until the largest load step of the transfer sequence (analyzeUtilityLoss:
// mechanical load in two blocks, then the UPS walk-in per second) is within the step-load limit
// (ISO 8528-5 class) of the sets left after the covered failure. Fuel: P_facility·hours·(gal/kWh).
// UPS autonomy at design load: t = t_rated/loading (constant battery energy), normal and after
// the covered failure; the latter must last until the transfer sequence ends. BESS: usable
// energy E·(SoC_max − SoC_min)·√η_rt per block, blocks added until those left after the covered
// failure hold the duty P·t.
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/object_spec.h"
#include "core/results.h"
#include "power/catalog.h"

namespace dctwin::power {

struct Redundancy {
    enum class Kind { N, NPlus1, TwoN, Distributed, Block } kind = Kind::N;
    int systems = 1;  // s for Distributed ("4N/3" → 4)
    /// "N", "N+1", "2N", "4N/3", "3N/2" (any "sN/(s−1)"), "block".
    static Redundancy parse(std::string_view text);
    /// @brief The topologies a scenario may name: N, N+1, 2N, the distributed-redundant
    /// sN/(s−1) for s = 3..8, and block (parse() accepts any s ≥ 3).
    static const std::vector<std::string>& choices();
    std::string label() const;
};

struct UnitCount {
    int count = 0;               // units installed
    int sharing = 0;             // units carrying load in normal operation
    int units_per_system = 0;    // m
    double normal_loading = 0;   // [1]
    double failure_loading = 0;  // [1]
    std::string rule;            // the rule and the numbers that gave the count
};

/// The counting rules above.
UnitCount countUnits(const Redundancy& r, double design_current, double unit_current,
                     double limit_normal, double limit_failure);

/// Racks of one model in the hall.
struct RackModelCount {
    RackSpec rack;
    int count = 0;  // [1]
};

/// @brief Rows onto the systems of a 2N or distributed-redundant topology.
///
/// Balancing rule: rows are placed heaviest first (equal rows in their given order); each goes
/// to the pair of systems (A, B) that gives, in this order of preference, (1) the smallest
/// share any system would carry with any one system lost, (2) the smallest largest normal
/// share, (3) the first pair in lexicographic order. Each row's load is split half and half
/// over its pair in normal operation and moves whole onto the other system when one is lost.
struct SystemMapping {
    int systems = 0;
    std::vector<std::pair<int, int>> row_systems;  // per row (input order): its A and B system
    std::vector<double> normal_share;              // [1] per system, of the total row load
    double worst_normal_share = 0;                 // [1]
    double worst_failure_share = 0;  // [1] the largest share of one system, one system lost
    int worst_lost = -1;             // the system whose loss gives it
    int worst_loaded = -1;           // the system that then carries worst_failure_share
};
/// @param row_loads [W] (any unit) per row, each > 0; @param systems s ≥ 2
SystemMapping mapRowsToSystems(const std::vector<double>& row_loads, int systems);

struct SizingInput {
    int racks = 64;  // used with `rack` when rack_models is empty
    RackSpec rack;
    /// The hall's racks by model (the scenario's /it/racks entries, in any order). Empty:
    /// `racks` racks of `rack`. Entries of one name and the same electrical figures are one
    /// model.
    std::vector<RackModelCount> rack_models;
    std::vector<RackModelCount> rackMix() const;
    double fabric_power = 0;             // [W] IT power outside the racks (switches, optics)
    double cooling_power = -1;           // [W] design cooling power; < 0: cooling_fraction·IT
    double cooling_fraction = 0.12;      // [1] estimate for a liquid-cooled hall (PUE ~1.15)
    double other_power = 0;              // [W]
    double growth_margin = 0.10;         // [1]
    double cooling_on_ups_fraction = 0;  // [1]
    int racks_per_row = 8;               // racks per busway pair (an NVIDIA SU is 8 racks)
    int feeds_per_path = 1;              // whips per rack per path
    double dc_bus_voltage = 50.0;        // [V] shelf output (domain-facts A3)
    double lv_voltage = 415.0;           // [V]
    double mv_voltage = 13800.0;         // [V]
    double power_factor = 0.99;          // [1]
    Redundancy shelf_redundancy = Redundancy::parse("2N");
    Redundancy feed_redundancy = Redundancy::parse("2N");
    Redundancy busway_redundancy = Redundancy::parse("2N");
    Redundancy ups_redundancy = Redundancy::parse("4N/3");
    Redundancy transformer_redundancy = Redundancy::parse("4N/3");
    Redundancy generator_redundancy = Redundancy::parse("N+1");
    Redundancy mv_redundancy = Redundancy::parse("2N");
    Redundancy bess_redundancy = Redundancy::parse("N");
    std::string ups_model = "static_1500kw";
    std::string transformer_model = "liquid_2500kva";
    std::string generator_model = "diesel_2500kw";
    std::string bess_model = "liion_4mw_15min";
    /// JSON path of each model name read from a scenario ("ups" → "/power/ups/model"), so an
    /// unknown name is reported where it was written; empty for the defaults.
    std::map<std::string, std::string, std::less<>> model_paths;
    /// The site has a battery (BESS). Only then is one sized: a "bess" row and a bess_energy
    /// check, at bess_power_fraction of the design IT power. A SizingInput built in code has
    /// one (true); readJson, which reads a scenario's /power, sets false: a scenario's battery
    /// is opt-in (/power/bess_mode, default "off"), and its reader sets this from bess_mode.
    bool site_battery = true;
    double bess_power_fraction = 0.30;  // [1] of P_IT: the swing the battery must shave
    double bess_duty = 600.0;           // [s] the battery delivers its design power this long
    /// ISO 8528-1 rating basis of the generators: "standby" (ESP), "prime" (PRP) or
    /// "continuous" (COP); the catalog entry must publish that rating.
    std::string generator_rating_basis = "standby";
    double fuel_hours = 24.0;              // [h] on-site fuel at the facility design load
    double design_ambient = 308.15;        // [K] air on the generators (the site's design dry bulb)
    double site_altitude = 0.0;            // [m] above sea level
    double limit_normal = 0.8;             // [1] NEC 80 % rule
    double limit_failure_equipment = 1.0;  // [1]
    double limit_failure_conductor = 0.8;  // [1]

    /// @brief Reads the scenario's electrical sizing options against sizingOptionsSpec():
    /// {"growth_margin_pct", "cooling_power_kW" | "cooling_fraction_pct", "other_power_kW",
    ///  "racks_per_row", "feeds_per_path", "mv_voltage_kV", "ups": {"topology", "model"},
    ///  "transformers": {"topology", "model"}, "generators": {"topology", "model"},
    ///  "bess": {"topology", "model", "power_pct"}}. Absent keys take the declared defaults
    /// (a default SizingInput's values); cooling_power_kW and the transformer topology (which
    /// follows the UPS one) have none and leave the member as it is. The caller strips keys
    /// that are not sizing options (ups_mode, smoothing, bess_mode) before calling, and sets
    /// site_battery from bess_mode after it (readJson leaves it false: no battery).
    /// @param v the /power section without its non-sizing keys
    void readJson(const JsonView& v);
};

/// @brief The declared keys of the electrical sizing options of the /power section (see
/// SizingInput::readJson). Topologies carry Redundancy::choices() as their enum; catalog
/// model names are plain strings (the facility adds the catalog's names).
std::shared_ptr<const ObjectSpec> sizingOptionsSpec();

struct SizingRow {
    std::string element;  // "psu_shelf", "rack_feed", "busway", "ups", ...
    std::string model;    // catalog entry
    double rating = 0;    // per unit, in `unit`
    std::string unit;     // "W", "A", "VA"
    int count = 0;        // installed, whole hall
    std::string redundancy;
    std::string count_rule;      // how the count came about ("N=ceil(I/(0.80 Iu))=9, +1")
    std::string per;             // "rack", "row", "hall": the group one design current feeds
    int groups = 1;              // number of such groups
    double voltage = 0;          // [V]
    double design_current = 0;   // [A] per group, before redundancy
    double unit_current = 0;     // [A] rated current of one unit
    double limit_normal = 0.8;   // [1]
    double limit_failure = 1.0;  // [1]
    double normal_loading = 0;   // [1] design case, all units in service
    double failure_loading = 0;  // [1] after the worst covered failure
    double fault_current = 0;    // [A] available 3-phase fault current at the element's LV
                                 // bus, S/(√3·V·Z) from an infinite source; 0: not computed
    double interrupting = 0;     // [A] breaking capacity (Icu) of the bus's switchgear; 0: n/a
    std::string rack_model;      // the rack model the row serves; empty: the whole hall
    std::string failure_case;    // the worst single failure the redundancy covers
    std::string governing_case;  // "normal" or failure_case: the larger loading/limit
};

/// A figure checked against its limit (storage, fault level, step load, autonomy): the
/// sizing is accepted only when every `value relation limit` holds.
struct SizingCheck {
    std::string item;      // "ups_autonomy_failure", "fuel_storage", ...
    double value = 0;      // in `unit`
    std::string unit;      // "kA", "min", "m3", ...
    std::string relation;  // "<=" or ">=" (value against limit); "" for a figure without limit
    double limit = 0;      // in `unit`
    std::string basis;     // how value and limit came about
};

struct SizingResult {
    double rack_power = 0;       // [W] AC per rack at full utilization (the heaviest model)
    double it_design = 0;        // [W] incl. growth
    double ups_design = 0;       // [W]
    double lv_design = 0;        // [W]
    double facility_design = 0;  // [W]
    double cooling_design = 0;   // [W]
    std::vector<SizingRow> rows;
    std::vector<std::string> row_models;  // per busway row: the rack model in it
    SystemMapping ups_mapping;            // rows onto UPS systems (2N, distributed only)
    int buses_per_system = 1;             // UPS critical buses per UPS system (split, see above)
    double generator_unit_rating = 0;     // [W] one set at the rating basis, derated
    double fuel_storage = 0;              // [m³] for fuel_hours at the facility design load
    double ups_autonomy_normal = 0;       // [s] battery autonomy, all UPS in service
    double ups_autonomy_failure = 0;      // [s] the worst UPS after the covered failure
    double transfer_time = 0;             // [s] utility loss until the UPS load is on generators
    std::vector<SizingCheck> checks;
    /// The first row of `element` (for rack_feed, psu_shelf and busway: of the first model by
    /// name); ModelError if none.
    const SizingRow& row(std::string_view element) const;
    /// The row of `element` serving racks of `rack_model`; ModelError if none.
    const SizingRow& row(std::string_view element, std::string_view rack_model) const;
    /// Columns element, model, rating, unit, count, redundancy, count_rule, per, groups,
    /// voltage_V, design_current_A, unit_current_A, design_loading_pct, failure_loading_pct,
    /// rack_model, governing_case, fault_current_kA; path "sizing/power".
    Table toTable() const;
    /// Columns item, value, unit, relation, limit, basis; path "sizing/power_checks".
    Table checksTable() const;
    /// A fixed-width text table with the currents, for reports and the CLI.
    std::string format() const;
};

SizingResult sizeElectrical(const SizingInput& input, const Catalog& catalog);

struct ChainDesign;
/// The chain as sized: every installed unit that shares load in normal operation (A and B
/// paths, all distributed-redundant systems, N+1 spares; not the idle reserve block).
ChainDesign chainDesignFromSizing(const SizingResult& sizing, const SizingInput& input,
                                  const Catalog& catalog);

}  // namespace dctwin::power
