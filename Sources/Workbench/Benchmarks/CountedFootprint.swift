import NormalizedCache
import Workloads

extension NormalizedCache {
  /// What the store holds after its records of `keys` were merged: its own footprint, or for a
  /// store that reports none (no ``StoreCapabilities/footprint``) the records of `keys`
  /// it still holds, loaded back, their keys' and fields' bytes as the payload and `liveBytes` as
  /// the store's bytes (docs/metrics.md#footprint). The keys are made only then, after
  /// `liveBytes` was read.
  func footprint(of keys: () -> [CacheKey], liveBytes: Int) throws -> Footprint {
    if let own = capabilities.footprint { return try own.footprint(liveBytes: liveBytes) }
    let held = try loadRecordsInOrder(forKeys: keys()).compactMap { $0 }
    return Footprint(
      recordCount: held.count, payloadBytes: held.reduce(0) { $0 + $1.key.utf8.count + $1.encodedFields.count },
      storeBytes: liveBytes, details: [("live_bytes", liveBytes)])
  }
}
