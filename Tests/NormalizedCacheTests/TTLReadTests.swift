import GraphQLLanguage
import Testing

@testable import NormalizedCache

/// Apollo iOS 3.0's TTL rules (plan §3.4-§5, ADR 0003, ADR 0005), one test each, worked out by hand
/// (docs/ttl.md#reads-with-a-clock).
@Suite("Reads with a clock: expiry by @cacheControl")
struct TTLReadTests {
  static let schemaText = """
    type Query { book(id: ID!): Book  books: [Book!]!  shelf: Shelf }
    type Book @cacheControl(maxAge: 60) {
      id: ID!
      title: String
      price: Int @cacheControl(maxAge: 10)
      stock: Int @cacheControl(maxAge: 0)
      author: Author
      publisher: Publisher @cacheControl(inheritMaxAge: true)
    }
    type Author { id: ID!  name: String }
    type Publisher { name: String }
    type Shelf { label: String  books: [Book!]! }
    """

  /// A cache written and read with dates, under type policies.
  struct Harness {
    let schema: Schema
    let cache = InMemoryNormalizedCache()

    init(_ extraSchema: String = "") throws {
      var texts = [TTLReadTests.schemaText, #"extend type Book @typePolicy(keyFields: "id")"#]
      if !extraSchema.isEmpty { texts.append(extraSchema) }
      schema = try Schema(parsing: texts.enumerated().map { Source(name: "s\($0.offset).graphqls", text: $0.element) })
    }

    func plan(_ operation: String) throws -> OperationPlan {
      try OperationPlan(document: ExecutableDocument(parsing: [Source(name: "op.graphql", text: operation)]), schema: schema)
    }

    func write(_ operation: String, _ response: String, at date: Int) throws {
      let records = try Normalizer(strategy: .typePolicy).normalize(
        try JSONParser.parse(response, file: "r.json"), plan: try plan(operation), writtenAt: date)
      try cache.merge(records: records.records)
    }

    func read(_ operation: String, at now: Int, _ ttl: TTLEnforcement = .strict) throws -> ReadResult {
      try CacheReader(cache: cache).read(try plan(operation), clock: ReadClock(now: now, ttl: ttl))
    }
  }

  static let bookQuery = "{ book(id: 1) { id title price stock author { id name } publisher { name } } }"
  static let bookResponse =
    #"{"book": {"id": "1", "title": "T", "price": 5, "stock": 3, "author": {"id": "a", "name": "N"}, "publisher": {"name": "P"}}}"#

  func spelled(_ paths: [[String]]) -> [String] { paths.map(ReadResult.spelled) }

  @Test("tri-state: no maxAge never expires, 0 expires at once on a strict read, N after N seconds")
  func triState() throws {
    let harness = try Harness()
    try harness.write(Self.bookQuery, Self.bookResponse, at: 1_000)
    // The author's name has no maxAge (Author has none): fresh a century later.
    #expect(try harness.read("{ book(id: 1) { author { name } } }", at: 4_000_000_000).outcome.isHit)
    // stock: maxAge 0, expired at the very second it was written.
    let stock = try harness.read("{ book(id: 1) { stock } }", at: 1_000)
    #expect(spelled(stock.expired) == ["book.stock"])
    #expect(stock.data == nil)
    #expect(stock.miss?.reason == .expired(writtenAt: 1_000, maxAge: 0))
    // price: maxAge 10.
    #expect(try harness.read("{ book(id: 1) { price } }", at: 1_010).outcome.isHit)
    #expect(spelled(try harness.read("{ book(id: 1) { price } }", at: 1_011).expired) == ["book.price"])
  }

  @Test("the boundary second: written at w with maxAge N, a read at w + N is fresh, at w + N + 1 expired")
  func boundary() throws {
    let harness = try Harness()
    try harness.write(Self.bookQuery, Self.bookResponse, at: 100)
    #expect(try harness.read("{ book(id: 1) { title } }", at: 160).outcome.isHit)
    let late = try harness.read("{ book(id: 1) { title } }", at: 161)
    #expect(spelled(late.expired) == ["book.title"])
    #expect(late.miss?.description == #"field "title" of record "Book:1" expired at data.book.title (written at 100, maxAge 60)"#)
  }

