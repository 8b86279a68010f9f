// Report writers: HDF5 (layout in report_writer.h, DESIGN.md §5.3), CSV and null. Both real
// writers validate the whole report first and write through a temporary file that is renamed
// only on success, so a failed run never leaves a half-written report under the final name.
#include "core/io/report_writer.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <hdf5.h>
#include <hdf5_hl.h>
#include <signal.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/errors.h"
#include "core/io/chunk_packer.h"

namespace dctwin {
namespace {

namespace fs = std::filesystem;

// ---- shared: validation and atomic file placement -------------------------------------------

/// An HDF5 path (or CSV name) from the report: non-empty segments, no "." or "..".
bool isValidObjectPath(std::string_view path) {
    if (path.empty()) return false;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = path.find('/', start);
        const std::string_view seg = path.substr(
            start, end == std::string_view::npos ? std::string_view::npos : end - start);
        if (seg.empty() || seg == "." || seg == "..") return false;
        if (end == std::string_view::npos) return true;
        start = end + 1;
    }
}

std::string channelPath(const Channel& c) {
    return c.group.empty() ? c.name : fmt::format("{}/{}", c.group, c.name);
}

std::size_t columnLength(const Table::Column& c) {
    return std::visit([](const auto& v) { return v.size(); }, c.data);
}

/// "group/name" of every channel that an array of `ts` stores as one of its columns.
std::set<std::string> arrayColumnPaths(const ResultSet& ts) {
    std::set<std::string> out;
    for (const ChannelArray& a : ts.arrays) {
        for (const auto& v : a.variables) {
            for (std::size_t j = 0; j < a.labels.size(); ++j) {
                out.insert(a.channelGroup(j) + "/" + v.name);
            }
        }
    }
    return out;
}

std::size_t coordinateLength(const ChannelArray::Coordinate& c) {
    return std::visit([](const auto& v) { return v.size(); }, c.values);
}

/// The 2-D arrays: names that cannot clash in their group, one value per column in every
/// coordinate, every column's channel present and of the variable's one unit.
template <typename Fail>
void validateArrays(const ResultSet& ts, Fail&& fail) {
    std::set<std::string> groups;
    for (const ChannelArray& a : ts.arrays) {
        if (!isValidObjectPath(a.group)) fail(fmt::format("invalid array group '{}'", a.group));
        if (!groups.insert(a.group).second) {
            fail(fmt::format("array group '{}' appears twice", a.group));
        }
        auto checkName = [&](const std::string& n, std::string_view what) {
            if (n.empty() || n.find('/') != std::string::npos || n == "." || n == "..") {
                fail(fmt::format("array '{}': invalid {} name '{}'", a.group, what, n));
            }
        };
        checkName(a.dimension, "dimension");
        if (a.labels.empty()) fail(fmt::format("array '{}' has no columns", a.group));
        std::set<std::string> names = {"time", a.dimension, a.dimension + "_name"};
        if (names.size() != 3) {
            fail(fmt::format("array '{}': the dimension cannot be called 'time'", a.group));
        }
        for (const auto& l : a.labels) checkName(l, "column");
        for (const auto& c : a.coordinates) {
            checkName(c.name, "coordinate");
            if (!names.insert(c.name).second) {
                fail(fmt::format("array '{}': name '{}' is used twice", a.group, c.name));
            }
            if (coordinateLength(c) != a.labels.size()) {
                fail(fmt::format("array '{}': coordinate '{}' has {} values for {} columns",
                                 a.group, c.name, coordinateLength(c), a.labels.size()));
            }
        }
        for (const auto& v : a.variables) {
            checkName(v.name, "variable");
            if (!names.insert(v.name).second) {
                fail(fmt::format("array '{}': name '{}' is used twice", a.group, v.name));
            }
            const Channel* first = nullptr;
            for (std::size_t j = 0; j < a.labels.size(); ++j) {
                const Channel* c = ts.find(a.channelGroup(j), v.name);
                if (!c) {
                    fail(fmt::format("array '{}/{}': no channel '{}/{}' for column '{}'", a.group,
                                     v.name, a.channelGroup(j), v.name, a.labels[j]));
                }
                if (first && c->unit != first->unit) {
                    fail(fmt::format("array '{}/{}': column '{}' is in {} but column '{}' in {}",
                                     a.group, v.name, a.labels[j], c->unit, a.labels.front(),
                                     first->unit));
                }
                if (!first) first = c;
            }
        }
    }
    const std::set<std::string> columns = arrayColumnPaths(ts);
    for (const Channel& c : ts.channels) {
        // Its own dataset would sit beside the array's variables in the array's group.
        if (groups.count(c.group) && !columns.count(channelPath(c))) {
            fail(fmt::format("channel '{}' is in the group of an array but not one of its columns",
                             channelPath(c)));
        }
    }
}

/// Everything that can be checked without touching the disk, so an inconsistent report fails
/// before a temporary file exists. Names the destination and the offending item.
void validateReport(const Report& report, const fs::path& dest) {
    auto fail = [&](const std::string& what) {
        throw ModelError(fmt::format("cannot write report '{}': {}", dest.string(), what));
    };
    const ResultSet& ts = report.timeseries;
    std::set<std::string> seen;
    for (const Channel& c : ts.channels) {
        const std::string p = channelPath(c);
        if (c.name.empty() || c.name.find('/') != std::string::npos || !isValidObjectPath(p)) {
            fail(fmt::format("invalid channel name '{}' (group '{}', name '{}')", p, c.group,
                             c.name));
        }
        // In every group "time" is the group's time coordinate (NetCDF/CF), not a channel.
        if (c.name == "time") {
            fail(fmt::format("channel '{}': 'time' is reserved for the time coordinate", p));
        }
        if (!seen.insert(p).second) fail(fmt::format("channel '{}' appears twice", p));
        if (c.values.size() != ts.time.size()) {
            fail(fmt::format("channel '{}' has {} values but the time grid has {} samples", p,
                             c.values.size(), ts.time.size()));
        }
    }
    validateArrays(ts, fail);
    std::set<std::string> metric_names;
    for (const Metric& m : report.summary) {
        if (m.name.empty() || m.name.find('/') != std::string::npos || m.name == "." ||
            m.name == "..") {
            fail(fmt::format("invalid summary metric name '{}'", m.name));
        }
        if (!metric_names.insert(m.name).second) {
            fail(fmt::format("summary metric '{}' appears twice", m.name));
        }
    }
    for (const auto& [path, text] : report.texts) {
        if (!isValidObjectPath(path)) fail(fmt::format("invalid text path '{}'", path));
    }
    std::set<std::string> table_paths;
    for (const Table& t : report.tables) {
        if (!isValidObjectPath(t.path)) fail(fmt::format("invalid table path '{}'", t.path));
        if (!table_paths.insert(t.path).second) {
            fail(fmt::format("table '{}' appears twice", t.path));
        }
        if (t.columns.empty()) fail(fmt::format("table '{}' has no columns", t.path));
        std::set<std::string> names;
        for (const auto& col : t.columns) {
            if (col.name.empty())
                fail(fmt::format("table '{}' has a column without a name", t.path));
            if (!names.insert(col.name).second) {
                fail(fmt::format("table '{}' has two columns named '{}'", t.path, col.name));
            }
            if (columnLength(col) != columnLength(t.columns.front())) {
                fail(fmt::format("table '{}': column '{}' has {} rows but column '{}' has {}",
                                 t.path, col.name, columnLength(col), t.columns.front().name,
                                 columnLength(t.columns.front())));
            }
        }
    }
}

/// The destination's directory must exist and be writable; that is the user's to fix.
void checkDestinationDirectory(const fs::path& dir, const fs::path& dest, std::string_view what) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
        throw InputError(fmt::format("cannot write {} '{}': directory '{}' does not exist", what,
                                     dest.string(), dir.string()));
    }
    if (::access(dir.c_str(), W_OK) != 0) {
        throw InputError(fmt::format("cannot write {} '{}': directory '{}' is not writable", what,
                                     dest.string(), dir.string()));
    }
    // access() answers from the permission bits, and for root always yes: a folder of a
    // read-only or virtual file system (/sys, /proc) passed, and the run failed at its end,
    // after the whole simulation (exit 1). A file is created and removed there instead, named
    // as the writers' temporaries are, so a crash in between leaves what removeStaleTemporaries
    // clears.
    const fs::path probe = dir / fmt::format(".dctwin-write-check.tmp.{}", ::getpid());
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
        const int err = errno;
        if (err != EEXIST) {
            throw InputError(fmt::format("cannot write {} '{}': cannot create a file in '{}': {}",
                                         what, dest.string(), dir.string(), std::strerror(err)));
        }
        return;  // our own probe from an earlier check in this process: the folder takes files
    }
    ::close(fd);
    ::unlink(probe.c_str());
}

