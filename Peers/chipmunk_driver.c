/*
 * chipmunk_driver: the `pile`, `pyramid` and `mix` scenes of shared/spec/scenes.md ("Units for
 * the peer scenes") on Chipmunk2D 7, timed the way `dynamics-bench` times DynamicsKit.
 *
 *   chipmunk_driver <scene> <items> <steps> <warmup> [--slop METRES] [--spatial-hash]
 *
 * Builds the scene, takes <warmup> untimed steps, times <steps> steps of 1/60 s with a monotonic
 * clock (only cpSpaceStep inside the timed window) and prints ONE JSON line on stdout: the
 * throughput and a sanity check (escaped bodies, heights, speeds, awake bodies) so that a broken
 * setup shows. Errors go to stderr with exit status 2.
 *
 * Setup: metres, y up, gravity 10 m/s² down, mass from density 1 (box 1 kg, circle π/4 kg),
 * restitution 0, dt 1/60, 10 iterations, sleeping off (sleep time threshold infinite, Chipmunk's
 * default), one thread (plain cpSpace, not cpHastySpace). Choices where Chipmunk's defaults
 * assume other units or another convention:
 *  - friction: Chipmunk multiplies the two shapes' coefficients (Box2D and DynamicsKit take
 *    the geometric mean), so every shape gets sqrt(0.6) and every contact gets 0.6, as in the
 *    other engines;
 *  - collision slop: Chipmunk's default 0.1 is meant for pixel units (10 cm in metres, a tenth
 *    of a box); we use 0.005 m, Box2D's b2_linearSlop and DynamicsKit's 0.5 pt (`--slop` changes it);
 *  - broad phase: Chipmunk's default bounding-box tree (`--spatial-hash` switches to
 *    cpSpaceUseSpatialHash with 1 m cells);
 *  - collision bias and persistence: Chipmunk's defaults (unit-free).
 *
 * Build: gcc -O2 -DNDEBUG -std=c11 chipmunk_driver.c -lchipmunk -lm -o chipmunk_driver
 * (Debian: libchipmunk-dev; `dynamics-bench peers` compiles it into .build/peers/).
 */
#define _POSIX_C_SOURCE 200809L

#include <chipmunk/chipmunk.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const cpFloat kDt = 1.0 / 60.0;
static const int kIterations = 10;
static const cpFloat kFriction = 0.6;
static const cpFloat kDensity = 1.0;

/* A scene: its dynamic bodies in creation order and the region their centres must stay in. */
typedef struct {
    cpBody **bodies;
    int count;
    int staticBodies;
    cpFloat minX, maxX, minY, maxY;
} Scene;

typedef struct {
    int escaped, awake;
    double maxHeight, avgHeight, maxSpeed, meanSpeed, kineticEnergy;
} Sanity;

static void usage(const char *message) {
    fprintf(stderr,
            "chipmunk_driver: %s\nusage: chipmunk_driver <pile|pyramid|mix> <items> <steps> <warmup> "
            "[--slop METRES] [--spatial-hash]\n",
            message);
    exit(2);
}

static long parseCount(const char *text, const char *name, long minimum) {
    char *end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno != 0 || v < minimum || v > 10000000) {
        char m[160];
        snprintf(m, sizeof m, "%s must be an integer >= %ld (got '%s')", name, minimum, text);
        usage(m);
    }
    return v;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void setMaterial(cpShape *shape) {
    cpShapeSetFriction(shape, sqrt(kFriction));
    cpShapeSetElasticity(shape, 0.0);
}

static void addStaticBox(cpSpace *space, cpFloat x, cpFloat y, cpFloat hx, cpFloat hy) {
    cpBody *body = cpSpaceAddBody(space, cpBodyNewStatic());
    cpBodySetPosition(body, cpv(x, y));
    setMaterial(cpSpaceAddShape(space, cpBoxShapeNew(body, 2 * hx, 2 * hy, 0.0)));
}

static cpBody *addBox(cpSpace *space, cpFloat x, cpFloat y) {
    cpFloat mass = kDensity * 1.0 * 1.0;
    cpBody *body = cpSpaceAddBody(space, cpBodyNew(mass, cpMomentForBox(mass, 1.0, 1.0)));
    cpBodySetPosition(body, cpv(x, y));
    setMaterial(cpSpaceAddShape(space, cpBoxShapeNew(body, 1.0, 1.0, 0.0)));
    return body;
}

