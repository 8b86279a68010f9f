#include "thermal/coolant.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cctype>
#include <cmath>
#include <map>
#include <mutex>
#include <utility>

#include "core/data_dir.h"
#include "core/errors.h"
#include "core/json.h"
#include "core/units.h"

// Table file format (data/coolants/<name>.json):
//   name, description, source, freezing_point_C, freezing_point_source,
//   temperature_C [°C, strictly increasing], density_kg_per_m3, specific_heat_J_per_kgK,
//   viscosity_Pa_s, conductivity_W_per_mK (one value per temperature).

namespace dctwin::thermal {

MonotoneTable::MonotoneTable(std::vector<double> xs, std::vector<double> ys,
                             std::string_view what) {
    static std::atomic<std::uint64_t> tables{0};
    auto data = std::make_shared<Data>();
    data->id = ++tables;
    std::vector<double>& x = data->x;
    std::vector<double>& y = data->y;
    x = std::move(xs);
    y = std::move(ys);
    const std::size_t n = x.size();
    if (n < 2 || y.size() != n) {
        throw InputError(
            fmt::format("{}: a table needs at least two points and as many values "
                        "as temperatures (got {} temperatures, {} values)",
                        what, n, y.size()));
    }
    for (std::size_t i = 0; i < n; ++i) {
        if (!std::isfinite(x[i]) || !std::isfinite(y[i])) {
            throw InputError(fmt::format("{}: non-finite table entry at index {}", what, i));
        }
        if (i > 0 && !(x[i] > x[i - 1])) {
            throw InputError(
                fmt::format("{}: temperatures must increase strictly; entry {} "
                            "({}) follows {}",
                            what, i, x[i], x[i - 1]));
        }
    }
    // An even grid lets interval() skip the binary search (it is on every rack's rhs).
    const double step = (x[n - 1] - x[0]) / static_cast<double>(n - 1);
    bool even = true;
    for (std::size_t i = 0; i + 1 < n; ++i) {
        even = even && std::abs(x[i + 1] - x[i] - step) <= 1e-9 * step;
    }
    inv_step_ = even ? 1.0 / step : 0.0;
    if (!even) {
        // An uneven grid (a branch's flow against √Δp crowds its points towards zero) gets a
        // guide: 2(n − 1) even buckets, each naming the interval its left edge lies in, so a
        // lookup starts at most a few intervals from its answer. A binary search over 513
        // points was ~120 instructions and as many unpredictable branches, twice per rack
        // branch and Newton iteration of a CDU's manifold (issue 12).
        const std::size_t buckets = 2 * (n - 1);
        guide_scale_ = static_cast<double>(buckets) / (x[n - 1] - x[0]);
        data->guide.resize(buckets);
        std::size_t i = 0;
        for (std::size_t b = 0; b < buckets; ++b) {
            const double edge = x[0] + static_cast<double>(b) / guide_scale_;
            while (i + 2 < n && x[i + 1] <= edge) ++i;
            data->guide[b] = static_cast<std::uint32_t>(i);
        }
        guide_ = data->guide.data();
    }
    // Fritsch–Carlson slopes: harmonic-mean interior slopes, zero where the data turn, which
    // guarantees a monotone interpolant on every monotone stretch of data.
    std::vector<double> d(n - 1);
    for (std::size_t i = 0; i + 1 < n; ++i) d[i] = (y[i + 1] - y[i]) / (x[i + 1] - x[i]);
    std::vector<double>& m = data->m;
    m.assign(n, 0.0);
    m[0] = d[0];
    m[n - 1] = d[n - 2];
    for (std::size_t i = 1; i + 1 < n; ++i) {
        if (d[i - 1] * d[i] <= 0.0) {
            m[i] = 0.0;
        } else {
            const double h0 = x[i] - x[i - 1], h1 = x[i + 1] - x[i];
            const double w1 = 2.0 * h1 + h0, w2 = h1 + 2.0 * h0;
            m[i] = (w1 + w2) / (w1 / d[i - 1] + w2 / d[i]);
        }
    }
    std::vector<double>& poly = data->poly;
    poly.resize(kPoly * (n - 1));
    for (std::size_t i = 0; i + 1 < n; ++i) {
        // The Hermite cubic of valueIn() expanded in powers of t.
        const double h = x[i + 1] - x[i], dy = y[i + 1] - y[i];
        const double a0 = y[i], a1 = h * m[i];
        const double a2 = 3.0 * dy - h * (2.0 * m[i] + m[i + 1]);
        const double a3 = -2.0 * dy + h * (m[i] + m[i + 1]);
        double* c = poly.data() + kPoly * i;
        c[0] = a0;
        c[1] = a1;
        c[2] = a2;
        c[3] = a3;
        c[4] = h * a0;
        c[5] = h * a1 / 2.0;
        c[6] = h * a2 / 3.0;
        c[7] = h * a3 / 4.0;
        c[8] = 1.0 / h;
    }
    data->cumulative.assign(n, 0.0);
    x_ = x.data();
    y_ = y.data();
    m_ = m.data();
    poly_ = poly.data();
    cumulative_ = data->cumulative.data();
    n_ = n;
    // partialIntegral reads the views above; the cumulative sums fill in behind it.
    for (std::size_t i = 0; i + 1 < n; ++i) {
        data->cumulative[i + 1] = data->cumulative[i] + partialIntegral(i, x[i + 1]);
    }
    data_ = std::move(data);
}

std::size_t MonotoneTable::interval(double x) const {
    // Both ways start from an estimate and nudge it, so the result is exactly the binary
    // search's: the last i ≤ n − 2 with x_i ≤ x (0 below the table).
    const std::size_t last = n_ - 2;
    std::size_t i;
    if (inv_step_ > 0.0) {
        // Even grid (the shipped coolant tables, every 5 K): the index from the spacing.
        const double f = (x - x_[0]) * inv_step_;
        i = !(f > 0.0) ? 0 : std::min(static_cast<std::size_t>(f), last);
    } else {
        const double f = (x - x_[0]) * guide_scale_;
        const std::size_t buckets = 2 * (n_ - 1);
        i = !(f > 0.0) ? 0 : guide_[std::min(static_cast<std::size_t>(f), buckets - 1)];
    }
    while (i > 0 && x < x_[i]) --i;
    while (i < last && x >= x_[i + 1]) ++i;
    return i;
}

double MonotoneTable::operator()(double x) const { return valueIn(interval(x), x); }

double MonotoneTable::valueIn(std::size_t i, double x) const {
    const double h = x_[i + 1] - x_[i];
    const double t = (x - x_[i]) / h;
    const double t2 = t * t, t3 = t2 * t;
    return (2 * t3 - 3 * t2 + 1) * y_[i] + (t3 - 2 * t2 + t) * h * m_[i] +
           (-2 * t3 + 3 * t2) * y_[i + 1] + (t3 - t2) * h * m_[i + 1];
}

double MonotoneTable::derivative(double x) const { return derivativeIn(interval(x), x); }

double MonotoneTable::valueAndDerivative(double x, double& dydx) const {
    const std::size_t i = interval(x);
    dydx = derivativeIn(i, x);
    return valueIn(i, x);
}

double MonotoneTable::derivativeIn(std::size_t i, double x) const {
    const double h = x_[i + 1] - x_[i];
    const double t = (x - x_[i]) / h;
    const double t2 = t * t;
    return ((6 * t2 - 6 * t) * y_[i] + (-6 * t2 + 6 * t) * y_[i + 1]) / h +
           (3 * t2 - 4 * t + 1) * m_[i] + (3 * t2 - 2 * t) * m_[i + 1];
}

double MonotoneTable::partialIntegral(std::size_t i, double x) const {
    // The interval's quartic by Horner: exact for the cubic on [x_i, x] as the two-point
    // Gauss–Legendre rule it replaced, in 5 multiply-adds instead of two Hermite evaluations
    // (the coolant's enthalpy is asked for at every node of every evaluation; issue 12).
    const double* c = poly_ + kPoly * i;
    const double t = (x - x_[i]) * c[8];
    return t * (c[4] + t * (c[5] + t * (c[6] + t * c[7])));
}

double MonotoneTable::integral(double x) const {
    const std::size_t i = interval(x);
    return cumulative_[i] + partialIntegral(i, x);
}

double MonotoneTable::integral(double x, double& value) const {
    const std::size_t i = interval(x);
    value = valueIn(i, x);
    return cumulative_[i] + partialIntegral(i, x);
}

double MonotoneTable::integralInverse(double I) const {
    const double total = cumulative_[n_ - 1];
    if (!(I >= 0.0)) return x_[0] + I / y_[0];  // (NaN passes through)
    if (I > total) return x_[n_ - 1] + (I - total) / y_[n_ - 1];
    // The interval whose cumulative sums bracket I: estimated from I's share of the total,
    // then nudged as interval() does (on the even coolant grids, where c_p varies by a few
    // percent, the estimate is off by at most one interval; on an uneven grid the nudging
    // walks further but ends on the same interval).
    const std::size_t last = n_ - 2;
    std::size_t i =
        std::min(static_cast<std::size_t>(I / total * static_cast<double>(n_ - 1)), last);
    while (i > 0 && I < cumulative_[i]) --i;
    while (i < last && I >= cumulative_[i + 1]) ++i;
    // Newton on F = ∫_{x_i}^{x} y − r inside interval i, in t = (x − x_i)/h on the interval's
    // quartic P(t) (dP/dt = h·y(t)), from the secant of F across the interval. F is convex or
    // concave as y rises or falls, with F'' = y', so each step leaves an error
    // e' ≤ (|y'|/2y)·e²: the secant start is off by at most |Δy|·Δx/(8 y) (PG25: 2e-3 K on a
    // 5 K interval), the first step leaves ~1e-9 K and the second, below 1e-8 of the interval,
    // is the last (its successor is below 1e-16 K for any |y'|/y < 1/K, i.e. under the
    // round-off of the result). Two steps of two Horner evaluations each, no lookup.
    const double* c = poly_ + kPoly * i;
    const double r = I - cumulative_[i];
    const double span = cumulative_[i + 1] - cumulative_[i];
    double t = r / span;
    for (int it = 0; it < 20; ++it) {
        const double P = t * (c[4] + t * (c[5] + t * (c[6] + t * c[7])));
        const double dP = c[0] + t * (c[1] + t * (c[2] + t * c[3]));  // y(t); × h below
        const double step = (P - r) * c[8] / dP;
        t = std::clamp(t - step, 0.0, 1.0);
        if (std::abs(step) <= 1e-8) break;
    }
    return x_[i] + t * (x_[i + 1] - x_[i]);
}

namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::vector<double> numbers(const JsonView& v, std::string_view key) {
    std::vector<double> out;
    for (const auto& e : v.at(key).elements()) out.push_back(e.asNumber());
    return out;
}

}  // namespace

