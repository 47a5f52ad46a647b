import Support

/// The regression gate behind `cachebench compare`: a baseline run's metrics against a current
/// run's, one verdict per metric (docs/gate.md). Pure: rows in, verdicts out.
///
/// ```swift
/// let comparison = try Comparison(
///   baseline: ResultsFile.read(MetricRow.self, from: "Baselines/quick.csv"),
///   current: ResultsFile.read(MetricRow.self, from: "current.csv")
/// )
/// print(comparison.report())
/// exit(comparison.hasRegressions ? 2 : 0)
/// ```
///
/// Rows are joined on ``MetricKey`` (workload, variant, store, keys, phase, metric).
/// - A deterministic metric (counts, bytes, ratios: `deterministic=true`) is compared on every
///   statistic, in the order `n, min, p50, p90, p99, max, mean`. It `regressed` when any statistic
///   is worse beyond ``ComparisonOptions/deterministicTolerance`` (0 by default, up to a relative
///   10⁻⁹ that absorbs floating-point noise in derived ratios; `instructions` on the mean only,
///   within 0.5%), or when `n` differs; otherwise it
///   `improved` when any statistic is better: an intended saving, which asks for a baseline
///   refresh. The verdict names the first statistic that decided it.
/// - A timing (`deterministic=false`) is never judged from one run per side: whole runs shift by
///   10-25% on a shared machine, so a change beyond the threshold is `advisory`, shown but never
///   failing, and a smaller one `unchanged`. Its statistic is `p50`.
/// - A metric in the current run only is `added`, in the baseline only `removed`; neither fails
///   the gate.
/// - A metric a thresholds file gives a tolerance (``ComparisonOptions/tolerances``) is judged as
///   above, on the same statistics, but passes when each moved by `max(absolute, relative ×
///   |baseline|)` or less, in place of the default tolerance or threshold (docs/gate.md#thresholds).
///
/// Verdicts come in the current run's row order, then the removed metrics in the baseline's.
package struct Comparison: Sendable, Hashable {
  package var options: ComparisonOptions
  package var verdicts: [Verdict]

  /// Compares `current` against `baseline`.
  ///
  /// - Throws: ``ComparisonError`` when one side has two rows for one metric, or a metric's unit or
  ///   direction differs between the sides.
  package init(
    baseline: [MetricRow], current: [MetricRow], options: ComparisonOptions = ComparisonOptions()
  ) throws(ComparisonError) {
    let baselineByKey = try Self.index(baseline, side: .baseline)
    let currentByKey = try Self.index(current, side: .current)
    let baselineWorkloads = Set(baseline.map(\.key.workload))
    let currentWorkloads = Set(current.map(\.key.workload))
    if !baselineWorkloads.isEmpty, !currentWorkloads.isEmpty, baselineWorkloads.isDisjoint(with: currentWorkloads) {
      throw .differentWorkloads(baseline: baselineWorkloads.sorted(), current: currentWorkloads.sorted())
    }
    var verdicts: [Verdict] = []
    for row in current {
      guard let old = baselineByKey[row.key] else {
        verdicts.append(Verdict(row: row, statistic: .p50, baseline: nil, current: row.summary.p50, status: .added))
        continue
      }
      if old.unit != row.unit {
        throw .changedDefinition(
          row.key, column: "unit", baseline: old.unit.rawValue, current: row.unit.rawValue)
      }
      if old.better != row.better {
        throw .changedDefinition(
          row.key, column: "better", baseline: old.better.rawValue, current: row.better.rawValue)
      }
      let (statistic, status) = Self.judge(baseline: old, current: row, options: options)
      verdicts.append(
        Verdict(
          row: row, statistic: statistic, baseline: old.summary[statistic], current: row.summary[statistic],
          status: status))
    }
    for row in baseline where currentByKey[row.key] == nil {
      verdicts.append(Verdict(row: row, statistic: .p50, baseline: row.summary.p50, current: nil, status: .removed))
    }
    self.options = options
    self.verdicts = verdicts
  }

  /// The verdict on one metric present on both sides, and the statistic that decided it.
  package static func judge(
    baseline: MetricRow, current: MetricRow, options: ComparisonOptions
  ) -> (Summary.Statistic, VerdictStatus) {
    // A thresholds file's entry replaces the defaults for its rows (docs/gate.md#thresholds).
    let tolerance = options.tolerances[current.key]
    guard current.deterministic || baseline.deterministic else {
      let (old, new) = (baseline.summary.p50, current.summary.p50)
      let bound = tolerance?.bound(baseline: old) ?? options.threshold * abs(old)
      return (.p50, status(baseline: old, current: new, better: current.better, deterministic: false, bound: bound))
    }
    if baseline.summary.n != current.summary.n { return (.n, .regressed) }
    let judged = current.key.isInstructions ? [.mean] : Summary.Statistic.judged
    var relative = Swift.max(options.deterministicTolerance, ComparisonOptions.floatingPointNoise)
    if current.key.isInstructions { relative = Swift.max(relative, ComparisonOptions.instructionTolerance) }
    /// The largest change of a statistic whose baseline is `old` that passes: the file's tolerance,
    /// never below the floating-point noise; else the default relative tolerance.
    func bound(_ old: Double) -> Double {
      guard let tolerance else { return relative * abs(old) }
      return Swift.max(tolerance.bound(baseline: old), ComparisonOptions.floatingPointNoise * abs(old))
    }
    let statuses = judged.map { statistic in
      let old = baseline.summary[statistic]
      let status = status(
        baseline: old, current: current.summary[statistic], better: current.better, deterministic: true, bound: bound(old))
      return (statistic, status)
    }
    return statuses.first { $0.1 == .regressed } ?? statuses.first { $0.1 == .improved } ?? (.p50, .unchanged)
  }

  /// The verdict on one statistic that went from `baseline` to `current` (see ``Comparison``):
  /// for a deterministic metric, worse beyond the tolerance is `regressed` and better `improved`;
  /// for a timing, a change beyond the threshold either way is `advisory`.
  package static func status(
    baseline: Double, current: Double, better: Better, deterministic: Bool,
    options: ComparisonOptions
  ) -> VerdictStatus {
    let tolerance =
      deterministic
      ? Swift.max(options.deterministicTolerance, ComparisonOptions.floatingPointNoise) : options.threshold
    return status(baseline: baseline, current: current, better: better, deterministic: deterministic, bound: tolerance * abs(baseline))
  }

  /// The verdict on one statistic, as above, with the largest change that passes given: a change
  /// of `bound` or less is `unchanged`.
  static func status(baseline: Double, current: Double, better: Better, deterministic: Bool, bound: Double) -> VerdictStatus {
    let worse = better == .lower ? current - baseline : baseline - current
    if !deterministic { return abs(current - baseline) > bound ? .advisory : .unchanged }
    if worse > bound { return .regressed }
    if -worse > bound { return .improved }
    return .unchanged
  }

  /// Whether any metric regressed: the gate fails (exit code 2).
  package var hasRegressions: Bool { verdicts.contains { $0.status == .regressed } }

  /// The verdicts of one status, in order.
  package func verdicts(_ status: VerdictStatus) -> [Verdict] {
    verdicts.filter { $0.status == status }
  }

  /// How many verdicts have `status`.
  package func count(_ status: VerdictStatus) -> Int {
    verdicts.reduce(0) { $0 + ($1.status == status ? 1 : 0) }
  }

  private static func index(
    _ rows: [MetricRow], side: ComparisonError.Side
  ) throws(ComparisonError) -> [MetricKey: MetricRow] {
    var byKey: [MetricKey: MetricRow] = [:]
    for row in rows {
      guard byKey.updateValue(row, forKey: row.key) == nil else { throw .duplicate(row.key, side) }
    }
    return byKey
  }
}

