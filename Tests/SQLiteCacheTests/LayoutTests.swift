import NormalizedCache
import Testing

@testable import SQLiteCache

/// The two table layouts: what they store, and that a file keeps the one it was created with.
@Suite("Layouts")
struct LayoutTests {
  static let book = Record(
    key: "Book:1",
    [
      "title": "Dune \"1\"\n", "year": 1965, "rating": 4.5, "inPrint": true, "series": nil,
      "author": .reference("Author:2"), "tags": ["sf", "classic"], "editions": [[1, 2], []],
      "related(first:3)": [.reference("Book:2")],
    ])

  static let bookJSON =
    #"{"title":"Dune \"1\"\n","year":1965,"rating":4.5,"inPrint":true,"series":null,"author":{"$reference":"Author:2"},"#
    + #""tags":["sf","classic"],"editions":[[1,2],[]],"related(first:3)":[{"$reference":"Book:2"}]}"#

  /// Each format writes its load and update statements as literals (made once, not per call);
  /// they must be the texts that name its own data column.
  @Test("a format's statements name its own data column", arguments: [SQLiteNormalizedCache.Layout.apollo, .compact])
  func statementsNameTheColumn(_ layout: SQLiteNormalizedCache.Layout) {
    let format: any RecordFormat = layout == .apollo ? ApolloRecordFormat() : CompactRecordFormat()
    let column = layout == .apollo ? "record" : "data"
    #expect(format.dataColumn == column)
    #expect(format.loadOneSQL == "SELECT \(column) FROM records WHERE key = ?")
    #expect(format.loadManySQL == RecordRowStore.batchLoadSQL(dataColumn: column))
    #expect(format.updateSQL == "UPDATE records SET \(column) = ? WHERE key = ?")
  }

  @Test("the apollo layout stores a record as Apollo's JSON text, fields in order")
  func apolloJSON() throws {
    let cache = try SQLiteNormalizedCache(path: ":memory:", options: .init(layout: .apollo))
    try cache.merge(records: RecordSet(records: [Self.book]))
    let stored = try cache.withConnection { connection throws(SQLiteError) in
      try connection.text("SELECT record FROM records WHERE key = 'Book:1'")
    }
    #expect(stored == Self.bookJSON)
    #expect(RecordJSON.string(of: Self.book) == Self.bookJSON)
  }

  @Test("the apollo layout's table is Apollo iOS's, and reads records Apollo wrote")
  func apolloTable() throws {
    let cache = try SQLiteNormalizedCache(path: ":memory:", options: .init(layout: .apollo))
    let schema = try cache.withConnection { connection throws(SQLiteError) in
      try connection.text("SELECT sql FROM sqlite_schema WHERE name = 'records'")
    }
    #expect(schema == "CREATE TABLE records(_id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT UNIQUE, record TEXT)")
    // As Apple's JSONSerialization writes it: spaces, escaped slashes, any member order.
    try cache.withConnection { connection throws(SQLiteError) in
      try connection.execute(
        #"INSERT INTO records(key, record) VALUES ('QUERY_ROOT', '{ "hero" : {"$reference" : "Character:1"}, "url": "http:\/\/x", "n": 1e3, "u": "\u00e9\ud83e\udd84" }')"#
      )
    }
    let record = try #require(try cache.loadRecords(forKeys: ["QUERY_ROOT"])["QUERY_ROOT"])
    #expect(record == Record(key: "QUERY_ROOT", ["hero": .reference("Character:1"), "url": "http://x", "n": 1000.0, "u": "é🦄"]))
  }

