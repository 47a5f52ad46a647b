/// A recursive-descent parser for GraphQL documents, executable and type system alike.
///
/// ```swift
/// let document = try Parser.parse(Source(name: "q.graphql", text: "{ book(id: 1) { title } }"))
/// ```
/// Every error names the file, line and column and says what was expected:
/// `q.graphql:1:27: Expected Name, found "}"`.
/// See [GraphQL spec §2 Language](https://spec.graphql.org/October2021/#sec-Language).
public struct Parser {
  var lexer: Lexer
  var token: Token
  /// Selection sets, list and object values and list types open now.
  var depth = 0
  /// Deeper nesting is an error: every level is a recursion here and in everything that walks
  /// the tree after (planning, key rendering, a value's release), and at about 1 KB of stack a
  /// level, 5,000 levels overflowed an 8 MB stack. Real operations nest a few dozen levels.
  static let maximumDepth = 256

  init(source: Source) throws(GraphQLError) {
    lexer = Lexer(source: source)
    token = try lexer.next()
  }

  /// Parses a whole document.
  /// - Throws: ``GraphQLError`` at the first token that does not fit the grammar.
  public static func parse(_ source: Source) throws(GraphQLError) -> Document {
    var parser = try Parser(source: source)
    return try parser.parseDocument()
  }

  /// Parses a single input value, as in `--variables` or tests: `{a: [1, 2], b: ENUM}`.
  public static func parseValue(_ source: Source) throws(GraphQLError) -> Value {
    var parser = try Parser(source: source)
    let value = try parser.parseValue(constant: false)
    try parser.expect(.eof)
    return value
  }

  mutating func parseDocument() throws(GraphQLError) -> Document {
    var definitions: [Document.Definition] = []
    repeat {
      definitions.append(try parseDefinition())
    } while token.kind != .eof
    return Document(source: lexer.source.name, definitions: definitions)
  }

  private mutating func parseDefinition() throws(GraphQLError) -> Document.Definition {
    if token.kind == .braceL { return .operation(try parseOperationDefinition()) }
    let description = try parseDescription()
    guard token.kind == .name else {
      throw unexpected(expecting: "a definition (query, mutation, subscription, fragment, type, extend, ...)")
    }
    if description != nil, ["query", "mutation", "subscription", "fragment", "extend"].contains(token.value) {
      throw unexpected(expecting: "a type system definition after a description")
    }
    switch token.value {
    case "query", "mutation", "subscription":
      return .operation(try parseOperationDefinition())
    case "fragment":
      return .fragment(try parseFragmentDefinition())
    case "schema":
      return .schema(try parseSchemaDefinition(isExtension: false))
    case "scalar", "type", "interface", "union", "enum", "input":
      return .type(try parseTypeDefinition(description: description, isExtension: false))
    case "directive":
      return .directive(try parseDirectiveDefinition())
    case "extend":
      try advance()
      guard token.kind == .name else { throw unexpected(expecting: "a type to extend") }
      if token.value == "schema" { return .schema(try parseSchemaDefinition(isExtension: true)) }
      return .type(try parseTypeDefinition(description: nil, isExtension: true))
    default:
      throw unexpected(expecting: "a definition (query, mutation, subscription, fragment, type, extend, ...)")
    }
  }

  // MARK: - Token helpers

  var location: SourceLocation { lexer.location(of: token.start) }

  mutating func advance() throws(GraphQLError) {
    token = try lexer.next()
  }

  /// Consumes a token of this kind, or fails naming what was expected and what was found.
  @discardableResult
  mutating func expect(_ kind: TokenKind) throws(GraphQLError) -> Token {
    guard token.kind == kind else { throw unexpected(expecting: kind.expectationName) }
    let consumed = token
    try advance()
    return consumed
  }

  /// Consumes the token if it is of this kind.
  mutating func skip(_ kind: TokenKind) throws(GraphQLError) -> Bool {
    guard token.kind == kind else { return false }
    try advance()
    return true
  }

  mutating func expectName() throws(GraphQLError) -> String {
    try expect(.name).value
  }

  /// Consumes the keyword, or fails.
  mutating func expectKeyword(_ keyword: String) throws(GraphQLError) {
    guard token.kind == .name, token.value == keyword else { throw unexpected(expecting: "\"\(keyword)\"") }
    try advance()
  }

