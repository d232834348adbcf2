/*
 * Bullet 3 (Debian's libbullet-dev 3.24, its default single-precision
 * build) behind the interface of kinetics_engine.h (version 2), for
 * `kinetics bench --engine-library` and `kinetics verify --engine-library`.
 * Built by scripts/engines/build-peers.sh.
 *
 * How a Bullet user makes a spring: btGeneric6DofSpring2Constraint, the
 * constraint whose axes each take a spring (enableSpring, setStiffness,
 * setDamping, setEquilibriumPoint; the "6DofSpring2" example of Bullet's
 * example browser). Here each animation is one btRigidBody of the
 * animation's mass, moving along x only and not turning (linear factor
 * (1, 0, 0), angular factor 0), with an empty collision shape and a
 * place of its own along z (so that no two bodies' bounds overlap and
 * nothing collides), never deactivated, in a world without gravity. Its constraint
 * joins it to the world (the one-body constructor), every axis free but
 * x, whose spring has stiffness = tension and damping = friction and its
 * equilibrium at the target. Every frame is one stepSimulation of the
 * frame's length without substeps (maxSubSteps 0: one step of the given
 * length) for every spring at once, with the solver's 10 iterations. A
 * retarget moves the equilibrium point; a replacement gives the same body
 * and constraint the new mass, parameters and velocity.
 *
 * setStiffness and setDamping limit, by default, a spring too stiff or too
 * damped for the step (btGeneric6DofSpring2Constraint::
 * get_limit_motor_info2: the stiffness is lowered to m/(16h²) when
 * ω·h > 0.25, about ω > 15 rad/s at 60 Hz; the damping to m/h). That
 * would run another spring than the one asked for, so both are set with
 * the limit off (their third argument, false).
 *
 * Bullet's spring row (get_limit_motor_info2) is an impulse of
 * (k·error − c·velocity)·h from the state at the start of the step; the
 * solver applies it to the velocity, and the body then moves with its new
 * velocity (integrateTransforms): velocity-first symplectic Euler with the
 * damping as a force, one step per frame, in float. It is stable only
 * while ω·h < 2: the stiffest springs at low frame rates grow each frame;
 * one whose position or velocity passes DIVERGED is NaN from then on and
 * its body is held still. A spring stops where Pop stops it (|x - to| and
 * |v| both below its threshold; snapped to its target and held there); a
 * threshold of 0, as verify gives, never stops it.
 *
 * Scalar springs only; create refuses anything else, naming it.
 */
#include <BulletCollision/CollisionDispatch/btSimulationIslandManager.h>
#include <btBulletDynamicsCommon.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <new>
#include <vector>

#include "kinetics_engine.h"
#include "peer_springs.h"

namespace {

constexpr double DIVERGED = 1e30;

struct Animation {
    std::unique_ptr<btRigidBody> body;
    std::unique_ptr<btGeneric6DofSpring2Constraint> spring;
    double origin = 0;  /* the body's x when its constraint was made */
    double to = 0, threshold = 0;
    double value = 0;   /* the value written at the last tick */
    bool running = false;
};

struct Engine {
    btDefaultCollisionConfiguration configuration;
    btCollisionDispatcher dispatcher{&configuration};
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    btDiscreteDynamicsWorld world{&dispatcher, &broadphase, &solver, &configuration};
    btEmptyShape shape;
    std::vector<Animation> animations;
    int64_t running = 0;
    double time = 0;