  @Test("the compact layout stores field names once, in the fields table")
  func compactTables() throws {
    let cache = try SQLiteNormalizedCache(path: ":memory:")
    try cache.merge(records: RecordSet(records: [Self.book, Record(key: "Book:2", ["title": "Emma", "pages": 474])]))
    let names = try cache.withConnection { connection throws(SQLiteError) in
      let statement = try connection.cachedStatement("SELECT id, name FROM fields ORDER BY id")
      var names: [String] = []
      while try statement.step() { names.append("\(statement.int64(at: 0)):\(try statement.text(at: 1))") }
      statement.reset()
      return names
    }
    #expect(
      names == [
        "1:title", "2:year", "3:rating", "4:inPrint", "5:series", "6:author", "7:tags", "8:editions", "9:related(first:3)",
        "10:pages",
      ])
    // Book:2 is `title` (1) then "Emma", `pages` (10) then 474: number, value, number, value.
    // "Emma" is short: one byte 0x20 | 4 holds its tag and length.
    let blob = try cache.withConnection { connection throws(SQLiteError) in
      try connection.text("SELECT hex(data) FROM records WHERE key = 'Book:2'")
    }
    #expect(blob == "01" + "24" + "456D6D61" + "0A" + "03" + "B407")
  }

  @Test("reopening a file with another layout fails with a clear error", arguments: SQLiteNormalizedCache.Layout.allCases)
  func wrongLayout(_ layout: SQLiteNormalizedCache.Layout) throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("cache.sqlite")
    let other: SQLiteNormalizedCache.Layout = layout == .compact ? .apollo : .compact
    _ = try SQLiteNormalizedCache(path: path, options: .init(layout: layout))
    let error = try #require(throws: SQLiteError.self) {
      try SQLiteNormalizedCache(path: path, options: .init(layout: other))
    }
    #expect(
      error.description == "SQLite error 1: \(path) holds a cache of the \(layout) layout, which cannot be opened as the \(other) layout")
  }

  @Test("a records table of none of the layouts is an error")
  func foreignTable() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("foreign.sqlite")
    try Connection(path: path).execute("CREATE TABLE records(id INTEGER PRIMARY KEY, payload BLOB)")
    let error = try #require(throws: SQLiteError.self) { try SQLiteNormalizedCache(path: path) }
    #expect(
      error.description
        == "SQLite error 1: \(path) has a table records(id, payload), which is none of the compact layout records(key, data), "
        + "the apollo layout records(_id, key, record), the rows layout records(cache_key, field_name, position, "
        + "int_value, string_value, float_value, bool_value, child_key_value, custom_scalar_value, written_at) with version 3.0 "
        + "in schema_metadata, the rows-rowid layout, the same in a rowid table and the rows-ordered layout, the same without schema_metadata"
    )
  }

  @Test("a layout's columns in a table of the other kind are no layout: compact's records(key, data) is WITHOUT ROWID")
  func columnsOfAnotherKind() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("rowid.sqlite")
    try Connection(path: path).execute("CREATE TABLE records(key TEXT PRIMARY KEY NOT NULL, data BLOB NOT NULL)")
    let error = try #require(throws: SQLiteError.self) { try SQLiteNormalizedCache(path: path) }
    #expect(error.description.hasPrefix("SQLite error 1: \(path) has a table records(key, data) in a rowid table, which is none of "))
  }

  @Test("the rows layout's tables are three layouts (a rowid table; ours, without schema_metadata): a file of one does not open as another")
  func rowTableKinds() throws {
    let directory = try TemporaryDirectory()
    let pairs: [(SQLiteNormalizedCache.Layout, SQLiteNormalizedCache.Layout)] = [
      (.rows, .rowsRowid), (.rowsRowid, .rows), (.rows, .rowsOrdered), (.rowsOrdered, .rows), (.rowsOrdered, .rowsRowid),
      (.rowsRowid, .rowsOrdered),
    ]
    for (layout, other) in pairs {
      let path = directory.path("\(layout)-\(other).sqlite")
      try SQLiteNormalizedCache(path: path, options: .init(layout: layout)).merge(
        records: RecordSet(records: [Record(key: "A:1", ["a": 1])]))
      let error = try #require(throws: SQLiteError.self) { try SQLiteNormalizedCache(path: path, options: .init(layout: other)) }
      #expect(
        error.description == "SQLite error 1: \(path) holds a cache of the \(layout) layout, which cannot be opened as the \(other) layout")
      let reopened = try SQLiteNormalizedCache(path: path, options: .init(layout: layout))
      #expect(try reopened.loadRecords(forKeys: ["A:1"])["A:1"] == Record(key: "A:1", ["a": 1]))
    }
  }

  @Test(
    "each layout's descriptor says what its store creates: its columns, its kind of table, its name",
    arguments: SQLiteNormalizedCache.Layout.allCases)
  func descriptorMatchesSchema(_ layout: SQLiteNormalizedCache.Layout) throws {
    let cache = try SQLiteNormalizedCache(path: ":memory:", options: .init(layout: layout))
    let descriptor = layout.descriptor
    #expect(descriptor.layout == layout)
    let (columns, kind, found) = try cache.withConnection { connection throws(SQLiteError) in
      (
        try connection.texts("SELECT name FROM pragma_table_info('records') ORDER BY cid"),
        try connection.integer("SELECT wr FROM pragma_table_list WHERE schema = 'main' AND name = 'records'"),
        try LayoutDescriptor.existing(in: connection)?.layout
      )
    }
    #expect(columns == descriptor.columns)
    #expect(kind == (descriptor.withoutRowid ? 1 : 0))
    #expect(found == layout)
    // The floor's table is the layout's records table.
    let floor = try Connection(path: ":memory:")
    try floor.execute(descriptor.tableSchema)
    #expect(try floor.texts("SELECT name FROM pragma_table_info('records') ORDER BY cid") == descriptor.columns)
    // Apollo's rows are known by a schema_metadata table the floor does not make.
    if let version = descriptor.schemaVersion {
      try floor.execute(
        "CREATE TABLE schema_metadata(key TEXT PRIMARY KEY, value TEXT); INSERT INTO schema_metadata VALUES ('version', '\(version)')")
    }
    #expect(try LayoutDescriptor.existing(in: floor)?.layout == layout)
    if descriptor.schemaVersion != nil {
      let version = try cache.withConnection { connection throws(SQLiteError) in try LayoutDescriptor.schemaVersion(in: connection) }
      #expect(version == "3.0")
    }
  }

  @Test(
    "a stored record that does not decode is reported, not trusted",
    arguments: [
      (
        SQLiteNormalizedCache.Layout.compact, "INSERT INTO records(key, data) VALUES ('bad', x'7F00')",
        #"SQLite error 11: an unknown field number in the record of key "bad" (compact layout)"#
      ),
      (
        .compact, "INSERT INTO records(key, data) VALUES ('bad', x'0105FF')",
        #"SQLite error 11: a malformed value in the record of key "bad" (compact layout)"#
      ),
      (
        .compact, "INSERT INTO records(key, data) VALUES ('bad', x'0109')",
        #"SQLite error 11: a malformed value in the record of key "bad" (compact layout)"#
      ),
      (
        .apollo, #"INSERT INTO records(key, record) VALUES ('bad', '{"a": {"b": 1}}')"#,
        #"SQLite error 11: malformed JSON (an object that is not a reference at byte 6) in the record of key "bad" (apollo layout)"#
      ),
      (
        .apollo, #"INSERT INTO records(key, record) VALUES ('bad', '{"a": [1,}')"#,
        #"SQLite error 11: malformed JSON (expected a value at byte 9) in the record of key "bad" (apollo layout)"#
      ),
      // A lone surrogate escape, which no writer of ours or Apollo's makes and a Swift string
      // cannot hold: refused as JSONParser refuses it (docs/records.md#reading-json).
      (
        .apollo, #"INSERT INTO records(key, record) VALUES ('bad', '{"a": "\uD800"}')"#,
        #"SQLite error 11: malformed JSON (an unpaired surrogate \uD800 in a string at byte 7) in the record of key "bad" (apollo layout)"#
      ),
      (
        .apollo, #"INSERT INTO records(key, record) VALUES ('bad', '{"a": ["x\uDC00"]}')"#,
        #"SQLite error 11: malformed JSON (an unpaired surrogate \uDC00 in a string at byte 9) in the record of key "bad" (apollo layout)"#
      ),
      // A record's dates (the empty name) only first, and only as docs/records.md#dates has them:
      // the readers trust them. Compact: field 1 is "a" (the good record's), 2 the empty name;
      // `01 03 02` is a = 1, `02 03 0A` dates of 5, `02 21 78` dates of "x".
      (
        .apollo, #"INSERT INTO records(key, record) VALUES ('bad', '{"a":1,"":5}')"#,
        #"SQLite error 11: malformed JSON (a member of empty name (a record's dates) that is not the first at byte 7) in the record of key "bad" (apollo layout)"#
      ),
      (
        .apollo, #"INSERT INTO records(key, record) VALUES ('bad', '{"": "x","a":1}')"#,
        #"SQLite error 11: malformed JSON (a dates member that is not a record's dates (the dates field holds a value other than an Int) at byte 5) in the record of key "bad" (apollo layout)"#
      ),
      (
        .apollo, #"INSERT INTO records(key, record) VALUES ('bad', '{"":[5,7,1],"a":1}')"#,
        #"SQLite error 11: malformed JSON (a dates member that is not a record's dates (the dates field's exception (7, 1) is not a later field of the 1 with a date from 1 to 5 seconds before its base) at byte 4) in the record of key "bad" (apollo layout)"#
      ),
      (
        .compact, "INSERT INTO fields(id, name) VALUES (2, ''); INSERT INTO records(key, data) VALUES ('bad', x'01030202030A')",
        #"SQLite error 11: a dates field that is not the first field or not a record's dates in the record of key "bad" (compact layout)"#
      ),
      (
        .compact, "INSERT INTO fields(id, name) VALUES (2, ''); INSERT INTO records(key, data) VALUES ('bad', x'022178010302')",
        #"SQLite error 11: a dates field that is not the first field or not a record's dates in the record of key "bad" (compact layout)"#
      ),
      // The rows layouts: a list in a list whose sub-record is not there, counted (ours) or not
      // (Apollo's); a record row in Apollo's rows, which have none; a row without a value.
      (
        .rowsOrdered,
        "INSERT INTO records(cache_key, field_name, position, int_value, child_key_value, written_at) VALUES ('bad', 'l', 0, 2, 'bad.l.$[0]', 0)",
        #"SQLite error 11: sub-record "bad.l.$[0]" has no rows in the record of key "bad" (rows layout)"#
      ),
      (
        .rowsOrdered,
        "INSERT INTO records(cache_key, field_name, position, int_value, child_key_value, written_at) VALUES ('bad', 'l', 0, 2, 'bad.l.$[0]', 0), "
          + "('bad.l.$[0]', '$', 0, 7, NULL, 0)",
        #"SQLite error 11: sub-record "bad.l.$[0]" holds 1 elements, not 2 in the record of key "bad" (rows layout)"#
      ),
      (
        .rows, "INSERT INTO records(cache_key, field_name, position, child_key_value, written_at) VALUES ('bad', 'l', 0, 'bad.l.$[0]', 0)",
        #"SQLite error 11: sub-record "bad.l.$[0]" has no rows in the record of key "bad" (rows layout)"#
      ),
      (
        .rows,
        "INSERT INTO records(cache_key, field_name, position, int_value, written_at) VALUES ('bad', '', -1, 1, 0), ('bad', 'a', -1, 1, 0)",
        #"SQLite error 11: a record row (Apollo's rows have none) in the record of key "bad" (rows layout)"#
      ),
      (
        .rows, "INSERT INTO records(cache_key, field_name, position, written_at) VALUES ('bad', 'a', -1, 0)",
        #"SQLite error 11: a row without a value in the record of key "bad" (rows layout)"#
      ),
      // A date before 0 is no record's; with one of Int.max beside it, the seconds before the base overflowed.
      (
        .rows,
        "INSERT INTO records(cache_key, field_name, position, int_value, written_at) VALUES ('bad', 'a', -1, 1, 9223372036854775807), ('bad', 'b', -1, 2, -9223372036854775808)",
        #"SQLite error 11: a field written at -9223372036854775808, before 0 in the record of key "bad" (rows layout)"#
      ),
      (
        .rowsOrdered, "INSERT INTO records(cache_key, field_name, position, int_value, written_at) VALUES ('bad', 'a', -1, 1, -5)",
        #"SQLite error 11: a field written at -5, before 0 in the record of key "bad" (rows layout)"#
      ),
    ])
  func corruptRecord(_ layout: SQLiteNormalizedCache.Layout, _ insert: String, _ message: String) throws {
    let cache = try SQLiteNormalizedCache(path: ":memory:", options: .init(layout: layout))
    try cache.merge(records: RecordSet(records: [Record(key: "good", ["a": 1])]))
    try cache.withConnection { connection throws(SQLiteError) in try connection.execute(insert) }
    let error = try #require(throws: SQLiteError.self) { try cache.loadRecords(forKeys: ["good", "bad"]) }
    #expect(error.description == message)
    #expect(try cache.loadRecords(forKeys: ["good"]).count == 1)
  }

  @Test("a load looks keys up in the primary key, one search per key", arguments: SQLiteNormalizedCache.Layout.allCases)
  func queryPlan(_ layout: SQLiteNormalizedCache.Layout) throws {
    let cache = try SQLiteNormalizedCache(path: ":memory:", options: .init(layout: layout))
    let column = layout == .compact ? "data" : "record"
    let sql = layout.descriptor.rowPerField ? FieldRowStore.loadSQL : RecordRowStore.batchLoadSQL(dataColumn: column)
    let plan = try cache.withConnection { connection throws(SQLiteError) in
      let statement = try Statement(sql: "EXPLAIN QUERY PLAN " + sql, connection: connection, persistent: false)
      var details: [String] = []
      while try statement.step() { details.append(try statement.text(at: 3)) }
      return details
    }
    let search =
      switch layout {
      case .compact: "SEARCH records USING PRIMARY KEY (key=?)"
      case .apollo: "SEARCH records USING INDEX sqlite_autoindex_records_1 (key=?)"
      // Every row of the key, in the primary key's order: no sort.
      case .rows, .rowsOrdered: "SEARCH r USING PRIMARY KEY (cache_key=?)"
      case .rowsRowid: "SEARCH r USING INDEX sqlite_autoindex_records_1 (cache_key=?)"
      }
    #expect(plan == ["SCAN wanted VIRTUAL TABLE INDEX 1:", search])
  }

  @Test("statistics count records, payload, pages, the WAL and SQLite's heap")
  func statistics() throws {
    let directory = try TemporaryDirectory()
    let cache = try SQLiteNormalizedCache(path: directory.path("cache.sqlite"))
    let empty = try cache.statistics()
    #expect(empty.recordCount == 0)
    #expect(empty.payloadBytes == 0)
    try cache.merge(records: RecordSet(records: [Record(key: "Book:2", ["title": "Emma", "pages": 474])]))
    let stats = try cache.statistics()
    #expect(stats.recordCount == 1)
    // Key (6 bytes) and blob (10 bytes, see `compactTables`).
    #expect(stats.payloadBytes == 16)
    #expect(stats.databaseBytes == 4 * 4_096)  // schema, records, fields, fields.name's index
    #expect(stats.walBytes > 0)
    #expect(stats.heapBytes > 0)
    try cache.checkpoint()
    #expect(try cache.statistics().walBytes == 0)
    let memory = try SQLiteNormalizedCache(path: ":memory:")
    #expect(try memory.statistics().walBytes == 0)
  }

  @Test("journal mode and synchronous level are what the options ask", arguments: SQLiteNormalizedCache.JournalMode.allCases)
  func pragmas(_ mode: SQLiteNormalizedCache.JournalMode) throws {
    let directory = try TemporaryDirectory()
    let cache = try SQLiteNormalizedCache(
      path: directory.path("cache.sqlite"), options: .init(journalMode: mode, synchronous: .full))
    let (journal, synchronous) = try cache.withConnection { connection throws(SQLiteError) in
      (try connection.text("PRAGMA journal_mode"), try connection.integer("PRAGMA synchronous"))
    }
    #expect(journal == mode.rawValue)
    #expect(synchronous == 2)
    try cache.merge(records: RecordSet(records: [Record(key: "Item:1", ["a": 1])]))
    #expect(try cache.loadRecords(forKeys: ["Item:1"]).count == 1)
  }
}

