"""The HDF5 report as NetCDF-4/CF tools read it (issue 17).

Runs the CLI on the reference scenario shortened to one July day with per-rack channels, then
opens every group of series under /timeseries with xarray (engine h5netcdf, the one that used
to fail with "no dimension scale associated with axis 0") and checks its time coordinate
against the study the scenario states: start 15 July 00:00 (typical-year studies are dated in
2026, facility/study.cpp studyStartIso), one sample every 600 s, one day. Groups are found
with h5py, not with the writer's own reader. The per-rack-group series are one 2-D
[time, rack_group] dataset per quantity in /timeseries/racks, with the groups' names, rack
counts, models and jobs as coordinates; they are checked against the scenario and against the
site series the twin derives from the same groups.

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


def scenario():
    with open(os.path.join(SOURCE, "scenarios", "azure_gb300_64.json")) as f:
        return json.load(f)


def make_report():
    sc = scenario()
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
        # power, cooling, water, weather and the rack groups' array of the reference hall.
        self.assertGreaterEqual(len(self.groups), 5, self.groups)
        self.assertIn("timeseries/racks", self.groups)
        for group in self.groups:
            with self.subTest(group=group):
                with xr.open_dataset(self.report, engine="h5netcdf", group=group) as ds:
                    self.assertEqual(ds.time.dtype, np.dtype("datetime64[ns]"))
                    np.testing.assert_array_equal(ds.time.values, expected)
                    self.assertGreater(len(ds.data_vars), 0)
                    for name, var in ds.data_vars.items():
                        dims = ("time", "rack_group") if group == "timeseries/racks" else ("time",)
                        self.assertEqual(var.dims, dims, name)
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

    def test_rack_groups_are_a_time_by_rack_group_array(self):
        sc = scenario()
        samples = DAYS * 86400 // INTERVAL_S + 1
        with xr.open_dataset(self.report, engine="h5netcdf", group="timeseries/racks") as ds:
            self.assertEqual(dict(ds.sizes), {"time": samples, "rack_group": ds.sizes["rack_group"]})
            self.assertEqual(ds.time.values[0], START)
            self.assertEqual(ds.time.values[-1], START + np.timedelta64(DAYS * 86400, "s"))
            self.assertEqual(set(ds.data_vars),
                             {"junction_temp", "plate_temp", "it_power", "outlet_temp",
                              "coolant_flow", "header_dp"})
            for name in ("rack_group_name", "rack_count", "rack_model", "job"):
                self.assertIn(name, ds.coords, name)
                self.assertEqual(ds[name].dims, ("rack_group",), name)
            np.testing.assert_array_equal(ds.rack_group.values, np.arange(ds.sizes["rack_group"]))
            names = [str(n) for n in ds.rack_group_name.values]
            self.assertEqual(len(set(names)), len(names), names)
            self.assertEqual(ds.junction_temp.attrs["units"], "K")
            self.assertEqual(ds.it_power.attrs["units"], "W")
            self.assertIn("long_name", ds.plate_temp.attrs)
            # The groups stand for every rack of the scenario, each job's racks in the groups
            # that run it, and the scenario's rack model.
            counts = ds.rack_count.values
            self.assertEqual(int(counts.sum()), sum(r["count"] for r in sc["it"]["racks"]))
            jobs = [str(j) for j in ds.job.values]
            for job in sc["workload"]["jobs"]:
                racks = sum(int(c) for c, j in zip(counts, jobs) if job["name"] in j.split("+"))
                self.assertEqual(racks, job["racks"], job["name"])
            self.assertEqual({str(m) for m in ds.rack_model.values},
                             {r["model"] for r in sc["it"]["racks"]})
            plate_max = ds.plate_temp.max(dim="rack_group")
            # One column is one group: the junction of the pre-training group is its own.
            pretrain = ds.junction_temp.where(ds.job == "pretrain", drop=True)
            self.assertEqual(pretrain.sizes["rack_group"], jobs.count("pretrain"))
        with xr.open_dataset(self.report, engine="h5netcdf", group="timeseries/cooling") as site:
            # The site's hottest cold plate is the hottest over the interval that ends at each
            # sample (the integrator's step ends too): at least the hottest group's at the
            # sample, the same at the first sample (no interval before it), and within the
            # plates' drift over one output interval of it.
            over = site.max_gpu_plate_temp.values - plate_max.values
            self.assertGreaterEqual(over.min(), -1e-12)
            self.assertAlmostEqual(over[0], 0.0, delta=1e-12)
            self.assertLess(over.max(), 0.5)
        with h5py.File(self.report, "r") as f:
            self.assertNotIn("rack", f["timeseries"])  # one representation: the array
            self.assertEqual(f["timeseries/racks/junction_temp"].shape,
                             (samples, len(names)))

    def test_netcdf_c_reads_the_rack_array(self):
        with xr.open_dataset(self.report, engine="netcdf4", group="timeseries/racks") as ds:
            self.assertEqual(ds.junction_temp.dims, ("time", "rack_group"))
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
