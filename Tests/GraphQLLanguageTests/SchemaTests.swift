import Testing

@testable import GraphQLLanguage

@Suite("Schemas and cache directives")
struct SchemaTests {
  func schema(_ texts: String...) throws -> Schema {
    try Schema(parsing: texts.enumerated().map { Source(name: "s\($0.offset).graphqls", text: $0.element) })
  }

  @Test("the calendar schema parses with every kind of type")
  func calendarSchema() throws {
    let schema = try Schema(parsing: [
      try projectSource("Workloads/calendar/schema.graphqls"),
      try projectSource("Workloads/calendar/extensions.graphqls"),
    ])
    #expect(schema.type(named: "Item")?.kind == .object)
    #expect(schema.type(named: "IconId")?.kind == .enumeration)
    #expect(schema.type(named: "ItemsArgs")?.kind == .inputObject)
    #expect(schema.type(named: "DateTime")?.kind == .scalar)
    #expect(schema.field("items", on: "Query")?.type == .named("ItemConnection"))
    #expect(schema.typePolicy(for: "Icon")?.keyFields == ["id"])
    #expect(schema.typePolicy(for: "IconEdge") == nil)
    #expect(schema.fieldPolicy(forField: "item", on: "Query")?.keyArgs == [["args", "id"]])
  }

