/// Which metrics an entry of a thresholds file names (docs/gate.md#thresholds): a value or the
/// wildcard `*` for each column of ``MetricKey``: workload, variant, store, keys, phase, metric.
///
/// ```swift
/// let pattern = MetricPattern(store: "memory", phase: .write, metric: "allocations")
/// pattern.matches(MetricKey(workload: "gate", store: "memory", keys: "path", phase: .write, metric: "allocations"))  // true
/// pattern.specificity  // 3
/// pattern.description  // */*/memory/*/write/allocations
/// ```
///
/// An empty variant names the rows without one; the variant is matched against the CSV's whole
/// `variant` column, `readers=N` included (``MetricKey/variantColumn``).
package struct MetricPattern: Sendable, Hashable, CustomStringConvertible {
  /// The wildcard, as the file writes it.
  package static let wildcard = "*"

  // Each column: nil is the wildcard.
  package var workload: String?
  package var variant: String?
  package var store: String?
  package var keys: String?
  package var phase: Phase?
  package var metric: String?

  package init(
    workload: String? = nil, variant: String? = nil, store: String? = nil, keys: String? = nil, phase: Phase? = nil,
    metric: String? = nil
  ) {
    self.workload = workload
    self.variant = variant
    self.store = store
    self.keys = keys
    self.phase = phase
    self.metric = metric
  }

  /// The pattern that names exactly `key`.
  package init(exactly key: MetricKey) {
    self.init(
      workload: key.workload, variant: key.variantColumn, store: key.store, keys: key.keys, phase: key.phase,
      metric: key.metric)
  }

  /// Whether every column the pattern names equals the key's.
  package func matches(_ key: MetricKey) -> Bool {
    Self.matches(workload, key.workload) && Self.matches(variant, key.variantColumn) && Self.matches(store, key.store)
      && Self.matches(keys, key.keys) && Self.matches(phase, key.phase) && Self.matches(metric, key.metric)
  }

  /// How many columns the pattern names (not `*`): of two entries that match a row, the one that
  /// names more wins.
  package var specificity: Int {
    [workload, variant, store, keys, phase?.rawValue, metric].reduce(0) { $0 + ($1 == nil ? 0 : 1) }
  }

  /// The six columns as the file writes them, `*` for a wildcard.
  package var fields: [String] {
    [workload, variant, store, keys, phase?.rawValue, metric].map { $0 ?? Self.wildcard }
  }

  /// `gate/*/memory/*/write/allocations`: the columns in ``MetricKey``'s order, `*` for a wildcard.
  package var description: String { fields.joined(separator: "/") }

  private static func matches<Value: Equatable>(_ pattern: Value?, _ value: Value) -> Bool {
    pattern.map { $0 == value } ?? true
  }
}
