#include "power/sizing.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

#include "core/errors.h"
#include "power/chain.h"
#include "power/rack.h"

namespace dctwin::power {
namespace {

const double kSqrt3 = std::sqrt(3.0);
int ceilDiv(double a, double b) { return static_cast<int>(std::ceil(a / b - 1e-9)); }

}  // namespace

Redundancy Redundancy::parse(std::string_view text) {
    Redundancy r;
    if (text == "N") return r;
    if (text == "N+1") {
        r.kind = Kind::NPlus1;
        return r;
    }
    if (text == "2N") {
        r.kind = Kind::TwoN;
        r.systems = 2;
        return r;
    }
    if (text == "block") {
        r.kind = Kind::Block;
        return r;
    }
    // "sN/k" with k = s − 1
    const auto n = text.find("N/");
    if (n != std::string_view::npos && n > 0) {
        try {
            const int s = std::stoi(std::string(text.substr(0, n)));
            const int k = std::stoi(std::string(text.substr(n + 2)));
            if (s >= 3 && k == s - 1) {
                r.kind = Kind::Distributed;
                r.systems = s;
                return r;
            }
        } catch (const std::exception&) {
        }
    }
    throw InputError(
        fmt::format("unknown redundancy '{}'; valid choices: N, N+1, 2N, 4N/3, "
                    "3N/2 (any sN/(s-1) with s ≥ 3), block",
                    text));
}

std::string Redundancy::label() const {
    switch (kind) {
        case Kind::N:
            return "N";
        case Kind::NPlus1:
            return "N+1";
        case Kind::TwoN:
            return "2N";
        case Kind::Distributed:
            return fmt::format("{}N/{}", systems, systems - 1);
        case Kind::Block:
            return "block";
    }
    return "?";
}

UnitCount countUnits(const Redundancy& r, double I, double Iu, double ln, double lf) {
    if (!(I >= 0) || !(Iu > 0) || !(ln > 0) || !(lf > 0)) {
        throw ModelError("countUnits: currents and limits must be positive");
    }
    UnitCount c;
    switch (r.kind) {
        case Redundancy::Kind::N:
            c.units_per_system = std::max(1, ceilDiv(I, Iu * ln));
            c.count = c.sharing = c.units_per_system;
            c.failure_loading = I / (c.sharing * Iu);  // no failure covered
            c.rule = fmt::format("N=ceil(I/({:.2f} Iu))", ln);
            break;
        case Redundancy::Kind::NPlus1:
            // N as for "N" (the fewest units that carry the load within the normal limit),
            // then one more (Uptime Institute, Tier Standard: Topology, "N+1": the units the
            // load needs plus one; TIA-942-B the same). The earlier rule let the spare count
            // towards N (N at the failure limit), so N and N+1 often gave the same count.
            c.units_per_system = std::max(1, ceilDiv(I, Iu * ln));
            c.count = c.sharing = c.units_per_system + 1;
            c.failure_loading = I / ((c.sharing - 1) * Iu);
            c.rule = fmt::format("N=ceil(I/({:.2f} Iu))={}, +1", ln, c.units_per_system);
            break;
        case Redundancy::Kind::TwoN:
        case Redundancy::Kind::Distributed: {
            const int s = r.systems;
            c.units_per_system =
                std::max({1, ceilDiv(I, (s - 1) * Iu * lf), ceilDiv(I, s * Iu * ln)});
            c.count = c.sharing = s * c.units_per_system;
            c.failure_loading = I / ((s - 1) * c.units_per_system * Iu);
            c.rule = fmt::format(
                "m=max(ceil(I/({} x {:.2f} Iu)), ceil(I/({} x {:.2f} Iu)))={} per "
                "system x {}",
                s - 1, lf, s, ln, c.units_per_system, s);
            break;
        }
        case Redundancy::Kind::Block:
            c.units_per_system = std::max(1, ceilDiv(I, Iu * ln));
            c.sharing = c.units_per_system;
            c.count = c.units_per_system + 1;
            c.failure_loading = I / (c.sharing * Iu);  // the reserve block replaces the failed
            c.rule =
                fmt::format("ceil(I/({:.2f} Iu))={} active, +1 reserve", ln, c.units_per_system);
            break;
    }
    c.normal_loading = I / (c.sharing * Iu);
    return c;
}

const std::vector<std::string>& Redundancy::choices() {
    static const std::vector<std::string> c{"N",    "N+1",  "2N",   "3N/2", "4N/3",
                                            "5N/4", "6N/5", "7N/6", "8N/7", "block"};
    return c;
}

std::shared_ptr<const ObjectSpec> sizingOptionsSpec() {
    static const std::shared_ptr<const ObjectSpec> spec = [] {
        // Defaults are those of a SizingInput, in the keys' units (the round trips x·100/100
        // and x/1e3·1e3 give these doubles back exactly).
        const SizingInput d;
        auto equipment = [&](const char* what, const std::optional<std::string>& topology,
                             const std::string& model, const char* topology_text) {
            auto g = std::make_shared<ObjectSpec>(what);
            KeySpec t;  // a choice that may be absent with no default of its own
            t.key = "topology";
            t.type = KeyType::String;
            t.choices = Redundancy::choices();
            if (topology) t.fallback = *topology;
            t.description = topology_text;
            g->add(std::move(t)).string("model", model, "catalog model");
            return g;
        };
        auto ups = equipment("UPS systems", d.ups_redundancy.label(), d.ups_model,
                             "redundancy of the UPS systems");
        auto transformers = equipment("LV transformers", std::nullopt, d.transformer_model,
                                      "redundancy of the transformers (absent: the UPS one)");
        auto generators = equipment("standby generators", d.generator_redundancy.label(),
                                    d.generator_model, "redundancy of the generators");
        auto bess = std::make_shared<ObjectSpec>("site battery (BESS)");
        bess->choice("topology", Redundancy::choices(), d.bess_redundancy.label(),
                     "redundancy of the battery blocks")
            .string("model", d.bess_model, "catalog model")
            .number("power_pct", "pct", 0.0, 200.0, d.bess_power_fraction * 100,
                    "battery power, % of the design IT power (the swing it must shave)");

        auto s = std::make_shared<ObjectSpec>("electrical sizing options");
        s->number("growth_margin_pct", "pct", 0.0, 200.0, d.growth_margin * 100,
                  "design margin on the IT load for growth")
            .optionalNumber("cooling_power_kW", "kW", 0.0, 1e7,
                            "design cooling power (absent: cooling_fraction_pct of IT)")
            .number("cooling_fraction_pct", "pct", 0.0, 200.0, d.cooling_fraction * 100,
                    "design cooling power, % of IT, when cooling_power_kW is not given")
            .number("other_power_kW", "kW", 0.0, 1e7, d.other_power / 1e3,
                    "other facility loads (lighting, offices)")
            .integer("racks_per_row", 1, 100, d.racks_per_row,
                     "racks per busway pair (an NVIDIA SU is 8 racks)")
            .integer("feeds_per_path", 1, 16, d.feeds_per_path, "whips per rack per path")
            // Large campuses distribute at 34.5 kV rather than 13.8 kV (domain-facts D2).
            .number("mv_voltage_kV", "kV", 4.16, 69.0, d.mv_voltage / 1e3,
                    "medium-voltage distribution")
            .object("ups", ups, false, "UPS systems")
            .object("transformers", transformers, false, "LV transformers")
            .object("generators", generators, false, "standby generators")
            .object("bess", bess, false, "site battery (BESS)");
        return s;
    }();
    return spec;
}

void SizingInput::readJson(const JsonView& v) {
    const SpecReader r(v, *sizingOptionsSpec());
    growth_margin = r.number("growth_margin_pct") / 100.0;
    if (r.has("cooling_power_kW")) cooling_power = r.number("cooling_power_kW") * 1e3;
    cooling_fraction = r.number("cooling_fraction_pct") / 100.0;
    other_power = r.number("other_power_kW") * 1e3;
    mv_voltage = r.number("mv_voltage_kV") * 1e3;
    racks_per_row = r.count("racks_per_row");
    feeds_per_path = r.count("feeds_per_path");
    // A catalog miss in sizeElectrical names the scenario key that chose the model.
    auto group = [&](const char* key, const SpecReader& g, Redundancy& red, std::string& model) {
        if (g.has("topology") || !g.spec().at("topology").fallback.is_null()) {
            red = Redundancy::parse(g.string("topology"));
        }
        model = g.string("model");
        if (g.has("model")) model_paths[key] = g.view().where() + "/model";
    };
    group("ups", r.object("ups"), ups_redundancy, ups_model);
    // Transformers follow the UPS topology unless told otherwise.
    transformer_redundancy = ups_redundancy;
    group("transformers", r.object("transformers"), transformer_redundancy, transformer_model);
    group("generators", r.object("generators"), generator_redundancy, generator_model);
    const SpecReader b = r.object("bess");
    group("bess", b, bess_redundancy, bess_model);
    bess_power_fraction = b.number("power_pct") / 100.0;
}

const SizingRow& SizingResult::row(std::string_view element) const {
    for (const auto& r : rows) {
        if (r.element == element) return r;
    }
    throw ModelError(fmt::format("sizing has no element '{}'", element));
}

Table SizingResult::toTable() const {
    Table t;
    t.path = "sizing/power";
    std::vector<std::string> element, model, unit, red, per, rule;
    std::vector<double> rating, count, groups, volt, ides, iu, load, fail;
    for (const auto& r : rows) {
        element.push_back(r.element);
        model.push_back(r.model);
        rating.push_back(r.rating);
        unit.push_back(r.unit);
        count.push_back(r.count);
        red.push_back(r.redundancy);
        rule.push_back(r.count_rule);
        per.push_back(r.per);
        groups.push_back(r.groups);
        volt.push_back(r.voltage);
        ides.push_back(r.design_current);
        iu.push_back(r.unit_current);
        load.push_back(100.0 * r.normal_loading);
        fail.push_back(100.0 * r.failure_loading);
    }
    t.addText("element", element);
    t.addText("model", model);
    t.addNumbers("rating", "", rating);  // unit differs per row: see the unit column
    t.addText("unit", unit);
    t.addNumbers("count", "1", count);
    t.addText("redundancy", red);
    t.addText("count_rule", rule);
    t.addText("per", per);
    t.addNumbers("groups", "1", groups);
    t.addNumbers("voltage_V", "V", volt);
    t.addNumbers("design_current_A", "A", ides);
    t.addNumbers("unit_current_A", "A", iu);
    t.addNumbers("design_loading_pct", "%", load);
    t.addNumbers("failure_loading_pct", "%", fail);
    return t;
}

std::string SizingResult::format() const {
    std::string s = fmt::format(
        "design loads: rack {:.1f} kW, IT {:.1f} kW (incl. growth), UPS {:.1f} kW, LV {:.1f} "
        "kW, cooling {:.1f} kW, facility {:.1f} kW\n",
        rack_power / 1e3, it_design / 1e3, ups_design / 1e3, lv_design / 1e3, cooling_design / 1e3,
        facility_design / 1e3);
    s += fmt::format(
        "{:<14} {:<18} {:>12} {:<3} {:>6} {:<6} {:<5} {:>6} {:>8} {:>11} {:>10} "
        "{:>7} {:>7}\n",
        "element", "model", "rating", "", "count", "redund", "per", "groups", "voltage",
        "I_design_A", "I_unit_A", "load%", "fail%");
    for (const auto& r : rows) {
        s += fmt::format(
            "{:<14} {:<18} {:>12.0f} {:<3} {:>6} {:<6} {:<5} {:>6} {:>8.0f} {:>11.1f} {:>10.1f} "
            "{:>7.1f} {:>7.1f}\n",
            r.element, r.model, r.rating, r.unit, r.count, r.redundancy, r.per, r.groups, r.voltage,
            r.design_current, r.unit_current, 100 * r.normal_loading, 100 * r.failure_loading);
    }
    return s;
}

SizingResult sizeElectrical(const SizingInput& in, const Catalog& catalog) {
    if (in.racks < 1) throw InputError("sizing: at least one rack is needed");
    SizingResult res;
    const RackPowerModel rack(in.rack);
    const RackPowerResult peak = rack.evaluate(1.0);
    res.rack_power = peak.it_power;
    const double pf = in.power_factor;
    const double ln = in.limit_normal, lfe = in.limit_failure_equipment,
                 lfc = in.limit_failure_conductor;
    auto lvCurrent = [&](double P) { return P / (kSqrt3 * in.lv_voltage * pf); };

    auto addRow = [&](std::string element, std::string model, double rating, std::string unit,
                      const Redundancy& red, std::string per, int groups, double voltage, double I,
                      double Iu, double lf) {
        const UnitCount c = countUnits(red, I, Iu, ln, lf);
        SizingRow r;
        r.element = std::move(element);
        r.model = std::move(model);
        r.rating = rating;
        r.unit = std::move(unit);
        r.count = c.count * groups;
        r.redundancy = red.label();
        r.count_rule = groups > 1 ? fmt::format("{} per {}, x {}", c.rule, per, groups) : c.rule;
        r.per = std::move(per);
        r.groups = groups;
        r.voltage = voltage;
        r.design_current = I;
        r.unit_current = Iu;
        r.limit_normal = ln;
        r.limit_failure = lf;
        r.normal_loading = c.normal_loading;
        r.failure_loading = c.failure_loading;
        res.rows.push_back(std::move(r));
        return c;
    };
    // Smallest catalog conductor whose counted loading fits both limits.
    auto pickConductor = [&](const std::vector<ConductorSpec>& options, const Redundancy& red,
                             double I, const char* what) -> ConductorSpec {
        for (const auto& c : options) {
            const UnitCount n = countUnits(red, I, c.rating, ln, lfc);
            if (n.units_per_system == 1) return c;
        }
        throw InputError(fmt::format(
            "sizing: no {} in the catalog carries {:.0f} A with {} redundancy at the 80 % rule "
            "(largest {:.0f} A); lower racks_per_row or feeds_per_path",
            what, I, red.label(), options.empty() ? 0.0 : options.back().rating));
    };

    // 1. PSU shelves, per rack, at the DC bus. Rack hardware is fixed: no growth margin.
    const double I_shelf = peak.dc_power / in.dc_bus_voltage;
    addRow("psu_shelf", in.rack.name + " shelf", in.rack.shelfRating(), "W", in.shelf_redundancy,
           "rack", in.racks, in.dc_bus_voltage, I_shelf, in.rack.shelfRating() / in.dc_bus_voltage,
           lfe);

    // 2. Rack feeds: per rack and path, over feeds_per_path whips.
    const double I_rack = lvCurrent(peak.it_power);
    {
        const auto feeds = catalog.conductors("rack_feeds");
        const double I_whip = I_rack / in.feeds_per_path;
        const ConductorSpec f = pickConductor(feeds, in.feed_redundancy, I_whip, "rack feed");
        addRow("rack_feed", f.name, f.rating, "A", in.feed_redundancy, "rack",
               in.racks * in.feeds_per_path, in.lv_voltage, I_whip, f.rating, lfc);
    }
    // 3. Busways, per row.
    const int rows = (in.racks + in.racks_per_row - 1) / in.racks_per_row;
    const int racks_in_row = std::min(in.racks, in.racks_per_row);
    {
        const double I_row = racks_in_row * I_rack;
        const ConductorSpec b =
            pickConductor(catalog.conductors("busways"), in.busway_redundancy, I_row, "busway");
        addRow("busway", b.name, b.rating, "A", in.busway_redundancy, "row", rows, in.lv_voltage,
               I_row, b.rating, lfc);
    }
    // 4. UPS: the hall's IT load with growth, plus distribution losses (~0.5 %, from the
    //    chain model at this load) and the UPS-backed share of cooling.
    res.it_design = (in.racks * peak.it_power + in.fabric_power) * (1.0 + in.growth_margin);
    res.cooling_design =
        (in.cooling_power >= 0 ? in.cooling_power
                               : in.cooling_fraction * res.it_design / (1.0 + in.growth_margin)) *
        (1.0 + in.growth_margin);
    const double other = in.other_power * (1.0 + in.growth_margin);
    {
        const auto feed = catalog.conductor("rack_feeds", res.rows[1].model);
        const auto bus = catalog.conductor("busways", res.rows[2].model);
        const double I_f = lvCurrent(res.it_design) / (in.racks * in.feeds_per_path * 2);
        const double I_b = lvCurrent(res.it_design) / (rows * 2);
        const double loss = in.racks * in.feeds_per_path * 2 * 3 * I_f * I_f * feed.resistance() +
                            rows * 2 * 3 * I_b * I_b * bus.resistance();
        res.ups_design = res.it_design + loss + in.cooling_on_ups_fraction * res.cooling_design;
    }
    // A catalog miss names the scenario key that chose the model.
    auto lookup = [&](std::string_view element, auto&& get) {
        try {
            return get();
        } catch (const InputError& e) {
            const auto it = in.model_paths.find(element);
            if (it == in.model_paths.end()) throw;
            throw InputError(fmt::format("{}: {}", it->second, e.what()));
        }
    };
    const UpsSpec ups = lookup("ups", [&] { return catalog.ups(in.ups_model); });
    const double Iu_ups = ups.rating / (kSqrt3 * ups.voltage * pf);
    const UnitCount n_ups = addRow("ups", ups.name, ups.rating, "W", in.ups_redundancy, "hall", 1,
                                   ups.voltage, lvCurrent(res.ups_design), Iu_ups, lfe);
    const UpsLossCurve curve = UpsLossCurve::fit(ups.double_conversion_points);
    const double ups_loss = n_ups.sharing * ups.rating *
                            curve.lossFraction(res.ups_design / (n_ups.sharing * ups.rating));
    // 5. Transformers, then one LV main breaker per transformer.
    res.lv_design =
        res.ups_design + ups_loss + (1.0 - in.cooling_on_ups_fraction) * res.cooling_design + other;
    const TransformerSpec tr =
        lookup("transformers", [&] { return catalog.transformer(in.transformer_model); });
    const double Iu_tr = tr.rating / (kSqrt3 * tr.secondary_voltage);
    const double I_lv = res.lv_design / pf / (kSqrt3 * tr.secondary_voltage);
    const UnitCount n_tr =
        addRow("transformer", tr.name, tr.rating, "VA", in.transformer_redundancy, "hall", 1,
               tr.secondary_voltage, I_lv, Iu_tr, lfe);
    {
        // NEC: the main breaker carries the transformer's full rated current continuously, so
        // it is rated ≥ 125 % of it (80 % rule) — a breaker that never limits the transformer.
        const auto breakers = catalog.conductors("breakers", "lv_");
        const ConductorSpec* pick = nullptr;
        for (const auto& b : breakers) {
            if (Iu_tr <= ln * b.rating) {
                pick = &b;
                break;
            }
        }
        if (!pick) {
            throw InputError(
                fmt::format("sizing: no LV breaker carries the {:.0f} A of a {} at "
                            "the 80 % rule",
                            Iu_tr, tr.name));
        }
        // Per transformer: its design current; unit = the breaker. Redundancy "N" per group.
        const double I_per_tr = I_lv / n_tr.sharing;
        addRow("lv_switchgear", pick->name, pick->rating, "A", Redundancy::parse("N"),
               "transformer", n_tr.count, tr.secondary_voltage, I_per_tr, pick->rating, lfc);
    }
    const double tr_loss =
        n_tr.sharing *
        (tr.no_load_loss +
         std::pow(res.lv_design / pf / (n_tr.sharing * tr.rating), 2) * tr.load_loss);
    res.facility_design = res.lv_design + tr_loss;
    // 6. Generators on the whole facility load, 7. MV service, 8. site battery.
    const GeneratorSpec gen =
        lookup("generators", [&] { return catalog.generator(in.generator_model); });
    const double I_mv = res.facility_design / (kSqrt3 * in.mv_voltage * pf);
    addRow("generator", gen.name, gen.rating, "W", in.generator_redundancy, "hall", 1,
           in.mv_voltage, I_mv, gen.rating / (kSqrt3 * in.mv_voltage * pf), lfe);
    {
        // The smallest feeder that carries the site alone; a campus beyond the largest one
        // takes several of the largest in parallel per system (countUnits counts them).
        const auto feeders = catalog.conductors("breakers", "mv_");
        if (feeders.empty()) throw InputError("sizing: the catalog has no MV feeder (mv_*)");
        ConductorSpec mv = feeders.back();
        for (const auto& c : feeders) {
            if (countUnits(in.mv_redundancy, I_mv, c.rating, ln, lfc).units_per_system == 1) {
                mv = c;
                break;
            }
        }
        addRow("mv_feeder", mv.name, mv.rating, "A", in.mv_redundancy, "hall", 1, in.mv_voltage,
               I_mv, mv.rating, lfc);
    }
    const BessSpec bess = lookup("bess", [&] { return catalog.bess(in.bess_model); });
    if (in.bess_power_fraction > 0) {
        const double P = in.bess_power_fraction * res.it_design;
        addRow("bess", bess.name, bess.power, "W", in.bess_redundancy, "hall", 1, in.mv_voltage,
               P / (kSqrt3 * in.mv_voltage * pf), bess.power / (kSqrt3 * in.mv_voltage * pf), lfe);
    }
    return res;
}

ChainDesign chainDesignFromSizing(const SizingResult& sizing, const SizingInput& in,
                                  const Catalog& catalog) {
    auto sharing = [&](const SizingRow& r) {
        // The block-redundant reserve carries nothing in normal operation.
        return r.redundancy == "block" ? r.count - r.groups : r.count;
    };
    ChainDesign d;
    const SizingRow& feed = sizing.row("rack_feed");
    d.rack_feed = catalog.conductor("rack_feeds", feed.model);
    d.rack_feeds = sharing(feed);
    const SizingRow& bus = sizing.row("busway");
    d.busway = catalog.conductor("busways", bus.model);
    d.busways = sharing(bus);
    const SizingRow& ups = sizing.row("ups");
    d.ups = catalog.ups(ups.model);
    d.ups_units = sharing(ups);
    const SizingRow& tr = sizing.row("transformer");
    d.transformer = catalog.transformer(tr.model);
    d.transformers = sharing(tr);
    const SizingRow& lv = sizing.row("lv_switchgear");
    d.lv_breaker = catalog.conductor("breakers", lv.model);
    d.lv_breakers = d.transformers;
    const SizingRow& mv = sizing.row("mv_feeder");
    d.mv_feeder = catalog.conductor("breakers", mv.model);
    d.mv_feeders = sharing(mv);
    d.power_factor = in.power_factor;
    d.cooling_on_ups_fraction = in.cooling_on_ups_fraction;
    return d;
}

}  // namespace dctwin::power