static cpBody *addCircle(cpSpace *space, cpFloat x, cpFloat y) {
    cpFloat radius = 0.5;
    cpFloat mass = kDensity * CP_PI * radius * radius;
    cpBody *body = cpSpaceAddBody(space, cpBodyNew(mass, cpMomentForCircle(mass, 0.0, radius, cpvzero)));
    cpBodySetPosition(body, cpv(x, y));
    setMaterial(cpSpaceAddShape(space, cpCircleShapeNew(body, radius, cpvzero)));
    return body;
}

/* pile (all boxes) and mix (even index circle, odd index box): rows of 50 in a 60 m container. */
static void buildContainer(cpSpace *space, Scene *s, int n, int mix) {
    int rows = (n + 49) / 50;
    cpFloat h = 1.1 * rows + 2.0;
    addStaticBox(space, 0.0, -0.5, 31.0, 0.5);
    addStaticBox(space, -30.5, h / 2, 0.5, h / 2);
    addStaticBox(space, 30.5, h / 2, 0.5, h / 2);
    s->staticBodies = 3;
    for (int i = 0; i < n; ++i) {
        int r = i / 50, c = i % 50;
        cpFloat x = (c - 24.5) * 1.1 + (r % 2 == 1 ? 0.25 : -0.25);
        cpFloat y = 1.0 + 1.1 * r;
        s->bodies[s->count++] = (mix && i % 2 == 0) ? addCircle(space, x, y) : addBox(space, x, y);
    }
    s->minX = -31.0; s->maxX = 31.0; s->minY = -1.0; s->maxY = 2 * h + 10.0;
}

/* pyramid: base B, B(B+1)/2 boxes touching exactly, on a 200 m ground. */
static void buildPyramid(cpSpace *space, Scene *s, int base) {
    addStaticBox(space, 0.0, -1.0, 100.0, 1.0);
    s->staticBodies = 1;
    for (int i = 0; i < base; ++i) {
        for (int j = i; j < base; ++j) {
            cpFloat x = (i + 1) * 0.5 + (j - i) - 0.5 * base;
            cpFloat y = i + 0.5;
            s->bodies[s->count++] = addBox(space, x, y);
        }
    }
    cpFloat top = (base - 1) + 0.5;
    s->minX = -101.0; s->maxX = 101.0; s->minY = -1.0; s->maxY = 2 * top + 10.0;
}

static Sanity measure(const Scene *s) {
    Sanity z = {0, 0, -INFINITY, 0, 0, 0, 0};
    double sumH = 0, sumV = 0;
    int nan = 0;
    for (int k = 0; k < s->count; ++k) {
        const cpBody *b = s->bodies[k];
        cpVect p = cpBodyGetPosition(b);
        int finite = isfinite(p.x) && isfinite(p.y);
        if (!finite || p.x < s->minX || p.x > s->maxX || p.y < s->minY || p.y > s->maxY) ++z.escaped;
        if (isnan(p.y)) nan = 1; else if (p.y > z.maxHeight) z.maxHeight = p.y;
        sumH += p.y;
        cpVect v = cpBodyGetVelocity(b);
        double speed = sqrt(v.x * v.x + v.y * v.y);
        if (speed > z.maxSpeed) z.maxSpeed = speed;
        sumV += speed;
        double w = cpBodyGetAngularVelocity(b);
        z.kineticEnergy += 0.5 * cpBodyGetMass(b) * speed * speed + 0.5 * cpBodyGetMoment(b) * w * w;
        if (!cpBodyIsSleeping(b)) ++z.awake;
    }
    if (s->count > 0) { z.avgHeight = sumH / s->count; z.meanSpeed = sumV / s->count; }
    if (nan) z.maxHeight = NAN;
    return z;
}

/* JSON has no NaN / infinity: print them as null. Returns buf. */
static const char *num(char *buf, size_t size, double v) {
    if (!isfinite(v)) snprintf(buf, size, "null");
    else snprintf(buf, size, "%.6g", v);
    return buf;
}

/* Counts the arbiters (contact pairs) with contact points once each: from the dynamic body of a
   pair with a static body, from the lower address of two dynamic bodies. data points at an int. */
static void countArbiter(cpBody *body, cpArbiter *arb, void *data) {
    if (cpArbiterGetCount(arb) == 0) return;
    cpBody *a, *b;
    cpArbiterGetBodies(arb, &a, &b);
    cpBody *other = a == body ? b : a;
    if (cpBodyGetType(other) != CP_BODY_TYPE_DYNAMIC || body < other) ++*(int *)data;
}

static void countBodyArbiters(cpBody *body, void *data) {
    if (cpBodyGetType(body) == CP_BODY_TYPE_DYNAMIC) cpBodyEachArbiter(body, countArbiter, data);
}

