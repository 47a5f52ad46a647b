import NormalizedCache

/// A key strategy as a workload names it (`"keys": ["path", "typePolicy", "programmatic:sku"]`):
/// the name that goes into the results' `keys` column, and the strategy it stands for.
public struct NamedStrategy: Sendable {
  /// `path`, `typePolicy`, `programmatic` (with the workload's `resolver`), or
  /// `programmatic:<resolver>`.
  public let name: String
  public let strategy: KeyStrategy

  public init(name: String, strategy: KeyStrategy) {
    self.name = name
    self.strategy = strategy
  }

  /// Which of the three kinds of strategy it is.
  public var kind: KeyStrategyName { strategy.name }
}
