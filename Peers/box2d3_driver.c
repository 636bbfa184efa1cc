/*
 * box2d3_driver: the `pile`, `pyramid` and `mix` scenes of shared/spec/scenes.md ("Units for the
 * peer scenes") on Box2D v3 (3.1 from the pyb2d3 wheel, or a newer source tree), timed the way
 * `dynamics-bench` times DynamicsKit.
 *
 *   box2d3_driver <scene> <items> <steps> <warmup> <threads> [sleep] [rolling=C]
 *
 * Builds the scene, takes <warmup> untimed steps, times <steps> steps of 1/60 s with a monotonic
 * clock (only b2World_Step inside the timed window) and prints ONE JSON line on stdout: the
 * throughput and a sanity check (escaped bodies, heights, speeds, awake bodies) so that a broken
 * setup shows. Errors go to stderr with exit status 2.
 *
 * Setup (the same bodies as the Box2D 2.4 and Chipmunk drivers and DynamicsKit's scenes): metres,
 * y up, gravity 10 m/s² down, every shape density 1, friction 0.6, restitution 0, dt 1/60,
 * 4 sub-steps, Box2D's defaults otherwise (continuous on, contact hertz, pushout, ...). Sleeping
 * is off (b2WorldDef.enableSleep = false) unless an argument after <threads> is `sleep`;
 * `rolling=C` gives every shape rolling resistance C (b2SurfaceMaterial.rollingResistance,
 * default 0).
 *
 * Threads: with <threads> = 1 Box2D runs on the calling thread. With more:
 *  - Box2D 3.1 (default build): the driver gives Box2D a task system through
 *    b2WorldDef.enqueueTask / finishTask / workerCount / userTaskContext: the calling thread
 *    (worker 0) plus <threads> − 1 long-lived helper threads (workers 1 …) that claim ranges of
 *    every enqueued task's item range. The v3.1 solver enqueues one task per worker whose
 *    workers > 0 spin until worker 0 drives the stages, so every task is claimable by every
 *    thread, oldest first, and the calling thread helps with any open task while it waits in
 *    finishTask (with T threads and T − 1 such waiting tasks, one thread is always free to run
 *    worker 0's task).
 *  - -DB2_V32 (a Box2D 3.2 source tree): Box2D schedules its own worker threads when
 *    workerCount > 1 and no task callbacks are set, so the driver only sets workerCount.
 *
 * Build (3.1, the pyb2d3 0.11.1 wheel unpacked by scripts/install-deps --peers into
 * .build/peers/box2d3/):
 *   gcc -O2 -DNDEBUG -std=c11 -pthread -I .build/peers/box2d3/include box2d3_driver.c \
 *       .build/peers/box2d3/lib64/libbox2d.a -lm -o box2d3_driver
 * (`dynamics-bench peers` does this; with --box2d-source DIR it compiles the tree's src/ *.c
 * files with this one and -DB2_V32.)
 */
#define _POSIX_C_SOURCE 200809L

#include <box2d/box2d.h>

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define CPU_PAUSE() _mm_pause()
#elif defined(__aarch64__)
#define CPU_PAUSE() __asm__ __volatile__("yield")
#else
#define CPU_PAUSE() ((void)0)
#endif

static const float kDensity = 1.0f;
static const float kFriction = 0.6f;
static const float kRestitution = 0.0f;
static const float kDt = 1.0f / 60.0f;
static const int kSubSteps = 4;
enum { kMaxThreads = 64 };

#if !defined(B2_V32)
/* ---------------------------------------------------------------------------------------------
 * The task system for Box2D 3.1 (threads > 1): a ring of task slots. The calling thread is the
 * only one that enqueues and finishes tasks. A slot's claim state is one 64-bit word:
 * (task sequence number << 32) | next unclaimed item, advanced by compare-and-swap. Reusing a
 * slot first sets its state to 0 (no sequence), then writes the task's fields, then publishes
 * the new state, all sequentially consistent: a helper whose claim succeeds therefore read the
 * fields of the task it claimed from, never half of a later one.
 * ------------------------------------------------------------------------------------------- */