int main(int argc, char **argv) {
    if (argc < 5) usage("expected at least 4 arguments");
    const char *scene = argv[1];
    int items = (int)parseCount(argv[2], "items", 1);
    long steps = parseCount(argv[3], "steps", 1);
    long warmup = parseCount(argv[4], "warmup", 0);
    cpFloat slop = 0.005;
    int spatialHash = 0;
    for (int a = 5; a < argc; ++a) {
        if (strcmp(argv[a], "--spatial-hash") == 0) {
            spatialHash = 1;
        } else if (strcmp(argv[a], "--slop") == 0 && a + 1 < argc) {
            char *end = NULL;
            slop = strtod(argv[++a], &end);
            if (end == argv[a] || *end != '\0' || !(slop >= 0)) usage("--slop must be a non-negative number");
        } else {
            usage("unknown option");
        }
    }
    int pyramid = strcmp(scene, "pyramid") == 0;
    int mix = strcmp(scene, "mix") == 0;
    if (!pyramid && !mix && strcmp(scene, "pile") != 0) usage("unknown scene (known: pile, pyramid, mix)");
    if (pyramid && items > 2000) usage("pyramid base must be at most 2000");

    double buildStart = now();
    /* A Chipmunk built without NDEBUG (Debian's is) prints a banner on stdout when the first
       space is created; send it to stderr so stdout carries only the JSON line. */
    fflush(stdout);
    int savedStdout = dup(1);
    if (savedStdout >= 0) dup2(2, 1);
    cpSpace *space = cpSpaceNew();
    fflush(stdout);
    if (savedStdout >= 0) { dup2(savedStdout, 1); close(savedStdout); }

    cpSpaceSetIterations(space, kIterations);
    cpSpaceSetGravity(space, cpv(0.0, -10.0));
    cpSpaceSetSleepTimeThreshold(space, INFINITY);
    cpSpaceSetCollisionSlop(space, slop);
    size_t capacity = pyramid ? (size_t)items * (items + 1) / 2 : (size_t)items;
    if (spatialHash) cpSpaceUseSpatialHash(space, 1.0, (int)(capacity * 2 + 16));

    Scene s = {0};
    s.bodies = malloc(capacity * sizeof *s.bodies);
    if (!s.bodies) { fprintf(stderr, "chipmunk_driver: out of memory\n"); return 2; }
    if (pyramid) buildPyramid(space, &s, items); else buildContainer(space, &s, items, mix);
    double buildSeconds = now() - buildStart;
    double initialMaxHeight = measure(&s).maxHeight;

    for (long k = 0; k < warmup; ++k) cpSpaceStep(space, kDt);

    double t0 = now();
    for (long k = 0; k < steps; ++k) cpSpaceStep(space, kDt);
    double seconds = now() - t0;

    Sanity z = measure(&s);
    int touching = 0;
    cpSpaceEachBody(space, countBodyArbiters, &touching);
    double rate = seconds > 0 ? steps / seconds : INFINITY;
    int standing = isfinite(z.maxHeight) && fabs(z.maxHeight - initialMaxHeight) <= 0.01 * initialMaxHeight;

    char b[12][40];
    printf("{\"engine\":\"chipmunk\",\"version\":\"%s\",\"scene\":\"%s\",\"items\":%d,\"bodies\":%d,"
           "\"static_bodies\":%d,\"steps\":%ld,\"warmup\":%ld,\"steps_per_sec\":%s,\"ms_per_step\":%s,"
           "\"seconds\":%s,\"build_seconds\":%s,\"escaped\":%d,\"max_height\":%s,\"initial_max_height\":%s,"
           "\"avg_height\":%s,\"max_speed\":%s,\"mean_speed\":%s,\"kinetic_energy\":%s,\"awake\":%d,"
           "\"touching_contacts\":%d%s,\"settings\":\"10 iterations, sleeping off, slop %g m, %s\"}\n",
           cpVersionString, scene, items, s.count, s.staticBodies, steps, warmup,
           num(b[0], 40, rate), num(b[1], 40, rate > 0 ? 1000.0 / rate : 0), num(b[2], 40, seconds),
           num(b[3], 40, buildSeconds), z.escaped, num(b[4], 40, z.maxHeight), num(b[5], 40, initialMaxHeight),
           num(b[6], 40, z.avgHeight), num(b[7], 40, z.maxSpeed), num(b[8], 40, z.meanSpeed),
           num(b[9], 40, z.kineticEnergy), z.awake, touching,
           pyramid ? (standing ? ",\"standing\":true" : ",\"standing\":false") : "",
           (double)slop, spatialHash ? "spatial hash" : "bbtree");
    free(s.bodies);
    cpSpaceFree(space);
    return 0;
}
