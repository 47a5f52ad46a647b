import GraphQLLanguage
import Testing

/// The checkers the generator tests rely on must catch what they are for, or a passing
/// generator test would prove nothing.
@Suite("The test-side operation validator and response checker")
struct GeneratorCheckersTests {
  static let schemaText = """
    type Query { book(id: ID!): Book  books(page: Int!): [Book!]! }
    type Book { id: ID! title: String pages: Int author: Author }
    type Author { name: String }
    """

  static let invalidOperations: [(text: String, problem: String)] = [
    (#"query Q { book(id: "1") { title nope } }"#, "Q.book.nope: Book has no field nope"),
    (#"query Q($id: ID!, $x: Int) { book(id: $id) { title } }"#, "variable $x is never used"),
    (
      "query Q($page: String!) { books(page: $page) { title } }",
      "Q.books(page): variable $page of type String! used where Int! is expected"
    ),
    (#"query Q { book(id: "1") { author } }"#, "Q.book.author: field author of type Author needs a selection set"),
    (#"query Q { book(id: "1") { title { x } } }"#, "Q.book.title: leaf field title has a selection set"),
    (
      #"query Q { book(id: "1") { ...F } } fragment F on Book { title } fragment G on Book { id }"#,
      "fragment G is never used"
    ),
    (#"query Q { book(id: "1") { a: title a: pages } }"#, "Q.book: response key a has types String and Int"),
    ("query Q { books { title } }", "Q.books: required argument page missing"),
  ]

  @Test("the validator accepts a valid operation")
  func acceptsValid() throws {
    let schema = try Schema(parsing: [Source(name: "s.graphqls", text: Self.schemaText)])
    let text = #"query Q($p: Int!) { books(page: $p) { ...F author { name } } } fragment F on Book { id title }"#
    let document = try ExecutableDocument(parsing: [Source(name: "q.graphql", text: text)])
    #expect(OperationValidator.problems(schema: schema, document: document) == [])
  }

  @Test("the validator names what is wrong", arguments: 0..<invalidOperations.count)
  func rejectsInvalid(_ index: Int) throws {
    let schema = try Schema(parsing: [Source(name: "s.graphqls", text: Self.schemaText)])
    let document = try ExecutableDocument(parsing: [Source(name: "q.graphql", text: Self.invalidOperations[index].text)]
    )
    #expect(
      OperationValidator.problems(schema: schema, document: document).contains(Self.invalidOperations[index].problem))
  }

  @Test(
    "the response checker accepts exactly the selected members, in order, of the right types",
    arguments: [
      (#"{"book": {"id": "1", "title": "x", "author": null}}"#, true),
      (#"{"book": {"id": "1", "author": null}}"#, false),
      (#"{"book": {"id": "1", "title": "x", "author": null, "pages": 3}}"#, false),
      (#"{"book": {"title": "x", "id": "1", "author": null}}"#, false),
      (#"{"book": {"id": "1", "title": 3, "author": null}}"#, false),
      (#"{"book": {"id": "1", "title": "x", "author": {"name": "n"}}}"#, true),
      (#"{"book": {"id": "1", "title": "x", "author": [{"name": "n"}]}}"#, false),
    ])
  func checksResponses(json: String, valid: Bool) throws {
    let schema = try Schema(parsing: [Source(name: "s.graphqls", text: Self.schemaText)])
    let text = #"query Q { book(id: "1") { id title author { name } } }"#
    let document = try ExecutableDocument(parsing: [Source(name: "q.graphql", text: text)])
    let data = try #require(try JSONParser.parse(json).objectValue)
    let problems = ResponseShapeChecker.problems(schema: schema, document: document, operationName: "Q", data: data)
    #expect(problems.isEmpty == valid, "\(problems)")
  }
}
