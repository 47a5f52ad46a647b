import NormalizedCache
import Results

/// Collects the rows of one run: every metric as a summary row, and, when asked, every sample.
struct MetricSink {
  let run: RunInfo
  let workload: String
  let keepSamples: Bool
  private(set) var rows: [MetricRow] = []
  private(set) var samples: [SampleRow] = []

  init(run: RunInfo, workload: String, keepSamples: Bool) {
    self.run = run
    self.workload = workload
    self.keepSamples = keepSamples
  }

  /// The coordinates of the metrics being added: variant, store and strategy.
  struct Scope {
    let variant: String
    let store: String
    let keys: String
  }

  /// One row summarizing `values`; none when there are no values.
  mutating func add(_ scope: Scope, _ metric: Metric, samples values: [Double]) {
    guard var summary = Summary(values) else { return }
    if metric.unit == .ns {
      // Interpolated percentiles of nanoseconds carry float noise (2079784.0999999999): a tenth
      // of a nanosecond is more than any clock here resolves.
      func round(_ value: Double) -> Double { (value * 10).rounded() / 10 }
      summary = Summary(
        n: summary.n, min: round(summary.min), p50: round(summary.p50), p90: round(summary.p90), p99: round(summary.p99),
        max: round(summary.max), mean: round(summary.mean), stddev: round(summary.stddev))
    }
    let key = MetricKey(
      workload: workload, variant: scope.variant, store: scope.store, keys: scope.keys, phase: metric.phase,
      metric: metric.name)
    rows.append(
      MetricRow(
        run: run, key: key, unit: metric.unit, better: metric.better, deterministic: metric.deterministic,
        summary: summary))
    if keepSamples {
      samples += SampleRow.rows(runID: run.runID, key: key, unit: metric.unit, samples: values)
    }
  }

  /// One row of a single value: every statistic is the value (SPEC §6).
  mutating func add(_ scope: Scope, _ metric: Metric, value: Double) {
    add(scope, metric, samples: [value])
  }

  /// One row per metric of `samples`, in their order.
  mutating func add(_ scope: Scope, _ samples: MetricSamples) {
    for metric in samples.metrics { add(scope, metric, samples: samples[metric]) }
  }

  /// `numerator / denominator`, 0 when the denominator is.
  static func ratio(_ numerator: Int, _ denominator: Int) -> Double {
    denominator == 0 ? 0 : Double(numerator) / Double(denominator)
  }
}
