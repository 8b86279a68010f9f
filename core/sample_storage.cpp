#include "core/sample_storage.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>

namespace dctwin {

namespace {
constexpr std::size_t kHugePage = std::size_t{2} << 20;  // x86-64 and arm64 (4 KB base pages)
}

SampleArena::SampleArena(std::size_t bytes) {
    if (bytes == 0) return;
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    const bool huge = bytes >= kHugePage;
    const std::size_t unit = huge ? kHugePage : page;
    const std::size_t want = (bytes + unit - 1) / unit * unit;
    // A huge page must start on a 2 MB boundary: map one unit more and trim to the boundary.
    const std::size_t map = huge ? want + kHugePage : want;
    void* m = ::mmap(nullptr, map, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return;
    auto* raw = static_cast<char*>(m);
    char* base = raw;
    if (huge) {
        const auto addr = reinterpret_cast<std::uintptr_t>(raw);
        base = raw + ((kHugePage - addr % kHugePage) % kHugePage);
        if (base > raw) ::munmap(raw, static_cast<std::size_t>(base - raw));
        const std::size_t tail = static_cast<std::size_t>((raw + map) - (base + want));
        if (tail > 0) ::munmap(base + want, tail);
#ifdef MADV_HUGEPAGE
        (void)::madvise(base, want, MADV_HUGEPAGE);  // a request; the kernel may decline
#endif
    }
#ifdef MADV_POPULATE_WRITE
    // Linux ≥ 5.14; elsewhere the pages fault in as they are written, as before.
    (void)::madvise(base, want, MADV_POPULATE_WRITE);
#endif
    base_ = base;
    bytes_ = want;
}

SampleArena::~SampleArena() {
    if (base_ != nullptr) ::munmap(base_, bytes_);
}

void* SampleArena::take(std::size_t bytes, std::size_t align) noexcept {
    if (base_ == nullptr || align == 0) return nullptr;
    const std::size_t start = (used_ + align - 1) / align * align;
    if (start > bytes_ || bytes > bytes_ - start) return nullptr;
    used_ = start + bytes;
    return base_ + start;
}

bool SampleArena::owns(const void* p) const noexcept {
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    const auto b = reinterpret_cast<std::uintptr_t>(base_);
    return base_ != nullptr && a >= b && a < b + bytes_;
}

}  // namespace dctwin
