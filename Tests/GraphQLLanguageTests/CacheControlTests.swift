import Testing

@testable import GraphQLLanguage

@Suite("@cacheControl: parsing and maxAge resolution")
struct CacheControlTests {
  func schema(_ texts: String...) throws -> Schema {
    try Schema(parsing: texts.enumerated().map { Source(name: "s\($0.offset).graphqls", text: $0.element) })
  }

  /// The `@cacheControl` of the first field named `name` in the operation's selection, at any depth.
  func operationControl(_ text: String, field name: String) throws -> CacheControl? {
    let document = try ExecutableDocument(parsing: [Source(name: "op.graphql", text: text)])
    func find(_ selections: [Selection]) -> Field? {
      for case .field(let field) in selections {
        if field.name == name { return field }
        if let nested = field.selectionSet, let found = find(nested) { return found }
      }
      return nil
    }
    return find(document.operations[0].selectionSet).flatMap(CacheControl.ofOperationField)
  }

  static let bookSchema = """
    type Query { book(id: ID!): Book  books: [Book!]! }
    type Book @cacheControl(maxAge: 3600) {
      id: ID!
      title: String
      price: Int @cacheControl(maxAge: 60)
      stock: Int @cacheControl(maxAge: 0)
      author: Author
      publisher: Publisher @cacheControl(inheritMaxAge: true)
      series: Series
      reviews: [Review!] @cacheControl(maxAge: 120)
    }
    type Author { name: String }
    type Publisher { name: String }
    type Series @cacheControl(inheritMaxAge: true) { name: String }
    type Review { stars: Int }
    """

  @Test("tri-state: no directive anywhere is nil (never expires), 0 stays 0, N is N")
  func triState() throws {
    let schema = try schema(Self.bookSchema)
    #expect(schema.maxAge(ofField: "name", on: "Author", operation: nil) == nil)
    #expect(schema.maxAge(ofField: "stock", on: "Book", operation: nil) == 0)
    #expect(schema.maxAge(ofField: "price", on: "Book", operation: nil) == 60)
    #expect(schema.maxAge(ofField: "book", on: "Query", operation: nil) == nil)
  }

  @Test("a scalar takes its parent type's maxAge; the field's own directive beats the type's")
  func scalarsInherit() throws {
    let schema = try schema(Self.bookSchema)
    #expect(schema.maxAge(ofField: "title", on: "Book", operation: nil) == 3600)
    #expect(schema.maxAge(ofField: "id", on: "Book", operation: nil) == 3600)
    #expect(schema.maxAge(ofField: "price", on: "Book", operation: nil) == 60)
  }

  @Test("an object-typed field does not inherit, unless inheritMaxAge: true is on the field or on its type")
  func objectsDoNotInherit() throws {
    let schema = try schema(Self.bookSchema)
    #expect(schema.maxAge(ofField: "author", on: "Book", operation: nil) == nil)
    #expect(schema.maxAge(ofField: "publisher", on: "Book", operation: nil) == 3600)
    #expect(schema.maxAge(ofField: "series", on: "Book", operation: nil) == 3600)
    // Its own maxAge, list or not.
    #expect(schema.maxAge(ofField: "reviews", on: "Book", operation: nil) == 120)
    // A type that only inherits gives its own scalars nothing.
    #expect(schema.maxAge(ofField: "name", on: "Series", operation: nil) == nil)
  }

  @Test("the operation's directive beats the schema's, for scalars and objects alike")
  func operationWins() throws {
    let schema = try schema(Self.bookSchema)
    let price = try operationControl("{ book(id: 1) { price @cacheControl(maxAge: 5) } }", field: "price")
    #expect(schema.maxAge(ofField: "price", on: "Book", operation: price) == 5)
    let author = try operationControl("{ book(id: 1) { author @cacheControl(maxAge: 30) { name } } }", field: "author")
    #expect(schema.maxAge(ofField: "author", on: "Book", operation: author) == 30)
    let inherit = try operationControl("{ book(id: 1) { author @cacheControl(inheritMaxAge: true) { name } } }", field: "author")
    #expect(schema.maxAge(ofField: "author", on: "Book", operation: inherit) == 3600)
    // Without a schema, only the operation speaks.
    #expect(Schema.empty.maxAge(ofField: "price", on: nil, operation: price) == 5)
    #expect(Schema.empty.maxAge(ofField: "price", on: nil, operation: nil) == nil)
  }

