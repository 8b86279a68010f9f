#include "facility/metrics.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <span>
#include <stdexcept>
#include <tuple>

#include "core/display.h"
#include "core/errors.h"
#include "core/units.h"
#include "power/rack.h"
#include "thermal/rainflow.h"

namespace dctwin::facility {
namespace {

using units::kelvinToCelsius;

/// [K] a setpoint missed by less than this counts as held (as in sizing).
constexpr double kSetpointTolerance = 0.05;
/// [W] an air side short by less than this counts as holding the room.
constexpr double kAirUnmetTolerance = 1e3;

double maxOf(std::span<const double> v) { return *std::max_element(v.begin(), v.end()); }

/// max − min after `from` samples.
double swing(std::span<const double> v, std::size_t from) {
    if (from >= v.size()) return 0.0;
    const auto [lo, hi] = std::minmax_element(v.begin() + from, v.end());
    return *hi - *lo;
}

}  // namespace

double peakCalendarPeriod(const ResultSet& rs, std::string_view group, std::string_view total,
                          double start_s, double period_s) {
    const auto& wtot = rs.at(group, total).values;
    double peak = 0.0;
    for (std::size_t i = 0, j0 = 0; i < rs.time.size(); ++i) {
        const double end = (std::floor((start_s + rs.time[j0]) / period_s) + 1) * period_s;
        if (start_s + rs.time[i] >= end - 1e-6 || i + 1 == rs.time.size()) {
            peak = std::max(peak, wtot[i] - wtot[j0]);
            j0 = i;
        }
    }
    return peak;
}

double peakWindow(std::span<const double> time, std::span<const double> total, double window_s) {
    const std::size_t n = time.size();
    if (n < 2 || total.size() != n || !(window_s > 0.0) || time.back() - time.front() < window_s) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    // The running total at t, for t within the samples (linear between them); `k` is a hint
    // that only moves forward, as both window ends do.
    const auto at = [&](double t, std::size_t& k) {
        while (k + 2 < n && time[k + 1] <= t) ++k;
        const double dt = time[k + 1] - time[k];
        const double f = dt > 0.0 ? std::clamp((t - time[k]) / dt, 0.0, 1.0) : 1.0;
        return total[k] + f * (total[k + 1] - total[k]);
    };
    double peak = -std::numeric_limits<double>::infinity();
    std::size_t k_end = 0, k_start = 0;
    // Windows ending at a sample (from the first that has a whole window behind it), then
    // windows starting at a sample (up to the last that has one ahead of it), merged in time
    // order so both hints only move forward.
    std::size_t i = 0, j = 0;
    while (i < n && time[i] - time.front() < window_s) ++i;
    while (i < n || (j < n && time[j] + window_s <= time.back())) {
        const bool by_end =
            j >= n || time[j] + window_s > time.back() || (i < n && time[i] <= time[j] + window_s);
        const double end = by_end ? time[i] : time[j] + window_s;
        const double w_end = by_end ? total[i] : at(end, k_end);
        const double w_start = by_end ? at(end - window_s, k_start) : total[j];
        peak = std::max(peak, w_end - w_start);
        (by_end ? i : j) += 1;
    }
    return peak;
}

namespace {

/// The time [s] during which `v` lies above `threshold`, and the largest sampled excess over
/// it. Samples are output-interval apart: between two of them the value is taken as the line
/// joining them (a crossing placed by interpolation), except across a time in `jumps`, where
/// it is held: the sample before up to the jump, the one after from it on. The plant's miss
/// signals (setpoint_unmet, air_side_unmet) jump when a scenario event takes capacity away and
/// a sample at the event shows the value after it, so the line from the sample before counted
/// nearly a whole output interval before the event as "above" (845 s for a plant lost 840 s
/// before the end at 5 s output).
/// `worst` is the largest sample above the threshold itself (the excess over the setpoint a
/// "not held" line quotes), 0 when none is: it read the excess beyond the 0.05 K tolerance, so
/// "up to 0.0 K" stood beside 324 s above the setpoint in a run whose TCS reached +0.068 K.
struct Excess {
    double seconds = 0.0;
    double worst = 0.0;
};
Excess timeAbove(std::span<const double> time, std::span<const double> v, double threshold,
                 std::span<const double> jumps = {}) {
    Excess e;
    auto jump = jumps.begin();  // sorted: the first jump not before the current interval
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (v[i] > threshold) e.worst = std::max(e.worst, v[i]);
        if (i == 0) continue;
        const double a = v[i - 1] - threshold, b = v[i] - threshold, dt = time[i] - time[i - 1];
        while (jump != jumps.end() && *jump <= time[i - 1]) ++jump;
        if (jump != jumps.end() && *jump <= time[i]) {
            e.seconds += (a > 0.0 ? *jump - time[i - 1] : 0.0) + (b > 0.0 ? time[i] - *jump : 0.0);
        } else if (a > 0.0 && b > 0.0) {
            e.seconds += dt;
        } else if (a > 0.0 || b > 0.0) {
            e.seconds += dt * std::max(a, b) / std::abs(a - b);
        }
    }
    return e;
}

/// [s] The times the study model switches at, sorted: each scenario event's time, and the
/// steps of a utility loss's generator plan (the event log's "plan" rows: fans, air side and
/// pumps back). Times the log found from the samples ("simulated") are not switch times.
/// `hall` ≥ 0: only the cooling events of that hall (a utility loss acts on every hall).
std::vector<double> switchTimes(const ScenarioSpec& sc, const StudyResults& r, int hall = -1) {
    std::vector<double> t;
    for (const EventSpec& e : sc.events) {
        if (hall < 0 || e.hall == hall || std::holds_alternative<UtilityLoss>(e.what)) {
            t.push_back(e.at_s);
        }
    }
    const Table& log = r.event_log;
    const std::vector<double>* at = nullptr;
    const std::vector<std::string>* source = nullptr;
    for (const auto& c : log.columns) {
        if (c.name == "t_s") at = std::get_if<std::vector<double>>(&c.data);
        if (c.name == "source") source = std::get_if<std::vector<std::string>>(&c.data);
    }
    if (at && source) {
        for (std::size_t i = 0; i < at->size() && i < source->size(); ++i) {
            if ((*source)[i] == "plan" && std::isfinite((*at)[i])) t.push_back((*at)[i]);
        }
    }
    std::sort(t.begin(), t.end());
    t.erase(std::unique(t.begin(), t.end()), t.end());
    return t;
}

/// [s] The first event to the first crossing the run saw at its step ends (StepCrossings,
/// an absolute time; NaN: none), not rounded to the output grid.
double afterFirstEvent(const ScenarioSpec& sc, double t) {
    double t_first = sc.events.front().at_s;
    for (const auto& e : sc.events) t_first = std::min(t_first, e.at_s);
    return t - t_first;
}

/// Seconds from the first event until a GPU reaches its throttle temperature (NaN: never).
double firstThrottle(const ScenarioSpec& sc, const StudyResults& r) {
    return r.crossings ? afterFirstEvent(sc, r.crossings->first_throttle) : NAN;
}

/// [s] the windows of the fixed ramp and swing figures, and their labels in metric names.
const std::vector<double> kRampWindows = {0.1, 1.0};
const std::vector<double> kSwingWindows = {1.0, 10.0, 60.0};
std::string windowLabel(double w) {
    std::string s = fmt::format("{:g}", w);
    std::replace(s.begin(), s.end(), '.', 'p');
    return s;
}

/// Grid-side metrics (issue 11, power/grid_metrics.h) of a transient: ramps, band shares and
/// band swings of the rack demand, the IT power after smoothing and the utility draw after
/// the battery, the limits check on the utility draw, and the battery throughput that goes
/// with it. Uses the samples after the first 5 %, like the swings above.
std::vector<Metric> gridSideMetrics(const ScenarioSpec& sc, const ResultSet& rs) {
    std::vector<Metric> m;
    if (sc.study.kind != "transient" && sc.study.kind != "contingency") return m;
    const std::size_t skip = rs.time.size() / 20;
    if (rs.time.size() < skip + 4) return m;
    const double dt =
        (rs.time.back() - rs.time[skip]) / static_cast<double>(rs.time.size() - 1 - skip);
    const GridSpec& g = sc.power.grid;
    power::GridMetrics utility;
    for (const auto& [channel, prefix, what] :
         {std::tuple{"rack_demand", "rack_demand", "rack power before smoothing"},
          std::tuple{"it_power", "it_grid", "IT power after smoothing"},
          std::tuple{"grid_power", "utility", "utility draw after the site battery"}}) {
        const auto& v = rs.at("power", channel).values;
        const std::vector<double> p(v.begin() + static_cast<std::ptrdiff_t>(skip), v.end());
        power::GridMetricsOptions o = g.options;
        // Fixed windows a utility states (issue 18), beside the scenario's own: ramps over
        // 0.1 s and 1 s, swings within 1, 10 and 60 s, and the envelope below the first band
        // (job start, checkpoints, job end without the iteration oscillation).
        o.ramp_windows = kRampWindows;
        o.swing_windows = kSwingWindows;
        o.envelope_cutoff = o.band_edges.empty() ? 0.0 : o.band_edges.front();
        const power::GridMetrics gm = power::gridMetrics(p, dt, o);
        const std::string P = prefix;
        for (const auto& r : gm.ramps) {
            if (r.window < dt * (1 - 1e-6)) continue;  // the output is coarser than the window
            m.push_back({fmt::format("{}_max_ramp_{}s_MW_per_s", P, windowLabel(r.window)),
                         r.value / 1e6, "MW/s",
                         fmt::format("{}: largest change over {:g} s, up or down, per second", what,
                                     r.window)});
        }
        for (const auto& sw : gm.swings) {
            if (sw.window < dt * (1 - 1e-6)) continue;
            m.push_back({fmt::format("{}_swing_{}s_MW", P, windowLabel(sw.window)), sw.value / 1e6,
                         "MW",
                         fmt::format("{}: largest max − min within {:g} s", what, sw.window)});
        }
        if (o.envelope_cutoff > 0) {
            m.push_back({P + "_envelope_swing_MW", gm.envelope_swing / 1e6, "MW",
                         fmt::format("{}: max − min of its component below {:.3g} Hz (job "
                                     "start, checkpoints, job end; not the iterations)",
                                     what, o.envelope_cutoff)});
        }
        m.push_back({P + "_max_ramp_up_MW_per_s", gm.max_ramp_up / 1e6, "MW/s",
                     fmt::format("{}: largest rise over {:.3g} s", what,
                                 std::max(g.options.ramp_window, dt))});
        m.push_back({P + "_max_ramp_down_MW_per_s", gm.max_ramp_down / 1e6, "MW/s",
                     fmt::format("{}: largest fall over {:.3g} s", what,
                                 std::max(g.options.ramp_window, dt))});
        if (g.options.swing_window > 0) {
            m.push_back({P + "_windowed_swing_MW", gm.windowed_swing / 1e6, "MW",
                         fmt::format("{}: largest max − min within {:.4g} s", what,
                                     g.options.swing_window)});
        }
        for (std::size_t b = 0; b < gm.bands.size(); ++b) {
            const auto& band = gm.bands[b];
            // As the ramps and swings above: a band the output cannot see (2 Hz and up in a
            // 1 s record) is not reported; it read "0 % of the variance in 2–0.5 Hz".
            if (!band.resolved) continue;
            m.push_back({fmt::format("{}_band{}_share_pct", P, b), 100 * band.share, "%",
                         fmt::format("{}: share of the variance in {:.3g}–{:.3g} Hz", what, band.lo,
                                     band.hi)});
            m.push_back({fmt::format("{}_band{}_swing_MW", P, b), band.swing / 1e6, "MW",
                         fmt::format("{}: max − min of its {:.3g}–{:.3g} Hz component", what,
                                     band.lo, band.hi)});
        }
        utility = gm;
    }
    if (g.limits.ramp_limit || g.limits.max_swing) {
        const power::GridCheck c = power::checkGridLimits(utility, g.limits);
        std::string desc = "utility draw within the scenario's grid limits (1 pass, 0 fail)";
        for (const auto& f : c.failures) desc += "; " + f;
        m.push_back({"grid_limits_pass", c.pass ? 1.0 : 0.0, "1", desc});
    }
    if (sc.power.bess) {
        // The battery delivers facility − grid power; its throughput is ∫ |that| dt.
        const auto& fac = rs.at("power", "facility_power").values;
        const auto& grid = rs.at("power", "grid_power").values;
        double e = 0;
        for (std::size_t i = 1; i < rs.time.size(); ++i) {
            e += 0.5 * (std::abs(fac[i] - grid[i]) + std::abs(fac[i - 1] - grid[i - 1])) *
                 (rs.time[i] - rs.time[i - 1]);
        }
        m.push_back({"bess_throughput_MWh", e / units::MWh, "MWh",
                     "energy in and out of the site battery, ∫|facility − grid| dt"});
    }
    return m;
}

/// The price and the state of GB300 power smoothing (issue 18), from the channels study.cpp
/// records when the model has smoothing: the demand the GPU-side ramp limit held back (as
/// energy, as a share of the demand, and as GPU-hours of full-speed work: the energy over the
/// shelf-input power one GPU's work adds between idle and full load), and the PSU stores'
/// charge (mean per rack, hours within 5 % of empty or of full: the width of the store's
/// full/empty gates, power/smoothing.h). Trapezoids on the output grid, after the 5 % skip.
std::vector<Metric> smoothingMetrics(const ScenarioSpec& sc, const ResultSet& rs) {
    std::vector<Metric> m;
    const Channel* deferred = rs.find("power", "deferred_power");
    const Channel* stored = rs.find("power", "psu_stored_energy_per_rack");
    if (!deferred || !stored || rs.time.size() < 2) return m;
    const std::size_t skip = rs.time.size() / 20;
    const auto& demand = rs.at("power", "rack_demand").values;
    double E_def = 0, E_dem = 0, E_store = 0, t_empty = 0, t_full = 0;
    double capacity = 0, slope = 0;
    for (const auto& e : sc.it.racks) {
        capacity += e.count * e.rack.gpus * e.rack.storage_per_gpu;
    }
    {
        const auto& r = sc.it.racks.front().rack;
        const power::RackPowerModel rpm(r);
        slope = (rpm.evaluate(1.0).it_power - rpm.evaluate(0.0).it_power) / r.gpus;
    }
    capacity /= sc.it.totalRacks();  // per rack, as the channel
    const double lo = 0.05 * capacity, hi = 0.95 * capacity;
    for (std::size_t i = skip + 1; i < rs.time.size(); ++i) {
        const double dt = rs.time[i] - rs.time[i - 1];
        E_def += 0.5 * (deferred->values[i] + deferred->values[i - 1]) * dt;
        E_dem += 0.5 * (demand[i] + demand[i - 1]) * dt;
        const double s0 = stored->values[i - 1], s1 = stored->values[i];
        E_store += 0.5 * (s0 + s1) * dt;
        if (s0 <= lo && s1 <= lo) t_empty += dt;
        if (s0 >= hi && s1 >= hi) t_full += dt;
    }
    const double span = rs.time.back() - rs.time[skip];
    m.push_back({"smoothing_deferred_energy_MWh", E_def / units::MWh, "MWh",
                 "demand the GPU-side ramp limit held back (the work slows)"});
    m.push_back({"smoothing_deferred_pct", E_dem > 0 ? 100 * E_def / E_dem : 0.0, "%",
                 "the same, share of the rack demand energy"});
    m.push_back({"smoothing_deferred_gpu_h", E_def / slope / 3600.0, "GPU·h",
                 "the same as GPU-hours of full-speed work (energy / one GPU's idle-to-full "
                 "shelf-input power)"});
    m.push_back(
        {"psu_stored_mean_J_per_rack", span > 0 ? E_store / span : 0.0, "J",
         fmt::format("PSU store charge, mean over time, per rack (capacity {:.0f} J)", capacity)});
    m.push_back({"psu_store_empty_h", t_empty / 3600.0, "h",
                 "time the PSU stores are within 5 % of empty (the GPU-side limit holds the "
                 "ramp)"});
    m.push_back({"psu_store_full_h", t_full / 3600.0, "h",
                 "time the PSU stores are within 5 % of full (surplus is burnt)"});
    return m;
}

}  // namespace

