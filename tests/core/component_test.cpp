// Port declaration: the checked add* overloads tie a component's index constants to the order in
// which it declares its ports, so a mismatch fails at construction instead of silently feeding
// one quantity into another.
#include "core/component.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "core/errors.h"

namespace dctwin {
namespace {

/// Two inputs, one state, two outputs, each declared against its constant. `swap_inputs`
/// declares the inputs in the wrong order, as a hand edit that moves a line would.
class Heater : public Component {
public:
    enum State : std::size_t { kTemp };
    enum Input : std::size_t { kPower, kAmbient };
    enum Output : std::size_t { kTempOut, kLoss };

    Heater(std::string name, bool swap_inputs) : Component(std::move(name)) {
        addState(kTemp, {"temp", "K", 300.0, 300.0, "body temperature"});
        if (swap_inputs) {
            addInput(kAmbient, {"ambient_temp", "K", 300.0, 300.0, "surroundings"});
            addInput(kPower, {"power", "W", 1e3, 0.0, "heat input"});
        } else {
            addInput(kPower, {"power", "W", 1e3, 0.0, "heat input"});
            addInput(kAmbient, {"ambient_temp", "K", 300.0, 300.0, "surroundings"});
        }
        addOutput(kTempOut, {"temp", "K", 300.0, 0.0, "body temperature"});
        addOutput(kLoss, {"loss", "W", 1e3, 0.0, "heat to the surroundings"});
    }
    void computeOutputs(double, std::span<const double> x, std::span<const double> u,
                        std::span<double> y) const override {
        y[kTempOut] = x[kTemp];
        y[kLoss] = 10.0 * (x[kTemp] - u[kAmbient]);
    }
};

/// A state declared after its constant says it should be: the second state claims index 0.
class DoubleState : public Component {
public:
    explicit DoubleState(std::string name) : Component(std::move(name)) {
        addState(0, {"a", "1", 1.0, 0.0});
        addState(0, {"b", "1", 1.0, 0.0});
    }
    void computeOutputs(double, std::span<const double>, std::span<const double>,
                        std::span<double>) const override {}
};

std::string modelErrorOf(auto&& make) {
    try {
        make();
    } catch (const ModelError& e) {
        return e.what();
    }
    ADD_FAILURE() << "expected a ModelError";
    return {};
}

TEST(Component, PortsDeclaredInConstantOrderAreAccepted) {
    const Heater h("heater", false);
    EXPECT_EQ(h.inputIndex("power"), static_cast<std::size_t>(Heater::kPower));
    EXPECT_EQ(h.inputIndex("ambient_temp"), static_cast<std::size_t>(Heater::kAmbient));
    EXPECT_EQ(h.outputIndex("loss"), static_cast<std::size_t>(Heater::kLoss));
    EXPECT_EQ(h.stateIndex("temp"), static_cast<std::size_t>(Heater::kTemp));
}

TEST(Component, MisorderedDeclarationNamesComponentPortAndBothIndices) {
    const std::string msg = modelErrorOf([] { const Heater h("heater", true); });
    // The first misplaced port: 'ambient_temp' lands at 0 while its constant says 1.
    EXPECT_NE(msg.find("component 'heater'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("input 'ambient_temp'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("declared as input 0"), std::string::npos) << msg;
    EXPECT_NE(msg.find("index constant is 1"), std::string::npos) << msg;

    const std::string state = modelErrorOf([] { const DoubleState d("d"); });
    EXPECT_NE(state.find("state 'b' is declared as state 1 but its index constant is 0"),
              std::string::npos)
        << state;
}

TEST(Component, UnknownPortNameListsTheValidOnes) {
    const Heater h("heater", false);
    EXPECT_EQ(modelErrorOf([&] { (void)h.inputIndex("powr"); }),
              "component 'heater' has no input 'powr'; its inputs are: power, ambient_temp");
    EXPECT_EQ(modelErrorOf([&] { (void)h.outputIndex("temp_out"); }),
              "component 'heater' has no output 'temp_out'; its outputs are: temp, loss");
    EXPECT_EQ(modelErrorOf([&] { (void)h.stateIndex("T"); }),
              "component 'heater' has no state 'T'; its states are: temp");
}

/// n inputs in0..in{n-1} (a site-wide sum has one per rack), then a duplicate if asked.
class WideSum : public Component {
public:
    WideSum(std::size_t n, std::optional<std::size_t> repeat) : Component("sum") {
        for (std::size_t i = 0; i < n; ++i) addInput({"in" + std::to_string(i), "W", 1.0, 0.0});
        if (repeat) addInput({"in" + std::to_string(*repeat), "W", 1.0, 0.0});
        addOutput({"value", "W", 1.0, 0.0});
    }
    void computeOutputs(double, std::span<const double>, std::span<const double>,
                        std::span<double>) const override {}
};

TEST(Component, ManyPortsAreFoundAndDuplicatesRejectedOnEitherSideOfTheIndex) {
    // Past a few dozen ports of a kind the names are looked up through an index; the answers
    // must be those of the linear search below it, at every size around the switch.
    for (std::size_t n : {1u, 31u, 32u, 33u, 500u}) {
        const WideSum w(n, std::nullopt);
        for (std::size_t i = 0; i < n; ++i) {
            ASSERT_EQ(w.inputIndex("in" + std::to_string(i)), i) << n;
        }
        EXPECT_EQ(w.outputIndex("value"), 0u);
        const std::string missing =
            modelErrorOf([&] { (void)w.inputIndex("in" + std::to_string(n)); });
        EXPECT_EQ(missing.rfind("component 'sum' has no input 'in" + std::to_string(n) +
                                    "'; its inputs are: in0",
                                0),
                  0u)
            << missing;
        // A repeated name is refused whether the first one sits before or after the switch.
        for (std::size_t r : {std::size_t{0}, n - 1}) {
            EXPECT_EQ(modelErrorOf([&] { const WideSum d(n, r); }),
                      "component 'sum' declares input 'in" + std::to_string(r) + "' twice")
                << n << " " << r;
        }
    }
}

}  // namespace
}  // namespace dctwin
