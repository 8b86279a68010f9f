#include "power/workload.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <deque>
#include <limits>
#include <optional>

#include "core/data_dir.h"
#include "core/errors.h"
#include "core/shared_value.h"
#include "power/gpu_catalog.h"
#include "power/job_list.h"

namespace dctwin::power {
namespace {

constexpr double kHour = 3600.0, kDay = 86400.0;
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
double TrainingJob::rampUp() const { return start > 0.0 ? start_ramp : 0.0; }

double TrainingJob::multiplier(double t) const {
    const double e = start + duration;
    if (t < start) return 0.0;
    if (t < start + rampUp()) return (t - start) / start_ramp;
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

double TrainingJob::multiplierIntegral(double a, double b) const {
    a = std::max(a, start);
    b = std::min(b, end());
    if (b <= a) return 0.0;
    // m is linear between its corners: the trapezoid rule on each piece is exact. (At most
    // four cuts: on the stack, as this runs for every rack at every new time.)
    const double e = start + duration;
    std::array<double, 4> cuts{a, b};
    std::size_t n = 2;
    for (double c : {start + rampUp(), e}) {
        if (c > a && c < b) cuts[n++] = c;
    }
    std::sort(cuts.begin(), cuts.begin() + static_cast<std::ptrdiff_t>(n));
    double sum = 0.0;
    for (std::size_t i = 0; i + 1 < n; ++i) {
        const double x = cuts[i], y = cuts[i + 1];
        if (y <= x) continue;
        const double h = y - x, d = 1e-9 * h;  // one-sided values at the corners
        sum += 0.5 * (multiplier(x + d) + multiplier(y - d)) * h;
    }
    return sum;
}

int TrainingJob::lastCycle() const {
    if (checkpoint_interval <= 0 || checkpoint_duration <= 0) return 0;
    // The largest k with k·I < duration: checkpoint k starts before the nominal end.
    return static_cast<int>(std::max(0.0, std::ceil(duration / checkpoint_interval) - 1.0));
}

std::pair<double, double> TrainingJob::cycle(int k) const { return cycle(k, lastCycle()); }

std::pair<double, double> TrainingJob::cycle(int k, int last) const {
    if (last == 0) return {start, end()};
    const double a = k == 0 ? start : start + k * checkpoint_interval;
    const double b = k == last ? end() : start + (k + 1) * checkpoint_interval;
    return {a, b};
}

double TrainingJob::cycleLevel(int k) const { return cycleLevel(k, lastCycle()); }

double TrainingJob::cycleLevel(int k, int last) const {
    const double mean = meanLevel();
    if (k == 0) return mean;  // no checkpoint before the first interval has passed
    const auto [a, b] = cycle(k, last);
    const double c = std::min(a + checkpoint_duration, b);  // end of the dip
    double M = 0.0, dip = 0.0;
    if (a >= start && a >= start + rampUp() && b < start + duration) {
        // A cycle on the plateau (every cycle of a long job but the first and the last): m = 1
        // there, so multiplierIntegral's one trapezoid 0.5·(1 + 1)·h is h exactly and these
        // are its very numbers, without its cuts and sort. This ran for every training rack
        // at every new time: ~4 % of a year of 5,560 distinct racks (issue 12).
        M = b - a;
        dip = c > a ? c - a : 0.0;
    } else {
        M = multiplierIntegral(a, b);
        dip = multiplierIntegral(a, c);
    }
    if (!(M > 0.0)) return mean;
    return mean + (u_checkpoint - mean) * dip / M;
}

double TrainingJob::averagedUtilization(double t) const {
    const double m = multiplier(t);
    if (m <= 0.0) return 0.0;
    const int last = lastCycle();
    if (last == 0) return m * meanLevel();
    const double k = std::floor((t - start) / checkpoint_interval);
    return m * cycleLevel(static_cast<int>(std::clamp(k, 0.0, double(last))), last);
}

double TrainingJob::windowedConstantUntil(double t, double, double, double) const {
    constexpr double inf = std::numeric_limits<double>::infinity();
    if (t < start) return start;  // m = 0, no floor: the same tests hold up to the start
    const double e = start + duration;
    if (t < start + rampUp()) return t;       // ramp: m moves
    if (t >= e) return t >= end() ? inf : t;  // after the end: 0 for ever; ramp down: moves
    // The plateau: m = 1 and the level of cycle k = ⌊(t − start)/I⌋ until the next cycle.
    const int last = lastCycle();
    if (last == 0) return e;
    const double k = std::floor((t - start) / checkpoint_interval);
    if (k >= last) return e;
    // 1 µs short of the next cycle's start: there ⌊·⌋ is k however (t − start)/I rounds, for a
    // study of any length (rounding errs by ~1e-8 s at a year).
    return std::min(e, start + (k + 1.0) * checkpoint_interval - 1e-6);
}

double TrainingJob::integral(double t0, double t1) const {
    const double a = std::max(t0, start), b = std::min(t1, end());
    if (b <= a) return 0.0;
    const double e = start + duration;
    std::vector<double> cuts{a, b};
    for (double c : {start + rampUp(), e}) {
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
        const bool plateau = mid >= start + rampUp() && mid < e;
        if (plateau) {
            sum += ckpt ? u_checkpoint * (y - x) : squareIntegral(x, y);
            continue;
        }
        // Ramp piece: m is linear here; use its formula at the piece ends (one-sided).
        const bool up = mid < start + rampUp();
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
    if (rampUp() > 0) addIfIn(start + rampUp(), t0, t1, out);
    addIfIn(e, t0, t1, out);
    if (ramp_down && end_ramp > 0) addIfIn(e + end_ramp, t0, t1, out);
    if (r == Resolution::Averaged) {
        // The averaged level changes only where a cycle's level differs from the one before:
        // after the first interval (which has no checkpoint), next to the ramps and in the last,
        // partial cycle. Whole cycles on the plateau share one level and need no stop.
        const int K = lastCycle();
        if (K == 0 || t1 <= start) return;
        const int k0 =
            std::max(1, static_cast<int>(std::floor((t0 - start) / checkpoint_interval)));
        const int k1 = std::min(K, static_cast<int>(std::ceil((t1 - start) / checkpoint_interval)));
        double prev = cycleLevel(k0 - 1);
        for (int k = k0; k <= k1; ++k) {
            const double level = cycleLevel(k);
            if (std::abs(level - prev) > 1e-12 * std::max(1.0, std::abs(prev))) {
                addIfIn(cycle(k).first, t0, t1, out);
            }
            prev = level;
        }
        return;
    }
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
InferenceService::InferenceService(double u_peak, double peak_to_trough, std::vector<double> hourly,
                                   std::vector<double> weekday, double week_offset)
    : u_peak_(u_peak),
      peak_to_trough_(peak_to_trough),
      week_offset_(week_offset),
      profile_(shareProfile(std::move(hourly), std::move(weekday))) {}

std::shared_ptr<const InferenceService::Profile> InferenceService::shareProfile(
    std::vector<double> hourly, std::vector<double> weekday) {
    auto finite = [](const std::vector<double>& v) {
        return std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); });
    };
    if (hourly.size() != 24 || weekday.size() != 7 || !finite(hourly) || !finite(weekday)) {
        throw InputError(fmt::format(
            "inference service: {} hourly values and {} weekday factors; expected 24 and 7 "
            "finite numbers",
            hourly.size(), weekday.size()));
    }
    Profile p;
    const auto [lo, hi] = std::minmax_element(hourly.begin(), hourly.end());
    p.lo = *lo;
    p.hi = *hi;
    p.hourly = std::move(hourly);
    p.weekday = std::move(weekday);
    return sharedValue(std::move(p));
}

double InferenceService::utilization(double t) const {
    if (t < start || t >= start + duration) return 0.0;
    const double tw = t + week_offset_;
    const double hf = std::fmod(tw / kHour, 24.0);
    const int i = static_cast<int>(std::floor(hf)) % 24;
    const double fh = hf - std::floor(hf);
    const Profile& profile = *profile_;
    const std::vector<double>& hourly = profile.hourly;
    const double p = hourly[i] + fh * (hourly[(i + 1) % 24] - hourly[i]);
    const double lo = profile.lo, hi = profile.hi;
    const double trough = 1.0 / peak_to_trough_;
    const double s = hi > lo ? trough + (1.0 - trough) * (p - lo) / (hi - lo) : 1.0;
    // Weekday factors apply at midday and are interpolated between days (no jump at midnight).
    const double dpos = tw / kDay - 0.5;
    const double fd = dpos - std::floor(dpos);
    const int j = static_cast<int>(((static_cast<long>(std::floor(dpos)) % 7) + 7) % 7);
    const std::vector<double>& weekday = profile.weekday;
    const double w = weekday[j] + fd * (weekday[(j + 1) % 7] - weekday[j]);
    return std::clamp(u_peak_ * s * w, 0.0, 1.0);
}

double InferenceService::windowedConstantUntil(double t, double, double, double) const {
    if (t < start) return start;
    if (t >= start + duration) return std::numeric_limits<double>::infinity();
    return t;
}

double InferenceService::integral(double t0, double t1) const {
    const double a = std::max(t0, start), b = std::min(t1, start + duration);
    if (b <= a) return 0.0;
    std::vector<double> cuts;
    gridPoints(a, b, -week_offset_, kHour, cuts);
    gridPoints(a, b, -week_offset_ + 0.5 * kDay, kDay, cuts);
    return simpsonPieces([this](double t) { return utilization(t); }, a, b, std::move(cuts));
}

void InferenceService::discontinuities(double t0, double t1, Resolution,
                                       std::vector<double>& out) const {
    addIfIn(start, t0, t1, out);
    addIfIn(start + duration, t0, t1, out);
}

// ---------------------------------------------------------------------------------------------
// Trace replay
double TraceJob::traceTime(double t, double shift) const {
    const double tt = offset + shift + (t - start);
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

double TraceJob::shiftedUtilization(double t, double shift) const {
    if (t < start || t >= start + duration) return 0.0;
    const double tt = traceTime(t, shift);
    if (repeat && tt > trace->span()) {
        const double w = (tt - trace->span()) / trace->nominal_step;
        return map(trace->value.back() + w * (trace->value.front() - trace->value.back()));
    }
    return map(trace->at(tt));
}

double TraceJob::shiftedIntegral(double t0, double t1, double shift) const {
    const double a = std::max(t0, start), b = std::min(t1, start + duration);
    if (b <= a) return 0.0;
    // Cut at every sample time (mapped to study time); between samples u is linear unless
    // clamped, so Simpson is exact for traces inside their range.
    std::vector<double> cuts;
    const double P = repeat ? trace->span() + trace->nominal_step : kForever;
    const double base = start - offset - shift;  // study time of trace time 0, first period
    const double k0 = std::floor((a - base) / P), k1 = std::floor((b - base) / P);
    for (double k = k0; k <= k1; ++k) {
        const double origin = base + k * P;
        auto lo = std::lower_bound(trace->time.begin(), trace->time.end(), a - origin);
        for (auto it = lo; it != trace->time.end() && origin + *it < b; ++it) {
            cuts.push_back(origin + *it);
        }
        if (repeat) cuts.push_back(origin + P);
    }
    return simpsonPieces([this, shift](double t) { return shiftedUtilization(t, shift); }, a, b,
                         std::move(cuts));
}

double TraceJob::shiftedWindowed(double t, double window, double shift, double horizon) const {
    const double e = start + duration;
    if (t < start || t >= e) return 0.0;
    // The window stays inside the job and the study: one-sided at a start or an end, so an
    // edge stays an edge instead of averaging in the zeros outside.
    const double lo = std::max({t - 0.5 * window, start, 0.0});
    const double hi = std::min({t + 0.5 * window, e, horizon});
    if (!(hi > lo)) return shiftedUtilization(t, shift);
    return shiftedIntegral(lo, hi, shift) / (hi - lo);
}

std::vector<double> TraceJob::rackShifts(int n) const {
    std::vector<double> d(static_cast<std::size_t>(n), 0.0);
    std::uint64_t state = seed;
    for (int r = 0; r < n; ++r) {
        switch (desync) {
            case Desync::Lockstep:
                break;
            case Desync::Step:
                d[r] = r * desync_window;
                break;
            case Desync::Spread:
                d[r] = r * desync_window / n;
                break;
            case Desync::Random: {
                // splitmix64: the same offsets on every platform (std distributions are not).
                std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
                z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
                z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
                z ^= z >> 31;
                d[r] = static_cast<double>(z >> 11) * 0x1.0p-53 * desync_window;
                break;
            }
            case Desync::Fixed:
                d[r] = fixed_offsets[static_cast<std::size_t>(r)];
                break;
        }
    }
    return d;
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
        .number("start_ramp_s", "s", 0.0, 1e5, 0.0,
                "linear ramp-up at the start (none for a job starting at the study start: it is "
                "running when the study opens)")
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
                "ratio of peak to trough utilization; the default 2 is an assumption (no "
                "published figure, domain-facts F2): state your service's own")
        .numberList("hourly_profile", "", 0.0, 1e9, 24, defaultHourly(),
                    "relative request rate at hours 0..23: its shape, scaled between the "
                    "trough and the peak (a flat profile runs at the peak)")
        // Weekend traffic lower than weekdays: assumed factors (no published figure).
        .numberList("weekday_factors", "", 0.0, 1.0, 7,
                    std::vector<double>{1, 1, 1, 1, 1, 0.85, 0.85},
                    "request factor per weekday, Monday..Sunday; the default weekend 0.85 is "
                    "an assumption (no published figure)");
    return s;
}

/// How to read a log beyond its format (declared once: the trace job's keys and the options
/// of `dctwin trace inspect`).
void addTraceReadKeys(ObjectSpec& s) {
    s.string("time_column", "", "delimited: time column by name (empty: detected)")
        .string("group_column", "", "delimited long format: device column (empty: detected)")
        .string("fields", "", "nvidia-smi logs without a header: the --query-gpu list")
        .optionalNumber("interval_s", "s", 1e-3, 1e6,
                        "dcgmi dmon, or scrapes without timestamps: the polling interval")
        .optionalInteger("gpus", 1, 1e6,
                         "nvidia-smi rows without index or bus id: GPUs per polling cycle "
                         "(absent: inferred from the row times)")
        .number("utc_offset_h", "h", -14.0, 14.0, 0.0,
                "datetimes without a zone are local time this far ahead of UTC")
        .choice("time_unit", {"ms", "s", "min", "h"}, "s", "unit of a numeric time column");
}

std::shared_ptr<const ObjectSpec> traceSpec() {
    auto s = std::make_shared<ObjectSpec>(
        "a replayed GPU log (nvidia-smi, DCGM, delimited, Cornell): power of a measured GPU "
        "model or utilization, per GPU or node, mapped onto the racks' GPUs");
    s->optionalNumber("duration_h", "h", 1e-6, 1e6, "run time (absent: to the end of the study)")
        .string("file", std::nullopt,
                "trace file: a relative path is looked for beside the scenario, in the data "
                "folder and in the working folder (in a jobs_file row: beside the job list, then "
                "in the data folder)")
        .add(traceReadSpec()->at("format"))
        .string("column", "",
                "value column (empty: the first power column for power_W, a limit only when "
                "no other, the first % column for utilization_pct; an error when several "
                "columns have none of that unit; the first for utilization)")
        .choice("quantity", {"utilization_pct", "utilization", "power_W"}, "utilization_pct",
                "what the column holds")
        .add([] {
            KeySpec k;
            k.key = "gpu_model";
            k.type = KeyType::String;
            k.choices = gpuModelNames();
            k.description =
                "GPU model the log was measured on (power/gpu_catalog.h); its idle power and TDP "
                "turn power into utilization (power_W traces: this or idle_W and max_W)";
            return k;
        }())
        .optionalNumber("idle_W", "W", 0.0, 1e5,
                        "idle power of the measured GPU (power_W traces; overrides gpu_model)")
        .optionalNumber("max_W", "W", 0.0, 1e5,
                        "power at full utilization of the measured GPU, above idle_W (power_W "
                        "traces; overrides gpu_model)")
        .choice("aggregate", {"mean", "sum"}, "mean",
                "several devices: mean of their utilizations, or their values summed first "
                "(one measurement of devices × gpus_per_row GPUs)")
        .integer("gpus_per_row", 1, 1e6, 1, "GPUs one device's power value covers (a node: 8)")
        .optionalNumber("grid_s", "s", 1e-3, 1e6,
                        "step of the common time grid of several devices (absent: the most "
                        "common spacing of the device with the most samples)")
        .choice("gap_fill", {"interpolate", "hold", "idle"}, "interpolate",
                "inside gaps: linear between samples, the last value, or idle");
    addTraceReadKeys(*s);
    s->number("offset_h", "h", 0.0, 1e6, 0.0, "trace time at the job start")
        .number("max_gap_h", "h", 0.0, 1e5, 48.0, "longest gap in the trace that is bridged")
        .boolean("repeat", true, "wrap around at the end of the trace")
        .choice("desync", {"lockstep", "step", "spread", "random", "fixed"}, "lockstep",
                "per-rack trace offsets: none, rack r at r·desync_s, spread evenly over "
                "desync_s, uniform random in [0, desync_s) with seed, or rack_offsets_s")
        .number("desync_s", "s", 0.0, 1e6, 0.0, "offset step (step) or window (spread, random)")
        .integer("seed", 0, 9.007199254740992e15, 1, "random offsets: generator seed")
        .numberList("rack_offsets_s", "s", 0.0, 1e6, 0, std::nullopt,
                    "fixed: one offset per rack of the job, in placement order");
    return s;
}

}  // namespace

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

std::shared_ptr<const ObjectSpec> traceReadSpec() {
    static const std::shared_ptr<const ObjectSpec> spec = [] {
        auto s = std::make_shared<ObjectSpec>("how to read a GPU log (a trace job's keys)");
        s->choice("format", traceFormats(), "auto",
                  "file format (power/trace.h); auto detects it from the first lines");
        addTraceReadKeys(*s);
        return s;
    }();
    return spec;
}

TraceReadOptions traceReadOptions(const SpecReader& r) {
    TraceReadOptions ro;
    ro.format = r.string("format");
    ro.time_column = r.string("time_column");
    ro.group_column = r.string("group_column");
    ro.fields = r.string("fields");
    if (r.has("interval_s")) ro.interval = r.number("interval_s");
    if (r.has("gpus")) ro.gpus = r.count("gpus");
    ro.utc_offset = r.number("utc_offset_h") * kHour;
    const std::string tu = r.string("time_unit");
    ro.time_unit = tu == "ms" ? 1e-3 : tu == "s" ? 1.0 : tu == "min" ? 60.0 : kHour;
    if (ro.format == "cornell" && r.has("time_unit")) {
        r.fail("time_unit", "Cornell traces carry timestamps; time_unit is for CSV");
    }
    return ro;
}

namespace {

/// A trace job: read the log, choose the column, map it to utilization (gpu_catalog.h),
/// aggregate the devices, and read the per-rack offsets.
std::unique_ptr<Job> parseTraceJob(const SpecReader& r, const std::filesystem::path& trace_dir) {
    auto j = std::make_unique<TraceJob>();
    std::filesystem::path file = r.string("file");
    if (file.is_relative()) file = trace_dir.empty() ? dataFile(file) : trace_dir / file;
    j->file = file;
    const TraceReadOptions ro = traceReadOptions(r);
    TraceData data;
    try {
        data = readTrace(file, ro);
    } catch (const InputError& e) {
        r.fail("file", e.what());
    }

    const std::string q = r.string("quantity");
    const bool power = q == "power_W";
    // The column: named, or the first whose unit fits the quantity. With several columns and
    // none in that unit there is nothing to go by: the first column was taken, and a
    // utilization.gpu column logged before power.draw was replayed as watts (100 % → 100 W).
    std::size_t col = 0;
    const std::string want_unit = power ? "W" : q == "utilization_pct" ? "%" : "";
    if (r.has("column") && !r.string("column").empty()) {
        try {
            col = data.columnIndex(r.string("column"));
        } catch (const InputError& e) {
            r.fail("column", e.what());
        }
    } else if (data.format == "cornell" && !power) {
        col = data.columnIndex("utilave");  // the reader's default since the first version
    } else if (!want_unit.empty() &&
               data.columnWithUnit(want_unit) != static_cast<std::size_t>(-1)) {
        col = data.columnWithUnit(want_unit);
    } else if (!want_unit.empty() && data.columns.size() > 1) {
        std::vector<std::string> names;
        std::string example = data.columns.front().name;
        for (auto it = data.columns.rbegin(); it != data.columns.rend(); ++it) {
            if (it->unit.empty()) example = it->name;  // the first column without a unit
        }
        for (const auto& c : data.columns) {
            names.push_back(c.unit.empty() ? fmt::format("'{}' (no unit)", c.name)
                                           : fmt::format("'{}' [{}]", c.name, c.unit));
        }
        r.fail("column", fmt::format("{}: no column is in {}, which \"quantity\": \"{}\" needs, "
                                     "and there are {} to choose from: {}; name the one to replay "
                                     "(\"column\": \"{}\"), or give its unit in the header or "
                                     "in \"fields\" (\"power.draw [W]\", \"utilization.gpu [%]\")",
                                     data.file, want_unit, q, data.columns.size(),
                                     fmt::join(names, ", "), example));
    }
    const TraceColumn& c = data.columns[col];
    // A column with a unit must agree with the quantity: W for power, % for utilization_pct.
    if (!c.unit.empty()) {
        const bool ok = (power && c.unit == "W") || (q == "utilization_pct" && c.unit == "%");
        if (!ok) {
            const std::string hint = c.unit == "W"   ? "use \"quantity\": \"power_W\""
                                     : c.unit == "%" ? "use \"quantity\": \"utilization_pct\""
                                                     : "choose a power or utilization column";
            r.fail("quantity", fmt::format("column '{}' of {} is in {}, which is not {}; {}",
                                           c.name, data.file, c.unit, q, hint));
        }
    }
    const int per_row = r.count("gpus_per_row");
    std::optional<GpuModel> gpu;
    if (r.has("gpu_model")) {
        // Read outside the try: the reader's own error (an unknown choice) names the key
        // already, and wrapped it named it twice.
        const std::string model = r.string("gpu_model");
        try {
            gpu = gpuModel(model);
        } catch (const InputError& e) {
            r.fail("gpu_model", e.what());
        }
    }
    double idle = 0, tdp = 1;
    if (power) {
        if (!gpu && !(r.has("idle_W") && r.has("max_W"))) {
            r.fail("gpu_model",
                   fmt::format("a power_W trace needs the GPU it was measured on (\"gpu_model\": "
                               "one of {}), or \"idle_W\" and \"max_W\"",
                               fmt::join(gpuModelNames(), ", ")));
        }
        idle = r.has("idle_W") ? r.number("idle_W") : gpu->idle;
        tdp = r.has("max_W") ? r.number("max_W") : gpu->tdp;
        // Above idle: a bound that depends on another key.
        r.view().requireRange("max_W", tdp, idle + 1e-6, 1e5, "W");
    } else if (r.has("idle_W") || r.has("max_W")) {
        r.fail("idle_W and max_W apply to \"quantity\": \"power_W\" only");
    }
    j->idle_power = idle;
    j->max_power = tdp;
    // Readings above full scale are taken as full utilization, and counted: a log at 2.5× an
    // H100's TDP (a wrong gpu_model, or a node's power read as a GPU's) replayed as 100 %
    // without a word.
    std::size_t readings = 0, above = 0;
    double highest = -std::numeric_limits<double>::infinity();
    auto toUtil = [q, idle, tdp, &readings, &above, &highest](double x) {
        const double u = q == "power_W"           ? (x - idle) / (tdp - idle)
                         : q == "utilization_pct" ? x / 100.0
                                                  : x;
        ++readings;
        if (u > 1.0 + 1e-9) {
            ++above;
            highest = std::max(highest, x);
        }
        return std::clamp(u, 0.0, 1.0);
    };
    AggregateOptions a;
    a.column = col;
    a.max_gap = hours(r, "max_gap_h");
    if (r.has("grid_s")) a.grid_step = r.number("grid_s");
    const std::string fill = r.string("gap_fill");
    a.fill = fill == "hold" ? GapFill::Hold : fill == "idle" ? GapFill::Idle : GapFill::Interpolate;
    // Idle: the value that maps to u = 0 (idle power, or zero utilization).
    a.idle_value = power ? idle * per_row : 0.0;
    const bool sum = r.string("aggregate") == "sum";
    TraceSeries series;
    try {
        if (sum) {
            a.rule = TraceAggregate::Sum;
            series = aggregateTrace(data, a);
            // Per GPU that reports: a device without a single reading is left out of the sum
            // (and named in the series' warnings), so it must not count in the divisor either
            // (it read as 0 W, below idle: −10 % rack power for 1 dead GPU of 8).
            const double n = static_cast<double>(series.devices) * (power ? per_row : 1);
            for (double& v : series.value) v = toUtil(v / n);
        } else {
            a.rule = TraceAggregate::Mean;
            a.transform = [&](double x) { return toUtil(power ? x / per_row : x); };
            series = aggregateTrace(data, a);
        }
    } catch (const InputError& e) {
        r.fail("file", e.what());
    }
    if (above > 0) {
        const std::string full = q == "power_W" ? fmt::format("the GPU's full power, {:g} W", tdp)
                                 : q == "utilization_pct" ? std::string("100 %")
                                                          : std::string("1");
        series.warnings.push_back(fmt::format(
            "{} of {} readings ({:.3g} %) are above {} (the highest {:g}) and are replayed as "
            "full utilization{}",
            above, readings, 100.0 * static_cast<double>(above) / static_cast<double>(readings),
            full, highest,
            q == "power_W" ? "; check \"gpu_model\" (or give \"max_W\") and \"gpus_per_row\""
                           : ""));
    }
    series.column = c.name;
    j->trace = std::make_shared<TraceSeries>(std::move(series));
    j->quantity = TraceJob::Quantity::Utilization;  // mapped above
    j->offset = hours(r, "offset_h");
    j->repeat = r.boolean("repeat");

    const std::string ds = r.string("desync");
    j->desync = ds == "step"     ? TraceJob::Desync::Step
                : ds == "spread" ? TraceJob::Desync::Spread
                : ds == "random" ? TraceJob::Desync::Random
                : ds == "fixed"  ? TraceJob::Desync::Fixed
                                 : TraceJob::Desync::Lockstep;
    j->desync_window = r.number("desync_s");
    j->seed = static_cast<std::uint64_t>(r.integer("seed"));
    if (j->desync == TraceJob::Desync::Fixed) {
        if (!r.has("rack_offsets_s")) r.fail("rack_offsets_s", "\"fixed\" needs rack_offsets_s");
        j->fixed_offsets = r.numbers("rack_offsets_s");
        if (j->fixed_offsets.size() != static_cast<std::size_t>(r.count("racks"))) {
            r.fail("rack_offsets_s", fmt::format("has {} offsets for {} racks; give one per rack",
                                                 j->fixed_offsets.size(), r.count("racks")));
        }
    } else if (r.has("rack_offsets_s")) {
        r.fail("rack_offsets_s", "applies to \"desync\": \"fixed\" only");
    }
    if ((j->desync == TraceJob::Desync::Step || j->desync == TraceJob::Desync::Spread ||
         j->desync == TraceJob::Desync::Random) &&
        !(j->desync_window > 0)) {
        r.fail("desync_s", fmt::format("\"{}\" needs desync_s > 0", ds));
    }
    return j;
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
        if (j->checkpoint_duration > 0 && !(j->checkpoint_interval > 0)) {
            // Said as such: "expected between 0 s and 0 s" was the range check's reading.
            r.fail("checkpoint_duration_s",
                   "a checkpoint duration needs \"checkpoint_interval_h\" (how often the job "
                   "checkpoints); without it the job takes no checkpoints");
        }
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
        // The profile is a shape, scaled between the trough and the peak: an all-zero one read
        // as flat and ran the service at its peak all day (as all ones do), not idle.
        const std::vector<double> hourly = r.numbers("hourly_profile");
        if (std::all_of(hourly.begin(), hourly.end(), [](double x) { return x == 0.0; })) {
            r.fail("hourly_profile",
                   "every hour is 0; the profile is the shape of the request rate (scaled "
                   "between the trough and the peak), so give at least one positive value "
                   "(a service that is off has no job, or a duration_h)");
        }
        job =
            std::make_unique<InferenceService>(pct(r, "peak_util_pct"), r.number("peak_to_trough"),
                                               hourly, r.numbers("weekday_factors"), week_offset);
    } else {
        job = parseTraceJob(r, trace_dir);
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
            .array("jobs", jobSpec(), false, "the jobs, each on its own racks")
            .add(KeySpec{.key = "jobs_file",
                         .type = KeyType::String,
                         .description = "CSV job list, one job per row, columns named as the "
                                        "keys of a job (power/job_list.h); its jobs follow "
                                        "those of \"jobs\", relative to the scenario file"});
        return s;
    }();
    return spec;
}

Workload Workload::fromJson(const JsonView& v, int racks, const std::filesystem::path& trace_dir,
                            const std::filesystem::path& job_list) {
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

    std::vector<std::vector<std::size_t>> rack_jobs(static_cast<std::size_t>(w.racks_));
    std::vector<std::vector<double>> rack_shifts(static_cast<std::size_t>(w.racks_));
    std::vector<std::vector<std::pair<double, double>>> busy(static_cast<std::size_t>(w.racks_));
    // The jobs of the scenario, then those of the job list, read alike (the rows are kept
    // alive here: a reader refers to its JSON).
    std::vector<SpecReader> job_readers;
    if (in.has("jobs")) job_readers = in.array("jobs");
    std::deque<Json> rows;
    if (in.has("jobs_file")) {
        const std::filesystem::path file =
            job_list.empty() ? std::filesystem::path(in.string("jobs_file")) : job_list;
        w.job_list_ = file;
        for (JobRow& row : readJobList(file, v.where() + "/jobs_file")) {
            // A trace job's relative file is looked for beside the job list first (where a
            // scheduler's export keeps its logs), then as shipped data: the scenario's own
            // trace jobs are looked for beside the scenario (facility/scenario.cpp), and a
            // list's rows were looked for in data/ only.
            Json& job = row.job;
            if (job.value("type", Json()) == "trace" && job.contains("file") &&
                job["file"].is_string()) {
                const std::filesystem::path f = job["file"].get<std::string>();
                const std::filesystem::path beside = file.parent_path() / f;
                std::error_code ec;
                if (!f.empty() && f.is_relative() && std::filesystem::is_regular_file(beside, ec)) {
                    job["file"] = beside.string();
                }
            }
            rows.push_back(std::move(row.job));
            job_readers.emplace_back(JsonView(rows.back(), row.where), *jobSpec());
        }
    }
    if (job_readers.empty() && (in.has("jobs") || in.has("jobs_file"))) {
        v.fail("jobs", "expected at least one job");
    }
    std::vector<std::string> defined_at;  // where each placed job was read, for a duplicate
    for (const SpecReader& jr : job_readers) {
        const JsonView& jv = jr.view();
        auto job = parseJob(jr, week_offset, trace_dir);
        for (std::size_t k = 0; k < w.jobs_.size(); ++k) {
            if (w.jobs_[k]->name == job->name) {
                jv.fail("name", fmt::format("job '{}' is defined twice: first at {}", job->name,
                                            defined_at[k]));
            }
        }
        defined_at.push_back(jv.where());
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
            jv.fail("racks", fmt::format("job '{}' needs {} {}racks from {:.4g} h {}, but {} has "
                                         "{} racks of {} and only {} of them are free then",
                                         job->name, job->racks,
                                         placement == "contiguous" ? "contiguous " : "", s / kHour,
                                         e >= kForever ? std::string("on (no end)")
                                                       : fmt::format("to {:.4g} h", e / kHour),
                                         who, pool.size(), w.racks_, free_count));
        }
        const std::size_t idx = w.jobs_.size();
        const std::vector<double> shifts = job->rackShifts(static_cast<int>(chosen.size()));
        for (std::size_t k = 0; k < chosen.size(); ++k) {
            const auto r = static_cast<std::size_t>(chosen[k]);
            busy[r].emplace_back(s, e);
            rack_jobs[r].push_back(idx);
            rack_shifts[r].push_back(shifts[k]);
        }
        w.placement_.push_back(chosen);
        w.jobs_.push_back(std::move(job));
    }
    w.rack_begin_.assign(1, 0);
    for (std::size_t r = 0; r < rack_jobs.size(); ++r) {
        auto& list = rack_jobs[r];
        auto& shift = rack_shifts[r];
        std::vector<std::size_t> order(list.size());
        for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return w.jobs_[list[a]]->start < w.jobs_[list[b]]->start;
        });
        std::vector<std::size_t> l2;
        std::vector<double> s2;
        for (std::size_t k : order) {
            l2.push_back(list[k]);
            s2.push_back(shift[k]);
        }
        for (std::size_t k = 0; k < l2.size(); ++k) {
            w.rack_entries_.push_back({w.jobs_[l2[k]].get(), l2[k], s2[k]});
        }
        w.rack_begin_.push_back(w.rack_entries_.size());
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
    for (const RackEntry& e : rackEntries(rack)) u += e.job->shiftedUtilization(t, e.shift);
    return std::min(u, 1.0);
}

