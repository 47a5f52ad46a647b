/// One configuration of a run: a variant (a sweep point, or empty), a store's label and a key
/// strategy's name, the CSV's `variant`, `store` and `keys` columns (a concurrency row's reader
/// count apart: ``MetricKey/readers``). What `run --shard` splits and `merge` joins, in the one
/// order a run measures them (variant × store × strategy).
///
/// ```swift
/// let id = ConfigurationID(variant: "duplication=0.5", store: "sqlite-wal", keys: "typePolicy")
/// id.description  // [duplication=0.5] sqlite-wal × typePolicy
/// ```
package struct ConfigurationID: Sendable, Hashable, CustomStringConvertible {
  package let variant: String
  package let store: String
  package let keys: String

  package init(variant: String, store: String, keys: String) {
    self.variant = variant
    self.store = store
    self.keys = keys
  }

  /// `[duplication=0.5] sqlite-wal × typePolicy`, `memory × path`.
  package var description: String { (variant.isEmpty ? "" : "[\(variant)] ") + "\(store) × \(keys)" }

  /// From a CSV row's `variant`, `store` and `keys` columns.
  package init(csvFields: CSVFields) {
    self.init(variant: csvFields.string("variant"), store: csvFields.string("store"), keys: csvFields.string("keys"))
  }

  /// The `variant`, `store` and `keys` columns, in that order.
  package var csvFields: [String] { [variant, store, keys] }
}
