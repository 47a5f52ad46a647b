import Foundation
import Testing

/// The short version of `make crash-test` (which kills 50 times per configuration): a few kills of
/// a process merging into each SQLite layout x journal mode, unbounded and bounded (merges that
/// evict), each followed by the check.
extension HeavyRuns {
  @Suite("Crash safety", .timeLimit(.minutes(10)))
  struct CrashTests {
    @Test(
      "killed mid-merge three times per layout x journal, unbounded and bounded: integrity ok, nothing lost or torn; the check sees damage")
    func kills() async throws {
      let crashtest = binary.deletingLastPathComponent().appendingPathComponent("crashtest")
      let run = try await runProcess(crashtest.path, ["run", "--kills", "3", "--seed", "7"])
      let text = run.stdout + run.stderr
      #expect(run.status == 0, "\(text)")
      // The self-test first: the check catches a removed batch, a partial one, a stale counter, a
      // field of the large record for a batch that is not there; bounded, a batch gone from a store
      // that evicted nothing, the last committed batch in part, and the batch before one that
      // committed unlogged in part (judged as an eviction, not as a torn batch).
      #expect(text.components(separatedBy: ": caught (").count == 8, "\(text)")
      for configuration in [
        "compact wal", "compact delete", "apollo wal", "apollo delete", "rows wal", "rows delete", "rows-rowid wal",
        "rows-rowid delete", "rows-ordered wal", "rows-ordered delete",
      ] {
        #expect(text.contains("\(configuration): 3 kills"), "\(text)")
      }
      for configuration in [
        "compact wal bounded lru", "compact delete bounded fifo", "apollo wal bounded lfu", "apollo delete bounded lru",
        "rows wal bounded fifo", "rows delete bounded lfu", "rows-rowid wal bounded lru", "rows-rowid delete bounded fifo",
        "rows-ordered wal bounded lfu", "rows-ordered delete bounded lru",
      ] {
        #expect(text.contains("\(configuration): 3 kills"), "\(text)")
      }
      // Every layout (crashtest takes Layout.allCases), two journals each.
      #expect(text.components(separatedBy: "integrity ok, none lost, none partial").count == 11, "\(text)")
      #expect(
        text.components(
          separatedBy: "integrity ok, none lost but to eviction past half the budget, none torn, bytes counted right and within the budget"
        )
        .count == 11, "\(text)")
    }
  }
}
