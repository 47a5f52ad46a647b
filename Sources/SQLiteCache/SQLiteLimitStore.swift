import CSQLite
import NormalizedCache
import Synchronization

/// The limit a SQLite cache is measured against (docs/metrics.md, `limit-sqlite`): each record's
/// encoded bytes in one plain table, `records(key TEXT PRIMARY KEY, fields BLOB)`, written through
/// one prepared `INSERT OR REPLACE` and read through one prepared `SELECT ... WHERE key = ?`.
///
/// It is not a cache: a merge replaces each record whole, without comparing or merging fields,
/// and reports no changed keys. What a store costs beyond this table is what its layout and its
/// merge rules cost; nothing can store the same bytes in SQLite for less.
/// ```swift
/// let limit = try SQLiteLimitStore(path: "limit.sqlite")
/// try limit.merge(records: normalized.records)      // one transaction, one statement per record
/// let records = try limit.loadRecordsInOrder(forKeys: ["QUERY_ROOT", "Book:bk123"])
/// ```
public final class SQLiteLimitStore: NormalizedCache {
  public let path: String
  private let connection: Mutex<Connection>

  /// Opens (or creates) the table at `path`, with the journal mode and synchronous level of `options`.
  /// - Throws: ``SQLiteError`` when SQLite cannot open the file or set it up.
  public init(path: String, options: SQLiteNormalizedCache.Options = .init()) throws(SQLiteError) {
    self.path = path
    let connection = try Connection(path: path, mutex: options.mutex)
    try connection.configure(options)
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
          records.append(fields.map { Record(key: key, uncheckedEncodedFields: $0) })
        }
        return records
      }
      return keys.count > 1 ? try connection.inTransaction(.deferred, load) : try load()
    }
  }

  public func removeRecord(for key: CacheKey) throws(SQLiteError) {
    try connection.withLock { connection throws(SQLiteError) in try connection.removeRecord(for: key) }
  }

  public func removeRecords(matching pattern: String) throws(SQLiteError) {
    guard !pattern.isEmpty else { return }
    try connection.withLock { connection throws(SQLiteError) in try connection.removeRecords(matching: pattern) }
  }

  public func clear() throws(SQLiteError) {
    try connection.withLock { connection throws(SQLiteError) in try connection.removeAllRecords() }
  }

  /// The same figures as ``SQLiteNormalizedCache/statistics()``.
  public func statistics() throws(SQLiteError) -> SQLiteNormalizedCache.Statistics {
    try connection.withLock { connection throws(SQLiteError) in try connection.recordStatistics(dataColumn: "fields") }
  }

  /// As ``SQLiteNormalizedCache/checkpoint()``.
  public func checkpoint() throws(SQLiteError) {
    try connection.withLock { connection throws(SQLiteError) in try connection.checkpoint() }
  }
}
