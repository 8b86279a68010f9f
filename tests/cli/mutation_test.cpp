// Issue 14: a deterministic mutation test of the scenario input layer. Every shipped scenario
// (scenarios/*.json that is not a sweep) is mutated a few thousand times with a seeded PRNG —
// deleted keys, unknown keys, changed types, extreme, fractional and huge numbers, empty
// containers, long strings, deep nesting, swapped values, near-miss names, and at the text level
// non-UTF-8 bytes, truncation and out-of-range numbers — and each mutant goes through what
// `dctwin validate` does (parseJson → facility::parseScenario → facility::validateModel).
//
// Each mutant runs in a forked child, so a crash is caught and reported with the mutation
// that caused it instead of taking the suite down, and a mutant that makes validation slow is
// stopped by an alarm. The assertion: success, or an InputError/ModelError whose message says
// where (a JSON path of the scenario, the file name or the weather/trace file) — never a
// signal, never a timeout, never another exception type.
//
// Environment: DCTWIN_MUTATIONS (default 800, under a minute in Release; 150 in the sanitizer
// build, where a mutant costs ~1.2 s: 400 took 496 s of CI's 45 minutes), DCTWIN_MUTATION_SEED
// (default 14), DCTWIN_MUTATION_TIMEOUT_S (per mutant, default 60). The counts are printed at the
// end.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <typeinfo>
#include <vector>

#include "core/errors.h"
#include "core/json.h"
#include "facility/scenario.h"
#include "facility/twin.h"

