#pragma once
// Components that feed the workload into a System (DESIGN.md §3.1, §4).
//
// WorkloadSource: the utilization of representative racks (RackGroups), in the resolved or
// the averaged resolution. It reports the workload's discontinuities (job starts and ends,
// checkpoint edges and, when resolved, square-wave edges) so the Simulator stops there.
// One rack:
//   | kind   | name         | unit | meaning                                      |
//   |--------|--------------|------|----------------------------------------------|
//   | output | utilization  | 1    | u(t) of the rack                             |
//   | output | floor_active | 1    | 1 while a training job runs (power floor on) |
// Several racks, each with a label: utilization_<label> and floor_active_<label>, rack by
// rack. One source for a campus's racks computes their levels in one loop, reading the next
// racks' jobs ahead (Workload::windowedLevels); a component per rack read its jobs one cache
// miss after another (issue 12).
// No states, no inputs.
// With a window W > 0 the utilization is Workload::windowedUtilization (training at its
// checkpoint-cycle level, inference as is, traces averaged over W inside the job and the
// study [0, horizon]); the job starts and ends remain jumps, declared as discontinuities.
//
// PowerBus: sums n power inputs (rack groups) into one output.
//   | input  | in0 .. in{n-1} | W | |
//   | output | total          | W | Σ inputs |
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/component.h"
#include "power/workload.h"

namespace dctwin::power {

class WorkloadSource : public Component {
public:
    enum Output : std::size_t { kUtilization, kFloorActive };
    WorkloadSource(std::string name, std::shared_ptr<const Workload> workload, int rack,
                   Resolution resolution, double window = 0.0,
                   double horizon = std::numeric_limits<double>::infinity());
    /// Racks with their labels (as many, distinct, non-empty); outputs 2i and 2i + 1 are
    /// rack i's utilization and floor_active.
    WorkloadSource(std::string name, std::shared_ptr<const Workload> workload,
                   std::vector<int> racks, const std::vector<std::string>& labels,
                   Resolution resolution, double window = 0.0,
                   double horizon = std::numeric_limits<double>::infinity());
    void computeOutputs(double t, std::span<const double> x, std::span<const double> u,
                        std::span<double> y) const override;
    void discontinuities(double t0, double t1, std::vector<double>& times) const override;
    bool outputDependsOnInput(std::size_t, std::size_t) const override { return false; }
    bool outputDependsOnState(std::size_t, std::size_t) const override { return false; }

private:
    std::shared_ptr<const Workload> workload_;
    std::vector<int> racks_;
    Resolution resolution_;
    double window_;   // [s] moving-average window (0: none)
    double horizon_;  // [s] study end (trace windows stop there)
};

class PowerBus : public Component {
public:
    PowerBus(std::string name, int inputs, double nominal_power);
    void computeOutputs(double t, std::span<const double> x, std::span<const double> u,
                        std::span<double> y) const override;
    bool outputDependsOnState(std::size_t, std::size_t) const override { return false; }
};

}  // namespace dctwin::power
