import CSQLite
import NormalizedCache

/// The database behind one ``SQLiteNormalizedCache``: the connection and the layout's
/// ``RecordFormat``, and all of the store's SQL. Not thread-safe: the cache keeps it behind a lock.
struct RecordStore {
  let connection: Connection
  var format: any RecordFormat

  /// Opens the database, sets its journal mode, synchronous level, memory map and page cache,
  /// and creates the layout's tables unless they exist.
  /// - Throws: ``SQLiteError`` when SQLite fails, or the file holds the other layout.
  init(path: String, options: SQLiteNormalizedCache.Options) throws(SQLiteError) {
    let connection = try Connection(path: path)
    self.connection = connection
    var format = options.layout.makeFormat()

    let timeout = sqlite3_busy_timeout(connection.handle, options.busyTimeoutMilliseconds)
    guard timeout == SQLITE_OK else { throw SQLiteError(code: timeout, connection: connection.handle) }
    try Self.setJournalMode(options.journalMode, on: connection)
    try connection.execute("PRAGMA synchronous = \(options.synchronous.rawValue.uppercased())")
    try connection.execute("PRAGMA mmap_size = \(options.memoryMapBytes)")
    try connection.execute("PRAGMA cache_size = -\(options.pageCacheKibibytes)")

    let schema = format.schema
    try connection.inTransaction { () throws(SQLiteError) in
      switch try SQLiteNormalizedCache.Layout.existing(in: connection) {
      case nil:
        try connection.execute(schema)
      case let layout? where layout != options.layout:
        throw SQLiteError(
          resultCode: SQLITE_ERROR,
          message: "\(path) holds a cache of the \(layout) layout, which cannot be opened as the \(options.layout) layout")
      default:
        break
      }
    }
    try format.load(from: connection)
    self.format = format
  }

  private static func setJournalMode(
    _ mode: SQLiteNormalizedCache.JournalMode, on connection: Connection
  ) throws(SQLiteError) {
    let sql = "PRAGMA journal_mode = \(mode.rawValue.uppercased())"
    let result = try connection.text(sql)?.lowercased()
    // An in-memory database keeps its journal in memory whatever is asked; a file must get the
    // mode asked for (WAL can be refused, say on a file system without shared memory).
    guard result == mode.rawValue || connection.isInMemory else {
      throw SQLiteError(
        resultCode: SQLITE_ERROR, message: "journal mode \(mode.rawValue) refused, the mode is \(result ?? "unknown")",
        sql: sql)
    }
  }

  // MARK: Removing

  func removeRecord(for key: CacheKey) throws(SQLiteError) {
    let statement = try connection.cachedStatement("DELETE FROM records WHERE key = ?")
    try statement.bind(key, at: 1)
    try statement.execute()
  }

  /// Deletes with `LIKE`, which ignores ASCII case only, as ``KeyPattern`` does; `%`, `_` and the
  /// escape character itself are escaped so that they match literally.
  /// See [LIKE](https://www.sqlite.org/lang_expr.html#the_like_glob_regexp_match_and_extract_operators).
  func removeRecords(matching pattern: String) throws(SQLiteError) {
    let statement = try connection.cachedStatement("DELETE FROM records WHERE key LIKE ? ESCAPE '\\'")
    try statement.bind("%" + Self.escapedForLike(pattern) + "%", at: 1)
    try statement.execute()
  }

  static func escapedForLike(_ pattern: String) -> String {
    var escaped = ""
    escaped.reserveCapacity(pattern.utf8.count)
    for character in pattern.unicodeScalars {
      if character == "%" || character == "_" || character == "\\" { escaped.unicodeScalars.append("\\") }
      escaped.unicodeScalars.append(character)
    }
    return escaped
  }

  /// Deletes every record. The compact layout keeps its field names: a number must keep meaning
  /// one name for other connections to the file.
  func clear() throws(SQLiteError) {
    try connection.cachedStatement("DELETE FROM records").execute()
  }

  /// Runs `body` in a writing transaction and tells the format whether it committed.
  mutating func inWriteTransaction<Result>(_ body: (inout RecordStore) throws(SQLiteError) -> Result) throws(SQLiteError) -> Result {
    format.willBeginTransaction()
    do {
      return try connection.inTransaction { () throws(SQLiteError) in try body(&self) }
    } catch {
      format.didRollBack()
      throw error
    }
  }

  // MARK: Statistics

  func statistics() throws(SQLiteError) -> SQLiteNormalizedCache.Statistics {
    let column = format.dataColumn
    let statement = try connection.cachedStatement(
      "SELECT count(*), total(length(CAST(key AS BLOB)) + length(CAST(\(column) AS BLOB))) FROM records")
    defer { statement.reset() }
    guard try statement.step() else {
      throw SQLiteError(resultCode: SQLITE_ERROR, message: "expected one row", sql: statement.sql)
    }
    let count = Int(statement.int64(at: 0))
    let payload = Int(statement.double(at: 1))
    let pageCount = try connection.integer("PRAGMA page_count")
    let pageSize = try connection.integer("PRAGMA page_size")
    return SQLiteNormalizedCache.Statistics(
      recordCount: count, payloadBytes: payload, databaseBytes: Int(pageCount * pageSize),
      walBytes: walBytes(), heapBytes: Int(sqlite3_memory_used()))
  }

  /// The size of the `-wal` file; 0 when there is none (another journal mode, or in memory).
  private func walBytes() -> Int {
    guard let name = sqlite3_db_filename(connection.handle, "main"), name.pointee != 0 else { return 0 }
    return fileSize(String(cString: name) + "-wal")
  }

  /// Copies the WAL into the database file and truncates the WAL to zero bytes
  /// ([wal_checkpoint(TRUNCATE)](https://www.sqlite.org/pragma.html#pragma_wal_checkpoint)).
  func checkpoint() throws(SQLiteError) {
    let statement = try connection.cachedStatement("PRAGMA wal_checkpoint(TRUNCATE)")
    defer { statement.reset() }
    guard try statement.step() else { return }
    // Columns: busy (1 when a reader or writer kept it from finishing), WAL pages, pages copied.
    if statement.int64(at: 0) != 0 {
      throw SQLiteError(resultCode: SQLITE_BUSY, message: "checkpoint could not complete", sql: statement.sql)
    }
  }
}
