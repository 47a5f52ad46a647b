import Foundation
import NormalizedCache
import NormalizedCacheConformance
import SQLiteCache
import Support
import Testing

@Suite("Chained store")
struct ChainedStoreTests {
  static func record(_ key: CacheKey, _ value: Int) -> Record { Record(key: key, ["v": .int(value), "pad": .string("0123456789")]) }

  @Test("a read the front lacks falls through to the back and is promoted; the next read is the front's")
  func promotes() throws {
    let back = InMemoryNormalizedCache()
    try back.merge(records: RecordSet(records: [Self.record("A:1", 1)]))
    let chain = ChainedNormalizedCache(front: InMemoryNormalizedCache(budget: CacheBudget(maxSizeBytes: 10_000)), back: back)
    #expect(try chain.loadRecordsInOrder(forKeys: ["A:1", "B:1"]).map { $0?.key } == ["A:1", nil])
    #expect(chain.takeTierStatistics() == TierStatistics(frontHits: 0, backHits: 1, promotions: 1))
    #expect(chain.front.allKeys() == ["A:1"])
    _ = try chain.loadRecordsInOrder(forKeys: ["A:1"])
    #expect(chain.takeTierStatistics() == TierStatistics(frontHits: 1, backHits: 0, promotions: 0))
  }

  @Test("a write goes to both: merged into what the front holds, new records added to it")
  func writesToBoth() throws {
    try withScratchDirectory { directory in
      let back = try SQLiteNormalizedCache(path: directory.appendingPathComponent("b.sqlite").path)
      let chain = ChainedNormalizedCache(front: InMemoryNormalizedCache(budget: CacheBudget(maxSizeBytes: 10_000)), back: back)
      try chain.merge(records: RecordSet(records: [Self.record("A:1", 1)]))
      #expect(chain.front.allKeys() == ["A:1"])
      try chain.merge(records: RecordSet(records: [Record(key: "A:1", ["v": 2])]))
      #expect(chain.front.loadRecordsInOrder(forKeys: ["A:1"]) == (try back.loadRecordsInOrder(forKeys: ["A:1"])))
      #expect(chain.front.loadRecordsInOrder(forKeys: ["A:1"]).first??["v"] == .int(2))
    }
  }

  @Test("the back's eviction takes the front's copy too; the front's own eviction leaves the back's")
  func evictions() throws {
    // What the memory store counts for one of these records: key, fields and its overhead.
    let one = 3 + Self.record("A:1", 1).encodedFields.count + InMemoryNormalizedCache.recordOverheadBytes
    // The back holds two records, the front one.
    let back = InMemoryNormalizedCache(budget: CacheBudget(maxSizeBytes: 2 * one, evictTo: 1, reportsEvictedKeys: true))
    let chain = ChainedNormalizedCache(
      front: InMemoryNormalizedCache(budget: CacheBudget(maxSizeBytes: one, evictTo: 1, reportsEvictedKeys: true)), back: back)
    try chain.merge(records: RecordSet(records: [Self.record("A:1", 1)]))
    try chain.merge(records: RecordSet(records: [Self.record("B:1", 2)]))
    #expect(chain.front.allKeys() == ["B:1"])
    #expect(chain.takeFrontEvictions().keys == ["A:1"])
    #expect(try chain.takeEvictions().isEmpty)
    #expect(back.allKeys().sorted() == ["A:1", "B:1"])
    try chain.merge(records: RecordSet(records: [Self.record("C:1", 3)]))
    // The back evicted A:1, its least recent; the front had B:1 and now holds C:1.
    #expect(try chain.takeEvictions().keys == ["A:1"])
    #expect(try chain.loadRecordsInOrder(forKeys: ["A:1"]) == [nil])
  }

  @Test("over 3,000 random merges, loads and removals, the chain loads exactly what a plain store loads")
  func agreesWithPlainStore() throws {
    var random = SplitMix64(seed: 21)
    let keys = (0..<30).map { "K:\($0)" }
    let plain = InMemoryNormalizedCache()
    let back = InMemoryNormalizedCache()
    let chain = ChainedNormalizedCache(front: InMemoryNormalizedCache(budget: CacheBudget(maxSizeBytes: 600, evictTo: 0.8)), back: back)
    for step in 0..<3_000 {
      switch random.int(below: 10) {
      case 0..<5:
        let batch = Set((0..<1 + random.int(below: 4)).map { _ in keys[random.int(below: keys.count)] }).sorted().map { key in
          random.int(below: 2) == 0 ? Self.record(key, random.int(below: 5)) : Record(key: key, ["w\(random.int(below: 3))": .int(step)])
        }
        let expected = try plain.merge(records: RecordSet(records: batch))
        #expect(try chain.merge(records: RecordSet(records: batch)) == expected, "step \(step)")
      case 5..<9:
        let wanted = (0..<1 + random.int(below: 5)).map { _ in keys[random.int(below: keys.count)] }
        #expect(try chain.loadRecordsInOrder(forKeys: wanted) == plain.loadRecordsInOrder(forKeys: wanted), "step \(step)")
      default:
        let key = keys[random.int(below: keys.count)]
        plain.removeRecord(for: key)
        try chain.removeRecord(for: key)
      }
    }
    #expect(try chain.allKeys().sorted() == plain.allKeys().sorted())
  }
}