Coolant Coolant::fromFile(const std::filesystem::path& file) {
    const Json doc = readJsonFile(file);
    const JsonView v(doc);
    v.checkKeys({"name", "description", "source", "freezing_point_C", "freezing_point_source",
                 "temperature_C", "density_kg_per_m3", "specific_heat_J_per_kgK", "viscosity_Pa_s",
                 "conductivity_W_per_mK"});
    auto t = std::make_shared<Tables>();
    t->file = file.string();
    t->name = v.string("name");
    t->source = v.string("source");
    std::vector<double> T = numbers(v, "temperature_C");
    for (double& x : T) x = units::celsiusToKelvin(x);
    auto what = [&](std::string_view p) { return fmt::format("{} ({}): {}", t->name, t->file, p); };
    t->rho = MonotoneTable(T, numbers(v, "density_kg_per_m3"), what("density_kg_per_m3"));
    t->cp =
        MonotoneTable(T, numbers(v, "specific_heat_J_per_kgK"), what("specific_heat_J_per_kgK"));
    t->mu = MonotoneTable(T, numbers(v, "viscosity_Pa_s"), what("viscosity_Pa_s"));
    t->k = MonotoneTable(T, numbers(v, "conductivity_W_per_mK"), what("conductivity_W_per_mK"));
    t->T_freeze = units::celsiusToKelvin(v.number("freezing_point_C"));
    for (double x : T) {
        if (t->rho(x) <= 0 || t->cp(x) <= 0 || t->mu(x) <= 0 || t->k(x) <= 0) {
            throw InputError(fmt::format("{}: every property must be positive (at {:.1f} °C)",
                                         t->file, units::kelvinToCelsius(x)));
        }
    }
    Coolant c;
    c.t_ = std::move(t);
    c.T_min_ = T.front();
    c.T_max_ = T.back();
    const double T_ref = std::clamp(units::celsiusToKelvin(30.0), c.T_min_, c.T_max_);
    return c.withReferenceTemperature(T_ref);
}

