import NormalizedCache
import Testing

@testable import SQLiteCache

/// Every merge is one transaction: a failure midway leaves the store as it was.
@Suite("Transactions")
struct TransactionTests {
  static let sqliteConfigurations = StoreConfiguration.all.filter { $0.options != nil }

  @Test("a merge that fails midway rolls back every write and the field names it added", arguments: sqliteConfigurations)
  func rollbackMidway(_ configuration: StoreConfiguration) throws {
    let directory = try TemporaryDirectory()
    let cache = try configuration.makeSQLiteStore(in: directory)
    let before = RecordSet(records: [
      Record(key: "Item:1", ["name": "one"]),
      Record(key: "Item:z", ["name": "zed"]),
    ])
    try cache.merge(records: before)
    // The merge below inserts Item:a (with a new field name), updates Item:1, then fails
    // updating Item:z: updates run after inserts, each sorted by key.
    // The rows layout writes a merge's 7 rows in runs of 4, 2 and 1 upserts: Item:z's, last in key order, fails.
    let layout = configuration.options!.layout
    let trigger =
      layout.descriptor.rowPerField
      ? "BEFORE INSERT ON records WHEN NEW.cache_key = 'Item:z'" : "BEFORE UPDATE ON records WHEN NEW.key = 'Item:z'"
    try cache.withConnection { connection throws(SQLiteError) in
      try connection.execute("CREATE TRIGGER fail_on_z \(trigger) BEGIN SELECT RAISE(ABORT, 'boom'); END")
    }
    let failing = RecordSet(records: [
      Record(key: "Item:a", ["name": "a", "brandNew": true]),
      Record(key: "Item:1", ["name": "ONE", "brandNew": false]),
      Record(key: "Item:z", ["name": "ZED"]),
    ])
    let error = try #require(throws: SQLiteError.self) { try cache.merge(records: failing) }
    let column = layout == .compact ? "data" : "record"
    let statement = layout.descriptor.rowPerField ? FieldRowStore.upsertSQL(rows: 1) : "UPDATE records SET \(column) = ? WHERE key = ?"
    #expect(error.description == "SQLite error 19: boom - while executing `\(statement)`")
    #expect(error.extendedResultCode == 1811)  // SQLITE_CONSTRAINT_TRIGGER

    #expect(
      try cache.loadRecords(forKeys: ["Item:1", "Item:z", "Item:a"]) == Dictionary(uniqueKeysWithValues: before.map { ($0.key, $0) }))
    #expect(try cache.statistics().recordCount == 2)
    if configuration.options!.layout == .compact {
      #expect(try cache.withConnection { connection throws(SQLiteError) in try connection.integer("SELECT count(*) FROM fields") } == 1)
    }

    // Without the trigger the same merge succeeds, and the field name forgotten in memory is numbered again.
    try cache.withConnection { connection throws(SQLiteError) in try connection.execute("DROP TRIGGER fail_on_z") }
    let changed = try cache.merge(records: failing)
    #expect(Set(changed) == ["Item:a.name", "Item:a.brandNew", "Item:1.name", "Item:1.brandNew", "Item:z.name"])
    let loaded = try cache.loadRecords(forKeys: ["Item:a", "Item:1"])
    #expect(loaded["Item:a"] == Record(key: "Item:a", ["name": "a", "brandNew": true]))
    #expect(loaded["Item:1"] == Record(key: "Item:1", ["name": "ONE", "brandNew": false]))
  }

  @Test("a failing transaction body rolls back and rethrows; a returning one commits")
  func inTransaction() throws {
    let connection = try Connection(path: ":memory:")
    try connection.execute("CREATE TABLE t(id INTEGER PRIMARY KEY)")
    let thrown = try #require(throws: SQLiteError.self) {
      try connection.inTransaction { () throws(SQLiteError) in
        try connection.execute("INSERT INTO t(id) VALUES (1)")
        throw SQLiteError(resultCode: 1, message: "changed my mind")
      }
    }
    #expect(thrown.message == "changed my mind")
    #expect(!connection.isInTransaction)
    #expect(try connection.integer("SELECT count(*) FROM t") == 0)
    let result = try connection.inTransaction { () throws(SQLiteError) in
      try connection.execute("INSERT INTO t(id) VALUES (2)")
      return 42
    }
    #expect(result == 42)
    #expect(try connection.integer("SELECT count(*) FROM t") == 1)
  }

  @Test("a merge into a read-only file fails and changes nothing")
  func readOnlyFile() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("cache.sqlite")
    do {
      let cache = try SQLiteNormalizedCache(path: path, options: .init(journalMode: .delete))
      try cache.merge(records: RecordSet(records: [Record(key: "Item:1", ["a": 1])]))
    }
    let cache = try SQLiteNormalizedCache(path: path, options: .init(journalMode: .delete))
    try cache.withConnection { connection throws(SQLiteError) in try connection.execute("PRAGMA query_only = ON") }
    let error = try #require(throws: SQLiteError.self) {
      try cache.merge(records: RecordSet(records: [Record(key: "Item:2", ["brandNew": 2])]))
    }
    #expect(error.resultCode == 8)  // SQLITE_READONLY
    try cache.withConnection { connection throws(SQLiteError) in try connection.execute("PRAGMA query_only = OFF") }
    #expect(try cache.presentKeys(["Item:1", "Item:2"]) == ["Item:1"])
    #expect(Set(try cache.merge(records: RecordSet(records: [Record(key: "Item:2", ["brandNew": 2])]))) == ["Item:2.brandNew"])
    #expect(try cache.loadRecords(forKeys: ["Item:2"])["Item:2"]?["brandNew"] == 2)
  }
}
