import Results
import Testing

@testable import Workbench

@Suite("run --instructions: one counting process per configuration")
struct CallgrindProcessTests {
  @Test("a workload of N configurations is counted in N processes, shard K/N each; a run's own shard in one")
  func countingProcesses() throws {
    let parts = CallgrindProcess.countingProcesses(configurations: 18, shard: nil)
    #expect(parts.map { $0?.description } == (1...18).map { "\($0)/18" })
    // Each configuration position falls in exactly one process.
    for position in 0..<18 {
      #expect(parts.filter { $0!.contains(position) }.count == 1, "\(position)")
    }
    let own = try #require(Shard(parsing: "2/3"))
    #expect(CallgrindProcess.countingProcesses(configurations: 18, shard: own) == [own])
    #expect(CallgrindProcess.countingProcesses(configurations: 1, shard: nil) == [nil])
  }
}
