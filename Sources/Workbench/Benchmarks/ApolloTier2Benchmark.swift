import Measurement
@_spi(RecordBytes) import NormalizedCache
import Results
import SQLiteCache
import Workloads

/// Apollo iOS's Tier-2 cache scenarios (docs/apollo.md), the five as `Tier2CacheBenchmarks.swift`
/// runs them on apollo-ios-dev's branch `cache-rewrite/phase-1-plan` against every store, on the
/// records of ``ApolloTier2Records``:
///
/// 1. `single_key_load_10_fields`: `loadRecords(forKeys:)` of `record_0` in a store holding it alone.
/// 2. `batch_load_100_records`: `loadRecords(forKeys:)` of `record_0` … `record_99` in a store
///    holding those 100.
/// 3. `single_record_merge_10_fields`: a new ten-field record built and merged, a distinct key per
///    iteration, into one store that keeps them all.
/// 4. `many_record_merge_1000_records`: the 1,000 records merged into a fresh store; the store
///    made before the clock starts.
/// 5. `pattern_delete_10k_records`: `removeRecords(matching: "User_")` in a fresh store holding
///    10,000 `User_` and 1,000 `Other_` records, merged before the clock starts.
///
/// Between the loads and the merges, the four projected loads of the perf plan's 2026-07-13
/// amendment (ADR 0007's `loadFields`; no code of theirs exists for them), each a projected load
/// (`lendRecords(forKeys:projection:to:)` in a consistent read, ``CacheReader``'s projected load)
/// of a store holding its records, the result released inside the clock:
/// - `projected_load_3_of_10_fields`: `field_0` … `field_2` of `record_0`, a store holding it alone;
/// - `projected_batch_load_3_of_10_fields_100_records`: the same of `record_0` … `record_99`;
/// - `projected_list_load_100_elements`: `title` and `items`, a list of 100 references, of `List:0`
///   in a store of 100 such records;
/// - `inline_fragment_overfetch_40_fields_8_used`: `Node:0`, holding `__typename` and the 8
///   fields of its type case, asked for `__typename` and the 40 fields of 5 type cases;
/// - `inline_fragment_matched_type_case_only_8_fields`: the same record asked for its type case's
///   8 fields alone, the plan's "matched-type-case-only baseline" of the over-fetch's decision
///   gate: `tier2/overfetch_gate_ratio` is the over-fetch's mean over this one's (``OverfetchGate``).
/// Each also reports `tier2/<scenario>_fields`, the fields lent an iteration, and
/// `tier2/<scenario>_allocations` and `_allocated_bytes`, what one load asked of the allocator
/// (deterministic).
///
/// Each runs as their `BenchmarkHarness.measure` runs it: `warmup` iterations then `repetitions`
/// measured ones (50 after 5 in `Workloads/apollo-tier2.json`, their defaults), each an untimed
/// setup then the timed body; one sample per measured iteration, in nanoseconds, from the
/// monotonic clock around the body alone. Then, in a pass of its own, the footprint of a fresh
/// store after the 1,000-record merge (deterministic rows). Its rows carry the key strategy
/// `typePolicy`: the records carry keys of their own.
struct ApolloTier2Benchmark: IteratedBenchmark {
  let configuration: Configuration
  let context: ExecutionContext

  let config: ApolloTier2Config

  init?(_ configuration: Configuration, _ context: ExecutionContext) {
    guard case .apolloTier2(let config) = configuration.source else { return nil }
    self.configuration = configuration
    self.context = context
    self.config = config
  }

  func measure(into sink: inout MetricSamples) throws {
    // With store sizes, each scenario at each size (ApolloTier2Benchmark+Sizes.swift) instead.
    guard config.sizes.isEmpty else { return try measureSizes(into: &sink) }
    // SQLite's syncs and writes are counted from here on (tier2/<scenario>_fsyncs, _writes).
    SQLiteIO.install()
    try measureLoad(.tier2SingleKeyLoad, records: 1, into: &sink)
    try measureLoad(.tier2BatchLoad, records: 100, into: &sink)
    for scenario in ProjectedScenario.all { try measureProjectedLoad(scenario, into: &sink) }
    sink.appendOverfetchGate(.tier2OverfetchGateRatio, overfetch: .tier2InlineFragmentOverfetch, matched: .tier2MatchedTypeCaseOnly)
    try measureSingleRecordMerges(into: &sink)
    try measureManyRecordMerges(into: &sink)
    try measurePatternDeletes(into: &sink)
    try measureFootprint(into: &sink)
  }

