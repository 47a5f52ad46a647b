import GraphQLLanguage
import NormalizedCache
import Testing

@testable import NormalizedCacheConformance

/// The in-memory store and the reader against the reference model of time in the cache
/// (docs/ttl.md#reads-with-a-clock), over thousands of random writes and reads at random times;
/// the SQLite layouts run it in SQLiteCacheTests.
@Suite("TTL model check")
struct TTLModelCheckTests {
  /// The in-memory store, but a merge that changes no value is skipped, so that a refetch of
  /// unchanged data keeps the old dates: the mistake of a store that compares values only.
  final class DateDroppingStore: NormalizedCache {
    let base = InMemoryNormalizedCache()

    func loadRecords(forKeys keys: [CacheKey]) -> [CacheKey: Record] { base.loadRecords(forKeys: keys) }
    func merge(records: RecordSet) throws -> ChangedKeys {
      let existing = base.loadRecords(forKeys: records.keys)
      let changing = records.records.filter { record in
        guard let old = existing[record.key] else { return true }
        return record.fields.contains { old[$0.key] != $0.value }
      }
      return try base.merge(records: RecordSet(records: changing))
    }
    func removeRecord(for key: CacheKey) { base.removeRecord(for: key) }
    func removeRecords(matching pattern: String) { base.removeRecords(matching: pattern) }
    func clear() { base.clear() }
  }

  @Test(
    "the in-memory store and the reader agree with the model over 3,000 steps, and the steps cover what they must",
    arguments: [KeyStrategyName.typePolicy, .path])
  func inMemory(strategy: KeyStrategyName) throws {
    for seed: UInt64 in [1, 2] {
      let (failure, tally) = try TTLModelCheck.runCounting(
        strategy: strategy == .path ? .path : .typePolicy, seed: seed, steps: 3_000
      ) { InMemoryNormalizedCache() }
      #expect(failure == nil, "seed \(seed)")
      // Of some 1,350 reads, every outcome hundreds of times; paths expired and missing; late
      // writes; records past 64 fields.
      for outcome in ["hit", "stale", "miss"] { #expect(tally.outcomes[outcome, default: 0] > 200, "\(outcome): \(tally)") }
      #expect(tally.expiredPaths > 1_000)
      #expect(tally.missingPaths > 20)
      #expect(tally.lateWrites > 100)
      #expect(tally.wideRecords > 100)
    }
  }

  @Test("a store that skips merges of unchanged values (and so their dates) is caught, at the step that shows it")
  func catchesLostDates() throws {
    let failure = try TTLModelCheck.run(seed: 1, steps: 3_000) { DateDroppingStore() }
    #expect(failure?.hasPrefix("step ") == true, "\(failure ?? "nil")")
    #expect(failure?.contains(" holds ") == true, "\(failure ?? "nil")")
  }
}
