// ObjectSpec / SpecReader: one declaration checks a file and writes its JSON Schema.
#include "core/object_spec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <string>

#include "core/errors.h"
#include "tests/common/expect_error.h"

namespace dctwin {
namespace {

using dctwin::test::inputErrorOf;

void expectHas(const std::string& msg, std::initializer_list<std::string> fragments) {
    for (const auto& f : fragments) {
        EXPECT_NE(msg.find(f), std::string::npos) << "message '" << msg << "' lacks '" << f << "'";
    }
}

std::shared_ptr<const ObjectSpec> loopSpec() {
    auto s = std::make_shared<ObjectSpec>("a cooling loop");
    s->number("supply_temp_C", "C", 15.0, 45.0, 30.0, "supply temperature")
        .number("duration_s", "s", 0.0, 1e9, std::nullopt, "length", "duration")
        .number("duration_h", "h", 0.0, 1e6, std::nullopt, "length", "duration")
        .integer("pumps", 1, 16, 2, "pumps in parallel")
        .choice("mode", {"fixed", "tracking"}, "fixed", "control mode")
        .boolean("enabled", true, "in service")
        .string("name", std::nullopt, "loop name");
    return s;
}

Json parse(const char* text) { return parseJson(text, "test"); }

TEST(core_ObjectSpec, ReadsValuesDefaultsAndUnits) {
    const auto spec = loopSpec();
    const Json j = parse(R"({"name": "tcs", "supply_temp_C": 35, "duration_h": 2})");
    const SpecReader r(JsonView(j, "/loop"), *spec);
    EXPECT_EQ(r.string("name"), "tcs");
    EXPECT_DOUBLE_EQ(r.number("supply_temp_C"), 35.0);
    EXPECT_DOUBLE_EQ(r.si("supply_temp_C"), 308.15);
    EXPECT_DOUBLE_EQ(r.quantity("duration"), 7200.0);
    EXPECT_EQ(r.presentKey("duration"), "duration_h");
    EXPECT_EQ(r.integer("pumps"), 2);  // the declared default
    EXPECT_EQ(r.count("pumps"), 2);
    EXPECT_EQ(r.string("mode"), "fixed");
    EXPECT_TRUE(r.boolean("enabled"));
}

TEST(core_ObjectSpec, AnOpenObjectPassesOnAKeyThatOnlyBeginsOneOfItsOwn) {
    // An open object hands keys it does not know on (catalog overrides, a lower layer's keys)
    // and refuses only a typo of its own. A key that merely begins one of its own ("supply" of
    // "supply_temp_C") is no typo, although nearestName would suggest the key it begins (the
    // reference scenario's /power/ups was refused as a typo of "ups_mode" that way).
    auto spec = std::make_shared<ObjectSpec>(*loopSpec());
    spec->open([] { return Json::object(); });
    const Json j = parse(R"({"name": "tcs", "supply": 2, "dur": "x"})");
    EXPECT_NO_THROW(SpecReader(JsonView(j, "/loop"), *spec));
    const Json typo = parse(R"({"name": "tcs", "pumsp": 2})");
    expectHas(inputErrorOf([&] { SpecReader(JsonView(typo, "/loop"), *spec); }),
              {"/loop", "unknown key 'pumsp'; did you mean 'pumps'?"});
}

TEST(core_ObjectSpec, UnknownKeyIsNamedWithTheNearestValidKey) {
    const auto spec = loopSpec();
    const Json j = parse(R"({"name": "tcs", "supply_tmp_C": 35})");
    expectHas(inputErrorOf([&] { SpecReader(JsonView(j, "/loop"), *spec); }),
              {"/loop", "supply_tmp_C", "supply_temp_C"});
}

TEST(core_ObjectSpec, RangeErrorNamesPathValueAndRangeInTheKeysUnit) {
    const auto spec = loopSpec();
    const Json j = parse(R"({"name": "tcs", "supply_temp_C": 50})");
    const SpecReader r(JsonView(j, "/cooling/loop"), *spec);
    expectHas(inputErrorOf([&] { r.number("supply_temp_C"); }),
              {"/cooling/loop/supply_temp_C", "50 C", "between 15 C and 45 C"});
    // A 64-bit integer that would wrap when narrowed is out of range, not wrapped.
    const Json big = parse(R"({"name": "tcs", "pumps": 4294967304})");
    const SpecReader rb(JsonView(big, "/loop"), *spec);
    expectHas(inputErrorOf([&] { rb.count("pumps"); }), {"/loop/pumps", "between 1 and 16"});
}

TEST(core_ObjectSpec, ABoundThatReadsPoorlyInItsUnitGivesItsSiEquivalent) {
    // A study's least length is 1 s; in days that is 1.15741e-05, which the message gave
    // alone ("expected between 1.15741e-05 days and 3650 days").
    auto spec = std::make_shared<ObjectSpec>("a study");
    spec->number("days", "days", 1.0 / 86400, 3650, std::nullopt, "length")
        .number("hours", "h", 1.0 / 3600, 87600, std::nullopt, "length")
        .number("share_pct", "pct", 0.125, 99.5, std::nullopt, "a share");
    const Json j = parse(R"({"days": 0, "hours": 0, "share_pct": 100})");
    const SpecReader r(JsonView(j, "/study"), *spec);
    expectHas(inputErrorOf([&] { r.number("days"); }),
              {"expected between 1.15741e-05 days (1 s) and 3650 days"});
    expectHas(inputErrorOf([&] { r.number("hours"); }),
              {"expected between 0.000277778 h (1 s) and 87600 h"});
    // Bounds that read well stay as they are: whole numbers, and four significant digits or
    // fewer (0.125 %); so does one whose SI value is not whole either.
    expectHas(inputErrorOf([&] { r.number("share_pct"); }),
              {"expected between 0.125 pct and 99.5 pct"});
    EXPECT_EQ(boundEquivalent(3650, "days"), "");
    EXPECT_EQ(boundEquivalent(1.0 / 7.0, "days"), "");  // 12342.857... s
    EXPECT_EQ(boundEquivalent(1.0 / 60.0, "min"), " (1 s)");
    EXPECT_EQ(boundEquivalent(1.0 / 86400, "no_such_unit"), "");
}

TEST(core_ObjectSpec, RequiredKeysChoicesAndAlternatives) {
    const auto spec = loopSpec();
    const Json none = parse(R"({})");
    expectHas(inputErrorOf([&] { SpecReader(JsonView(none, "/loop"), *spec); }),
              {"/loop/name", "required"});
    const Json both = parse(R"({"name": "a", "duration_s": 1, "duration_h": 1})");
    expectHas(inputErrorOf([&] { SpecReader(JsonView(both, "/loop"), *spec); }),
              {"/loop", "duration_s", "duration_h", "not both"});
    const Json neither = parse(R"({"name": "a"})");
    const SpecReader rn(JsonView(neither, "/loop"), *spec);
    expectHas(inputErrorOf([&] { rn.quantity("duration"); }), {"duration_s", "duration_h"});
    const Json mode = parse(R"({"name": "a", "mode": "auto"})");
    const SpecReader rm(JsonView(mode, "/loop"), *spec);
    expectHas(inputErrorOf([&] { rm.string("mode"); }), {"/loop/mode", "fixed", "tracking"});
}

TEST(core_ObjectSpec, SchemaShape) {
    const Json s = loopSpec()->schema();
    EXPECT_EQ(s["type"], "object");
    EXPECT_EQ(s["additionalProperties"], false);
    const Json& t = s["properties"]["supply_temp_C"];
    EXPECT_EQ(t["type"], "number");
    EXPECT_EQ(t["minimum"], 15.0);
    EXPECT_EQ(t["maximum"], 45.0);
    EXPECT_EQ(t["default"], 30.0);
    EXPECT_EQ(t["x-unit"], "C");
    EXPECT_EQ(s["properties"]["pumps"]["type"], "integer");
    EXPECT_EQ(s["properties"]["mode"]["enum"], Json::array({"fixed", "tracking"}));
    EXPECT_EQ(s["required"], Json::array({"name"}));
    // At most one of the alternatives: "not both" for the pair.
    ASSERT_TRUE(s.contains("allOf"));
    EXPECT_EQ(s["allOf"][0]["not"]["required"], Json::array({"duration_s", "duration_h"}));
}

std::shared_ptr<const ObjectSpec> jobSpec() {
    auto train = std::make_shared<ObjectSpec>("a training job");
    train->number("period_s", "s", 0.05, 600.0, std::nullopt, "iteration period");
    auto serve = std::make_shared<ObjectSpec>("an inference service");
    serve->number("peak_pct", "pct", 0.0, 100.0, 90.0, "peak utilization");
    auto s = std::make_shared<ObjectSpec>("a job");
    s->string("name", std::nullopt, "job name");
    s->variants("type", {{"training", train}, {"inference", serve}});
    return s;
}

TEST(core_ObjectSpec, VariantsReadEachKindWithItsOwnKeys) {
    const auto spec = jobSpec();
    const Json t = parse(R"({"type": "training", "name": "a", "period_s": 2})");
    const SpecReader rt(JsonView(t, "/jobs/0"), *spec);
    EXPECT_EQ(rt.string("type"), "training");
    EXPECT_EQ(rt.string("name"), "a");  // a common key
    EXPECT_DOUBLE_EQ(rt.number("period_s"), 2.0);
    const Json i = parse(R"({"type": "inference", "name": "b"})");
    const SpecReader ri(JsonView(i, "/jobs/1"), *spec);
    EXPECT_DOUBLE_EQ(ri.number("peak_pct"), 90.0);

    // Another kind's key is unknown here; a bad kind lists the kinds; a kind's required key.
    const Json cross = parse(R"({"type": "inference", "name": "b", "period_s": 2})");
    expectHas(inputErrorOf([&] { SpecReader(JsonView(cross, "/jobs/0"), *spec); }),
              {"/jobs/0", "period_s"});
    const Json bad = parse(R"({"type": "fine-tune", "name": "b"})");
    expectHas(inputErrorOf([&] { SpecReader(JsonView(bad, "/jobs/0"), *spec); }),
              {"/jobs/0/type", "training", "inference"});
    const Json missing = parse(R"({"type": "training", "name": "b"})");
    expectHas(inputErrorOf([&] { SpecReader(JsonView(missing, "/jobs/0"), *spec); }),
              {"/jobs/0/period_s", "required"});
    EXPECT_THROW(std::const_pointer_cast<ObjectSpec>(spec)->boolean("late", true, ""),
                 std::logic_error);
}

TEST(core_ObjectSpec, VariantsSchemaIsOneOfWithConstSelectors) {
    const Json s = jobSpec()->schema();
    EXPECT_EQ(s["required"], Json::array({"type"}));
    EXPECT_EQ(s["properties"]["type"]["enum"], Json::array({"training", "inference"}));
    ASSERT_EQ(s["oneOf"].size(), 2u);
    const Json& t = s["oneOf"][0];
    EXPECT_EQ(t["properties"]["type"]["const"], "training");
    EXPECT_FALSE(t["properties"]["type"].contains("enum"));
    EXPECT_TRUE(t["properties"].contains("name"));
    EXPECT_TRUE(t["properties"].contains("period_s"));
    EXPECT_FALSE(t["properties"].contains("peak_pct"));
    EXPECT_EQ(t["additionalProperties"], false);
    const Json& req = t["required"];
    EXPECT_NE(std::find(req.begin(), req.end(), "type"), req.end());
    EXPECT_NE(std::find(req.begin(), req.end(), "period_s"), req.end());
    EXPECT_EQ(s["oneOf"][1]["properties"]["type"]["const"], "inference");
}

TEST(core_ObjectSpec, VariantsMarkdownListsEveryKindsOwnKeys) {
    // The reference listed the common keys only: a job's type and every key of its kind were
    // missing, so a CSV job list (columns named as the keys) could not be written from it.
    const std::string md = jobSpec()->markdown("/jobs/i");
    auto at = [&](const std::string& s) {
        const std::size_t p = md.find(s);
        EXPECT_NE(p, std::string::npos) << "lacks " << s << "\n" << md;
        return p;
    };
    const std::size_t selector = at("| `type` | string |  | one of: training, inference |");
    const std::size_t training = at("#### `/jobs/i` with `\"type\": \"training\"`");
    const std::size_t period = at("| `period_s` |");
    const std::size_t inference = at("#### `/jobs/i` with `\"type\": \"inference\"`");
    const std::size_t peak = at("| `peak_pct` |");
    EXPECT_LT(at("| `name` |"), selector);
    EXPECT_LT(selector, training);
    EXPECT_LT(training, period);
    EXPECT_LT(period, inference);
    EXPECT_LT(inference, peak);
    // A kind's table holds its own keys only: the common "name" once, the selector once.
    EXPECT_EQ(md.find("| `name` |", at("| `name` |") + 1), std::string::npos);
    EXPECT_EQ(md.find("| `type` |", selector + 1), std::string::npos);
}

TEST(core_ObjectSpec, NumberListsAndMaps) {
    auto spec = std::make_shared<ObjectSpec>("shapes");
    spec->numberList("weekday", "", 0.0, 1.0, 3, std::vector<double>{1, 0.5, 0.25}, "factors")
        .numberMap("shares", "", 0.0, 1.0, false, "name → share");
    const Json none = parse(R"({})");
    const SpecReader r0(JsonView(none, "/w"), *spec);
    EXPECT_EQ(r0.numbers("weekday"), (std::vector<double>{1, 0.5, 0.25}));
    EXPECT_TRUE(r0.numberMap("shares").empty());

    const Json j = parse(R"({"weekday": [0.1, 0.2, 0.3], "shares": {"b": 0.4, "a": 0.6}})");
    const SpecReader r(JsonView(j, "/w"), *spec);
    EXPECT_EQ(r.numbers("weekday"), (std::vector<double>{0.1, 0.2, 0.3}));
    const auto m = r.numberMap("shares");
    ASSERT_EQ(m.size(), 2u);
    EXPECT_EQ(m[0].first, "a");
    EXPECT_DOUBLE_EQ(m[0].second, 0.6);

    const Json short_list = parse(R"({"weekday": [0.1]})");
    expectHas(
        inputErrorOf([&] { SpecReader(JsonView(short_list, "/w"), *spec).numbers("weekday"); }),
        {"/w/weekday", "expected a list of 3 numbers, got 1"});
    const Json high = parse(R"({"weekday": [0.1, 2, 0.3], "shares": {"a": 1.5}})");
    const SpecReader rh(JsonView(high, "/w"), *spec);
    expectHas(inputErrorOf([&] { rh.numbers("weekday"); }), {"/w/weekday/1", "between 0 and 1"});
    expectHas(inputErrorOf([&] { rh.numberMap("shares"); }), {"/w/shares/a", "between 0 and 1"});

    const Json s = spec->schema();
    EXPECT_EQ(s["properties"]["weekday"]["minItems"], 3);
    EXPECT_EQ(s["properties"]["weekday"]["maxItems"], 3);
    EXPECT_EQ(s["properties"]["weekday"]["items"]["maximum"], 1.0);
    EXPECT_EQ(s["properties"]["weekday"]["default"], Json::array({1, 0.5, 0.25}));
    EXPECT_EQ(s["properties"]["shares"]["type"], "object");
    EXPECT_EQ(s["properties"]["shares"]["additionalProperties"]["type"], "number");
    EXPECT_EQ(s["properties"]["shares"]["additionalProperties"]["minimum"], 0.0);
}

}  // namespace
}  // namespace dctwin
