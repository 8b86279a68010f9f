// Unit conversions: known values against published definitions, and round trips.
#include "core/units.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "core/errors.h"

namespace dctwin::units {
namespace {

TEST(UnitsTest, KnownValues) {
    EXPECT_NEAR(toSI(1.0, "gpm"), 6.309e-5, 1e-8);  // US gallon per minute
    EXPECT_DOUBLE_EQ(toSI(1.0, "bar"), 1e5);
    EXPECT_NEAR(toSI(95.0, "F"), 308.15, 1e-9);
    EXPECT_NEAR(toSI(1.0, "Lpm"), 1.6667e-5, 1e-9);
    EXPECT_NEAR(toSI(1.0, "psi"), 6894.757, 1e-3);
    EXPECT_DOUBLE_EQ(toSI(35.0, "C"), 308.15);
    EXPECT_DOUBLE_EQ(toSI(10.0, "dC"), 10.0);
    EXPECT_NEAR(toSI(18.0, "dF"), 10.0, 1e-12);
    EXPECT_DOUBLE_EQ(toSI(132.0, "kW"), 132e3);
    EXPECT_DOUBLE_EQ(toSI(1.0, "kWh"), 3.6e6);
    EXPECT_DOUBLE_EQ(toSI(60.0, "pct"), 0.6);
    EXPECT_DOUBLE_EQ(toSI(2.0, "h"), 7200.0);
    EXPECT_DOUBLE_EQ(toSI(3.0, ""), 3.0);
}

TEST(UnitsTest, FromSiInvertsToSiForEveryUnit) {
    for (const std::string& u : knownUnits()) {
        for (double v : {-40.0, 0.0, 1.0, 35.5, 1234.5}) {
            EXPECT_NEAR(fromSI(toSI(v, u), u), v, 1e-9 * std::max(1.0, std::abs(v))) << u;
        }
    }
}

TEST(UnitsTest, FahrenheitAndCelsiusAgreeAtKnownPoints) {
    EXPECT_NEAR(fromSI(toSI(100.0, "C"), "F"), 212.0, 1e-9);
    EXPECT_NEAR(fromSI(toSI(-40.0, "F"), "C"), -40.0, 1e-9);
    EXPECT_NEAR(kelvinToFahrenheit(fahrenheitToKelvin(95.0)), 95.0, 1e-12);
}

TEST(UnitsTest, SiUnitOf) {
    EXPECT_EQ(siUnitOf("C"), "K");
    EXPECT_EQ(siUnitOf("Lpm"), "m3/s");
    EXPECT_EQ(siUnitOf("pct"), "1");
    EXPECT_EQ(siUnitOf("psi"), "Pa");
}

TEST(UnitsTest, UnknownUnitListsValidChoices) {
    try {
        toSI(1.0, "furlong");
        FAIL() << "expected InputError";
    } catch (const InputError& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("unknown unit 'furlong'"), std::string::npos) << msg;
        EXPECT_NE(msg.find("gpm"), std::string::npos) << msg;
        EXPECT_NE(msg.find("bar"), std::string::npos) << msg;
    }
    EXPECT_THROW(fromSI(1.0, "degC"), InputError);
    EXPECT_THROW(siUnitOf("xyz"), InputError);
}

}  // namespace
}  // namespace dctwin::units
