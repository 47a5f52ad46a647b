/// A bounded in-memory store in front of another store (SQLite, usually), as Apollo Kotlin's
/// `MemoryCacheFactory(...).chain(SqlNormalizedCacheFactory(...))`.
///
/// ```swift
/// let front = InMemoryNormalizedCache(budget: CacheBudget(maxSizeBytes: 4 << 20))
/// let chain = ChainedNormalizedCache(front: front, back: try SQLiteNormalizedCache(path: "cache.sqlite"))
/// ```
/// - A read asks the front, then the back for what the front lacks, and promotes what the back
///   had into the front (which may evict: the back still has it).
/// - A merge goes to the back first, then to the front: into the records the front holds, and
///   adding the records that were new to the back. A record the back already held and the front
///   does not is left to the back: the front would hold only the merge's fields of it, and a read
///   would miss there what the back has.
/// - So the front holds copies of the back's records, equal to them. When the back evicts or
///   expires a record, the front's copy goes too (the back must report evicted keys:
///   ``CacheBudget/reportsEvictedKeys``).
/// - One lock serializes its calls, reads included: a read promotes into the front, and a
///   promotion racing a merge could put back a copy older than the merge.
///
/// What it can do follows from its back (``capabilities``, and the conditional conformances
/// below): it lists its keys when the back lists its own (they are the back's), it is on database
/// pages when the back is, it accounts its bytes when the back does, and it measures its footprint
/// when the back measures its own. Its tiers, its lock waits and its front's budget are its own.
public final class ChainedNormalizedCache<Back: NormalizedCache>: BoundedNormalizedCache, TieredCache, LockWaitReporting {
  public let front: InMemoryNormalizedCache
  public let back: Back
  /// What the back can do, asked once.
  private let backCapabilities: StoreCapabilities
  private struct State {
    var tiers = TierStatistics()
    /// The back's evictions, taken from it after every call to keep the front in step.
    var evictions = EvictionReport()
  }
  private let state = Lock(State())

  public init(front: InMemoryNormalizedCache, back: Back) {
    let backCapabilities = back.capabilities
    if let budget = backCapabilities.bounded?.budget {
      precondition(budget.reportsEvictedKeys, "a chain's back must report the keys it evicts, so that the front forgets them")
    }
    self.front = front
    self.back = back
    self.backCapabilities = backCapabilities
  }

  /// Nil: the chain has no budget of its own; the front keeps to its budget (``frontBudget``),
  /// the back to its.
  public var budget: CacheBudget? { nil }

  /// The front's budget: how much of the chain is in memory.
  public var frontBudget: CacheBudget? { front.budget }

  public var capabilities: StoreCapabilities {
    StoreCapabilities(
      bounded: backCapabilities.bounded == nil ? nil : self, keyListing: backCapabilities.keyListing,
      pages: backCapabilities.pages, tiers: self, lockWaits: self, footprint: backCapabilities.footprint == nil ? nil : self)
  }

  public func loadRecords(forKeys keys: [CacheKey]) throws -> [CacheKey: Record] {
    var result: [CacheKey: Record] = [:]
    for record in try loadRecordsInOrder(forKeys: keys) {
      if let record { result[record.key] = record }
    }
    return result
  }

  public func loadRecordsInOrder(forKeys keys: [CacheKey]) throws -> [Record?] {
    try state.withLock(as: .read) { state in try load(keys, &state) }
  }

  /// Holds the chain's lock across `body`.
  public func withConsistentRead<Result>(_ body: (any RecordSnapshot) throws -> Result) throws -> Result {
    try state.withLock(as: .read) { state in
      try withUnsafeMutablePointer(to: &state) { state in try body(Snapshot(chain: self, state: state)) }
    }
  }

  private struct Snapshot: RecordSnapshot {
    let chain: ChainedNormalizedCache<Back>
    let state: UnsafeMutablePointer<State>
    func loadRecordsInOrder(forKeys keys: [CacheKey]) throws -> [Record?] { try chain.load(keys, &state.pointee) }
  }

  /// The front, then the back for what the front lacks, promoting it; under the lock.
  private func load(_ keys: [CacheKey], _ state: inout State) throws -> [Record?] {
    var records = front.loadRecordsInOrder(forKeys: keys)
    let missing = records.indices.filter { records[$0] == nil }
    var fromBack = 0
    if !missing.isEmpty {
      let loaded = try back.loadRecordsInOrder(forKeys: missing.map { keys[$0] })
      var promoted: [Record] = []
      for (position, record) in zip(missing, loaded) {
        guard let record else { continue }
        records[position] = record
        promoted.append(record)
        fromBack += 1
      }
      try syncEvictions(&state)
      if !promoted.isEmpty {
        // A record the back just handed out is the back's whole record: the front takes it as it is.
        try front.merge(records: RecordSet(records: promoted))
      }
    }
    let served = records.count { $0 != nil }
    state.tiers.frontHits += served - fromBack
    state.tiers.backHits += fromBack
    state.tiers.promotions += fromBack
    return records
  }

