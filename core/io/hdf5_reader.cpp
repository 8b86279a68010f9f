// HDF5 report reader: typed reads of datasets, attributes and compound tables, with errors
// that name the file and the object.
#include "core/io/hdf5_reader.h"

#include <fmt/format.h>
#include <hdf5.h>
#include <hdf5_hl.h>

#include <algorithm>
#include <type_traits>
#include <utility>

#include "core/errors.h"

namespace dctwin::hdf5 {

static_assert(std::is_same_v<hid_t, std::int64_t>, "Reader stores hid_t as std::int64_t");

namespace {

/// HDF5's automatic error printing is per thread in a thread-safe build; switch it off for the
/// duration of one call (failures become exceptions) and restore it afterwards.
class ErrorSilencer {
public:
    ErrorSilencer() {
        H5Eget_auto2(H5E_DEFAULT, &func_, &data_);
        H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    }
    ~ErrorSilencer() { H5Eset_auto2(H5E_DEFAULT, func_, data_); }
    ErrorSilencer(const ErrorSilencer&) = delete;
    ErrorSilencer& operator=(const ErrorSilencer&) = delete;

private:
    H5E_auto2_t func_ = nullptr;
    void* data_ = nullptr;
};

class Handle {
public:
    using Closer = herr_t (*)(hid_t);
    Handle(hid_t id, Closer closer) : id_(id), closer_(closer) {}
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    ~Handle() {
        if (id_ >= 0) closer_(id_);
    }
    hid_t get() const { return id_; }

private:
    hid_t id_;
    Closer closer_;
};

std::string normalize(std::string_view object_path) {
    std::string out;
    out.reserve(object_path.size() + 1);
    // Appended piecewise: "/" + std::string trips a GCC 12 -Wrestrict false positive.
    if (object_path.empty() || object_path.front() != '/') out.push_back('/');
    out.append(object_path);
    return out;
}

/// Frees strings HDF5 allocated for variable-length reads, also when a conversion throws.
struct VlStrings {
    std::vector<char*> data;
    explicit VlStrings(std::size_t n) : data(n, nullptr) {}
    ~VlStrings() {
        for (char* p : data) {
            if (p) H5free_memory(p);
        }
    }
};

std::vector<std::string> fixedStrings(const std::vector<char>& buffer, std::size_t size,
                                      std::size_t n, H5T_str_t pad) {
    std::vector<std::string> out;
    out.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        const char* p = buffer.data() + i * size;
        std::string s(p, std::find(p, p + size, '\0'));
        if (pad == H5T_STR_SPACEPAD) s.erase(s.find_last_not_of(' ') + 1);
        out.push_back(std::move(s));
    }
    return out;
}

}  // namespace

// Everything below runs with an ErrorSilencer active; helpers throw InputError naming the file
// and the object.
namespace {

struct Context {
    const std::filesystem::path& file;
    std::string object;

