#pragma once
// Power equipment catalog (DESIGN.md §3.1, §3.2, §5.1): racks, PSU shelves, UPS frames,
// transformers, busways, rack feeds, breakers, generators, site batteries and fabric parts,
// read from data/catalog/power/*.json.
//
// File layout: every file is an object {"description": "...", "<category>": {"<entry>": {...}}}
// with one or more categories. Every entry carries a "source" object that names, for each
// numeric field, the row of ../shared/reference/domain-facts.md it comes from; load() rejects
// an entry whose numeric field has no source, so no number enters the catalog uncited.
//
// A scenario refers to an entry by name, or by {"model": "<name>", <field>: <override>, ...}
// (mergePatch). Overrides are checked like the catalog itself: unknown keys are rejected with
// the nearest valid key, values are range-checked, and errors name the scenario's JSON path.
// Unknown entry names list the valid choices.
//
// All quantities in the structs are SI; catalog keys carry their unit suffix (_W, _V, _A,
// _VA, _J, _C, _K, _pct, _min, _s).
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/json.h"

namespace dctwin::power {

/// y(x) by linear interpolation between sorted points, held flat outside them.
class PiecewiseLinear {
public:
    PiecewiseLinear() = default;
    /// Points sorted by x, strictly increasing; at least one point.
    explicit PiecewiseLinear(std::vector<std::pair<double, double>> points);
    double operator()(double x) const;
    const std::vector<std::pair<double, double>>& points() const;

private:
    /// The points, shared by copies. Every rack model of a campus holds a copy of its record's
    /// PSU curve; a vector per copy was one more scattered heap block, a cache miss per rack
    /// and evaluation (10 % of a 5,560-rack right-hand side, issue 12).
    std::shared_ptr<const std::vector<std::pair<double, double>>> points_;
};

/// One rack model: a bottom-up power budget plus the published rack-level figures it is
/// checked against (tdp, idle_fraction, heat_to_liquid_fraction).
struct RackSpec {
    std::string name;
    bool provisional = false;
    int gpus = 72;
    double gpu_tdp = 1400.0;  // [W] GPU power cap (TGP) at the reference die temperature
    double gpu_idle = 200.0;  // [W]
    int cpus = 36;
    double cpu_max = 280.0;  // [W] per CPU incl. memory
    double cpu_idle = 84.0;  // [W]
    int compute_trays = 18;
    int switch_trays = 9;
    double switch_tray_max = 1600.0;         // [W] per NVLink switch tray
    double switch_tray_idle_fraction = 0.7;  // [1]
    int nics = 72;
    double nic_power = 30.0;    // [W] per NIC
    double tray_other = 100.0;  // [W] per compute tray: DPU, SSDs, BMC
    double fan_max = 2000.0;    // [W] per rack
    double fan_idle = 1000.0;   // [W] per rack
    int psu_shelves = 8;
    int psus_per_shelf = 6;
    double psu_rating = 5500.0;  // [W] DC output rating of one PSU
    std::string psu_curve_name;
    PiecewiseLinear psu_curve;                 // efficiency [1] vs shelf load fraction [1]
    double gpu_liquid_fraction = 0.97;         // [1]
    double cpu_liquid_fraction = 0.95;         // [1]
    double switch_liquid_fraction = 0.95;      // [1]
    double leakage_fraction_at_ref = 0.1;      // [1] share of TGP that is static leakage at T_ref
    double leakage_doubling = 25.0;            // [K] temperature rise that doubles leakage
    double die_ref_temp = 338.15;              // [K]
    double throttle_temp = 360.15;             // [K]
    double throttle_width = 3.0;               // [K]
    double throttle_min_clock_fraction = 0.5;  // [1]
    double shutdown_temp = 368.15;             // [K] compute trays power off (thermal trip)
    double shutdown_width = 1.0;               // [K]
    double storage_per_gpu = 65.0;             // [J] PSU energy storage for power smoothing
    double ac_voltage = 415.0;                 // [V] line-to-line
    double power_factor = 0.99;                // [1]
    double tdp = 135000.0;                     // [W] published rack TDP (check value)
    double idle_fraction = 0.25;               // [1] published idle / TDP (check value)
    double heat_to_liquid_fraction = 0.9;      // [1] published (check value)

