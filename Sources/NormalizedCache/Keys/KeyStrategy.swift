/// How the normalizer keys objects (docs/keys.md#strategies).
public enum KeyStrategy: Sendable {
  /// Every object by its response path; every policy ignored.
  case path
  /// `@typePolicy` key fields, falling back to the path.
  case typePolicy
  /// A key function first, then `@typePolicy`, then the path.
  case programmatic(CacheKeyResolver)

  public var name: KeyStrategyName {
    switch self {
    case .path: .path
    case .typePolicy: .typePolicy
    case .programmatic: .programmatic
    }
  }
}

/// The strategies by the names workloads, the command line and the CSV use.
public enum KeyStrategyName: String, Sendable, CaseIterable, Hashable, Codable {
  case path
  case typePolicy
  case programmatic
}
