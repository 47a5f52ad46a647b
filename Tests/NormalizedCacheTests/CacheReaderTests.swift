import GraphQLLanguage
import Testing

@testable import NormalizedCache

/// Writes responses into a fresh in-memory store and reads operations back.
struct ReadHarness {
  let schema: Schema
  let strategy: KeyStrategy
  let cache = InMemoryNormalizedCache()

  func write(_ operation: String, _ response: String, variables: JSONObject = [:]) throws {
    try cache.merge(records: try normalize(operation, response, schema: schema, strategy: strategy, variables: variables))
  }

  func read(_ operation: String, variables: JSONObject = [:], provider: (any FieldPolicyProvider)? = nil) throws -> ReadResult {
    let document = try ExecutableDocument(parsing: [Source(name: "read.graphql", text: operation)])
    let plan = try OperationPlan(document: document, schema: schema, variables: variables)
    return try CacheReader(cache: cache, fieldPolicyProvider: provider).read(plan)
  }
}

/// The read-side worked examples of `000_82e5ed111e8dc034.txt`: `@fieldPolicy` and the programmatic
/// `FieldPolicy.Provider`.
@Suite("Seed 000: reading with field policies")
struct SeedFieldPolicyTests {
  static let schema = """
    type Query {
      book(id: ID!): Book
      featuredBooks: [Book!]!
      animal(species: String!, habitat: String!): Animal!
      animalByInput(input: AnimalInput!): Animal!
      animals(species: [String!], habitat: String!): [Animal!]
      allAnimals: [Animal!]!
      hero(heroInput: HeroInput): Hero
      heroes(heroInput: HeroesInput): [Hero]
      allHeroes: [Hero!]!
    }
    type Book { id: ID!  title: String  author: String }
    type Animal { species: String!  habitat: String!  name: String }
    input AnimalInput { id: ID  species: String! }
    type Hero { name: String!  factionID: Int!  power: String }
    input HeroInput { name: String!  factionID: Int! }
    input HeroesInput { names: [String!]!  factionID: Int! }
    """

