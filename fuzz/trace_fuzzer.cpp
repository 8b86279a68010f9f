// libFuzzer target for the workload trace readers (power/trace.h). The readers take a path, so
// each input is written to a private temporary file; the first byte picks the format and the
// options (bit 5: the telemetry readers of readTrace, by format or detected, then aggregated;
// otherwise the strict CSV and Cornell readers). Seed: build-fuzz/fuzz/trace_fuzzer
// /tmp/corpus-trace data/traces/
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>

#include "core/errors.h"
#include "power/trace.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    static const std::string file = "/tmp/dctwin_trace_fuzz." + std::to_string(::getpid());
    {
        std::ofstream out(file, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data + 1), static_cast<std::streamsize>(size - 1));
    }
    const std::uint8_t mode = data[0];
    try {
        if (mode & 32) {
            // The telemetry readers (issue 11): a format by the mode's low bits, or detection,
            // then aggregation onto a grid as a trace job does.
            const auto& formats = dctwin::power::traceFormats();
            dctwin::power::TraceReadOptions r;
            r.format = formats[mode % formats.size()];
            r.gpus = (mode & 64) ? 8 : 0;
            const dctwin::power::TraceData d = dctwin::power::readTrace(file, r);
            if (!d.columns.empty() && !d.devices.empty()) {
                dctwin::power::AggregateOptions a;
                a.rule = (mode & 128) ? dctwin::power::TraceAggregate::Sum
                                      : dctwin::power::TraceAggregate::Mean;
                a.fill = (mode & 16) ? dctwin::power::GapFill::Hold
                                     : dctwin::power::GapFill::Interpolate;
                const auto t = dctwin::power::aggregateTrace(d, a);
                if (t.size() > 0) (void)t.integral(0.0, t.span());
            }
        } else {
            dctwin::power::TraceOptions o;
            if (mode & 2) o.column = (mode & 4) ? "powerave" : "value";
            o.time_unit = (mode & 8) ? 60.0 : 1.0;
            o.max_gap = (mode & 16) ? 3600.0 : 48 * 3600.0;
            const auto t = (mode & 1) ? dctwin::power::readCornellTrace(file, o)
                                      : dctwin::power::readCsvTrace(file, o);
            (void)t.at(t.span() / 2);
            (void)t.integral(0.0, t.span());
            (void)t.missingSamples();
        }
    } catch (const dctwin::InputError&) {
    } catch (...) {
        std::abort();
    }
    return 0;
}
