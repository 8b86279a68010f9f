// Coolant property tables (thermal/coolant.h) against their published sources.
#include "thermal/coolant.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/json.h"
#include "core/units.h"
#include "test_helpers.h"

namespace dctwin::thermal {
namespace {

using units::celsiusToKelvin;
namespace fs = std::filesystem;
const fs::path kSourceData = fs::path(DCTWIN_SOURCE_DIR) / "data";

TEST(Coolant, Pg25MatchesAiredaleDesignTable) {
    // domain-facts B1 (Airedale DeltaChill manual): density and specific heat of PG25.
    const Coolant pg = Coolant::byName("PG25");
    const double T[] = {20, 25, 30, 40, 45};
    const double rho[] = {1023.7, 1021.5, 1019.2, 1014.3, 1011.6};
    const double cp[] = {3910, 3920, 3940, 3960, 3970};
    for (int i = 0; i < 5; ++i) {
        EXPECT_NEAR(pg.density(celsiusToKelvin(T[i])), rho[i], 0.001 * rho[i]) << T[i];
        EXPECT_NEAR(pg.specificHeat(celsiusToKelvin(T[i])), cp[i], 0.005 * cp[i]) << T[i];
    }
    // B1: viscosity ~1.3-1.5 mPa·s at 40 °C, ~2.0-2.4 at 20-25 °C.
    EXPECT_GT(pg.viscosity(celsiusToKelvin(40)), 1.3e-3);
    EXPECT_LT(pg.viscosity(celsiusToKelvin(40)), 1.5e-3);
    EXPECT_GT(pg.viscosity(celsiusToKelvin(25)), 2.0e-3);
    EXPECT_LT(pg.viscosity(celsiusToKelvin(25)), 2.4e-3);
    EXPECT_NEAR(pg.freezingPoint(), celsiusToKelvin(-9.6), 1e-12);  // B1
    // Physics check of B2: 1.49 L/(min·kW) at ΔT = 10 K with PG25 at 30 °C.
    const double Lpm_per_kW = 60000.0 / (pg.density(celsiusToKelvin(30)) / 1000.0 *
                                         pg.specificHeat(celsiusToKelvin(30)) * 10.0);
    EXPECT_NEAR(Lpm_per_kW, 1.49, 0.01);
}

TEST(Coolant, WaterAndGlycolTableValues) {
    const Coolant w = Coolant::byName("water");
    // IAPWS-95 at 0.101325 MPa, 20 °C: ρ = 998.21 kg/m³, c_p = 4184.3 J/(kg·K); IAPWS 2008
    // viscosity 1.0016 mPa·s; IAPWS 2011 conductivity 0.5984 W/(m·K).
    EXPECT_NEAR(w.density(celsiusToKelvin(20)), 998.21, 1e-9);
    EXPECT_NEAR(w.specificHeat(celsiusToKelvin(20)), 4184.3, 1e-9);
    EXPECT_NEAR(w.viscosity(celsiusToKelvin(20)), 1.0016e-3, 1e-12);
    EXPECT_NEAR(w.conductivity(celsiusToKelvin(20)), 0.5984, 1e-12);
    // Between knots: 25 °C water is 997.05 kg/m³ (IAPWS-95); the interpolant is within 0.02.
    EXPECT_NEAR(w.density(celsiusToKelvin(25)), 997.05, 0.05);
    // ASHRAE Fundamentals ch. 31 (as tabulated by EnergyPlus), 40 °C.
    EXPECT_NEAR(Coolant::byName("PG20").density(celsiusToKelvin(40)), 1010.16, 1e-9);
    EXPECT_NEAR(Coolant::byName("pg30").specificHeat(celsiusToKelvin(40)), 3903, 1e-9);
    EXPECT_NEAR(Coolant::byName("PG30").viscosity(celsiusToKelvin(40)), 1.63e-3, 1e-15);
}

TEST(Coolant, InterpolationIsMonotoneWhereTheDataAre) {
    for (const auto& name : Coolant::knownNames()) {
        const Coolant c = Coolant::byName(name);
        double prev_rho = INFINITY, prev_mu = INFINITY;
        for (double T = c.minTemperature(); T <= c.maxTemperature(); T += 0.05) {
            const double rho = c.density(T), mu = c.viscosity(T);
            if (T > celsiusToKelvin(4.5)) {  // water's density maximum is at 4 °C
                EXPECT_LE(rho, prev_rho + 1e-12) << name << " " << T;
            }
            EXPECT_LT(mu, prev_mu) << name << " " << T;
            EXPECT_GT(c.specificHeat(T), 3000.0);
            EXPECT_GT(c.conductivity(T), 0.3);
            prev_rho = rho;
            prev_mu = mu;
        }
    }
}

TEST(Coolant, EnthalpyIsTheIntegralOfSpecificHeatAndInverts) {
    const Coolant pg = Coolant::byName("PG25");
    EXPECT_NEAR(pg.enthalpy(pg.referenceTemperature()), 0.0, 1e-9);
    // Fine trapezoid of c_p from 20 to 55 °C.
    const double a = celsiusToKelvin(20), b = celsiusToKelvin(55);
    const int n = 20000;
    double integral = 0.0;
    for (int i = 0; i < n; ++i) {
        const double t0 = a + (b - a) * i / n, t1 = a + (b - a) * (i + 1) / n;
        integral += 0.5 * (pg.specificHeat(t0) + pg.specificHeat(t1)) * (t1 - t0);
    }
    EXPECT_NEAR(pg.enthalpy(b) - pg.enthalpy(a), integral, 1e-6 * integral);
    for (double T = celsiusToKelvin(-4); T < celsiusToKelvin(99); T += 3.7) {
        EXPECT_NEAR(pg.temperatureFromEnthalpy(pg.enthalpy(T)), T, 1e-9);
    }
    // Heating 1 kg/s by 39.4 kW raises PG25 near 35 °C by ~10 K.
    const double T2 = pg.heatedTemperature(celsiusToKelvin(35), 1.0, 39400.0);
    EXPECT_NEAR(T2 - celsiusToKelvin(35), 39400.0 / pg.specificHeat(celsiusToKelvin(40)), 0.01);
}

TEST(Coolant, TemperatureFromEnthalpyIsTheRootOfEnthalpyToRoundOff) {
    // The inverse solves each interval's quartic by Newton from its secant (MonotoneTable::
    // integralInverse). Checked against bisection on enthalpy() itself, an independent
    // method: 200 halvings of the table range end at the last representable temperatures
    // around the root. At every knot, its last-bit neighbours and 5,000 points per coolant,
    // the two agree within 1e-11 K (~200 ulps at 300 K; the enthalpy's own round-off, ~1e-11
    // J/kg at 300 kJ/kg over c_p ≈ 4,000 J/(kg K), moves the root by ~1e-14 K).
    for (const std::string& name : Coolant::knownNames()) {
        const Coolant c = Coolant::byName(name);
        const double lo = c.minTemperature(), hi = c.maxTemperature();
        auto bisect = [&](double h) {
            double a = lo, b = hi;
            for (int i = 0; i < 200 && b > a; ++i) {
                const double m = 0.5 * (a + b);
                if (m <= a || m >= b) break;
                (c.enthalpy(m) < h ? a : b) = m;
            }
            return 0.5 * (a + b);
        };
        std::vector<double> Ts;
        for (double k = std::ceil(units::kelvinToCelsius(lo) / 5.0) * 5.0;
             k <= units::kelvinToCelsius(hi); k += 5.0) {
            const double T = celsiusToKelvin(k);
            for (double t : {std::nextafter(T, 0.0), T, std::nextafter(T, 1e9)}) {
                if (t >= lo && t <= hi) Ts.push_back(t);
            }
        }
        for (int i = 0; i <= 5000; ++i) Ts.push_back(lo + (hi - lo) * i / 5000.0);
        double worst = 0.0;
        for (double T : Ts) {
            const double h = c.enthalpy(T);
            const double Tinv = c.temperatureFromEnthalpy(h);
            worst = std::max(worst, std::abs(Tinv - bisect(h)));
            EXPECT_NEAR(Tinv, bisect(h), 1e-11) << name << " at " << T << " K";
            EXPECT_NEAR(Tinv, T, 1e-11) << name << " at " << T << " K";
        }
        std::printf("%s: %zu points, worst |inverse - bisection| %.2e K\n", name.c_str(), Ts.size(),
                    worst);
        // Just outside the table: the continuation leaves the range and is refused.
        EXPECT_THROW(c.temperatureFromEnthalpy(c.enthalpy(hi) + 100.0), ModelError);
        EXPECT_THROW(c.temperatureFromEnthalpy(c.enthalpy(lo) - 100.0), ModelError);
    }
}

TEST(Coolant, Pg40AndPg50FromTheAshraeTablesWithTheirFreezingPoints) {
    // ASHRAE Fundamentals ch. 31 propylene glycol (by volume) as the EnergyPlus default glycol
    // data tabulate it: 40 % at 40 °C c_p 3,768 J/(kg K), μ 2.21 mPa·s, ρ 1,025.30 kg/m³,
    // k 0.415 W/(m K); 50 % at −20 °C ρ 1,060.49 kg/m³, c_p 3,378 J/(kg K). Freezing points
    // −21.1 °C (40 %: also the Airedale DeltaChill manual) and −33.5 °C (50 %).
    const Coolant pg40 = Coolant::byName("pg40"), pg50 = Coolant::byName("PG50");
    const double T40 = celsiusToKelvin(40), Tm20 = celsiusToKelvin(-20);
    EXPECT_NEAR(pg40.specificHeat(T40), 3768.0, 1e-9);
    EXPECT_NEAR(pg40.viscosity(T40), 2.21e-3, 1e-15);
    EXPECT_NEAR(pg40.density(T40), 1025.30, 1e-9);
    EXPECT_NEAR(pg40.conductivity(T40), 0.415, 1e-12);
    EXPECT_NEAR(pg50.density(Tm20), 1060.49, 1e-9);
    EXPECT_NEAR(pg50.specificHeat(Tm20), 3378.0, 1e-9);
    EXPECT_NEAR(pg40.freezingPoint(), celsiusToKelvin(-21.1), 1e-12);
    EXPECT_NEAR(pg50.freezingPoint(), celsiusToKelvin(-33.5), 1e-12);
    // Each table starts above its freezing point: PG40 at −15 °C, PG50 at −25 °C.
    EXPECT_NEAR(pg40.minTemperature(), celsiusToKelvin(-15), 1e-12);
    EXPECT_NEAR(pg50.minTemperature(), celsiusToKelvin(-25), 1e-12);
}

TEST(Coolant, OutsideTheTableIsAnErrorNamingFluidPropertyAndRange) {
    const Coolant pg = Coolant::byName("PG25");
    try {
        pg.density(celsiusToKelvin(110));
        FAIL() << "no error";
    } catch (const ModelError& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("PG25"), std::string::npos) << m;
        EXPECT_NE(m.find("density"), std::string::npos) << m;
        EXPECT_NE(m.find("110.00 °C"), std::string::npos) << m;
        EXPECT_NE(m.find("-5.0 to 100.0 °C"), std::string::npos) << m;
    }
    EXPECT_THROW(pg.viscosity(celsiusToKelvin(-6)), ModelError);
    EXPECT_THROW(Coolant::byName("water").specificHeat(celsiusToKelvin(95)), ModelError);
    EXPECT_THROW(pg.temperatureFromEnthalpy(1e9), ModelError);
    try {
        Coolant::byName("PG60");
        FAIL() << "no error";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("PG25"), std::string::npos) << e.what();
    }
}