  @Test("book(id: \"123\") is served from Book:123 after featuredBooks wrote it, without its own query ever running")
  func bookFromFeaturedBooks() throws {
    let harness = ReadHarness(
      schema: try makeSchema(
        Self.schema,
        """
        extend type Book @typePolicy(keyFields: "id")
        extend type Query @fieldPolicy(forField: "book", keyArgs: "id")
        """),
      strategy: .typePolicy)
    try harness.write(
      "{ featuredBooks { id title author } }",
      #"{"featuredBooks": [{"id": "123", "title": "Dune", "author": "Herbert"}, {"id": "456", "title": "Emma", "author": "Austen"}]}"#)
    let result = try harness.read("query GetBook($bookId: ID!) { book(id: $bookId) { id title author } }", variables: ["bookId": "123"])
    #expect(result.data == ["book": ["id": "123", "title": "Dune", "author": "Herbert"]])
    // QUERY_ROOT has no book(id:123) field: the policy key went straight to the record.
    #expect(harness.cache.loadRecords(forKeys: ["QUERY_ROOT"])["QUERY_ROOT"]?["book(id:123)"] == nil)
    let missing = try harness.read(#"{ book(id: "789") { id } }"#)
    #expect(missing.miss?.description == #"no record "Book:789" at data.book"#)
  }

  @Test(
    "several key arguments join with + in the directive's order: Animal:Lion+Savanna, and Animal:Savanna+Lion reversed",
    arguments: [("species habitat", "Animal:Lion+Savanna"), ("habitat species", "Animal:Savanna+Lion")])
  func multipleKeyArgs(keyArgs: String, key: String) throws {
    let harness = ReadHarness(
      schema: try makeSchema(
        Self.schema,
        """
        extend type Animal @typePolicy(keyFields: "\(keyArgs)")
        extend type Query @fieldPolicy(forField: "animal", keyArgs: "\(keyArgs)")
        """),
      strategy: .typePolicy)
    try harness.write(
      "{ allAnimals { species habitat name } }", #"{"allAnimals": [{"species": "Lion", "habitat": "Savanna", "name": "Leo"}]}"#)
    #expect(harness.cache.statistics().recordCount == 2)
    #expect(!harness.cache.loadRecords(forKeys: [key]).isEmpty)
    let result = try harness.read(#"{ animal(species: "Lion", habitat: "Savanna") { name } }"#)
    #expect(result.data == ["animal": ["name": "Leo"]])
  }

  @Test("dot notation reaches into input objects: keyArgs \"input.species\" gives Animal:Lion")
  func dotNotation() throws {
    let harness = ReadHarness(
      schema: try makeSchema(
        Self.schema,
        """
        extend type Animal @typePolicy(keyFields: "species")
        extend type Query @fieldPolicy(forField: "animalByInput", keyArgs: "input.species")
        """),
      strategy: .typePolicy)
    try harness.write("{ allAnimals { species name } }", #"{"allAnimals": [{"species": "Lion", "name": "Leo"}]}"#)
    let result = try harness.read(
      "query Q($input: AnimalInput!) { animalByInput(input: $input) { species name } }",
      variables: ["input": ["id": "a1", "species": "Lion"]])
    #expect(result.data == ["animalByInput": ["species": "Lion", "name": "Leo"]])
  }

  @Test("a list field yields one key per element of its list argument; one missing element makes the whole read miss")
  func listFieldPolicy() throws {
    let harness = ReadHarness(
      schema: try makeSchema(
        Self.schema,
        """
        extend type Animal @typePolicy(keyFields: "species habitat")
        extend type Query @fieldPolicy(forField: "animals", keyArgs: "species habitat")
        """),
      strategy: .typePolicy)
    try harness.write(
      "{ allAnimals { species habitat name } }",
      #"{"allAnimals": [{"species": "Lion", "habitat": "Savanna", "name": "Leo"}, {"species": "Elephant", "habitat": "Savanna", "name": "Dumbo"}]}"#
    )
    let query = "query Q($species: [String!]) { animals(species: $species, habitat: \"Savanna\") { name } }"
    let both = try harness.read(query, variables: ["species": ["Lion", "Elephant"]])
    #expect(both.data == ["animals": [["name": "Leo"], ["name": "Dumbo"]]])
    let partial = try harness.read(query, variables: ["species": ["Lion", "Zebra"]])
    #expect(partial.data == nil)
    #expect(partial.miss == CacheMiss(recordKey: "Animal:Zebra+Savanna", fieldKey: nil, path: ["animals", "1"]))
  }

  /// The seed's provider: `hero(heroInput:)` keyed by name and faction, `heroes(heroInput:)` by each name.
  struct HeroPolicies: FieldPolicyProvider {
    func cacheKey(for field: FieldPolicyField, inputData: JSONObject, path: [String]) -> CacheKeyInfo? {
      guard case .object(let input)? = inputData["heroInput"], case .string(let name)? = input["name"],
        case .int(let factionID)? = input["factionID"]
      else { return nil }
      return CacheKeyInfo(id: "\(name)+\(factionID)")
    }

    func cacheKeyList(for field: FieldPolicyField, inputData: JSONObject, path: [String]) -> [CacheKeyInfo]? {
      guard case .object(let input)? = inputData["heroInput"], case .array(let names)? = input["names"],
        case .int(let factionID)? = input["factionID"]
      else { return nil }
      return names.compactMap { $0.stringValue.map { CacheKeyInfo(id: "\($0)+\(factionID)") } }
    }
  }

  @Test("a programmatic field-policy provider: hero(heroInput:) reads Hero:Luke+1, and it takes precedence over the directive")
  func programmaticProvider() throws {
    let heroKey = try resolver { type, object in
      guard type.name == "Hero", let name = object.string("name"), let faction = object.int("factionID") else { return nil }
      return CacheKeyInfo(id: "\(name)+\(faction)")
    }
    let harness = ReadHarness(
      schema: try makeSchema(
        Self.schema, #"extend type Query @fieldPolicy(forField: "hero", keyArgs: "heroInput.name")"#),
      strategy: heroKey)
    try harness.write(
      "{ allHeroes { name factionID power } }",
      #"{"allHeroes": [{"name": "Luke", "factionID": 1, "power": "force"}, {"name": "Leia", "factionID": 1, "power": "wit"}]}"#)
    #expect(!harness.cache.loadRecords(forKeys: ["Hero:Luke+1"]).isEmpty)
    let query = #"{ hero(heroInput: {name: "Luke", factionID: 1}) { name power } }"#
    #expect(try harness.read(query, provider: HeroPolicies()).data == ["hero": ["name": "Luke", "power": "force"]])
    // The directive alone would look for Hero:Luke, which does not exist.
    #expect(try harness.read(query).miss == CacheMiss(recordKey: "Hero:Luke", fieldKey: nil, path: ["hero"]))
    let list = try harness.read(#"{ heroes(heroInput: {names: ["Leia", "Luke"], factionID: 1}) { power } }"#, provider: HeroPolicies())
    #expect(list.data == ["heroes": [["power": "wit"], ["power": "force"]]])
  }
}

@Suite("Reading operations back")
struct CacheReaderTests {
  @Test("seed 002: FavoriteBookTitleAndYear is answered from the cache after the first two queries")
  func favoriteBookTitleAndYear() throws {
    let harness = ReadHarness(schema: .empty, strategy: .path)
    try harness.write(SeedNormalizedCacheDocumentTests.getFavoriteBook, SeedNormalizedCacheDocumentTests.getFavoriteBookResponse)
    try harness.write(SeedNormalizedCacheDocumentTests.favoriteBookYear, SeedNormalizedCacheDocumentTests.favoriteBookYearResponse)
    let result = try harness.read("query FavoriteBookTitleAndYear { favoriteBook { title yearPublished } }")
    #expect(result.data == ["favoriteBook": ["title": "Les Guerriers du silence", "yearPublished": 1993]])
  }

  @Test("seed 002: by path, favoriteBook.genre is not in the cache: the read misses and names the record and field")
  func genreMiss() throws {
    let harness = ReadHarness(schema: .empty, strategy: .path)
    try harness.write(SeedNormalizedCacheDocumentTests.getFavoriteBook, SeedNormalizedCacheDocumentTests.getFavoriteBookResponse)
    try harness.write(
      SeedNormalizedCacheDocumentTests.bestFriendsFavoriteBook, SeedNormalizedCacheDocumentTests.bestFriendsFavoriteBookResponse)
    let result = try harness.read("{ favoriteBook { title genre } }")
    #expect(result.miss?.description == #"no field "genre" in record "QUERY_ROOT.favoriteBook" at data.favoriteBook.genre"#)
  }

  @Test("aliases are restored, lists of lists and nulls read back, conditional fragments follow the stored __typename")
  func shapes() throws {
    let schema = try makeSchema(
      """
      type Query { grid: [[Cell]]  pets: [Pet!]! }
      type Cell { v: Int }
      interface Pet { id: ID! }
      type Dog implements Pet { id: ID!  barks: Boolean }
      type Cat implements Pet { id: ID!  lives: Int }
      """, #"extend interface Pet @typePolicy(keyFields: "id")"#)
    let harness = ReadHarness(schema: schema, strategy: .typePolicy)
    let query = "{ g: grid { value: v } pets { __typename id ... on Dog { barks } ... on Cat { lives } } }"
    let response =
      #"{"g": [[{"value": 1}, null], []], "pets": [{"__typename": "Dog", "id": "d", "barks": true}, {"__typename": "Cat", "id": "c", "lives": 9}]}"#
    try harness.write(query, response)
    let result = try harness.read(query)
    #expect(result.data.map(JSONValue.object) == (try JSONParser.parse(response)))
  }

  @Test("objects of alternating types at one place, records written in another field order, and one without __typename read back")
  func typesAndOrder() throws {
    let schema = try makeSchema(
      """
      type Query { pets: [Pet!]!  owner: Person }
      type Person { name: String  age: Int }
      interface Pet { id: ID! }
      type Dog implements Pet { id: ID!  barks: Boolean }
      type Cat implements Pet { id: ID!  lives: Int }
      """, #"extend interface Pet @typePolicy(keyFields: "id")"#)
    let harness = ReadHarness(schema: schema, strategy: .typePolicy)
    // Written with the fields in another order than the read asks for them.
    try harness.write(
      "{ owner { age name } pets { ... on Cat { lives } id __typename ... on Dog { barks } } }",
      #"""
      {"owner": {"age": 40, "name": "Ann"}, "pets": [
        {"__typename": "Dog", "id": "d1", "barks": true}, {"lives": 1, "id": "c1", "__typename": "Cat"},
        {"__typename": "Dog", "id": "d2", "barks": false}, {"lives": 2, "id": "c2", "__typename": "Cat"},
        {"__typename": "Dog", "id": "d3", "barks": true}]}
      """#)
    let result = try harness.read("{ pets { __typename id ... on Dog { barks } ... on Cat { lives } } owner { name age } }")
    // By hand: each pet with the fields of its own type, in the read's order; the owner (no __typename) too.
    let expected: JSONObject = [
      "pets": [
        ["__typename": "Dog", "id": "d1", "barks": true], ["__typename": "Cat", "id": "c1", "lives": 1],
        ["__typename": "Dog", "id": "d2", "barks": false], ["__typename": "Cat", "id": "c2", "lives": 2],
        ["__typename": "Dog", "id": "d3", "barks": true],
      ],
      "owner": ["name": "Ann", "age": 40],
    ]
    #expect(result.data == expected)
    #expect(result.data?.members.map(\.key) == ["pets", "owner"])
    let firstCat = result.data?["pets"]?.arrayValue?[1].objectValue
    #expect(firstCat?.members.map(\.key) == ["__typename", "id", "lives"])
  }

  @Test("a leaf read from a field that holds a reference, alone or in a list, is a miss; scalars of every kind read back")
  func leafShapes() throws {
    let cache = InMemoryNormalizedCache()
    try cache.merge(
      records: RecordSet(records: [
        Record(
          key: "QUERY_ROOT",
          [
            "book": .reference("Book:1"), "refs": .list([.string("a"), .reference("Book:1")]),
            "scalars": .list([.null, .bool(false), .bool(true), .int(-7), .double(2.5), .string("é"), .list([.int(1)])]),
          ]),
        Record(key: "Book:1", ["title": "Emma"]),
      ]))
    func read(_ text: String) throws -> ReadResult {
      let plan = try OperationPlan(document: try ExecutableDocument(parsing: [Source(name: "q.graphql", text: text)]))
      return try CacheReader(cache: cache).read(plan)
    }
    #expect(try read("{ book }").miss == CacheMiss(recordKey: "QUERY_ROOT", fieldKey: "book", path: ["book"]))
    #expect(try read("{ refs }").miss == CacheMiss(recordKey: "QUERY_ROOT", fieldKey: "refs", path: ["refs"]))
    #expect(try read("{ scalars }").data == ["scalars": [nil, false, true, -7, 2.5, "é", [1]]])
    #expect(try read("{ book { title } }").data == ["book": ["title": "Emma"]])
  }

  @Test("the data loader: a list of 100 objects three levels deep is read in depth + 1 loads")
  func dataLoader() throws {
    let harness = ReadHarness(schema: .empty, strategy: .path)
    let friends = (0..<100).map { #"{"name": "f\#($0)", "pet": {"name": "p\#($0)", "toy": {"name": "t\#($0)"}}}"# }
    let query = "{ me { friends { name pet { name toy { name } } } } }"
    try harness.write(query, #"{"me": {"friends": [\#(friends.joined(separator: ","))]}}"#)
    let result = try harness.read(query)
    #expect(result.data != nil)
    // Levels: QUERY_ROOT, me, the 100 friends, their 100 pets, their 100 toys: depth 4, so 5 loads.
    #expect(result.statistics.loads == 5)
    #expect(result.statistics.keysRequested == 302)
    #expect(result.statistics.hits == 302)
    #expect(result.statistics.misses == 0)
  }

  @Test("a read-back of the calendar equals the selected part of its response, under every strategy")
  func calendarRoundTrip() throws {
    for strategy in [KeyStrategy.path, .typePolicy, .programmatic(BuiltInResolvers.id)] {
      let plan = try calendarPlan()
      let response = try calendarResponse()
      let cache = InMemoryNormalizedCache()
      try cache.merge(records: try Normalizer(strategy: strategy).normalize(response, plan: plan).records)
      let result = try CacheReader(cache: cache, useFieldPolicies: strategy.name != .path).read(plan)
      let expected = try ResponseProjection.selectedData(of: response, plan: plan)
      #expect(result.data == expected, "\(strategy.name)")
      #expect(result.data?["items"] != nil)
    }
  }

  @Test("the projection of a response keeps only selected fields, by response key")
  func projection() throws {
    let document = try ExecutableDocument(parsing: [Source(name: "q", text: "{ a: author { name } }")])
    let plan = try OperationPlan(document: document)
    let projected = try ResponseProjection.selectedData(
      of: try JSONParser.parse(#"{"data": {"a": {"name": "R", "born": 1}, "extra": 2}}"#), plan: plan)
    #expect(projected == ["a": ["name": "R"]])
  }
}

/// Boolean key arguments, as Apollo iOS's field-policy tests write them (issue 10, point 2).
@Suite("Field policies with Boolean key arguments")
struct BooleanFieldPolicyTests {
  static func keys(_ keyArgs: String, _ arguments: JSONObject, list: Bool = false) -> FieldPolicyKeys.Result? {
    let policy = FieldPolicy(
      typeName: "Query", fieldName: "hero",
      keyArgs: keyArgs.split(separator: " ").map { $0.split(separator: ".").map(String.init) },
      location: SourceLocation(file: "test", line: 1, column: 1))
    return FieldPolicyKeys.keys(policy: policy, arguments: arguments, returnTypeName: "Hero", returnsList: list)
  }

  static func single(_ result: FieldPolicyKeys.Result?) -> CacheKey? {
    if case .single(let key)? = result { return key }
    return nil
  }

  @Test("hero(isJedi: true) with keyArgs \"isJedi\" is Hero:true, false is Hero:false")
  func boolean() {
    #expect(Self.single(Self.keys("isJedi", ["isJedi": true])) == "Hero:true")
    #expect(Self.single(Self.keys("isJedi", ["isJedi": false])) == "Hero:false")
  }

  @Test("with another key argument: Hero:Anakin+true")
  func combined() {
    #expect(Self.single(Self.keys("name isJedi", ["name": "Anakin", "isJedi": true])) == "Hero:Anakin+true")
  }

  @Test("through dot notation into input objects, one and two levels down")
  func dotNotation() {
    #expect(Self.single(Self.keys("input.isJedi", ["input": ["isJedi": true]])) == "Hero:true")
    #expect(
      Self.single(Self.keys("input.side.isJedi", ["input": ["side": ["isJedi": false], "x": 1]])) == "Hero:false")
  }

  @Test("beside a list argument that fans out: one key per element, the Boolean in each")
  func besideList() {
    guard case .list(let keys)? = Self.keys("names isJedi", ["names": ["Luke", "Leia"], "isJedi": true], list: true)
    else {
      Issue.record("not a list of keys")
      return
    }
    #expect(keys == ["Hero:Luke+true", "Hero:Leia+true"])
  }

  @Test("a read through the policy finds the record a Boolean key names")
  func read() throws {
    let harness = ReadHarness(
      schema: try makeSchema(
        """
        type Hero { id: ID!, name: String }
        type Query { hero(isJedi: Boolean): Hero, heroes: [Hero!]! }
        """,
        """
        extend type Hero @typePolicy(keyFields: "id")
        extend type Query @fieldPolicy(forField: "hero", keyArgs: "isJedi")
        """),
      strategy: .typePolicy)
    try harness.write("{ heroes { id name } }", #"{"heroes": [{"id": "true", "name": "Luke"}]}"#)
    let result = try harness.read("{ hero(isJedi: true) { id name } }")
    #expect(result.data == ["hero": ["id": "true", "name": "Luke"]])
  }
}

/// The steps' own copies of the schema's types, which reads check nulls against: equal to the
/// schema's, in storage that no other thread's plans share.
@Suite("Read steps")
struct ReadStepsTests {
  /// Where a string's bytes are (nil for a small string, held in the value itself).
  static func storage(_ string: String) -> UnsafeRawPointer? {
    string.utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) } ?? nil
  }

  @Test("a type is copied whole, a long name into storage of its own; the element type is the list's")
  func ownedTypes() {
    let long = String(repeating: "CalendarProvider", count: 2)
    let type = TypeReference.nonNull(.list(.nonNull(.named(long))))
    let owned = ReadSteps.owned(type)
    #expect(owned == type)
    #expect(ReadSteps.owned(.named("Day")) == .named("Day"))
    guard case .nonNull(.list(.nonNull(.named(let name)))) = owned else {
      Issue.record("\(owned)")
      return
    }
    #expect(Self.storage(name) != nil && Self.storage(name) != Self.storage(long))
    #expect(ReadSteps.elementType(of: owned) == .nonNull(.named(long)))
    #expect(ReadSteps.elementType(of: .named(long)) == nil)
  }
}