std::vector<std::string> Coolant::knownNames() {
    return {"water", "PG20", "PG25", "PG30", "PG40", "PG50"};
}

std::filesystem::path Coolant::dataDirectory() { return dataDir() / "coolants"; }

namespace {

/// A coolant file read once per version of the file (its modification time), shared by every
/// caller: sizing alone asked for water ~9,500 times (the heat-rejection units' hour-by-hour
/// year), each a JSON parse, 0.6 s of the 64-rack design point against a 50 ms budget
/// (DESIGN.md §6). The tables are shared between copies (MonotoneTable), so a copy is cheap.
/// A file that fails to read is not cached, so its error repeats.
Coolant readOnce(const std::filesystem::path& file) {
    static std::mutex mutex;
    static std::map<std::string, std::pair<std::filesystem::file_time_type, Coolant>> cache;
    std::error_code ec;
    const auto stamp = std::filesystem::last_write_time(file, ec);
    const std::lock_guard<std::mutex> lock(mutex);
    if (!ec) {
        const auto it = cache.find(file.string());
        if (it != cache.end() && it->second.first == stamp) return it->second.second;
    }
    Coolant c = Coolant::fromFile(file);
    if (!ec) cache.insert_or_assign(file.string(), std::make_pair(stamp, c));
    return c;
}

}  // namespace

