/// The generator's picture of the schema it writes as SDL: the same types, with what the
/// operation builder and the response writer need to know about them.
struct SchemaModel: Sendable {
  var objects: [ObjectTypeModel] = []
  var interfaces: [InterfaceModel] = []
  var unions: [UnionModel] = []
  var rootFields: [RootFieldModel] = []

  func name(of target: TypeReferenceModel) -> String {
    switch target {
    case .object(let index): objects[index].name
    case .interface(let index): interfaces[index].name
    case .union(let index): unions[index].name
    }
  }

  /// The object types an object in a field of this type can have.
  func possibleTypes(of target: TypeReferenceModel) -> [Int] {
    switch target {
    case .object(let index): [index]
    case .interface(let index): interfaces[index].implementations
    case .union(let index): unions[index].members
    }
  }

  /// Whether a fragment on `condition` applies to an object of type `object`.
  func condition(_ condition: TypeReferenceModel, appliesTo object: Int) -> Bool {
    possibleTypes(of: condition).contains(object)
  }
}

/// A named composite type: the target of an object field or a type condition.
enum TypeReferenceModel: Sendable, Hashable {
  case object(Int)
  case interface(Int)
  case union(Int)
}

enum ScalarKind: Sendable, Hashable {
  case string
  case int
  case float
  case boolean
  case enumeration(String)
  case stringList

  var sdl: String {
    switch self {
    case .string: "String"
    case .int: "Int"
    case .float: "Float"
    case .boolean: "Boolean"
    case .enumeration(let name): name
    case .stringList: "[String!]"
    }
  }
}

/// A nullable scalar field, possibly with one optional argument.
struct ScalarFieldModel: Sendable, Hashable {
  /// An optional argument whose literal values (enum values or integers) are written the same in a
  /// document and in a field key.
  struct Argument: Sendable, Hashable {
    let name: String
    let type: String
    let values: [String]
  }

  let name: String
  let kind: ScalarKind
  let argument: Argument?

  init(_ name: String, _ kind: ScalarKind, argument: Argument? = nil) {
    self.name = name
    self.kind = kind
    self.argument = argument
  }
}

/// One field of a type's key: a slice of the entity's identity bits, as a string or an integer.
struct KeyFieldModel: Sendable, Hashable {
  enum Kind: Sendable, Hashable {
    /// `id: ID!`, a UUID-shaped string whose first 64 bits are the identity.
    case uuid
    /// `String!`: `prefix` and the slice in hexadecimal.
    case string(prefix: String)
    /// `Int!`: the slice.
    case int
  }

  let name: String
  let kind: Kind
  let shift: Int
  let bits: Int

  var sdlType: String {
    switch kind {
    case .uuid: "ID!"
    case .string: "String!"
    case .int: "Int!"
    }
  }
}

struct ObjectTypeModel: Sendable {
  let name: String
  /// Empty for a value object stored under its path.
  var keyFields: [KeyFieldModel] = []
  /// The interface whose `@typePolicy` the type inherits instead of declaring its own.
  var inheritsPolicyFrom: Int?
  var interfaces: [Int] = []
  var scalarFields: [ScalarFieldModel] = []
  var objectFields: [ObjectFieldModel] = []

  var isKeyed: Bool { !keyFields.isEmpty }
}

/// A field holding an object or a list of objects. List fields take `first: Int` (and some
/// `orderBy: SortOrder`), which the response honours.
struct ObjectFieldModel: Sendable {
  let name: String
  let target: TypeReferenceModel
  let isList: Bool
  let hasOrderBy: Bool
  /// The alias an operation gives a second, shorter selection of a list field.
  let previewAlias: String
}

struct InterfaceModel: Sendable {
  let name: String
  /// Declares `@typePolicy(keyFields: "id")`; its fields then start with `id: ID!`.
  let hasTypePolicy: Bool
  var scalarFields: [ScalarFieldModel]
  var implementations: [Int] = []
}

struct UnionModel: Sendable {
  let name: String
  var members: [Int]
}

/// A field of `Query`.
struct RootFieldModel: Sendable {
  enum Kind: Sendable {
    /// `products(page: Int!, size: Int, filter: FilterInput): [Product!]!`, for objects and interfaces.
    case page(TypeReferenceModel)
    /// `searchResults(input: SearchInput!): [SearchResult!]!`, for unions.
    case search(Int)
    /// `product(id: ID!): Product` or `offer(sku: String!, region: Int!): Offer`, by the key fields,
    /// with a `@fieldPolicy` that reads the entity straight from its record.
    case entity(Int)
  }

  let name: String
  let kind: Kind
}
