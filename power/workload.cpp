#include "power/workload.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/data_dir.h"
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

// Percentages and hours as the readers have always scaled them (x / 100.0 and x · 3600.0):
// the same doubles as before the keys were declared.
double pct(const SpecReader& r, std::string_view key) { return r.number(key) / 100.0; }
double hours(const SpecReader& r, std::string_view key) { return r.number(key) * kHour; }

std::shared_ptr<const ObjectSpec> trainingSpec() {
    auto s = std::make_shared<ObjectSpec>(
        "a training job: iterations of compute and communication, checkpoints, ramps");
    s->number("duration_h", "h", 1e-6, 1e6, std::nullopt, "run time, without the end ramp")
        .number("iteration_period_s", "s", 0.05, 600.0, std::nullopt, "iteration period T")
        .number("compute_fraction", "", 0.0, 1.0, 0.5, "compute share τ_c/T of an iteration")
        .number("compute_util_pct", "pct", 0.0, 100.0, 100.0,
                "utilization while computing (% of idle-to-cap)")
        .number("comm_util_pct", "pct", 0.0, 100.0, 40.0,
                "utilization while communicating (% of idle-to-cap)")
        .number("checkpoint_interval_h", "h", 0.0, 1e4, 0.0, "time between checkpoints (0: none)")
        .number("checkpoint_duration_s", "s", 0.0, 1e4 * kHour, 0.0,
                "length of a checkpoint (at most the interval)")
        .number("checkpoint_util_pct", "pct", 0.0, 100.0, 0.0,
                "utilization during a checkpoint (% of idle-to-cap)")
        .number("start_ramp_s", "s", 0.0, 1e5, 0.0, "linear ramp-up at the start")
        .choice("end", {"stop", "ramp_down"}, "stop", "stop at once, or ramp down over end_ramp_s")
        .number("end_ramp_s", "s", 0.0, 1e5, 0.0, "ramp-down length (needed by \"ramp_down\")");
    return s;
}

std::shared_ptr<const ObjectSpec> inferenceSpec() {
    auto s = std::make_shared<ObjectSpec>(
        "an inference service: a diurnal and weekly request shape (domain-facts F2)");
    s->optionalNumber("duration_h", "h", 1e-6, 1e6, "run time (absent: to the end of the study)")
        .number("peak_util_pct", "pct", 0.0, 100.0, 90.0,
                "utilization at the weekly peak (% of idle-to-cap)")
        .number("peak_to_trough", "", 1.0, 100.0, 2.0,
                "ratio of peak to trough utilization (domain-facts F2 placeholder)")
        .numberList("hourly_profile", "", 0.0, 1e9, 24, defaultHourly(),
                    "relative request rate at hours 0..23")
        // Weekend traffic lower than weekdays: placeholder factors (no published figure).
        .numberList("weekday_factors", "", 0.0, 1.0, 7,
                    std::vector<double>{1, 1, 1, 1, 1, 0.85, 0.85},
                    "request factor per weekday, Monday..Sunday");
    return s;
}

std::shared_ptr<const ObjectSpec> traceSpec() {
    auto s = std::make_shared<ObjectSpec>("a replayed utilization or power trace");
    s->optionalNumber("duration_h", "h", 1e-6, 1e6, "run time (absent: to the end of the study)")
        .string("file", std::nullopt, "trace file, relative to the source tree unless absolute")
        .choice("format", {"cornell", "csv"}, std::nullopt, "file format")
        .string("column", "", "Cornell column, or CSV header name (empty: the format's default)")
        .choice("quantity", {"utilization_pct", "utilization", "power_W"}, "utilization_pct",
                "what the column holds")
        .optionalNumber("idle_W", "W", 0.0, 1e5,
                        "GPU power at zero utilization (power_W traces only; required there)")
        .optionalNumber("max_W", "W", 0.0, 1e5,
                        "GPU power at full utilization, above idle_W (power_W traces only; "
                        "required there)")
        .choice("time_unit", {"s", "min", "h"}, "s", "unit of the CSV time column")
        .number("offset_h", "h", 0.0, 1e6, 0.0, "trace time at the job start")
        .number("max_gap_h", "h", 0.0, 1e5, 48.0, "longest gap in the trace that is bridged")
        .boolean("repeat", true, "wrap around at the end of the trace");
    return s;
}

std::shared_ptr<const ObjectSpec> jobSpec() {
    static const std::shared_ptr<const ObjectSpec> spec = [] {
        auto s = std::make_shared<ObjectSpec>("a job on a set of racks");
        s->string("name", std::nullopt, "unique job name")
            .add([] {
                KeySpec k;
                k.key = "tenant";
                k.type = KeyType::String;
                k.description = "tenant whose racks run the job (required when tenants are given)";
                return k;
            }())
            .integer("racks", 1, 1e6, std::nullopt, "racks the job runs on")
            .number("start_h", "h", 0.0, 1e6, 0.0, "start time after the study start");
        s->variants(
            "type",
            {{"training", trainingSpec()}, {"inference", inferenceSpec()}, {"trace", traceSpec()}});
        return s;
    }();
    return spec;
}

