import GraphQLLanguage
import Testing

@testable import NormalizedCache

@Suite("The normalizer")
struct NormalizerTests {
  static let schema = """
    type Query { author: Author  authors: [Author]  grid: [[Cell]]  node: Node  item: Item  mixed: [Named] }
    type Mutation { rename(name: String!): Author }
    interface Node { id: ID! }
    interface Named { name: String }
    type Author implements Node & Named { id: ID!  firstName: String  lastName: String  name: String  rating: Float  born: Int  alive: Boolean  friend: Author }
    type Cell { v: Int }
    type Item implements Named { name: String  detail: Detail }
    type Detail { text: String }
    """

  @Test("key fields are escaped: \\ becomes \\\\, then + becomes \\+, then the fields are joined by +")
  func escaping() throws {
    let schema = try makeSchema(Self.schema, #"extend type Author @typePolicy(keyFields: "firstName lastName")"#)
    let records = try normalize(
      "{ author { firstName lastName } }", #"{"author": {"firstName": "a+b", "lastName": "c\\d\\+"}}"#,
      schema: schema, strategy: .typePolicy)
    #expect(records.keys == ["QUERY_ROOT", #"Author:a\+b+c\\d\\\+"#])
    #expect(TypePolicyKey.escape(#"x+y\z"#) == #"x\+y\\z"#)
  }

  @Test(
    "key field values: String, ID, Int and Float make keys; a missing key field, null, Bool or object falls back to the path",
    arguments: [
      (#""ab""#, "Author:ab"),
      ("12", "Author:12"),
      ("1.5", "Author:1.5"),
      ("null", "QUERY_ROOT.author"),
      ("true", "QUERY_ROOT.author"),
    ])
  func keyFieldKinds(id: String, key: String) throws {
    let schema = try makeSchema(Self.schema, #"extend type Author @typePolicy(keyFields: "id")"#)
    let records = try normalize("{ author { id } }", #"{"author": {"id": \#(id)}}"#, schema: schema, strategy: .typePolicy)
    #expect(records.keys == ["QUERY_ROOT", key])
  }

  @Test("a key field the operation did not select gives no key: the object falls back to its path")
  func missingKeyField() throws {
    let schema = try makeSchema(Self.schema, #"extend type Author @typePolicy(keyFields: "id")"#)
    let records = try normalize("{ author { name } }", #"{"author": {"name": "Ray"}}"#, schema: schema, strategy: .typePolicy)
    #expect(records.keys == ["QUERY_ROOT", "QUERY_ROOT.author"])
  }

  @Test("precedence: programmatic, then the type's own policy, then the inherited one, then the path")
  func precedence() throws {
    let schema = try makeSchema(
      Self.schema,
      """
      extend interface Node @typePolicy(keyFields: "id")
      extend type Author @typePolicy(keyFields: "name")
      """)
    let query = "{ author { id name } }"
    let response = #"{"author": {"id": "7", "name": "Ray"}}"#
    let programmatic = try resolver { _, object in object.string("id").map { CacheKeyInfo(id: "p" + $0) } }
    let declining = try resolver { _, _ in nil }
    #expect(try normalize(query, response, schema: schema, strategy: programmatic).keys.last == "Author:p7")
    #expect(try normalize(query, response, schema: schema, strategy: declining).keys.last == "Author:Ray")
    #expect(try normalize(query, response, schema: schema, strategy: .typePolicy).keys.last == "Author:Ray")
    let inheritedOnly = try makeSchema(Self.schema, #"extend interface Node @typePolicy(keyFields: "id")"#)
    #expect(try normalize(query, response, schema: inheritedOnly, strategy: .typePolicy).keys.last == "Author:7")
    #expect(try normalize(query, response, schema: schema, strategy: .path).keys.last == "QUERY_ROOT.author")
    // The own policy's key field missing: no key, and no fall back to the inherited policy.
    #expect(
      try normalize("{ author { id } }", #"{"author": {"id": "7"}}"#, schema: schema, strategy: .typePolicy).keys.last
        == "QUERY_ROOT.author")
  }

  @Test("path keys add an index per list level and restart below an object with its own key")
  func pathKeys() throws {
    let records = try normalize("{ grid { v } }", #"{"grid": [[{"v": 1}], [{"v": 2}, null, {"v": 3}]]}"#)
    #expect(records.keys == ["QUERY_ROOT", "QUERY_ROOT.grid.0.0", "QUERY_ROOT.grid.1.0", "QUERY_ROOT.grid.1.2"])
    #expect(
      records["QUERY_ROOT"]?["grid"]
        == [[.reference("QUERY_ROOT.grid.0.0")], [.reference("QUERY_ROOT.grid.1.0"), .null, .reference("QUERY_ROOT.grid.1.2")]])
    let schema = try makeSchema(Self.schema, #"extend type Author @typePolicy(keyFields: "id")"#)
    let keyed = try normalize(
      "{ authors { id friend { name friend { id } } } }",
      #"{"authors": [{"id": "1", "friend": {"name": "anon", "friend": {"id": "2"}}}]}"#, schema: schema, strategy: .typePolicy)
    #expect(keyed.keys == ["QUERY_ROOT", "Author:1", "Author:1.friend", "Author:2"])
  }

  @Test("a mutation's records hang from MUTATION_ROOT")
  func mutationRoot() throws {
    let records = try normalize(#"mutation { rename(name: "X") { name } }"#, #"{"data": {"rename": {"name": "X"}}}"#)
    #expect(records.keys == ["MUTATION_ROOT", "MUTATION_ROOT.rename(name:X)"])
  }

  @Test("__typename is stored when the response has it, selected or not")
  func typename() throws {
    let records = try normalize("{ author { name } }", #"{"author": {"__typename": "Author", "name": "Ray"}}"#)
    #expect(records["QUERY_ROOT.author"] == Record(key: "QUERY_ROOT.author", ["__typename": "Author", "name": "Ray"]))
  }

  @Test("only selected fields are stored")
  func onlySelected() throws {
    let records = try normalize("{ author { name } }", #"{"author": {"name": "Ray", "born": 1920}}"#)
    #expect(records["QUERY_ROOT.author"]?.fieldKeys == ["name"])
  }

  @Test("@include and @skip, with literals and variables")
  func includeSkip() throws {
    let query = "query Q($yes: Boolean!) { author { name @include(if: $yes) born @skip(if: $yes) alive @skip(if: false) } }"
    let records = try normalize(query, #"{"author": {"name": "Ray", "alive": true}}"#, variables: ["yes": true])
    #expect(records["QUERY_ROOT.author"]?.fieldKeys == ["name", "alive"])
  }

  @Test("with a schema, type conditions follow GraphQL: a fragment on another type is not stored")
  func typeConditionsWithSchema() throws {
    let schema = try makeSchema(Self.schema)
    let query = "{ mixed { __typename ... on Author { firstName } ... on Item { name } ... on Named { name } } }"
    let response = #"{"mixed": [{"__typename": "Author", "firstName": "Ray", "name": "Ray B"}, {"__typename": "Item", "name": "Pen"}]}"#
    let records = try normalize(query, response, schema: schema)
    #expect(
      records["QUERY_ROOT.mixed.0"] == Record(key: "QUERY_ROOT.mixed.0", ["__typename": "Author", "firstName": "Ray", "name": "Ray B"]))
    #expect(records["QUERY_ROOT.mixed.1"] == Record(key: "QUERY_ROOT.mixed.1", ["__typename": "Item", "name": "Pen"]))
    // A field of a fragment that applies is required: the response must have it.
    #expect(throws: NormalizationError.self) {
      try normalize(query, #"{"mixed": [{"__typename": "Author", "name": "Ray B"}]}"#, schema: schema)
    }
  }

  @Test("without a schema, a type condition matches leniently: its fields are stored when the response has them")
  func typeConditionsWithoutSchema() throws {
    let query = "{ mixed { ... on Author { firstName } ... on Item { name } } }"
    let records = try normalize(query, #"{"mixed": [{"__typename": "Author", "firstName": "Ray"}, {"name": "Pen"}]}"#)
    #expect(records["QUERY_ROOT.mixed.0"]?.fieldKeys == ["__typename", "firstName"])
    #expect(records["QUERY_ROOT.mixed.1"]?.fieldKeys == ["name"])
  }

  @Test("without __typename, an object's type comes from the schema's field type, for keys and conditions")
  func inferredType() throws {
    let schema = try makeSchema(Self.schema, #"extend type Author @typePolicy(keyFields: "id")"#)
    let records = try normalize(
      "{ author { id ... on Author { name } } }", #"{"author": {"id": "9", "name": "R"}}"#, schema: schema, strategy: .typePolicy)
    #expect(records["Author:9"] == Record(key: "Author:9", ["id": "9", "name": "R"]))
  }

  @Test(
    "a response missing a selected field, or with the wrong shape, is an error naming the path",
    arguments: [
      ("{ author { name } }", #"{"author": {}}"#, #"missing field "name" at data.author"#),
      ("{ authors { name } }", #"{"authors": [{"name": "a"}, {"nam": "b"}]}"#, #"missing field "name" at data.authors.1"#),
      ("{ author { name } }", #"{"author": "Ray"}"#, #"field "author" has a selection set, but the response has a string at data.author"#),
      (
        "{ author { name } }", #"{"author": {"name": {"first": "R"}}}"#,
        #"field "name" has no selection set, but the response has an object at data.author.name"#
      ),
      ("{ author { name } }", #"[1]"#, "a response must be a JSON object, not an array"),
      ("{ author { name } }", #"{"data": 3}"#, "the response's \"data\" is an integer, not an object"),
    ])
  func errors(query: String, response: String, message: String) {
    let error = #expect(throws: NormalizationError.self) {
      try normalize(query, response)
    }
    #expect(error?.description == message)
  }

  @Test(
    "against the schema, a list where it says an object, or an object where it says a list, is an error naming the path",
    arguments: [
      (
        "{ author { name } }", #"{"author": [{"name": "a"}]}"#,
        #"field "author" is Author in the schema, not a list, but the response has a list at data.author"#
      ),
      (
        "{ authors { name } }", #"{"authors": {"name": "a"}}"#,
        #"field "authors" is [Author] in the schema, a list, but the response has an object at data.authors"#
      ),
      (
        "{ grid { v } }", #"{"grid": [{"v": 1}]}"#,
        #"field "grid" is [Cell] in the schema, a list, but the response has an object at data.grid.0"#
      ),
      (
        "{ grid { v } }", #"{"grid": [[[{"v": 1}]]]}"#,
        #"field "grid" is Cell in the schema, not a list, but the response has a list at data.grid.0.0"#
      ),
    ])
  func shapeAgainstSchema(query: String, response: String, message: String) throws {
    let schema = try makeSchema(Self.schema)
    let error = #expect(throws: NormalizationError.self) {
      try normalize(query, response, schema: schema)
    }
    #expect(error?.description == message)
    // Without a schema nothing says which shape is right: both are stored as they come.
    #expect(throws: Never.self) { try normalize(query, response) }
  }

  @Test("the shapes the schema gives pass: nulls at every level, lists of lists")
  func shapesThatFit() throws {
    let schema = try makeSchema(Self.schema)
    let records = try normalize(
      "{ grid { v } authors { name } author { name } }", #"{"grid": [[{"v": 1}, null], null], "authors": null, "author": null}"#,
      schema: schema)
    #expect(records["QUERY_ROOT.grid.0.0"] == Record(key: "QUERY_ROOT.grid.0.0", ["v": 1]))
  }

  @Test("counts the objects of a response, the root data object not included")
  func objectCount() throws {
    let normalized = try normalizeResponse("{ grid { v } author { name } }", #"{"grid": [[{"v": 1}, {"v": 2}]], "author": null}"#)
    #expect(normalized.objectCount == 2)
  }
}

@Suite("Records and merging")
struct RecordMergeTests {
  @Test("true is never equal to 1: merging one over the other is a change")
  func trueIsNotOne() {
    var records = RecordSet(records: [Record(key: "A", ["flag": true, "count": 1])])
    let changed = records.merge(records: RecordSet(records: [Record(key: "A", ["flag": 1, "count": true])]))
    #expect(Set(changed) == ["A.flag", "A.count"])
    #expect(records["A"] == Record(key: "A", ["flag": 1, "count": true]))
    #expect(RecordValue.bool(true) != RecordValue.int(1))
    #expect(RecordValue.double(1) != RecordValue.int(1))
  }

  @Test("merge overwrites field by field, keeps fields it does not mention, and returns only changes")
  func fieldByField() {
    var records = RecordSet(records: [Record(key: "Book:1", ["id": "1", "title": "Old", "tags": ["a", "b"]])])
    let changed = records.merge(
      records: RecordSet(records: [
        Record(key: "Book:1", ["title": "New", "tags": ["a", "b"], "year": 2001]),
        Record(key: "Book:2", ["id": "2", "next": .reference("Book:1")]),
      ]))
    #expect(Set(changed) == ["Book:1.title", "Book:1.year", "Book:2.id", "Book:2.next"])
    #expect(changed.count == 4)
    #expect(changed.contains("Book:1.title"))
    #expect(!changed.contains("Book:1.tags"))
    #expect(records["Book:1"]?.fields.map(\.key) == ["id", "title", "tags", "year"])
    #expect(records["Book:1"]?["title"] == "New")
    #expect(records.merge(records: RecordSet(records: [Record(key: "Book:1", ["title": "New"])])).isEmpty)
  }

  @Test("records round-trip every kind of value through their encoding")
  func encodingRoundTrip() {
    let values: KeyValuePairs<String, RecordValue> = [
      "null": nil, "t": true, "f": false, "zero": 0, "min": .int(Int.min), "max": .int(Int.max), "neg": -300,
      "pi": 3.14159, "negzero": -0.0, "s": "héllo \"x\"", "long": .string(String(repeating: "x", count: 300)),
      "ref": .reference("Book:1"), "list": [1, [2, [.reference("A")]], nil, "s"], "empty": [],
    ]
    let record = Record(key: "R", values)
    #expect(record.fields.map(\.key) == values.map(\.key))
    for (key, value) in values { #expect(record[key] == value, "\(key)") }
    #expect(record["missing"] == nil)
  }

  @Test("a repeated field in a record keeps its first place and its last value")
  func repeatedField() {
    let record = Record(key: "R", fields: [("a", 1), ("b", 2), ("a", 3)])
    #expect(record.fields.map(\.key) == ["a", "b"])
    #expect(record["a"] == 3)
  }

  @Test("records compare equal with fields in any order")
  func equality() {
    #expect(Record(key: "R", ["a": 1, "b": 2]) == Record(key: "R", ["b": 2, "a": 1]))
    #expect(Record(key: "R", ["a": 1]) != Record(key: "S", ["a": 1]))
    #expect(Record(key: "R", ["a": 1]) != Record(key: "R", ["a": 1, "b": 2]))
  }

  @Test("the json listing sorts keys and fields and writes references as {\"$reference\": KEY}")
  func jsonListing() {
    let records = RecordSet(records: [
      Record(key: "QUERY_ROOT", ["z": .reference("B:1"), "a": [1.5, nil]]),
      Record(key: "B:1", ["id": "1"]),
    ])
    #expect(
      RecordListing.json.render(records) == """
        {
          "records": {
            "B:1": {
              "id": "1"
            },
            "QUERY_ROOT": {
              "a": [
                1.5,
                null
              ],
              "z": {
                "$reference": "B:1"
              }
            }
          }
        }

        """)
  }
}
