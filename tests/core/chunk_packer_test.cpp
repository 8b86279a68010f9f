// The report's chunks as HDF5's shuffle + deflate filters store them (core/io/chunk_packer.h):
// decoded here by an independent reading of the two filters' definitions (HDF5's H5Zshuffle.c
// and H5Zdeflate.c: byte planes, then a zlib stream), the same bytes on any number of threads,
// and the reused zlib stream equal to a fresh compress2 for every chunk.
#include "core/io/chunk_packer.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "core/errors.h"

namespace dctwin {
namespace {

/// A dataset of rows × cols whose every value is distinct and uses all eight bytes.
struct TestData {
    std::size_t rows, cols;
    std::vector<double> values;  // row-major
    TestData(std::size_t r, std::size_t c) : rows(r), cols(c), values(r * c) {
        for (std::size_t i = 0; i < values.size(); ++i) {
            values[i] =
                300.0 + std::sin(0.37 * static_cast<double>(i)) * 1e-3 * static_cast<double>(i);
        }
    }
    ChunkedDataset dataset(std::size_t chunk_rows) const {
        const double* v = values.data();
        const std::size_t c = cols;
        return {rows, cols, chunk_rows, [v, c](std::size_t row0, std::size_t count, double* out) {
                    std::memcpy(out, v + row0 * c, count * c * sizeof(double));
                }};
    }
};

/// Little-endian bytes of a double, least significant first (the file type is F64LE).
std::uint64_t bitsOf(double x) {
    std::uint64_t u;
    std::memcpy(&u, &x, sizeof u);
    return u;
}

/// Undoes the two filters as HDF5 defines them: inflate the zlib stream, then byte plane b
/// (n bytes) holds byte b of each of the n elements. Level 0: raw little-endian bytes.
std::vector<std::uint64_t> decode(const std::vector<unsigned char>& stored, std::size_t n,
                                  int level) {
    std::vector<unsigned char> plain(n * 8);
    if (level == 0) {
        EXPECT_EQ(stored.size(), plain.size());
        plain = stored;
    } else {
        uLongf size = static_cast<uLongf>(plain.size());
        EXPECT_EQ(uncompress(plain.data(), &size, stored.data(), static_cast<uLong>(stored.size())),
                  Z_OK);
        EXPECT_EQ(size, plain.size());
    }
    std::vector<std::uint64_t> out(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t b = 0; b < 8; ++b) {
            const unsigned char byte = level == 0 ? plain[i * 8 + b] : plain[b * n + i];
            out[i] |= std::uint64_t{byte} << (8 * b);
        }
    }
    return out;
}

// Every chunk, edge chunks included, holds chunk_rows × cols values: the dataset's rows in
// order, then 0.0 (HDF5's default fill value) past the last row. Lengths around the chunk size
// and a 2-D dataset (whole rows per chunk, row-major) at each level.
TEST(ChunkPacker, ChunksDecodeToTheRowsThenZeros) {
    for (const int level : {0, 1, 4, 9}) {
        for (const auto& [rows, cols, chunk] :
             std::vector<std::tuple<std::size_t, std::size_t, std::size_t>>{
                 {1, 1, 4096}, {7, 1, 7}, {8, 1, 7}, {4097, 1, 4096}, {50, 3, 16}, {3, 5, 4}}) {
            const TestData data(rows, cols);
            const auto packed = packChunks({data.dataset(chunk)}, level, 2);
            ASSERT_EQ(packed.size(), 1u);
            const std::size_t chunks = (rows + chunk - 1) / chunk;
            ASSERT_EQ(packed[0].size(), chunks);
            for (std::size_t k = 0; k < chunks; ++k) {
                const std::vector<std::uint64_t> got = decode(packed[0][k], chunk * cols, level);
                for (std::size_t e = 0; e < chunk * cols; ++e) {
                    const std::size_t flat = k * chunk * cols + e;
                    const std::uint64_t want =
                        flat < data.values.size() ? bitsOf(data.values[flat]) : bitsOf(0.0);
                    ASSERT_EQ(got[e], want) << "level " << level << ", " << rows << "x" << cols
                                            << ", chunk " << k << ", element " << e;
                }
            }
        }
    }
}

// The reused stream (deflateReset between chunks) writes what a fresh compress2 writes for the
// same shuffled bytes, chunk after chunk: nothing of one chunk leaks into the next.
TEST(ChunkPacker, EachChunkIsWhatCompress2Writes) {
    const TestData data(1000, 2);
    const std::size_t chunk = 64;
    const auto packed = packChunks({data.dataset(chunk)}, 4, 1);
    ASSERT_EQ(packed[0].size(), 16u);
    for (std::size_t k = 0; k < packed[0].size(); ++k) {
        const std::size_t n = chunk * 2;
        std::vector<unsigned char> shuffled(n * 8);
        for (std::size_t e = 0; e < n; ++e) {
            const std::size_t flat = k * n + e;
            const std::uint64_t u = flat < data.values.size() ? bitsOf(data.values[flat]) : 0;
            for (std::size_t b = 0; b < 8; ++b) shuffled[b * n + e] = (u >> (8 * b)) & 0xff;
        }
        uLongf size = compressBound(static_cast<uLong>(shuffled.size()));
        std::vector<unsigned char> fresh(size);
        ASSERT_EQ(
            compress2(fresh.data(), &size, shuffled.data(), static_cast<uLong>(shuffled.size()), 4),
            Z_OK);
        fresh.resize(size);
        EXPECT_EQ(packed[0][k], fresh) << "chunk " << k;
    }
}

// The file must not depend on the machine: any number of threads, the same bytes.
TEST(ChunkPacker, ThreadCountDoesNotChangeTheBytes) {
    const TestData a(9000, 1), b(3, 1), c(700, 4);
    const std::vector<ChunkedDataset> sets{a.dataset(1024), b.dataset(1024), c.dataset(50)};
    const auto one = packChunks(sets, 4, 1);
    for (const unsigned threads : {2u, 3u, 16u, 0u}) {
        EXPECT_EQ(packChunks(sets, 4, threads), one) << threads << " threads";
    }
}

TEST(ChunkPacker, BadLevelAndFailingGatherAreErrors) {
    const TestData a(10, 1);
    EXPECT_THROW(packChunks({a.dataset(4)}, 10, 1), Error);
    EXPECT_THROW(packChunks({a.dataset(4)}, -1, 1), Error);
    // A gather that throws on one chunk: the error reaches the caller, whichever thread ran it.
    ChunkedDataset bad = a.dataset(2);
    bad.gather = [](std::size_t row0, std::size_t count, double* out) {
        if (row0 == 6) throw std::runtime_error("gather failed");
        for (std::size_t i = 0; i < count; ++i) out[i] = 1.0;
    };
    EXPECT_THROW(packChunks({bad}, 4, 3), std::runtime_error);
}

}  // namespace
}  // namespace dctwin
