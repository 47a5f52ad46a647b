import NormalizedCache
import NormalizedCacheConformance
import Testing

/// The conformance checks a store of yours runs: the in-memory store passes them, and a store that
/// breaks the merge rule is caught.
@Suite("Store conformance checks")
struct StoreConformanceTests {
  /// Replaces a record whole on merge (and says every field changed): what the merge rule forbids.
  final class ReplacingStore: NormalizedCache, @unchecked Sendable {
    var records: [CacheKey: Record] = [:]

    func loadRecords(forKeys keys: [CacheKey]) -> [CacheKey: Record] {
      var found: [CacheKey: Record] = [:]
      for key in keys { found[key] = records[key] }
      return found
    }

    func merge(records incoming: RecordSet) -> ChangedKeys {
      var changed = ChangedKeys()
      for record in incoming {
        records[record.key] = record
        changed.insertAllFields(of: record)
      }
      return changed
    }

    func removeRecord(for key: CacheKey) { records[key] = nil }
    func removeRecords(matching pattern: String) { records = records.filter { !KeyPattern.matches($0.key, pattern) } }
    func clear() { records = [:] }
  }

  /// The in-memory store, but its consistent read lends the records of the keys in reverse order.
  final class MislendingStore: NormalizedCache {
    let base = InMemoryNormalizedCache()

    func loadRecords(forKeys keys: [CacheKey]) -> [CacheKey: Record] { base.loadRecords(forKeys: keys) }
    func merge(records: RecordSet) throws -> ChangedKeys { try base.merge(records: records) }
    func removeRecord(for key: CacheKey) { base.removeRecord(for: key) }
    func removeRecords(matching pattern: String) { base.removeRecords(matching: pattern) }
    func clear() { base.clear() }

    func withConsistentRead<Result>(_ body: (any RecordSnapshot) throws -> Result) throws -> Result {
      try body(Reversed(base: base))
    }

    struct Reversed: RecordSnapshot {
      let base: InMemoryNormalizedCache
      func loadRecordsInOrder(forKeys keys: [CacheKey]) -> [Record?] { base.loadRecordsInOrder(forKeys: keys) }
      func lendRecords(forKeys keys: [CacheKey], to lent: inout LentRecords) {
        lent.lend(base.loadRecordsInOrder(forKeys: keys.reversed()))
      }
    }
  }

  /// The in-memory store behind a store that lists its keys but declares nothing.
  final class UndeclaredStore: KeyEnumerableCache {
    let inner = InMemoryNormalizedCache()
    func loadRecords(forKeys keys: [CacheKey]) -> [CacheKey: Record] { inner.loadRecords(forKeys: keys) }
    func merge(records: RecordSet) throws -> ChangedKeys { try inner.merge(records: records) }
    func removeRecord(for key: CacheKey) { inner.removeRecord(for: key) }
    func removeRecords(matching pattern: String) { inner.removeRecords(matching: pattern) }
    func clear() { inner.clear() }
    func allKeys() -> [CacheKey] { inner.allKeys() }
  }

  @Test("a store that lists its keys but does not declare it fails the capabilities check, and only it")
  func undeclared() throws {
    #expect(
      try StoreConformance.run { UndeclaredStore() } == [
        "its capabilities declare the capability protocols it adopts: it adopts KeyEnumerableCache but capabilities.keyListing is nil: the workbench would not see it"
      ])
  }

  @Test("the in-memory store passes every check, bounded or not, and lends only the fields a projected load asks")
  func inMemory() throws {
    let promises: StoreConformance.Promises = [.all, .projectedLoads]
    #expect(try StoreConformance.run(promises: promises) { InMemoryNormalizedCache() } == [])
    #expect(try StoreConformance.run(promises: promises) { InMemoryNormalizedCache(budget: CacheBudget(maxSizeBytes: 1 << 30)) } == [])
  }

  @Test("a store that lends whole records passes the projected check unless it promises projected loads")
  func wholeLending() throws {
    let name = "a projected load lends each record's asked fields with their dates, never a field it lacks, and (promised) none not asked"
    let check = try #require(StoreConformance.checks.first { $0.name == name })
    #expect(try check.run(on: UndeclaredStore()) == [])
    let problems = try check.run(on: UndeclaredStore(), promises: [.all, .projectedLoads])
    #expect(
      problems.contains {
        $0
          == "Book:1 lent [\"__typename\", \"title\", \"year\", \"pages\"] for [\"title\", \"year\", \"isbn\"]: only [\"title\", \"year\"] were asked and held"
      }, "\(problems)")
  }

  @Test("a store that replaces records whole fails the merge checks, and only those")
  func replacing() throws {
    let problems = try StoreConformance.run { ReplacingStore() }
    let failed = Set(problems.map { problem in StoreConformance.checks.first { problem.hasPrefix($0.name + ": ") }!.name })
    // By hand: replacing loses unmentioned fields (overwrite, and the dated records' partial
    // writes), reports unchanged fields as changed (identical merge, the second merge of true/1,
    // the zoo merged again, and the dated rewrites); nothing else.
    #expect(
      failed == [
        "a field-level overwrite keeps unmentioned fields, in their order, and reports only the changed ones",
        "merging identical records again changes nothing",
        "true and 1, and 1 and 1.0, are different values",
        "every kind of value round-trips: lists, nested lists, references, escapes, -0.0",
        "dated records keep each field's date through merges, a rewrite refreshing it unreported",
        "a record of more than 64 fields keeps its dates through partial merges",
      ], "\(problems)")
    #expect(problems.contains { $0.hasPrefix("a field-level overwrite keeps unmentioned fields") })
    #expect(problems.contains { $0.hasPrefix("merging identical records again changes nothing: changed keys were [") })
    #expect(!problems.contains { $0.hasPrefix("loads in order") })
    #expect(!problems.contains { $0.hasPrefix("removeRecords(matching:)") })
  }

  @Test("a store whose consistent read lends the wrong records fails the lending checks, whole and projected, and only those")
  func mislending() throws {
    let problems = try StoreConformance.run { MislendingStore() }
    let name = "a consistent read lends each key's record as it loads it, a load replacing the one before"
    // Its projected load is the protocol's default, its own whole lend: reversed too.
    let projected =
      "a projected load lends each record's asked fields with their dates, never a field it lacks, and (promised) none not asked"
    #expect(!problems.isEmpty)
    #expect(problems.allSatisfy { $0.hasPrefix(name + ": ") || $0.hasPrefix(projected + ": ") }, "\(problems)")
    #expect(problems.contains { $0.hasPrefix(name + ": Item:3 lent as Optional([") })
    #expect(
      problems.contains {
        $0 == projected + ": Missing:1 (position 1) was not lent" || $0.hasPrefix(projected + ": the missing key was lent")
      })
  }
}
