import GraphQLLanguage
import Testing

@testable import NormalizedCache

/// Reading as Apollo iOS's executor does (docs/keys.md#reading): non-null fields, dependent
/// keys, and selection sets read from a record key.
@Suite("Reading: non-null, dependent keys, reads by key")
struct ReadSemanticsTests {
  static let schemaText = """
    type Query { hero: Hero  book(id: ID!): Book  books: [Book!]! }
    type Hero { name: String!  nick: String  friends: [Hero!]!  tags: [String!]  best: Hero! }
    type Book { id: ID!  title: String  author: Author }
    type Author { id: ID!  name: String! }
    """

  func harness(_ strategy: KeyStrategy = .path, withSchema: Bool = true) throws -> ReadHarness {
    let schema =
      withSchema
      ? try makeSchema(
        Self.schemaText,
        """
        extend type Book @typePolicy(keyFields: "id")
        extend type Author @typePolicy(keyFields: "id")
        extend type Query @fieldPolicy(forField: "book", keyArgs: "id")
        """)
      : Schema.empty
    return ReadHarness(schema: schema, strategy: strategy)
  }

  // MARK: Non-null

  @Test(
    "a null where the schema says non-null fails the read, naming the response path",
    arguments: [
      ("{ hero { name } }", #"{"hero": {"name": null}}"#, ["hero", "name"], "String!"),
      ("{ h: hero { n: name } }", #"{"h": {"n": null}}"#, ["h", "n"], "String!"),
      ("{ hero { tags } }", #"{"hero": {"tags": ["a", null]}}"#, ["hero", "tags", "1"], "[String!]"),
      ("{ hero { best { nick } } }", #"{"hero": {"best": null}}"#, ["hero", "best"], "Hero!"),
      ("{ hero { friends { nick } } }", #"{"hero": {"friends": [{"nick": "a"}, null]}}"#, ["hero", "friends", "1"], "[Hero!]!"),
      ("{ hero { friends { nick } } }", #"{"hero": {"friends": null}}"#, ["hero", "friends"], "[Hero!]!"),
    ])
  func nonNull(query: String, response: String, path: [String], type: String) throws {
    let harness = try harness()
    try harness.write(query, response)
    #expect(throws: ReadError.self) { try harness.read(query) }
    do {
      _ = try harness.read(query)
    } catch let error as ReadError {
      #expect(error.path == path)
      #expect(error.type == type)
      #expect(error.description.hasPrefix("null at non-null \(path.joined(separator: ".")) (\(type))"))
    }
  }

  @Test("nullable fields and nullable list elements read as null; without a schema nothing is non-null")
  func nullable() throws {
    let query = "{ hero { nick tags friends { nick } } }"
    let response = #"{"hero": {"nick": null, "tags": null, "friends": [{"nick": null}]}}"#
    let harness = try harness()
    try harness.write(query, response)
    #expect(try harness.read(query).data.map(JSONValue.object) == (try JSONParser.parse(response)))

    let schemaless = try self.harness(withSchema: false)
    let nulls = #"{"hero": {"name": null, "best": null, "tags": [null]}}"#
    try schemaless.write("{ hero { name best { nick } tags } }", nulls)
    #expect(try schemaless.read("{ hero { name best { nick } tags } }").data.map(JSONValue.object) == (try JSONParser.parse(nulls)))
  }

  // MARK: Dependent keys

  @Test("a read's dependent keys are every recordKey.fieldKey it looked at, counted by hand")
  func dependentKeys() throws {
    // No schema: no field policy turns book(id:) into a lookup of Book:1.
    let harness = try harness(withSchema: false)
    let query = #"{ hero { name friends { name } } b: book(id: "1") { title } }"#
    try harness.write(
      query, #"{"hero": {"name": "Luke", "friends": [{"name": "Han"}, {"name": "Leia"}]}, "b": {"title": "T"}}"#)
    let result = try harness.read(query)
    #expect(result.data != nil)
    #expect(
      Set(result.dependentKeys) == [
        "QUERY_ROOT.hero", "QUERY_ROOT.book(id:1)",
        "QUERY_ROOT.hero.name", "QUERY_ROOT.hero.friends",
        "QUERY_ROOT.hero.friends.0.name", "QUERY_ROOT.hero.friends.1.name",
        "QUERY_ROOT.book(id:1).title",
      ])
    #expect(result.dependentKeys.count == 7)
  }

  @Test("a field a policy resolves is not looked at in its parent: the read depends on the record it names")
  func dependentKeysWithFieldPolicy() throws {
    let harness = try harness(.typePolicy)
    try harness.write("{ books { id title } }", #"{"books": [{"id": "1", "title": "T"}]}"#)
    let result = try harness.read(#"{ book(id: "1") { title } }"#)
    #expect(result.data == ["book": ["title": "T"]])
    #expect(Set(result.dependentKeys) == ["Book:1.title"])
  }

  @Test("a write wakes a watcher when it changes a key the read looked at, and only then; by record, on any field of a record it read")
  func intersects() throws {
    let harness = try harness(.typePolicy)
    let query = #"{ hero { name } b: book(id: "1") { title author { name } } }"#
    try harness.write(query, #"{"hero": {"name": "Luke"}, "b": {"id": "1", "title": "T", "author": {"id": "a", "name": "Ann"}}}"#)
    let result = try harness.read(query)
    /// (by field, by record)
    func wakes(_ operation: String, _ response: String) throws -> (Bool, Bool) {
      let changed = ChangedKeys.Lookup(
        try harness.cache.merge(records: try normalize(operation, response, schema: harness.schema, strategy: .typePolicy)))
      return (result.dependentKeys.intersects(changed), result.dependentKeys.intersectsRecords(changed))
    }
    // Book:1's values again, through a new field QUERY_ROOT.books: no key the read looked at
    // changed; by record, QUERY_ROOT (read for hero) did.
    #expect(try wakes(#"{ books { id title } }"#, #"{"books": [{"id": "1", "title": "T"}]}"#) == (false, true))
    // The same write again: nothing changed at all.
    #expect(try wakes(#"{ books { id title } }"#, #"{"books": [{"id": "1", "title": "T"}]}"#) == (false, false))
    // A field the read did not look at, of a record it did: not by field; by record, yes.
    #expect(try wakes(#"{ hero { nick } }"#, #"{"hero": {"nick": "L"}}"#) == (false, true))
    // A new record it never read: no; by record, QUERY_ROOT.books changed to hold it.
    #expect(try wakes(#"{ books { id title } }"#, #"{"books": [{"id": "2", "title": "U"}]}"#) == (false, true))
    // The author's name, reached through Book:1.author: yes.
    #expect(
      try wakes(#"{ books { id author { id name } } }"#, #"{"books": [{"id": "1", "author": {"id": "a", "name": "Bo"}}]}"#) == (true, true))
    #expect(try wakes(#"{ hero { name } }"#, #"{"hero": {"name": "Han"}}"#) == (true, true))
    // Its records, each once: QUERY_ROOT, QUERY_ROOT.hero, Book:1 and Author:a; and its five
    // keys: QUERY_ROOT.hero (b is the field policy's lookup of Book:1, not a key of QUERY_ROOT),
    // QUERY_ROOT.hero.name, Book:1.title, Book:1.author and Author:a.name.
    #expect(result.dependentKeys.recordKeys == ["QUERY_ROOT", "QUERY_ROOT.hero", "Book:1", "Author:a"])
    #expect(Set(result.dependentKeys) == ["QUERY_ROOT.hero", "QUERY_ROOT.hero.name", "Book:1.title", "Book:1.author", "Author:a.name"])
    #expect(result.dependentKeys.count == 5)
  }

  // MARK: Reads by key

  @Test("a named fragment read from a record key equals the object as written, with its references followed")
  func fragmentByKey() throws {
    let harness = try harness(.typePolicy)
    try harness.write(
      "{ books { id title author { id name } } }",
      #"{"books": [{"id": "1", "title": "T", "author": {"id": "a", "name": "Ann"}}, {"id": "2", "title": "U", "author": null}]}"#)
    let document = try ExecutableDocument(parsing: [
      Source(name: "f.graphql", text: "fragment BookDetails on Book { t: title author { name } }")
    ])
    let fragment = try ObjectSelection(fragment: "BookDetails", document: document, schema: harness.schema)
    #expect(fragment.typeName == "Book")
    let reader = CacheReader(cache: harness.cache)
    let first = try reader.read(fragment, key: "Book:1")
    #expect(first.data == ["t": "T", "author": ["name": "Ann"]])
    #expect(first.statistics.loads == 2)
    #expect(Set(first.dependentKeys) == ["Book:1.title", "Book:1.author", "Author:a.name"])
    #expect(try reader.read(fragment, key: "Book:2").data == ["t": "U", "author": nil])
    #expect(try reader.read(fragment, key: "Book:3").miss == CacheMiss(recordKey: "Book:3", fieldKey: nil, path: []))
    #expect(throws: GraphQLError.self) { try ObjectSelection(fragment: "Nope", document: document) }
  }

  @Test("every keyed object the normalizer reports reads back by its key through the selection it was written under")
  func keyedObjects() throws {
    let harness = try harness(.typePolicy)
    let query = "{ hero { name } books { id title author { id name } } }"
    let text = #"{"hero": {"name": "L"}, "books": [{"id": "1", "title": "T", "author": {"id": "a", "name": "Ann"}}]}"#
    try harness.write(query, text)
    let document = try ExecutableDocument(parsing: [Source(name: "q.graphql", text: query)])
    let plan = try OperationPlan(document: document, schema: harness.schema)
    let objects = try Normalizer(strategy: .typePolicy).keyedObjects(in: try JSONParser.parse(text), plan: plan)
    // hero is path-keyed: only Book:1 and Author:a have keys of their own.
    #expect(objects.map(\.key) == ["Book:1", "Author:a"])
    for object in objects {
      let read = try CacheReader(cache: harness.cache).read(object.selection, key: object.key)
      #expect(read.data == (try ResponseProjection.selectedData(of: object.object, selection: object.selection)))
    }
    #expect(
      try objects.first.map { try CacheReader(cache: harness.cache).read($0.selection, key: $0.key).data }
        == ["id": "1", "title": "T", "author": ["id": "a", "name": "Ann"]])
  }
}
