import Measurement
import NormalizedCache
import Results
import Workloads

/// A benchmark that runs its scenarios as Apollo's `BenchmarkHarness.measure` runs its body
/// (docs/apollo.md): `warmup` iterations, then `repetitions` measured ones, each timing its own
/// body, one sample per measured iteration. Apollo's Tier-2 scenarios and the list scenarios.
protocol IteratedBenchmark: Benchmark {
  var configuration: Configuration { get }
  var context: ExecutionContext { get }
}

extension IteratedBenchmark {
  var workload: Workload { context.workload }
  var factory: StoreFactory { context.factory }
  var label: String { configuration.spec.label }
  /// Warm-ups and measured iterations together: what a scenario runs.
  var iterations: Int { workload.warmup + workload.repetitions }

  /// Runs `iteration` `warmup` + `repetitions` times, keeping the nanoseconds each returns from the
  /// measured ones (the iterations after the warm-ups) as samples of `metric`. Each iteration times
  /// its own body, so that its setup and checks stay outside the clock.
  func iterate(_ metric: Metric, into sink: inout MetricSamples, _ iteration: (Int) throws -> UInt64) throws {
    for index in 0..<iterations {
      context.progress.update("\(metric.name), iteration \(index + 1)/\(iterations)")
      let ns = try iteration(index)
      if index >= workload.warmup { sink.append(Double(ns), to: metric) }
    }
  }

  /// A fresh, empty store, the previous one released and its files removed first.
  func freshStore() throws -> any NormalizedCache {
    factory.removeFiles()
    return try factory.make(configuration)
  }

  /// Fails the run, naming the store, when a scenario's check does not hold.
  func expect(_ condition: Bool, _ problem: @autoclosure () -> String) throws {
    guard condition else { throw RunError("\(label) \(problem())") }
  }
}
