#include "thermal/ambient.h"

#include <fmt/format.h>

#include <cmath>

#include "core/errors.h"
#include "thermal/heat_rejection.h"

namespace dctwin::thermal {

namespace {

/// Why row i lies outside the heat rejection models' range (checkAmbient), or "" if it does
/// not. A file can be valid EPW (dry bulb down to −70 °C) and still outside what the models
/// cover (−50 °C); this lets the error name the file, line and hour.
std::string rowProblem(const weather::Weather& w, std::size_t i) {
    const weather::WeatherSample r = w.row(i);
    try {
        checkAmbient({r.dry_bulb, r.wet_bulb, r.pressure}, "weather");
    } catch (const Error& e) {
        std::string why = e.what();
        if (why.rfind("weather: ", 0) == 0) why.erase(0, 9);
        return why.empty() ? std::string("invalid") : why;
    }
    return {};
}

}  // namespace

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
    // Checked once per row here (about a millisecond for a year), reported when a run reaches
    // the row: a bad January does not stop a July study.
    row_ok_.resize(weather_->hourCount());
    for (std::size_t i = 0; i < row_ok_.size(); ++i) row_ok_[i] = rowProblem(*weather_, i).empty();
    const weather::WeatherSample s = weather_->at(start_);
    addOutput(kDryBulb, {"dry_bulb", "K", 300.0, s.dry_bulb, "outdoor dry bulb"});
    addOutput(kWetBulb, {"wet_bulb", "K", 300.0, s.wet_bulb, "outdoor wet bulb"});
    addOutput(kDewPoint, {"dew_point", "K", 300.0, s.dew_point, "outdoor dew point"});
    addOutput(kPressure, {"pressure", "Pa", 101325.0, s.pressure, "station pressure"});
}

void AmbientWeather::computeOutputs(double t, std::span<const double>, std::span<const double>,
                                    std::span<double> y) const {
    const weather::WeatherSample s = weather_->at(start_ + t);
    const auto [lo, hi] = weather_->rowsAround(start_ + t);
    for (std::size_t i : {lo, hi}) {
        if (i < row_ok_.size() && !row_ok_[i]) {
            throw InputError(
                fmt::format("{}: the weather at simulated time {:.0f} s is outside "
                            "the range of the heat rejection models: {}",
                            weather_->describeRow(i), t, rowProblem(*weather_, i)));
        }
    }
    y[kDryBulb] = s.dry_bulb;
    y[kWetBulb] = s.wet_bulb;
    y[kDewPoint] = s.dew_point;
    y[kPressure] = s.pressure;
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
