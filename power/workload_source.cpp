#include "power/workload_source.h"

#include <fmt/format.h>

#include <cmath>

#include "core/errors.h"

namespace dctwin::power {

WorkloadSource::WorkloadSource(std::string name, std::shared_ptr<const Workload> workload, int rack,
                               Resolution resolution, double window, double horizon)
    : WorkloadSource(std::move(name), std::move(workload), std::vector<int>{rack}, {""}, resolution,
                     window, horizon) {}

WorkloadSource::WorkloadSource(std::string name, std::shared_ptr<const Workload> workload,
                               std::vector<int> racks, const std::vector<std::string>& labels,
                               Resolution resolution, double window, double horizon)
    : Component(std::move(name)),
      workload_(std::move(workload)),
      racks_(std::move(racks)),
      resolution_(resolution),
      window_(window),
      horizon_(horizon) {
    if (window_ < 0.0 || !std::isfinite(window_)) {
        throw ModelError(
            fmt::format("WorkloadSource '{}': window {} s must be ≥ 0", this->name(), window_));
    }
    if (!workload_) throw ModelError(fmt::format("WorkloadSource '{}': no workload", this->name()));
    if (racks_.empty() || labels.size() != racks_.size()) {
        throw ModelError(
            fmt::format("WorkloadSource '{}': {} racks with {} labels; expected at "
                        "least one rack and a label for each",
                        this->name(), racks_.size(), labels.size()));
    }
    const bool one = racks_.size() == 1 && labels.front().empty();
    for (std::size_t i = 0; i < racks_.size(); ++i) {
        const int rack = racks_[i];
        if (rack < 0 || rack >= workload_->racks()) {
            throw ModelError(
                fmt::format("WorkloadSource '{}': rack {} is not in the workload (0..{})",
                            this->name(), rack, workload_->racks() - 1));
        }
        if (!one && labels[i].empty()) {
            throw ModelError(
                fmt::format("WorkloadSource '{}': rack {} has no label", this->name(), rack));
        }
        const std::string suffix = one ? "" : "_" + labels[i];
        // Checked: output 2i is rack i's utilization, 2i + 1 its floor (computeOutputs).
        addOutput(2 * i + kUtilization,
                  {"utilization" + suffix, "1", 1.0, 0.0, "GPU utilization of the rack"});
        addOutput(2 * i + kFloorActive,
                  {"floor_active" + suffix, "1", 1.0, 0.0, "1 while a training job runs"});
    }
}

void WorkloadSource::computeOutputs(double t, std::span<const double>, std::span<const double>,
                                    std::span<double> y) const {
    const std::size_t n = racks_.size();
    if (window_ > 0.0) {
        thread_local std::vector<Workload::Level> levels;
        levels.resize(n);
        workload_->windowedLevels(racks_, t, window_, horizon_, levels);
        for (std::size_t i = 0; i < n; ++i) {
            y[2 * i + kUtilization] = levels[i].utilization;
            y[2 * i + kFloorActive] = levels[i].floor_active ? 1.0 : 0.0;
        }
        return;
    }
    for (std::size_t i = 0; i < n; ++i) {
        y[2 * i + kUtilization] = workload_->utilization(racks_[i], t, resolution_);
        y[2 * i + kFloorActive] = workload_->floorActive(racks_[i], t) ? 1.0 : 0.0;
    }
}

void WorkloadSource::discontinuities(double t0, double t1, std::vector<double>& times) const {
    // Averaged or windowed alike: job starts and ends stay sharp edges the integrator stops at.
    for (int rack : racks_) workload_->discontinuities(rack, t0, t1, resolution_, times);
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
