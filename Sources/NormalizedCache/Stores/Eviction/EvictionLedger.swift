/// The eviction rule every bounded store follows, written once: which records the store holds,
/// what each counts toward the budget, their order under the policy, and their age. A store
/// drives it (a write, a read, a removal) and keeps only the records themselves; the ledger
/// names the victims. `Tests/NormalizedCacheTests/EvictionModelTests.swift` checks it, through
/// both stores, against a small reference model over thousands of random steps.
///
/// ```swift
/// var ledger = EvictionLedger(budget: CacheBudget(maxSizeBytes: 1_000))
/// try ledger.checkFits("Book:1", bytes: 400)
/// ledger.write("Book:1", bytes: 400)
/// ledger.use("Book:1")                       // a read
/// for key in try ledger.evict() { storage.remove(key) }   // none until past 1,000 bytes
/// ```
/// - Order: a doubly linked list of entries, least recent first: by last use (read or write) for
///   `lru` and `lfu`, by last write for `fifo`. `lfu` evicts the fewest uses first, ties in that order.
/// - Eviction happens when a merge leaves more than ``CacheBudget/maxSizeBytes``: expired records
///   first, then in policy order, skipping the roots, until at most ``CacheBudget/targetBytes`` remain.
/// - Complexity: a write, a use or a removal is one hash lookup and O(1) list work; an eviction
///   is O(victims) for `lru` and `fifo`, O(n log n) for `lfu` (it sorts), plus O(n) to find the
///   expired when ``CacheBudget/expireAfterSteps`` is set.
public struct EvictionLedger: Sendable {
  public let budget: CacheBudget
  /// The accounted bytes of every record held.
  public private(set) var bytes = 0
  /// How many records it holds.
  public private(set) var count = 0
  /// The clock expiry counts in.
  public private(set) var step = 0
  /// The roots' bytes, which eviction cannot lower.
  private var rootBytes = 0

  private var entries: [Entry] = []
  private var freeEntries: [Int32] = []
  private var index = LedgerIndex()
  /// The least recent entry (the first candidate), and the most recent.
  private var head: Int32 = -1
  private var tail: Int32 = -1
  /// Counts uses and writes, so that their order is total.
  private var tick: UInt64 = 0
  private var report = EvictionReport()
  /// Entries whose use or write changed since ``takeChanged()``, when ``tracksChanges``.
  private var changed: [Int32] = []
  /// Keep a list of the entries that changed, for a store that writes their order down in batches.
  public var tracksChanges = false

  struct Entry {
    var key: CacheKey
    var bytes: Int
    var previous: Int32 = -1
    var next: Int32 = -1
    var uses: Int = 0
    var lastUse: UInt64 = 0
    var lastWrite: UInt64 = 0
    var writtenStep: Int = 0
    var isRoot: Bool
    var isChanged = false
  }

  public init(budget: CacheBudget) {
    self.budget = budget
  }

  // MARK: Questions

  public func contains(_ key: CacheKey) -> Bool { find(key) != nil }

  /// The accounted bytes of one record, nil when the ledger does not hold it.
  public func bytes(of key: CacheKey) -> Int? { find(key).map { entries[Int($0)].bytes } }

  /// Whether the record was written ``CacheBudget/expireAfterSteps`` or more steps ago.
  public func isExpired(_ key: CacheKey) -> Bool {
    guard budget.expireAfterSteps != nil, let entry = find(key) else { return false }
    return isExpired(entries[Int(entry)])
  }

  private func isExpired(_ entry: Entry) -> Bool {
    guard let limit = budget.expireAfterSteps else { return false }
    return step - entry.writtenStep >= limit
  }

  /// Whether a merge must evict: past the size limit.
  public var isOverBudget: Bool { budget.maxSizeBytes.map { bytes > $0 } ?? false }