    [[noreturn]] void fail(std::string_view what) const {
        throw InputError(
            fmt::format("cannot read '{}' from '{}': {}", object, file.string(), what));
    }
    Handle make(hid_t id, Handle::Closer closer, std::string_view what) const {
        if (id < 0) fail(what);
        return Handle(id, closer);
    }
    void check(herr_t rc, std::string_view what) const {
        if (rc < 0) fail(what);
    }
};

bool objectExists(hid_t file, const std::string& path) {
    if (path == "/") return true;
    // H5Lexists fails (rather than returning false) when an intermediate group is missing, so
    // each prefix is checked in turn.
    std::size_t pos = 1;
    while (true) {
        const std::size_t slash = path.find('/', pos);
        const std::string prefix = path.substr(0, slash);
        if (H5Lexists(file, prefix.c_str(), H5P_DEFAULT) <= 0) return false;
        if (slash == std::string::npos) break;
        pos = slash + 1;
    }
    return H5Oexists_by_name(file, path.c_str(), H5P_DEFAULT) > 0;
}

Handle openObject(hid_t file, const Context& ctx) {
    if (!objectExists(file, ctx.object)) ctx.fail("no such object");
    return ctx.make(H5Oopen(file, ctx.object.c_str(), H5P_DEFAULT), H5Oclose, "cannot open it");
}

Handle openDataset(hid_t file, const Context& ctx) {
    if (!objectExists(file, ctx.object)) ctx.fail("no such dataset");
    return ctx.make(H5Dopen2(file, ctx.object.c_str(), H5P_DEFAULT), H5Dclose,
                    "it is not a dataset");
}

/// Reads all strings of a dataset (is_attribute false) or attribute, fixed or variable length.
std::vector<std::string> readStrings(hid_t obj, bool is_attribute, const Context& ctx) {
    Handle type = ctx.make(is_attribute ? H5Aget_type(obj) : H5Dget_type(obj), H5Tclose,
                           "cannot get its type");
    if (H5Tget_class(type.get()) != H5T_STRING) ctx.fail("it does not hold strings");
    Handle space = ctx.make(is_attribute ? H5Aget_space(obj) : H5Dget_space(obj), H5Sclose,
                            "cannot get its dataspace");
    const hssize_t npoints = H5Sget_simple_extent_npoints(space.get());
    if (npoints < 0) ctx.fail("cannot get its size");
    const auto n = static_cast<std::size_t>(npoints);
    const htri_t variable = H5Tis_variable_str(type.get());
    if (variable < 0) ctx.fail("cannot inspect its string type");
    auto read = [&](hid_t mem, void* buf) {
        const herr_t rc = is_attribute ? H5Aread(obj, mem, buf)
                                       : H5Dread(obj, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf);
        ctx.check(rc, "reading failed");
    };
    if (variable > 0) {
        Handle mem = ctx.make(H5Tcopy(H5T_C_S1), H5Tclose, "cannot make a string type");
        ctx.check(H5Tset_size(mem.get(), H5T_VARIABLE), "cannot make a string type");
        ctx.check(H5Tset_cset(mem.get(), H5Tget_cset(type.get())), "cannot make a string type");
        VlStrings buf(n);
        if (n > 0) read(mem.get(), buf.data.data());
        std::vector<std::string> out;
        for (const char* p : buf.data) out.emplace_back(p ? p : "");
        return out;
    }
    const std::size_t size = H5Tget_size(type.get());
    if (size == 0) ctx.fail("cannot get its string size");
    std::vector<char> buffer(std::max<std::size_t>(1, n * size), '\0');
    if (n > 0) read(type.get(), buffer.data());
    return fixedStrings(buffer, size, n, H5Tget_strpad(type.get()));
}

Handle openAttribute(hid_t file, const Context& ctx, std::string_view attr) {
    Handle obj = openObject(file, ctx);
    const std::string name(attr);
    const htri_t has = H5Aexists(obj.get(), name.c_str());
    if (has <= 0) ctx.fail(fmt::format("no attribute '{}'", name));
    return ctx.make(H5Aopen(obj.get(), name.c_str(), H5P_DEFAULT), H5Aclose,
                    fmt::format("cannot open attribute '{}'", name));
}

herr_t collectName(hid_t, const char* name, const H5L_info_t*, void* out) {
    static_cast<std::vector<std::string>*>(out)->emplace_back(name);
    return 0;
}

herr_t collectAttributeName(hid_t, const char* name, const H5A_info_t*, void* out) {
    static_cast<std::vector<std::string>*>(out)->emplace_back(name);
    return 0;
}

}  // namespace

// ---------------------------------------------------------------------------------------------

