import DynamicsScenes
import Testing

/// `dynamics-bench tick` compares an animator's tick with its twin world's step: the comparison
/// only means something if the two worlds evolve bit for bit alike.
@Suite struct TickOverheadTests {
    @Test func twinWorldsStayIdenticalAndTheDelegateIsCalled() {
        // 150 ticks (1.25 s): every item falls onto the bottom boundary and bounces.
        let probe = TickOverheadProbe(items: 4, ticks: 150)
        for animatorFirst in [true, false] {
            let round = probe.round(animatorFirst: animatorFirst)
            #expect(round.identical, "an animator's world and its twin stepped alone diverged")
            #expect(round.delegateCalls >= 4, "every item should report at least its first boundary contact")
            #expect(round.animatorSeconds > 0 && round.worldSeconds > 0)
        }
    }
}