  /// Throws when a record of `bytes` could never be held: larger than the whole budget.
  /// Check every incoming record before changing anything.
  public func checkFits(_ key: CacheKey, bytes: Int) throws(CacheBudgetError) {
    guard let limit = budget.maxSizeBytes, bytes > limit else { return }
    throw CacheBudgetError(key: key, bytes: bytes, maxSizeBytes: limit)
  }

  // MARK: What the store tells it

  /// The store wrote the record (new, merged or unchanged), which now takes `bytes`: it is the
  /// most recently used and written, one use more, written at this step.
  public mutating func write(_ key: CacheKey, bytes: Int) {
    write(key, hash: LedgerIndex.hash(key), bytes: bytes)
  }

  /// ``write(_:bytes:)`` with the key's hash as ``RecordTable`` computes it (`HashedKey` with the
  /// table's seed), for a store that has just hashed the key itself.
  mutating func write(_ key: CacheKey, hash: UInt64, bytes: Int) {
    tick &+= 1
    let position: Int32
    if let found = find(key, hash: hash) {
      position = found
      self.bytes += bytes - entries[Int(found)].bytes
      if entries[Int(found)].isRoot { rootBytes += bytes - entries[Int(found)].bytes }
      entries[Int(found)].bytes = bytes
      unlink(found)
    } else {
      position = allocate(Entry(key: key, bytes: bytes, isRoot: RootKey.isRoot(key)))
      index.insert(position, hash: hash)
      self.bytes += bytes
      if entries[Int(position)].isRoot { rootBytes += bytes }
      count += 1
    }
    entries[Int(position)].uses += 1
    entries[Int(position)].lastUse = tick
    entries[Int(position)].lastWrite = tick
    entries[Int(position)].writtenStep = step
    append(position)
    noteChanged(position)
  }

  /// What a read may hand out of a record: the ledger holds it, it expired (the store must remove
  /// it, and the read must not return it), or the ledger does not hold it.
  public enum ReadVerdict: Sendable {
    case held, expired, absent
  }

  /// A read found the record in the store's storage: under `lru` and `lfu` it is used now (`fifo`
  /// does not count reads); an expired record is reported gone, and the store must remove it.
  public mutating func read(_ key: CacheKey) -> ReadVerdict {
    read(key, hash: LedgerIndex.hash(key))
  }

  /// ``read(_:)`` with the key's hash as ``RecordTable`` computes it.
  mutating func read(_ key: CacheKey, hash: UInt64) -> ReadVerdict {
    guard let position = find(key, hash: hash) else { return .absent }
    if budget.expireAfterSteps != nil, isExpired(entries[Int(position)]) {
      report.expired += 1
      noteGone(position)
      return .expired
    }
    if budget.policy != .fifo { touch(position) }
    return .held
  }

  /// The record is used now, whatever the policy counts.
  public mutating func use(_ key: CacheKey) {
    guard budget.policy != .fifo, let position = find(key) else { return }
    touch(position)
  }

  /// A use: one more, the most recent. On the buffer, in one access: a read of a bounded store
  /// touches every record it hands out, and the array's checks per field cost a third of that.
  private mutating func touch(_ position: Int32) {
    tick &+= 1
    let tick = tick
    var (head, tail) = (head, tail)
    entries.withUnsafeMutableBufferPointer { entries in
      entries[Int(position)].uses += 1
      entries[Int(position)].lastUse = tick
      if position != tail {
        Self.unlink(position, in: entries, head: &head, tail: &tail)
        Self.append(position, in: entries, head: &head, tail: &tail)
      }
    }
    (self.head, self.tail) = (head, tail)
    noteChanged(position)
  }

  /// The store removed the record on request (not an eviction). Returns its bytes.
  @discardableResult
  public mutating func remove(_ key: CacheKey) -> Int? {
    guard let position = find(key) else { return nil }
    return release(position)
  }

  /// The store found the record expired (``isExpired(_:)``) and removed it.
  public mutating func expire(_ key: CacheKey) {
    guard let position = find(key) else { return }
    report.expired += 1
    noteGone(position)
  }

