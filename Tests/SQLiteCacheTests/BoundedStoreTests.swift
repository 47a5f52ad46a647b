import Foundation
import NormalizedCache
import NormalizedCacheConformance
import SQLiteCache
import Testing

/// A fresh directory for one test's files, removed at the end.
private func withDirectory<T>(_ body: (URL) throws -> T) throws -> T {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bounded-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  return try body(directory)
}

@Suite("Bounded SQLite store")
struct BoundedStoreTests {
  static let budgets: [CacheBudget] = [
    CacheBudget(maxSizeBytes: 2_000, evictTo: 1, policy: .lru),
    CacheBudget(maxSizeBytes: 2_500, evictTo: 0.7, policy: .fifo),
    CacheBudget(maxSizeBytes: 3_000, evictTo: 0.8, policy: .lfu),
    CacheBudget(maxSizeBytes: 2_000, evictTo: 0.8, policy: .lru, expireAfterSteps: 3),
  ]

  @Test("evictions, reads and bytes agree with the reference model over 2,000 random steps, every layout", arguments: budgets)
  func agreesWithModel(budget: CacheBudget) throws {
    for layout in SQLiteNormalizedCache.Layout.allCases {
      try withDirectory { directory in
        var opened = 0
        // What SQLite stores for a record, as SQL's length() counts it in an unbounded store of
        // its own, apart from the bounded store's arithmetic.
        let scratch = try SQLiteNormalizedCache(path: ":memory:", options: .init(layout: layout))
        let accounted = { (record: Record) throws -> Int in
          try scratch.clear()
          try scratch.merge(records: RecordSet(records: [record]))
          return try scratch.statistics().payloadBytes + layout.recordOverheadBytes + record.key.utf8.count
            + SQLiteNormalizedCache.usageRowOverheadBytes
        }
        let failure = try EvictionModelCheck.run(budget: budget, accountedBytes: accounted, seed: 11, steps: 2_000) { budget in
          opened += 1
          return try SQLiteNormalizedCache(
            path: directory.appendingPathComponent("\(opened).sqlite").path, options: .init(layout: layout, budget: budget))
        }
        #expect(failure == nil, "\(layout)")
      }
    }
  }
}

@Suite("Bounded SQLite store by hand")
struct BoundedStoreByHandTests {
  /// A record of `size` stored bytes in the compact layout: key `K:n` (3 bytes) and one string.
  static func record(_ key: CacheKey, text: Int = 60) -> Record {
    Record(key: key, ["v": .string(String(repeating: "x", count: text))])
  }

  @Test("the order survives closing and opening the file: reads written down in the next merge")
  func orderPersists() throws {
    try withDirectory { directory in
      let path = directory.appendingPathComponent("c.sqlite").path
      // Room for A, B and C (small), not for D as well: measured by an unbounded store.
      // (A budget that never evicts: the sizes a bounded store counts, its usage rows included.)
      let sizer = try SQLiteNormalizedCache(path: ":memory:", options: .init(budget: CacheBudget()))
      try sizer.merge(records: RecordSet(records: [Self.record("A:1")]))
      let big = sizer.accountedBytes()
      try sizer.merge(records: RecordSet(records: [Self.record("C:1", text: 1)]))
      let small = sizer.accountedBytes() - big
      let budget = CacheBudget(maxSizeBytes: 3 * big + small - 1, evictTo: 1, policy: .lru, reportsEvictedKeys: true)
      do {
        let store = try SQLiteNormalizedCache(path: path, options: .init(budget: budget))
        try store.merge(records: RecordSet(records: [Self.record("A:1"), Self.record("B:1")]))
        _ = try store.loadRecordsInOrder(forKeys: ["A:1"])
        // The read of A is written down by this merge, which evicts nothing.
        try store.merge(records: RecordSet(records: [Self.record("C:1", text: 1)]))
        #expect(store.takeEvictions().keys == [])
      }
      let reopened = try SQLiteNormalizedCache(path: path, options: .init(budget: budget))
      // Stored bytes, and per record the layout's overhead and its usage row (its 3-byte key and the row's overhead).
      #expect(
        reopened.accountedBytes()
          == (try reopened.statistics().payloadBytes) + 3
          * (SQLiteNormalizedCache.Layout.compact.recordOverheadBytes + 3 + SQLiteNormalizedCache.usageRowOverheadBytes))
      try reopened.merge(records: RecordSet(records: [Self.record("D:1")]))
      // B is the least recently used: A was read after it, C and D written after.
      #expect(reopened.takeEvictions().keys == ["B:1"])
      #expect(try reopened.loadRecordsInOrder(forKeys: ["A:1", "B:1", "C:1", "D:1"]).map { $0 != nil } == [true, false, true, true])
    }
  }

  @Test("a record larger than the budget rolls the merge back: the file, the ledger and the bytes as before")
  func tooLargeRollsBack() throws {
    try withDirectory { directory in
      let store = try SQLiteNormalizedCache(
        path: directory.appendingPathComponent("c.sqlite").path, options: .init(budget: CacheBudget(maxSizeBytes: 300)))
      try store.merge(records: RecordSet(records: [Self.record("A:1")]))
      let before = store.accountedBytes()
      // The budget's own error, naming the record, not SQLite's.
      let error = #expect(throws: CacheBudgetError.self) {
        try store.merge(records: RecordSet(records: [Self.record("B:1"), Self.record("Big:1", text: 400)]))
      }
      #expect(error?.key == "Big:1")
      #expect(error?.maxSizeBytes == 300)
      #expect(store.accountedBytes() == before)
      #expect(try store.statistics().recordCount == 1)
      #expect(try store.loadRecordsInOrder(forKeys: ["A:1", "B:1"]).map { $0 != nil } == [true, false])
    }
  }

  @Test("eviction frees pages for reuse; incremental vacuum gives them back where the file was made for it")
  func pagesAfterEviction() throws {
    try withDirectory { directory in
      for autoVacuum in SQLiteNormalizedCache.AutoVacuum.allCases {
        let store = try SQLiteNormalizedCache(
          path: directory.appendingPathComponent("\(autoVacuum).sqlite").path, options: .init(autoVacuum: autoVacuum))
        try store.merge(records: RecordSet(records: (0..<2_000).map { Self.record("R:\($0)", text: 200) }))
        try store.checkpoint()
        let full = try store.pages()
        try store.clear()
        try store.checkpoint()
        let cleared = try store.pages()
        #expect(cleared.count == full.count)
        #expect(cleared.free > full.count / 2)
        try store.incrementalVacuum()
        try store.checkpoint()
        let vacuumed = try store.pages()
        if autoVacuum == .incremental {
          #expect(vacuumed.free == 0 && vacuumed.count < full.count / 4)
        } else {
          #expect(vacuumed == cleared)
          try store.vacuum()
          #expect(try store.pages().count < full.count / 4)
        }
      }
    }
  }
}
