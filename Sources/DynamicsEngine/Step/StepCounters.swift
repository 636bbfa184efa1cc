/// What the steps count: the public counts (`World.stepCount`, `World.continuousHits`) and the
/// counts tests and profiles read to see which shortcut a step took. Only incremented (a
/// restored snapshot sets the public two); nothing in a step reads them to decide anything.
struct StepCounters {
    /// Steps taken (`World.stepCount`).
    var stepCount = 0
    /// How many fast bodies the continuous step stopped at static geometry, ever (`World.continuousHits`).
    var continuousHits = 0
    /// Steps whose broad phase reused the previous step's pairs.
    var pairsReusedSteps = 0
    /// Steps whose broad phase let only the enlarged shapes look for partners.
    var incrementalPasses = 0
    /// Passes that took moving shapes added or released since the last step into the lists
    /// without rebuilding them (`World.takeShapeChanges`).
    var shapeChangesTaken = 0
    /// Steps whose broad phase looked for nothing: shapes moved out of their fat boxes, but
    /// none can have a partner (`BroadPhase.seekers` empty).
    var partnerlessPasses = 0
    /// Steps that reused the previous step's islands.
    var islandsReusedSteps = 0
    /// Steps solved by the bodies' own stages only (`World.solveUnconstrained`).
    var unconstrainedSolves = 0
    /// Steps taken at rest (release builds, or debug builds that ask: `RestState.takesStepsInDebug`).
    var restSteps = 0
    /// Times a step compared the world with its rest copy before deciding.
    var restComparisons = 0
    /// How many times the awake joint list was made from every joint (`World.awakeJointList`).
    var jointListRebuilds = 0
    /// Steps of a world asleep (no body awake), which do nothing (release builds, or debug
    /// builds that ask: `RestState.takesStepsInDebug`).
    var asleepSteps = 0
    /// Contact preparations repeated by `StepOptions.repeatPrepare`.
    var repeatedPreparations = 0
    /// The fraction of a repeated preparation carried to the next step (`StepOptions.repeatPrepare`
    /// below 1 repeats the preparation every few steps).
    var repeatPrepareCarry = 0.0
}
