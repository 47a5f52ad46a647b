/// Records in process memory, as Apollo iOS's `InMemoryNormalizedCache`.
///
/// Each record is held as its key and one buffer of ``RecordCodec``-encoded fields, so a load
/// hands out the stored buffer (a reference count, no copy), a consistent read is lent it (not
/// even the count: ``LentRecords``), a projected load lends only the fields asked (a record whose
/// fields are all asked in place, another cut into the lender's room) and a merge of an unchanged
/// record is one comparison of bytes. A readers-writer lock lets reads run together and makes a merge wait
/// for them and run alone, as Apollo iOS's `ApolloStore` does with its concurrent queue and barrier
/// writes; a read of an operation holds the read lock across its loads
/// (``withConsistentRead(_:)``). A bounded store's reads write the budget's recency, so they take
/// the lock alone too.
///
/// ```swift
/// let cache = InMemoryNormalizedCache()
/// let changed = try cache.merge(records: normalized.records)
/// let records = try cache.loadRecords(forKeys: ["QUERY_ROOT"])
///
/// let bounded = InMemoryNormalizedCache(budget: CacheBudget(maxSizeBytes: 8 << 20, policy: .lru))
/// ```
/// With a ``CacheBudget`` it keeps itself within it through an ``EvictionLedger``: a record counts
/// its key, its encoded fields and ``recordOverheadBytes``; a read touches what it hands out; a
/// merge that ends past the budget evicts in the policy's order.
public final class InMemoryNormalizedCache: BoundedNormalizedCache, KeyEnumerableCache, LockWaitReporting {
  private struct State: ~Copyable {
    var records = RecordTable()
    var payloadBytes = 0
    /// Nil without a budget: the unbounded store pays one check per call, and no bytes.
    let bounds: Bounds?
  }

  /// A bounded store's ledger and the time its evictions took: boxed, so that the unbounded
  /// store's state stays as small as it was (its lock's allocation is in its live bytes).
  private final class Bounds {
    var ledger: EvictionLedger
    var evictionNanoseconds: UInt64 = 0

    init(_ budget: CacheBudget) { ledger = EvictionLedger(budget: budget) }
  }

  private let state: ReadWriteLock<State>
  /// Whether the store has a budget (fixed at creation): its reads take the lock alone.
  private let isBounded: Bool

  /// The budget it keeps to, nil when unbounded (kept with the ledger, not in the store's own
  /// allocation, whose size is in the unbounded store's live bytes).
  public var budget: CacheBudget? { state.withReadLock { $0.bounds?.ledger.budget } }

  /// What a record costs beyond its key and encoded fields, as the budget counts it: its slot in
  /// the table (24 bytes, at a load factor between 0.4 and 0.8), the fields' array header (32
  /// bytes) and jemalloc's rounding of its buffer, and a key longer than 15 bytes its own
  /// allocation (a 32-byte header and rounding; shorter keys live inside the `String`). Measured:
  /// `live_bytes` over `records` less the payload, on `default.json` and `calendar.json`: 131 to
  /// 172 (keys of 15 bytes or less: 84 to 98). The accounted bytes are then 95% to 104% of the
  /// live bytes (docs/bounded-and-concurrent.md#what-a-budget-counts).
  public static let recordOverheadBytes = 144

  public init(budget: CacheBudget? = nil) {
    state = ReadWriteLock(State(bounds: budget.map(Bounds.init)))
    isBounded = budget != nil
  }

  /// A record's accounted bytes.
  @inline(__always)
  static func accounted(key: CacheKey, fields: [UInt8]) -> Int { key.utf8.count + fields.count + recordOverheadBytes }

  /// - Complexity: O(k) for k keys: one hash lookup each.
  public func loadRecords(forKeys keys: [CacheKey]) -> [CacheKey: Record] {
    if isBounded {
      var result: [CacheKey: Record] = [:]
      result.reserveCapacity(keys.count)
      for record in loadRecordsInOrder(forKeys: keys) {
        if let record { result[record.key] = record }
      }
      return result
    }
    // Straight into the dictionary: an array of optional records between cost a third of a
    // single-key load, and its release went through the runtime's generic destroy.
    return state.withReadLock { state in state.records.withLender { $0.loadByKey(keys) } }
  }

  public func loadRecordsInOrder(forKeys keys: [CacheKey]) -> [Record?] {
    if isBounded { return state.withWriteLock(as: .read) { state in Self.load(keys, from: &state) } }
    return state.withReadLock { state in state.records.load(keys) }
  }

  /// Holds the read lock across `body` (a bounded store: the lock alone), so that every load in it
  /// sees one state.
  public func withConsistentRead<Result>(_ body: (any RecordSnapshot) throws -> Result) throws -> Result {
    if isBounded { return try state.withWriteLockedPointer(as: .read) { state in try body(BoundedSnapshot(state: state)) } }
    return try state.withReadLockedPointer { state in
      try state.pointee.records.withLender { lender in try body(Snapshot(table: lender)) }
    }
  }

