import Dispatch
import Foundation
import NormalizedCache
import Results
import Synchronization
import Testing
import Workloads

@testable import Workbench

/// A store that lets a read in only once no merge has landed for 200 ms: writers that merge back
/// to back hold every read off, as a lock that hands itself from writer to writer does. Only the
/// writers' own bound ends a run beside them.
private final class WritersFirstStore: NormalizedCache {
  private let inner = InMemoryNormalizedCache()
  private let lastMerge = Mutex<UInt64>(0)
  /// Set by the test past its deadline: reads go in, so that a run that would not end does.
  static let giveUp = Atomic<Bool>(false)

  private func waitForQuiet() {
    while !Self.giveUp.load(ordering: .relaxed) {
      // The last merge read before the clock: a merge landing in between cannot make it later.
      let last = lastMerge.withLock { $0 }
      if DispatchTime.now().uptimeNanoseconds - last > 200_000_000 { return }
      usleep(1_000)
    }
  }

  func loadRecords(forKeys keys: [CacheKey]) -> [CacheKey: Record] {
    waitForQuiet()
    return inner.loadRecords(forKeys: keys)
  }

  func loadRecordsInOrder(forKeys keys: [CacheKey]) -> [Record?] {
    waitForQuiet()
    return inner.loadRecordsInOrder(forKeys: keys)
  }

  func withConsistentRead<Result>(_ body: (any RecordSnapshot) throws -> Result) throws -> Result {
    waitForQuiet()
    return try inner.withConsistentRead(body)
  }

  func merge(records: RecordSet) throws -> ChangedKeys {
    let changed = try inner.merge(records: records)
    lastMerge.withLock { $0 = DispatchTime.now().uptimeNanoseconds }
    return changed
  }

  func removeRecord(for key: CacheKey) { inner.removeRecord(for: key) }
  func removeRecords(matching pattern: String) { inner.removeRecords(matching: pattern) }
  func clear() { inner.clear() }
}

/// Every concurrency run ends (issue 58): over the stores' own locks, with many more writers than
/// cores, and over a store whose merges hold its reads off, where the writers' bound (at most
/// `operations` merges each) ends the run. Deadlines only tell a hang from a slow runner.
@Suite("Concurrency runs end", .serialized)
struct ConcurrencyEndsTests {
  /// What a run's concurrency rows counted, per store.
  struct Counts: Sendable, Equatable {
    var reads: [Int] = []
    var merges: [Int] = []
  }

  /// Runs the workload on a thread of its own (with a reader's stack), waiting up to `seconds`:
  /// nil when it has not ended by then.
  static func run(_ text: String, registry: Registry = .builtIn, within seconds: Int) -> Result<Counts, any Error>? {
    let done = DispatchSemaphore(value: 0)
    let outcome = Mutex<Result<Counts, any Error>?>(nil)
    let thread = Thread {
      let result = Result<Counts, any Error> {
        let runs = try ConcurrencyPhaseTests.run(text, registry: registry).configurations.filter(ConcurrencyTable.isConcurrency)
        return Counts(
          reads: runs.map { $0.samples[.concurrentReadLatencyWriting].count },
          merges: runs.map { $0.samples[.concurrentWriteLatency].count })
      }
      outcome.withLock { $0 = result }
      done.signal()
    }
    thread.stackSize = 8 << 20
    thread.start()
    guard done.wait(timeout: .now() + .seconds(seconds)) == .success else { return nil }
    return outcome.withLock { $0 }
  }

  /// The issue's run: many writers over a memory store and a SQLite store, on the two small
  /// operations of ``ConcurrencyPhaseTests`` (a reader's plans and its first reads, before the
  /// start line, cost little in a debug build), one round.
  static let manyWriters = #"""
    {"name": "many-writers", "seed": 42, "recorded": {"schema": [], "operations": [
       {"document": "a.graphql", "operationName": "A", "response": "a.json"},
       {"document": "c.graphql", "operationName": "C", "response": "c.json"}]},
     "keys": ["path"],
     "stores": [{"kind": "memory"}, {"kind": "sqlite", "layout": "compact", "journal": "wal", "label": "sqlite-wal"}],
     "repetitions": 1, "warmup": 0, "read": {"pointLookups": 0, "fieldPolicyLookups": 0},
     "concurrency": {"readers": [256], "writers": 64, "operations": 100}}
    """#

  @Test("256 readers beside 64 writers, 100 reads, memory and SQLite WAL: each of 20 runs ends, every read made")
  func manyWritersTwentyTimes() throws {
    for attempt in 1...20 {
      guard let outcome = Self.run(Self.manyWriters, within: 120) else {
        Issue.record("run \(attempt) of 20 had not ended after 120 s: the readers starved")
        return
      }
      let counts = try outcome.get()
      #expect(counts.reads == [100, 100], "run \(attempt): every reader read its share, on each store")
      #expect(counts.merges.allSatisfy { (64...64 * 100).contains($0) }, "run \(attempt): \(counts.merges) merges")
    }
  }

  @Test("over a store whose merges hold its reads off, each writer stops after operations merges, and the readers then read")
  func writersBounded() throws {
    var registry = Registry.builtIn
    registry.stores.register("writers-first") { _ in WritersFirstStore() }
    WritersFirstStore.giveUp.store(false, ordering: .relaxed)
    defer { WritersFirstStore.giveUp.store(false, ordering: .relaxed) }
    let workload = ConcurrencyPhaseTests.workload(
      stores: #"[{"kind": "writers-first"}]"#, concurrency: #"{"readers": [2], "writers": 2, "operations": 30}"#)
    guard let outcome = Self.run(workload, registry: registry, within: 120) else {
      // Let the reads in, so that the run's threads end before the next test.
      WritersFirstStore.giveUp.store(true, ordering: .relaxed)
      Issue.record("the run had not ended after 120 s: the writers did not stop")
      return
    }
    let counts = try outcome.get()
    // Two measured repetitions (the workload's), each 30 reads and at most 30 merges a writer.
    #expect(counts.reads == [60])
    #expect(counts.merges.count == 1 && (4...2 * 2 * 30).contains(counts.merges[0]), "\(counts.merges)")
  }
}