double metricValue(const std::vector<Metric>& metrics, std::string_view name) {
    for (const auto& m : metrics) {
        if (m.name == name) return m.value;
    }
    throw std::out_of_range("no metric " + std::string(name));
}

std::string durationText(double hours) {
    return hours >= 1.0 ? fmt::format("{:.1f} h", hours) : fmt::format("{:.0f} s", hours * 3600);
}

std::vector<std::string> hallNames(const std::vector<Metric>& metrics) {
    constexpr std::string_view kPrefix = "hall_", kSuffix = "_it_energy_MWh";
    std::vector<std::string> out;
    for (const Metric& m : metrics) {
        const std::string_view n = m.name;
        if (n.size() > kPrefix.size() + kSuffix.size() && n.starts_with(kPrefix) &&
            n.ends_with(kSuffix)) {
            out.emplace_back(n.substr(kPrefix.size(), n.size() - kPrefix.size() - kSuffix.size()));
        }
    }
    return out;
}

std::vector<std::string> notHeld(const std::vector<Metric>& metrics) {
    const auto value = [&](const std::string& name) {
        for (const auto& m : metrics) {
            if (m.name == name) return m.value;
        }
        return std::numeric_limits<double>::quiet_NaN();
    };
    std::vector<std::string> out;
    // A campus of named halls says which hall fell short: each hall has its own facility loop
    // and CDUs, and "the facility supply" of a two-hall campus is two supplies.
    const std::vector<std::string> halls = hallNames(metrics);
    for (const auto& [loop, what] : {std::pair{"fws", "facility"}, std::pair{"tcs", "TCS"}}) {
        const std::string p = loop;
        if (halls.empty()) {
            if (const double h = value(p + "_hours_above_setpoint_h"); h > 0) {
                out.push_back(fmt::format("{} supply above its setpoint for {} (up to {:.1f} K)",
                                          what, durationText(h), value(p + "_max_excess_K")));
            }
        }
        for (const std::string& hall : halls) {
            const std::string hp = "hall_" + hall + "_" + p;
            if (const double h = value(hp + "_hours_above_setpoint_h"); h > 0) {
                out.push_back(
                    fmt::format("{} supply of hall {} above its setpoint for {} (up to {:.1f} K)",
                                what, hall, durationText(h), value(hp + "_max_excess_K")));
            }
        }
    }
    // A store sized for its hours at the design rate that the study's heaviest use over those
    // hours would empty (a plant wet all year in a hot spell longer than the design day).
    const auto storage = [&](const std::string& p, const std::string& whose) {
        const double need = value(p + "water_storage_window_m3");
        const double have = value(p + "water_storage_m3");
        if (need > have * (1.0 + 1e-9)) {
            out.push_back(fmt::format(
                "make-up water storage{} ({:.0f} m³) short of the study's heaviest use over its "
                "hours ({:.0f} m³)",
                whose, have, need));
        }
    };
    if (halls.empty()) storage("", "");
    for (const std::string& hall : halls) storage("hall_" + hall + "_", " of hall " + hall);
    if (const double h = value("air_side_unmet_hours_h"); h > 0) {
        out.push_back(fmt::format("air side short for {} (up to {:.0f} kW of room heat)",
                                  durationText(h), value("max_air_side_unmet_kW")));
    }
    if (const double h = value("gpu_throttle_hours_h"); h > 0) {
        out.push_back(fmt::format("GPUs at their throttle temperature for {}", durationText(h)));
    }
    // A thermal trip is the worst a cooling failure does to the IT: the racks' GPUs shut down
    // and stay down until reset (power/rack.h). The CDU pump trip's 8 racks tripped 32.5 s after
    // the event, and only the throttle line said anything.
    if (const double n = value("max_racks_tripped"); n >= 0.5) {
        const double first = value("first_trip_after_s");
        out.push_back(fmt::format(
            "{:.0f} rack{} tripped on GPU temperature{} ({:.1f} rack-hours down)", n,
            std::lround(n) == 1 ? "" : "s",
            std::isfinite(first)
                // An instant, to a tenth of a second as the throttle's is: the output interval
                // of a contingency is 0.5 s, and "33 s" read 32.5 s as 33.
                ? fmt::format(", the first {} after the event", first < 3600.0
                                                                    ? fmt::format("{:.1f} s", first)
                                                                    : durationText(first / 3600.0))
                : std::string(),
            value("rack_hours_tripped_h")));
    }
    if (const double pct = value("compute_lost_pct"); pct > 0) {
        out.push_back(fmt::format(
            "compute lost to heat: {} % of the scheduled GPU-hours ({} GPU-hours, {} of them on "
            "tripped racks)",
            display::formatMeasurement(pct), display::formatMeasurement(value("gpu_hours_lost_h")),
            display::formatMeasurement(value("gpu_hours_lost_to_trips_h"))));
    }
    // Outdoor coils whose liquid freezes above the winter design dry bulb: a pump stopped on
    // such a night (a trip, a utility loss) freezes the tubes and splits them. A design
    // exposure, not an outcome of the study: after what the study itself fell short of.
    const double frost = value("heating_design_dry_bulb_C");
    const auto freezing = [&](const std::string& p, const std::string& whose) {
        const double fp = value(p + "fws_freezing_point_C");
        if (fp > frost) {
            out.push_back(fmt::format(
                "facility loop{} freezes at {:.1f} °C, above the site's 99.6 % heating dry bulb "
                "({:.1f} °C): its outdoor coils need a liquid freezing below that "
                "(facility_loop/coolant, or a glycol loop outdoors behind a plate heat "
                "exchanger: heat_rejection/outdoor_loop)",
                whose, fp, frost));
        }
        const double fo = value(p + "outdoor_loop_freezing_point_C");
        if (fo > frost) {
            out.push_back(fmt::format(
                "outdoor loop{} freezes at {:.1f} °C, above the site's 99.6 % heating dry bulb "
                "({:.1f} °C): its coils need a liquid freezing below that "
                "(heat_rejection/outdoor_loop/coolant)",
                whose, fo, frost));
        }
    };
    if (halls.empty()) freezing("", "");
    for (const std::string& hall : halls) freezing("hall_" + hall + "_", " of hall " + hall);
    return out;
}

