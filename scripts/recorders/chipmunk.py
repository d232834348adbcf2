#!/usr/bin/env python3
"""Records Chipmunk2D (through pymunk) springs and decays as traces for
`kinetics compare`. A body of mass 1 on a DampedSpring to a static anchor
(the spring), and a free body slowed by the space's damping (the decay).

Usage: chipmunk.py OUTPUT_FOLDER
Each sample is the body's position after a step, at the time that step ends
(step k of length h ends at k*h); printed with repr, every bit kept."""
import math
import sys

import pymunk

FOLDER = sys.argv[1]


def write(name, rows):
    with open(f"{FOLDER}/{name}", "w") as out:
        out.write("time,value,velocity\n")
        for row in rows:
            out.write(",".join(repr(float(v)) for v in row) + "\n")


def spring(tension, friction, fps, seconds=1.5):
    space = pymunk.Space()
    body = pymunk.Body(1.0, float("inf"))
    body.position = (0, 0)
    space.add(body)
    # The anchor at x = 2 and a rest length of 1: the body rests at x = 1.
    space.add(pymunk.DampedSpring(space.static_body, body, (2, 0), (0, 0), 1.0, tension, friction))
    h = 1 / fps
    rows = [(0.0, 0.0, 0.0)]
    for k in range(1, int(round(seconds * fps)) + 1):
        space.step(h)
        rows.append((k * h, body.position.x, body.velocity.x))
    return rows


def decay(velocity, deceleration, fps, seconds=3.0):
    space = pymunk.Space()
    # Chipmunk's damping is the fraction of velocity a body keeps after 1 s.
    space.damping = deceleration ** 1000
    body = pymunk.Body(1.0, float("inf"))
    body.position = (0, 0)
    body.velocity = (velocity, 0)
    space.add(body)
    h = 1 / fps
    rows = [(0.0, 0.0, velocity)]
    for k in range(1, int(round(seconds * fps)) + 1):
        space.step(h)
        rows.append((k * h, body.position.x, body.velocity.x))
    return rows


for tension, friction in [(300, 12), (2000, 40)]:
    for fps in (60, 120):
        write(f"chipmunk-spring-k{tension}-c{friction}-{fps}hz.csv", spring(tension, friction, fps))
for fps in (60, 120):
    write(f"chipmunk-decay-{fps}hz.csv", decay(100.0, 0.998, fps))
print(f"pymunk {pymunk.version} (Chipmunk {pymunk.chipmunk_version})")
