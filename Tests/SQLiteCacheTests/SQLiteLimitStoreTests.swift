import Foundation
import NormalizedCache
import SQLiteCache
import Testing

@Suite("The plain table (limit-sqlite)")
struct PlainRecordTableTests {
  /// A table on a file in a fresh directory, removed afterwards.
  func withTable(_ body: (SQLiteLimitStore, String) throws -> Void) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("plain-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("t.sqlite").path
    try body(try SQLiteLimitStore(path: path), path)
  }

  @Test("stores each record's encoded bytes as they are, and loads them in the order asked, nil for a missing key")
  func roundTrip() throws {
    try withTable { table, _ in
      let book = Record(key: "Book:1", ["title": "Emma", "author": .reference("Author:2"), "pages": 474])
      let author = Record(key: "Author:2", ["name": "Austen"])
      let changed = try table.merge(records: RecordSet(records: [book, author]))
      #expect(changed.isEmpty)
      let loaded = try table.loadRecordsInOrder(forKeys: ["Author:2", "Book:9", "Book:1"])
      #expect(loaded.map { $0?.key } == ["Author:2", nil, "Book:1"])
      #expect(loaded[2]?.encodedFields == book.encodedFields)
      #expect(loaded[0]?.encodedFields == author.encodedFields)
      #expect(try table.loadRecords(forKeys: ["Book:1", "Nope"]).keys.sorted() == ["Book:1"])
      #expect(try table.loadRecordsInOrder(forKeys: ["Book:1"]).first??.encodedFields == book.encodedFields)
    }
  }

  @Test("a merge replaces a record whole: fields it does not bring are gone, unlike a cache's merge")
  func replacesWhole() throws {
    try withTable { table, _ in
      try table.merge(records: RecordSet(records: [Record(key: "Book:1", ["title": "Emma", "pages": 474])]))
      try table.merge(records: RecordSet(records: [Record(key: "Book:1", ["title": "Persuasion"])]))
      let record = try #require(try table.loadRecordsInOrder(forKeys: ["Book:1"]).first ?? nil)
      #expect(record.encodedFields == Record(key: "Book:1", ["title": "Persuasion"]).encodedFields)
      #expect(try table.statistics().recordCount == 1)
    }
  }

  @Test("counts records and payload (key and record bytes), and the WAL until a checkpoint")
  func statistics() throws {
    try withTable { table, path in
      let records = [Record(key: "A:1", ["x": 1]), Record(key: "B:22", ["name": "two"])]
      try table.merge(records: RecordSet(records: records))
      let statistics = try table.statistics()
      #expect(statistics.recordCount == 2)
      #expect(statistics.payloadBytes == records.reduce(0) { $0 + $1.key.utf8.count + $1.encodedFields.count })
      #expect(statistics.walBytes > 0)
      try table.checkpoint()
      #expect(try table.statistics().walBytes == 0)
      try table.removeRecord(for: "A:1")
      try table.removeRecords(matching: "b:2")
      #expect(try table.statistics().recordCount == 0)
      #expect(FileManager.default.fileExists(atPath: path))
    }
  }
}