std::unique_ptr<Job> parseJob(const SpecReader& r, double week_offset,
                              const std::filesystem::path& trace_dir) {
    const std::string type = r.string("type");
    std::unique_ptr<Job> job;
    if (type == "training") {
        auto j = std::make_unique<TrainingJob>();
        j->period = r.number("iteration_period_s");
        j->compute_fraction = r.number("compute_fraction");
        j->u_compute = pct(r, "compute_util_pct");
        j->u_comm = pct(r, "comm_util_pct");
        j->checkpoint_interval = hours(r, "checkpoint_interval_h");
        j->checkpoint_duration = r.number("checkpoint_duration_s");
        // The upper bound depends on another key, so it is checked here.
        r.view().requireRange("checkpoint_duration_s", j->checkpoint_duration, 0,
                              j->checkpoint_interval > 0 ? j->checkpoint_interval : 0, "s");
        j->u_checkpoint = pct(r, "checkpoint_util_pct");
        j->start_ramp = r.number("start_ramp_s");
        j->ramp_down = r.string("end") == "ramp_down";
        j->end_ramp = r.number("end_ramp_s");
        if (j->ramp_down && j->end_ramp <= 0)
            r.fail("end_ramp_s", "\"ramp_down\" needs end_ramp_s > 0");
        job = std::move(j);
    } else if (type == "inference") {
        auto j = std::make_unique<InferenceService>();
        j->u_peak = pct(r, "peak_util_pct");
        j->peak_to_trough = r.number("peak_to_trough");
        j->hourly = r.numbers("hourly_profile");
        j->weekday = r.numbers("weekday_factors");
        j->week_offset = week_offset;
        job = std::move(j);
    } else {
        auto j = std::make_unique<TraceJob>();
        std::filesystem::path file = r.string("file");
        if (file.is_relative()) file = trace_dir.empty() ? dataFile(file) : trace_dir / file;
        const std::string format = r.string("format");
        TraceOptions opt;
        opt.column = r.string("column");
        opt.max_gap = hours(r, "max_gap_h");
        const std::string tu = r.string("time_unit");
        opt.time_unit = tu == "s" ? 1.0 : tu == "min" ? 60.0 : kHour;
        if (format == "cornell" && r.has("time_unit")) {
            r.fail("time_unit", "Cornell traces carry timestamps; time_unit is for CSV");
        }
        try {
            j->trace = std::make_shared<TraceSeries>(
                format == "cornell" ? readCornellTrace(file, opt) : readCsvTrace(file, opt));
        } catch (const InputError& e) {
            r.fail("file", e.what());
        }
        const std::string q = r.string("quantity");
        j->quantity = q == "power_W"       ? TraceJob::Quantity::Power
                      : q == "utilization" ? TraceJob::Quantity::Utilization
                                           : TraceJob::Quantity::UtilizationPct;
        if (j->quantity == TraceJob::Quantity::Power) {
            j->idle_power = r.number("idle_W");
            j->max_power = r.number("max_W");
            // Above idle: a bound that depends on another key.
            r.view().requireRange("max_W", j->max_power, j->idle_power + 1e-6, 1e5, "W");
        } else if (r.has("idle_W") || r.has("max_W")) {
            r.fail("idle_W and max_W apply to \"quantity\": \"power_W\" only");
        }
        j->offset = hours(r, "offset_h");
        j->repeat = r.boolean("repeat");
        job = std::move(j);
    }
    job->type = type;
    job->name = r.string("name");
    if (job->name.empty()) r.fail("name", "must not be empty");
    job->racks = r.count("racks");
    job->start = hours(r, "start_h");
    // Training has to end; the others run to the end of the study unless told.
    job->duration = r.has("duration_h") ? hours(r, "duration_h") : kForever;
    return job;
}

}  // namespace

std::shared_ptr<const ObjectSpec> workloadSpec() {
    static const std::shared_ptr<const ObjectSpec> spec = [] {
        auto s = std::make_shared<ObjectSpec>("jobs placed on the racks (GPU utilization)");
        s->optionalInteger("racks", 1, 1e7, "rack count (absent: the site's)")
            .numberMap("tenants", "", 0.0, 1.0, false,
                       "tenant name → share of the racks (shares add up to at most 1)")
            .choice("placement", {"first_fit", "contiguous"}, "first_fit",
                    "first free racks of the tenant, or the first contiguous free block")
            .integer("start_weekday", 0, 6, 0, "weekday of the study start (0 = Monday)")
            .number("start_hour", "h", 0.0, 24.0, 0.0, "hour of the day of the study start")
            .array("jobs", jobSpec(), true, "the jobs, each on its own racks");
        return s;
    }();
    return spec;
}

Workload Workload::fromJson(const JsonView& v, int racks, const std::filesystem::path& trace_dir) {
    const SpecReader in(v, *workloadSpec());
    Workload w;
    if (in.has("racks")) {
        w.racks_ = in.count("racks");
    } else {
        w.racks_ = racks;
        v.requireRange("racks", w.racks_, 1, 1e7);  // the caller's count
    }
    const std::string placement = in.string("placement");
    const double weekday = static_cast<double>(in.integer("start_weekday"));
    const double hour = in.number("start_hour");
    const double week_offset = weekday * kDay + hour * kHour;

    // Tenants: contiguous blocks of racks, sized by largest remainder.
    std::vector<std::string> tenant_names;
    if (in.has("tenants")) {
        const JsonView t = v.at("tenants");
        const auto entries = in.numberMap("tenants");
        if (entries.empty()) t.fail("expected {\"tenant\": share, ...}");
        double sum = 0;
        std::vector<double> shares;
        for (const auto& [name, s] : entries) {
            sum += s;
            tenant_names.push_back(name);
            shares.push_back(s);
        }
        if (sum > 1.0 + 1e-9) t.fail(fmt::format("tenant shares add up to {}, more than 1", sum));
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
    for (const SpecReader& jr : in.array("jobs")) {
        const JsonView& jv = jr.view();
        auto job = parseJob(jr, week_offset, trace_dir);
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
