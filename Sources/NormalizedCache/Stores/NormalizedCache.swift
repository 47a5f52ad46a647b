/// A store of records (docs/stores.md), as Apollo iOS's `NormalizedCache`: the in-memory store and
/// the SQLite store both implement it, and the workbench measures them through it.
///
/// Implementations are safe to share between threads; a read of several loads sees one committed
/// state through ``withConsistentRead(_:)``.
public protocol NormalizedCache: AnyObject, Sendable {
  /// The records of these keys that the store has; keys it does not have are absent from the result.
  /// - Throws: the store's error (SQLite's, for the SQLite store).
  func loadRecords(forKeys keys: [CacheKey]) throws -> [CacheKey: Record]

  /// The records of these keys in the order of the keys, nil where the store has none: the
  /// reader's path, which spares building a dictionary.
  func loadRecordsInOrder(forKeys keys: [CacheKey]) throws -> [Record?]

  /// Merges records field by field (docs/records.md), all at once.
  /// - Returns: the changed keys `recordKey.fieldKey`.
  @discardableResult
  func merge(records: RecordSet) throws -> ChangedKeys

  /// Removes one record; a key the store does not have is not an error.
  func removeRecord(for key: CacheKey) throws

  /// Removes every record whose key contains `pattern`, ignoring ASCII case (SQLite's `LIKE`
  /// rules). `%` and `_` are ordinary characters. An empty pattern removes nothing, as Apollo
  /// iOS's stores (`guard !pattern.isEmpty`).
  func removeRecords(matching pattern: String) throws

  /// Removes every record.
  func clear() throws

  /// Removes these records (garbage collection's sweep); keys the store does not have are not an
  /// error. By default one ``removeRecord(for:)`` each; the SQLite store removes them in one transaction.
  func removeRecords(forKeys keys: [CacheKey]) throws

  /// Runs `body` against one committed state of the store: every load through the snapshot sees
  /// the same records, and no merge lands between two of them, as Apollo iOS's `ApolloStore` runs
  /// a read on its concurrent queue while merges wait for a barrier. ``CacheReader`` reads an
  /// operation, a load per level, inside one.
  ///
  /// ```swift
  /// let records = try cache.withConsistentRead { snapshot in
  ///   let root = try snapshot.loadRecordsInOrder(forKeys: ["QUERY_ROOT"])
  ///   return try snapshot.loadRecordsInOrder(forKeys: references(in: root))   // the same state
  /// }
  /// ```
  /// The snapshot is valid only inside `body`. By default it loads straight from the store, which
  /// keeps each load whole but lets a merge land between two loads: a store shared between
  /// threads implements it (the in-memory store holds its read lock across `body`, the SQLite
  /// store reads in one transaction).
  func withConsistentRead<Result>(_ body: (any RecordSnapshot) throws -> Result) throws -> Result

  /// What the store can do beyond this protocol, declared once: its budget, its keys, its pages,
  /// its tiers, its lock waits, its footprint (``StoreCapabilities``). By default none: a store
  /// that adopts ``BoundedNormalizedCache`` or ``KeyEnumerableCache`` says so here too.
  var capabilities: StoreCapabilities { get }
}

/// One committed state of a store, lent for the span of ``NormalizedCache/withConsistentRead(_:)``.
public protocol RecordSnapshot {
  /// The records of these keys in the order of the keys, nil where the state has none.
  func loadRecordsInOrder(forKeys keys: [CacheKey]) throws -> [Record?]

  /// The same records, lent to `lent` in place of its last load's (``LentRecords``): their bytes,
  /// valid until the next load into `lent` or the end of the consistent read. ``CacheReader``
  /// reads through it. By default the records of ``loadRecordsInOrder(forKeys:)``, kept in `lent`;
  /// the in-memory store lends the bytes it holds, so that a read writes no reference count of
  /// the store's buffers (docs/stores.md#consistent-reads).
  func lendRecords(forKeys keys: [CacheKey], to lent: inout LentRecords) throws

  /// The same records, lent as ``lendRecords(forKeys:to:)`` lends them, where the store may leave
  /// out the fields a read does not need: each key's record holds at least the fields of its set
  /// in `projection` that the record has (and their dates), and none it lacks
  /// (docs/stores.md#projected-loads). ``CacheReader`` calls it when it projects
  /// (``CacheReader/projectsFields``). By default the projection is ignored and whole records are
  /// lent: a store of yours keeps working unchanged. Every store of cachebench lends only the
  /// fields asked, the in-memory store too (ADR 0007's amendment of 2026-07-16).
  func lendRecords(forKeys keys: [CacheKey], projection: FieldProjection, to lent: inout LentRecords) throws
}

extension RecordSnapshot {
  public func lendRecords(forKeys keys: [CacheKey], to lent: inout LentRecords) throws {
    lent.lend(try loadRecordsInOrder(forKeys: keys))
  }

  public func lendRecords(forKeys keys: [CacheKey], projection: FieldProjection, to lent: inout LentRecords) throws {
    try lendRecords(forKeys: keys, to: &lent)
  }
}

/// The default snapshot: loads straight from the store.
private struct DirectSnapshot: RecordSnapshot {
  let cache: any NormalizedCache

  func loadRecordsInOrder(forKeys keys: [CacheKey]) throws -> [Record?] {
    try cache.loadRecordsInOrder(forKeys: keys)
  }
}

extension NormalizedCache {
  public func loadRecordsInOrder(forKeys keys: [CacheKey]) throws -> [Record?] {
    let records = try loadRecords(forKeys: keys)
    return keys.map { records[$0] }
  }

  public func removeRecords(forKeys keys: [CacheKey]) throws {
    for key in keys { try removeRecord(for: key) }
  }

  public func withConsistentRead<Result>(_ body: (any RecordSnapshot) throws -> Result) throws -> Result {
    try body(DirectSnapshot(cache: self))
  }

  public var capabilities: StoreCapabilities { StoreCapabilities() }
}

/// A store that can list its keys, which garbage collection needs (``GarbageCollection``).
public protocol KeyEnumerableCache: NormalizedCache, KeyListing {}