fs::path parentOrCurrent(const fs::path& p) {
    return p.has_parent_path() ? p.parent_path() : fs::path(".");
}

/// "<final>.tmp.<pid>" next to the final file, so the rename stays within one file system.
fs::path temporaryPathFor(const fs::path& final_path) {
    return fs::path(fmt::format("{}.tmp.{}", final_path.string(), ::getpid()));
}

void removeQuietly(const fs::path& p) {
    std::error_code ec;
    fs::remove(p, ec);
}

/// The unit as UDUNITS-2 (the CF conventions' unit grammar) reads it. The model's SI strings
/// ("W", "K", "m3/s", "m3", "1", "J", "Pa") already are; the few spellings UDUNITS does not
/// know map to the ones it does.
std::string cfUnit(std::string_view unit) {
    if (unit == "C") return "degC";
    if (unit == "Lpm") return "L/min";
    if (unit == "%") return "percent";
    return std::string(unit);
}

/// CF long_name: the channel's name in words, and what it covers when the model says so
/// ("it power: racks (grid side) + fabric").
std::string longName(const Channel& c) {
    std::string words = c.name;
    std::replace(words.begin(), words.end(), '_', ' ');
    return c.description.empty() ? words : fmt::format("{}: {}", words, c.description);
}

// ---- HDF5 ------------------------------------------------------------------------------------

/// Turns off HDF5's printing of error stacks for this thread (the library is thread-safe, so
/// the setting is per thread) and restores whatever was there before.
class Hdf5ErrorSilencer {
public:
    Hdf5ErrorSilencer() {
        H5Eget_auto2(H5E_DEFAULT, &func_, &data_);
        H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    }
    ~Hdf5ErrorSilencer() { H5Eset_auto2(H5E_DEFAULT, func_, data_); }
    Hdf5ErrorSilencer(const Hdf5ErrorSilencer&) = delete;
    Hdf5ErrorSilencer& operator=(const Hdf5ErrorSilencer&) = delete;

private:
    H5E_auto2_t func_ = nullptr;
    void* data_ = nullptr;
};

/// The outermost and innermost descriptions on HDF5's error stack ("unable to create group
/// (name already exists)"): the outer says what failed, the inner why.
std::string hdf5ErrorDetail() {
    std::vector<std::string> descs;
    H5Ewalk2(
        H5E_DEFAULT, H5E_WALK_DOWNWARD,
        [](unsigned, const H5E_error2_t* e, void* out) -> herr_t {
            if (e->desc && *e->desc)
                static_cast<std::vector<std::string>*>(out)->push_back(e->desc);
            return 0;
        },
        &descs);
    if (descs.empty()) return "HDF5 error";
    if (descs.size() == 1 || descs.front() == descs.back()) return descs.front();
    return fmt::format("{} ({})", descs.front(), descs.back());
}

/// Owns one HDF5 identifier and closes it with the matching function.
class Handle {
public:
    using Closer = herr_t (*)(hid_t);
    Handle() = default;
    Handle(hid_t id, Closer closer) : id_(id), closer_(closer) {}
    Handle(Handle&& o) noexcept : id_(std::exchange(o.id_, H5I_INVALID_HID)), closer_(o.closer_) {}
    Handle& operator=(Handle&& o) noexcept {
        if (this != &o) {
            reset();
            id_ = std::exchange(o.id_, H5I_INVALID_HID);
            closer_ = o.closer_;
        }
        return *this;
    }
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    ~Handle() { reset(); }

    hid_t get() const { return id_; }
    /// Closes now and reports whether closing worked (a file close flushes, and can fail).
    bool close() {
        if (id_ < 0) return true;
        const herr_t rc = closer_(std::exchange(id_, H5I_INVALID_HID));
        return rc >= 0;
    }

private:
    void reset() {
        if (id_ >= 0) closer_(std::exchange(id_, H5I_INVALID_HID));
    }
    hid_t id_ = H5I_INVALID_HID;
    Closer closer_ = nullptr;
};

/// Writes one report into one (temporary) file; every failure becomes an Error that names the
/// final report path and the object being written.
class Hdf5FileWriter {
public:
    Hdf5FileWriter(const Hdf5Options& options, fs::path final_path)
        : options_(options), final_path_(std::move(final_path)) {}

