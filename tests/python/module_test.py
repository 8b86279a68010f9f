"""The Python module against the command line (issue 17): the same scenario gives the same
summary to the last digit, series come back as NumPy arrays with units, and bad scenarios raise
exceptions that carry the JSON path.

Usage: module_test.py DCTWIN_EXE SOURCE_DIR WORK_DIR (the built module on PYTHONPATH)
"""
import _thread
import json
import os
import subprocess
import sys
import threading
import time
import unittest

import h5py
import numpy as np

import common
import dctwin

# Wall-clock seconds differ between any two runs; everything else must be identical.
WALL_CLOCK = ("wall_s",)


def without_wall_clock(d):
    if isinstance(d, dict):
        return {k: without_wall_clock(v) for k, v in d.items() if k not in WALL_CLOCK}
    if isinstance(d, list):
        return [without_wall_clock(v) for v in d]
    return d


def cli(*args):
    return subprocess.run([common.EXE, *args], check=True, capture_output=True, text=True)


class SummaryEqualsCli(unittest.TestCase):
    """The reference year (a few seconds), once through the CLI and once through Python."""

    @classmethod
    def setUpClass(cls):
        summary = os.path.join(common.WORK, "reference_summary.json")
        cls.report = os.path.join(common.WORK, "reference.h5")
        cli("run", common.REFERENCE, "-o", cls.report, "--summary-json", summary, "--quiet")
        with open(summary) as f:
            cls.cli_summary = json.load(f)
        cls.result = dctwin.run(common.REFERENCE)

    def test_summary_to_the_last_digit(self):
        py = without_wall_clock(self.result.summary)
        ref = without_wall_clock(self.cli_summary)
        self.assertEqual(sorted(py), sorted(ref))
        for key in ref:
            self.assertEqual(py[key], ref[key], key)  # floats compared with ==
        self.assertGreater(ref["it_energy_MWh"], 1000.0)  # a year of a ~9 MW hall, not empty

    def test_series_are_arrays_with_units(self):
        r = self.result
        self.assertEqual(r.start, "2026-01-01T00:00:00")
        n = 365 * 86400 // 600 + 1
        self.assertEqual(r.time.shape, (n,))
        it = r.series["power/it_power"]
        self.assertIsInstance(it, np.ndarray)
        self.assertEqual(it.shape, (n,))
        self.assertEqual(r.units["power/it_power"], "W")
        self.assertEqual(r.units["cooling/tcs_supply_temp"], "K")
        self.assertEqual(r.units["water/water_rate"], "m3/s")
        # Every series equals the CLI's report as h5py reads it, bit for bit.
        with h5py.File(self.report, "r") as f:
            np.testing.assert_array_equal(r.time, f["timeseries/time"][()])
            for key, values in r.series.items():
                np.testing.assert_array_equal(values, f["timeseries/" + key][()], key)
                self.assertEqual(r.units[key], f["timeseries/" + key].attrs["units"], key)
        # In W, not kW: the sampled IT power integrated by the trapezoid rule lands on the
        # model's meter. (Within 1 %, not closer: at the annual tolerance the meter drifts
        # ~0.3 % above its own samples' integral, an integrator-accuracy matter measured in
        # simulation_test.py.)
        trapezoid_MWh = np.trapz(it, r.time) / 3.6e9
        self.assertAlmostEqual(trapezoid_MWh / r.summary["it_energy_MWh"], 1.0, delta=1e-2)


class SizeAndDictsEqualCli(unittest.TestCase):
    def test_size_equals_cli_size_json(self):
        ref = json.loads(cli("size", common.REFERENCE, "--json").stdout)
        py = dctwin.size(common.REFERENCE)
        self.assertEqual(without_wall_clock(py), without_wall_clock(ref))

    def test_a_dict_runs_like_its_file(self):
        day = common.reference(kind="annual", start="07-15", days=1, output_interval_s=600)
        path = common.write_json("day.json", day)
        summary = os.path.join(common.WORK, "day_summary.json")
        cli("run", path, "--summary-json", summary, "--quiet")
        with open(summary) as f:
            ref = json.load(f)
        self.assertEqual(without_wall_clock(dctwin.run(day).summary), without_wall_clock(ref))
        s = dctwin.load(day)
        self.assertEqual((s.study, s.duration_s, s.output_interval_s), ("annual", 86400.0, 600.0))
        self.assertIsNone(dctwin.validate(day))


class Interrupt(unittest.TestCase):
    def test_ctrl_c_stops_a_run(self):
        # SIGINT half a second into the training hour at 0.1 s (3-4 s on this project's
        # machines): KeyboardInterrupt, promptly. Not the reference year: since the speed work
        # of issue 12 it takes ~0.5 s, and the signal then landed after the run had returned
        # (the test failed about one time in two).
        timer = threading.Timer(0.5, _thread.interrupt_main)
        start = time.monotonic()
        timer.start()
        with self.assertRaises(KeyboardInterrupt):
            dctwin.run(os.path.join(common.SOURCE, "scenarios", "transient_training_swings.json"))
        timer.join()
        self.assertLess(time.monotonic() - start, 3.0)


class BadScenariosRaise(unittest.TestCase):
    def expect(self, scenario, exc, json_path, fragment):
        with self.assertRaises(exc) as cm:
            dctwin.validate(scenario)
        self.assertEqual(cm.exception.json_path, json_path, str(cm.exception))
        self.assertIn(fragment, str(cm.exception))
        return cm.exception

    def test_out_of_range_value_in_a_dict(self):
        sc = common.reference()
        sc["cooling"]["cdu"]["racks_per_cdu"] = 900
        e = self.expect(sc, dctwin.InputError, "/cooling/cdu/racks_per_cdu", "900")
        self.assertIsInstance(e, ValueError)  # generic code catching ValueError catches it
        self.assertIsInstance(e, dctwin.Error)

    def test_unknown_key_in_a_file(self):
        sc = common.reference()
        sc["cooling"]["cdu"]["racks_per_cdux"] = 8
        path = common.write_json("typo.json", sc)
        self.expect(path, dctwin.InputError, "/cooling/cdu", "did you mean 'racks_per_cdu'")

    def test_wrong_type(self):
        sc = common.reference(kind="annual", start="07-15", days="seven",
                              output_interval_s=600)
        self.expect(sc, dctwin.InputError, "/study/days", "expected a number")

    def test_missing_file_has_no_json_path(self):
        self.expect(os.path.join(common.WORK, "absent.json"), dctwin.InputError, None,
                    "no such file")

    def test_not_a_scenario(self):
        with self.assertRaises(TypeError):
            dctwin.run(42)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
