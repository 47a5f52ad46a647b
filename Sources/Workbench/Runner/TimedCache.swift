import NormalizedCache
import Synchronization

/// A store that times its loads: the reader's "time inside store loads" (SPEC §5, lookup).
final class TimedCache: NormalizedCache {
  let base: any NormalizedCache
  private let loadNanoseconds = Mutex<UInt64>(0)

  init(_ base: any NormalizedCache) {
    self.base = base
  }

  /// Nanoseconds spent in `loadRecords` since the last call, and resets the count.
  func takeLoadNanoseconds() -> UInt64 {
    loadNanoseconds.withLock { value in
      defer { value = 0 }
      return value
    }
  }

  func loadRecords(forKeys keys: [CacheKey]) throws -> [CacheKey: Record] {
    let start = MonotonicClock.now()
    let records = try base.loadRecords(forKeys: keys)
    let elapsed = MonotonicClock.now() - start
    loadNanoseconds.withLock { $0 += elapsed }
    return records
  }

  func loadRecordsInOrder(forKeys keys: [CacheKey]) throws -> [Record?] {
    let start = MonotonicClock.now()
    let records = try base.loadRecordsInOrder(forKeys: keys)
    let elapsed = MonotonicClock.now() - start
    loadNanoseconds.withLock { $0 += elapsed }
    return records
  }

  @discardableResult
  func merge(records: RecordSet) throws -> ChangedKeys { try base.merge(records: records) }
  func removeRecord(for key: CacheKey) throws { try base.removeRecord(for: key) }
  func removeRecords(matching pattern: String) throws { try base.removeRecords(matching: pattern) }
  func clear() throws { try base.clear() }
  func statistics() throws -> StoreStatistics { try base.statistics() }
}
