import Generator
import GraphQLLanguage
import Measurement
import NormalizedCache
import Results
import Support
import Workloads

/// Measures a cache under one key strategy on one variant's responses (docs/metrics.md):
/// 1. an allocation pass, untimed: allocations per write and per read, lookup counts, every
///    read-back checked against its response, and the keys written;
/// 2. warm-up and measured repetitions on fresh stores, through the ``Harness``: write,
///    normalize, merge and read latency, time in store loads, point lookups, field-policy
///    lookups, and the footprint after the writes.
///
/// A bounded store may miss where the budget made it evict: its reads are checked where they
/// hit, and counted where they miss.
struct CacheBenchmark: Benchmark {
  let configuration: Configuration
  let source: PreparedSource
  let context: ExecutionContext

  init?(_ configuration: Configuration, _ context: ExecutionContext) {
    guard case .cache = configuration.spec.role, case .responses(let source) = configuration.source else { return nil }
    self.configuration = configuration
    self.source = source
    self.context = context
  }

  var spec: StoreSpec { configuration.spec }
  var strategy: NamedStrategy { configuration.strategy }
  var workload: Workload { context.workload }
  /// The variant's read section: a sweep of a read key sets it per variant.
  var read: Workload.ReadSettings { configuration.read }
  var factory: StoreFactory { context.factory }
  var progress: Progress { context.progress }

  /// A read of a bounded store may miss what its budget evicted.
  var missesAllowed: Bool { spec.isBounded }

  var useFieldPolicies: Bool { strategy.kind != .path }
  /// The workload's programmatic field-policy provider, for the programmatic strategies only: the
  /// typePolicy strategy reads with the directives alone.
  var fieldPolicyProvider: (any FieldPolicyProvider)? {
    strategy.kind == .programmatic ? workload.fieldPolicyProvider?.provider : nil
  }

  /// A reader of `cache` with the strategy's field policies.
  func makeReader(_ cache: any NormalizedCache) -> CacheReader { configuration.makeReader(cache, workload: workload) }
  var normalizer: Normalizer { Normalizer(strategy: strategy.strategy) }

  func measure(into sink: inout MetricSamples) throws {
    let fragments = try FragmentReads.make(
      source: source, normalizer: normalizer, count: strategy.kind == .path ? 0 : read.fragments,
      seed: workload.seed ^ 0xF4A6)
    let counted = try countAllocations(fragments: fragments)
    let watch = WatchPlan.make(
      source: source, watchers: read.watchers, churn: read.churn, seed: workload.seed ^ 0x3A7C)
    var watchCounts: WatchCounts?
    let keys = counted.writtenKeys.sorted()
    let lookups = Lookups(
      pointKeys: pointLookupKeys(keys),
      fieldPolicies: try FieldPolicyLookups.make(
        schema: source.schema, keys: keys, count: useFieldPolicies ? read.fieldPolicyLookups : 0,
        seed: workload.seed ^ 0xF1E1D))
    var footprint: Footprint?
    var fieldPolicyHits = 0
    let harness = Harness(warmup: workload.warmup, repetitions: workload.repetitions)
    let timings = try harness.run(make: { try factory.make(configuration) }, cleanUp: factory.removeFiles) { store, repetition in
      footprint = try measureWrites(store, &repetition, writtenKeys: keys)
      try measureReads(store, &repetition)
      if let clock = configuration.clock { try measureTimedReads(store, &repetition, at: clock.startAt) }
      let hits = try measureLookups(store, &repetition, lookups: lookups)
      try measureFragments(store, &repetition, fragments: fragments)
      if repetition.isMeasured {
        fieldPolicyHits += hits
        footprint?.settledBytes = try store.capabilities.footprint?.settledBytes()
      }
      // After the footprint and the checkpoint, as it moves the dates (and rewrites the rows).
      if let clock = configuration.clock { try measureRefresh(store, &repetition, clock: clock) }
      // Last, as the refetches change the store; in measured repetitions only until 1,000
      // re-reads are timed: one refetch may wake every watcher, so one pass of a large workload
      // gives thousands and more would multiply the run's length, while a workload of one
      // operation gives one re-read per pass. The counts are the first pass's (they are the same
      // in every pass).
      if let watch, repetition.isMeasured, (watchCounts?.rereadsTimed ?? 0) < 1_000 {
        let counts = try measureWatchers(store, &repetition, plan: watch)
        if watchCounts == nil { watchCounts = counts }
        watchCounts?.rereadsTimed += counts.rereads
      }
    }
    sink.append(contentsOf: timings)
    sink.append(contentsOf: counted.samples)
    sink.append(ratio(counted.hits, counted.keysRequested), to: .hitRatio)
    if !lookups.fieldPolicies.isEmpty {
      sink.append(ratio(fieldPolicyHits, timings[.fieldPolicyLookup].count), to: .fieldPolicyHitRatio)
    }
    if let watchCounts {
      for invalidations in watchCounts.invalidations { sink.append(invalidations, to: .invalidations) }
      for invalidations in watchCounts.invalidationsByRecord { sink.append(invalidations, to: .invalidationsByRecord) }
      for records in watchCounts.dependentRecords { sink.append(records, to: .dependentRecords) }
      for fields in watchCounts.dependentFields { sink.append(fields, to: .dependentFields) }
      sink.append(ratio(watchCounts.changed, watchCounts.rereads), to: .changedShare)
    }
    guard let footprint else { return }
    sink.append(footprint)
    addDedupRows(to: &sink, counted: counted, footprint: footprint)
  }

