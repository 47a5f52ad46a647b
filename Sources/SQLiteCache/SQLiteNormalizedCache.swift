import NormalizedCache
import Synchronization

/// Records in an SQLite database, through libsqlite3's C API: Apollo iOS's
/// `SQLiteNormalizedCache`, with a faster and smaller layout besides Apollo's two (docs/stores.md).
///
/// ```swift
/// let cache = try SQLiteNormalizedCache(path: "cache.sqlite")        // compact, WAL, synchronous NORMAL
/// let changed = try cache.merge(records: normalized.records)
/// let records = try cache.loadRecords(forKeys: ["QUERY_ROOT", "Book:bk123"])
/// ```
/// - A `merge` is one transaction: existing records are loaded, merged field by field exactly as
///   ``InMemoryNormalizedCache`` merges, and only new or changed records are written. If anything
///   fails, the transaction rolls back and the store is as it was.
/// - Loads look up at most 500 keys per statement (one JSON array of keys, joined to the table
///   through `json_each`); statements are prepared once and reused.
/// - Five layouts (``Layout``), each one ``LayoutDescriptor``: `compact`, the default, one
///   `WITHOUT ROWID` table of binary records whose field names are numbers (see
///   `CompactRecordFormat`; records of more than 64 fields in chunks, merged chunk by chunk);
///   `apollo`, Apollo iOS 2.x's own table of JSON text; `rows`, Apollo iOS 3.0's `WITHOUT ROWID`
///   table of one row per field and per list element as Apollo's code writes it
///   (``FieldRowStore``); `rows-rowid`, the same in a rowid table; and `rows-ordered`, the same
///   table written our way (a record row keeps the fields' order). A file keeps the layout it was
///   created with; opening it with another throws.
///
/// Writes go through one connection behind a lock, one merge at a time. In WAL mode on a file,
/// and without a budget (``readsInParallel``), a read takes the writer's connection when it is
/// free and no merge waits for it, and otherwise one of a small pool of connections of its own
/// (``Options/readConnections``), reading in one transaction: reads run beside each other and
/// beside a merge's transaction, and each sees the state the last commit left
/// ([WAL concurrency](https://www.sqlite.org/wal.html#concurrency)). Other journal modes let no
/// reader in during a write, and a `:memory:` database is one connection's own; a bounded store's
/// reads write the ledger's recency: these read through the writer's connection, under its lock.
/// Connections are opened `SQLITE_OPEN_NOMUTEX`, since a lock inside SQLite would guard nothing more.
/// Several caches (or processes) may open one file: SQLite's file locks order their
/// transactions, and a writer waits up to ``Options/busyTimeoutMilliseconds`` for another.
public final class SQLiteNormalizedCache: BoundedNormalizedCache, KeyEnumerableCache, LockWaitReporting {
  /// The database file, or `:memory:`.
  public let path: String
  public let options: Options
  /// The writer's connection (and, without read connections, every reader's): the layout's store
  /// (``LayoutStore``), or with a budget the ``BoundedRecordStore`` around it.
  private let store: Lock<any CacheBackend>
  /// The read connections; nil unless ``readsInParallel``.
  private let readers: ReaderPool?

  /// Merges (and removals) waiting for the writer's lock: while one waits, reads do not take the
  /// writer's connection, so that a stream of reads cannot hold a merge off.
  private let writersWaiting = Atomic<Int>(0)

  /// Whether reads have connections of their own and run beside each other and beside a merge:
  /// WAL on a file, no budget, ``Options/readConnections`` above 0.
  public var readsInParallel: Bool { readers != nil }

  /// Opens the cache at `path`, creating the file and its tables if absent.
  ///
  /// - Parameters:
  ///   - path: a file path, or `:memory:` for a database that lives as long as the cache.
  ///   - options: layout, journal mode, synchronous level, memory map and page cache sizes.
  /// - Throws: ``SQLiteError`` when SQLite cannot open the file or set it up, when the file holds
  ///   another layout (or the rows layout with the other kind of table), or a `records` table of
  ///   none of the layouts.
  public init(path: String, options: Options = Options()) throws(SQLiteError) {
    self.path = path
    self.options = options
    let store = try options.layout.descriptor.openStore(path: path, options: options)
    let inMemory = store.layoutStore.connection.isInMemory
    self.store = Lock(store)
    readers =
      options.journalMode == .wal && !inMemory && options.budget == nil && options.readConnections > 0
      ? ReaderPool(path: path, options: options) : nil
  }