double Workload::averagedUtilization(int rack, double t) const {
    checkRack(rack);
    double u = 0;
    for (const RackEntry& e : rackEntries(rack)) u += e.job->shiftedAveraged(t, e.shift);
    return std::min(u, 1.0);
}

double Workload::meanUtilization(int rack, double t0, double t1) const {
    checkRack(rack);
    if (!(t1 > t0)) {
        throw ModelError(fmt::format("meanUtilization: empty interval [{}, {}] s", t0, t1));
    }
    double sum = 0;
    for (const RackEntry& e : rackEntries(rack)) sum += e.job->shiftedIntegral(t0, t1, e.shift);
    return sum / (t1 - t0);
}

double Workload::windowedUtilization(int rack, double t, double window, double horizon) const {
    checkRack(rack);
    if (!(window > 0.0)) {
        throw ModelError(fmt::format("windowedUtilization: window {} s must be positive", window));
    }
    double u = 0;
    for (const RackEntry& e : rackEntries(rack)) {
        u += e.job->shiftedWindowed(t, window, e.shift, horizon);
    }
    return std::min(u, 1.0);
}

namespace {
/// One rack's remembered level: valid for from ≤ t < until (never when until ≤ from).
struct RackLevel {
    double from = 0.0, until = 0.0;
    double utilization = 0.0;
    bool floor_active = false;
};
/// The levels of one workload at one window and horizon, in this thread. Per thread because
/// a model is evaluated in one workspace per thread; keyed by the workload's serial, so
/// another workload (or window) in the same thread starts afresh.
struct LevelMemo {
    std::uint64_t owner = 0;
    double window = std::numeric_limits<double>::quiet_NaN();
    double horizon = std::numeric_limits<double>::quiet_NaN();
    std::vector<RackLevel> racks;
};
thread_local LevelMemo level_memo;
}  // namespace

