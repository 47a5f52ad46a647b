/// Operations, fragments and selection sets
/// ([GraphQL spec §2.3–2.8](https://spec.graphql.org/October2021/#sec-Language.Operations)).
extension Parser {
  mutating func parseOperationDefinition() throws(GraphQLError) -> OperationDefinition {
    let location = self.location
    if token.kind == .braceL {
      return OperationDefinition(
        operationType: .query, name: nil, selectionSet: try parseSelectionSet(), location: location)
    }
    guard token.kind == .name, let operationType = OperationType(rawValue: token.value) else {
      throw unexpected(expecting: "\"query\", \"mutation\" or \"subscription\"")
    }
    try advance()
    var name: String?
    if token.kind == .name { name = try expectName() }
    let variables = try parseVariableDefinitions()
    let directives = try parseDirectives(constant: false)
    return OperationDefinition(
      operationType: operationType, name: name, variableDefinitions: variables, directives: directives,
      selectionSet: try parseSelectionSet(), location: location)
  }

  private mutating func parseVariableDefinitions() throws(GraphQLError) -> [VariableDefinition] {
    guard try skip(.parenL) else { return [] }
    var definitions: [VariableDefinition] = []
    repeat {
      let location = self.location
      try expect(.dollar)
      let name = try expectName()
      try expect(.colon)
      let type = try parseTypeReference()
      var defaultValue: Value?
      if try skip(.equals) { defaultValue = try parseValue(constant: true) }
      let directives = try parseDirectives(constant: true)
      definitions.append(
        VariableDefinition(name: name, type: type, defaultValue: defaultValue, directives: directives, location: location))
    } while token.kind != .parenR
    try advance()
    return definitions
  }

  mutating func parseFragmentDefinition() throws(GraphQLError) -> FragmentDefinition {
    let location = self.location
    try expectKeyword("fragment")
    if peekKeyword("on") { throw unexpected(expecting: "a fragment name") }
    let name = try expectName()
    try expectKeyword("on")
    let typeCondition = try expectName()
    let directives = try parseDirectives(constant: false)
    return FragmentDefinition(
      name: name, typeCondition: typeCondition, directives: directives, selectionSet: try parseSelectionSet(),
      location: location)
  }

  /// `{ selection+ }`.
  mutating func parseSelectionSet() throws(GraphQLError) -> [Selection] {
    try enterNesting("Selection sets")
    defer { depth -= 1 }
    try expect(.braceL)
    var selections: [Selection] = []
    repeat {
      selections.append(try parseSelection())
    } while token.kind != .braceR
    try advance()
    return selections
  }

  private mutating func parseSelection() throws(GraphQLError) -> Selection {
    let location = self.location
    if try skip(.spread) {
      if token.kind == .name, !peekKeyword("on") {
        let name = try expectName()
        return .fragmentSpread(
          FragmentSpread(name: name, directives: try parseDirectives(constant: false), location: location))
      }
      var typeCondition: String?
      if peekKeyword("on") {
        try advance()
        typeCondition = try expectName()
      }
      let directives = try parseDirectives(constant: false)
      return .inlineFragment(
        InlineFragment(
          typeCondition: typeCondition, directives: directives, selectionSet: try parseSelectionSet(),
          location: location))
    }
    guard token.kind == .name else { throw unexpected(expecting: "Name") }
    var name = try expectName()
    var alias: String?
    if try skip(.colon) {
      alias = name
      name = try expectName()
    }
    let arguments = try parseArguments(constant: false)
    let directives = try parseDirectives(constant: false)
    let selectionSet = token.kind == .braceL ? try parseSelectionSet() : nil
    return .field(
      Field(
        alias: alias, name: name, arguments: arguments, directives: directives, selectionSet: selectionSet,
        location: location))
  }
}
