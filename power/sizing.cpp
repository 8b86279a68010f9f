#include "power/sizing.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "core/errors.h"
#include "core/units.h"
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

SystemMapping mapRowsToSystems(const std::vector<double>& row_loads, int s) {
    if (s < 2) throw ModelError("mapRowsToSystems: at least two systems");
    SystemMapping m;
    m.systems = s;
    m.row_systems.assign(row_loads.size(), {0, 1});
    double total = 0;
    for (double w : row_loads) {
        if (!(w > 0)) throw ModelError("mapRowsToSystems: row loads must be positive");
        total += w;
    }
    // L[j]: normal load of system j; M[i][j]: load that moves onto j when i is lost. With i
    // lost, j carries L[j] + M[i][j]; adding a row only raises entries, so the worst over all
    // (i, j) after adding a row to (a, b) is the old worst or one of the entries with j = a, b.
    std::vector<double> L(s, 0.0);
    std::vector<std::vector<double>> M(s, std::vector<double>(s, 0.0));
    double worst_fail = 0;
    std::vector<std::size_t> order(row_loads.size());
    for (std::size_t r = 0; r < order.size(); ++r) order[r] = r;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return row_loads[x] > row_loads[y]; });
    for (std::size_t r : order) {
        const double h = row_loads[r] / 2;
        double best_fail = 0, best_normal = 0;
        int best_a = -1, best_b = -1;
        for (int a = 0; a < s; ++a) {
            for (int b = a + 1; b < s; ++b) {
                double fail = worst_fail;
                for (int i = 0; i < s; ++i) {
                    if (i != a) fail = std::max(fail, L[a] + h + M[i][a] + (i == b ? h : 0));
                    if (i != b) fail = std::max(fail, L[b] + h + M[i][b] + (i == a ? h : 0));
                }
                double normal = std::max(L[a], L[b]) + h;
                for (int j = 0; j < s; ++j) normal = std::max(normal, L[j]);
                const double tol = 1e-12 * total;
                if (best_a < 0 || fail < best_fail - tol ||
                    (fail <= best_fail + tol && normal < best_normal - tol)) {
                    best_fail = fail;
                    best_normal = normal;
                    best_a = a;
                    best_b = b;
                }
            }
        }
        L[best_a] += h;
        L[best_b] += h;
        M[best_a][best_b] += h;
        M[best_b][best_a] += h;
        worst_fail = best_fail;
        m.row_systems[r] = {best_a, best_b};
    }
    for (int j = 0; j < s; ++j) {
        m.normal_share.push_back(L[j] / total);
        m.worst_normal_share = std::max(m.worst_normal_share, L[j] / total);
        for (int i = 0; i < s; ++i) {
            if (i == j) continue;
            const double f = (L[j] + M[i][j]) / total;
            if (f > m.worst_failure_share + 1e-12) {
                m.worst_failure_share = f;
                m.worst_lost = i;
                m.worst_loaded = j;
            }
        }
    }
    return m;
}

std::vector<RackModelCount> SizingInput::rackMix() const {
    if (rack_models.empty()) return {RackModelCount{rack, racks}};
    return rack_models;
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
        generators
            ->choice("rating_basis", {"standby", "prime", "continuous"}, d.generator_rating_basis,
                     "ISO 8528-1 rating the sets are counted at (the catalog entry must "
                     "publish it)")
            .number("fuel_hours", "h", 0.0, 720.0, d.fuel_hours,
                    "on-site fuel storage, hours at the facility design load");
        auto bess = std::make_shared<ObjectSpec>("site battery (BESS)");
        bess->choice("topology", Redundancy::choices(), d.bess_redundancy.label(),
                     "redundancy of the battery blocks")
            .string("model", d.bess_model, "catalog model")
            .number("power_pct", "pct", 0.0, 200.0, d.bess_power_fraction * 100,
                    "battery power, % of the design IT power (the swing it must shave)")
            .number("duty_min", "min", 0.0, 1440.0, d.bess_duty / 60.0,
                    "minutes the battery must deliver that power (its energy duty)");

        auto s = std::make_shared<ObjectSpec>("electrical sizing options");
        s->number("growth_margin_pct", "pct", 0.0, 200.0, d.growth_margin * 100,
                  "design margin on the IT load for growth: the electrical chain and the "
                  "cooling plant (CDUs, heat rejection, pumps, CRAH units, air-side chillers) "
                  "are sized for the grown load; the run simulates today's")
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
    const SpecReader g = r.object("generators");
    group("generators", g, generator_redundancy, generator_model);
    generator_rating_basis = g.string("rating_basis");
    fuel_hours = g.number("fuel_hours");
    const SpecReader b = r.object("bess");
    group("bess", b, bess_redundancy, bess_model);
    bess_power_fraction = b.number("power_pct") / 100.0;
    bess_duty = b.number("duty_min") * 60.0;
    // The /power/bess options size a battery only on a site that has one (bess_mode, read by
    // the caller): the reference site (bess_mode off) listed a 4 MW battery at 74.5 % and a
    // bess_energy check of 759 kWh it does not have.
    site_battery = false;
}

const SizingRow& SizingResult::row(std::string_view element) const {
    for (const auto& r : rows) {
        if (r.element == element) return r;
    }
    throw ModelError(fmt::format("sizing has no element '{}'", element));
}

const SizingRow& SizingResult::row(std::string_view element, std::string_view rack_model) const {
    for (const auto& r : rows) {
        if (r.element == element && r.rack_model == rack_model) return r;
    }
    throw ModelError(fmt::format("sizing has no element '{}' for '{}'", element, rack_model));
}

