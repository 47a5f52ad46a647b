/// The regression gate behind `cachebench compare`: a baseline run's metrics against a current
/// run's, one verdict per metric. Pure: rows in, verdicts out.
///
/// ```swift
/// let comparison = try Comparison(
///   baseline: ResultsFile.read(MetricRow.self, from: "baseline.csv"),
///   current: ResultsFile.read(MetricRow.self, from: "current.csv"),
///   options: ComparisonOptions(thresholdPercent: 10)
/// )
/// print(comparison.report())
/// exit(comparison.hasRegressions ? 2 : 0)
/// ```
///
/// Rows are joined on ``MetricKey`` (workload, variant, store, keys, phase, metric), and their
/// medians (`p50`) compared; `b` is the baseline's, `c` the current run's, `t` the threshold:
/// - a timing (`deterministic=false`) metric with `better=lower` regressed when `c > b × (1 + t)`
///   and improved when `c < b × (1 − t)`; with `better=higher`, regressed when `c < b × (1 − t)`
///   and improved when `c > b × (1 + t)`. A change of exactly the threshold is unchanged.
/// - a deterministic metric (counts, bytes, ratios that do not vary run to run) must be equal: a
///   change of more than ``ComparisonOptions/deterministicTolerance`` (0 by default, up to a
///   relative 10⁻⁹ that absorbs floating-point noise in derived ratios) is a regression, **in
///   either direction**. The gate cannot tell an intended saving from a change of behaviour (fewer
///   records may mean objects went missing); accept an intended change by renewing the baseline.
/// - a metric in the current run only is `added`, in the baseline only `removed`; neither fails
///   the gate.
///
/// Verdicts come in the current run's row order, then the removed metrics in the baseline's.
public struct Comparison: Sendable, Hashable {
  public var options: ComparisonOptions
  public var verdicts: [Verdict]

