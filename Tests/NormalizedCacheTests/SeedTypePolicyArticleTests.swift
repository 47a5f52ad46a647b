import GraphQLLanguage
import Testing

@testable import NormalizedCache

/// The write-side worked examples of `000_82e5ed111e8dc034.txt` ("Mastering Cache Key Resolution
/// in Apollo iOS with @typePolicy and @fieldPolicy"). Its field-policy (read-side) examples are
/// tested with the reader.
@Suite("Seed 000: @typePolicy and programmatic cache keys")
struct SeedTypePolicyArticleTests {
  static let schemaText = """
    type Query { book(id: ID!): Book  featuredBooks: [Book!]!  author: Author  edition: BookEdition
                 editions: [BookEdition!]!  pets: [Pet!]!  classroomPets: [ClassroomPets!]!  animals: [Animal!]! }
    type Book { id: ID!  isbn: String  title: String  author: String }
    type Author { firstName: String!  lastName: String!  uri: String }
    type BookEdition { bookId: String!  editionType: String  editionNumber: Int }
    interface Pet { id: ID!  name: String }
    interface Animal { id: ID!  name: String }
    type Dog implements Animal & Pet { id: ID!  name: String }
    type Cat implements Animal & Pet { id: ID!  name: String }
    type Hamster { id: ID!  name: String }
    union ClassroomPets = Cat | Hamster
    """

  static let getBook = #"query GetBook { book(id: "123") { id title author } }"#
  static let getBookResponse = #"{"book": {"id": "123", "title": "Fahrenheit 451", "author": "Ray Bradbury"}}"#
  static let getFeaturedBooks = "query GetFeaturedBooks { featuredBooks { id title author } }"
  static let getFeaturedBooksResponse = """
    {"featuredBooks": [{"id": "123", "title": "Fahrenheit 451", "author": "Ray Bradbury"},
                       {"id": "456", "title": "The Martian Chronicles", "author": "Ray Bradbury"}]}
    """

  /// The article writes `QUERY_ROOT.book` for `book(id: "123")`; docs/keys.md keeps the arguments
  /// in the field key, so the path is `QUERY_ROOT.book(id:123)`.
  @Test("without a type policy, one book fetched by two queries is stored twice, at two paths")
  func withoutTypePolicy() throws {
    let schema = try makeSchema(Self.schemaText)
    var cache = try normalize(Self.getBook, Self.getBookResponse, schema: schema)
    cache.merge(records: try normalize(Self.getFeaturedBooks, Self.getFeaturedBooksResponse, schema: schema))
    #expect(cache.keys == ["QUERY_ROOT", "QUERY_ROOT.book(id:123)", "QUERY_ROOT.featuredBooks.0", "QUERY_ROOT.featuredBooks.1"])
    #expect(cache["QUERY_ROOT.book(id:123)"]?["title"] == "Fahrenheit 451")
    #expect(cache["QUERY_ROOT.featuredBooks.0"]?["title"] == "Fahrenheit 451")
  }

