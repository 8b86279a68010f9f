#include "thermal/hydraulics.h"

#include <fmt/format.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "core/errors.h"

namespace dctwin::thermal {

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

HydraulicNetwork::HydraulicNetwork(std::string name) : name_(std::move(name)) {}

std::size_t HydraulicNetwork::addNode(std::string name) {
    nodes_.push_back(std::move(name));
    return nodes_.size() - 1;
}

std::size_t HydraulicNetwork::addBranch(Branch b) {
    if (b.from >= nodes_.size() || b.to >= nodes_.size() || b.from == b.to) {
        throw ModelError(
            fmt::format("hydraulic network '{}': branch '{}' connects nodes {} and "
                        "{}; expected two different nodes of the {} added",
                        name_, b.name, b.from, b.to, nodes_.size()));
    }
    branches_.push_back(std::move(b));
    return branches_.size() - 1;
}

std::size_t HydraulicNetwork::addResistance(std::string name, std::size_t from, std::size_t to,
                                            double k, double n, double dp_static) {
    if (!(k > 0) || !(n >= 1.0 && n <= 3.0) || !std::isfinite(dp_static)) {
        throw InputError(
            fmt::format("hydraulic network '{}': branch '{}' has k = {} and n = {}; "
                        "expected k > 0 and 1 ≤ n ≤ 3",
                        name_, name, k, n));
    }
    Branch b{std::move(name), Kind::Resistance, from, to};
    b.k = k;
    b.n = n;
    b.dp_static = dp_static;
    return addBranch(std::move(b));
}

std::size_t HydraulicNetwork::addValve(std::string name, std::size_t from, std::size_t to,
                                       double k_open, double opening, double n) {
    if (!(k_open > 0)) {
        throw InputError(fmt::format("hydraulic network '{}': valve '{}' needs k_open > 0, got {}",
                                     name_, name, k_open));
    }
    Branch b{std::move(name), Kind::Valve, from, to};
    b.k_open = k_open;
    b.n = n;
    const std::size_t i = addBranch(std::move(b));
    setOpening(i, opening);
    return i;
}

std::size_t HydraulicNetwork::addPump(std::string name, std::size_t suction, std::size_t discharge,
                                      PumpCurve curve, int parallel, int series, double speed) {
    if (parallel < 1 || series < 1 || !(curve.H0 > 0)) {
        throw InputError(
            fmt::format("hydraulic network '{}': pump '{}' needs parallel ≥ 1, "
                        "series ≥ 1 and a positive shut-off head (got {}, {}, {} Pa)",
                        name_, name, parallel, series, curve.H0));
    }
    Branch b{std::move(name), Kind::Pump, suction, discharge};
    b.curve = curve;
    b.parallel = parallel;
    b.running = parallel;
    b.series = series;
    const std::size_t i = addBranch(std::move(b));
    setSpeed(i, speed);
    return i;
}

const HydraulicNetwork::Branch& HydraulicNetwork::pumpBranch(std::size_t b,
                                                             const char* what) const {
    if (b >= branches_.size() || branches_[b].kind != Kind::Pump) {
        throw ModelError(
            fmt::format("hydraulic network '{}': {} needs a pump branch, branch {} "
                        "is not one",
                        name_, what, b));
    }
    return branches_[b];
}

void HydraulicNetwork::setSpeed(std::size_t b, double speed) {
    pumpBranch(b, "setSpeed");
    if (!(speed >= 0.0 && speed <= 1.5)) {
        throw InputError(
            fmt::format("hydraulic network '{}': pump '{}' speed {} is outside 0..1.5 "
                        "of rated",
                        name_, branches_[b].name, speed));
    }
    branches_[b].speed = speed;
}

void HydraulicNetwork::setRunning(std::size_t b, int running) {
    pumpBranch(b, "setRunning");
    if (running < 0 || running > branches_[b].parallel) {
        throw InputError(
            fmt::format("hydraulic network '{}': pump '{}' has {} pumps in parallel; "
                        "{} cannot run",
                        name_, branches_[b].name, branches_[b].parallel, running));
    }
    branches_[b].running = running;
}

void HydraulicNetwork::setOpening(std::size_t b, double opening) {
    if (b >= branches_.size() || branches_[b].kind != Kind::Valve) {
        throw ModelError(
            fmt::format("hydraulic network '{}': setOpening needs a valve branch", name_));
    }
    if (!(opening > 0.0 && opening <= 1.0)) {
        throw InputError(
            fmt::format("hydraulic network '{}': valve '{}' opening {} is outside "
                        "(0, 1]; remove the branch to close it",
                        name_, branches_[b].name, opening));
    }
    branches_[b].opening = opening;
    branches_[b].k = branches_[b].k_open / (opening * opening);
}

bool HydraulicNetwork::closed(const Branch& b) const {
    return b.kind == Kind::Pump && (b.running == 0 || b.speed <= 0.0);
}

void HydraulicNetwork::law(const Branch& b, double Q, double q_eps, double& dp, double& ddp) const {
    if (b.kind == Kind::Pump) {
        const double m = b.running, s = b.speed;
        const double q = Q / m;
        dp = -b.series * b.curve.pressureRise(q, s);
        ddp = -b.series * (b.curve.H1 * s + 2.0 * b.curve.H2 * q) / m;
        return;
    }
    const double r2 = Q * Q + q_eps * q_eps;
    const double g = std::pow(r2, 0.5 * (b.n - 1.0));
    dp = b.dp_static + b.k * Q * g;
    ddp = b.k * (g + Q * (b.n - 1.0) * Q * std::pow(r2, 0.5 * (b.n - 3.0)));
}

double HydraulicNetwork::flowScale() const {
    double q = 0.0;
    for (const auto& b : branches_) {
        if (b.kind == Kind::Pump && !closed(b)) {
            q = std::max(
                q, b.running * b.speed * std::max(b.curve.Q_design, 0.5 * b.curve.runoutFlow(1.0)));
        }
    }
    return q > 0.0 ? q : 1e-3;
}

double HydraulicNetwork::pressureScale() const {
    double p = 0.0;
    for (const auto& b : branches_) {
        if (b.kind == Kind::Pump && !closed(b)) p = std::max(p, b.series * b.curve.H0);
        if (b.kind != Kind::Pump) p = std::max(p, std::abs(b.dp_static));
    }
    return p > 0.0 ? p : 1e5;
}

HydraulicSolution HydraulicNetwork::solve(const HydraulicSolution* guess) const {
    const std::size_t nb = branches_.size(), nn = nodes_.size();
    if (nn < 2 || nb == 0) {
        throw ModelError(
            fmt::format("hydraulic network '{}' needs at least two nodes and one "
                        "branch",
                        name_));
    }
    const std::size_t np = nn - 1;  // unknown pressures (node 0 is the reference)
    const std::size_t N = nb + np;
    const double q_s = flowScale(), p_s = pressureScale(), q_eps = 1e-6 * q_s;
    using Vec = Eigen::VectorXd;
    using Mat = Eigen::MatrixXd;

    // Residual F (scaled) and Jacobian J at x = [Q (÷q_s); p (÷p_s)].
    auto evaluate = [&](const Vec& x, Vec& F, Mat* J) {
        F.setZero(static_cast<Eigen::Index>(N));
        if (J) J->setZero(static_cast<Eigen::Index>(N), static_cast<Eigen::Index>(N));
        for (std::size_t b = 0; b < nb; ++b) {
            const Branch& br = branches_[b];
            const auto row = static_cast<Eigen::Index>(b);
            const double Q = x[row] * q_s;
            if (closed(br)) {
                F[row] = x[row];
                if (J) (*J)(row, row) = 1.0;
                continue;
            }
            double dp, ddp;
            law(br, Q, q_eps, dp, ddp);
            const double p_from = br.from ? x[static_cast<Eigen::Index>(nb + br.from - 1)] : 0.0;
            const double p_to = br.to ? x[static_cast<Eigen::Index>(nb + br.to - 1)] : 0.0;
            F[row] = p_from - p_to - dp / p_s;
            if (J) {
                (*J)(row, row) = -ddp * q_s / p_s;
                if (br.from) (*J)(row, static_cast<Eigen::Index>(nb + br.from - 1)) += 1.0;
                if (br.to) (*J)(row, static_cast<Eigen::Index>(nb + br.to - 1)) -= 1.0;
            }
        }
        for (std::size_t b = 0; b < nb; ++b) {
            const Branch& br = branches_[b];
            const auto col = static_cast<Eigen::Index>(b);
            if (br.from) {
                F[static_cast<Eigen::Index>(nb + br.from - 1)] -= x[col];
                if (J) (*J)(static_cast<Eigen::Index>(nb + br.from - 1), col) -= 1.0;
            }
            if (br.to) {
                F[static_cast<Eigen::Index>(nb + br.to - 1)] += x[col];
                if (J) (*J)(static_cast<Eigen::Index>(nb + br.to - 1), col) += 1.0;
            }
        }
    };

    Vec x = Vec::Zero(static_cast<Eigen::Index>(N));
    if (guess && guess->flow.size() == nb && guess->pressure.size() == nn) {
        for (std::size_t b = 0; b < nb; ++b) x[static_cast<Eigen::Index>(b)] = guess->flow[b] / q_s;
        for (std::size_t j = 1; j < nn; ++j) {
            x[static_cast<Eigen::Index>(nb + j - 1)] = guess->pressure[j] / p_s;
        }
    } else {
        // Linearised network: each law replaced by its secant through the origin at the flow
        // scale (pumps: the chord from shut-off to run-out), solved exactly. It has the right
        // flow directions and magnitudes within a factor of a few.
        Vec F;
        Mat J;
        evaluate(x, F, &J);
        for (std::size_t b = 0; b < nb; ++b) {
            const Branch& br = branches_[b];
            if (closed(br)) continue;
            const auto row = static_cast<Eigen::Index>(b);
            double slope;
            double offset;
            if (br.kind == Kind::Pump) {
                const double runout = br.running * br.curve.runoutFlow(br.speed);
                const double shut = br.series * br.curve.pressureRise(0.0, br.speed);
                slope = shut / runout;  // dp = −shut + slope·Q
                offset = -shut;
            } else {
                slope = br.k * std::pow(q_s, br.n - 1.0);
                offset = br.dp_static;
            }
            J(row, row) = -slope * q_s / p_s;
            F[row] = -offset / p_s;
        }
        // J·x + (F − J·0) = 0 with the linear laws: x = −J⁻¹·F_offsets.
        Vec rhs = Vec::Zero(static_cast<Eigen::Index>(N));
        for (std::size_t b = 0; b < nb; ++b) {
            if (!closed(branches_[b]))
                rhs[static_cast<Eigen::Index>(b)] = F[static_cast<Eigen::Index>(b)];
        }
        Eigen::FullPivLU<Mat> lu(J);
        if (lu.rank() < static_cast<Eigen::Index>(N)) {
            throw ModelError(
                fmt::format("hydraulic network '{}' is singular: some node is not connected to the "
                            "reference node '{}' through open branches",
                            name_, nodes_[0]));
        }
        x = lu.solve(-rhs);
    }

    HydraulicSolution sol;
    Vec F, Fn;
    Mat J;
    evaluate(x, F, &J);
    double norm = F.norm();
    const double tol = 1e-11;
    int it = 0;
    for (; it < 100 && norm > tol; ++it) {
        Eigen::PartialPivLU<Mat> lu(J);
        const Vec dx = lu.solve(-F);
        if (!dx.allFinite()) break;
        double lambda = 1.0;
        Vec xn;
        double nn_norm = INFINITY;
        for (int ls = 0; ls < 40; ++ls) {
            xn = x + lambda * dx;
            evaluate(xn, Fn, nullptr);
            nn_norm = Fn.norm();
            if (std::isfinite(nn_norm) && nn_norm <= (1.0 - 1e-4 * lambda) * norm) break;
            lambda *= 0.5;
        }
        if (!std::isfinite(nn_norm)) break;
        x = xn;
        evaluate(x, F, &J);
        norm = F.norm();
    }
    sol.iterations = it;
    sol.residual = norm;
    if (!(norm <= tol * 100)) {
        std::size_t worst = 0;
        for (std::size_t i = 0; i < N; ++i) {
            if (std::abs(F[static_cast<Eigen::Index>(i)]) >
                std::abs(F[static_cast<Eigen::Index>(worst)])) {
                worst = i;
            }
        }
        const std::string where = worst < nb ? "branch '" + branches_[worst].name + "'"
                                             : "node '" + nodes_[worst - nb + 1] + "'";
        throw ModelError(fmt::format(
            "hydraulic network '{}': Newton did not converge after {} iterations (scaled "
            "residual {:.3g}, worst at {}); check that every branch has a path back to the "
            "pumps and that pump heads match the resistances",
            name_, it, norm, where));
    }
    sol.flow.resize(nb);
    sol.pressure.assign(nn, 0.0);
    for (std::size_t b = 0; b < nb; ++b) sol.flow[b] = x[static_cast<Eigen::Index>(b)] * q_s;
    for (std::size_t j = 1; j < nn; ++j) {
        sol.pressure[j] = x[static_cast<Eigen::Index>(nb + j - 1)] * p_s;
    }
    for (std::size_t b = 0; b < nb; ++b) {
        const Branch& br = branches_[b];
        if (br.kind != Kind::Pump || closed(br)) continue;
        const double q = sol.flow[b] / br.running;
        if (q < -1e-9 * q_s) {
            throw ModelError(fmt::format(
                "hydraulic network '{}': no operating point with forward flow through pump "
                "'{}': its shut-off pressure rise {:.0f} Pa at speed {:.3f} is below what the "
                "network requires (the pump would run backwards at {:.4g} m3/s); raise the "
                "speed, add pumps in series or reduce the static lift",
                name_, br.name, br.series * br.curve.pressureRise(0.0, br.speed), br.speed,
                sol.flow[b]));
        }
        if (br.curve.pressureRise(q, br.speed) < 0.0) {
            throw ModelError(fmt::format(
                "hydraulic network '{}': pump '{}' is driven beyond run-out ({:.4g} m3/s per "
                "pump, run-out {:.4g} m3/s at speed {:.3f}); the other pumps push flow through "
                "it, so no consistent operating point exists",
                name_, br.name, q, br.curve.runoutFlow(br.speed), br.speed));
        }
    }
    return sol;
}

double HydraulicNetwork::pumpPower(const HydraulicSolution& s, std::size_t b) const {
    const Branch& br = pumpBranch(b, "pumpPower");
    if (closed(br)) return 0.0;
    return br.series * br.running * br.curve.electricPower(s.flow.at(b) / br.running, br.speed);
}

double HydraulicNetwork::pumpPressureRise(const HydraulicSolution& s, std::size_t b) const {
    const Branch& br = pumpBranch(b, "pumpPressureRise");
    if (closed(br)) return 0.0;
    return br.series * br.curve.pressureRise(s.flow.at(b) / br.running, br.speed);
}

// ---------------------------------------------------------------------------------------------

PumpGroup::PumpGroup(std::string name, Params params) : Component(std::move(name)), p_(params) {
    if (p_.installed < 1 || p_.duty < 1 || p_.duty > p_.installed) {
        throw InputError(
            fmt::format("pump group '{}': {} installed and {} duty pumps; expected "
                        "1 ≤ duty ≤ installed",
                        this->name(), p_.installed, p_.duty));
    }
    addInput({"speed", "1", 1.0, 1.0, "pump speed command, fraction of rated"});
    addInput({"pumps_failed", "1", 1.0, 0.0, "number of failed pumps"});
    addOutput(
        {"flow", "m3/s", std::max(1e-6, p_.duty * p_.curve.Q_design), 0.0, "total flow delivered"});
    addOutput({"pressure_rise", "Pa", std::max(1.0, p_.curve.H0), 0.0, "pump pressure rise"});
    addOutput({"power", "W", std::max(1.0, p_.duty * p_.curve.P1 * p_.curve.Q_design), 0.0,
               "electric input of the running pumps"});
    addOutput({"pumps_running", "1", 1.0, 0.0, "pumps running"});
}

void PumpGroup::computeOutputs(double, std::span<const double>, std::span<const double> u,
                               std::span<double> y) const {
    const double speed = u[0];
    if (!(speed >= 0.0 && speed <= 1.2)) {
        throw InputError(
            fmt::format("pump group '{}': speed command {} is outside 0..1.2 of "
                        "rated",
                        name(), speed));
    }
    const int running = runningPumps(p_.installed, p_.duty, u[1]);
    const PumpOperatingPoint op = pumpOperatingPoint(p_.curve, running, speed, p_.system, name());
    y[0] = op.flow;
    y[1] = op.pressure_rise;
    y[2] = op.power;
    y[3] = op.running;
}

}  // namespace dctwin::thermal