std::uint64_t Workload::nextSerial() {
    static std::atomic<std::uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
}

Workload::Level Workload::windowedLevel(int rack, double t, double window, double horizon) const {
    checkRack(rack);
    if (!(window > 0.0)) {
        throw ModelError(fmt::format("windowedLevel: window {} s must be positive", window));
    }
    LevelMemo& memo = level_memo;
    if (memo.owner != serial_ || memo.window != window || memo.horizon != horizon) {
        memo.owner = serial_;
        memo.window = window;
        memo.horizon = horizon;
        memo.racks.assign(static_cast<std::size_t>(racks_), RackLevel{});
    }
    RackLevel& r = memo.racks[static_cast<std::size_t>(rack)];
    if (t >= r.from && t < r.until) return {r.utilization, r.floor_active};
    // As windowedUtilization and floorActive compute them, in the same order.
    double u = 0.0, until = std::numeric_limits<double>::infinity();
    bool floor = false;
    for (const RackEntry& e : rackEntries(rack)) {
        u += e.job->shiftedWindowed(t, window, e.shift, horizon);
        floor = floor || e.job->floorActive(t);
        until = std::min(until, e.job->windowedConstantUntil(t, window, e.shift, horizon));
    }
    u = std::min(u, 1.0);
    r = {t, until, u, floor};
    return {u, floor};
}