Coolant Coolant::byName(std::string_view name) {
    for (const auto& known : knownNames()) {
        if (lower(known) == lower(name)) {
            return readOnce(dataDirectory() / (lower(known) + ".json"));
        }
    }
    std::string list;
    for (const auto& k : knownNames()) list += (list.empty() ? "" : ", ") + k;
    throw InputError(
        fmt::format("unknown coolant '{}'; valid choices: {}", quoteValue(name), list));
}

Coolant Coolant::withReferenceTemperature(double T_ref) const {
    check(T_ref, "reference temperature");
    Coolant c = *this;
    c.T_ref_ = T_ref;
    c.rho_ref_ = t_->rho(T_ref);
    c.h_ref_offset_ = t_->cp.integral(T_ref);
    return c;
}

namespace {
const std::string kNone;  // name and source of a default-constructed coolant
}  // namespace

const std::string& Coolant::name() const { return t_ ? t_->name : kNone; }
const std::string& Coolant::source() const { return t_ ? t_->source : kNone; }

void Coolant::check(double T, std::string_view property) const {
    if (!(T >= T_min_ && T <= T_max_)) {
        // A default-constructed coolant has no range (NaN), so every call ends here.
        if (!t_)
            throw ModelError(fmt::format("coolant: {} asked of a coolant with no table", property));
        throw ModelError(fmt::format(
            "coolant {}: {} requested at {:.2f} °C ({:.2f} K), outside its table; valid range "
            "{:.1f} to {:.1f} °C ({})",
            t_->name, property, units::kelvinToCelsius(T), T, units::kelvinToCelsius(T_min_),
            units::kelvinToCelsius(T_max_), t_->file));
    }
}

