/// A GraphQL schema: its types, the interfaces each type implements, the members of unions,
/// and the cache directives `@typePolicy`, `@fieldPolicy` and `@cacheControl`.
///
/// Built from any number of schema files and schema extension files:
/// ```swift
/// let schema = try Schema(parsing: [Source(name: "ext.graphqls", text: #"extend type Book @typePolicy(keyFields: "id")"#)])
/// schema.typePolicy(for: "Book")?.keyFields   // ["id"]
/// ```
/// An extension of a type that no file defines creates it, so extension files work alone.
/// See [GraphQL spec §3](https://spec.graphql.org/October2021/#sec-Type-System).
public struct Schema: Sendable {
  /// A named type with every definition and extension of it merged.
  public struct NamedType: Sendable {
    public let kind: TypeKind
    public let name: String
    /// Directly declared interfaces, in declaration order.
    public internal(set) var interfaces: [String] = []
    public internal(set) var fields: [String: FieldDefinition] = [:]
    public internal(set) var unionMembers: [String] = []
    public internal(set) var enumValues: [String] = []
    public internal(set) var inputFields: [String: InputValueDefinition] = [:]
    /// Whether a definition (not only extensions) was seen.
    public internal(set) var isDefined = false
    public let location: SourceLocation?

    public var isLeaf: Bool { kind == .scalar || kind == .enumeration }
    public var isAbstract: Bool { kind == .interface || kind == .union }
  }

  public internal(set) var types: [String: NamedType]
  var rootTypes: [OperationType: String]
  /// Policies declared on a type or an interface itself.
  public internal(set) var ownTypePolicies: [String: TypePolicy] = [:]
  /// For every object type: its own policy, else the one it inherits from its interfaces.
  var effectiveTypePolicies: [String: TypePolicy] = [:]
  /// Field policies by parent type, then field name.
  public internal(set) var fieldPolicies: [String: [String: FieldPolicy]] = [:]
  /// `@cacheControl` on an object type, interface or union itself (docs/ttl.md).
  public internal(set) var typeCacheControls: [String: CacheControl] = [:]
  /// `@cacheControl` on fields, by type then field: on the field's definition, or by a
  /// `@cacheControlField(name:)` on the type.
  public internal(set) var fieldCacheControls: [String: [String: CacheControl]] = [:]
  /// All interfaces of each object or interface, transitively, in declaration order.
  var allInterfaces: [String: [String]] = [:]
  /// Concrete types of each interface and union.
  var possibleTypes: [String: Set<String>] = [:]

  /// A schema with only the built-in scalars: every type condition it cannot judge matches.
  public static let empty = Schema()

  init() {
    types = [:]
    rootTypes = [:]
    for scalar in ["Int", "Float", "String", "Boolean", "ID"] {
      var type = NamedType(kind: .scalar, name: scalar, location: nil)
      type.isDefined = true
      types[scalar] = type
    }
  }

  /// Parses schema and extension files and builds one schema from them.
  /// - Throws: ``GraphQLError`` for a syntax error, an executable definition in a schema file,
  ///   an extension of a different kind, a malformed directive, a key field or key argument the type
  ///   does not have, or a type that inherits two different type policies and declares none.
  public init(parsing sources: [Source]) throws(GraphQLError) {
    var documents: [Document] = []
    for source in sources { documents.append(try Parser.parse(source)) }
    try self.init(documents: documents)
  }

  public var isEmpty: Bool { types.values.allSatisfy { $0.kind == .scalar && $0.location == nil } }

  /// The type of this name, if the schema knows it.
  public func type(named name: String) -> NamedType? { types[name] }

  /// The definition of a field of an object or interface type.
  public func field(_ name: String, on typeName: String) -> FieldDefinition? {
    types[typeName]?.fields[name]
  }

  /// The name of the root type of an operation type: `Query` unless a `schema` block says otherwise.
  public func rootTypeName(for operation: OperationType) -> String {
    if let name = rootTypes[operation] { return name }
    switch operation {
    case .query: return "Query"
    case .mutation: return "Mutation"
    case .subscription: return "Subscription"
    }
  }

  /// Every interface the type implements, directly or through other interfaces, in declaration order.
  public func interfaces(of typeName: String) -> [String] {
    allInterfaces[typeName] ?? []
  }

  /// The unions that have this type as a member, sorted by name.
  public func unions(containing typeName: String) -> [String] {
    types.values.filter { $0.kind == .union && $0.unionMembers.contains(typeName) }.map(\.name).sorted()
  }

  /// The concrete types of an interface or union; for an object type, itself.
  public func possibleTypes(of typeName: String) -> Set<String> {
    if let set = possibleTypes[typeName] { return set }
    return types[typeName]?.kind == .object ? [typeName] : []
  }

  /// Whether a fragment on `condition` applies to an object of type `objectType`.
  ///
  /// - Returns: `true` or `false` when the schema knows both types; `nil` when it does not know
  ///   one of them, which callers treat leniently (docs/workloads.md: an unknown type condition
  /// matches).
  public func typeCondition(_ condition: String, appliesTo objectType: String) -> Bool? {
    if condition == objectType { return true }
    guard let conditionType = types[condition], let object = types[objectType] else { return nil }
    switch conditionType.kind {
    case .interface, .union:
      if possibleTypes(of: condition).contains(objectType) { return true }
      // An abstract type we only know from an extension may have members we were not told of.
      return object.isDefined && conditionType.isDefined ? false : nil
    default:
      return false
    }
  }

  /// Whether any type or interface declares a `@typePolicy`.
  public var hasTypePolicies: Bool { !ownTypePolicies.isEmpty }

  /// Every field name that is a key field of some `@typePolicy`.
  public var allKeyFields: Set<String> { Set(ownTypePolicies.values.flatMap(\.keyFields)) }

  /// The type policy that keys objects of this concrete type: its own, else the inherited one.
  public func typePolicy(for typeName: String) -> TypePolicy? {
    effectiveTypePolicies[typeName] ?? ownTypePolicies[typeName]
  }

  /// The field policy of `fieldName` on `typeName`, if one is declared.
  public func fieldPolicy(forField fieldName: String, on typeName: String) -> FieldPolicy? {
    fieldPolicies[typeName]?[fieldName]
  }
}
