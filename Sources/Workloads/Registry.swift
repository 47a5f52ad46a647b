import NormalizedCache

/// What a library user adds to the workbench: key resolvers and field-policy providers by name,
/// which workload files select with `"resolver"` and `"fieldPolicyProvider"`.
///
/// ```swift
/// var registry = Registry.builtIn
/// registry.resolvers.register("sku") { type, object in
///   type.name == "Product" ? object.string("sku").map { CacheKeyInfo(id: $0) } : nil
/// }
/// registry.fieldPolicyProviders.register("products", ProductsByID())
/// let workload = try Workload.load("Workloads/shop.json", registry: registry)
/// ```
public struct Registry: Sendable {
  public var resolvers: CacheKeyResolvers
  public var fieldPolicyProviders: FieldPolicyProviders

  public init(resolvers: CacheKeyResolvers = .builtIn, fieldPolicyProviders: FieldPolicyProviders = FieldPolicyProviders()) {
    self.resolvers = resolvers
    self.fieldPolicyProviders = fieldPolicyProviders
  }

  /// The built-in resolvers (`id`, `seed-books`, `interface-group`) and no field-policy provider.
  public static let builtIn = Registry()
}
