import GraphQLLanguage
import Testing

@testable import NormalizedCache

/// Every example of Apollo iOS's cache-control samples (`apollo-ios/Design/Samples/
/// cache-control-samples.md` in apollo-ios-dev, commit 833b70d3f "RFC Updates", 2025-04-21), read
/// as Apollo Server reads them: a scalar takes its parent field's resolved `maxAge` (a type's, a
/// field's own, or one a field or a type inherited), an object-typed field its type's unless a
/// directive on the field or `inheritMaxAge` says otherwise. The samples write the default as 0;
/// here it is nil (no `maxAge`: docs/ttl.md's tri-state).
///
/// The samples that show only a schema are read through an operation that selects every field of
/// theirs from a root field (`author`, `book`), which Apollo's text leaves implicit. Expected values
/// are the samples' own comments and sentences.
@Suite("Apollo iOS's cache-control samples")
struct CacheControlSamplesTests {
  /// Each response path of `operation` with the `maxAge` it resolves to, and for the leaves the one
  /// a read checks (always equal: a leaf is checked by its resolved `maxAge`).
  static func resolved(_ schemaText: String, _ operation: String) throws -> [String: Int?] {
    let schema = try Schema(parsing: [Source(name: "schema.graphqls", text: schemaText)])
    let plan = try OperationPlan(document: ExecutableDocument(parsing: [Source(name: "op.graphql", text: operation)]), schema: schema)
    var result: [String: Int?] = [:]
    func walk(_ selection: SelectionPlan, path: String) throws {
      for field in try plan.selection(selection, runtimeType: selection.staticType).fields where field.name != "__typename" {
        let place = path.isEmpty ? field.responseKey : path + "." + field.responseKey
        guard let child = field.child else {
          result.updateValue(field.maxAge, forKey: place)
          continue
        }
        switch child.parentMaxAge {
        case .fixed(let seconds): result.updateValue(seconds, forKey: place)
        case .ofType: result.updateValue(child.staticType.flatMap(schema.typeMaxAge), forKey: place)
        }
        try walk(child, path: place)
      }
    }
    try walk(plan.root, path: "")
    return result
  }

  /// The samples' Author, with its `@cacheControl`s.
  static func author(type: String = "", bookCount: String = "") -> String {
    "type Author \(type) { id: ID!  firstName: String!  lastName: String!  bookCount: Int! \(bookCount) }"
  }

  static let authorScalars = "{ author { id firstName lastName bookCount } }"

  @Test("scalar example 1: every scalar of Author takes Author's 3600")
  func scalar1() throws {
    let values = try Self.resolved("type Query { author: Author }\n" + Self.author(type: "@cacheControl(maxAge: 3600)"), Self.authorScalars)
    #expect(values == ["author": 3600, "author.id": 3600, "author.firstName": 3600, "author.lastName": 3600, "author.bookCount": 3600])
  }

  @Test("scalar example 2: bookCount's own 300 beats Author's 3600")
  func scalar2() throws {
    let values = try Self.resolved(
      "type Query { author: Author }\n" + Self.author(type: "@cacheControl(maxAge: 3600)", bookCount: "@cacheControl(maxAge: 300)"),
      Self.authorScalars)
    #expect(values == ["author": 3600, "author.id": 3600, "author.firstName": 3600, "author.lastName": 3600, "author.bookCount": 300])
  }

  @Test("scalar example 3: only bookCount has a maxAge (300); the rest take the default")
  func scalar3() throws {
    let values = try Self.resolved(
      "type Query { author: Author }\n" + Self.author(bookCount: "@cacheControl(maxAge: 300)"), Self.authorScalars)
    #expect(values == ["author": nil, "author.id": nil, "author.firstName": nil, "author.lastName": nil, "author.bookCount": 300])
  }

  static let bookWithAuthor = "{ book { id title author { id firstName lastName bookCount } } }"

  /// `{ book { ... author { ... } } }` over the samples' Book and Author.
  static func composite(author authorDirective: String, book bookDirective: String = "", field fieldDirective: String = "") throws
    -> [String: Int?]
  {
    try resolved(
      """
      type Query { book: Book }
      \(author(type: authorDirective))
      type Book \(bookDirective) { id: ID!  title: String!  author: Author! \(fieldDirective) }
      """, bookWithAuthor)
  }

  /// The author's four scalars, each at `maxAge`.
  static func authorFields(_ maxAge: Int?) -> [String: Int?] {
    Dictionary(uniqueKeysWithValues: ["id", "firstName", "lastName", "bookCount"].map { ("book.author.\($0)", maxAge) })
  }

  @Test("composite example 1: the author field takes Author's 3600")
  func composite1() throws {
    let values = try Self.composite(author: "@cacheControl(maxAge: 3600)")
    #expect(values == ["book": nil, "book.id": nil, "book.title": nil, "book.author": 3600].merging(Self.authorFields(3600)) { $1 })
  }

  @Test("composite example 2: the author field's own 600 beats Author's 3600, and its scalars take it")
  func composite2() throws {
    let values = try Self.composite(author: "@cacheControl(maxAge: 3600)", field: "@cacheControl(maxAge: 600)")
    #expect(values == ["book": nil, "book.id": nil, "book.title": nil, "book.author": 600].merging(Self.authorFields(600)) { $1 })
  }

  @Test("composite example 3: Author has none, the author field sets 600")
  func composite3() throws {
    let values = try Self.composite(author: "", field: "@cacheControl(maxAge: 600)")
    #expect(values == ["book": nil, "book.id": nil, "book.title": nil, "book.author": 600].merging(Self.authorFields(600)) { $1 })
  }