    /// Builds the file in memory with HDF5's core driver, then writes the image to
    /// `file_path` with plain POSIX calls. HDF5 itself never touches the disk: on a full or
    /// failing disk (ENOSPC at a chunk flush or at H5Fclose) HDF5 1.10 keeps a half-closed file
    /// registered and its exit handler H5_term_library then crashes in H5F__close_cb (the
    /// reported exit 139). Memory: about one report size, a few tens of MB for a year.
    void write(const Report& report, const fs::path& file_path) {
        std::vector<char> image = buildImage(report, file_path);
        writeImage(image, file_path);
    }

private:
    std::vector<char> buildImage(const Report& report, const fs::path& file_path) {
        Handle fcpl = make(H5Pcreate(H5P_FILE_CREATE), H5Pclose, "creating file properties");
        check(H5Pset_link_creation_order(fcpl.get(), kCreationOrder), "creating file properties");
        Handle fapl = make(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "creating file properties");
        // STRONG: closing the file closes anything still open on every error path.
        check(H5Pset_fclose_degree(fapl.get(), H5F_CLOSE_STRONG), "creating file properties");
        // In memory only (no backing store); grown in 4 MiB steps.
        check(H5Pset_fapl_core(fapl.get(), std::size_t{4} << 20, false),
              "creating file properties");
        const hid_t fid = H5Fcreate(file_path.c_str(), H5F_ACC_TRUNC, fcpl.get(), fapl.get());
        if (fid < 0) {
            throw Error(fmt::format("cannot write report '{}': cannot create '{}': {}",
                                    final_path_.string(), file_path.string(), hdf5ErrorDetail()));
        }
        Handle file(fid, H5Fclose);

        for (const auto& [name, value] : report.attributes) {
            writeStringAttribute(file.get(), name, value, "/");
        }
        for (const auto& [path, text] : report.texts) {
            auto [parent, leaf] = parentGroup(file.get(), path);
            writeStringDataset(parent.get(), leaf, text, path);
        }
        writeSummary(file.get(), report.summary);
        for (const Table& t : report.tables) writeTable(file.get(), t);
        writeTimeseries(file.get(), report.timeseries);

        check(H5Fflush(file.get(), H5F_SCOPE_GLOBAL), "flushing the file");
        const ssize_t size = H5Fget_file_image(file.get(), nullptr, 0);
        if (size <= 0) fail("taking the file image", hdf5ErrorDetail());
        std::vector<char> image(static_cast<std::size_t>(size));
        if (H5Fget_file_image(file.get(), image.data(), image.size()) != size) {
            fail("taking the file image", hdf5ErrorDetail());
        }
        if (!file.close()) fail("closing the file", hdf5ErrorDetail());
        return image;
    }

