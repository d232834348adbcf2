#!/usr/bin/env python3
"""Box2D (through pybox2d) as an engine for `kinetics verify
--engine-command`: springs and decays, each case in a world of its own, with
Box2D's defaults (8 velocity and 3 position iterations, as its testbed;
sleeping allowed; at most 2 units of travel per step).

- spring: a body of the case's mass on a soft distance joint to a static
  anchor at x = to + 4 of length 4, its frequency and damping ratio those of
  the case's spring, so that the body rests at `to` and never reaches the
  anchor; it starts at `from` with the case's velocity.
- decay: a free body of mass 1 whose linear damping is the decay's rate,
  -1000 ln(deceleration) per second.

Box2D keeps positions in single precision: its errors cannot go much below
1e-7 of the motion whatever its scheme.

    python3 -m pip install Box2D
    kinetics verify --suite spring --suite decay \
        --engine-command 'python3 scripts/engines/box2d.py' --engine-name box2d
"""
import math

import Box2D
from Box2D import b2

from protocol import frames, serve

REST = 4.0


def body_of_mass(world, mass, start, velocity):
    body = world.CreateDynamicBody(position=(start, 0), fixedRotation=True)
    body.CreatePolygonFixture(box=(0.05, 0.05), density=1.0)
    body.massData = b2.massData(mass=mass, center=(0, 0), I=1.0)
    body.linearVelocity = (velocity, 0)
    return body


def run(world, body, times):
    values, velocities = [body.position.x], [body.linearVelocity.x]
    for h in frames(times):
        if h > 0:
            world.Step(h, 8, 3)
        values.append(body.position.x)
        velocities.append(body.linearVelocity.x)
    return values, velocities


def spring(case):
    world = b2.world(gravity=(0, 0))
    ground = world.CreateStaticBody(position=(0, 0))
    body = body_of_mass(world, case["mass"], case["from"], case["velocity"])
    omega = math.sqrt(case["tension"] / case["mass"])
    joint = world.CreateDistanceJoint(
        bodyA=ground, bodyB=body, anchorA=(case["to"] + REST, 0), anchorB=(case["from"], 0),
        frequencyHz=omega / (2 * math.pi), dampingRatio=case["dampingRatio"], collideConnected=False)
    joint.length = REST
    return run(world, body, case["times"])


def decay(case):
    world = b2.world(gravity=(0, 0))
    body = body_of_mass(world, 1.0, case["from"], case["velocity"])
    body.linearDamping = -1000 * math.log(case["deceleration"])
    return run(world, body, case["times"])


serve(f"box2d (pybox2d {Box2D.__version__})", spring=spring, decay=decay)
