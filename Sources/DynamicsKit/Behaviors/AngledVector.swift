import Foundation

/// A direction and strength that gravity and push behaviors give both as a vector and as an
/// angle with a magnitude. The angle is remembered while the vector is zero, so setting the
/// angle and then the magnitude (or the other way round) gives the same vector, as on iOS.
struct AngledVector {
    /// The vector (its length is the magnitude).
    private(set) var vector: CGVector
    /// The angle last set or read from a non-zero vector.
    private var storedAngle: CGFloat

    /// `vector`, with `angle` taken while it is zero.
    init(_ vector: CGVector, angleWhileZero angle: CGFloat) {
        self.vector = vector
        storedAngle = vector == .zero ? angle : vector.angle
    }

    /// Replaces the vector; a non-zero one also gives the angle.
    mutating func set(_ v: CGVector) {
        vector = v
        if v != .zero { storedAngle = v.angle }
    }

    /// Sets the vector from an angle and a magnitude and keeps the angle exactly as given.
    mutating func set(angle: CGFloat, magnitude: CGFloat) {
        vector = CGVector(angle: angle, magnitude: magnitude)
        storedAngle = angle
    }

    /// The vector's angle in radians (0 = +x, π/2 = down), the remembered one while it is zero.
    var angle: CGFloat { vector == .zero ? storedAngle : vector.angle }

    /// The vector's length.
    var magnitude: CGFloat { vector.magnitude }
}
