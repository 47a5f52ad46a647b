import NormalizedCache
import Testing

@testable import SQLiteCache

/// Records of more than `RecordRowStore.splitFieldCount` (64) fields, which the compact layout stores
/// a field per row: every store must still answer as the in-memory store does.
@Suite("Large records")
struct SplitRecordTests {
  /// A root record with fields `f<first>` ... `f<first + count - 1>`, each holding `value(index)`.
  static func root(_ range: Range<Int>, value: (Int) -> RecordValue = { .int($0) }) -> Record {
    Record(key: "QUERY_ROOT", fields: range.map { ("f\($0)", value($0)) })
  }

  @Test(
    "a record growing past 64 fields, then merged into, reports and loads exactly as in memory (fields in order)",
    arguments: StoreConfiguration.all)
  func growingRecord(_ configuration: StoreConfiguration) throws {
    let directory = try TemporaryDirectory()
    let store = try configuration.makeStore(in: directory)
    let oracle = InMemoryNormalizedCache()
    let other = Record(key: "Item:1", ["name": "a"])
    // 40 fields; 40 + 30 = 70 (the record crosses 64 within a merge); then merges into the large record:
    // unchanged, changed, new and mixed; then a new record born large.
    let batches: [[Record]] = [
      [Self.root(0..<40), other],
      [Self.root(30..<70)],
      [Self.root(0..<70)],
      [Self.root(60..<62, value: { .string("changed \($0)") }), other],
      [Self.root(68..<72), Record(key: "Item:1", ["name": "b"])],
      [Self.root(0..<3, value: { _ in .null })],
      // Fills the second chunk (positions 64-127) and starts a third within one merge.
      [Self.root(72..<130)],
      [Self.root(129..<131, value: { .string("s\($0)") })],
      [Record(key: "Big:1", fields: (0..<100).map { ("g\($0)", .reference("Item:\($0)")) })],
      [Record(key: "Big:1", ["g5": .reference("Item:5"), "g6": .list([.int(6)])])],
    ]
    for (index, batch) in batches.enumerated() {
      let changed = try store.merge(records: RecordSet(records: batch))
      let expected = try oracle.merge(records: RecordSet(records: batch))
      #expect(Set(changed) == Set(expected), "batch \(index)")
      #expect(changed.count == expected.count, "batch \(index)")
      let keys: [CacheKey] = ["QUERY_ROOT", "Item:1", "Big:1"]
      let loaded = try store.loadRecordsInOrder(forKeys: keys)
      let wanted = oracle.loadRecordsInOrder(forKeys: keys)
      #expect(loaded.map { $0?.encodedFields } == wanted.map { configuration.loaded($0) }, "batch \(index)")
    }
    // By hand: 131 root fields in order, f0..f2 null, f60 and f61 changed strings, f129 changed, f130 new.
    let root = try #require(try store.loadRecords(forKeys: ["QUERY_ROOT"])["QUERY_ROOT"])
    #expect(root.fieldKeys == configuration.loadedOrder((0..<131).map { "f\($0)" }))
    #expect(root["f0"] == .null && root["f3"] == .int(3) && root["f61"] == .string("changed 61"))
    #expect(root["f128"] == .int(128) && root["f129"] == .string("s129") && root["f130"] == .string("s130"))
    #expect(try store.recordCount() == 3)
  }

  @Test("removing a large record, by key, by pattern or by clear, removes all of it", arguments: StoreConfiguration.all)
  func removal(_ configuration: StoreConfiguration) throws {
    let directory = try TemporaryDirectory()
    let store = try configuration.makeStore(in: directory)
    let large = { (key: CacheKey) in Record(key: key, fields: (0..<80).map { ("x\($0)", .int($0)) }) }
    try store.merge(records: RecordSet(records: [large("A:1"), large("B:1"), large("C:1")]))
    try store.removeRecord(for: "A:1")
    try store.removeRecords(matching: "b:")
    #expect(try store.presentKeys(["A:1", "B:1", "C:1"]) == ["C:1"])
    // Merged again, a removed key is a new record: every field changes, none is left from before.
    let changed = try store.merge(records: RecordSet(records: [Record(key: "A:1", ["y": 1])]))
    #expect(Set(changed) == ["A:1.y"])
    #expect(try store.loadRecords(forKeys: ["A:1"])["A:1"] == Record(key: "A:1", ["y": 1]))
    try store.clear()
    #expect(try store.recordCount() == 0)
    #expect(try store.payloadBytes() == 0)
    #expect(Set(try store.merge(records: RecordSet(records: [large("C:1")]))).count == 80)
  }
}