  // MARK: 1. The allocation pass

  /// What the allocation pass counted and saw.
  private struct Counted {
    var samples = MetricSamples()
    var objects = 0
    var writtenKeys: Set<CacheKey> = []
    var rootKeys: Set<CacheKey> = []
    var hits = 0
    var keysRequested = 0
    /// Read-backs that missed (a bounded store's evictions).
    var misses = 0
  }

  /// Writes every response into a fresh store, reading each back right after its write: what
  /// this response wrote must read back exactly.
  private func countAllocations(fragments: FragmentReads) throws -> Counted {
    let counter = try AllocationCounter()
    let normalizer = normalizer
    var counted = Counted()
    defer { factory.removeFiles() }
    try warmUp(normalizer)
    let store = try factory.make(configuration)
    var reader = makeReader(store)
    reader.countsLoads = true
    for (index, item) in source.items.enumerated() {
      progress.update("counting allocations, response \(index + 1)/\(source.items.count)")
      let response = try item.response()
      let write = try counter.counted {
        let normalized = try normalizer.normalize(response, plan: item.plan, writtenAt: configuration.writtenAt)
        try store.merge(records: normalized.records)
        return normalized
      }
      counted.samples.append(Double(write.count), to: .writeAllocations)
      counted.samples.append(Double(write.bytes), to: .writeAllocatedBytes)
      counted.objects += write.result.objectCount
      counted.rootKeys.insert(item.plan.rootKey)
      for record in write.result.records { counted.writtenKeys.insert(record.key) }
      let read: (result: ReadResult, count: Int, bytes: Int)
      do {
        read = try counter.counted { try reader.read(item.plan) }
      } catch let error as ReadError {
        throw RunError("\(context(item)): the read-back failed: \(error)", exitCode: .dataError)
      }
      counted.samples.append(Double(read.count), to: .readAllocations)
      counted.samples.append(Double(read.bytes), to: .readAllocatedBytes)
      try verify(read.result, item, strictly: true)
      counted.misses += read.result.miss == nil ? 0 : 1
      counted.samples.append(Double(read.result.statistics.loads), to: .loadsPerRead)
      counted.samples.append(Double(read.result.statistics.keysRequested), to: .keysPerRead)
      counted.samples.append(Double(read.result.statistics.fieldsLoaded), to: .fieldsLoaded)
      counted.samples.append(Double(read.result.statistics.bytesLoaded), to: .bytesLoaded)
      counted.hits += read.result.statistics.hits
      counted.keysRequested += read.result.statistics.keysRequested
    }
    try checkFragments(store, fragments, into: &counted.samples)
    return counted
  }

  /// Every fragment read once after all the writes: each must give the object as its response
  /// had it (unless `read.verify` is off); its loads and keys are counted.
  private func checkFragments(_ store: any NormalizedCache, _ fragments: FragmentReads, into samples: inout MetricSamples) throws {
    let reader = makeReader(store)
    for read in fragments.reads {
      let context = "\(context(label: read.label)), fragment read of \(read.key)"
      let result: ReadResult
      do {
        result = try reader.read(read.selection, key: read.key)
      } catch let error as ReadError {
        throw RunError("\(context): \(error)", exitCode: .dataError)
      }
      samples.append(Double(result.statistics.loads), to: .fragmentLoadsPerRead)
      samples.append(Double(result.statistics.keysRequested), to: .fragmentKeysPerRead)
      guard self.read.verify else { continue }
      guard let data = result.data else {
        if missesAllowed { continue }
        throw RunError("\(context): missed: \(result.miss.map(\.description) ?? "?")")
      }
      if data != read.expected {
        let difference = JSONDifference.first(between: .object(read.expected), and: .object(data)) ?? "somewhere"
        throw RunError("\(context): differs from what was written at \(difference)")
      }
    }
  }

