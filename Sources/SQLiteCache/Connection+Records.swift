import CSQLite
import NormalizedCache

/// What every database of records here does the same way, whatever its layout: the cache's
/// ``RecordRowStore`` and the limit table (``SQLiteLimitStore``) both keep a `records` table keyed
/// by `key`.
extension Connection {
  /// Sets the busy timeout, the journal mode (which a file must accept), the synchronous level,
  /// the memory map and the page cache.
  func configure(_ options: SQLiteNormalizedCache.Options) throws(SQLiteError) {
    let timeout = sqlite3_busy_timeout(handle, options.busyTimeoutMilliseconds)
    guard timeout == SQLITE_OK else { throw SQLiteError(code: timeout, connection: handle) }
    // Before any table exists: a file takes its auto_vacuum mode when it is created.
    if options.autoVacuum == .incremental { try execute("PRAGMA auto_vacuum = INCREMENTAL") }
    try setJournalMode(options.journalMode)
    try execute("PRAGMA synchronous = \(options.synchronous.rawValue.uppercased())")
    try execute("PRAGMA mmap_size = \(options.memoryMapBytes)")
    try execute("PRAGMA cache_size = -\(options.pageCacheKibibytes)")
  }

  private func setJournalMode(_ mode: SQLiteNormalizedCache.JournalMode) throws(SQLiteError) {
    let sql = "PRAGMA journal_mode = \(mode.rawValue.uppercased())"
    let result = try text(sql)?.lowercased()
    // An in-memory database keeps its journal in memory whatever is asked; a file must get the
    // mode asked for (WAL can be refused, say on a file system without shared memory).
    guard result == mode.rawValue || isInMemory else {
      throw SQLiteError(
        resultCode: SQLITE_ERROR, message: "journal mode \(mode.rawValue) refused, the mode is \(result ?? "unknown")",
        sql: sql)
    }
  }

  // MARK: Removing

  func removeRecord(for key: CacheKey) throws(SQLiteError) {
    let statement = try cachedStatement("DELETE FROM records WHERE key = ?")
    try statement.bind(key, at: 1)
    try statement.execute()
  }

  /// Deletes with `LIKE`, which ignores ASCII case only, as ``KeyPattern`` does; `%`, `_` and the
  /// escape character itself are escaped so that they match literally.
  /// See [LIKE](https://www.sqlite.org/lang_expr.html#the_like_glob_regexp_match_and_extract_operators).
  func removeRecords(matching pattern: String, table: String = "records") throws(SQLiteError) {
    let statement = try cachedStatement("DELETE FROM \(table) WHERE key LIKE ? ESCAPE '\\'")
    try statement.bind(Self.like(containing: pattern), at: 1)
    try statement.execute()
  }

  /// The `LIKE` pattern of keys that contain `pattern` (``escapedForLike(_:)`` between `%`s), as
  /// ``KeyPattern`` matches.
  static func like(containing pattern: String) -> String { "%" + escapedForLike(pattern) + "%" }

  static func escapedForLike(_ pattern: String) -> String {
    var escaped = ""
    escaped.reserveCapacity(pattern.utf8.count)
    for character in pattern.unicodeScalars {
      if character == "%" || character == "_" || character == "\\" { escaped.unicodeScalars.append("\\") }
      escaped.unicodeScalars.append(character)
    }
    return escaped
  }

  func removeAllRecords() throws(SQLiteError) {
    try cachedStatement("DELETE FROM records").execute()
  }

  // MARK: Statistics

  /// Record count and payload (keys plus the bytes of `dataColumn`), `page_count × page_size`, the
  /// `-wal` file's size and `sqlite3_memory_used()`.
  func recordStatistics(dataColumn: String) throws(SQLiteError) -> SQLiteNormalizedCache.Statistics {
    try recordStatistics(
      countAndPayloadSQL: "SELECT count(*), total(length(CAST(key AS BLOB)) + length(CAST(\(dataColumn) AS BLOB))) FROM records")
  }

  /// The same figures, the record count and payload from `countAndPayloadSQL` (one row: a count
  /// and a `total`), for a layout that counts them its own way (the rows layout).
  func recordStatistics(countAndPayloadSQL: String) throws(SQLiteError) -> SQLiteNormalizedCache.Statistics {
    let statement = try cachedStatement(countAndPayloadSQL)
    defer { statement.reset() }
    guard try statement.step() else {
      throw SQLiteError(resultCode: SQLITE_ERROR, message: "expected one row", sql: statement.sql)
    }
    let count = Int(statement.double(at: 0))
    let payload = Int(statement.double(at: 1))
    let pageCount = try integer("PRAGMA page_count")
    let pageSize = try integer("PRAGMA page_size")
    return SQLiteNormalizedCache.Statistics(
      recordCount: count, payloadBytes: payload, databaseBytes: Int(pageCount * pageSize),
      walBytes: walBytes(), heapBytes: Int(sqlite3_memory_used()))
  }

  /// The size of the `-wal` file; 0 when there is none (another journal mode, or in memory).
  private func walBytes() -> Int {
    guard let name = sqlite3_db_filename(handle, "main"), name.pointee != 0 else { return 0 }
    return fileSize(String(cString: name) + "-wal")
  }

  /// Copies the WAL into the database file and truncates the WAL to zero bytes
  /// ([wal_checkpoint(TRUNCATE)](https://www.sqlite.org/pragma.html#pragma_wal_checkpoint)).
  func checkpoint() throws(SQLiteError) {
    let statement = try cachedStatement("PRAGMA wal_checkpoint(TRUNCATE)")
    defer { statement.reset() }
    guard try statement.step() else { return }
    // Columns: busy (1 when a reader or writer kept it from finishing), WAL pages, pages copied.
    if statement.int64(at: 0) != 0 {
      throw SQLiteError(resultCode: SQLITE_BUSY, message: "checkpoint could not complete", sql: statement.sql)
    }
  }
}
