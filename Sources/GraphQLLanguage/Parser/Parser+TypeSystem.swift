/// Type system definitions and extensions
/// ([GraphQL spec §3](https://spec.graphql.org/October2021/#sec-Type-System)).
extension Parser {
  mutating func parseSchemaDefinition(isExtension: Bool) throws(GraphQLError) -> SchemaDefinition {
    let location = self.location
    try expectKeyword("schema")
    let directives = try parseDirectives(constant: true)
    var operationTypes: [OperationType: String] = [:]
    if token.kind == .braceL || !isExtension {
      try expect(.braceL)
      repeat {
        guard token.kind == .name, let operation = OperationType(rawValue: token.value) else {
          throw unexpected(expecting: "\"query\", \"mutation\" or \"subscription\"")
        }
        try advance()
        try expect(.colon)
        operationTypes[operation] = try expectName()
      } while token.kind != .braceR
      try advance()
    }
    return SchemaDefinition(
      operationTypes: operationTypes, directives: directives, isExtension: isExtension, location: location)
  }

  mutating func parseTypeDefinition(description: String?, isExtension: Bool) throws(GraphQLError) -> TypeDefinition {
    let location = self.location
    let keyword = token.value
    try advance()
    let name = try expectName()
    switch keyword {
    case "scalar":
      return TypeDefinition(
        kind: .scalar, name: name, isExtension: isExtension, description: description,
        directives: try parseDirectives(constant: true), location: location)
    case "type", "interface":
      let interfaces = try parseImplementsInterfaces()
      let directives = try parseDirectives(constant: true)
      let fields = token.kind == .braceL ? try parseFieldDefinitions() : []
      return TypeDefinition(
        kind: keyword == "type" ? .object : .interface, name: name, isExtension: isExtension,
        description: description, interfaces: interfaces, directives: directives, fields: fields, location: location)
    case "union":
      let directives = try parseDirectives(constant: true)
      var members: [String] = []
      if try skip(.equals) {
        _ = try skip(.pipe)
        members.append(try expectName())
        while try skip(.pipe) { members.append(try expectName()) }
      }
      return TypeDefinition(
        kind: .union, name: name, isExtension: isExtension, description: description, directives: directives,
        unionMembers: members, location: location)
    case "enum":
      let directives = try parseDirectives(constant: true)
      var values: [String] = []
      if try skip(.braceL) {
        repeat {
          _ = try parseDescription()
          values.append(try expectName())
          _ = try parseDirectives(constant: true)
        } while token.kind != .braceR
        try advance()
      }
      return TypeDefinition(
        kind: .enumeration, name: name, isExtension: isExtension, description: description, directives: directives,
        enumValues: values, location: location)
    case "input":
      let directives = try parseDirectives(constant: true)
      var fields: [InputValueDefinition] = []
      if try skip(.braceL) {
        repeat {
          fields.append(try parseInputValueDefinition())
        } while token.kind != .braceR
        try advance()
      }
      return TypeDefinition(
        kind: .inputObject, name: name, isExtension: isExtension, description: description,
        directives: directives, inputFields: fields, location: location)
    default:
      throw GraphQLError(
        "Expected \"scalar\", \"type\", \"interface\", \"union\", \"enum\" or \"input\", found Name \"\(keyword)\"",
        at: location)
    }
  }

  /// `implements A & B`.
  private mutating func parseImplementsInterfaces() throws(GraphQLError) -> [String] {
    guard peekKeyword("implements") else { return [] }
    try advance()
    _ = try skip(.amp)
    var names = [try expectName()]
    while try skip(.amp) { names.append(try expectName()) }
    return names
  }

  private mutating func parseFieldDefinitions() throws(GraphQLError) -> [FieldDefinition] {
    try expect(.braceL)
    var fields: [FieldDefinition] = []
    repeat {
      _ = try parseDescription()
      let location = self.location
      let name = try expectName()
      var arguments: [InputValueDefinition] = []
      if try skip(.parenL) {
        repeat {
          arguments.append(try parseInputValueDefinition())
        } while token.kind != .parenR
        try advance()
      }
      try expect(.colon)
      let type = try parseTypeReference()
      let directives = try parseDirectives(constant: true)
      fields.append(
        FieldDefinition(name: name, arguments: arguments, type: type, directives: directives, location: location))
    } while token.kind != .braceR
    try advance()
    return fields
  }

  private mutating func parseInputValueDefinition() throws(GraphQLError) -> InputValueDefinition {
    _ = try parseDescription()
    let location = self.location
    let name = try expectName()
    try expect(.colon)
    let type = try parseTypeReference()
    var defaultValue: Value?
    if try skip(.equals) { defaultValue = try parseValue(constant: true) }
    let directives = try parseDirectives(constant: true)
    return InputValueDefinition(
      name: name, type: type, defaultValue: defaultValue, directives: directives, location: location)
  }

  mutating func parseDirectiveDefinition() throws(GraphQLError) -> DirectiveDefinition {
    let location = self.location
    try expectKeyword("directive")
    try expect(.at)
    let name = try expectName()
    var arguments: [InputValueDefinition] = []
    if try skip(.parenL) {
      repeat {
        arguments.append(try parseInputValueDefinition())
      } while token.kind != .parenR
      try advance()
    }
    let repeatable = peekKeyword("repeatable")
    if repeatable { try advance() }
    try expectKeyword("on")
    _ = try skip(.pipe)
    var locations = [try expectName()]
    while try skip(.pipe) { locations.append(try expectName()) }
    return DirectiveDefinition(
      name: name, arguments: arguments, isRepeatable: repeatable, locations: locations, location: location)
  }
}
