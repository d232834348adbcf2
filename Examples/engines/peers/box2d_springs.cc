/*
 * Box2D 2.4 (Debian's libbox2d-dev 2.4.1) behind the interface of
 * kinetics_engine.h (version 2), for `kinetics bench --engine-library` and
 * `kinetics verify --engine-library`. Built by scripts/engines/build-peers.sh.
 *
 * How a Box2D user makes a spring: a b2DistanceJoint given a stiffness
 * (N/m) and a damping (N·s/m) and a range of lengths wider than its rest
 * length, which makes the joint soft (b2_distance_joint.h; the testbed's
 * "Distance Joint" sample). Here each animation is one dynamic body of the
 * animation's mass (b2Body::SetMassData), without fixtures (so without
 * collision), with fixed rotation, in a world without gravity or sleeping,
 * on a distance joint of stiffness = tension and damping = friction to the
 * world's one static body. Every frame is one b2World::Step of the frame's
 * length for every spring at once, with the testbed's 8 velocity and 3
 * position iterations.
 *
 * Two of Box2D's limits shape the layout, both in world units (meters):
 * - A rest length is clamped to at least b2_linearSlop, 0.005 m
 *   (b2DistanceJoint's constructor), so a joint cannot pull a body onto
 *   its anchor. The anchor is therefore ANCHOR_DISTANCE to the left of the
 *   target and the rest length reaches the target: the body stays to the
 *   right of the anchor for its whole motion, the joint's direction is +x
 *   throughout, and its length error is the displacement from the target.
 *   A retarget sets the rest length (b2DistanceJoint::SetLength). The
 *   price is float's resolution at ANCHOR_DISTANCE from the anchor, about
 *   1e-6 of the travel.
 * - A body moves at most b2_maxTranslation, 2 m, per step. The property's
 *   value is mapped to meters by a power of two chosen from the workload
 *   (its largest distance to a target maps to at most 1/32 m), so that the
 *   grid's fastest springs (about 1,000 travels per second) stay under it
 *   at 30 Hz, as a game picks its pixels-per-meter.
 *
 * Box2D computes in float. Its soft constraint (b2DistanceJoint::
 * InitVelocityConstraints, "magic formulas": gamma = 1/(h(d + hk)),
 * bias = C·h·k·gamma) solved for the new velocity, and the position then
 * moved by it (b2Island::Solve), is backward Euler on the spring: the force
 * and the damping taken at the new state, one step per frame. A spring
 * stops where Pop stops it (|x - to| and |v| both below its threshold;
 * snapped to its target and held there); a threshold of 0, as verify
 * gives, never stops it.
 *
 * Scalar springs only; create refuses anything else, naming it.
 */
#include <box2d/box2d.h>

#include <cmath>
#include <cstdio>
#include <new>
#include <vector>

#include "kinetics_engine.h"
#include "peer_springs.h"

