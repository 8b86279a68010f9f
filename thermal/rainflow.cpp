#include "thermal/rainflow.h"

#include <cmath>
#include <cstddef>

namespace dctwin::thermal {

std::vector<double> reversals(std::span<const double> h, double hysteresis) {
    std::vector<double> r;
    if (h.empty()) return r;
    r.push_back(h.front());
    // direction of the current excursion: +1 rising, −1 falling, 0 not yet known
    int dir = 0;
    for (std::size_t i = 1; i < h.size(); ++i) {
        const double v = h[i];
        const double d = v - r.back();
        if (dir == 0) {
            if (std::abs(d) > hysteresis && d != 0.0) {
                dir = d > 0 ? 1 : -1;
                r.push_back(v);
            }
        } else if ((dir > 0 && v >= r.back()) || (dir < 0 && v <= r.back())) {
            // The excursion continues: its extreme moves on (the first point stays fixed).
            if (r.size() > 1) r.back() = v;
        } else if (std::abs(d) > hysteresis) {
            dir = -dir;
            r.push_back(v);
        }
    }
    return r;
}

std::vector<RainflowCycle> rainflowCycles(std::span<const double> history, double hysteresis) {
    std::vector<RainflowCycle> cycles;
    const std::vector<double> rev = reversals(history, hysteresis);
    std::vector<double> stack;
    // The stack's first point is the history's start while it has not been dropped (E1049
    // "Y contains the starting point S"); after a drop the new bottom takes its role.
    auto closed = [&](double a, double b, double count) {
        cycles.push_back({std::abs(a - b), count, 0.5 * (a + b)});
    };
    for (double v : rev) {
        stack.push_back(v);
        while (stack.size() >= 3) {
            const std::size_t n = stack.size();
            const double X = std::abs(stack[n - 1] - stack[n - 2]);
            const double Y = std::abs(stack[n - 2] - stack[n - 3]);
            if (X < Y) break;
            if (n == 3) {
                closed(stack[0], stack[1], 0.5);
                stack.erase(stack.begin());
            } else {
                closed(stack[n - 3], stack[n - 2], 1.0);
                stack.erase(stack.end() - 3, stack.end() - 1);
            }
        }
    }
    for (std::size_t i = 0; i + 1 < stack.size(); ++i) closed(stack[i], stack[i + 1], 0.5);
    return cycles;
}

std::vector<double> histogram(const std::vector<RainflowCycle>& cycles,
                              const std::vector<double>& edges, bool open_top) {
    std::vector<double> bins(edges.size() > 1 ? edges.size() - 1 : 0, 0.0);
    for (const auto& c : cycles) {
        for (std::size_t i = 0; i < bins.size(); ++i) {
            const bool last = i + 1 == bins.size();
            if (c.range >= edges[i] && (c.range < edges[i + 1] || (last && open_top))) {
                bins[i] += c.count;
                break;
            }
        }
    }
    return bins;
}

}  // namespace dctwin::thermal
