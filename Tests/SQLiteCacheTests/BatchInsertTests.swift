import NormalizedCache
import Testing

@testable import SQLiteCache

/// New records are inserted 32 to a statement (`Connection.batchRows`), the last few through a
/// statement of their number: every count around the batch size must store exactly what the
/// in-memory store holds.
@Suite("Batched inserts")
struct BatchInsertTests {
  /// `count` new records, one without fields, keys out of order and one not ASCII.
  static func records(_ count: Int, from first: Int = 0) -> [Record] {
    (first..<first + count).reversed().map { index in
      switch index % 7 {
      case 3: Record(key: "Item:\(index)")
      case 5: Record(key: "Itém:\(index)\"", ["name": .string("n\(index)"), "next": .reference("Item:\(index + 1)")])
      default: Record(key: "Item:\(index)", ["n": .int(index), "tags": .list([.string("a"), .null])])
      }
    }
  }

  @Test(
    "merges of 1, 31, 32, 33, 64, 65 and 100 new records load as in memory, once each",
    arguments: StoreConfiguration.all.filter { $0.options != nil })
  func counts(_ configuration: StoreConfiguration) throws {
    let directory = try TemporaryDirectory()
    let store = try configuration.makeStore(in: directory)
    let oracle = InMemoryNormalizedCache()
    var first = 0
    var total = 0
    for count in [1, 31, 32, 33, 64, 65, 100] {
      let batch = Self.records(count, from: first)
      let changed = try store.merge(records: RecordSet(records: batch))
      let expected = try oracle.merge(records: RecordSet(records: batch))
      #expect(Set(changed) == Set(expected), "\(count) records")
      let keys = batch.map(\.key)
      let loaded = try store.loadRecordsInOrder(forKeys: keys)
      #expect(loaded.map { $0?.encodedFields } == batch.map { configuration.loaded($0) }, "\(count) records")
      first += count
      // A record without fields is no record where the store cannot keep one (rows, rows-rowid).
      total += configuration.promises.contains(.emptyRecords) ? count : batch.count { !$0.isEmpty }
      #expect(try store.recordCount() == total)
    }
    // Merged again with one change in each of 40: updates, not inserts; counts unchanged.
    let again = Self.records(40).map { record in
      record.isEmpty
        ? record
        : Record(key: record.key, fields: record.fields.map { ($0.key, $0.key == "n" || $0.key == "name" ? .string("changed") : $0.value) })
    }
    let changed = try store.merge(records: RecordSet(records: again))
    #expect(try Set(changed) == Set(oracle.merge(records: RecordSet(records: again))))
    #expect(try store.recordCount() == total)
  }

  /// Changed records are written 32 to an upsert, the rest one `UPDATE` each.
  @Test(
    "merges that change 1, 31, 32, 33 and 100 records store what memory holds, and count the bytes the file holds",
    arguments: StoreConfiguration.onFile.filter { $0.options != nil })
  func updates(_ configuration: StoreConfiguration) throws {
    let directory = try TemporaryDirectory()
    let store = try configuration.makeSQLiteStore(in: directory)
    let oracle = InMemoryNormalizedCache()
    let all = (0..<100).map { Record(key: "Item:\($0)", ["n": .int($0), "name": .string("item \($0)")]) }
    try store.merge(records: RecordSet(records: all))
    try oracle.merge(records: RecordSet(records: all))
    for (round, count) in [1, 31, 32, 33, 100].enumerated() {
      // Longer values each round: every record changed grows.
      let changes = all.prefix(count).map { Record(key: $0.key, ["name": .string(String(repeating: "x", count: round + 2))]) }
      let changed = try store.merge(records: RecordSet(records: changes))
      #expect(try Set(changed) == Set(oracle.merge(records: RecordSet(records: changes))), "\(count) changed")
      let keys = all.map(\.key)
      #expect(try store.loadRecordsInOrder(forKeys: keys) == oracle.loadRecordsInOrder(forKeys: keys), "\(count) changed")
      // The bytes a merge counts are the bytes the file holds, counted again when it opens.
      let reopened = try SQLiteNormalizedCache(path: directory.path("cache.sqlite"), options: configuration.options!)
      #expect(try store.accountedBytes() == reopened.accountedBytes(), "\(count) changed")
    }
  }
}