  @Test("extensions alone make a schema: Book keyed by id, Author by firstName and lastName")
  func extensionsAlone() throws {
    let schema = try schema(
      #"extend type Book @typePolicy(keyFields: "id")"#,
      #"extend type Author @typePolicy(keyFields: "firstName lastName")"#)
    #expect(schema.typePolicy(for: "Book")?.keyFields == ["id"])
    #expect(schema.typePolicy(for: "Author")?.keyFields == ["firstName", "lastName"])
  }

  @Test("a type inherits the policy of an interface it implements, unless it has its own")
  func interfaceInheritance() throws {
    let schema = try schema(
      """
      interface Node { id: ID! }
      type User implements Node { id: ID! name: String }
      type Post implements Node { id: ID! slug: String }
      """,
      """
      extend interface Node @typePolicy(keyFields: "id")
      extend type Post @typePolicy(keyFields: "slug")
      """)
    #expect(schema.typePolicy(for: "User")?.keyFields == ["id"])
    #expect(schema.typePolicy(for: "User")?.declaredOn == "Node")
    #expect(schema.typePolicy(for: "Post")?.keyFields == ["slug"])
  }

  @Test("a type inheriting two different policies and declaring none is an error when the schema loads")
  func conflictingPolicies() {
    let error = #expect(throws: GraphQLError.self) {
      try schema(
        """
        interface Node { id: ID! }
        interface Named { name: String! }
        type Dog implements Node & Named { id: ID! name: String! }
        """,
        """
        extend interface Node @typePolicy(keyFields: "id")
        extend interface Named @typePolicy(keyFields: "name")
        """)
    }
    #expect(
      error?.description
        == #"s0.graphqls:3:1: Type "Dog" inherits conflicting @typePolicy key fields from its interfaces "Node" (keyFields: "id") and "Named" (keyFields: "name"); give "Dog" a @typePolicy of its own"#
    )
  }

  @Test("two interfaces with the same key fields do not conflict, and an own policy settles a conflict")
  func noConflict() throws {
    let schema = try schema(
      """
      interface Node { id: ID! }
      interface Entity { id: ID! name: String! }
      interface Named { name: String! }
      type Dog implements Node & Entity { id: ID! name: String! }
      type Cat implements Node & Named { id: ID! name: String! }
      """,
      """
      extend interface Node @typePolicy(keyFields: "id")
      extend interface Entity @typePolicy(keyFields: "id")
      extend interface Named @typePolicy(keyFields: "name")
      extend type Cat @typePolicy(keyFields: "name")
      """)
    #expect(schema.typePolicy(for: "Dog")?.keyFields == ["id"])
    #expect(schema.typePolicy(for: "Cat")?.keyFields == ["name"])
  }

  @Test(
    "malformed policies are errors naming the place",
    arguments: [
      (
        "type Book { id: ID! }\nextend type Book @typePolicy(keyFields: \"isbn\")",
        #"s0.graphqls:2:18: @typePolicy on "Book" names key field "isbn", which "Book" does not have"#
      ),
      (
        "type Book { id: ID! }\nextend type Book @typePolicy(keyFields: \"\")",
        #"s0.graphqls:2:18: @typePolicy(keyFields:) is empty"#
      ),
      (
        "type Book { id: ID! }\nextend type Book @typePolicy",
        #"s0.graphqls:2:18: @typePolicy needs keyFields: a String of space-separated names"#
      ),
      (
        "type Query { book(id: ID!): Book }\ntype Book { id: ID! }\nextend type Query @fieldPolicy(forField: \"book\", keyArgs: \"isbn\")",
        #"s0.graphqls:3:19: @fieldPolicy key argument "isbn" is not an argument of "Query.book""#
      ),
      (
        "type Query { hero(input: HeroInput): Hero }\ninput HeroInput { name: String  faction: Int }\ntype Hero { name: String }\nextend type Query @fieldPolicy(forField: \"hero\", keyArgs: \"input\")",
        #"s0.graphqls:4:19: @fieldPolicy key argument "input" of "Query.hero" is the input object "HeroInput", not a scalar: name one of its fields with dot notation ("input.faction")"#
      ),
      (
        "type Query { animals(species: [String!], habitat: [String]): [Animal] }\ntype Animal { id: ID }\nextend type Query @fieldPolicy(forField: \"animals\", keyArgs: \"species habitat\")",
        #"s0.graphqls:3:19: @fieldPolicy on "Query.animals": a field returning a list needs exactly one list key argument, found 2"#
      ),
      (
        "type Book { id: ID! }\nextend interface Book @typePolicy(keyFields: \"id\")",
        #"s0.graphqls:2:8: "Book" is an object type (at s0.graphqls:1:1), not an interface type"#
      ),
      (
        "type Query { book: Book }\ntype Book implements Node { id: ID! }",
        #"s0.graphqls:2:1: "Book" implements "Node", which no schema file defines"#
      ),
      (
        "type Query { book: Book }\ntype Book { id: ID! }\nextend type Book implements Nod",
        #"s0.graphqls:3:8: "Book" implements "Nod", which no schema file defines"#
      ),
      (
        "type Query { book: Book }\ntype Node { id: ID! }\ntype Book implements Node { id: ID! }",
        #"s0.graphqls:3:1: "Book" implements "Node", which is an object type, not an interface"#
      ),
      (
        "type Query { book: Book }\ninterface A implements B { id: ID! }\ninterface B implements A { id: ID! }\ntype Book implements A & B { id: ID! }",
        #"s0.graphqls:2:1: Interface "A" implements itself (A implements B implements A): interfaces may not form a cycle"#
      ),
      (
        "type Query { book: Book }\ninterface A implements B & C { id: ID! }\ninterface B { id: ID! }\ninterface C implements D { id: ID! }\ninterface D implements C { id: ID! }\ntype Book implements A { id: ID! }",
        #"s0.graphqls:4:1: Interface "C" implements itself (C implements D implements C): interfaces may not form a cycle"#
      ),
      (
        "interface A implements A { id: ID! }",
        #"s0.graphqls:1:1: Interface "A" implements itself (A implements A): interfaces may not form a cycle"#
      ),
    ])
  func malformedPolicies(text: String, message: String) {
    let error = #expect(throws: GraphQLError.self) {
      try schema(text)
    }
    #expect(error?.description == message)
  }

  @Test("extensions alone may implement an interface no file defines: nothing says it is a typo")
  func extensionsImplementUnknown() throws {
    let schema = try schema("extend type Book implements Node @typePolicy(keyFields: \"id\")")
    #expect(schema.typePolicy(for: "Book")?.keyFields == ["id"])
  }

  @Test("field policies: several key args in order, dot notation into input objects")
  func fieldPolicies() throws {
    let schema = try schema(
      """
      type Query { animal(species: String!, habitat: String!): Animal!  pet(input: AnimalInput!): Animal! }
      input AnimalInput { id: ID! species: String! }
      type Animal { id: ID! }
      """,
      """
      extend type Query @fieldPolicy(forField: "animal", keyArgs: "species habitat")
      extend type Query @fieldPolicy(forField: "pet", keyArgs: "input.species")
      """)
    #expect(schema.fieldPolicy(forField: "animal", on: "Query")?.keyArgs == [["species"], ["habitat"]])
    #expect(schema.fieldPolicy(forField: "pet", on: "Query")?.keyArgs == [["input", "species"]])
  }

  @Test("type conditions: objects, interfaces, unions, and nil when the schema cannot tell")
  func typeConditions() throws {
    let schema = try schema(
      """
      interface Pet { id: ID! }
      type Dog implements Pet { id: ID! }
      type Cat implements Pet { id: ID! }
      type Hamster { id: ID! }
      union ClassroomPets = Cat | Hamster
      """)
    #expect(schema.typeCondition("Pet", appliesTo: "Dog") == true)
    #expect(schema.typeCondition("Pet", appliesTo: "Hamster") == false)
    #expect(schema.typeCondition("ClassroomPets", appliesTo: "Cat") == true)
    #expect(schema.typeCondition("ClassroomPets", appliesTo: "Dog") == false)
    #expect(schema.typeCondition("Dog", appliesTo: "Cat") == false)
    #expect(schema.typeCondition("Unknown", appliesTo: "Cat") == nil)
    #expect(Schema.empty.typeCondition("Pet", appliesTo: "Dog") == nil)
    #expect(schema.interfaces(of: "Dog") == ["Pet"])
    #expect(schema.unions(containing: "Cat") == ["ClassroomPets"])
  }
}