  /// Removes everything (`clear()`), the clock and the report kept.
  public mutating func removeAll() {
    entries = []
    freeEntries = []
    index = LedgerIndex()
    (head, tail, bytes, count, rootBytes) = (-1, -1, 0, 0, 0)
    changed = []
  }

  /// Moves the clock forward.
  public mutating func advance(to step: Int) {
    precondition(step >= self.step, "the clock moves forward only")
    self.step = step
  }

  /// The records to evict now, removed from the ledger and reported: none within the budget;
  /// else the expired, then the policy's order, until at most ``CacheBudget/targetBytes`` remain.
  /// The store must delete each one.
  /// - Throws: ``CacheBudgetError`` when the roots alone hold more than the budget.
  public mutating func evict() throws(CacheBudgetError) -> [CacheKey] {
    try evictWithBytes().map(\.key)
  }

  /// ``evict()``, with each victim's accounted bytes (a store that deletes them in batches keeps
  /// its own count of what it holds from these).
  public mutating func evictWithBytes() throws(CacheBudgetError) -> [(key: CacheKey, bytes: Int)] {
    guard let limit = budget.maxSizeBytes, bytes > limit, let target = budget.targetBytes else { return [] }
    var victims: [(key: CacheKey, bytes: Int)] = []
    func take(_ position: Int32, expired: Bool) {
      victims.append((entries[Int(position)].key, entries[Int(position)].bytes))
      if expired { report.expired += 1 } else { report.evicted += 1 }
      noteGone(position)
    }
    if budget.expireAfterSteps != nil {
      var position = head
      while position >= 0, bytes > target {
        let next = entries[Int(position)].next
        if !entries[Int(position)].isRoot, isExpired(entries[Int(position)]) { take(position, expired: true) }
        position = next
      }
    }
    switch budget.policy {
    case .lru, .fifo:
      var position = head
      while position >= 0, bytes > target {
        let next = entries[Int(position)].next
        if !entries[Int(position)].isRoot { take(position, expired: false) }
        position = next
      }
    case .lfu:
      if bytes > target {
        var candidates: [Int32] = []
        candidates.reserveCapacity(count)
        var position = head
        while position >= 0 {
          if !entries[Int(position)].isRoot { candidates.append(position) }
          position = entries[Int(position)].next
        }
        // The list is in order of last use, so a stable sort by uses breaks ties by recency.
        let order = candidates.enumerated().sorted { a, b in
          let (ua, ub) = (entries[Int(a.element)].uses, entries[Int(b.element)].uses)
          return ua != ub ? ua < ub : a.offset < b.offset
        }
        for candidate in order {
          guard bytes > target else { break }
          take(candidate.element, expired: false)
        }
      }
    }
    if bytes > limit {
      throw CacheBudgetError(key: RootKey.query, bytes: rootBytes, maxSizeBytes: limit)
    }
    return victims
  }

  /// What was evicted and expired since the last call; the store adds the time it spent.
  public mutating func takeReport() -> EvictionReport {
    defer { report = EvictionReport() }
    return report
  }

  // MARK: For a store that keeps the order on disk

  /// One record's place in the order, as a store writes it down and reads it back.
  public struct Usage: Sendable, Hashable {
    public var key: CacheKey
    public var bytes: Int
    public var uses: Int
    public var lastUse: UInt64
    public var lastWrite: UInt64
    public var writtenStep: Int

    public init(key: CacheKey, bytes: Int, uses: Int, lastUse: UInt64, lastWrite: UInt64, writtenStep: Int) {
      self.key = key
      self.bytes = bytes
      self.uses = uses
      self.lastUse = lastUse
      self.lastWrite = lastWrite
      self.writtenStep = writtenStep
    }
  }

  /// Whether a use or write is waiting for ``takeChanged()`` (with ``tracksChanges``).
  public var hasChanges: Bool { !changed.isEmpty }

