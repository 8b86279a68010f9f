#pragma once
// sharedValue(v): one read-only copy of each distinct value alive in the process.
//
// Why: a campus model holds thousands of components built from the same few constants (the
// weights of a CDU's return mixer, an inference service's daily shape). An evaluation reads
// every component, and a copy per component is a cache miss per component (issue 12: ~3 % of
// a year of 5,560 distinct racks waited on the mixers' weights alone). Values that compare
// equal share one copy, which stays in cache.
//
// The pool holds weak references: a value lives while a holder does. Thread-safe (model
// building may run on several threads of a sweep). T needs operator<.
#include <bit>
#include <map>
#include <memory>
#include <mutex>

namespace dctwin {

template <class T>
std::shared_ptr<const T> sharedValue(T value) {
    static std::mutex mutex;
    static std::map<T, std::weak_ptr<const T>> pool;
    const std::lock_guard<std::mutex> lock(mutex);
    // Values no one holds any longer are forgotten once in a while, so a long session that
    // builds many different models does not keep their keys.
    if (pool.size() >= 256 && std::has_single_bit(pool.size())) {
        std::erase_if(pool, [](const auto& entry) { return entry.second.expired(); });
    }
    std::weak_ptr<const T>& slot = pool[value];
    if (auto shared = slot.lock()) return shared;
    auto shared = std::make_shared<const T>(std::move(value));
    slot = shared;
    return shared;
}

}  // namespace dctwin