@Suite("The compact layout's short forms")
struct CompactShortFormTests {
  @Test(
    "strings and references shorter than 32 bytes fold their length into the tag, and expand back exactly",
    arguments: [0, 1, 31, 32, 200])
  func roundTrip(length: Int) throws {
    let text = String(repeating: "x", count: length)
    let directory = try TemporaryDirectory()
    let cache = try SQLiteNormalizedCache(path: directory.path("short.sqlite"))
    let record = Record(
      key: "R", ["s": .string(text), "r": .reference(CacheKey(text)), "l": [.string(text), [.reference(CacheKey(text))], 7]])
    try cache.merge(records: RecordSet(records: [record]))
    #expect(try cache.loadRecords(forKeys: ["R"])["R"] == record)
    let reopened = try SQLiteNormalizedCache(path: directory.path("short.sqlite"))
    #expect(try reopened.loadRecords(forKeys: ["R"])["R"]?.encodedFields == record.encodedFields)
  }

  @Test("a record whose decoded form outgrows the stack scratch buffer reads back")
  func largeRecord() throws {
    let directory = try TemporaryDirectory()
    let cache = try SQLiteNormalizedCache(path: directory.path("large.sqlite"))
    // 600 empty strings: 1 stored byte each, 2 decoded, plus a value length of 2 bytes.
    let record = Record(key: "R", ["many": .list(Array(repeating: .string(""), count: 600)), "x": 1])
    try cache.merge(records: RecordSet(records: [record]))
    #expect(try cache.loadRecords(forKeys: ["R"])["R"] == record)
  }
}