  /// A bounded store writes down the order its last merges and reads left (see
  /// ``BoundedRecordStore/flushPendingUsage()``); an error here loses that order, never a record.
  deinit {
    try? store.withLock { store throws(SQLiteError) in try store.flushPendingUsage() }
  }

  /// The records of these keys that the store has; missing keys are absent from the result.
  ///
  /// More than 500 keys are read in one transaction, so they see one state of the file.
  /// - Throws: ``SQLiteError``, also `SQLITE_CORRUPT` for a stored record that does not decode.
  /// - Complexity: O(k log n) for k keys in n records, one statement per 500 keys.
  public func loadRecords(forKeys keys: [CacheKey]) throws(SQLiteError) -> [CacheKey: Record] {
    var result = [CacheKey: Record](minimumCapacity: keys.count)
    for record in try loadRecordsInOrder(forKeys: keys) {
      if let record { result[record.key] = record }
    }
    return result
  }

  /// The records of these keys in their order, nil where the store has none (the reader's load):
  /// placed by their position in `keys`, without hashing a key.
  /// - Throws: as ``loadRecords(forKeys:)``.
  public func loadRecordsInOrder(forKeys keys: [CacheKey]) throws(SQLiteError) -> [Record?] {
    if let readers {
      if writersWaiting.load(ordering: .relaxed) == 0,
        let records = try store.withLockIfFree({ store throws(SQLiteError) in try store.loadInOrder(keys, projection: nil) })
      {
        return records
      }
      return try readers.withReader(lifting: { $0 }) { reader throws(SQLiteError) in try reader.loadInOrder(keys, projection: nil) }
    }
    return try store.withLock(as: .read) { store throws(SQLiteError) in try store.loadInOrder(keys, projection: nil) }
  }

  /// Runs `body` on the writer's connection under its lock when the lock is free and no merge
  /// waits for it (its page cache is the warmest: a read connection finds the pages the last
  /// merges wrote in the WAL, and drops its cache whenever another connection has committed);
  /// else in one read transaction on a read connection of its own, beside the merge. A merge that
  /// comes while a read holds the writer's connection waits for that one read, and the reads after
  /// it go to the pool (``writersWaiting``).
  public func withConsistentRead<Result>(_ body: (any RecordSnapshot) throws -> Result) throws -> Result {
    if let readers {
      if writersWaiting.load(ordering: .relaxed) == 0,
        let result = try store.withLockIfFree({ store in try Self.read(&store, body) })
      {
        return result
      }
      return try readers.withReader(lifting: { $0 }) { reader throws(any Error) in
        // A read's own errors (a miss, a reader's error) pass through as they are.
        try reader.connection.inTransaction(.deferred, lifting: { $0 }) { () throws(any Error) in try Self.read(&reader, body) }
      }
    }
    return try store.withLock(as: .read) { store in try Self.read(&store, body) }
  }

  /// Runs `body` with a snapshot of `store`, its type known (a store held as `any CacheBackend`
  /// is opened here once, not at every load).
  private static func read<Store: CacheBackend, Result>(
    _ store: inout Store, _ body: (any RecordSnapshot) throws -> Result
  ) throws -> Result {
    try withUnsafeMutablePointer(to: &store) { store in try body(Snapshot(store: store)) }
  }

  /// A connection lent to one read, under its lock or taken from the pool.
  private struct Snapshot<Store: CacheBackend>: RecordSnapshot {
    let store: UnsafeMutablePointer<Store>
    func loadRecordsInOrder(forKeys keys: [CacheKey]) throws -> [Record?] { try store.pointee.loadInOrder(keys, projection: nil) }

    /// The layout leaves out what it can (docs/stores.md#projected-loads).
    func lendRecords(forKeys keys: [CacheKey], projection: FieldProjection, to lent: inout LentRecords) throws {
      lent.lend(try store.pointee.loadInOrder(keys, projection: projection))
    }
  }

