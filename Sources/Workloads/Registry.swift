import NormalizedCache

/// What a library user adds to the workbench: key resolvers, field-policy providers and store
/// kinds by name, which workload files select with `"resolver"` (or `"programmatic:<name>"` in
/// `"keys"`), `"fieldPolicyProvider"` and a store's `"kind"`.
///
/// ```swift
/// var registry = Registry.builtIn
/// registry.resolvers.register("sku") { type, object in
///   type.name == "Product" ? object.string("sku").map { CacheKeyInfo(id: $0) } : nil
/// }
/// registry.fieldPolicyProviders.register("products", ProductsByID())
/// registry.stores.register("dictionary") { _ in DictionaryStore() }
/// let workload = try Workload.load("Workloads/shop.json", registry: registry)
/// ```
public struct Registry: Sendable {
  public var resolvers: CacheKeyResolvers
  public var fieldPolicyProviders: FieldPolicyProviders
  public var stores: StoreKinds

  public init(
    resolvers: CacheKeyResolvers = .builtIn, fieldPolicyProviders: FieldPolicyProviders = FieldPolicyProviders(),
    stores: StoreKinds = .builtIn
  ) {
    self.resolvers = resolvers
    self.fieldPolicyProviders = fieldPolicyProviders
    self.stores = stores
  }

  /// The built-in resolvers (`id`, `seed-books`, `interface-group`), no field-policy provider, and
  /// the built-in store kinds (`memory`, `sqlite`, `chain`).
  public static let builtIn = Registry()
}
