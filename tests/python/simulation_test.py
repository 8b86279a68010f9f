"""dctwin.Simulation, the study stepped from Python (issue 17): many short advances integrate the
same week as one run, and a supply setpoint changed mid-run moves the CDU supply temperature
the way its PI controller must.

Usage: simulation_test.py DCTWIN_EXE SOURCE_DIR WORK_DIR (the built module on PYTHONPATH)
"""
import sys
import unittest

import numpy as np

import common
import dctwin

J_PER_MWH = 3.6e9
ANNUAL_REL_TOL = 5e-4  # the integrator tolerance of annual studies (facility/scenario.cpp)


def kelvin(c):
    return c + 273.15


class SteppedWeekEqualsOneRun(unittest.TestCase):
    """A hot July week (Milwaukee), 1008 advances of 600 s versus one run of the same study.

    The energy is compared as the integral of the facility and IT power sampled on the same
    600 s grid (trapezoid rule), which is what the integrator's tolerance bounds. The run's
    energy meters are not compared to each other: a meter is a growing integral, and CVODE's
    relative tolerance lets its local error grow with its value; at the annual tolerance the
    one run's facility-energy meter ends 0.29 % above the integral of its own samples
    (measured: 1498.05 vs 1493.69 MWh), while one restarted every 600 s stays within 3e-5 of
    its samples. That is the meters' accuracy (their error control loosens as they grow), not a
    stepping error."""

    @classmethod
    def setUpClass(cls):
        week = common.reference(kind="annual", start="07-15", days=7, output_interval_s=600)
        cls.one = dctwin.run(week)
        sim = dctwin.Simulation(week)
        cls.end = sim.end_time
        cls.samples = [sim.observe()]
        for t in np.arange(600.0, sim.end_time + 1.0, 600.0):
            sim.advance(t)
            cls.samples.append(sim.observe())
        cls.sim = sim

    def stepped(self, key):
        return np.array([o[key] for o in self.samples])

    def test_same_grid(self):
        self.assertEqual(self.end, 7 * 86400.0)
        self.assertEqual(self.sim.time, self.end)
        np.testing.assert_array_equal(np.arange(0.0, self.end + 1.0, 600.0), self.one.time)

    def test_energy_within_the_solver_tolerance(self):
        t = self.one.time
        facility = np.trapz(self.one.series["power/facility_power"], t) / J_PER_MWH
        for key in ("power/facility_power", "power/it_power", "power/cooling_power"):
            one = np.trapz(self.one.series[key], t) / J_PER_MWH
            stepped = np.trapz(self.stepped(key), t) / J_PER_MWH
            print(f"{key}: one run {one:.3f} MWh, 1008 steps {stepped:.3f} MWh, "
                  f"relative difference {abs(stepped / one - 1.0):.2e}")
            # The tolerance is relative to the site's power; cooling is 5 % of it, with fan
            # power ∝ speed³ amplifying temperature errors, so it is held to the same
            # absolute error as the facility energy it is part of.
            self.assertLess(abs(stepped - one), ANNUAL_REL_TOL * facility, key)
        # Not a vacuous comparison: a week of a hall drawing megawatts.
        self.assertGreater(np.trapz(self.one.series["power/it_power"], t) / J_PER_MWH, 7 * 24 * 5)

    def test_stepped_meters_agree_with_their_samples(self):
        obs = self.samples[-1]
        self.assertEqual(self.sim.units["meters/facility_energy"], "J")
        for meter, key in (("facility_energy", "power/facility_power"),
                           ("it_energy", "power/it_power")):
            integral = np.trapz(self.stepped(key), self.one.time)
            self.assertAlmostEqual(obs["meters/" + meter] / integral, 1.0, delta=ANNUAL_REL_TOL)
        one = self.one.summary["facility_energy_MWh"]
        stepped = obs["meters/facility_energy"] / J_PER_MWH
        print(f"meters: one run {one:.3f} MWh, stepped {stepped:.3f} MWh "
              f"({stepped / one - 1:+.2e})")
        water = sum(obs["meters/" + k] for k in ("evaporation", "drift", "blowdown", "spray"))
        water_rel = abs(water / self.one.series["water/water_total"][-1] - 1)
        print(f"water: one run {self.one.series['water/water_total'][-1]:.2f} m3, "
              f"stepped {water:.2f} m3 ({water_rel:.2e})")


