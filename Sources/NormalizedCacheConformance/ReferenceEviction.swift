import NormalizedCache

/// The eviction rule of ``EvictionLedger`` written the plain way, to check stores against: the
/// records in a list, least recent first, moved on every use, and scanned from the front.
///
/// It shares no code with the ledger (no ticks, no index, no linked list): where the two agree
/// over thousands of random steps, the ledger does what this says.
public struct ReferenceEviction {
  public struct Entry {
    public var record: Record
    public var bytes: Int
    public var uses: Int
    public var writtenStep: Int
  }

  public let budget: CacheBudget
  /// What a record counts toward the budget in the store under test.
  public let accountedBytes: (Record) throws -> Int
  /// Least recent first: by last use (`lru`, `lfu`), by last write (`fifo`).
  public private(set) var order: [Entry] = []
  public private(set) var step = 0

  /// - Parameter accountedBytes: what the store counts for a record: by default its key, its
  ///   encoded fields and `overhead`.
  public init(budget: CacheBudget, accountedBytes: @escaping (Record) throws -> Int) {
    self.budget = budget
    self.accountedBytes = accountedBytes
  }

  /// A record counting its key, its encoded fields and `overhead`, as the in-memory store counts.
  public static func keyAndFields(overhead: Int) -> (Record) -> Int {
    { $0.key.utf8.count + $0.encodedFields.count + overhead }
  }

  public var bytes: Int { order.reduce(0) { $0 + $1.bytes } }
  public var keys: Set<CacheKey> { Set(order.map(\.record.key)) }

  public func record(_ key: CacheKey) -> Record? { order.first { $0.record.key == key }?.record }

  private func isExpired(_ entry: Entry) -> Bool {
    budget.expireAfterSteps.map { step - entry.writtenStep >= $0 } ?? false
  }

  public mutating func advance(to step: Int) { self.step = step }

  /// A merge of these records, in order, then the evictions: returns the keys that went, expired
  /// ones included, in the order they went; nil when a record is larger than the budget (and
  /// nothing changes).
  public mutating func merge(_ records: [Record]) throws -> [CacheKey]? {
    if let limit = budget.maxSizeBytes, try records.contains(where: { try accountedBytes($0) > limit }) {
      return nil
    }
    var gone: [CacheKey] = []
    for incoming in records {
      var record = incoming
      var uses = 1
      if let position = order.firstIndex(where: { $0.record.key == incoming.key }) {
        let existing = order.remove(at: position)
        if isExpired(existing) {
          gone.append(existing.record.key)
        } else {
          record = existing.record
          record.merge(incoming)
          uses = existing.uses + 1
        }
      }
      order.append(Entry(record: record, bytes: try accountedBytes(record), uses: uses, writtenStep: step))
    }
    return gone + evict()
  }

  /// A load: the records handed out, in order (nil where missing or expired); expired ones go.
  public mutating func load(_ keys: [CacheKey]) -> (records: [Record?], gone: [CacheKey]) {
    var gone: [CacheKey] = []
    let records = keys.map { key -> Record? in
      guard let position = order.firstIndex(where: { $0.record.key == key }) else { return nil }
      if isExpired(order[position]) {
        gone.append(key)
        order.remove(at: position)
        return nil
      }
      if budget.policy != .fifo {
        var entry = order.remove(at: position)
        entry.uses += 1
        order.append(entry)
      }
      return order.last { $0.record.key == key }!.record
    }
    return (records, gone)
  }

  public mutating func remove(_ key: CacheKey) {
    order.removeAll { $0.record.key == key }
  }

  private mutating func evict() -> [CacheKey] {
    guard let limit = budget.maxSizeBytes, bytes > limit, let target = budget.targetBytes else { return [] }
    var gone: [CacheKey] = []
    func candidates() -> [Int] { order.indices.filter { !RootKey.all.contains(order[$0].record.key) } }
    // The expired first, least recent first.
    while bytes > target, let position = candidates().first(where: { isExpired(order[$0]) }) {
      gone.append(order.remove(at: position).record.key)
    }
    while bytes > target {
      let positions = candidates()
      guard !positions.isEmpty else { break }
      let position: Int
      switch budget.policy {
      case .lru, .fifo: position = positions[0]
      case .lfu: position = positions.min { order[$0].uses < order[$1].uses }!  // first of the fewest
      }
      gone.append(order.remove(at: position).record.key)
    }
    return gone
  }
}
