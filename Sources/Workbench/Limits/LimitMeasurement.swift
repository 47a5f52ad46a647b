import Measurement
import NormalizedCache
import Results
import Workloads

/// Measures a limit store (SPEC §5, `"limits": true`) on one variant's responses under one key
/// strategy: the records the normalizer makes of each response (normalized untimed) written into
/// the store, timed as `merge` `latency`; then, per response, the records it wrote loaded by their
/// keys, timed as `read` `latency`. A read must find every key. Then the footprint and records,
/// as for a store.
///
/// The limit stores replace records whole: what a real store costs beyond them is its merge
/// rules, its layout and, in a read, executing the operation.
struct LimitMeasurement {
  let source: PreparedSource
  let spec: StoreSpec
  let strategy: KeyStrategy
  let workload: Workload
  let scope: MetricSink.Scope
  let factory: StoreFactory
  let progress: Progress

  func run(into sink: inout MetricSink) throws {
    let normalizer = Normalizer(strategy: strategy)
    // The keys each response writes, from a pass of their own: strings the store's records do not
    // share, so that they stay out of its live bytes.
    var keys: [[CacheKey]] = []
    var rootKeys: Set<CacheKey> = []
    for (index, item) in source.items.enumerated() {
      progress.update("\(spec.label): keys of response \(index + 1)/\(source.items.count)")
      keys.append(try normalizer.normalize(try item.response(), plan: item.plan).records.keys)
      rootKeys.insert(item.plan.rootKey)
    }
    var footprint: Footprint?
    let harness = Harness(warmup: workload.warmup, repetitions: workload.repetitions)
    let timings = try harness.run(make: { try factory.make(spec) }, cleanUp: factory.removeFiles) { store, repetition in
      for (index, item) in source.items.enumerated() {
        progress.update("\(repetition.label), write \(index + 1)/\(source.items.count)")
        let records = try normalizer.normalize(try item.response(), plan: item.plan).records
        try repetition.time(.mergeLatency) { try store.merge(records: records) }
      }
      let written = try store.footprint(liveBytes: repetition.isMeasured ? try repetition.liveBytes() : 0)
      for (index, item) in source.items.enumerated() {
        progress.update("\(repetition.label), read \(index + 1)/\(source.items.count)")
        let loaded = try repetition.time(.readLatency) { try store.loadRecordsInOrder(forKeys: keys[index]) }
        if let missing = zip(keys[index], loaded).first(where: { $0.1 == nil })?.0 {
          throw RunError("\(spec.label) × \(strategy.name.rawValue), \(item.label): the limit store lost \(missing)")
        }
      }
      if repetition.isMeasured {
        footprint = written
        footprint?.settledBytes = try store.settledBytes()
      }
    }
    sink.add(scope, timings)
    guard let footprint else { return }
    sink.add(scope, footprint)
    sink.add(scope, .records, value: Double(footprint.recordCount - rootKeys.count))
    sink.add(scope, .storeBytes, value: Double(footprint.storeBytes))
  }
}

extension WorkloadResult {
  /// Each store's timings against its limit's (SPEC §5, `"limits": true`): for every timing row of
  /// a store whose limit store has the same metric (same variant and key strategy), a row
  /// `<metric>_vs_limit` in the same phase, the limit's p50 over the store's: 1 is as fast as
  /// storing the bytes at all, 0.25 four times slower.
  static func limitRatios(_ rows: [MetricRow], stores: [StoreSpec]) -> [MetricRow] {
    let limits = Dictionary(
      stores.compactMap { store in store.kind.limit.map { (store.label, $0.name) } }, uniquingKeysWith: { first, _ in first })
    guard stores.contains(where: \.kind.isLimit) else { return [] }
    var byKey: [MetricKey: MetricRow] = [:]
    for row in rows { byKey[row.key] = row }
    return rows.compactMap { row -> MetricRow? in
      guard row.unit == .ns, let limit = limits[row.key.store] else { return nil }
      var limitKey = row.key
      limitKey.store = limit
      guard let limitRow = byKey[limitKey], row.summary.p50 > 0 else { return nil }
      var key = row.key
      key.metric += "_vs_limit"
      let ratio = limitRow.summary.p50 / row.summary.p50
      return MetricRow(
        run: row.run, key: key, unit: .ratio, better: .higher, deterministic: false, summary: Summary([ratio])!)
    }
  }
}
