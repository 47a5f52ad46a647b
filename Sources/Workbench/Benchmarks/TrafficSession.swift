import Generator
import Measurement
import NormalizedCache
import Results
import Workloads

/// One app session on one store (docs/bounded-and-concurrent.md#the-traffic-phase), a step at a
/// time: what the traffic phase runs, and what `cachebench soak` samples as it goes.
///
/// Every step is drawn from the seed alone (``TrafficSteps``), so every store and strategy sees
/// the same session; the store's clock is the step. A read that misses is fetched (its response,
/// with the server's current values, written); a refetch is written with a share of its values
/// changed. Reads are not checked against the responses here (the cache phase checks every
/// read-back); the budget is: after every step a bounded store holds at most its budget.
///
/// A store with dates (docs/ttl.md#traffic-with-dates) is written and read on the session's
/// clock, step `s` at `startAt + s × secondsPerStep`: a strict read that misses only because a
/// field it selects expired is a TTL miss and is fetched again; a permissive read that finds one
/// is served stale and revalidated (fetched again, as Apollo iOS's `.revalidateCache`). Both
/// modes write the same responses at the same steps: they differ in what the read returned.
/// There, the watched operations follow ADR 0004 (``WatchedQueries``): after a write, those whose
/// last read depended on a changed key read again, permissively; with `refreshOnExpiry`, each one's
/// timer fires at the earliest expiry its last read found and reads strictly, fetching on a miss.
/// Their reads are not the session's reads: they count in the `watcher_*` rows only.
struct TrafficSession {
  /// What the session counted.
  struct Tally {
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
    /// Strict reads that missed only because something expired.
    var ttlMisses = 0
    /// Permissive reads served stale.
    var stale = 0
    /// Expired fields, over every read.
    var expiredFields = 0
    /// What the TTL misses and the revalidations fetched.
    var ttlFetchedBytes = 0
  }

  let configuration: Configuration
  let source: PreparedSource
  let settings: TrafficSettings
  let store: any NormalizedCache
  /// What the store can do (``StoreCapabilities``): its budget's and its tiers' rows follow.
  let capabilities: StoreCapabilities
  var bounded: (any BoundedNormalizedCache)? { capabilities.bounded }
  /// Per-step samples (read and write latency, evictions per step), for the traffic phase's rows;
  /// a soak keeps none, so that the session's own memory does not grow with its steps.
  let keepsStepSamples: Bool
  private(set) var tally = Tally()
  private(set) var samples = MetricSamples()
  private let reader: CacheReader
  private let normalizer: Normalizer
  private var server: Server
  private var steps: TrafficSteps
  private var watchers: Watchers
  private var watched: WatchedQueries
  /// Steps run, for the per-hour rows.
  private var stepsRun = 0
  /// Whether the watched operations read again on changes (a store with dates and watchers).
  private var watchesUnderTTL: Bool { configuration.clock != nil && settings.watchers > 0 }
  /// `default, memory × typePolicy`, for messages.
  private let context: String

  init(
    _ configuration: Configuration, source: PreparedSource, settings: TrafficSettings, workload: Workload, store: any NormalizedCache,
    keepsStepSamples: Bool = true
  ) {
    self.configuration = configuration
    self.source = source
    self.settings = settings
    self.store = store
    self.keepsStepSamples = keepsStepSamples
    capabilities = store.capabilities
    reader = configuration.makeReader(store, workload: workload)
    normalizer = Normalizer(strategy: configuration.strategy.strategy)
    server = Server(schema: source.schema, churn: settings.churn, seed: workload.seed ^ 0x5E4F, shrinksLists: true)
    steps = TrafficSteps(settings: settings, items: source.items.count, seed: workload.seed ^ 0x7A4F)
    watchers = Watchers(items: steps.popularity.prefix(settings.watchers))
    watched = WatchedQueries(items: steps.popularity.prefix(settings.watchers))
    context = configuration.context(workload: workload.name)
    _ = capabilities.tiers?.takeTierStatistics()
  }

  /// Step `step` (from 0, in order): the store's clocks moved to it, a read or a refetch, then
  /// what the store evicted and its bytes against its budget.
  mutating func run(step: Int) throws {
    try bounded?.advanceClock(to: step)
    stepsRun += 1
    if settings.refreshOnExpiry, watchesUnderTTL { try fireTimers(step: step) }
    switch steps.next() {
    case .read(let item): try read(item, step: step)
    case .refetch(let item): try write(item, step: step, changing: true)
    }
    try settle(step: step)
  }

  /// A cache-first read at the step's time (with a clock only for a store with dates).
  private mutating func read(_ item: Int, step: Int) throws {
    tally.reads += 1
    let clock = configuration.clock.map { ReadClock(now: $0.time(atStep: step), ttl: settings.ttl) }
    let (result, elapsed) = try MonotonicClock.timed { try reader.read(source.items[item].plan, clock: clock) }
    if keepsStepSamples { samples.append(Double(elapsed), to: .trafficReadLatency) }
    tally.expiredFields += result.expired.count
    switch result.outcome {
    case .hit:
      tally.hits += 1
      watchers.read(item, dependsOn: result.dependentKeys.recordKeys)
      if watchesUnderTTL { watched.update(item, with: result) }
    case .stale:
      tally.hits += 1
      tally.stale += 1
      watchers.read(item, dependsOn: result.dependentKeys.recordKeys)
      if watchesUnderTTL { watched.update(item, with: result) }
      try write(item, step: step, changing: false, becauseOfExpiry: true)
    case .miss:
      if result.missing.isEmpty, !result.expired.isEmpty {
        tally.ttlMisses += 1
        try write(item, step: step, changing: false, becauseOfExpiry: true)
      } else {
        // Partial: it found records below the operation's root (the root alone holds only the
        // root fields, and is never evicted).
        if result.statistics.hits > 1 { tally.partialMisses += 1 }
        try write(item, step: step, changing: false)
      }
    }
  }

