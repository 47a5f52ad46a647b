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
      record.isEmpty ? record : Record(key: record.key, fields: record.fields.map { ($0.key, $0.key == "n" || $0.key == "name" ? .string("changed") : $0.value) })
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
