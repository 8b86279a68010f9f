#include "gui/report_loader.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/io/hdf5_reader.h"

namespace dctwin::gui {
namespace {

bool hasAttribute(const hdf5::Reader& r, const std::string& path, const std::string& name) {
    const auto attrs = r.listAttributes(path);
    return std::find(attrs.begin(), attrs.end(), name) != attrs.end();
}

std::string baseName(const std::string& path) { return path.substr(path.rfind('/') + 1); }

std::vector<std::string> words(const std::string& text) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = std::min(text.find(' ', start), text.size());
        if (end > start) out.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

/// A 2-D [time, <dimension>] dataset of a series array (issue 17) back into one channel per
/// column, "<group>/<column name>/<name>" as the run had them, and the array into `out.arrays`
/// (so saving the loaded report writes the same array again).
void readArrayVariable(const hdf5::Reader& r, const std::string& path, const std::string& group,
                       const std::string& name, ResultSet& out) {
    const std::vector<std::string> scales = r.dimensionScales(path);
    const std::vector<std::uint64_t> shape = r.shape(path);
    if (scales.size() != 2 || scales[1].empty()) {
        throw InputError(fmt::format("{}: {} is 2-D but has no dimension scale on its second axis",
                                     r.file().string(), path));
    }
    const std::string dimension = baseName(scales[1]);
    const std::vector<std::string> labels = r.readStringArray(scales[1] + "_name");
    if (shape[0] != out.time.size() || shape[1] != labels.size()) {
        throw InputError(fmt::format("{}: {} is {} x {}; expected {} samples x {} columns",
                                     r.file().string(), path, shape[0], shape[1], out.time.size(),
                                     labels.size()));
    }
    auto it = std::find_if(out.arrays.begin(), out.arrays.end(),
                           [&](const ChannelArray& a) { return a.group == group; });
    if (it == out.arrays.end()) {
        ChannelArray a;
        a.group = group;
        a.dimension = dimension;
        a.labels = labels;
        const std::string dir = path.substr(0, path.rfind('/'));
        for (const std::string& c : words(r.readStringAttribute(path, "coordinates"))) {
            if (c == dimension + "_name") continue;
            const std::string cpath = dir + "/" + c;
            ChannelArray::Coordinate coord{c, "", r.readStringAttribute(cpath, "long_name"), {}};
            // As the writer does: numbers carry units, text does not.
            if (hasAttribute(r, cpath, "units")) {
                coord.unit = r.readStringAttribute(cpath, "units");
                const std::vector<double> v = r.readDataset(cpath);
                // Counts ("1" with whole values) come back as the integers they were written as.
                if (coord.unit == "1" && std::all_of(v.begin(), v.end(), [](double x) {
                        return x == static_cast<double>(static_cast<std::int64_t>(x));
                    })) {
                    coord.values = std::vector<std::int64_t>(v.begin(), v.end());
                } else {
                    coord.values = v;
                }
            } else {
                coord.values = r.readStringArray(cpath);
            }
            a.coordinates.push_back(std::move(coord));
        }
        out.arrays.push_back(std::move(a));
        it = std::prev(out.arrays.end());
    }
    const std::string description =
        hasAttribute(r, path, "description") ? r.readStringAttribute(path, "description") : "";
    it->variables.push_back({name, description});
    const std::vector<double> values = r.readDataset(path);
    const std::string unit = r.readStringAttribute(path, "units");
    for (std::size_t j = 0; j < labels.size(); ++j) {
        Channel& c = out.addChannel(group + "/" + labels[j], name, unit, description);
        c.values.resize(out.time.size());
        for (std::size_t i = 0; i < c.values.size(); ++i)
            c.values[i] = values[i * labels.size() + j];
    }
}

// Every dataset the writer makes carries a `units` attribute and groups do not, which tells the
// two apart without an HDF5 type in this layer. The coordinates of a series array (listed in its
// variables' `coordinates` attribute, text ones without units) are not channels.
void readChannels(const hdf5::Reader& r, const std::string& group_path, const std::string& group,
                  ResultSet& out) {
    const std::vector<std::string> children = r.listChildren(group_path);
    std::set<std::string> coordinates;
    for (const std::string& name : children) {
        const std::string path = group_path + "/" + name;
        if (!hasAttribute(r, path, "coordinates")) continue;
        for (const std::string& c : words(r.readStringAttribute(path, "coordinates"))) {
            coordinates.insert(c);
        }
        for (const std::string& scale : r.dimensionScales(path))
            coordinates.insert(baseName(scale));
    }
    for (const std::string& name : children) {
        const std::string path = group_path + "/" + name;
        // /timeseries/time and each group's time coordinate (issue 17) are the time grid.
        if (name == "time" || coordinates.count(name)) continue;
        if (hasAttribute(r, path, "units")) {
            if (r.shape(path).size() == 2) {
                readArrayVariable(r, path, group, name, out);
                continue;
            }
            Channel& c = out.addChannel(group, name, r.readStringAttribute(path, "units"),
                                        hasAttribute(r, path, "description")
                                            ? r.readStringAttribute(path, "description")
                                            : std::string());
            const std::vector<double> values = r.readDataset(path);
            c.values.assign(values.begin(), values.end());
            if (c.values.size() != out.time.size()) {
                throw InputError(fmt::format("{}: {} has {} samples but /timeseries/time has {}",
                                             r.file().string(), path, c.values.size(),
                                             out.time.size()));
            }
        } else {
            readChannels(r, path, group.empty() ? name : group + "/" + name, out);
        }
    }
}

}  // namespace

Report loadReportFile(const std::filesystem::path& file) {
    const hdf5::Reader r(file);
    if (!r.exists("/timeseries/time")) {
        throw InputError(
            fmt::format("{}: not a dctwin report (no /timeseries/time)", file.string()));
    }
    Report report;
    for (const std::string& a : r.listAttributes("/")) {
        report.attributes[a] = r.readStringAttribute("/", a);
    }
    if (r.exists("/scenario")) {
        for (const std::string& name : r.listChildren("/scenario")) {
            report.texts["scenario/" + name] = r.readStringDataset("/scenario/" + name);
        }
    }
    if (r.exists("/summary")) {
        for (const std::string& name : r.listChildren("/summary")) {
            const std::string path = "/summary/" + name;
            const std::vector<double> v = r.readDataset(path);
            if (v.size() != 1) {
                throw InputError(fmt::format("{}: {} holds {} values; a summary metric is one",
                                             file.string(), path, v.size()));
            }
            // Reports written before 2026-12-05 have no description: the key names the row.
            report.summary.push_back({name, v.front(), r.readStringAttribute(path, "units"),
                                      hasAttribute(r, path, "description")
                                          ? r.readStringAttribute(path, "description")
                                          : std::string()});
        }
    }
    // The sizing tables, and the tables a study adds: a contingency's event log and the GPU-hours
    // per job (the report writer puts each table at its path; reading only /sizing lost these
    // two when a report was opened from its file).
    for (const char* group : {"sizing", "contingency", "study"}) {
        if (!r.exists(std::string("/") + group)) continue;
        for (const std::string& name : r.listChildren(std::string("/") + group)) {
            Table t = r.readTable(std::string("/") + group + "/" + name);
            t.path = std::string(group) + "/" + name;
            report.tables.push_back(std::move(t));
        }
    }
    ResultSet& ts = report.timeseries;
    const std::vector<double> time = r.readDataset("/timeseries/time");
    ts.time.assign(time.begin(), time.end());
    if (hasAttribute(r, "/timeseries/time", "start")) {
        ts.start_iso8601 = r.readStringAttribute("/timeseries/time", "start");
    }
    readChannels(r, "/timeseries", "", ts);
    return report;
}

}  // namespace dctwin::gui