  /// One iteration of each scenario counted under callgrind (`run --instructions`,
  /// docs/metrics.md#instructions), `tier2/<scenario>_instructions`: each set up as its timed
  /// iterations are, the counted one after as many as the workload warms up with (at least one),
  /// so that statements are prepared and buffers grown as in the measured iterations.
  func countInstructions(into sink: inout MetricSamples, counter: inout InstructionCounter) throws {
    let before = max(1, workload.warmup)
    for (metric, count) in [(Metric.tier2SingleKeyLoad, 1), (.tier2BatchLoad, 100)] {
      defer { factory.removeFiles() }
      let store = try factory.make(configuration)
      try store.merge(records: ApolloTier2Records.synthetic(count: count))
      let keys = ApolloTier2Records.syntheticKeys(count: count)
      for _ in 0..<before { _ = try store.loadRecords(forKeys: keys) }
      let (loaded, instructions) = try counter.counted { try store.loadRecords(forKeys: keys) }
      try expect(loaded.count == count, "loaded \(loaded.count) of its \(count) records")
      sink.append(Double(instructions), to: .tier2Instructions(metric))
    }
    for scenario in ProjectedScenario.all {
      defer { factory.removeFiles() }
      let store = try factory.make(configuration)
      try store.merge(records: scenario.records)
      for _ in 0..<before { _ = try scenario.load(from: store, countingFields: false) }
      let (found, instructions) = try counter.counted { try scenario.load(from: store, countingFields: false) }
      try expect(found == scenario.keys.count, "lent \(found) of the \(scenario.keys.count) records of \(scenario.metric.name)")
      sink.append(Double(instructions), to: .tier2Instructions(scenario.metric))
    }
    sink.appendOverfetchGate(
      .tier2OverfetchGateRatioInstructions, overfetch: .tier2Instructions(.tier2InlineFragmentOverfetch),
      matched: .tier2Instructions(.tier2MatchedTypeCaseOnly))
    do {
      defer { factory.removeFiles() }
      let store = try factory.make(configuration)
      for iteration in 0..<before { try store.merge(records: ApolloTier2Records.mergeRecord(iteration: iteration)) }
      let instructions = try counter.counted { try store.merge(records: ApolloTier2Records.mergeRecord(iteration: before)) }.instructions
      sink.append(Double(instructions), to: .tier2Instructions(.tier2SingleRecordMerge))
    }
    do {
      defer { factory.removeFiles() }
      let records = ApolloTier2Records.synthetic(count: 1_000)
      try freshStore().merge(records: records)
      let store = try freshStore()
      let instructions = try counter.counted { try store.merge(records: records) }.instructions
      sink.append(Double(instructions), to: .tier2Instructions(.tier2ManyRecordMerge))
    }
    do {
      defer { factory.removeFiles() }
      let seed = ApolloTier2Records.patternDeleteSeed()
      let warm = try freshStore()
      try warm.merge(records: seed)
      try warm.removeRecords(matching: ApolloTier2Records.pattern)
      let store = try freshStore()
      try store.merge(records: seed)
      let instructions = try counter.counted { try store.removeRecords(matching: ApolloTier2Records.pattern) }.instructions
      let left = try store.loadRecords(forKeys: seed.keys).count
      try expect(left == ApolloTier2Records.otherRecords, "kept \(left) records after removing \"\(ApolloTier2Records.pattern)\"")
      sink.append(Double(instructions), to: .tier2Instructions(.tier2PatternDelete))
    }
  }

  /// Scenarios 1 and 2: one store holding `records` records; each iteration loads all their keys.
  private func measureLoad(_ metric: Metric, records count: Int, into sink: inout MetricSamples) throws {
    defer { factory.removeFiles() }
    let store = try factory.make(configuration)
    try store.merge(records: ApolloTier2Records.synthetic(count: count))
    let keys = ApolloTier2Records.syntheticKeys(count: count)
    var io = TimedIO()
    // The result released inside the clock, as their `loadSync(keys).count` is.
    try iterate(metric, into: &sink) { _ in
      var loaded = 0
      let ns = try io.time { loaded = try store.loadRecords(forKeys: keys).count }
      try expect(loaded == count, "loaded \(loaded) of its \(count) records")
      return ns
    }
    io.append(metric, repetitions: workload.repetitions, to: &sink)
  }