enum { kRing = 256 };

typedef struct {
    _Atomic uint64_t state;        /* (seq << 32) | next item; seq 0 = never used */
    _Atomic(b2TaskCallback *) fn;
    _Atomic(void *) context;
    _Atomic int itemCount;
    _Atomic int chunk;
    _Atomic int done;              /* items completed */
    bool busy;                     /* enqueued and not finished yet (calling thread only) */
} TaskSlot;

typedef struct {
    TaskSlot slots[kRing];
    _Atomic uint32_t published;    /* tasks enqueued so far; task k (1-based) lives in slot k % kRing */
    int outstanding;               /* enqueued and not finished (calling thread only) */
    int threads;
    pthread_t helpers[kMaxThreads];
    _Atomic bool quit;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    _Atomic int sleepers;
    long serialFallbacks;          /* tasks run inline because the ring was full */
} TaskSystem;

typedef struct {
    TaskSystem *system;
    uint32_t workerIndex;
} HelperArgs;

static HelperArgs helperArgs[kMaxThreads];

/* Claims one range of task `seq` in `slot`; returns false when it has none left (or the slot
 * already holds a later task). */
static bool claimRange(TaskSlot *slot, uint32_t seq, int *start, int *end) {
    uint64_t state = atomic_load(&slot->state);
    for (;;) {
        if ((uint32_t)(state >> 32) != seq) return false;
        const int next = (int)(uint32_t)state;
        const int count = atomic_load(&slot->itemCount);
        if (next >= count) return false;
        const int chunk = atomic_load(&slot->chunk);
        const int stop = count - next <= chunk ? count : next + chunk;
        const uint64_t wanted = ((uint64_t)seq << 32) | (uint32_t)stop;
        /* Succeeds only while the slot still holds task `seq` unchanged since the loads above. */
        if (atomic_compare_exchange_weak(&slot->state, &state, wanted)) {
            *start = next;
            *end = stop;
            return true;
        }
    }
}

/* Runs one range of the oldest open task, if any; returns whether it ran something. */
static bool runOneRange(TaskSystem *ts, uint32_t workerIndex) {
    const uint32_t published = atomic_load_explicit(&ts->published, memory_order_acquire);
    const uint32_t first = published > kRing ? published - kRing + 1 : 1;
    for (uint32_t seq = first; seq <= published; ++seq) {
        TaskSlot *slot = &ts->slots[seq % kRing];
        int start, end;
        if (!claimRange(slot, seq, &start, &end)) continue;
        b2TaskCallback *fn = atomic_load(&slot->fn);
        void *context = atomic_load(&slot->context);
        fn(start, end, workerIndex, context);
        atomic_fetch_add_explicit(&slot->done, end - start, memory_order_release);
        return true;
    }
    return false;
}

/* Whether some task still has unclaimed items. */
static bool hasOpenWork(TaskSystem *ts) {
    const uint32_t published = atomic_load(&ts->published);
    const uint32_t first = published > kRing ? published - kRing + 1 : 1;
    for (uint32_t seq = first; seq <= published; ++seq) {
        TaskSlot *slot = &ts->slots[seq % kRing];
        const uint64_t state = atomic_load(&slot->state);
        if ((uint32_t)(state >> 32) == seq && (int)(uint32_t)state < atomic_load(&slot->itemCount)) return true;
    }
    return false;
}

static void *helperMain(void *raw) {
    HelperArgs *args = raw;
    TaskSystem *ts = args->system;
    int idle = 0;
    while (!atomic_load_explicit(&ts->quit, memory_order_acquire)) {
        if (runOneRange(ts, args->workerIndex)) {
            idle = 0;
            continue;
        }
        ++idle;
        if (idle < 20000) {
            CPU_PAUSE();
        } else if (idle < 20200) {
            sched_yield();
        } else {
            /* Idle for a while (between runs): sleep until the calling thread enqueues a task.
             * sleepers is raised before looking for work and the enqueuer publishes before it
             * reads sleepers (both sequentially consistent), so a wake-up cannot be missed. */
            pthread_mutex_lock(&ts->lock);
            atomic_fetch_add(&ts->sleepers, 1);
            while (!atomic_load(&ts->quit) && !hasOpenWork(ts)) pthread_cond_wait(&ts->wake, &ts->lock);
            atomic_fetch_sub(&ts->sleepers, 1);
            pthread_mutex_unlock(&ts->lock);
            idle = 0;
        }
    }
    return NULL;
}