namespace {

/* Meters from a joint's anchor to the target it was made with: 8 of the
 * workload's longest travels at the chosen scale. */
constexpr float ANCHOR_DISTANCE = 0.25f;

struct Animation {
    b2Body *body = nullptr;
    b2DistanceJoint *joint = nullptr;
    float anchor = 0;   /* the joint's anchor, world x */
    double to = 0, threshold = 0;
    double value = 0;   /* the value written at the last tick */
    bool running = false;
};

struct Engine {
    b2World world{b2Vec2(0.0f, 0.0f)};
    b2Body *ground = nullptr;
    double scale = 1;   /* meters per unit of the property */
    std::vector<Animation> animations;
    int64_t running = 0;
    double time = 0;
};

/* Where a's joint is anchored on the ground body: ANCHOR_DISTANCE to the
 * left of the target its joint was made with, which it keeps. */
float anchor_x(const Engine &e, double to) { return float(to * e.scale) - ANCHOR_DISTANCE; }

/* The rest length that puts a's equilibrium at its target. */
float rest_length(const Engine &e, const Animation &a) { return float(a.to * e.scale) - a.anchor; }

/* (Re)starts a's spring from x with the spec's velocity. */
void start(Engine &e, Animation &a, const kinetics_animation &spec, double x) {
    a.to = spec.to;
    a.threshold = spec.threshold;
    a.value = x;
    b2Vec2 position(float(x * e.scale), 0.0f);
    b2Vec2 velocity(float(spec.velocity * e.scale), 0.0f);
    b2MassData mass;
    mass.mass = float(spec.mass);
    mass.center.SetZero();
    mass.I = 0.0f;
    if (!a.body) {
        b2BodyDef def;
        def.type = b2_dynamicBody;
        def.position = position;
        def.linearVelocity = velocity;
        def.fixedRotation = true;
        def.allowSleep = false;
        a.body = e.world.CreateBody(&def);
        a.body->SetMassData(&mass);
        a.anchor = anchor_x(e, spec.to);
        b2DistanceJointDef joint;
        joint.bodyA = e.ground;
        joint.bodyB = a.body;
        joint.localAnchorA.Set(a.anchor, 0.0f);
        joint.localAnchorB.SetZero();
        joint.length = rest_length(e, a);
        joint.minLength = 0.0f;          /* clamped to b2_linearSlop */
        joint.maxLength = 16 * ANCHOR_DISTANCE;
        joint.stiffness = float(spec.tension);
        joint.damping = float(spec.friction);
        a.joint = static_cast<b2DistanceJoint *>(e.world.CreateJoint(&joint));
    } else {
        a.body->SetMassData(&mass);
        a.body->SetTransform(position, 0.0f);
        a.body->SetLinearVelocity(velocity);
        a.joint->SetStiffness(float(spec.tension));
        a.joint->SetDamping(float(spec.friction));
        a.joint->SetLength(rest_length(e, a));
    }
    if (!a.running) e.running++;
    a.running = true;
}

/* Holds a finished spring still at its target, where its joint pulls with
 * no force. It stays in the world, as a game keeps a body it will
 * animate again. */
void settle(Engine &e, Animation &a, double value) {
    a.body->SetTransform(b2Vec2(float(a.to * e.scale), 0.0f), 0.0f);
    a.body->SetLinearVelocity(b2Vec2(0.0f, 0.0f));
    a.value = value;
    if (a.running) e.running--;
    a.running = false;
}

void *box2d_create(const kinetics_workload *workload, char *error, size_t error_size) {
    if (!peer_springs_usable("box2d", workload, error, error_size)) return nullptr;
    double travel = 0;
    for (int64_t i = 0; i < workload->count; i++)
        travel = std::fmax(travel, std::fabs(workload->animations[i].to - workload->initial[i]));
    Engine *e = new (std::nothrow) Engine;
    if (!e) return nullptr;
    e->world.SetAllowSleeping(false);
    b2BodyDef ground;
    e->ground = e->world.CreateBody(&ground);
    /* The largest power of two with travel × scale ≤ 1/32 m. */
    e->scale = travel > 0 && std::isfinite(travel) ? std::exp2(std::floor(std::log2(1.0 / (32 * travel)))) : 1.0;
    e->animations.resize(size_t(workload->count));
    for (int64_t i = 0; i < workload->count; i++)
        start(*e, e->animations[size_t(i)], workload->animations[i], workload->initial[i]);
    return e;
}

void box2d_replace(void *handle, int64_t index, const kinetics_animation *spec) {
    Engine &e = *static_cast<Engine *>(handle);
    if (Animation *a = PEER_REPLACED(e, index, spec)) start(e, *a, *spec, a->value);
}

void box2d_retarget(void *handle, int64_t index, double to) {
    Engine &e = *static_cast<Engine *>(handle);
    Animation *a = PEER_AT(e, index);
    if (!a || !a->running) return;
    a->to = to;
    a->joint->SetLength(rest_length(e, *a));
}

void box2d_tick(void *handle, double time) {
    Engine &e = *static_cast<Engine *>(handle);
    double dt = time - e.time;
    e.time = time;
    if (dt > 0) e.world.Step(float(dt), 8, 3);
    for (Animation &a : e.animations) {
        if (!a.running) continue;
        double x = double(a.body->GetPosition().x) / e.scale;
        double v = double(a.body->GetLinearVelocity().x) / e.scale;
        a.value = x;
        if (std::fabs(x - a.to) < a.threshold && std::fabs(v) < a.threshold) settle(e, a, a.to);
    }
}

PEER_READERS(box2d)

/* The world frees its bodies and joints. */
void box2d_destroy(void *handle) { delete static_cast<Engine *>(handle); }

}  // namespace

KINETICS_ENGINE_EXPORT(box2d, "box2d")
