import Results
import Workloads

/// The coordinates of one measured configuration: the variant, the store's label and the key
/// strategy's name (the CSV's `variant`, `store` and `keys` columns), and for a concurrency run the
/// reader threads it ran with.
package struct Scope: Sendable, Hashable {
  package let configuration: ConfigurationID
  /// The concurrency phase's reader threads; nil for every other scope.
  package let readers: Int?

  package init(variant: String, store: String, keys: String, readers: Int? = nil) {
    configuration = ConfigurationID(variant: variant, store: store, keys: keys)
    self.readers = readers
  }

  package var variant: String { configuration.variant }
  package var store: String { configuration.store }
  package var keys: String { configuration.keys }
}

/// What one configuration measured: every metric's samples, in the order each was first
/// recorded. The rows, the table and the comparisons all read these, by ``Metric``.
package struct MeasuredConfiguration: Sendable {
  package let scope: Scope
  package let samples: MetricSamples

  package init(scope: Scope, samples: MetricSamples) {
    self.scope = scope
    self.samples = samples
  }

  /// The summary of one metric as its row gives it (nanoseconds to a tenth), nil when not measured.
  package func summary(_ metric: Metric) -> Summary? {
    guard let summary = Summary(samples[metric]) else { return nil }
    return metric.unit == .ns ? summary.roundedToTenths : summary
  }

  /// One row per metric, in order (docs/csv.md).
  func rows(run: RunInfo, workload: String) -> [MetricRow] {
    samples.metrics.compactMap { metric in
      summary(metric).map { MetricRow(run: run, key: key(metric, workload: workload), metric: metric, summary: $0) }
    }
  }

  /// One row per sample (`--samples`).
  func sampleRows(run: RunInfo, workload: String) -> [SampleRow] {
    samples.metrics.flatMap { metric in
      SampleRow.rows(runID: run.runID, key: key(metric, workload: workload), unit: metric.unit, samples: samples[metric])
    }
  }

  func key(_ metric: Metric, workload: String) -> MetricKey {
    MetricKey(
      workload: workload, variant: scope.variant, store: scope.store, keys: scope.keys, phase: metric.phase, metric: metric.name,
      readers: scope.readers)
  }
}

/// A store's timings against its limit store's (docs/metrics.md, `"limits": true`): for every
/// timing both measured (same variant and key strategy), the limit's p50 over the store's: 1 is as
/// fast as storing the bytes at all, 0.25 four times slower.
package struct LimitComparison: Sendable {
  package let scope: Scope
  package let limit: LimitStore
  package let ratios: [(metric: Metric, ratio: Double)]

  /// Every store of `stores` that has a limit store measured beside it, against it.
  static func make(_ configurations: [MeasuredConfiguration], stores: [StoreSpec]) -> [LimitComparison] {
    let limits = Dictionary(stores.compactMap { store in store.limit.map { (store.label, $0) } }, uniquingKeysWith: { first, _ in first })
    var byScope: [Scope: MeasuredConfiguration] = [:]
    for configuration in configurations { byScope[configuration.scope] = configuration }
    return configurations.compactMap { configuration in
      let scope = configuration.scope
      guard let limit = limits[scope.store],
        let limitResult = byScope[Scope(variant: scope.variant, store: limit.label, keys: scope.keys)]
      else { return nil }
      let ratios = configuration.samples.metrics.compactMap { metric -> (metric: Metric, ratio: Double)? in
        guard metric.unit == .ns, let mine = configuration.summary(metric)?.p50, mine > 0,
          let theirs = limitResult.summary(metric)?.p50
        else { return nil }
        return (metric, theirs / mine)
      }
      return ratios.isEmpty ? nil : LimitComparison(scope: scope, limit: limit, ratios: ratios)
    }
  }

  func rows(run: RunInfo, workload: String) -> [MetricRow] {
    ratios.map { metric, ratio in
      let ratioMetric = Metric.versusLimit(metric)
      let key = MetricKey(
        workload: workload, variant: scope.variant, store: scope.store, keys: scope.keys, phase: ratioMetric.phase,
        metric: ratioMetric.name)
      return MetricRow(run: run, key: key, metric: ratioMetric, summary: Summary([ratio])!)
    }
  }
}

extension MetricRow {
  /// The row of one metric's summary.
  init(run: RunInfo, key: MetricKey, metric: Metric, summary: Summary) {
    self.init(run: run, key: key, unit: metric.unit, better: metric.better, deterministic: metric.deterministic, summary: summary)
  }
}

extension Summary {
  /// Interpolated percentiles of nanoseconds carry float noise (2079784.0999999999): a tenth of a
  /// nanosecond is more than any clock here resolves.
  var roundedToTenths: Summary {
    func round(_ value: Double) -> Double { (value * 10).rounded() / 10 }
    return Summary(
      n: n, min: round(min), p50: round(p50), p90: round(p90), p99: round(p99), max: round(max), mean: round(mean),
      stddev: round(stddev))
  }
}