  /// A projected load: one store holding the scenario's records; each iteration loads its keys
  /// with its projection and checks that each has a record; then, once more outside the clock,
  /// the fields lent are counted and checked.
  private func measureProjectedLoad(_ scenario: ProjectedScenario, into sink: inout MetricSamples) throws {
    defer { factory.removeFiles() }
    let store = try factory.make(configuration)
    try store.merge(records: scenario.records)
    var io = TimedIO()
    try iterate(scenario.metric, into: &sink) { _ in
      var found = 0
      let ns = try io.time { found = try scenario.load(from: store, countingFields: false) }
      try expect(found == scenario.keys.count, "lent \(found) of the \(scenario.keys.count) records of \(scenario.metric.name)")
      return ns
    }
    io.append(scenario.metric, repetitions: workload.repetitions, to: &sink)
    let fields = try scenario.load(from: store, countingFields: true)
    try expect(
      fields >= scenario.fieldsAsked,
      "lent \(fields) fields in \(scenario.metric.name); the records hold \(scenario.fieldsAsked) of those asked")
    sink.append(Double(fields), to: .tier2FieldsLoaded(scenario.metric))
    // One more load, what it asked of the allocator counted (deterministic).
    let allocated = try AllocationCounter().counted { try scenario.load(from: store, countingFields: false) }
    sink.append(Double(allocated.count), to: .tier2Allocations(scenario.metric))
    sink.append(Double(allocated.bytes), to: .tier2AllocatedBytes(scenario.metric))
  }

  /// Scenario 3: each iteration builds its record and merges it, inside the clock, as theirs does.
  private func measureSingleRecordMerges(into sink: inout MetricSamples) throws {
    defer { factory.removeFiles() }
    let store = try factory.make(configuration)
    var io = TimedIO()
    try iterate(.tier2SingleRecordMerge, into: &sink) { iteration in
      try io.time { try store.merge(records: ApolloTier2Records.mergeRecord(iteration: iteration)) }
    }
    io.append(.tier2SingleRecordMerge, repetitions: workload.repetitions, to: &sink)
    let merged = (0..<iterations).map(ApolloTier2Records.mergeKey)
    let held = try store.loadRecords(forKeys: merged).count
    try expect(held == merged.count, "holds \(held) of the \(merged.count) records merged one by one")
  }

  /// Scenario 4: the records built once; each iteration merges them into a store made for it.
  private func measureManyRecordMerges(into sink: inout MetricSamples) throws {
    defer { factory.removeFiles() }
    let records = ApolloTier2Records.synthetic(count: 1_000)
    var io = TimedIO()
    try iterate(.tier2ManyRecordMerge, into: &sink) { _ in
      let store = try freshStore()
      return try io.time { try store.merge(records: records) }
    }
    io.append(.tier2ManyRecordMerge, repetitions: workload.repetitions, to: &sink)
  }

  /// Scenario 5: the seed built once; each iteration merges it into a store made for it, then
  /// times the removal, then checks that exactly the `Other_` records are left.
  private func measurePatternDeletes(into sink: inout MetricSamples) throws {
    defer { factory.removeFiles() }
    let seed = ApolloTier2Records.patternDeleteSeed()
    let keys = seed.keys
    var io = TimedIO()
    try iterate(.tier2PatternDelete, into: &sink) { _ in
      let store = try freshStore()
      try store.merge(records: seed)
      let ns = try io.time { try store.removeRecords(matching: ApolloTier2Records.pattern) }
      let left = try store.loadRecords(forKeys: keys)
      try expectOnlyOthers(left)
      return ns
    }
    io.append(.tier2PatternDelete, repetitions: workload.repetitions, to: &sink)
  }

  /// What a pattern delete of `User_` must leave of its seed: exactly the `Other_` records.
  func expectOnlyOthers(_ left: [CacheKey: Record]) throws {
    try expect(
      left.count == ApolloTier2Records.otherRecords && left.keys.allSatisfy { $0.hasPrefix("Other_") },
      "kept \(left.count) records after removing \"\(ApolloTier2Records.pattern)\"; expected the \(ApolloTier2Records.otherRecords) Other_ records"
    )
  }

  /// The monotonic clock around an iteration's body, and what SQLite asked of the file system in
  /// it (``SQLiteIO``, read outside the clock): `tier2/<scenario>_fsyncs` and
  /// `tier2/<scenario>_writes` of the measured iterations (0 for a store that is not SQLite's).
  private struct TimedIO {
    var counts: [SQLiteIO.Counts] = []

    mutating func time(_ body: () throws -> Void) rethrows -> UInt64 {
      let before = SQLiteIO.counts
      let ns = try MonotonicClock.time(body)
      counts.append(SQLiteIO.counts - before)
      return ns
    }

    /// The counts of the measured iterations (the last `repetitions`) as samples of `metric`'s rows.
    func append(_ metric: Metric, repetitions: Int, to sink: inout MetricSamples) {
      for io in counts.suffix(repetitions) {
        sink.append(Double(io.syncs), to: .tier2Fsyncs(metric))
        sink.append(Double(io.writes), to: .tier2Writes(metric))
      }
    }
  }

