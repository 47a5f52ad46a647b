/// What one metric is, apart from any run: where it sits (phase and name) and how to read its
/// values (unit, which direction is better, whether runs of one build must agree on it).
///
/// ```swift
/// let readLatency = Metric(.read, "latency", unit: .ns, deterministic: false)
/// ```
public struct Metric: Sendable, Hashable, CustomStringConvertible {
  public let phase: Phase
  public let name: String
  public let unit: MetricUnit
  public let better: Better
  /// True for counts, bytes and ratios that must not change between runs of one build.
  public let deterministic: Bool

  public init(_ phase: Phase, _ name: String, unit: MetricUnit, better: Better = .lower, deterministic: Bool) {
    self.phase = phase
    self.name = name
    self.unit = unit
    self.better = better
    self.deterministic = deterministic
  }

  /// `phase/name`: `read/latency`.
  public var description: String { "\(phase.rawValue)/\(name)" }
}

/// The samples of several metrics, kept in the order each metric first received one.
///
/// ```swift
/// var samples = MetricSamples()
/// samples.append(812, to: readLatency)
/// samples[readLatency]  // [812]
/// ```
public struct MetricSamples: Sendable {
  public private(set) var metrics: [Metric] = []
  private var values: [Metric: [Double]] = [:]

  public init() {}

  /// The samples of `metric`, empty when it has none.
  public subscript(metric: Metric) -> [Double] {
    values[metric] ?? []
  }

  /// Adds one sample of `metric`.
  public mutating func append(_ value: Double, to metric: Metric) {
    if values[metric] == nil { metrics.append(metric) }
    values[metric, default: []].append(value)
  }

  /// Adds every sample of `other`, after this one's own.
  public mutating func append(contentsOf other: MetricSamples) {
    for metric in other.metrics {
      for value in other[metric] { append(value, to: metric) }
    }
  }
}
