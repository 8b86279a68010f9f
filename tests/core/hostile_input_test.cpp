// Issue 14, core part: hostile JSON never crashes and never passes silently. Each test first
// rebuilds the reported case (60,000 nested objects, 1e400, non-UTF-8 bytes, a 1,000,000-
// character value, integers at or above 2^32) and expects an InputError naming where.
#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "core/errors.h"
#include "core/json.h"
#include "tests/common/expect_error.h"

namespace dctwin {
namespace {

using dctwin::test::inputErrorOf;

std::string nested(std::size_t depth, const std::string& open, const std::string& close) {
    std::string s;
    for (std::size_t i = 0; i < depth; ++i) s += open;
    s += "1";
    for (std::size_t i = 0; i < depth; ++i) s += close;
    return s;
}

TEST(HostileJson, SixtyThousandNestedObjectsAreRejectedWithPosition) {
    // The reported crash: a value nested 60,000 objects deep overflowed the stack when the
    // scenario was copied. The parser must stop at the limit, before building anything.
    const std::string text =
        "{\n  \"name\": \"x\",\n  \"deep\": " + nested(60000, "{\"a\": ", "}") + "\n}";
    const std::string msg = inputErrorOf([&] { parseJson(text, "deep.json"); });
    EXPECT_NE(msg.find("deep.json:3:"), std::string::npos) << msg;
    EXPECT_NE(msg.find("nested more than 256 levels"), std::string::npos) << msg;
    // Arrays count the same as objects.
    EXPECT_NE(
        inputErrorOf([&] { parseJson(nested(60000, "[", "]"), "a.json"); }).find("a.json:1:257"),
        std::string::npos);
}

TEST(HostileJson, NestingUpToTheLimitParses) {
    // The root object is level 1: kMaxJsonDepth levels in all are accepted, one more is not.
    EXPECT_NO_THROW(parseJson(nested(kMaxJsonDepth, "[", "]"), "ok.json"));
    EXPECT_THROW(parseJson(nested(kMaxJsonDepth + 1, "[", "]"), "bad.json"), InputError);
    // Brackets inside strings are not nesting.
    EXPECT_NO_THROW(parseJson("{\"a\": \"" + std::string(1000, '[') + "\"}", "s.json"));
}

TEST(HostileJson, NumberOverflowIsAnInputErrorWithLineAndText) {
    // Reported: "failed: [json.exception.out_of_range.406] number overflow parsing '1e400'",
    // exit 1. Now an input error naming file, line and the number.
    const std::string msg =
        inputErrorOf([] { parseJson("{\n\"a\": 1,\n\"b\": 1e400\n}", "big.json"); });
    EXPECT_NE(msg.find("big.json:3:"), std::string::npos) << msg;
    EXPECT_NE(msg.find("1e400"), std::string::npos) << msg;
    EXPECT_NE(msg.find("out of range"), std::string::npos) << msg;
    EXPECT_EQ(msg.find("json.exception"), std::string::npos) << msg;
    // A negative one and a huge integer literal (which nlohmann reads as a double) as well.
    EXPECT_THROW(parseJson("[-1e999]", "x"), InputError);
    EXPECT_NO_THROW(parseJson("[123456789012345678901234567890]", "x"));
}

TEST(HostileJson, NonUtf8TextIsAClearInputError) {
    const std::string msg =
        inputErrorOf([] { parseJson("{\"name\": \"caf\xE9\"}", "latin1.json"); });
    EXPECT_NE(msg.find("latin1.json:1:"), std::string::npos) << msg;
    EXPECT_NE(msg.find("not valid UTF-8"), std::string::npos) << msg;
    // The message itself stays printable: no raw byte is echoed.
    for (unsigned char c : msg) EXPECT_TRUE(c != 0xE9) << msg;
    // Stray bytes outside strings are a syntax error, also without raw bytes in the message.
    const std::string stray = inputErrorOf([] { parseJson("{\"a\": \xFF}", "s.json"); });
    EXPECT_NE(stray.find("s.json:1:"), std::string::npos) << stray;
    EXPECT_EQ(stray.find('\xFF'), std::string::npos) << stray;
}

TEST(HostileJson, DuplicateKeysAreStillRejected) {
    const std::string msg =
        inputErrorOf([] { parseJson(R"({"a": 1, "b": {"c": 1, "c": 2}})", "d"); });
    EXPECT_NE(msg.find("'c' appears more than once"), std::string::npos) << msg;
    EXPECT_NO_THROW(parseJson(R"({"a": {"c": 1}, "b": {"c": 2}})", "d"));
}

TEST(HostileJson, UnterminatedHugeStringGivesAShortMessage) {
    const std::string text = "{\"a\": \"" + std::string(1'000'000, 'x');
    const std::string msg = inputErrorOf([&] { parseJson(text, "u.json"); });
    EXPECT_NE(msg.find("u.json:1:"), std::string::npos);
    EXPECT_LT(msg.size(), 400u) << msg.substr(0, 400);
}

TEST(HostileJson, LongValuesAreQuotedTruncated) {
    // Reported: a 1,000,000-character value echoed in full.
    const Json j = {{"model", std::string(1'000'000, 'q')}, {"n", std::string(1'000'000, 'n')}};
    const JsonView v(j, "/power/ups");
    const std::string choice = inputErrorOf([&] { v.choice("model", {"a", "b"}); });
    EXPECT_NE(choice.find("/power/ups/model"), std::string::npos);
    EXPECT_NE(choice.find("… (1000000 characters)"), std::string::npos) << choice.substr(0, 300);
    EXPECT_LT(choice.size(), 300u);
    const std::string type = inputErrorOf([&] { v.number("n"); });
    EXPECT_NE(type.find("/power/ups/n: expected a number"), std::string::npos);
    EXPECT_LT(type.size(), 300u);
    // Unknown keys too; and the nearest-name search stays fast for such a key.
    const Json k = {{std::string(1'000'000, 'k'), 1}};
    const std::string key = inputErrorOf([&] { JsonView(k, "/site").checkKeys({"weather"}); });
    EXPECT_NE(key.find("/site: unknown key"), std::string::npos);
    EXPECT_LT(key.size(), 300u);
}

TEST(HostileJson, QuoteValueKeepsUtf8CharactersWhole) {
    EXPECT_EQ(quoteValue("short"), "short");
    const std::string s = std::string(79, 'a') + "°C" + std::string(100, 'b');  // ° is 2 bytes
    const std::string q = quoteValue(s);
    EXPECT_EQ(q.substr(0, 79), std::string(79, 'a'));
    EXPECT_EQ(q.substr(79, 4), "… ") << q;  // the cut backs up over the split "°"
    EXPECT_NE(q.find("(" + std::to_string(s.size()) + " characters)"), std::string::npos);
}

TEST(HostileJson, IntegersAtOrAbove2To32DoNotWrapWhenNarrowed) {
    // Reported: racks_per_cdu 4294967304 ran as 8, cdu 4294967296 hit CDU 0, pumps 4294967297
    // became 1: callers did static_cast<int>(v.integer(...)).
    const Json j = {{"racks_per_cdu", 4294967304LL},
                    {"cdu", 4294967296LL},
                    {"pumps", 4294967297LL},
                    {"neg", -4294967296LL},
                    {"ok", 12},
                    {"half", 3.5},
                    {"whole", 8.0},
                    {"huge", 1e19},
                    {"big_int", 2147483648LL},
                    {"max_int", 2147483647LL}};
    const JsonView v(j, "/cooling/cdu");
    for (const char* key : {"racks_per_cdu", "cdu", "pumps", "neg", "big_int"}) {
        const std::string msg = inputErrorOf([&] { (void)static_cast<int>(v.integer(key)); });
        EXPECT_NE(msg.find(std::string("/cooling/cdu/") + key), std::string::npos) << msg;
    }
    EXPECT_EQ(static_cast<int>(v.integer("max_int")), 2147483647);
    EXPECT_EQ(static_cast<int>(v.integer("ok")), 12);
    EXPECT_EQ(static_cast<int>(v.integer("absent", 7)), 7);
    // The 64-bit value stays available without narrowing.
    EXPECT_EQ(static_cast<std::int64_t>(v.integer("racks_per_cdu")), 4294967304LL);
    // Fractional and out-of-int64 numbers are not integers at all.
    EXPECT_NE(inputErrorOf([&] { (void)v.integer("half"); }).find("expected an integer"),
              std::string::npos);
    EXPECT_NE(inputErrorOf([&] { (void)v.integer("huge"); }).find("expected an integer"),
              std::string::npos);
    EXPECT_EQ(static_cast<int>(v.integer("whole")), 8);
}

TEST(HostileJson, CountChecksTheRangeTheModelAllows) {
    const Json j = {
        {"units", 4294967297LL}, {"zero", 0}, {"four", 4}, {"frac", 2.5}, {"text", "4"}};
    const JsonView v(j, "/cooling/heat_rejection");
    EXPECT_EQ(v.count("four", 1, 100), 4);
    EXPECT_EQ(v.count("absent", 1, 100, 9), 9);
    const std::string big = inputErrorOf([&] { v.count("units", 1, 1000); });
    EXPECT_NE(big.find("/cooling/heat_rejection/units: value 4294967297 is out of range; "
                       "expected a whole number between 1 and 1000"),
              std::string::npos)
        << big;
    EXPECT_NE(inputErrorOf([&] { v.count("zero", 1, 1000); }).find("between 1 and 1000"),
              std::string::npos);
    EXPECT_NE(inputErrorOf([&] { v.count("frac", 1, 1000); }).find("expected an integer"),
              std::string::npos);
    EXPECT_NE(inputErrorOf([&] { v.count("text", 1, 1000, 1); }).find("expected an integer"),
              std::string::npos);
}

TEST(HostileJson, RangeMessageDoesNotShowAValueEqualToItsBound) {
    // Reported: "max_W: value 50 is out of range; expected between 50 and 100000".
    const Json j = {{"max_W", 49.99999999}};
    const JsonView v(j, "/workload/jobs/0");
    const std::string msg = inputErrorOf([&] { v.requireRange("max_W", 49.99999999, 50, 1e5); });
    EXPECT_EQ(msg.find("value 50 is out of range"), std::string::npos) << msg;
    EXPECT_NE(msg.find("49.99999999"), std::string::npos) << msg;
}

}  // namespace
}  // namespace dctwin
