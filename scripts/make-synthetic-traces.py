#!/usr/bin/env python3
"""Writes the synthetic traces in data/traces/synthetic/ (run from the
repository root after `swift build`): each is named for the scheme that made
it, written out plainly here, at its own frame times and printing precision;
the Pop traces come from `kinetics trace --method pop`. Traces recorded from
real engines are made by scripts/record-engines.sh."""
import math
import random
import subprocess

TENSION, FRICTION = 300.0, 12.0  # mass 1: ω ≈ 17.3 rad/s, ζ ≈ 0.35


def write(name, rows, header="time,value", digits=None):
    with open(f"data/traces/synthetic/{name}", "w") as out:
        out.write(header + "\n")
        for row in rows:
            out.write(",".join(repr(v) if digits is None else f"{v:.{digits}f}" for v in row) + "\n")


def jittered_times(fps, seconds, seed, drop=0.1):
    """Frames near k/fps, each moved by up to 20% of a frame, some dropped."""
    rng = random.Random(seed)
    times, k = [], 1
    while k / fps <= seconds:
        if rng.random() >= drop:
            times.append((k + rng.uniform(-0.2, 0.2)) / fps)
        k += 1
    return times


def semi_implicit_euler(times):
    """A browser-style spring: one semi-implicit Euler step per frame."""
    x, v, last, out = 0.0, 0.0, 0.0, []
    for t in times:
        h = t - last
        last = t
        v += h * (TENSION * (1 - x) - FRICTION * v)
        x += h * v
        out.append((t, x))
    return out


def exact(times):
    """The closed form of the underdamped spring from 0 to 1 at rest."""
    alpha = FRICTION / 2
    omega_d = math.sqrt(TENSION - alpha * alpha)
    return [(t, 1 - math.exp(-alpha * t) * (math.cos(omega_d * t) + alpha / omega_d * math.sin(omega_d * t))) for t in times]


def discrete_decay(times, velocity=1500.0, d=0.998):
    """A scroll-view-style decay: position v·d·(1 - d^(1000t)) / (1000(1 - d))."""
    return [(t, velocity / 1000 * d * (1 - d ** (1000 * t)) / (1 - d)) for t in times]


write("semi-implicit-euler-60hz-jittered.csv", semi_implicit_euler(jittered_times(60, 1.5, seed=1)), digits=6)
write("closed-form-120hz-jittered.csv", exact(jittered_times(120, 1.5, seed=2, drop=0.02)))
write("discrete-decay-120hz.csv", discrete_decay([k / 120 for k in range(1, 241)]), digits=4)
for fps in (60, 120):
    trace = subprocess.run(
        [".build/debug/kinetics", "trace", "spring", "--tension", str(TENSION), "--friction", str(FRICTION),
         "--method", "pop", "--fps", str(fps), "--seconds", "1.5"],
        check=True, capture_output=True, text=True).stdout
    with open(f"data/traces/synthetic/kinetics-pop-{fps}hz.csv", "w") as out:
        out.write(trace)
