import NormalizedCache

/// What ``SQLiteNormalizedCache`` drives under its lock: a layout's store (``LayoutStore``: a
/// ``RecordRowStore`` or a ``FieldRowStore``), or for a store with a budget the ``BoundedRecordStore``
/// around one. The cache holds either, and calls through this.
protocol CacheBackend {
  /// What a merge throws: SQLite's error; with a budget, ``MergeError``.
  associatedtype MergeFailure: Error
  /// The layout's store.
  associatedtype Table: LayoutStore

  /// The layout's store itself (the bounded store's inner one), for what reads the file alone.
  var layoutStore: Table { get }

  /// The records of these keys in their order, nil where the store has none; with a projection,
  /// each holding at least the fields of its set that it has (docs/stores.md#projected-loads).
  mutating func loadInOrder(_ keys: [CacheKey], projection: FieldProjection?) throws(SQLiteError) -> [Record?]
  mutating func merge(_ incoming: RecordSet) throws(MergeFailure) -> ChangedKeys
  mutating func removeRecords(forKeys keys: [CacheKey]) throws(SQLiteError)
  mutating func removeRecords(matching pattern: String) throws(SQLiteError)
  mutating func clear() throws(SQLiteError)

  /// What a budget counts (``SQLiteNormalizedCache/accountedBytes()``).
  var accountedBytes: Int { get }
  /// Counts the accounted bytes again from the file where a removal left them behind it.
  mutating func settleAccounting() throws(SQLiteError)
  /// Moves a budget's clock; nothing without one.
  mutating func advanceClock(to step: Int)
  /// What a budget evicted since the last call; nothing without one.
  mutating func takeEvictions() -> EvictionReport
  /// Writes down what the store keeps in memory only (a budget's usage rows), as the cache is released.
  mutating func flushPendingUsage() throws(SQLiteError)
}

extension RecordRowStore: LayoutStore {}
extension FieldRowStore: LayoutStore {}
extension BoundedRecordStore: CacheBackend {}
