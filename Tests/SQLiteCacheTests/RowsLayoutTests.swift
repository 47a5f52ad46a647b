import NormalizedCache
import Testing

@testable import SQLiteCache

/// The rows layout's rows, as docs/stores.md#the-rows-layout lists them: one row per field and
/// per list element, and a record row only where the field rows cannot say what the record holds.
/// Every expected row here was written out by hand from that table.
@Suite("The rows layout's rows")
struct RowsLayoutTests {
  /// Every row of the table in primary-key order, one line each:
  /// `key|field|position|int|string|float|bool|child|custom|written_at`, `-` for NULL and the
  /// custom column as SQL's `quote` (a BLOB as `X'...'`).
  static func rows(_ cache: SQLiteNormalizedCache) throws -> [String] {
    try cache.withConnection { connection throws(SQLiteError) in
      let statement = try connection.cachedStatement(
        "SELECT cache_key, field_name, position, ifnull(int_value, '-'), ifnull(string_value, '-'), ifnull(float_value, '-'), "
          + "ifnull(bool_value, '-'), ifnull(child_key_value, '-'), CASE WHEN custom_scalar_value IS NULL THEN '-' "
          + "ELSE quote(custom_scalar_value) END, written_at FROM records ORDER BY cache_key, field_name, position")
      defer { statement.reset() }
      var lines: [String] = []
      while try statement.step() {
        lines.append((0..<10).map { (try? statement.text(at: Int32($0))) ?? "?" }.joined(separator: "|"))
      }
      return lines
    }
  }

  static func cache() throws -> SQLiteNormalizedCache {
    try SQLiteNormalizedCache(path: ":memory:", options: .init(layout: .rowsOrdered))
  }