  @discardableResult
  public func merge(records: RecordSet) throws -> ChangedKeys {
    try state.withLock { state in
      let changed = try back.merge(records: records)
      try syncEvictions(&state)
      _ = try front.merge(records: records, inserting: Set(changed.newRecordKeys))
      return changed
    }
  }

  public func removeRecord(for key: CacheKey) throws {
    try state.withLock { _ in
      try back.removeRecord(for: key)
      front.removeRecord(for: key)
    }
  }

  public func removeRecords(matching pattern: String) throws {
    try state.withLock { _ in
      try back.removeRecords(matching: pattern)
      front.removeRecords(matching: pattern)
    }
  }

  public func removeRecords(forKeys keys: [CacheKey]) throws {
    try state.withLock { _ in
      try back.removeRecords(forKeys: keys)
      for key in keys { front.removeRecord(for: key) }
    }
  }

  public func clear() throws {
    try state.withLock { _ in
      try back.clear()
      front.clear()
    }
  }

  public func advanceClock(to step: Int) throws {
    try state.withLock { _ in
      front.advanceClock(to: step)
      try backCapabilities.bounded?.advanceClock(to: step)
    }
  }

  /// What the back evicted or expired: the records that left the chain. The front's own
  /// evictions only move records out of memory (see ``takeFrontEvictions()``).
  public func takeEvictions() throws -> EvictionReport {
    try state.withLock { state in
      try syncEvictions(&state)
      defer { state.evictions = EvictionReport() }
      return state.evictions
    }
  }

  /// What the front evicted: records that left memory and are still in the back.
  public func takeFrontEvictions() -> EvictionReport { front.takeEvictions() }

  /// How long calls waited for the chain's lock (the stores' own locks are taken one call at a
  /// time inside it, and are never contended).
  public func takeLockWaits() -> LockWaits { state.waits.take() }

  /// The back's accounted bytes: the records the chain holds (the front holds copies); the
  /// front's when the back does not account its own, in which case the chain does not declare
  /// ``StoreCapabilities/bounded``.
  public func accountedBytes() throws -> Int {
    try backCapabilities.bounded?.accountedBytes() ?? front.accountedBytes()
  }

  public func takeTierStatistics() -> TierStatistics {
    state.withLock { state in
      defer { state.tiers = TierStatistics() }
      return state.tiers
    }
  }

  /// Takes the back's evictions and removes the front's copies of them; under the lock.
  private func syncEvictions(_ state: inout State) throws {
    guard let bounded = backCapabilities.bounded else { return }
    let report = try bounded.takeEvictions()
    guard !report.isEmpty else { return }
    for key in report.keys { front.removeRecord(for: key) }
    state.evictions.formUnion(report)
  }
}

extension ChainedNormalizedCache: FootprintReporting {
  /// The back's footprint (the records the chain holds), and what the front holds besides
  /// (`front_accounted_bytes`: its copies, as its budget counts them). Declared
  /// (``StoreCapabilities/footprint``) only when the back measures its own.
  public func footprint(liveBytes: Int) throws -> Footprint {
    var footprint =
      try backCapabilities.footprint?.footprint(liveBytes: liveBytes)
      ?? Footprint(recordCount: 0, payloadBytes: 0, storeBytes: liveBytes, details: [("live_bytes", liveBytes)])
    footprint.details.append(("front_accounted_bytes", front.accountedBytes()))
    return footprint
  }

  public func settledBytes() throws -> Int? { try backCapabilities.footprint?.settledBytes() }
}

/// The back's keys are the records the chain holds.
extension ChainedNormalizedCache: KeyListing, KeyEnumerableCache where Back: KeyEnumerableCache {
  public func allKeys() throws -> [CacheKey] { try back.allKeys() }
}

/// The back's file: its pages, its vacuums.
extension ChainedNormalizedCache: PagedStore where Back: PagedStore {
  public func settledPages() throws -> (bytes: Int, freeBytes: Int) { try back.settledPages() }
  public func vacuumsIncrementally() throws -> Bool { try back.vacuumsIncrementally() }
  public func incrementalVacuum() throws { try back.incrementalVacuum() }
  public func vacuum() throws { try back.vacuum() }
}

/// A store of two tiers, which can say where its reads were served.
public protocol TieredCache: NormalizedCache {
  /// Keys served by each tier since the last call.
  func takeTierStatistics() -> TierStatistics
  /// What the front evicted since the last call: records that left it and are still behind it.
  func takeFrontEvictions() -> EvictionReport
  /// The front's budget: how much of the store is in memory (the traffic's `budget_bytes` of a chain).
  var frontBudget: CacheBudget? { get }
}

/// Where a tiered store served the keys it found.
public struct TierStatistics: Sendable, Hashable {
  /// Keys found in the front.
  public var frontHits = 0
  /// Keys the front lacked and the back had.
  public var backHits = 0
  /// Records copied from the back into the front.
  public var promotions = 0

  public init(frontHits: Int = 0, backHits: Int = 0, promotions: Int = 0) {
    self.frontHits = frontHits
    self.backHits = backHits
    self.promotions = promotions
  }
}