double Coolant::density(double T) const {
    check(T, "density");
    return t_->rho(T);
}
double Coolant::specificHeat(double T) const {
    check(T, "specific heat");
    return t_->cp(T);
}
double Coolant::viscosity(double T) const {
    check(T, "viscosity");
    return t_->mu(T);
}
double Coolant::conductivity(double T) const {
    check(T, "thermal conductivity");
    return t_->k(T);
}

namespace {

/// ∫ c_p from a table's first point to T, remembered per thread by table and temperature.
///
/// In one evaluation of a campus model each rack's outlet enthalpy is computed by its rack
/// loop and again by its CDU's mixer, and a CDU's supply enthalpy by the CDU and by each of
/// its racks: ~17 % of the year was these integrals (bench case 5, issue 12). A hit
/// returns the very number a miss computes for the same table and temperature, so results
/// do not change; keys are the table's identity and the temperature's bits. Direct-mapped:
/// 4,096 slots (96 kB) hold an evaluation's rack temperatures at 1,390 racks between the
/// loop and the mixer that reads them; a collision only costs a recomputation.
class IntegralMemo {
public:
    double integral(const MonotoneTable& table, double T) {
        const std::uint64_t id = table.identity();
        const auto bits = std::bit_cast<std::uint64_t>(T);
        Slot& s = slots_[slotOf(bits ^ (id * 0x9E3779B97F4A7C15ull))];
        if (s.id == id && s.bits == bits) return s.value;
        const double v = table.integral(T);
        s = {id, bits, v};
        return v;
    }

private:
    static constexpr int kSlotBits = 12;
    struct Slot {
        std::uint64_t id = 0;  // 0: empty (identities start at 1)
        std::uint64_t bits = 0;
        double value = 0.0;
    };
    static std::size_t slotOf(std::uint64_t key) {
        // Temperatures close together differ in their low mantissa bits; mix them upwards.
        key ^= key >> 31;
        key *= 0xBF58476D1CE4E5B9ull;
        key ^= key >> 29;
        return static_cast<std::size_t>(key >> (64 - kSlotBits));
    }
    std::array<Slot, std::size_t{1} << kSlotBits> slots_{};
};

thread_local IntegralMemo integral_memo;

}  // namespace

double Coolant::enthalpy(double T) const {
    check(T, "enthalpy");
    return integral_memo.integral(t_->cp, T) - h_ref_offset_;
}

double Coolant::temperatureFromEnthalpy(double h) const {
    // h(T) = ∫_{T_min}^{T} c_p − h_ref_offset, strictly increasing (c_p > 0).
    if (!t_) check(std::numeric_limits<double>::quiet_NaN(), "temperature from enthalpy");
    const double T = t_->cp.integralInverse(h + h_ref_offset_);
    check(T, "temperature from enthalpy");
    return T;
}

double Coolant::heatedTemperature(double T_in, double mdot, double heat) const {
    if (!(mdot > 0.0)) return T_in;
    // Not started from T_in: that saves a Newton step but moves the result at round-off,
    // which the annual reference turns into 4e-4 of its pump energy and 0.5 % of its water
    // through different step choices (measured; issue 12 asks speed work to move no summary
    // figure by more than 1e-4).
    return temperatureFromEnthalpy(enthalpy(T_in) + heat / mdot);
}

}  // namespace dctwin::thermal
