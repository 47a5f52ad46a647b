import Generator
import Measurement
import NormalizedCache
import Results
import Support
import Workloads

/// The store-level benchmark, without the normalizer: `count` ten-field `Item` records merged into
/// an empty store, merged again unchanged, loaded in batches, loaded all at once, and looked up
/// one by one; then what the store holds. Batch loads go through `loadRecordsInOrder(forKeys:)`,
/// the reader's path; point lookups through `loadRecords(forKeys:)`, as in every workload.
///
/// Its rows carry the key strategy `typePolicy`: the records are keyed `Item:N`, as a type policy
/// keys them.
struct StoreRecordsBenchmark: Benchmark {
  let configuration: Configuration
  let config: StoreRecordsConfig
  let context: ExecutionContext

  init?(_ configuration: Configuration, _ context: ExecutionContext) {
    guard case .storeRecords(let config) = configuration.source else { return nil }
    self.configuration = configuration
    self.config = config
    self.context = context
  }

  var workload: Workload { context.workload }
  var factory: StoreFactory { context.factory }
  var progress: Progress { context.progress }
  var spec: StoreSpec { configuration.spec }

  /// The keys of the records, in batches and as random point lookups.
  private struct Keys {
    let all: [CacheKey]
    let batches: [[CacheKey]]
    let points: [CacheKey]
  }

  func measure(into sink: inout MetricSamples) throws {
    let all = ItemRecords.make(count: config.count, seed: workload.seed).keys
    var random = SplitMix64(seed: workload.seed ^ 0x51)
    let keys = Keys(
      all: all,
      batches: stride(from: 0, to: all.count, by: config.batch).map { Array(all[$0..<min($0 + config.batch, all.count)]) },
      points: (0..<config.pointLoads).map { _ in all[Int(random.next() % UInt64(all.count))] })
    let allocations = try countAllocations(firstBatch: keys.batches[0])
    var footprint: Footprint?
    let harness = Harness(warmup: workload.warmup, repetitions: workload.repetitions)
    let timings = try harness.run(make: { try factory.make(configuration) }, cleanUp: factory.removeFiles) { store, repetition in
      footprint = try measureMerges(store, &repetition)
      try measureLoads(store, keys, &repetition)
      if repetition.isMeasured { footprint?.settledBytes = try store.capabilities.footprint?.settledBytes() }
    }
    sink.append(contentsOf: timings)
    sink.append(contentsOf: allocations)
    guard let footprint else { return }
    sink.append(footprint)
    sink.append(footprint.recordCount, to: .records)
    sink.append(footprint.storeBytes, to: .storeBytes)
  }

  /// Allocations of the first merge and of one batch load, in a pass of their own.
  private func countAllocations(firstBatch: [CacheKey]) throws -> MetricSamples {
    defer { factory.removeFiles() }
    do {
      // Once, uncounted: the Swift runtime's first-use allocations (see CacheBenchmark).
      let store = try factory.make(configuration)
      try store.merge(records: ItemRecords.make(count: min(config.count, 100), seed: workload.seed, writtenAt: configuration.writtenAt))
      _ = try store.loadRecordsInOrder(forKeys: firstBatch)
    }
    factory.removeFiles()
    let counter = try AllocationCounter()
    let store = try factory.make(configuration)
    let records = ItemRecords.make(count: config.count, seed: workload.seed, writtenAt: configuration.writtenAt)
    let merge = try counter.counted { try store.merge(records: records) }
    let load = try counter.counted { try store.loadRecordsInOrder(forKeys: firstBatch) }
    var samples = MetricSamples()
    samples.append(Double(merge.count) / Double(config.count), to: .mergeAllocationsPerRecord)
    samples.append(Double(load.count), to: .loadAllocationsPerBatch)
    return samples
  }

  /// The records merged into the empty store, then merged again unchanged; returns the footprint
  /// after the first merge.
  private func measureMerges(_ store: any NormalizedCache, _ repetition: inout Repetition) throws -> Footprint {
    // The records are made after the store and released before the footprint is read, so the
    // store owns their buffers, as it does after a real write.
    var records: RecordSet? = ItemRecords.make(count: config.count, seed: workload.seed, writtenAt: configuration.writtenAt)
    progress.update("\(repetition.label), merging \(config.count) records")
    try repetition.time(.mergeNewPerRecord, per: config.count) { try store.merge(records: records!) }
    records = nil
    let liveBytes = repetition.isMeasured ? try repetition.liveBytes() : 0
    let footprint = try store.footprint(of: { ItemRecords.make(count: config.count, seed: workload.seed).keys }, liveBytes: liveBytes)
    guard footprint.recordCount == config.count else {
      throw RunError("\(spec.label) holds \(footprint.recordCount) records after merging \(config.count)")
    }
    records = ItemRecords.make(count: config.count, seed: workload.seed, writtenAt: configuration.writtenAt)
    progress.update("\(repetition.label), merging them again")
    let unchanged = try repetition.time(.mergeUnchangedPerRecord, per: config.count) { try store.merge(records: records!) }
    guard unchanged.isEmpty else { throw RunError("\(spec.label) changed \(unchanged.count) fields on an identical merge") }
    return footprint
  }

  /// Loads in batches, of every key at once, and of one key at a time.
  private func measureLoads(_ store: any NormalizedCache, _ keys: Keys, _ repetition: inout Repetition) throws {
    progress.update("\(repetition.label), loading in batches of \(config.batch)")
    for batch in keys.batches {
      let loaded = try repetition.time(.loadBatchPerKey, per: batch.count) { try store.loadRecordsInOrder(forKeys: batch) }
      try expectAll(loaded.count { $0 != nil }, of: batch.count)
    }
    progress.update("\(repetition.label), loading all keys")
    let loaded = try repetition.time(.loadAllPerKey, per: keys.all.count) { try store.loadRecordsInOrder(forKeys: keys.all) }
    try expectAll(loaded.count { $0 != nil }, of: keys.all.count)
    progress.update("\(repetition.label), point lookups")
    for key in keys.points {
      let found = try repetition.time(.pointLookup) { try store.loadRecords(forKeys: [key]) }
      try expectAll(found.count, of: 1)
    }
  }

  private func expectAll(_ loaded: Int, of count: Int) throws {
    guard loaded == count else { throw RunError("\(spec.label) loaded \(loaded) of \(count) records") }
  }
}