  /// Compares `current` against `baseline`.
  ///
  /// - Throws: ``ComparisonError`` when one side has two rows for one metric, or a metric's unit or
  ///   direction differs between the sides.
  public init(
    baseline: [MetricRow], current: [MetricRow], options: ComparisonOptions = ComparisonOptions()
  ) throws(ComparisonError) {
    let baselineByKey = try Self.index(baseline, side: .baseline)
    let currentByKey = try Self.index(current, side: .current)
    var verdicts: [Verdict] = []
    for row in current {
      guard let old = baselineByKey[row.key] else {
        verdicts.append(Verdict(row: row, baseline: nil, current: row.summary.p50, status: .added))
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
      let status = Self.status(
        baseline: old.summary.p50, current: row.summary.p50, better: row.better,
        deterministic: row.deterministic, options: options)
      verdicts.append(
        Verdict(row: row, baseline: old.summary.p50, current: row.summary.p50, status: status))
    }
    for row in baseline where currentByKey[row.key] == nil {
      verdicts.append(Verdict(row: row, baseline: row.summary.p50, current: nil, status: .removed))
    }
    self.options = options
    self.verdicts = verdicts
  }

  /// The verdict on one metric whose median went from `baseline` to `current` (see ``Comparison``).
  public static func status(
    baseline: Double, current: Double, better: Better, deterministic: Bool,
    options: ComparisonOptions
  ) -> VerdictStatus {
    if deterministic {
      let tolerance = Swift.max(
        options.deterministicTolerance, ComparisonOptions.floatingPointNoise)
      return abs(current - baseline) <= tolerance * abs(baseline) ? .unchanged : .regressed
    }
    let higherBound = baseline * (1 + options.threshold)
    let lowerBound = baseline * (1 - options.threshold)
    switch better {
    case .lower:
      if current > higherBound { return .regressed }
      if current < lowerBound { return .improved }
    case .higher:
      if current < lowerBound { return .regressed }
      if current > higherBound { return .improved }
    }
    return .unchanged
  }

  /// Whether any metric regressed: the gate fails (exit code 2).
  public var hasRegressions: Bool { verdicts.contains { $0.status == .regressed } }

  public var regressions: [Verdict] { verdicts.filter { $0.status == .regressed } }
  public var improvements: [Verdict] { verdicts.filter { $0.status == .improved } }

  /// How many verdicts have `status`.
  public func count(_ status: VerdictStatus) -> Int {
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

/// How far a metric may move before it counts as changed.
public struct ComparisonOptions: Sendable, Hashable {
  /// The default threshold, 10%: on a shared machine the median of a timing moves by a few percent
  /// from run to run; 10% stays above that noise and still catches a real slowdown.
  public static let defaultThresholdPercent = 10.0

  /// The relative tolerance of deterministic metrics at tolerance 0: the last bits of a ratio that
  /// a different compiler computes in another order.
  static let floatingPointNoise = 1e-9

  /// The relative change of a timing median that counts (0.10 for 10%).
  public var threshold: Double
  /// The relative change of a deterministic metric that counts; 0, the default, means equal.
  public var deterministicTolerance: Double

  /// Thresholds as fractions (`0.10`); the default is 10% for timings, equality for the rest.
  public init(threshold: Double = defaultThresholdPercent / 100, deterministicTolerance: Double = 0)
  {
    precondition(threshold >= 0 && threshold.isFinite, "a threshold is a non-negative number")
    precondition(deterministicTolerance >= 0 && deterministicTolerance.isFinite)
    self.threshold = threshold
    self.deterministicTolerance = deterministicTolerance
  }

  /// Thresholds in percent, as `--threshold PCT` gives them (`10` for 10%).
  public init(thresholdPercent: Double, deterministicTolerancePercent: Double = 0) {
    self.init(
      threshold: thresholdPercent / 100, deterministicTolerance: deterministicTolerancePercent / 100
    )
  }
}

/// What became of one metric between the baseline and the current run.
public enum VerdictStatus: String, Sendable, Hashable, CaseIterable {
  case improved, unchanged, regressed, added, removed
}

/// The verdict on one metric: its medians on both sides and what the gate makes of them.
public struct Verdict: Sendable, Hashable {
  public var key: MetricKey
  public var unit: MetricUnit
  public var better: Better
  public var deterministic: Bool
  /// The baseline's `p50`; nil for an added metric.
  public var baseline: Double?
  /// The current run's `p50`; nil for a removed metric.
  public var current: Double?
  public var status: VerdictStatus

  public init(
    key: MetricKey, unit: MetricUnit, better: Better, deterministic: Bool, baseline: Double?,
    current: Double?, status: VerdictStatus
  ) {
    self.key = key
    self.unit = unit
    self.better = better
    self.deterministic = deterministic
    self.baseline = baseline
    self.current = current
    self.status = status
  }

  init(row: MetricRow, baseline: Double?, current: Double?, status: VerdictStatus) {
    self.init(
      key: row.key, unit: row.unit, better: row.better, deterministic: row.deterministic,
      baseline: baseline, current: current, status: status)
  }

  /// `current / baseline`: 1.2 is 20% more. Nil when a side is missing or the baseline is 0.
  public var ratio: Double? {
    guard let baseline, let current, baseline != 0 else { return nil }
    return current / baseline
  }
}

/// Rows that cannot be compared (the command line's exit code 65, bad input data).
public enum ComparisonError: Error, Sendable, Hashable, CustomStringConvertible {
  public enum Side: String, Sendable, Hashable {
    case baseline, current
  }

  /// One side has two rows for one metric.
  case duplicate(MetricKey, Side)
  /// A metric's `unit` or `better` differs between the sides.
  case changedDefinition(MetricKey, column: String, baseline: String, current: String)

  public var description: String {
    switch self {
    case .duplicate(let key, let side):
      "the \(side.rawValue) has two rows for \(key)"
    case .changedDefinition(let key, let column, let baseline, let current):
      "\(key) has \(column) '\(baseline)' in the baseline but '\(current)' in the current run"
    }
  }
}
