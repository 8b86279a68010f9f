#include "power/trace_parse.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>

#include "core/errors.h"
#include "core/json.h"

namespace dctwin::power::trace_detail {

Lines readLines(const std::filesystem::path& file) {
    // Non-throwing filesystem queries: a path that is too long or crosses a non-directory is
    // the user's to fix, not a crash of the run.
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec)) {
        throw InputError(
            fmt::format("{}: is a directory, not a trace file", quoteValue(file.string())));
    }
    errno = 0;
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        throw InputError(fmt::format("{}: cannot open trace file: {}", quoteValue(file.string()),
                                     std::strerror(errno != 0 ? errno : ENOENT)));
    }
    Lines out;
    std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) throw InputError(fmt::format("{}: read error", file.string()));
    out.ends_with_newline = all.empty() || all.back() == '\n';
    std::size_t b = 0;
    while (b < all.size()) {
        std::size_t e = all.find('\n', b);
        if (e == std::string::npos) e = all.size();
        std::string line = all.substr(b, e - b);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        out.text.push_back(std::move(line));
        b = e + 1;
    }
    if (!out.text.empty() && out.text[0].rfind("\xEF\xBB\xBF", 0) == 0) out.text[0].erase(0, 3);
    return out;
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : s) {
        if (c == sep) {
            out.push_back(cur);
            cur.clear();
        } else {
            cur.push_back(c);
        }
    }
    out.push_back(cur);
    return out;
}

std::string trim(std::string_view s) {
    std::size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
    return std::string(s.substr(b, e - b));
}

std::string lower(std::string_view s) {
    std::string o(s);
    for (char& c : o) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return o;
}

bool parseNumber(const std::string& s, double& out) {
    // Decimal only, the whole text: strtod alone also reads hexadecimal ("0x10" is 16,
    // "0x1p3" 8), and a C string ends at a NUL byte ("8\0 0" read as 8).
    std::size_t b = 0, e = s.size();
    while (b < e && s[b] == ' ') ++b;
    while (e > b && s[e - 1] == ' ') --e;
    if (b == e) return false;
    for (std::size_t i = b; i < e; ++i) {
        const char c = s[i];
        if (!((c >= '0' && c <= '9') || c == '.' || c == '+' || c == '-' || c == 'e' || c == 'E')) {
            return false;
        }
    }
    const char* first = s.c_str() + b;
    char* end = nullptr;
    errno = 0;
    out = std::strtod(first, &end);
    return end == s.c_str() + e && errno == 0 && std::isfinite(out);
}

long daysFromCivil(long y, unsigned m, unsigned d) {
    // H. Hinnant's days_from_civil.
    y -= m <= 2;
    const long era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<long>(doe) - 719468;
}