extension Summary {
  /// The statistics of a row, by the names of its CSV columns.
  package enum Statistic: String, Sendable, Hashable, CaseIterable {
    case n, min, p50, p90, p99, max, mean

    /// The statistics a deterministic metric is judged on, in order (all but `n`, which must be
    /// equal).
    static let judged: [Statistic] = [.min, .p50, .p90, .p99, .max, .mean]
  }

  package subscript(statistic: Statistic) -> Double {
    switch statistic {
    case .n: Double(n)
    case .min: min
    case .p50: p50
    case .p90: p90
    case .p99: p99
    case .max: max
    case .mean: mean
    }
  }
}

/// How far a metric may move before it counts as changed.
package struct ComparisonOptions: Sendable, Hashable {
  /// The default threshold, 10%: a timing's p50 that moves further is shown as `advisory`.
  package static let defaultThresholdPercent = 10.0

  /// The relative tolerance of `instructions` rows (docs/gate.md), which are judged on their mean
  /// only: counts under callgrind agree within 0.1% from run to run of one binary, but the same
  /// source built in another directory moves single samples by up to 1.5% and the p50 of eight by
  /// 0.44% (the binary's layout changes the probes of the Swift runtime's address-keyed caches),
  /// while the mean, every sample's share of the total, stayed within 0.23%.
  package static let instructionTolerance = 0.005

  /// The relative tolerance of deterministic metrics at tolerance 0: the last bits of a ratio that
  /// a different compiler computes in another order.
  static let floatingPointNoise = 1e-9

  /// The relative change of a timing median that is shown (0.10 for 10%).
  package var threshold: Double
  /// The relative change of a deterministic metric that counts; 0, the default, means equal.
  package var deterministicTolerance: Double
  /// The tolerance of each metric a thresholds file gives one (``Thresholds``), which replaces
  /// ``threshold`` or ``deterministicTolerance`` (and `instructions`' 0.5%) for it: a statistic
  /// passes when its change is within `max(absolute, relative × |baseline|)`, and a deterministic
  /// one within the floating-point noise too.
  package var tolerances: [MetricKey: Tolerance] = [:]
  /// The thresholds file the tolerances come from, which the report names.
  package var thresholdsFile: String?

  /// Thresholds as fractions (`0.10`); the default is 10% for timings, equality for the rest.
  package init(threshold: Double = defaultThresholdPercent / 100, deterministicTolerance: Double = 0) {
    precondition(threshold >= 0 && threshold.isFinite, "a threshold is a non-negative number")
    precondition(deterministicTolerance >= 0 && deterministicTolerance.isFinite)
    self.threshold = threshold
    self.deterministicTolerance = deterministicTolerance
  }

  /// Thresholds in percent, as `--threshold PCT` gives them (`10` for 10%).
  package init(thresholdPercent: Double, deterministicTolerancePercent: Double = 0) {
    self.init(
      threshold: thresholdPercent / 100, deterministicTolerance: deterministicTolerancePercent / 100
    )
  }
}

