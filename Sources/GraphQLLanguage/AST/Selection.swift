/// A directive as applied in a document: `@include(if: $flag)`, `@typePolicy(keyFields: "id")`.
public struct Directive: Sendable, Hashable {
  public let name: String
  public let arguments: [Argument]
  public let location: SourceLocation

  public init(name: String, arguments: [Argument], location: SourceLocation) {
    self.name = name
    self.arguments = arguments
    self.location = location
  }

  /// The value of the argument of this name, if it was given.
  public func argument(_ name: String) -> Value? {
    arguments.first { $0.name == name }?.value
  }
}

/// `name: value`, in a field or a directive.
public struct Argument: Sendable, Hashable {
  public let name: String
  public let value: Value

  public init(name: String, value: Value) {
    self.name = name
    self.value = value
  }
}

/// One selection of a selection set.
///
/// See [GraphQL spec §2.4 Selection Sets](https://spec.graphql.org/October2021/#sec-Selection-Sets).
public enum Selection: Sendable, Hashable {
  case field(Field)
  case fragmentSpread(FragmentSpread)
  case inlineFragment(InlineFragment)
}

/// A field selection: `alias: name(arguments) @directives { selections }`.
public struct Field: Sendable, Hashable {
  public let alias: String?
  public let name: String
  public let arguments: [Argument]
  public let directives: [Directive]
  /// Nil for a leaf field.
  public let selectionSet: [Selection]?
  public let location: SourceLocation

  public init(
    alias: String? = nil, name: String, arguments: [Argument] = [], directives: [Directive] = [],
    selectionSet: [Selection]? = nil, location: SourceLocation
  ) {
    self.alias = alias
    self.name = name
    self.arguments = arguments
    self.directives = directives
    self.selectionSet = selectionSet
    self.location = location
  }

  /// The key of this field in the response: the alias if there is one, else the name.
  public var responseKey: String { alias ?? name }
}

/// `...fragmentName @directives`.
public struct FragmentSpread: Sendable, Hashable {
  public let name: String
  public let directives: [Directive]
  public let location: SourceLocation

  public init(name: String, directives: [Directive] = [], location: SourceLocation) {
    self.name = name
    self.directives = directives
    self.location = location
  }
}

/// `... on Type @directives { selections }`, or `... @directives { selections }` without a type condition.
public struct InlineFragment: Sendable, Hashable {
  public let typeCondition: String?
  public let directives: [Directive]
  public let selectionSet: [Selection]
  public let location: SourceLocation

  public init(typeCondition: String?, directives: [Directive] = [], selectionSet: [Selection], location: SourceLocation) {
    self.typeCondition = typeCondition
    self.directives = directives
    self.selectionSet = selectionSet
    self.location = location
  }
}
