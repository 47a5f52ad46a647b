import NormalizedCache
import Synchronization

/// The shop app's own cache, as a team might write it without cachebench: records in a plain
/// `Dictionary`, and when their bytes pass a budget, the least recently used go first.
///
/// It is measured beside cachebench's stores because it adopts cachebench's store protocols:
/// ``NormalizedCache`` (loads, merges, removals), ``BoundedNormalizedCache`` (its budget, its
/// evictions, its bytes) and ``KeyEnumerableCache`` (for garbage collection), and declares them
/// in its ``capabilities``. It measures no footprint of its own: the workbench counts its records
/// and jemalloc's live bytes. `Tests/ShopCacheTests` checks its evictions against cachebench's
/// reference model, and its contract with cachebench's conformance checks.
///
/// ```swift
/// let store = LRUDictionaryStore(budget: CacheBudget(maxSizeBytes: 4 << 20, evictTo: 0.9))
/// ```
/// - Only `lru`, and no expiry: the app never needed more.
/// - Eviction sorts the records by their last use: O(n log n), fine for the app's few thousand.
public final class LRUDictionaryStore: BoundedNormalizedCache, KeyEnumerableCache {
  /// What the budget counts for a record beyond its key and encoded fields: the dictionary's
  /// slot, the entry, the record's key held twice and its fields' buffer. Measured with
  /// cachebench itself: `live_bytes` over `records` less `payload_bytes`, 195 to 230 on
  /// `default.json`'s generator (see the README's "Your own store").
  public static let recordOverheadBytes = 208

  private struct Entry {
    var record: Record
    var lastUse: UInt64
  }

  private struct State {
    var entries: [CacheKey: Entry] = [:]
    var tick: UInt64 = 0
    var bytes = 0
    var report = EvictionReport()
  }

  private let state = Mutex(State())
  public let budget: CacheBudget?

  /// What the workbench measures of it: its budget and bytes, and its keys.
  public var capabilities: StoreCapabilities { StoreCapabilities(bounded: self, keyListing: self) }

  public init(budget: CacheBudget? = nil) {
    precondition(budget.map { $0.policy == .lru && $0.expireAfterSteps == nil } ?? true, "the shop's store only does lru, without expiry")
    self.budget = budget
  }

  static func bytes(of record: Record) -> Int { record.key.utf8.count + record.encodedFields.count + recordOverheadBytes }

  public func loadRecords(forKeys keys: [CacheKey]) -> [CacheKey: Record] {
    var result: [CacheKey: Record] = [:]
    for record in loadRecordsInOrder(forKeys: keys) {
      if let record { result[record.key] = record }
    }
    return result
  }

  /// Each record found is used now, in the order asked (a key asked twice, twice).
  public func loadRecordsInOrder(forKeys keys: [CacheKey]) -> [Record?] {
    state.withLock { state in
      keys.map { key in
        guard state.entries[key] != nil else { return nil }
        state.tick += 1
        state.entries[key]!.lastUse = state.tick
        return state.entries[key]!.record
      }
    }
  }

  /// Merges field by field, each record written now; then evicts the least recently used (never
  /// a root) until the store holds at most `evictTo` of its budget.
  /// - Throws: ``CacheBudgetError`` before changing anything when a record alone is larger than the budget.
  @discardableResult
  public func merge(records: RecordSet) throws(CacheBudgetError) -> ChangedKeys {
    try state.withLock { state throws(CacheBudgetError) in
      if let limit = budget?.maxSizeBytes {
        for record in records where Self.bytes(of: record) > limit {
          throw CacheBudgetError(key: record.key, bytes: Self.bytes(of: record), maxSizeBytes: limit)
        }
      }
      var changed = ChangedKeys()
      for record in records {
        state.tick += 1
        if var entry = state.entries[record.key] {
          let before = Self.bytes(of: entry.record)
          changed.insert(fields: entry.record.merge(record), of: record.key)
          entry.lastUse = state.tick
          state.bytes += Self.bytes(of: entry.record) - before
          state.entries[record.key] = entry
        } else {
          state.entries[record.key] = Entry(record: record, lastUse: state.tick)
          state.bytes += Self.bytes(of: record)
          changed.insertAllFields(of: record)
        }
      }
      try evict(&state)
      return changed
    }
  }

  private func evict(_ state: inout State) throws(CacheBudgetError) {
    guard let budget, let limit = budget.maxSizeBytes, state.bytes > limit, let target = budget.targetBytes else { return }
    let candidates = state.entries.filter { !RootKey.all.contains($0.key) }.sorted { $0.value.lastUse < $1.value.lastUse }
    for (key, entry) in candidates {
      guard state.bytes > target else { break }
      state.entries[key] = nil
      state.bytes -= Self.bytes(of: entry.record)
      state.report.evicted += 1
      state.report.bytes += Self.bytes(of: entry.record)
      if budget.reportsEvictedKeys { state.report.keys.append(key) }
    }
    if state.bytes > limit { throw CacheBudgetError(key: RootKey.query, bytes: state.bytes, maxSizeBytes: limit) }
  }

  public func removeRecord(for key: CacheKey) {
    state.withLock { state in
      if let entry = state.entries.removeValue(forKey: key) { state.bytes -= Self.bytes(of: entry.record) }
    }
  }

  public func removeRecords(matching pattern: String) {
    state.withLock { state in
      for key in state.entries.keys where KeyPattern.matches(key, pattern) {
        state.bytes -= Self.bytes(of: state.entries.removeValue(forKey: key)!.record)
      }
    }
  }

  public func clear() {
    state.withLock { state in
      state.entries = [:]
      state.bytes = 0
    }
  }

  /// No expiry: the clock means nothing to this store.
  public func advanceClock(to step: Int) {}

  public func takeEvictions() -> EvictionReport {
    state.withLock { state in
      defer { state.report = EvictionReport() }
      return state.report
    }
  }

  public func accountedBytes() -> Int { state.withLock { $0.bytes } }

  public func allKeys() -> [CacheKey] { state.withLock { Array($0.entries.keys) } }
}
