// Pumps, system curves, duct friction and film coefficients, rack branches and the rack
// manifold (thermal/hydraulics.h) against hand solutions worked in the comments and published
// values (domain-facts "Key formulas" C2).
#include "thermal/hydraulics.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>

#include "core/errors.h"
#include "thermal/coolant.h"

namespace dctwin::thermal {
namespace {

// A CDU-class pump: 0.0342 m³/s (2,052 L/min) at 250 kPa, 60 % wire to water (domain-facts B4).
const PumpCurve kPump = PumpCurve::fromDesignPoint(0.0342, 250e3, 0.6);

TEST(Pumps, AffinityLaws) {
    for (double s : {0.5, 0.7, 1.1}) {
        for (double q : {0.0, 0.01, 0.0342}) {
            // Q ∝ N, Δp ∝ N², P ∝ N³ at corresponding points.
            EXPECT_NEAR(kPump.pressureRise(s * q, s), s * s * kPump.pressureRise(q, 1.0), 1e-7);
            EXPECT_NEAR(kPump.electricPower(s * q, s), s * s * s * kPump.electricPower(q, 1.0),
                        1e-9);
        }
    }
    // Design point: wire-to-water efficiency 0.6, power 0.0342·250e3/0.6 = 14,250 W.
    EXPECT_NEAR(kPump.wireToWaterEfficiency(0.0342, 1.0), 0.6, 1e-12);
    EXPECT_NEAR(kPump.electricPower(0.0342, 1.0), 14250.0, 1e-9);
    // On a system curve through the origin the operating point follows the affinity laws:
    // 70 % speed → 70 % flow and 0.7³ = 34.3 % power (C2: "70 % flow takes ~34 %").
    const SystemCurve sys = SystemCurve::throughPoint(0.0342, 250e3);
    const PumpOperatingPoint full = pumpOperatingPoint(kPump, 1, 1.0, sys, "test");
    const PumpOperatingPoint part = pumpOperatingPoint(kPump, 1, 0.7, sys, "test");
    EXPECT_NEAR(full.flow, 0.0342, 1e-12);
    EXPECT_NEAR(part.flow / full.flow, 0.7, 1e-10);
    EXPECT_NEAR(part.pressure_rise / full.pressure_rise, 0.49, 1e-9);
    EXPECT_NEAR(part.power / full.power, 0.343, 1e-9);
    EXPECT_EQ(pumpOperatingPoint(kPump, 0, 1.0, sys, "test").flow, 0.0);
    EXPECT_EQ(runningPumps(2, 1, 1.0), 1);  // N+1: one failure leaves the duty pump
    EXPECT_EQ(runningPumps(2, 1, 2.0), 0);
    EXPECT_EQ(runningPumps(3, 2, 2.0), 1);
}

TEST(Pumps, NoOperatingPointAboveShutOffHead) {
    const SystemCurve lift{1e7, 2.0, 400e3};  // static requirement above the 312.5 kPa shut-off
    try {
        pumpOperatingPoint(kPump, 1, 1.0, lift, "CDU test pumps");
        FAIL() << "no error";
    } catch (const ModelError& e) {
        EXPECT_NE(std::string(e.what()).find("shut-off"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("CDU test pumps"), std::string::npos);
    }
}

// Fluid states with property values typed from published tables, so the checks below do not
// depend on the project's coolant tables.
// Water at 20 °C (Incropera & DeWitt, 6th ed., Table A.6 at 293 K): ρ 998.2 kg/m³, μ 1.002e-3.
const FluidState kWater20{998.2, 1.002e-3, 0.598, 4182.0};

TEST(Glycol, PressureDropFactorsMatchTheManufacturersCorrectionsForTheirConcentration) {
    // Blasius at equal volume flow, (ρ/ρ_w)^(3/4)·(μ/μ_w)^(1/4), at 30 °C from the coolant
    // tables (water 995.65 kg/m³, 0.7973 mPa·s): PG30 1,023.64 kg/m³, 2.18 mPa·s →
    // 1.0210 × 1.2859 = 1.313; PG40 1,031.03 kg/m³, 3.09 mPa·s → 1.0266 × 1.4031 = 1.440.
    // Independent: the Airedale DeltaChill manual's glycol correction factors for pressure
    // drop, 1.31 at 30 % and 1.45 at 40 % (domain-facts B1; for its evaporators, with its
    // flow correction), within 3 %.
    const double T = 303.15;
    const FluidState water = FluidState::of(Coolant::byName("water"), T);
    const double f30 =
        turbulentPressureDropFactor(FluidState::of(Coolant::byName("PG30"), T), water);
    const double f40 =
        turbulentPressureDropFactor(FluidState::of(Coolant::byName("PG40"), T), water);
    EXPECT_NEAR(f30, 1.313, 0.001);
    EXPECT_NEAR(f40, 1.440, 0.001);
    EXPECT_NEAR(f30, 1.31, 0.03 * 1.31);
    EXPECT_NEAR(f40, 1.45, 0.03 * 1.45);
    EXPECT_EQ(turbulentPressureDropFactor(water, water), 1.0);
    // The film at equal mass flow, Dittus–Boelter for a cooled liquid (n 0.8, m 0.3), PG40 in
    // place of water at 40 °C: k 0.415/0.6305, μ 2.21/0.6527 mPa·s, Pr 20.07/4.327:
    // 0.6582 × 0.3773 × 1.5839 = 0.3931.
    const double T40 = 313.15;
    EXPECT_NEAR(filmFactorAtEqualMassFlow(FluidState::of(Coolant::byName("PG40"), T40),
                                          FluidState::of(Coolant::byName("water"), T40), 0.8, 0.3),
                0.3931, 0.0005);
}

TEST(Friction, ChurchillMatchesLaminarAndColebrookWithinOnePercent) {
    // Laminar: f = 64/Re exactly.
    for (double Re : {100.0, 1000.0, 2000.0}) {
        EXPECT_NEAR(frictionFactor(Re, 0.0), 64.0 / Re, 0.01 * 64.0 / Re) << Re;
    }
    // Turbulent, Colebrook 1/√f = −2·log10(ε/3.7D + 2.51/(Re·√f)) iterated by hand to
    // convergence: smooth pipe at Re 1e5 → 0.017990; ε/D = 1e-3 at Re 1e6 → 0.019943 (the
    // Moody chart reads 0.018 and 0.020).
    EXPECT_NEAR(frictionFactor(1e5, 0.0), 0.017990, 0.01 * 0.017990);
    EXPECT_NEAR(frictionFactor(1e6, 1e-3), 0.019943, 0.01 * 0.019943);
}

TEST(Duct, LaminarAndTurbulentPressureDropByHand) {
    // Laminar: water at 20 °C in a 1 mm tube, 1 m long, at Re = 500:
    //   v = Re·μ/(ρ·D) = 500·1.002e-3/(998.2·1e-3) = 0.50190 m/s, Q = v·π/4·D² = 3.9419e-7 m³/s
    //   Hagen–Poiseuille Δp = 32·μ·L·v/D² = 32·1.002e-3·1·0.50190/1e-6 = 16,093 Pa.
    const Duct tube{1e-3, 1.0, 0.0, 1.0};
    EXPECT_NEAR(tube.reynolds(3.9419e-7, kWater20), 500.0, 0.5);
    EXPECT_NEAR(tube.pressureDrop(3.9419e-7, kWater20), 16093.0, 0.01 * 16093.0);
    // The same flow split over 100 tubes: Re and Δp fall 100-fold (laminar, linear in v).
    const Duct bundle{1e-3, 1.0, 0.0, 100.0};
    EXPECT_NEAR(bundle.pressureDrop(3.9419e-5, kWater20), 16093.0, 0.01 * 16093.0);
    // Turbulent: a rack hose, 38 mm, 6 m, ε = 1.5 µm, at 200 L/min of water at 20 °C:
    //   v = 3.3333e-3/(π/4·0.038²) = 2.9391 m/s, Re = 998.2·2.9391·0.038/1.002e-3 = 111,264
    //   Colebrook (ε/D = 3.95e-5) f = 0.017820; Δp = f·(L/D)·ρv²/2 = 0.01782·157.89·4311.4
    //   = 12,131 Pa.
    const Duct hose{0.038, 6.0, 1.5e-6, 1.0};
    EXPECT_NEAR(hose.pressureDrop(200.0 / 60000.0, kWater20), 12131.0, 0.01 * 12131.0);
}

TEST(Duct, FilmCoefficientsOfWaterAndPg25AtPublishedConditions) {
    // Water, turbulent (Incropera Table A.6 at 315 K: ρ = 1/1.009e-3 = 991.1 kg/m³, c_p 4179,
    // μ 631e-6 Pa·s, k 0.634 W/(m·K), Pr 4.16), 10 mm tube, 2 m heated, Re = 20,000:
    //   f = (0.790·ln 2e4 − 1.64)⁻² = 0.026151
    //   Nu = (f/8)(Re − 1000)Pr/(1 + 12.7·√(f/8)(Pr^(2/3) − 1)) · (1 + (D/L)^(2/3))
    //      = 258.4/2.152 · 1.0292 = 123.56;  h = Nu·k/D = 7,834 W/(m²·K).
    // The twin's water table at 315 K gives the properties; the flow is the one that makes
    // Re = 20,000 with the published ones (Q = 1.0001e-4 m³/s).
    const Duct tube{0.01, 2.0, 0.0, 1.0};
    const FluidState water = FluidState::of(Coolant::byName("water"), 315.0);
    EXPECT_NEAR(tube.filmCoefficient(1.0001e-4, water, 2.0), 7834.0, 0.05 * 7834.0);
    // PG25, laminar, in a 0.5 mm cold-plate channel over a 60 mm plate at Re = 260 (ASHRAE
    // Fundamentals ch. 31 PG25 at 40 °C as tabulated in data/coolants/pg25.json: ρ 1014.3,
    // c_p 3959.5, μ 1.387e-3, k 0.4875, Pr 11.265):
    //   Gz = Re·Pr·D/L = 260·11.265·0.5/60 = 24.41
    //   Nu = 3.66 + 0.0668·Gz/(1 + 0.04·Gz^(2/3)) = 3.66 + 1.6305/1.3366 = 4.880
    //   h = 4.880·0.4875/0.5e-3 = 4,758 W/(m²·K); v = Re·μ/(ρ·D) = 0.71108 m/s.
    const Duct channel{0.5e-3, 0.12, 0.0, 1.0};
    const FluidState pg25 = FluidState::of(Coolant::byName("PG25"), 313.15);
    const double q = 0.71108 * 0.25 * M_PI * 0.5e-3 * 0.5e-3;
    EXPECT_NEAR(channel.filmCoefficient(q, pg25, 0.06), 4758.0, 0.05 * 4758.0);
    // Water in the same channel at the same flow: higher k and ρ·c_p, so a larger film
    // coefficient (the gain a cold plate sees from the coolant alone).
    const FluidState water40 = FluidState::of(Coolant::byName("water"), 313.15);
    EXPECT_GT(channel.filmCoefficient(q, water40, 0.06),
              1.15 * channel.filmCoefficient(q, pg25, 0.06));
    // No flow: the fully developed laminar limit Nu = 3.66 keeps it finite.
    EXPECT_NEAR(channel.filmCoefficient(0.0, pg25, 0.06), 3.66 * pg25.conductivity / 0.5e-3, 1e-9);
}

/// A branch of fittings and a valve only (no hose or plate friction): Δp = c·Q² exactly.
RackBranchSpec quadraticBranch(double K, double kvs) {
    RackBranchSpec b;
    b.hose = Duct{0.038, 0.0, 0.0, 1.0};
    b.minor_loss_K = K;
    b.channels = Duct{0.5e-3, 0.0, 0.0, 1.0};
    b.plate_length = 0.06;
    b.valve_kvs = kvs;
    return b;
}

TEST(RackBranch, TableInverseAndValveAgreeWithTheDirectLaw) {
    RackBranchSpec b = quadraticBranch(6.0, 40.0);
    b.hose.length = 6.0;
    b.hose.roughness = 1.5e-6;
    b.channels = Duct{0.5e-3, 0.12, 0.0, 24000.0};
    const RackBranch br(b, kWater20, 4.0 * 200.0 / 60000.0);
    for (double q : {1e-5, 1e-4, 1e-3, 3.3e-3, 1e-2}) {
        const double dp = br.pressureDrop(q);
        EXPECT_NEAR(dp, br.pressureDropDirect(q) + br.valvePressureDrop(q, 1.0), 1e-5 * dp) << q;
        EXPECT_NEAR(br.flow(dp), q, 1e-5 * q) << q;
        EXPECT_NEAR(br.flow(br.pressureDrop(q, 0.3), 0.3), q, 1e-9 * q) << q;
    }
    // Valve: Kvs 40 m³/h at 12 m³/h (200 L/min) of water: Δp = (12/40)²·1 bar·ρ/1000
    // = 0.09 bar·0.9982 = 8,984 Pa; at half opening four times that.
    EXPECT_NEAR(br.valvePressureDrop(200.0 / 60000.0, 1.0), 8984.0, 1.0);
    EXPECT_NEAR(br.valvePressureDrop(200.0 / 60000.0, 0.5), 4.0 * 8984.0, 4.0);
    EXPECT_EQ(br.flow(-5.0), 0.0);
    EXPECT_EQ(br.flow(1e4, 0.0), 0.0);
}

TEST(RackManifold, HalfClosedValveSplitsTheFlowAsTheHandSolutionSays) {
    // Two branches with Δp = c_i·q_i² (fittings K = 6 at 38 mm, valve Kvs 40 m³/h), one valve
    // half open, on one pump (the CDU-class pump above) with an internal k = 100 kPa at
    // 0.0342 m³/s:
    //   c_open = K·ρ/(2A²) + 1e5·(ρ/1000)·(3600/Kvs)²,  c_half = K·ρ/(2A²) + 4·(valve part)
    //   q_i = √(Δp/c_i)  ⇒  Q = β·√Δp, β = 1/√c_open + 1/√c_half
    //   pump: H0·s² + H2·Q² − k·Q² = Δp = Q²/β²  ⇒  Q = s·√(H0/(1/β² − H2 + k))
    const double rho = kWater20.density, A = 0.25 * M_PI * 0.038 * 0.038;
    const double c_fit = 6.0 * rho / (2.0 * A * A);
    const double c_valve = 1e5 * (rho / 1000.0) * std::pow(3600.0 / 40.0, 2);
    const double c_open = c_fit + c_valve, c_half = c_fit + 4.0 * c_valve;
    const double beta = 1.0 / std::sqrt(c_open) + 1.0 / std::sqrt(c_half);
    const double k_int = 100e3 / (0.0342 * 0.0342);
    const double s = 0.8;
    const double Q = s * std::sqrt(kPump.H0 / (1.0 / (beta * beta) - kPump.H2 + k_int));
    const double dp = Q * Q / (beta * beta);
    const RackManifold m(kPump, k_int, {RackBranch(quadraticBranch(6.0, 40.0), kWater20, 0.05)},
                         {RackManifold::Slot{0, 1.0}, RackManifold::Slot{0, 1.0}});
    const std::vector<double> openings{1.0, 0.5};
    std::vector<double> per_slot(2), per_slot2(2);
    const RackManifold::Solution sol = m.solve(1, s, openings, per_slot);
    EXPECT_NEAR(sol.flow, Q, 1e-3 * Q);
    EXPECT_NEAR(sol.header_dp, dp, 1e-3 * dp);
    EXPECT_NEAR(per_slot[0], std::sqrt(dp / c_open), 1e-3 * per_slot[0]);
    EXPECT_NEAR(per_slot[1], std::sqrt(dp / c_half), 1e-3 * per_slot[1]);
    // Closing the second valve further gives the open branch more flow (less in total).
    const std::vector<double> more_closed{1.0, 0.2};
    const RackManifold::Solution sol2 = m.solve(1, s, more_closed, per_slot2);
    EXPECT_GT(per_slot2[0], per_slot[0]);
    EXPECT_LT(sol2.flow, sol.flow);
    // No pump running: no flow, and none in any branch.
    EXPECT_EQ(m.solve(0, s, openings, per_slot2).flow, 0.0);
    EXPECT_EQ(per_slot2[0], 0.0);
    EXPECT_EQ(per_slot2[1], 0.0);
    // The per-slot flows need one entry per slot.
    std::vector<double> one(1);
    EXPECT_THROW(m.solve(1, s, openings, one), InputError);
}

TEST(Pumps, HalfFlowTakesAnEighthOfThePowerOnAParabola) {
    // Affinity laws along a system parabola through the origin (the quadratic branches above
    // with k_int): half speed gives half the flow and (0.5)³ = 12.5 % of the electric power
    // (domain-facts C2), within 2 %.
    const RackManifold m(kPump, 100e3 / (0.0342 * 0.0342),
                         {RackBranch(quadraticBranch(6.0, 40.0), kWater20, 0.05)},
                         {RackManifold::Slot{0, 8.0}});
    const RackManifold::Solution full = m.solve(1, 1.0, {}), half = m.solve(1, 0.5, {});
    EXPECT_NEAR(half.flow / full.flow, 0.5, 1e-6);
    const double P1 = kPump.electricPower(full.flow, 1.0),
                 P05 = kPump.electricPower(half.flow, 0.5);
    EXPECT_NEAR(P05 / P1, 0.125, 0.02 * 0.125);
}

TEST(RackManifold, StartTableIsExactForAQuadraticSystemAndCloseForTheCatalogRack) {
    // Quadratic branches and pump (H1 = 0): Δp = c·s² exactly (the hand solution above, with
    // β = 8/√c_open for eight open branches), and a cubic Hermite table of it is exact: the
    // start equals the root to round-off at any speed.
    const double rho = kWater20.density, A = 0.25 * M_PI * 0.038 * 0.038;
    const double c_open =
        6.0 * rho / (2.0 * A * A) + 1e5 * (rho / 1000.0) * std::pow(3600.0 / 40.0, 2);
    const double k_int = 100e3 / (0.0342 * 0.0342);
    const RackManifold quad(kPump, k_int, {RackBranch(quadraticBranch(6.0, 40.0), kWater20, 0.05)},
                            {RackManifold::Slot{0, 8.0}}, 2);
    for (int n = 1; n <= 2; ++n) {
        const double beta = 8.0 / std::sqrt(c_open);
        for (double s : {0.013, 0.3, 0.77, 1.0, 1.19}) {
            const double Q =
                s * std::sqrt(kPump.H0 / (1.0 / (beta * beta) - kPump.H2 / (n * n) + k_int));
            const double dp = Q * Q / (beta * beta);
            EXPECT_NEAR(quad.openStart(n, s), dp, 1e-3 * dp) << n << " pumps at " << s;
            EXPECT_NEAR(quad.solve(n, s, {}).header_dp, dp, 1e-3 * dp) << n << " pumps at " << s;
            EXPECT_NEAR(quad.openStart(n, s), quad.solve(n, s, {}).header_dp, 1e-12 * dp)
                << n << " pumps at " << s;
        }
    }
    // Beyond the table: no start (solve() falls back to the affinity law).
    EXPECT_TRUE(std::isnan(quad.openStart(3, 0.8)));
    EXPECT_TRUE(std::isnan(quad.openStart(1, 1.25)));
    EXPECT_TRUE(std::isnan(quad.openStart(1, 0.0)));

    // A rack branch with laminar channels and a rough hose (the test above): Δp is no longer
    // ∝ s². Over the CDUs' operating range (at least 20 % speed; the catalog's minimum is 15 %)
    // the table's start is within 2e-6 of the root (measured 8.5e-7; ~2e-5 between 10 and
    // 20 %, where the hose's flow is in transition; 4 % in the table's first interval, below
    // 5 %); the slopes at the knots off by 1 % leave 4e-4. solve() meets the pump curve to
    // 1e-9 from any start.
    RackBranchSpec b = quadraticBranch(6.0, 40.0);
    b.hose.length = 6.0;
    b.hose.roughness = 1.5e-6;
    b.channels = Duct{0.5e-3, 0.12, 0.0, 24000.0};
    const RackManifold m(kPump, k_int, {RackBranch(b, kWater20, 4.0 * 200.0 / 60000.0)},
                         {RackManifold::Slot{0, 8.0}}, 2);
    double worst = 0.0, worst_low = 0.0;
    for (int n = 1; n <= 2; ++n) {
        for (int i = 1; i <= 240; ++i) {
            const double s = 0.005 * i - 0.0013;
            const RackManifold::Solution sol = m.solve(n, s, {});
            const double err = std::abs(m.openStart(n, s) / sol.header_dp - 1.0);
            (s >= 0.2 ? worst : worst_low) = std::max(s >= 0.2 ? worst : worst_low, err);
            const double pump = kPump.pressureRise(sol.flow / n, s) - k_int * sol.flow * sol.flow;
            EXPECT_NEAR(pump, sol.header_dp, 1e-9 * sol.header_dp) << n << " pumps at " << s;
        }
    }
    EXPECT_LT(worst, 2e-6);
    EXPECT_LT(worst_low, 0.1);
    std::printf(
        "[ manifold ] start table: worst relative start error %.2e from 20 %% speed, "
        "%.2e below\n",
        worst, worst_low);
}

}  // namespace
}  // namespace dctwin::thermal
