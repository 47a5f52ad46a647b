import CSQLite
import NormalizedCache
import Synchronization

/// The limit a SQLite cache is measured against (SPEC §5, `limit-sqlite`): each record's encoded
/// bytes in one plain table, `records(key TEXT PRIMARY KEY, fields BLOB)`, written through one
/// prepared `INSERT OR REPLACE` and read through one prepared `SELECT ... WHERE key = ?`.
///
/// It is not a cache: a merge replaces each record whole, without comparing or merging fields,
/// and reports no changed keys. What a store costs beyond this table is what its layout and its
/// merge rules cost; nothing can store the same bytes in SQLite for less.
/// ```swift
/// let limit = try PlainRecordTable(path: "limit.sqlite")
/// try limit.merge(records: normalized.records)      // one transaction, one statement per record
/// let records = try limit.loadRecordsInOrder(forKeys: ["QUERY_ROOT", "Book:bk123"])
/// ```
public final class PlainRecordTable: NormalizedCache {
  public let path: String
  private let connection: Mutex<Connection>

  /// Opens (or creates) the table at `path`, with the journal mode and synchronous level of `options`.
  /// - Throws: ``SQLiteError`` when SQLite cannot open the file or set it up.
  public init(path: String, options: SQLiteNormalizedCache.Options = .init()) throws(SQLiteError) {
    self.path = path
    let connection = try Connection(path: path)
    _ = try connection.text("PRAGMA journal_mode = \(options.journalMode.rawValue.uppercased())")
    try connection.execute("PRAGMA synchronous = \(options.synchronous.rawValue.uppercased())")
    try connection.execute("PRAGMA mmap_size = \(options.memoryMapBytes)")
    try connection.execute("PRAGMA cache_size = -\(options.pageCacheKibibytes)")
    try connection.execute("CREATE TABLE IF NOT EXISTS records (key TEXT PRIMARY KEY, fields BLOB NOT NULL)")
    self.connection = Mutex(connection)
  }

  /// Every record written whole, in one transaction.
  /// - Returns: no changed keys: the table does not compare.
  @discardableResult
  public func merge(records: RecordSet) throws(SQLiteError) -> ChangedKeys {
    try connection.withLock { connection throws(SQLiteError) in
      let insert = try connection.cachedStatement("INSERT OR REPLACE INTO records (key, fields) VALUES (?, ?)")
      try connection.inTransaction { () throws(SQLiteError) in
        for record in records {
          var key = record.key
          try key.withUTF8 { utf8 in
            record.encodedFields.withUnsafeBytes { bytes in
              Result { () throws(SQLiteError) in
                defer { insert.clearBindings() }
                try insert.bindTextNoCopy(UnsafeRawBufferPointer(utf8), at: 1)
                try insert.bindBlobNoCopy(bytes, at: 2)
                try insert.execute()
              }
            }
          }.get()
        }
      }
      return ChangedKeys()
    }
  }

  public func loadRecords(forKeys keys: [CacheKey]) throws(SQLiteError) -> [CacheKey: Record] {
    var records: [CacheKey: Record] = [:]
    records.reserveCapacity(keys.count)
    for record in try loadRecordsInOrder(forKeys: keys) {
      if let record { records[record.key] = record }
    }
    return records
  }

  /// One `SELECT` per key, all in one read transaction when there are several.
  public func loadRecordsInOrder(forKeys keys: [CacheKey]) throws(SQLiteError) -> [Record?] {
    try connection.withLock { connection throws(SQLiteError) in
      let select = try connection.cachedStatement("SELECT fields FROM records WHERE key = ?")
      func load() throws(SQLiteError) -> [Record?] {
        var records: [Record?] = []
        records.reserveCapacity(keys.count)
        for key in keys {
          var key = key
          let fields = try key.withUTF8 { utf8 in
            Result { () throws(SQLiteError) -> [UInt8]? in
              defer {
                select.reset()
                select.clearBindings()
              }
              try select.bindTextNoCopy(UnsafeRawBufferPointer(utf8), at: 1)
              guard try select.step() else { return nil }
              return try select.withBytes(at: 0) { bytes throws(SQLiteError) in [UInt8](bytes) }
            }
          }.get()
          records.append(fields.map { Record(key: key, encodedFields: $0) })
        }
        return records
      }
      return keys.count > 1 ? try connection.inTransaction(.deferred, load) : try load()
    }
  }

  public func removeRecord(for key: CacheKey) throws(SQLiteError) {
    try connection.withLock { connection throws(SQLiteError) in
      let statement = try connection.cachedStatement("DELETE FROM records WHERE key = ?")
      try statement.bind(key, at: 1)
      try statement.execute()
    }
  }

  public func removeRecords(matching pattern: String) throws(SQLiteError) {
    try connection.withLock { connection throws(SQLiteError) in
      let statement = try connection.cachedStatement("DELETE FROM records WHERE key LIKE ? ESCAPE '\\'")
      try statement.bind("%" + RecordStore.escapedForLike(pattern) + "%", at: 1)
      try statement.execute()
    }
  }

  public func clear() throws(SQLiteError) {
    try connection.withLock { connection throws(SQLiteError) in try connection.execute("DELETE FROM records") }
  }

  /// The same figures as ``SQLiteNormalizedCache/statistics()``.
  public func statistics() throws(SQLiteError) -> SQLiteNormalizedCache.Statistics {
    try connection.withLock { connection throws(SQLiteError) in
      let statement = try connection.cachedStatement(
        "SELECT count(*), total(length(CAST(key AS BLOB)) + length(fields)) FROM records")
      defer { statement.reset() }
      guard try statement.step() else {
        throw SQLiteError(resultCode: SQLITE_ERROR, message: "expected one row", sql: statement.sql)
      }
      let count = Int(statement.int64(at: 0))
      let payload = Int(statement.double(at: 1))
      let pages = try connection.integer("PRAGMA page_count") * connection.integer("PRAGMA page_size")
      let wal = connection.isInMemory ? 0 : fileSize(path + "-wal")
      return SQLiteNormalizedCache.Statistics(
        recordCount: count, payloadBytes: payload, databaseBytes: Int(pages), walBytes: wal,
        heapBytes: Int(sqlite3_memory_used()))
    }
  }

  /// `PRAGMA wal_checkpoint(TRUNCATE)`, as ``SQLiteNormalizedCache/checkpoint()``.
  public func checkpoint() throws(SQLiteError) {
    try connection.withLock { connection throws(SQLiteError) in
      let statement = try connection.cachedStatement("PRAGMA wal_checkpoint(TRUNCATE)")
      defer { statement.reset() }
      _ = try statement.step()
    }
  }
}