void Workload::windowedLevels(std::span<const int> racks, double t, double window, double horizon,
                              std::span<Level> out) const {
    if (out.size() != racks.size()) {
        throw ModelError(
            fmt::format("windowedLevels: {} levels for {} racks", out.size(), racks.size()));
    }
    // Far enough ahead that a job arrives from memory before its rack's turn (a level costs
    // ~20-50 ns), near enough that it is still in the L1 cache then.
    constexpr std::size_t kAhead = 8;
    for (std::size_t i = 0; i < racks.size(); ++i) {
        if (i + kAhead < racks.size()) readAhead(racks[i + kAhead], t);
        out[i] = windowedLevel(racks[i], t, window, horizon);
    }
}

void Workload::readAhead(int rack, double t) const {
    if (rack < 0 || rack >= racks_) return;  // windowedLevel says so when its turn comes
    const LevelMemo& memo = level_memo;
    if (memo.owner == serial_) {
        const RackLevel& r = memo.racks[static_cast<std::size_t>(rack)];
        if (t >= r.from && t < r.until) return;  // remembered: no job is read
    }
    for (const RackEntry& e : rackEntries(rack)) {
        // A job object is ~220 bytes (the base's three strings, then the kind's numbers).
        const auto* bytes = reinterpret_cast<const char*>(e.job);
        for (int line = 0; line < 4; ++line) __builtin_prefetch(bytes + 64 * line);
    }
}

