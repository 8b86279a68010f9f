"""The HDF5 report as NetCDF-4/CF tools read it (issue 17).

Runs the CLI on the reference scenario shortened to one July day with per-rack channels, then
opens every group of series under /timeseries with xarray (engine h5netcdf, the one that used
to fail with "no dimension scale associated with axis 0") and checks its time coordinate
against the study the scenario states: start 15 July 00:00 (typical-year studies are dated in
2026, facility/study.cpp studyStartIso), one sample every 600 s, one day. Groups are found
with h5py, not with the writer's own reader.

Usage: report_xarray_test.py DCTWIN_EXE SOURCE_DIR WORK_DIR
"""
import json
import os
import subprocess
import sys
import unittest

import h5py
import numpy as np
import xarray as xr

EXE, SOURCE, WORK = sys.argv[1:4]
START = np.datetime64("2026-07-15T00:00:00")
INTERVAL_S = 600
DAYS = 1


def make_report():
    with open(os.path.join(SOURCE, "scenarios", "azure_gb300_64.json")) as f:
        sc = json.load(f)
    sc.pop("$schema", None)
    sc["site"]["weather"] = os.path.join(SOURCE, sc["site"]["weather"])
    sc["study"] = {"kind": "annual", "start": "07-15", "days": DAYS,
                   "output_interval_s": INTERVAL_S, "per_rack_channels": True}
    os.makedirs(WORK, exist_ok=True)
    path = os.path.join(WORK, "xarray_day.json")
    with open(path, "w") as f:
        json.dump(sc, f)
    report = os.path.join(WORK, "xarray_day.h5")
    subprocess.run([EXE, "run", path, "-o", report, "--quiet"], check=True)
    return report


def series_groups(report):
    """Every group under /timeseries that holds datasets besides its time coordinate."""
    groups = []
    with h5py.File(report, "r") as f:
        def visit(name, obj):
            if isinstance(obj, h5py.Group) and any(
                    isinstance(v, h5py.Dataset) and k != "time" for k, v in obj.items()):
                groups.append("timeseries/" + name)
        f["timeseries"].visititems(visit)
    return groups


class ReportOpensInXarray(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.report = make_report()
        cls.groups = series_groups(cls.report)

    def test_every_group_is_indexed_by_the_study_time(self):
        samples = DAYS * 86400 // INTERVAL_S + 1
        expected = START + np.arange(samples) * np.timedelta64(INTERVAL_S, "s")
        # power, cooling, water, weather and the per-rack groups of the reference hall.
        self.assertGreaterEqual(len(self.groups), 5, self.groups)
        self.assertTrue(any(g.startswith("timeseries/rack/") for g in self.groups), self.groups)
        for group in self.groups:
            with self.subTest(group=group):
                with xr.open_dataset(self.report, engine="h5netcdf", group=group) as ds:
                    self.assertEqual(ds.time.dtype, np.dtype("datetime64[ns]"))
                    np.testing.assert_array_equal(ds.time.values, expected)
                    self.assertGreater(len(ds.data_vars), 0)
                    for name, var in ds.data_vars.items():
                        self.assertEqual(var.dims, ("time",), name)
                        self.assertIn("long_name", var.attrs, name)
                        self.assertIn("units", var.attrs, name)

    def test_units_of_three_series(self):
        cases = [("timeseries/power", "it_power", "W"),
                 ("timeseries/cooling", "tcs_supply_temp", "K"),
                 ("timeseries/water", "water_rate", "m3/s")]
        for group, name, unit in cases:
            with xr.open_dataset(self.report, engine="h5netcdf", group=group) as ds:
                self.assertEqual(ds[name].attrs["units"], unit)
        # The supply setpoint of the scenario is 35 C: a K series near 308 K, not near 35.
        with xr.open_dataset(self.report, engine="h5netcdf", group="timeseries/cooling") as ds:
            self.assertAlmostEqual(float(ds.tcs_supply_temp.mean()), 308.15, delta=1.0)

    def test_netcdf_c_reads_the_same_coordinate(self):
        # netCDF-C (engine netcdf4) used to give phony_dim_0 and no time coordinate.
        with xr.open_dataset(self.report, engine="netcdf4", group="timeseries/power") as ds:
            self.assertEqual(list(ds.dims), ["time"])
            self.assertEqual(ds.time.values[0], START)

    def test_root_time_keeps_its_plain_seconds(self):
        # Readers from before issue 17 (h5py scripts, the GUI) read /timeseries/time as it was.
        with h5py.File(self.report, "r") as f:
            t = f["timeseries/time"]
            self.assertEqual(t.attrs["units"], "s")
            self.assertEqual(t.attrs["start"], "2026-07-15T00:00:00")
            np.testing.assert_array_equal(t[()], f["timeseries/power/time"][()])


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
