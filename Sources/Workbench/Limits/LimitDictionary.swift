import NormalizedCache
import Synchronization
import Workloads

/// The limit an in-memory cache is measured against (docs/metrics.md, `limit-dictionary`): each
/// record's encoded bytes in a plain `[CacheKey: [UInt8]]`, written with one subscript assignment
/// and read with one lookup per key.
///
/// It is not a cache: a merge replaces each record whole, without comparing or merging fields,
/// and reports no changed keys.
final class LimitDictionary: NormalizedCache {
  private let table = Mutex<[CacheKey: [UInt8]]>([:])

  func merge(records: RecordSet) -> ChangedKeys {
    table.withLock { table in
      for record in records { table[record.key] = record.encodedFields }
    }
    return ChangedKeys()
  }

  func loadRecords(forKeys keys: [CacheKey]) -> [CacheKey: Record] {
    table.withLock { table in
      var records: [CacheKey: Record] = [:]
      records.reserveCapacity(keys.count)
      for key in keys {
        if let fields = table[key] { records[key] = Record(key: key, uncheckedEncodedFields: fields) }
      }
      return records
    }
  }

  func loadRecordsInOrder(forKeys keys: [CacheKey]) -> [Record?] {
    table.withLock { table in keys.map { key in table[key].map { Record(key: key, uncheckedEncodedFields: $0) } } }
  }

  func removeRecord(for key: CacheKey) {
    table.withLock { _ = $0.removeValue(forKey: key) }
  }

  func removeRecords(matching pattern: String) {
    let pattern = KeyPattern(pattern)
    table.withLock { table in table = table.filter { !pattern.matches($0.key) } }
  }

  func clear() {
    table.withLock { $0.removeAll() }
  }

  /// Records, and their keys' and bytes' total.
  var statistics: (records: Int, payloadBytes: Int) {
    table.withLock { table in
      (table.count, table.reduce(0) { $0 + $1.key.utf8.count + $1.value.count })
    }
  }
}

extension LimitDictionary: FootprintReporting {
  var capabilities: StoreCapabilities { StoreCapabilities(footprint: self) }

  func footprint(liveBytes: Int) -> Footprint {
    let statistics = statistics
    return Footprint(
      recordCount: statistics.records, payloadBytes: statistics.payloadBytes, storeBytes: liveBytes,
      details: [("live_bytes", liveBytes)])
  }
}
