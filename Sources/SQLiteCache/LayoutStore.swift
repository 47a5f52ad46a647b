import CSQLite
import NormalizedCache

/// One layout's records on one connection: a ``RecordRowStore`` (one row a record: the compact and
/// apollo layouts) or a ``FieldRowStore`` (one row a field or list element: the rows layout). The
/// cache, its budget layer (``BoundedRecordStore``) and its read connections (``ReaderPool``)
/// drive either through this; what both do alike is written once, below. A layout's
/// ``LayoutDescriptor`` opens its store (a writer with the layout's tables created unless they
/// exist, and `extraSchema` with them; or a reader of a database another connection set up).
/// Not thread-safe: the cache keeps it behind a lock.
protocol LayoutStore: CacheBackend {
  var connection: Connection { get }
  /// What a budget counts per record beyond its stored bytes (``LayoutDescriptor/recordOverheadBytes``).
  var recordOverhead: Int { get }
  /// The records and their stored bytes, kept as merges and removals change them.
  var accounting: StoreAccounting { get set }

  /// Merges records field by field (docs/records.md), in the caller's transaction, and notes in
  /// `log` the stored bytes of every record it wrote or found unchanged.
  mutating func mergeInTransaction<Log: MergeLog>(_ incoming: RecordSet, log: inout Log) throws(SQLiteError) -> ChangedKeys

  /// Deletes one record's rows and returns its stored bytes; nil when there was none. In the
  /// caller's transaction.
  mutating func deleteRows(of key: CacheKey) throws(SQLiteError) -> Int?
  /// Deletes the rows of a budget's victims, in key order, in batches; the caller, which knows
  /// their bytes, keeps the accounting.
  mutating func deleteEvicted(_ keys: [CacheKey]) throws(SQLiteError)
  /// Deletes every record's rows, in the caller's transaction.
  mutating func deleteAllRows() throws(SQLiteError)

  /// Deletes the rows of every record whose key contains `pattern`, as ``KeyPattern`` matches
  /// (`LIKE` with `%`, `_` and `\` escaped), in the caller's transaction, in one `DELETE ... LIKE
  /// ... RETURNING` a table; calls `deleted` with each key that had a record.
  mutating func deleteRows(matching pattern: String, deleted: (CacheKey) -> Void) throws(SQLiteError)
  /// Deletes the same rows with one plain `DELETE ... LIKE` a table, as Apollo's stores issue it,
  /// reading nothing back: the records' bytes are then counted again from the file when next asked
  /// (``StoreAccounting/isStale``, ``settleAccounting()``). For a store that need not know which
  /// records went (an unbounded one).
  mutating func deleteRows(matching pattern: String) throws(SQLiteError)
  /// The records and their stored bytes, counted from the file.
  func countStoredBytes() throws(SQLiteError) -> StoreAccounting
  /// Every record's key.
  func allKeys() throws(SQLiteError) -> [CacheKey]
  /// Every record's stored bytes, by key, as ``accounting`` counts them: what a budget reads
  /// when the store opens.
  func storedBytesByKey() throws(SQLiteError) -> [CacheKey: Int]
  /// Record count, payload, the file's pages and WAL, SQLite's heap.
  func statistics() throws(SQLiteError) -> SQLiteNormalizedCache.Statistics

  /// A writing transaction begins: what ``didRollBack(to:)`` needs to put back.
  mutating func willWrite() -> StoreAccounting
  /// The writing transaction rolled back: the accounting as it was, and whatever the layout
  /// keeps in memory (the compact layout's new field names) forgotten.
  mutating func didRollBack(to saved: StoreAccounting)
}

/// How many records a store holds, and their stored bytes (each layout says what it counts).
struct StoreAccounting: Equatable {
  var records = 0
  var storedBytes = 0
  /// Whether a pattern delete left the figures behind the file (``LayoutStore/deleteRows(matching:)``):
  /// they are counted again when next asked (``LayoutStore/settleAccounting()``).
  var isStale = false
}

extension LayoutStore {
  var layoutStore: Self { self }

  /// Every record's stored bytes, plus the layout's overhead each.
  var accountedBytes: Int { accounting.storedBytes + accounting.records * recordOverhead }

  /// No budget: no clock, no evictions, nothing kept in memory only.
  mutating func advanceClock(to step: Int) {}
  mutating func takeEvictions() -> EvictionReport { EvictionReport() }
  mutating func flushPendingUsage() throws(SQLiteError) {}

  mutating func loadInOrder(_ keys: [CacheKey]) throws(SQLiteError) -> [Record?] {
    try loadInOrder(keys, projection: nil)
  }

