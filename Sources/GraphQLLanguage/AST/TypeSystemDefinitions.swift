/// The kinds of named type in a schema.
public enum TypeKind: String, Sendable, Hashable {
  case scalar, object, interface, union
  case enumeration = "enum"
  case inputObject = "input"
}

/// A type definition or a type extension (`extend type Book @typePolicy(keyFields: "id")`).
///
/// One shape holds every kind; the members that do not apply to a kind are empty.
/// See [GraphQL spec §3.4 Types](https://spec.graphql.org/October2021/#sec-Types).
public struct TypeDefinition: Sendable, Hashable {
  public let kind: TypeKind
  public let name: String
  public let isExtension: Bool
  public let description: String?
  /// `implements A & B`, for objects and interfaces, in the order written.
  public let interfaces: [String]
  public let directives: [Directive]
  /// Fields of an object or interface.
  public let fields: [FieldDefinition]
  /// Members of a union, in the order written.
  public let unionMembers: [String]
  /// Values of an enum.
  public let enumValues: [String]
  /// Fields of an input object.
  public let inputFields: [InputValueDefinition]
  public let location: SourceLocation

  public init(
    kind: TypeKind, name: String, isExtension: Bool = false, description: String? = nil,
    interfaces: [String] = [], directives: [Directive] = [], fields: [FieldDefinition] = [],
    unionMembers: [String] = [], enumValues: [String] = [], inputFields: [InputValueDefinition] = [],
    location: SourceLocation
  ) {
    self.kind = kind
    self.name = name
    self.isExtension = isExtension
    self.description = description
    self.interfaces = interfaces
    self.directives = directives
    self.fields = fields
    self.unionMembers = unionMembers
    self.enumValues = enumValues
    self.inputFields = inputFields
    self.location = location
  }
}

/// `name(arguments): Type @directives` in an object or interface.
public struct FieldDefinition: Sendable, Hashable {
  public let name: String
  public let arguments: [InputValueDefinition]
  public let type: TypeReference
  public let directives: [Directive]
  public let location: SourceLocation

  public init(
    name: String, arguments: [InputValueDefinition] = [], type: TypeReference, directives: [Directive] = [],
    location: SourceLocation
  ) {
    self.name = name
    self.arguments = arguments
    self.type = type
    self.directives = directives
    self.location = location
  }
}

/// An argument definition or an input object field: `name: Type = default @directives`.
public struct InputValueDefinition: Sendable, Hashable {
  public let name: String
  public let type: TypeReference
  public let defaultValue: Value?
  public let directives: [Directive]
  public let location: SourceLocation

  public init(
    name: String, type: TypeReference, defaultValue: Value? = nil, directives: [Directive] = [],
    location: SourceLocation
  ) {
    self.name = name
    self.type = type
    self.defaultValue = defaultValue
    self.directives = directives
    self.location = location
  }
}

/// `schema { query: Query mutation: Mutation }`, or `extend schema ...`.
public struct SchemaDefinition: Sendable, Hashable {
  public let operationTypes: [OperationType: String]
  public let directives: [Directive]
  public let isExtension: Bool
  public let location: SourceLocation
}

/// `directive @name(arguments) repeatable on LOCATION | LOCATION`.
public struct DirectiveDefinition: Sendable, Hashable {
  public let name: String
  public let arguments: [InputValueDefinition]
  public let isRepeatable: Bool
  public let locations: [String]
  public let location: SourceLocation
}

/// A parsed document: executable definitions, type system definitions, or both.
public struct Document: Sendable {
  public enum Definition: Sendable, Hashable {
    case operation(OperationDefinition)
    case fragment(FragmentDefinition)
    case type(TypeDefinition)
    case schema(SchemaDefinition)
    case directive(DirectiveDefinition)
  }

  public let source: String
  public let definitions: [Definition]
}
