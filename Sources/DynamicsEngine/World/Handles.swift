/// A handle to a body. It carries a generation so a handle kept after its body was destroyed
/// is detected (see `World.isValid(_:)`) instead of silently addressing a new body.
public struct BodyHandle: Hashable, Sendable, CustomStringConvertible {
    /// The body's slot in the world.
    public let index: Int32
    /// The slot's generation when the handle was made; a destroyed body's slot moves on to the
    /// next, so an old handle no longer matches.
    public let generation: UInt32
    @inlinable init(index: Int32, generation: UInt32) { self.index = index; self.generation = generation }
    /// The handle as text: `Body(slot#generation)`.
    public var description: String { "Body(\(index)#\(generation))" }
}

/// A handle to a joint, with the same stale-use detection as `BodyHandle`.
public struct JointHandle: Hashable, Sendable, CustomStringConvertible {
    /// The joint's slot in the world.
    public let index: Int32
    /// The slot's generation when the handle was made (see `BodyHandle.generation`).
    public let generation: UInt32
    @inlinable init(index: Int32, generation: UInt32) { self.index = index; self.generation = generation }
    /// The handle as text: `Joint(slot#generation)`.
    public var description: String { "Joint(\(index)#\(generation))" }
}

/// A handle to a static boundary shape (segment) added with `World.addBoundary`.
public struct BoundaryHandle: Hashable, Sendable, CustomStringConvertible {
    /// The boundary segment's shape slot in the world.
    public let shape: Int32
    /// The shape slot's generation when the handle was made (see `BodyHandle.generation`).
    public let generation: UInt32
    @inlinable init(shape: Int32, generation: UInt32) { self.shape = shape; self.generation = generation }
    /// The handle as text: `Boundary(slot#generation)`.
    public var description: String { "Boundary(\(shape)#\(generation))" }
}

/// A collision group: bodies collide only with bodies and boundaries of a group they share.
/// There is no limit on the number of groups.
public struct CollisionGroupID: Hashable, Sendable, CustomStringConvertible {
    /// The group's slot in the world; 0 is the default group.
    public let index: Int32
    /// The slot's generation when the group was created (see `BodyHandle.generation`).
    public let generation: UInt32
    @inlinable init(index: Int32, generation: UInt32) { self.index = index; self.generation = generation }
    /// The group every body joins unless its definition says otherwise (mode `.everything`).
    public static let `default` = CollisionGroupID(index: 0, generation: 0)
    /// The group as text: `Group(slot#generation)`.
    public var description: String { "Group(\(index)#\(generation))" }
}

/// A record of a world's slot table that handles address with a generation (bodies, joints,
/// shapes, collision groups): a destroyed record's slot moves on to the next generation.
protocol GenerationalRecord {
    var alive: Bool { get }
    var generation: UInt32 { get }
}

extension BodyMeta: GenerationalRecord {}
extension JointRecord: GenerationalRecord {}
extension ShapeRecord: GenerationalRecord {}
extension GroupRecord: GenerationalRecord {}

extension RandomAccessCollection where Index == Int, Element: GenerationalRecord {
    /// Whether slot `index` holds a live record of `generation`: the check of every handle.
    @inline(__always)
    func holdsLive(_ index: Int32, generation: UInt32) -> Bool {
        let i = Int(index)
        return i >= 0 && i < count && self[i].alive && self[i].generation == generation
    }
}
