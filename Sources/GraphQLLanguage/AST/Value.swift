/// A GraphQL input value as written in a document: a literal, a variable, a list or an input object.
///
/// See [GraphQL spec §2.9 Input Values](https://spec.graphql.org/October2021/#sec-Input-Values).
public indirect enum Value: Sendable, Hashable {
  case variable(String)
  case int(Int)
  case float(Double)
  case string(String)
  case boolean(Bool)
  case null
  case enumValue(String)
  case list([Value])
  /// Fields in the order written.
  case object([ObjectField])

  public struct ObjectField: Sendable, Hashable {
    public let name: String
    public let value: Value

    public init(name: String, value: Value) {
      self.name = name
      self.value = value
    }
  }

  /// Names of the variables this value uses, in order of appearance.
  public var variableNames: [String] {
    switch self {
    case .variable(let name): [name]
    case .list(let values): values.flatMap(\.variableNames)
    case .object(let fields): fields.flatMap(\.value.variableNames)
    default: []
    }
  }
}

/// A type as written in a document: `Book`, `[Book!]`, `ID!`.
public indirect enum TypeReference: Sendable, Hashable, CustomStringConvertible {
  case named(String)
  case list(TypeReference)
  case nonNull(TypeReference)

  /// The name under every list and non-null wrapper.
  public var namedType: String {
    switch self {
    case .named(let name): name
    case .list(let inner), .nonNull(let inner): inner.namedType
    }
  }

  public var isNonNull: Bool {
    if case .nonNull = self { return true }
    return false
  }

  /// Whether a list wraps the named type at any level.
  public var isList: Bool {
    switch self {
    case .named: false
    case .list: true
    case .nonNull(let inner): inner.isList
    }
  }

  /// How many lists wrap the named type: 0 for `Book!`, 1 for `[Book]`, 2 for `[[Book]!]`.
  public var listDepth: Int {
    switch self {
    case .named: 0
    case .list(let inner): inner.listDepth + 1
    case .nonNull(let inner): inner.listDepth
    }
  }

  /// The type `levels` lists down: `[[Book]!]` one level down is `[Book]!`.
  public func element(levels: Int) -> TypeReference {
    guard levels > 0 else { return self }
    switch self {
    case .named: return self
    case .list(let inner): return inner.element(levels: levels - 1)
    case .nonNull(let inner): return inner.element(levels: levels)
    }
  }

  public var description: String {
    switch self {
    case .named(let name): name
    case .list(let inner): "[\(inner)]"
    case .nonNull(let inner): "\(inner)!"
    }
  }
}
