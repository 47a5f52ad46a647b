import NormalizedCache
import NormalizedCacheConformance
import Testing

@testable import SQLiteCache

/// The contract of ``NormalizedCache`` (docs/stores.md), run against every store
/// configuration: the SQLite store must answer exactly as the in-memory store does.
@Suite("NormalizedCache conformance")
struct ConformanceTests {
  static let hero = StoreConformance.hero
  static let luke = StoreConformance.luke
  static let valueZoo = StoreConformance.valueZoo

  /// The library's checks (`NormalizedCacheConformance.StoreConformance`, which a store of yours
  /// can run too), each on a fresh store of every configuration.
  @Test("conforms", arguments: StoreConfiguration.all, StoreConformance.checks.indices)
  func conforms(_ configuration: StoreConfiguration, _ index: Int) throws {
    let directory = try TemporaryDirectory()
    let check = StoreConformance.checks[index]
    #expect(try check.run(on: configuration.makeStore(in: directory), promises: configuration.promises) == [], "\(check.name)")
  }

  /// What the stores count, beside what the checks can see through loads.
  @Test("record counts and payload follow merges, removals and clear", arguments: StoreConfiguration.all)
  func counts(_ configuration: StoreConfiguration) throws {
    let directory = try TemporaryDirectory()
    let store = try configuration.makeStore(in: directory)
    try store.merge(records: RecordSet(records: [Self.hero, Self.luke]))
    #expect(try store.recordCount() == 2)
    try store.removeRecord(for: "Character:1")
    #expect(try store.recordCount() == 1)
    try store.clear()
    #expect(try store.recordCount() == 0)
    #expect(try store.payloadBytes() == 0)
    try store.merge(records: RecordSet(records: (0..<1_234).map { Record(key: "Item:\($0)", ["id": .int($0)]) }))
    #expect(try store.recordCount() == 1_234)
  }

  @Test("the patterns' removals are the shared rule's (KeyPattern)")
  func patternRule() {
    for (pattern, removed) in StoreConformance.patterns {
      #expect(Set(StoreConformance.patternKeys.filter { KeyPattern.matches($0, pattern) }) == removed, "pattern \(pattern)")
    }
  }

  @Test("reopening the file keeps every record", arguments: StoreConfiguration.onFile)
  func reopen(_ configuration: StoreConfiguration) throws {
    let directory = try TemporaryDirectory()
    let records = RecordSet(records: [Self.hero, Self.luke, Self.valueZoo])
    do {
      let store = try configuration.makeStore(in: directory)
      try store.merge(records: records)
    }
    let reopened = try configuration.reopenStore(in: directory)
    let loaded = try reopened.loadRecords(forKeys: records.keys)
    #expect(RecordSet(records: Array(loaded.values)) == records)
    #expect(try reopened.merge(records: records).isEmpty)
    // New field names after reopening get numbers of their own.
    let changed = try reopened.merge(records: RecordSet(records: [Record(key: "Character:1", ["homeworld": "Tatooine"])]))
    #expect(Set(changed) == ["Character:1.homeworld"])
    let again = try configuration.reopenStore(in: directory)
    #expect(try again.loadRecords(forKeys: ["Character:1"])["Character:1"]?["homeworld"] == "Tatooine")
    #expect(try again.loadRecords(forKeys: ["Character:1"])["Character:1"]?["name"] == "Luke")
  }
}
