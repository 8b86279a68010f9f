#pragma once
// The chunks of a report's double datasets, filtered as HDF5's shuffle + deflate pipeline
// stores them, on several threads (DESIGN.md §5.3; the report writer's layout).
//
// Why: HDF5 runs its filter pipeline one chunk at a time on the calling thread. Deflating a
// year of 10-min samples (72 series of 52,561 doubles, 31 MB raw) took ~0.17 s of the ~0.3 s
// the reference report cost, beside a 0.54 s simulation. The chunks are independent, so they
// are filtered here on every core and handed to HDF5 with H5Dwrite_chunk, which stores them
// as they are; readers see the dataset's declared filters and undo them as usual.
//
// What a stored chunk is (HDF5 1.10, H5Zshuffle.c and H5Zdeflate.c). tests/core/
// chunk_packer_test.cpp decodes the chunks by this definition and compares each with
// compress2's bytes; tests/core/io_test.cpp has HDF5 read them back; the reports of the
// shipped scenarios were compared chunk by chunk with HDF5's own pipeline (docs/decisions.md):
//   - a chunk is always chunk_rows × cols doubles, little-endian IEEE; an edge chunk (past
//     the dataset's last row) is padded with the fill value, 0.0;
//   - shuffle (element size 8): byte b of element i goes to b·n + i, n = chunk_rows·cols;
//   - deflate: zlib's compress2 at the dataset's level (a zlib stream, header and Adler-32).
// Level 0 means no filters: the chunk's raw bytes.
//
// Memory: the caller packs a batch of datasets, writes it and frees it, so at most one
// batch of compressed chunks is alive beside the file image.
#include <cstddef>
#include <functional>
#include <vector>

namespace dctwin {

/// One chunked double dataset: `rows` × `cols` (cols = 1 for a series), chunks of
/// `chunk_rows` whole rows. `gather(row0, count, out)` writes rows [row0, row0 + count) in
/// row-major order to out[0 .. count·cols); it is called from several threads at once, for
/// different rows, and must only read shared data.
struct ChunkedDataset {
    std::size_t rows = 0;
    std::size_t cols = 1;
    std::size_t chunk_rows = 1;
    std::function<void(std::size_t row0, std::size_t count, double* out)> gather;

    std::size_t chunkCount() const {
        return chunk_rows == 0 ? 0 : (rows + chunk_rows - 1) / chunk_rows;
    }
};

/// The stored bytes of every chunk of every dataset: result[d][k] is chunk k (rows
/// k·chunk_rows …) of datasets[d]. `level` 1..9 shuffles and deflates, 0 leaves the bytes raw.
/// Spreads the chunks over up to `threads` threads (0: the machine's cores). Throws Error if
/// zlib fails (out of memory) or `level` is outside 0..9.
std::vector<std::vector<std::vector<unsigned char>>> packChunks(
    const std::vector<ChunkedDataset>& datasets, int level, unsigned threads = 0);

}  // namespace dctwin