/// An unchanged refetch a step later is written as the new dates in place of the stored ones
/// (`RecordRowStore`'s redate, in the compact and apollo layouts): 32 keys to an upsert, the last
/// few through a statement of their number, records grouped by their old and new dates.
@Suite("Refetches a step later")
struct RedateTests {
  /// Records at `date`, the same values each time; non-ASCII text after the dates (the apollo
  /// layout's `substr` counts characters) and keys that JSON escapes.
  static func records(_ count: Int, at date: Int) -> [Record] {
    (0..<count).map { index in
      Record(
        key: index % 5 == 1 ? "Itém:\"\(index)" : "Item:\(index)", writtenAt: date,
        ["n": .int(index), "name": .string("itém \(index)"), "next": .reference("Item:\(index + 1)")])
    }
  }

  @Test(
    "1, 31, 32, 33 and 100 records a step later, dates of as many digits and of more, store what memory holds and what a fresh write stores",
    arguments: StoreConfiguration.onFile.filter { $0.options != nil })
  func refetches(_ configuration: StoreConfiguration) throws {
    let directory = try TemporaryDirectory()
    let store = try configuration.makeSQLiteStore(in: directory)
    let oracle = InMemoryNormalizedCache()
    let keys = Self.records(100, at: 0).map(\.key)
    try store.merge(records: RecordSet(records: Self.records(100, at: 100)))
    try oracle.merge(records: RecordSet(records: Self.records(100, at: 100)))
    // 200 and 300: as many bytes as 100 (a varint of two, three digits); 20,000: a byte and two
    // digits more; 20,001: one more than the records before stored (two old dates in one merge).
    for (date, count) in [(200, 1), (300, 31), (20_000, 32), (20_001, 33), (20_002, 100)] {
      let refetch = RecordSet(records: Self.records(count, at: date))
      let changed = try store.merge(records: refetch)
      #expect(Set(changed).isEmpty, "\(count) at \(date)")
      try oracle.merge(records: refetch)
      #expect(try store.loadRecordsInOrder(forKeys: keys) == oracle.loadRecordsInOrder(forKeys: keys), "\(count) at \(date)")
      // The bytes a merge counts are the bytes the file holds, counted again when it opens.
      let reopened = try SQLiteNormalizedCache(path: directory.path("cache.sqlite"), options: configuration.options!)
      #expect(try store.accountedBytes() == reopened.accountedBytes(), "\(count) at \(date)")
    }
    // The rows are those of a fresh write of what memory holds, byte for byte and of the same
    // type (the apollo layout's text is cut as a BLOB, and must stay TEXT).
    guard let column = ["compact": "data", "apollo": "record"][configuration.options!.layout.rawValue] else { return }
    let fresh = try SQLiteNormalizedCache(path: directory.path("fresh.sqlite"), options: configuration.options!)
    try fresh.merge(records: RecordSet(records: try oracle.loadRecordsInOrder(forKeys: keys).map { try #require($0) }))
    func rows(_ name: String) throws -> [[UInt8]] {
      let connection = try Connection(path: directory.path(name))
      let statement = try Statement(
        sql: "SELECT CAST(key AS BLOB) || X'00' || CAST(\(column) AS BLOB) || X'00' || typeof(\(column)) FROM records ORDER BY key",
        connection: connection,
        persistent: false)
      var rows: [[UInt8]] = []
      while try statement.step() { try statement.withBytes(at: 0, asText: false) { rows.append(Array($0)) } }
      return rows
    }
    let stored = try rows("cache.sqlite")
    #expect(stored.count == 100)
    #expect(stored == (try rows("fresh.sqlite")))
  }

  @Test(
    "a bounded store counts the bytes of records refetched a step later as it counts them written fresh",
    arguments: SQLiteNormalizedCache.Layout.allCases)
  func boundedRefetches(_ layout: SQLiteNormalizedCache.Layout) throws {
    let directory = try TemporaryDirectory()
    let options = SQLiteNormalizedCache.Options(layout: layout, budget: CacheBudget())
    let store = try SQLiteNormalizedCache(path: directory.path("cache.sqlite"), options: options)
    try store.merge(records: RecordSet(records: Self.records(40, at: 100)))
    // As many digits, then more: 33 records at 20,000, the other 7 still at 200.
    for (date, count) in [(200, 40), (20_000, 33)] {
      #expect(Set(try store.merge(records: RecordSet(records: Self.records(count, at: date)))).isEmpty)
      let held = try store.loadRecordsInOrder(forKeys: Self.records(40, at: 0).map(\.key)).map { try #require($0) }
      let fresh = try SQLiteNormalizedCache(path: directory.path("fresh-\(date).sqlite"), options: options)
      try fresh.merge(records: RecordSet(records: held))
      #expect(store.accountedBytes() == fresh.accountedBytes(), "\(layout) at \(date)")
      #expect(try store.statistics().payloadBytes == fresh.statistics().payloadBytes, "\(layout) at \(date)")
    }
  }
}
