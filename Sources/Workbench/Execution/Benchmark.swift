import Measurement
import Results
import Workloads

/// What every benchmark of a run shares: the workload, the stores' factory, progress.
struct ExecutionContext {
  let workload: Workload
  let factory: StoreFactory
  let progress: Progress
}

/// One kind of measurement the executor runs a configuration through (as package-benchmark runs
/// every benchmark through one runner): each says whether it applies to a configuration, measures
/// it into samples, and may count its instructions under callgrind.
protocol Benchmark {
  /// The benchmark of this configuration, nil when it does not apply.
  init?(_ configuration: Configuration, _ context: ExecutionContext)

  /// Appends its samples; nothing by default.
  func measure(into samples: inout MetricSamples) throws

  /// The configurations of its own it measured, not samples of the configuration it runs on (the
  /// concurrency phase's, one per reader count, under the variant `readers=N`); none by default.
  func measureScopes() throws -> [MeasuredConfiguration]

  /// Appends the instructions of what it measures (`run --instructions`); nothing by default.
  func countInstructions(into samples: inout MetricSamples, counter: inout InstructionCounter) throws
}

extension Benchmark {
  func measure(into samples: inout MetricSamples) throws {}
  func measureScopes() throws -> [MeasuredConfiguration] { [] }
  func countInstructions(into samples: inout MetricSamples, counter: inout InstructionCounter) throws {}
}