Reader::Reader(const std::filesystem::path& file) : file_(file) {
    ErrorSilencer silence;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec)) {
        throw InputError(fmt::format("cannot read HDF5 file '{}': no such file", file.string()));
    }
    if (H5Fis_hdf5(file.c_str()) <= 0) {
        throw InputError(
            fmt::format("cannot read HDF5 file '{}': not an HDF5 file", file.string()));
    }
    id_ = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    if (id_ < 0) {
        throw InputError(fmt::format("cannot read HDF5 file '{}': cannot open it", file.string()));
    }
}

Reader::~Reader() {
    if (id_ >= 0) {
        ErrorSilencer silence;
        H5Fclose(id_);
    }
}

Reader::Reader(Reader&& other) noexcept
    : file_(std::move(other.file_)), id_(std::exchange(other.id_, -1)) {}

Reader& Reader::operator=(Reader&& other) noexcept {
    if (this != &other) {
        if (id_ >= 0) {
            ErrorSilencer silence;
            H5Fclose(id_);
        }
        file_ = std::move(other.file_);
        id_ = std::exchange(other.id_, -1);
    }
    return *this;
}

bool Reader::exists(std::string_view object_path) const {
    ErrorSilencer silence;
    return objectExists(id_, normalize(object_path));
}

std::vector<std::string> Reader::listChildren(std::string_view group) const {
    ErrorSilencer silence;
    const Context ctx{file_, normalize(group)};
    Handle obj = openObject(id_, ctx);
    if (H5Iget_type(obj.get()) != H5I_GROUP) ctx.fail("it is not a group");
    std::vector<std::string> names;
    // Creation order where the writer tracked it (channels in model order), else by name.
    if (H5Literate(obj.get(), H5_INDEX_CRT_ORDER, H5_ITER_INC, nullptr, collectName, &names) < 0) {
        names.clear();
        ctx.check(H5Literate(obj.get(), H5_INDEX_NAME, H5_ITER_INC, nullptr, collectName, &names),
                  "cannot list its members");
    }
    return names;
}

std::vector<std::string> Reader::listAttributes(std::string_view object_path) const {
    ErrorSilencer silence;
    const Context ctx{file_, normalize(object_path)};
    Handle obj = openObject(id_, ctx);
    std::vector<std::string> names;
    ctx.check(
        H5Aiterate2(obj.get(), H5_INDEX_NAME, H5_ITER_INC, nullptr, collectAttributeName, &names),
        "cannot list its attributes");
    return names;
}

