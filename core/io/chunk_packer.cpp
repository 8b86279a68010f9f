// Shuffle + deflate of report chunks on several threads (chunk_packer.h).
#include "core/io/chunk_packer.h"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <cstring>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>

#include "core/errors.h"

namespace dctwin {
namespace {

constexpr std::size_t kElement = sizeof(double);

/// A worker's zlib stream and scratch buffers, kept from one chunk to the next. compress2
/// would set up a stream per chunk: ~270 KB of tables allocated (fresh pages, each a fault)
/// and freed again for every 32 KB chunk. deflateReset on a stream made by deflateInit with
/// the same level gives compress2's bytes (zlib's compress.c: deflateInit, deflate(Z_FINISH),
/// deflateEnd).
class Packer {
public:
    explicit Packer(int level) : level_(level) {
        if (level_ > 0 && deflateInit(&stream_, level_) != Z_OK) {
            throw Error(
                fmt::format("setting up deflate at level {} failed (out of memory?)", level_));
        }
        ready_ = level_ > 0;
    }
    ~Packer() {
        if (ready_) deflateEnd(&stream_);
    }
    Packer(const Packer&) = delete;
    Packer& operator=(const Packer&) = delete;

    std::vector<unsigned char> pack(const ChunkedDataset& d, std::size_t k);

private:
    int level_;
    bool ready_ = false;
    z_stream stream_{};
    std::vector<double> raw_;
    std::vector<unsigned char> shuffled_, deflated_;
};

/// One chunk's stored bytes.
std::vector<unsigned char> Packer::pack(const ChunkedDataset& d, std::size_t k) {
    const std::size_t n = d.chunk_rows * d.cols;  // doubles in a chunk, edge chunks included
    const std::size_t row0 = k * d.chunk_rows;
    const std::size_t count = std::min(d.chunk_rows, d.rows - row0);
    raw_.assign(n, 0.0);  // the edge chunk's rows past the end hold the fill value, 0.0
    d.gather(row0, count, raw_.data());
    const auto* bytes = reinterpret_cast<const unsigned char*>(raw_.data());
    // The file type is little-endian IEEE (H5T_IEEE_F64LE); byte b of a value counts from the
    // least significant byte.
    auto byteOf = [&](std::size_t i, std::size_t b) {
        if constexpr (std::endian::native == std::endian::little) {
            return bytes[i * kElement + b];
        } else {
            return bytes[i * kElement + (kElement - 1 - b)];
        }
    };
    const std::size_t size = n * kElement;
    if (level_ == 0) {
        std::vector<unsigned char> out(size);
        for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t b = 0; b < kElement; ++b) out[i * kElement + b] = byteOf(i, b);
        }
        return out;
    }
    shuffled_.resize(size);
    for (std::size_t b = 0; b < kElement; ++b) {
        unsigned char* plane = shuffled_.data() + b * n;
        for (std::size_t i = 0; i < n; ++i) plane[i] = byteOf(i, b);
    }
    deflated_.resize(deflateBound(&stream_, static_cast<uLong>(size)));
    if (deflateReset(&stream_) != Z_OK) {
        throw Error(fmt::format("resetting deflate failed for a {}-byte chunk", size));
    }
    stream_.next_in = shuffled_.data();
    stream_.avail_in = static_cast<uInt>(size);
    stream_.next_out = deflated_.data();
    stream_.avail_out = static_cast<uInt>(deflated_.size());
    // deflateBound leaves room for the whole stream, so one call finishes it.
    const int rc = deflate(&stream_, Z_FINISH);
    if (rc != Z_STREAM_END) {
        throw Error(fmt::format("deflating a {}-byte chunk failed (zlib error {})", size, rc));
    }
    return {deflated_.begin(), deflated_.begin() + static_cast<std::ptrdiff_t>(stream_.total_out)};
}

}  // namespace

std::vector<std::vector<std::vector<unsigned char>>> packChunks(
    const std::vector<ChunkedDataset>& datasets, int level, unsigned threads) {
    if (level < 0 || level > 9) {
        throw Error(fmt::format("deflate level must be 0 to 9, got {}", level));
    }
    // Every (dataset, chunk) pair is one task; a worker takes the next task from a counter,
    // so a long series and many short ones spread evenly.
    std::vector<std::vector<std::vector<unsigned char>>> out(datasets.size());
    std::vector<std::pair<std::size_t, std::size_t>> tasks;
    for (std::size_t d = 0; d < datasets.size(); ++d) {
        out[d].resize(datasets[d].chunkCount());
        for (std::size_t k = 0; k < out[d].size(); ++k) tasks.emplace_back(d, k);
    }
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    const std::size_t workers = std::min<std::size_t>(threads, tasks.size());

    std::atomic<std::size_t> next{0};
    std::atomic<bool> failed{false};
    std::exception_ptr error;
    std::mutex error_mutex;
    auto work = [&] {
        try {
            Packer packer(level);
            for (std::size_t t = next++; t < tasks.size() && !failed; t = next++) {
                const auto [d, k] = tasks[t];
                out[d][k] = packer.pack(datasets[d], k);
            }
        } catch (...) {
            const std::lock_guard<std::mutex> lock(error_mutex);
            if (!error) error = std::current_exception();
            failed = true;
        }
    };
    std::vector<std::thread> pool;
    try {
        for (std::size_t w = 1; w < workers; ++w) pool.emplace_back(work);
    } catch (const std::exception&) {
        // No more threads to be had (std::system_error at a process limit, std::bad_alloc for
        // a thread's state at a memory limit): the ones running and this one share the tasks.
        // Left uncaught, the running threads would be destroyed joinable: std::terminate.
    }
    work();  // the calling thread is one of the workers
    for (std::thread& t : pool) t.join();
    if (error) std::rethrow_exception(error);
    return out;
}

}  // namespace dctwin
