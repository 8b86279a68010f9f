#pragma once
// Coolant properties (DESIGN.md §3.3): density, specific heat, viscosity and thermal
// conductivity of water and aqueous propylene glycol (PG20, PG25 = default, PG30, PG40, PG50) as
// functions of temperature, read from the tables in data/coolants/*.json (each with its
// source).
//
// Interpolation: monotone piecewise-cubic Hermite (Fritsch–Carlson), so a table that rises
// or falls keeps doing so between its points (no overshoot into non-physical values) and the
// curve is C¹ for the solver. Outside the table range every call throws ModelError naming the
// fluid, the property, the temperature and the valid range: we never extrapolate silently.
//
// Energy bookkeeping. Thermal components exchange temperatures and volume flows. To make the
// energy balance of a loop close exactly from component to component, they all use
//   mass flow       ṁ = ρ_ref · V̇          (V̇ is "standard" volume flow at T_ref, so ṁ is
//                                           conserved around a loop of varying temperature)
//   enthalpy        h(T) = ∫_{T_ref}^{T} c_p(T') dT'   (exact integral of the interpolant)
// and write every enthalpy flow as ṁ·(h(T_out) − h(T_in)) instead of ṁ·c_p·ΔT. What one
// component hands over at a port is then exactly what the next one receives. T_ref defaults
// to 30 °C, the middle of a TCS loop (domain-facts B2).
#include <cstdint>
#include <filesystem>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace dctwin::thermal {

/// y(x) by monotone cubic Hermite interpolation, with its exact integral.
class MonotoneTable {
public:
    MonotoneTable() = default;
    /// x strictly increasing, at least two points. Throws InputError naming `what` otherwise.
    MonotoneTable(std::vector<double> x, std::vector<double> y, std::string_view what);
    double operator()(double x) const;
    double derivative(double x) const;
    /// y(x), with dy/dx in `dydx`, from one interval lookup (each as the calls above give it).
    double valueAndDerivative(double x, double& dydx) const;
    /// The interval holding x: the last i ≤ n − 2 with x_i ≤ x (0 below the table).
    std::size_t interval(double x) const;
    /// ∫_{x_0}^{x} y dx' from the first table point (exact for the cubic interpolant).
    double integral(double x) const;
    /// The same, with y(x) in `value` from the same interval lookup.
    double integral(double x, double& value) const;
    /// The x with integral(x) = I, for a table of positive values (integral() strictly
    /// increasing). Inside [0, integral(xMax())] the root of the interval's quartic to
    /// round-off; outside, the straight continuation with the end value's slope (so the
    /// caller's range check names the overshoot).
    double integralInverse(double I) const;
    double xMin() const { return x_[0]; }
    double xMax() const { return x_[n_ - 1]; }
    bool contains(double x) const { return x >= x_[0] && x <= x_[n_ - 1]; }
    /// Identifies the table's numbers: equal for copies, distinct for every table ever built
    /// in this process (unlike an address, which a later table may reuse).
    std::uint64_t identity() const { return data_ ? data_->id : 0; }

private:
    /// The table's numbers, shared by its copies: a campus model holds one coolant per rack
    /// loop and CDU and one branch law per CDU, all alike. Separate copies made the rack
    /// evaluations read ~40 MB of identical tables at 5,560 racks, which no cache holds
    /// (issue 12: 17 ms per right-hand side against 1.7 ms at 1,390 racks).
    struct Data {
        std::vector<double> x, y, m;     // knots, values, slopes
        std::vector<double> cumulative;  // ∫ from x_0 to x_i
        // Per interval i, the interpolant in t = (x − x_i)/h_i as a power series
        // y = a0 + a1·t + a2·t² + a3·t³ and its integral from x_i as
        // ∫ = t·(b1 + t·(b2 + t·(b3 + t·b4))) (b_k = h·a_{k−1}/k), with 1/h: kPoly numbers an
        // interval, for the integral and its inverse (Horner instead of two Hermite
        // evaluations per call).
        std::vector<double> poly;
        std::vector<std::uint32_t> guide;  // uneven grids: interval at each bucket's left edge
        std::uint64_t id = 0;              // identity()
    };
    /// y(x) for x in interval i (no lookup).
    double valueIn(std::size_t i, double x) const;
    double derivativeIn(std::size_t i, double x) const;
    double partialIntegral(std::size_t i, double x) const;
    static constexpr std::size_t kPoly = 9;  // a0..a3, b1..b4, 1/h
    const double* poly_ = nullptr;           // view into data_->poly
    std::shared_ptr<const Data> data_;
    // Views into *data_ for the lookups (valid while data_ lives, i.e. in every copy).
    const double *x_ = nullptr, *y_ = nullptr, *m_ = nullptr, *cumulative_ = nullptr;
    std::size_t n_ = 0;
    double inv_step_ = 0.0;  // 1/spacing of an even grid, 0 for an uneven one
    // Uneven grids: the guide's buckets per unit of x, and the guide (a view into *data_).
    double guide_scale_ = 0.0;
    const std::uint32_t* guide_ = nullptr;
};

