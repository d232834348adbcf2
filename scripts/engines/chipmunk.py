#!/usr/bin/env python3
"""Chipmunk2D (through pymunk) as an engine for `kinetics verify
--engine-command`: springs and decays, each case in a space of its own.

- spring: a body of the case's mass on a DampedSpring (stiffness = tension,
  damping = friction) to a static anchor at x = to + 4 with a rest length of
  4, so that the body rests at `to` and never reaches the anchor; it starts
  at `from` with the case's velocity.
- decay: a free body, the space's damping set to the fraction of velocity
  kept after 1 s, deceleration ** 1000.

One space.step per frame, of the frame's length, as an app's loop would.

    python3 -m pip install pymunk
    kinetics verify --suite spring --suite decay \
        --engine-command 'python3 scripts/engines/chipmunk.py' --engine-name chipmunk
"""
import pymunk

from protocol import frames, serve

REST = 4.0


def run(space, body, times):
    values, velocities = [body.position.x], [body.velocity.x]
    for h in frames(times):
        if h > 0:
            space.step(h)
        values.append(body.position.x)
        velocities.append(body.velocity.x)
    return values, velocities


def spring(case):
    space = pymunk.Space()
    body = pymunk.Body(case["mass"], float("inf"))
    body.position = (case["from"], 0)
    body.velocity = (case["velocity"], 0)
    space.add(body)
    anchor = (case["to"] + REST, 0)
    space.add(pymunk.DampedSpring(space.static_body, body, anchor, (0, 0), REST, case["tension"], case["friction"]))
    return run(space, body, case["times"])


def decay(case):
    space = pymunk.Space()
    space.damping = case["deceleration"] ** 1000
    body = pymunk.Body(1.0, float("inf"))
    body.position = (case["from"], 0)
    body.velocity = (case["velocity"], 0)
    space.add(body)
    return run(space, body, case["times"])


serve(f"chipmunk (pymunk {pymunk.version})", spring=spring, decay=decay)