    /// write(2) until done, then fsync and close; any failure (ENOSPC, EIO, EDQUOT) names
    /// the report. The caller removes the temporary.
    void writeImage(const std::vector<char>& image, const fs::path& file_path) const {
        auto sysFail = [&](std::string_view what, int err) {
            throw Error(fmt::format("cannot write report '{}': {} '{}': {}", final_path_.string(),
                                    what, file_path.string(), std::strerror(err)));
        };
        const int fd = ::open(file_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd < 0) sysFail("cannot create", errno);
        std::size_t done = 0;
        while (done < image.size()) {
            const ssize_t n = ::write(fd, image.data() + done, image.size() - done);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
                const int err = n < 0 ? errno : ENOSPC;
                ::close(fd);
                sysFail("writing", err);
            }
            done += static_cast<std::size_t>(n);
        }
        if (::fsync(fd) != 0 && errno != EINVAL && errno != EROFS) {
            const int err = errno;
            ::close(fd);
            sysFail("writing", err);
        }
        if (::close(fd) != 0) sysFail("closing", errno);
    }

    static constexpr unsigned kCreationOrder = H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED;

    [[noreturn]] void fail(std::string_view context, std::string_view detail) const {
        throw Error(
            fmt::format("cannot write report '{}': {}: {}", final_path_.string(), context, detail));
    }
    void check(herr_t rc, std::string_view context) const {
        if (rc < 0) fail(context, hdf5ErrorDetail());
    }
    Handle make(hid_t id, Handle::Closer closer, std::string_view context) const {
        if (id < 0) fail(context, hdf5ErrorDetail());
        return Handle(id, closer);
    }

    Handle groupCreationProperties() const {
        Handle gcpl = make(H5Pcreate(H5P_GROUP_CREATE), H5Pclose, "creating group properties");
        check(H5Pset_link_creation_order(gcpl.get(), kCreationOrder), "creating group properties");
        return gcpl;
    }

    /// Opens or creates every group along `path` ("a/b/c") below `loc`, whose own path in the
    /// file is `loc_path` (for messages).
    Handle openOrCreateGroups(hid_t loc, std::string_view path,
                              std::string_view loc_path = "") const {
        Handle current = make(H5Oopen(loc, ".", H5P_DEFAULT), H5Oclose, "opening group");
        std::size_t start = 0;
        std::string so_far(loc_path);
        while (start <= path.size() && !path.empty()) {
            const std::size_t end = std::min(path.find('/', start), path.size());
            const std::string seg(path.substr(start, end - start));
            so_far += "/" + seg;
            const htri_t exists = H5Lexists(current.get(), seg.c_str(), H5P_DEFAULT);
            if (exists < 0) fail(fmt::format("looking up '{}'", so_far), hdf5ErrorDetail());
            if (exists > 0) {
                current = make(H5Gopen2(current.get(), seg.c_str(), H5P_DEFAULT), H5Gclose,
                               fmt::format("'{}' must be a group, but another object of the report "
                                           "already has that path",
                                           so_far));
            } else {
                Handle gcpl = groupCreationProperties();
                current = make(
                    H5Gcreate2(current.get(), seg.c_str(), H5P_DEFAULT, gcpl.get(), H5P_DEFAULT),
                    H5Gclose, fmt::format("creating group '{}'", so_far));
            }
            start = end + 1;
        }
        return current;
    }

    /// Group holding the object at `path` (created as needed) and the object's own name.
    std::pair<Handle, std::string> parentGroup(hid_t file, std::string_view path) const {
        const std::size_t slash = path.rfind('/');
        if (slash == std::string_view::npos)
            return {openOrCreateGroups(file, ""), std::string(path)};
        return {openOrCreateGroups(file, path.substr(0, slash)),
                std::string(path.substr(slash + 1))};
    }

    Handle utf8StringType(std::size_t size, std::string_view context) const {
        Handle type = make(H5Tcopy(H5T_C_S1), H5Tclose, context);
        check(H5Tset_size(type.get(), size), context);
        check(H5Tset_cset(type.get(), H5T_CSET_UTF8), context);
        if (size != H5T_VARIABLE) check(H5Tset_strpad(type.get(), H5T_STR_NULLTERM), context);
        return type;
    }

    void writeStringAttribute(hid_t loc, const std::string& name, const std::string& value,
                              std::string_view where) const {
        const std::string ctx = fmt::format("writing attribute '{}' of '{}'", name, where);
        Handle type = utf8StringType(H5T_VARIABLE, ctx);
        Handle space = make(H5Screate(H5S_SCALAR), H5Sclose, ctx);
        Handle attr =
            make(H5Acreate2(loc, name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
                 H5Aclose, ctx);
        const char* data = value.c_str();
        check(H5Awrite(attr.get(), type.get(), &data), ctx);
    }

    void writeStringArrayAttribute(hid_t loc, const std::string& name,
                                   const std::vector<std::string>& values,
                                   std::string_view where) const {
        const std::string ctx = fmt::format("writing attribute '{}' of '{}'", name, where);
        Handle type = utf8StringType(H5T_VARIABLE, ctx);
        const hsize_t dims[1] = {values.size()};
        Handle space = make(H5Screate_simple(1, dims, nullptr), H5Sclose, ctx);
        Handle attr =
            make(H5Acreate2(loc, name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
                 H5Aclose, ctx);
        std::vector<const char*> data;
        for (const auto& v : values) data.push_back(v.c_str());
        check(H5Awrite(attr.get(), type.get(), data.data()), ctx);
    }

    void writeDoubleAttribute(hid_t loc, const std::string& name, double value,
                              std::string_view where) const {
        const std::string ctx = fmt::format("writing attribute '{}' of '{}'", name, where);
        Handle space = make(H5Screate(H5S_SCALAR), H5Sclose, ctx);
        Handle attr = make(
            H5Acreate2(loc, name.c_str(), H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT),
            H5Aclose, ctx);
        check(H5Awrite(attr.get(), H5T_NATIVE_DOUBLE, &value), ctx);
    }

    void writeStringDataset(hid_t loc, const std::string& name, const std::string& value,
                            std::string_view where) const {
        const std::string ctx = fmt::format("writing text '/{}'", where);
        Handle type = utf8StringType(H5T_VARIABLE, ctx);
        Handle space = make(H5Screate(H5S_SCALAR), H5Sclose, ctx);
        Handle ds = make(H5Dcreate2(loc, name.c_str(), type.get(), space.get(), H5P_DEFAULT,
                                    H5P_DEFAULT, H5P_DEFAULT),
                         H5Dclose, ctx);
        const char* data = value.c_str();
        check(H5Dwrite(ds.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, &data), ctx);
    }

    void writeSummary(hid_t file, const std::vector<Metric>& metrics) const {
        Handle group = openOrCreateGroups(file, "summary");
        for (const Metric& m : metrics) {
            writeDoubleAttribute(group.get(), m.name, m.value, "/summary");
            writeStringAttribute(group.get(), m.name + "_units", m.unit, "/summary");
            const std::string where = "/summary/" + m.name;
            const std::string ctx = fmt::format("writing dataset '{}'", where);
            Handle space = make(H5Screate(H5S_SCALAR), H5Sclose, ctx);
            Handle ds = make(H5Dcreate2(group.get(), m.name.c_str(), H5T_IEEE_F64LE, space.get(),
                                        H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                             H5Dclose, ctx);
            check(H5Dwrite(ds.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, &m.value),
                  ctx);
            writeStringAttribute(ds.get(), "units", m.unit, where);
            // What the figure is, as the CLI and a live GUI run show it: without it a report
            // opened later showed "IT grid band0 share" instead of the band's frequencies.
            if (!m.description.empty()) {
                writeStringAttribute(ds.get(), "description", m.description, where);
            }
        }
    }

    /// Rows as packed records; the memory compound type describes exactly this packing, so
    /// HDF5 copies bytes without conversion.
    void writeTable(hid_t file, const Table& table) const {
        const std::string where = "/" + table.path;
        const std::string ctx = fmt::format("writing table '{}'", where);
        const std::size_t rows = columnLength(table.columns.front());

        std::vector<std::size_t> offsets, sizes;
        std::vector<Handle> member_types;
        std::size_t record = 0;
        for (const auto& col : table.columns) {
            std::size_t size = sizeof(double);
            if (const auto* text = std::get_if<std::vector<std::string>>(&col.data)) {
                std::size_t longest = 0;
                for (const auto& s : *text) longest = std::max(longest, s.size());
                size = longest + 1;  // room for the terminating NUL
                member_types.push_back(utf8StringType(size, ctx));
            } else {
                member_types.push_back(make(H5Tcopy(H5T_NATIVE_DOUBLE), H5Tclose, ctx));
            }
            offsets.push_back(record);
            sizes.push_back(size);
            record += size;
        }
        Handle compound = make(H5Tcreate(H5T_COMPOUND, record), H5Tclose, ctx);
        for (std::size_t c = 0; c < table.columns.size(); ++c) {
            check(H5Tinsert(compound.get(), table.columns[c].name.c_str(), offsets[c],
                            member_types[c].get()),
                  ctx);
        }

        std::vector<unsigned char> buffer(std::max<std::size_t>(1, rows * record), 0);
        for (std::size_t c = 0; c < table.columns.size(); ++c) {
            const auto& col = table.columns[c];
            for (std::size_t r = 0; r < rows; ++r) {
                unsigned char* dst = buffer.data() + r * record + offsets[c];
                if (const auto* nums = std::get_if<std::vector<double>>(&col.data)) {
                    std::memcpy(dst, &(*nums)[r], sizeof(double));
                } else {
                    const std::string& s = std::get<std::vector<std::string>>(col.data)[r];
                    std::memcpy(dst, s.data(), s.size());  // rest stays 0: NUL-terminated
                }
            }
        }

        auto [parent, leaf] = parentGroup(file, table.path);
        const hsize_t dims[1] = {rows};
        Handle space = make(H5Screate_simple(1, dims, nullptr), H5Sclose, ctx);
        Handle ds = make(H5Dcreate2(parent.get(), leaf.c_str(), compound.get(), space.get(),
                                    H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                         H5Dclose, ctx);
        if (rows > 0) {
            check(H5Dwrite(ds.get(), compound.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer.data()),
                  ctx);
        }
        std::vector<std::string> units;
        for (const auto& col : table.columns) units.push_back(col.unit);
        writeStringArrayAttribute(ds.get(), "units", units, where);
    }

    /// Dataset creation properties of a double series or matrix: chunked (`chunk` per
    /// dimension; an empty dataset stays contiguous, as a chunk cannot be empty) with shuffle
    /// + deflate, which compress smooth signals far better than deflate alone (shuffle groups
    /// the bytes of neighbouring doubles).
    Handle seriesCreateProperties(int rank, const hsize_t* chunk, bool empty,
                                  const std::string& ctx) const {
        Handle dcpl = make(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, ctx);
        if (!empty) {
            check(H5Pset_chunk(dcpl.get(), rank, chunk), ctx);
            if (options_.compression_level > 0) {
                check(H5Pset_shuffle(dcpl.get()), ctx);
                check(H5Pset_deflate(dcpl.get(), static_cast<unsigned>(options_.compression_level)),
                      ctx);
            }
        }
        return dcpl;
    }

    void writeSeries(hid_t loc, const std::string& name, std::span<const double> values,
                     const std::string& unit, const std::string& description,
                     const std::string& where) {
        const std::string ctx = fmt::format("writing dataset '{}'", where);
        const hsize_t n = values.size();
        const hsize_t dims[1] = {n};
        Handle space = make(H5Screate_simple(1, dims, nullptr), H5Sclose, ctx);
        const hsize_t chunk[1] = {std::min<hsize_t>(n, options_.chunk_size)};
        Handle dcpl = seriesCreateProperties(1, chunk, n == 0, ctx);
        Handle ds = make(H5Dcreate2(loc, name.c_str(), H5T_IEEE_F64LE, space.get(), H5P_DEFAULT,
                                    dcpl.get(), H5P_DEFAULT),
                         H5Dclose, ctx);
        if (n > 0) {
            const double* data = values.data();
            defer(where, {n, 1, chunk[0], [data](std::size_t row0, std::size_t count, double* out) {
                              std::copy(data + row0, data + row0 + count, out);
                          }});
        }
        writeStringAttribute(ds.get(), "units", unit, where);
        if (!description.empty()) writeStringAttribute(ds.get(), "description", description, where);
    }

    /// Makes `ds` a dimension scale named "time" (H5DS), which NetCDF-4 readers (netCDF-C,
    /// h5netcdf, xarray) take as the dimension of every series attached to it.
    void makeTimeScale(hid_t ds, std::string_view where) const {
        check(H5DSset_scale(ds, "time"), fmt::format("making '{}' a dimension scale", where));
    }

    /// The time coordinate of one group of series, "<group>/time": CF attributes, so that
    /// xarray decodes it into datetimes. A copy per group (not one shared /timeseries/time)
    /// because a NetCDF reader opening one group sees only that group's variables; the root
    /// /timeseries/time stays as it was (units "s", attribute start) for existing readers.
    void writeGroupTime(hid_t group, const ResultSet& ts, const std::string& where) {
        const std::string path = where + "/time";
        const bool dated = !ts.start_iso8601.empty();
        writeSeries(group, "time", ts.time,
                    dated ? fmt::format("seconds since {}", ts.start_iso8601) : std::string("s"),
                    "", path);
        Handle ds =
            make(H5Dopen2(group, "time", H5P_DEFAULT), H5Dclose, fmt::format("opening '{}'", path));
        writeStringAttribute(ds.get(), "long_name", "time", path);
        writeStringAttribute(ds.get(), "standard_name", "time", path);
        writeStringAttribute(ds.get(), "axis", "T", path);
        // ISO 8601 dates are proleptic Gregorian; an undated run has plain seconds.
        if (dated) writeStringAttribute(ds.get(), "calendar", "proleptic_gregorian", path);
        makeTimeScale(ds.get(), path);
    }

    void writeTimeseries(hid_t file, const ResultSet& ts) {
        Handle root = openOrCreateGroups(file, "timeseries");
        writeSeries(root.get(), "time", ts.time, "s", "time since study start", "/timeseries/time");
        {
            const std::string ctx = "writing attribute 'start' of '/timeseries/time'";
            Handle ds = make(H5Dopen2(root.get(), "time", H5P_DEFAULT), H5Dclose, ctx);
            writeStringAttribute(ds.get(), "start", ts.start_iso8601, "/timeseries/time");
            writeStringAttribute(ds.get(), "long_name", "time since study start",
                                 "/timeseries/time");
            makeTimeScale(ds.get(), "/timeseries/time");
        }
        std::set<std::string> timed;  // groups whose time coordinate is written
        // Columns of an array are written in the array only: one representation in the file.
        const std::set<std::string> columns = arrayColumnPaths(ts);
        for (const Channel& c : ts.channels) {
            if (columns.count(channelPath(c))) continue;
            const std::string group_path = "/timeseries/" + c.group;
            const std::string where = "/timeseries/" + channelPath(c);
            Handle group = openOrCreateGroups(root.get(), c.group, "/timeseries");
            if (timed.insert(c.group).second) writeGroupTime(group.get(), ts, group_path);
            writeSeries(group.get(), c.name, c.values, cfUnit(c.unit), c.description, where);
            const std::string ctx = fmt::format("attaching the time coordinate to '{}'", where);
            Handle ds = make(H5Dopen2(group.get(), c.name.c_str(), H5P_DEFAULT), H5Dclose, ctx);
            Handle scale = make(H5Dopen2(group.get(), "time", H5P_DEFAULT), H5Dclose, ctx);
            check(H5DSattach_scale(ds.get(), scale.get(), 0), ctx);
            writeStringAttribute(ds.get(), "long_name", longName(c), where);
        }
        for (const ChannelArray& a : ts.arrays) writeArray(root.get(), ts, a);
        writeDeferred(file);
    }

    /// A 1-D dataset along an array's second axis (a coordinate, or the axis's own scale):
    /// text as variable-length UTF-8 strings, numbers as IEEE doubles or 64-bit integers.
    void writeCoordinate(hid_t group, const ChannelArray::Coordinate& c,
                         const std::string& where) const {
        const std::string ctx = fmt::format("writing dataset '{}'", where);
        const hsize_t dims[1] = {coordinateLength(c)};
        Handle space = make(H5Screate_simple(1, dims, nullptr), H5Sclose, ctx);
        auto create = [&](hid_t file_type) {
            return make(H5Dcreate2(group, c.name.c_str(), file_type, space.get(), H5P_DEFAULT,
                                   H5P_DEFAULT, H5P_DEFAULT),
                        H5Dclose, ctx);
        };
        Handle ds;
        if (const auto* text = std::get_if<std::vector<std::string>>(&c.values)) {
            Handle type = utf8StringType(H5T_VARIABLE, ctx);
            ds = create(type.get());
            std::vector<const char*> data;
            for (const auto& v : *text) data.push_back(v.c_str());
            check(H5Dwrite(ds.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()), ctx);
        } else if (const auto* ints = std::get_if<std::vector<std::int64_t>>(&c.values)) {
            ds = create(H5T_STD_I64LE);
            check(H5Dwrite(ds.get(), H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, ints->data()),
                  ctx);
        } else {
            const auto& nums = std::get<std::vector<double>>(c.values);
            ds = create(H5T_IEEE_F64LE);
            check(H5Dwrite(ds.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, nums.data()),
                  ctx);
        }
        writeStringAttribute(ds.get(), "long_name", c.description, where);
        if (!c.unit.empty()) writeStringAttribute(ds.get(), "units", cfUnit(c.unit), where);
    }

    /// One ChannelArray as NetCDF-4 reads it: in /timeseries/<group>, the group's CF time
    /// coordinate, the second axis as an integer dimension scale "<dimension>" (column
    /// index), the column names and further coordinates as 1-D datasets on that axis, and per
    /// variable a 2-D double dataset [time, <dimension>] with both scales attached and a CF
    /// `coordinates` attribute, so xarray opens the group with (time, <dimension>) dims and the
    /// names, counts and models as coordinates.
    void writeArray(hid_t root, const ResultSet& ts, const ChannelArray& a) {
        const std::string gpath = "/timeseries/" + a.group;
        Handle group = openOrCreateGroups(root, a.group, "/timeseries");
        writeGroupTime(group.get(), ts, gpath);
        const std::size_t cols = a.labels.size();

        ChannelArray::Coordinate index{a.dimension, "1", "", std::vector<std::int64_t>(cols)};
        for (std::size_t j = 0; j < cols; ++j) {
            std::get<std::vector<std::int64_t>>(index.values)[j] = static_cast<std::int64_t>(j);
        }
        std::string words = a.dimension;
        std::replace(words.begin(), words.end(), '_', ' ');
        index.description = words + " index";
        const std::string index_path = gpath + "/" + a.dimension;
        writeCoordinate(group.get(), index, index_path);
        Handle scale = make(H5Dopen2(group.get(), a.dimension.c_str(), H5P_DEFAULT), H5Dclose,
                            fmt::format("opening '{}'", index_path));
        check(H5DSset_scale(scale.get(), a.dimension.c_str()),
              fmt::format("making '{}' a dimension scale", index_path));

        std::vector<ChannelArray::Coordinate> coords;
        coords.push_back({a.dimension + "_name", "", words + " name", a.labels});
        for (const auto& c : a.coordinates) coords.push_back(c);
        std::vector<std::string> coord_names;
        for (const auto& c : coords) {
            const std::string where = gpath + "/" + c.name;
            writeCoordinate(group.get(), c, where);
            const std::string ctx = fmt::format("attaching '{}' to '{}'", index_path, where);
            Handle ds = make(H5Dopen2(group.get(), c.name.c_str(), H5P_DEFAULT), H5Dclose, ctx);
            check(H5DSattach_scale(ds.get(), scale.get(), 0), ctx);
            coord_names.push_back(c.name);
        }

        Handle time = make(H5Dopen2(group.get(), "time", H5P_DEFAULT), H5Dclose,
                           fmt::format("opening '{}/time'", gpath));
        const std::size_t n = ts.time.size();
        for (const auto& v : a.variables) {
            const std::string where = gpath + "/" + v.name;
            std::vector<const double*> columns(cols);
            std::string unit;
            for (std::size_t j = 0; j < cols; ++j) {
                const Channel& c = ts.at(a.channelGroup(j), v.name);
                unit = c.unit;
                columns[j] = c.values.data();
            }
            writeMatrix(group.get(), v.name, std::move(columns), n, where);
            const std::string ctx = fmt::format("attaching the dimension scales to '{}'", where);
            Handle ds = make(H5Dopen2(group.get(), v.name.c_str(), H5P_DEFAULT), H5Dclose, ctx);
            check(H5DSattach_scale(ds.get(), time.get(), 0), ctx);
            check(H5DSattach_scale(ds.get(), scale.get(), 1), ctx);
            writeStringAttribute(ds.get(), "units", cfUnit(unit), where);
            writeStringAttribute(ds.get(), "long_name",
                                 longName(Channel{a.group, v.name, unit, v.description, {}}),
                                 where);
            if (!v.description.empty()) {
                writeStringAttribute(ds.get(), "description", v.description, where);
            }
            // CF: the per-column names, counts and models are coordinates of this variable.
            writeStringAttribute(ds.get(), "coordinates",
                                 fmt::format("{}", fmt::join(coord_names, " ")), where);
        }
    }

    /// A 2-D double dataset [rows, cols] whose column j is columns[j][0 .. rows), chunked along
    /// time (whole rows, as many as a 1-D series chunk holds samples) with shuffle + deflate.
    void writeMatrix(hid_t loc, const std::string& name, std::vector<const double*> columns,
                     std::size_t rows, const std::string& where) {
        const std::size_t cols = columns.size();
        const std::string ctx = fmt::format("writing dataset '{}'", where);
        const hsize_t dims[2] = {rows, cols};
        Handle space = make(H5Screate_simple(2, dims, nullptr), H5Sclose, ctx);
        const hsize_t chunk[2] = {std::min<hsize_t>(rows, options_.chunk_size), cols};
        Handle dcpl = seriesCreateProperties(2, chunk, rows == 0 || cols == 0, ctx);
        Handle ds = make(H5Dcreate2(loc, name.c_str(), H5T_IEEE_F64LE, space.get(), H5P_DEFAULT,
                                    dcpl.get(), H5P_DEFAULT),
                         H5Dclose, ctx);
        if (rows > 0 && cols > 0) {
            defer(where, {rows, cols, chunk[0],
                          [columns = std::move(columns)](std::size_t row0, std::size_t count,
                                                         double* out) {
                              const std::size_t m = columns.size();
                              for (std::size_t i = 0; i < count; ++i) {
                                  for (std::size_t j = 0; j < m; ++j) {
                                      out[i * m + j] = columns[j][row0 + i];
                                  }
                              }
                          }});
        }
    }

    /// A dataset created with its chunking and filters whose values are written later, with
    /// the others, by writeDeferred.
    void defer(const std::string& path, ChunkedDataset data) {
        deferred_.push_back({path, std::move(data)});
    }

    /// Writes the values of every deferred dataset: their chunks are shuffled and deflated on
    /// every core (chunk_packer.h) and stored as they are with H5Dwrite_chunk, in batches of
    /// ~64 MiB of raw values so that one batch of compressed chunks is alive at a time. The
    /// datasets declare shuffle + deflate at options_.compression_level, which is what the
    /// chunks hold, so any reader decodes them as if HDF5 had filtered them.
    void writeDeferred(hid_t file) {
        constexpr std::size_t kBatchBytes = std::size_t{64} << 20;
        std::size_t begin = 0;
        while (begin < deferred_.size()) {
            std::size_t end = begin;
            std::size_t bytes = 0;
            std::vector<ChunkedDataset> batch;
            while (end < deferred_.size() && (end == begin || bytes < kBatchBytes)) {
                const ChunkedDataset& d = deferred_[end].data;
                bytes += d.chunkCount() * d.chunk_rows * d.cols * sizeof(double);
                batch.push_back(d);
                ++end;
            }
            std::vector<std::vector<std::vector<unsigned char>>> packed;
            try {
                packed = packChunks(batch, options_.compression_level, options_.threads);
            } catch (const Error& e) {
                fail("compressing the time series", e.what());
            }
            for (std::size_t b = 0; b < batch.size(); ++b) {
                const std::string& where = deferred_[begin + b].path;
                const std::string ctx = fmt::format("writing dataset '{}'", where);
                Handle ds = make(H5Dopen2(file, where.c_str(), H5P_DEFAULT), H5Dclose, ctx);
                for (std::size_t k = 0; k < packed[b].size(); ++k) {
                    const hsize_t offset[2] = {k * batch[b].chunk_rows, 0};
                    const std::vector<unsigned char>& bytes_k = packed[b][k];
                    // Filter mask 0: every filter of the dataset's pipeline was applied.
                    check(H5Dwrite_chunk(ds.get(), H5P_DEFAULT, 0, offset, bytes_k.size(),
                                         bytes_k.data()),
                          ctx);
                }
                packed[b].clear();
                packed[b].shrink_to_fit();
            }
            begin = end;
        }
        deferred_.clear();
    }

    struct Deferred {
        std::string path;  // of the dataset in the file
        ChunkedDataset data;
    };
    std::vector<Deferred> deferred_;
    Hdf5Options options_;
    fs::path final_path_;
};

class Hdf5Writer final : public ReportWriter {
public:
    explicit Hdf5Writer(const Hdf5Options& options) : options_(options) {
        if (options.compression_level < 0 || options.compression_level > 9) {
            throw InputError(fmt::format("HDF5 compression level must be 0 to 9, got {}",
                                         options.compression_level));
        }
        if (options.chunk_size == 0) throw InputError("HDF5 chunk size must be at least 1");
    }

    StagedOutput stage(const Report& report, const fs::path& path) override {
        if (path.empty() || !path.has_filename()) {
            throw InputError(
                fmt::format("cannot write report '{}': not a file name", path.string()));
        }
        validateReport(report, path);
        // The CLI checks before a run; every other caller (the app's export, the sweep's
        // index) gets the same refusal of a directory, symbolic link or device here.
        checkOutputFile(path, "report");

        const fs::path tmp = temporaryPathFor(path);
        try {
            Hdf5ErrorSilencer silence;
            if (H5Zfilter_avail(H5Z_FILTER_DEFLATE) <= 0 ||
                H5Zfilter_avail(H5Z_FILTER_SHUFFLE) <= 0) {
                throw Error(
                    fmt::format("cannot write report '{}': the HDF5 library lacks deflate/shuffle",
                                path.string()));
            }
            Hdf5FileWriter(options_, path).write(report, tmp);
        } catch (...) {
            removeQuietly(tmp);
            throw;
        }
        return {{{tmp, path}}, {}};
    }

private:
    Hdf5Options options_;
};

// ---- CSV ---------------------------------------------------------------------------------------

}  // namespace

std::string csvField(std::string_view s) {
    if (s.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(s);
    std::string out = "\"";
    for (char c : s) {
        if (c == '"') out += '"';
        out += c;
    }
    out += '"';
    return out;
}

namespace {

std::string headerWithUnit(std::string_view name, std::string_view unit) {
    return csvField(unit.empty() ? std::string(name) : fmt::format("{} [{}]", name, unit));
}

/// Writes one file to its temporary name; `fill` streams the content. Returns the staged file.
template <typename Fill>
StagedFile writeTemporary(const fs::path& final_path, Fill&& fill) {
    const fs::path tmp = temporaryPathFor(final_path);
    try {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) {
            throw Error(fmt::format("cannot write '{}': cannot create '{}': {}",
                                    final_path.string(), tmp.string(), std::strerror(errno)));
        }
        fill(out);
        out.flush();
        const int err = errno;
        out.close();
        if (!out) {
            throw Error(fmt::format("cannot write '{}': writing '{}' failed: {}",
                                    final_path.string(), tmp.string(),
                                    err != 0 ? std::strerror(err) : "I/O error"));
        }
    } catch (...) {
        removeQuietly(tmp);
        throw;
    }
    return {tmp, final_path};
}

/// A number as a CSV cell, with full round-trip precision; no value (NaN: a job no sample saw
/// running, a share of nothing) is an empty cell, which spreadsheets and pandas read as
/// missing, where "nan" is text to a spreadsheet.
std::string csvNumber(double v) { return std::isnan(v) ? std::string() : fmt::format("{}", v); }

class CsvWriter final : public ReportWriter {
public:
    StagedOutput stage(const Report& report, const fs::path& dir) override {
        validateReport(report, dir);
        std::set<std::string> files = {"timeseries.csv", "summary.csv"};
        for (const Table& t : report.tables) {
            if (!files.insert(tableFileName(t)).second) {
                throw ModelError(
                    fmt::format("cannot write CSV report '{}': table '{}' would be "
                                "written to '{}', which is already taken",
                                dir.string(), t.path, tableFileName(t)));
            }
        }
        checkOutputDirectory(dir, "CSV report");
        StagedOutput staged;
        std::error_code ec;
        if (!fs::is_directory(dir, ec)) {
            if (!fs::create_directory(dir, ec) && ec) {
                throw InputError(
                    fmt::format("cannot write CSV report '{}': cannot create the "
                                "directory: {}",
                                dir.string(), ec.message()));
            }
            staged.created_directories.push_back(dir);
        }
        // Until handed over, a failure removes what was staged.
        try {
            staged.files.push_back(writeTemporary(dir / "timeseries.csv", [&](std::ofstream& out) {
                writeTimeseries(out, report.timeseries);
            }));
            staged.files.push_back(writeTemporary(dir / "summary.csv", [&](std::ofstream& out) {
                out << "name,value,unit\n";
                for (const Metric& m : report.summary) {
                    out << fmt::format("{},{},{}\n", csvField(m.name), csvNumber(m.value),
                                       csvField(m.unit));
                }
            }));
            for (const Table& t : report.tables) {
                staged.files.push_back(writeTemporary(
                    dir / tableFileName(t), [&](std::ofstream& out) { writeTable(out, t); }));
            }
        } catch (...) {
            for (const auto& f : staged.files) removeQuietly(f.temporary);
            for (const auto& d : staged.created_directories) removeQuietly(d);
            throw;
        }
        return staged;
    }

private:
    static std::string tableFileName(const Table& t) {
        std::string name = t.path;
        std::replace(name.begin(), name.end(), '/', '_');
        return name + ".csv";
    }

    static void writeTimeseries(std::ofstream& out, const ResultSet& ts) {
        fmt::memory_buffer line;
        fmt::format_to(std::back_inserter(line), "time_s");
        for (const Channel& c : ts.channels) {
            fmt::format_to(std::back_inserter(line), ",{}", headerWithUnit(channelPath(c), c.unit));
        }
        line.push_back('\n');
        out.write(line.data(), static_cast<std::streamsize>(line.size()));
        for (std::size_t i = 0; i < ts.time.size(); ++i) {
            line.clear();
            fmt::format_to(std::back_inserter(line), "{}", ts.time[i]);
            for (const Channel& c : ts.channels) {
                // No value (NaN) is an empty cell, as csvNumber writes it.
                if (std::isnan(c.values[i])) {
                    line.push_back(',');
                } else {
                    fmt::format_to(std::back_inserter(line), ",{}", c.values[i]);
                }
            }
            line.push_back('\n');
            out.write(line.data(), static_cast<std::streamsize>(line.size()));
        }
    }

    static void writeTable(std::ofstream& out, const Table& t) {
        std::vector<std::string> header;
        for (const auto& col : t.columns) header.push_back(headerWithUnit(col.name, col.unit));
        out << fmt::format("{}\n", fmt::join(header, ","));
        const std::size_t rows = columnLength(t.columns.front());
        for (std::size_t r = 0; r < rows; ++r) {
            std::vector<std::string> cells;
            for (const auto& col : t.columns) {
                if (const auto* nums = std::get_if<std::vector<double>>(&col.data)) {
                    cells.push_back(csvNumber((*nums)[r]));
                } else {
                    cells.push_back(csvField(std::get<std::vector<std::string>>(col.data)[r]));
                }
            }
            out << fmt::format("{}\n", fmt::join(cells, ","));
        }
    }
};

class NullWriter final : public ReportWriter {
public:
    StagedOutput stage(const Report&, const fs::path&) override { return {}; }
};

/// "<name>.tmp.<pid>": the pid, or 0 if `name` is not such a temporary.
pid_t temporaryOwner(const std::string& name) {
    const std::size_t dot = name.rfind(".tmp.");
    if (dot == std::string::npos || dot == 0) return 0;
    const std::string digits = name.substr(dot + 5);
    if (digits.empty() || digits.size() > 9 ||
        !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        return 0;
    }
    return static_cast<pid_t>(std::stol(digits));
}

bool processAlive(pid_t pid) {
    if (pid == ::getpid()) return true;
    // EPERM: it exists but belongs to someone else.
    return ::kill(pid, 0) == 0 || errno == EPERM;
}

}  // namespace

void ReportWriter::write(const Report& report, const fs::path& path) {
    OutputTransaction t;
    t.stage(*this, report, path);
    t.commit();
}

void OutputTransaction::add(StagedOutput staged) {
    for (auto& d : staged.created_directories) {
        staged_.created_directories.push_back(std::move(d));
    }
    for (auto& f : staged.files) staged_.files.push_back(std::move(f));
}

void OutputTransaction::stage(ReportWriter& writer, const Report& report, const fs::path& path) {
    add(writer.stage(report, path));
}

void OutputTransaction::stageText(const fs::path& path, std::string_view text) {
    if (path.empty() || !path.has_filename()) {
        throw InputError(fmt::format("cannot write '{}': not a file name", path.string()));
    }
    checkOutputFile(path, "file");
    staged_.files.push_back(writeTemporary(path, [&](std::ofstream& out) {
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
        out << "\n";
    }));
}

void OutputTransaction::commit() {
    // The first staged is renamed last: it is the report, the file most worth keeping.
    for (std::size_t k = staged_.files.size(); k-- > 0;) {
        const StagedFile& f = staged_.files[k];
        std::error_code ec;
        fs::rename(f.temporary, f.final_path, ec);
        if (ec) {
            const std::string msg =
                fmt::format("cannot write '{}': renaming '{}' failed: {}", f.final_path.string(),
                            f.temporary.string(), ec.message());
            staged_.files.resize(k + 1);  // the ones before k were renamed: keep them
            staged_.created_directories.clear();
            rollback();
            throw Error(msg);
        }
    }
    staged_ = {};
}

void OutputTransaction::rollback() noexcept {
    for (const auto& f : staged_.files) removeQuietly(f.temporary);
    // Only folders staging created and that are empty again ("an empty csv/" is not left).
    for (auto it = staged_.created_directories.rbegin(); it != staged_.created_directories.rend();
         ++it) {
        std::error_code ec;
        if (fs::is_empty(*it, ec) && !ec) fs::remove(*it, ec);
    }
    staged_ = {};
}

void checkOutputFile(const fs::path& path, std::string_view what) {
    if (path.empty() || !path.has_filename()) {
        throw InputError(fmt::format("cannot write {} '{}': not a file name", what, path.string()));
    }
    const fs::path dir = parentOrCurrent(path);
    checkDestinationDirectory(dir, path, what);
    std::error_code ec;
    const auto st = fs::status(path, ec);
    if (ec && ec != std::errc::no_such_file_or_directory) {
        throw InputError(
            fmt::format("cannot write {} '{}': {}", what, path.string(), ec.message()));
    }
    if (fs::is_directory(st)) {
        throw InputError(
            fmt::format("cannot write {} '{}': a directory has that name", what, path.string()));
    }
    // Outputs are written beside the destination and renamed over it, which replaces what is
    // there: `-o /dev/null` left a 324 kB regular file where the device was (as root), and a
    // symbolic link became a file while its target stayed as it was. Such destinations are
    // refused rather than replaced.
    const auto link = fs::symlink_status(path, ec);
    if (fs::is_symlink(link)) {
        throw InputError(fmt::format(
            "cannot write {} '{}': it is a symbolic link (to '{}'), which the write would "
            "replace; give the file's own path",
            what, path.string(), fs::read_symlink(path, ec).string()));
    }
    if (fs::exists(st) && !fs::is_regular_file(st)) {
        throw InputError(fmt::format(
            "cannot write {} '{}': it is not a regular file (a device, pipe or socket), which "
            "the write would replace; give a file name",
            what, path.string()));
    }
    removeStaleTemporaries(dir);
}

void checkOutputDirectory(const fs::path& dir, std::string_view what) {
    if (dir.empty()) throw InputError(fmt::format("cannot write {}: empty folder name", what));
    std::error_code ec;
    const auto st = fs::status(dir, ec);
    if (ec && ec != std::errc::no_such_file_or_directory) {
        throw InputError(fmt::format("cannot write {} '{}': {}", what, dir.string(), ec.message()));
    }
    if (fs::exists(st) && !fs::is_directory(st)) {
        throw InputError(fmt::format("cannot write {} '{}': it exists and is not a directory", what,
                                     dir.string()));
    }
    if (fs::is_directory(st)) {
        checkDestinationDirectory(dir, dir, what);
        removeStaleTemporaries(dir);
    } else {
        // "out/" names the folder "out": its parent is the folder "out" sits in, not "out"
        // itself (path::parent_path of "out/" is "out", and `-o out/` said "directory 'out'
        // does not exist" for the folder it was asked to create).
        const fs::path folder = dir.has_filename() ? dir : dir.parent_path();
        checkDestinationDirectory(parentOrCurrent(folder), dir, what);
    }
}

std::size_t removeStaleTemporaries(const fs::path& dir) noexcept {
    std::size_t removed = 0;
    try {
        std::error_code ec;
        for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
            const pid_t pid = temporaryOwner(it->path().filename().string());
            if (pid <= 0 || processAlive(pid)) continue;
            std::error_code type_ec;
            if (!it->is_regular_file(type_ec)) continue;
            std::error_code rm_ec;
            if (fs::remove(it->path(), rm_ec)) ++removed;
        }
    } catch (...) {
        // Cleaning up is a courtesy: never a reason to fail a run.
    }
    return removed;
}

std::unique_ptr<ReportWriter> makeHdf5Writer(const Hdf5Options& options) {
    return std::make_unique<Hdf5Writer>(options);
}

std::unique_ptr<ReportWriter> makeCsvWriter() { return std::make_unique<CsvWriter>(); }

std::unique_ptr<ReportWriter> makeNullWriter() { return std::make_unique<NullWriter>(); }

}  // namespace dctwin
