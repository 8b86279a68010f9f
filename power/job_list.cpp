// CSV job lists (power/job_list.h).
#include "power/job_list.h"

#include <fmt/format.h>

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
        std::vector<std::string> cells = split(line, ',');
        for (auto& c : cells) c = trim(c);
        if (header.empty()) {
            std::set<std::string> seen;
            for (const auto& c : cells) {
                if (c.empty()) throw InputError(fmt::format("{}: empty column name", where));
                if (!seen.insert(c).second) {
                    throw InputError(
                        fmt::format("{}: column \"{}\" appears twice", where, quoteValue(c)));
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
                fmt::format("{}: {} fields, the header has {} (no field may hold a comma)", where,
                            cells.size(), header.size()));
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
