import Foundation
import GraphQLLanguage
import NormalizedCache
import SQLiteCache

/// Measures one store under one key strategy on one variant's responses (SPEC §5):
/// 1. an allocation pass, untimed: allocations per write and per read, lookup counts, every
///    read-back checked against its response, and the keys written;
/// 2. warm-up and measured repetitions on fresh stores, timed: write, normalize, merge, read,
///    time in store loads, point lookups, field-policy lookups, and the footprint after the writes.
struct StrategyMeasurement {
  let source: PreparedSource
  let spec: StoreSpec
  let strategy: KeyStrategy
  let workload: Workload
  let scope: MetricSink.Scope
  let factory: StoreFactory
  let progress: Progress

  var useFieldPolicies: Bool { strategy.name != .path }

  func run(into sink: inout MetricSink) throws {
    let normalizer = Normalizer(strategy: strategy)
    let counter = try AllocationCounter()
    let items = source.items

    // 1. The allocation pass.
    var writeAllocations: [Double] = []
    var writeAllocatedBytes: [Double] = []
    var readAllocations: [Double] = []
    var readAllocatedBytes: [Double] = []
    var loadsPerRead: [Double] = []
    var keysPerRead: [Double] = []
    var hits = 0
    var requested = 0
    var objects = 0
    var writtenKeys: Set<CacheKey> = []
    var rootKeys: Set<CacheKey> = []
    do {
      let store = try factory.make(spec)
      let reader = CacheReader(cache: store, useFieldPolicies: useFieldPolicies)
      for (index, item) in items.enumerated() {
        progress.update("counting allocations, response \(index + 1)/\(items.count)")
        var normalized: NormalizedResponse?
        let write = try counter.measureAllocations {
          let result = try normalizer.normalize(item.response, plan: item.plan)
          try store.merge(records: result.records)
          normalized = result
        }
        writeAllocations.append(Double(write.count))
        writeAllocatedBytes.append(Double(write.bytes))
        if let normalized {
          objects += normalized.objectCount
          rootKeys.insert(item.plan.rootKey)
          for record in normalized.records { writtenKeys.insert(record.key) }
        }
        // Read right after the write: what this response wrote must read back exactly.
        var result: ReadResult?
        let read = try counter.measureAllocations { result = try reader.read(item.plan) }
        readAllocations.append(Double(read.count))
        readAllocatedBytes.append(Double(read.bytes))
        guard let result else { continue }
        try verify(result, item, strictly: true)
        loadsPerRead.append(Double(result.statistics.loads))
        keysPerRead.append(Double(result.statistics.keysRequested))
        hits += result.statistics.hits
        requested += result.statistics.keysRequested
      }
    }
    factory.removeFiles()

    let keys = writtenKeys.sorted()
    let lookupKeys = pointLookupKeys(keys)
    let policyLookups = try FieldPolicyLookups.make(
      schema: source.schema, keys: keys, count: useFieldPolicies ? workload.read.fieldPolicyLookups : 0,
      seed: workload.seed ^ 0xF1E1D)

    // 2. Timed repetitions.
    var writeTimes: [Double] = []
    var normalizeTimes: [Double] = []
    var mergeTimes: [Double] = []
    var readTimes: [Double] = []
    var loadTimes: [Double] = []
    var pointTimes: [Double] = []
    var policyTimes: [Double] = []
    var policyHits = 0
    let measured = workload.repetitions * items.count
    writeTimes.reserveCapacity(measured)
    normalizeTimes.reserveCapacity(measured)
    mergeTimes.reserveCapacity(measured)
    readTimes.reserveCapacity(measured)
    loadTimes.reserveCapacity(measured)
    pointTimes.reserveCapacity(workload.repetitions * lookupKeys.count)
    var footprint = Footprint()
    var recordCount = 0
    for repetition in 0..<(workload.warmup + workload.repetitions) {
      let isMeasured = repetition >= workload.warmup
      let label = isMeasured ? "repetition \(repetition - workload.warmup + 1)/\(workload.repetitions)" : "warm-up \(repetition + 1)/\(workload.warmup)"
      try Jemalloc.refreshStatistics()
      let baseline = try Jemalloc.allocatedBytes()
      let store = TimedCache(try factory.make(spec))
      for (index, item) in items.enumerated() {
        progress.update("\(label), write \(index + 1)/\(items.count)")
        let start = MonotonicClock.now()
        let normalized = try normalizer.normalize(item.response, plan: item.plan)
        let middle = MonotonicClock.now()
        try store.merge(records: normalized.records)
        let end = MonotonicClock.now()
        if isMeasured {
          normalizeTimes.append(Double(middle - start))
          mergeTimes.append(Double(end - middle))
          writeTimes.append(Double(end - start))
        }
      }
      let statistics = try store.statistics()
      recordCount = statistics.recordCount
      if isMeasured {
        try Jemalloc.refreshStatistics()
        footprint = Footprint(liveBytes: try Jemalloc.allocatedBytes() - baseline, statistics: statistics)
      }
      let reader = CacheReader(cache: store, useFieldPolicies: useFieldPolicies)
      _ = store.takeLoadNanoseconds()
      for (index, item) in items.enumerated() {
        progress.update("\(label), read \(index + 1)/\(items.count)")
        let start = MonotonicClock.now()
        let result = try reader.read(item.plan)
        let end = MonotonicClock.now()
        let loadTime = store.takeLoadNanoseconds()
        try verify(result, item, strictly: workload.read.verify)
        if isMeasured {
          readTimes.append(Double(end - start))
          loadTimes.append(Double(loadTime))
        }
      }
      progress.update("\(label), point lookups")
      for key in lookupKeys {
        let start = MonotonicClock.now()
        let found = try store.base.loadRecords(forKeys: [key])
        let end = MonotonicClock.now()
        guard found[key] != nil else { throw RunError("point lookup of \(key) in \(spec.label) under \(strategy.name.rawValue) found nothing") }
        if isMeasured { pointTimes.append(Double(end - start)) }
      }
      let policyReader = CacheReader(cache: store.base, useFieldPolicies: true)
      for lookup in policyLookups {
        let start = MonotonicClock.now()
        let result = try policyReader.read(lookup.plan)
        let end = MonotonicClock.now()
        if isMeasured {
          policyTimes.append(Double(end - start))
          if result.data != nil { policyHits += 1 }
        }
      }
      if isMeasured { try footprint.checkpoint(store.base) }
      factory.removeFiles()
    }

    // 3. The rows.
    let records = recordCount - rootKeys.count
    sink.add(scope, .write, "latency", unit: .ns, deterministic: false, samples: writeTimes)
    sink.add(scope, .normalize, "latency", unit: .ns, deterministic: false, samples: normalizeTimes)
    sink.add(scope, .merge, "latency", unit: .ns, deterministic: false, samples: mergeTimes)
    sink.add(scope, .read, "latency", unit: .ns, deterministic: false, samples: readTimes)
    sink.add(scope, .write, "allocations", unit: .count, deterministic: true, samples: writeAllocations)
    sink.add(scope, .write, "allocated_bytes", unit: .bytes, deterministic: true, samples: writeAllocatedBytes)
    sink.add(scope, .read, "allocations", unit: .count, deterministic: true, samples: readAllocations)
    sink.add(scope, .read, "allocated_bytes", unit: .bytes, deterministic: true, samples: readAllocatedBytes)
    sink.add(scope, .lookup, "loads_per_read", unit: .count, deterministic: true, samples: loadsPerRead)
    sink.add(scope, .lookup, "keys_per_read", unit: .count, deterministic: true, samples: keysPerRead)
    sink.add(scope, .lookup, "hit_ratio", unit: .ratio, better: .higher, deterministic: true, value: requested == 0 ? 0 : Double(hits) / Double(requested))
    sink.add(scope, .lookup, "load_time", unit: .ns, deterministic: false, samples: loadTimes)
    sink.add(scope, .lookup, "point_lookup", unit: .ns, deterministic: false, samples: pointTimes)
    if !policyLookups.isEmpty {
      sink.add(scope, .lookup, "field_policy_lookup", unit: .ns, deterministic: false, samples: policyTimes)
      sink.add(
        scope, .lookup, "field_policy_hit_ratio", unit: .ratio, better: .higher, deterministic: true,
        value: policyTimes.isEmpty ? 0 : Double(policyHits) / Double(policyTimes.count))
    }
    let storeBytes = footprint.addRows(to: &sink, scope, kind: spec.kind, records: recordCount)
    sink.add(scope, .dedup, "objects", unit: .count, better: .higher, deterministic: true, value: Double(objects))
    sink.add(scope, .dedup, "records", unit: .count, deterministic: true, value: Double(records))
    sink.add(scope, .dedup, "object_ratio", unit: .ratio, better: .higher, deterministic: true, value: records == 0 ? 0 : Double(objects) / Double(records))
    let responseBytes = source.responseBytes
    sink.add(scope, .dedup, "response_bytes", unit: .bytes, better: .higher, deterministic: true, value: Double(responseBytes))
    sink.add(scope, .dedup, "store_bytes", unit: .bytes, deterministic: true, value: Double(storeBytes))
    sink.add(scope, .dedup, "byte_ratio", unit: .ratio, better: .higher, deterministic: true, value: storeBytes == 0 ? 0 : Double(responseBytes) / Double(storeBytes))
  }

