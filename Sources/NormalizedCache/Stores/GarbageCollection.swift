/// Garbage collection, as Apollo Kotlin's normalized cache does it: remove the records that no
/// root reaches, and count the references to records that are gone.
///
/// ```swift
/// let report = try GarbageCollection.collect(in: cache)
/// report.recordsRemoved      // records no chain of references from QUERY_ROOT (or the other roots) reaches
/// report.danglingReferences  // references to records the store no longer has (evicted, removed)
/// ```
/// Records become unreachable when a response stops naming them: a list that lost an element
/// (under path keys its `…items.4` record; under type policies the entity, unless another field
/// names it), an object replaced by another, a parent that was evicted.
/// - Complexity: O(n) loads in batches, one level of references at a time, and one removal batch.
///   Marking reads the reachable records through the store's loads, which a bounded store counts as uses.
public enum GarbageCollection {
  public struct Report: Sendable, Hashable {
    /// Records removed: none of their keys is reachable from a root.
    public var recordsRemoved = 0
    /// Their keys' and encoded fields' bytes.
    public var bytesFreed = 0
    /// References, in records still reachable, to keys the store does not have.
    public var danglingReferences = 0
    /// Records reachable from a root (the roots included).
    public var reachable = 0

    public init() {}
  }

  /// Marks every record reachable from the roots, a level of references at a time, then removes the rest.
  public static func collect(in store: some KeyEnumerableCache) throws -> Report {
    try collect(in: store, keys: store)
  }

  /// ``collect(in:)`` of a store whose keys another part of it lists (``StoreCapabilities/keyListing``:
  /// a chain's are its back's), loading and removing through the store itself.
  public static func collect(in store: some NormalizedCache, keys: some KeyListing) throws -> Report {
    var report = Report()
    var frontier = RootKey.all.sorted()
    var queued = Set(frontier)
    var reachable: Set<CacheKey> = []
    var missing: [CacheKey] = []
    // How many times reachable records reference each key.
    var references: [CacheKey: Int] = [:]
    while !frontier.isEmpty {
      var next: [CacheKey] = []
      for (key, record) in zip(frontier, try store.loadRecordsInOrder(forKeys: frontier)) {
        guard let record else {
          missing.append(key)
          continue
        }
        reachable.insert(key)
        for field in record.fields {
          for target in field.value.referencedKeys {
            references[target, default: 0] += 1
            if queued.insert(target).inserted { next.append(target) }
          }
        }
      }
      frontier = next
    }
    report.reachable = reachable.count
    // A root the store does not have is referenced by nothing, so it counts for nothing.
    report.danglingReferences = missing.reduce(0) { $0 + (references[$1] ?? 0) }
    let unreachable = try keys.allKeys().filter { !reachable.contains($0) }.sorted()
    if !unreachable.isEmpty {
      for record in try store.loadRecordsInOrder(forKeys: unreachable) {
        guard let record else { continue }
        report.recordsRemoved += 1
        report.bytesFreed += record.key.utf8.count + record.encodedFields.count
      }
      try store.removeRecords(forKeys: unreachable)
    }
    return report
  }
}
