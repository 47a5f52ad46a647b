import NormalizedCache

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
    let keys: KeyStrategyName
  }

  mutating func add(
    _ scope: Scope, _ phase: Phase, _ metric: String, unit: MetricUnit, better: Better = .lower,
    deterministic: Bool, samples values: [Double]
  ) {
    guard var summary = Summary(values) else { return }
    if unit == .ns {
      // Interpolated percentiles of nanoseconds carry float noise (2079784.0999999999): a tenth
      // of a nanosecond is more than any clock here resolves.
      func round(_ value: Double) -> Double { (value * 10).rounded() / 10 }
      summary = Summary(
        n: summary.n, min: round(summary.min), p50: round(summary.p50), p90: round(summary.p90), p99: round(summary.p99),
        max: round(summary.max), mean: round(summary.mean), stddev: round(summary.stddev))
    }
    let key = MetricKey(
      workload: workload, variant: scope.variant, store: scope.store, keys: scope.keys, phase: phase, metric: metric)
    rows.append(MetricRow(run: run, key: key, unit: unit, better: better, deterministic: deterministic, summary: summary))
    if keepSamples {
      for (index, value) in values.enumerated() {
        samples.append(SampleRow(runID: run.runID, key: key, unit: unit, index: index, value: value))
      }
    }
  }

  mutating func add(
    _ scope: Scope, _ phase: Phase, _ metric: String, unit: MetricUnit, better: Better = .lower,
    deterministic: Bool, value: Double
  ) {
    add(scope, phase, metric, unit: unit, better: better, deterministic: deterministic, samples: [value])
    // One value: Summary fills every statistic with it (SPEC §6).
  }
}