std::vector<std::string> notHeldInSummary(const Json& summary) {
    std::vector<Metric> metrics;
    if (summary.is_object()) {
        for (const auto& [key, value] : summary.items()) {
            if (value.is_number()) metrics.push_back({key, value.get<double>(), "", ""});
        }
    }
    return notHeld(metrics);
}

/// Named halls: each hall's design figures, "hall_<name>_…".
static std::vector<Metric> hallDesignMetrics(const SiteSizing& z, const DesignPoint& d) {
    std::vector<Metric> m;
    if (z.halls.front().name.empty()) return m;
    for (std::size_t h = 0; h < z.halls.size(); ++h) {
        const HallSizing& hz = z.halls[h];
        const DesignPoint::Hall& dh = d.halls.at(h);
        const std::string p = "hall_" + hz.name + "_";
        // The hall leads: a table cut to its first words still says which hall a row is.
        const std::string lead = "Hall " + hz.name + ": ";
        m.push_back({p + "design_it_power_kW", dh.it_power / 1e3, "kW",
                     lead + "racks (grid side) at full utilization"});
        m.push_back({p + "design_cooling_power_kW", dh.cooling_power / 1e3, "kW",
                     lead + "CDU and facility pumps, heat-rejection fans and trim chiller"});
        m.push_back({p + "design_heat_rejected_kW", dh.heat_rejected / 1e3, "kW",
                     lead + "heat rejection, water side"});
        m.push_back({p + "design_tcs_supply_temp_C", kelvinToCelsius(dh.tcs_supply), "C",
                     lead + "rack-loop supply, warmest CDU"});
        m.push_back({p + "design_fws_supply_temp_C", kelvinToCelsius(dh.fws_supply), "C",
                     lead + "facility supply"});
        m.push_back({p + "design_max_gpu_junction_C", kelvinToCelsius(dh.max_junction), "C",
                     lead + "hottest GPU junction at full utilization"});
        m.push_back({p + "design_water_m3_per_h", dh.water_rate * 3600.0, "m3/h",
                     lead + "make-up and spray water rate at the design point"});
        m.push_back({p + "water_storage_m3", dh.water_rate * 3600.0 * hz.water_storage_hours, "m3",
                     lead + fmt::format("make-up water storage for {:g} h at the design rate",
                                        hz.water_storage_hours)});
        m.push_back({p + "cdus_installed", static_cast<double>(hz.cdus + hz.cdu_spares), "1",
                     lead + "CDUs (running + spares)"});
        m.push_back({p + "heat_rejection_units", static_cast<double>(hz.plant.units), "1",
                     lead + "heat-rejection units"});
        m.push_back({p + "heat_rejection_unit_capacity_kW", hz.unit_capacity_at_design / 1e3, "kW",
                     lead + "one heat-rejection unit at its design weather, full duty"});
        m.push_back({p + "design_reachable_fws_supply_C", kelvinToCelsius(hz.reach.design_supply),
                     "C", lead + "facility supply the installed units hold on the design day"});
        if (hz.coilsOutdoors() && hz.outdoor_loop) {
            m.push_back({p + "outdoor_loop_freezing_point_C", kelvinToCelsius(hz.freezing_point),
                         "C", lead + "freezing point of the outdoor loop's liquid (its coils)"});
        } else if (hz.coilsOutdoors()) {
            m.push_back({p + "fws_freezing_point_C", kelvinToCelsius(hz.freezing_point), "C",
                         lead + "freezing point of the facility loop's liquid (outdoor coils)"});
        }
    }
    return m;
}

