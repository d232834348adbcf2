#!/usr/bin/env python3
"""A Kinetics engine in plain Python (standard library only).

Speaks the line protocol of docs/engines.md: reads one case per line on
standard input, writes one answer per line on standard output, as it goes.

- spring: semi-implicit (symplectic) Euler, velocity first, one step per
  frame: v += (-k(x - to) - c v)/m dt; x += v dt.
- decay: the same scheme on v' = -lambda v with lambda = -1000 ln(d), Pop's
  deceleration d per millisecond.
- bezier: Newton's method on x(t) from t = x, then bisection, to 1e-7 in x.

Run it with: kinetics verify --engine-command 'python3 Examples/engines/semi_implicit_euler.py'

--explicit steps a spring's position before its velocity (explicit Euler):
the regression that docs/engines.md's gate over a region catches.
"""
import json
import math
import sys

PROTOCOL = 1
EXPLICIT = "--explicit" in sys.argv[1:]


def spring(case):
    k, c, m = case["tension"], case["friction"], case["mass"]
    x, v, to = case["from"], case["velocity"], case["to"]
    values, velocities, previous = [], [], case["times"][0]
    for t in case["times"]:
        dt = t - previous
        previous = t
        if dt > 0 and EXPLICIT:
            x, v = x + v * dt, v + (-k * (x - to) - c * v) / m * dt
        elif dt > 0:
            v += (-k * (x - to) - c * v) / m * dt
            x += v * dt
        values.append(x)
        velocities.append(v)
    return values, velocities


def decay(case):
    rate = -1000.0 * math.log(case["deceleration"])
    x, v = case["from"], case["velocity"]
    values, velocities, previous = [], [], case["times"][0]
    for t in case["times"]:
        dt = t - previous
        previous = t
        if dt > 0:
            v -= rate * v * dt
            x += v * dt
        values.append(x)
        velocities.append(v)
    return values, velocities


def bezier(case):
    x1, y1, x2, y2 = case["x1"], case["y1"], case["x2"], case["y2"]
    cx, cy = 3 * x1, 3 * y1
    bx, by = 3 * (x2 - x1) - cx, 3 * (y2 - y1) - cy
    ax, ay = 1 - cx - bx, 1 - cy - by

    def curve_x(t):
        return ((ax * t + bx) * t + cx) * t

    def solve(x):
        t = x
        for _ in range(8):
            error = curve_x(t) - x
            if abs(error) < 1e-7:
                return t
            slope = (3 * ax * t + 2 * bx) * t + cx
            if abs(slope) < 1e-6:
                break
            t -= error / slope
        low, high, t = 0.0, 1.0, x
        while low < high:
            value = curve_x(t)
            if abs(value - x) < 1e-7:
                return t
            if x > value:
                low = t
            else:
                high = t
            t = (high - low) / 2 + low
            if high - low < 1e-15:
                break
        return t

    values = []
    for x in case["x"]:
        t = solve(x)
        values.append(((ay * t + by) * t + cy) * t)
    return values, None


SOLVERS = {"spring": spring, "decay": decay, "bezier": bezier}


def main():
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        case = json.loads(line)
        if case.get("protocol") != PROTOCOL:
            answer = {"id": case.get("id", "?"), "error": "this engine speaks protocol %d" % PROTOCOL}
        else:
            values, velocities = SOLVERS[case["kind"]](case)
            answer = {"id": case["id"], "values": values}
            if velocities is not None:
                answer["velocities"] = velocities
        out.write(json.dumps(answer))
        out.write("\n")
    out.flush()


if __name__ == "__main__":
    main()
