// thermal_week: runs the thermal-layer week example (examples/thermal_week.h) on a shipped
// weather file (found through dctwin::dataFile, so it runs from any folder) and prints its
// summary.
//   thermal_week [REPORT.h5] [--days D] [--epw FILE]
// Exit status as the CLI's: 0 success, 1 the simulation failed, 2 bad input or usage.
#include <cstdio>
#include <exception>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "core/data_dir.h"
#include "core/errors.h"
#include "examples/thermal_week.h"

int main(int argc, char** argv) {
    std::filesystem::path report = "thermal_week.h5";
    std::filesystem::path epw;
    dctwin::examples::ThermalWeekOptions options;
    try {
        for (int i = 1; i < argc; ++i) {
            const std::string a = argv[i];
            if (a == "--days" && i + 1 < argc) {
                options.days = std::stod(argv[++i]);
            } else if (a == "--epw" && i + 1 < argc) {
                epw = argv[++i];
            } else if (a == "-h" || a == "--help") {
                std::puts("usage: thermal_week [REPORT.h5] [--days D] [--epw FILE]");
                return 0;
            } else if (!a.empty() && a[0] != '-') {
                report = a;
            } else {
                std::fprintf(stderr, "thermal_week: unknown argument '%s'\n", a.c_str());
                return 2;
            }
        }
        if (epw.empty()) epw = dctwin::dataFile("weather/USA_AZ_Phoenix-Sky.Harbor.epw");
        const auto s = dctwin::examples::runThermalWeekExample(epw, report, options);
        std::printf(
            "thermal week (%.1f d): IT heat %.1f MWh, rejected %.1f MWh, energy rel. error "
            "%.2e, water %.1f m3, max die %.1f C, max FWS supply %.2f C → %s\n",
            options.days, s.it_heat / 3.6e9, s.heat_rejected / 3.6e9, s.energy_balance_rel_error,
            s.water, s.max_die_temp - 273.15, s.max_facility_supply_temp - 273.15,
            report.string().c_str());
        return 0;
    } catch (const dctwin::InputError& e) {
        std::fprintf(stderr, "thermal_week: %s\n", e.what());
        return 2;
    } catch (const std::invalid_argument&) {
        std::fprintf(stderr, "thermal_week: --days expects a number\n");
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "thermal_week: %s\n", e.what());
        return 1;
    }
}