static void *enqueueTask(b2TaskCallback *task, int itemCount, int minRange, void *taskContext, void *userContext) {
    TaskSystem *ts = userContext;
    if (itemCount <= 0) return NULL;
    const uint32_t seq = atomic_load_explicit(&ts->published, memory_order_relaxed) + 1;
    TaskSlot *slot = &ts->slots[seq % kRing];
    if (slot->busy) {
        /* The slot's task of kRing tasks ago is still open: run this one here (Box2D accepts
         * NULL = already done). Not seen in practice: a step enqueues a few dozen tasks. */
        ++ts->serialFallbacks;
        task(0, itemCount, 0, taskContext);
        return NULL;
    }
    int chunk = (itemCount + 4 * ts->threads - 1) / (4 * ts->threads);
    if (chunk < minRange) chunk = minRange;
    if (chunk < 1) chunk = 1;
    atomic_store(&slot->state, 0);  /* no claim on the slot's old task succeeds from here on */
    atomic_store(&slot->fn, task);
    atomic_store(&slot->context, taskContext);
    atomic_store(&slot->itemCount, itemCount);
    atomic_store(&slot->chunk, chunk);
    atomic_store(&slot->done, 0);
    atomic_store(&slot->state, (uint64_t)seq << 32);
    atomic_store(&ts->published, seq);
    slot->busy = true;
    ++ts->outstanding;
    if (atomic_load(&ts->sleepers) > 0) {
        pthread_mutex_lock(&ts->lock);
        pthread_cond_broadcast(&ts->wake);
        pthread_mutex_unlock(&ts->lock);
    }
    return slot;
}

static void finishTask(void *userTask, void *userContext) {
    TaskSystem *ts = userContext;
    TaskSlot *slot = userTask;
    const int count = atomic_load_explicit(&slot->itemCount, memory_order_relaxed);
    /* Help with open tasks (oldest first) until this one is complete. */
    while (atomic_load_explicit(&slot->done, memory_order_acquire) < count) {
        if (!runOneRange(ts, 0)) CPU_PAUSE();
    }
    slot->busy = false;
    --ts->outstanding;
}

static void startTaskSystem(TaskSystem *ts, int threads) {
    memset(ts, 0, sizeof *ts);
    ts->threads = threads;
    pthread_mutex_init(&ts->lock, NULL);
    pthread_cond_init(&ts->wake, NULL);
    for (int i = 1; i < threads; ++i) {
        helperArgs[i].system = ts;
        helperArgs[i].workerIndex = (uint32_t)i;
        if (pthread_create(&ts->helpers[i], NULL, helperMain, &helperArgs[i]) != 0) {
            fprintf(stderr, "box2d3_driver: cannot start helper thread %d\n", i);
            exit(2);
        }
    }
}

static void stopTaskSystem(TaskSystem *ts) {
    atomic_store(&ts->quit, true);
    pthread_mutex_lock(&ts->lock);
    pthread_cond_broadcast(&ts->wake);
    pthread_mutex_unlock(&ts->lock);
    for (int i = 1; i < ts->threads; ++i) pthread_join(ts->helpers[i], NULL);
}

#endif /* !B2_V32 */

/* ---------------------------------------------------------------------------------------------
 * Scenes
 * ------------------------------------------------------------------------------------------- */

/* The region a dynamic body's centre must stay in (metres, y up); outside it counts as escaped. */
typedef struct {
    b2BodyId *bodies; /* dynamic bodies, in creation order */
    int count;
    int staticBodies;
    float minX, maxX, minY, maxY;
} Scene;

