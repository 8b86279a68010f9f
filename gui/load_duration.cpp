#include "gui/load_duration.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace dctwin::gui {

LoadDurationCurve loadDurationCurve(std::span<const double> time_s,
                                    std::span<const double> values) {
    LoadDurationCurve out;
    const std::size_t n = std::min(time_s.size(), values.size());
    if (n < 2) return out;
    // Trapezoid weights: sample i holds half of each interval it bounds.
    std::vector<double> weight(n, 0.0);
    for (std::size_t i = 0; i + 1 < n; ++i) {
        const double half = 0.5 * (time_s[i + 1] - time_s[i]);
        weight[i] += half;
        weight[i + 1] += half;
    }
    std::vector<std::size_t> order;
    order.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        if (std::isfinite(values[i])) order.push_back(i);
    }
    if (order.empty()) return out;
    // Stable, so equal values keep time order and the curve is reproducible.
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return values[a] > values[b]; });
    out.hours.reserve(order.size() + 1);
    out.value.reserve(order.size() + 1);
    out.hours.push_back(0.0);
    out.value.push_back(values[order.front()]);
    double seconds = 0.0;
    for (std::size_t i : order) {
        seconds += weight[i];
        out.hours.push_back(seconds / 3600.0);
        out.value.push_back(values[i]);
    }
    return out;
}

}  // namespace dctwin::gui