  /// Merges records field by field (docs/records.md) in one transaction.
  ///
  /// - Returns: the changed keys `recordKey.fieldKey`, exactly as ``InMemoryNormalizedCache`` reports them.
  /// - Throws: ``SQLiteError``, or ``CacheBudgetError`` when a record alone is larger than the
  ///   budget; the transaction is then rolled back and the store is unchanged.
  /// - Complexity: one lookup per record, one write per new or changed record.
  @discardableResult
  public func merge(records: RecordSet) throws -> ChangedKeys {
    do {
      return try write { store in try store.merge(records) }
    } catch let error as MergeError {
      switch error {
      case .sqlite(let error): throw error
      case .budget(let error): throw error
      }
    }
  }

  /// Runs `body` on the writer's connection under its lock, counted in ``writersWaiting`` until
  /// it has the lock.
  private func write<Result, Failure: Error>(_ body: (inout any CacheBackend) throws(Failure) -> Result) throws(Failure) -> Result {
    writersWaiting.add(1, ordering: .relaxed)
    return try store.withLock { store throws(Failure) in
      writersWaiting.subtract(1, ordering: .relaxed)
      return try body(&store)
    }
  }

  /// Removes one record; a key the store does not have is not an error.
  public func removeRecord(for key: CacheKey) throws(SQLiteError) {
    try write { store throws(SQLiteError) in try store.removeRecords(forKeys: [key]) }
  }

  /// Removes these records in one transaction; keys the store does not have are not an error.
  public func removeRecords(forKeys keys: [CacheKey]) throws(SQLiteError) {
    try write { store throws(SQLiteError) in try store.removeRecords(forKeys: keys) }
  }

  /// Every key in the `records` table.
  public func allKeys() throws(SQLiteError) -> [CacheKey] {
    try store.withLock { store throws(SQLiteError) in try store.layoutStore.allKeys() }
  }

  /// Removes every record whose key contains `pattern`, ignoring ASCII case, as ``KeyPattern``
  /// matches: `%` and `_` are ordinary characters (SQL `LIKE` with them escaped). An empty
  /// pattern removes nothing, as Apollo's stores.
  /// - Complexity: O(n), a scan of every key.
  public func removeRecords(matching pattern: String) throws(SQLiteError) {
    guard !pattern.isEmpty else { return }
    try write { store throws(SQLiteError) in try store.removeRecords(matching: pattern) }
  }

  /// Removes every record. The file keeps its pages for reuse (no `VACUUM`), and the compact
  /// layout keeps its field numbers.
  public func clear() throws(SQLiteError) {
    try write { store throws(SQLiteError) in try store.clear() }
  }

  /// Record count and payload (keys plus stored record bytes), `page_count × page_size`, the
  /// size of the `-wal` file (0 if none), and `sqlite3_memory_used()`.
  /// - Complexity: O(n): counting reads every record.
  public func statistics() throws(SQLiteError) -> Statistics {
    try store.withLock { store throws(SQLiteError) in try store.layoutStore.statistics() }
  }

  /// Counts and sizes of what a ``SQLiteNormalizedCache`` holds.
  public struct Statistics: Sendable, Hashable {
    /// How many rows the `records` table holds.
    public var recordCount: Int
    /// Bytes of keys and stored records.
    public var payloadBytes: Int
    /// `page_count × page_size` of the main database file.
    public var databaseBytes: Int
    /// The size of the `-wal` file; 0 when there is none.
    public var walBytes: Int
    /// `sqlite3_memory_used()`: SQLite's heap in this process.
    public var heapBytes: Int
  }

  /// Copies the write-ahead log into the database file and truncates it, so that the file alone
  /// holds everything ([checkpoint](https://www.sqlite.org/wal.html#checkpointing)). Does nothing
  /// in other journal modes.
  /// - Throws: ``SQLiteError`` when SQLite fails or another connection keeps the checkpoint from finishing.
  public func checkpoint() throws(SQLiteError) {
    try store.withLock { store throws(SQLiteError) in try store.layoutStore.checkpoint() }
  }

  /// SQLite's own check of the database file
  /// ([integrity_check](https://www.sqlite.org/pragma.html#pragma_integrity_check)): `ok`, or the
  /// first problem it found.
  public func integrityCheck() throws(SQLiteError) -> String {
    try store.withLock { store throws(SQLiteError) in try store.layoutStore.connection.text("PRAGMA integrity_check") ?? "" }
  }