static b2BodyId addBody(b2WorldId world, b2BodyType type, float x, float y) {
    b2BodyDef bd = b2DefaultBodyDef();
    bd.type = type;
    bd.position.x = x;
    bd.position.y = y;
    return b2CreateBody(world, &bd);
}

/* Every shape's rolling resistance (`rolling=C`; 0 by default, as Box2D's). */
static float rollingResistance = 0.0f;

static b2ShapeDef material(void) {
    b2ShapeDef sd = b2DefaultShapeDef();
    sd.density = kDensity;
    sd.material.friction = kFriction;
    sd.material.restitution = kRestitution;
    sd.material.rollingResistance = rollingResistance;
    return sd;
}

static b2BodyId addBox(b2WorldId world, b2BodyType type, float x, float y, float hx, float hy) {
    b2BodyId body = addBody(world, type, x, y);
    b2ShapeDef sd = material();
    b2Polygon box = b2MakeBox(hx, hy);
    b2CreatePolygonShape(body, &sd, &box);
    return body;
}

static b2BodyId addCircle(b2WorldId world, float x, float y, float radius) {
    b2BodyId body = addBody(world, b2_dynamicBody, x, y);
    b2ShapeDef sd = material();
    b2Circle circle = {{0.0f, 0.0f}, radius};
    b2CreateCircleShape(body, &sd, &circle);
    return body;
}

static void *allocate(size_t count, size_t size) {
    void *p = calloc(count, size);
    if (!p) {
        fprintf(stderr, "box2d3_driver: out of memory\n");
        exit(2);
    }
    return p;
}

/* The scene's seed (`seed=S`): 0 builds the scene as written; any other value shifts each body
 * of pile and mix, and each row of the pyramid, sideways by its own amount in [-4, 4] cm, so that
 * a set of seeds gives a set of nearly equal worlds. DynamicsScenes' SceneJitter computes the
 * same offsets. */
static uint64_t sceneSeed = 0;
static const float kJitter = 0.04f;

static uint64_t splitMix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* The sideways shift of body or row `index` (m). */
static float jitter(int index) {
    if (sceneSeed == 0) return 0.0f;
    const uint64_t h = splitMix(sceneSeed * 0x100000001B3ull + (uint64_t)index);
    const float u = (float)(h >> 40) * (1.0f / 16777216.0f); /* 24 bits: exact in a float */
    return (2.0f * u - 1.0f) * kJitter;
}

/* pile (all boxes) and mix (even index circle, odd index box): rows of 50 in a 60 m container. */
static Scene buildContainer(b2WorldId world, int n, bool mix) {
    Scene s = {0};
    const int rows = (n + 49) / 50;
    const float h = 1.1f * rows + 2.0f; /* wall height H */
    addBox(world, b2_staticBody, 0.0f, -0.5f, 31.0f, 0.5f);
    addBox(world, b2_staticBody, -30.5f, h / 2, 0.5f, h / 2);
    addBox(world, b2_staticBody, 30.5f, h / 2, 0.5f, h / 2);
    s.staticBodies = 3;
    s.bodies = allocate((size_t)n, sizeof(b2BodyId));
    for (int i = 0; i < n; ++i) {
        const int r = i / 50, c = i % 50;
        const float x = (c - 24.5f) * 1.1f + (r % 2 == 1 ? 0.25f : -0.25f) + jitter(i);
        const float y = 1.0f + 1.1f * r;
        s.bodies[s.count++] = mix && i % 2 == 0 ? addCircle(world, x, y, 0.5f)
                                                : addBox(world, b2_dynamicBody, x, y, 0.5f, 0.5f);
    }
    s.minX = -31.0f;
    s.maxX = 31.0f;
    s.minY = -1.0f;
    s.maxY = 2 * h + 10.0f;
    return s;
}

