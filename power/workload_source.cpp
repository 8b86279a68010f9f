#include "power/workload_source.h"

#include <fmt/format.h>

#include <cmath>

#include "core/errors.h"

namespace dctwin::power {

WorkloadSource::WorkloadSource(std::string name, std::shared_ptr<const Workload> workload, int rack,
                               Resolution resolution, double window, double horizon)
    : Component(std::move(name)),
      workload_(std::move(workload)),
      rack_(rack),
      resolution_(resolution),
      window_(window),
      horizon_(horizon) {
    if (window_ < 0.0 || !std::isfinite(window_)) {
        throw ModelError(
            fmt::format("WorkloadSource '{}': window {} s must be ≥ 0", this->name(), window_));
    }
    if (!workload_) throw ModelError(fmt::format("WorkloadSource '{}': no workload", this->name()));
    if (rack_ < 0 || rack_ >= workload_->racks()) {
        throw ModelError(fmt::format("WorkloadSource '{}': rack {} is not in the workload (0..{})",
                                     this->name(), rack_, workload_->racks() - 1));
    }
    addOutput(kUtilization, {"utilization", "1", 1.0, 0.0, "GPU utilization of the rack"});
    addOutput(kFloorActive, {"floor_active", "1", 1.0, 0.0, "1 while a training job runs"});
}

void WorkloadSource::computeOutputs(double t, std::span<const double>, std::span<const double>,
                                    std::span<double> y) const {
    if (window_ > 0.0) {
        const Workload::Level level = workload_->windowedLevel(rack_, t, window_, horizon_);
        y[kUtilization] = level.utilization;
        y[kFloorActive] = level.floor_active ? 1.0 : 0.0;
        return;
    }
    y[kUtilization] = workload_->utilization(rack_, t, resolution_);
    y[kFloorActive] = workload_->floorActive(rack_, t) ? 1.0 : 0.0;
}

void WorkloadSource::discontinuities(double t0, double t1, std::vector<double>& times) const {
    // Averaged or windowed alike: job starts and ends stay sharp edges the integrator stops at.
    workload_->discontinuities(rack_, t0, t1, resolution_, times);
}

PowerBus::PowerBus(std::string name, int inputs, double nominal_power)
    : Component(std::move(name)) {
    if (inputs < 1) throw ModelError(fmt::format("PowerBus '{}': needs ≥ 1 input", this->name()));
    for (int i = 0; i < inputs; ++i) {
        addInput({fmt::format("in{}", i), "W", nominal_power / inputs, 0.0, "power"});
    }
    addOutput({"total", "W", nominal_power, 0.0, "sum of the inputs"});
}

void PowerBus::computeOutputs(double, std::span<const double>, std::span<const double> u,
                              std::span<double> y) const {
    double s = 0;
    for (double v : u) s += v;
    y[0] = s;
}

}  // namespace dctwin::power