std::vector<double> Reader::readDataset(std::string_view object_path) const {
    ErrorSilencer silence;
    const Context ctx{file_, normalize(object_path)};
    Handle ds = openDataset(id_, ctx);
    Handle type = ctx.make(H5Dget_type(ds.get()), H5Tclose, "cannot get its type");
    const H5T_class_t cls = H5Tget_class(type.get());
    if (cls != H5T_FLOAT && cls != H5T_INTEGER) ctx.fail("it is not a numeric dataset");
    Handle space = ctx.make(H5Dget_space(ds.get()), H5Sclose, "cannot get its dataspace");
    const hssize_t n = H5Sget_simple_extent_npoints(space.get());
    if (n < 0) ctx.fail("cannot get its size");
    std::vector<double> values(static_cast<std::size_t>(n));
    if (n > 0) {
        ctx.check(
            H5Dread(ds.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
            "reading failed");
    }
    return values;
}

std::vector<std::uint64_t> Reader::shape(std::string_view object_path) const {
    ErrorSilencer silence;
    const Context ctx{file_, normalize(object_path)};
    Handle ds = openDataset(id_, ctx);
    Handle space = ctx.make(H5Dget_space(ds.get()), H5Sclose, "cannot get its dataspace");
    hsize_t dims[H5S_MAX_RANK] = {};
    const int rank = H5Sget_simple_extent_dims(space.get(), dims, nullptr);
    if (rank < 0) ctx.fail("cannot get its rank");
    return std::vector<std::uint64_t>(dims, dims + rank);
}

std::vector<std::string> Reader::readStringArray(std::string_view object_path) const {
    ErrorSilencer silence;
    const Context ctx{file_, normalize(object_path)};
    Handle ds = openDataset(id_, ctx);
    return readStrings(ds.get(), false, ctx);
}

std::string Reader::readStringDataset(std::string_view object_path) const {
    ErrorSilencer silence;
    const Context ctx{file_, normalize(object_path)};
    Handle ds = openDataset(id_, ctx);
    auto strings = readStrings(ds.get(), false, ctx);
    if (strings.size() != 1) ctx.fail(fmt::format("expected one string, found {}", strings.size()));
    return strings.front();
}

std::string Reader::readStringAttribute(std::string_view object_path, std::string_view attr) const {
    ErrorSilencer silence;
    const Context ctx{file_, normalize(object_path)};
    Handle a = openAttribute(id_, ctx, attr);
    auto strings = readStrings(a.get(), true, ctx);
    if (strings.size() != 1) {
        ctx.fail(
            fmt::format("attribute '{}' holds {} strings, expected one", attr, strings.size()));
    }
    return strings.front();
}

std::vector<std::string> Reader::readStringArrayAttribute(std::string_view object_path,
                                                          std::string_view attr) const {
    ErrorSilencer silence;
    const Context ctx{file_, normalize(object_path)};
    Handle a = openAttribute(id_, ctx, attr);
    return readStrings(a.get(), true, ctx);
}

double Reader::readDoubleAttribute(std::string_view object_path, std::string_view attr) const {
    ErrorSilencer silence;
    const Context ctx{file_, normalize(object_path)};
    Handle a = openAttribute(id_, ctx, attr);
    Handle type = ctx.make(H5Aget_type(a.get()), H5Tclose, "cannot get the attribute's type");
    const H5T_class_t cls = H5Tget_class(type.get());
    if (cls != H5T_FLOAT && cls != H5T_INTEGER) {
        ctx.fail(fmt::format("attribute '{}' is not numeric", attr));
    }
    Handle space = ctx.make(H5Aget_space(a.get()), H5Sclose, "cannot get the attribute's space");
    if (H5Sget_simple_extent_npoints(space.get()) != 1) {
        ctx.fail(fmt::format("attribute '{}' is not a single value", attr));
    }
    double value = 0.0;
    ctx.check(H5Aread(a.get(), H5T_NATIVE_DOUBLE, &value),
              fmt::format("reading attribute '{}' failed", attr));
    return value;
}

Table Reader::readTable(std::string_view object_path) const {
    ErrorSilencer silence;
    const Context ctx{file_, normalize(object_path)};
    Handle ds = openDataset(id_, ctx);
    Handle type = ctx.make(H5Dget_type(ds.get()), H5Tclose, "cannot get its type");
    if (H5Tget_class(type.get()) != H5T_COMPOUND) ctx.fail("it is not a table (compound dataset)");
    Handle space = ctx.make(H5Dget_space(ds.get()), H5Sclose, "cannot get its dataspace");
    if (H5Sget_simple_extent_ndims(space.get()) != 1) ctx.fail("a table must be one-dimensional");
    const auto rows = static_cast<std::size_t>(H5Sget_simple_extent_npoints(space.get()));
    const int members = H5Tget_nmembers(type.get());
    if (members < 0) ctx.fail("cannot list its columns");

    Table table;
    table.path = ctx.object.substr(1);
    for (int m = 0; m < members; ++m) {
        char* raw_name = H5Tget_member_name(type.get(), static_cast<unsigned>(m));
        if (!raw_name) ctx.fail("cannot get a column name");
        const std::string name(raw_name);
        H5free_memory(raw_name);
        Handle member = ctx.make(H5Tget_member_type(type.get(), static_cast<unsigned>(m)), H5Tclose,
                                 fmt::format("cannot get the type of column '{}'", name));
        const std::string what = fmt::format("reading column '{}' failed", name);

        // A memory compound with just this member: HDF5 matches members by name, so each
        // column is read on its own, converted to double or kept as a string.
        Table::Column column{name, "", std::vector<double>{}};
        const H5T_class_t cls = H5Tget_class(member.get());
        if (cls == H5T_FLOAT || cls == H5T_INTEGER) {
            Handle mem = ctx.make(H5Tcreate(H5T_COMPOUND, sizeof(double)), H5Tclose, what);
            ctx.check(H5Tinsert(mem.get(), name.c_str(), 0, H5T_NATIVE_DOUBLE), what);
            std::vector<double> values(rows);
            if (rows > 0) {
                ctx.check(
                    H5Dread(ds.get(), mem.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
                    what);
            }
            column.data = std::move(values);
        } else if (cls == H5T_STRING) {
            const htri_t variable = H5Tis_variable_str(member.get());
            if (variable < 0) ctx.fail(what);
            if (variable > 0) {
                Handle str = ctx.make(H5Tcopy(H5T_C_S1), H5Tclose, what);
                ctx.check(H5Tset_size(str.get(), H5T_VARIABLE), what);
                ctx.check(H5Tset_cset(str.get(), H5Tget_cset(member.get())), what);
                Handle mem = ctx.make(H5Tcreate(H5T_COMPOUND, sizeof(char*)), H5Tclose, what);
                ctx.check(H5Tinsert(mem.get(), name.c_str(), 0, str.get()), what);
                VlStrings buf(rows);
                if (rows > 0) {
                    ctx.check(H5Dread(ds.get(), mem.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT,
                                      buf.data.data()),
                              what);
                }
                std::vector<std::string> text;
                for (const char* p : buf.data) text.emplace_back(p ? p : "");
                column.data = std::move(text);
            } else {
                const std::size_t size = H5Tget_size(member.get());
                Handle mem = ctx.make(H5Tcreate(H5T_COMPOUND, size), H5Tclose, what);
                ctx.check(H5Tinsert(mem.get(), name.c_str(), 0, member.get()), what);
                std::vector<char> buffer(std::max<std::size_t>(1, rows * size), '\0');
                if (rows > 0) {
                    ctx.check(
                        H5Dread(ds.get(), mem.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer.data()),
                        what);
                }
                column.data = fixedStrings(buffer, size, rows, H5Tget_strpad(member.get()));
            }
        } else {
            ctx.fail(fmt::format("column '{}' is neither numeric nor text", name));
        }
        table.columns.push_back(std::move(column));
    }

    if (H5Aexists(ds.get(), "units") > 0) {
        Handle a = ctx.make(H5Aopen(ds.get(), "units", H5P_DEFAULT), H5Aclose,
                            "cannot open attribute 'units'");
        const auto units = readStrings(a.get(), true, ctx);
        if (units.size() != table.columns.size()) {
            ctx.fail(fmt::format("attribute 'units' has {} entries for {} columns", units.size(),
                                 table.columns.size()));
        }
        for (std::size_t c = 0; c < units.size(); ++c) table.columns[c].unit = units[c];
    }
    return table;
}

DatasetStorage Reader::storage(std::string_view object_path) const {
    ErrorSilencer silence;
    const Context ctx{file_, normalize(object_path)};
    Handle ds = openDataset(id_, ctx);
    Handle dcpl =
        ctx.make(H5Dget_create_plist(ds.get()), H5Pclose, "cannot get its creation properties");
    DatasetStorage out;
    if (H5Pget_layout(dcpl.get()) == H5D_CHUNKED) {
        out.chunked = true;
        hsize_t dims[H5S_MAX_RANK] = {};
        const int rank = H5Pget_chunk(dcpl.get(), H5S_MAX_RANK, dims);
        if (rank < 0) ctx.fail("cannot get its chunk size");
        out.chunk_dims.assign(dims, dims + rank);
    }
    const int filters = H5Pget_nfilters(dcpl.get());
    for (int i = 0; i < filters; ++i) {
        unsigned flags = 0, config = 0;
        unsigned cd_values[8] = {};
        std::size_t cd_count = 8;
        char name[64] = {};
        const H5Z_filter_t f = H5Pget_filter2(dcpl.get(), static_cast<unsigned>(i), &flags,
                                              &cd_count, cd_values, sizeof(name), name, &config);
        if (f == H5Z_FILTER_SHUFFLE) out.shuffle = true;
        if (f == H5Z_FILTER_DEFLATE) {
            out.deflate = true;
            out.deflate_level = cd_count > 0 ? static_cast<int>(cd_values[0]) : 0;
        }
    }
    return out;
}

std::vector<std::string> Reader::dimensionScales(std::string_view object_path) const {
    ErrorSilencer silence;
    const Context ctx{file_, normalize(object_path)};
    Handle ds = openDataset(id_, ctx);
    Handle space = ctx.make(H5Dget_space(ds.get()), H5Sclose, "cannot get its dataspace");
    const int rank = H5Sget_simple_extent_ndims(space.get());
    if (rank < 0) ctx.fail("cannot get its rank");
    std::vector<std::string> out(static_cast<std::size_t>(rank));
    for (int axis = 0; axis < rank; ++axis) {
        if (H5DSget_num_scales(ds.get(), static_cast<unsigned>(axis)) <= 0) continue;
        int first = 0;
        ctx.check(H5DSiterate_scales(
                      ds.get(), static_cast<unsigned>(axis), &first,
                      [](hid_t, unsigned, hid_t scale, void* name) -> herr_t {
                          const ssize_t n = H5Iget_name(scale, nullptr, 0);
                          if (n <= 0) return -1;
                          std::string s(static_cast<std::size_t>(n) + 1, '\0');
                          H5Iget_name(scale, s.data(), s.size());
                          s.resize(static_cast<std::size_t>(n));
                          *static_cast<std::string*>(name) = std::move(s);
                          return 1;  // the first scale is enough
                      },
                      &out[static_cast<std::size_t>(axis)]),
                  "cannot read its dimension scales");
    }
    return out;
}

// ---------------------------------------------------------------------------------------------

std::vector<double> readDataset(const std::filesystem::path& file, std::string_view object_path) {
    return Reader(file).readDataset(object_path);
}

std::string readStringDataset(const std::filesystem::path& file, std::string_view object_path) {
    return Reader(file).readStringDataset(object_path);
}

std::string readStringAttribute(const std::filesystem::path& file, std::string_view object_path,
                                std::string_view attr) {
    return Reader(file).readStringAttribute(object_path, attr);
}

std::vector<std::string> readStringArrayAttribute(const std::filesystem::path& file,
                                                  std::string_view object_path,
                                                  std::string_view attr) {
    return Reader(file).readStringArrayAttribute(object_path, attr);
}

double readDoubleAttribute(const std::filesystem::path& file, std::string_view object_path,
                           std::string_view attr) {
    return Reader(file).readDoubleAttribute(object_path, attr);
}

std::vector<std::string> listChildren(const std::filesystem::path& file, std::string_view group) {
    return Reader(file).listChildren(group);
}

std::vector<std::string> listAttributes(const std::filesystem::path& file,
                                        std::string_view object_path) {
    return Reader(file).listAttributes(object_path);
}

bool exists(const std::filesystem::path& file, std::string_view object_path) {
    return Reader(file).exists(object_path);
}

Table readTable(const std::filesystem::path& file, std::string_view object_path) {
    return Reader(file).readTable(object_path);
}

bool datasetIsChunkedCompressed(const std::filesystem::path& file, std::string_view object_path) {
    const DatasetStorage s = Reader(file).storage(object_path);
    return s.chunked && s.deflate;
}

}  // namespace dctwin::hdf5