  @Test("type over interface, field over type, and a field's directive on an interface reaches its types")
  func interfaces() throws {
    let schema = try schema(
      """
      interface Node @cacheControl(maxAge: 100) { id: ID!  updatedAt: String @cacheControl(maxAge: 7) }
      type User implements Node @cacheControl(maxAge: 50) { id: ID!  updatedAt: String  name: String }
      type Post implements Node { id: ID!  updatedAt: String  slug: String }
      type Tag implements Node { id: ID!  updatedAt: String @cacheControl(maxAge: 9) }
      """)
    #expect(schema.maxAge(ofField: "name", on: "User", operation: nil) == 50)
    #expect(schema.maxAge(ofField: "slug", on: "Post", operation: nil) == 100)
    #expect(schema.maxAge(ofField: "updatedAt", on: "User", operation: nil) == 7)
    #expect(schema.maxAge(ofField: "updatedAt", on: "Tag", operation: nil) == 9)
    #expect(schema.maxAge(ofField: "id", on: "Node", operation: nil) == 100)
  }

  @Test("extensions: @cacheControl on a type, and @cacheControlField on a field another file defines")
  func extensions() throws {
    let schema = try schema(
      "type Query { book: Book }  type Book { id: ID!  title: String  price: Int }",
      """
      extend type Book @cacheControl(maxAge: 3600) @cacheControlField(name: "price", maxAge: 60)
      """)
    #expect(schema.maxAge(ofField: "title", on: "Book", operation: nil) == 3600)
    #expect(schema.maxAge(ofField: "price", on: "Book", operation: nil) == 60)
  }