    ~Engine() {
        for (Animation &a : animations) {
            if (a.spring) world.removeConstraint(a.spring.get());
            if (a.body) world.removeRigidBody(a.body.get());
        }
    }
};

/* Where body index sits along z: its index's lowest 20 bits reversed, a
 * distinct whole number (exact in float) below 2^20 for the first 2^20
 * bodies. Added in index order at z = index, the broadphase's tree
 * (btDbvt::insert, which descends to the nearest leaf) grew into a chain
 * and adding the bodies took time quadratic in their number (3.3 s for
 * 12,000); in this order it stays balanced. */
btScalar lane(size_t index) {
    uint32_t reversed = 0;
    for (int bit = 0; bit < 20; bit++) reversed |= uint32_t((index >> bit) & 1) << (19 - bit);
    return btScalar(reversed);
}

/* Places a's body at x along its own line, moving at v. */
void place(Animation &a, double x, double v) {
    btTransform transform = a.body->getWorldTransform();
    transform.getOrigin().setX(btScalar(x));
    a.body->setWorldTransform(transform);
    a.body->setLinearVelocity(btVector3(btScalar(v), 0, 0));
    a.body->setAngularVelocity(btVector3(0, 0, 0));
}

/* (Re)starts a's spring from x with the spec's velocity: on the same body
 * and constraint once they exist. */
void start(Engine &e, Animation &a, size_t index, const kinetics_animation &spec, double x) {
    btScalar mass = btScalar(spec.mass);
    if (!a.body) {
        btTransform transform;
        transform.setIdentity();
        transform.setOrigin(btVector3(btScalar(x), 0, lane(index)));
        btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, &e.shape, btVector3(1, 1, 1));
        info.m_startWorldTransform = transform;
        a.body.reset(new btRigidBody(info));
        a.body->setLinearFactor(btVector3(1, 0, 0));
        a.body->setAngularFactor(btVector3(0, 0, 0));
        a.body->setActivationState(DISABLE_DEACTIVATION);
        e.world.addRigidBody(a.body.get());
        btTransform frame;
        frame.setIdentity();
        a.spring.reset(new btGeneric6DofSpring2Constraint(*a.body, frame));
        a.spring->setLinearLowerLimit(btVector3(1, 1, 1));   /* lower above upper: free */
        a.spring->setLinearUpperLimit(btVector3(-1, -1, -1));
        a.spring->setAngularLowerLimit(btVector3(1, 1, 1));
        a.spring->setAngularUpperLimit(btVector3(-1, -1, -1));
        a.spring->enableSpring(0, true);
        e.world.addConstraint(a.spring.get());
        a.origin = x;
    } else {
        a.body->setMassProps(mass, btVector3(1, 1, 1));
    }
    place(a, x, spec.velocity);
    a.spring->setStiffness(0, btScalar(spec.tension), false);
    a.spring->setDamping(0, btScalar(spec.friction), false);
    a.spring->setEquilibriumPoint(0, btScalar(spec.to - a.origin));
    a.to = spec.to;
    a.threshold = spec.threshold;
    a.value = x;
    if (!a.running) e.running++;
    a.running = true;
}

/* Holds a finished spring still at its target, where its spring pulls with
 * no force; it stays in the world, as a game keeps a body it will animate
 * again. A diverged one is held where it is. */
void settle(Engine &e, Animation &a, double value) {
    if (std::isfinite(value)) place(a, a.to, 0);
    else a.body->setLinearVelocity(btVector3(0, 0, 0));
    if (!std::isfinite(value)) a.spring->setStiffness(0, 0, false);
    a.value = value;
    if (a.running) e.running--;
    a.running = false;
}

void *bullet_create(const kinetics_workload *workload, char *error, size_t error_size) {
    if (!peer_springs_usable("bullet", workload, error, error_size)) return nullptr;
    Engine *e = new (std::nothrow) Engine;
    if (!e) return nullptr;
    e->world.setGravity(btVector3(0, 0, 0));
    /* One solver group for the whole world: split, every spring is an
     * island of its own and processIsland looks for each island's first
     * constraint by a linear search, quadratic in the springs (6,000 took
     * half a second a frame). The springs do not touch, so one group solves
     * each exactly as its own island would. */
    e->world.getSimulationIslandManager()->setSplitIslands(false);
    e->animations.resize(size_t(workload->count));
    for (int64_t i = 0; i < workload->count; i++)
        start(*e, e->animations[size_t(i)], size_t(i), workload->animations[i], workload->initial[i]);
    return e;
}

void bullet_replace(void *handle, int64_t index, const kinetics_animation *spec) {
    Engine &e = *static_cast<Engine *>(handle);
    /* A diverged spring's value is NaN, which would poison the world's
     * broadphase: its replacement starts from the new target instead. */
    if (Animation *a = PEER_REPLACED(e, index, spec))
        start(e, *a, size_t(index), *spec, std::isfinite(a->value) ? a->value : spec->to);
}

void bullet_retarget(void *handle, int64_t index, double to) {
    Engine &e = *static_cast<Engine *>(handle);
    Animation *a = PEER_AT(e, index);
    if (!a || !a->running) return;
    a->to = to;
    a->spring->setEquilibriumPoint(0, btScalar(to - a->origin));
}

void bullet_tick(void *handle, double time) {
    Engine &e = *static_cast<Engine *>(handle);
    double dt = time - e.time;
    e.time = time;
    if (dt > 0) e.world.stepSimulation(btScalar(dt), 0);
    for (Animation &a : e.animations) {
        if (!a.running) continue;
        double x = a.body->getWorldTransform().getOrigin().x(), v = a.body->getLinearVelocity().x();
        a.value = x;
        if (!(std::fabs(x) < DIVERGED && std::fabs(v) < DIVERGED))
            settle(e, a, NAN);
        else if (std::fabs(x - a.to) < a.threshold && std::fabs(v) < a.threshold)
            settle(e, a, a.to);
    }
}

PEER_READERS(bullet)

void bullet_destroy(void *handle) { delete static_cast<Engine *>(handle); }

}  // namespace

KINETICS_ENGINE_EXPORT(bullet, "bullet")