TEST(Coolant, ADefaultCoolantRefusesEveryPropertyAndCopiesKeepTheirOwnReference) {
    // A Coolant shares its tables with its copies and keeps only its reference values: a copy
    // at another reference temperature must give the same properties and an enthalpy moved
    // by exactly the integral between the two references, while the original is unchanged.
    const Coolant none;
    EXPECT_TRUE(none.name().empty());
    EXPECT_TRUE(std::isnan(none.minTemperature()) && std::isnan(none.maxTemperature()));
    for (const double T : {0.0, celsiusToKelvin(30), 1e9}) {
        EXPECT_THROW(none.density(T), ModelError) << T;
        EXPECT_THROW(none.specificHeat(T), ModelError) << T;
        EXPECT_THROW(none.viscosity(T), ModelError) << T;
        EXPECT_THROW(none.conductivity(T), ModelError) << T;
        EXPECT_THROW(none.enthalpy(T), ModelError) << T;
    }
    const Coolant pg = Coolant::byName("PG25");
    const Coolant at40 = pg.withReferenceTemperature(celsiusToKelvin(40));
    const double T = celsiusToKelvin(47.3);
    EXPECT_EQ(at40.density(T), pg.density(T));
    EXPECT_EQ(at40.viscosity(T), pg.viscosity(T));
    EXPECT_EQ(at40.name(), pg.name());
    EXPECT_EQ(pg.referenceTemperature(), celsiusToKelvin(30));
    EXPECT_EQ(at40.referenceTemperature(), celsiusToKelvin(40));
    // h_30(T) − h_40(T) = ∫_30^40 c_p dT: c_p of PG25 is ~3.8 kJ/(kg·K) there, so ~38 kJ/kg.
    EXPECT_NEAR(pg.enthalpy(T) - at40.enthalpy(T), pg.enthalpy(celsiusToKelvin(40)), 1e-9);
    EXPECT_NEAR(pg.enthalpy(celsiusToKelvin(40)) / 10.0, pg.specificHeat(celsiusToKelvin(35)),
                0.002 * pg.specificHeat(celsiusToKelvin(35)));
    EXPECT_EQ(at40.referenceDensity(), pg.density(celsiusToKelvin(40)));
}

}  // namespace
}  // namespace dctwin::thermal

