import NormalizedCache

/// What ``SQLiteNormalizedCache`` drives under its lock: a ``RecordStore``, or for a store with a
/// budget the ``BoundedRecordStore`` around one. The cache holds either, and calls through this.
protocol RecordStoring {
  /// What a merge throws: SQLite's error; with a budget, ``MergeError``.
  associatedtype MergeFailure: Error

  /// The record store itself (the bounded store's inner one), for what reads the file alone.
  var records: RecordStore { get }

  mutating func loadInOrder(_ keys: [CacheKey]) throws(SQLiteError) -> [Record?]
  mutating func merge(_ incoming: RecordSet) throws(MergeFailure) -> ChangedKeys
  mutating func removeRecords(forKeys keys: [CacheKey]) throws(SQLiteError)
  mutating func removeRecords(matching pattern: String) throws(SQLiteError)
  mutating func clear() throws(SQLiteError)

  /// What a budget counts (``SQLiteNormalizedCache/accountedBytes()``).
  var accountedBytes: Int { get }
  /// Moves a budget's clock; nothing without one.
  mutating func advanceClock(to step: Int)
  /// What a budget evicted since the last call; nothing without one.
  mutating func takeEvictions() -> EvictionReport
  /// Writes down what the store keeps in memory only (a budget's usage rows), as the cache is released.
  mutating func flushPendingUsage() throws(SQLiteError)
}

extension RecordStore: RecordStoring {
  var records: RecordStore { self }

  /// Every record's key and stored bytes, plus the layout's overhead each.
  var accountedBytes: Int { accounting.storedBytes + accounting.records * recordOverhead }

  /// No budget: no clock, no evictions, nothing kept in memory only.
  mutating func advanceClock(to step: Int) {}
  mutating func takeEvictions() -> EvictionReport { EvictionReport() }
  mutating func flushPendingUsage() throws(SQLiteError) {}
}

extension BoundedRecordStore: RecordStoring {}