  @Test("extend type Book @typePolicy(keyFields: \"id\") stores the book once, as Book:123, wherever it appears")
  func typePolicyOnBook() throws {
    let schema = try makeSchema(Self.schemaText, #"extend type Book @typePolicy(keyFields: "id")"#)
    var cache = try normalize(Self.getBook, Self.getBookResponse, schema: schema, strategy: .typePolicy)
    cache.merge(records: try normalize(Self.getFeaturedBooks, Self.getFeaturedBooksResponse, schema: schema, strategy: .typePolicy))
    #expect(cache.keys == ["QUERY_ROOT", "Book:123", "Book:456"])
    #expect(cache["QUERY_ROOT"]?["book(id:123)"] == .reference("Book:123"))
    #expect(cache["QUERY_ROOT"]?["featuredBooks"] == [.reference("Book:123"), .reference("Book:456")])
  }

  @Test("multiple key fields: Author keyed by \"firstName lastName\" is Author:Ray+Bradbury, in the directive's order")
  func multipleKeyFields() throws {
    let query = "{ author { firstName lastName } }"
    let response = #"{"author": {"lastName": "Bradbury", "firstName": "Ray"}}"#
    let schema = try makeSchema(Self.schemaText, #"extend type Author @typePolicy(keyFields: "firstName lastName")"#)
    let records = try normalize(query, response, schema: schema, strategy: .typePolicy)
    #expect(records.keys == ["QUERY_ROOT", "Author:Ray+Bradbury"])
    let reversed = try makeSchema(Self.schemaText, #"extend type Author @typePolicy(keyFields: "lastName firstName")"#)
    #expect(try normalize(query, response, schema: reversed, strategy: .typePolicy).keys == ["QUERY_ROOT", "Author:Bradbury+Ray"])
  }

  @Test("type policies on interfaces: every implementing type inherits the interface's key fields")
  func interfacePolicy() throws {
    let schema = try makeSchema(
      """
      type Query { nodes: [Node!]! }
      interface Node { id: ID! }
      type User implements Node { id: ID!  name: String }
      type Post implements Node { id: ID!  slug: String }
      """,
      """
      extend interface Node @typePolicy(keyFields: "id")
      extend type Post @typePolicy(keyFields: "slug")
      """)
    let records = try normalize(
      "{ nodes { __typename id ... on User { name } ... on Post { slug } } }",
      #"{"nodes": [{"__typename": "User", "id": "u1", "name": "Ada"}, {"__typename": "Post", "id": "p1", "slug": "hello"}]}"#,
      schema: schema, strategy: .typePolicy)
    // User inherits Node's "id"; Post has its own policy, which wins over the inherited one.
    #expect(records.keys == ["QUERY_ROOT", "User:u1", "Post:hello"])
    #expect(records["User:u1"] == Record(key: "User:u1", ["__typename": "User", "id": "u1", "name": "Ada"]))
  }

  /// Apollo's `SchemaMetadata.cacheKey(for:inferredToImplementInterface:)`, step 3b: an object
  /// whose type is unknown, or has no key fields, takes the key fields of the interface its
  /// selection set is on; the group stays its own `__typename`.
  @Test("unknown types, and types without key fields, under an interface with a policy take the interface's key fields")
  func unknownTypeUnderInterface() throws {
    let schema = try makeSchema(
      """
      type Query { node: Node  nodes: [Node!]!  plain: Plain }
      interface Node { id: ID! }
      interface Plain { id: ID! }
      type User implements Node { id: ID!  name: String }
      type Orphan { id: ID! }
      """,
      """
      extend interface Node @typePolicy(keyFields: "id")
      """)
    let records = try normalize(
      "{ node { __typename id } nodes { __typename id } plain { __typename id } }",
      """
      {"node": {"__typename": "Robot", "id": "r1"},
       "nodes": [{"__typename": "User", "id": "u1"}, {"__typename": "Orphan", "id": "o1"}, {"__typename": "Robot", "id": "r2"}],
       "plain": {"__typename": "Robot", "id": "r3"}}
      """,
      schema: schema, strategy: .typePolicy)
    // Robot is unknown, Orphan known without key fields: both take Node's "id" under a Node field,
    // grouped by their own typename. Under Plain (no policy) Robot keeps its path key.
    #expect(records.keys == ["QUERY_ROOT", "Robot:r1", "User:u1", "Orphan:o1", "Robot:r2", "QUERY_ROOT.plain"])
    #expect(records["Robot:r1"] == Record(key: "Robot:r1", ["__typename": "Robot", "id": "r1"]))
    // The path strategy ignores it, as every policy.
    #expect(
      try normalize("{ node { __typename id } }", #"{"node": {"__typename": "Robot", "id": "r1"}}"#, schema: schema, strategy: .path).keys
        == ["QUERY_ROOT", "QUERY_ROOT.node"])
  }

  @Test("a type implementing interfaces with conflicting policies is a validation error when the schema loads")
  func interfaceConflict() {
    let error = #expect(throws: GraphQLError.self) {
      try makeSchema(
        Self.schemaText,
        """
        extend interface Pet @typePolicy(keyFields: "id")
        extend interface Animal @typePolicy(keyFields: "name")
        """)
    }
    #expect(
      error?.message
        == #"Type "Cat" inherits conflicting @typePolicy key fields from its interfaces "Animal" (keyFields: "name") and "Pet" (keyFields: "id"); give "Cat" a @typePolicy of its own"#
    )
  }

  @Test(
    "programmatic Book rule: the ISBN if it has one, else the internal id",
    arguments: [
      (#"{"book": {"id": "123", "isbn": "978-0-7432-4722-1"}}"#, "Book:isbn:978-0-7432-4722-1"),
      (#"{"book": {"id": "123", "isbn": ""}}"#, "Book:123"),
      (#"{"book": {"id": "123", "isbn": null}}"#, "Book:123"),
    ])
  func programmaticISBN(response: String, key: String) throws {
    let records = try normalize(
      #"{ book(id: "123") { id isbn } }"#, response, schema: try makeSchema(Self.schemaText), strategy: try builtIn("seed-books"))
    #expect(records.keys == ["QUERY_ROOT", key])
  }

  @Test(
    "programmatic Author rule: the last path component of the author's URI",
    arguments: [
      ("https://example.com/authors/ray-bradbury", "Author:ray-bradbury"),
      ("https://example.com/authors/ray-bradbury/?tab=books", "Author:ray-bradbury"),
      ("urn-less", "Author:urn-less"),
    ])
  func programmaticAuthorURI(uri: String, key: String) throws {
    let records = try normalize(
      "{ author { firstName lastName uri } }", #"{"author": {"firstName": "Ray", "lastName": "Bradbury", "uri": "\#(uri)"}}"#,
      schema: try makeSchema(Self.schemaText), strategy: try builtIn("seed-books"))
    #expect(records.keys == ["QUERY_ROOT", key])
  }

  @Test(
    "programmatic BookEdition rule: special and limited editions apart, standard editions share the book's entry",
    arguments: [
      (#"{"bookId": "bk1", "editionType": "special", "editionNumber": 2}"#, "BookEdition:bk1:edition2"),
      (#"{"bookId": "bk1", "editionType": "limited", "editionNumber": 7}"#, "BookEdition:bk1:edition7"),
      (#"{"bookId": "bk1", "editionType": "standard", "editionNumber": 3}"#, "BookEdition:bk1"),
      (#"{"bookId": "bk1", "editionType": null, "editionNumber": null}"#, "BookEdition:bk1"),
      // A special edition without a number returns nil: the object falls back to its path.
      (#"{"bookId": "bk1", "editionType": "special", "editionNumber": null}"#, "QUERY_ROOT.edition"),
    ])
  func programmaticEdition(object: String, key: String) throws {
    let records = try normalize(
      "{ edition { bookId editionType editionNumber } }", #"{"edition": \#(object)}"#,
      schema: try makeSchema(Self.schemaText), strategy: try builtIn("seed-books"))
    #expect(records.keys == ["QUERY_ROOT", key])
  }

  @Test("default cache ID field: the `id` resolver keys every object with a scalar id, others by path")
  func defaultIDResolver() throws {
    let records = try normalize(
      "{ featuredBooks { id title } author { firstName lastName } }",
      #"{"featuredBooks": [{"id": "1", "title": "A"}, {"id": 2, "title": "B"}], "author": {"firstName": "Ray", "lastName": "Bradbury"}}"#,
      schema: try makeSchema(Self.schemaText), strategy: try builtIn("id"))
    #expect(records.keys == ["QUERY_ROOT", "Book:1", "Book:2", "QUERY_ROOT.author"])
  }

  @Test("abstract types: types implementing Pet, and members of the ClassroomPets union, keyed by id")
  func abstractTypes() throws {
    let schema = try makeSchema(Self.schemaText)
    // The article's two SchemaConfigurations, as resolvers added through the public API.
    let byInterface = try resolver { type, object in
      type.implements("Pet") ? try? CacheKeyInfo(jsonValue: object["id"]) : nil
    }
    let byUnion = try resolver { type, object in
      type.isMember(ofUnion: "ClassroomPets") ? try? CacheKeyInfo(jsonValue: object["id"]) : nil
    }
    let query = "{ classroomPets { __typename ... on Cat { id name } ... on Hamster { id name } } }"
    let response =
      #"{"classroomPets": [{"__typename": "Cat", "id": "c1", "name": "Tom"}, {"__typename": "Hamster", "id": "h1", "name": "Ham"}]}"#
    #expect(
      try normalize(query, response, schema: schema, strategy: byInterface).keys
        == ["QUERY_ROOT", "Cat:c1", "QUERY_ROOT.classroomPets.1"])
    #expect(
      try normalize(query, response, schema: schema, strategy: byUnion).keys == ["QUERY_ROOT", "Cat:c1", "Hamster:h1"])
  }

  @Test("uniqueKeyGroup: a Dog and a Cat implementing Animal are grouped as Animal:123 and Animal:124")
  func uniqueKeyGroup() throws {
    let schema = try makeSchema(Self.schemaText)
    let query = "{ animals { __typename id name } }"
    let response = #"{"animals": [{"__typename": "Dog", "id": "123", "name": "Rex"}, {"__typename": "Cat", "id": "124", "name": "Tom"}]}"#
    // The article's rule, `if type.implements(Interfaces.Animal) { ... uniqueKeyGroup: Interfaces.Animal.name }`.
    let animalGroup = try resolver { type, object in
      type.implements("Animal") ? try? CacheKeyInfo(jsonValue: object["id"], uniqueKeyGroup: "Animal") : nil
    }
    #expect(try normalize(query, response, schema: schema, strategy: animalGroup).keys == ["QUERY_ROOT", "Animal:123", "Animal:124"])
    // The built-in interface-group resolver uses the first interface each type declares: Animal.
    #expect(
      try normalize(query, response, schema: schema, strategy: try builtIn("interface-group")).keys == [
        "QUERY_ROOT", "Animal:123", "Animal:124",
      ])
  }

  @Test("a programmatic key takes precedence over @typePolicy; returning nil falls back to it")
  func programmaticOverTypePolicy() throws {
    let schema = try makeSchema(Self.schemaText, #"extend type Book @typePolicy(keyFields: "id")"#)
    let seedBooks = try builtIn("seed-books")
    let withISBN = try normalize(
      #"{ book(id: "1") { id isbn } }"#, #"{"book": {"id": "1", "isbn": "X"}}"#, schema: schema, strategy: seedBooks)
    #expect(withISBN.keys == ["QUERY_ROOT", "Book:isbn:X"])
    let declined = try resolver { _, _ in nil }
    let fallback = try normalize(
      #"{ book(id: "1") { id isbn } }"#, #"{"book": {"id": "1", "isbn": "X"}}"#, schema: schema, strategy: declined)
    #expect(fallback.keys == ["QUERY_ROOT", "Book:1"])
  }
}

/// The examples of `001_8a6a5f21c08cc367.txt` and `003_77f7ed08a94ee1eb.txt` (Apollo iOS, "Custom
/// cache keys" and "Programmatic cache keys").
@Suite("Seeds 001 and 003: CacheKeyInfo")
struct SeedCacheKeyInfoTests {
  static let schema = """
    type Query { pets: [Pet!]!  dogs: [Dog!]!  things: [Thing!]! }
    interface Pet { id: ID! }
    type Dog implements Pet { id: ID! }
    type Cat implements Pet { id: ID! }
    type Thing { id: ID  name: String }
    union ClassroomPets = Cat | Dog
    """

  @Test("CacheKeyInfo(id: \"123\", uniqueKeyGroup: \"Animal\") makes the key Animal:123")
  func animal123() {
    #expect(CacheKeyInfo(id: "123", uniqueKeyGroup: "Animal").cacheKey(typename: "Dog") == "Animal:123")
  }

  @Test("init(jsonValue:) takes a String, Int or Float id, and throws for a missing or non-scalar one")
  func jsonValueInitializer() throws {
    #expect(try CacheKeyInfo(jsonValue: .string("a")).id == "a")
    #expect(try CacheKeyInfo(jsonValue: .int(12)).id == "12")
    #expect(try CacheKeyInfo(jsonValue: .double(1.5)).id == "1.5")
    #expect(throws: CacheKeyInfo.Error.missingValue) { try CacheKeyInfo(jsonValue: nil) }
    #expect(throws: CacheKeyInfo.Error.notAnID("a boolean")) { try CacheKeyInfo(jsonValue: .bool(true)) }
    #expect(throws: CacheKeyInfo.Error.notAnID("null")) { try CacheKeyInfo(jsonValue: .null) }
  }

  @Test("using a default cache ID field: objects without an id are normalized by their response path")
  func defaultIDField() throws {
    // `guard let id = object["id"] as? String else { return nil }; return CacheKeyInfo(id: id)`
    let strategy = try resolver { _, object in object.string("id").map { CacheKeyInfo(id: $0) } }
    let records = try normalize(
      "{ things { id name } }", #"{"things": [{"id": "t1", "name": "a"}, {"id": null, "name": "b"}]}"#,
      schema: try makeSchema(Self.schema), strategy: strategy)
    #expect(records.keys == ["QUERY_ROOT", "Thing:t1", "QUERY_ROOT.things.1"])
  }

  @Test("specifying cache IDs by Object type: only Dog is keyed")
  func byObjectType() throws {
    let strategy = try resolver { type, object in
      type.name == "Dog" ? try? CacheKeyInfo(jsonValue: object["id"]) : nil
    }
    let records = try normalize(
      "{ pets { __typename id } }", #"{"pets": [{"__typename": "Dog", "id": "d1"}, {"__typename": "Cat", "id": "c1"}]}"#,
      schema: try makeSchema(Self.schema), strategy: strategy)
    #expect(records.keys == ["QUERY_ROOT", "Dog:d1", "QUERY_ROOT.pets.1"])
  }

  @Test("grouping by the Pet interface: uniqueKeyGroupId Pet gives Pet:d1 and Pet:c1")
  func petGroup() throws {
    let strategy = try resolver { type, object in
      type.implements("Pet") ? try? CacheKeyInfo(jsonValue: object["id"], uniqueKeyGroup: "Pet") : nil
    }
    let records = try normalize(
      "{ pets { __typename id } }", #"{"pets": [{"__typename": "Dog", "id": "d1"}, {"__typename": "Cat", "id": "c1"}]}"#,
      schema: try makeSchema(Self.schema), strategy: strategy)
    #expect(records.keys == ["QUERY_ROOT", "Pet:d1", "Pet:c1"])
  }
}