std::vector<Metric> designMetrics(const SiteSizing& z, const DesignPoint& d) {
    // Campus figures over the halls: the worst hall's reach, the storage of every hall at its
    // own design rate and hours, the most derated unit (one hall: its own figures).
    HeatRejectionReach reach;
    double storage = 0.0, unit_capacity = std::numeric_limits<double>::infinity();
    // The outdoor coils' liquid that freezes first (halls with dry or adiabatic coolers):
    // the facility loop's, and the outdoor loops' where a plate exchanger isolates them.
    double freezing_point = -std::numeric_limits<double>::infinity();
    double outdoor_freezing_point = -std::numeric_limits<double>::infinity();
    for (std::size_t h = 0; h < z.halls.size(); ++h) {
        const HallSizing& hz = z.halls[h];
        reach.design_supply = std::max(reach.design_supply, hz.reach.design_supply);
        reach.hours_above_setpoint =
            std::max(reach.hours_above_setpoint, hz.reach.hours_above_setpoint);
        reach.worst_excess = std::max(reach.worst_excess, hz.reach.worst_excess);
        storage += d.halls.at(h).water_rate * 3600.0 * hz.water_storage_hours;
        unit_capacity = std::min(unit_capacity, hz.unit_capacity_at_design);
        if (hz.coilsOutdoors()) {
            double& fp = hz.outdoor_loop ? outdoor_freezing_point : freezing_point;
            fp = std::max(fp, hz.freezing_point);
        }
    }
    const double storage_h = z.halls.front().water_storage_hours;
    std::vector<Metric> m = {
        {"design_it_power_kW", d.it_power / 1e3, "kW", "IT power at full utilization"},
        {"design_cooling_power_kW", d.cooling_power / 1e3, "kW",
         "cooling power at the design point"},
        {"design_facility_power_kW", d.facility_power / 1e3, "kW",
         "facility power at the design point"},
        {"design_pue", d.facility_power / d.it_power, "1", "PUE at the design point"},
        {"design_dry_bulb_C", kelvinToCelsius(z.design_weather.dry_bulb), "C",
         "design dry bulb (" + z.design_weather_basis + ")"},
        {"design_wet_bulb_C", kelvinToCelsius(z.design_weather.wet_bulb), "C", "design wet bulb"},
        {"design_tcs_supply_temp_C", kelvinToCelsius(d.tcs_supply), "C",
         "rack-loop supply, warmest CDU"},
        {"design_fws_supply_temp_C", kelvinToCelsius(d.fws_supply), "C", "facility supply"},
        {"design_max_gpu_junction_C", kelvinToCelsius(d.max_junction), "C",
         "hottest GPU junction at full utilization (steady: the peak)"},
        {"design_max_gpu_plate_C", kelvinToCelsius(d.max_plate), "C",
         "hottest cold plate (plate average) at full utilization"},
        {"design_throttle_margin_K", d.throttle_margin, "K",
         "throttle temperature minus hottest GPU junction"},
        {"design_setpoint_unmet_K", d.setpoint_unmet, "K",
         "facility supply above its setpoint (plant short of capacity)"},
        {"design_reachable_fws_supply_C", kelvinToCelsius(reach.design_supply), "C",
         "facility supply the installed units hold on the design day at design heat"},
        {"design_hours_above_fws_setpoint_h", reach.hours_above_setpoint, "h",
         "weather-year hours in which the installed units miss the facility setpoint at "
         "design heat"},
        {"design_worst_fws_excess_K", reach.worst_excess, "K",
         "how far the facility supply rises above its setpoint in the year's hottest hour at "
         "design heat"},
        {"design_heat_rejected_kW", d.heat_rejected / 1e3, "kW", "heat rejection, water side"},
        {"design_water_m3_per_h", d.water_rate * 3600.0, "m3/h",
         "make-up and spray water rate at the design point"},
        {"design_water_m3_per_day", d.water_rate * 86400.0, "m3",
         "make-up and spray water on a design day (24 design hours)"},
        {"water_storage_m3", storage, "m3",
         z.halls.size() == 1
             ? fmt::format("make-up water storage for {:g} h at the design rate", storage_h)
             : std::string("make-up water storage, every hall for its own hours at its design "
                           "rate")},
        {"heat_rejection_unit_capacity_kW", unit_capacity / 1e3, "kW",
         "one heat-rejection unit at the design weather, full duty (derated capacity; a "
         "campus: the most derated hall's)"},
        {"design_steady_drift_K", d.steady_drift, "K",
         "largest temperature change over the last settling hour"},
        {"fabric_power_kW", z.fabricPower() / 1e3, "kW", "fabric outside the racks"},
        {"fabric_switches", static_cast<double>(z.fabric.switches), "1", "fabric switches"},
    };
    if (std::isfinite(freezing_point) || std::isfinite(outdoor_freezing_point)) {
        m.push_back({"heating_design_dry_bulb_C",
                     kelvinToCelsius(z.halls.front().frost_design_dry_bulb), "C",
                     "ASHRAE 99.6 % heating dry bulb: the frost the outdoor coils' liquid must "
                     "take without freezing"});
    }
    if (std::isfinite(outdoor_freezing_point)) {
        m.push_back({"outdoor_loop_freezing_point_C", kelvinToCelsius(outdoor_freezing_point), "C",
                     z.halls.size() == 1 ? "freezing point of the outdoor loop's liquid (in the "
                                           "coils, behind the plate heat exchanger)"
                                         : "freezing point of the outdoor loops' liquid, the "
                                           "highest of the halls that have one"});
    }
    if (std::isfinite(freezing_point)) {
        m.push_back({"fws_freezing_point_C", kelvinToCelsius(freezing_point), "C",
                     z.halls.size() == 1 ? "freezing point of the facility loop's liquid "
                                           "(its dry coolers' coils stand outdoors)"
                                         : "freezing point of the facility loop's liquid, the "
                                           "highest of the halls with outdoor coils"});
    }
    for (Metric& h : hallDesignMetrics(z, d)) m.push_back(std::move(h));
    return m;
}

// ---------------------------------------------------------------------------------------------
// GPU junction temperatures and thermal cycles (issue 19). Kept apart from the other metrics:
// they read the junction channels study.cpp records (cooling/max_gpu_junction_temp,
// mean_gpu_junction_temp, max_gpu_plate_temp, throttle_margin and, for resolved workloads, one
// gpu_junction/<rack group> history per GPU class).

