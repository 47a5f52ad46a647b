import Measurement
import NormalizedCache
import Results
import Workloads

/// Runs every configuration of a workload (variant × store × key strategy) through the
/// benchmarks that apply to it, each variant's source prepared once; the one path every
/// measurement takes.
struct Executor {
  let context: ExecutionContext
  /// Only this share of the configurations; nil for all.
  var shard: Shard? = nil
  var workload: Workload { context.workload }

  /// Every benchmark, in the order they run on a configuration: the store-level benchmark, the
  /// limit stores', the cache's write and read phases, then the traffic (which leaves the store
  /// changed), then reads on several threads (on a store of its own; not under callgrind, which
  /// runs one thread at a time).
  nonisolated(unsafe) static let benchmarks: [any Benchmark.Type] = [
    StoreRecordsBenchmark.self, LimitBenchmark.self, CacheBenchmark.self, TrafficBenchmark.self, ConcurrencyBenchmark.self,
  ]

  enum Mode {
    case measure
    /// Instructions only (`run --instructions`' child, under callgrind): no limit stores.
    case countInstructions(InstructionCounter)
  }

  func run(_ mode: Mode) throws -> [MeasuredConfiguration] {
    try runShare(mode).configurations
  }

  /// Every configuration of the shard (all without one) and, hidden, the limit stores of other
  /// shards that its stores are compared with: measured, but not its own.
  func runShare(_ mode: Mode) throws -> (configurations: [MeasuredConfiguration], hidden: Set<Scope>) {
    var mode = mode
    var results: [MeasuredConfiguration] = []
    var hidden: Set<Scope> = []
    // The canonical position of each configuration: variant × store × strategy in this order,
    // limit stores included (the child of --instructions skips them but numbers them alike).
    var position = 0
    for variant in try workload.variants {
      let label = workload.name + (variant.name.isEmpty ? "" : " [\(variant.name)]")
      context.progress.setContext(label)
      let source = try prepare(variant.source)
      let strategies = strategies(for: source)
      try warmPlans(source, strategies: strategies)
      // The limit stores this shard's stores need, by strategy.
      var neededLimits: Set<String> = []
      if let shard {
        for (storeIndex, spec) in variant.stores.enumerated() {
          for (strategyIndex, strategy) in strategies.enumerated()
          where shard.contains(position + storeIndex * strategies.count + strategyIndex) {
            if let limit = spec.limit { neededLimits.insert("\(limit.rawValue)\u{1F}\(strategy.name)") }
          }
        }
      }
      for spec in variant.stores {
        for strategy in strategies {
          defer { position += 1 }
          let mine = shard?.contains(position) ?? true
          let needed = spec.isLimit && neededLimits.contains("\(spec.label)\u{1F}\(strategy.name)")
          guard mine || needed else { continue }
          if case .countInstructions = mode, spec.isLimit { continue }
          let configuration = Configuration(variant: variant.name, spec: spec, strategy: strategy, source: source)
          if !mine { hidden.insert(configuration.scope) }
          context.progress.setContext("\(label) \(spec.label) × \(strategy.name)")
          var samples = MetricSamples()
          var scoped: [MeasuredConfiguration] = []
          do {
            for type in Self.benchmarks {
              guard let benchmark = type.init(configuration, context) else { continue }
              switch mode {
              case .measure:
                if let benchmark = benchmark as? any ScopedBenchmark {
                  scoped += try benchmark.measureScopes()
                } else {
                  try benchmark.measure(into: &samples)
                }
              case .countInstructions(var counter):
                try benchmark.countInstructions(into: &samples, counter: &counter)
                mode = .countInstructions(counter)
              }
            }
          } catch let error as NormalizationError {
            throw InputDataError(file: workload.file, message: "\(error)")
          } catch let error as CacheBudgetError {
            throw WorkloadError(
              file: workload.file, location: nil,
              keyPath: spec.budgetKeyPath,
              message: "\(error) (\(configuration.context(workload: workload.name)))")
          }
          if !samples.metrics.isEmpty { results.append(MeasuredConfiguration(scope: configuration.scope, samples: samples)) }
          results += scoped
        }
      }
    }
    return (results, hidden)
  }

  /// The strategies a source is measured under: the workload's, or for the store-level benchmark
  /// (whose records are keyed `Item:N`, as a type policy keys them) `typePolicy` alone.
  private func strategies(for source: PreparedVariant) -> [NamedStrategy] {
    if case .storeRecords = source { return [NamedStrategy(name: "typePolicy", strategy: .typePolicy)] }
    return workload.keys
  }

  /// Writes and reads every response once under each strategy, on throwaway stores, before any
  /// configuration is measured: a plan fills its memos (the fields per type at each place, the
  /// reader's steps) the first time it is used, and the first configuration measured would count
  /// those allocations and instructions as its own. So every configuration meets warm plans,
  /// whatever ran before it (a shard of a split run starts elsewhere in the order).
  private func warmPlans(_ source: PreparedVariant, strategies: [NamedStrategy]) throws {
    guard case .responses(let prepared) = source else { return }
    for strategy in strategies {
      let normalizer = Normalizer(strategy: strategy.strategy)
      for (index, item) in prepared.items.enumerated() {
        if index % 64 == 0 { context.progress.update("warming the plans (\(strategy.name)), response \(index + 1)/\(prepared.items.count)") }
        let store = InMemoryNormalizedCache()
        try store.merge(records: try normalizer.normalize(try item.response(), plan: item.plan).records)
        // A read that fails (a null where the schema says non-null) is reported by the measured
        // pass, with its configuration; warming only needs it tried.
        do { _ = try strategy.makeReader(store, workload: workload).read(item.plan) } catch is ReadError {}
      }
    }
  }

  private func prepare(_ source: Workload.Source) throws -> PreparedVariant {
    switch source {
    case .storeRecords(let config): .storeRecords(config)
    case .generator(let config):
      .responses(try PreparedSource.generated(seed: workload.seed, config: config, progress: context.progress))
    case .recorded(let recorded): .responses(try PreparedSource.recorded(recorded, progress: context.progress))
    }
  }
}