  /// Writes and reads every response once on a throwaway store of this configuration, uncounted,
  /// before the counted pass. The Swift runtime allocates once, on first use, for type metadata and
  /// lazy globals, and the process keeps state between configurations (the last type each place of
  /// the plans saw, a store's first statements): without this, those costs would land in the
  /// counted samples of whichever configuration ran first, so that two builds, or a shard of a
  /// split run that starts elsewhere in the order, would disagree. (The first response alone was
  /// warmed before: a whole run and its shards then differed by a few allocations a write.)
  func warmUp(_ normalizer: Normalizer) throws {
    defer { factory.removeFiles() }
    let store = try factory.make(configuration)
    let reader = makeReader(store)
    for item in source.items {
      try store.merge(records: try normalizer.normalize(try item.response(), plan: item.plan, writtenAt: configuration.writtenAt).records)
      // The counted pass reports a read that fails, with its response.
      do { _ = try reader.read(item.plan) } catch is ReadError {}
    }
  }

  // MARK: 2. The timed repetitions

  /// The keys and field-policy reads every repetition looks up.
  private struct Lookups {
    let pointKeys: [CacheKey]
    let fieldPolicies: [FieldPolicyLookup]
  }

  /// Every response written into the store; returns the footprint after the writes.
  private func measureWrites(_ store: any NormalizedCache, _ repetition: inout Repetition, writtenKeys: [CacheKey]) throws
    -> Footprint
  {
    let normalizer = normalizer
    for (index, item) in source.items.enumerated() {
      progress.update("\(repetition.label), write \(index + 1)/\(source.items.count)")
      let json = try item.json()
      let response = try repetition.time(.parseLatency) { try item.parse(json) }
      let start = MonotonicClock.now()
      let normalized = try normalizer.normalize(response, plan: item.plan, writtenAt: configuration.writtenAt)
      let middle = MonotonicClock.now()
      try store.merge(records: normalized.records)
      let end = MonotonicClock.now()
      repetition.record(middle - start, as: .normalizeLatency)
      repetition.record(end - middle, as: .mergeLatency)
      repetition.record(end - start, as: .writeLatency)
    }
    return try footprint(of: store, liveBytes: repetition.isMeasured ? try repetition.liveBytes() : 0, writtenKeys: writtenKeys)
  }

  /// The store's own footprint, or for a store that does not measure itself: the keys written
  /// that it still holds, loaded back, their bytes the payload, and jemalloc's live bytes its
  /// bytes. A store that accounts its bytes for a budget adds `accounted_bytes`, beside what it
  /// measures.
  func footprint(of store: any NormalizedCache, liveBytes: Int, writtenKeys: [CacheKey]) throws -> Footprint {
    var footprint = try store.footprint(of: { writtenKeys }, liveBytes: liveBytes)
    if let bounded = store.capabilities.bounded {
      footprint.details.append(("accounted_bytes", try bounded.accountedBytes()))
    }
    return footprint
  }

  /// Every operation read back, timed, through a ``LoadTimer`` for the time inside the store's loads.
  private func measureReads(_ store: any NormalizedCache, _ repetition: inout Repetition) throws {
    let timer = LoadTimer(store)
    let reader = makeReader(timer)
    _ = timer.takeLoadNanoseconds()
    for (index, item) in source.items.enumerated() {
      progress.update("\(repetition.label), read \(index + 1)/\(source.items.count)")
      let result = try repetition.time(.readLatency) { try reader.read(item.plan) }
      repetition.record(timer.takeLoadNanoseconds(), as: .loadTime)
      try verify(result, item, strictly: read.verify)
    }
  }

