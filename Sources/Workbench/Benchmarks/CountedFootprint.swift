import NormalizedCache
import Workloads

extension MeasuredStore {
  /// What the store holds after its records of `keys` were merged: its own footprint, or for a
  /// store that reports none (``MeasuredStore/footprint(liveBytes:)`` nil) the records of `keys`
  /// it still holds, loaded back, their keys' and fields' bytes as the payload and `liveBytes` as
  /// the store's bytes (docs/metrics.md#footprint). The keys are made only then, after
  /// `liveBytes` was read.
  func footprint(of keys: () -> [CacheKey], liveBytes: Int) throws -> Footprint {
    if let own = try footprint(liveBytes: liveBytes) { return own }
    let held = try loadRecordsInOrder(forKeys: keys()).compactMap { $0 }
    return Footprint(
      recordCount: held.count, payloadBytes: held.reduce(0) { $0 + $1.key.utf8.count + $1.encodedFields.count },
      storeBytes: liveBytes, details: [("live_bytes", liveBytes)])
  }
}