    double shelfRating() const { return psus_per_shelf * psu_rating; }  // [W]
};

struct UpsSpec {
    std::string name;
    double rating = 1.5e6;                                            // [W] per frame (unity PF)
    double voltage = 415.0;                                           // [V]
    double power_factor = 1.0;                                        // [1]
    std::vector<std::pair<double, double>> double_conversion_points;  // (load [1], η [1])
    std::vector<std::pair<double, double>> eco_points;                // (load [1], η [1])
    double ride_through = 300.0;                 // [s] battery autonomy at rated load
    double battery_discharge_efficiency = 0.95;  // [1]
};

struct TransformerSpec {
    std::string name;
    double rating = 2.5e6;                 // [VA]
    double primary_voltage = 13800;        // [V]
    double secondary_voltage = 415;        // [V]
    double doe_efficiency_50pct = 0.9953;  // [1]
    double no_load_loss = 2200;            // [W]
    double load_loss = 14811;              // [W] at rated load
    double impedance = 0.06;               // [1] short-circuit impedance, per unit of rating
};

/// Busways, rack feeds, LV breakers and MV feeders: a current rating and an I²R loss.
struct ConductorSpec {
    std::string name;
    std::string category;            // "busways", "rack_feeds", "breakers"
    double rating = 1000;            // [A]
    double voltage = 415;            // [V] line-to-line
    double loss_at_rating = 0.0035;  // [1] loss / (√3·V·I_r) at rated current
    double interrupting = 0;         // [A] rated ultimate breaking capacity Icu (LV breakers,
                                     // IEC 60947-2); 0: not given (busways, feeds, MV)
    /// Per-phase resistance giving that loss: 3 I_r² R = loss·√3·V·I_r.
    double resistance() const;  // [Ω]
};

/// A generating set. `rating` is the standby (ISO 8528-1 emergency standby, ESP) rating; the
/// prime (PRP) and continuous (COP) ratings are 0 when the catalog gives none. Output at
/// ambient T and altitude h: rating·(1 − k_T·max(0, T − T_0) − k_h·max(0, h − h_0)).
struct GeneratorSpec {
    std::string name;
    double rating = 2.5e6;                // [W] standby
    double voltage = 13800;               // [V]
    double power_factor = 0.8;            // [1]
    double start_delay = 10.0;            // [s]
    double step_load_limit = 0.5;         // [1] largest load step / rating
    double fuel_gal_per_kWh = 0.069;      // [gal/kWh]
    double prime_rating = 0;              // [W] 0: not given
    double continuous_rating = 0;         // [W] 0: not given
    double derate_above = 313.15;         // [K] T_0
    double derate_per_K = 0;              // [1/K] k_T
    double derate_above_altitude = 1000;  // [m] h_0
    double derate_per_m = 0;              // [1/m] k_h
    double step_interval = 5.0;           // [s] between load steps of the transfer sequence
    /// The rating of a basis: "standby", "prime" or "continuous"; InputError naming the
    /// bases the entry has when it has no rating of that basis.
    double ratingFor(std::string_view basis) const;
    /// [1] output fraction at ambient `T` [K] and altitude `h` [m] (≤ 1, > 0 or InputError).
    double derating(double T, double h) const;
};

struct BessSpec {
    std::string name;
    double power = 2e6;                   // [W]
    double energy = 7.2e9;                // [J]
    double round_trip_efficiency = 0.88;  // [1]
    double min_soc = 0.1;                 // [1]
    double max_soc = 0.9;                 // [1]
};

struct SwitchSpec {
    std::string name;
    int ports = 144;
    double port_speed_Gbps = 800;  // [Gb/s]
    double power = 1500;           // [W] without optics
};
struct NicSpec {
    std::string name;
    double speed_Gbps = 800;  // [Gb/s]
    double power = 30;        // [W]
};
struct OpticSpec {
    std::string name;
    int ports = 1;      // switch ports served by one module
    double power = 16;  // [W]
};

class Catalog {
public:
    /// dataDir()/catalog/power (core/data_dir.h). InputError if no data folder is found.
    static std::filesystem::path defaultDirectory();
    /// Reads every *.json in `directory`, checks sources and parses every entry (so a broken
    /// catalog fails here, naming file and JSON path).
    static Catalog load(const std::filesystem::path& directory = defaultDirectory());

    /// Categories and entry names.
    std::vector<std::string> categories() const;
    std::vector<std::string> names(std::string_view category) const;
    /// The raw JSON of an entry; InputError listing valid names if absent.
    const Json& entry(std::string_view category, std::string_view name) const;

    /// Resolves a reference: a string (entry name) or an object {"model": name, overrides...}.
    /// `ref.where()` names the scenario location in errors.
    RackSpec rack(const JsonView& ref) const;
    RackSpec rack(std::string_view name) const;
    UpsSpec ups(const JsonView& ref) const;
    UpsSpec ups(std::string_view name) const;
    TransformerSpec transformer(const JsonView& ref) const;
    TransformerSpec transformer(std::string_view name) const;
    ConductorSpec conductor(std::string_view category, const JsonView& ref) const;
    ConductorSpec conductor(std::string_view category, std::string_view name) const;
    GeneratorSpec generator(const JsonView& ref) const;
    GeneratorSpec generator(std::string_view name) const;
    BessSpec bess(const JsonView& ref) const;
    BessSpec bess(std::string_view name) const;
    SwitchSpec fabricSwitch(std::string_view name) const;
    NicSpec nic(std::string_view name) const;
    OpticSpec optic(std::string_view name) const;
    PiecewiseLinear psuCurve(std::string_view name) const;

    /// All entries of a conductor category sorted by rating (for sizing).
    std::vector<ConductorSpec> conductors(std::string_view category,
                                          std::string_view name_prefix = "") const;
    std::vector<TransformerSpec> transformers() const;

private:
    /// Merged JSON of a reference (entry + overrides) and the path to report errors at.
    std::pair<Json, std::string> resolve(std::string_view category, const JsonView& ref) const;
    std::string originOf(std::string_view category) const;
    std::map<std::string, std::map<std::string, Json>, std::less<>> entries_;
    std::map<std::string, std::string, std::less<>> origin_;  // category → file
};

// Parsers of one (merged) entry; `name` is the entry name. Exposed for tests of bad input.
RackSpec parseRackSpec(const JsonView& v, std::string name, const Catalog* catalog);
UpsSpec parseUpsSpec(const JsonView& v, std::string name);
TransformerSpec parseTransformerSpec(const JsonView& v, std::string name);

}  // namespace dctwin::power