  /// A store with dates: every operation read back with a clock at `now` (docs/ttl.md#what-dates-cost),
  /// every selected field's date checked. Permissive, so that the data is assembled as in
  /// `read/latency` whatever expired (a strict read that misses skips that), and checked as those
  /// reads are.
  private func measureTimedReads(_ store: any NormalizedCache, _ repetition: inout Repetition, at now: Int) throws {
    let reader = makeReader(store)
    for (index, item) in source.items.enumerated() {
      progress.update("\(repetition.label), read with a clock \(index + 1)/\(source.items.count)")
      let result = try repetition.time(.ttlLatency) { try reader.read(item.plan, clock: .permissive(at: now)) }
      try verify(result, item, strictly: read.verify)
    }
  }

  /// A store with dates: every response merged again unchanged, first at the date it holds
  /// (nothing moves: an unchanged merge as without dates), then a step later (every date moves,
  /// so every record it wrote is written again): what an unchanged refetch costs
  /// (docs/ttl.md#what-dates-cost). Normalized outside the clock.
  private func measureRefresh(_ store: any NormalizedCache, _ repetition: inout Repetition, clock: WriteClock) throws {
    let normalizer = normalizer
    for (metric, date) in [(Metric.refreshSameDateLatency, clock.startAt), (.refreshLatency, clock.time(atStep: 1))] {
      for (index, item) in source.items.enumerated() {
        progress.update("\(repetition.label), unchanged refetch \(index + 1)/\(source.items.count)")
        let records = try normalizer.normalize(try item.response(), plan: item.plan, writtenAt: date).records
        try repetition.time(metric) { try store.merge(records: records) }
      }
    }
  }

  /// Point lookups of random existing keys, and reads of single entities through field policies.
  /// - Returns: how many field-policy reads found their entity.
  private func measureLookups(_ store: any NormalizedCache, _ repetition: inout Repetition, lookups: Lookups) throws -> Int {
    progress.update("\(repetition.label), point lookups")
    for key in lookups.pointKeys {
      let found = try repetition.time(.pointLookup) { try store.loadRecords(forKeys: [key]) }
      guard found[key] != nil || missesAllowed else {
        throw RunError("point lookup of \(key) in \(spec.label) under \(strategy.name) found nothing")
      }
    }
    let reader = CacheReader(cache: store, useFieldPolicies: true, fieldPolicyProvider: fieldPolicyProvider)
    var hits = 0
    for lookup in lookups.fieldPolicies {
      let result = try repetition.time(.fieldPolicyLookup) { try reader.read(lookup.plan) }
      if result.data != nil { hits += 1 }
    }
    return hits
  }

  /// Every fragment read, timed.
  private func measureFragments(_ store: any NormalizedCache, _ repetition: inout Repetition, fragments: FragmentReads) throws {
    guard !fragments.isEmpty else { return }
    progress.update("\(repetition.label), fragment reads")
    let reader = makeReader(store)
    for read in fragments.reads {
      _ = try repetition.time(.fragmentLatency) { try reader.read(read.selection, key: read.key) }
    }
  }

  /// What the watchers saw: invalidations per refetch, re-reads, and re-reads whose result changed.
  struct WatchCounts {
    var invalidations: [Double] = []
    /// What dependent keys naming only their records would have woken.
    var invalidationsByRecord: [Double] = []
    /// The first reads' dependent records and keys, per watcher.
    var dependentRecords: [Double] = []
    var dependentFields: [Double] = []
    var rereads = 0
    var changed = 0
    /// Re-reads timed over every pass.
    var rereadsTimed = 0
  }

