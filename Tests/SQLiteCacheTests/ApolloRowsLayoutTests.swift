import NormalizedCache
import Testing

@testable import SQLiteCache

/// The layout `rows`: Apollo iOS 3.0's table written as Apollo's own code writes it
/// (apollo-ios-dev, `cache-rewrite/phase-1a-record-projection`, `ApolloSQLiteDatabase.swift`
/// `writeFieldOrList`/`writeElement` 585-660, `syntheticSubRecordKey` 662-680, the reserved-key
/// audit 330-341, `createNewRecordsTableIfNeeded`/`writeSchemaVersion` 101-190). Every expected row
/// was written out by hand from that code: a nested list's row is its sub-record's key alone (no
/// element count), no record has a record row, and the file says version 3.0.
@Suite("Apollo's rows (the rows layout)")
struct ApolloRowsLayoutTests {
  static func cache(_ path: String = ":memory:") throws -> SQLiteNormalizedCache {
    try SQLiteNormalizedCache(path: path, options: .init(layout: .rows))
  }

  @Test("a record's rows: a nested list's row holds its sub-record's key alone; the file says version 3.0")
  func rows() throws {
    let cache = try Self.cache()
    let book = Record(key: "Book:1", ["editions": [[1, 2], []], "title": "Dune", "year": 1965, "grid": [[[3]]]])
    try cache.merge(records: RecordSet(records: [book]))
    #expect(
      try RowsLayoutTests.rows(cache) == [
        "Book:1|editions|0|-|-|-|-|Book:1.editions.$[0]|-|0",
        "Book:1|editions|1|-|-|-|-|Book:1.editions.$[1]|-|0",
        "Book:1|grid|0|-|-|-|-|Book:1.grid.$[0]|-|0",
        "Book:1|title|-1|-|Dune|-|-|-|-|0",
        "Book:1|year|-1|1965|-|-|-|-|-|0",
        "Book:1.editions.$[0]|$|0|1|-|-|-|-|-|0",
        "Book:1.editions.$[0]|$|1|2|-|-|-|-|-|0",
        "Book:1.editions.$[1]|$|-2|-|-|-|-|-|-|0",
        // A list in a list in a list: the sub-record's own sub-record, `.$[P]` appended (662-680).
        "Book:1.grid.$[0]|$|0|-|-|-|-|Book:1.grid.$[0].$[0]|-|0",
        "Book:1.grid.$[0].$[0]|$|0|3|-|-|-|-|-|0",
      ])
    let loaded = try #require(try cache.loadRecords(forKeys: ["Book:1"])["Book:1"])
    #expect(loaded == book)
    #expect(loaded.fieldKeys == ["editions", "grid", "title", "year"])
    #expect(try cache.statistics().recordCount == 1)
    let version = try cache.withConnection { connection throws(SQLiteError) in
      try connection.texts("SELECT key || '=' || value FROM schema_metadata")
    }
    #expect(version == ["version=3.0"])
  }

  @Test("no record row: fields come back by name, a record without fields is not stored, dates all 0 are none")
  func noRecordRows() throws {
    let cache = try Self.cache()
    let changed = try cache.merge(
      records: RecordSet(records: [
        Record(key: "Book:2", ["title": "Emma", "id": "2"]),
        Record(key: "Empty:1", [:]),
        Record(key: "Book:3", writtenAt: 0, ["title": "X"]),
        Record(key: "Book:4", writtenAt: 100, ["title": "Y"]),
      ]))
    #expect(Set(changed) == ["Book:2.title", "Book:2.id", "Book:3.title", "Book:4.title"])
    #expect(
      try RowsLayoutTests.rows(cache) == [
        "Book:2|id|-1|-|2|-|-|-|-|0",
        "Book:2|title|-1|-|Emma|-|-|-|-|0",
        "Book:3|title|-1|-|X|-|-|-|-|0",
        "Book:4|title|-1|-|Y|-|-|-|-|100",
      ])
    let loaded = try cache.loadRecords(forKeys: ["Book:2", "Empty:1", "Book:3", "Book:4"])
    #expect(loaded["Book:2"]?.fieldKeys == ["id", "title"])
    #expect(loaded["Empty:1"] == nil)
    #expect(loaded["Book:3"]?.isDated == false)
    #expect(loaded["Book:4"]?.writtenAt("title") == 100)
    #expect(try cache.statistics().recordCount == 3)
    // A field added later comes back in its name's place; the empty record, filled, exists.
    try cache.merge(
      records: RecordSet(records: [Record(key: "Book:2", ["author": .reference("Author:1")]), Record(key: "Empty:1", ["a": 1])]))
    let again = try cache.loadRecords(forKeys: ["Book:2", "Empty:1"])
    #expect(again["Book:2"]?.fieldKeys == ["author", "id", "title"])
    #expect(again["Empty:1"] == Record(key: "Empty:1", ["a": 1]))
  }

  @Test("a key holding `.$[` is refused, as Apollo's reserved-key audit refuses it, and so is a reference to one")
  func reservedKeys() throws {
    let cache = try Self.cache()
    try cache.merge(records: RecordSet(records: [Record(key: "Book:1", ["title": "Dune"])]))
    let record = try #require(throws: SQLiteError.self) {
      try cache.merge(records: RecordSet(records: [Record(key: "Book:2", ["title": "Emma"]), Record(key: "A.$[0]", ["a": 1])]))
    }
    #expect(
      record.description
        == #"SQLite error 21: Apollo's rows (the rows and rows-rowid layouts) cannot store record "A.$[0]": its key holds ".$[", which names nested lists' sub-records"#
    )
    let reference = try #require(throws: SQLiteError.self) {
      try cache.merge(records: RecordSet(records: [Record(key: "Book:3", ["see": [.reference("X.$[2]")]])]))
    }
    #expect(
      reference.description
        == #"SQLite error 21: Apollo's rows (the rows and rows-rowid layouts) cannot store field "see" of record "Book:3": its reference to "X.$[2]" holds ".$[", which names nested lists' sub-records"#
    )
    // Nothing of either merge was written; the other rows layouts store both keys.
    #expect(try cache.allKeys() == ["Book:1"])
    let ours = try SQLiteNormalizedCache(path: ":memory:", options: .init(layout: .rowsOrdered))
    try ours.merge(records: RecordSet(records: [Record(key: "A.$[0]", ["a": 1]), Record(key: "Book:3", ["see": [.reference("X.$[2]")]])]))
    #expect(try ours.loadRecords(forKeys: ["Book:3"])["Book:3"]?["see"] == .list([.reference("X.$[2]")]))
  }

  @Test("a reference whose key only looks like a sub-record's is a reference; a removal takes a record's sub-records")
  func subRecordKeys() throws {
    let directory = try TemporaryDirectory()
    let cache = try Self.cache(directory.path("apollo-rows.sqlite"))
    // `$[` without the dot, and `.$[x]` without digits, are no sub-record's key (`\.\$\[[0-9]+\]$`).
    let record = Record(key: "Book:1", ["a": .reference("A$[1]"), "b": [[1], [2, 3]], "c": .reference("B.$[]")])
    let wrote = try #require(throws: SQLiteError.self) { try cache.merge(records: RecordSet(records: [record])) }
    #expect(wrote.resultCode == 21)  // "B.$[]" holds ".$[": refused before it is read wrong
    let fine = Record(key: "Book:1", ["a": .reference("A$[1]"), "b": [[1], [2, 3]]])
    try cache.merge(records: RecordSet(records: [fine, Record(key: "Book:2", ["b": [[4]]])]))
    #expect(try cache.loadRecords(forKeys: ["Book:1"])["Book:1"] == fine)
    // Stored bytes count the pointer rows without an Int, as the SQL count does on reopening.
    #expect(try cache.accountedBytes() == Self.cache(directory.path("apollo-rows.sqlite")).accountedBytes())
    try cache.removeRecords(matching: "Book:1")
    #expect(
      try RowsLayoutTests.rows(cache) == [
        "Book:2|b|0|-|-|-|-|Book:2.b.$[0]|-|0",
        "Book:2.b.$[0]|$|0|4|-|-|-|-|-|0",
      ])
    try cache.removeRecord(for: "Book:2")
    #expect(try RowsLayoutTests.rows(cache) == [])
  }

  @Test("a file of Apollo's rows made by hand, as Apollo's code writes them, loads")
  func readsApollosFile() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("by-hand.sqlite")
    let connection = try Connection(path: path)
    try connection.execute(FieldRowStore.schema(withoutRowid: true) + "\n" + FieldRowStore.apolloMetadataSchema)
    try connection.execute(
      """
      INSERT INTO records(cache_key, field_name, position, int_value, string_value, child_key_value, written_at) VALUES
        ('Hero:1', 'name', -1, NULL, 'Luke', NULL, 7),
        ('Hero:1', 'scores', 0, NULL, NULL, 'Hero:1.scores.$[0]', 7),
        ('Hero:1', 'friend', -1, NULL, NULL, 'Hero:2', 7),
        ('Hero:1.scores.$[0]', '$', 0, 9, NULL, NULL, 7);
      """)
    let cache = try Self.cache(path)
    let hero = try #require(try cache.loadRecords(forKeys: ["Hero:1"])["Hero:1"])
    #expect(hero == Record(key: "Hero:1", writtenAt: 7, ["friend": .reference("Hero:2"), "name": "Luke", "scores": [[9]]]))
    #expect(try cache.statistics().recordCount == 1)
  }

  @Test(
    "a refetch at a later date moves the dates of a nested list's sub-record rows too, as Apollo's code writes the list again",
    arguments: [SQLiteNormalizedCache.Layout.rows, .rowsRowid, .rowsOrdered])
  func refetchMovesSubRecordDates(layout: SQLiteNormalizedCache.Layout) throws {
    let cache = try SQLiteNormalizedCache(path: ":memory:", options: .init(layout: layout))
    func book(_ date: Int, title: String = "Dune") -> Record {
      Record(key: "Book:1", writtenAt: date, ["editions": [[1, 2], []], "grid": [[[3]]], "title": .string(title)])
    }
    func dates() throws -> Set<String> {
      Set(try RowsLayoutTests.rows(cache).filter { !$0.hasPrefix("Book:1||") }.map { String($0.split(separator: "|").last!) })
    }
    try cache.merge(records: RecordSet(records: [book(5)]))
    #expect(try dates() == ["5"])
    // Unchanged but for the date: every row, the sub-records' and theirs included, at 9.
    let unchanged = try cache.merge(records: RecordSet(records: [book(9)]))
    #expect(unchanged.isEmpty)
    #expect(try dates() == ["9"])
    // One field changed: the unchanged nested lists' rows are dated field by field, sub-records too.
    try cache.merge(records: RecordSet(records: [book(12, title: "Dune II")]))
    #expect(try dates() == ["12"])
    #expect(try cache.loadRecords(forKeys: ["Book:1"])["Book:1"]?.writtenAt("grid") == 12)
  }

  /// Rows Apollo's writer never makes but a file can hold (docs/stores.md#where-rows-still-differs-from-apollos-code):
  /// Apollo's reader cuts a text at its first NUL (`String(cString:)`) and traps on a list whose
  /// element rows have different dates (a `precondition`); it joins elements in position order
  /// whatever the gaps.
  @Test(
    "rows Apollo's writer never makes: a NUL in a text is kept, a list of mixed dates takes its first element's, positions with gaps are refused"
  )
  func rowsApolloNeverWrites() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("odd.sqlite")
    let connection = try Connection(path: path)
    try connection.execute(FieldRowStore.schema(withoutRowid: true) + "\n" + FieldRowStore.apolloMetadataSchema)
    try connection.execute(
      """
      INSERT INTO records(cache_key, field_name, position, int_value, string_value, child_key_value, written_at) VALUES
        ('Hero:1', 'name', -1, NULL, CAST(X'4C7500006B65' AS TEXT), NULL, 7),
        ('Hero:1', 'tags', 0, NULL, 'a', NULL, 9),
        ('Hero:1', 'tags', 1, NULL, 'b', NULL, 5),
        ('Gaps:1', 'ids', 0, 1, NULL, NULL, 7),
        ('Gaps:1', 'ids', 2, 3, NULL, NULL, 7),
        ('Gaps:1', 'ids', 7, 8, NULL, NULL, 7);
      """)
    let cache = try Self.cache(path)
    let hero = try #require(try cache.loadRecords(forKeys: ["Hero:1"])["Hero:1"])
    #expect(hero["name"] == .string("Lu\u{0}\u{0}ke"))
    #expect(hero["tags"] == ["a", "b"])
    // Apollo's reader traps on the two dates; ours takes the first element's.
    #expect(hero.writtenAt("tags") == 9)
    // Apollo's reader closes the gaps up ([1, 3, 8]); ours refuses the record as damaged.
    #expect(throws: SQLiteError.self) { try cache.loadRecords(forKeys: ["Gaps:1"]) }
    do {
      _ = try cache.loadRecords(forKeys: ["Gaps:1"])
    } catch {
      #expect(error.resultCode == 11)
      #expect(error.message.contains("rows of field \"ids\" out of order in the record of key \"Gaps:1\""), "\(error.message)")
    }
  }

  @Test(
    "`.$[` is found wherever it is, and nothing else is taken for it",
    arguments: [
      (".$[", true), ("A.$[0]", true), ("Book:1.editions.$[12]", true), ("a$[1]", false), ("a.$", false), ("a.[$]", false),
      ("$[.$", false), ("a.$$[", false), ("", false), ("$", false), ("x.$x.$[", true), ("ü.$[", true),
    ])
  func token(key: String, holds: Bool) {
    #expect(RowBytes.holdsSubRecordToken(key) == holds)
  }

  @Test("a merge compares the incoming record in its names' order: an unchanged refetch out of that order changes nothing but dates")
  func incomingInNameOrder() throws {
    // b written at 200 after a at 100: dates of two values, fields out of their names' order.
    var set = RecordSet(records: [Record(key: "Book:1", writtenAt: 100, ["title": "Dune", "author": .reference("A:1"), "year": 1965])])
    set.merge(record: Record(key: "Book:1", writtenAt: 200, ["title": "Dune Messiah"]))
    let record = try #require(set["Book:1"])
    #expect(record.fieldKeys == ["title", "author", "year"])
    var fields = RecordFields()
    let reordered = FieldRowStore.inNameOrder(record, fields: &fields)
    #expect(reordered.fieldKeys == ["author", "title", "year"])
    #expect(reordered == record)
    #expect(reordered.writtenAt("author") == 100 && reordered.writtenAt("title") == 200 && reordered.writtenAt("year") == 100)
    // The bytes a rows store loads for it, to the byte: canonical dates in the new order.
    let cache = try Self.cache()
    try cache.merge(records: RecordSet(records: [record]))
    #expect(try cache.loadRecords(forKeys: ["Book:1"])["Book:1"]?.encodedFields == reordered.encodedFields)
    // Refetched unchanged at one later date, in the written order: no key changes, every row moves.
    let later = Record(key: "Book:1", writtenAt: 300, ["title": "Dune Messiah", "author": .reference("A:1"), "year": 1965])
    #expect(try cache.merge(records: RecordSet(records: [later])).isEmpty)
    #expect(try RowsLayoutTests.rows(cache).map { $0.split(separator: "|").last! } == ["300", "300", "300"])
    // A record already in its names' order is passed through as it is.
    let ordered = Record(key: "Book:2", ["a": 1, "b": 2])
    #expect(FieldRowStore.inNameOrder(ordered, fields: &fields).encodedFields == ordered.encodedFields)
  }
}