/* pyramid: base B, B(B+1)/2 boxes touching exactly, on a 200 m ground. */
static Scene buildPyramid(b2WorldId world, int base) {
    Scene s = {0};
    addBox(world, b2_staticBody, 0.0f, -1.0f, 100.0f, 1.0f);
    s.staticBodies = 1;
    s.bodies = allocate((size_t)base * (base + 1) / 2, sizeof(b2BodyId));
    for (int i = 0; i < base; ++i) {
        for (int j = i; j < base; ++j) {
            const float x = (i + 1) * 0.5f + (j - i) - 0.5f * base + jitter(i);
            const float y = i + 0.5f;
            s.bodies[s.count++] = addBox(world, b2_dynamicBody, x, y, 0.5f, 0.5f);
        }
    }
    const float top = (base - 1) + 0.5f;
    s.minX = -101.0f;
    s.maxX = 101.0f;
    s.minY = -1.0f;
    s.maxY = 2 * top + 10.0f;
    return s;
}

typedef struct {
    int escaped, awake;
    double maxHeight, avgHeight, maxSpeed, meanSpeed, kineticEnergy; /* ½mv² + ½Iω², J */
} Sanity;

static Sanity measure(const Scene *s) {
    Sanity out = {0};
    out.maxHeight = -INFINITY;
    double sumH = 0, sumV = 0;
    bool nan = false;
    for (int i = 0; i < s->count; ++i) {
        const b2BodyId b = s->bodies[i];
        const b2Vec2 p = b2Body_GetPosition(b);
        const bool finite = isfinite(p.x) && isfinite(p.y);
        if (!finite || p.x < s->minX || p.x > s->maxX || p.y < s->minY || p.y > s->maxY) ++out.escaped;
        if (isnan(p.y)) nan = true;
        else if (p.y > out.maxHeight) out.maxHeight = p.y;
        sumH += p.y;
        const b2Vec2 v = b2Body_GetLinearVelocity(b);
        const double speed = sqrt((double)v.x * v.x + (double)v.y * v.y);
        if (speed > out.maxSpeed) out.maxSpeed = speed;
        sumV += speed;
        const double w = b2Body_GetAngularVelocity(b);
        out.kineticEnergy += 0.5 * b2Body_GetMass(b) * speed * speed + 0.5 * b2Body_GetRotationalInertia(b) * w * w;
        if (b2Body_IsAwake(b)) ++out.awake;
    }
    if (s->count > 0) {
        out.avgHeight = sumH / s->count;
        out.meanSpeed = sumV / s->count;
    }
    if (nan) out.maxHeight = NAN;
    return out;
}

/* Bodies of the scene awake now. */
static int countAwake(const Scene *s) {
    int n = 0;
    for (int i = 0; i < s->count; ++i) n += b2Body_IsAwake(s->bodies[i]) ? 1 : 0;
    return n;
}

/* The deepest overlap of two touching shapes (m): the largest -separation over the points of
 * every body's touching contacts. */
static double deepestPenetration(const Scene *s) {
    int capacity = 64;
    b2ContactData *data = allocate((size_t)capacity, sizeof *data);
    double deepest = 0;
    for (int i = 0; i < s->count; ++i) {
        const int need = b2Body_GetContactCapacity(s->bodies[i]);
        if (need > capacity) {
            free(data);
            capacity = need;
            data = allocate((size_t)capacity, sizeof *data);
        }
        const int n = b2Body_GetContactData(s->bodies[i], data, capacity);
        for (int k = 0; k < n; ++k) {
            for (int p = 0; p < data[k].manifold.pointCount; ++p) {
                const double d = -data[k].manifold.points[p].separation;
                if (d > deepest) deepest = d;
            }
        }
    }
    free(data);
    return deepest;
}

/* Touching contacts (manifold with points), each pair once. */
static int touchingContacts(const Scene *s) {
    int capacity = 64;
    b2ContactData *data = allocate((size_t)capacity, sizeof *data);
    int touching = 0;
    for (int i = 0; i < s->count; ++i) {
        const b2BodyId b = s->bodies[i];
        const int need = b2Body_GetContactCapacity(b);
        if (need > capacity) {
            free(data);
            capacity = need;
            data = allocate((size_t)capacity, sizeof *data);
        }
        const int n = b2Body_GetContactData(b, data, capacity);
        for (int k = 0; k < n; ++k) {
            if (data[k].manifold.pointCount == 0) continue;
            const b2BodyId a = b2Shape_GetBody(data[k].shapeIdA);
            const b2BodyId c = b2Shape_GetBody(data[k].shapeIdB);
            const b2BodyId other = B2_ID_EQUALS(a, b) ? c : a;
            /* Dynamic–static once (from the dynamic side), dynamic–dynamic from the lower index. */
            if (b2Body_GetType(other) != b2_dynamicBody || b.index1 < other.index1) ++touching;
        }
    }
    free(data);
    return touching;
}

