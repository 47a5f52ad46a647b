import Testing

@testable import GraphQLLanguage

@Suite("Parsing executable documents")
struct ExecutableParserTests {
  func parse(_ text: String) throws(GraphQLError) -> Document {
    try Parser.parse(Source(name: "q.graphql", text: text))
  }

  @Test("parses a named query with variables, defaults, directives, aliases and arguments of every kind")
  func namedQuery() throws {
    let document = try parse(
      """
      query Hero($episode: Episode = JEDI, $ids: [ID!]! @optional, $withFriends: Boolean!) @live {
        leader: hero(episode: $episode, n: -12, f: 1.5e2, s: "a\\"b", b: true, z: null,
                     list: [1, $ids], obj: {nested: {x: $episode}, y: [A, B]}) {
          name
          friends @include(if: $withFriends) { name }
          ... on Droid { primaryFunction }
          ... @skip(if: false) { id }
          ...HeroDetails
        }
      }
      fragment HeroDetails on Character { appearsIn }
      """)
    #expect(document.definitions.count == 2)
    guard case .operation(let operation) = document.definitions[0] else {
      Issue.record("not an operation")
      return
    }
    #expect(operation.operationType == .query)
    #expect(operation.name == "Hero")
    #expect(operation.directives.map(\.name) == ["live"])
    #expect(operation.variableDefinitions.map(\.name) == ["episode", "ids", "withFriends"])
    #expect(operation.variableDefinitions[0].defaultValue == .enumValue("JEDI"))
    #expect(operation.variableDefinitions[1].type == .nonNull(.list(.nonNull(.named("ID")))))
    #expect(operation.variableDefinitions[1].directives.map(\.name) == ["optional"])
    guard case .field(let hero) = operation.selectionSet[0] else {
      Issue.record("not a field")
      return
    }
    #expect(hero.alias == "leader")
    #expect(hero.name == "hero")
    #expect(hero.responseKey == "leader")
    let arguments = Dictionary(uniqueKeysWithValues: hero.arguments.map { ($0.name, $0.value) })
    #expect(arguments["episode"] == .variable("episode"))
    #expect(arguments["n"] == .int(-12))
    #expect(arguments["f"] == .float(150))
    #expect(arguments["s"] == .string("a\"b"))
    #expect(arguments["b"] == .boolean(true))
    #expect(arguments["z"] == .null)
    #expect(arguments["list"] == .list([.int(1), .variable("ids")]))
    #expect(
      arguments["obj"]
        == .object([
          .init(name: "nested", value: .object([.init(name: "x", value: .variable("episode"))])),
          .init(name: "y", value: .list([.enumValue("A"), .enumValue("B")])),
        ]))
    let selections = hero.selectionSet ?? []
    #expect(selections.count == 5)
    if case .inlineFragment(let droid) = selections[2] { #expect(droid.typeCondition == "Droid") }
    if case .inlineFragment(let untyped) = selections[3] {
      #expect(untyped.typeCondition == nil)
      #expect(untyped.directives.map(\.name) == ["skip"])
    }
    if case .fragmentSpread(let spread) = selections[4] { #expect(spread.name == "HeroDetails") }
    guard case .fragment(let fragment) = document.definitions[1] else {
      Issue.record("not a fragment")
      return
    }
    #expect(fragment.typeCondition == "Character")
  }

  @Test("parses anonymous queries, mutations and subscriptions")
  func operationKinds() throws {
    let document = try parse("{ a } mutation M { b } subscription S { c }")
    let kinds = document.definitions.compactMap { definition -> OperationType? in
      if case .operation(let operation) = definition { return operation.operationType }
      return nil
    }
    #expect(kinds == [.query, .mutation, .subscription])
  }

  @Test("reads block strings with their common indentation removed")
  func blockString() throws {
    let value = try Parser.parseValue(Source(name: "v", text: "\"\"\"\n    Hello,\n      World!\n\n    Yours\n  \"\"\""))
    #expect(value == .string("Hello,\n  World!\n\nYours"))
  }

  @Test("reads unicode escapes, including surrogate pairs")
  func unicodeEscapes() throws {
    let value = try Parser.parseValue(Source(name: "v", text: #""caf\u00e9 \uD83D\uDE00""#))
    #expect(value == .string("café 😀"))
  }

  @Test(
    "reports errors at the right line and column, saying what was expected",
    arguments: [
      ("{ a", "q.graphql:1:4: Expected Name, found <EOF>"),
      ("query Q {\n  book(id: ) { title }\n}", "q.graphql:2:12: Expected a value, found \")\""),
      ("query Q {\n  book {\n    title\n  }\n", "q.graphql:5:1: Expected Name, found <EOF>"),
      ("{ a(x: 01) }", "q.graphql:1:9: Invalid number, unexpected digit after 0: \"1\""),
      ("{ a(x: \"open) }", "q.graphql:1:8: Unterminated string."),
      ("{ a ? }", "q.graphql:1:5: Unexpected character \"?\""),
      ("query Q($v Int) { a }", "q.graphql:1:12: Expected \":\", found Name \"Int\""),
      ("fragment on on T { a }", "q.graphql:1:10: Expected a fragment name, found Name \"on\""),
      ("{ a(x: $v) } type", "q.graphql:1:18: Expected Name, found <EOF>"),
      (
        "\n\n   bogus { a }",
        "q.graphql:3:4: Expected a definition (query, mutation, subscription, fragment, type, extend, ...), found Name \"bogus\""
      ),
      ("{ a(x: ..) }", "q.graphql:1:8: Unexpected \".\"; did you mean \"...\"?"),
    ])
  func parseErrors(text: String, message: String) {
    #expect(throws: GraphQLError.self) { try parse(text) }
    do {
      _ = try parse(text)
    } catch {
      #expect(error.description == message)
    }
  }

  @Test("counts columns in characters, not bytes")
  func columnsInCharacters() {
    do {
      _ = try parse("{ a(x: \"é\") ? }")
      Issue.record("expected an error")
    } catch {
      #expect(error.description == "q.graphql:1:13: Unexpected character \"?\"")
    }
  }
}

@Suite("Executable documents")
struct ExecutableDocumentTests {
  @Test("the calendar operation and its eight fragment files parse as one document")
  func calendarParses() throws {
    let document = try ExecutableDocument(parsing: calendarOperationFiles.map(projectSource))
    #expect(document.operations.map(\.name) == ["ItemsQuery"])
    #expect(document.fragments.count == 8)
    let operation = try document.operation(named: nil)
    #expect(operation.variableDefinitions.map(\.name) == ["after", "endingAfter", "startingBefore"])
    #expect(operation.variableDefinitions[0].directives.map(\.name) == ["optional"])
  }

  @Test("an unknown fragment is an error at the spread")
  func unknownFragment() {
    let error = #expect(throws: GraphQLError.self) {
      try ExecutableDocument(parsing: [Source(name: "q.graphql", text: "{ a {\n ...Missing } }")])
    }
    #expect(error?.description == "q.graphql:2:2: Unknown fragment \"Missing\"")
  }

  @Test("a fragment that spreads itself is an error")
  func fragmentCycle() {
    let error = #expect(throws: GraphQLError.self) {
      try ExecutableDocument(parsing: [
        Source(name: "q.graphql", text: "{ ...A }\nfragment A on Q { ...B }\nfragment B on Q { ...A }")
      ])
    }
    #expect(error?.description == #"q.graphql:3:19: Cannot spread fragment "A" within itself (A -> B -> A)"#)
  }

  @Test("several operations need a name to choose one")
  func chooseOperation() throws {
    let document = try ExecutableDocument(parsing: [Source(name: "q.graphql", text: "query A { a } query B { b }")])
    #expect(try document.operation(named: "B").name == "B")
    #expect(throws: GraphQLError.self) { try document.operation(named: nil) }
    #expect(throws: GraphQLError.self) { try document.operation(named: "C") }
  }
}
