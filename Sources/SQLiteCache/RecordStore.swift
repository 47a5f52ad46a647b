import CSQLite
import NormalizedCache

/// The database behind one ``SQLiteNormalizedCache``: the connection and the layout's
/// ``RecordFormat``, and all of the store's SQL but the budget's. Not thread-safe: the cache keeps
/// it behind a lock. A store with a budget is a ``BoundedRecordStore`` around one of these.
struct RecordStore {
  let connection: Connection
  var format: any RecordFormat
  /// The records and their stored bytes, kept as merges and removals change them.
  var accounting = Accounting()
  /// What a budget counts per record beyond its stored bytes (``SQLiteNormalizedCache/Layout/recordOverheadBytes``).
  let recordOverhead: Int

  /// How many records the store holds, and their stored bytes: each record's key and data column
  /// (a split record's marker and chunks).
  struct Accounting: Equatable {
    var records = 0
    var storedBytes = 0
  }

  /// Opens the database, sets its journal mode, synchronous level, memory map and page cache,
  /// and creates the layout's tables unless they exist (with `auto_vacuum` as the options say,
  /// which only a new file takes), and `extraSchema` with them (a bounded store's usage table).
  /// - Throws: ``SQLiteError`` when SQLite fails, or the file holds the other layout.
  init(path: String, options: SQLiteNormalizedCache.Options, extraSchema: String? = nil) throws(SQLiteError) {
    let connection = try Connection(path: path)
    self.connection = connection
    recordOverhead = options.layout.recordOverheadBytes
    var format = options.layout.makeFormat()

    try connection.configure(options)

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
      if let extraSchema { try connection.execute(extraSchema) }
    }
    try format.load(from: connection)
    self.format = format
    accounting = try countStoredBytes()
  }

  /// Opens a read connection to a database another connection has set up (``ReaderPool``): its
  /// busy timeout, memory map and page cache, and the layout's memory (the compact layout's field
  /// names), without creating anything or counting the store's bytes.
  /// - Throws: ``SQLiteError`` when SQLite fails, or the file holds the other layout.
  init(readerAt path: String, options: SQLiteNormalizedCache.Options) throws(SQLiteError) {
    let connection = try Connection(path: path)
    self.connection = connection
    recordOverhead = options.layout.recordOverheadBytes
    var format = options.layout.makeFormat()
    let timeout = sqlite3_busy_timeout(connection.handle, options.busyTimeoutMilliseconds)
    guard timeout == SQLITE_OK else { throw SQLiteError(code: timeout, connection: connection.handle) }
    try connection.execute("PRAGMA mmap_size = \(options.memoryMapBytes)")
    try connection.execute("PRAGMA cache_size = -\(options.pageCacheKibibytes)")
    if let layout = try SQLiteNormalizedCache.Layout.existing(in: connection), layout != options.layout {
      throw SQLiteError(
        resultCode: SQLITE_ERROR,
        message: "\(path) holds a cache of the \(layout) layout, which cannot be opened as the \(options.layout) layout")
    }
    try format.load(from: connection)
    self.format = format
  }

  /// The stored bytes of every record, counted by SQLite, once when the store opens: its
  /// statements are finalized after use rather than kept in the connection's cache (a cached one
  /// held 1.7 kB of SQLite's heap for the connection's life, in make gate's `sqlite_heap_bytes`).
  func countStoredBytes() throws(SQLiteError) -> Accounting {
    let statement = try Statement(
      sql: "SELECT count(*), total(length(CAST(key AS BLOB)) + length(CAST(\(format.dataColumn) AS BLOB))) FROM records",
      connection: connection, persistent: false)
    guard try statement.step() else { return Accounting() }
    var accounting = Accounting(records: Int(statement.int64(at: 0)), storedBytes: Int(statement.double(at: 1)))
    let splitTables = try Statement(
      sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'record_chunks'",
      connection: connection, persistent: false)
    if splitsRecords, try splitTables.step(), splitTables.int64(at: 0) > 0 {
      let chunks = try Statement(sql: "SELECT total(length(data)) FROM record_chunks", connection: connection, persistent: false)
      if try chunks.step() { accounting.storedBytes += Int(chunks.double(at: 0)) }
    }
    return accounting
  }

  // MARK: Removing

  /// Deletes one record's rows (its chunks and positions where it was split) and returns its
  /// stored bytes; nil when there was none. In the caller's transaction.
  mutating func deleteRows(of key: CacheKey) throws(SQLiteError) -> Int? {
    let statement = try connection.cachedStatement(
      "DELETE FROM records WHERE key = ? RETURNING length(CAST(key AS BLOB)) + length(CAST(\(format.dataColumn) AS BLOB))")
    defer { statement.reset() }
    try statement.bind(key, at: 1)
    guard try statement.step() else { return nil }
    var bytes = Int(statement.int64(at: 0))
    while try statement.step() {}
    if try hasSplitTables() {
      let chunks = try connection.cachedStatement("DELETE FROM record_chunks WHERE key = ? RETURNING length(data)")
      defer { chunks.reset() }
      try chunks.bind(key, at: 1)
      while try chunks.step() { bytes += Int(chunks.int64(at: 0)) }
      chunks.reset()
      let fields = try connection.cachedStatement("DELETE FROM record_fields WHERE key = ?")
      try fields.bind(key, at: 1)
      try fields.execute()
    }
    accounting.records -= 1
    accounting.storedBytes -= bytes
    return bytes
  }

  /// Deletes the rows of these keys, in the caller's transaction, calling `deleted` with each key
  /// that had a record.
  mutating func deleteRows(
    of keys: some Sequence<CacheKey>, deleted: (CacheKey) -> Void = { _ in }
  ) throws(SQLiteError) {
    for key in keys where try deleteRows(of: key) != nil { deleted(key) }
  }

  /// Every key in the `records` table.
  func allKeys() throws(SQLiteError) -> [CacheKey] {
    let statement = try connection.cachedStatement("SELECT key FROM records")
    defer { statement.reset() }
    var keys: [CacheKey] = []
    while try statement.step() { keys.append(try statement.text(at: 0)) }
    return keys
  }

  /// Deletes the rows of these keys in one transaction.
  mutating func removeRecords(forKeys keys: [CacheKey]) throws(SQLiteError) {
    try inWriteTransaction { store throws(SQLiteError) in try store.deleteRows(of: keys) }
  }

  /// Deletes with `LIKE` (see ``Connection/removeRecords(matching:table:)``), in one transaction.
  mutating func removeRecords(matching pattern: String) throws(SQLiteError) {
    try inWriteTransaction { store throws(SQLiteError) in try store.deleteRows(matching: pattern) }
  }

  /// Deletes the rows of every key containing `pattern`, in the caller's transaction, in one
  /// statement a table (`DELETE ... WHERE key LIKE ? RETURNING`), calling `deleted` with each key
  /// that had a record. One statement per key, as before, took 40 ms to remove 10,000 of 11,000
  /// records (Apollo's Tier-2 pattern delete; Apollo 2.x's one `DELETE ... LIKE`: 12 ms on its machine).
  mutating func deleteRows(matching pattern: String, deleted: (CacheKey) -> Void = { _ in }) throws(SQLiteError) {
    let like = "%" + Connection.escapedForLike(pattern) + "%"
    let statement = try connection.cachedStatement(
      "DELETE FROM records WHERE key LIKE ? ESCAPE '\\' RETURNING key, length(CAST(key AS BLOB)) + length(CAST(\(format.dataColumn) AS BLOB))")
    defer { statement.reset() }
    try statement.bind(like, at: 1)
    var bytes = 0
    var records = 0
    while try statement.step() {
      deleted(try statement.text(at: 0))
      bytes += Int(statement.int64(at: 1))
      records += 1
    }
    statement.reset()
    if try hasSplitTables() {
      let chunks = try connection.cachedStatement("DELETE FROM record_chunks WHERE key LIKE ? ESCAPE '\\' RETURNING length(data)")
      defer { chunks.reset() }
      try chunks.bind(like, at: 1)
      while try chunks.step() { bytes += Int(chunks.int64(at: 0)) }
      chunks.reset()
      let fields = try connection.cachedStatement("DELETE FROM record_fields WHERE key LIKE ? ESCAPE '\\'")
      try fields.bind(like, at: 1)
      try fields.execute()
    }
    accounting.records -= records
    accounting.storedBytes -= bytes
  }

  /// Deletes every record's rows, in the caller's transaction. The compact layout keeps its field
  /// names: a number must keep meaning one name for other connections to the file.
  mutating func deleteAllRows() throws(SQLiteError) {
    try connection.removeAllRecords()
    if try hasSplitTables() {
      try connection.cachedStatement("DELETE FROM record_chunks").execute()
      try connection.cachedStatement("DELETE FROM record_fields").execute()
    }
    accounting = Accounting()
  }

  /// Deletes every record, in one transaction.
  mutating func clear() throws(SQLiteError) {
    try inWriteTransaction { store throws(SQLiteError) in try store.deleteAllRows() }
  }

  // MARK: Transactions

  /// Runs `body` in a writing transaction. When it rolls back, what the store keeps in memory
  /// goes back to where it was: the accounting, and the names the format numbered in it.
  mutating func inWriteTransaction<Result>(_ body: (inout RecordStore) throws(SQLiteError) -> Result) throws(SQLiteError) -> Result {
    let saved = willWrite()
    do {
      return try connection.inTransaction { () throws(SQLiteError) in try body(&self) }
    } catch {
      didRollBack(to: saved)
      throw error
    }
  }

  /// A writing transaction begins: what ``didRollBack(to:)`` needs to put back.
  mutating func willWrite() -> Accounting {
    format.willBeginTransaction()
    return accounting
  }

  /// The writing transaction rolled back: the accounting as it was, the format's new names forgotten.
  mutating func didRollBack(to saved: Accounting) {
    accounting = saved
    format.didRollBack()
  }

  // MARK: Statistics

  func statistics() throws(SQLiteError) -> SQLiteNormalizedCache.Statistics {
    var statistics = try connection.recordStatistics(dataColumn: format.dataColumn)
    if try hasSplitTables() {
      // A split record's payload: its key and data in each of its chunks.
      let statement = try connection.cachedStatement(
        "SELECT total(length(CAST(key AS BLOB)) + length(data)) FROM record_chunks")
      defer { statement.reset() }
      if try statement.step() { statistics.payloadBytes += Int(statement.double(at: 0)) }
    }
    return statistics
  }

  func checkpoint() throws(SQLiteError) { try connection.checkpoint() }
}
