import Measurement
import NormalizedCache
import Results
import Support
import Workloads

/// Runs every configuration of a workload (variant × store × key strategy) through the
/// benchmarks that apply to it, each variant's source prepared once; the one path every
/// measurement takes.
struct Executor {
  let context: ExecutionContext
  /// Only this share of the configurations; nil for all.
  var shard: Shard? = nil
  var workload: Workload { context.workload }

  /// Every benchmark, in the order they run on a configuration, with the phase a failure is
  /// reported in: the store-level benchmark, Apollo's Tier-2 scenarios, the list scenarios, the limit stores', the
  /// cache's write and read phases, then the traffic (which leaves the store changed), then reads
  /// on several threads (on a store of its own; not under callgrind, which runs one thread at a
  /// time).
  /// (A computed list: metatypes of a protocol that is not `Sendable` cannot be a static `let`.)
  static var benchmarks: [(type: any Benchmark.Type, phase: String)] {
    [
      (StoreRecordsBenchmark.self, "store-level benchmark"), (ApolloTier2Benchmark.self, "Apollo's Tier-2 scenarios"),
      (ApolloTier3Benchmark.self, "Apollo's Tier-3 scenarios"),
      (ListsBenchmark.self, "list scenarios"),
      (LimitBenchmark.self, "limit store"), (CacheBenchmark.self, "write and read"),
      (TrafficBenchmark.self, "traffic"), (ConcurrencyBenchmark.self, "concurrency"),
    ]
  }

  enum Mode {
    case measure
    /// Instructions only (`run --instructions`' child, under callgrind): no limit stores.
    case countInstructions(InstructionCounter)

    var isCountingInstructions: Bool {
      if case .countInstructions = self { return true }
      return false
    }
  }

  func run(_ mode: Mode) throws -> [MeasuredConfiguration] {
    try runShare(mode).configurations
  }

  /// Every configuration of the shard (all without one) and, hidden, the limit stores of other
  /// shards that its stores are compared with: measured, but not its own. In the run's one order
  /// (``ConfigurationSequence``); each variant's source prepared once, and its plans warmed.
  func runShare(_ mode: Mode) throws -> (configurations: [MeasuredConfiguration], hidden: Set<ConfigurationID>) {
    var mode = mode
    let sequence = try ConfigurationSequence(workload)
    var results: [MeasuredConfiguration] = []
    var hidden: Set<ConfigurationID> = []
    for (variant, entries) in sequence.variants {
      let label = workload.name + (variant.name.isEmpty ? "" : " [\(variant.name)]")
      context.progress.setContext(label)
      let source = try PreparedVariant(variant.source, workload: workload, progress: context.progress)
      try warmPlans(
        source, strategies: ConfigurationSequence.strategies(for: variant.source, workload: workload),
        dated: entries.contains { $0.spec.dates }, projectsFields: variant.read.projectedReads)
      for entry in entries {
        let (measured, mine) = sequence.measures(entry, in: shard)
        // The child of --instructions skips the limit stores, but numbers them alike; in Apollo's
        // Tier-2 scenarios it counts them, each layout's floor beside the layout.
        var counted = !entry.spec.isLimit
        if case .apolloTier2 = variant.source { counted = true }
        guard measured, counted || !mode.isCountingInstructions else { continue }
        if !mine { hidden.insert(entry.id) }
        context.progress.setContext("\(label) \(entry.spec.label) × \(entry.strategy.name)")
        results += try measure(Configuration(entry, source: source), mode: &mode)
      }
    }
    return (results, hidden)
  }

  /// One configuration through every benchmark that applies to it: its own samples (when it has
  /// any), then the configurations of its own that a scoped benchmark measured.
  private func measure(_ configuration: Configuration, mode: inout Mode) throws -> [MeasuredConfiguration] {
    var samples = MetricSamples()
    var scoped: [MeasuredConfiguration] = []
    for (type, phase) in Self.benchmarks {
      guard let benchmark = type.init(configuration, context) else { continue }
      do {
        switch mode {
        case .measure:
          try benchmark.measure(into: &samples)
          scoped += try benchmark.measureScopes()
        case .countInstructions(var counter):
          try benchmark.countInstructions(into: &samples, counter: &counter)
          mode = .countInstructions(counter)
        }
      } catch {
        throw Self.reported(error, configuration: configuration, workload: workload, phase: phase)
      }
    }
    return (samples.metrics.isEmpty ? [] : [MeasuredConfiguration(scope: configuration.scope, samples: samples)]) + scoped
  }