  /// The item's response as the server returns it at this step, normalized (dated at the step's
  /// time in a store with dates) and merged.
  private mutating func write(
    _ item: Int, step: Int, changing: Bool, becauseOfExpiry: Bool = false, refetchedBy watcher: Int? = nil
  ) throws {
    let response = try server.respond(source.items[item], place: String(item), version: step + 1, changing: changing)
    let start = MonotonicClock.now()
    let records = try normalizer.normalize(
      response, plan: source.items[item].plan, writtenAt: configuration.clock?.time(atStep: step)
    ).records
    let middle = MonotonicClock.now()
    let changed = try store.merge(records: records)
    let elapsed = MonotonicClock.now() - start
    if keepsStepSamples { samples.append(Double(elapsed), to: .trafficWriteLatency) }
    tally.writeNanoseconds += elapsed
    tally.mergeNanoseconds += start + elapsed - middle
    tally.recordsWritten += records.count
    tally.fetchedBytes += source.items[item].bytes
    if becauseOfExpiry { tally.ttlFetchedBytes += source.items[item].bytes }
    if watchesUnderTTL { try wake(ChangedKeys.Lookup(changed), step: step, written: item, refetchedBy: watcher) }
  }

  /// After a write: the watchers whose last read depended on a changed key read again,
  /// permissively, and never fetch; a watched operation written before its watcher read starts
  /// watching with a read of what was written.
  private mutating func wake(_ changed: ChangedKeys.Lookup, step: Int, written: Int, refetchedBy watcher: Int?) throws {
    let clock = configuration.clock.map { ReadClock.permissive(at: $0.time(atStep: step)) }
    for item in watched.woken(by: changed) {
      watched.update(item, with: try reader.read(source.items[item].plan, clock: clock))
      watched.tally.rereads += 1
      if let watcher, item != watcher { watched.tally.wokenByRefetches += 1 }
    }
    if watched.isWatched(written), !watched.hasRead(written) {
      watched.update(written, with: try reader.read(source.items[written].plan, clock: clock))
    }
  }

  /// `refreshOnExpiry`: the watchers whose timer is due read cache-first and strictly; one that
  /// misses fetches, and its watcher reads what came back, which sets its next timer.
  private mutating func fireTimers(step: Int) throws {
    guard let now = configuration.clock?.time(atStep: step) else { return }
    for item in watched.due(at: now) {
      watched.tally.timersFired += 1
      let result = try reader.read(source.items[item].plan, clock: .strict(at: now))
      if case .hit = result.outcome {
        watched.update(item, with: result)
        continue
      }
      watched.tally.refetches += 1
      watched.tally.refetchedBytes += source.items[item].bytes
      try write(item, step: step, changing: false, becauseOfExpiry: true, refetchedBy: item)
      watched.update(item, with: try reader.read(source.items[item].plan, clock: .permissive(at: now)))
    }
  }

  /// After a step: what the store evicted, its bytes against the budget, a chain's tiers.
  private mutating func settle(step: Int) throws {
    if let bounded {
      let report = try bounded.takeEvictions()
      if keepsStepSamples { samples.append(report.evicted, to: .evictions) }
      tally.evicted += report.evicted
      tally.expired += report.expired
      tally.evictionNanoseconds += report.nanoseconds
      tally.watchedEvictions += watchers.count(report.keys)
      let bytes = try bounded.accountedBytes()
      tally.peakBytes = max(tally.peakBytes, bytes)
      if let limit = bounded.budget?.maxSizeBytes, bytes > limit {
        throw RunError("\(context): after step \(step + 1) the store holds \(bytes) bytes, past its budget of \(limit)")
      }
    }
    if let tiered = capabilities.tiers {
      let tiers = tiered.takeTierStatistics()
      tally.tiers.frontHits += tiers.frontHits
      tally.tiers.backHits += tiers.backHits
      tally.frontEvictions += tiered.takeFrontEvictions().evicted
    }
  }

  /// The session's rows (docs/metrics.md#traffic): its per-step samples, then what it counted.
  func addRows(into samples: inout MetricSamples) {
    samples.append(contentsOf: self.samples)
    samples.append(ratio(tally.hits, tally.reads), to: .trafficHitRatio)
    samples.append(ratio(tally.partialMisses, tally.reads), to: .partialMissShare)
    samples.append(tally.fetchedBytes, to: .fetchedBytes)
    if configuration.clock != nil {
      samples.append(ratio(tally.ttlMisses, tally.reads), to: .ttlMissShare)
      samples.append(ratio(tally.stale, tally.reads), to: .staleShare)
      samples.append(ratio(tally.expiredFields, tally.reads), to: .expiredFields)
      samples.append(tally.ttlFetchedBytes, to: .ttlFetchedBytes)
    }
    if watchesUnderTTL {
      let watcherHours = Double(watched.count) * Double(stepsRun * settings.secondsPerStep) / 3_600
      let tally = watched.tally
      samples.append(watcherHours > 0 ? Double(tally.rereads) / watcherHours : 0, to: .watcherRereadsPerHour)
      samples.append(watcherHours > 0 ? Double(tally.refetches) / watcherHours : 0, to: .watcherRefetchesPerHour)
      samples.append(tally.refetchedBytes, to: .watcherFetchedBytes)
      if settings.refreshOnExpiry { samples.append(ratio(tally.refetches, tally.timersFired), to: .watcherTimerFetchShare) }
      samples.append(ratio(tally.wokenByRefetches, tally.refetches), to: .wokenPerWatcherRefetch)
    }
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
}