namespace {

/// Range bins of the thermal-cycle histogram [K] and their metric names.
struct CycleBin {
    double lo, hi;
    const char* name;
};
const std::vector<CycleBin>& cycleBins() {
    static const std::vector<CycleBin> bins = {
        {0.5, 2.0, "gpu_cycles_0p5_2K_per_day"},
        {2.0, 5.0, "gpu_cycles_2_5K_per_day"},
        {5.0, 10.0, "gpu_cycles_5_10K_per_day"},
        {10.0, 20.0, "gpu_cycles_10_20K_per_day"},
        {20.0, std::numeric_limits<double>::infinity(), "gpu_cycles_over_20K_per_day"},
    };
    return bins;
}

/// Junction changes below this do not make a cycle [K]: solver and sampling wiggles.
constexpr double kCycleHysteresis = 0.5;

/// Hours in which the hottest GPU junction peak is at or above its throttle temperature: each
/// interval's share at the throttle (study.cpp: from the integrator's step ends, crossings
/// interpolated) times its length, so the figure does not depend on the output grid.
double throttleHours(const ResultSet& rs) {
    const auto& share = rs.at("cooling", "throttle_fraction").values;
    double h = 0.0;
    for (std::size_t i = 1; i < rs.time.size(); ++i) {
        h += share[i] * (rs.time[i] - rs.time[i - 1]) / 3600.0;
    }
    return h;
}

/// Per-GPU thermal cycles of the most-cycled GPU class (rainflow, ASTM E1049), per day.
std::vector<Metric> cycleMetrics(const ResultSet& rs, double duration_s) {
    std::vector<double> edges;
    for (const auto& b : cycleBins()) edges.push_back(b.lo);
    edges.push_back(1e300);
    std::vector<double> worst(cycleBins().size(), 0.0);
    double worst_total = -1.0, max_range = 0.0, max_swing = 0.0;
    for (const Channel& c : rs.channels) {
        if (c.group != "gpu_junction") continue;
        const auto cycles = thermal::rainflowCycles(c.values, kCycleHysteresis);
        const auto bins = thermal::histogram(cycles, edges, false);
        double over2 = 0.0;
        for (std::size_t i = 1; i < bins.size(); ++i) over2 += bins[i];
        if (over2 > worst_total) {
            worst_total = over2;
            worst = bins;
        }
        for (const auto& cy : cycles) max_range = std::max(max_range, cy.range);
        max_swing = std::max(max_swing, swing(c.values, c.values.size() / 20));
    }
    const double per_day = 86400.0 / std::max(duration_s, 1e-9);
    std::vector<Metric> m;
    for (std::size_t i = 0; i < worst.size(); ++i) {
        const CycleBin& b = cycleBins()[i];
        m.push_back({b.name, worst[i] * per_day, "1/d",
                     std::isinf(b.hi) ? fmt::format("GPU junction cycles of range ≥ {:g} K per "
                                                    "day, per GPU of the most-cycled class",
                                                    b.lo)
                                      : fmt::format("GPU junction cycles of range {:g}–{:g} K per "
                                                    "day, per GPU of the most-cycled class",
                                                    b.lo, b.hi)});
    }
    m.push_back({"gpu_cycles_over_2K", std::max(worst_total, 0.0), "1",
                 "GPU junction cycles of range ≥ 2 K in the run (rainflow, ASTM E1049), per GPU "
                 "of the most-cycled class"});
    m.push_back({"gpu_cycles_over_2K_per_day", std::max(worst_total, 0.0) * per_day, "1/d",
                 "the same per day"});
    m.push_back(
        {"max_gpu_cycle_range_K", max_range, "K", "largest GPU junction cycle (peak − valley)"});
    m.push_back({"gpu_junction_swing_K", max_swing, "K",
                 "GPU junction max − min after the first 5 % of the run, largest class"});
    return m;
}

std::vector<Metric> junctionMetrics(const ScenarioSpec& sc, const StudyResults& r) {
    const ResultSet& rs = r.channels;
    // Resolved workloads record each GPU class's junction history (study.cpp).
    const bool resolved = std::any_of(rs.channels.begin(), rs.channels.end(),
                                      [](const Channel& c) { return c.group == "gpu_junction"; });
    const auto& mean = rs.at("cooling", "mean_gpu_junction_temp").values;
    double mean_T = 0.0;
    for (double v : mean) mean_T += v;
    mean_T /= std::max<std::size_t>(mean.size(), 1);
    std::vector<Metric> m = {
        {"max_gpu_junction_C",
         kelvinToCelsius(maxOf(rs.at("cooling", "max_gpu_junction_temp").values)), "C",
         resolved ? "hottest GPU junction sampled (junction peak)"
                  : "hottest expected GPU junction peak: junction at the averaged power plus the "
                    "iteration swing the averaging hides"},
        {"mean_gpu_junction_C", kelvinToCelsius(mean_T), "C",
         resolved ? "GPU junction, mean over GPUs and time"
                  : "GPU junction at the averaged power, mean over GPUs and time"},
        {"max_gpu_plate_C", kelvinToCelsius(maxOf(rs.at("cooling", "max_gpu_plate_temp").values)),
         "C", "hottest cold plate sampled (plate average)"},
        {"gpu_throttle_hours_h", throttleHours(rs), "h",
         "time with the hottest GPU junction peak at or above its throttle temperature"},
    };
    if (resolved) {
        for (Metric& c : cycleMetrics(rs, sc.study.duration_s)) m.push_back(std::move(c));
    }
    return m;
}

// ---------------------------------------------------------------------------------------------
// Compute lost to heat: throttling and thermal trips (issue 10). Reads the sums (ComputeSums)
// and channels recordComputeChannels records.

std::vector<const power::Job*> jobsOf(const ScenarioSpec& sc) {
    std::vector<const power::Job*> v;
    if (sc.workload) {
        for (const auto& j : sc.workload->jobs()) v.push_back(j.get());
    }
    return v;
}

/// GPUs of job j: its racks (the workload's placement) × GPUs of each rack's model.
double jobGpus(const ScenarioSpec& sc, std::size_t j) {
    std::vector<int> gpus_of_rack;
    for (const RackEntry& e : sc.it.racks)
        gpus_of_rack.insert(gpus_of_rack.end(), e.count, e.rack.gpus);
    double n = 0;
    for (int r : sc.workload->racksOf(j)) n += gpus_of_rack.at(static_cast<std::size_t>(r));
    return n;
}

/// Report label of a job (a column of the "jobs" array): its name, '/' replaced.
std::string jobLabel(const std::string& name) {
    std::string l = name;
    std::replace(l.begin(), l.end(), '/', '_');
    return l;
}

/// Share of [t_a, t_b] in which a temperature linear between T_a and T_b lies above T_thr.
double shareAbove(double T_a, double T_b, double T_thr) {
    const bool a = T_a > T_thr, b = T_b > T_thr;
    if (a == b) return a ? 1.0 : 0.0;
    return (a ? T_a - T_thr : T_b - T_thr) / std::abs(T_b - T_a);
}

/// The compute lost to heat integrated over the nodes of a run (the integrator's step ends
/// and the output samples, in time order), from each rack group's junction temperature T and
/// trip latch L (its `tripped` reading). Between two nodes, per group of N GPUs and n racks:
///   tripped    N·(L_a + L_b)/2·Δt,   racks tripped  n·(L_a + L_b)/2·Δt
///   throttled  N·(1 − (L_a + L_b)/2)·s·Δt, s the share of Δt with T above the throttle
///              temperature (T linear between the nodes: a crossing placed where it is)
///   lost       N·((1 − f_a(1 − L_a)) + (1 − f_b(1 − L_b)))/2·Δt, f the clock factor
/// A job takes its groups' shares over the part of Δt inside its window [start, end) (job
/// starts and ends are integration stops, so an interval is inside or outside).
struct ComputeNodes {
    struct Slot {
        const power::RackPower* power;
        double gpus, racks;  // [1] GPUs and racks the group stands for
        double throttle;     // [K] throttle temperature (clock factor 1 at or below it)
    };
    std::vector<Slot> slots;
    std::vector<std::vector<std::size_t>> slots_of_job;
    std::vector<std::pair<double, double>> windows;  // per job: [start, end)
    ComputeSums out;
    std::vector<double> T, L;                 // scratch for a sample's states
    std::vector<std::array<double, 3>> part;  // per slot, this interval: tripped, throttled, lost
    std::vector<double> T_last, L_last;       // per slot, at the last node
    double t_last = NAN;
    /// A node at t with each group's junction T [K] and raw latch state [1].
    void node(double t, std::span<const double> T_now, std::span<const double> L_raw) {
        const std::size_t n = slots.size();
        if (T_last.empty()) {
            T_last.assign(n, 0.0);
            L_last.assign(n, 0.0);
        }
        const bool interval = !std::isnan(t_last) && t > t_last;
        const double dt = interval ? t - t_last : 0.0;
        bool any = false;
        double racks_now = 0.0;
        for (std::size_t i = 0; i < n; ++i) {
            const Slot& s = slots[i];
            const double Tb = T_now[i], Lb = power::RackPower::trippedReading(L_raw[i]);
            racks_now += s.racks * Lb;
            if (interval) {
                const double Ta = T_last[i], La = L_last[i];
                std::array<double, 3>& p = part[i];
                if (La == 0.0 && Lb == 0.0 && Ta <= s.throttle && Tb <= s.throttle) {
                    p = {0.0, 0.0, 0.0};
                } else {
                    const double L_mean = 0.5 * (La + Lb);
                    const double f_a = s.power->model().clockFactor(Ta);
                    const double f_b = s.power->model().clockFactor(Tb);
                    p = {s.gpus * L_mean * dt,
                         s.gpus * (1.0 - L_mean) * shareAbove(Ta, Tb, s.throttle) * dt,
                         s.gpus * 0.5 * ((1.0 - f_a * (1.0 - La)) + (1.0 - f_b * (1.0 - Lb))) * dt};
                    out.gpu_tripped += p[0];
                    out.gpu_throttled += p[1];
                    out.rack_tripped += s.racks * L_mean * dt;
                    any = true;
                }
            }
            T_last[i] = Tb;
            L_last[i] = Lb;
        }
        out.max_racks_tripped = std::max(out.max_racks_tripped, racks_now);
        for (std::size_t j = 0; any && j < windows.size(); ++j) {
            const double inside =
                std::min(windows[j].second, t) - std::max(windows[j].first, t_last);
            if (inside <= 0.0) continue;
            const double w = inside / dt;
            for (std::size_t i : slots_of_job[j]) {
                out.tripped[j] += w * part[i][0];
                out.throttled[j] += w * part[i][1];
                out.lost[j] += w * part[i][2];
            }
        }
        t_last = t;
    }
};

/// Every job's GPU-hours in the study: scheduled from the schedule itself (the job's GPUs ×
/// its time in the study, exact), tripped, throttled and lost from the run's sums over the
/// job's window (NaN for a job with no time in the study).
struct JobHours {
    std::vector<double> gpus, scheduled, tripped, throttled, lost;
};

JobHours jobHours(const ScenarioSpec& sc, const StudyResults& r) {
    JobHours h;
    const ResultSet& rs = r.channels;
    const std::vector<const power::Job*> jobs = jobsOf(sc);
    if (!r.compute || r.compute->lost.size() != jobs.size()) {
        throw ModelError("internal: the study's per-job sums are missing or of another site");
    }
    const ComputeSums& s = *r.compute;
    // One row per job whatever the samples (the table's columns must match its names).
    const double t0 = rs.time.empty() ? 0.0 : rs.time.front();
    const double t1 = rs.time.empty() ? 0.0 : rs.time.back();
    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    for (std::size_t j = 0; j < jobs.size(); ++j) {
        const double start = jobs[j]->start, end = jobs[j]->end();
        const double inside = std::max(0.0, std::min(end, t1) - std::max(start, t0));
        auto hours = [&](const std::vector<double>& sum) {
            return inside > 0.0 ? sum[j] / 3600.0 : kNaN;
        };
        h.gpus.push_back(jobGpus(sc, j));
        h.scheduled.push_back(h.gpus.back() * inside / 3600.0);
        h.tripped.push_back(hours(s.tripped));
        h.throttled.push_back(hours(s.throttled));
        h.lost.push_back(hours(s.lost));
    }
    return h;
}

std::vector<Metric> computeMetrics(const ScenarioSpec& sc, const StudyResults& r) {
    // The jobs' totals are the sums of their own (jobHours): exact scheduled hours; the lost
    // share over the jobs with time in the study.
    const JobHours jh = jobHours(sc, r);
    double scheduled = 0.0, scheduled_seen = 0.0, lost = 0.0, lost_to_trips = 0.0;
    for (std::size_t j = 0; j < jh.scheduled.size(); ++j) {
        scheduled += jh.scheduled[j];
        if (std::isnan(jh.lost[j])) continue;
        scheduled_seen += jh.scheduled[j];
        lost += jh.lost[j];
        lost_to_trips += jh.tripped[j];
    }
    std::vector<Metric> m = {
        {"gpu_hours_tripped_h", r.compute->gpu_tripped / 3600.0, "GPU·h",
         "GPU-hours with the GPU's rack thermally tripped (all GPUs, busy or not)"},
        {"gpu_hours_throttled_h", r.compute->gpu_throttled / 3600.0, "GPU·h",
         "GPU-hours running below full clocks because of the junction temperature"},
        {"rack_hours_tripped_h", r.compute->rack_tripped / 3600.0, "h",
         "rack-hours thermally tripped"},
        {"max_racks_tripped", r.compute->max_racks_tripped, "1", "most racks tripped at once"},
        {"gpu_hours_scheduled_h", scheduled, "GPU·h", "jobs' GPUs × their time in the study"},
        {"gpu_hours_lost_h", lost, "GPU·h",
         "jobs' compute not delivered because of heat (throttle + trip), GPU-hours"},
        {"gpu_hours_lost_to_trips_h", lost_to_trips, "GPU·h", "jobs' GPU-hours on tripped racks"},
        {"compute_lost_pct", scheduled_seen > 0 ? 100.0 * lost / scheduled_seen : NAN, "%",
         "share of the scheduled compute lost to throttling and trips (NaN: no job ran in the "
         "study)"},
    };
    if (!sc.events.empty()) {
        // Half a rack tripped, from the step ends (StepCrossings): read between 60-s samples
        // it was 3.8 s for the pump trip's 32.5 s.
        const double t = r.crossings ? afterFirstEvent(sc, r.crossings->first_trip) : NAN;
        m.push_back({"first_trip_after_s", t, "s",
                     "first event to the first rack thermally tripped (NaN: none)"});
    }
    return m;
}

}  // namespace

