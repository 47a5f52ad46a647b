import Results
import Workloads

/// An app session on a store (SPEC §9, `traffic`).
struct TrafficBenchmark: Benchmark {
  init?(_ configuration: Configuration, _ context: ExecutionContext) {
    return nil
  }

  func measure(into samples: inout MetricSamples) throws {}
}
