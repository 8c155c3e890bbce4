import Foundation
import JoryioTestLanes
import Testing

/// The writes simulation against the Python sandbox over libcurl: one seed, a smoke test that
/// ``WritesServer`` (where the other seeds run) keeps the sandbox's rules.
///
/// `JORYIO_WRITES_SIM_SANDBOX_SEED=<s>` picks the seed (default 1); the number of steps is the
/// simulation's (`JORYIO_WRITES_SIM_STEPS`).
@Suite("Seeded simulation of attributes and durable writes against the sandbox", .tags(.sandbox))
struct SandboxWritesSimulationTests {
    static let seed = ProcessInfo.processInfo.environment["JORYIO_WRITES_SIM_SANDBOX_SEED"].flatMap(UInt64.init) ?? 1

    @Test("One seed against the sandbox: its profiles equal the model's")
    func simulateOneSeed() async throws {
        let simulation = WritesSimulation(seed: Self.seed, backend: try await SandboxWritesBackend())
        defer { simulation.tearDown() }
        guard let failure = await simulation.run(steps: WritesSimulationTests.steps) else { return }
        Issue.record("\(failure)")
    }
}