  /// The table under the read lock: a read is lent the buffers it holds, which no merge can
  /// replace before the lock is released. Small enough for an existential's inline buffer.
  private struct Snapshot: RecordSnapshot {
    let table: RecordTable.Lender
    func loadRecordsInOrder(forKeys keys: [CacheKey]) -> [Record?] { table.load(keys, hashes: nil) }
    func lendRecords(forKeys keys: [CacheKey], to lent: inout LentRecords) { table.lend(keys, to: &lent) }
    /// Only the fields asked (ADR 0007's amendment of 2026-07-16: the in-memory store's own
    /// `loadFields`): a record whose fields are all asked lent in place, another cut.
    func lendRecords(forKeys keys: [CacheKey], projection: FieldProjection, to lent: inout LentRecords) {
      table.lend(keys, projection: projection, to: &lent)
    }
  }

  /// A bounded store's state under the lock alone: a load touches the ledger.
  private struct BoundedSnapshot: RecordSnapshot {
    let state: UnsafeMutablePointer<State>
    func loadRecordsInOrder(forKeys keys: [CacheKey]) -> [Record?] { InMemoryNormalizedCache.load(keys, from: &state.pointee) }
    /// The records of a whole load (the ledger touched, an expired record gone, as a whole load
    /// does), each lent with only the fields asked.
    func lendRecords(forKeys keys: [CacheKey], projection: FieldProjection, to lent: inout LentRecords) {
      let records = InMemoryNormalizedCache.load(keys, from: &state.pointee)
      lent.lendProjected(count: keys.count, projection: projection, keeping: records) { position in
        records[position]?.encodedFields.withUnsafeBytes { $0 }
      }
    }
  }

  /// A load of a bounded store: each record handed out is used; an expired one goes (and is not
  /// handed out), also when its key comes again later in the same load.
  private static func load(_ keys: [CacheKey], from state: inout State) -> [Record?] {
    guard let bounds = state.bounds else { return state.records.load(keys) }
    return withUnsafeTemporaryAllocation(of: Int.self, capacity: keys.count) { hashes in
      var records = state.records.load(keys, hashes: hashes.baseAddress!)
      // The ledger is borrowed once for the batch (an access to the box's property per key checked
      // exclusivity each time), and keys are taken from the request (the record's own is the
      // same, but copying the optional record to reach it retained its buffer).
      withUnsafeMutablePointer(to: &bounds.ledger) { ledger in
        for position in records.indices where records[position] != nil {
          let key = keys[position]
          switch ledger.pointee.read(key, hash: UInt64(bitPattern: Int64(hashes[position]))) {
          case .held: continue
          case .expired:
            if let removed = state.records.remove(key) { state.payloadBytes -= key.utf8.count + removed.count }
            records[position] = nil
          case .absent:
            records[position] = nil
          }
        }
      }
      return records
    }
  }

  /// Merges field by field (docs/records.md); with a budget, then evicts until within it.
  /// - Throws: ``CacheBudgetError``, before changing anything, when a record alone is larger than
  ///   the budget.
  @discardableResult
  public func merge(records: RecordSet) throws(CacheBudgetError) -> ChangedKeys {
    try merge(records: records, inserting: nil)
  }

  /// ``merge(records:)``, where a record the store does not hold is added only when `inserting`
  /// holds its key (nil: always): a chain's front merges what it holds, and adds what is new behind it.
  func merge(records: RecordSet, inserting: Set<CacheKey>?) throws(CacheBudgetError) -> ChangedKeys {
    try state.withWriteLock { state throws(CacheBudgetError) in
      guard let bounds = state.bounds else { return Self.merge(records, into: &state, inserting: inserting) }
      return try Self.merge(records, into: &state, inserting: inserting, bounds: bounds)
    }
  }

  /// The unbounded merge: each record into the table.
  private static func merge(_ records: RecordSet, into state: inout State, inserting: Set<CacheKey>?) -> ChangedKeys {
    var changed = ChangedKeys()
    for record in records {
      if let index = state.records.index(of: record.key) {
        guard let (fields, grew) = state.records.merge(at: index, record.encodedFields) else { continue }
        state.payloadBytes += grew
        changed.insert(fields: fields, of: record.key)
      } else {
        if let inserting, !inserting.contains(record.key) { continue }
        state.records.insert(record.key, fields: record.encodedFields)
        state.payloadBytes += record.key.utf8.count + record.encodedFields.count
        changed.insertAllFields(of: record)
      }
    }
    return changed
  }