/* JSON has no NaN / infinity: print them as null. */
static const char *num(double v, char *buf, size_t size) {
    if (!isfinite(v)) snprintf(buf, size, "null");
    else snprintf(buf, size, "%.6g", v);
    return buf;
}

static void usage(const char *message) {
    fprintf(stderr,
            "box2d3_driver: %s\nusage: box2d3_driver <pile|pyramid|mix> <items> <steps> <warmup> <threads> [sleep] [rolling=C] [seed=S]\n",
            message);
    exit(2);
}

static long parseCount(const char *text, const char *name, long minimum, long maximum) {
    char *end = NULL;
    errno = 0;
    const long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno != 0 || v < minimum || v > maximum) {
        char m[160];
        snprintf(m, sizeof m, "%s must be an integer from %ld to %ld (got '%s')", name, minimum, maximum, text);
        usage(m);
    }
    return v;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    if (argc < 6 || argc > 9) usage("expected 5 to 8 arguments");
    const char *scene = argv[1];
    const int items = (int)parseCount(argv[2], "items", 1, 10000000);
    const long steps = parseCount(argv[3], "steps", 1, 10000000);
    const long warmup = parseCount(argv[4], "warmup", 0, 10000000);
    const int threads = (int)parseCount(argv[5], "threads", 1, kMaxThreads);
    bool sleep = false;
    for (int k = 6; k < argc; k++) {
        if (strcmp(argv[k], "sleep") == 0) {
            sleep = true;
        } else if (strncmp(argv[k], "rolling=", 8) == 0) {
            char *end = NULL;
            const float c = strtof(argv[k] + 8, &end);
            if (end == argv[k] + 8 || *end != '\0' || !isfinite(c) || c < 0)
                usage("rolling=C needs a finite C >= 0");
            rollingResistance = c;
        } else if (strncmp(argv[k], "seed=", 5) == 0) {
            char *end = NULL;
            errno = 0;
            const unsigned long long v = strtoull(argv[k] + 5, &end, 10);
            if (end == argv[k] + 5 || *end != '\0' || errno != 0 || argv[k][5] == '-') usage("seed=S needs a decimal S >= 0");
            sceneSeed = (uint64_t)v;
        } else {
            usage("the optional arguments after <threads> are 'sleep', 'rolling=C' and 'seed=S'");
        }
    }
    const bool pyramid = strcmp(scene, "pyramid") == 0;
    if (!pyramid && strcmp(scene, "pile") != 0 && strcmp(scene, "mix") != 0)
        usage("unknown scene (known: pile, pyramid, mix)");
    if (pyramid && items > 2000) usage("pyramid base must be at most 2000");

#if !defined(B2_V32)
    static TaskSystem tasks;
#endif
    const double buildStart = now();
    b2WorldDef wd = b2DefaultWorldDef();
    wd.gravity = (b2Vec2){0.0f, -10.0f};
    wd.enableSleep = sleep;
    wd.workerCount = threads;
#if defined(B2_V32)
    const char *scheduler = threads > 1 ? "Box2D's own worker threads" : "calling thread";
#else
    const char *scheduler = "calling thread";
    if (threads > 1) {
        startTaskSystem(&tasks, threads);
        wd.enqueueTask = enqueueTask;
        wd.finishTask = finishTask;
        wd.userTaskContext = &tasks;
        scheduler = "the driver's task system";
    }