  /// The records whose use or write changed since the last call (with ``tracksChanges``), as
  /// they are now; records removed meanwhile are left out.
  public mutating func takeChanged() -> [Usage] {
    defer { changed.removeAll(keepingCapacity: true) }
    return changed.compactMap { position in
      guard entries[Int(position)].isChanged else { return nil }
      entries[Int(position)].isChanged = false
      let entry = entries[Int(position)]
      return Usage(
        key: entry.key, bytes: entry.bytes, uses: entry.uses, lastUse: entry.lastUse, lastWrite: entry.lastWrite,
        writtenStep: entry.writtenStep)
    }
  }

  /// Rebuilds the ledger from usages written down earlier (any order); the clock continues from
  /// the latest step among them.
  public mutating func restore(_ usages: [Usage]) {
    removeAll()
    // Ties (records written down without a use) in key order, so that a restore is the same every time.
    let ordered = usages.sorted { a, b in
      let (ta, tb) = budget.policy == .fifo ? (a.lastWrite, b.lastWrite) : (a.lastUse, b.lastUse)
      return ta != tb ? ta < tb : a.key.utf8.lexicographicallyPrecedes(b.key.utf8)
    }
    for usage in ordered {
      let position = allocate(Entry(key: usage.key, bytes: usage.bytes, isRoot: RootKey.isRoot(usage.key)))
      entries[Int(position)].uses = usage.uses
      entries[Int(position)].lastUse = usage.lastUse
      entries[Int(position)].lastWrite = usage.lastWrite
      entries[Int(position)].writtenStep = usage.writtenStep
      index.insert(position, hash: LedgerIndex.hash(usage.key))
      append(position)
      bytes += usage.bytes
      if entries[Int(position)].isRoot { rootBytes += usage.bytes }
      count += 1
      tick = max(tick, usage.lastUse, usage.lastWrite)
      step = max(step, usage.writtenStep)
    }
  }

  // MARK: Storage

  private func find(_ key: CacheKey) -> Int32? { find(key, hash: LedgerIndex.hash(key)) }

  @inline(__always)
  private func find(_ key: CacheKey, hash: UInt64) -> Int32? {
    index.find(hash: hash) { entries[Int($0)].key.equalsKey(key) }
  }

  private mutating func noteChanged(_ position: Int32) {
    guard tracksChanges, !entries[Int(position)].isChanged else { return }
    entries[Int(position)].isChanged = true
    changed.append(position)
  }

  /// An evicted or expired entry: reported, then released.
  private mutating func noteGone(_ position: Int32) {
    report.bytes += entries[Int(position)].bytes
    if budget.reportsEvictedKeys { report.keys.append(entries[Int(position)].key) }
    release(position)
  }

  @discardableResult
  private mutating func release(_ position: Int32) -> Int {
    let entry = entries[Int(position)]
    index.remove(hash: LedgerIndex.hash(entry.key)) { $0 == position }
    unlink(position)
    bytes -= entry.bytes
    if entry.isRoot { rootBytes -= entry.bytes }
    count -= 1
    entries[Int(position)] = Entry(key: "", bytes: 0, isRoot: false)
    freeEntries.append(position)
    return entry.bytes
  }

  private mutating func allocate(_ entry: Entry) -> Int32 {
    if let reused = freeEntries.popLast() {
      entries[Int(reused)] = entry
      return reused
    }
    entries.append(entry)
    return Int32(entries.count - 1)
  }

  private mutating func unlink(_ position: Int32) {
    var (head, tail) = (head, tail)
    entries.withUnsafeMutableBufferPointer { Self.unlink(position, in: $0, head: &head, tail: &tail) }
    (self.head, self.tail) = (head, tail)
  }

  private mutating func append(_ position: Int32) {
    var (head, tail) = (head, tail)
    entries.withUnsafeMutableBufferPointer { Self.append(position, in: $0, head: &head, tail: &tail) }
    (self.head, self.tail) = (head, tail)
  }

