#!/usr/bin/env python3
"""Writes data/traces/nvidia_smi_training_8gpu.csv, the example log of issue 11.

A synthetic log, generated here (no measured data): what
`nvidia-smi --query-gpu=timestamp,index,power.draw,utilization.gpu,temperature.gpu
--format=csv -lms 100` prints for 8 H100 SXM GPUs running data-parallel training for 30 s.
Each iteration of 1.6 s has 1.0 s of compute (~660 W, 97-100 %) and 0.6 s of communication
(~240 W, 20-35 %); the 8 GPUs are in step (one job), their rows 1 ms apart within a polling
cycle, with a few watts of noise from a seeded generator so the file is reproducible.

Usage: python3 scripts/make_example_nvidia_smi_log.py [OUTPUT]
"""
import random
import sys

PERIOD_S, COMPUTE_S, POLL_S, SPAN_S, GPUS = 1.6, 1.0, 0.1, 30.0, 8


def main() -> None:
    out = sys.argv[1] if len(sys.argv) > 1 else "data/traces/nvidia_smi_training_8gpu.csv"
    rng = random.Random(11)
    lines = ["timestamp, index, power.draw [W], utilization.gpu [%], temperature.gpu"]
    cycles = int(round(SPAN_S / POLL_S))
    for c in range(cycles):
        t = c * POLL_S
        compute = (t + 1e-9) % PERIOD_S < COMPUTE_S
        for g in range(GPUS):
            ms = int(round(t * 1000)) + g
            stamp = "2025/01/31 12:%02d:%02d.%03d" % (ms // 60000, ms // 1000 % 60, ms % 1000)
            if compute:
                p, u = 660.0 + rng.uniform(-8, 8), rng.randint(97, 100)
            else:
                p, u = 240.0 + rng.uniform(-8, 8), rng.randint(20, 35)
            temp = 60 + g % 3 + int(5 * (t / SPAN_S))
            lines.append(f"{stamp}, {g}, {p:.2f} W, {u} %, {temp}")
    with open(out, "w", newline="\n") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