  func peekKeyword(_ keyword: String) -> Bool {
    token.kind == .name && token.value == keyword
  }

  func unexpected(expecting expected: String) -> GraphQLError {
    GraphQLError("Expected \(expected), found \(token.description)", at: location)
  }

  // MARK: - Shared productions

  /// `( arguments )`, or none. An argument given twice is an error at the second
  /// ([§5.4.2 Argument Uniqueness](https://spec.graphql.org/October2021/#sec-Argument-Uniqueness)):
  /// which value to keep would be a guess (`@cacheControl(maxAge: 60, maxAge: 10)`).
  mutating func parseArguments(constant: Bool) throws(GraphQLError) -> [Argument] {
    guard try skip(.parenL) else { return [] }
    var arguments: [Argument] = []
    var names: Set<String> = []
    repeat {
      let location = self.location
      let name = try expectName()
      guard names.insert(name).inserted else {
        throw GraphQLError("There can be only one argument named \"\(name)\"", at: location)
      }
      try expect(.colon)
      arguments.append(Argument(name: name, value: try parseValue(constant: constant)))
    } while token.kind != .parenR
    try advance()
    return arguments
  }

  mutating func parseDirectives(constant: Bool) throws(GraphQLError) -> [Directive] {
    var directives: [Directive] = []
    while token.kind == .at {
      let location = self.location
      try advance()
      let name = try expectName()
      directives.append(Directive(name: name, arguments: try parseArguments(constant: constant), location: location))
    }
    return directives
  }

  /// A value; `constant` forbids variables (default values, directives in a schema).
  mutating func parseValue(constant: Bool) throws(GraphQLError) -> Value {
    let current = token
    switch current.kind {
    case .bracketL:
      try enterNesting("List values")
      defer { depth -= 1 }
      try advance()
      var values: [Value] = []
      while token.kind != .bracketR {
        if token.kind == .eof { throw unexpected(expecting: "a value or \"]\"") }
        values.append(try parseValue(constant: constant))
      }
      try advance()
      return .list(values)
    case .braceL:
      try enterNesting("Input object values")
      defer { depth -= 1 }
      try advance()
      var fields: [Value.ObjectField] = []
      while token.kind != .braceR {
        let name = try expectName()
        try expect(.colon)
        fields.append(Value.ObjectField(name: name, value: try parseValue(constant: constant)))
      }
      try advance()
      return .object(fields)
    case .int:
      try advance()
      guard let value = Int(current.value) else {
        throw GraphQLError("Int \(current.value) does not fit in 64 bits", at: lexer.location(of: current.start))
      }
      return .int(value)
    case .float:
      try advance()
      guard let value = Double(current.value) else {
        throw GraphQLError("Invalid Float \(current.value)", at: lexer.location(of: current.start))
      }
      return .float(value)
    case .string, .blockString:
      try advance()
      return .string(current.value)
    case .name:
      try advance()
      switch current.value {
      case "true": return .boolean(true)
      case "false": return .boolean(false)
      case "null": return .null
      default: return .enumValue(current.value)
      }
    case .dollar where !constant:
      try advance()
      return .variable(try expectName())
    case .dollar:
      throw GraphQLError("Unexpected variable in a constant value", at: location)
    default:
      throw unexpected(expecting: "a value")
    }
  }

  /// Enters one more level of nesting, or fails past ``maximumDepth``; pair with `depth -= 1`.
  mutating func enterNesting(_ what: String) throws(GraphQLError) {
    depth += 1
    guard depth <= Self.maximumDepth else {
      throw GraphQLError("\(what) nested deeper than \(Self.maximumDepth) levels", at: location)
    }
  }

  /// `Name`, `[Type]`, `Type!`.
  mutating func parseTypeReference() throws(GraphQLError) -> TypeReference {
    var type: TypeReference
    if token.kind == .bracketL {
      try enterNesting("List types")
      defer { depth -= 1 }
      try advance()
      type = .list(try parseTypeReference())
      try expect(.bracketR)
    } else {
      type = .named(try expectName())
    }
    if try skip(.bang) { type = .nonNull(type) }
    return type
  }

  /// An optional description string before a type system definition.
  mutating func parseDescription() throws(GraphQLError) -> String? {
    guard token.kind == .string || token.kind == .blockString else { return nil }
    let value = token.value
    try advance()
    return value
  }
}
