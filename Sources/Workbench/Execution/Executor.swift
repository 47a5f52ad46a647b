import Measurement
import NormalizedCache
import Results
import Workloads

/// Runs every configuration of a workload (variant × store × key strategy) through the
/// benchmarks that apply to it, each variant's source prepared once; the one path every
/// measurement takes.
struct Executor {
  let context: ExecutionContext
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
    var mode = mode
    var results: [MeasuredConfiguration] = []
    for variant in try workload.variants {
      let label = workload.name + (variant.name.isEmpty ? "" : " [\(variant.name)]")
      context.progress.setContext(label)
      let source = try prepare(variant.source)
      for spec in variant.stores {
        if case .countInstructions = mode, spec.isLimit { continue }
        for strategy in strategies(for: source) {
          let configuration = Configuration(variant: variant.name, spec: spec, strategy: strategy, source: source)
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
              keyPath: spec.kind == "chain" ? spec.keyPath : "\(spec.keyPath).maxSizeBytes",
              message: "\(error) (\(configuration.context(workload: workload.name)))")
          }
          if !samples.metrics.isEmpty { results.append(MeasuredConfiguration(scope: configuration.scope, samples: samples)) }
          results += scoped
        }
      }
    }
    return results
  }

  /// The strategies a source is measured under: the workload's, or for the store-level benchmark
  /// (whose records are keyed `Item:N`, as a type policy keys them) `typePolicy` alone.
  private func strategies(for source: PreparedVariant) -> [NamedStrategy] {
    if case .storeRecords = source { return [NamedStrategy(name: "typePolicy", strategy: .typePolicy)] }
    return workload.keys
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
