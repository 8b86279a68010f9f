#pragma once
// Where a run's recorded samples live: one block of memory for all of a recorder's channels,
// mapped and populated before the first sample, in transparent huge pages where the kernel
// gives them (issue 12, bench case 2).
//
// Why: a year at 10-minute output writes 81 columns of 52,561 samples, 34 MB. In separate
// vectors (420 KB each, too small for a huge page) the first write to each 4 KB page cost
// ~7 µs on this project's VMs even after MADV_POPULATE_WRITE had mapped it (the hypervisor
// fills its own page tables on first touch): ~45 ms of a ~0.5 s run, in memcpy. Mapped as
// one 2 MB-aligned block with MADV_HUGEPAGE and then populated, the same writes take ~2.5 ms
// (a stand-alone 34 MB test: 43.5 + 7.4 ms → 2.5 + 1.8 ms). Off such a hypervisor the block
// costs what the separate vectors did.
//
// A SampleVector is a std::vector<double> whose allocator takes its buffer from an arena
// when it has one and room is left, and from the heap otherwise (a vector grown past what
// was reserved, a copy, a channel made outside a recorder). The arena lives while any vector
// holding its memory does; its memory is returned in one piece at the end. An arena hands out
// memory to one thread at a time (the recorder that made it).
#include <cstddef>
#include <memory>
#include <type_traits>
#include <vector>

namespace dctwin {

/// A bump allocator over one anonymous mapping, populated when made.
class SampleArena {
public:
    /// At least `bytes` of memory (rounded up to whole 2 MB pages when it is that large).
    /// When the mapping fails the arena is empty and every take() returns nullptr.
    explicit SampleArena(std::size_t bytes);
    ~SampleArena();
    SampleArena(const SampleArena&) = delete;
    SampleArena& operator=(const SampleArena&) = delete;

    /// `bytes` aligned to `align` (a power of two ≤ 4096), or nullptr when no room is left.
    void* take(std::size_t bytes, std::size_t align) noexcept;
    /// True if `p` lies inside this arena.
    bool owns(const void* p) const noexcept;
    /// [B] size of the mapping (0 if it failed).
    std::size_t capacity() const noexcept { return bytes_; }

private:
    char* base_ = nullptr;
    std::size_t bytes_ = 0;
    std::size_t used_ = 0;
};

/// Allocator of a SampleVector: from its arena while it has room, else from the heap.
///
/// The arena travels with a vector's buffer on move and swap, so memory is always released
/// by an allocator that knows where it came from; a copied vector starts on the heap (it
/// neither keeps the recorder's arena alive nor eats its room).
template <class T>
class SampleAllocator {
public:
    using value_type = T;
    using propagate_on_container_move_assignment = std::true_type;
    using propagate_on_container_swap = std::true_type;
    using propagate_on_container_copy_assignment = std::false_type;
    using is_always_equal = std::false_type;

    SampleAllocator() noexcept = default;
    explicit SampleAllocator(std::shared_ptr<SampleArena> arena) noexcept
        : arena_(std::move(arena)) {}
    template <class U>
    SampleAllocator(const SampleAllocator<U>& other) noexcept  // NOLINT: rebinding
        : arena_(other.arena()) {}

    T* allocate(std::size_t n) {
        if (arena_) {
            if (void* p = arena_->take(n * sizeof(T), alignof(T))) return static_cast<T*>(p);
        }
        return std::allocator<T>().allocate(n);
    }
    void deallocate(T* p, std::size_t n) noexcept {
        if (arena_ && arena_->owns(p)) return;  // released with the arena
        std::allocator<T>().deallocate(p, n);
    }
    SampleAllocator select_on_container_copy_construction() const noexcept { return {}; }

    const std::shared_ptr<SampleArena>& arena() const noexcept { return arena_; }
    template <class U>
    bool operator==(const SampleAllocator<U>& other) const noexcept {
        return arena_ == other.arena();
    }

private:
    std::shared_ptr<SampleArena> arena_;
};

/// The values of one recorded channel, or the sample times.
using SampleVector = std::vector<double, SampleAllocator<double>>;

}  // namespace dctwin