  /// The footprint rows (docs/metrics.md#footprint) of a fresh store after the 1,000-record merge,
  /// and `dedup/records` and `dedup/store_bytes`, as the store-level benchmark reports them.
  private func measureFootprint(into sink: inout MetricSamples) throws {
    var footprint: Footprint?
    let harness = Harness(warmup: 0, repetitions: 1)
    _ = try harness.run(make: { try factory.make(configuration) }, cleanUp: factory.removeFiles) { store, repetition in
      // Made after the store and released before the live bytes are read, so the store owns
      // their buffers, as after a real write.
      var records: RecordSet? = ApolloTier2Records.synthetic(count: 1_000)
      try store.merge(records: records!)
      records = nil
      footprint = try store.footprint(of: { ApolloTier2Records.syntheticKeys(count: 1_000) }, liveBytes: try repetition.liveBytes())
      footprint?.settledBytes = try store.capabilities.footprint?.settledBytes()
    }
    guard let footprint else { return }
    try expect(footprint.recordCount == 1_000, "holds \(footprint.recordCount) records after merging 1000")
    sink.append(footprint)
    sink.append(footprint.recordCount, to: .records)
    sink.append(footprint.storeBytes, to: .storeBytes)
  }
}

extension MetricSamples {
  /// The over-fetch gate's ratio (``OverfetchGate``) as one sample of `gate`: the mean of
  /// `overfetch`'s samples over the mean of `matched`'s; nothing when either has none or the
  /// baseline's mean is 0.
  mutating func appendOverfetchGate(_ gate: Metric, overfetch: Metric, matched: Metric) {
    let (over, base) = (self[overfetch], self[matched])
    guard !over.isEmpty, !base.isEmpty, let ratio = OverfetchGate(overfetch: Statistics.mean(over), matched: Statistics.mean(base))?.ratio
    else {
      return
    }
    append(ratio, to: gate)
  }
}

/// One of the projected loads (``ApolloTier2Benchmark``): its records, the keys it loads, and the
/// fields it asks of each.
struct ProjectedScenario {
  let metric: Metric
  let records: RecordSet
  let keys: [CacheKey]
  let projection: FieldProjection
  /// The fields of the asked ones that the loaded records hold: the least a load lends.
  let fieldsAsked: Int

  init(_ metric: Metric, records: RecordSet, keys: [CacheKey], fields: [String], held: Int) {
    self.metric = metric
    self.records = records
    self.keys = keys
    projection = FieldProjection(sets: [FieldSet(fields)], setIndices: Array(repeating: 0, count: keys.count))
    fieldsAsked = held * keys.count
  }

  static let all = [
    ProjectedScenario(
      .tier2ProjectedLoad, records: ApolloTier2Records.synthetic(count: 1), keys: ApolloTier2Records.syntheticKeys(count: 1),
      fields: ApolloTier2Records.projectedFields, held: 3),
    ProjectedScenario(
      .tier2ProjectedBatchLoad, records: ApolloTier2Records.synthetic(count: 100), keys: ApolloTier2Records.syntheticKeys(count: 100),
      fields: ApolloTier2Records.projectedFields, held: 3),
    ProjectedScenario(
      .tier2ProjectedListLoad, records: ApolloTier2Records.lists(), keys: [ApolloTier2Records.listKey],
      fields: ApolloTier2Records.listFields, held: 2),
    ProjectedScenario(
      .tier2InlineFragmentOverfetch, records: ApolloTier2Records.overfetchRecord(), keys: [ApolloTier2Records.overfetchKey],
      fields: ApolloTier2Records.overfetchFields, held: 1 + ApolloTier2Records.fieldsPerTypeCase),
    ProjectedScenario(
      .tier2MatchedTypeCaseOnly, records: ApolloTier2Records.overfetchRecord(), keys: [ApolloTier2Records.overfetchKey],
      fields: ApolloTier2Records.matchedTypeCaseFields, held: ApolloTier2Records.fieldsPerTypeCase),
  ]

  /// One projected load of the keys in a consistent read, the result released inside it: the
  /// records lent, or with `countingFields` the fields they hold.
  func load(from store: any NormalizedCache, countingFields: Bool) throws -> Int {
    try store.withConsistentRead { snapshot in
      var lent = LentRecords()
      try snapshot.lendRecords(forKeys: keys, projection: projection, to: &lent)
      guard countingFields else { return lent.found }
      return (0..<lent.count).reduce(0) { fields, position in fields + (lent[position].map(RecordCodec.fieldCount(of:)) ?? 0) }
    }
  }
}
