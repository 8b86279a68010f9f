// SampleArena and SampleVector: where a recorder's samples live (core/sample_storage.h).
#include "core/sample_storage.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <utility>

namespace dctwin {
namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

std::uintptr_t address(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

TEST(SampleArena, HandsOutAlignedBlocksUntilFullAndOwnsOnlyThem) {
    // 3 MB asks for huge pages: whole 2 MB units, starting on a 2 MB boundary.
    SampleArena big(3 * kMiB);
    ASSERT_EQ(big.capacity(), 4 * kMiB);
    void* a = big.take(1, 1);
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(address(a) % (2 * kMiB), 0u);
    void* b = big.take(8, 64);  // after 1 byte: the next 64-byte boundary
    EXPECT_EQ(address(b), address(a) + 64);
    EXPECT_TRUE(big.owns(b));
    EXPECT_TRUE(big.owns(static_cast<char*>(a) + big.capacity() - 1));
    EXPECT_FALSE(big.owns(static_cast<char*>(a) + big.capacity()));
    int local = 0;
    EXPECT_FALSE(big.owns(&local));
    // What is left, and not a byte more.
    EXPECT_EQ(big.take(big.capacity() - 71, 1), nullptr);
    void* rest = big.take(big.capacity() - 72, 1);
    EXPECT_EQ(address(rest), address(a) + 72);
    EXPECT_EQ(big.take(1, 1), nullptr);
    // The memory is writable end to end.
    static_cast<char*>(a)[0] = 1;
    static_cast<char*>(a)[big.capacity() - 1] = 1;

    // Below a huge page: whole base pages.
    SampleArena small(100);
    EXPECT_GE(small.capacity(), 100u);
    EXPECT_LT(small.capacity(), 2 * kMiB);
    EXPECT_EQ(SampleArena(0).capacity(), 0u);
    EXPECT_EQ(SampleArena(0).take(8, 8), nullptr);
}

TEST(SampleVector, OutgrowsItsArenaOntoTheHeapAndCopiesDoNotShareIt) {
    auto arena = std::make_shared<SampleArena>(4096);
    const std::size_t room = arena->capacity() / sizeof(double);
    SampleVector v{SampleAllocator<double>(arena)};
    v.reserve(room);
    EXPECT_TRUE(arena->owns(v.data()));
    for (std::size_t i = 0; i < room + 10; ++i) v.push_back(static_cast<double>(i));
    EXPECT_FALSE(arena->owns(v.data()));  // grown past the arena: on the heap
    for (std::size_t i = 0; i < v.size(); ++i) ASSERT_EQ(v[i], static_cast<double>(i)) << i;

    // The arena's first block was left to v's growth (an arena never reuses memory).
    EXPECT_EQ(arena->take(8, 8), nullptr);
    arena = std::make_shared<SampleArena>(4096);
    SampleVector w{SampleAllocator<double>(arena)};
    w.assign({1.0, 2.0, 3.0});
    ASSERT_EQ(w.get_allocator().arena(), arena);
    const SampleVector copy = w;  // a copy neither uses nor keeps the arena
    EXPECT_EQ(copy.get_allocator().arena(), nullptr);
    EXPECT_FALSE(arena->owns(copy.data()));
    // A move takes the arena along: the values outlive every other owner of it.
    SampleVector moved = std::move(w);
    const double* data = moved.data();
    EXPECT_TRUE(arena->owns(data));
    arena.reset();
    v = SampleVector{};
    EXPECT_EQ(moved.data(), data);
    EXPECT_EQ(moved, copy);
}

}  // namespace
}  // namespace dctwin
