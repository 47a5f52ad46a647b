import CSQLite

/// One open SQLite database: owns the `sqlite3*` handle and closes it when released.
///
/// ```swift
/// let connection = try Connection(path: ":memory:")
/// try connection.execute("CREATE TABLE t(id INTEGER PRIMARY KEY)")
/// let statement = try connection.cachedStatement("INSERT INTO t(id) VALUES (?)")
/// ```
/// A connection is opened with `SQLITE_OPEN_NOMUTEX` unless asked otherwise: SQLite does no
/// locking of its own, so the connection must be used by one thread at a time. It is deliberately
/// not `Sendable`; the owner (``SQLiteNormalizedCache``) keeps it behind a `Mutex`, which is
/// cheaper than SQLite's `FULLMUTEX` taking its own lock on every call as well. `FULLMUTEX` is
/// there to open a file as Apollo iOS does (``SQLiteNormalizedCache/MutexMode``).
final class Connection {
  let handle: OpaquePointer
  /// The path given to `sqlite3_open_v2`: a file, or `:memory:`.
  let path: String
  private var statements = StatementCache()

  /// Opens the database at `path`, creating the file if absent.
  /// - Throws: ``SQLiteError`` when SQLite cannot open it.
  init(path: String, mutex: SQLiteNormalizedCache.MutexMode = .nomutex) throws(SQLiteError) {
    var handle: OpaquePointer?
    // EXRESCODE: calls return extended result codes (2067, not 19), which SQLiteError splits.
    let threading = mutex == .fullmutex ? SQLITE_OPEN_FULLMUTEX : SQLITE_OPEN_NOMUTEX
    let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | threading | SQLITE_OPEN_EXRESCODE
    let code = sqlite3_open_v2(path, &handle, flags, nil)
    guard code == SQLITE_OK, let handle else {
      // Even on failure SQLite usually returns a handle, which holds the message and must be closed.
      let error = SQLiteError(code: code, connection: handle, sql: nil)
      if let handle { sqlite3_close_v2(handle) }
      throw SQLiteError(
        resultCode: error.resultCode, extendedResultCode: error.extendedResultCode,
        message: "\(error.message) (opening \(path))")
    }
    self.handle = handle
    self.path = path
  }

  deinit {
    // Statements first: a connection with live statements would only close as a zombie.
    statements.removeAll()
    // sqlite3_close_v2 returns SQLITE_OK for a valid handle with no unfinalized statements, and
    // a deinit cannot report anything anyway.
    let code = sqlite3_close_v2(handle)
    assert(code == SQLITE_OK, "sqlite3_close_v2 returned \(code)")
  }

  /// Whether the database lives in memory only (`:memory:` or an empty path).
  var isInMemory: Bool { path == ":memory:" || path.isEmpty || path.hasPrefix("file::memory:") }

  /// Runs one or more statements that return no rows of interest, each prepared after the one
  /// before it ran (so a statement may use a table the one before created).
  /// - Throws: ``SQLiteError`` of the first statement that fails.
  func execute(_ sql: String) throws(SQLiteError) {
    var remainder = sql
    while !remainder.allSatisfy({ $0.isWhitespace || $0 == ";" }) {
      var tail = ""
      try Statement(sql: remainder, connection: self, persistent: false, tail: &tail).execute()
      remainder = tail
    }
  }

  /// A prepared statement for `sql` from the cache, prepared on first use; reset and with its
  /// bindings cleared.
  func cachedStatement(_ sql: String) throws(SQLiteError) -> Statement {
    if let statement = statements[sql] {
      statement.reset()
      statement.clearBindings()
      return statement
    }
    let statement = try Statement(sql: sql, connection: self, persistent: true)
    statements[sql] = statement
    return statement
  }

  /// The single integer a query returns (a `PRAGMA`, a `count(*)`).
  func integer(_ sql: String) throws(SQLiteError) -> Int64 {
    let statement = try cachedStatement(sql)
    defer { statement.reset() }
    guard try statement.step() else {
      throw SQLiteError(resultCode: SQLITE_ERROR, message: "expected one row", sql: sql)
    }
    return statement.int64(at: 0)
  }

  /// How the connection was opened, read back from SQLite: its memory map, its page cache (a
  /// negative `cache_size` is KiB) and whether SQLite keeps a mutex of its own (`FULLMUTEX`).
  func opening() throws(SQLiteError) -> (memoryMapBytes: Int, pageCacheKibibytes: Int, mutex: SQLiteNormalizedCache.MutexMode) {
    let cacheSize = Int(try integer("PRAGMA cache_size"))
    let pageSize = Int(try integer("PRAGMA page_size"))
    return (
      Int(try integer("PRAGMA mmap_size")), cacheSize < 0 ? -cacheSize : cacheSize * pageSize / 1_024,
      sqlite3_db_mutex(handle) == nil ? .nomutex : .fullmutex
    )
  }

  /// The single text a query returns, such as `PRAGMA journal_mode = wal`'s answer.
  func text(_ sql: String) throws(SQLiteError) -> String? {
    let statement = try Statement(sql: sql, connection: self, persistent: false)
    guard try statement.step() else { return nil }
    return try statement.text(at: 0)
  }

  /// The first column of every row a query returns, as text (keys, column names).
  func texts(_ sql: String) throws(SQLiteError) -> [String] {
    let statement = try cachedStatement(sql)
    defer { statement.reset() }
    var texts: [String] = []
    while try statement.step() { texts.append(try statement.text(at: 0)) }
    return texts
  }

  /// Whether a transaction is open (the connection is not in autocommit mode).
  var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }
}
