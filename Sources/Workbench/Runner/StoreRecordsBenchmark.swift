import NormalizedCache

/// The store-level benchmark, without the normalizer: `count` ten-field `Item` records merged into
/// an empty store, merged again unchanged, loaded in batches, loaded all at once, and loaded one
/// by one; then what the store holds. Loads go through `loadRecordsInOrder(forKeys:)`, the
/// reader's path.
///
/// Its rows carry the key strategy `typePolicy`: the records are keyed `Item:N`, as a type policy
/// keys them.
struct StoreRecordsBenchmark {
  let workload: Workload
  let config: StoreRecordsConfig
  let factory: StoreFactory
  let progress: Progress

  func run(into sink: inout MetricSink) throws {
    var records: RecordSet? = ItemRecords.make(count: config.count, seed: workload.seed)
    let keys = records!.keys
    var random = SplitMix64(seed: workload.seed ^ 0x51)
    let pointKeys = (0..<config.pointLoads).map { _ in keys[Int(random.next() % UInt64(keys.count))] }
    let batches = stride(from: 0, to: keys.count, by: config.batch).map { Array(keys[$0..<min($0 + config.batch, keys.count)]) }
    let counter = try AllocationCounter()

    for spec in workload.stores {
      progress.setContext("\(workload.name) \(spec.label)")
      let scope = MetricSink.Scope(variant: "", store: spec.label, keys: .typePolicy)
      // Allocations, in a pass of their own.
      var mergeAllocations = 0
      var loadAllocations = 0
      do {
        let store = try factory.make(spec)
        let all = ItemRecords.make(count: config.count, seed: workload.seed)
        mergeAllocations = try counter.measureAllocations { try store.merge(records: all) }.count
        loadAllocations = try counter.measureAllocations { _ = try store.loadRecordsInOrder(forKeys: batches[0]) }.count
      }
      factory.removeFiles()

      var mergeNew: [Double] = []
      var mergeUnchanged: [Double] = []
      var batchLoads: [Double] = []
      var loadAll: [Double] = []
      var points: [Double] = []
      batchLoads.reserveCapacity(batches.count * workload.repetitions)
      points.reserveCapacity(pointKeys.count * workload.repetitions)
      var footprint = Footprint()
      var recordCount = 0
      for repetition in 0..<(workload.warmup + workload.repetitions) {
        let isMeasured = repetition >= workload.warmup
        // The records are made after the baseline and released before the footprint is read, so
        // the store owns their buffers, as it does after a real write.
        records = nil
        try Jemalloc.refreshStatistics()
        let baseline = try Jemalloc.allocatedBytes()
        let store = try factory.make(spec)
        records = ItemRecords.make(count: config.count, seed: workload.seed)
        progress.update("merging \(config.count) records")
        let newTime = try MonotonicClock.time { try store.merge(records: records!) }
        records = nil
        let statistics = try store.statistics()
        recordCount = statistics.recordCount
        guard recordCount == config.count else {
          throw RunError("\(spec.label) holds \(recordCount) records after merging \(config.count)")
        }
        if isMeasured {
          try Jemalloc.refreshStatistics()
          footprint = Footprint(liveBytes: try Jemalloc.allocatedBytes() - baseline, statistics: statistics)
        }
        records = ItemRecords.make(count: config.count, seed: workload.seed)
        progress.update("merging them again")
        var unchanged = ChangedKeys()
        let unchangedTime = try MonotonicClock.time { unchanged = try store.merge(records: records!) }
        guard unchanged.isEmpty else { throw RunError("\(spec.label) changed \(unchanged.count) fields on an identical merge") }
        progress.update("loading in batches of \(config.batch)")
        for batch in batches {
          var loaded = 0
          let time = try MonotonicClock.time { loaded = try store.loadRecordsInOrder(forKeys: batch).count { $0 != nil } }
          guard loaded == batch.count else { throw RunError("\(spec.label) loaded \(loaded) of \(batch.count) records") }
          if isMeasured { batchLoads.append(Double(time) / Double(batch.count)) }
        }
        progress.update("loading all keys")
        var loadedAll = 0
        let allTime = try MonotonicClock.time { loadedAll = try store.loadRecordsInOrder(forKeys: keys).count { $0 != nil } }
        guard loadedAll == keys.count else { throw RunError("\(spec.label) loaded \(loadedAll) of \(keys.count) records") }
        progress.update("point loads")
        for key in pointKeys {
          let time = try MonotonicClock.time { _ = try store.loadRecordsInOrder(forKeys: [key]) }
          if isMeasured { points.append(Double(time)) }
        }
        if isMeasured {
          mergeNew.append(Double(newTime) / Double(config.count))
          mergeUnchanged.append(Double(unchangedTime) / Double(config.count))
          loadAll.append(Double(allTime) / Double(keys.count))
          try footprint.checkpoint(store)
        }
        factory.removeFiles()
      }

      sink.add(scope, .merge, "merge_new_per_record", unit: .ns, deterministic: false, samples: mergeNew)
      sink.add(scope, .merge, "merge_unchanged_per_record", unit: .ns, deterministic: false, samples: mergeUnchanged)
      sink.add(scope, .merge, "allocations_per_record", unit: .count, deterministic: true, value: Double(mergeAllocations) / Double(config.count))
      sink.add(scope, .lookup, "load_batch_per_key", unit: .ns, deterministic: false, samples: batchLoads)
      sink.add(scope, .lookup, "load_all_per_key", unit: .ns, deterministic: false, samples: loadAll)
      sink.add(scope, .lookup, "point_lookup", unit: .ns, deterministic: false, samples: points)
      sink.add(scope, .lookup, "allocations_per_batch", unit: .count, deterministic: true, value: Double(loadAllocations))
      let storeBytes = footprint.addRows(to: &sink, scope, kind: spec.kind, records: recordCount)
      sink.add(scope, .dedup, "records", unit: .count, deterministic: true, value: Double(recordCount))
      sink.add(scope, .dedup, "store_bytes", unit: .bytes, deterministic: true, value: Double(storeBytes))
    }
  }
}