bool Workload::floorActive(int rack, double t) const {
    checkRack(rack);
    for (const RackEntry& e : rackEntries(rack)) {
        if (e.job->floorActive(t)) return true;
    }
    return false;
}

void Workload::discontinuities(int rack, double t0, double t1, Resolution r,
                               std::vector<double>& out) const {
    checkRack(rack);
    for (const RackEntry& e : rackEntries(rack)) e.job->discontinuities(t0, t1, r, out);
}

std::vector<std::size_t> Workload::jobsOf(int rack) const {
    checkRack(rack);
    std::vector<std::size_t> out;
    for (const RackEntry& e : rackEntries(rack)) out.push_back(e.index);
    return out;
}

double Workload::shiftOf(int rack, std::size_t job) const {
    checkRack(rack);
    for (const RackEntry& e : rackEntries(rack)) {
        if (e.index == job) return e.shift;
    }
    return 0.0;
}

std::vector<RackGroup> Workload::rackGroups() const {
    std::vector<RackGroup> groups;
    for (int r = 0; r < racks_; ++r) {
        std::vector<std::size_t> jobs;
        std::vector<double> shifts;
        for (const RackEntry& e : rackEntries(r)) {
            jobs.push_back(e.index);
            shifts.push_back(e.shift);
        }
        const std::string tenant = tenantOf(r);
        auto it = std::find_if(groups.begin(), groups.end(), [&](const RackGroup& g) {
            return g.jobs == jobs && g.shifts == shifts && g.tenant == tenant;
        });
        if (it == groups.end()) {
            groups.push_back(RackGroup{{r}, jobs, shifts, tenant});
        } else {
            it->racks.push_back(r);
        }
    }
    return groups;
}

}  // namespace dctwin::power