#endif
    const b2WorldId world = b2CreateWorld(&wd);
    Scene s = pyramid ? buildPyramid(world, items) : buildContainer(world, items, strcmp(scene, "mix") == 0);
    const double buildSeconds = now() - buildStart;
    const double initialMaxHeight = measure(&s).maxHeight;

    /* With sleeping on, the first warm-up step after which no body is awake (checked between
     * steps, outside the timed loop). */
    long restStep = -1;
    double restPenetration = 0;
    for (long k = 0; k < warmup; ++k) {
        b2World_Step(world, kDt, kSubSteps);
        if (sleep && restStep < 0 && countAwake(&s) == 0) {
            restStep = k + 1;
            restPenetration = deepestPenetration(&s);
        }
    }

    const double t0 = now();
    for (long k = 0; k < steps; ++k) b2World_Step(world, kDt, kSubSteps);
    const double seconds = now() - t0;

    const Sanity z = measure(&s);
    const int touching = touchingContacts(&s);
    const double rate = seconds > 0 ? steps / seconds : INFINITY;
    /* The pyramid stands when its maximum height stays within 1 % of the start (v3 polygons have
     * no skin: b2MakeBox gives radius 0). */
    const bool standing = isfinite(z.maxHeight) && z.maxHeight >= 0.99 * initialMaxHeight &&
                          z.maxHeight <= 1.01 * initialMaxHeight;

    const b2Version v = b2GetVersion();
    char rollingText[48] = "";
    if (rollingResistance > 0) snprintf(rollingText, sizeof rollingText, ", rolling resistance %g", rollingResistance);
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    char b[12][32];
    printf("{\"engine\":\"box2d3\",\"version\":\"%d.%d.%d\",\"scene\":\"%s\",\"items\":%d,\"bodies\":%d,"
           "\"static_bodies\":%d,\"steps\":%ld,\"warmup\":%ld,\"threads\":%d,\"sleep\":%s,\"steps_per_sec\":%s,"
           "\"ms_per_step\":%s,\"seconds\":%s,\"build_seconds\":%s,\"escaped\":%d,\"max_height\":%s,"
           "\"initial_max_height\":%s,\"avg_height\":%s,\"max_speed\":%s,\"mean_speed\":%s,\"kinetic_energy\":%s,"
           "\"awake\":%d,\"seconds_to_rest\":%s,\"penetration_at_rest\":%s,\"touching_contacts\":%d,\"peak_rss_bytes\":%ld%s,"
           "\"seed\":%llu,"
           "\"settings\":\"4 sub-steps, sleeping %s, %d worker%s, %s%s%s\"}\n",
           v.major, v.minor, v.revision, scene, items, s.count, s.staticBodies, steps, warmup, threads,
           sleep ? "true" : "false", num(rate, b[0], 32), num(rate > 0 ? 1000.0 / rate : 0, b[1], 32),
           num(seconds, b[2], 32), num(buildSeconds, b[3], 32), z.escaped, num(z.maxHeight, b[4], 32),
           num(initialMaxHeight, b[5], 32), num(z.avgHeight, b[6], 32), num(z.maxSpeed, b[7], 32),
           num(z.meanSpeed, b[8], 32), num(z.kineticEnergy, b[9], 32), z.awake,
           restStep >= 0 ? num(restStep * (double)kDt, b[10], 32) : "null",
           restStep >= 0 ? num(restPenetration, b[11], 32) : "null", touching,
           (long)usage.ru_maxrss * 1024L, pyramid ? (standing ? ",\"standing\":true" : ",\"standing\":false") : "",
           (unsigned long long)sceneSeed,
           sleep ? "on" : "off", threads, threads == 1 ? "" : "s", scheduler,
#if defined(BOX2D_AVX2)
           ", AVX2",
#else
           "",
#endif
           rollingText);
    b2DestroyWorld(world);
#if !defined(B2_V32)
    if (threads > 1) {
        stopTaskSystem(&tasks);
        if (tasks.serialFallbacks > 0)
            fprintf(stderr, "box2d3_driver: %ld tasks ran inline (task ring slot still open)\n", tasks.serialFallbacks);
    }
#endif
    free(s.bodies);
    return 0;
}