Table SizingResult::toTable() const {
    Table t;
    t.path = "sizing/power";
    std::vector<std::string> element, model, unit, red, per, rule, rack_model, governs;
    std::vector<double> rating, count, groups, volt, ides, iu, load, fail, fault, icu;
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
        rack_model.push_back(r.rack_model);
        governs.push_back(r.governing_case);
        fault.push_back(r.fault_current / 1e3);
        icu.push_back(r.interrupting / 1e3);
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
    t.addText("rack_model", rack_model);
    t.addText("governing_case", governs);
    t.addNumbers("fault_current_kA", "kA", fault);
    t.addNumbers("interrupting_kA", "kA", icu);
    return t;
}

Table SizingResult::checksTable() const {
    Table t;
    t.path = "sizing/power_checks";
    std::vector<std::string> item, unit, relation, basis;
    std::vector<double> value, limit;
    for (const auto& c : checks) {
        item.push_back(c.item);
        value.push_back(c.value);
        unit.push_back(c.unit);
        relation.push_back(c.relation);
        // A figure reported without a relation (the generator's derated rating, the fuel to
        // store) has no limit: no value ("–", null in the JSON), not a limit of 0.
        limit.push_back(c.relation.empty() ? std::numeric_limits<double>::quiet_NaN() : c.limit);
        basis.push_back(c.basis);
    }
    t.addText("item", item);
    t.addNumbers("value", "", value);  // unit differs per row: see the unit column
    t.addText("unit", unit);
    t.addText("relation", relation);
    t.addNumbers("limit", "", limit);
    t.addText("basis", basis);
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
        "{:>7} {:>7}  {}\n",
        "element", "model", "rating", "", "count", "redund", "per", "groups", "voltage",
        "I_design_A", "I_unit_A", "load%", "fail%", "governed by");
    for (const auto& r : rows) {
        s += fmt::format(
            "{:<14} {:<18} {:>12.0f} {:<3} {:>6} {:<6} {:<5} {:>6} {:>8.0f} {:>11.1f} {:>10.1f} "
            "{:>7.1f} {:>7.1f}  {}\n",
            r.element, r.model, r.rating, r.unit, r.count, r.redundancy, r.per, r.groups, r.voltage,
            r.design_current, r.unit_current, 100 * r.normal_loading, 100 * r.failure_loading,
            r.governing_case);
    }
    for (const auto& c : checks) {
        s += fmt::format("{:<22} {:>10.1f} {:<4} {:<2} {:>10.1f}  {}\n", c.item, c.value, c.unit,
                         c.relation, c.limit, c.basis);
    }
    return s;
}

namespace {

/// A rack model of the hall with its design figures at full utilization.
struct HallModel {
    std::string label;  // rack name (with its power when two specs share a name)
    RackSpec rack;
    int count = 0;
    double ac = 0;  // [W] per rack
    double dc = 0;  // [W] per rack
};

/// The hall's rack models merged by name and electrical figures, sorted by label so that the
/// order of /it/racks never changes a result.
std::vector<HallModel> hallModels(const SizingInput& in) {
    std::vector<HallModel> models;
    for (const RackModelCount& e : in.rackMix()) {
        if (e.count < 1) {
            throw InputError(fmt::format(
                "sizing: rack model '{}' has {} racks; expected at least 1", e.rack.name, e.count));
        }
        const RackPowerResult peak = RackPowerModel(e.rack).evaluate(1.0);
        auto same = [&](const HallModel& m) {
            return m.rack.name == e.rack.name && m.ac == peak.it_power && m.dc == peak.dc_power &&
                   m.rack.shelfRating() == e.rack.shelfRating();
        };
        auto it = std::find_if(models.begin(), models.end(), same);
        if (it != models.end()) {
            it->count += e.count;
            continue;
        }
        models.push_back(HallModel{e.rack.name, e.rack, e.count, peak.it_power, peak.dc_power});
    }
    for (auto& m : models) {
        const auto n = std::count_if(models.begin(), models.end(), [&](const HallModel& o) {
            return o.rack.name == m.rack.name;
        });
        if (n > 1) m.label = fmt::format("{} ({:.1f} kW)", m.rack.name, m.ac / 1e3);
    }
    std::sort(models.begin(), models.end(), [](const HallModel& x, const HallModel& y) {
        return x.label != y.label ? x.label < y.label : x.ac < y.ac;
    });
    return models;
}

bool isSystemTopology(const Redundancy& r) {
    return r.kind == Redundancy::Kind::TwoN || r.kind == Redundancy::Kind::Distributed;
}

}  // namespace

