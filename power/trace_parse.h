#pragma once
// Text helpers shared by the trace readers (power/trace*.cpp): lines, fields, numbers with
// unit suffixes, datetimes. Internal to the power layer.
//
// Datetimes accepted (→ Unix seconds, UTC):
//   YYYY-MM-DD[T| ]HH:MM[:SS[.fff]][Z|±HH[:MM]|±HHMM]   (ISO 8601)
//   YYYY/MM/DD HH:MM:SS[.fff]                           (nvidia-smi)
// A stamp without a zone is local time: UTC = local − utc_offset.
// Unit conversion: value_canonical = value · factor (W: mW 1e-3, kW 1e3, MW 1e6; %: ratio
// 100; MiB: KiB 1/1024, GiB 1024, MB 10⁶/2²⁰, GB 10⁹/2²⁰; MHz: GHz 1e3; J: mJ 1e-3, kJ 1e3,
// Wh 3600, kWh 3.6e6; s: ms 1e-3, min 60, h 3600).
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/errors.h"
#include "power/trace.h"

namespace dctwin::power::trace_detail {

struct Lines {
    std::vector<std::string> text;  // without line ends and BOM
    bool ends_with_newline = true;
};
Lines readLines(const std::filesystem::path& file);

std::vector<std::string> split(const std::string& s, char sep);
std::string trim(std::string_view s);
std::string lower(std::string_view s);
/// A whole-string finite number (trailing blanks allowed).
bool parseNumber(const std::string& s, double& out);
/// Days since 1970-01-01 of a proleptic Gregorian date.
long daysFromCivil(long y, unsigned m, unsigned d);
/// A datetime (see above) → Unix seconds; false if malformed.
bool parseDateTime(const std::string& s, double utc_offset, double& out);
/// Unix seconds → "YYYY-MM-DDTHH:MM:SS.fffZ".
std::string isoUtc(double epoch);
/// True if the text starts like a datetime (4 digits, then - or /).
bool looksLikeDateTime(const std::string& s);

struct Unit {
    std::string canonical;  // W, %, MiB, MHz, C, J, s
    double factor = 1.0;    // canonical per given unit
};
/// A unit name → its canonical unit and factor; false when unknown. "" is "no unit".
bool lookupUnit(const std::string& unit, Unit& out);
/// The unit names lookupUnit knows, for messages.
std::string knownUnits();
/// "power.draw [W]", "power (kW)", "power_kW" → name and unit ("" when none).
void splitHeaderUnit(const std::string& header, std::string& name, std::string& unit);
/// "312.5 W", "85 %", "4000 MiB", "312.5" → number and unit suffix; false if not a number.
bool parseValueWithUnit(const std::string& s, double& value, std::string& unit);
/// N/A markers of nvidia-smi and DCGM.
bool isMissing(const std::string& s);

/// Collects samples (device, time, values) in file order into TraceData devices.
class TraceBuilder {
public:
    explicit TraceBuilder(TraceData& data) : data_(data) {}
    /// Time must increase strictly per device (an InputError naming line and device if not).
    void add(const std::string& device, double time, std::vector<double> values, std::size_t line,
             const std::string& time_text);
    /// Shifts times so the earliest sample is 0 (start_epoch keeps the offset when the times
    /// are absolute) and checks there are samples and no power reading (a column in W) below
    /// 0 W (an InputError naming the first by line, column and value).
    void finish();

private:
    TraceData& data_;
};

// The readers, one per format (power/trace_*.cpp); `lines` is the whole file.
TraceData readNvidiaSmi(const std::string& file, const Lines& lines, const TraceReadOptions& o);
TraceData readDcgmDmon(const std::string& file, const Lines& lines, const TraceReadOptions& o);
TraceData readDcgmPrometheus(const std::string& file, const Lines& lines,
                             const TraceReadOptions& o);
TraceData readDelimited(const std::string& file, const Lines& lines, const TraceReadOptions& o);
TraceData readCornell(const std::string& file, const Lines& lines);

/// The last data line of a file that fails to parse: dropped with a warning (a logger killed
/// mid-line) when it is the file's last non-blank line; any other line's error is rethrown.
bool isLastDataLine(const Lines& lines, std::size_t index);

/// The tool logs' one policy for a file cut short while it was written: `parse` reads data
/// line `index` (throwing InputError on a bad field); a line that fails is an error unless it
/// is the file's last, which is dropped with a warning; the last line is dropped too when the
/// file does not end with a newline (the tools end every row with one, so what is left was
/// cut mid-write even if it parses: "33" of "330.12 W"). Returns whether to keep the row.
template <class Parse>
bool parseUnlessCutShort(TraceData& data, const Lines& lines, std::size_t index, Parse&& parse) {
    try {
        parse();
    } catch (const InputError& e) {
        if (!isLastDataLine(lines, index)) throw;
        data.warnings.push_back("line " + std::to_string(index + 1) +
                                " dropped (truncated last line?): " + e.what());
        return false;
    }
    if (!lines.ends_with_newline && isLastDataLine(lines, index)) {
        data.warnings.push_back("line " + std::to_string(index + 1) +
                                " dropped: the file ends without a newline inside it (cut short)");
        return false;
    }
    return true;
}

/// "file:line: message" as an InputError.
[[noreturn]] void fail(const std::string& file, std::size_t line, const std::string& message);
/// `s` with control characters and bytes that are not UTF-8 written as `\\xNN`, cut after about
/// `max_bytes` with "… (N bytes in all)": raw file text made fit for a message.
std::string readableText(std::string_view s, std::size_t max_bytes);

}  // namespace dctwin::power::trace_detail
