#pragma once
// Electrical chain from the utility to the rack shelves (DESIGN.md §3.2; domain-facts D1, D2).
//
//   utility MV ─ MV feeders ─ transformers ─ LV switchgear ─ UPS ─ busways ─ rack feeds ─ racks
//                                              └──────────── cooling and other loads (no UPS)
//
// Every element set has `count` identical units that share the load equally in normal
// operation (A/B paths, distributed-redundant systems and redundant modules all carry load).
// Computed from the racks upstream, each stage's input is its output plus its losses:
//   currents   I = P/(√3·V·PF) per unit; loading = I/I_rated (conductors),
//              P/P_rated (UPS), S/S_rated (transformers)
//   conductors P_loss = 3·I²·R per unit, R from the catalog's loss at rated current
//   UPS        P_loss = n·S_r·(a + b·x + c·x²), x = P_out/(n·S_r), a, b, c least-squares
//              fitted to the catalog's efficiency points (double conversion or eco mode)
//   transformer P_loss = n·(P_NL + P_LL·(S/(n·S_r))²), S = P/PF
// All losses are heat: feeds and busways in the data hall, UPS and switchgear in the
// electrical rooms, transformers outdoors.
//
// The product wires ChainModel through facility's SitePower component (facility/plant.h); the
// stand-alone ElectricalChain component lives with the power week example
// (examples/electrical_chain.h).
//
// On battery (utility loss) the UPS's own throughput and losses are unchanged (the inverter
// still converts), but only the share `ups_upstream` of its input comes from upstream; the rest
// comes from its batteries. A recharging battery adds `ups_charge` to the upstream draw.
//
// Dead bus (utility loss, before the generators are online): `energised` e [1] is 1 while a
// source — the utility, or the standby generators, which parallel on the MV bus — feeds the
// MV bus, 0 while none does. The transformers are then de-energised and draw no no-load loss:
//   transformer P_loss = n·(e·P_NL + P_LL·(S/(n·S_r))²)
// Nothing can be drawn from a dead bus, so the caller passes zero load above the UPS while
// e = 0 (UPS on battery, ups_upstream = 0 and no charging; generator-fed cooling off; the other
// load unserved: facility/plant.h SitePower); the chain does not check it. With every load
// zero, the conductor and transformer load losses are zero, so facility_power = 0 [W].
//
// Transfer-sequence plan (analyzeUtilityLoss), used by the sizing (power/sizing.cpp) to check
// the generators' step loads and the battery autonomy on design loads: the UPS batteries carry
// the critical load from the loss until the generators (start delay) pick it up; mechanical
// load is re-applied in blocks, each checked against the generators' step-load limit, then the
// UPS walks its load in over a ramp. It is a plan on constant design loads, not the
// simulation: a study's utility loss is simulated by facility/utility_loss.h (battery state of
// energy, buses, generator blocks as events) and its event log comes from the run.
#include <array>
#include <string>
#include <vector>

#include "power/catalog.h"

