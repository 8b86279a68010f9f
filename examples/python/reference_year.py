#!/usr/bin/env python3
"""The reference year from Python: runs scenarios/azure_gb300_64.json (64 GB300 NVL72 racks,
Milwaukee weather, 10-minute output), computes monthly PUE and WUE from the series, and plots
them with matplotlib into a PNG.

    PYTHONPATH=build/python python3 examples/python/reference_year.py [-o monthly.png]

Monthly figures are integrals of the sampled series (trapezoid rule over each month's
samples); the year's PUE and WUE from the model's meters are printed beside them.
"""
import argparse
import os
import sys

import matplotlib

matplotlib.use("Agg")  # no display needed: the figure goes to a file
import matplotlib.pyplot as plt
import numpy as np

import dctwin

HERE = os.path.dirname(os.path.abspath(__file__))
SCENARIO = os.path.join(HERE, "..", "..", "scenarios", "azure_gb300_64.json")


def monthly(result):
    """Per calendar month: IT and facility energy [kWh] and water [L]."""
    t = result.time
    dates = np.datetime64(result.start) + (t * 1e3).astype("timedelta64[ms]")
    months = dates.astype("datetime64[M]")
    it = result.series["power/it_power"]
    facility = result.series["power/facility_power"]
    water_total = result.series["water/water_total"]  # [m3] since the start
    assert result.units["power/it_power"] == "W" and result.units["water/water_total"] == "m3"
    rows = []
    for m in np.unique(months):
        idx = np.nonzero(months == m)[0]
        if idx[0] == len(t) - 1:
            break  # the year's closing sample (1 January 00:00) ends December
        # Include the first sample of the next month so that the months tile the year.
        idx = np.append(idx, idx[-1] + 1) if idx[-1] + 1 < len(t) else idx
        e_it = np.trapz(it[idx], t[idx]) / 3.6e6
        e_fac = np.trapz(facility[idx], t[idx]) / 3.6e6
        water_L = (water_total[idx[-1]] - water_total[idx[0]]) * 1e3
        rows.append((str(m), e_it, e_fac, water_L))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", default="reference_year_monthly.png")
    args = ap.parse_args()

    result = dctwin.run(SCENARIO)
    s = result.summary
    rows = monthly(result)
    print(f"{'month':8} {'IT MWh':>9} {'PUE':>7} {'water m3':>9} {'WUE L/kWh':>10}")
    for m, e_it, e_fac, w in rows:
        print(f"{m:8} {e_it / 1e3:9.1f} {e_fac / e_it:7.4f} {w / 1e3:9.1f} {w / e_it:10.4f}")
    e_it = sum(r[1] for r in rows)
    e_fac = sum(r[2] for r in rows)
    water = sum(r[3] for r in rows)
    print(f"{'year':8} {e_it / 1e3:9.1f} {e_fac / e_it:7.4f} {water / 1e3:9.1f} "
          f"{water / e_it:10.4f}   (from the series)")
    print(f"{'meters':8} {s['it_energy_MWh']:9.1f} {s['pue']:7.4f} {s['water_m3']:9.1f} "
          f"{s['wue_L_per_kWh']:10.4f}   (the run's summary)")

    labels = [m[5:] for m, *_ in rows]
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(8, 6), sharex=True)
    ax1.bar(labels, [r[2] / r[1] for r in rows], color="tab:blue")
    ax1.set_ylabel("PUE")
    ax1.set_ylim(1.0, max(r[2] / r[1] for r in rows) * 1.02)
    ax1.axhline(s["pue"], color="k", lw=0.8, ls="--", label=f"year {s['pue']:.3f}")
    ax1.legend(loc="upper left")
    ax2.bar(labels, [r[3] / r[1] for r in rows], color="tab:cyan")
    ax2.set_ylabel("WUE [L/kWh]")
    ax2.axhline(s["wue_L_per_kWh"], color="k", lw=0.8, ls="--",
                label=f"year {s['wue_L_per_kWh']:.3f}")
    ax2.legend(loc="upper left")
    ax2.set_xlabel(f"month of {result.start[:4]} (typical weather year)")
    fig.suptitle(s["scenario"])
    fig.tight_layout()
    fig.savefig(args.output, dpi=100)
    print(f"figure: {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
