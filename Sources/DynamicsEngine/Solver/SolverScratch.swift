/// Reusable per-step solver buffers.
struct SolverScratch {
    /// The overflow constraints (those that fit no colour), prepared as scalar constraints:
    /// `constraints[k]` is `ColoredBatches.overflow[k]`'s.
    let constraints = Column<ContactConstraint>()
    let cursor = Column<Int32>()
    /// Islands solved whole by one worker, largest first; and islands big enough to be
    /// solved by all workers together, colour by colour.
    let smallIslands = Column<Int32>()
    let bigIslands = Column<Int32>()
    /// Scratch of the small islands' counting sort (one counter per island size).
    let sizeCounts = Column<Int32>()
    /// Whether this step's solve finalized the islands' bodies (`World.finalizeBodies`).
    var finalizedInSolve = false
}