namespace dctwin::power {

enum class UpsMode { DoubleConversion, Eco };

/// P_loss/S_r = a + b·x + c·x², least-squares fit to (x, η) points.
struct UpsLossCurve {
    double a = 0, b = 0, c = 0;  // [1]
    static UpsLossCurve fit(const std::vector<std::pair<double, double>>& points);
    double lossFraction(double x) const { return a + b * x + c * x * x; }
    double efficiency(double x) const { return x / (x + lossFraction(x)); }
};

/// Transformer efficiency at load fraction x and power factor pf (domain-facts D1).
double transformerEfficiency(const TransformerSpec& t, double x, double pf = 1.0);

struct ChainDesign {
    ConductorSpec rack_feed;
    int rack_feeds = 1;  // energized feeds (A and B both count)
    ConductorSpec busway;
    int busways = 1;
    UpsSpec ups;
    int ups_units = 1;  // all units in service (incl. redundant)
    ConductorSpec lv_breaker;
    int lv_breakers = 1;  // LV mains, one per transformer
    TransformerSpec transformer;
    int transformers = 1;
    ConductorSpec mv_feeder;
    int mv_feeders = 1;
    double power_factor = 0.99;            // [1] LV load power factor
    double mv_power_factor = 0.99;         // [1]
    double cooling_on_ups_fraction = 0.0;  // [1] share of cooling power that is UPS-backed
};

struct ChainElement {
    std::string name;   // "rack_feed", "busway", "ups", "lv_switchgear", ...
    std::string model;  // catalog entry
    int count = 0;
    double output_power = 0;  // [W] total
    double input_power = 0;   // [W] total
    double loss = 0;          // [W] total
    double current = 0;       // [A] per unit
    double rating = 0;        // per unit, in rating_unit
    std::string rating_unit;  // "A", "W", "VA"
    double loading = 0;       // [1] per unit
};

struct ChainResult {
    std::vector<ChainElement> elements;                                // downstream → upstream
    double it_power = 0, cooling_power = 0, other_power = 0;           // [W]
    double facility_power = 0;                                         // [W] at the utility
    double total_loss = 0;                                             // [W]
    double ups_loss = 0, transformer_loss = 0, distribution_loss = 0;  // [W]
    double hall_heat = 0, electrical_room_heat = 0;                    // [W]
    double mv_current = 0;                                             // [A]
    const ChainElement& element(std::string_view name) const;
};

/// One evaluation of the chain in numbers only: the six stages, downstream → upstream, and the
/// totals. ChainModel::evaluate names the stages for reports and sizing; the site power
/// component, which evaluates the chain several times per right-hand side (its room-heat
/// fixed point), reads this and builds no strings (issue 12: the named result was ~12 % of
/// the 64-rack annual run).
struct ChainFlows {
    enum Stage { kRackFeed, kBusway, kUps, kLvSwitchgear, kTransformer, kMvFeeder, kStages };
    struct StageFlow {
        double output_power = 0, input_power = 0, loss = 0;  // [W] total
        double current = 0;                                  // [A] per unit
        double loading = 0;                                  // [1] per unit
    };
    std::array<StageFlow, kStages> stage{};
    double facility_power = 0, total_loss = 0;                         // [W]
    double ups_loss = 0, transformer_loss = 0, distribution_loss = 0;  // [W]
    double hall_heat = 0, electrical_room_heat = 0;                    // [W]
    double mv_current = 0;                                             // [A]
};

class ChainModel {
public:
    explicit ChainModel(ChainDesign design);
    const ChainDesign& design() const { return d_; }
    const UpsLossCurve& upsCurve(UpsMode mode) const { return mode == UpsMode::Eco ? eco_ : dc_; }
    /// `ups_upstream` [1]: share of the UPS input drawn from upstream (1 − battery share);
    /// `ups_charge` [W]: battery charging power drawn from upstream; `energised` [1]: 1 while
    /// a source feeds the MV bus, 0 while none does (transformers de-energised: no no-load
    /// loss; the loads above the UPS must then be 0, see the header).
    ChainResult evaluate(double it_power, double cooling_power, double other_power,
                         UpsMode mode = UpsMode::DoubleConversion, double ups_upstream = 1.0,
                         double ups_charge = 0.0, double energised = 1.0) const;
    /// The same numbers, unnamed (evaluate() is built on it).
    ChainFlows flows(double it_power, double cooling_power, double other_power,
                     UpsMode mode = UpsMode::DoubleConversion, double ups_upstream = 1.0,
                     double ups_charge = 0.0, double energised = 1.0) const;

private:
    /// One set of conductors' constants, made once: flows() multiplies where it divided (the
    /// site's power balance asks for the chain ~4 times per evaluation, and its ~20 divisions
    /// were most of its cost).
    struct Conductors {
        int n = 1;              // [1] in parallel
        double R = 0;           // [Ω] per conductor
        double amps_per_W = 0;  // [A/W] line current per conductor: 1/(n·√3·V·pf)
        double per_rating = 0;  // [1/A]
    };
    static Conductors conductors(const ConductorSpec& c, int n, double pf);
    static ChainFlows::StageFlow stage(const Conductors& c, double P_out);

    ChainDesign d_;
    UpsLossCurve dc_, eco_;
    Conductors feed_, busway_, lv_, mv_;
    double ups_per_W_ = 0;           // [1/W] 1/(units·rating): UPS loading
    double ups_amps_per_W_ = 0;      // [A/W] per unit: 1/(units·√3·V·pf)
    double tr_va_per_W_ = 0;         // [VA/W] per transformer: 1/(pf·n)
    double tr_per_va_ = 0;           // [1/VA] 1/rating
    double tr_amps_per_va_ = 0;      // [A/VA] 1/(√3·V_secondary)
    double mv_line_amps_per_W_ = 0;  // [A/W] all feeders: 1/(√3·V·pf_mv)
};

// ---------------------------------------------------------------------------------------------
struct UtilityLossSpec {
    double critical_load = 0;    // [W] UPS output (IT) load
    double mechanical_load = 0;  // [W] load restarted on generators (cooling, ...)
    UpsSpec ups;
    int ups_units = 1;  // units sharing the critical load
    GeneratorSpec generator;
    int generators = 1;           // generators in service
    int mechanical_blocks = 2;    // mechanical load re-applied in this many equal steps
    double block_interval = 5.0;  // [s] between steps
    double walk_in = 10.0;        // [s] UPS ramps its load onto the generators over this time
    double duration = 120.0;      // [s] analysed window after the loss
    double time_step = 0.05;      // [s]
};

struct LoadStep {
    double time = 0;  // [s] after the loss
    std::string what;
    double step = 0;        // [W] (for the walk-in: the step within one second)
    double limit = 0;       // [W] step-load limit of the online generators
    double total = 0;       // [W] generator load after the step
    bool overload = false;  // step > limit or total > capacity
};

struct UtilityLossResult {
    double generator_online = 0;        // [s] after the loss
    double transfer_complete = 0;       // [s] when the critical load is fully on generators
    double battery_energy_initial = 0;  // [J]
    double battery_energy_min = 0;      // [J]
    double battery_soe_min = 0;         // [1]
    bool ride_through_ok = false;       // battery never empty before the transfer completed
    double battery_empty_at = -1;       // [s] after the loss, −1 if never
    bool overload = false;              // any step or the total over the limit
    std::vector<LoadStep> steps;
    std::vector<double> time;             // [s] after the loss
    std::vector<double> battery_soe;      // [1]
    std::vector<double> generator_load;   // [W]
    std::vector<double> served_critical;  // [W] critical load actually served
};

UtilityLossResult analyzeUtilityLoss(const UtilityLossSpec& spec);

}  // namespace dctwin::power
