// power_week: runs the power-layer week example (examples/power_week.h) and prints its summary.
//   power_week [REPORT.h5] [--days D]
// Exit status as the CLI's: 0 success, 1 the simulation failed, 2 bad input or usage.
#include <cstdio>
#include <exception>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "core/errors.h"
#include "examples/power_week.h"

int main(int argc, char** argv) {
    std::filesystem::path report = "power_week.h5";
    dctwin::examples::PowerWeekOptions options;
    try {
        for (int i = 1; i < argc; ++i) {
            const std::string a = argv[i];
            if (a == "--days" && i + 1 < argc) {
                options.days = std::stod(argv[++i]);
            } else if (a == "-h" || a == "--help") {
                std::puts("usage: power_week [REPORT.h5] [--days D]");
                return 0;
            } else if (!a.empty() && a[0] != '-') {
                report = a;
            } else {
                std::fprintf(stderr, "power_week: unknown argument '%s'\n", a.c_str());
                return 2;
            }
        }
        const auto s = dctwin::examples::runPowerWeekExample(report, options);
        std::printf(
            "power week (%.1f d): IT %.1f MWh, facility %.1f MWh, peak IT %.0f kW, peak facility "
            "%.0f kW, UPS max %.1f %%, burnt %.2f MWh, %zu groups, %zu channels → %s\n",
            options.days, s.it_energy / 3.6e9, s.facility_energy / 3.6e9, s.peak_it / 1e3,
            s.peak_facility / 1e3, 100 * s.max_ups_loading, s.burnt_energy / 3.6e9, s.groups,
            s.channels, report.string().c_str());
        return 0;
    } catch (const dctwin::InputError& e) {
        std::fprintf(stderr, "power_week: %s\n", e.what());
        return 2;
    } catch (const std::invalid_argument&) {
        std::fprintf(stderr, "power_week: --days expects a number\n");
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "power_week: %s\n", e.what());
        return 1;
    }
}
