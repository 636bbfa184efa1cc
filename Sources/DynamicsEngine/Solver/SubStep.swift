/// A sub-step's stages, in order: the solve's only encoding of them. `SolverViews.solveIsland`
/// runs them on one island (one worker, or a small island claimed whole); `appendStages`
/// turns them into pipeline stages that several workers share. After the sub-steps, both
/// apply restitution once.
enum SubStep {
    enum Stage {
        /// Gravity, forces and damping.
        case integrateVelocities
        /// One pass over the island's constraints (joints, colour batches, overflow).
        case constraints(SolverViews.Pass)
        /// Position and rotation change.
        case integratePositions
    }
    /// Calls `body` with each stage of a sub-step, in order. (Written out, not a loop over a
    /// list: inlined, each call is a constant stage and the compiler drops the switch.)
    @inline(__always)
    static func forEachStage(_ body: (Stage) -> Void) {
        body(.integrateVelocities)
        body(.constraints(.warmStart))
        body(.constraints(.solve))
        body(.integratePositions)
        body(.constraints(.relax))
    }
}