SizingResult sizeElectrical(const SizingInput& in, const Catalog& catalog) {
    if (in.rack_models.empty() && in.racks < 1) {
        throw InputError("sizing: at least one rack is needed");
    }
    if (in.racks_per_row < 1 || in.feeds_per_path < 1) {
        throw InputError(fmt::format(
            "sizing: racks_per_row {} and feeds_per_path {}: expected integers of at least 1",
            in.racks_per_row, in.feeds_per_path));
    }
    SizingResult res;
    const std::vector<HallModel> models = hallModels(in);
    double rack_total = 0;  // [W] all racks at full utilization
    for (const auto& m : models) {
        rack_total += m.count * m.ac;
        res.rack_power = std::max(res.rack_power, m.ac);
    }
    const double pf = in.power_factor;
    const double ln = in.limit_normal, lfe = in.limit_failure_equipment,
                 lfc = in.limit_failure_conductor;
    auto lvCurrent = [&](double P) { return P / (kSqrt3 * in.lv_voltage * pf); };

    // The case that governs a row: the larger of loading/limit, normal or after the failure.
    auto governs = [](const SizingRow& r) -> std::string {
        if (r.failure_case.empty()) return "normal";
        return r.failure_loading / r.limit_failure > r.normal_loading / r.limit_normal + 1e-12
                   ? r.failure_case
                   : "normal";
    };
    auto failureCase = [](const Redundancy& red, const char* unit) -> std::string {
        switch (red.kind) {
            case Redundancy::Kind::N:
                return "";
            case Redundancy::Kind::NPlus1:
                return fmt::format("one {} lost", unit);
            case Redundancy::Kind::Block:
                return "one block lost (the reserve takes it over)";
            case Redundancy::Kind::TwoN:
                return "one of the 2 systems lost";
            case Redundancy::Kind::Distributed:
                return "one system lost (even spread)";
        }
        return "";
    };
    auto addRow = [&](std::string element, std::string model, double rating, std::string unit,
                      const Redundancy& red, std::string per, int groups, double voltage, double I,
                      double Iu, double lf, std::string rack_model = {}) {
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
        r.rack_model = std::move(rack_model);
        r.failure_case = failureCase(red, "unit");
        if (red.kind == Redundancy::Kind::TwoN && r.per != "hall") {
            r.failure_case = "path A or B lost";
        }
        r.governing_case = governs(r);
        res.rows.push_back(std::move(r));
        return c;
    };
    // Smallest catalog conductor whose counted loading fits both limits.
    auto pickConductor = [&](const std::vector<ConductorSpec>& options, const Redundancy& red,
                             double I, const std::string& what) -> ConductorSpec {
        for (const auto& c : options) {
            const UnitCount n = countUnits(red, I, c.rating, ln, lfc);
            if (n.units_per_system == 1) return c;
        }
        throw InputError(fmt::format(
            "sizing: no {} in the catalog carries {:.0f} A with {} redundancy at the 80 % rule "
            "(largest {:.0f} A); lower racks_per_row or feeds_per_path",
            what, I, red.label(), options.empty() ? 0.0 : options.back().rating));
    };

    // 1.–3. Per rack model: PSU shelves (per rack, at the DC bus; rack hardware is fixed, so
    // no growth margin), rack feeds (per rack and path, over feeds_per_path whips) and busways
    // (per row of that model; the largest row, a full one unless the model has fewer racks).
    const auto feed_options = catalog.conductors("rack_feeds");
    const auto busway_options = catalog.conductors("busways");
    std::vector<double> row_loads;  // [W] per busway row, racks at full utilization
    struct Distribution {
        ConductorSpec feed, bus;
        int rows = 0;
    };
    std::vector<Distribution> dist;
    for (const auto& m : models) {
        const double I_shelf = m.dc / in.dc_bus_voltage;
        addRow("psu_shelf", m.rack.name + " shelf", m.rack.shelfRating(), "W", in.shelf_redundancy,
               "rack", m.count, in.dc_bus_voltage, I_shelf,
               m.rack.shelfRating() / in.dc_bus_voltage, lfe, m.label);
    }
    for (const auto& m : models) {
        const double I_whip = lvCurrent(m.ac) / in.feeds_per_path;
        Distribution d;
        d.feed = pickConductor(feed_options, in.feed_redundancy, I_whip,
                               fmt::format("rack feed for '{}'", m.label));
        addRow("rack_feed", d.feed.name, d.feed.rating, "A", in.feed_redundancy, "rack",
               m.count * in.feeds_per_path, in.lv_voltage, I_whip, d.feed.rating, lfc, m.label);
        dist.push_back(d);
    }
    for (std::size_t k = 0; k < models.size(); ++k) {
        const HallModel& m = models[k];
        Distribution& d = dist[k];
        d.rows = (m.count + in.racks_per_row - 1) / in.racks_per_row;
        const int racks_in_row = std::min(m.count, in.racks_per_row);
        const double I_row = racks_in_row * lvCurrent(m.ac);
        d.bus = pickConductor(busway_options, in.busway_redundancy, I_row,
                              fmt::format("busway for a row of {} '{}'", racks_in_row, m.label));
        addRow("busway", d.bus.name, d.bus.rating, "A", in.busway_redundancy, "row", d.rows,
               in.lv_voltage, I_row, d.bus.rating, lfc, m.label);
        for (int r = 0; r < d.rows; ++r) {
            const int n = std::min(in.racks_per_row, m.count - r * in.racks_per_row);
            row_loads.push_back(n * m.ac);
            res.row_models.push_back(m.label);
        }
    }
    // 4. UPS: the hall's IT load with growth, plus distribution losses (~0.5 %) and the
    //    UPS-backed share of cooling. Losses at design: every feed and busway carries its racks'
    //    share of the design IT power (growth and fabric spread over the racks), half on each
    //    of the A and B paths.
    res.it_design = (rack_total + in.fabric_power) * (1.0 + in.growth_margin);
    res.cooling_design =
        (in.cooling_power >= 0 ? in.cooling_power
                               : in.cooling_fraction * res.it_design / (1.0 + in.growth_margin)) *
        (1.0 + in.growth_margin);
    const double other = in.other_power * (1.0 + in.growth_margin);
    {
        const double scale = res.it_design / rack_total;
        double loss = 0;
        for (std::size_t k = 0; k < models.size(); ++k) {
            const HallModel& m = models[k];
            const double I_f = scale * lvCurrent(m.ac) / (in.feeds_per_path * 2);
            const double I_b = scale * m.count * lvCurrent(m.ac) / (dist[k].rows * 2);
            loss += m.count * in.feeds_per_path * 2 * 3 * I_f * I_f * dist[k].feed.resistance() +
                    dist[k].rows * 2 * 3 * I_b * I_b * dist[k].bus.resistance();
        }
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
    // Systems from the row mapping: the largest shares any system carries, normal and with the
    // worst single system lost (2N and distributed only).
    const bool ups_mapped = isSystemTopology(in.ups_redundancy);
    if (ups_mapped) res.ups_mapping = mapRowsToSystems(row_loads, in.ups_redundancy.systems);
    const SystemMapping& map = res.ups_mapping;
    // Count for shares f_n (normal) and f_f (failure) of I: the fewest units per system that
    // keep the worst system within both limits, and what the even-spread count would reach.
    auto mappedCount = [&](SizingRow& r, double I, double Iu, double f_n, double f_f, double lf,
                           const char* what) {
        const int s = in.ups_redundancy.systems;
        const int m = std::max({1, ceilDiv(f_f * I, Iu * lf), ceilDiv(f_n * I, Iu * ln)});
        const int m_even = std::max({1, ceilDiv(I, (s - 1) * Iu * lf), ceilDiv(I, s * Iu * ln)});
        r.count = s * m;
        r.normal_loading = f_n * I / (m * Iu);
        r.failure_loading = f_f * I / (m * Iu);
        r.failure_case = fmt::format("{} system {} lost: system {} carries {:.1f} % of the load",
                                     what, map.worst_lost + 1, map.worst_loaded + 1, 100 * f_f);
        r.count_rule = fmt::format(
            "{} rows on {} systems (pairs balanced); m=max(ceil({:.4f} I/({:.2f} Iu)), "
            "ceil({:.4f} I/({:.2f} Iu)))={} per system x {}",
            row_loads.size(), s, f_f, lf, f_n, ln, m, s);
        if (m > m_even) {
            r.count_rule +=
                fmt::format("; an even spread's m={} would reach {:.1f} % with system {} lost",
                            m_even, 100 * f_f * I / (m_even * Iu), map.worst_lost + 1);
        }
        r.governing_case = governs(r);
        return m;
    };
    const UpsSpec ups = lookup("ups", [&] { return catalog.ups(in.ups_model); });
    const double Iu_ups = ups.rating / (kSqrt3 * ups.voltage * pf);
    const double I_ups = lvCurrent(res.ups_design);
    UnitCount n_ups = addRow("ups", ups.name, ups.rating, "W", in.ups_redundancy, "hall", 1,
                             ups.voltage, I_ups, Iu_ups, lfe);
    if (ups_mapped) {
        SizingRow& r = res.rows.back();
        n_ups.units_per_system = mappedCount(r, I_ups, Iu_ups, map.worst_normal_share,
                                             map.worst_failure_share, lfe, "UPS");
        n_ups.count = n_ups.sharing = r.count;
    }
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
    UnitCount n_tr = addRow("transformer", tr.name, tr.rating, "VA", in.transformer_redundancy,
                            "hall", 1, tr.secondary_voltage, I_lv, Iu_tr, lfe);
    if (ups_mapped && in.transformer_redundancy.kind == in.ups_redundancy.kind &&
        in.transformer_redundancy.systems == in.ups_redundancy.systems) {
        // Each transformer system feeds one UPS system (its share of the UPS input) and an even
        // share of the loads off the UPS (1/s normal, 1/(s−1) with one system lost).
        const int s = in.ups_redundancy.systems;
        const double ups_in = res.ups_design + ups_loss;
        const double rest = res.lv_design - ups_in;
        const double f_n = (map.worst_normal_share * ups_in + rest / s) / res.lv_design;
        const double f_f = (map.worst_failure_share * ups_in + rest / (s - 1)) / res.lv_design;
        SizingRow& r = res.rows.back();
        n_tr.units_per_system = mappedCount(r, I_lv, Iu_tr, f_n, f_f, lfe, "transformer");
        n_tr.count = n_tr.sharing = r.count;
        r.failure_case =
            fmt::format("transformer system {} lost: system {} carries {:.1f} % of the LV load",
                        map.worst_lost + 1, map.worst_loaded + 1, 100 * f_f);
        r.governing_case = governs(r);
    }
    // 5a. UPS critical buses (fault level and bus rating). Each UPS system's frames are
    //     paralleled on one critical bus per group of frames; through the static bypasses that
    //     bus is fed by every transformer feeding the group, so its available fault current is
    //     the sum of theirs, t·I_sc. A system splits into b buses, the fewest for which the bus
    //     current (worst system, rows spread evenly over its buses) fits a catalog LV frame —
    //     80 % of it in normal operation, 100 % after the covered failure: the bus is
    //     switchboard equipment rated for its current continuously (IEC 61439-1), each frame's
    //     own output breaker carries only that frame — and t = ⌈m_t/b⌉ transformers stay
    //     within that frame's interrupting rating Icu; frames and transformers are then
    //     ⌈m/b⌉ per bus (N+1: ⌈N/b⌉ + 1 per bus, a spare on another bus cannot help). The UPS
    //     losses are those of the count before the split (second order: the loss fraction
    //     changes by < 0.3 % of the frame rating over 50–100 % load).
    const double I_sc = tr.rating / (kSqrt3 * tr.secondary_voltage * tr.impedance);
    const auto lv_breakers = catalog.conductors("breakers", "lv_");
    const bool tr_matched = ups_mapped &&
                            in.transformer_redundancy.kind == in.ups_redundancy.kind &&
                            in.transformer_redundancy.systems == in.ups_redundancy.systems;
    const int s_sys = ups_mapped ? in.ups_redundancy.systems : 1;
    const double f_n = ups_mapped ? map.worst_normal_share : 1.0;
    const double f_f = ups_mapped ? map.worst_failure_share : 1.0;
    const std::size_t ups_idx = res.rows.size() - 2, tr_idx = res.rows.size() - 1;
    const int m_u = n_ups.units_per_system;
    const int m_t = tr_matched ? n_tr.units_per_system : n_tr.count;
    int buses = 1, tr_per_bus = 0;
    const ConductorSpec* bus = nullptr;
    for (;; ++buses) {
        tr_per_bus = (m_t + buses - 1) / buses;
        if (!tr_matched) tr_per_bus = (n_tr.count + s_sys * buses - 1) / (s_sys * buses);
        const double I_bus_n = f_n * I_ups / buses, I_bus_f = f_f * I_ups / buses;
        for (const auto& b : lv_breakers) {
            if (I_bus_n <= ln * b.rating && I_bus_f <= lfe * b.rating &&
                tr_per_bus * I_sc <= b.interrupting) {
                bus = &b;
                break;
            }
        }
        if (bus) break;
        if (tr_per_bus <= 1 && I_bus_f <= lfe * lv_breakers.back().rating &&
            I_bus_n <= ln * lv_breakers.back().rating) {
            throw InputError(fmt::format(
                "sizing: one {} gives {:.1f} kA available fault current at {:.0f} V, above the "
                "largest interrupting rating of the catalog's LV breakers ({:.0f} kA); choose a "
                "smaller transformer or one of higher impedance",
                tr.name, I_sc / 1e3, tr.secondary_voltage, lv_breakers.back().interrupting / 1e3));
        }
        if (buses > 100000) throw ModelError("sizing: UPS bus split did not converge");
    }
    if (buses > 1) {
        SizingRow& ur = res.rows[ups_idx];
        if (in.ups_redundancy.kind == Redundancy::Kind::Block) {
            throw InputError(fmt::format(
                "sizing: a block-redundant UPS of {:.1f} MW exceeds one critical bus; use 2N or "
                "a distributed topology (sN/(s-1)) so the load splits over several buses",
                res.ups_design / 1e6));
        }
        if (in.ups_redundancy.kind == Redundancy::Kind::NPlus1) {
            const int per_bus = (m_u + buses - 1) / buses + 1;
            ur.count = buses * per_bus;
            ur.normal_loading = I_ups / (ur.count * Iu_ups);
            ur.failure_loading = I_ups / buses / ((per_bus - 1) * Iu_ups);
            ur.failure_case = "one UPS lost on the most loaded bus";
        } else {
            const int m = buses * ((m_u + buses - 1) / buses);
            ur.count = s_sys * m;
            ur.normal_loading *= static_cast<double>(m_u) / m;
            ur.failure_loading *= static_cast<double>(m_u) / m;
            n_ups.units_per_system = m;
        }
        n_ups.count = n_ups.sharing = ur.count;
        ur.count_rule += fmt::format("; {} critical buses per system, {} UPS per bus", buses,
                                     ur.count / (s_sys * buses));
        ur.governing_case = governs(ur);
        if (tr_matched) {
            SizingRow& t = res.rows[tr_idx];
            const int m = buses * tr_per_bus;
            t.count = s_sys * m;
            t.normal_loading *= static_cast<double>(m_t) / m;
            t.failure_loading *= static_cast<double>(m_t) / m;
            t.count_rule +=
                fmt::format("; {} per critical bus x {} buses per system", tr_per_bus, buses);
            t.governing_case = governs(t);
            n_tr.units_per_system = m;
            n_tr.count = n_tr.sharing = t.count;
        }
    }
    res.buses_per_system = buses;
    {
        // NEC: the main breaker carries the transformer's full rated current continuously, so
        // it is rated ≥ 125 % of it (80 % rule) — a breaker that never limits the transformer —
        // and breaks the transformer's available fault current (its Icu ≥ I_sc).
        const ConductorSpec* pick = nullptr;
        for (const auto& b : lv_breakers) {
            if (Iu_tr <= ln * b.rating && I_sc <= b.interrupting) {
                pick = &b;
                break;
            }
        }
        if (!pick) {
            throw InputError(
                fmt::format("sizing: no LV breaker carries the {:.0f} A of a {} at the 80 % rule "
                            "and breaks its {:.1f} kA available fault current",
                            Iu_tr, tr.name, I_sc / 1e3));
        }
        // One main per transformer, carrying what its transformer carries: in normal operation
        // and in the transformer's worst failure case (issue 15: the failure loading was once
        // the normal one, as if the transformers had no redundancy).
        const SizingRow tr_row = res.rows[tr_idx];
        addRow("lv_switchgear", pick->name, pick->rating, "A", Redundancy::parse("N"),
               "transformer", n_tr.count, tr.secondary_voltage, I_lv / n_tr.sharing, pick->rating,
               lfc);
        SizingRow& r = res.rows.back();
        r.normal_loading = tr_row.normal_loading * Iu_tr / pick->rating;
        r.failure_loading = tr_row.failure_loading * Iu_tr / pick->rating;
        r.failure_case = tr_row.failure_case;
        r.count_rule =
            fmt::format("one per transformer ({}), x {}, rated >= Iu_tr/{:.2f}, Icu >= {:.1f} kA",
                        tr_row.redundancy, n_tr.count, ln, I_sc / 1e3);
        r.governing_case = governs(r);
        r.fault_current = I_sc;
        r.interrupting = pick->interrupting;
        if (r.failure_loading > lfc + 1e-9) {
            throw InputError(fmt::format(
                "sizing: the LV main {} would carry {:.1f} % with {} (limit {:.0f} %); the "
                "catalog has no larger breaker for {}",
                pick->name, 100 * r.failure_loading, r.failure_case, 100 * lfc, tr.name));
        }
        res.rows[tr_idx].fault_current = I_sc;
        res.checks.push_back(
            {"lv_main_fault_current", I_sc / 1e3, "kA", "<=", pick->interrupting / 1e3,
             fmt::format("I_sc = S/(sqrt3 V Z) = {:.0f} kVA/(sqrt3 x {:.0f} V x {:.2f} %), "
                         "infinite MV source, no motor contribution (UPS rectifiers and "
                         "drive-fed fans and pumps do not feed a fault); Icu of {}",
                         tr.rating / 1e3, tr.secondary_voltage, 100 * tr.impedance, pick->name)});
    }
    {
        const double I_bus_n = f_n * I_ups / buses, I_bus_f = f_f * I_ups / buses;
        const SizingRow& ur = res.rows[ups_idx];
        SizingRow r;
        r.element = "ups_bus";
        r.model = bus->name;
        r.rating = bus->rating;
        r.unit = "A";
        r.count = s_sys * buses;
        r.redundancy = ur.redundancy;
        r.per = "system";
        r.groups = s_sys;
        r.voltage = ups.voltage;
        r.design_current = I_bus_n;
        r.unit_current = bus->rating;
        r.limit_normal = ln;
        r.limit_failure = lfe;
        r.normal_loading = I_bus_n / bus->rating;
        r.failure_loading = I_bus_f / bus->rating;
        r.failure_case = ups_mapped ? ur.failure_case : "";
        r.fault_current = tr_per_bus * I_sc;
        r.interrupting = bus->interrupting;
        r.count_rule = fmt::format(
            "b={} buses per system: the fewest with the bus current ({:.0f} A normal, {:.0f} A "
            "after a loss) within {:.2f} / {:.2f} x a catalog frame and {} transformer(s) x "
            "{:.1f} kA (paralleled through the bypasses) within its Icu",
            buses, I_bus_n, I_bus_f, ln, lfe, tr_per_bus, I_sc / 1e3);
        r.governing_case = governs(r);
        res.rows.push_back(r);
        res.checks.push_back(
            {"ups_bus_fault_current", r.fault_current / 1e3, "kA", "<=", bus->interrupting / 1e3,
             fmt::format("{} transformer(s) per critical bus x {:.1f} kA through the static "
                         "bypasses; Icu of {}; {} bus(es) per UPS system",
                         tr_per_bus, I_sc / 1e3, bus->name, buses)});
    }
    const double tr_loss =
        n_tr.sharing *
        (tr.no_load_loss +
         std::pow(res.lv_design / pf / (n_tr.sharing * tr.rating), 2) * tr.load_loss);
    res.facility_design = res.lv_design + tr_loss;
    {
        // The transformers' MV windings. A unit-substation transformer is wound for the site's
        // distribution voltage (ANSI C57.12.00 lists 4.16 to 34.5 kV primaries; the catalog
        // entry's rating, losses and impedance are taken as they are at any of them): its
        // primary current is I = S/(√3·V_MV), the load's the transformer's loading of it.
        const SizingRow& t = res.rows[tr_idx];
        const double Iu_p = tr.rating / (kSqrt3 * in.mv_voltage);
        SizingRow r = t;
        r.element = "transformer_primary";
        r.model = fmt::format("{} primary", tr.name);
        r.rating = Iu_p;
        r.unit = "A";
        r.per = "transformer";
        r.groups = t.count;
        r.redundancy = "N";  // one winding per transformer, as the LV mains
        r.voltage = in.mv_voltage;
        r.design_current = t.normal_loading * Iu_p;
        r.unit_current = Iu_p;
        r.fault_current = 0;
        r.interrupting = 0;
        r.count_rule = fmt::format(
            "one per transformer, x {}; I = S/(sqrt3 V) = {:.0f} kVA/(sqrt3 x {:.1f} kV) = "
            "{:.1f} A rated (catalog primary {:.1f} kV, wound for the site's MV)",
            t.count, tr.rating / 1e3, in.mv_voltage / 1e3, Iu_p, tr.primary_voltage / 1e3);
        res.rows.push_back(r);
    }
    // Units in service after the covered failure, for `count` installed units of `red`
    // (N: all; N+1: one lost; 2N, distributed: one system lost; block: the reserve takes over).
    auto onlineAfterFailure = [](const Redundancy& red, int count) {
        switch (red.kind) {
            case Redundancy::Kind::N:
                return count;
            case Redundancy::Kind::NPlus1:
            case Redundancy::Kind::Block:
                return count - 1;
            case Redundancy::Kind::TwoN:
            case Redundancy::Kind::Distributed:
                return count / red.systems * (red.systems - 1);
        }
        return count;
    };
    // The fewest units of `red` that leave at least `need` in service after the failure.
    auto countForOnline = [](const Redundancy& red, int need) {
        switch (red.kind) {
            case Redundancy::Kind::N:
                return need;
            case Redundancy::Kind::NPlus1:
            case Redundancy::Kind::Block:
                return need + 1;
            case Redundancy::Kind::TwoN:
            case Redundancy::Kind::Distributed:
                return red.systems * ((need + red.systems - 2) / (red.systems - 1));
        }
        return need;
    };
    // Raises a row's count so that `need` units stay in service after its failure case.
    auto raiseTo = [&](SizingRow& r, const Redundancy& red, int need, double Iu,
                       const std::string& why) {
        if (onlineAfterFailure(red, r.count) >= need) return;
        r.count = countForOnline(red, need);
        const int sharing = red.kind == Redundancy::Kind::Block ? r.count - 1 : r.count;
        r.normal_loading = r.design_current / (sharing * Iu);
        r.failure_loading = r.design_current / (onlineAfterFailure(red, r.count) * Iu);
        r.count_rule += fmt::format("; raised to {} for {}", r.count, why);
        r.governing_case = governs(r);
    };
    // 6. Generators on the whole facility load at the chosen ISO 8528-1 rating basis, derated
    //    for the site's design ambient and altitude; the transfer sequence's load steps
    //    (power/chain.h analyzeUtilityLoss: mechanical load in two blocks, then the UPS walk-in)
    //    must each stay within the step-load limit of the sets left after the covered failure.
    GeneratorSpec gen = lookup("generators", [&] { return catalog.generator(in.generator_model); });
    const double derate = gen.derating(in.design_ambient, in.site_altitude);
    const double gen_basis =
        lookup("generators", [&] { return gen.ratingFor(in.generator_rating_basis); });
    res.generator_unit_rating = gen_basis * derate;
    const double I_mv = res.facility_design / (kSqrt3 * in.mv_voltage * pf);
    // The sets run at their terminal voltage (the catalog's; MV paralleling sets are built up
    // to 13.8 kV) on a paralleling bus at that voltage; the counts follow from power, not
    // voltage. A site MV at another voltage takes the sets through step-up transformers (row
    // generator_step_up, below).
    const double I_gen = res.facility_design / (kSqrt3 * gen.voltage * pf);
    const double Iu_gen = res.generator_unit_rating / (kSqrt3 * gen.voltage * pf);
    addRow("generator", gen.name, res.generator_unit_rating, "W", in.generator_redundancy, "hall",
           1, gen.voltage, I_gen, Iu_gen, lfe);
    const std::size_t gen_idx = res.rows.size() - 1;
    {
        SizingRow& r = res.rows.back();
        r.count_rule += fmt::format(" at {} {:.0f} kW x {:.3f} derating ({:.1f} °C, {:.0f} m)",
                                    in.generator_rating_basis, gen_basis / 1e3, derate,
                                    units::kelvinToCelsius(in.design_ambient), in.site_altitude);
        const double ups_in = res.ups_design + ups_loss;
        UtilityLossSpec u;
        u.critical_load = ups_in;
        u.mechanical_load = res.facility_design - ups_in;
        u.ups = ups;
        u.ups_units = n_ups.sharing;
        u.generator = gen;
        u.generator.rating = res.generator_unit_rating;
        u.block_interval = gen.step_interval;
        u.time_step = 0.5;
        u.generators = onlineAfterFailure(in.generator_redundancy, r.count);
        UtilityLossResult ul = analyzeUtilityLoss(u);
        double step_max = 0;
        for (const auto& st : ul.steps) step_max = std::max(step_max, st.step);
        const int need =
            std::max(1, ceilDiv(step_max, gen.step_load_limit * res.generator_unit_rating));
        if (need > u.generators) {
            raiseTo(r, in.generator_redundancy, need, Iu_gen,
                    fmt::format("the largest load step ({:.0f} kW) within {:.0f} % of the "
                                "sets left",
                                step_max / 1e3, 100 * gen.step_load_limit));
            u.generators = onlineAfterFailure(in.generator_redundancy, r.count);
            ul = analyzeUtilityLoss(u);
        }
        res.transfer_time = ul.transfer_complete;
        res.checks.push_back(
            {"generator_step_load", step_max / 1e3, "kW",
             "<=", gen.step_load_limit * u.generators * res.generator_unit_rating / 1e3,
             fmt::format("largest step of the transfer sequence (mechanical load in {} blocks "
                         "{:.0f} s apart, then the UPS walk-in over {:.0f} s judged per second) "
                         "against {:.0f} % of the {} sets left after {}",
                         u.mechanical_blocks, u.block_interval, u.walk_in,
                         100 * gen.step_load_limit, u.generators,
                         r.failure_case.empty() ? "no failure" : r.failure_case)});
        res.checks.push_back(
            {"generator_unit_rating", res.generator_unit_rating / 1e3, "kW", "", 0,
             fmt::format("{} rating {:.0f} kW (ISO 8528-1) x (1 - {:.2f} %/K x "
                         "max(0, {:.1f} - {:.1f} °C) - {:.3f} %/100 m x max(0, "
                         "{:.0f} - {:.0f} m)) = x {:.3f}",
                         in.generator_rating_basis, gen_basis / 1e3, 100 * gen.derate_per_K,
                         units::kelvinToCelsius(in.design_ambient),
                         units::kelvinToCelsius(gen.derate_above), 1e4 * gen.derate_per_m,
                         in.site_altitude, gen.derate_above_altitude, derate)});
        // Fuel at the catalog's full-load specific consumption (at part load a set burns a
        // little more per kWh: this is the design-load figure, not a worst case).
        constexpr double kM3PerGallon = 3.785411784e-3;
        res.fuel_storage =
            res.facility_design / 1e3 * in.fuel_hours * gen.fuel_gal_per_kWh * kM3PerGallon;
        res.checks.push_back(
            {"fuel_storage", res.fuel_storage, "m3", "", 0,
             fmt::format("{:.0f} kW x {:.0f} h x {:.3f} gal/kWh x 3.785 L/gal = {:.0f} US gal",
                         res.facility_design / 1e3, in.fuel_hours, gen.fuel_gal_per_kWh,
                         res.fuel_storage / kM3PerGallon)});
        // UPS battery autonomy at design load: the catalog's autonomy at rated load scaled by
        // rated/actual load (constant battery energy; Peukert's law would lengthen it at part
        // load, so this errs short), against the transfer sequence's end.
        const SizingRow& ur = res.rows[ups_idx];
        res.ups_autonomy_normal = ups.ride_through / ur.normal_loading;
        res.ups_autonomy_failure = ups.ride_through / ur.failure_loading;
        res.checks.push_back({"ups_autonomy_normal", res.ups_autonomy_normal / 60, "min",
                              ">=", res.transfer_time / 60,
                              fmt::format("{:.1f} min at rated load / {:.1f} % design loading, "
                                          "all UPS in service; limit: generator start {:.0f} s "
                                          "and transfer, complete at {:.0f} s",
                                          ups.ride_through / 60, 100 * ur.normal_loading,
                                          gen.start_delay, res.transfer_time)});
        res.checks.push_back(
            {"ups_autonomy_failure", res.ups_autonomy_failure / 60, "min",
             ">=", res.transfer_time / 60,
             fmt::format("{:.1f} min / {:.1f} % loading with {}", ups.ride_through / 60,
                         100 * ur.failure_loading,
                         ur.failure_case.empty() ? "no failure covered" : ur.failure_case)});
        if (res.ups_autonomy_failure < res.transfer_time) {
            throw InputError(fmt::format(
                "sizing: the UPS batteries of '{}' last {:.0f} s at {:.1f} % load ({}), shorter "
                "than the {:.0f} s until the generators carry the load (start {:.0f} s, then the "
                "transfer sequence); choose a UPS with longer ride_through_min",
                ups.name, res.ups_autonomy_failure, 100 * ur.failure_loading, ur.failure_case,
                res.transfer_time, gen.start_delay));
        }
    }
    if (std::abs(gen.voltage - in.mv_voltage) > 1.0) {
        // One step-up transformer per set (unit-connected), rated for the set's kVA at its
        // rated power factor, from the set's terminal voltage to the site's MV. Currents on
        // the MV side: I = S/(√3·V_MV).
        const SizingRow g = res.rows[gen_idx];
        const double S = res.generator_unit_rating / gen.power_factor;
        const double Iu = S / (kSqrt3 * in.mv_voltage);
        SizingRow r = g;
        r.element = "generator_step_up";
        r.model = fmt::format("{:.0f} kVA {:.1f}/{:.1f} kV", S / 1e3, gen.voltage / 1e3,
                              in.mv_voltage / 1e3);
        r.rating = S;
        r.unit = "VA";
        r.voltage = in.mv_voltage;
        r.design_current = I_mv;
        r.unit_current = Iu;
        // The set's loadings are of its kW at the facility's power factor; the transformer
        // is loaded in kVA: the same current ratio times pf_gen/pf.
        r.normal_loading = g.normal_loading * gen.power_factor / pf;
        r.failure_loading = g.failure_loading * gen.power_factor / pf;
        r.count_rule = fmt::format(
            "one per generator, x {}, {:.0f} kW/{:.2f} = {:.0f} kVA; I = S/(sqrt3 V) = {:.1f} A "
            "at {:.1f} kV (sets at {:.1f} kV, site MV {:.1f} kV)",
            g.count, res.generator_unit_rating / 1e3, gen.power_factor, S / 1e3, Iu,
            in.mv_voltage / 1e3, gen.voltage / 1e3, in.mv_voltage / 1e3);
        r.governing_case = governs(r);
        res.rows.push_back(r);
    }
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
    // The model is looked up either way, so a misspelt /power/bess/model is reported; a site
    // without a battery has no BESS row and no bess_energy check.
    const BessSpec bess = lookup("bess", [&] { return catalog.bess(in.bess_model); });
    if (in.site_battery && in.bess_power_fraction > 0) {
        // Power as counted, then energy: usable energy per block E·(SoC_max − SoC_min)·√η_rt
        // (the discharge half of the round trip) against the duty P·t; blocks are added until
        // the blocks left after the covered failure hold it.
        const double P = in.bess_power_fraction * res.it_design;
        const double Iu_b = bess.power / (kSqrt3 * in.mv_voltage * pf);
        addRow("bess", bess.name, bess.power, "W", in.bess_redundancy, "hall", 1, in.mv_voltage,
               P / (kSqrt3 * in.mv_voltage * pf), Iu_b, lfe);
        SizingRow& r = res.rows.back();
        const double usable =
            bess.energy * (bess.max_soc - bess.min_soc) * std::sqrt(bess.round_trip_efficiency);
        const double duty = P * in.bess_duty;
        if (duty > 0) {
            raiseTo(r, in.bess_redundancy, std::max(1, ceilDiv(duty, usable)), Iu_b,
                    fmt::format("the {:.0f} kWh duty", duty / 3.6e6));
        }
        const int online = onlineAfterFailure(in.bess_redundancy, r.count);
        res.checks.push_back(
            {"bess_energy", online * usable / 3.6e6, "kWh", ">=", duty / 3.6e6,
             fmt::format("{} block(s) in service x {:.0f} kWh x ({:.2f} - {:.2f}) x sqrt({:.2f}) "
                         "against {:.0f} kW for {:.0f} min",
                         online, bess.energy / 3.6e6, bess.max_soc, bess.min_soc,
                         bess.round_trip_efficiency, P / 1e3, in.bess_duty / 60)});
    }
    return res;
}

namespace {

/// The feeds (or busways) of several rack models as one conductor set for the chain model
/// (power/chain.h has one conductor spec per stage): the count is the sum; the resistance keeps
/// the design loss Σ n_g·3·I_g²·R_g at the design currents I_g (which scale together with the
/// load); the rating makes the mean current load it as much as the worst set is loaded.
std::pair<ConductorSpec, int> combinedConductor(const SizingResult& sizing,
                                                std::string_view element, std::string_view category,
                                                const Catalog& catalog) {
    std::vector<const SizingRow*> rows;
    for (const auto& r : sizing.rows) {
        if (r.element == element) rows.push_back(&r);
    }
    if (rows.empty()) throw ModelError(fmt::format("sizing has no element '{}'", element));
    // Units carrying load: both paths of 2N, all of N.
    auto sharing = [](const SizingRow& r) { return r.count; };
    if (rows.size() == 1) {
        return {catalog.conductor(category, rows.front()->model), sharing(*rows.front())};
    }
    int n = 0;
    double I_sum = 0, loss = 0, worst = 0;  // per-unit currents: design current over the units
    std::string name;
    for (const SizingRow* r : rows) {
        const ConductorSpec c = catalog.conductor(category, r->model);
        const int units = sharing(*r);
        const double I = r->design_current * r->groups / units;
        n += units;
        I_sum += units * I;
        loss += units * 3 * I * I * c.resistance();
        worst = std::max(worst, I / c.rating);
        name += (name.empty() ? "" : "+") + fmt::format("{}x{}", units, c.name);
    }
    ConductorSpec eq = catalog.conductor(category, rows.front()->model);
    const double I_mean = I_sum / n;
    const double R = loss / (n * 3 * I_mean * I_mean);
    eq.name = name;
    eq.rating = I_mean / worst;
    // resistance() = loss_at_rating·V/(√3·I_r) (catalog.h): solved for loss_at_rating.
    eq.loss_at_rating = R * kSqrt3 * eq.rating / eq.voltage;
    return {eq, n};
}

}  // namespace

ChainDesign chainDesignFromSizing(const SizingResult& sizing, const SizingInput& in,
                                  const Catalog& catalog) {
    auto sharing = [&](const SizingRow& r) {
        // The block-redundant reserve carries nothing in normal operation.
        return r.redundancy == "block" ? r.count - r.groups : r.count;
    };
    ChainDesign d;
    std::tie(d.rack_feed, d.rack_feeds) =
        combinedConductor(sizing, "rack_feed", "rack_feeds", catalog);
    std::tie(d.busway, d.busways) = combinedConductor(sizing, "busway", "busways", catalog);
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
