import Measurement
import NormalizedCache
import Results
import Workloads

/// Apollo's Tier-2 scenarios at store sizes (`"apolloTier2": {"sizes": [[records, fields], …]}`,
/// docs/metrics.md#growth): for each size, one store is built once with the background records
/// (``ApolloTier2Records/background(index:fields:)``) and every scenario runs in it, as
/// ``ApolloTier2Benchmark`` runs it, its metric named `<scenario>_at_<records>x<fields>`. A scenario
/// adds its own records before its iterations and removes them after, outside the clock, so the
/// next finds the store as the background left it:
///
/// - the loads and projected loads merge their records, load them each iteration, then remove them;
/// - the single-record merges write a new key each iteration, removed at the end;
/// - the 1,000-record merge writes the records each iteration and removes them after it;
/// - the pattern delete merges its 11,000 records each iteration, times the removal of the
///   `User_` ones (which the background's keys never match), then removes the `Other_` ones.
///
/// After the sizes, `tier2/growth_<scenario>` and `tier2/growth_ratio_<scenario>` fit each
/// scenario's p50 against the background records (``Growth``).
extension ApolloTier2Benchmark {
  func measureSizes(into sink: inout MetricSamples) throws {
    for size in config.sizes {
      defer { factory.removeFiles() }
      let store = try factory.make(configuration)
      context.progress.update("\(size.records) background records of \(size.fields) fields")
      try ApolloTier2Records.mergeBackground(records: size.records, fields: size.fields, into: store)
      try measureSizedLoad(.tier2SingleKeyLoad, records: 1, size, store, into: &sink)
      try measureSizedLoad(.tier2BatchLoad, records: 100, size, store, into: &sink)
      for scenario in ProjectedScenario.all { try measureSizedProjectedLoad(scenario, size, store, into: &sink) }
      try measureSizedSingleRecordMerges(size, store, into: &sink)
      try measureSizedManyRecordMerges(size, store, into: &sink)
      try measureSizedPatternDeletes(size, store, into: &sink)
      // The background as it was built: its first and last records, whole.
      let ends = [0, size.records - 1].map(ApolloTier2Records.backgroundKey)
      let held = try store.loadRecords(forKeys: ends)
      try expect(
        ends.allSatisfy { held[$0]?.fieldKeys.count == size.fields },
        "lost background records at \(size.records) × \(size.fields): holds \(held.keys.sorted()) of \(ends)")
    }
    for scenario in Metric.tier2Scenarios {
      sink.appendGrowth(scenario.name, phase: .tier2, over: config.sizes.map { ($0.records, .tier2(scenario, at: $0)) })
    }
  }

  /// Scenarios 1 and 2 in a store of the size: `records` synthetic records merged, loaded each
  /// iteration, then removed.
  private func measureSizedLoad(
    _ scenario: Metric, records count: Int, _ size: ApolloTier2Config.Size, _ store: any NormalizedCache, into sink: inout MetricSamples
  ) throws {
    try store.merge(records: ApolloTier2Records.synthetic(count: count))
    let keys = ApolloTier2Records.syntheticKeys(count: count)
    try iterate(.tier2(scenario, at: size), into: &sink) { _ in
      var loaded = 0
      let ns = try MonotonicClock.time { loaded = try store.loadRecords(forKeys: keys).count }
      try expect(loaded == count, "loaded \(loaded) of its \(count) records at \(size.records) × \(size.fields)")
      return ns
    }
    try store.removeRecords(forKeys: keys)
  }

  /// A projected load in a store of the size: its records merged, lent each iteration, then removed.
  private func measureSizedProjectedLoad(
    _ scenario: ProjectedScenario, _ size: ApolloTier2Config.Size, _ store: any NormalizedCache, into sink: inout MetricSamples
  ) throws {
    try store.merge(records: scenario.records)
    try iterate(.tier2(scenario.metric, at: size), into: &sink) { _ in
      var found = 0
      let ns = try MonotonicClock.time { found = try scenario.load(from: store, countingFields: false) }
      try expect(found == scenario.keys.count, "lent \(found) of the \(scenario.keys.count) records of \(scenario.metric.name)")
      return ns
    }
    try store.removeRecords(forKeys: scenario.records.keys)
  }

  /// Scenario 3: a new record merged each iteration, inside the clock; all of them removed after.
  private func measureSizedSingleRecordMerges(_ size: ApolloTier2Config.Size, _ store: any NormalizedCache, into sink: inout MetricSamples)
    throws
  {
    try iterate(.tier2(.tier2SingleRecordMerge, at: size), into: &sink) { iteration in
      try MonotonicClock.time { try store.merge(records: ApolloTier2Records.mergeRecord(iteration: iteration)) }
    }
    let merged = (0..<iterations).map(ApolloTier2Records.mergeKey)
    let held = try store.loadRecords(forKeys: merged).count
    try expect(held == merged.count, "holds \(held) of the \(merged.count) records merged one by one")
    try store.removeRecords(forKeys: merged)
  }

  /// Scenario 4: the 1,000 records merged each iteration, and removed after it outside the clock.
  private func measureSizedManyRecordMerges(_ size: ApolloTier2Config.Size, _ store: any NormalizedCache, into sink: inout MetricSamples)
    throws
  {
    let records = ApolloTier2Records.synthetic(count: 1_000)
    try iterate(.tier2(.tier2ManyRecordMerge, at: size), into: &sink) { _ in
      let ns = try MonotonicClock.time { try store.merge(records: records) }
      try store.removeRecords(forKeys: records.keys)
      return ns
    }
  }

  /// Scenario 5: the seed merged each iteration; the removal of `User_` timed; the `Other_`
  /// records checked, then removed.
  private func measureSizedPatternDeletes(_ size: ApolloTier2Config.Size, _ store: any NormalizedCache, into sink: inout MetricSamples)
    throws
  {
    let seed = ApolloTier2Records.patternDeleteSeed()
    let keys = seed.keys
    try iterate(.tier2(.tier2PatternDelete, at: size), into: &sink) { _ in
      try store.merge(records: seed)
      let ns = try MonotonicClock.time { try store.removeRecords(matching: ApolloTier2Records.pattern) }
      let left = try store.loadRecords(forKeys: keys)
      try expectOnlyOthers(left)
      try store.removeRecords(forKeys: Array(left.keys))
      return ns
    }
  }
}

extension Metric {
  /// A Tier-2 scenario's metric at a store size: `tier2/<scenario>_at_<records>x<fields>`.
  static func tier2(_ scenario: Metric, at size: ApolloTier2Config.Size) -> Metric {
    .tier2(scenario, atRecords: size.records, fields: size.fields)
  }
}
