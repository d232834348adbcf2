#!/usr/bin/env python3
"""Records Box2D (through pybox2d) springs and decays as traces for
`kinetics compare`: a body of mass 1 on a soft distance joint (frequency and
damping ratio from the spring's tension and friction) to a static anchor,
and a free body slowed by its linear damping.

Usage: box2d.py OUTPUT_FOLDER
Each sample is the body's position after a step, at the time that step ends.
Box2D moves a body at most 2 units a step (b2_maxTranslation), 120 units/s at
60 Hz: the decay is thrown at 100 units/s so that the limit never applies."""
import math
import sys

import traces

import Box2D
from Box2D import b2

FOLDER = sys.argv[1]


def body_of_mass_1(world):
    body = world.CreateDynamicBody(position=(0, 0), fixedRotation=True)
    body.CreatePolygonFixture(box=(0.05, 0.05), density=1.0)
    body.massData = b2.massData(mass=1.0, center=(0, 0), I=1.0)
    return body


def step(world):
    # 8 velocity and 3 position iterations, as Box2D's testbed.
    return lambda h: world.Step(h, 8, 3)


def sample(body):
    return lambda: (body.position.x, body.linearVelocity.x)


def spring(tension, friction, fps, seconds=1.5):
    world = b2.world(gravity=(0, 0))
    ground = world.CreateStaticBody(position=(0, 0))
    body = body_of_mass_1(world)
    omega = math.sqrt(tension)
    joint = world.CreateDistanceJoint(
        bodyA=ground, bodyB=body, anchorA=(2, 0), anchorB=(0, 0),
        frequencyHz=omega / (2 * math.pi), dampingRatio=friction / (2 * omega), collideConnected=False)
    joint.length = 1.0  # the body rests at x = 1
    return traces.record(step(world), sample(body), (0.0, 0.0, 0.0), fps, seconds)


def decay(velocity, deceleration, fps, seconds=3.0):
    world = b2.world(gravity=(0, 0))
    body = body_of_mass_1(world)
    # Box2D's linear damping is a rate per second: the decay's λ.
    body.linearDamping = -1000 * math.log(deceleration)
    body.linearVelocity = (velocity, 0)
    return traces.record(step(world), sample(body), (0.0, 0.0, velocity), fps, seconds)


traces.write_all(FOLDER, "box2d", spring, decay)
print(f"pybox2d {Box2D.__version__}")