class SetpointStep(unittest.TestCase):
    """TCS supply setpoint 35 → 37 C after an hour of a July day. The CDU's PI acts on the
    facility valve (K_p = 0.3 /K, T_i = 60 s, thermal/cdu.h): integral action leaves no
    steady-state error, so well after a few T_i the supply sits at the new setpoint; a warmer
    secondary needs less facility water, so the valve closes and the facility flow falls;
    the supply node has thermal mass, so the supply cannot jump."""

    @classmethod
    def setUpClass(cls):
        day = common.reference(kind="annual", start="07-15", days=1, output_interval_s=600)
        sim = dctwin.Simulation(day)
        sim.advance(3600.0)
        cls.before = sim.observe()
        cls.trace = []
        sim.advance(3601.0, tcs_supply_temp_C=37.0)
        cls.trace.append((1.0, sim.observe()))
        for t in range(10, 601, 10):
            sim.advance(3600.0 + t)
            cls.trace.append((float(t), sim.observe()))
        cls.sim = sim

    def supply(self, obs):
        return obs["cooling/tcs_supply_temp"]

    def test_old_setpoint_held_before_the_step(self):
        self.assertAlmostEqual(self.supply(self.before), kelvin(35.0), delta=0.05)
        self.assertEqual(self.sim.controls["tcs_supply_temp_C"], 37.0)

    def test_supply_moves_continuously_toward_the_new_setpoint(self):
        after_1s = self.supply(self.trace[0][1])
        # Thermal mass: no jump to the new setpoint in 1 s. The CDU's 100 L secondary hold-up
        # turns over in ~4.5 s at the ~22 L/s the racks draw (10 K rise, issue 9's pump
        # control), so even with the facility valve shut at once the supply could rise at most
        # (1 − e^(−1/4.5)) × 10 K = 2.0 K in 1 s; the valve PI closes it only part way.
        self.assertLess(after_1s, kelvin(35.0) + 2.0)
        temps = np.array([self.supply(o) for _, o in self.trace])
        for t, o in self.trace:
            print(f"t = {t:5.0f} s after the step: supply {self.supply(o) - 273.15:.3f} C, "
                  f"facility flow {o['cooling/fws_flow'] * 1000:.1f} L/s")
        self.assertGreater(temps[5], kelvin(35.5))  # well on its way after one minute
        # The PI (with back-calculation anti-windup) approaches from below without overshoot
        # (measured: 35.88 C after 1 s, 36.82 C after 60 s, 37.00 C after 540 s).
        self.assertTrue(np.all(np.diff(temps) >= -1e-6), temps - 273.15)
        self.assertLess(temps.max(), kelvin(37.0) + 0.05)

    def test_no_steady_state_error_after_ten_integral_times(self):
        self.assertAlmostEqual(self.supply(self.trace[-1][1]), kelvin(37.0), delta=0.05)

    def test_valve_closes(self):
        self.assertLess(self.trace[-1][1]["cooling/fws_flow"], self.before["cooling/fws_flow"])


