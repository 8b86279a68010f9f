#include "power/workload.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/errors.h"

namespace dctwin::power {
namespace {

constexpr double kHour = 3600.0, kDay = 86400.0, kWeek = 7 * 86400.0;
constexpr double kForever = 1e12;  // [s] "until the end of any study"

void addIfIn(double t, double t0, double t1, std::vector<double>& out) {
    if (t > t0 && t <= t1) out.push_back(t);
}

/// Breakpoints t = phase + n·step in (a, b).
void gridPoints(double a, double b, double phase, double step, std::vector<double>& out) {
    double n = std::floor((a - phase) / step) + 1.0;
    for (double t = phase + n * step; t < b; t = phase + (++n) * step) {
        if (t > a) out.push_back(t);
    }
}

/// ∫ f over [a, b] split at `cuts`, Simpson on each piece (exact for quadratics).
template <class F>
double simpsonPieces(F&& f, double a, double b, std::vector<double> cuts) {
    cuts.push_back(a);
    cuts.push_back(b);
    std::sort(cuts.begin(), cuts.end());
    double sum = 0.0;
    for (std::size_t i = 0; i + 1 < cuts.size(); ++i) {
        const double x = std::max(a, cuts[i]), y = std::min(b, cuts[i + 1]);
        if (y <= x) continue;
        // Evaluate just inside the piece so one-sided limits are used at jumps.
        const double h = y - x, d = 1e-9 * h;
        sum += h / 6.0 * (f(x + d) + 4.0 * f(0.5 * (x + y)) + f(y - d));
    }
    return sum;
}

double pct(const JsonView& v, std::string_view key, double fallback_pct) {
    const double x = v.number(key, fallback_pct);
    v.requireRange(key, x, 0.0, 100.0);
    return x / 100.0;
}

double hours(const JsonView& v, std::string_view key, double fallback_h, double lo, double hi) {
    const double x = v.number(key, fallback_h);
    v.requireRange(key, x, lo, hi);
    return x * kHour;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Training
double TrainingJob::multiplier(double t) const {
    const double e = start + duration;
    if (t < start) return 0.0;
    if (t < start + start_ramp) return (t - start) / start_ramp;
    if (t < e) return 1.0;
    if (ramp_down && t < e + end_ramp) return 1.0 - (t - e) / end_ramp;
    return 0.0;
}

bool TrainingJob::inCheckpoint(double t) const {
    if (checkpoint_interval <= 0 || checkpoint_duration <= 0 || t < start) return false;
    const double tau = t - start;
    const double k = std::floor(tau / checkpoint_interval);
    if (k < 1) return false;
    if (start + k * checkpoint_interval >= start + duration) return false;
    return tau - k * checkpoint_interval < checkpoint_duration;
}

double TrainingJob::square(double t) const {
    const double phase = std::fmod(t - start, period);
    return phase < compute_fraction * period ? u_compute : u_comm;
}

double TrainingJob::squareIntegral(double a, double b) const {
    const double tc = compute_fraction * period;
    const double per_iter = tc * u_compute + (period - tc) * u_comm;
    auto G = [&](double tau) {
        const double n = std::floor(tau / period);
        const double p = tau - n * period;
        const double part = p < tc ? p * u_compute : tc * u_compute + (p - tc) * u_comm;
        return n * per_iter + part;
    };
    return G(b - start) - G(a - start);
}

double TrainingJob::utilization(double t) const {
    const double m = multiplier(t);
    if (m <= 0.0) return 0.0;
    return m * (inCheckpoint(t) ? u_checkpoint : square(t));
}

double TrainingJob::averagedUtilization(double t) const {
    const double m = multiplier(t);
    if (m <= 0.0) return 0.0;
    return m * (inCheckpoint(t) ? u_checkpoint : meanLevel());
}

double TrainingJob::integral(double t0, double t1) const {
    const double a = std::max(t0, start), b = std::min(t1, end());
    if (b <= a) return 0.0;
    const double e = start + duration;
    std::vector<double> cuts{a, b};
    for (double c : {start + start_ramp, e}) {
        if (c > a && c < b) cuts.push_back(c);
    }
    if (checkpoint_interval > 0 && checkpoint_duration > 0) {
        const double k0 = std::max(1.0, std::floor((a - start) / checkpoint_interval));
        for (double k = k0; start + k * checkpoint_interval < std::min(b, e); ++k) {
            for (double c : {start + k * checkpoint_interval,
                             start + k * checkpoint_interval + checkpoint_duration}) {
                if (c > a && c < b) cuts.push_back(c);
            }
        }
    }
    std::sort(cuts.begin(), cuts.end());
    double sum = 0.0;
    for (std::size_t i = 0; i + 1 < cuts.size(); ++i) {
        const double x = cuts[i], y = cuts[i + 1];
        if (y <= x) continue;
        const double mid = 0.5 * (x + y);
        const bool ckpt = inCheckpoint(mid);
        const bool plateau = mid >= start + start_ramp && mid < e;
        if (plateau) {
            sum += ckpt ? u_checkpoint * (y - x) : squareIntegral(x, y);
            continue;
        }
        // Ramp piece: m is linear here; use its formula at the piece ends (one-sided).
        const bool up = mid < start + start_ramp;
        auto m = [&](double t) { return up ? (t - start) / start_ramp : 1.0 - (t - e) / end_ramp; };
        if (ckpt) {
            sum += u_checkpoint * 0.5 * (m(x) + m(y)) * (y - x);
            continue;
        }
        // Walk the square-wave edges inside the ramp; trapezoid is exact for linear × constant.
        std::vector<double> edges{x, y};
        gridPoints(x, y, start, period, edges);
        gridPoints(x, y, start + compute_fraction * period, period, edges);
        std::sort(edges.begin(), edges.end());
        for (std::size_t j = 0; j + 1 < edges.size(); ++j) {
            const double p = edges[j], q = edges[j + 1];
            if (q <= p) continue;
            sum += square(0.5 * (p + q)) * 0.5 * (m(p) + m(q)) * (q - p);
        }
    }
    return sum;
}

void TrainingJob::discontinuities(double t0, double t1, Resolution r,
                                  std::vector<double>& out) const {
    const double e = start + duration;
    addIfIn(start, t0, t1, out);
    if (start_ramp > 0) addIfIn(start + start_ramp, t0, t1, out);
    addIfIn(e, t0, t1, out);
    if (ramp_down && end_ramp > 0) addIfIn(e + end_ramp, t0, t1, out);
    if (checkpoint_interval > 0 && checkpoint_duration > 0 && t1 > start) {
        const double k0 =
            std::max(1.0, std::floor((t0 - start - checkpoint_duration) / checkpoint_interval));
        for (double k = k0; start + k * checkpoint_interval < std::min(t1, e); ++k) {
            addIfIn(start + k * checkpoint_interval, t0, t1, out);
            addIfIn(start + k * checkpoint_interval + checkpoint_duration, t0, t1, out);
        }
    }
    if (r == Resolution::Resolved) {
        const double a = std::max(t0, start), b = std::min(t1, end());
        if (b > a) {
            std::vector<double> edges;
            gridPoints(a, b + 1e-12, start, period, edges);
            gridPoints(a, b + 1e-12, start + compute_fraction * period, period, edges);
            for (double t : edges) addIfIn(t, t0, t1, out);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Inference
double InferenceService::utilization(double t) const {
    if (t < start || t >= start + duration) return 0.0;
    const double tw = t + week_offset;
    const double hf = std::fmod(tw / kHour, 24.0);
    const int i = static_cast<int>(std::floor(hf)) % 24;
    const double fh = hf - std::floor(hf);
    const double p = hourly[i] + fh * (hourly[(i + 1) % 24] - hourly[i]);
    const auto [lo, hi] = std::minmax_element(hourly.begin(), hourly.end());
    const double trough = 1.0 / peak_to_trough;
    const double s = *hi > *lo ? trough + (1.0 - trough) * (p - *lo) / (*hi - *lo) : 1.0;
    // Weekday factors apply at midday and are interpolated between days (no jump at midnight).
    const double dpos = tw / kDay - 0.5;
    const double fd = dpos - std::floor(dpos);
    const int j = static_cast<int>(((static_cast<long>(std::floor(dpos)) % 7) + 7) % 7);
    const double w = weekday[j] + fd * (weekday[(j + 1) % 7] - weekday[j]);
    return std::clamp(u_peak * s * w, 0.0, 1.0);
}

double InferenceService::integral(double t0, double t1) const {
    const double a = std::max(t0, start), b = std::min(t1, start + duration);
    if (b <= a) return 0.0;
    std::vector<double> cuts;
    gridPoints(a, b, -week_offset, kHour, cuts);
    gridPoints(a, b, -week_offset + 0.5 * kDay, kDay, cuts);
    return simpsonPieces([this](double t) { return utilization(t); }, a, b, std::move(cuts));
}

void InferenceService::discontinuities(double t0, double t1, Resolution,
                                       std::vector<double>& out) const {
    addIfIn(start, t0, t1, out);
    addIfIn(start + duration, t0, t1, out);
}

// ---------------------------------------------------------------------------------------------
// Trace replay
double TraceJob::traceTime(double t) const {
    const double tt = offset + (t - start);
    if (!repeat) return tt;
    // The trace repeats with period span + one step; the last step joins the last sample to
    // the first, so the replay is continuous.
    const double P = trace->span() + trace->nominal_step;
    return tt - P * std::floor(tt / P);
}

double TraceJob::map(double v) const {
    switch (quantity) {
        case Quantity::UtilizationPct:
            return std::clamp(v / 100.0, 0.0, 1.0);
        case Quantity::Utilization:
            return std::clamp(v, 0.0, 1.0);
        case Quantity::Power:
            return std::clamp((v - idle_power) / (max_power - idle_power), 0.0, 1.0);
    }
    return 0.0;
}

double TraceJob::utilization(double t) const {
    if (t < start || t >= start + duration) return 0.0;
    const double tt = traceTime(t);
    if (repeat && tt > trace->span()) {
        const double w = (tt - trace->span()) / trace->nominal_step;
        return map(trace->value.back() + w * (trace->value.front() - trace->value.back()));
    }
    return map(trace->at(tt));
}

double TraceJob::integral(double t0, double t1) const {
    const double a = std::max(t0, start), b = std::min(t1, start + duration);
    if (b <= a) return 0.0;
    // Cut at every sample time (mapped to study time); between samples u is linear unless
    // clamped, so Simpson is exact for traces inside their range.
    std::vector<double> cuts;
    const double P = repeat ? trace->span() + trace->nominal_step : kForever;
    const double base = start - offset;  // study time of trace time 0 in the first period
    const double k0 = std::floor((a - base) / P), k1 = std::floor((b - base) / P);
    for (double k = k0; k <= k1; ++k) {
        const double origin = base + k * P;
        auto lo = std::lower_bound(trace->time.begin(), trace->time.end(), a - origin);
        for (auto it = lo; it != trace->time.end() && origin + *it < b; ++it) {
            cuts.push_back(origin + *it);
        }
        if (repeat) cuts.push_back(origin + P);
    }
    return simpsonPieces([this](double t) { return utilization(t); }, a, b, std::move(cuts));
}

void TraceJob::discontinuities(double t0, double t1, Resolution, std::vector<double>& out) const {
    addIfIn(start, t0, t1, out);
    if (duration < kForever) addIfIn(start + duration, t0, t1, out);
}

// ---------------------------------------------------------------------------------------------
namespace {

const std::vector<double>& defaultHourly() {
    // Placeholder diurnal request shape after domain-facts F2 ("low overnight, sharp morning
    // rise, mid-day dip, afternoon peak, evening decline"); no published curve exists.
    static const std::vector<double> h{0.45, 0.40, 0.37, 0.35, 0.35, 0.38, 0.50, 0.68,
                                       0.85, 0.93, 0.95, 0.92, 0.86, 0.90, 0.97, 1.00,
                                       0.98, 0.93, 0.85, 0.78, 0.70, 0.62, 0.55, 0.50};
    return h;
}

std::vector<double> numbers(const JsonView& v, std::string_view key, std::size_t n, double lo,
                            double hi) {
    const JsonView arr = v.at(key);
    if (!arr.isArray() || arr.size() != n) arr.fail(fmt::format("expected {} numbers", n));
    std::vector<double> out;
    for (const JsonView& e : arr.elements()) {
        const double x = e.asNumber();
        if (!(x >= lo && x <= hi)) e.fail(fmt::format("{} is not between {} and {}", x, lo, hi));
        out.push_back(x);
    }
    return out;
}

std::unique_ptr<Job> parseJob(const JsonView& v, double week_offset,
                              const std::filesystem::path& trace_dir) {
    const std::string type = v.choice("type", {"training", "inference", "trace"});
    const std::vector<std::string> common{"name",  "type",    "tenant",
                                          "racks", "start_h", "duration_h"};
    auto keys = [&](std::vector<std::string> extra) {
        extra.insert(extra.begin(), common.begin(), common.end());
        return extra;
    };
    std::unique_ptr<Job> job;
    if (type == "training") {
        v.checkKeys(keys({"iteration_period_s", "compute_fraction", "compute_util_pct",
                          "comm_util_pct", "checkpoint_interval_h", "checkpoint_duration_s",
                          "checkpoint_util_pct", "start_ramp_s", "end", "end_ramp_s"}));
        auto j = std::make_unique<TrainingJob>();
        j->period = v.number("iteration_period_s");
        v.requireRange("iteration_period_s", j->period, 0.05, 600.0);
        j->compute_fraction = v.number("compute_fraction", 0.5);
        v.requireRange("compute_fraction", j->compute_fraction, 0.0, 1.0);
        j->u_compute = pct(v, "compute_util_pct", 100);
        j->u_comm = pct(v, "comm_util_pct", 40);
        j->checkpoint_interval = hours(v, "checkpoint_interval_h", 0, 0, 1e4);
        j->checkpoint_duration = v.number("checkpoint_duration_s", 0);
        v.requireRange("checkpoint_duration_s", j->checkpoint_duration, 0,
                       j->checkpoint_interval > 0 ? j->checkpoint_interval : 0);
        j->u_checkpoint = pct(v, "checkpoint_util_pct", 0);
        j->start_ramp = v.number("start_ramp_s", 0);
        v.requireRange("start_ramp_s", j->start_ramp, 0, 1e5);
        j->ramp_down = v.choice("end", {"stop", "ramp_down"}, "stop") == "ramp_down";
        j->end_ramp = v.number("end_ramp_s", 0);
        v.requireRange("end_ramp_s", j->end_ramp, 0, 1e5);
        if (j->ramp_down && j->end_ramp <= 0)
            v.fail("end_ramp_s", "\"ramp_down\" needs end_ramp_s > 0");
        job = std::move(j);
    } else if (type == "inference") {
        v.checkKeys(keys({"peak_util_pct", "peak_to_trough", "hourly_profile", "weekday_factors"}));
        auto j = std::make_unique<InferenceService>();
        j->u_peak = pct(v, "peak_util_pct", 90);
        j->peak_to_trough = v.number("peak_to_trough", 2.0);
        v.requireRange("peak_to_trough", j->peak_to_trough, 1.0, 100.0);
        j->hourly =
            v.has("hourly_profile") ? numbers(v, "hourly_profile", 24, 0, 1e9) : defaultHourly();
        // Weekend traffic lower than weekdays: placeholder factors (no published figure).
        j->weekday = v.has("weekday_factors") ? numbers(v, "weekday_factors", 7, 0, 1)
                                              : std::vector<double>{1, 1, 1, 1, 1, 0.85, 0.85};
        j->week_offset = week_offset;
        job = std::move(j);
    } else {
        v.checkKeys(keys({"file", "format", "column", "quantity", "idle_W", "max_W", "time_unit",
                          "offset_h", "max_gap_h", "repeat"}));
        auto j = std::make_unique<TraceJob>();
        std::filesystem::path file = v.string("file");
        if (file.is_relative()) file = trace_dir / file;
        const std::string format = v.choice("format", {"cornell", "csv"});
        TraceOptions opt;
        opt.column = v.string("column", "");
        opt.max_gap = hours(v, "max_gap_h", 48, 0, 1e5);
        const std::string tu = v.choice("time_unit", {"s", "min", "h"}, "s");
        opt.time_unit = tu == "s" ? 1.0 : tu == "min" ? 60.0 : kHour;
        if (format == "cornell" && v.has("time_unit")) {
            v.fail("time_unit", "Cornell traces carry timestamps; time_unit is for CSV");
        }
        try {
            j->trace = std::make_shared<TraceSeries>(
                format == "cornell" ? readCornellTrace(file, opt) : readCsvTrace(file, opt));
        } catch (const InputError& e) {
            v.fail("file", e.what());
        }
        const std::string q =
            v.choice("quantity", {"utilization_pct", "utilization", "power_W"}, "utilization_pct");
        j->quantity = q == "power_W"       ? TraceJob::Quantity::Power
                      : q == "utilization" ? TraceJob::Quantity::Utilization
                                           : TraceJob::Quantity::UtilizationPct;
        if (j->quantity == TraceJob::Quantity::Power) {
            j->idle_power = v.number("idle_W");
            j->max_power = v.number("max_W");
            v.requireRange("idle_W", j->idle_power, 0, 1e5);
            v.requireRange("max_W", j->max_power, 0, 1e5);
            if (!(j->max_power > j->idle_power)) {
                v.fail("max_W", fmt::format("{} W must be above idle_W ({} W)", j->max_power,
                                            j->idle_power));
            }
        } else if (v.has("idle_W") || v.has("max_W")) {
            v.fail("idle_W and max_W apply to \"quantity\": \"power_W\" only");
        }
        j->offset = hours(v, "offset_h", 0, 0, 1e6);
        j->repeat = v.boolean("repeat", true);
        job = std::move(j);
    }
    job->type = type;
    job->name = v.string("name");
    if (job->name.empty()) v.fail("name", "must not be empty");
    job->racks = v.count("racks", 1, 1'000'000);
    job->start = hours(v, "start_h", 0, 0, 1e6);
    const bool open_ended = type != "training";
    if (open_ended && !v.has("duration_h")) {
        job->duration = kForever;
    } else {
        job->duration = hours(v, "duration_h", 0, 1e-6, 1e6);
    }
    return job;
}

}  // namespace

Workload Workload::fromJson(const JsonView& v, int racks, const std::filesystem::path& trace_dir) {
    v.checkKeys({"racks", "tenants", "placement", "start_weekday", "start_hour", "jobs"});
    Workload w;
    w.racks_ = v.count("racks", 1, 10'000'000, racks);
    const std::string placement = v.choice("placement", {"first_fit", "contiguous"}, "first_fit");
    const double weekday = v.count("start_weekday", 0, 6, 0);
    const double hour = v.number("start_hour", 0);
    v.requireRange("start_hour", hour, 0, 24);
    const double week_offset = weekday * kDay + hour * kHour;

    // Tenants: contiguous blocks of racks, sized by largest remainder.
    std::vector<std::string> tenant_names;
    if (const auto t = v.find("tenants")) {
        if (!t->isObject() || t->size() == 0) t->fail("expected {\"tenant\": share, ...}");
        double sum = 0;
        std::vector<double> shares;
        for (const auto& name : t->keys()) {
            const double s = t->number(name);
            t->requireRange(name, s, 0.0, 1.0);
            sum += s;
            tenant_names.push_back(name);
            shares.push_back(s);
        }
        if (sum > 1.0 + 1e-9) t->fail(fmt::format("tenant shares add up to {}, more than 1", sum));
        const int total = static_cast<int>(std::floor(sum * w.racks_ + 1e-9));
        std::vector<int> n(shares.size());
        std::vector<std::pair<double, std::size_t>> rem;
        int given = 0;
        for (std::size_t i = 0; i < shares.size(); ++i) {
            const double exact = shares[i] * w.racks_;
            n[i] = static_cast<int>(std::floor(exact + 1e-9));
            given += n[i];
            rem.emplace_back(exact - n[i], i);
        }
        std::stable_sort(rem.begin(), rem.end(),
                         [](auto& a, auto& b) { return a.first > b.first; });
        for (std::size_t k = 0; given < total && k < rem.size(); ++k, ++given) ++n[rem[k].second];
        int next = 0;
        for (std::size_t i = 0; i < shares.size(); ++i) {
            auto& racks_of = w.tenant_racks_[tenant_names[i]];
            for (int r = 0; r < n[i]; ++r) racks_of.push_back(next++);
        }
    } else {
        auto& all = w.tenant_racks_[""];
        for (int r = 0; r < w.racks_; ++r) all.push_back(r);
    }

    w.rack_jobs_.assign(static_cast<std::size_t>(w.racks_), {});
    std::vector<std::vector<std::pair<double, double>>> busy(static_cast<std::size_t>(w.racks_));
    const JsonView jobs = v.at("jobs");
    if (!jobs.isArray()) jobs.fail("expected an array of jobs");
    for (const JsonView& jv : jobs.elements()) {
        auto job = parseJob(jv, week_offset, trace_dir);
        for (const auto& other : w.jobs_) {
            if (other->name == job->name)
                jv.fail("name", fmt::format("job '{}' is defined twice", job->name));
        }
        if (tenant_names.empty()) {
            if (jv.has("tenant")) jv.fail("tenant", "no \"tenants\" are defined in the workload");
        } else {
            job->tenant = jv.choice("tenant", tenant_names);
        }
        const auto& pool = w.tenant_racks_.at(job->tenant);
        const double s = job->start, e = job->end();
        auto is_free = [&](int r) {
            for (const auto& [b0, b1] : busy[static_cast<std::size_t>(r)]) {
                if (s < b1 && b0 < e) return false;
            }
            return true;
        };
        std::vector<int> chosen;
        int free_count = 0;
        for (int r : pool) free_count += is_free(r);
        if (placement == "first_fit") {
            for (int r : pool) {
                if (static_cast<int>(chosen.size()) == job->racks) break;
                if (is_free(r)) chosen.push_back(r);
            }
        } else {
            for (std::size_t i = 0; i < pool.size(); ++i) {
                chosen.clear();
                for (std::size_t k = i; k < pool.size() && is_free(pool[k]) &&
                                        static_cast<int>(chosen.size()) < job->racks;
                     ++k) {
                    if (!chosen.empty() && pool[k] != chosen.back() + 1) break;
                    chosen.push_back(pool[k]);
                }
                if (static_cast<int>(chosen.size()) == job->racks) break;
            }
        }
        if (static_cast<int>(chosen.size()) < job->racks) {
            const std::string who = job->tenant.empty() ? std::string("the site")
                                                        : fmt::format("tenant '{}'", job->tenant);
            jv.fail(
                "racks",
                fmt::format("job '{}' needs {} {}racks from {:.4g} h to {:.4g} h, but {} has "
                            "{} racks of {} and only {} of them are free then",
                            job->name, job->racks, placement == "contiguous" ? "contiguous " : "",
                            s / kHour, std::min(e, kForever) / kHour, who, pool.size(), w.racks_,
                            free_count));
        }
        const std::size_t idx = w.jobs_.size();
        for (int r : chosen) {
            busy[static_cast<std::size_t>(r)].emplace_back(s, e);
            w.rack_jobs_[static_cast<std::size_t>(r)].push_back(idx);
        }
        w.placement_.push_back(chosen);
        w.jobs_.push_back(std::move(job));
    }
    for (auto& list : w.rack_jobs_) {
        std::sort(list.begin(), list.end(), [&](std::size_t a, std::size_t b) {
            return w.jobs_[a]->start < w.jobs_[b]->start;
        });
    }
    return w;
}

void Workload::checkRack(int rack) const {
    if (rack < 0 || rack >= racks_) {
        throw ModelError(fmt::format("workload: rack {} does not exist (0..{})", rack, racks_ - 1));
    }
}

std::string Workload::tenantOf(int rack) const {
    checkRack(rack);
    for (const auto& [name, racks] : tenant_racks_) {
        if (std::find(racks.begin(), racks.end(), rack) != racks.end()) return name;
    }
    return "";
}

double Workload::utilization(int rack, double t) const {
    checkRack(rack);
    double u = 0;
    for (std::size_t j : rack_jobs_[static_cast<std::size_t>(rack)]) u += jobs_[j]->utilization(t);
    return std::min(u, 1.0);
}

double Workload::averagedUtilization(int rack, double t) const {
    checkRack(rack);
    double u = 0;
    for (std::size_t j : rack_jobs_[static_cast<std::size_t>(rack)]) {
        u += jobs_[j]->averagedUtilization(t);
    }
    return std::min(u, 1.0);
}

double Workload::meanUtilization(int rack, double t0, double t1) const {
    checkRack(rack);
    if (!(t1 > t0)) {
        throw ModelError(fmt::format("meanUtilization: empty interval [{}, {}] s", t0, t1));
    }
    double sum = 0;
    for (std::size_t j : rack_jobs_[static_cast<std::size_t>(rack)])
        sum += jobs_[j]->integral(t0, t1);
    return sum / (t1 - t0);
}

double Workload::windowedUtilization(int rack, double t, double window) const {
    checkRack(rack);
    if (!(window > 0.0)) {
        throw ModelError(fmt::format("windowedUtilization: window {} s must be positive", window));
    }
    double u = 0;
    for (std::size_t j : rack_jobs_[static_cast<std::size_t>(rack)]) {
        double w = window;
        if (const auto* tj = dynamic_cast<const TrainingJob*>(jobs_[j].get())) {
            w = std::max(1.0, std::round(window / tj->period)) * tj->period;
        }
        u += jobs_[j]->integral(t - 0.5 * w, t + 0.5 * w) / w;
    }
    return std::min(u, 1.0);
}

bool Workload::floorActive(int rack, double t) const {
    checkRack(rack);
    for (std::size_t j : rack_jobs_[static_cast<std::size_t>(rack)]) {
        if (jobs_[j]->floorActive(t)) return true;
    }
    return false;
}

void Workload::discontinuities(int rack, double t0, double t1, Resolution r,
                               std::vector<double>& out) const {
    checkRack(rack);
    for (std::size_t j : rack_jobs_[static_cast<std::size_t>(rack)]) {
        jobs_[j]->discontinuities(t0, t1, r, out);
    }
}

std::vector<RackGroup> Workload::rackGroups() const {
    std::vector<RackGroup> groups;
    for (int r = 0; r < racks_; ++r) {
        const auto& jobs = rack_jobs_[static_cast<std::size_t>(r)];
        const std::string tenant = tenantOf(r);
        auto it = std::find_if(groups.begin(), groups.end(), [&](const RackGroup& g) {
            return g.jobs == jobs && g.tenant == tenant;
        });
        if (it == groups.end()) {
            groups.push_back(RackGroup{{r}, jobs, tenant});
        } else {
            it->racks.push_back(r);
        }
    }
    return groups;
}

}  // namespace dctwin::power
