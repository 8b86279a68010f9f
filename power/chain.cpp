#include "power/chain.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

#include "core/errors.h"

namespace dctwin::power {
namespace {

const double kSqrt3 = std::sqrt(3.0);

}  // namespace

UpsLossCurve UpsLossCurve::fit(const std::vector<std::pair<double, double>>& points) {
    if (points.size() < 3) throw ModelError("UPS loss fit needs at least 3 efficiency points");
    // Normal equations for l(x) = a + b x + c x², with l = x (1/η − 1).
    double A[3][3] = {}, r[3] = {};
    for (const auto& [x, eta] : points) {
        const double l = x * (1.0 / eta - 1.0);
        const double phi[3] = {1.0, x, x * x};
        for (int i = 0; i < 3; ++i) {
            r[i] += phi[i] * l;
            for (int j = 0; j < 3; ++j) A[i][j] += phi[i] * phi[j];
        }
    }
    // Gaussian elimination with partial pivoting (3×3).
    int idx[3] = {0, 1, 2};
    for (int k = 0; k < 3; ++k) {
        int p = k;
        for (int i = k + 1; i < 3; ++i) {
            if (std::abs(A[idx[i]][k]) > std::abs(A[idx[p]][k])) p = i;
        }
        std::swap(idx[k], idx[p]);
        const double piv = A[idx[k]][k];
        if (std::abs(piv) < 1e-14) throw ModelError("UPS loss fit: points are degenerate");
        for (int i = k + 1; i < 3; ++i) {
            const double f = A[idx[i]][k] / piv;
            for (int j = k; j < 3; ++j) A[idx[i]][j] -= f * A[idx[k]][j];
            r[idx[i]] -= f * r[idx[k]];
        }
    }
    double s[3];
    for (int k = 2; k >= 0; --k) {
        double acc = r[idx[k]];
        for (int j = k + 1; j < 3; ++j) acc -= A[idx[k]][j] * s[j];
        s[k] = acc / A[idx[k]][k];
    }
    return UpsLossCurve{s[0], s[1], s[2]};
}

double transformerEfficiency(const TransformerSpec& t, double x, double pf) {
    const double p = x * t.rating * pf;
    return p / (p + t.no_load_loss + x * x * t.load_loss);
}

const ChainElement& ChainResult::element(std::string_view name) const {
    for (const auto& e : elements) {
        if (e.name == name) return e;
    }
    std::vector<std::string> names;
    for (const auto& e : elements) names.push_back(e.name);
    throw ModelError(
        fmt::format("chain has no element '{}'; elements: {}", name, fmt::join(names, ", ")));
}

ChainModel::ChainModel(ChainDesign design) : d_(std::move(design)) {
    const auto check = [](int n, const char* what) {
        if (n < 1) throw ModelError(fmt::format("electrical chain: {} count must be ≥ 1", what));
    };
    check(d_.rack_feeds, "rack feed");
    check(d_.busways, "busway");
    check(d_.ups_units, "UPS");
    check(d_.lv_breakers, "LV breaker");
    check(d_.transformers, "transformer");
    check(d_.mv_feeders, "MV feeder");
    if (!(d_.power_factor > 0.5 && d_.power_factor <= 1.0) ||
        !(d_.mv_power_factor > 0.5 && d_.mv_power_factor <= 1.0)) {
        throw ModelError("electrical chain: power factors must be in (0.5, 1]");
    }
    const double pf = d_.power_factor;
    feed_ = conductors(d_.rack_feed, d_.rack_feeds, pf);
    busway_ = conductors(d_.busway, d_.busways, pf);
    lv_ = conductors(d_.lv_breaker, d_.lv_breakers, pf);
    mv_ = conductors(d_.mv_feeder, d_.mv_feeders, d_.mv_power_factor);
    ups_per_W_ = 1.0 / (d_.ups_units * d_.ups.rating);
    ups_amps_per_W_ = 1.0 / (d_.ups_units * kSqrt3 * d_.ups.voltage * d_.ups.power_factor);
    tr_va_per_W_ = 1.0 / (pf * d_.transformers);
    tr_per_va_ = 1.0 / d_.transformer.rating;
    tr_amps_per_va_ = 1.0 / (kSqrt3 * d_.transformer.secondary_voltage);
    mv_line_amps_per_W_ = 1.0 / (kSqrt3 * d_.mv_feeder.voltage * d_.mv_power_factor);
    dc_ = UpsLossCurve::fit(d_.ups.double_conversion_points);
    eco_ = UpsLossCurve::fit(d_.ups.eco_points);
}

ChainModel::Conductors ChainModel::conductors(const ConductorSpec& c, int n, double pf) {
    return Conductors{n, c.resistance(), 1.0 / (n * kSqrt3 * c.voltage * pf), 1.0 / c.rating};
}

/// One set of conductors (feeds, busways, breakers) sharing `P_out` [W]: I = P/(n·√3·V·pf) per
/// conductor, loss n·3·I²·R.
ChainFlows::StageFlow ChainModel::stage(const Conductors& c, double P_out) {
    ChainFlows::StageFlow e;
    e.output_power = P_out;
    e.current = P_out * c.amps_per_W;
    e.loss = c.n * 3.0 * e.current * e.current * c.R;
    e.input_power = P_out + e.loss;
    e.loading = e.current * c.per_rating;
    return e;
}

ChainFlows ChainModel::flows(double it_power, double cooling_power, double other_power,
                             UpsMode mode, double ups_upstream, double ups_charge,
                             double energised) const {
    if (!(it_power >= 0) || !(cooling_power >= 0) || !(other_power >= 0)) {
        throw ModelError(
            fmt::format("electrical chain: loads must be ≥ 0 W (IT {} W, cooling "
                        "{} W, other {} W)",
                        it_power, cooling_power, other_power));
    }
    ChainFlows r;
    auto& st = r.stage;
    const auto& feed = st[ChainFlows::kRackFeed] = stage(feed_, it_power);
    const auto& bus = st[ChainFlows::kBusway] = stage(busway_, feed.input_power);

    // UPS: its output carries the IT path and the UPS-backed share of cooling.
    const double cooling_ups = d_.cooling_on_ups_fraction * cooling_power;
    auto& ups = st[ChainFlows::kUps];
    ups.output_power = bus.input_power + cooling_ups;
    const double x = ups.output_power * ups_per_W_;
    ups.loss = d_.ups_units * d_.ups.rating * upsCurve(mode).lossFraction(x);
    ups.input_power = ups.output_power + ups.loss;
    ups.current = ups.output_power * ups_amps_per_W_;
    ups.loading = x;

    const double lv_load = std::clamp(ups_upstream, 0.0, 1.0) * ups.input_power +
                           std::max(0.0, ups_charge) + (cooling_power - cooling_ups) + other_power;
    const auto& lv = st[ChainFlows::kLvSwitchgear] = stage(lv_, lv_load);

    auto& tr = st[ChainFlows::kTransformer];
    tr.output_power = lv.input_power;
    const double S_unit = lv.input_power * tr_va_per_W_;  // [VA]
    const double xt = S_unit * tr_per_va_;
    // De-energised (no source on the MV bus): no magnetising (no-load) loss.
    const double e = std::clamp(energised, 0.0, 1.0);
    tr.loss =
        d_.transformers * (e * d_.transformer.no_load_loss + xt * xt * d_.transformer.load_loss);
    tr.input_power = tr.output_power + tr.loss;
    tr.current = S_unit * tr_amps_per_va_;
    tr.loading = xt;

    const auto& mv = st[ChainFlows::kMvFeeder] = stage(mv_, tr.input_power);

    r.facility_power = mv.input_power;
    r.ups_loss = ups.loss;
    r.transformer_loss = tr.loss;
    r.distribution_loss = feed.loss + bus.loss + lv.loss + mv.loss;
    r.total_loss = r.ups_loss + r.transformer_loss + r.distribution_loss;
    r.hall_heat = feed.loss + bus.loss;
    r.electrical_room_heat = ups.loss + lv.loss;
    r.mv_current = mv.input_power * mv_line_amps_per_W_;
    return r;
}

ChainResult ChainModel::evaluate(double it_power, double cooling_power, double other_power,
                                 UpsMode mode, double ups_upstream, double ups_charge,
                                 double energised) const {
    const ChainFlows f =
        flows(it_power, cooling_power, other_power, mode, ups_upstream, ups_charge, energised);
    ChainResult r;
    r.it_power = it_power;
    r.cooling_power = cooling_power;
    r.other_power = other_power;
    auto element = [&](ChainFlows::Stage k, const char* name, const std::string& model, int count,
                       double rating, const char* unit) {
        const ChainFlows::StageFlow& s = f.stage[k];
        ChainElement e;
        e.name = name;
        e.model = model;
        e.count = count;
        e.output_power = s.output_power;
        e.input_power = s.input_power;
        e.loss = s.loss;
        e.current = s.current;
        e.rating = rating;
        e.rating_unit = unit;
        e.loading = s.loading;
        r.elements.push_back(std::move(e));
    };
    element(ChainFlows::kRackFeed, "rack_feed", d_.rack_feed.name, d_.rack_feeds,
            d_.rack_feed.rating, "A");
    element(ChainFlows::kBusway, "busway", d_.busway.name, d_.busways, d_.busway.rating, "A");
    element(ChainFlows::kUps, "ups", d_.ups.name, d_.ups_units, d_.ups.rating, "W");
    element(ChainFlows::kLvSwitchgear, "lv_switchgear", d_.lv_breaker.name, d_.lv_breakers,
            d_.lv_breaker.rating, "A");
    element(ChainFlows::kTransformer, "transformer", d_.transformer.name, d_.transformers,
            d_.transformer.rating, "VA");
    element(ChainFlows::kMvFeeder, "mv_feeder", d_.mv_feeder.name, d_.mv_feeders,
            d_.mv_feeder.rating, "A");
    r.facility_power = f.facility_power;
    r.total_loss = f.total_loss;
    r.ups_loss = f.ups_loss;
    r.transformer_loss = f.transformer_loss;
    r.distribution_loss = f.distribution_loss;
    r.hall_heat = f.hall_heat;
    r.electrical_room_heat = f.electrical_room_heat;
    r.mv_current = f.mv_current;
    return r;
}

// ---------------------------------------------------------------------------------------------
UtilityLossResult analyzeUtilityLoss(const UtilityLossSpec& s) {
    if (s.ups_units < 1 || s.generators < 1 || s.mechanical_blocks < 1 || !(s.walk_in >= 0) ||
        !(s.time_step > 0) || !(s.duration > 0) || !(s.critical_load >= 0) ||
        !(s.mechanical_load >= 0)) {
        throw ModelError("utility-loss analysis: counts must be ≥ 1 and times and loads ≥ 0");
    }
    UtilityLossResult r;
    const double capacity = s.generators * s.generator.rating;
    const double step_limit = s.generator.step_load_limit * capacity;
    // Usable battery energy: the autonomy is quoted at rated UPS output.
    r.battery_energy_initial =
        s.ups_units * s.ups.rating * s.ups.ride_through / s.ups.battery_discharge_efficiency;
    r.generator_online = s.generator.start_delay;

    // Load plan on the generators.
    double gen_load = 0.0;
    const double block = s.mechanical_load / s.mechanical_blocks;
    for (int k = 0; k < s.mechanical_blocks; ++k) {
        LoadStep st;
        st.time = r.generator_online + k * s.block_interval;
        st.what = fmt::format("mechanical block {}/{}", k + 1, s.mechanical_blocks);
        st.step = block;
        st.limit = step_limit;
        gen_load += block;
        st.total = gen_load;
        st.overload = st.step > st.limit || st.total > capacity;
        r.steps.push_back(st);
    }
    const double walk_start = r.generator_online + s.mechanical_blocks * s.block_interval;
    r.transfer_complete = walk_start + s.walk_in;
    {
        LoadStep st;
        st.time = walk_start;
        st.what = fmt::format("UPS walk-in over {} s", s.walk_in);
        // A ramp is judged by what it adds within one second (a step for walk_in < 1 s).
        st.step = s.critical_load * std::min(1.0, s.walk_in > 0 ? 1.0 / s.walk_in : 1.0);
        st.limit = step_limit;
        st.total = gen_load + s.critical_load;
        st.overload = st.step > st.limit || st.total > capacity;
        r.steps.push_back(st);
    }
    for (const auto& st : r.steps) r.overload = r.overload || st.overload;

    auto critical_on_gen = [&](double t) {
        if (t < walk_start) return 0.0;
        if (s.walk_in <= 0 || t >= r.transfer_complete) return s.critical_load;
        return s.critical_load * (t - walk_start) / s.walk_in;
    };
    auto mech_on_gen = [&](double t) {
        double m = 0;
        for (int k = 0; k < s.mechanical_blocks; ++k) {
            if (t >= r.generator_online + k * s.block_interval) m += block;
        }
        return m;
    };

    double E = r.battery_energy_initial;
    r.battery_energy_min = E;
    r.ride_through_ok = true;
    const auto n = static_cast<long>(std::ceil(s.duration / s.time_step));
    for (long i = 0; i <= n; ++i) {
        const double t = std::min(i * s.time_step, s.duration);
        const double from_gen = critical_on_gen(t);
        const double served = E > 0.0 ? s.critical_load : from_gen;
        r.time.push_back(t);
        r.battery_soe.push_back(r.battery_energy_initial > 0 ? E / r.battery_energy_initial : 0);
        r.generator_load.push_back(from_gen + mech_on_gen(t));
        r.served_critical.push_back(served);
        if (i == n) break;
        // Energy drawn over the next step; the walk-in is linear, so the midpoint is exact.
        const double tm = t + 0.5 * s.time_step;
        const double p_bat = s.critical_load - critical_on_gen(tm);
        E -= p_bat * s.time_step / s.ups.battery_discharge_efficiency;
        if (E <= 0.0 && r.battery_empty_at < 0 && p_bat > 0) {
            r.battery_empty_at = t + s.time_step;
            r.ride_through_ok = false;
            E = 0.0;
        }
        r.battery_energy_min = std::min(r.battery_energy_min, E);
    }
    r.battery_soe_min =
        r.battery_energy_initial > 0 ? r.battery_energy_min / r.battery_energy_initial : 0.0;
    return r;
}

}  // namespace dctwin::power