  /// Every read-back must equal the selected part of its response (SPEC §5): checked right after
  /// each write in the allocation pass, and again after all the writes unless the workload says
  /// `"read": {"verify": false}` (for recorded responses that disagree on the entities they share,
  /// where a later response rightly changes what an earlier one reads back).
  private func verify(_ result: ReadResult, _ item: ResponseItem, strictly: Bool) throws {
    guard strictly else { return }
    let context = "\(workload.name)\(scope.variant.isEmpty ? "" : " [\(scope.variant)]"), \(spec.label) × \(strategy.name.rawValue), \(item.label)"
    guard let data = result.data else {
      throw RunError("\(context): the read-back missed: \(result.miss.map(\.description) ?? "?")")
    }
    let expected = try item.expectedReadBack()
    if data != expected {
      let difference = JSONDifference.first(between: .object(expected), and: .object(data)) ?? "somewhere"
      throw RunError("\(context): the read-back differs from the response at \(difference)")
    }
  }

  /// Random existing keys, from the workload's seed.
  private func pointLookupKeys(_ keys: [CacheKey]) -> [CacheKey] {
    guard !keys.isEmpty, workload.read.pointLookups > 0 else { return [] }
    var random = SplitMix64(seed: workload.seed ^ 0x9E37)
    return (0..<workload.read.pointLookups).map { _ in keys[Int(random.next() % UInt64(keys.count))] }
  }
}

