// The Python module `dctwin` (issue 17): load, validate, size and run a scenario given as a
// file or a dict, and step a study with controls (facility/simulation.h). Errors become Python
// exceptions of a small family mirroring core/errors.h, with the JSON path the message names
// as attribute `json_path`.
#include <dlfcn.h>
#include <fmt/format.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "core/data_dir.h"
#include "core/errors.h"
#include "core/json.h"
#include "core/units.h"
#include "dctwin/version.h"
#include "facility/scenario.h"
#include "facility/simulation.h"
#include "facility/twin.h"

namespace py = pybind11;
namespace fs = std::filesystem;
using namespace dctwin;

namespace {

/// Origin of a scenario given as a dict, as error messages name it.
constexpr const char* kDictOrigin = "scenario dict";

/// The JSON path in a loader message "<origin>: /cooling/cdu: unknown key ..." (the form
/// every scenario error has, DESIGN.md §5.1), or nothing.
std::optional<std::string> jsonPathOf(std::string_view msg) {
    for (std::size_t at = msg.find(": /"); at != std::string_view::npos;
         at = msg.find(": /", at + 1)) {
        const std::size_t start = at + 2;
        const std::size_t end = msg.find(':', start);
        if (end == std::string_view::npos) break;
        const std::string_view path = msg.substr(start, end - start);
        // A file path has a dot or a space somewhere ("/tmp/a.json"); a JSON path has neither.
        if (path.find_first_of(" .'\"") == std::string_view::npos) return std::string(path);
    }
    return std::nullopt;
}

// Exception types, created once with the module (handles: they live as long as it does).
py::handle g_error, g_input_error, g_model_error, g_solver_error, g_cancelled_error;

void raise(py::handle type, const char* what) {
    py::object exc = type(what);
    const auto path = jsonPathOf(what);
    exc.attr("json_path") = path ? py::object(py::str(*path)) : py::object(py::none());
    PyErr_SetObject(type.ptr(), exc.ptr());
}

/// Python value (dict, list, str, number, bool, None) → JSON, through the json module so that
/// anything json.dumps accepts is accepted, with its error for anything it does not.
Json toJson(const py::handle& obj) {
    const std::string text = py::module_::import("json").attr("dumps")(obj).cast<std::string>();
    return Json::parse(text);
}

py::object fromJson(const Json& j) { return py::module_::import("json").attr("loads")(j.dump()); }

/// A loaded scenario, shared by the calls that take one.
struct Scenario {
    std::shared_ptr<const facility::ScenarioSpec> spec;
};

/// A scenario from a file path (str or os.PathLike), a dict, or an already loaded Scenario.
std::shared_ptr<const facility::ScenarioSpec> scenarioOf(const py::handle& obj) {
    if (py::isinstance<Scenario>(obj)) return obj.cast<const Scenario&>().spec;
    if (py::isinstance<py::dict>(obj)) {
        Json input = toJson(obj);
        auto spec = std::make_shared<facility::ScenarioSpec>(
            facility::parseScenario(input, fs::current_path(), kDictOrigin));
        return spec;
    }
    if (py::isinstance<py::str>(obj) || py::hasattr(obj, "__fspath__")) {
        const std::string file =
            py::module_::import("os").attr("fsdecode")(obj).cast<std::string>();
        std::error_code ec;
        if (!fs::is_regular_file(file, ec)) {
            throw InputError(
                fmt::format("cannot read scenario file '{}': {}", file,
                            fs::exists(file, ec) ? "not a regular file" : "no such file"));
        }
        return std::make_shared<facility::ScenarioSpec>(facility::loadScenario(file));
    }
    throw py::type_error(
        fmt::format("a scenario is a file path, a dict or a dctwin.Scenario, not {}",
                    py::str(obj.get_type()).cast<std::string>()));
}

py::array_t<double> toArray(std::span<const double> v) {
    py::array_t<double> a(static_cast<py::ssize_t>(v.size()));
    std::copy(v.begin(), v.end(), a.mutable_data());
    return a;
}

/// What run() returns: the summary and the report's series.
struct RunResult {
    py::dict summary;
    py::array_t<double> time;  // [s] since the study start
    std::string start;         // ISO 8601
    py::dict series;           // "group/name" → array
    py::dict units;            // "group/name" → unit
    py::dict descriptions;
};

RunResult runToResult(const facility::ScenarioSpec& spec) {
    facility::RunOutcome r;
    // Ctrl-C cancels a run (a campus year takes minutes): the progress callback, which the
    // study calls as it advances, looks at Python's signal flag and sets the cancel flag.
    std::atomic<bool> cancel{false};
    bool interrupted = false;
    facility::RunControl control;
    control.cancel = &cancel;
    // At most ten looks a second: taking the GIL back waits for whichever Python thread holds
    // it, which must not happen at each of a year's 52,561 output points.
    auto last = std::chrono::steady_clock::now();
    control.progress = [&](double, double) {
        const auto now = std::chrono::steady_clock::now();
        if (now - last < std::chrono::milliseconds(100)) return;
        last = now;
        py::gil_scoped_acquire gil;
        if (PyErr_CheckSignals() != 0) {
            PyErr_Clear();  // raised again below, once the run has unwound
            interrupted = true;
            cancel = true;
        }
    };
    try {
        py::gil_scoped_release nogil;  // a year takes seconds; other Python threads may run
        r = facility::runScenario(spec, control);
    } catch (const CancelledError&) {
        if (!interrupted) throw;
        PyErr_SetNone(PyExc_KeyboardInterrupt);
        throw py::error_already_set();
    }
    RunResult out;
    out.summary = fromJson(r.summary);
    const ResultSet& ts = r.report.timeseries;
    out.time = toArray(ts.time);
    out.start = ts.start_iso8601;
    for (const Channel& c : ts.channels) {
        const std::string key = c.group + "/" + c.name;
        out.series[py::str(key)] = toArray(c.values);
        out.units[py::str(key)] = c.unit;
        out.descriptions[py::str(key)] = c.description;
    }
    return out;
}

using units::celsiusToKelvin;
using units::kelvinToCelsius;

/// The keyword controls of Simulation.advance, in the scenario's own units.
facility::Controls controlsOf(const py::kwargs& kw) {
    facility::Controls c;
    for (const auto& [key, value] : kw) {
        const std::string k = key.cast<std::string>();
        auto number = [&] {
            if (!py::isinstance<py::float_>(value) && !py::isinstance<py::int_>(value)) {
                throw InputError(fmt::format("control {}: expected a number, got {}", k,
                                             py::str(value.get_type()).cast<std::string>()));
            }
            return value.cast<double>();
        };
        if (k == "tcs_supply_temp_C") {
            c.tcs_supply_setpoint = celsiusToKelvin(number());
        } else if (k == "fws_supply_temp_C") {
            c.fws_supply_setpoint = celsiusToKelvin(number());
        } else if (k == "gpu_power_cap_W") {
            c.gpu_power_cap = number();
        } else if (k == "smoothing_floor_pct") {
            c.smoothing_floor_pct = number();
        } else if (k == "cdu_dp_setpoint_kPa") {
            c.cdu_dp_setpoint = number() * 1e3;
        } else if (k == "heat_rejection_fan_limit_pct") {
            c.heat_rejection_fan_limit = number() / 100.0;
        } else if (k == "heat_rejection_units") {
            const double n = number();
            if (n != std::floor(n)) {
                throw InputError(
                    fmt::format("control heat_rejection_units: {} is not a whole "
                                "number of units",
                                n));
            }
            c.heat_rejection_units = static_cast<int>(n);
        } else {
            throw InputError(fmt::format(
                "unknown control '{}'; the controls are tcs_supply_temp_C, fws_supply_temp_C, "
                "gpu_power_cap_W, smoothing_floor_pct, heat_rejection_units, cdu_dp_setpoint_kPa, "
                "heat_rejection_fan_limit_pct",
                k));
        }
    }
    return c;
}

py::dict controlsDict(const facility::Controls& c) {
    py::dict d;
    d["tcs_supply_temp_C"] = kelvinToCelsius(*c.tcs_supply_setpoint);
    d["fws_supply_temp_C"] = kelvinToCelsius(*c.fws_supply_setpoint);
    d["gpu_power_cap_W"] = *c.gpu_power_cap;
    d["smoothing_floor_pct"] = *c.smoothing_floor_pct;
    d["heat_rejection_units"] = *c.heat_rejection_units;
    d["cdu_dp_setpoint_kPa"] = *c.cdu_dp_setpoint / 1e3;
    d["heat_rejection_fan_limit_pct"] = *c.heat_rejection_fan_limit * 100.0;
    return d;
}

/// @brief The data folder of an installed module or of one loaded from a build folder.
///
/// core/data_dir.h looks beside the running executable, which here is python3; so, unless
/// DCTWIN_DATA_DIR says otherwise, the module looks from its own file: first for the
/// installed share folder (`<prefix>/lib/python3/dist-packages` → `<prefix>/share/dctwin`,
/// DCTWIN_PYTHON_TO_SHARE from python/CMakeLists.txt), then for the build folder's
/// CMakeCache.txt (up to three folders up) and the source tree it names, as data_dir.cpp does
/// for an executable.
/// @param module_file absolute path of the loaded extension module
void findDataBesideModule(const fs::path& module_file) {
    const char* env = std::getenv("DCTWIN_DATA_DIR");
    if (env && *env) return;
#ifdef DCTWIN_PYTHON_TO_SHARE
    const fs::path installed =
        (module_file.parent_path() / DCTWIN_PYTHON_TO_SHARE / "data").lexically_normal();
    if (isDataDir(installed)) {
        ::setenv("DCTWIN_DATA_DIR", installed.c_str(), 0);
        return;
    }
#endif
    fs::path dir = module_file.parent_path();
    for (int up = 0; up < 4 && !dir.empty(); ++up, dir = dir.parent_path()) {
        std::ifstream cache(dir / "CMakeCache.txt");
        std::string line;
        const std::string key = "CMAKE_HOME_DIRECTORY:INTERNAL=";
        while (cache && std::getline(cache, line)) {
            if (line.rfind(key, 0) != 0) continue;
            const fs::path data = fs::path(line.substr(key.size())) / "data";
            if (isDataDir(data)) ::setenv("DCTWIN_DATA_DIR", data.c_str(), 0);
            return;
        }
        if (dir == dir.parent_path()) break;
    }
}

}  // namespace

