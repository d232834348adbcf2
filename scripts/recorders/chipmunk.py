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

import traces

FOLDER = sys.argv[1]


def spring(tension, friction, fps, seconds=1.5):
    space = pymunk.Space()
    body = pymunk.Body(1.0, float("inf"))
    body.position = (0, 0)
    space.add(body)
    # The anchor at x = 2 and a rest length of 1: the body rests at x = 1.
    space.add(pymunk.DampedSpring(space.static_body, body, (2, 0), (0, 0), 1.0, tension, friction))
    return traces.record(space.step, lambda: (body.position.x, body.velocity.x), (0.0, 0.0, 0.0), fps, seconds)


def decay(velocity, deceleration, fps, seconds=3.0):
    space = pymunk.Space()
    # Chipmunk's damping is the fraction of velocity a body keeps after 1 s.
    space.damping = deceleration ** 1000
    body = pymunk.Body(1.0, float("inf"))
    body.position = (0, 0)
    body.velocity = (velocity, 0)
    space.add(body)
    return traces.record(space.step, lambda: (body.position.x, body.velocity.x), (0.0, 0.0, velocity), fps, seconds)


traces.write_all(FOLDER, "chipmunk", spring, decay)
print(f"pymunk {pymunk.version} (Chipmunk {pymunk.chipmunk_version})")