/// Utility loss (issue 10): what the run simulated (study.cpp utilityLossLog), seconds after
/// the loss; NaN where it did not happen.
/// Time within the study [0, D] the site's bus had a source [s]: the study less each utility
/// loss's dead-bus window [at, generators online) (facility/plant.h SitePower: the other load
/// is unserved there; "never" when no generator started). Windows are merged, so overlapping
/// losses are not counted twice.
double busEnergisedSeconds(const StudyResults& r, double D) {
    std::vector<std::pair<double, double>> dead;
    for (const auto& e : r.events) {
        if (!e.contains("plan") || !e.contains("at_s") || !e["at_s"].is_number()) continue;
        const Json& on = e["plan"].value("generators_online_at_s", Json());
        const double a = std::clamp(e["at_s"].get<double>(), 0.0, D);
        const double b = std::clamp(on.is_number() ? on.get<double>() : D, 0.0, D);
        if (b > a) dead.emplace_back(a, b);
    }
    std::sort(dead.begin(), dead.end());
    double off = 0.0, end = 0.0;
    for (const auto& [a, b] : dead) {
        off += std::max(0.0, b - std::max(a, end));
        end = std::max(end, b);
    }
    return D - off;
}

std::vector<Metric> utilityLossMetrics(const StudyResults& r) {
    std::vector<Metric> m;
    for (const auto& e : r.events) {
        if (!e.contains("simulated")) continue;
        const Json& s = e["simulated"];
        auto v = [&](const char* k) { return s[k].is_number() ? s[k].get<double>() : NAN; };
        m.push_back({"ups_ride_through_s", v("ups_ride_through_s"), "s",
                     "utility loss: time the UPS carried its bus on battery (until the "
                     "generators took it, or until the battery emptied)"});
        m.push_back({"it_dropped_at_s", v("it_dropped_after_s"), "s",
                     "utility loss: IT load dropped this long after the loss (NaN: never)"});
        m.push_back({"it_load_lost_MWh", v("it_load_lost_MWh"), "MWh",
                     "utility loss: IT energy not served (dropped racks at the pre-loss power)"});
        m.push_back({"ups_battery_soe_min", v("ups_battery_soe_min"), "1",
                     "utility loss: lowest UPS battery state of energy"});
        m.push_back({"fans_back_at_s", v("fans_back_after_s"), "s",
                     "utility loss: heat-rejection fans running again after the loss"});
    }
    return m;
}

std::shared_ptr<const ComputeSums> recordComputeChannels(const SiteModel& m, const ScenarioSpec& sc,
                                                         Recorder& rec) {
    struct Slot {
        std::size_t tripped, clock;
        double gpus, racks;
    };
    std::vector<Slot> slots;
    const std::vector<const power::Job*> jobs = jobsOf(sc);
    std::vector<std::vector<std::size_t>> slots_of_job(jobs.size());
    for (const auto& rs : m.racks()) {
        const RackKind& kind = m.sizing().kinds[rs.kind];
        const double per_rack = sc.it.racks[kind.entry].rack.gpus;
        slots.push_back({m.index(rs.power.out("tripped")), m.index(rs.power.out("clock")),
                         rs.weight * per_rack, rs.weight});
        if (kind.workload_group >= 0) {
            const auto& wg =
                m.sizing().workload_groups[static_cast<std::size_t>(kind.workload_group)];
            for (std::size_t j : wg.jobs) slots_of_job[j].push_back(slots.size() - 1);
        }
    }
    using Y = std::span<const double>;
    // GPU-equivalents of the slots `which` (all when empty) at outputs y.
    auto tripped = [](std::span<const Slot> s, Y y) {
        double v = 0;
        for (const Slot& k : s) v += k.gpus * y[k.tripped];
        return v;
    };
    auto throttled = [](std::span<const Slot> s, Y y) {
        double v = 0;
        for (const Slot& k : s) v += y[k.clock] < 1.0 ? k.gpus * (1.0 - y[k.tripped]) : 0.0;
        return v;
    };
    // Lost to heat only: the clock the throttle leaves on racks that are not tripped. A rack
    // without supply (utility loss, battery empty) delivers nothing either, but that is lost to
    // the power chain (it_load_lost_MWh), not to heat, so `throughput` is not used here.
    auto lost = [](std::span<const Slot> s, Y y) {
        double v = 0;
        for (const Slot& k : s) v += k.gpus * (1.0 - y[k.clock] * (1.0 - y[k.tripped]));
        return v;
    };
    auto gpus = [](std::span<const Slot> s) {
        double v = 0;
        for (const Slot& k : s) v += k.gpus;
        return v;
    };
    std::vector<std::vector<Slot>> job_slots(jobs.size());
    std::vector<std::pair<double, double>> windows;
    for (std::size_t j = 0; j < jobs.size(); ++j) {
        for (std::size_t k : slots_of_job[j]) job_slots[j].push_back(slots[k]);
        windows.emplace_back(jobs[j]->start, jobs[j]->end());
    }
    auto running = [windows](std::size_t j, double t) {
        return t >= windows[j].first && t < windows[j].second;
    };
    rec.addProbe([slots, tripped](double, Y, Y y) { return tripped(slots, y); }, "compute",
                 "gpus_tripped", "1", "GPUs on thermally tripped racks (all racks)");
    rec.addProbe([slots, throttled](double, Y, Y y) { return throttled(slots, y); }, "compute",
                 "gpus_throttled", "1", "GPUs running below full clocks (all racks)");
    rec.addProbe(
        [slots](double, Y, Y y) {
            double v = 0;
            for (const Slot& k : slots) v += k.racks * y[k.tripped];
            return v;
        },
        "compute", "racks_tripped", "1", "racks thermally tripped");
    // Job totals: each job's GPUs while it runs.
    auto over_jobs = [job_slots, running](auto f) {
        return [job_slots, running, f](double t, Y, Y y) {
            double v = 0;
            for (std::size_t j = 0; j < job_slots.size(); ++j) {
                if (running(j, t)) v += f(job_slots[j], y);
            }
            return v;
        };
    };
    auto scheduled = [gpus](std::span<const Slot> s, Y) { return gpus(s); };
    rec.addProbe(over_jobs(scheduled), "compute", "gpus_scheduled", "1", "GPUs of running jobs");
    rec.addProbe(over_jobs(lost), "compute", "gpus_lost", "1",
                 "running jobs' GPU-equivalents of compute lost to heat (throttle + trip)");
    rec.addProbe(over_jobs(tripped), "compute", "gpus_lost_to_trips", "1",
                 "running jobs' GPUs on tripped racks");
    // The GPU-hours (site and per job) integrated over the integrator's step ends and the
    // samples, each read from the racks' junction and latch states: on a 10-minute grid a
    // pump trip's racks throttled for 22 s between two samples and tripped 34 s after the
    // event, which trapezoids of the samples read as no throttled hours and up to half an
    // interval too many (or too few) tripped. Per job a sum is kept as the nodes arrive (a
    // time series per job is not needed for them: at 5,560 jobs a year of four series each is
    // 1.56 GB).
    auto nodes = std::make_shared<ComputeNodes>();
    auto state = [&](const ComponentHandle& c, const char* name) {
        return m.system().stateIndex(c.index(), c.component().stateIndex(name));
    };
    std::vector<std::size_t> watched;
    for (const auto& rs : m.racks()) watched.push_back(state(rs.loop, "junction_temp"));
    for (const auto& rs : m.racks()) watched.push_back(state(rs.power, "trip"));
    for (std::size_t k = 0; k < slots.size(); ++k) {
        const auto& rs = m.racks()[k];
        const auto* power = &static_cast<const power::RackPower&>(rs.power.component());
        nodes->slots.push_back(
            {power, slots[k].gpus, slots[k].racks, power->model().spec().throttle_temp});
    }
    nodes->slots_of_job = slots_of_job;
    nodes->windows = windows;
    nodes->out.tripped.assign(jobs.size(), 0.0);
    nodes->out.throttled.assign(jobs.size(), 0.0);
    nodes->out.lost.assign(jobs.size(), 0.0);
    nodes->T.assign(slots.size(), 0.0);
    nodes->L.assign(slots.size(), 0.0);
    nodes->part.assign(slots.size(), {});
    const std::size_t n = slots.size();
    rec.addStepProbe(
        watched, [nodes, n](double t, Y x) { nodes->node(t, x.subspan(0, n), x.subspan(n, n)); });
    rec.addObserver([nodes, watched, n](double t, double, Y x, Y) {
        for (std::size_t i = 0; i < n; ++i) {
            nodes->T[i] = x[watched[i]];
            nodes->L[i] = x[watched[n + i]];
        }
        nodes->node(t, nodes->T, nodes->L);
    });
    std::shared_ptr<const ComputeSums> out(nodes, &nodes->out);
    // Per job: plain channels jobs/<name>/… (1-D, with units, as every /timeseries dataset)
    // where the study asks for them; by default for sites of up to 64 jobs.
    const bool per_job = sc.study.per_job_channels.value_or(jobs.size() <= kPerJobChannelsUpTo);
    std::vector<Recorder::ProbeChannel> channels;
    for (std::size_t j = 0; j < jobs.size() && per_job; ++j) {
        const std::string g = "jobs/" + jobLabel(jobs[j]->name);
        channels.push_back({g, "gpus_scheduled", "1", "GPUs of the job while it runs"});
        channels.push_back({g, "gpus_tripped", "1", "the job's GPUs on tripped racks"});
        channels.push_back({g, "gpus_throttled", "1", "the job's GPUs below full clocks"});
        channels.push_back(
            {g, "gpus_lost", "1", "the job's GPU-equivalents of compute lost to heat"});
    }
    if (channels.empty()) return out;
    // Per job: each job's slots as one contiguous list, for one pass over every job per sample
    // (a probe per channel was a std::function call and a scattered heap block each: 22,000
    // channels at 5,560 single-rack jobs).
    struct JobSlots {
        std::vector<Slot> slots;       // every job's slots, job by job
        std::vector<std::size_t> end;  // job j's slots end at end[j] (start: end[j - 1])
        std::vector<std::pair<double, double>> windows;
    };
    // f(j, the job's slots, whether it runs at t) for every job in order.
    auto each_job = [](const JobSlots& js, double t, auto&& f) {
        std::size_t begin = 0;
        for (std::size_t j = 0; j < js.end.size(); ++j) {
            const std::span<const Slot> own(js.slots.data() + begin, js.end[j] - begin);
            begin = js.end[j];
            const auto [start, stop] = js.windows[j];
            f(j, own, t >= start && t < stop);
        }
    };
    auto js = std::make_shared<JobSlots>();
    for (std::size_t j = 0; j < jobs.size(); ++j) {
        js->slots.insert(js->slots.end(), job_slots[j].begin(), job_slots[j].end());
        js->end.push_back(js->slots.size());
        js->windows.push_back(windows[j]);
    }
    rec.addProbeSet(
        [js, each_job, scheduled, tripped, throttled, lost](double t, Y, Y y, std::span<double> v) {
            each_job(*js, t, [&](std::size_t j, std::span<const Slot> s, bool on) {
                v[4 * j + 0] = on ? scheduled(s, y) : 0.0;
                v[4 * j + 1] = on ? tripped(s, y) : 0.0;
                v[4 * j + 2] = on ? throttled(s, y) : 0.0;
                v[4 * j + 3] = on ? lost(s, y) : 0.0;
            });
        },
        std::move(channels));
    return out;
}