  /// Merges records field by field (docs/records.md) in one transaction, rolled back if anything
  /// fails.
  /// - Returns: the changed keys `recordKey.fieldKey`.
  /// - Throws: ``SQLiteError``; the database and the layout's memory are then as before.
  mutating func merge(_ incoming: RecordSet) throws(SQLiteError) -> ChangedKeys {
    guard !incoming.isEmpty else { return ChangedKeys() }
    var log = Unlogged()
    return try inWriteTransaction { store throws(SQLiteError) in try store.mergeInTransaction(incoming, log: &log) }
  }

  // MARK: Removing

  /// Deletes the rows of these keys, in the caller's transaction, calling `deleted` with each key
  /// that had a record.
  mutating func deleteRows(
    of keys: some Sequence<CacheKey>, deleted: (CacheKey) -> Void = { _ in }
  ) throws(SQLiteError) {
    for key in keys where try deleteRows(of: key) != nil { deleted(key) }
  }

  /// Deletes the rows of these keys in one transaction.
  mutating func removeRecords(forKeys keys: [CacheKey]) throws(SQLiteError) {
    try inWriteTransaction { store throws(SQLiteError) in try store.deleteRows(of: keys) }
  }

  /// Deletes the records whose keys contain `pattern` (``deleteRows(matching:)``), in one
  /// transaction. Nothing is read back: the accounting is counted again when next asked.
  mutating func removeRecords(matching pattern: String) throws(SQLiteError) {
    try inWriteTransaction { store throws(SQLiteError) in try store.deleteRows(matching: pattern) }
  }

  /// Counts the records and their bytes again from the file when a pattern delete left them stale.
  mutating func settleAccounting() throws(SQLiteError) {
    if accounting.isStale { accounting = try countStoredBytes() }
  }

  /// Deletes every record, in one transaction.
  mutating func clear() throws(SQLiteError) {
    try inWriteTransaction { store throws(SQLiteError) in try store.deleteAllRows() }
  }

  // MARK: Transactions

  /// Runs `body` in a writing transaction. When it rolls back, what the store keeps in memory
  /// goes back to where it was (``didRollBack(to:)``).
  mutating func inWriteTransaction<Result>(_ body: (inout Self) throws(SQLiteError) -> Result) throws(SQLiteError) -> Result {
    let saved = willWrite()
    do {
      return try connection.inTransaction { () throws(SQLiteError) in try body(&self) }
    } catch {
      didRollBack(to: saved)
      throw error
    }
  }

  func checkpoint() throws(SQLiteError) { try connection.checkpoint() }
}

extension Connection {
  /// Opens the records of `options.layout` on this new connection: the settings
  /// (``configure(_:)``), then, in one transaction, the layout's tables unless the file has them
  /// (`schema`), and `extraSchema`.
  /// - Throws: ``SQLiteError`` when SQLite fails, or the file holds another layout.
  func openRecords(_ options: SQLiteNormalizedCache.Options, schema: String, extraSchema: String?) throws(SQLiteError) {
    try configure(options)
    try inTransaction { () throws(SQLiteError) in
      if try LayoutDescriptor.existing(in: self) == nil {
        try execute(schema)
      } else {
        try checkLayout(options)
      }
      if let extraSchema { try execute(extraSchema) }
    }
  }

  /// The settings of a read connection (``LayoutDescriptor/openReader``): its busy timeout,
  /// memory map and page cache; and the file's layout checked against `options`.
  func openReader(_ options: SQLiteNormalizedCache.Options) throws(SQLiteError) {
    let timeout = sqlite3_busy_timeout(handle, options.busyTimeoutMilliseconds)
    guard timeout == SQLITE_OK else { throw SQLiteError(code: timeout, connection: handle) }
    try execute("PRAGMA mmap_size = \(options.memoryMapBytes)")
    try execute("PRAGMA cache_size = -\(options.pageCacheKibibytes)")
    try checkLayout(options)
  }

  /// Throws unless the file's `records` table, if it has one, is of the layout `options` ask for
  /// (the rows layout's `WITHOUT ROWID` table and its rowid table are two layouts).
  func checkLayout(_ options: SQLiteNormalizedCache.Options) throws(SQLiteError) {
    guard let layout = try LayoutDescriptor.existing(in: self)?.layout else { return }
    guard layout == options.layout else {
      throw SQLiteError(
        resultCode: SQLITE_ERROR,
        message: "\(path) holds a cache of the \(layout) layout, which cannot be opened as the \(options.layout) layout")
    }
  }
}
