import Generator
import Measurement
import NormalizedCache
import Results
import Workloads

/// The store-level benchmark, without the normalizer: `count` ten-field `Item` records merged into
/// an empty store, merged again unchanged, loaded in batches, loaded all at once, and looked up
/// one by one; then what the store holds. Batch loads go through `loadRecordsInOrder(forKeys:)`,
/// the reader's path; point lookups through `loadRecords(forKeys:)`, as in every workload.
///
/// Its rows carry the key strategy `typePolicy`: the records are keyed `Item:N`, as a type policy
/// keys them.
struct StoreRecordsBenchmark {
  let workload: Workload
  let config: StoreRecordsConfig
  let factory: StoreFactory
  let progress: Progress

  /// The keys of the records, in batches and as random point lookups.
  private struct Keys {
    let all: [CacheKey]
    let batches: [[CacheKey]]
    let points: [CacheKey]
  }

  func run(into sink: inout MetricSink) throws {
    let all = ItemRecords.make(count: config.count, seed: workload.seed).keys
    var random = SplitMix64(seed: workload.seed ^ 0x51)
    let keys = Keys(
      all: all,
      batches: stride(from: 0, to: all.count, by: config.batch).map { Array(all[$0..<min($0 + config.batch, all.count)]) },
      points: (0..<config.pointLoads).map { _ in all[Int(random.next() % UInt64(all.count))] })
    for spec in workload.measuredStores {
      progress.setContext("\(workload.name) \(spec.label)")
      let scope = MetricSink.Scope(variant: "", store: spec.label, keys: "typePolicy")
      let allocations = try countAllocations(spec, firstBatch: keys.batches[0])
      var footprint: Footprint?
      let harness = Harness(warmup: workload.warmup, repetitions: workload.repetitions)
      let timings = try harness.run(make: { try factory.make(spec) }, cleanUp: factory.removeFiles) { store, repetition in
        footprint = try measureMerges(store, spec, &repetition)
        try measureLoads(store, spec, keys, &repetition)
        if repetition.isMeasured { footprint?.settledBytes = try store.settledBytes() }
      }
      sink.add(scope, timings)
      sink.add(scope, allocations)
      guard let footprint else { continue }
      sink.add(scope, footprint)
      sink.add(scope, .records, value: Double(footprint.recordCount))
      sink.add(scope, .storeBytes, value: Double(footprint.storeBytes))
    }
  }

  /// Allocations of the first merge and of one batch load, in a pass of their own.
  private func countAllocations(_ spec: StoreSpec, firstBatch: [CacheKey]) throws -> MetricSamples {
    defer { factory.removeFiles() }
    do {
      // Once, uncounted: the Swift runtime's first-use allocations (see StrategyMeasurement).
      let store = try factory.make(spec)
      try store.merge(records: ItemRecords.make(count: min(config.count, 100), seed: workload.seed))
      _ = try store.loadRecordsInOrder(forKeys: firstBatch)
    }
    factory.removeFiles()
    let counter = try AllocationCounter()
    let store = try factory.make(spec)
    let records = ItemRecords.make(count: config.count, seed: workload.seed)
    let merge = try counter.counted { try store.merge(records: records) }
    let load = try counter.counted { try store.loadRecordsInOrder(forKeys: firstBatch) }
    var samples = MetricSamples()
    samples.append(Double(merge.count) / Double(config.count), to: .mergeAllocationsPerRecord)
    samples.append(Double(load.count), to: .loadAllocationsPerBatch)
    return samples
  }

  /// The records merged into the empty store, then merged again unchanged; returns the footprint
  /// after the first merge.
  private func measureMerges(_ store: any StoreFootprint, _ spec: StoreSpec, _ repetition: inout Repetition) throws -> Footprint {
    // The records are made after the store and released before the footprint is read, so the
    // store owns their buffers, as it does after a real write.
    var records: RecordSet? = ItemRecords.make(count: config.count, seed: workload.seed)
    progress.update("\(repetition.label), merging \(config.count) records")
    try repetition.time(.mergeNewPerRecord, per: config.count) { try store.merge(records: records!) }
    records = nil
    let footprint = try store.footprint(liveBytes: repetition.isMeasured ? try repetition.liveBytes() : 0)
    guard footprint.recordCount == config.count else {
      throw RunError("\(spec.label) holds \(footprint.recordCount) records after merging \(config.count)")
    }
    records = ItemRecords.make(count: config.count, seed: workload.seed)
    progress.update("\(repetition.label), merging them again")
    let unchanged = try repetition.time(.mergeUnchangedPerRecord, per: config.count) { try store.merge(records: records!) }
    guard unchanged.isEmpty else { throw RunError("\(spec.label) changed \(unchanged.count) fields on an identical merge") }
    return footprint
  }

  /// Loads in batches, of every key at once, and of one key at a time.
  private func measureLoads(_ store: any StoreFootprint, _ spec: StoreSpec, _ keys: Keys, _ repetition: inout Repetition) throws {
    progress.update("\(repetition.label), loading in batches of \(config.batch)")
    for batch in keys.batches {
      let loaded = try repetition.time(.loadBatchPerKey, per: batch.count) { try store.loadRecordsInOrder(forKeys: batch) }
      try expectAll(loaded.count { $0 != nil }, of: batch.count, spec)
    }
    progress.update("\(repetition.label), loading all keys")
    let loaded = try repetition.time(.loadAllPerKey, per: keys.all.count) { try store.loadRecordsInOrder(forKeys: keys.all) }
    try expectAll(loaded.count { $0 != nil }, of: keys.all.count, spec)
    progress.update("\(repetition.label), point lookups")
    for key in keys.points {
      let found = try repetition.time(.pointLookup) { try store.loadRecords(forKeys: [key]) }
      try expectAll(found.count, of: 1, spec)
    }
  }

  private func expectAll(_ loaded: Int, of count: Int, _ spec: StoreSpec) throws {
    guard loaded == count else { throw RunError("\(spec.label) loaded \(loaded) of \(count) records") }
  }
}