/// What a store held after the writes.
struct Footprint {
  var liveBytes = 0
  /// SQLite: `page_count × page_size` plus the WAL file (SPEC §5). In WAL mode `page_count`
  /// already counts the pages still in the WAL, so this is the disk in use, not the data.
  var databaseBytes = 0
  var walBytes = 0
  var sqliteHeapBytes = 0
  var payloadBytes = 0
  /// SQLite: the database file after a checkpoint that empties the WAL: the steady state.
  var checkpointedBytes: Int?

  init() {}

  init(liveBytes: Int, statistics: StoreStatistics) {
    self.liveBytes = liveBytes
    walBytes = statistics.walBytes ?? 0
    databaseBytes = (statistics.databaseBytes ?? 0) + walBytes
    sqliteHeapBytes = statistics.sqliteHeapBytes ?? 0
    payloadBytes = statistics.payloadBytes
  }

  /// Checkpoints a SQLite store and records its size then; nothing for other stores.
  mutating func checkpoint(_ store: any NormalizedCache) throws {
    guard let sqlite = store as? SQLiteNormalizedCache else { return }
    try sqlite.checkpoint()
    let statistics = try sqlite.statistics()
    checkpointedBytes = (statistics.databaseBytes ?? 0) + (statistics.walBytes ?? 0)
  }

  /// The footprint rows of a store (SPEC §5): live bytes for the memory store; database, WAL,
  /// heap and checkpointed bytes for SQLite; bytes per record and payload for both.
  /// - Returns: the store's bytes, what `bytes_per_record` divides.
  func addRows(to sink: inout MetricSink, _ scope: MetricSink.Scope, kind: StoreSpec.Kind, records: Int) -> Int {
    func add(_ metric: String, _ value: Double) {
      sink.add(scope, .footprint, metric, unit: .bytes, deterministic: true, value: value)
    }
    let storeBytes: Int
    switch kind {
    case .memory:
      storeBytes = liveBytes
      add("live_bytes", Double(liveBytes))
    case .sqlite:
      storeBytes = databaseBytes
      add("db_bytes", Double(databaseBytes))
      add("wal_bytes", Double(walBytes))
      add("sqlite_heap_bytes", Double(sqliteHeapBytes))
      if let checkpointedBytes {
        add("db_bytes_checkpointed", Double(checkpointedBytes))
        add("bytes_per_record_checkpointed", records == 0 ? 0 : Double(checkpointedBytes) / Double(records))
      }
    }
    add("bytes_per_record", records == 0 ? 0 : Double(storeBytes) / Double(records))
    add("payload_bytes", Double(payloadBytes))
    return storeBytes
  }
}

/// Where two JSON values first differ, as a path: `data.items.edges.3.node.title: "A" != "B"`.
enum JSONDifference {
  static func first(between expected: JSONValue, and actual: JSONValue, path: String = "data") -> String? {
    switch (expected, actual) {
    case (.object(let a), .object(let b)):
      for member in a {
        guard let other = b[member.key] else { return "\(path).\(member.key): missing from the read-back" }
        if let difference = first(between: member.value, and: other, path: "\(path).\(member.key)") { return difference }
      }
      for member in b where a[member.key] == nil { return "\(path).\(member.key): not in the response" }
      return nil
    case (.array(let a), .array(let b)):
      if a.count != b.count { return "\(path): \(a.count) elements in the response, \(b.count) read back" }
      for (index, pair) in zip(a, b).enumerated() {
        if let difference = first(between: pair.0, and: pair.1, path: "\(path).\(index)") { return difference }
      }
      return nil
    default:
      return expected == actual ? nil : "\(path): \(JSONWriter.string(expected)) in the response, \(JSONWriter.string(actual)) read back"
    }
  }
}