/// What became of one metric between the baseline and the current run.
package enum VerdictStatus: String, Sendable, Hashable, CaseIterable {
  /// Worse: fails the gate.
  case regressed
  /// Better: refresh the baseline.
  case improved
  case unchanged
  /// A timing changed beyond the threshold, from one run per side: shown, never failing.
  case advisory
  /// From repeated runs: a timing that moved beyond the threshold without the runs showing it is
  /// more than noise.
  case inconclusive
  case added, removed
}

/// The verdict on one metric: the statistic that decided it on both sides, and what the gate
/// makes of it.
package struct Verdict: Sendable, Hashable {
  package var key: MetricKey
  package var unit: MetricUnit
  package var better: Better
  package var deterministic: Bool
  /// The statistic `baseline` and `current` are: `p50` for timings, added and removed metrics.
  package var statistic: Summary.Statistic
  /// The baseline's value; nil for an added metric.
  package var baseline: Double?
  /// The current run's value; nil for a removed metric.
  package var current: Double?
  package var status: VerdictStatus
  /// From repeated runs (`cachebench ab`): the 95% confidence interval of `current / baseline`, and
  /// the p-value of the change after Holm's correction over every row; nil from single runs.
  package var ciLow: Double?
  package var ciHigh: Double?
  package var pValue: Double?

  package init(
    key: MetricKey, unit: MetricUnit, better: Better, deterministic: Bool, statistic: Summary.Statistic = .p50,
    baseline: Double?, current: Double?, status: VerdictStatus, ciLow: Double? = nil, ciHigh: Double? = nil,
    pValue: Double? = nil
  ) {
    self.key = key
    self.unit = unit
    self.better = better
    self.deterministic = deterministic
    self.statistic = statistic
    self.baseline = baseline
    self.current = current
    self.status = status
    self.ciLow = ciLow
    self.ciHigh = ciHigh
    self.pValue = pValue
  }

  init(row: MetricRow, statistic: Summary.Statistic, baseline: Double?, current: Double?, status: VerdictStatus) {
    self.init(
      key: row.key, unit: row.unit, better: row.better, deterministic: row.deterministic, statistic: statistic,
      baseline: baseline, current: current, status: status)
  }

  /// `current / baseline`: 1.2 is 20% more. Nil when a side is missing, the baseline is 0, or the
  /// quotient of two finite values is not finite (`1e308 / 1e-308`): it cannot be written or drawn.
  package var ratio: Double? {
    guard let baseline, let current, baseline != 0 else { return nil }
    let ratio = current / baseline
    return ratio.isFinite ? ratio : nil
  }

  /// `current - baseline`; nil when a side is missing or the difference is not finite.
  package var delta: Double? {
    guard let baseline, let current else { return nil }
    let delta = current - baseline
    return delta.isFinite ? delta : nil
  }
}

/// Rows that cannot be compared (the command line's exit code 65, bad input data).
package enum ComparisonError: Error, Sendable, Hashable, CustomStringConvertible, ExitCodeCarrying {
  package var exitCode: ExitCode { .dataError }
  package enum Side: String, Sendable, Hashable {
    case baseline, current
  }

  /// One side has two rows for one metric.
  case duplicate(MetricKey, Side)
  /// A metric's `unit` or `better` differs between the sides.
  case changedDefinition(MetricKey, column: String, baseline: String, current: String)
  /// Repeated runs with none on one side.
  case noRuns(Side)
  /// The two sides share no workload: a baseline of another workload.
  case differentWorkloads(baseline: [String], current: [String])

  package var description: String {
    switch self {
    case .duplicate(let key, let side):
      "the \(side.rawValue) has two rows for \(key)"
    case .changedDefinition(let key, let column, let baseline, let current):
      "\(key) has \(column) '\(baseline)' in the baseline but '\(current)' in the current run"
    case .noRuns(let side):
      "no runs of the \(side.rawValue)"
    case .differentWorkloads(let baseline, let current):
      "the baseline is of workload \(baseline.map { "'\($0)'" }.joined(separator: ", ")) and the current run of "
        + "\(current.map { "'\($0)'" }.joined(separator: ", ")): nothing to compare"
    }
  }
}