namespace {

/// `n` digits at s[i..] → value; advances i.
bool digits(const std::string& s, std::size_t& i, int n, int& v) {
    v = 0;
    for (int k = 0; k < n; ++k, ++i) {
        if (i >= s.size() || !std::isdigit(static_cast<unsigned char>(s[i]))) return false;
        v = v * 10 + (s[i] - '0');
    }
    return true;
}

bool leapYear(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

}  // namespace

// Unix seconds → "YYYY-MM-DDTHH:MM:SS.fffZ" (H. Hinnant's civil_from_days).
std::string isoUtc(double epoch) {
    const double day_s = std::floor(epoch / 86400.0);
    long z = static_cast<long>(day_s) + 719468;
    const long era = (z >= 0 ? z : z - 146096) / 146097;
    const auto doe = static_cast<unsigned>(z - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    const unsigned d = doy - (153 * mp + 2) / 5 + 1;
    const unsigned m = mp < 10 ? mp + 3 : mp - 9;
    const long y = static_cast<long>(yoe) + era * 400 + (m <= 2);
    const double sec_of_day = epoch - day_s * 86400.0;
    const auto ms = static_cast<long long>(std::llround(sec_of_day * 1000.0));
    return fmt::format("{:04d}-{:02d}-{:02d}T{:02d}:{:02d}:{:02d}.{:03d}Z", y, m, d, ms / 3600000,
                       ms / 60000 % 60, ms / 1000 % 60, ms % 1000);
}

bool looksLikeDateTime(const std::string& s) {
    std::size_t i = 0;
    int y;
    return digits(s, i, 4, y) && i < s.size() && (s[i] == '-' || s[i] == '/');
}

bool parseDateTime(const std::string& text, double utc_offset, double& out) {
    const std::string s = trim(text);
    std::size_t i = 0;
    int Y, M, D, h = 0, m = 0;
    double sec = 0;
    if (!digits(s, i, 4, Y) || i >= s.size()) return false;
    const char sep = s[i];
    if (sep != '-' && sep != '/') return false;
    ++i;
    if (!digits(s, i, 2, M) || i >= s.size() || s[i] != sep) return false;
    ++i;
    if (!digits(s, i, 2, D)) return false;
    static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (M < 1 || M > 12 || D < 1 || D > kDays[M - 1] + (M == 2 && leapYear(Y) ? 1 : 0)) {
        return false;
    }
    bool zoned = false;
    double zone = 0;  // [s] east of UTC
    if (i < s.size()) {
        if (s[i] != 'T' && s[i] != ' ') return false;
        ++i;
        if (!digits(s, i, 2, h) || i >= s.size() || s[i] != ':') return false;
        ++i;
        if (!digits(s, i, 2, m)) return false;
        if (i < s.size() && s[i] == ':') {
            ++i;
            int whole;
            if (!digits(s, i, 2, whole)) return false;
            sec = whole;
            if (i < s.size() && (s[i] == '.' || s[i] == ',')) {
                ++i;
                double scale = 0.1;
                const std::size_t f0 = i;
                while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
                    sec += (s[i] - '0') * scale;
                    scale *= 0.1;
                    ++i;
                }
                if (i == f0) return false;
            }
        }
        if (h > 23 || m > 59 || sec >= 61) return false;
        if (i < s.size()) {
            if (s[i] == 'Z' && i + 1 == s.size()) {
                zoned = true;
                ++i;
            } else if (s[i] == '+' || s[i] == '-') {
                const int sign = s[i] == '+' ? 1 : -1;
                ++i;
                int zh, zm = 0;
                if (!digits(s, i, 2, zh)) return false;
                if (i < s.size() && s[i] == ':') ++i;
                if (i < s.size() && !digits(s, i, 2, zm)) return false;
                if (zh > 14 || zm > 59) return false;
                zoned = true;
                zone = sign * (zh * 3600.0 + zm * 60.0);
            }
            if (i != s.size()) return false;
        }
    }
    const double local =
        static_cast<double>(daysFromCivil(Y, static_cast<unsigned>(M), static_cast<unsigned>(D))) *
            86400.0 +
        h * 3600.0 + m * 60.0 + sec;
    out = local - (zoned ? zone : utc_offset);
    return true;
}

bool lookupUnit(const std::string& unit, Unit& out) {
    static const std::map<std::string, Unit> kUnits = {
        {"", {"", 1.0}},
        {"mw", {"W", 1e-3}},  // lower-cased below: "mW" (milliwatt); MW spelled out
        {"w", {"W", 1.0}},
        {"watt", {"W", 1.0}},
        {"watts", {"W", 1.0}},
        {"kw", {"W", 1e3}},
        {"megawatt", {"W", 1e6}},
        {"%", {"%", 1.0}},
        {"pct", {"%", 1.0}},
        {"percent", {"%", 1.0}},
        {"ratio", {"%", 100.0}},
        {"fraction", {"%", 100.0}},
        {"kib", {"MiB", 1.0 / 1024}},
        {"mib", {"MiB", 1.0}},
        {"gib", {"MiB", 1024.0}},
        {"mb", {"MiB", 1e6 / 1048576.0}},
        {"gb", {"MiB", 1e9 / 1048576.0}},
        {"mhz", {"MHz", 1.0}},
        {"ghz", {"MHz", 1e3}},
        {"c", {"C", 1.0}},
        {"°c", {"C", 1.0}},
        {"degc", {"C", 1.0}},
        {"mj", {"J", 1e-3}},
        {"j", {"J", 1.0}},
        {"kj", {"J", 1e3}},
        {"wh", {"J", 3600.0}},
        {"kwh", {"J", 3.6e6}},
        {"ms", {"s", 1e-3}},
        {"s", {"s", 1.0}},
        {"min", {"s", 60.0}},
        {"h", {"s", 3600.0}},
    };
    // Case matters for one pair only: mW (milliwatt) and MW (megawatt).
    if (unit == "MW") {
        out = {"W", 1e6};
        return true;
    }
    const auto it = kUnits.find(lower(trim(unit)));
    if (it == kUnits.end()) return false;
    out = it->second;
    return true;
}

std::string knownUnits() {
    return "mW, W, kW, MW (→ W); %, ratio (→ %); KiB, MiB, GiB, MB, GB (→ MiB); MHz, GHz; C; "
           "mJ, J, kJ, Wh, kWh (→ J); ms, s, min, h";
}

void splitHeaderUnit(const std::string& header, std::string& name, std::string& unit) {
    const std::string h = trim(header);
    name = h;
    unit.clear();
    if (h.size() >= 2 && (h.back() == ']' || h.back() == ')')) {
        const char open = h.back() == ']' ? '[' : '(';
        const std::size_t p = h.rfind(open);
        if (p != std::string::npos && p > 0) {
            name = trim(h.substr(0, p));
            unit = trim(h.substr(p + 1, h.size() - p - 2));
            return;
        }
    }
    // power_kW, util_pct: a trailing _unit that is a known power/percentage unit.
    const std::size_t us = h.rfind('_');
    if (us != std::string::npos && us > 0) {
        const std::string tail = h.substr(us + 1);
        for (const char* u : {"W", "kW", "MW", "mW", "pct", "percent"}) {
            if (tail == u) {
                name = h.substr(0, us);
                unit = tail;
                return;
            }
        }
    }
}

bool parseValueWithUnit(const std::string& text, double& value, std::string& unit) {
    const std::string s = trim(text);
    if (s.empty()) return false;
    const char* b = s.c_str();
    char* e = nullptr;
    errno = 0;
    value = std::strtod(b, &e);
    if (e == b || errno != 0 || !std::isfinite(value)) return false;
    // strtod reads "inf"/"nan" and hex; only plain decimals are data here.
    for (const char* p = b; p < e; ++p) {
        if (std::isalpha(static_cast<unsigned char>(*p)) && *p != 'e' && *p != 'E') return false;
    }
    unit = trim(std::string_view(e));
    return true;
}

bool isMissing(const std::string& s) {
    const std::string t = lower(trim(s));
    return t == "[n/a]" || t == "n/a" || t == "[not supported]" || t == "not supported" ||
           t == "[unknown error]" || t == "n/a w" || t == "na" || t == "nan" || t.empty();
}

void TraceBuilder::add(const std::string& device, double time, std::vector<double> values,
                       std::size_t line, const std::string& time_text) {
    auto it = std::find_if(data_.devices.begin(), data_.devices.end(),
                           [&](const TraceDevice& d) { return d.id == device; });
    if (it == data_.devices.end()) {
        data_.devices.push_back(TraceDevice{device, {}, {}, {}});
        data_.devices.back().values.resize(data_.columns.size());
        it = data_.devices.end() - 1;
    }
    if (!it->time.empty() && !(time > it->time.back())) {
        fail(data_.file, line,
             fmt::format("field '{}': time '{}' does not increase for device '{}' (the sample "
                         "on line {} is as late or later)",
                         data_.time_column.empty() ? "time" : data_.time_column, time_text, device,
                         it->lines.back()));
    }
    it->time.push_back(time);
    for (std::size_t c = 0; c < it->values.size(); ++c) {
        it->values[c].push_back(c < values.size() ? values[c] : NAN);
    }
    it->lines.push_back(line);
}

void TraceBuilder::finish() {
    // A power reading is at least 0 W: a negative one is a logger's or a conversion's fault,
    // not a measurement, and replayed it would read as a GPU below idle (it was accepted
    // silently). The first in file order is named, with its column and value as converted.
    struct Negative {
        std::size_t line = 0;
        std::size_t column = 0;
        double value = 0;
        const TraceDevice* device = nullptr;
    };
    std::optional<Negative> negative;
    for (std::size_t c = 0; c < data_.columns.size(); ++c) {
        if (data_.columns[c].unit != "W") continue;
        for (const TraceDevice& d : data_.devices) {
            for (std::size_t i = 0; i < d.values[c].size(); ++i) {
                const double v = d.values[c][i];
                if (v < 0.0 && (!negative || d.lines[i] < negative->line)) {
                    negative = Negative{d.lines[i], c, v, &d};
                }
            }
        }
    }
    if (negative) {
        const TraceColumn& col = data_.columns[negative->column];
        const std::string as_written = col.source_unit.empty() || col.source_unit == "W"
                                           ? std::string()
                                           : fmt::format(" (converted from {})", col.source_unit);
        const std::string device = data_.devices.size() > 1
                                       ? fmt::format(" (device '{}')", negative->device->id)
                                       : std::string();
        fail(data_.file, negative->line,
             fmt::format("field '{}'{} is {:g} W{}; a power reading must be >= 0 W", col.name,
                         device, negative->value, as_written));
    }
    double t0 = INFINITY;
    for (const auto& d : data_.devices) {
        if (!d.time.empty()) t0 = std::min(t0, d.time.front());
    }
    if (!std::isfinite(t0)) {
        throw InputError(
            fmt::format("{}: no data rows found (format {})", data_.file, data_.format));
    }
    for (auto& d : data_.devices) {
        for (double& t : d.time) t -= t0;
    }
    data_.start_epoch = data_.absolute_time ? t0 : 0.0;
    // Devices in natural order: "GPU 2" before "GPU 10", "0" before "1".
    auto key = [](const std::string& id) {
        std::size_t e = id.size();
        while (e > 0 && std::isdigit(static_cast<unsigned char>(id[e - 1]))) --e;
        const double n = e < id.size() ? std::strtod(id.c_str() + e, nullptr) : -1.0;
        return std::make_pair(id.substr(0, e), n);
    };
    std::stable_sort(data_.devices.begin(), data_.devices.end(),
                     [&](const TraceDevice& a, const TraceDevice& b) {
                         const auto ka = key(a.id), kb = key(b.id);
                         return ka != kb ? ka < kb : a.id < b.id;
                     });
}

bool isLastDataLine(const Lines& lines, std::size_t index) {
    for (std::size_t i = index + 1; i < lines.text.size(); ++i) {
        if (!trim(lines.text[i]).empty()) return false;
    }
    return true;
}

namespace {
/// Length of the valid UTF-8 sequence at s[i], 0 if there is none.
std::size_t utf8Length(std::string_view s, std::size_t i) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t n = c < 0x80           ? 1
                          : (c >> 5) == 0x6  ? 2
                          : (c >> 4) == 0xE  ? 3
                          : (c >> 3) == 0x1E ? 4
                                             : 0;
    if (n == 0 || i + n > s.size()) return 0;
    for (std::size_t k = 1; k < n; ++k) {
        if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return 0;
    }
    return n;
}
}  // namespace

std::string readableText(std::string_view s, std::size_t max_bytes) {
    std::string out;
    std::size_t i = 0;
    while (i < s.size() && out.size() < max_bytes) {
        const auto c = static_cast<unsigned char>(s[i]);
        const std::size_t n = utf8Length(s, i);
        if (n == 0 || c < 0x20 || c == 0x7f) {
            out += fmt::format("\\x{:02X}", c);
            ++i;
        } else {
            out.append(s.substr(i, n));
            i += n;
        }
    }
    if (i < s.size()) out += fmt::format("… ({} bytes in all)", s.size());
    return out;
}

void fail(const std::string& file, std::size_t line, const std::string& message) {
    // The message may quote the file's own text (a header line, a field): from a binary file
    // that was 20 kB of raw bytes and control characters on the terminal. Escaped and cut.
    throw InputError(fmt::format("{}:{}: {}", file, line, readableText(message, 400)));
}

}  // namespace dctwin::power::trace_detail
