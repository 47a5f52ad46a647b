import Measurement
import NormalizedCache
import Results
import Workloads

/// Measures a limit store (docs/metrics.md, `"limits": true`) on one variant's responses under one
/// key strategy: the records the normalizer makes of each response (normalized untimed) written
/// into the store, timed as `merge` `latency`; then, per response, the records it wrote loaded by
/// their keys, timed as `read` `latency`. A read must find every key. Then the footprint and
/// records, as for a store.
///
/// The limit stores replace records whole: what a real store costs beyond them is its merge
/// rules, its layout and, in a read, executing the operation.
struct LimitBenchmark: Benchmark {
  let configuration: Configuration
  let source: PreparedSource
  let context: ExecutionContext

  init?(_ configuration: Configuration, _ context: ExecutionContext) {
    guard case .limit = configuration.spec.role, case .responses(let source) = configuration.source else { return nil }
    self.configuration = configuration
    self.source = source
    self.context = context
  }

  func measure(into samples: inout MetricSamples) throws {
    let normalizer = Normalizer(strategy: configuration.strategy.strategy)
    let (progress, factory, workload) = (context.progress, context.factory, context.workload)
    let label = configuration.spec.label
    // The keys each response writes, from a pass of their own: strings the store's records do not
    // share, so that they stay out of its live bytes.
    var keys: [[CacheKey]] = []
    var rootKeys: Set<CacheKey> = []
    for (index, item) in source.items.enumerated() {
      progress.update("\(label): keys of response \(index + 1)/\(source.items.count)")
      keys.append(try normalizer.normalize(try item.response(), plan: item.plan).records.keys)
      rootKeys.insert(item.plan.rootKey)
    }
    var footprint: Footprint?
    let harness = Harness(warmup: workload.warmup, repetitions: workload.repetitions)
    let timings = try harness.run(make: { try factory.make(configuration) }, cleanUp: factory.removeFiles) { store, repetition in
      for (index, item) in source.items.enumerated() {
        progress.update("\(repetition.label), write \(index + 1)/\(source.items.count)")
        let records = try normalizer.normalize(try item.response(), plan: item.plan).records
        try repetition.time(.mergeLatency) { try store.merge(records: records) }
      }
      // The limit stores measure themselves.
      let written = try store.capabilities.footprint?.footprint(liveBytes: repetition.isMeasured ? try repetition.liveBytes() : 0)
      for (index, item) in source.items.enumerated() {
        progress.update("\(repetition.label), read \(index + 1)/\(source.items.count)")
        let loaded = try repetition.time(.readLatency) { try store.loadRecordsInOrder(forKeys: keys[index]) }
        if let missing = zip(keys[index], loaded).first(where: { $0.1 == nil })?.0 {
          throw RunError("\(configuration.context(workload: workload.name)), \(item.label): the limit store lost \(missing)")
        }
      }
      if repetition.isMeasured {
        footprint = written
        footprint?.settledBytes = try store.capabilities.footprint?.settledBytes()
      }
    }
    samples.append(contentsOf: timings)
    guard let footprint else { return }
    samples.append(footprint)
    samples.append(footprint.recordCount - rootKeys.count, to: .records)
    samples.append(footprint.storeBytes, to: .storeBytes)
  }
}
