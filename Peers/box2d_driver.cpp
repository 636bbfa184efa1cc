// box2d_driver: the `pile`, `pyramid` and `mix` scenes of shared/spec/scenes.md ("Units for the
// peer scenes") on Box2D 2.4, timed the way `dynamics-bench` times DynamicsKit.
//
//   box2d_driver <scene> <items> <steps> <warmup>
//
// Builds the scene, takes <warmup> untimed steps, times <steps> steps of 1/60 s with a monotonic
// clock (only World::Step inside the timed window) and prints ONE JSON line on stdout: the
// throughput and a sanity check (escaped bodies, heights, speeds, awake bodies) so that a broken
// setup shows. Errors go to stderr with exit status 2.
//
// Setup (the same as DynamicsKit's throughput runs): metres, y up, gravity 10 m/s² down, every
// fixture density 1, friction 0.6, restitution 0, dt 1/60, 8 velocity / 3 position iterations,
// sleeping off (b2World::SetAllowSleeping(false)), continuous physics at Box2D's default (on; it
// only sweeps bullets and static contacts and is what Box2D users run). One thread: Box2D 2.4 has
// no worker threads.
//
// Build: g++ -O2 -DNDEBUG -std=c++17 box2d_driver.cpp -lbox2d -o box2d_driver
// (Debian: libbox2d-dev; `dynamics-bench peers` compiles it into .build/peers/).

#include <box2d/box2d.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

const float kDensity = 1.0f;
const float kFriction = 0.6f;
const float kRestitution = 0.0f;
const float kDt = 1.0f / 60.0f;
const int kVelocityIterations = 8;
const int kPositionIterations = 3;

// The region a dynamic body's centre must stay in (metres, y up); outside it counts as escaped.
struct Bounds {
    float minX, maxX, minY, maxY;
};

struct Scene {
    std::vector<b2Body*> bodies;  // dynamic bodies, in creation order
    int staticBodies = 0;
    Bounds bounds{};
};

// One body with one fixture of the scenes' material.
b2Body* addBody(b2World& world, b2BodyType type, float x, float y, const b2Shape& shape) {
    b2BodyDef bd;
    bd.type = type;
    bd.position.Set(x, y);
    b2Body* body = world.CreateBody(&bd);
    b2FixtureDef fd;
    fd.shape = &shape;
    fd.density = kDensity;
    fd.friction = kFriction;
    fd.restitution = kRestitution;
    body->CreateFixture(&fd);
    return body;
}

b2Body* addBox(b2World& world, b2BodyType type, float x, float y, float hx, float hy) {
    b2PolygonShape shape;
    shape.SetAsBox(hx, hy);
    return addBody(world, type, x, y, shape);
}

b2Body* addCircle(b2World& world, float x, float y, float radius) {
    b2CircleShape shape;
    shape.m_radius = radius;
    return addBody(world, b2_dynamicBody, x, y, shape);
}

// pile (all boxes) and mix (even index circle, odd index box): rows of 50 in a 60 m container.
Scene buildContainer(b2World& world, int n, bool mix) {
    Scene s;
    const int rows = (n + 49) / 50;
    const float h = 1.1f * rows + 2.0f;  // wall height H
    addBox(world, b2_staticBody, 0.0f, -0.5f, 31.0f, 0.5f);
    addBox(world, b2_staticBody, -30.5f, h / 2, 0.5f, h / 2);
    addBox(world, b2_staticBody, 30.5f, h / 2, 0.5f, h / 2);
    s.staticBodies = 3;
    s.bodies.reserve(n);
    for (int i = 0; i < n; ++i) {
        const int r = i / 50, c = i % 50;
        const float x = (c - 24.5f) * 1.1f + (r % 2 == 1 ? 0.25f : -0.25f);
        const float y = 1.0f + 1.1f * r;
        s.bodies.push_back(mix && i % 2 == 0 ? addCircle(world, x, y, 0.5f)
                                             : addBox(world, b2_dynamicBody, x, y, 0.5f, 0.5f));
    }
    s.bounds = Bounds{-31.0f, 31.0f, -1.0f, 2 * h + 10.0f};
    return s;
}

// pyramid: base B, B(B+1)/2 boxes touching exactly, on a 200 m ground.
Scene buildPyramid(b2World& world, int base) {
    Scene s;
    addBox(world, b2_staticBody, 0.0f, -1.0f, 100.0f, 1.0f);
    s.staticBodies = 1;
    s.bodies.reserve(static_cast<size_t>(base) * (base + 1) / 2);
    for (int i = 0; i < base; ++i) {
        for (int j = i; j < base; ++j) {
            const float x = (i + 1) * 0.5f + (j - i) - 0.5f * base;
            const float y = i + 0.5f;
            s.bodies.push_back(addBox(world, b2_dynamicBody, x, y, 0.5f, 0.5f));
        }
    }
    const float top = (base - 1) + 0.5f;
    s.bounds = Bounds{-101.0f, 101.0f, -1.0f, 2 * top + 10.0f};
    return s;
}

struct Sanity {
    int escaped = 0;
    int awake = 0;
    double maxHeight = -INFINITY;
    double avgHeight = 0;
    double maxSpeed = 0;
    double meanSpeed = 0;
    double kineticEnergy = 0;  // ½mv² + ½Iω², J (kg = density × m²)
};