/// How the compact layout stores a large record.
@Suite("Compact layout: large records a field per row")
struct CompactSplitLayoutTests {
  static func rows(_ store: SQLiteNormalizedCache, _ sql: String) throws -> Int {
    try store.withConnection { connection throws(SQLiteError) in Int(try connection.integer(sql)) }
  }

  @Test("65 fields are stored as a marker, 2 chunks and 65 positions; a merge rewrites only the chunks that changed")
  func layout() throws {
    let directory = try TemporaryDirectory()
    let store = try SQLiteNormalizedCache(path: directory.path("cache.sqlite"))
    try store.merge(records: RecordSet(records: [SplitRecordTests.root(0..<64)]))
    // No record has been split: the tables are not there yet.
    #expect(try Self.rows(store, "SELECT count(*) FROM sqlite_master WHERE name LIKE 'record\\_%' ESCAPE '\\'") == 0)
    try store.merge(records: RecordSet(records: [SplitRecordTests.root(64..<65)]))
    #expect(try Self.rows(store, "SELECT count(*) FROM record_fields WHERE key = 'QUERY_ROOT'") == 65)
    #expect(try Self.rows(store, "SELECT count(*) FROM record_chunks WHERE key = 'QUERY_ROOT'") == 2)
    #expect(try Self.rows(store, "SELECT max(position) FROM record_fields") == 64)
    // The marker: 0x00 and the field count.
    #expect(try Self.rows(store, "SELECT count(*) FROM records WHERE key = 'QUERY_ROOT' AND data = x'0041'") == 1)
    // Log every write, merge one changed, one unchanged and one new field: f3's chunk (0) is
    // updated, and the new field's position (65) inserted and its chunk (1, after f64) updated.
    try store.withConnection { connection throws(SQLiteError) in
      try connection.execute(
        """
        CREATE TEMP TABLE writes(kind TEXT, n INTEGER);
        CREATE TEMP TRIGGER chunkUpdated AFTER UPDATE ON record_chunks
          BEGIN INSERT INTO writes VALUES ('chunk update', new.chunk); END;
        CREATE TEMP TRIGGER chunkInserted AFTER INSERT ON record_chunks
          BEGIN INSERT INTO writes VALUES ('chunk insert', new.chunk); END;
        CREATE TEMP TRIGGER positionUpdated AFTER UPDATE ON record_fields
          BEGIN INSERT INTO writes VALUES ('position update', new.position); END;
        CREATE TEMP TRIGGER positionInserted AFTER INSERT ON record_fields
          BEGIN INSERT INTO writes VALUES ('position insert ' || new.field, new.position); END;
        """)
    }
    let changed = try store.merge(
      records: RecordSet(records: [Record(key: "QUERY_ROOT", ["f3": "three", "f4": .int(4), "new": true])]))
    #expect(Set(changed) == ["QUERY_ROOT.f3", "QUERY_ROOT.new"])
    #expect(try Self.rows(store, "SELECT count(*) FROM writes") == 3)
    #expect(try Self.rows(store, "SELECT count(*) FROM writes WHERE kind = 'chunk update' AND n IN (0, 1)") == 2)
    #expect(try Self.rows(store, "SELECT count(*) FROM writes WHERE kind = 'chunk update' AND n = 0") == 1)
    // `new` is the 66th name numbered.
    #expect(try Self.rows(store, "SELECT count(*) FROM writes WHERE kind = 'position insert 66' AND n = 65") == 1)
    #expect(try Self.rows(store, "SELECT count(*) FROM records WHERE data = x'0042'") == 1)
    // Payload counts the chunks: the marker row's key and 2 bytes, and the chunks' keys and data,
    // which hold at least 2 bytes per field.
    #expect(try store.payloadBytes() >= 3 * "QUERY_ROOT".utf8.count + 2 + 66 * 2)
  }