namespace dctwin::thermal {
namespace {

TEST(Coolant, AFileIsReadOnceAndAgainWhenItChanges) {
    // byName keeps each file's tables until the file changes (a GUI session outlives edits
    // of the data folder). A temporary data folder whose water.json is edited: the density
    // must follow the edit, and an unchanged file must give the same value again.
    const fs::path dir = fs::temp_directory_path() / "dctwin_coolant_cache_test";
    fs::remove_all(dir);
    fs::create_directories(dir / "catalog");
    fs::create_directories(dir / "coolants");
    const fs::path file = dir / "coolants" / "water.json";
    fs::copy_file(kSourceData / "coolants" / "water.json", file);
    const char* old_env = std::getenv("DCTWIN_DATA_DIR");
    const std::string old = old_env ? old_env : "";
    ::setenv("DCTWIN_DATA_DIR", dir.c_str(), 1);
    const double T = celsiusToKelvin(30.0);
    const double rho = Coolant::byName("water").density(T);
    EXPECT_NEAR(rho, 995.6, 0.5);  // water at 30 °C (the shipped table)
    EXPECT_EQ(Coolant::byName("water").density(T), rho);
    // The same file with every density scaled by 2, stamped a second later.
    Json doc = Json::parse(std::ifstream(file));
    for (auto& v : doc["density_kg_per_m3"]) v = 2.0 * v.get<double>();
    const auto stamp = fs::last_write_time(file);
    std::ofstream(file) << doc.dump();
    fs::last_write_time(file, stamp + std::chrono::seconds(1));
    const double rho2 = Coolant::byName("water").density(T);
    if (old_env) {
        ::setenv("DCTWIN_DATA_DIR", old.c_str(), 1);
    } else {
        ::unsetenv("DCTWIN_DATA_DIR");
    }
    fs::remove_all(dir);
    EXPECT_NEAR(rho2, 2.0 * rho, 1e-9 * rho);
}

TEST(Coolant, RememberedEnthalpiesBelongToTheirTableOnly) {
    // Coolant::enthalpy remembers integrals per thread by table identity and temperature. A
    // table read after another one is freed (it may get the same address) with every c_p
    // doubled must give twice the enthalpy at the same temperature, and water and PG25 at
    // one temperature must differ as their tables do.
    const fs::path dir = fs::temp_directory_path() / "dctwin_enthalpy_memo_test";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const fs::path file = dir / "water.json";
    fs::copy_file(kSourceData / "coolants" / "water.json", file);
    const double T = celsiusToKelvin(41.3);
    double h1 = 0.0;
    std::uint64_t id1 = 0;
    {
        const Coolant w = Coolant::fromFile(file);
        h1 = w.enthalpy(T);
        EXPECT_EQ(w.enthalpy(T), h1);  // remembered: the same number
        // Water from 30 to 41.3 °C: c_p ≈ 4,178 J/(kg·K) (the table's 4,178 at 30 and 40 °C).
        EXPECT_NEAR(h1, 4178.0 * 11.3, 0.001 * 4178.0 * 11.3);
        id1 = MonotoneTable({0.0, 1.0}, {0.0, 1.0}, "probe").identity();
    }
    Json doc = Json::parse(std::ifstream(file));
    for (auto& v : doc["specific_heat_J_per_kgK"]) v = 2.0 * v.get<double>();
    std::ofstream(file) << doc.dump();
    const Coolant w2 = Coolant::fromFile(file);
    fs::remove_all(dir);
    EXPECT_NEAR(w2.enthalpy(T), 2.0 * h1, 1e-9 * h1);
    // Many temperatures through both tables, each first through one then the other: the
    // memo is direct-mapped, so some of them share a slot across the two tables (1 in 4,096
    // each, ~5 here); the table's identity must keep them apart.
    const Coolant w1 = Coolant::fromFile(kSourceData / "coolants" / "water.json");
    int wrong = 0;
    for (int i = 0; i < 20000; ++i) {
        const double Ti = celsiusToKelvin(5.0 + i * 4e-3);
        const double h_one = w1.enthalpy(Ti), h_two = w2.enthalpy(Ti);
        // Both refer to 30 °C, so doubling c_p doubles the enthalpy.
        if (std::abs(h_two - 2.0 * h_one) > 1e-6 * std::abs(h_two) + 1e-6) ++wrong;
    }
    EXPECT_EQ(wrong, 0);
    const Coolant pg = Coolant::byName("PG25");
    const Coolant water = Coolant::byName("water");
    EXPECT_LT(pg.enthalpy(T), 0.95 * water.enthalpy(T));  // c_p of PG25 ~3,800 vs ~4,180
    // Identities: copies share one, every new table gets a new one.
    const MonotoneTable a({0.0, 1.0}, {0.0, 1.0}, "a");
    const MonotoneTable a_copy = a;
    EXPECT_EQ(a.identity(), a_copy.identity());
    EXPECT_GT(a.identity(), id1);
}

TEST(MonotoneTableLookup, EvenGridGivesExactlyTheBinarySearchResult) {
    // The shipped tables are every 5 K; interval() computes the index from the spacing there.
    // A copy whose last knot moves by 1e-6 K is uneven (guided lookup); both must give the
    // same value bit for bit below the last two knots (whose slopes the move changes), knots
    // included (a knot is where rounding in (x − x0)/h could pick the neighbouring interval).
    std::vector<double> x, y, x2;
    for (int i = 0; i < 22; ++i) {
        x.push_back(268.15 + 5.0 * i);
        y.push_back(1000.0 + 3.0 * i - 0.02 * i * i);
    }
    x2 = x;
    x2.back() += 1e-6;
    const MonotoneTable even(x, y, "even"), uneven(x2, y, "uneven");
    for (double T = x.front(); T < x[19]; T += 0.0625) ASSERT_EQ(even(T), uneven(T)) << T;
    for (std::size_t i = 0; i + 1 < x.size(); ++i) {
        for (double T : {x[i], std::nextafter(x[i], 0.0), std::nextafter(x[i], 1e9)}) {
            if (T < x.front() || T >= x[19]) continue;
            ASSERT_EQ(even(T), uneven(T)) << "at knot " << i;
            ASSERT_EQ(even.integral(T), uneven.integral(T)) << "at knot " << i;
        }
    }
    // Below the table the first interval, as the binary search gives.
    EXPECT_EQ(even(x.front() - 1.0), uneven(x.front() - 1.0));
}

TEST(MonotoneTableLookup, GuidedLookupOnAnUnevenGridIsTheBinarySearch) {
    // Knots at i² (spacing 1 to 79) and at a 513-point axis crowded towards zero as the rack
    // branch's Q(√Δp) table is (√ of a quartic in the even flow coordinate): the interval of
    // every probe, knots and their neighbours in the last bit included, equals
    // std::upper_bound's (the binary search the guide replaced), clamped to [0, n − 2].
    auto check = [](const std::vector<double>& x) {
        std::vector<double> y(x.size());
        for (std::size_t i = 0; i < x.size(); ++i) y[i] = static_cast<double>(i);
        const MonotoneTable t(x, y, "uneven");
        auto expected = [&](double q) {
            const auto it = std::upper_bound(x.begin(), x.end(), q);
            const std::size_t i =
                it == x.begin() ? 0 : static_cast<std::size_t>(it - x.begin()) - 1;
            return std::min(i, x.size() - 2);
        };
        std::vector<double> probes{x.front() - 1.0, x.back(), x.back() + 1.0, 1e300, -1e300};
        for (double k : x) {
            probes.insert(probes.end(), {k, std::nextafter(k, -2e300), std::nextafter(k, 2e300)});
        }
        for (int j = 0; j <= 10000; ++j) {
            probes.push_back(x.front() + (x.back() - x.front()) * j / 10000.0);
        }
        for (double q : probes) {
            ASSERT_EQ(t.interval(q), expected(q)) << q;
            if (std::abs(q) > 1e6) continue;  // the cubic overflows out there
            double d = 0.0;
            const double v = t.valueAndDerivative(q, d);
            ASSERT_EQ(v, t(q)) << q;
            ASSERT_EQ(d, t.derivative(q)) << q;
        }
    };
    std::vector<double> squares, crowded;
    for (int i = 0; i <= 40; ++i) squares.push_back(static_cast<double>(i * i));
    for (int i = 0; i < 513; ++i) {
        const double u = i / 512.0;
        crowded.push_back(std::sqrt(0.3 * u * u + 2.0 * u * u * u * u));
    }
    check(squares);
    check(crowded);
}

TEST(MonotoneTableLookup, StronglyUnevenGridPicksTheBracketingInterval) {
    // Knots at i² (spacing 1 to 79, the kind of uneven axis the rack branch's flow table has
    // against √Δp) with y = √x. The Fritsch–Carlson interpolant of monotone data stays inside
    // [y_i, y_i+1] on its own interval; evaluated on a neighbouring interval the cubic leaves
    // that bracket. The bracket comes from std::upper_bound here, independently of the
    // table's lookup.
    std::vector<double> x, y;
    for (int i = 0; i <= 40; ++i) {
        x.push_back(static_cast<double>(i * i));
        y.push_back(static_cast<double>(i));
    }
    const MonotoneTable t(x, y, "squares");
    for (double q = 0.0; q < x.back(); q += 0.37) {
        const auto it = std::upper_bound(x.begin(), x.end(), q);
        const std::size_t i = static_cast<std::size_t>(it - x.begin()) - 1;
        ASSERT_GE(t(q), y[i] - 1e-12) << q;
        ASSERT_LE(t(q), y[i + 1] + 1e-12) << q;
    }
    // Continuous through every knot from either side, and exact at it.
    for (std::size_t i = 1; i + 1 < x.size(); ++i) {
        EXPECT_EQ(t(x[i]), y[i]);
        EXPECT_NEAR(t(std::nextafter(x[i], -1.0)), y[i], 1e-9) << i;
    }
    EXPECT_EQ(t(x.back()), y.back());
    EXPECT_NEAR(t(x.back() + 1.0), y.back() + (y[40] - y[39]) / (x[40] - x[39]), 0.05);
}

}  // namespace
}  // namespace dctwin::thermal