  /// The bounded merge: the same, each record written in the ledger (an expired one replaced, not
  /// merged into), then the ledger's victims evicted.
  private static func merge(
    _ records: RecordSet, into state: inout State, inserting: Set<CacheKey>?, bounds: Bounds
  ) throws(CacheBudgetError) -> ChangedKeys {
    for record in records {
      try bounds.ledger.checkFits(record.key, bytes: accounted(key: record.key, fields: record.encodedFields))
    }
    var changed = ChangedKeys()
    let expires = bounds.ledger.budget.expireAfterSteps != nil
    for record in records {
      if expires, bounds.ledger.isExpired(record.key), let removed = state.records.remove(record.key) {
        // An expired record is gone: the new one does not merge into what it held.
        state.payloadBytes -= record.key.utf8.count + removed.count
        bounds.ledger.expire(record.key)
      }
      // One hash of the key for the table and the ledger.
      let hash = RecordTable.hash(record.key)
      let ledgerHash = UInt64(bitPattern: Int64(hash))
      if let index = state.records.index(of: record.key, hash: hash) {
        let merge = state.records.merge(at: index, record.encodedFields)
        bounds.ledger.write(record.key, hash: ledgerHash, bytes: accounted(key: record.key, fields: state.records.slots[index].fields!))
        guard let (fields, grew) = merge else { continue }
        state.payloadBytes += grew
        changed.insert(fields: fields, of: record.key)
      } else {
        if let inserting, !inserting.contains(record.key) { continue }
        state.records.insert(record.key, fields: record.encodedFields, hash: hash)
        state.payloadBytes += record.key.utf8.count + record.encodedFields.count
        bounds.ledger.write(record.key, hash: ledgerHash, bytes: accounted(key: record.key, fields: record.encodedFields))
        changed.insertAllFields(of: record)
      }
    }
    if bounds.ledger.isOverBudget {
      let start = ContinuousClock.now
      let victims = try bounds.ledger.evict()
      for key in victims {
        if let removed = state.records.remove(key) { state.payloadBytes -= key.utf8.count + removed.count }
      }
      let elapsed = (ContinuousClock.now - start).components
      bounds.evictionNanoseconds += UInt64(elapsed.seconds) * 1_000_000_000 + UInt64(elapsed.attoseconds / 1_000_000_000)
    }
    return changed
  }

  public func removeRecord(for key: CacheKey) {
    state.withWriteLock { state in
      if let removed = state.records.remove(key) {
        state.payloadBytes -= key.utf8.count + removed.count
        state.bounds?.ledger.remove(key)
      }
    }
  }

  /// Removes every record whose key contains `pattern`, ignoring ASCII case (``KeyPattern``), in
  /// one pass over the table.
  public func removeRecords(matching pattern: String) {
    let pattern = KeyPattern(pattern)
    state.withWriteLock { state in
      var payload = 0
      let bounds = state.bounds
      state.records.removeAll(where: pattern.matches) { key, fields in
        payload += key.utf8.count + fields.count
        bounds?.ledger.remove(key)
      }
      state.payloadBytes -= payload
    }
  }

  public func clear() {
    state.withWriteLock { state in
      state.records.removeAll()
      state.payloadBytes = 0
      state.bounds?.ledger.removeAll()
    }
  }

  /// How long reads and merges waited for the lock since the last call.
  public func takeLockWaits() -> LockWaits { state.waits.take() }

  // MARK: Bounded

  public func advanceClock(to step: Int) {
    state.withWriteLock { $0.bounds?.ledger.advance(to: step) }
  }

  public func takeEvictions() -> EvictionReport {
    state.withWriteLock { state in
      guard let bounds = state.bounds else { return EvictionReport() }
      var report = bounds.ledger.takeReport()
      report.nanoseconds = bounds.evictionNanoseconds
      bounds.evictionNanoseconds = 0
      return report
    }
  }

  /// Every record's key and encoded fields, plus ``recordOverheadBytes`` each: what a budget
  /// counts, with or without one.
  public func accountedBytes() -> Int {
    state.withReadLock { $0.payloadBytes + $0.records.count * Self.recordOverheadBytes }
  }

  /// How many records the store holds, and their payload.
  public func statistics() -> Statistics {
    state.withReadLock { Statistics(recordCount: $0.records.count, payloadBytes: $0.payloadBytes) }
  }

  /// Counts and sizes of what an ``InMemoryNormalizedCache`` holds.
  public struct Statistics: Sendable, Hashable {
    /// How many records the store holds.
    public var recordCount: Int
    /// Bytes of keys and encoded fields held: the payload, before any overhead of the store.
    public var payloadBytes: Int
  }

  /// Every key (an expired record's too, until a read or a merge finds it).
  public func allKeys() -> [CacheKey] {
    state.withReadLock { state in state.records.slots.compactMap { $0.fields == nil ? nil : $0.key } }
  }
}

extension InMemoryNormalizedCache: FootprintReporting {
  /// Bounded or not it accounts its bytes; it lists its keys, reports its lock waits, measures itself.
  public var capabilities: StoreCapabilities {
    StoreCapabilities(bounded: self, keyListing: self, lockWaits: self, footprint: self)
  }

  /// Its records and payload as it counts them, and jemalloc's live bytes as its bytes.
  public func footprint(liveBytes: Int) -> Footprint {
    let statistics = statistics()
    return Footprint(
      recordCount: statistics.recordCount, payloadBytes: statistics.payloadBytes, storeBytes: liveBytes,
      details: [("live_bytes", liveBytes)])
  }
}