  /// Written at 100: title (60 s) is fresh to 160, price (10 s) to 110, stock (0) never; the
  /// root field `book` and the author's name have no maxAge.
  @Test("expiresAt: the first second at which a fresh selected field expires; none for maxAge 0 or no maxAge")
  func expiresAt() throws {
    let harness = try Harness()
    try harness.write(Self.bookQuery, Self.bookResponse, at: 100)
    #expect(try harness.read("{ book(id: 1) { title } }", at: 150).expiresAt == 161)
    #expect(try harness.read("{ book(id: 1) { title price } }", at: 105).expiresAt == 111)
    // price has expired at 120: the earliest of the fresh ones, title's, is left.
    #expect(try harness.read("{ book(id: 1) { title price } }", at: 120, .permissive).expiresAt == 161)
    #expect(try harness.read("{ book(id: 1) { stock } }", at: 100, .permissive).expiresAt == nil)
    #expect(try harness.read("{ book(id: 1) { author { name } } }", at: 100).expiresAt == nil)
    // Without a clock, nothing is checked.
    #expect(try CacheReader(cache: harness.cache).read(try harness.plan("{ book(id: 1) { title } }")).expiresAt == nil)
  }

  @Test("selection scope: an expired field the read does not select does not matter")
  func selectionScope() throws {
    let harness = try Harness()
    try harness.write(Self.bookQuery, Self.bookResponse, at: 100)
    // At 150 price (10) and stock (0) are expired, title (60) is not.
    let titleOnly = try harness.read("{ book(id: 1) { id title } }", at: 150)
    #expect(titleOnly.outcome == .hit(["book": ["id": "1", "title": "T"]]))
    #expect(titleOnly.expired.isEmpty)
    #expect(spelled(try harness.read("{ book(id: 1) { id title price } }", at: 150).expired) == ["book.price"])
  }

  @Test("precedence: the operation's directive over the schema's, the field's over its type's")
  func precedence() throws {
    let harness = try Harness()
    try harness.write(Self.bookQuery, Self.bookResponse, at: 100)
    // price: schema field 10 beats type 60; the operation's 100 beats both.
    #expect(spelled(try harness.read("{ book(id: 1) { price } }", at: 111).expired) == ["book.price"])
    #expect(try harness.read("{ book(id: 1) { price @cacheControl(maxAge: 100) } }", at: 200).outcome.isHit)
    #expect(spelled(try harness.read("{ book(id: 1) { title @cacheControl(maxAge: 5) } }", at: 106).expired) == ["book.title"])
  }

  @Test("scalars take their parent field's maxAge; an object-typed field has one only with inheritMaxAge")
  func objectFieldsDoNotInherit() throws {
    let harness = try Harness()
    try harness.write(Self.bookQuery, Self.bookResponse, at: 100)
    // At 200 Book's 60 has passed: id (a scalar of the book field, which took Book's 60) is
    // expired; author (object-typed, no inheritMaxAge) is not, and its name takes Author's own
    // (none); publisher (inheritMaxAge) takes Book's 60 and is expired, and so is its name, a
    // scalar of a field whose maxAge is 60 (Publisher's own would be none).
    let read = try harness.read("{ book(id: 1) { id author { name } publisher { name } } }", at: 200)
    #expect(spelled(read.expired) == ["book.id", "book.publisher", "book.publisher.name"])
  }

  @Test("a refetch refreshes: the same data written again is fresh again")
  func refetchRefreshes() throws {
    let harness = try Harness()
    try harness.write(Self.bookQuery, Self.bookResponse, at: 100)
    #expect(try harness.read("{ book(id: 1) { title } }", at: 500).miss != nil)
    try harness.write(Self.bookQuery, Self.bookResponse, at: 480)
    #expect(try harness.read("{ book(id: 1) { title } }", at: 500).outcome.isHit)
  }