namespace {

namespace fs = std::filesystem;
using dctwin::Json;

const fs::path kSource = DCTWIN_SOURCE_DIR;

long envLong(const char* name, long fallback) {
    const char* v = std::getenv(name);
    if (!v || !*v) return fallback;
    char* end = nullptr;
    const long x = std::strtol(v, &end, 10);
    return end && *end == '\0' && x >= 0 ? x : fallback;
}

/// splitmix64: the same sequence on every platform and standard library (std distributions
/// are not specified bit for bit), so a failure is reproducible from its case number.
class Rng {
public:
    explicit Rng(std::uint64_t seed) : s_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (s_ += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(next() % n); }
    bool chance(int percent) { return below(100) < static_cast<std::size_t>(percent); }

private:
    std::uint64_t s_;
};

/// Every JSON pointer in `j` (not the root), parents before children.
void pointers(const Json& j, const std::string& at, std::vector<std::string>& out) {
    if (j.is_object()) {
        for (const auto& item : j.items()) {
            std::string key;
            for (char c : item.key()) key += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
            std::string here = at + "/" + key;  // not out.back(): out grows below
            out.push_back(here);
            pointers(item.value(), here, out);
        }
    } else if (j.is_array()) {
        for (std::size_t i = 0; i < j.size(); ++i) {
            std::string here = at + "/" + std::to_string(i);
            out.push_back(here);
            pointers(j[i], here, out);
        }
    }
}

const std::vector<Json>& extremeNumbers() {
    static const std::vector<Json> v = {0,
                                        -1,
                                        0.5,
                                        1.5,
                                        -0.5,
                                        1e-300,
                                        1e300,
                                        -1e300,
                                        1.7976931348623157e308,
                                        2147483647,
                                        2147483648LL,
                                        4294967296LL,
                                        4294967297LL,
                                        4294967304LL,
                                        -2147483649LL,
                                        9007199254740993LL,
                                        std::numeric_limits<std::int64_t>::max(),
                                        std::numeric_limits<std::int64_t>::min(),
                                        std::numeric_limits<std::uint64_t>::max(),
                                        1e19,
                                        1000,
                                        1e6,
                                        1e9,
                                        -300,
                                        -273.15,
                                        1e-9,
                                        100000,
                                        65535,
                                        3};
    return v;
}

Json randomValue(Rng& rng) {
    switch (rng.below(9)) {
        case 0:
            return nullptr;
        case 1:
            return rng.chance(50);
        case 2:
            return extremeNumbers()[rng.below(extremeNumbers().size())];
        case 3:
            return "";
        case 4:
            return "x";
        case 5:
            return Json::array();
        case 6:
            return Json::object();
        case 7:
            return Json::array({1, "a", nullptr});
        default:
            return Json{{"model", "gb300_nvl72"}, {"count", 1}};
    }
}

std::string longString(Rng& rng) {
    const std::size_t n = rng.chance(10) ? 1'000'000 : 100'000;
    return std::string(n, static_cast<char>('a' + rng.below(26)));
}

Json deepValue(Rng& rng) {
    // Beyond the parser's limit (256) or just inside it.
    const std::size_t depth = rng.chance(50) ? 300 : 200;
    Json v = 1;
    for (std::size_t i = 0; i < depth; ++i) v = rng.chance(50) ? Json::array({v}) : Json{{"a", v}};
    return v;
}

std::string nearMiss(const std::string& s, Rng& rng) {
    switch (rng.below(5)) {
        case 0:
            return s.empty() ? "?" : s.substr(0, s.size() - 1);
        case 1:
            return s + "_x";
        case 2:
            return "";
        case 3:
            return "../../../../etc/passwd";
        default: {
            std::string u = s;
            std::transform(u.begin(), u.end(), u.begin(), ::toupper);
            return u + "\u00e9";
        }
    }
}

/// Applies one structural mutation to `doc`; returns a description.
std::string mutateDom(Json& doc, Rng& rng) {
    std::vector<std::string> all;
    pointers(doc, "", all);
    if (all.empty()) return "empty document";
    const std::string p = all[rng.below(all.size())];
    const Json::json_pointer ptr(p);
    Json& v = doc[ptr];
    const Json::json_pointer parent_ptr = ptr.parent_pointer();
    Json& parent = doc[parent_ptr];
    const int op = static_cast<int>(rng.below(11));
    switch (op) {
        case 0: {  // delete
            if (parent.is_object()) {
                parent.erase(ptr.back());
            } else if (parent.is_array()) {
                parent.erase(parent.begin() + std::stol(ptr.back()));
            }
            return "delete " + p;
        }
        case 1: {  // unknown key in the nearest object
            Json& obj = v.is_object() ? v : parent;
            if (!obj.is_object()) return "no-op";
            obj["unknown_key_" + std::to_string(rng.below(1000))] = randomValue(rng);
            return "unknown key in " + (v.is_object() ? p : parent_ptr.to_string());
        }
        case 2: {  // another type
            Json r = randomValue(rng);
            while (r.type() == v.type() && !v.is_null()) r = randomValue(rng);
            v = r;
            return "type change at " + p + " to " + r.dump().substr(0, 40);
        }
        case 3: {  // extreme number
            v = extremeNumbers()[rng.below(extremeNumbers().size())];
            return "extreme number at " + p + ": " + v.dump();
        }
        case 4: {  // fractional where a number was, or double it
            if (v.is_number()) {
                v = v.get<double>() + 0.5;
                return "fractional at " + p;
            }
            v = 2.5;
            return "fraction 2.5 at " + p;
        }
        case 5: {  // empty container
            v = rng.chance(50) ? Json::array() : Json::object();
            return "empty container at " + p;
        }
        case 6: {  // long string
            v = longString(rng);
            return "long string at " + p;
        }
        case 7: {  // deep nesting
            v = deepValue(rng);
            return "deep nesting at " + p;
        }
        case 8: {  // grow an array (duplicates: two events, two rack kinds, ...)
            Json& arr = v.is_array() ? v : parent;
            if (!arr.is_array() || arr.empty()) return "no-op";
            const std::size_t copies = rng.chance(20) ? 200 : 1;
            const Json first = arr.front();
            for (std::size_t k = 0; k < copies; ++k) arr.push_back(first);
            return "grow array near " + p;
        }
        case 9: {  // value from elsewhere in the document
            const std::string q = all[rng.below(all.size())];
            if (q.rfind(p, 0) == 0 || p.rfind(q, 0) == 0) return "no-op";
            v = Json(doc[Json::json_pointer(q)]);
            return "value of " + q + " at " + p;
        }
        default: {  // near-miss string (names, choices, paths)
            if (!v.is_string()) {
                v = nearMiss(v.dump(), rng);
            } else {
                v = nearMiss(v.get<std::string>(), rng);
            }
            return "near-miss string at " + p;
        }
    }
}

/// Text-level mutations of the serialized document.
std::string mutateText(std::string& text, Rng& rng) {
    switch (rng.below(4)) {
        case 0: {  // a non-UTF-8 byte inside a string
            std::vector<std::size_t> quotes;
            for (std::size_t i = 0; i < text.size(); ++i) {
                if (text[i] == '"') quotes.push_back(i);
            }
            if (quotes.empty()) return "no-op";
            const std::size_t at = quotes[rng.below(quotes.size())] + 1;
            const char bytes[] = {'\xFF', '\xC3', '\x80', '\xE9', '\xF8'};
            text.insert(at, 1, bytes[rng.below(sizeof bytes)]);
            return "non-UTF-8 byte at offset " + std::to_string(at);
        }
        case 1: {  // truncated
            const std::size_t at = rng.below(text.size());
            text.resize(at);
            return "truncated at " + std::to_string(at);
        }
        default: {  // a number token out of range or huge
            std::vector<std::size_t> digits;
            for (std::size_t i = 1; i < text.size(); ++i) {
                if (std::isdigit(static_cast<unsigned char>(text[i])) &&
                    (text[i - 1] == ' ' || text[i - 1] == ':' || text[i - 1] == '[')) {
                    digits.push_back(i);
                }
            }
            if (digits.empty()) return "no-op";
            const std::size_t at = digits[rng.below(digits.size())];
            const char* repl[] = {"1e400", "-1e400", "99999999999999999999999", "1e-400"};
            const std::string r = repl[rng.below(4)];
            std::size_t end = at;
            while (end < text.size() &&
                   (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == '.' ||
                    text[end] == 'e' || text[end] == '-' || text[end] == '+')) {
                ++end;
            }
            text.replace(at, end - at, r);
            return "number " + r + " at offset " + std::to_string(at);
        }
    }
}

enum class Kind {
    ok,
    input_error,
    model_error,
    known_path_lookup,
    unlocated,
    other_exception,
    crash,
    timeout
};

const char* kindName(Kind k) {
    switch (k) {
        case Kind::ok:
            return "valid";
        case Kind::input_error:
            return "InputError";
        case Kind::model_error:
            return "ModelError";
        case Kind::known_path_lookup:
            return "known: filesystem_error for a too-long data path";
        case Kind::unlocated:
            return "error without a location";
        case Kind::other_exception:
            return "other exception";
        case Kind::crash:
            return "crash";
        case Kind::timeout:
            return "timeout";
    }
    return "?";
}

/// Whether an error message says where the problem is: the file, a JSON path of one of the
/// scenario's sections, or the weather or trace file it read.
bool saysWhere(const std::string& msg) {
    if (msg.find("mutant.json") != std::string::npos) return true;
    if (!msg.empty() && msg.front() == '/') return true;
    for (const char* s : {"/name", "/description", "/site", "/it", "/workload", "/power",
                          "/cooling", "/study", "/events", ".epw", ".csv", ".txt"}) {
        if (msg.find(s) != std::string::npos) return true;
    }
    return false;
}

struct Outcome {
    Kind kind = Kind::ok;
    std::string message;
};

/// What `dctwin validate` does, in a forked child with an alarm.
Outcome validateIsolated(const std::string& text, const fs::path& base_dir, int timeout_s) {
    int fd[2];
    if (::pipe(fd) != 0) return {Kind::other_exception, "pipe failed"};
    const pid_t pid = ::fork();
    if (pid < 0) return {Kind::other_exception, "fork failed"};
    if (pid == 0) {
        ::close(fd[0]);
        ::alarm(static_cast<unsigned>(timeout_s));
        std::string out;
        try {
            const Json j = dctwin::parseJson(text, "mutant.json");
            const dctwin::facility::ScenarioSpec s =
                dctwin::facility::parseScenario(j, base_dir, "mutant.json");
            dctwin::facility::validateModel(s);
            out = "0";
        } catch (const dctwin::InputError& e) {
            out = std::string("1") + e.what();
        } catch (const dctwin::ModelError& e) {
            out = std::string("2") + e.what();
        } catch (const std::filesystem::filesystem_error& e) {
            // A data path the system cannot look up is an InputError at its JSON path
            // (facility::resolveDataPath); a filesystem_error reaching here is a defect.
            out = std::string("4") + "filesystem_error: " + e.what();
        } catch (const std::exception& e) {
            out = std::string("4") + typeid(e).name() + ": " + e.what();
        } catch (...) {
            out = "4unknown exception";
        }
        out.resize(std::min<std::size_t>(out.size(), 4000));
        std::size_t done = 0;
        while (done < out.size()) {
            const ssize_t n = ::write(fd[1], out.data() + done, out.size() - done);
            if (n <= 0) break;
            done += static_cast<std::size_t>(n);
        }
        ::close(fd[1]);
        ::_exit(0);  // no atexit handlers, no gtest teardown in the child
    }
    ::close(fd[1]);
    std::string got;
    char buf[4096];
    ssize_t n;
    while ((n = ::read(fd[0], buf, sizeof buf)) > 0) got.append(buf, static_cast<std::size_t>(n));
    ::close(fd[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (WIFSIGNALED(status)) {
        if (WTERMSIG(status) == SIGALRM) return {Kind::timeout, ""};
        return {Kind::crash, "signal " + std::to_string(WTERMSIG(status))};
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || got.empty()) {
        return {Kind::crash, "exit status " + std::to_string(WEXITSTATUS(status))};
    }
    Outcome o;
    o.message = got.substr(1);
    switch (got[0]) {
        case '0':
            o.kind = Kind::ok;
            break;
        case '1':
            o.kind = saysWhere(o.message) ? Kind::input_error : Kind::unlocated;
            break;
        case '2':
            o.kind = saysWhere(o.message) ? Kind::model_error : Kind::unlocated;
            break;
        case '3':
            o.kind = Kind::known_path_lookup;
            break;
        default:
            o.kind = Kind::other_exception;
            break;
    }
    return o;
}

TEST(MutationTest, ShippedScenariosUnderMutationNeverCrashAndAlwaysSayWhere) {
#if defined(__SANITIZE_ADDRESS__)
    constexpr long kDefaultMutants = 150;  // ASan + UBSan: ~1.2 s per mutant (CI, 2 cores)
#else
    constexpr long kDefaultMutants = 800;
#endif
    const long total = envLong("DCTWIN_MUTATIONS", kDefaultMutants);
    const auto seed = static_cast<std::uint64_t>(envLong("DCTWIN_MUTATION_SEED", 14));
    const int timeout_s = static_cast<int>(envLong("DCTWIN_MUTATION_TIMEOUT_S", 60));

    std::vector<std::pair<fs::path, Json>> scenarios;
    for (const auto& e : fs::directory_iterator(kSource / "scenarios")) {
        if (e.path().extension() != ".json") continue;
        Json j = dctwin::readJsonFile(e.path());
        if (j.contains("base")) continue;  // a sweep over another scenario
        scenarios.emplace_back(e.path(), std::move(j));
    }
    std::sort(scenarios.begin(), scenarios.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    ASSERT_GE(scenarios.size(), 5u);

    std::map<Kind, long> counts;
    std::map<std::string, long> per_scenario;
    std::vector<std::string> failures;
    const auto start = std::chrono::steady_clock::now();
    for (long i = 0; i < total; ++i) {
        Rng rng(seed * 1'000'003ULL + static_cast<std::uint64_t>(i));
        const auto& [file, original] = scenarios[static_cast<std::size_t>(i) % scenarios.size()];
        Json doc = original;
        std::string what;
        const std::size_t n = 1 + rng.below(2);
        for (std::size_t k = 0; k < n; ++k) what += (k ? "; " : "") + mutateDom(doc, rng);
        std::string text = doc.dump(2);
        if (rng.chance(15)) what += "; " + mutateText(text, rng);

        const Outcome o = validateIsolated(text, kSource / "scenarios", timeout_s);
        ++counts[o.kind];
        ++per_scenario[file.filename().string()];
        if (o.kind == Kind::crash || o.kind == Kind::timeout || o.kind == Kind::unlocated ||
            o.kind == Kind::other_exception) {
            failures.push_back(fmt::format("case {} ({}; {}): {}: {}", i, file.filename().string(),
                                           what, kindName(o.kind),
                                           dctwin::quoteValue(o.message, 300)));
        }
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    std::string report = fmt::format("{} mutants (seed {}) of {} scenarios in {:.1f} s:", total,
                                     seed, scenarios.size(), seconds);
    for (const auto& [k, c] : counts) report += fmt::format(" {} {},", kindName(k), c);
    report.pop_back();
    std::cout << report << "\n";
    for (const auto& [f, c] : per_scenario) std::cout << "  " << f << ": " << c << "\n";
    RecordProperty("mutants", static_cast<int>(total));
    RecordProperty("seconds", static_cast<int>(seconds));

    for (const auto& f : failures) ADD_FAILURE() << f;
    EXPECT_EQ(counts[Kind::crash], 0);
    EXPECT_EQ(counts[Kind::timeout], 0);
}

}  // namespace
