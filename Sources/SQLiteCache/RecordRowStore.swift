import CSQLite
import NormalizedCache

/// The store of a layout of one row a record (`compact`, `apollo`; ``FieldRowStore`` keeps one
/// row a field): the connection and the layout's ``RecordFormat``, and all of the store's SQL but
/// the budget's. Not thread-safe: the cache keeps it behind a lock. A store with a budget is a
/// ``BoundedRecordStore`` around one of these.
struct RecordRowStore {
  let connection: Connection
  var format: any RecordFormat
  /// The records and their stored bytes (each record's key and data column; a split record's
  /// marker and chunks), kept as merges and removals change them.
  var accounting = StoreAccounting()
  /// The filters of the sets projected loads asked last.
  var filterCache = FilterCache()
  /// What a budget counts per record beyond its stored bytes (``SQLiteNormalizedCache/Layout/recordOverheadBytes``).
  let recordOverhead: Int
  /// Whether the format stores large records split (``LayoutDescriptor/splitsRecords``), read
  /// once here: a merge asks for each record, and the descriptor is a value of many references.
  let splitsRecords: Bool

  /// Opens the database (``Connection/openRecords(_:schema:extraSchema:)``), reads what the
  /// format keeps in memory, and counts the stored bytes.
  /// - Throws: ``SQLiteError`` when SQLite fails, or the file holds another layout.
  init(path: String, options: SQLiteNormalizedCache.Options, format: some RecordFormat, extraSchema: String? = nil) throws(SQLiteError) {
    let connection = try Connection(path: path, mutex: options.mutex)
    self.connection = connection
    recordOverhead = format.layout.recordOverheadBytes
    splitsRecords = format.layout.descriptor.splitsRecords
    var format = format
    try connection.openRecords(options, schema: format.schema, extraSchema: extraSchema)
    try format.load(from: connection)
    self.format = format
    accounting = try countStoredBytes()
  }

  /// Opens a read connection to a database another connection has set up (``ReaderPool``): its
  /// busy timeout, memory map and page cache, and the layout's memory (the compact layout's field
  /// names), without creating anything or counting the store's bytes.
  /// - Throws: ``SQLiteError`` when SQLite fails, or the file holds another layout.
  init(readerAt path: String, options: SQLiteNormalizedCache.Options, format: some RecordFormat) throws(SQLiteError) {
    let connection = try Connection(path: path, mutex: options.mutex)
    self.connection = connection
    recordOverhead = format.layout.recordOverheadBytes
    splitsRecords = format.layout.descriptor.splitsRecords
    var format = format
    try connection.openReader(options)
    try format.load(from: connection)
    self.format = format
  }

  /// The stored bytes of every record, counted by SQLite, once when the store opens: its
  /// statements are finalized after use rather than kept in the connection's cache (a cached one
  /// held 1.7 kB of SQLite's heap for the connection's life, in make gate's `sqlite_heap_bytes`).
  func countStoredBytes() throws(SQLiteError) -> StoreAccounting {
    let statement = try Statement(
      sql: "SELECT count(*), total(length(CAST(key AS BLOB)) + length(CAST(\(format.dataColumn) AS BLOB))) FROM records",
      connection: connection, persistent: false)
    guard try statement.step() else { return StoreAccounting() }
    var accounting = StoreAccounting(records: Int(statement.int64(at: 0)), storedBytes: Int(statement.double(at: 1)))
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

  /// Every key in the `records` table.
  func allKeys() throws(SQLiteError) -> [CacheKey] { try connection.texts("SELECT key FROM records") }

  /// The ledger knows what each victim stored, so no `RETURNING` is needed: one `DELETE ...
  /// RETURNING` per victim, and a query of `sqlite_master` per victim for the split tables, cost
  /// 4.5 times an insert per record (callgrind; see docs/bounded-and-concurrent.md). So each table
  /// loses its victims' rows 32 keys to a statement (``Connection/inBatches(_:sql:_:)``).
  mutating func deleteEvicted(_ keys: [CacheKey]) throws(SQLiteError) {
    var tables = ["records"]
    if try hasSplitTables() { tables += ["record_chunks", "record_fields"] }
    for table in tables { try connection.deleteRows(of: keys, from: table, keyColumn: "key") }
  }

  /// Every record's stored bytes: its key and data column, and a split record's chunks.
  func storedBytesByKey() throws(SQLiteError) -> [CacheKey: Int] {
    var bytes: [CacheKey: Int] = [:]
    let rows = try connection.cachedStatement(
      "SELECT key, length(CAST(key AS BLOB)) + length(CAST(\(format.dataColumn) AS BLOB)) FROM records")
    defer { rows.reset() }
    while try rows.step() { bytes[try rows.text(at: 0)] = Int(rows.int64(at: 1)) }
    rows.reset()
    if try hasSplitTables() {
      let chunks = try connection.cachedStatement("SELECT key, total(length(data)) FROM record_chunks GROUP BY key")
      defer { chunks.reset() }
      while try chunks.step() {
        let key = try chunks.text(at: 0)
        bytes[key]? += Int(chunks.double(at: 1))
      }
    }
    return bytes
  }

  /// Deletes the rows of every key containing `pattern`, in the caller's transaction, in one
  /// statement a table (`DELETE ... WHERE key LIKE ? RETURNING`), calling `deleted` with each key
  /// that had a record: one statement per key, as before, cost several times Apollo 2.x's one
  /// `DELETE ... LIKE` on its Tier-2 pattern delete (docs/apollo.md has the figures).
  mutating func deleteRows(matching pattern: String, deleted: (CacheKey) -> Void = { _ in }) throws(SQLiteError) {
    let like = Connection.like(containing: pattern)
    let statement = try connection.cachedStatement(
      "DELETE FROM records WHERE key LIKE ? ESCAPE '\\' RETURNING key, length(CAST(key AS BLOB)) + length(CAST(\(format.dataColumn) AS BLOB))"
    )
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

  /// Deletes the rows of every key containing `pattern`, in the caller's transaction, with one
  /// plain `DELETE ... WHERE key LIKE ?` a table, as Apollo 2.x's store issues it: `RETURNING`
  /// the keys and bytes of 10,000 records cost more than the delete itself (Tier-2 pattern
  /// delete). The accounting is counted again when next asked.
  mutating func deleteRows(matching pattern: String) throws(SQLiteError) {
    try connection.removeRecords(matching: pattern)
    if try hasSplitTables() {
      try connection.removeRecords(matching: pattern, table: "record_chunks")
      try connection.removeRecords(matching: pattern, table: "record_fields")
    }
    accounting.isStale = true
  }

  /// Deletes every record's rows, in the caller's transaction. The compact layout keeps its field
  /// names: a number must keep meaning one name for other connections to the file.
  mutating func deleteAllRows() throws(SQLiteError) {
    try connection.removeAllRecords()
    if try hasSplitTables() {
      try connection.cachedStatement("DELETE FROM record_chunks").execute()
      try connection.cachedStatement("DELETE FROM record_fields").execute()
    }
    accounting = StoreAccounting()
  }

  // MARK: Transactions

  /// A writing transaction begins: what ``didRollBack(to:)`` needs to put back.
  mutating func willWrite() -> StoreAccounting {
    format.willBeginTransaction()
    return accounting
  }

  /// The writing transaction rolled back: the accounting as it was, the format's new names forgotten.
  mutating func didRollBack(to saved: StoreAccounting) {
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
}
