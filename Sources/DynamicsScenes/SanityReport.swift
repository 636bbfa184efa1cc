/// The sanity check of a scene at one moment, so that a fast but wrong solver cannot win.
///
/// Heights are of body centres above the ground surface, in points. A run with escaped bodies,
/// non-finite energy or a failed scene check is a failed run (`passed == false`).
public struct SanityReport: Sendable, Equatable, Codable {
    /// Dynamic bodies that left the scene: more than one body size below the ground surface,
    /// more than one body size beyond a container wall's inner face, far above the scene, or
    /// at a non-finite position.
    public var escaped: Int
    /// Kinetic energy of all dynamic bodies, ½mv² + ½Iω² (engine mass units × pt²/s²).
    public var kineticEnergy: Double
    /// Average centre height of the dynamic bodies above the ground surface (pt).
    public var averageHeight: Double
    /// Largest centre height of a dynamic body above the ground surface (pt).
    public var maxHeight: Double
    /// `maxHeight` when the scene was built.
    public var initialMaxHeight: Double
    /// Contacts whose shapes touch.
    public var touchingContacts: Int
    /// All contacts the world tracks (touching or not).
    public var contacts: Int
    /// Dynamic bodies in the scene.
    public var bodies: Int
    /// Static bodies (ground, walls).
    public var staticBodies: Int
    /// Largest speed of a dynamic body (pt/s); nil for scenes made of animators.
    public var maxSpeed: Double?
    /// Mean speed of the dynamic bodies (pt/s); nil for scenes made of animators.
    public var meanSpeed: Double?
    /// Bodies awake (`World.awakeBodyCount`); nil for scenes made of animators.
    public var awakeBodies: Int?
    /// Scene-specific pass/fail checks, e.g. `"standing"` for the pyramid.
    public var checks: [String: Bool]
    /// Scene-specific measurements, e.g. `"top_drift"` for the pyramid (pt).
    public var metrics: [String: Double]

    public init(escaped: Int, kineticEnergy: Double, averageHeight: Double, maxHeight: Double,
                initialMaxHeight: Double, touchingContacts: Int, contacts: Int, bodies: Int,
                staticBodies: Int, maxSpeed: Double? = nil, meanSpeed: Double? = nil, awakeBodies: Int? = nil,
                checks: [String: Bool] = [:], metrics: [String: Double] = [:]) {
        self.escaped = escaped; self.kineticEnergy = kineticEnergy
        self.averageHeight = averageHeight; self.maxHeight = maxHeight
        self.initialMaxHeight = initialMaxHeight; self.touchingContacts = touchingContacts
        self.contacts = contacts; self.bodies = bodies; self.staticBodies = staticBodies
        self.maxSpeed = maxSpeed; self.meanSpeed = meanSpeed; self.awakeBodies = awakeBodies
        self.checks = checks; self.metrics = metrics
    }

    /// True when nothing escaped, the energy is finite and every scene check holds.
    public var passed: Bool {
        escaped == 0 && kineticEnergy.isFinite && checks.values.allSatisfy { $0 }
    }

    /// The names of the failed checks (`"escaped"`, `"kinetic_energy"` and scene checks).
    public var failures: [String] {
        var out: [String] = []
        if escaped != 0 { out.append("escaped") }
        if !kineticEnergy.isFinite { out.append("kinetic_energy") }
        out += checks.filter { !$0.value }.map(\.key).sorted()
        return out
    }
}
