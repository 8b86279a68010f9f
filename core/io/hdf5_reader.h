#pragma once
// A small reader for HDF5 reports (layout in core/io/report_writer.h): for tests, the GUI's
// "open report" and scripts that want a value back without h5py. No HDF5 type appears here.
//
// Object paths are absolute within the file ("/timeseries/power/it_power"); a missing leading
// '/' is accepted. Every failure is an InputError naming the file and the object, since the
// usual cause is a wrong path or a file that is not a dctwin report.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/results.h"

namespace dctwin::hdf5 {

/// How a dataset is stored on disk (to check chunking and compression).
struct DatasetStorage {
    bool chunked = false;
    std::vector<std::uint64_t> chunk_dims;  // [elements] per dimension, empty if not chunked
    bool shuffle = false;
    bool deflate = false;
    int deflate_level = 0;
};

/// One open file; cheaper than the free functions when reading many objects.
class Reader {
public:
    /// Opens read-only; InputError if the file is missing or not HDF5.
    explicit Reader(const std::filesystem::path& file);
    ~Reader();
    Reader(Reader&& other) noexcept;
    Reader& operator=(Reader&& other) noexcept;
    Reader(const Reader&) = delete;
    Reader& operator=(const Reader&) = delete;

    const std::filesystem::path& file() const { return file_; }

    /// True if a group, dataset or other object exists at `object_path` ("/" always does).
    bool exists(std::string_view object_path) const;
    /// Names of the members of a group, in creation order where the file tracks it.
    std::vector<std::string> listChildren(std::string_view group) const;
    /// Names of the attributes of an object.
    std::vector<std::string> listAttributes(std::string_view object_path) const;

    /// A numeric dataset of any rank, flattened, converted to double.
    std::vector<double> readDataset(std::string_view object_path) const;
    /// @brief The extent of a dataset per axis ([time, rack_group] for a per-rack array).
    /// @param object_path the dataset; InputError if it is not one
    /// @return elements per axis, slowest first (empty for a scalar)
    std::vector<std::uint64_t> shape(std::string_view object_path) const;
    /// A scalar string dataset (fixed-length or variable-length).
    std::string readStringDataset(std::string_view object_path) const;
    /// @brief Every string of a string dataset of any rank, flattened (the per-column names
    /// of a 2-D series array).
    /// @param object_path the dataset (fixed-length or variable-length strings)
    std::vector<std::string> readStringArray(std::string_view object_path) const;
    std::string readStringAttribute(std::string_view object_path, std::string_view attr) const;
    std::vector<std::string> readStringArrayAttribute(std::string_view object_path,
                                                      std::string_view attr) const;
    double readDoubleAttribute(std::string_view object_path, std::string_view attr) const;
    /// A 1-D compound dataset as a Table: string members become text columns, numeric members
    /// number columns; units from the `units` string-array attribute when present.
    Table readTable(std::string_view object_path) const;
    DatasetStorage storage(std::string_view object_path) const;
    /// Per axis of a dataset, the path of the dimension scale (H5DS) attached to it, or ""
    /// (reports from before issue 17 have none).
    std::vector<std::string> dimensionScales(std::string_view object_path) const;

private:
    std::filesystem::path file_;
    std::int64_t id_ = -1;  // hid_t of the open file
};

// One-shot forms: open, read, close.
std::vector<double> readDataset(const std::filesystem::path& file, std::string_view object_path);
std::string readStringDataset(const std::filesystem::path& file, std::string_view object_path);
std::string readStringAttribute(const std::filesystem::path& file, std::string_view object_path,
                                std::string_view attr);
std::vector<std::string> readStringArrayAttribute(const std::filesystem::path& file,
                                                  std::string_view object_path,
                                                  std::string_view attr);
double readDoubleAttribute(const std::filesystem::path& file, std::string_view object_path,
                           std::string_view attr);
std::vector<std::string> listChildren(const std::filesystem::path& file, std::string_view group);
std::vector<std::string> listAttributes(const std::filesystem::path& file,
                                        std::string_view object_path);
bool exists(const std::filesystem::path& file, std::string_view object_path);
Table readTable(const std::filesystem::path& file, std::string_view object_path);
/// True if the dataset is chunked and deflate-compressed.
bool datasetIsChunkedCompressed(const std::filesystem::path& file, std::string_view object_path);

}  // namespace dctwin::hdf5
