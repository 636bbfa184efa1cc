/// A handle to a body. It carries a generation so a handle kept after its body was destroyed
/// is detected (see `World.isValid(_:)`) instead of silently addressing a new body.
public struct BodyHandle: Hashable, Sendable, CustomStringConvertible {
    public let index: Int32
    public let generation: UInt32
    @inlinable init(index: Int32, generation: UInt32) { self.index = index; self.generation = generation }
    public var description: String { "Body(\(index)#\(generation))" }
}

/// A handle to a joint, with the same stale-use detection as `BodyHandle`.
public struct JointHandle: Hashable, Sendable, CustomStringConvertible {
    public let index: Int32
    public let generation: UInt32
    @inlinable init(index: Int32, generation: UInt32) { self.index = index; self.generation = generation }
    public var description: String { "Joint(\(index)#\(generation))" }
}

/// A handle to a static boundary shape (segment) added with `World.addBoundary`.
public struct BoundaryHandle: Hashable, Sendable, CustomStringConvertible {
    public let shape: Int32
    public let generation: UInt32
    @inlinable init(shape: Int32, generation: UInt32) { self.shape = shape; self.generation = generation }
    public var description: String { "Boundary(\(shape)#\(generation))" }
}

/// A collision group: bodies collide only with bodies and boundaries of a group they share.
/// There is no limit on the number of groups.
public struct CollisionGroupID: Hashable, Sendable, CustomStringConvertible {
    public let index: Int32
    public let generation: UInt32
    @inlinable init(index: Int32, generation: UInt32) { self.index = index; self.generation = generation }
    /// The group every body joins unless its definition says otherwise (mode `.everything`).
    public static let `default` = CollisionGroupID(index: 0, generation: 0)
    public var description: String { "Group(\(index)#\(generation))" }
}
