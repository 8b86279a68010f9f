#!/usr/bin/env python3
"""A supply-temperature reset controller closed around the twin, over a hot week, against the
fixed setpoint of the scenario.

    PYTHONPATH=build/python python3 examples/python/supply_reset.py [--start 07-15] [--days 7]

Every 10 minutes the controller reads the hottest GPU die temperature and moves the rack-loop
(TCS) supply setpoint toward the warmest value that keeps the hottest GPU at a target below the
throttle temperature: warmer water lets the plant reject heat with less fan power and spray
water, but warmer dies leak more (the rack model's leakage, 10 % of TGP at
its reference, doubles every 25 K), so the
IT power rises: the example shows the trade. The facility water (FWS) setpoint follows at the CDU's design approach below it. The
reset is integral (0.25 K of setpoint per K of GPU temperature error per step), limited to
1 K per step and to the ASHRAE W45-style range 30-45 C.
"""
import argparse
import json
import os
import sys

import dctwin

HERE = os.path.dirname(os.path.abspath(__file__))
SCENARIO = os.path.join(HERE, "..", "..", "scenarios", "azure_gb300_64.json")
STEP_S = 600.0
GPU_TARGET_C = 80.0    # hottest die; the rack model throttles at 87 C (catalog gb300_nvl72)
GAIN = 0.25            # K of setpoint per K of die temperature error, per step
MAX_MOVE_K = 1.0       # per step
LIMITS_C = (30.0, 45.0)
APPROACH_K = 4.0       # TCS − FWS: the Vertiv XDU1350's design approach


def week(start, days):
    with open(SCENARIO) as f:
        sc = json.load(f)
    sc.pop("$schema", None)
    # "data/weather/..." stays as written: it resolves against the shipped data folder.
    sc["study"] = {"kind": "annual", "start": start, "days": days, "output_interval_s": STEP_S}
    return sc


def simulate(scenario, controller):
    sim = dctwin.Simulation(scenario)
    max_gpu_K, setpoints = 0.0, []
    controls = {}
    while sim.time < sim.end_time:
        sim.advance(min(sim.time + STEP_S, sim.end_time), **controls)
        obs = sim.observe()
        max_gpu_K = max(max_gpu_K, obs["cooling/max_gpu_junction_temp"])
        controls = controller(sim, obs)
        setpoints.append(sim.controls["tcs_supply_temp_C"])
    obs = sim.observe()
    return {
        "facility_MWh": obs["meters/facility_energy"] / 3.6e9,
        "it_MWh": obs["meters/it_energy"] / 3.6e9,
        "cooling_MWh": obs["meters/cooling_energy"] / 3.6e9,
        "water_m3": sum(obs["meters/" + k] for k in ("evaporation", "drift", "blowdown", "spray")),
        "max_gpu_C": max_gpu_K - 273.15,
        "tcs_min_C": min(setpoints),
        "tcs_max_C": max(setpoints),
    }


def fixed(sim, obs):
    return {}


def reset_toward(gpu_target_C):
    def reset(sim, obs):
        tcs = sim.controls["tcs_supply_temp_C"]
        error = gpu_target_C - (obs["cooling/max_gpu_junction_temp"] - 273.15)
        move = max(-MAX_MOVE_K, min(MAX_MOVE_K, GAIN * error))
        new = max(LIMITS_C[0], min(LIMITS_C[1], tcs + move))
        return {"tcs_supply_temp_C": new, "fws_supply_temp_C": new - APPROACH_K}
    return reset


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--start", default="07-15", help="MM-DD (default: a hot July week)")
    ap.add_argument("--days", type=int, default=7)
    ap.add_argument("--gpu-target", type=float, default=GPU_TARGET_C,
                    help="hottest GPU die temperature the reset aims at [C]")
    args = ap.parse_args()
    sc = week(args.start, args.days)
    runs = {"fixed 35 C": simulate(sc, fixed), "reset": simulate(sc, reset_toward(args.gpu_target))}
    print(f"{args.days} days from {args.start}, reset toward a hottest GPU of "
          f"{args.gpu_target:.0f} C")
    keys = ["facility_MWh", "it_MWh", "cooling_MWh", "water_m3", "max_gpu_C", "tcs_min_C",
            "tcs_max_C"]
    print(f"{'':12}" + "".join(f"{k:>13}" for k in keys))
    for name, r in runs.items():
        print(f"{name:12}" + "".join(f"{r[k]:13.3f}" for k in keys))
    a, b = runs["fixed 35 C"], runs["reset"]
    print(f"reset vs fixed: facility energy {100 * (b['facility_MWh'] / a['facility_MWh'] - 1):+.2f} %,"
          f" cooling energy {100 * (b['cooling_MWh'] / a['cooling_MWh'] - 1):+.1f} %,"
          f" water {100 * (b['water_m3'] / a['water_m3'] - 1):+.1f} %,"
          f" hottest GPU {b['max_gpu_C'] - a['max_gpu_C']:+.1f} K")
    return 0


if __name__ == "__main__":
    sys.exit(main())
