/// One configuration of a run: a variant (a sweep point, or empty), a store's label and a key
/// strategy's name, the CSV's `variant`, `store` and `keys` columns (a concurrency row's reader
/// count apart: ``MetricKey/readers``). What `run --shard` splits and `merge` joins, in the one
/// order a run measures them (variant × store × strategy).
///
/// ```swift
/// let id = ConfigurationID(variant: "duplication=0.5", store: "sqlite-wal", keys: "typePolicy")
/// id.description  // [duplication=0.5] sqlite-wal × typePolicy
/// ```
public struct ConfigurationID: Sendable, Hashable, CustomStringConvertible {
  public let variant: String
  public let store: String
  public let keys: String

  public init(variant: String, store: String, keys: String) {
    self.variant = variant
    self.store = store
    self.keys = keys
  }

  /// `[duplication=0.5] sqlite-wal × typePolicy`, `memory × path`.
  public var description: String { (variant.isEmpty ? "" : "[\(variant)] ") + "\(store) × \(keys)" }
}
