import NormalizedCache
import NormalizedCacheConformance
import Testing

@Suite("Bounded in-memory store against the reference model")
struct EvictionModelTests {
  static let budgets: [CacheBudget] = [
    CacheBudget(maxSizeBytes: 3_000, evictTo: 1, policy: .lru),
    CacheBudget(maxSizeBytes: 3_000, evictTo: 0.6, policy: .lru),
    CacheBudget(maxSizeBytes: 2_500, evictTo: 0.9, policy: .fifo),
    CacheBudget(maxSizeBytes: 4_000, evictTo: 0.8, policy: .lfu),
    CacheBudget(maxSizeBytes: 3_000, evictTo: 0.8, policy: .lru, expireAfterSteps: 4),
    CacheBudget(maxSizeBytes: 3_000, evictTo: 1, policy: .lfu, expireAfterSteps: 2),
    CacheBudget(maxSizeBytes: nil, policy: .fifo, expireAfterSteps: 3),
  ]

  @Test("evictions, reads and bytes agree with the model over 4,000 random steps", arguments: budgets)
  func agreesWithModel(budget: CacheBudget) throws {
    for seed: UInt64 in [1, 2, 3] {
      let failure = try EvictionModelCheck.run(
        budget: budget, accountedBytes: ReferenceEviction.keyAndFields(overhead: InMemoryNormalizedCache.recordOverheadBytes),
        seed: seed, steps: 4_000
      ) { InMemoryNormalizedCache(budget: $0) }
      #expect(failure == nil, "seed \(seed)")
    }
  }
}

/// Small cases counted by hand: three records of 200 accounted bytes each in a budget of 500.
@Suite("Eviction by hand")
struct EvictionByHandTests {
  /// A record whose key, fields and the store's overhead come to exactly `bytes`.
  static func record(_ key: CacheKey, bytes: Int = 200) -> Record {
    // The longest string value that fits (a longer text can take one more length byte).
    let records = (0..<bytes).map { Record(key: key, ["v": .string(String(repeating: "x", count: $0))]) }
    let record = records.last { key.utf8.count + $0.encodedFields.count + InMemoryNormalizedCache.recordOverheadBytes <= bytes }!
    precondition(key.utf8.count + record.encodedFields.count + InMemoryNormalizedCache.recordOverheadBytes == bytes)
    return record
  }

  static func store(_ policy: EvictionPolicy, expireAfterSteps: Int? = nil) -> InMemoryNormalizedCache {
    InMemoryNormalizedCache(
      budget: CacheBudget(maxSizeBytes: 500, evictTo: 1, policy: policy, expireAfterSteps: expireAfterSteps, reportsEvictedKeys: true))
  }

  static func held(_ store: InMemoryNormalizedCache) -> [CacheKey] {
    store.allKeys().sorted()
  }

  @Test("lru: a read saves A; writing C evicts B, the least recently used")
  func lru() throws {
    let store = Self.store(.lru)
    try store.merge(records: RecordSet(records: [Self.record("A:1"), Self.record("B:1")]))
    _ = store.loadRecordsInOrder(forKeys: ["A:1"])
    try store.merge(records: RecordSet(records: [Self.record("C:1")]))
    #expect(store.takeEvictions().keys == ["B:1"])
    #expect(Self.held(store) == ["A:1", "C:1"])
    #expect(store.accountedBytes() == 400)
    #expect(store.loadRecordsInOrder(forKeys: ["B:1"]) == [nil])
  }

  @Test("fifo: reads do not count; writing C evicts A, the first written")
  func fifo() throws {
    let store = Self.store(.fifo)
    try store.merge(records: RecordSet(records: [Self.record("A:1"), Self.record("B:1")]))
    _ = store.loadRecordsInOrder(forKeys: ["A:1", "A:1"])
    try store.merge(records: RecordSet(records: [Self.record("C:1")]))
    #expect(store.takeEvictions().keys == ["A:1"])
    #expect(Self.held(store) == ["B:1", "C:1"])
  }

  @Test("lfu: B read twice outlives A read once, though A was read last")
  func lfu() throws {
    let store = Self.store(.lfu)
    try store.merge(records: RecordSet(records: [Self.record("A:1"), Self.record("B:1")]))
    _ = store.loadRecordsInOrder(forKeys: ["B:1", "B:1", "A:1"])
    try store.merge(records: RecordSet(records: [Self.record("C:1")]))
    // Uses: A 2 (write, read), B 3, C 1: C is the least used, and goes.
    #expect(store.takeEvictions().keys == ["C:1"])
    #expect(Self.held(store) == ["A:1", "B:1"])
  }

  @Test("the root is never evicted, though it is the least recently used")
  func rootPinned() throws {
    let store = Self.store(.lru)
    try store.merge(records: RecordSet(records: [Self.record(RootKey.query), Self.record("B:1")]))
    try store.merge(records: RecordSet(records: [Self.record("C:1")]))
    #expect(store.takeEvictions().keys == ["B:1"])
    #expect(Self.held(store) == ["C:1", RootKey.query])
  }

  @Test("a record larger than the whole budget is refused before anything changes")
  func tooLarge() throws {
    let store = Self.store(.lru)
    try store.merge(records: RecordSet(records: [Self.record("A:1")]))
    #expect(throws: CacheBudgetError(key: "Big:1", bytes: 600, maxSizeBytes: 500)) {
      try store.merge(records: RecordSet(records: [Self.record("B:1"), Self.record("Big:1", bytes: 600)]))
    }
    #expect(Self.held(store) == ["A:1"])
    #expect(
      CacheBudgetError(key: "Big:1", bytes: 600, maxSizeBytes: 500).description
        == "record \"Big:1\" takes 600 bytes, more than the whole budget of 500 bytes")
  }

  @Test("expiry: a record written at step 0 is gone at step 2 under expireAfterSteps 2, and a write starts it anew")
  func expiry() throws {
    let store = Self.store(.lru, expireAfterSteps: 2)
    try store.merge(records: RecordSet(records: [Record(key: "A:1", ["a": 1, "b": 2])]))
    store.advanceClock(to: 1)
    #expect(store.loadRecordsInOrder(forKeys: ["A:1"]).first??["a"] == .int(1))
    store.advanceClock(to: 2)
    #expect(store.loadRecordsInOrder(forKeys: ["A:1"]) == [nil])
    #expect(store.takeEvictions().expired == 1)
    try store.merge(records: RecordSet(records: [Record(key: "A:1", ["a": 1, "b": 2])]))
    store.advanceClock(to: 3)
    // Written at step 2: an expired record does not merge into what it held.
    try store.merge(records: RecordSet(records: [Record(key: "A:1", ["a": 5])]))
    #expect(store.loadRecordsInOrder(forKeys: ["A:1"]).first??["b"] == .int(2))
    store.advanceClock(to: 5)
    try store.merge(records: RecordSet(records: [Record(key: "A:1", ["a": 6])]))
    #expect(store.loadRecordsInOrder(forKeys: ["A:1"]).first??.fieldKeys == ["a"])
  }
}