Table jobComputeTable(const ScenarioSpec& sc, const StudyResults& r) {
    Table t;
    t.path = "study/jobs";
    std::vector<std::string> names;
    for (const power::Job* j : jobsOf(sc)) names.push_back(j->name);
    const JobHours h = jobHours(sc, r);
    std::vector<double> pct;
    for (std::size_t j = 0; j < h.scheduled.size(); ++j) {
        pct.push_back(h.scheduled[j] > 0 ? 100.0 * h.lost[j] / h.scheduled[j] : NAN);
    }
    t.addText("job", names);
    t.addNumbers("gpus", "1", h.gpus);
    // GPU-hours, unit "h" so the names read as the summary's (…_gpu_h). Tripped, throttled,
    // lost and the share are NaN (null) for a job no output sample saw running.
    t.addNumbers("scheduled_gpu_h", "h", h.scheduled);
    t.addNumbers("tripped_gpu_h", "h", h.tripped);
    t.addNumbers("throttled_gpu_h", "h", h.throttled);
    t.addNumbers("lost_gpu_h", "h", h.lost);
    t.addNumbers("compute_lost_pct", "%", pct);
    return t;
}

/// Named halls: each hall's energies, water and temperatures from its meters and channels.
/// The hall's cooling is its liquid side (CDU and facility pumps, heat-rejection fans, trim
/// chiller); the air side, the electrical losses and the fabric are the campus's, so the halls'
/// IT plus the fabric is the campus IT, and the halls' cooling plus the air side the campus
/// cooling.
static std::vector<Metric> hallStudyMetrics(const ScenarioSpec& sc, const StudyResults& r) {
    std::vector<Metric> m;
    if (!sc.namedHalls()) return m;
    const double MWh = units::MWh;
    for (std::size_t h = 0; h < sc.halls.size(); ++h) {
        const HallSpec& hs = sc.halls[h];
        auto meter = [&](std::string_view n) { return r.hallMeter(h, n); };
        const std::vector<double> switches = switchTimes(sc, r, static_cast<int>(h));
        const std::string p = "hall_" + hs.name + "_";
        // The hall leads: a table cut to its first words still says which hall a row is.
        const std::string lead = "Hall " + hs.name + ": ";
        const std::string g = "halls/" + hs.name;
        const double E_it = meter("it_energy");
        const double E_cool = meter("cdu_pump_energy") + meter("fws_pump_energy") +
                              meter("plant_fan_energy") + meter("chiller_energy");
        double water = 0.0;
        for (const char* w : {"evaporation", "drift", "blowdown", "spray"}) water += meter(w);
        const Excess fws = timeAbove(r.channels.time, r.channels.at(g, "setpoint_unmet").values,
                                     kSetpointTolerance, switches);
        m.push_back({p + "it_energy_MWh", E_it / MWh, "MWh", lead + "racks (grid side)"});
        m.push_back({p + "cooling_energy_MWh", E_cool / MWh, "MWh",
                     lead + "CDU and facility pumps, heat-rejection fans, trim chiller"});
        m.push_back({p + "ppue_cooling", (E_it + E_cool) / E_it, "1",
                     lead + "partial PUE of the liquid cooling"});
        m.push_back(
            {p + "cdu_pump_energy_MWh", meter("cdu_pump_energy") / MWh, "MWh", lead + "CDU pumps"});
        m.push_back({p + "fws_pump_energy_MWh", meter("fws_pump_energy") / MWh, "MWh",
                     lead + "facility pumps"});
        m.push_back({p + "heat_rejection_fan_energy_MWh", meter("plant_fan_energy") / MWh, "MWh",
                     lead + "heat-rejection fans"});
        m.push_back({p + "chiller_energy_MWh", meter("chiller_energy") / MWh, "MWh",
                     lead + "trim chillers on the facility water only (the air side's chillers "
                            "are in the campus's air_side_energy_MWh)"});
        m.push_back({p + "heat_rejected_MWh", meter("heat_rejected") / MWh, "MWh",
                     lead + "heat rejected by the plant"});
        m.push_back({p + "water_m3", water, "m3",
                     lead + "tower make-up (evaporation + drift + blowdown) + adiabatic spray"});
        m.push_back({p + "wue_L_per_kWh", water * 1000.0 / (E_it / units::kWh), "L/kWh",
                     lead + "water per IT energy"});
        m.push_back({p + "max_gpu_junction_C",
                     kelvinToCelsius(maxOf(r.channels.at(g, "max_gpu_junction_temp").values)), "C",
                     lead + "hottest GPU junction"});
        m.push_back({p + "max_fws_supply_C",
                     kelvinToCelsius(maxOf(r.channels.at(g, "fws_supply_temp").values)), "C",
                     lead + "warmest facility supply sampled"});
        m.push_back({p + "fws_hours_above_setpoint_h", fws.seconds / 3600.0, "h",
                     lead + "facility supply more than 0.05 K above its setpoint"});
        m.push_back({p + "fws_max_excess_K", fws.worst, "K",
                     lead + "largest facility supply excess over its setpoint sampled"});
        const auto& tcs_max = r.channels.at(g, "tcs_supply_temp_max").values;
        std::vector<double> tcs_excess(tcs_max.begin(), tcs_max.end());
        for (double& v : tcs_excess) v -= hs.cooling.tcs_supply_setpoint;
        const Excess tcs = timeAbove(r.channels.time, tcs_excess, kSetpointTolerance);
        m.push_back({p + "tcs_hours_above_setpoint_h", tcs.seconds / 3600.0, "h",
                     lead + "warmest CDU's TCS supply more than 0.05 K above its setpoint"});
        m.push_back({p + "tcs_max_excess_K", tcs.worst, "K",
                     lead + "largest TCS supply excess over its setpoint sampled"});
        const double hours = hs.cooling.heat_rejection.water_storage_hours;
        const double peak =
            peakWindow(r.channels.time, r.channels.at(g, "water_total").values, hours * 3600.0);
        if (std::isfinite(peak)) {
            m.push_back({p + "water_storage_window_m3", peak, "m3",
                         lead + fmt::format("largest water use in any {:g} h of the study (the "
                                            "hall's make-up storage hours)",
                                            hours)});
        }
    }
    return m;
}