  @Test("the tables are made by the first merge that splits a record, rolled back with it, and seen by other connections")
  func tablesOnDemand() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("cache.sqlite")
    let first = try SQLiteNormalizedCache(path: path)
    let second = try SQLiteNormalizedCache(path: path)
    try first.merge(records: RecordSet(records: [Record(key: "A:1", ["x": 1])]))
    // Removal and statistics work without the tables.
    try second.removeRecords(matching: "nothing")
    #expect(try second.statistics().recordCount == 1)
    // A merge that splits a record and then fails (a trigger refuses a later record) rolls the
    // tables back with it.
    try first.withConnection { connection throws(SQLiteError) in
      try connection.execute(
        "CREATE TEMP TRIGGER refuse AFTER INSERT ON records WHEN new.key = 'Refused' BEGIN SELECT RAISE(ABORT, 'refused'); END")
    }
    #expect(throws: SQLiteError.self) {
      try first.merge(records: RecordSet(records: [SplitRecordTests.root(0..<70), Record(key: "Refused", ["y": 1])]))
    }
    let tables = "SELECT count(*) FROM sqlite_master WHERE name IN ('record_chunks', 'record_fields')"
    #expect(try Self.rows(first, tables) == 0)
    try first.merge(records: RecordSet(records: [SplitRecordTests.root(0..<70)]))
    #expect(try Self.rows(first, tables) == 2)
    // The other connection finds the split record, and removes it whole.
    #expect(try second.loadRecords(forKeys: ["QUERY_ROOT"])["QUERY_ROOT"]?.fieldKeys.count == 70)
    try second.removeRecords(matching: "query_root")
    #expect(try Self.rows(first, "SELECT count(*) FROM record_chunks") == 0)
    #expect(try Self.rows(first, "SELECT count(*) FROM record_fields") == 0)
  }
}

@Suite("Large records under a budget")
struct SplitRecordEvictionTests {
  static func wide(_ key: CacheKey) -> Record { Record(key: key, fields: (0..<70).map { ("f\($0)", .int($0)) }) }

  @Test("an evicted large record leaves no chunk or position behind, and the bytes the store counts stay exact")
  func evictedWholly() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("cache.sqlite")
    // Room for one wide record, not two.
    let sizer = try SQLiteNormalizedCache(path: ":memory:", options: .init(budget: CacheBudget()))
    try sizer.merge(records: RecordSet(records: [Self.wide("Wide:1")]))
    let one = sizer.accountedBytes()
    let budget = CacheBudget(maxSizeBytes: one + one / 2, evictTo: 1, policy: .lru, reportsEvictedKeys: true)
    let store = try SQLiteNormalizedCache(path: path, options: .init(budget: budget))
    try store.merge(records: RecordSet(records: [Self.wide("Wide:1")]))
    #expect(try CompactSplitLayoutTests.rows(store, "SELECT count(*) FROM record_chunks WHERE key = 'Wide:1'") == 2)
    try store.merge(records: RecordSet(records: [Self.wide("Wide:2")]))
    #expect(store.takeEvictions().keys == ["Wide:1"])
    for table in ["records", "record_chunks", "record_fields", "record_usage"] {
      #expect(try CompactSplitLayoutTests.rows(store, "SELECT count(*) FROM \(table) WHERE key = 'Wide:1'") == 0, "\(table)")
    }
    #expect(store.accountedBytes() == one)
    // The file agrees: a store opened on it counts the same.
    let reopened = try SQLiteNormalizedCache(path: path, options: .init(budget: budget))
    #expect(reopened.accountedBytes() == one)
    #expect(try reopened.loadRecordsInOrder(forKeys: ["Wide:1", "Wide:2"]).map { $0 != nil } == [false, true])
  }
}
