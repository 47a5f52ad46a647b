import GraphQLLanguage

/// A field as a programmatic field-policy provider sees it.
public struct FieldPolicyField: Sendable, Hashable {
  /// The type the field is on, usually `Query`.
  public let parentType: String
  public let name: String
  /// The named type the field returns: the default group of the keys a provider returns.
  public let returnTypeName: String
  public let returnsList: Bool

  public init(parentType: String, name: String, returnTypeName: String, returnsList: Bool) {
    self.parentType = parentType
    self.name = name
    self.returnTypeName = returnTypeName
    self.returnsList = returnsList
  }
}

/// Programmatic field policies (as Apollo iOS's `FieldPolicy.Provider`): keys for a field from its
/// arguments, taking precedence over `@fieldPolicy` directives. Return nil to fall through.
///
/// ```swift
/// struct Heroes: FieldPolicyProvider {   // hero(heroInput: HeroInput): Hero
///   func cacheKey(for field: FieldPolicyField, inputData: JSONObject, path: [String]) -> CacheKeyInfo? {
///     guard case .object(let input)? = inputData["heroInput"], case .string(let name)? = input["name"],
///           case .int(let faction)? = input["factionID"] else { return nil }
///     return CacheKeyInfo(id: "\(name)+\(faction)")   // Hero:Luke+1
///   }
/// }
/// ```
public protocol FieldPolicyProvider: Sendable {
  /// The key of the object a single-valued field returns.
  func cacheKey(for field: FieldPolicyField, inputData: JSONObject, path: [String]) -> CacheKeyInfo?
  /// The keys of the objects a list field returns.
  func cacheKeyList(for field: FieldPolicyField, inputData: JSONObject, path: [String]) -> [CacheKeyInfo]?
}

extension FieldPolicyProvider {
  public func cacheKey(for field: FieldPolicyField, inputData: JSONObject, path: [String]) -> CacheKeyInfo? { nil }
  public func cacheKeyList(for field: FieldPolicyField, inputData: JSONObject, path: [String]) -> [CacheKeyInfo]? { nil }
}

/// The keys `@fieldPolicy(forField:keyArgs:)` gives a field (docs/keys.md#field-policies).
enum FieldPolicyKeys {
  enum Result {
    case single(CacheKey)
    case list([CacheKey])
  }

  /// The key or keys of a field with a policy; nil when an argument the policy needs is missing.
  ///
  /// Group: the field's named return type. ID: the key arguments' values in the directive's order,
  /// escaped as key fields are, joined by `+`; a list argument yields one key per element. A
  /// Boolean argument is `true` or `false`, as Apollo iOS renders it: `hero(isJedi: true)` with
  /// `keyArgs: "isJedi"` is `Hero:true`.
  static func keys(policy: FieldPolicy, arguments: JSONObject, returnTypeName: String, returnsList: Bool) -> Result? {
    var components: [[String]] = []  // each key argument: one value, or one per list element
    var listIndex: Int?
    for (position, path) in policy.keyArgs.enumerated() {
      var value: JSONValue = .object(arguments)
      for component in path {
        guard case .object(let object) = value, let next = object[component] else { return nil }
        value = next
      }
      if case .array(let elements) = value {
        var ids: [String] = []
        for element in elements {
          guard let id = idString(element) else { return nil }
          ids.append(TypePolicyKey.escape(id))
        }
        listIndex = position
        components.append(ids)
      } else {
        guard let id = idString(value) else { return nil }
        components.append([TypePolicyKey.escape(id)])
      }
    }
    let prefix = returnTypeName + ":"
    guard let listIndex, returnsList else {
      return .single(prefix + components.map { $0[0] }.joined(separator: "+"))
    }
    return .list(
      components[listIndex].map { element in
        prefix
          + components.enumerated().map { $0.offset == listIndex ? element : $0.element[0] }.joined(separator: "+")
      })
  }

  /// A key argument's value as an ID: strings, numbers and Booleans; nil for anything else.
  static func idString(_ value: JSONValue) -> String? {
    if case .bool(let flag) = value { return flag ? "true" : "false" }
    return CacheKeyInfo.idString(value)
  }
}

/// Field-policy providers by name, so workloads and the command line can select them, as
/// ``CacheKeyResolvers`` does for key resolvers. There are no built-ins.
///
/// ```swift
/// var providers = FieldPolicyProviders()
/// providers.register("heroes", Heroes())
/// let reader = CacheReader(cache: cache, fieldPolicyProvider: try providers.provider(named: "heroes"))
/// ```
public struct FieldPolicyProviders: Sendable {
  private var table: [String: any FieldPolicyProvider] = [:]

  public init() {}

  /// Adds a provider under a name, replacing any of the same name.
  public mutating func register(_ name: String, _ provider: any FieldPolicyProvider) {
    table[name] = provider
  }

  /// The names, sorted.
  public var names: [String] { table.keys.sorted() }

  /// The provider of this name; nil when there is none.
  public func provider(named name: String) -> (any FieldPolicyProvider)? { table[name] }
}