class OtherControls(unittest.TestCase):
    """The remaining controls act in the direction their physics says, over a July afternoon
    hour."""

    def run_hour(self, hour=13, **controls):
        # Default 13:00-14:00 on July 15 (30 °C dry bulb): the adiabatic pads are spraying, so
        # the plant has both fans and water to trade (at night the pads are off).
        day = common.reference(kind="annual", start="07-15", days=1, output_interval_s=600)
        sim = dctwin.Simulation(day)
        sim.advance(hour * 3600.0)
        base = sim.observe()
        sim.advance((hour + 1) * 3600.0, **controls)
        return base, sim.observe(), sim.controls

    def test_cdu_dp_setpoint_caps_the_header_pressure(self):
        # The CDUs reset their header Δp on the 10 K TCS rise up to the setpoint (100 kPa in
        # cdus.json; ~40-50 kPa on a July night). Capped at 20 kPa, the racks draw less
        # (laminar plates: flow ~∝ Δp), the pumps slow and the TCS rise exceeds its 10 K.
        base, capped, c = self.run_hour(cdu_dp_setpoint_kPa=20.0)
        self.assertEqual(c["cdu_dp_setpoint_kPa"], 20.0)
        self.assertGreater(base["cooling/cdu_header_dp"], 25e3)
        self.assertLess(capped["cooling/cdu_header_dp"], 20e3 * 1.001)
        self.assertLess(capped["cooling/cdu_pump_power"], base["cooling/cdu_pump_power"])
        self.assertLess(capped["cooling/rack_flow"], base["cooling/rack_flow"])
        rise = lambda o: o["cooling/tcs_return_temp"] - o["cooling/tcs_supply_temp"]
        self.assertGreater(rise(capped), rise(base) + 0.5)

    def test_heat_rejection_fan_limit_trades_fans_for_water(self):
        # On a July afternoon the adiabatic coolers run their fans near full speed and spray
        # a little. Capped at 60 % of rated speed the fans draw at most 0.6³ = 22 % of their
        # rated power (affinity) and the pads spray more to hold the 31 °C supply, or the
        # supply misses it.
        base, capped, c = self.run_hour(heat_rejection_fan_limit_pct=60.0)
        self.assertEqual(c["heat_rejection_fan_limit_pct"], 60.0)
        # 18 units of 20 kW fans: the reference plant at full speed, sized with the 10 % growth
        # margin since issue 15 and dry below the pads' 28 °C switch-over since 2026-12-07
        # (13, then 14 before).
        rated = 18 * 20e3
        self.assertLessEqual(capped["cooling/heat_rejection_fan_power"], 0.6 ** 3 * rated * 1.001)
        self.assertTrue(capped["water/spray_rate"] > base["water/spray_rate"]
                        or capped["cooling/setpoint_unmet"] > 0.0)

    def test_gpu_power_cap_lowers_it_power(self):
        base, capped, c = self.run_hour(gpu_power_cap_W=1000.0)
        self.assertEqual(c["gpu_power_cap_W"], 1000.0)
        # 4,608 GPUs at most 400 W lower each (less where they run below the cap), seen at
        # the shelf inputs through ~95 % PSUs, plus the leakage the cooler dies save (the dies
        # run at ~78 °C with the 10 K TCS rise of issue 9; ~7 K cooler capped: ~35 W of
        # ~170 W): at most 4,608 × (400/0.95 + 35) W = 2.10 MW, bounded with 15 % margin.
        drop = base["power/it_power"] - capped["power/it_power"]
        self.assertGreater(drop, 0.0)
        self.assertLess(drop, 4608 * 400.0 / 0.95 * 1.15)

    def test_fws_setpoint_moves_the_facility_supply(self):
        # Warmer: the adiabatic coolers reach it with slower fans and dry pads. Colder than the
        # July air allows: the plant runs flat out and reports what it misses.
        # Warmer, at night (28 °C, fans below their limit, pads off): the fans slow down.
        base, warm, _ = self.run_hour(hour=1, fws_supply_temp_C=33.0)
        self.assertAlmostEqual(base["cooling/fws_supply_temp"], kelvin(31.0), delta=0.05)
        self.assertAlmostEqual(warm["cooling/fws_supply_temp"], kelvin(33.0), delta=0.05)
        self.assertLess(warm["cooling/heat_rejection_fan_power"],
                        base["cooling/heat_rejection_fan_power"])
        self.assertLessEqual(warm["water/spray_rate"], base["water/spray_rate"])
        # Colder than the afternoon air allows (30 °C dry bulb: fans at their limit, pads fully
        # wet, the 18 units' supply reaches 24.97 °C; the 14 of before 2026-12-07 reached
        # 25.8 °C): the plant reports the miss. (29 °C, asked before, is within reach with the
        # pads part wet; the test passed on a 1.7e-13 K round-off residue of the pad search.)
        # The supply pipe between plant and hall, at the end of the hour, reads ~0.1 K above
        # the plant's outlet.
        _, cold, _ = self.run_hour(fws_supply_temp_C=24.0)
        self.assertGreater(cold["cooling/setpoint_unmet"], 0.5)
        self.assertAlmostEqual(cold["cooling/fws_supply_temp"] - cold["cooling/setpoint_unmet"],
                               kelvin(24.0), delta=0.15)
        _, colder, _ = self.run_hour(fws_supply_temp_C=23.0)
        self.assertAlmostEqual(colder["cooling/fws_supply_temp"], cold["cooling/fws_supply_temp"],
                               delta=1e-6)  # flat out either way
        self.assertAlmostEqual(colder["cooling/setpoint_unmet"],
                               cold["cooling/setpoint_unmet"] + 1.0, delta=1e-6)

    def test_fewer_heat_rejection_units_work_harder(self):
        day = common.reference(kind="annual", start="07-15", days=1, output_interval_s=600)
        units = dctwin.Simulation(day).controls["heat_rejection_units"]
        base, after, c = self.run_hour(heat_rejection_units=units - 2)
        self.assertEqual(c["heat_rejection_units"], units - 2)
        # The remaining units work harder: the pads spray more (which lets each unit's fans
        # run about as fast as before: the plant sprays before it speeds the fans past their
        # economic point), and the setpoint still holds (N+1 and margin by design).
        self.assertGreater(after["water/spray_rate"], base["water/spray_rate"])
        self.assertAlmostEqual(after["cooling/fws_supply_temp"], kelvin(31.0), delta=0.05)


class BadControls(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        day = common.reference(kind="annual", start="07-15", days=1, output_interval_s=600)
        cls.sim = dctwin.Simulation(day)

    def test_unknown_control_lists_the_valid_ones(self):
        with self.assertRaises(dctwin.InputError) as cm:
            self.sim.advance(600.0, tcs_supply_temp=30.0)
        self.assertIn("tcs_supply_temp_C", str(cm.exception))

    def test_out_of_range_setpoint(self):
        with self.assertRaises(dctwin.InputError) as cm:
            self.sim.advance(600.0, tcs_supply_temp_C=80.0)
        self.assertIn("tcs_supply_setpoint", str(cm.exception))
        self.assertEqual(self.sim.time, 0.0)  # nothing happened

    def test_time_must_move_forward_within_the_study(self):
        with self.assertRaises(dctwin.InputError):
            self.sim.advance(0.0)
        with self.assertRaises(dctwin.InputError):
            self.sim.advance(2 * 86400.0)

    def test_smoothing_floor_needs_smoothing_in_the_model(self):
        # The reference year averages the workload: there is no smoothing to set.
        with self.assertRaises(dctwin.InputError) as cm:
            self.sim.advance(600.0, smoothing_floor_pct=50.0)
        self.assertIn("resolved", str(cm.exception))


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