PYBIND11_MODULE(dctwin, m) {
    m.doc() =
        "dctwin: digital twin of liquid-cooled GB300 NVL72 datacenters. load/validate/size/run "
        "a scenario (file path or dict); Simulation steps a study with controls.";
    m.attr("__version__") = kVersion;
    // __file__ is set only after this function returns: the loader knows the module's path.
    Dl_info self{};
    if (::dladdr(reinterpret_cast<void*>(&findDataBesideModule), &self) && self.dli_fname) {
        findDataBesideModule(fs::absolute(self.dli_fname));
    }

    py::object error = py::reinterpret_steal<py::object>(
        PyErr_NewException("dctwin.Error", PyExc_RuntimeError, nullptr));
    auto sub = [&](const char* name, py::tuple bases) {
        return py::reinterpret_steal<py::object>(PyErr_NewException(name, bases.ptr(), nullptr));
    };
    // Bad input is also a ValueError, so generic code that catches ValueError catches it.
    py::object input_error =
        sub("dctwin.InputError", py::make_tuple(error, py::handle(PyExc_ValueError)));
    py::object model_error =
        sub("dctwin.ModelError", py::make_tuple(error, py::handle(PyExc_ValueError)));
    py::object solver_error = sub("dctwin.SolverError", py::make_tuple(error));
    py::object cancelled_error = sub("dctwin.CancelledError", py::make_tuple(error));
    m.attr("Error") = error;
    m.attr("InputError") = input_error;
    m.attr("ModelError") = model_error;
    m.attr("SolverError") = solver_error;
    m.attr("CancelledError") = cancelled_error;
    g_error = error.release();
    g_input_error = input_error.release();
    g_model_error = model_error.release();
    g_solver_error = solver_error.release();
    g_cancelled_error = cancelled_error.release();
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const InputError& e) {
            raise(g_input_error, e.what());
        } catch (const ModelError& e) {
            raise(g_model_error, e.what());
        } catch (const SolverError& e) {
            raise(g_solver_error, e.what());
        } catch (const CancelledError& e) {
            raise(g_cancelled_error, e.what());
        } catch (const Error& e) {
            raise(g_error, e.what());
        } catch (const nlohmann::json::exception& e) {
            raise(g_input_error, e.what());
        }
    });

    py::class_<Scenario>(m, "Scenario", "A scenario read and checked (dctwin.load).")
        .def_property_readonly("name", [](const Scenario& s) { return s.spec->name; })
        .def_property_readonly("study", [](const Scenario& s) { return s.spec->study.kind; })
        .def_property_readonly("duration_s",
                               [](const Scenario& s) { return s.spec->study.duration_s; })
        .def_property_readonly("output_interval_s",
                               [](const Scenario& s) { return s.spec->study.output_interval_s; })
        .def_property_readonly("input", [](const Scenario& s) { return fromJson(s.spec->input); })
        .def("__repr__", [](const Scenario& s) {
            return fmt::format("<dctwin.Scenario '{}' ({})>", s.spec->name, s.spec->study.kind);
        });

    py::class_<RunResult>(m, "Result", "A finished run: summary and time series.")
        .def_readonly("summary", &RunResult::summary, "the summary JSON of `dctwin run` as a dict")
        .def_readonly("time", &RunResult::time, "sample times [s] since the study start")
        .def_readonly("start", &RunResult::start, "the study start, ISO 8601")
        .def_readonly("series", &RunResult::series, "'group/name' → NumPy array (SI)")
        .def_readonly("units", &RunResult::units, "'group/name' → unit of the series")
        .def_readonly("descriptions", &RunResult::descriptions, "'group/name' → what it is");

    m.def(
        "load", [](const py::handle& s) { return Scenario{scenarioOf(s)}; }, py::arg("scenario"),
        "Reads and checks a scenario (file path or dict); raises InputError naming the JSON path.");
    m.def(
        "validate",
        [](const py::handle& s) {
            const auto spec = scenarioOf(s);
            facility::validateModel(*spec);
        },
        py::arg("scenario"), "Sizes and builds the models without running (dctwin validate).");
    m.def(
        "size",
        [](const py::handle& s) {
            const auto spec = scenarioOf(s);
            facility::RunOutcome r;
            {
                py::gil_scoped_release nogil;
                r = facility::sizeScenario(*spec);
            }
            return fromJson(r.summary);
        },
        py::arg("scenario"), "The design point: the summary JSON of `dctwin size --json`.");
    m.def(
        "run", [](const py::handle& s) { return runToResult(*scenarioOf(s)); }, py::arg("scenario"),
        "Runs the scenario's study; returns a Result.");

    py::class_<facility::Simulation>(
        m, "Simulation",
        "A study stepped from Python: advance(to_s, **controls), "
        "observe(). Controls: tcs_supply_temp_C, "
        "fws_supply_temp_C, gpu_power_cap_W, smoothing_floor_pct, cdu_dp_setpoint_kPa, "
        "heat_rejection_fan_limit_pct, "
        "heat_rejection_units.")
        .def(py::init([](const py::handle& s) {
                 const auto spec = scenarioOf(s);
                 py::gil_scoped_release nogil;
                 return std::make_unique<facility::Simulation>(*spec);
             }),
             py::arg("scenario"))
        .def_property_readonly("time", &facility::Simulation::time, "[s] since the study start")
        .def_property_readonly("end_time", &facility::Simulation::endTime,
                               "[s] the study's duration")
        .def(
            "advance",
            [](facility::Simulation& sim, double to, const py::kwargs& kw) {
                const facility::Controls c = controlsOf(kw);
                py::gil_scoped_release nogil;
                sim.advance(to, c);
            },
            py::arg("to_s"),
            "Applies the keyword controls now and integrates to `to_s` [s since the start].")
        .def(
            "observe",
            [](const facility::Simulation& sim) {
                py::dict d;
                for (const auto& o : sim.observe()) d[py::str(o.name)] = o.value;
                return d;
            },
            "Every channel of the report at the current time (SI), and meters/* totals.")
        .def_property_readonly(
            "units",
            [](const facility::Simulation& sim) {
                py::dict d;
                for (const auto& o : sim.observe()) d[py::str(o.name)] = o.unit;
                return d;
            },
            "Unit of every observed value.")
        .def_property_readonly(
            "controls",
            [](const facility::Simulation& sim) { return controlsDict(sim.controls()); },
            "The control values in force.")
        .def_property_readonly("stats", [](const facility::Simulation& sim) {
            const SolverStats& s = sim.stats();
            py::dict d;
            d["steps"] = s.steps;
            d["rhs_evals"] = s.rhs_evals;
            d["factorizations"] = s.factorizations;
            d["reinits"] = s.reinits;
            return d;
        });
}
