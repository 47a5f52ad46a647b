import Generator
import Measurement
import NormalizedCache
import Results
import Workloads

/// An app session on a store (docs/bounded-and-concurrent.md, `traffic`), then garbage collection
/// on what it left and, for a store on database pages, what the file holds after it, after a clear
/// and after a vacuum. What it measures follows the store's ``StoreCapabilities``: the budget's
/// rows for a store that accounts its bytes, the tiers' for two tiers, garbage collection for a
/// store that lists its keys, the disk for a store on pages; a store without one is not measured
/// there (a chain whose back is in memory has no disk).
///
/// Every step is drawn from the seed alone (``TrafficSteps``), so every store and strategy sees
/// the same session; the store's clock is the step. A read that misses is fetched (its response,
/// with the server's current values, written); a refetch is written with a share of its values
/// changed. Reads are not checked against the responses here (the cache phase checks every
/// read-back); the budget is: after every step a bounded store holds at most its budget.
struct TrafficBenchmark: Benchmark {
  let configuration: Configuration
  let source: PreparedSource
  let settings: TrafficSettings
  let context: ExecutionContext

  init?(_ configuration: Configuration, _ context: ExecutionContext) {
    guard let settings = context.workload.traffic, case .cache = configuration.spec.role,
      case .responses(let source) = configuration.source, !source.items.isEmpty
    else { return nil }
    self.configuration = configuration
    self.source = source
    self.settings = settings
    self.context = context
  }

  var workload: Workload { context.workload }

  /// What the session counted.
  private struct Tally {
    var reads = 0
    var hits = 0
    var partialMisses = 0
    var fetchedBytes = 0
    var peakBytes = 0
    var evicted = 0
    var evictionNanoseconds: UInt64 = 0
    var expired = 0
    var watchedEvictions = 0
    var recordsWritten = 0
    var writeNanoseconds: UInt64 = 0
    /// The merges alone, evictions included.
    var mergeNanoseconds: UInt64 = 0
    var tiers = TierStatistics()
    var frontEvictions = 0
  }

  func measure(into samples: inout MetricSamples) throws {
    defer { context.factory.removeFiles() }
    let store = try context.factory.make(configuration)
    let capabilities = store.capabilities
    let bounded = capabilities.bounded
    let reader = configuration.makeReader(store, workload: workload)
    let normalizer = Normalizer(strategy: configuration.strategy.strategy)
    var server = Server(schema: source.schema, churn: settings.churn, seed: workload.seed ^ 0x5E4F, shrinksLists: true)
    var steps = TrafficSteps(settings: settings, items: source.items.count, seed: workload.seed ^ 0x7A4F)
    var watchers = Watchers(items: steps.popularity.prefix(settings.watchers))
    var tally = Tally()
    _ = capabilities.tiers?.takeTierStatistics()

    func write(_ item: Int, step: Int, changing: Bool) throws {
      let response = try server.respond(source.items[item], place: String(item), version: step + 1, changing: changing)
      let start = MonotonicClock.now()
      let records = try normalizer.normalize(response, plan: source.items[item].plan).records
      let middle = MonotonicClock.now()
      try store.merge(records: records)
      let elapsed = MonotonicClock.now() - start
      samples.append(Double(elapsed), to: .trafficWriteLatency)
      tally.writeNanoseconds += elapsed
      tally.mergeNanoseconds += start + elapsed - middle
      tally.recordsWritten += records.count
      tally.fetchedBytes += source.items[item].bytes
    }

    for step in 0..<settings.steps {
      if step % 256 == 0 { context.progress.update("traffic, step \(step + 1)/\(settings.steps)") }
      try bounded?.advanceClock(to: step)
      switch steps.next() {
      case .read(let item):
        tally.reads += 1
        let (result, elapsed) = try MonotonicClock.timed { try reader.read(source.items[item].plan) }
        samples.append(Double(elapsed), to: .trafficReadLatency)
        if result.data != nil {
          tally.hits += 1
          watchers.read(item, dependsOn: result.dependentKeys.recordKeys)
        } else {
          // Partial: it found records below the operation's root (the root alone holds only the
          // root fields, and is never evicted).
          if result.statistics.hits > 1 { tally.partialMisses += 1 }
          try write(item, step: step, changing: false)
        }
      case .refetch(let item):
        try write(item, step: step, changing: true)
      }
      try settle(step: step, capabilities, watchers: watchers, tally: &tally, samples: &samples)
    }
    addRows(tally, capabilities, into: &samples)
    if settings.gc, let keys = capabilities.keyListing {
      let (report, elapsed) = try MonotonicClock.timed { try GarbageCollection.collect(in: store, keys: keys) }
      samples.append(report.recordsRemoved, to: .gcRecordsRemoved)
      samples.append(report.bytesFreed, to: .gcBytesFreed)
      samples.append(report.danglingReferences, to: .gcDanglingReferences)
      samples.append(Double(elapsed), to: .gcLatency)
    }
    if let pages = capabilities.pages { try measureDisk(store, pages, into: &samples) }
  }