  /// Takes the entry out of the list (positions are the ledger's own, always in the buffer).
  @inline(__always)
  private static func unlink(_ position: Int32, in entries: UnsafeMutableBufferPointer<Entry>, head: inout Int32, tail: inout Int32) {
    let (previous, next) = (entries[Int(position)].previous, entries[Int(position)].next)
    if previous >= 0 { entries[Int(previous)].next = next } else { head = next }
    if next >= 0 { entries[Int(next)].previous = previous } else { tail = previous }
    entries[Int(position)].previous = -1
    entries[Int(position)].next = -1
  }

  /// Puts the entry at the list's end, the most recent.
  @inline(__always)
  private static func append(_ position: Int32, in entries: UnsafeMutableBufferPointer<Entry>, head: inout Int32, tail: inout Int32) {
    entries[Int(position)].previous = tail
    entries[Int(position)].next = -1
    if tail >= 0 { entries[Int(tail)].next = position } else { head = position }
    tail = position
  }
}

/// The ledger's map from keys to entries: open addressing over (hash, entry) pairs, deletion by
/// shifting back (no tombstones), keys hashed as ``HashedKey`` does.
struct LedgerIndex: Sendable {
  private struct HashedEntry {
    var hash: UInt64 = 0
    /// -1 for an empty slot.
    var entry: Int32 = -1
  }

  private var slots = [HashedEntry](repeating: HashedEntry(), count: 16)
  private var count = 0

  /// The same hash as ``RecordTable/hash(_:)``'s, so that the in-memory store hashes a key once.
  @inline(__always)
  static func hash(_ key: CacheKey) -> UInt64 { HashedKey.hash(key, seed: RecordTable.seed) }

  @inline(__always)
  func find(hash: UInt64, matches: (Int32) -> Bool) -> Int32? {
    slots.withUnsafeBufferPointer { slots in
      let mask = slots.count - 1
      var slot = Int(truncatingIfNeeded: hash) & mask
      while slots[slot].entry >= 0 {
        if slots[slot].hash == hash, matches(slots[slot].entry) { return slots[slot].entry }
        slot = (slot + 1) & mask
      }
      return nil
    }
  }

  /// Adds an entry whose key the index does not hold.
  mutating func insert(_ entry: Int32, hash: UInt64) {
    if (count + 1) * 4 > slots.count * 3 { grow() }
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    while slots[slot].entry >= 0 { slot = (slot + 1) & mask }
    slots[slot] = HashedEntry(hash: hash, entry: entry)
    count += 1
  }

  /// Removes the entry of this hash that `matches` names.
  mutating func remove(hash: UInt64, matches: (Int32) -> Bool) {
    let mask = slots.count - 1
    var hole = Int(truncatingIfNeeded: hash) & mask
    while true {
      guard slots[hole].entry >= 0 else { return }
      if slots[hole].hash == hash, matches(slots[hole].entry) { break }
      hole = (hole + 1) & mask
    }
    slots[hole] = HashedEntry()
    count -= 1
    var slot = (hole + 1) & mask
    while slots[slot].entry >= 0 {
      let home = Int(truncatingIfNeeded: slots[slot].hash) & mask
      // The entry may move to the hole when the hole lies cyclically within [home, slot).
      if (hole - home) & mask < (slot - home) & mask {
        slots[hole] = slots[slot]
        slots[slot] = HashedEntry()
        hole = slot
      }
      slot = (slot + 1) & mask
    }
  }

  private mutating func grow() {
    let old = slots
    slots = [HashedEntry](repeating: HashedEntry(), count: old.count * 2)
    let mask = slots.count - 1
    for entry in old where entry.entry >= 0 {
      var slot = Int(truncatingIfNeeded: entry.hash) & mask
      while slots[slot].entry >= 0 { slot = (slot + 1) & mask }
      slots[slot] = entry
    }
  }
}