  @Test("composite example 4: Book's 3600 does not reach the author field, which has the default")
  func composite4() throws {
    let values = try Self.composite(author: "", book: "@cacheControl(maxAge: 3600)")
    #expect(values == ["book": 3600, "book.id": 3600, "book.title": 3600, "book.author": nil].merging(Self.authorFields(nil)) { $1 })
  }

  @Test("composite example 5: inheritMaxAge on the author field takes Book's 1800 over Author's 3600")
  func composite5() throws {
    let values = try Self.composite(
      author: "@cacheControl(maxAge: 3600)", book: "@cacheControl(maxAge: 1800)", field: "@cacheControl(inheritMaxAge: true)")
    #expect(values == ["book": 1800, "book.id": 1800, "book.title": 1800, "book.author": 1800].merging(Self.authorFields(1800)) { $1 })
  }

  @Test("composite example 6: inheritMaxAge on Author takes Book's 1800, and Author's scalars take it too")
  func composite6() throws {
    let values = try Self.composite(author: "@cacheControl(inheritMaxAge: true)", book: "@cacheControl(maxAge: 1800)")
    #expect(values == ["book": 1800, "book.id": 1800, "book.title": 1800, "book.author": 1800].merging(Self.authorFields(1800)) { $1 })
  }

  /// The samples' schema of authors with books.
  static func authorsWithBooks(bookCount: String = "", books: String = "", book: String = "") -> String {
    """
    type Query { authors: [Author!]! }
    type Author @cacheControl(maxAge: 3600) {
      id: ID!  firstName: String!  lastName: String!  bookCount: Int! \(bookCount)  books: [Book!]! \(books)
    }
    type Book \(book) { id: ID! }
    """
  }

  @Test("operation override example 1: bookCount @cacheControl(maxAge: 60) in the operation; books and their ids the default")
  func operationOverride() throws {
    let values = try Self.resolved(
      Self.authorsWithBooks(), "query GetAuthorsWithBooks { authors { id bookCount @cacheControl(maxAge: 60) books { id } } }")
    #expect(values == ["authors": 3600, "authors.id": 3600, "authors.bookCount": 60, "authors.books": nil, "authors.books.id": nil])
  }

  static let getAuthorsWithBooks = "query GetAuthorsWithBooks { authors { id bookCount books { id } } }"

  @Test("schema and operation example 1: Author.bookCount's 60; books and their ids the default")
  func schemaAndOperation1() throws {
    let values = try Self.resolved(Self.authorsWithBooks(bookCount: "@cacheControl(maxAge: 60)"), Self.getAuthorsWithBooks)
    #expect(values == ["authors": 3600, "authors.id": 3600, "authors.bookCount": 60, "authors.books": nil, "authors.books.id": nil])
  }

  @Test("schema and operation example 2: Book's 1800 for books, and their ids")
  func schemaAndOperation2() throws {
    let values = try Self.resolved(
      Self.authorsWithBooks(bookCount: "@cacheControl(maxAge: 60)", book: "@cacheControl(maxAge: 1800)"), Self.getAuthorsWithBooks)
    #expect(values == ["authors": 3600, "authors.id": 3600, "authors.bookCount": 60, "authors.books": 1800, "authors.books.id": 1800])
  }

  @Test("schema and operation example 3: Author.books' 900 beats Book's 1800, and the books' ids take 900")
  func schemaAndOperation3() throws {
    let values = try Self.resolved(
      Self.authorsWithBooks(
        bookCount: "@cacheControl(maxAge: 60)", books: "@cacheControl(maxAge: 900)", book: "@cacheControl(maxAge: 1800)"),
      Self.getAuthorsWithBooks)
    #expect(values == ["authors": 3600, "authors.id": 3600, "authors.bookCount": 60, "authors.books": 900, "authors.books.id": 900])
  }

  @Test("the interface example: Auth implements Sensitive's 5, and its password takes it")
  func interface() throws {
    let values = try Self.resolved(
      """
      type Query { auth: Auth }
      interface Sensitive @cacheControl(maxAge: 5) { id: ID! }
      type Auth implements Sensitive { id: ID!  password: String }
      """, "query GetAuthorsWithBooks { auth { password } }")
    #expect(values == ["auth": 5, "auth.password": 5])
  }

  @Test("a read checks the resolved maxAge: the books' ids of schema and operation example 3 expire after 900 s, not Book's 1800")
  func readChecksResolved() throws {
    let schema = try Schema(parsing: [
      Source(
        name: "schema.graphqls",
        text: Self.authorsWithBooks(books: "@cacheControl(maxAge: 900)", book: "@cacheControl(maxAge: 1800)")
          + "\nextend type Book @typePolicy(keyFields: \"id\")\nextend type Author @typePolicy(keyFields: \"id\")")
    ])
    let operation = "{ authors { id books { id } } }"
    let plan = try OperationPlan(document: ExecutableDocument(parsing: [Source(name: "op.graphql", text: operation)]), schema: schema)
    let cache = InMemoryNormalizedCache()
    let response = #"{"authors": [{"id": "a", "books": [{"id": "b1"}]}]}"#
    try cache.merge(
      records: try Normalizer(strategy: .typePolicy).normalize(try JSONParser.parse(response, file: "r.json"), plan: plan, writtenAt: 1_000)
        .records)
    #expect(try CacheReader(cache: cache).read(plan, clock: .strict(at: 1_900)).outcome.isHit)
    let late = try CacheReader(cache: cache).read(plan, clock: .strict(at: 1_901))
    // The books reference (its own 900) and each book's id (900, from the books field) expire; the
    // author's id keeps Author's 3600.
    #expect(late.expired.map(ReadResult.spelled) == ["authors.0.books", "authors.0.books.0.id"])
  }
}
