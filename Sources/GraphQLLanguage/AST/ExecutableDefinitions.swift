/// The three kinds of operation.
public enum OperationType: String, Sendable, Hashable {
  case query, mutation, subscription
}

/// `query Name($var: Type = default @directive) @directives { selections }`, or an anonymous `{ ... }`.
///
/// See [GraphQL spec §2.3 Operations](https://spec.graphql.org/October2021/#sec-Language.Operations).
public struct OperationDefinition: Sendable, Hashable {
  public let operationType: OperationType
  public let name: String?
  public let variableDefinitions: [VariableDefinition]
  public let directives: [Directive]
  public let selectionSet: [Selection]
  public let location: SourceLocation

  public init(
    operationType: OperationType, name: String?, variableDefinitions: [VariableDefinition] = [],
    directives: [Directive] = [], selectionSet: [Selection], location: SourceLocation
  ) {
    self.operationType = operationType
    self.name = name
    self.variableDefinitions = variableDefinitions
    self.directives = directives
    self.selectionSet = selectionSet
    self.location = location
  }
}

/// `$name: Type = default @directives` in an operation's variable list.
public struct VariableDefinition: Sendable, Hashable {
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

/// `fragment name on Type @directives { selections }`.
public struct FragmentDefinition: Sendable, Hashable {
  public let name: String
  public let typeCondition: String
  public let directives: [Directive]
  public let selectionSet: [Selection]
  public let location: SourceLocation

  public init(
    name: String, typeCondition: String, directives: [Directive] = [], selectionSet: [Selection],
    location: SourceLocation
  ) {
    self.name = name
    self.typeCondition = typeCondition
    self.directives = directives
    self.selectionSet = selectionSet
    self.location = location
  }
}