  @Test("fields in the order of their names, without dates: their rows alone, nested lists as sub-records")
  func noRecordRow() throws {
    let cache = try Self.cache()
    let book = Record(key: "Book:1", ["editions": [[1, 2], []], "title": "Dune", "year": 1965])
    try cache.merge(records: RecordSet(records: [book]))
    #expect(
      try Self.rows(cache) == [
        "Book:1|editions|0|2|-|-|-|Book:1.editions.$[0]|-|0",
        "Book:1|editions|1|0|-|-|-|Book:1.editions.$[1]|-|0",
        "Book:1|title|-1|-|Dune|-|-|-|-|0",
        "Book:1|year|-1|1965|-|-|-|-|-|0",
        "Book:1.editions.$[0]|$|0|1|-|-|-|-|-|0",
        "Book:1.editions.$[0]|$|1|2|-|-|-|-|-|0",
        "Book:1.editions.$[1]|$|-2|-|-|-|-|-|-|0",
      ])
    #expect(try cache.loadRecords(forKeys: ["Book:1"])["Book:1"] == book)
    #expect(try cache.allKeys() == ["Book:1"])
    #expect(try cache.statistics().recordCount == 1)
  }

  @Test("a record row where the fields cannot say it: another order, no field, dates all 0")
  func recordRows() throws {
    let cache = try Self.cache()
    try cache.merge(
      records: RecordSet(records: [
        // title, then id: ranks 1 and 0 among the names (id, title).
        Record(key: "Book:2", ["title": "Emma", "id": "2"]),
        Record(key: "Empty:1", [:]),
        Record(key: "Book:3", writtenAt: 0, ["title": "X"]),
        Record(key: "Book:4", writtenAt: 100, ["title": "Y"]),
      ]))
    #expect(
      try Self.rows(cache) == [
        "Book:2||-1|2|-|-|0|-|X'0100'|0",
        "Book:2|id|-1|-|2|-|-|-|-|0",
        "Book:2|title|-1|-|Emma|-|-|-|-|0",
        "Book:3||-1|1|-|-|1|-|-|0",
        "Book:3|title|-1|-|X|-|-|-|-|0",
        "Book:4|title|-1|-|Y|-|-|-|-|100",
        "Empty:1||-1|0|-|-|0|-|-|0",
      ])
    let loaded = try cache.loadRecords(forKeys: ["Book:2", "Empty:1", "Book:3", "Book:4"])
    #expect(loaded["Book:2"]?.fields.map(\.key) == ["title", "id"])
    #expect(loaded["Empty:1"] == Record(key: "Empty:1", [:]))
    #expect(loaded["Book:3"]?.isDated == true)
    #expect(loaded["Book:3"]?.writtenAt("title") == 0)
    #expect(loaded["Book:4"]?.writtenAt("title") == 100)
    #expect(try cache.statistics().recordCount == 4)
  }

  @Test("a merge writes the record row when the record comes to need it and deletes it when it no longer does")
  func recordRowFollowsTheRecord() throws {
    let cache = try Self.cache()
    try cache.merge(
      records: RecordSet(records: [
        Record(key: "Book:1", ["editions": [1], "title": "Dune", "year": 1965]),
        Record(key: "Book:3", writtenAt: 0, ["title": "X"]),
        Record(key: "Empty:1", [:]),
      ]))
    try cache.merge(
      records: RecordSet(records: [
        // Appended after year: out of the names' order (author, editions, title, year).
        Record(key: "Book:1", ["author": .reference("Author:1")]),
        // The same value at another date: dated, not all 0.
        Record(key: "Book:3", writtenAt: 50, ["title": "X"]),
        Record(key: "Empty:1", ["a": 1]),
      ]))
    #expect(
      try Self.rows(cache) == [
        "Book:1||-1|4|-|-|0|-|X'01020300'|0",
        "Book:1|author|-1|-|-|-|-|Author:1|-|0",
        "Book:1|editions|0|1|-|-|-|-|-|0",
        "Book:1|title|-1|-|Dune|-|-|-|-|0",
        "Book:1|year|-1|1965|-|-|-|-|-|0",
        "Book:3|title|-1|-|X|-|-|-|-|50",
        "Empty:1|a|-1|1|-|-|-|-|-|0",
      ])
    let loaded = try cache.loadRecords(forKeys: ["Book:1", "Book:3", "Empty:1"])
    #expect(loaded["Book:1"]?.fields.map(\.key) == ["editions", "title", "year", "author"])
    #expect(loaded["Book:3"] == Record(key: "Book:3", writtenAt: 50, ["title": "X"]))
    #expect(loaded["Empty:1"] == Record(key: "Empty:1", ["a": 1]))
  }

  @Test("an unchanged refetch at a later date moves every field row's date in one statement, and its nested list's sub-record's")
  func refreshMovesFieldDates() throws {
    let cache = try Self.cache()
    // Out of the names' order (a record row), a list, a nested list (a sub-record), an empty list.
    let fields: KeyValuePairs<String, RecordValue> = ["year": 1965, "tags": ["a", "b"], "grid": [[1]], "none": [], "title": "Dune"]
    try cache.merge(records: RecordSet(records: [Record(key: "Book:1", writtenAt: 100, fields)]))
    let changed = try cache.merge(records: RecordSet(records: [Record(key: "Book:1", writtenAt: 200, fields)]))
    #expect(changed.isEmpty)
    // Each field's rows at 200, the nested list's sub-record too (as Apollo's code, which writes
    // the list again); the record row as it was.
    #expect(
      try Self.rows(cache) == [
        // Written order year, tags, grid, none, title, by the names' order 4, 2, 0, 1, 3.
        "Book:1||-1|5|-|-|1|-|X'0402000103'|0",
        "Book:1|grid|0|1|-|-|-|Book:1.grid.$[0]|-|200",
        "Book:1|none|-2|-|-|-|-|-|-|200",
        "Book:1|tags|0|-|a|-|-|-|-|200",
        "Book:1|tags|1|-|b|-|-|-|-|200",
        "Book:1|title|-1|-|Dune|-|-|-|-|200",
        "Book:1|year|-1|1965|-|-|-|-|-|200",
        "Book:1.grid.$[0]|$|0|1|-|-|-|-|-|200",
      ], "\((try? Self.rows(cache)) ?? [])")
    #expect(try cache.loadRecords(forKeys: ["Book:1"])["Book:1"] == Record(key: "Book:1", writtenAt: 200, fields))
  }

  @Test("a refetch a step later leaves the rows a write of the refetched records makes, record rows kept or dropped")
  func refreshKeepsOrDropsRecordRows() throws {
    let inOrder: KeyValuePairs<String, RecordValue> = ["a": 1, "b": "x"]
    let outOfOrder: KeyValuePairs<String, RecordValue> = ["b": "x", "a": 1]
    func records(at date: Int, first: Int) -> [Record] {
      [
        // At 0: a record row (rows all at 0 would say no dates), which a date other than 0 drops.
        Record(key: "A", writtenAt: first, inOrder),
        // Out of their names' order: a record row, kept (the dates alone move).
        Record(key: "B", writtenAt: date, outOfOrder),
        Record(key: "C", writtenAt: date, inOrder),
        // Out of order, refetched at 0: its record row stays, its field rows go to 0.
        Record(key: "D", writtenAt: date == 200 ? 0 : date, outOfOrder),
      ]
    }
    let cache = try Self.cache()
    try cache.merge(records: RecordSet(records: records(at: 100, first: 0)))
    let changed = try cache.merge(records: RecordSet(records: records(at: 200, first: 200)))
    #expect(changed.isEmpty)
    let fresh = try Self.cache()
    try fresh.merge(records: RecordSet(records: records(at: 200, first: 200)))
    #expect(try Self.rows(cache) == Self.rows(fresh))
    #expect(try Self.rows(cache).filter { $0.hasPrefix("A||") }.isEmpty)
    #expect(try Self.rows(cache).filter { $0.hasPrefix("B||") || $0.hasPrefix("D||") }.count == 2)
    let keys = ["A", "B", "C", "D"]
    #expect(try cache.loadRecordsInOrder(forKeys: keys) == fresh.loadRecordsInOrder(forKeys: keys))
  }

  @Test(
    "records refetched unchanged in one merge take their dates, each its own, beside a changed one",
    arguments: [SQLiteNormalizedCache.Layout.rowsOrdered, .rows])
  func refreshOfManyRecords(_ layout: SQLiteNormalizedCache.Layout) throws {
    let cache = try SQLiteNormalizedCache(path: ":memory:", options: .init(layout: layout))
    let keys = (0..<70).map { "Item:\($0)" }
    try cache.merge(records: RecordSet(records: keys.map { Record(key: $0, writtenAt: 100, ["id": .string($0), "n": 1]) }))
    // 40 unchanged at 300, 29 at 500, one changed at 300.
    var refetch: [Record] = []
    for (index, key) in keys.enumerated() {
      if index == 7 {
        refetch.append(Record(key: key, writtenAt: 300, ["id": .string(key), "n": 2]))
      } else {
        refetch.append(Record(key: key, writtenAt: index < 41 ? 300 : 500, ["id": .string(key), "n": 1]))
      }
    }
    let changed = try cache.merge(records: RecordSet(records: refetch))
    #expect(Array(changed) == ["Item:7.n"])
    let loaded = try cache.loadRecordsInOrder(forKeys: keys)
    for (index, record) in loaded.enumerated() {
      let date = index < 41 ? 300 : 500
      #expect(record?.writtenAt("id") == date && record?.writtenAt("n") == date, "\(keys[index]): \(String(describing: record?.writtenAt))")
    }
    #expect(loaded[7]?["n"] == .int(2))
    // Each record's two rows, nothing else moved.
    let dates = try cache.withConnection { connection throws(SQLiteError) in
      try connection.texts("SELECT written_at || ':' || count(*) FROM records GROUP BY written_at ORDER BY written_at")
    }
    #expect(dates == ["300:82", "500:58"])
  }

  @Test("a file with a record row on every record, as the layout once wrote, loads and merges right")
  func recordRowOnEveryRecord() throws {
    let cache = try Self.cache()
    try cache.merge(records: RecordSet(records: [Record(key: "Book:5", ["a": 1, "b": 2])]))
    try cache.withConnection { connection throws(SQLiteError) in
      try connection.execute(
        "INSERT INTO records(cache_key, field_name, position, int_value, bool_value, written_at) VALUES ('Book:5', '', -1, 2, 0, 0)")
    }
    #expect(try cache.loadRecords(forKeys: ["Book:5"])["Book:5"] == Record(key: "Book:5", ["a": 1, "b": 2]))
    // Its count would be stale (2 of 3 fields) had the merge left the row it no longer needs.
    try cache.merge(records: RecordSet(records: [Record(key: "Book:5", ["c": 3])]))
    #expect(try Self.rows(cache) == ["Book:5|a|-1|1|-|-|-|-|-|0", "Book:5|b|-1|2|-|-|-|-|-|0", "Book:5|c|-1|3|-|-|-|-|-|0"])
    #expect(try cache.loadRecords(forKeys: ["Book:5"])["Book:5"] == Record(key: "Book:5", ["a": 1, "b": 2, "c": 3]))
  }

  @Test("removals and counts take a record without a record row for one; a sub-record alone is none")
  func removals() throws {
    let cache = try Self.cache()
    try cache.merge(
      records: RecordSet(records: [
        Record(key: "User:1", ["a": 1, "b": 2]),
        Record(key: "User:2", ["name": "x"]),
        Record(key: "Other:1", ["a": 1, "users": [["u"]]]),
      ]))
    #expect(try cache.statistics().recordCount == 3)
    #expect(try cache.allKeys().sorted() == ["Other:1", "User:1", "User:2"])
    #expect(try cache.loadRecords(forKeys: ["Other:1.users.$[0]"]).isEmpty)
    try cache.removeRecords(matching: "User")
    #expect(try cache.statistics().recordCount == 1)
    #expect(try cache.allKeys() == ["Other:1"])
    #expect(try cache.loadRecords(forKeys: ["Other:1"])["Other:1"] == Record(key: "Other:1", ["a": 1, "users": [["u"]]]))
    try cache.removeRecord(for: "Other:1")
    #expect(try Self.rows(cache) == [])
    #expect(try cache.statistics().recordCount == 0)
  }

  @Test("a projected load finds a record without a record row that has none of the fields asked for")
  func projectedMiss() throws {
    let cache = try Self.cache()
    try cache.merge(records: RecordSet(records: [Record(key: "Book:1", ["title": "Dune", "year": 1965])]))
    var lent = LentRecords()
    try cache.withConsistentRead { snapshot in
      try snapshot.lendRecords(
        forKeys: ["Book:1", "Book:2"], projection: FieldProjection(sets: [FieldSet(["pages"])], setIndices: [0, 0]), to: &lent)
    }
    let bytes = try #require(lent[0])
    #expect(Record(key: "Book:1", uncheckedEncodedFields: Array(bytes)) == Record(key: "Book:1", [:]))
    #expect(lent[1] == nil)
  }

  @Test("a pattern delete in a file opened again takes the sub-records of the nested lists it removes, and no other")
  func patternDeleteAfterReopen() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("rows.sqlite")
    do {
      let cache = try SQLiteNormalizedCache(path: path, options: .init(layout: .rowsOrdered))
      try cache.merge(
        records: RecordSet(records: [
          Record(key: "User:1", ["tags": [["a"], ["b", "c"]]]), Record(key: "Other:1", ["a": 1, "users": [["u"]]]),
        ]))
    }
    // Opened again, the connection has written no nested list: it must know of them from the file.
    let cache = try SQLiteNormalizedCache(path: path, options: .init(layout: .rowsOrdered))
    try cache.removeRecords(matching: "user:")
    #expect(
      try Self.rows(cache) == [
        "Other:1|a|-1|1|-|-|-|-|-|0",
        "Other:1|users|0|1|-|-|-|Other:1.users.$[0]|-|0",
        "Other:1.users.$[0]|$|0|-|u|-|-|-|-|0",
      ])
    #expect(try cache.statistics().recordCount == 1)
  }

  @Test(
    "after a pattern delete, which reads nothing back, a store accounts what a store holding only the rest does",
    arguments: SQLiteNormalizedCache.Layout.allCases)
  func accountingAfterPatternDelete(_ layout: SQLiteNormalizedCache.Layout) throws {
    let kept = [Record(key: "Other:1", ["a": 1, "users": [["u"]]]), Record(key: "Other:2", ["name": "x"])]
    let removed = (0..<20).map { Record(key: "User:\($0)", ["n": .int($0), "tags": [[.string("t\($0)")]]]) }
    let cache = try SQLiteNormalizedCache(path: ":memory:", options: .init(layout: layout))
    try cache.merge(records: RecordSet(records: removed + kept))
    let before = cache.accountedBytes()
    try cache.removeRecords(matching: "USER")
    let fresh = try SQLiteNormalizedCache(path: ":memory:", options: .init(layout: layout))
    try fresh.merge(records: RecordSet(records: kept))
    #expect(cache.accountedBytes() == fresh.accountedBytes())
    #expect(cache.accountedBytes() < before)
    // A merge between the delete and the next count is counted in it.
    let other = try SQLiteNormalizedCache(path: ":memory:", options: .init(layout: layout))
    try other.merge(records: RecordSet(records: removed + kept))
    try other.removeRecords(matching: "user")
    try other.merge(records: RecordSet(records: [Record(key: "Other:3", ["b": 2])]))
    try fresh.merge(records: RecordSet(records: [Record(key: "Other:3", ["b": 2])]))
    #expect(other.accountedBytes() == fresh.accountedBytes())
  }
}
