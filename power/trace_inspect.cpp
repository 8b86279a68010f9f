#include "power/trace_inspect.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

#include "power/grid_metrics.h"
#include "power/trace_parse.h"

namespace dctwin::power {
namespace {

using trace_detail::isoUtc;

std::string seconds(double s) {
    if (s >= 2 * 86400) return fmt::format("{:.4g} d", s / 86400);
    if (s >= 2 * 3600) return fmt::format("{:.4g} h", s / 3600);
    return fmt::format("{:.4g} s", s);
}

}  // namespace

Json inspectTrace(const TraceData& data) {
    Json j;
    j["file"] = data.file;
    j["format"] = data.format;
    j["time_column"] = data.time_column;
    j["start_utc"] = data.absolute_time ? Json(isoUtc(data.start_epoch)) : Json(nullptr);
    Json cols = Json::array();
    for (const auto& c : data.columns) {
        cols.push_back({{"name", c.name}, {"unit", c.unit}, {"source_unit", c.source_unit}});
    }
    j["columns"] = cols;
    // The power column if there is one, else the first.
    std::size_t sc = data.columnWithUnit("W");
    if (sc == static_cast<std::size_t>(-1)) sc = 0;
    const std::string unit = data.columns[sc].unit;
    j["statistic_column"] = {{"name", data.columns[sc].name}, {"unit", unit}};
    Json devs = Json::array();
    for (const auto& d : data.devices) {
        // Gaps of the statistic column: a run of N/A readings is a gap, as in a run.
        const TraceSampling s = traceSampling(d, sc);
        double mn = INFINITY, mx = -INFINITY, sum = 0;
        std::size_t n = 0, unread = 0;
        for (double v : d.values[sc]) {
            if (std::isnan(v)) {
                ++unread;
                continue;
            }
            mn = std::min(mn, v);
            mx = std::max(mx, v);
            sum += v;
            ++n;
        }
        double largest = 0, missing = 0;
        for (const auto& g : s.gaps) {
            largest = std::max(largest, g.to - g.from);
            missing += std::round((g.to - g.from) / s.nominal_step) - 1;
        }
        devs.push_back({{"id", d.id},
                        {"samples", d.time.size()},
                        {"span_s", d.time.empty() ? 0.0 : d.time.back() - d.time.front()},
                        {"step_s", s.nominal_step},
                        {"mean_step_s", s.mean_step},
                        {"jitter_s", s.jitter},
                        {"gaps", s.gaps.size()},
                        {"missing_samples", missing},
                        {"largest_gap_s", largest},
                        {"unread_samples", unread},
                        {"min", n ? Json(mn) : Json(nullptr)},
                        {"mean", n ? Json(sum / static_cast<double>(n)) : Json(nullptr)},
                        {"max", n ? Json(mx) : Json(nullptr)}});
    }
    j["devices"] = devs;
    // The sum on a uniform grid (gaps interpolated), for swing, change and spectrum.
    AggregateOptions a;
    a.column = sc;
    a.rule = TraceAggregate::Sum;
    a.max_gap = INFINITY;
    std::size_t longest = 0;
    for (std::size_t k = 0; k < data.devices.size(); ++k) {
        if (data.devices[k].time.size() > data.devices[longest].time.size()) longest = k;
    }
    a.grid_step = traceSampling(data.devices[longest]).nominal_step;
    Json sum_j;
    std::vector<std::string> warnings = data.warnings;
    if (a.grid_step > 0) {
        const TraceSeries s = aggregateTrace(data, a);
        GridMetricsOptions o;
        o.ramp_window = std::max(1.0, s.nominal_step);
        o.band_edges.clear();
        // The spectrum of more than 2^22 samples would need gigabytes; such logs get none.
        o.spectrum = s.value.size() <= (1u << 22);
        const GridMetrics m = gridMetrics(s.value, s.nominal_step, o);
        const auto [lo, hi] = std::minmax_element(s.value.begin(), s.value.end());
        // What the aggregation warns of (devices without readings, long gaps), as a run does.
        for (const auto& w : s.warnings) {
            if (std::find(warnings.begin(), warnings.end(), w) == warnings.end()) {
                warnings.push_back(w);
            }
        }
        sum_j = {
            {"devices", s.devices},
            {"grid_step_s", s.nominal_step},
            {"samples", s.size()},
            {"span_s", s.span()},
            {"min", *lo},
            {"mean", m.mean},
            {"max", *hi},
            {"swing", m.swing},
            {"largest_change", std::max(m.max_ramp_up, m.max_ramp_down) * o.ramp_window},
            {"largest_change_window_s", o.ramp_window},
            {"dominant_period_s", m.dominant_period > 0 ? Json(m.dominant_period) : Json(nullptr)}};
    }
    j["sum"] = sum_j;
    j["warnings"] = warnings;
    return j;
}

std::string inspectionText(const Json& j) {
    std::string out;
    auto line = [&](const char* key, const std::string& value) {
        out += fmt::format("{:<12}{}\n", key, value);
    };
    line("file", j["file"].get<std::string>());
    line("format", j["format"].get<std::string>());
    std::string time = j["time_column"].get<std::string>().empty()
                           ? std::string("no time column (cycles at the stated interval)")
                           : fmt::format("column '{}'", j["time_column"].get<std::string>());
    if (!j["start_utc"].is_null()) time += ", starts " + j["start_utc"].get<std::string>();
    line("time", time);
    std::vector<std::string> cols;
    for (const auto& c : j["columns"]) {
        const std::string u = c["unit"].get<std::string>(),
                          su = c["source_unit"].get<std::string>();
        std::string s = c["name"].get<std::string>();
        if (!u.empty()) s += fmt::format(" [{}{}]", u, !su.empty() && su != u ? " from " + su : "");
        cols.push_back(s);
    }
    line("columns", fmt::format("{}", fmt::join(cols, ", ")));
    const Json& devs = j["devices"];
    std::vector<std::string> ids;
    for (const auto& d : devs) ids.push_back(d["id"].get<std::string>());
    line("devices", fmt::format("{} ({})", devs.size(), fmt::join(ids, ", ")));
    const Json& d0 = devs.at(0);
    line("span",
         fmt::format("{} ({} samples per device{})", seconds(d0["span_s"].get<double>()),
                     d0["samples"].get<std::size_t>(), devs.size() > 1 ? ", device 1" : ""));
    line("sampling", fmt::format("step {:.6g} s, mean {:.6g} s, jitter {:.3g} s (RMS)",
                                 d0["step_s"].get<double>(), d0["mean_step_s"].get<double>(),
                                 d0["jitter_s"].get<double>()));
    std::size_t gaps = 0;
    double missing = 0, largest = 0;
    for (const auto& d : devs) {
        gaps += d["gaps"].get<std::size_t>();
        missing += d["missing_samples"].get<double>();
        largest = std::max(largest, d["largest_gap_s"].get<double>());
    }
    line("gaps", gaps == 0 ? std::string("none")
                           : fmt::format("{} (≈{:.0f} samples missing, largest {})", gaps, missing,
                                         seconds(largest)));
    std::size_t unread = 0;
    std::vector<std::string> unread_ids;
    for (const auto& d : devs) {
        const auto u = d.value("unread_samples", std::size_t{0});
        unread += u;
        if (u > 0) unread_ids.push_back(d["id"].get<std::string>());
    }
    if (unread > 0) {
        line("n/a", fmt::format("{} readings of {} are N/A (device{} {})", unread,
                                j["statistic_column"]["name"].get<std::string>(),
                                unread_ids.size() == 1 ? "" : "s", fmt::join(unread_ids, ", ")));
    }
    const std::string name = j["statistic_column"]["name"].get<std::string>();
    const std::string unit = j["statistic_column"]["unit"].get<std::string>();
    out += unit.empty() ? fmt::format("\n{} (no unit)\n", name)
                        : fmt::format("\n{} [{}]\n", name, unit);
    out += fmt::format("  {:<20} {:>9} {:>12} {:>12} {:>12}\n", "device", "samples", "min", "mean",
                       "max");
    auto num = [](const Json& v) {
        return v.is_null() ? std::string("n/a") : fmt::format("{:.6g}", v.get<double>());
    };
    for (const auto& d : devs) {
        out += fmt::format("  {:<20} {:>9} {:>12} {:>12} {:>12}\n", d["id"].get<std::string>(),
                           d["samples"].get<std::size_t>(), num(d["min"]), num(d["mean"]),
                           num(d["max"]));
    }
    const Json& s = j["sum"];
    if (!s.is_null()) {
        const std::size_t summed = s.value("devices", devs.size());
        out += fmt::format(
            "  {:<20} {:>9} {:>12} {:>12} {:>12}\n",
            summed == devs.size() ? std::string("sum") : fmt::format("sum of {} devices", summed),
            s["samples"].get<std::size_t>(), num(s["min"]), num(s["mean"]), num(s["max"]));
        // One Cornell GPU read 15277 samples and its "sum" 15341 with another mean: the sum is
        // taken on a grid, across the gaps. Say so where the counts differ.
        std::size_t most = 0;
        for (const auto& d : devs) most = std::max(most, d["samples"].get<std::size_t>());
        if (s["samples"].get<std::size_t>() != most) {
            out += fmt::format(
                "  (the sum is taken on a uniform {} grid over the span, gaps filled linearly)\n",
                seconds(s["grid_step_s"].get<double>()));
        }
        out += fmt::format("\nswing (sum, max − min)      {:.6g} {}\n", s["swing"].get<double>(),
                           unit);
        out += fmt::format("largest change over {:<7} {:.6g} {}\n",
                           seconds(s["largest_change_window_s"].get<double>()),
                           s["largest_change"].get<double>(), unit);
        out += fmt::format("dominant period             {}\n",
                           s["dominant_period_s"].is_null()
                               ? std::string("none (constant)")
                               : seconds(s["dominant_period_s"].get<double>()));
    }
    for (const auto& w : j["warnings"]) out += "warning: " + w.get<std::string>() + "\n";
    return out;
}

}  // namespace dctwin::power
