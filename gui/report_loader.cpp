#include "gui/report_loader.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/errors.h"
#include "core/io/hdf5_reader.h"

namespace dctwin::gui {
namespace {

bool hasAttribute(const hdf5::Reader& r, const std::string& path, const std::string& name) {
    const auto attrs = r.listAttributes(path);
    return std::find(attrs.begin(), attrs.end(), name) != attrs.end();
}

// Every dataset the writer makes carries a `units` attribute and groups do not, which tells the
// two apart without an HDF5 type in this layer.
void readChannels(const hdf5::Reader& r, const std::string& group_path, const std::string& group,
                  ResultSet& out) {
    for (const std::string& name : r.listChildren(group_path)) {
        const std::string path = group_path + "/" + name;
        // /timeseries/time and each group's time coordinate (issue 17) are the time grid.
        if (name == "time") continue;
        if (hasAttribute(r, path, "units")) {
            Channel& c = out.addChannel(group, name, r.readStringAttribute(path, "units"),
                                        hasAttribute(r, path, "description")
                                            ? r.readStringAttribute(path, "description")
                                            : std::string());
            c.values = r.readDataset(path);
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
            report.summary.push_back({name, v.front(), r.readStringAttribute(path, "units")});
        }
    }
    if (r.exists("/sizing")) {
        for (const std::string& name : r.listChildren("/sizing")) {
            Table t = r.readTable("/sizing/" + name);
            t.path = "sizing/" + name;
            report.tables.push_back(std::move(t));
        }
    }
    ResultSet& ts = report.timeseries;
    ts.time = r.readDataset("/timeseries/time");
    if (hasAttribute(r, "/timeseries/time", "start")) {
        ts.start_iso8601 = r.readStringAttribute("/timeseries/time", "start");
    }
    readChannels(r, "/timeseries", "", ts);
    return report;
}

}  // namespace dctwin::gui
