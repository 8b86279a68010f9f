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

struct SizingInput {
    int racks = 64;
    RackSpec rack;
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
    double bess_power_fraction = 0.30;     // [1] of P_IT: the swing the battery must shave
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
    /// that are not sizing options (ups_mode, smoothing, bess_mode) before calling.
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
};

struct SizingResult {
    double rack_power = 0;       // [W] AC per rack at full utilization
    double it_design = 0;        // [W] incl. growth
    double ups_design = 0;       // [W]
    double lv_design = 0;        // [W]
    double facility_design = 0;  // [W]
    double cooling_design = 0;   // [W]
    std::vector<SizingRow> rows;
    const SizingRow& row(std::string_view element) const;
    /// Columns element, model, rating, unit, count, redundancy, count_rule, per, groups,
    /// voltage_V,
    /// design_current_A, unit_current_A, design_loading_pct, failure_loading_pct; path
    /// "sizing/power".
    Table toTable() const;
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
