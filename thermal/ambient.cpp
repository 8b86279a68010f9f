#include "thermal/ambient.h"

#include <fmt/format.h>

#include <cmath>

#include "core/errors.h"

namespace dctwin::thermal {

AmbientWeather::AmbientWeather(std::string name, std::shared_ptr<const weather::Weather> w,
                               double start_seconds, bool stop_at_hours)
    : Component(std::move(name)),
      weather_(std::move(w)),
      start_(start_seconds),
      stop_at_hours_(stop_at_hours) {
    if (!weather_) throw ModelError(fmt::format("ambient '{}': no weather", this->name()));
    if (!std::isfinite(start_)) {
        throw InputError(
            fmt::format("ambient '{}': start time {} s is not finite", this->name(), start_));
    }
    const weather::WeatherSample s = weather_->at(start_);
    addOutput({"dry_bulb", "K", 300.0, s.dry_bulb, "outdoor dry bulb"});
    addOutput({"wet_bulb", "K", 300.0, s.wet_bulb, "outdoor wet bulb"});
    addOutput({"dew_point", "K", 300.0, s.dew_point, "outdoor dew point"});
    addOutput({"pressure", "Pa", 101325.0, s.pressure, "station pressure"});
}

void AmbientWeather::computeOutputs(double t, std::span<const double>, std::span<const double>,
                                    std::span<double> y) const {
    const weather::WeatherSample s = weather_->at(start_ + t);
    y[0] = s.dry_bulb;
    y[1] = s.wet_bulb;
    y[2] = s.dew_point;
    y[3] = s.pressure;
}

void AmbientWeather::discontinuities(double t0, double t1, std::vector<double>& times) const {
    if (!stop_at_hours_) return;
    // Hourly samples sit at whole hours since Jan 1, i.e. at t = k·3600 − start.
    const double first = std::floor((start_ + t0) / 3600.0) + 1.0;
    for (double k = first;; k += 1.0) {
        const double t = k * 3600.0 - start_;
        if (t > t1) break;
        if (t > t0) times.push_back(t);
    }
}

}  // namespace dctwin::thermal
