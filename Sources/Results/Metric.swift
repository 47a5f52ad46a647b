/// What one metric is, apart from any run: where it sits (phase and name) and how to read its
/// values (unit, which direction is better, whether runs of one build must agree on it).
///
/// ```swift
/// let readLatency = Metric(.read, "latency", unit: .ns, deterministic: false)
/// ```
package struct Metric: Sendable, Hashable, CustomStringConvertible {
  package let phase: Phase
  package let name: String
  package let unit: MetricUnit
  package let better: Better
  /// True for counts, bytes and ratios that must not change between runs of one build.
  package let deterministic: Bool

  package init(_ phase: Phase, _ name: String, unit: MetricUnit, better: Better = .lower, deterministic: Bool) {
    self.phase = phase
    self.name = name
    self.unit = unit
    self.better = better
    self.deterministic = deterministic
  }

  /// `phase/name`: `read/latency`.
  package var description: String { "\(phase.rawValue)/\(name)" }
}

/// The samples of several metrics, kept in the order each metric first received one.
///
/// ```swift
/// var samples = MetricSamples()
/// samples.append(812, to: readLatency)
/// samples[readLatency]  // [812]
/// ```
package struct MetricSamples: Sendable {
  package private(set) var metrics: [Metric] = []
  private var values: [Metric: [Double]] = [:]

  package init() {}

  /// The samples of `metric`, empty when it has none.
  package subscript(metric: Metric) -> [Double] {
    values[metric] ?? []
  }

  /// Adds one sample of `metric`.
  package mutating func append(_ value: Double, to metric: Metric) {
    if values[metric] == nil { metrics.append(metric) }
    values[metric, default: []].append(value)
  }

  /// Adds every sample of `other`, after this one's own.
  package mutating func append(contentsOf other: MetricSamples) {
    for metric in other.metrics {
      for value in other[metric] { append(value, to: metric) }
    }
  }
}