  @Test("a partial refetch refreshes only what it wrote")
  func partialRefetch() throws {
    let harness = try Harness()
    try harness.write(Self.bookQuery, Self.bookResponse, at: 100)
    try harness.write("{ book(id: 1) { id title } }", #"{"book": {"id": "1", "title": "T"}}"#, at: 400)
    let read = try harness.read("{ book(id: 1) { id title author { id } } }", at: 450)
    // id and title were rewritten at 400; the reference to the author (no maxAge) never expires.
    #expect(read.outcome.isHit)
    // The book field of QUERY_ROOT was rewritten too: it has no maxAge anyway. price was not rewritten.
    #expect(spelled(try harness.read("{ book(id: 1) { title price } }", at: 450).expired) == ["book.price"])
  }

  @Test("permissive: expired data comes back marked stale; strict: a miss")
  func permissive() throws {
    let harness = try Harness()
    try harness.write(Self.bookQuery, Self.bookResponse, at: 100)
    let stale = try harness.read("{ book(id: 1) { title price } }", at: 115, .permissive)
    #expect(stale.outcome == .stale(["book": ["title": "T", "price": 5]]))
    #expect(stale.data != nil)
    #expect(spelled(stale.expired) == ["book.price"])
    #expect(try harness.read("{ book(id: 1) { title price } }", at: 115, .strict).data == nil)
  }

  @Test("absent beats permissive: a field the cache lacks is a miss in both modes, with every path reported")
  func absentBeatsPermissive() throws {
    let harness = try Harness()
    try harness.write("{ book(id: 1) { id title } }", #"{"book": {"id": "1", "title": "T"}}"#, at: 100)
    for mode in TTLEnforcement.allCases {
      let read = try harness.read("{ book(id: 1) { id title price author { name } } }", at: 200, mode)
      #expect(read.data == nil)
      #expect(read.miss?.reason == .absent)
      #expect(spelled(read.missing) == ["book.author", "book.price"])
      #expect(spelled(read.expired) == ["book.id", "book.title"])
    }
  }

  @Test("paths carry list indexes and come sorted; a missing record is one path, nothing below it")
  func listPaths() throws {
    let harness = try Harness()
    try harness.write(
      "{ books { id title author { id name } } }",
      #"{"books": [{"id": "1", "title": "A", "author": {"id": "a", "name": "X"}}, {"id": "2", "title": "B", "author": {"id": "b", "name": "Y"}}]}"#,
      at: 100)
    // Author has no type policy: its records are keyed by their path.
    try harness.cache.removeRecord(for: "Book:2.author")
    let read = try harness.read("{ books { id title author { id name } } }", at: 200)
    #expect(spelled(read.expired) == ["books.0.id", "books.0.title", "books.1.id", "books.1.title"])
    #expect(spelled(read.missing) == ["books.1.author"])
  }

  @Test("a record without dates counts as written at 0; a read without a clock checks nothing")
  func undatedAndUnclocked() throws {
    let harness = try Harness()
    let records = try Normalizer(strategy: .typePolicy).normalize(
      try JSONParser.parse(Self.bookResponse, file: "r.json"), plan: try harness.plan(Self.bookQuery))
    try harness.cache.merge(records: records.records)
    #expect(try harness.read("{ book(id: 1) { title } }", at: 60).outcome.isHit)
    #expect(spelled(try harness.read("{ book(id: 1) { title } }", at: 61).expired) == ["book.title"])
    let plain = try CacheReader(cache: harness.cache).read(try harness.plan("{ book(id: 1) { title stock } }"))
    #expect(plain.outcome.isHit)
    #expect(plain.expired.isEmpty)
  }

  @Test("a read with a clock goes on past a missing field and still assembles nothing")
  func goesOn() throws {
    let harness = try Harness()
    try harness.write(
      "{ shelf { label books { id title } } }", #"{"shelf": {"label": "L", "books": [{"id": "1", "title": "A"}]}}"#, at: 100)
    let read = try harness.read("{ shelf { label books { id title price } } }", at: 120)
    #expect(spelled(read.missing) == ["shelf.books.0.price"])
    #expect(read.data == nil)
    // Without a clock the read stops at the first miss, as before.
    let plain = try CacheReader(cache: harness.cache).read(try harness.plan("{ shelf { label books { id title price } } }"))
    #expect(plain.miss?.path == ["shelf", "books", "0", "price"])
    #expect(plain.missing.isEmpty)
  }
}

extension ReadResult.Outcome {
  var isHit: Bool {
    if case .hit = self { return true }
    return false
  }
}
