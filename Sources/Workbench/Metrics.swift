import NormalizedCache
import Results
import Workloads

/// `numerator / denominator`, 0 when the denominator is.
func ratio(_ numerator: Int, _ denominator: Int) -> Double {
  denominator == 0 ? 0 : Double(numerator) / Double(denominator)
}

extension MetricSamples {
  /// One sample of a single-valued metric.
  mutating func append(_ value: Int, to metric: Metric) {
    append(Double(value), to: metric)
  }

  /// The footprint rows of one store (docs/metrics.md): the store's own, then bytes per record
  /// (after the checkpoint too, where there is one) and the payload.
  mutating func append(_ footprint: Footprint) {
    for detail in footprint.details { append(detail.bytes, to: .footprint(detail.metric)) }
    if let settledBytes = footprint.settledBytes {
      append(settledBytes, to: .dbBytesCheckpointed)
      append(ratio(settledBytes, footprint.recordCount), to: .bytesPerRecordCheckpointed)
    }
    append(ratio(footprint.storeBytes, footprint.recordCount), to: .bytesPerRecord)
    append(footprint.payloadBytes, to: .payloadBytes)
  }
}
