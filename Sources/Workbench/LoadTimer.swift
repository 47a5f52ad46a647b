import Measurement
import NormalizedCache
import Synchronization

/// A store that adds up the time spent in its loads: the reader's "time inside store loads"
/// (docs/metrics.md, `load_time`), taken during the timed reads.
///
/// Read latency pays two clock reads and one relaxed atomic add per load (tens of nanoseconds,
/// against milliseconds per read), and no lock. Timing the loads in a second pass of the reads
/// instead was tried: the same loads read much slower for the in-memory store on a second pass
/// over the same records (calendar.json), so load_time would no longer be the first read's.
final class LoadTimer: NormalizedCache {
  let base: any NormalizedCache
  private let loadNanoseconds = Atomic<UInt64>(0)

  init(_ base: any NormalizedCache) {
    self.base = base
  }

  /// Nanoseconds spent in loads since the last call; resets the count.
  func takeLoadNanoseconds() -> UInt64 {
    loadNanoseconds.exchange(0, ordering: .relaxed)
  }

  func loadRecords(forKeys keys: [CacheKey]) throws -> [CacheKey: Record] {
    let (records, elapsed) = try MonotonicClock.timed { try base.loadRecords(forKeys: keys) }
    loadNanoseconds.add(elapsed, ordering: .relaxed)
    return records
  }

  func loadRecordsInOrder(forKeys keys: [CacheKey]) throws -> [Record?] {
    let (records, elapsed) = try MonotonicClock.timed { try base.loadRecordsInOrder(forKeys: keys) }
    loadNanoseconds.add(elapsed, ordering: .relaxed)
    return records
  }

  /// The store's own consistent read, each of its loads timed: a read through the timer takes the
  /// path it takes without it (the store's lock or transaction held across the read).
  func withConsistentRead<Result>(_ body: (any RecordSnapshot) throws -> Result) throws -> Result {
    try base.withConsistentRead { snapshot in try body(TimedSnapshot(base: snapshot, timer: self)) }
  }

  private struct TimedSnapshot: RecordSnapshot {
    let base: any RecordSnapshot
    let timer: LoadTimer
    func loadRecordsInOrder(forKeys keys: [CacheKey]) throws -> [Record?] {
      let (records, elapsed) = try MonotonicClock.timed { try base.loadRecordsInOrder(forKeys: keys) }
      timer.loadNanoseconds.add(elapsed, ordering: .relaxed)
      return records
    }
    /// The store's own lending (the reader's path), timed.
    func lendRecords(forKeys keys: [CacheKey], to lent: inout LentRecords) throws {
      let (_, elapsed) = try MonotonicClock.timed { try base.lendRecords(forKeys: keys, to: &lent) }
      timer.loadNanoseconds.add(elapsed, ordering: .relaxed)
    }
    /// The store's own projected lending, timed: without it a projected read through the timer
    /// took the protocol's default, the whole records.
    func lendRecords(forKeys keys: [CacheKey], projection: FieldProjection, to lent: inout LentRecords) throws {
      let (_, elapsed) = try MonotonicClock.timed { try base.lendRecords(forKeys: keys, projection: projection, to: &lent) }
      timer.loadNanoseconds.add(elapsed, ordering: .relaxed)
    }
  }

  @discardableResult
  func merge(records: RecordSet) throws -> ChangedKeys { try base.merge(records: records) }
  func removeRecord(for key: CacheKey) throws { try base.removeRecord(for: key) }
  func removeRecords(matching pattern: String) throws { try base.removeRecords(matching: pattern) }
  func clear() throws { try base.clear() }
}