Sanity measure(const Scene& s) {
    Sanity out;
    double sumH = 0, sumV = 0;
    bool nan = false;
    for (const b2Body* b : s.bodies) {
        const b2Vec2 p = b->GetPosition();
        const bool finite = std::isfinite(p.x) && std::isfinite(p.y);
        if (!finite || p.x < s.bounds.minX || p.x > s.bounds.maxX || p.y < s.bounds.minY ||
            p.y > s.bounds.maxY)
            ++out.escaped;
        if (std::isnan(p.y)) nan = true; else if (p.y > out.maxHeight) out.maxHeight = p.y;
        sumH += p.y;
        const b2Vec2 v = b->GetLinearVelocity();
        const double speed = std::sqrt(double(v.x) * v.x + double(v.y) * v.y);
        if (speed > out.maxSpeed) out.maxSpeed = speed;
        sumV += speed;
        const double w = b->GetAngularVelocity();
        out.kineticEnergy += 0.5 * b->GetMass() * speed * speed + 0.5 * b->GetInertia() * w * w;
        if (b->IsAwake()) ++out.awake;
    }
    const size_t n = s.bodies.size();
    if (n > 0) {
        out.avgHeight = sumH / n;
        out.meanSpeed = sumV / n;
    }
    if (nan) out.maxHeight = NAN;
    return out;
}

// JSON has no NaN / infinity: print them as null.
std::string num(double v, int digits = 6) {
    if (!std::isfinite(v)) return "null";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    return buf;
}

[[noreturn]] void usage(const char* message) {
    std::fprintf(stderr, "box2d_driver: %s\nusage: box2d_driver <pile|pyramid|mix> <items> <steps> <warmup>\n",
                 message);
    std::exit(2);
}

long parseCount(const char* text, const char* name, long minimum) {
    char* end = nullptr;
    const long v = std::strtol(text, &end, 10);
    if (end == text || *end != '\0' || v < minimum || v > 10000000) {
        std::string m = std::string(name) + " must be an integer >= " + std::to_string(minimum) + " (got '" + text + "')";
        usage(m.c_str());
    }
    return v;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 5) usage("expected 4 arguments");
    const std::string scene = argv[1];
    const int items = static_cast<int>(parseCount(argv[2], "items", 1));
    const long steps = parseCount(argv[3], "steps", 1);
    const long warmup = parseCount(argv[4], "warmup", 0);
    if (scene != "pile" && scene != "pyramid" && scene != "mix") usage("unknown scene (known: pile, pyramid, mix)");
    if (scene == "pyramid" && items > 2000) usage("pyramid base must be at most 2000");

    using Clock = std::chrono::steady_clock;
    const auto buildStart = Clock::now();
    b2World world(b2Vec2(0.0f, -10.0f));
    world.SetAllowSleeping(false);
    Scene s = scene == "pyramid" ? buildPyramid(world, items) : buildContainer(world, items, scene == "mix");
    const double buildSeconds = std::chrono::duration<double>(Clock::now() - buildStart).count();
    const double initialMaxHeight = measure(s).maxHeight;

    for (long k = 0; k < warmup; ++k) world.Step(kDt, kVelocityIterations, kPositionIterations);

    const auto t0 = Clock::now();
    for (long k = 0; k < steps; ++k) world.Step(kDt, kVelocityIterations, kPositionIterations);
    const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();

    const Sanity z = measure(s);
    int touching = 0;
    for (const b2Contact* c = world.GetContactList(); c; c = c->GetNext())
        if (c->IsTouching()) ++touching;
    const double rate = seconds > 0 ? steps / seconds : INFINITY;
    // The pyramid stands when its maximum height stays within 1 % of the start. Box2D keeps a
    // skin of b2_polygonRadius (0.01 m) round every polygon, so boxes that touch exactly are pushed
    // apart by up to two skins per layer: that rise (B layers × 2 × 0.01 m) is allowed on top.
    const double skinRise = scene == "pyramid" ? 2.0 * b2_polygonRadius * items : 0.0;
    const bool standing = std::isfinite(z.maxHeight) && z.maxHeight >= 0.99 * initialMaxHeight &&
                          z.maxHeight <= 1.01 * initialMaxHeight + skinRise;

    char version[32];
    std::snprintf(version, sizeof version, "%d.%d.%d", b2_version.major, b2_version.minor, b2_version.revision);
    std::printf("{\"engine\":\"box2d\",\"version\":\"%s\",\"scene\":\"%s\",\"items\":%d,\"bodies\":%zu,"
                "\"static_bodies\":%d,\"steps\":%ld,\"warmup\":%ld,\"steps_per_sec\":%s,\"ms_per_step\":%s,"
                "\"seconds\":%s,\"build_seconds\":%s,\"escaped\":%d,\"max_height\":%s,\"initial_max_height\":%s,"
                "\"avg_height\":%s,\"max_speed\":%s,\"mean_speed\":%s,\"kinetic_energy\":%s,\"awake\":%d,"
                "\"touching_contacts\":%d%s,\"settings\":\"8 velocity / 3 position iterations, sleeping off\"}\n",
                version, scene.c_str(), items, s.bodies.size(), s.staticBodies, steps, warmup,
                num(rate).c_str(), num(rate > 0 ? 1000.0 / rate : 0).c_str(), num(seconds).c_str(),
                num(buildSeconds).c_str(), z.escaped, num(z.maxHeight).c_str(), num(initialMaxHeight).c_str(),
                num(z.avgHeight).c_str(), num(z.maxSpeed).c_str(), num(z.meanSpeed).c_str(),
                num(z.kineticEnergy).c_str(), z.awake, touching,
                scene == "pyramid" ? (standing ? ",\"standing\":true" : ",\"standing\":false") : "");
    return 0;
}