  /// How long reads waited for a connection (or for the writer's lock, without read
  /// connections) and writes for the writer's lock, since the last call. SQLite's own waits for
  /// file locks (its busy handler) are not in it: in WAL mode readers never wait for the writer.
  public func takeLockWaits() -> LockWaits { store.waits.take() + (readers?.takeWaits() ?? LockWaits()) }

  // MARK: Bounded

  /// The budget the store keeps to (``Options/budget``), nil when unbounded.
  public var budget: CacheBudget? { options.budget }

  public func advanceClock(to step: Int) {
    store.withLock { $0.advanceClock(to: step) }
  }

  public func takeEvictions() -> EvictionReport {
    store.withLock { $0.takeEvictions() }
  }

  /// What a budget counts in `record_usage` per record beyond its key: the row's four integers,
  /// its cell and the pages' fill. Measured: a bounded store's checkpointed file over an unbounded
  /// one's, holding the same records of `default.json` (typePolicy and path keys), less the keys.
  public static let usageRowOverheadBytes = 48

  /// Every record's key and stored bytes, plus its layout's ``Layout/recordOverheadBytes`` each
  /// (and, bounded, its usage row's key and ``usageRowOverheadBytes``): what a budget counts,
  /// with or without one. O(1): the store keeps the count as it writes; after a pattern delete,
  /// which reads nothing back, it is counted again from the file once (O(n)). Should that count
  /// fail, the figure from before the delete is returned, and the next call counts again.
  public func accountedBytes() -> Int {
    store.withLock { store in
      try? store.settleAccounting()
      return store.accountedBytes
    }
  }

  // MARK: The file's pages

  /// The database file's pages: how many, how large, and how many are free (left by deletes,
  /// reused by later writes; only a vacuum gives them back to the file system).
  public func pages() throws(SQLiteError) -> Pages {
    try store.withLock { store throws(SQLiteError) in
      Pages(
        count: Int(try store.layoutStore.connection.integer("PRAGMA page_count")),
        size: Int(try store.layoutStore.connection.integer("PRAGMA page_size")),
        free: Int(try store.layoutStore.connection.integer("PRAGMA freelist_count")))
    }
  }

  /// How the writer's connection was opened, as SQLite reports it (``Options/memoryMapBytes``,
  /// ``Options/pageCacheKibibytes``, ``Options/mutex``).
  package func opening() throws(SQLiteError) -> (memoryMapBytes: Int, pageCacheKibibytes: Int, mutex: MutexMode) {
    try store.withLock { store throws(SQLiteError) in try store.layoutStore.connection.opening() }
  }

  /// A database file's pages.
  public struct Pages: Sendable, Hashable {
    public var count: Int
    public var size: Int
    public var free: Int
    public var bytes: Int { count * size }
    public var freeBytes: Int { free * size }
  }

  /// `PRAGMA auto_vacuum`: 0 none, 1 full, 2 incremental.
  public func autoVacuumMode() throws(SQLiteError) -> Int {
    try store.withLock { store throws(SQLiteError) in Int(try store.layoutStore.connection.integer("PRAGMA auto_vacuum")) }
  }

  /// Gives the free pages back to the file system without rewriting the file
  /// ([incremental_vacuum](https://www.sqlite.org/pragma.html#pragma_incremental_vacuum)): only for
  /// a file made with ``AutoVacuum/incremental``; does nothing otherwise.
  public func incrementalVacuum() throws(SQLiteError) {
    try store.withLock { store throws(SQLiteError) in
      let statement = try Statement(sql: "PRAGMA incremental_vacuum", connection: store.layoutStore.connection, persistent: false)
      while try statement.step() {}
    }
  }

  /// Rewrites the whole file without its free pages ([VACUUM](https://www.sqlite.org/lang_vacuum.html)).
  public func vacuum() throws(SQLiteError) {
    try store.withLock { store throws(SQLiteError) in try store.layoutStore.connection.execute("VACUUM") }
  }

  /// Runs `body` with the connection, under the lock: for tests.
  func withConnection<Result: Sendable>(_ body: (Connection) throws(SQLiteError) -> Result) throws(SQLiteError) -> Result {
    try store.withLock { store throws(SQLiteError) in try body(store.layoutStore.connection) }
  }
}