  /// What a configuration's failure is reported as: a response that does not fit its operation as
  /// the workload's bad input (65); a record or roots past a store's budget at the key path of the
  /// store's budget (``StoreSpec/budgetKeyPath``: its `maxSizeBytes`, or the chain's), 65; anything else with the workload, the variant,
  /// the store, the strategy and the phase it happened in, and its own exit code.
  static func reported(_ error: any Error, configuration: Configuration, workload: Workload, phase: String) -> any Error {
    let context = configuration.context(workload: workload.name)
    switch error {
    case let error as NormalizationError:
      return InputDataError(file: workload.file, message: "\(error)")
    case let error as CacheBudgetError:
      return WorkloadError(
        file: workload.file, location: nil, keyPath: configuration.spec.budgetKeyPath, message: "\(error) (\(context))")
    case is InputDataError, is WorkloadError, is InputError:
      return error
    default:
      let message = String(describing: error)
      guard !message.contains(context) else { return error }
      return RunError("\(message) (\(context), \(phase))", exitCode: ExitCode(for: error))
    }
  }

  /// Writes and reads every response once under each strategy, on throwaway stores, before any
  /// configuration is measured: a plan fills its memos (the fields per type at each place, the
  /// reader's steps) the first time it is used, and the first configuration measured would count
  /// those allocations and instructions as its own. So every configuration meets warm plans,
  /// whatever ran before it (a shard of a split run starts elsewhere in the order). The limit
  /// dictionary is written and read too: a shard that started with it counted some 16 kB that its
  /// code's first use allocates (`sharded.json` in 5 shards; 3 shards moved 256 bytes once the
  /// executor's loop changed).
  /// With `dated` (a store of the variant keeps dates), the dated paths too: dated writes merged
  /// over each other, and reads with a clock.
  private func warmPlans(_ source: PreparedVariant, strategies: [NamedStrategy], dated: Bool, projectsFields: Bool) throws {
    guard case .responses(let prepared) = source else { return }
    for strategy in strategies {
      let normalizer = Normalizer(strategy: strategy.strategy)
      for (index, item) in prepared.items.enumerated() {
        if index % 64 == 0 {
          context.progress.update("warming the plans (\(strategy.name)), response \(index + 1)/\(prepared.items.count)")
        }
        let store = InMemoryNormalizedCache()
        let records = try normalizer.normalize(try item.response(), plan: item.plan).records
        try store.merge(records: records)
        // The limit dictionary's code too (the records' encoded bytes, its table's types): a shard
        // can start with a limit store, which would count what its first use allocates.
        let limit = LimitDictionary()
        _ = limit.merge(records: records)
        _ = limit.loadRecordsInOrder(forKeys: records.keys)
        // A read that fails (a null where the schema says non-null) is reported by the measured
        // pass, with its configuration; warming only needs it tried.
        do { _ = try strategy.makeReader(store, workload: workload, projectsFields: projectsFields).read(item.plan) } catch is ReadError {}
        if dated { try warmDates(item, normalizer: normalizer, strategy: strategy, projectsFields: projectsFields) }
      }
      try warmMeasuredPath(prepared, normalizer: normalizer)
    }
  }

  /// One response's dated path on a throwaway store: written, written again later (every date
  /// moves), read with a clock in both modes.
  private func warmDates(_ item: ResponseItem, normalizer: Normalizer, strategy: NamedStrategy, projectsFields: Bool) throws {
    let store = InMemoryNormalizedCache()
    let start = TrafficSettings.defaultStartAt
    for date in [start, start + 1] {
      try store.merge(records: try normalizer.normalize(try item.response(), plan: item.plan, writtenAt: date).records)
    }
    let reader = strategy.makeReader(store, workload: workload, projectsFields: projectsFields)
    for mode in TTLEnforcement.allCases {
      do { _ = try reader.read(item.plan, clock: ReadClock(now: start + 2, ttl: mode)) } catch is ReadError {}
    }
  }

  /// The measured path itself, once, on a throwaway store: the harness and its samples, jemalloc's
  /// statistics, the parse of a response's bytes, the store's footprint. The Swift runtime
  /// allocates the metadata of a type's first use in pools of 16 kB, which the first configuration
  /// measured counted as live bytes of its store when its path was the first to need a new pool
  /// (`sharded.json` run whole against run in three shards, after the reader's result grew).
  private func warmMeasuredPath(_ prepared: PreparedSource, normalizer: Normalizer) throws {
    guard let item = prepared.items.first else { return }
    _ = try Harness(warmup: 0, repetitions: 1).run(make: { InMemoryNormalizedCache() }) { store, repetition in
      let json = try item.json()
      let response = try repetition.time(.parseLatency) { try item.parse(json) }
      let normalized = try repetition.time(.normalizeLatency) { try normalizer.normalize(response, plan: item.plan) }
      try repetition.time(.mergeLatency) { try store.merge(records: normalized.records) }
      _ = store.footprint(liveBytes: try repetition.liveBytes())
    }
  }
}