  @Test(
    "malformed directives name the file, line and column",
    arguments: [
      ("type Book @cacheControl { id: ID }", "s0.graphqls:1:11: @cacheControl requires an explicit maxAge argument"),
      ("type Book @cacheControl(inheritMaxAge: false) { id: ID }", "s0.graphqls:1:11: @cacheControl requires an explicit maxAge argument"),
      ("type Book { id: ID @cacheControl(maxAge: -5) }", "s0.graphqls:1:20: @cacheControl(maxAge:) must be 0 or more seconds, got -5"),
      ("type Book { id: ID @cacheControl(maxAge: 1.5) }", "s0.graphqls:1:20: @cacheControl(maxAge:) must be an Int, got 1.5"),
      (#"type Book { id: ID @cacheControl(maxAge: "60") }"#, #"s0.graphqls:1:20: @cacheControl(maxAge:) must be an Int, got "60""#),
      (
        "type Book { id: ID @cacheControl(maxAge: 2147483648) }",
        "s0.graphqls:1:20: @cacheControl(maxAge:) must be at most 2147483647 seconds (GraphQL's Int), got 2147483648"
      ),
      (
        "type Book { id: ID @cacheControl(maxAge: 99999999999999999999) }",
        "s0.graphqls:1:42: Int 99999999999999999999 does not fit in 64 bits"
      ),
      (
        "type Book { id: ID @cacheControl(maxAge: 5, inheritMaxAge: true) }",
        "s0.graphqls:1:20: @cacheControl takes maxAge or inheritMaxAge: true, not both"
      ),
      (
        "type Book { id: ID @cacheControl(maxAge: 5, ttl: 3) }",
        #"s0.graphqls:1:20: @cacheControl has no argument "ttl" (it takes maxAge: Int, inheritMaxAge: Boolean)"#
      ),
      (
        "type Book { id: ID @cacheControl(maxAge: 5, scope: SHARED) }",
        "s0.graphqls:1:20: @cacheControl(scope:) must be PUBLIC or PRIVATE, got SHARED"
      ),
      (
        "type Book { id: ID @cacheControl(maxAge: 5) @cacheControl(maxAge: 6) }",
        "s0.graphqls:1:45: @cacheControl is given twice here (the other is at s0.graphqls:1:20)"
      ),
      (
        "scalar Date @cacheControl(maxAge: 5)",
        #"s0.graphqls:1:13: @cacheControl applies to object types, interfaces, unions and their fields, not to a scalar ("Date")"#
      ),
      (
        "enum Color @cacheControl(maxAge: 5) { RED }",
        #"s0.graphqls:1:12: @cacheControl applies to object types, interfaces, unions and their fields, not to an enum ("Color")"#
      ),
      (
        "input Filter { id: ID @cacheControl(maxAge: 5) }",
        #"s0.graphqls:1:23: @cacheControl applies to object types, interfaces, unions and their fields, not to an input field ("Filter.id")"#
      ),
      (
        "type Query { book(id: ID @cacheControl(maxAge: 5)): String }",
        #"s0.graphqls:1:26: @cacheControl applies to object types, interfaces, unions and their fields, not to an argument ("Query.book(id:)")"#
      ),
      (
        "type Book { id: ID }  extend type Book @cacheControlField(name: \"title\", maxAge: 5)",
        #"s0.graphqls:1:40: @cacheControlField names field "title", which "Book" does not have"#
      ),
      (
        "type Book @cacheControl(maxAge: 1) { id: ID }  extend type Book @cacheControl(maxAge: 2)",
        #"s0.graphqls:1:65: "Book" already has a @cacheControl (at s0.graphqls:1:11)"#
      ),
      (
        "type Book {\n  id: ID\n  title: String @cacheControl(maxAge: 60, maxAge: 10)\n}",
        #"s0.graphqls:3:43: There can be only one argument named "maxAge""#
      ),
      (
        "type Book {\n  id: ID\n  title: String @cacheControlField(name: \"title\", maxAge: 5)\n}",
        #"s0.graphqls:3:17: @cacheControlField is for a type or its extension (extend type Book @cacheControlField(name: "title", maxAge: 60)), not for a field definition ("Book.title"): write @cacheControl(maxAge: ...) on the field"#
      ),
    ])
  func malformed(text: String, message: String) {
    let error = #expect(throws: GraphQLError.self) { try schema(text) }
    #expect(error?.description == message)
  }

  @Test("a type or field between two interfaces that disagree, with nothing of its own, is an error")
  func conflictingInterfaces() {
    let error = #expect(throws: GraphQLError.self) {
      try schema(
        """
        interface A @cacheControl(maxAge: 10) { id: ID }
        interface B @cacheControl(maxAge: 20) { id: ID }
        type C implements A & B { id: ID }
        """)
    }
    #expect(
      error?.description
        == #"s0.graphqls:3:1: Type "C" inherits conflicting @cacheControl from its interfaces "A" (maxAge: 10) and "B" (maxAge: 20); give it a @cacheControl of its own"#
    )
    let fieldError = #expect(throws: GraphQLError.self) {
      try schema(
        """
        interface A { id: ID @cacheControl(maxAge: 10) }
        interface B { id: ID @cacheControl(inheritMaxAge: true) }
        type C implements A & B { id: ID }
        """)
    }
    #expect(
      fieldError?.description
        == #"s0.graphqls:3:27: Field "C.id" inherits conflicting @cacheControl from its interfaces "A" (maxAge: 10) and "B" (inheritMaxAge: true); give it a @cacheControl of its own"#
    )
    // Its own settles it.
    #expect(throws: Never.self) {
      try schema(
        """
        interface A @cacheControl(maxAge: 10) { id: ID }
        interface B @cacheControl(maxAge: 20) { id: ID }
        type C implements A & B @cacheControl(maxAge: 5) { id: ID }
        """)
    }
  }

  @Test(
    "in an operation, @cacheControl stands on fields only",
    arguments: [
      (
        "query Q @cacheControl(maxAge: 5) { a }",
        "op.graphql:1:9: @cacheControl applies to object types, interfaces, unions and their fields, not to an operation (fields of an operation take it)"
      ),
      (
        "query Q { ... on Query @cacheControl(maxAge: 5) { a } }",
        "op.graphql:1:24: @cacheControl applies to object types, interfaces, unions and their fields, not to an inline fragment (fields of an operation take it)"
      ),
      (
        "query Q { ...F @cacheControl(maxAge: 5) } fragment F on Query { a }",
        "op.graphql:1:16: @cacheControl applies to object types, interfaces, unions and their fields, not to a fragment spread (fields of an operation take it)"
      ),
      ("query Q { a @cacheControl }", "op.graphql:1:13: @cacheControl requires an explicit maxAge argument"),
      (
        "query Q($age: Int) { a @cacheControl(maxAge: $age) }",
        "op.graphql:1:24: @cacheControl(maxAge:) must be an Int literal, not the variable $age"
      ),
      (
        #"query Q { a @cacheControlField(name: "a", maxAge: 1) }"#,
        "op.graphql:1:13: @cacheControlField belongs in schema extensions; a field of an operation takes @cacheControl"
      ),
      ("query Q { a @cacheControl(maxAge: 5, maxAge: 6) }", #"op.graphql:1:38: There can be only one argument named "maxAge""#),
      (#"query Q { book(id: "1", id: "2") { a } }"#, #"op.graphql:1:25: There can be only one argument named "id""#),
    ])
  func operationPlaces(text: String, message: String) {
    let error = #expect(throws: GraphQLError.self) {
      try ExecutableDocument(parsing: [Source(name: "op.graphql", text: text)])
    }
    #expect(error?.description == message)
  }

  @Test("the calendar's TTL profile parses with its schema and gives what its comments say")
  func calendarProfile() throws {
    let schema = try Schema(parsing: [
      try projectSource("Workloads/calendar/schema.graphqls"),
      try projectSource("Workloads/calendar/extensions.graphqls"),
      try projectSource("Workloads/calendar/cache-control.graphqls"),
    ])
    #expect(schema.maxAge(ofField: "items", on: "Query", operation: nil) == 60)
    #expect(schema.maxAge(ofField: "edges", on: "ItemConnection", operation: nil) == 60)
    #expect(schema.maxAge(ofField: "hasNextPage", on: "PageInfo", operation: nil) == 60)
    #expect(schema.maxAge(ofField: "title", on: "Item", operation: nil) == 300)
    #expect(schema.maxAge(ofField: "deleted", on: "Item", operation: nil) == 60)
    #expect(schema.maxAge(ofField: "start", on: "Item", operation: nil) == 300)
    #expect(schema.maxAge(ofField: "type", on: "Item", operation: nil) == nil)
    // node is a reference without a directive: not aged itself; an event's fields below it take
    // Item's 300 (the object's type's own), not edges' 60.
    #expect(schema.maxAge(ofField: "node", on: "ItemEdge", operation: nil) == nil)
    #expect(schema.maxAge(ofField: "node", on: "ItemEdge", operation: nil, parentMaxAge: 60).inherited == .ofType)
    // start inherits the event's 300, and DateTimeInfo (inheritMaxAge) passes it to its scalars.
    #expect(schema.maxAge(ofField: "start", on: "Item", operation: nil, parentMaxAge: 300).inherited == .fixed(300))
    #expect(schema.maxAge(ofField: "date", on: "DateTimeInfo", operation: nil, parentMaxAge: 300).checked == 300)
    // An edge's id is the page's: edges says 60 (ItemEdge's own 300 is for a field returning one).
    #expect(schema.maxAge(ofField: "id", on: "ItemEdge", operation: nil, parentMaxAge: 60).checked == 60)
    #expect(schema.maxAge(ofField: "name", on: "Icon", operation: nil) == 86400)
    #expect(schema.maxAge(ofField: "description", on: "Series", operation: nil) == 3600)
  }
}