class Coolant {
public:
    /// Reads a table file (keys in data/coolants/README in the file header of coolant.cpp).
    static Coolant fromFile(const std::filesystem::path& file);
    /// "water", "PG20" … "PG50" (case-insensitive) from data/coolants/. InputError
    /// listing the choices for any other name.
    static Coolant byName(std::string_view name);
    /// The names byName() accepts.
    static std::vector<std::string> knownNames();
    /// dataDir()/coolants (core/data_dir.h). InputError if no data folder is found.
    static std::filesystem::path dataDirectory();

    /// Empty for a default-constructed Coolant (which every property call refuses).
    const std::string& name() const;
    const std::string& source() const;

    double density(double T) const;                                   // [kg/m³], T [K]
    double specificHeat(double T) const;                              // [J/(kg·K)]
    double viscosity(double T) const;                                 // [Pa·s] dynamic
    double conductivity(double T) const;                              // [W/(m·K)]
    double minTemperature() const { return T_min_; }                  // [K] first table point
    double maxTemperature() const { return T_max_; }                  // [K] last table point
    double freezingPoint() const { return t_ ? t_->T_freeze : 0.0; }  // [K]

    /// Reference temperature of volume flows and node masses (see header comment). [K]
    double referenceTemperature() const { return T_ref_; }
    /// A copy whose standard volume flows refer to T_ref [K].
    Coolant withReferenceTemperature(double T_ref) const;
    double referenceDensity() const { return rho_ref_; }  // [kg/m³] ρ(T_ref)
    /// ṁ = ρ_ref · V̇.                                       [m³/s] → [kg/s]
    double massFlow(double volume_flow) const { return rho_ref_ * volume_flow; }
    /// h(T) = ∫_{T_ref}^{T} c_p dT.                                     [K] → [J/kg]
    /// Remembered per thread (see coolant.cpp): the same temperature's enthalpy is asked for
    /// by several components in one evaluation (a rack's outlet by its loop and its mixer,
    /// a CDU's supply by the CDU and each of its racks).
    double enthalpy(double T) const;
    /// Inverse of enthalpy(); ModelError if the result leaves the table.  [J/kg] → [K]
    double temperatureFromEnthalpy(double h) const;
    /// Temperature after adding `heat` [W] to a stream of ṁ [kg/s] entering at T_in [K]:
    /// h⁻¹(h(T_in) + heat/ṁ). Returns T_in for ṁ ≤ 0.
    double heatedTemperature(double T_in, double mdot, double heat) const;

private:
    void check(double T, std::string_view property) const;
    /// What a coolant file holds, shared by every copy: a campus model holds a coolant in
    /// each rack loop, mixer and CDU, and a copy of the four tables and three strings was
    /// 408 bytes, half a rack loop, read on every evaluation (issue 12: memory-bound at
    /// 5,560 racks). A copy is now the pointer and the hot scalars, one cache line.
    struct Tables {
        std::string name, source, file;
        MonotoneTable rho, cp, mu, k;
        double T_freeze = 0.0;  // [K]
    };
    std::shared_ptr<const Tables> t_;
    // [K] table range, which every call checks; NaN until a table is read, so no temperature
    // passes (and a clamp to the range stays well-defined).
    double T_min_ = std::numeric_limits<double>::quiet_NaN();
    double T_max_ = std::numeric_limits<double>::quiet_NaN();
    double T_ref_ = 0.0;         // [K]
    double rho_ref_ = 0.0;       // [kg/m³]
    double h_ref_offset_ = 0.0;  // [J/kg] ∫ c_p from T_min to T_ref
};

}  // namespace dctwin::thermal
