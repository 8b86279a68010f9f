#pragma once
// AmbientWeather: the outdoor air from an EPW file (core/weather/epw.h) as a component, for
// heat rejection inputs. Simulation time t = 0 is `start_seconds` after midnight Jan 1.
//
// | kind   | name     | unit | notes                                      |
// |--------|----------|------|--------------------------------------------|
// | output | dry_bulb | K    | linear between hourly samples              |
// | output | wet_bulb | K    | thermodynamic wet bulb                     |
// | output | dew_point| K    |                                            |
// | output | pressure | Pa   | station pressure                           |
// No inputs, no states. With stop_at_hours the hourly sample times are reported as
// discontinuities: the interpolated weather has a kink there, and restarting the integrator
// at a kink is cheaper than letting its error test find it.
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/component.h"
#include "core/weather/epw.h"

namespace dctwin::thermal {

class AmbientWeather : public Component {
public:
    enum Output : std::size_t { kDryBulb, kWetBulb, kDewPoint, kPressure };
    AmbientWeather(std::string name, std::shared_ptr<const weather::Weather> weather,
                   double start_seconds, bool stop_at_hours = true);
    void computeOutputs(double t, std::span<const double> x, std::span<const double> u,
                        std::span<double> y) const override;
    bool outputDependsOnState(std::size_t, std::size_t) const override { return false; }
    bool outputDependsOnInput(std::size_t, std::size_t) const override { return false; }
    void discontinuities(double t0, double t1, std::vector<double>& times) const override;
    const weather::Weather& weather() const { return *weather_; }
    double startSeconds() const { return start_; }

private:
    std::shared_ptr<const weather::Weather> weather_;
    double start_;  // [s] since midnight Jan 1
    bool stop_at_hours_;
    std::vector<bool> row_ok_;  // per weather row: inside the heat rejection models' range
};

}  // namespace dctwin::thermal
