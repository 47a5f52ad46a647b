import Synchronization

/// Records in process memory, as Apollo iOS's `InMemoryNormalizedCache`.
///
/// Each record is held as its key and one buffer of ``RecordCodec``-encoded fields, so a load
/// hands out the stored buffer (a reference count, no copy) and a merge of an unchanged record is
/// one comparison of bytes. One lock serializes access, as Apollo's store does.
///
/// ```swift
/// let cache = InMemoryNormalizedCache()
/// let changed = try cache.merge(records: normalized.records)
/// let records = try cache.loadRecords(forKeys: ["QUERY_ROOT"])
/// ```
public final class InMemoryNormalizedCache: NormalizedCache {
  private struct State: ~Copyable {
    var records = RecordTable()
    var payloadBytes = 0
  }

  private let state = Mutex(State())

  public init() {}

  /// - Complexity: O(k) for k keys: one hash lookup each.
  public func loadRecords(forKeys keys: [CacheKey]) -> [CacheKey: Record] {
    var result: [CacheKey: Record] = [:]
    result.reserveCapacity(keys.count)
    for record in loadRecordsInOrder(forKeys: keys) {
      if let record { result[record.key] = record }
    }
    return result
  }

  public func loadRecordsInOrder(forKeys keys: [CacheKey]) -> [Record?] {
    state.withLock { $0.records.load(keys) }
  }

  @discardableResult
  public func merge(records: RecordSet) -> ChangedKeys {
    state.withLock { state in
      var changed = ChangedKeys()
      for record in records {
        if let index = state.records.index(of: record.key) {
          let existing = state.records.slots[index].fields!
          guard let (merged, fields) = RecordCodec.merge(existing: existing, new: record.encodedFields) else {
            continue
          }
          state.payloadBytes += merged.count - existing.count
          state.records.update(at: index, fields: merged)
          changed.insert(fields: fields, of: record.key)
        } else {
          state.records.insert(record.key, fields: record.encodedFields)
          state.payloadBytes += record.key.utf8.count + record.encodedFields.count
          changed.insertAllFields(of: record)
        }
      }
      return changed
    }
  }

  public func removeRecord(for key: CacheKey) {
    state.withLock { state in
      if let removed = state.records.remove(key) {
        state.payloadBytes -= key.utf8.count + removed.count
      }
    }
  }

  public func removeRecords(matching pattern: String) {
    state.withLock { state in
      let matching = state.records.slots.compactMap { $0.fields != nil && KeyPattern.matches($0.key, pattern) ? $0.key : nil }
      for key in matching {
        if let removed = state.records.remove(key) {
          state.payloadBytes -= key.utf8.count + removed.count
        }
      }
    }
  }

  public func clear() {
    state.withLock { state in
      state.records.removeAll()
      state.payloadBytes = 0
    }
  }

  /// How many records the store holds, and their payload.
  public func statistics() -> Statistics {
    state.withLock { Statistics(recordCount: $0.records.count, payloadBytes: $0.payloadBytes) }
  }

  /// Counts and sizes of what an ``InMemoryNormalizedCache`` holds.
  public struct Statistics: Sendable, Hashable {
    /// How many records the store holds.
    public var recordCount: Int
    /// Bytes of keys and encoded fields held: the payload, before any overhead of the store.
    public var payloadBytes: Int
  }

  /// Every key, for tests and listings.
  public var allKeys: [CacheKey] {
    state.withLock { state in state.records.slots.compactMap { $0.fields == nil ? nil : $0.key } }
  }
}
