#include "thermal/hydraulics.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/errors.h"

namespace dctwin::thermal {

namespace {
/// Relative Newton step below which the iteration stops: the functions solved here are smooth
/// (C¹ tables, C² pipes), so convergence is quadratic and the next error is ~1e-20.
constexpr double kNewtonDone = 1e-10;
}  // namespace

PumpCurve PumpCurve::fromDesignPoint(double Q_design, double dp_design, double eta_design,
                                     double shutoff_ratio, double shutoff_power_fraction) {
    if (!(Q_design > 0) || !(dp_design > 0) || !(eta_design > 0 && eta_design <= 1) ||
        !(shutoff_ratio > 1) || !(shutoff_power_fraction >= 0 && shutoff_power_fraction < 1)) {
        throw InputError(fmt::format(
            "pump design point: flow {} m3/s, pressure rise {} Pa, efficiency {}, shut-off "
            "ratio {}, shut-off power fraction {}: expected flow > 0, pressure rise > 0, "
            "0 < efficiency ≤ 1, shut-off ratio > 1, 0 ≤ power fraction < 1",
            Q_design, dp_design, eta_design, shutoff_ratio, shutoff_power_fraction));
    }
    PumpCurve c;
    c.H0 = shutoff_ratio * dp_design;
    c.H1 = 0.0;
    c.H2 = (dp_design - c.H0) / (Q_design * Q_design);
    const double P_design = Q_design * dp_design / eta_design;
    c.P0 = shutoff_power_fraction * P_design;
    c.P1 = (P_design - c.P0) / Q_design;
    c.Q_design = Q_design;
    return c;
}

double PumpCurve::pressureRise(double Q, double speed) const {
    return H0 * speed * speed + H1 * speed * Q + H2 * Q * Q;
}

double PumpCurve::electricPower(double Q, double speed) const {
    if (speed <= 0.0) return 0.0;
    return std::max(0.0, P0 * speed * speed * speed + P1 * speed * speed * Q);
}

double PumpCurve::wireToWaterEfficiency(double Q, double speed) const {
    const double P = electricPower(Q, speed);
    return P > 0.0 ? Q * pressureRise(Q, speed) / P : 0.0;
}

double PumpCurve::runoutFlow(double speed) const {
    // Positive root of H2·Q² + H1·s·Q + H0·s² = 0 (H2 < 0).
    const double a = H2, b = H1 * speed, c = H0 * speed * speed;
    if (a == 0.0) return b < 0.0 ? -c / b : INFINITY;
    const double disc = b * b - 4 * a * c;
    return (-b - std::sqrt(std::max(0.0, disc))) / (2 * a);
}

double PumpCurve::speedFor(double Q, double dp) const {
    // H0·s² + H1·Q·s + (H2·Q² − Δp) = 0, positive root (H0 > 0).
    const double a = H0, b = H1 * Q, c = H2 * Q * Q - dp;
    const double disc = b * b - 4.0 * a * c;
    if (!(a > 0.0) || disc < 0.0) return 0.0;
    return std::max(0.0, (-b + std::sqrt(disc)) / (2.0 * a));
}

double SystemCurve::operator()(double Q) const {
    return dp_static + k * Q * std::pow(std::abs(Q), n - 1.0);
}

SystemCurve SystemCurve::throughPoint(double Q_design, double dp_design, double dp_static,
                                      double n) {
    if (!(Q_design > 0) || !(dp_design > dp_static)) {
        throw InputError(
            fmt::format("system curve through {} m3/s at {} Pa with static part {} "
                        "Pa: expected flow > 0 and pressure drop above the static "
                        "part",
                        Q_design, dp_design, dp_static));
    }
    return SystemCurve{(dp_design - dp_static) / std::pow(Q_design, n), n, dp_static};
}

int runningPumps(int installed, int duty, double failed) {
    const long f = std::lround(std::max(0.0, failed));
    return static_cast<int>(std::max<long>(0, std::min<long>(duty, installed - f)));
}

PumpOperatingPoint pumpOperatingPoint(const PumpCurve& curve, int running, double speed,
                                      const SystemCurve& system, const std::string& where) {
    PumpOperatingPoint op;
    op.running = running;
    if (running <= 0 || !(speed > 0.0)) return op;
    const double shutoff = curve.pressureRise(0.0, speed);
    if (shutoff <= system.dp_static) {
        throw ModelError(fmt::format(
            "{}: no operating point: the pumps' shut-off pressure rise {:.0f} Pa at speed "
            "{:.3f} does not exceed the static requirement {:.0f} Pa of the loop; raise the "
            "speed or pick a pump with more head",
            where, shutoff, speed, system.dp_static));
    }
    // f(Q) = pump(Q/running) − system(Q) falls monotonically from f(0) > 0 to f(runout) ≤ 0.
    const double n = running;
    auto f = [&](double Q) { return curve.pressureRise(Q / n, speed) - system(Q); };
    double lo = 0.0, hi = n * curve.runoutFlow(speed);
    if (!std::isfinite(hi)) {
        hi = std::max(curve.Q_design * n * speed, 1e-6);
        while (f(hi) > 0.0) hi *= 2.0;
    }
    double Q = 0.5 * (lo + hi);
    for (int it = 0; it < 200; ++it) {
        const double fq = f(Q);
        (fq > 0.0 ? lo : hi) = Q;
        // Newton step from Q, kept inside the bracket, else bisection.
        const double h = 1e-7 * std::max(hi, 1e-9);
        const double d = (f(Q + h) - fq) / h;
        double next = d < 0.0 ? Q - fq / d : 0.5 * (lo + hi);
        if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
        if (std::abs(next - Q) <= 1e-14 * std::max(hi, 1e-12) || hi - lo < 1e-15) {
            Q = next;
            break;
        }
        Q = next;
    }
    op.flow = Q;
    op.flow_per_pump = Q / n;
    op.pressure_rise = curve.pressureRise(op.flow_per_pump, speed);
    op.power = n * curve.electricPower(op.flow_per_pump, speed);
    return op;
}

// ---------------------------------------------------------------------------------------------

FluidState FluidState::of(const Coolant& c, double T) {
    return FluidState{c.density(T), c.viscosity(T), c.conductivity(T), c.specificHeat(T)};
}

double filmFactorAtEqualMassFlow(const FluidState& op, const FluidState& rated, double n,
                                 double m) {
    const double pr = op.prandtl() / rated.prandtl();
    // cbrt for the plate channels' Pr^(1/3): the CDU's factor as it was computed before this
    // helper, to the bit.
    return (op.conductivity / rated.conductivity) * std::pow(rated.viscosity / op.viscosity, n) *
           (m == 1.0 / 3.0 ? std::cbrt(pr) : std::pow(pr, m));
}

double turbulentPressureDropFactor(const FluidState& op, const FluidState& rated) {
    return std::pow(op.density / rated.density, 0.75) *
           std::pow(op.viscosity / rated.viscosity, 0.25);
}

double frictionFactor(double Re, double rr) {
    if (!(Re > 0.0)) return 0.0;
    const double A = std::pow(-2.457 * std::log(std::pow(7.0 / Re, 0.9) + 0.27 * rr), 16.0);
    const double B = std::pow(37530.0 / Re, 16.0);
    return 8.0 * std::pow(std::pow(8.0 / Re, 12.0) + std::pow(A + B, -1.5), 1.0 / 12.0);
}

namespace {
double nusseltLaminar(double Re, double Pr, double d_over_L) {
    const double Gz = Re * Pr * d_over_L;
    return 3.66 + 0.0668 * Gz / (1.0 + 0.04 * std::pow(Gz, 2.0 / 3.0));
}
double nusseltTurbulent(double Re, double Pr, double d_over_L) {
    const double f = std::pow(0.790 * std::log(Re) - 1.64, -2.0);
    const double nu = (f / 8.0) * (Re - 1000.0) * Pr /
                      (1.0 + 12.7 * std::sqrt(f / 8.0) * (std::pow(Pr, 2.0 / 3.0) - 1.0));
    return nu * (1.0 + std::pow(d_over_L, 2.0 / 3.0));
}
}  // namespace

double nusseltNumber(double Re, double Pr, double d_over_L) {
    constexpr double kLam = 2300.0, kTurb = 1e4;
    if (Re <= kLam) return nusseltLaminar(std::max(Re, 0.0), Pr, d_over_L);
    if (Re >= kTurb) return nusseltTurbulent(Re, Pr, d_over_L);
    const double g = (Re - kLam) / (kTurb - kLam);
    return (1.0 - g) * nusseltLaminar(kLam, Pr, d_over_L) +
           g * nusseltTurbulent(kTurb, Pr, d_over_L);
}

double Duct::area() const { return count * 0.25 * M_PI * diameter * diameter; }

double Duct::reynolds(double Q, const FluidState& f) const {
    return f.density * std::abs(Q) / area() * diameter / f.viscosity;
}

double Duct::pressureDrop(double Q, const FluidState& f) const {
    if (length <= 0.0 || Q == 0.0) return 0.0;
    const double v = Q / area();
    const double fr = frictionFactor(reynolds(Q, f), roughness / diameter);
    return fr * (length / diameter) * 0.5 * f.density * v * std::abs(v);
}

double Duct::filmCoefficient(double Q, const FluidState& f, double L_heat) const {
    return nusseltNumber(reynolds(Q, f), f.prandtl(), diameter / L_heat) * f.conductivity /
           diameter;
}

RackBranch::RackBranch(RackBranchSpec spec, FluidState fluid, double flow_max)
    : spec_(spec), fluid_(fluid), q_max_(flow_max) {
    auto bad = [](const std::string& what) { throw InputError("rack branch: " + what); };
    if (!(spec_.hose.diameter > 0 && spec_.hose.length >= 0 && spec_.hose.count >= 1)) {
        bad(fmt::format("hose diameter {} m, length {} m, count {}: expected > 0, ≥ 0, ≥ 1",
                        spec_.hose.diameter, spec_.hose.length, spec_.hose.count));
    }
    if (!(spec_.channels.diameter > 0 && spec_.channels.length >= 0 && spec_.channels.count >= 1 &&
          spec_.plate_length > 0)) {
        bad(
            fmt::format("cold-plate channels {} × {} m diameter, {} m long, plate {} m: "
                        "expected positive sizes",
                        spec_.channels.count, spec_.channels.diameter, spec_.channels.length,
                        spec_.plate_length));
    }
    if (!(spec_.minor_loss_K >= 0 && spec_.valve_kvs >= 0) || !(q_max_ > 0)) {
        bad(fmt::format("minor loss K {}, valve Kvs {} m3/h, flow range {} m3/s: expected ≥ 0",
                        spec_.minor_loss_K, spec_.valve_kvs, q_max_));
    }
    // The fixed parts on an even grid in u = √(Q/Q_max): the points crowd towards zero flow,
    // where the hoses pass from laminar to turbulent; a monotone cubic through 513 points then
    // reproduces the direct law within 1e-5 (checked by a test), and an even grid is indexed
    // in O(1).
    constexpr int kPoints = 513;
    std::vector<double> q(kPoints), dp(kPoints);
    for (int i = 0; i < kPoints; ++i) {
        q[i] = static_cast<double>(i) / (kPoints - 1);
        const double Q = q_max_ * q[i] * q[i];
        dp[i] = pressureDropDirect(Q);
    }
    table_ = MonotoneTable(std::move(q), std::move(dp), "rack branch pressure drop");
    // With the valve open (the common case) the inverse is tabulated too, on the same flows:
    // Q against √Δp (close to linear when turbulent, quadratic when laminar).
    std::vector<double> s(kPoints), flow(kPoints);
    for (int i = 0; i < kPoints; ++i) {
        const double u = static_cast<double>(i) / (kPoints - 1);
        flow[i] = q_max_ * u * u;
        s[i] = std::sqrt(pressureDropDirect(flow[i]) + valvePressureDrop(flow[i], 1.0));
    }
    sqrt_dp_max_ = s.back();
    open_flow_ = MonotoneTable(std::move(s), std::move(flow), "rack branch flow");
}

double RackBranch::pressureDropDirect(double Q) const {
    const double v = Q / spec_.hose.area();
    return spec_.hose.pressureDrop(Q, fluid_) + spec_.channels.pressureDrop(Q, fluid_) +
           spec_.minor_loss_K * 0.5 * fluid_.density * v * std::abs(v);
}

double RackBranch::valvePressureDrop(double Q, double opening) const {
    if (spec_.valve_kvs <= 0.0) return 0.0;
    const double kv = spec_.valve_kvs * std::max(opening, 1e-6) / 3600.0;  // [m³/s at 1 bar]
    const double r = Q / kv;
    return 1e5 * (fluid_.density / 1000.0) * r * std::abs(r);
}

double RackBranch::pressureDrop(double Q, double opening) const {
    const double fixed =
        Q <= q_max_ ? table_(std::sqrt(std::max(Q, 0.0) / q_max_)) : pressureDropDirect(Q);
    return fixed + valvePressureDrop(Q, opening);
}

double RackBranch::pressureDropSlope(double Q, double opening) const {
    double fixed;
    if (Q > 1e-9 * q_max_ && Q <= q_max_) {
        fixed = table_.derivative(std::sqrt(Q / q_max_)) / (2.0 * std::sqrt(Q * q_max_));
    } else {
        const double h = 1e-6 * std::max(Q, 1e-3 * q_max_);
        fixed = (pressureDropDirect(Q + h) - pressureDropDirect(std::max(Q - h, 0.0))) /
                (Q + h - std::max(Q - h, 0.0));
    }
    const double valve = Q > 0.0 ? 2.0 * valvePressureDrop(Q, opening) / Q : 0.0;
    return fixed + valve;
}

double RackBranch::flow(double dp, double opening) const {
    double slope;
    return flow(dp, opening, slope);
}

double RackBranch::flow(double dp, double opening, double& slope) const {
    slope = 0.0;
    if (!(dp > 0.0) || !(opening > 0.0)) return 0.0;
    const double s = std::sqrt(dp);
    if (opening == 1.0 && s <= sqrt_dp_max_) {
        double dq_ds;
        const double q = open_flow_.valueAndDerivative(s, dq_ds);
        slope = dq_ds / (2.0 * s);
        return q;
    }
    const double Q = solveFlow(dp, opening);
    const double d = pressureDropSlope(Q, opening);
    slope = d > 0.0 ? 1.0 / d : 0.0;
    return Q;
}

double RackBranch::solveFlow(double dp, double opening) const {
    if (!(dp > 0.0) || !(opening > 0.0)) return 0.0;
    // Newton from the turbulent estimate, kept in a bracket that only shrinks; Δp(Q) is
    // increasing and convex, so the iteration converges from any start in the bracket.
    double lo = 0.0, hi = q_max_;
    while (pressureDrop(hi, opening) < dp) {
        lo = hi;
        hi *= 2.0;
    }
    double Q = hi * std::sqrt(dp / pressureDrop(hi, opening));
    if (!(Q > lo && Q < hi)) Q = 0.5 * (lo + hi);
    for (int it = 0; it < 100; ++it) {
        const double g = pressureDrop(Q, opening) - dp;
        (g > 0.0 ? hi : lo) = Q;
        if (g == 0.0) return Q;
        const double s = pressureDropSlope(Q, opening);
        double next = s > 0.0 ? Q - g / s : 0.5 * (lo + hi);
        // As RackManifold::headerDp: a Newton step this small is converged to round-off.
        if (s > 0.0 && std::abs(next - Q) <= kNewtonDone * Q) return std::clamp(next, lo, hi);
        if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
        if (hi - lo <= 4e-16 * hi) return next;
        Q = next;
    }
    return Q;
}

RackManifold::RackManifold(PumpCurve pump, double k_internal, std::vector<RackBranch> branches,
                           std::vector<Slot> rack_slots, int max_running)
    : pump_(pump),
      k_int_(k_internal),
      branches_(std::move(branches)),
      slots_(std::move(rack_slots)) {
    if (!(k_int_ >= 0.0) || slots_.empty()) {
        throw InputError(fmt::format(
            "rack manifold: internal resistance {} Pa/(m3/s)², {} branches: expected ≥ 0 and at "
            "least one branch",
            k_int_, slots_.size()));
    }
    for (const Slot& s : slots_) {
        if (s.branch >= branches_.size() || !(s.weight > 0.0)) {
            throw InputError(fmt::format(
                "rack manifold: slot with branch {} of {} and weight {}: expected a known "
                "branch and a weight > 0",
                s.branch, branches_.size(), s.weight));
        }
    }
    one_type_ =
        std::all_of(slots_.begin(), slots_.end(), [](const Slot& s) { return s.branch == 0; });
    // The start table: at each knot the root itself (from the affinity law's guess, as
    // solve() once started) and its slope by implicit differentiation of the residual
    // r(Δp, s) = Δp_pump(Q/n, s) − k·Q² − Δp: dΔp/ds = −(∂r/∂s)/(∂r/∂Δp), with
    // ∂r/∂s = 2·H0·s + H1·q at the branches' flow.
    const double h = kStartMaxSpeed / kStartKnots;
    for (int n = 1; n <= kStartPumps; ++n) {
        rated_dp_.push_back(headerDp(n, 1.0, {}, 0.5 * pump_.pressureRise(0.0, 1.0)));
    }
    start_pumps_ = std::clamp(max_running, 1, kStartPumps);
    start_dp_.reserve(static_cast<std::size_t>(start_pumps_ * (kStartKnots + 1)));
    start_slope_.reserve(static_cast<std::size_t>(start_pumps_ * (kStartKnots + 1)));
    for (int n = 1; n <= start_pumps_; ++n) {
        for (int j = 0; j <= kStartKnots; ++j) {
            const double speed = j * h;
            double dp = 0.0, slope = 0.0;
            if (j > 0) {
                dp = headerDp(n, speed, {}, rated_dp_[n - 1] * speed * speed);
                double Q = 0.0, dQ = 0.0;
                branchFlows(dp, {}, Q, dQ, {});
                const double q = Q / n;
                const double dr_ddp =
                    ((pump_.H1 * speed + 2.0 * pump_.H2 * q) / n - 2.0 * k_int_ * Q) * dQ - 1.0;
                slope = -(2.0 * pump_.H0 * speed + pump_.H1 * q) / dr_ddp;
            }
            start_dp_.push_back(dp);
            start_slope_.push_back(slope);
        }
    }
}

double RackManifold::openStart(int running, double speed) const {
    if (running < 1 || running > start_pumps_ || !(speed > 0.0) || !(speed <= kStartMaxSpeed)) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    const double h = kStartMaxSpeed / kStartKnots;
    const int j = std::min(static_cast<int>(speed / h), kStartKnots - 1);
    const std::size_t k = static_cast<std::size_t>((running - 1) * (kStartKnots + 1) + j);
    const double t = (speed - j * h) / h;
    // Cubic Hermite on [s_j, s_j+1].
    const double t2 = t * t, t3 = t2 * t;
    return (2.0 * t3 - 3.0 * t2 + 1.0) * start_dp_[k] + (t3 - 2.0 * t2 + t) * h * start_slope_[k] +
           (-2.0 * t3 + 3.0 * t2) * start_dp_[k + 1] + (t3 - t2) * h * start_slope_[k + 1];
}

void RackManifold::branchFlows(double dp, std::span<const double> openings, double& Q, double& dQ,
                               std::span<double> per_slot) const {
    // The sums run in locals: accumulating through the references Q and dQ made every slot a
    // store and a reload (~6 % of a 5,560-rack year in this loop, issue 12).
    double sum_q = 0.0, sum_dq = 0.0;
    if (one_type_ &&
        std::all_of(openings.begin(), openings.end(), [](double x) { return x == 1.0; })) {
        // Every valve open on branches of one type (a campus CDU's racks): one inversion
        // serves every slot.
        double dq;
        const double q = branches_[0].flow(dp, 1.0, dq);
        for (const Slot& s : slots_) {
            sum_q += s.weight * q;
            sum_dq += s.weight * dq;
        }
        std::fill(per_slot.begin(), per_slot.end(), q);
    } else {
        for (std::size_t i = 0; i < slots_.size(); ++i) {
            const Slot& s = slots_[i];
            double dq;
            const double q = branches_[s.branch].flow(dp, openings.empty() ? 1.0 : openings[i], dq);
            sum_q += s.weight * q;
            sum_dq += s.weight * dq;
            if (!per_slot.empty()) per_slot[i] = q;
        }
    }
    Q = sum_q;
    dQ = sum_dq;
}

double RackManifold::headerDp(double n, double speed, std::span<const double> openings,
                              double start) const {
    // r(Δp) = Δp_pump(Q(Δp)/n) − k·Q(Δp)² − Δp falls from H0·s² at Δp = 0 to below zero
    // at Δp = H0·s².
    double Q = 0.0, dQ = 0.0;
    auto residual = [&](double dp, double& slope) {
        branchFlows(dp, openings, Q, dQ, {});
        const double q = Q / n;
        const double pump = pump_.pressureRise(q, speed);
        const double dpump = (pump_.H1 * speed + 2.0 * pump_.H2 * q) / n;
        slope = (dpump - 2.0 * k_int_ * Q) * dQ - 1.0;
        return pump - k_int_ * Q * Q - dp;
    };
    double lo = 0.0, hi = pump_.pressureRise(0.0, speed);
    double dp = start > lo && start < hi ? start : 0.5 * hi, slope = 0.0;
    for (int it = 0; it < 200; ++it) {
        const double r = residual(dp, slope);
        (r > 0.0 ? lo : hi) = dp;
        if (r == 0.0) break;
        double next = slope < 0.0 ? dp - r / slope : 0.5 * (lo + hi);
        // A Newton step this small leaves an error of its square, below round-off: done. (A
        // step within round-off rounds onto the bracket's end and so used to restart bisection
        // from the far end: ~20 more iterations in many solves, 11 a solve on average.)
        if (slope < 0.0 && std::abs(next - dp) <= kNewtonDone * dp) {
            dp = std::clamp(next, lo, hi);
            break;
        }
        if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
        const bool done = hi - lo <= 4e-16 * hi;
        dp = next;
        if (done) break;
    }
    return dp;
}

RackManifold::Solution RackManifold::solve(int running, double speed,
                                           std::span<const double> openings,
                                           std::span<double> per_slot) const {
    if (!per_slot.empty() && per_slot.size() != slots_.size()) {
        throw InputError(fmt::format("rack manifold: {} per-slot flows for {} slots",
                                     per_slot.size(), slots_.size()));
    }
    Solution sol;
    std::fill(per_slot.begin(), per_slot.end(), 0.0);
    if (running <= 0 || !(speed > 0.0)) return sol;
    const bool open =
        std::all_of(openings.begin(), openings.end(), [](double x) { return x == 1.0; });
    double start = open ? openStart(running, speed) : std::numeric_limits<double>::quiet_NaN();
    if (std::isnan(start)) {
        // Throttled valves: the open system's rated Δp by the affinity law (Newton is
        // safeguarded, whatever the start); beyond the table, half the head (start 0).
        const auto n = static_cast<std::size_t>(running);
        start = n <= rated_dp_.size() ? rated_dp_[n - 1] * speed * speed : 0.0;
    }
    const double dp = headerDp(running, speed, openings, start);
    double Q = 0.0, dQ = 0.0;
    branchFlows(dp, openings, Q, dQ, per_slot);
    sol.flow = Q;
    sol.header_dp = dp;
    sol.pump_dp = dp + k_int_ * Q * Q;
    return sol;
}

}  // namespace dctwin::thermal
