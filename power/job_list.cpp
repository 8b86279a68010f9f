// CSV job lists (power/job_list.h).
#include "power/job_list.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include "core/errors.h"
#include "core/object_spec.h"
#include "power/trace_parse.h"
#include "power/workload.h"

namespace dctwin::power {
namespace {

using trace_detail::parseNumber;
using trace_detail::split;
using trace_detail::trim;

/// The declaration of `key` for a job of kind `type`: the common keys first, then the kind's.
const KeySpec* keyOf(const std::string& key, const std::string& type) {
    const ObjectSpec& spec = *jobSpec();
    if (const KeySpec* k = spec.find(key)) return k;
    if (const ObjectSpec* v = spec.variant(type)) return v->find(key);
    return nullptr;
}

const char* typeName(KeyType t) {
    switch (t) {
        case KeyType::Number:
            return "a number";
        case KeyType::Integer:
            return "an integer";
        case KeyType::Boolean:
            return "true or false";
        case KeyType::String:
            return "text";
        case KeyType::Object:
            return "an object";
        case KeyType::Array:
            return "numbers separated by ';'";
    }
    return "a value";
}

/// Every key some type of job has, in declaration order: each kind's full spec holds the
/// common keys and the selector too.
std::vector<std::string> anyJobKey() {
    std::vector<std::string> keys;
    const ObjectSpec& spec = *jobSpec();
    for (const std::string& v : spec.variantNames()) {
        for (const std::string& k : spec.variant(v)->keyNames()) {
            if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
        }
    }
    return keys;
}

/// Byte offset of the first byte that does not start or continue a UTF-8 character (overlong
/// forms, surrogates and code points above U+10FFFF included), npos if the text is UTF-8.
std::size_t invalidUtf8At(const std::string& s) {
    std::size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        std::size_t n = 0;
        unsigned cp = 0, min = 0;
        if (c < 0x80) {
            ++i;
            continue;
        } else if ((c & 0xE0) == 0xC0) {
            n = 1, cp = c & 0x1F, min = 0x80;
        } else if ((c & 0xF0) == 0xE0) {
            n = 2, cp = c & 0x0F, min = 0x800;
        } else if ((c & 0xF8) == 0xF0) {
            n = 3, cp = c & 0x07, min = 0x10000;
        } else {
            return i;
        }
        for (std::size_t k = 1; k <= n; ++k) {
            if (i + k >= s.size()) return i;
            const auto d = static_cast<unsigned char>(s[i + k]);
            if ((d & 0xC0) != 0x80) return i;
            cp = (cp << 6) | (d & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
        i += n + 1;
    }
    return std::string::npos;
}

/// A line's fields: separated by commas; a field in double quotes may hold commas, and "" in it
/// is one quote (RFC 4180, as spreadsheets write text cells). Throws for a quote left open or
/// text after a closing quote. Fields are trimmed of spaces and tabs outside the quotes.
std::vector<std::string> csvFields(const std::string& line, const std::string& where) {
    std::vector<std::string> out;
    std::size_t i = 0;
    while (true) {
        std::string field;
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
        if (i < line.size() && line[i] == '"') {
            const std::size_t open = i++;
            bool closed = false;
            while (i < line.size()) {
                if (line[i] == '"') {
                    if (i + 1 < line.size() && line[i + 1] == '"') {
                        field += '"';
                        i += 2;
                        continue;
                    }
                    ++i;
                    closed = true;
                    break;
                }
                field += line[i++];
            }
            if (!closed) {
                throw InputError(
                    fmt::format("{}: the quote at character {} is not closed", where, open + 1));
            }
            while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
            if (i < line.size() && line[i] != ',') {
                throw InputError(fmt::format(
                    "{}: text after the closing quote at character {} (a quoted field ends "
                    "at its quote; write a quote inside it as \"\")",
                    where, i + 1));
            }
        } else {
            const std::size_t comma = line.find(',', i);
            field =
                trim(line.substr(i, comma == std::string::npos ? std::string::npos : comma - i));
            i = comma == std::string::npos ? line.size() : comma;
        }
        out.push_back(std::move(field));
        if (i >= line.size()) break;
        ++i;  // the comma
    }
    return out;
}

}  // namespace

std::vector<JobRow> readJobList(const std::filesystem::path& file, const std::string& json_path) {
    const std::string name = file.filename().string();
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec)) {
        throw InputError(fmt::format("{}: {} is a directory, not a job list", json_path,
                                     quoteValue(file.string())));
    }
    errno = 0;
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        throw InputError(fmt::format("{}: cannot open the job list {}: {}", json_path,
                                     quoteValue(file.string()),
                                     std::strerror(errno != 0 ? errno : ENOENT)));
    }
    std::vector<std::string> header;
    std::vector<JobRow> rows;
    std::string line;
    int line_no = 0;
    while (std::getline(in, line)) {
        ++line_no;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line_no == 1 && line.rfind("\xEF\xBB\xBF", 0) == 0) line.erase(0, 3);
        const std::string t = trim(line);
        if (t.empty() || t.front() == '#') continue;
        const std::string where = fmt::format("{} ({}:{})", json_path, name, line_no);
        if (const std::size_t at = invalidUtf8At(line); at != std::string::npos) {
            throw InputError(fmt::format(
                "{}: byte 0x{:02X} at character {} is not UTF-8 text; save the job list as "
                "UTF-8",
                where, static_cast<unsigned char>(line[at]), at + 1));
        }
        for (std::size_t i = 0; i < line.size(); ++i) {
            const auto c = static_cast<unsigned char>(line[i]);
            if ((c < 0x20 && c != '\t') || c == 0x7F) {
                throw InputError(fmt::format(
                    "{}: control character 0x{:02X} at character {}{}", where, c, i + 1,
                    c == '\r' ? " (a lone carriage return: save the file with LF or CRLF line "
                                "endings)"
                              : ""));
            }
        }
        std::vector<std::string> cells = csvFields(line, where);
        if (header.empty()) {
            std::set<std::string> seen;
            for (const auto& c : cells) {
                if (c.empty()) throw InputError(fmt::format("{}: empty column name", where));
                if (!seen.insert(c).second) {
                    throw InputError(
                        fmt::format("{}: column \"{}\" appears twice", where, quoteValue(c)));
                }
            }
            // A column must be a job key of some type; which type's keys a row may use is
            // the job reader's to say, row by row.
            const std::vector<std::string> keys = anyJobKey();
            for (const auto& c : cells) {
                if (std::find(keys.begin(), keys.end(), c) == keys.end()) {
                    throw InputError(fmt::format("{}: column \"{}\" is not a job key; job keys: {}",
                                                 where, quoteValue(c), fmt::join(keys, ", ")));
                }
            }
            if (!seen.count("name") || !seen.count("type")) {
                throw InputError(fmt::format(
                    "{}: the header must name at least the columns \"name\" and \"type\" (and "
                    "the job keys of power/workload.h, e.g. racks, tenant, start_h); got {}",
                    where, quoteValue(t)));
            }
            header = std::move(cells);
            continue;
        }
        if (cells.size() != header.size()) {
            throw InputError(
                fmt::format("{}: {} fields, the header has {} (a field holding a comma goes in "
                            "double quotes)",
                            where, cells.size(), header.size()));
        }
        std::string type;
        for (std::size_t i = 0; i < header.size(); ++i) {
            if (header[i] == "type") type = cells[i];
        }
        Json job = Json::object();
        for (std::size_t i = 0; i < header.size(); ++i) {
            const std::string& key = header[i];
            const std::string& cell = cells[i];
            if (cell.empty()) continue;
            const KeySpec* k = keyOf(key, type);
            // An undeclared column goes in as text; the job's reader names it and the valid keys.
            const KeyType kind = k ? k->type : KeyType::String;
            auto bad = [&]() -> InputError {
                return InputError(fmt::format("{}, column \"{}\": \"{}\" is not {}", where,
                                              quoteValue(key), quoteValue(cell), typeName(kind)));
            };
            double x = 0.0;
            switch (kind) {
                case KeyType::Number:
                case KeyType::Integer:
                    if (!parseNumber(cell, x)) throw bad();
                    job[key] = x;
                    break;
                case KeyType::Boolean:
                    if (cell != "true" && cell != "false") throw bad();
                    job[key] = cell == "true";
                    break;
                case KeyType::Array: {
                    Json list = Json::array();
                    for (const std::string& part : split(cell, ';')) {
                        if (!parseNumber(trim(part), x)) throw bad();
                        list.push_back(x);
                    }
                    job[key] = std::move(list);
                    break;
                }
                default:
                    job[key] = cell;
            }
        }
        rows.push_back({std::move(job), where});
    }
    if (in.bad()) {
        throw InputError(fmt::format("{}: read error in {}", json_path, quoteValue(file.string())));
    }
    if (header.empty()) {
        throw InputError(fmt::format("{}: the job list {} has no header line", json_path,
                                     quoteValue(file.string())));
    }
    if (rows.empty()) {
        throw InputError(fmt::format("{}: the job list {} has a header but no jobs", json_path,
                                     quoteValue(file.string())));
    }
    return rows;
}

}  // namespace dctwin::power
