// sharedValue: equal values share one copy while someone holds it; different values do not.
#include "core/shared_value.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

namespace dctwin {
namespace {

TEST(SharedValue, EqualValuesShareOneCopyAndDifferentOnesDoNot) {
    const auto a = sharedValue(std::vector<double>{1, 1, 1});
    const auto b = sharedValue(std::vector<double>{1, 1, 1});
    const auto c = sharedValue(std::vector<double>{1, 1, 2});
    EXPECT_EQ(a.get(), b.get());
    EXPECT_NE(a.get(), c.get());
    EXPECT_EQ(*c, (std::vector<double>{1, 1, 2}));
    // Another type with an equal-looking value is a pool of its own.
    const auto s = sharedValue(std::string("1 1 1"));
    EXPECT_EQ(*s, "1 1 1");
}

TEST(SharedValue, AValueNoOneHoldsIsMadeAgainAndManyValuesStayCorrect) {
    std::weak_ptr<const std::vector<int>> gone;
    {
        const auto a = sharedValue(std::vector<int>{7, 7});
        gone = a;
    }
    EXPECT_TRUE(gone.expired());  // the pool does not keep it alive
    const auto again = sharedValue(std::vector<int>{7, 7});
    EXPECT_EQ(*again, (std::vector<int>{7, 7}));
    // Past the pool's clean-up sizes (256, 512, 1024), with most values released on the way:
    // the ones held still share, and every value reads back as given.
    std::vector<std::shared_ptr<const std::vector<int>>> held;
    for (int i = 0; i < 2000; ++i) {
        auto v = sharedValue(std::vector<int>{i, -i});
        if (i % 10 == 0) held.push_back(v);
    }
    for (std::size_t k = 0; k < held.size(); ++k) {
        const int i = static_cast<int>(10 * k);
        EXPECT_EQ(*held[k], (std::vector<int>{i, -i}));
        EXPECT_EQ(sharedValue(std::vector<int>{i, -i}).get(), held[k].get()) << i;
    }
}

TEST(SharedValue, ThreadsBuildingAtOnceGetOneCopy) {
    // Sweep members build their models on several threads.
    std::vector<std::shared_ptr<const std::vector<double>>> got(8);
    std::vector<std::thread> threads;
    for (std::size_t k = 0; k < got.size(); ++k) {
        threads.emplace_back([&got, k] {
            for (int i = 0; i < 200; ++i) got[k] = sharedValue(std::vector<double>{0.5, 0.25});
        });
    }
    for (auto& t : threads) t.join();
    for (const auto& g : got) {
        EXPECT_EQ(g.get(), got.front().get());
    }
}

}  // namespace
}  // namespace dctwin