  /// After a step: what the store evicted, its bytes against the budget, a chain's tiers.
  private func settle(
    step: Int, _ capabilities: StoreCapabilities, watchers: Watchers, tally: inout Tally, samples: inout MetricSamples
  ) throws {
    if let bounded = capabilities.bounded {
      let report = try bounded.takeEvictions()
      samples.append(report.evicted, to: .evictions)
      tally.evicted += report.evicted
      tally.expired += report.expired
      tally.evictionNanoseconds += report.nanoseconds
      tally.watchedEvictions += watchers.count(report.keys)
      let bytes = try bounded.accountedBytes()
      tally.peakBytes = max(tally.peakBytes, bytes)
      if let limit = bounded.budget?.maxSizeBytes, bytes > limit {
        throw RunError("\(configuration.context(workload: workload.name)): after step \(step + 1) the store holds \(bytes) bytes, past its budget of \(limit)")
      }
    }
    if let tiered = capabilities.tiers {
      let tiers = tiered.takeTierStatistics()
      tally.tiers.frontHits += tiers.frontHits
      tally.tiers.backHits += tiers.backHits
      tally.frontEvictions += tiered.takeFrontEvictions().evicted
    }
  }

  private func addRows(_ tally: Tally, _ capabilities: StoreCapabilities, into samples: inout MetricSamples) {
    let bounded = capabilities.bounded
    samples.append(ratio(tally.hits, tally.reads), to: .trafficHitRatio)
    samples.append(ratio(tally.partialMisses, tally.reads), to: .partialMissShare)
    samples.append(tally.fetchedBytes, to: .fetchedBytes)
    if bounded != nil {
      samples.append(tally.expired, to: .expirations)
      samples.append(tally.watchedEvictions, to: .watchedEvictions)
      samples.append(tally.peakBytes, to: .peakStoreBytes)
      // A store that does not time its evictions (its reports carry no nanoseconds) has no row.
      if tally.evicted > 0, tally.evictionNanoseconds > 0 {
        samples.append(Double(tally.evictionNanoseconds) / Double(tally.evicted), to: .evictionPerRecord)
      }
    }
    if tally.recordsWritten > 0 {
      samples.append(Double(tally.writeNanoseconds) / Double(tally.recordsWritten), to: .writePerRecord)
      samples.append(Double(tally.mergeNanoseconds) / Double(tally.recordsWritten), to: .mergePerRecord)
    }
    // A chain's budget is its front's.
    if let budget = (capabilities.tiers?.frontBudget ?? bounded?.budget)?.maxSizeBytes {
      samples.append(budget, to: .budgetBytes)
    }
    if capabilities.tiers != nil {
      samples.append(ratio(tally.tiers.frontHits, tally.tiers.frontHits + tally.tiers.backHits), to: .frontHitRatio)
      samples.append(tally.frontEvictions, to: .frontEvictions)
    }
  }

  /// What the session left on disk (after its garbage collection), and what giving it back costs:
  /// the free pages evictions left, by `PRAGMA incremental_vacuum` where the file was made for it,
  /// then the whole file rewritten by `VACUUM`; then a `clear()`, and the file shrunk after it (by
  /// incremental vacuum where it can, else `VACUUM`: Apollo iOS's `shouldVacuumOnClear`). The
  /// clear goes through the store (a chain's front too), the rest to its pages.
  private func measureDisk(_ store: any NormalizedCache, _ pages: any PagedStore, into samples: inout MetricSamples) throws {
    let after = try pages.settledPages()
    samples.append(after.bytes, to: .fileBytes)
    samples.append(after.freeBytes, to: .freeBytes)
    let incremental = try pages.vacuumsIncrementally()
    if incremental {
      let (_, elapsed) = try MonotonicClock.timed { try pages.incrementalVacuum() }
      samples.append(Double(elapsed), to: .incrementalVacuumLatency)
      samples.append(try pages.settledPages().bytes, to: .fileBytesAfterIncrementalVacuum)
    }
    let (_, elapsed) = try MonotonicClock.timed { try pages.vacuum() }
    samples.append(Double(elapsed), to: .vacuumLatency)
    samples.append(try pages.settledPages().bytes, to: .fileBytesAfterVacuum)
    try store.clear()
    let cleared = try pages.settledPages()
    samples.append(cleared.bytes, to: .fileBytesAfterClear)
    samples.append(cleared.freeBytes, to: .freeBytesAfterClear)
    let (_, shrink) = try MonotonicClock.timed { try incremental ? pages.incrementalVacuum() : pages.vacuum() }
    samples.append(Double(shrink), to: .clearVacuumLatency)
    samples.append(try pages.settledPages().bytes, to: .fileBytesAfterClearVacuum)
  }
}