  /// The watchers read, then every refetch merged; after each, the watchers whose dependent keys
  /// meet its changed keys read again, timed. The check is timed too, and counted again by record
  /// (``DependentKeys/intersectsRecords(_:)``): the watchers a record-level key would wake, which
  /// are counted, not re-read.
  private func measureWatchers(_ store: any NormalizedCache, _ repetition: inout Repetition, plan: WatchPlan) throws -> WatchCounts {
    progress.update("\(repetition.label), watchers")
    let reader = makeReader(store)
    var watchers = try plan.watchers.map { item in
      let result = try reader.read(source.items[item].plan)
      try checkWatcher(result, item, after: nil)
      return (item: item, last: result)
    }
    var counts = WatchCounts()
    for watcher in watchers {
      counts.dependentRecords.append(Double(watcher.last.dependentKeys.recordKeys.count))
      counts.dependentFields.append(Double(watcher.last.dependentKeys.count))
    }
    var refetches = Refetches(schema: source.schema, churn: plan.churn, seed: plan.seed)
    let normalizer = normalizer
    for (index, item) in source.items.enumerated() {
      progress.update("\(repetition.label), watchers, refetch \(index + 1)/\(source.items.count)")
      // With dates, refetch i is at step i + 2: after the refresh pass's step 1.
      let refetch = try normalizer.normalize(
        try refetches.refetch(item, index: index), plan: item.plan, writtenAt: configuration.clock?.time(atStep: index + 2)
      ).records
      let changed = ChangedKeys.Lookup(try store.merge(records: refetch))
      let woken = repetition.time(.checkLatency) {
        watchers.indices.filter { watchers[$0].last.dependentKeys.intersects(changed) }
      }
      let wokenByRecord = repetition.time(.checkLatencyByRecord) {
        watchers.reduce(0) { $0 + ($1.last.dependentKeys.intersectsRecords(changed) ? 1 : 0) }
      }
      for position in woken {
        let plan = source.items[watchers[position].item].plan
        let result = try repetition.time(.rereadLatency) { try reader.read(plan) }
        try checkWatcher(result, watchers[position].item, after: index)
        if result.outcome != watchers[position].last.outcome { counts.changed += 1 }
        watchers[position].last = result
      }
      counts.rereads += woken.count
      counts.invalidations.append(Double(woken.count))
      counts.invalidationsByRecord.append(Double(wokenByRecord))
    }
    return counts
  }

  /// A watcher's read must find everything: a refetch changes values, never the shape.
  private func checkWatcher(_ result: ReadResult, _ item: Int, after refetch: Int?) throws {
    guard read.verify, !missesAllowed, let miss = result.miss else { return }
    let when = refetch.map { "after refetch \($0 + 1) (\(source.items[$0].label))" } ?? "before the refetches"
    throw RunError("\(context(source.items[item])): the watcher's read missed \(when): \(miss)")
  }

  // MARK: 3. Rows and checks

  /// Objects written against records stored, response bytes against store bytes.
  ///
  /// A bounded store holds what its budget left: `records` and `store_bytes` are what it holds,
  /// but `object_ratio` divides by the distinct keys written, what the key strategy made of the
  /// objects whatever the budget (objects over records held would grow as the budget shrinks).
  private func addDedupRows(to sink: inout MetricSamples, counted: Counted, footprint: Footprint) {
    let records = footprint.recordCount - counted.rootKeys.count
    let keyed = missesAllowed ? counted.writtenKeys.subtracting(counted.rootKeys).count : records
    let responseBytes = source.responseBytes
    sink.append(Double(counted.objects), to: .objects)
    sink.append(Double(records), to: .records)
    sink.append(ratio(counted.objects, keyed), to: .objectRatio)
    sink.append(Double(responseBytes), to: .responseBytes)
    sink.append(Double(footprint.storeBytes), to: .storeBytes)
    sink.append(ratio(responseBytes, footprint.storeBytes), to: .byteRatio)
    if missesAllowed { sink.append(Double(counted.misses), to: .readBackMisses) }
  }

  /// Every read-back must equal the selected part of its response (docs/metrics.md): checked right
  /// after each write in the allocation pass, and again after all the writes unless the workload
  /// says `"read": {"verify": false}` (for recorded responses that disagree on the entities they
  /// share, where a later response rightly changes what an earlier one reads back).
  private func verify(_ result: ReadResult, _ item: ResponseItem, strictly: Bool) throws {
    guard strictly else { return }
    let context = context(item)
    guard let data = result.data else {
      if missesAllowed { return }
      throw RunError("\(context): the read-back missed: \(result.miss.map(\.description) ?? "?")")
    }
    let expected = try item.expectedReadBack(of: try item.response())
    if data != expected {
      let difference = JSONDifference.first(between: .object(expected), and: .object(data)) ?? "somewhere"
      throw RunError("\(context): the read-back differs from the response at \(difference)")
    }
  }

  /// Where a failure happened: the workload, variant, store, strategy and response.
  private func context(_ item: ResponseItem) -> String { context(label: item.label) }

  private func context(label: String) -> String {
    "\(configuration.context(workload: workload.name)), \(label)"
  }

  /// Random existing keys, from the workload's seed.
  private func pointLookupKeys(_ keys: [CacheKey]) -> [CacheKey] {
    guard !keys.isEmpty, read.pointLookups > 0 else { return [] }
    var random = SplitMix64(seed: workload.seed ^ 0x9E37)
    return (0..<read.pointLookups).map { _ in keys[Int(random.next() % UInt64(keys.count))] }
  }
}