std::vector<Metric> studyMetrics(const ScenarioSpec& sc, const StudyResults& r) {
    const ResultSet& rs = r.channels;
    auto ch = [&](const char* g, const char* n) -> std::span<const double> {
        return rs.at(g, n).values;
    };
    const double MWh = units::MWh;
    const double E_fac = r.meter("facility_energy");
    const double E_it = r.meter("it_energy");
    const double balance = (E_fac - r.meter("heat_out") - (r.stored_end - r.stored_start)) / E_fac;
    double water = 0;
    for (const char* w : {"evaporation", "drift", "blowdown", "spray"}) water += r.meter(w);
    // Skip the first 5 % of a transient: the start-up of the smoothing controller.
    const std::size_t skip = rs.time.size() / 20;
    // The plant's own miss signal is already an excess over the setpoint; the TCS supply is
    // compared with its setpoint. Both against the 0.05 K tolerance that sizing uses.
    const std::vector<double> switches = switchTimes(sc, r);
    const Excess fws =
        timeAbove(rs.time, ch("cooling", "setpoint_unmet"), kSetpointTolerance, switches);
    // Each hall's warmest CDU against its hall's setpoint; the campus counts a time when any
    // hall is above.
    std::vector<double> tcs_excess;
    if (!sc.namedHalls()) {
        for (double v : ch("cooling", "tcs_supply_temp_max")) {
            tcs_excess.push_back(v - sc.halls.front().cooling.tcs_supply_setpoint);
        }
    } else {
        tcs_excess.assign(rs.time.size(), -std::numeric_limits<double>::infinity());
        for (const HallSpec& h : sc.halls) {
            const auto& v = rs.at("halls/" + h.name, "tcs_supply_temp_max").values;
            for (std::size_t i = 0; i < v.size(); ++i) {
                tcs_excess[i] = std::max(tcs_excess[i], v[i] - h.cooling.tcs_supply_setpoint);
            }
        }
    }
    const Excess tcs = timeAbove(rs.time, tcs_excess, kSetpointTolerance);
    const Excess air_unmet =
        timeAbove(rs.time, ch("cooling", "air_side_unmet"), kAirUnmetTolerance, switches);
    std::vector<Metric> m = {
        {"simulated_h", sc.study.duration_s / 3600.0, "h", "study length"},
        {"it_energy_MWh", E_it / MWh, "MWh", "IT energy (racks grid side + fabric)"},
        {"facility_energy_MWh", E_fac / MWh, "MWh",
         "energy drawn at the MV incomer: from the utility, and from the generators while they "
         "carry the site after a utility loss (none while no source feeds it; the UPS "
         "battery's discharge is not in it)"},
        {"pue", E_fac / E_it, "1", "power usage effectiveness"},
        {"ppue_cooling", (E_it + r.meter("cooling_energy")) / E_it, "1", "partial PUE, cooling"},
        {"ppue_power", (E_it + r.meter("loss_energy")) / E_it, "1",
         "partial PUE, electrical losses"},
        {"water_m3", water, "m3",
         "all water used: tower make-up (evaporation + drift + blowdown) + adiabatic spray"},
        {"wue_L_per_kWh", water * 1000.0 / (E_it / units::kWh), "L/kWh",
         "water usage effectiveness"},
        {"water_evaporation_m3", r.meter("evaporation"), "m3",
         "cooling-tower evaporation only (0 without towers); the adiabatic pads' water, which "
         "is evaporated too, is water_spray_m3"},
        {"water_drift_m3", r.meter("drift"), "m3", "cooling-tower drift"},
        {"water_blowdown_m3", r.meter("blowdown"), "m3", "cooling-tower blowdown"},
        {"water_spray_m3", r.meter("spray"), "m3",
         "adiabatic pad/spray water of the dry coolers: the water the pads evaporate into the "
         "air, plus the catalog's bleed/overspray share (spray_overhead, 0 in the shipped "
         "catalog); not in water_evaporation_m3"},
        {"water_peak_day_m3", peakCalendarDay(rs, "water", "water_total", sc.study.start_s), "m3",
         "largest calendar day"},
        {"peak_it_kW", maxOf(ch("power", "it_power")) / 1e3, "kW", "largest IT power sampled"},
        {"peak_facility_kW", maxOf(ch("power", "facility_power")) / 1e3, "kW",
         "largest facility power sampled"},
        {"energy_balance_rel_error", balance, "1",
         "energy balance: (energy in − heat rejected − stored heat change) / energy in"},
        {"cooling_energy_MWh", r.meter("cooling_energy") / MWh, "MWh",
         "cooling: CDU and facility pumps, heat rejection, air side"},
        {"electrical_loss_energy_MWh", r.meter("loss_energy") / MWh, "MWh",
         "electrical chain losses"},
        {"cdu_pump_energy_MWh", r.meter("cdu_pump_energy") / MWh, "MWh", "CDU pumps"},
        {"fws_pump_energy_MWh", r.meter("fws_pump_energy") / MWh, "MWh", "facility pumps"},
        {"heat_rejection_fan_energy_MWh", r.meter("plant_fan_energy") / MWh, "MWh",
         "heat-rejection fans"},
        {"chiller_energy_MWh", r.meter("chiller_energy") / MWh, "MWh",
         "trim chillers on the facility water only (0 without them); the air side's "
         "air-cooled chillers (sizing row air_side_chiller) are in air_side_energy_MWh"},
        {"air_side_energy_MWh", r.meter("air_side_energy") / MWh, "MWh",
         "air side: CRAH fans, the air side's air-cooled chillers (sizing row "
         "air_side_chiller), rear-door fans"},
        {"air_side_unmet_hours_h", air_unmet.seconds / 3600.0, "h",
         "CRAH plant short by more than 1 kW: room heat its fans at rated flow and its "
         "chillers at capacity cannot take (or the air side is off)"},
        {"max_air_side_unmet_kW", std::max(0.0, maxOf(ch("cooling", "air_side_unmet"))) / 1e3, "kW",
         "largest room heat the CRAH plant could not take, sampled"},
        {"air_economizer_hours_h", r.meter("economizer_time") / 3600.0, "h",
         "equivalent full air-side economizer hours: the share of the CRAH load carried by "
         "outdoor air, integrated over time"},
        {"smoothing_burn_energy_MWh", r.meter("burn_energy") / MWh, "MWh",
         "burnt by the power-smoothing floor"},
        {"other_energy_MWh",
         sc.site.other_power * busEnergisedSeconds(r, sc.study.duration_s) / MWh, "MWh",
         "lighting, offices, security (not on the UPS): served while a source feeds the bus, "
         "none from a utility loss until the generators are online"},
        {"peak_ups_loading_pct", 100 * maxOf(ch("power", "ups_loading")), "%",
         "largest UPS unit loading sampled"},
        {"peak_transformer_loading_pct", 100 * maxOf(ch("power", "transformer_loading")), "%",
         "largest transformer loading sampled"},
        {"peak_busway_loading_pct", 100 * maxOf(ch("power", "busway_loading")), "%",
         "largest busway loading sampled"},
        {"fws_hours_above_setpoint_h", fws.seconds / 3600.0, "h",
         "facility supply more than 0.05 K above its setpoint (plant short)"},
        {"fws_max_excess_K", fws.worst, "K",
         "largest facility supply excess over its setpoint sampled (0 while within 0.05 K)"},
        {"tcs_hours_above_setpoint_h", tcs.seconds / 3600.0, "h",
         "warmest CDU's TCS supply more than 0.05 K above its setpoint"},
        {"tcs_max_excess_K", tcs.worst, "K",
         "largest TCS supply excess over its setpoint sampled (0 while within 0.05 K)"},
        {"rack_demand_swing_kW", swing(ch("power", "rack_demand"), skip) / 1e3, "kW",
         "rack power before smoothing, max − min"},
        {"it_grid_swing_kW", swing(ch("power", "it_power"), skip) / 1e3, "kW",
         "IT power after smoothing, max − min"},
        {"utility_swing_kW", swing(ch("power", "grid_power"), skip) / 1e3, "kW",
         "utility draw (after the site battery), max − min"},
    };
    for (Metric& j : junctionMetrics(sc, r)) m.push_back(std::move(j));
    for (auto& g : gridSideMetrics(sc, rs)) m.push_back(std::move(g));
    for (auto& g : smoothingMetrics(sc, rs)) m.push_back(std::move(g));
    for (auto& g : utilityLossMetrics(r)) m.push_back(std::move(g));
    for (auto& g : computeMetrics(sc, r)) m.push_back(std::move(g));
    for (auto& g : hallStudyMetrics(sc, r)) m.push_back(std::move(g));
    // The make-up storage is sized at the design rate for its hours (sizing); what it must
    // carry is the study's heaviest use over those hours, wherever they fall. A campus: each
    // hall against its own store (hallStudyMetrics).
    if (!sc.namedHalls()) {
        const double hours = sc.halls.front().cooling.heat_rejection.water_storage_hours;
        const double peak = peakWindow(rs.time, ch("water", "water_total"), hours * 3600.0);
        if (std::isfinite(peak)) {
            m.push_back({"water_storage_window_m3", peak, "m3",
                         fmt::format("largest water use in any {:g} h of the study (the "
                                     "make-up storage's hours), against water_storage_m3",
                                     hours)});
        }
    }
    if (!sc.events.empty()) {
        m.push_back({"first_throttle_after_s", firstThrottle(sc, r), "s",
                     "first event to the first GPU at its throttle temperature (NaN: none)"});
    }
    return m;
}

Json contingencyReport(const ScenarioSpec& sc, const StudyResults& r) {
    if (sc.events.empty()) return nullptr;
    const ResultSet& rs = r.channels;
    const auto& margin = rs.at("cooling", "throttle_margin").values;
    const double t = firstThrottle(sc, r);
    bool overload = maxOf(rs.at("power", "ups_loading").values) > 1.0 ||
                    maxOf(rs.at("power", "transformer_loading").values) > 1.0;
    for (const auto& e : r.events) overload = overload || e.value("overload", false);
    return {{"events", r.events},
            {"log", r.log},
            {"first_throttle_after_s", std::isnan(t) ? Json(nullptr) : Json(t)},
            {"min_throttle_margin_K", *std::min_element(margin.begin(), margin.end())},
            {"overload", overload}};
}

}  // namespace dctwin::facility
