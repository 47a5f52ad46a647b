import GraphQLLanguage
import Testing

@testable import NormalizedCache

@Suite("Field keys")
struct FieldKeyTests {
  /// The field key of the first field of `{ field }` under these variables.
  func key(_ field: String, variables: JSONObject = [:], definitions: String = "") throws -> String {
    let records = try normalize("query Q\(definitions) { \(field) }", #"{"f": 1}"#, variables: variables)
    let keys = try #require(records["QUERY_ROOT"]).fieldKeys
    return try #require(keys.first)
  }

  /// Every case of Apollo iOS's `CacheKeyForFieldTests` and `SelectionField_CacheKeyForFieldTests`
  /// (apollo-ios-dev, Tests/ApolloTests), their arguments written as GraphQL; the expected
  /// strings are Apollo's own.
  @Test(
    "Apollo's CacheKeyForField cases",
    arguments: [
      // Every field here is aliased `f` (the response is `{"f": 1}`): the alias never shows.
      // testFieldWithNameOnly, testFieldWithResponseNameOnly, testFieldWithAlias,
      // testFieldWithArgumentOmitted (empty arguments are no arguments)
      ("f: hero", "hero"),
      ("f: hero(episode: JEDI)", "hero(episode:JEDI)"),  // testFieldWithAliasAndArgument
      (#"f: hero(episode: "JEDI")"#, "hero(episode:JEDI)"),  // testFieldWithStringArgument
      ("f: hero(episode: 1)", "hero(episode:1)"),  // testFieldWithIntegerArgument
      ("f: hero(episode: 1.99)", "hero(episode:1.99)"),  // testFieldWithFloatArgument
      ("f: hero(episode: null)", "hero(episode:null)"),  // testFieldWithNullArgument
      ("f: hero(nested: {foo: 1, bar: null})", "hero([nested:bar:null,foo:1])"),  // testFieldWithNestedNullArgument
      ("f: hero(episodes: [1, 1, 2])", "hero(episodes:[1, 1, 2])"),  // testFieldWithListArgument
      (#"f: hero(nested: {foo: 1, bar: "2"})"#, "hero([nested:bar:2,foo:1])"),  // testFieldWithDictionaryArgument
    ])
  func apolloCases(field: String, expected: String) throws {
    #expect(try key(field) == expected)
  }

  @Test("Apollo's cases with variables: substituted, also inside input objects; omitted drops, null stays")
  func apolloVariableCases() throws {
    // testFieldWithDictionaryArgumentWithVariables
    #expect(
      try key("f: hero(nested: {foo: $a, bar: $b})", variables: ["a": 1, "b": "2"], definitions: "($a: Int, $b: String)")
        == "hero([nested:bar:2,foo:1])")
    // testFieldWithVariableArgument
    #expect(
      try key("f: hero(episode: $episode)", variables: ["episode": "JEDI"], definitions: "($episode: Episode)") == "hero(episode:JEDI)")
    // testFieldWithVariableArgumentWithNil (GraphQLNullable.none: the variable is not given)
    #expect(try key("f: hero(episode: $episode)", definitions: "($episode: Episode)") == "hero")
    // testFieldWithVariableArgumentWithNull
    #expect(try key("f: hero(episode: $episode)", variables: ["episode": nil], definitions: "($episode: Episode)") == "hero(episode:null)")
    // testFieldWithVariableArgumentWithNestedNull
    #expect(
      try key("f: hero(nested: {foo: $a, bar: $b})", variables: ["a": 1, "b": nil], definitions: "($a: Int, $b: String)")
        == "hero([nested:bar:null,foo:1])")
  }

  @Test("Apollo's order independence: of arguments, and of input-object fields")
  func apolloOrderIndependence() throws {
    // testFieldWithMultipleArgumentsIsOrderIndependent
    #expect(try key(#"f: hero(foo: "a", bar: "b")"#) == key(#"f: hero(bar: "b", foo: "a")"#))
    #expect(try key(#"f: hero(foo: "a", bar: "b")"#) == "hero(bar:b,foo:a)")
    // testFieldWithInputObjectArgumentIsOrderIndependent
    let first = try key(#"f: hero(episode: "JEDI", nested: {foo: "a", bar: "b"})"#)
    #expect(try first == key(#"f: hero(episode: "JEDI", nested: {bar: "b", foo: "a"})"#))
    #expect(first == "hero(episode:JEDI,[nested:bar:b,foo:a])")
  }

  @Test(
    "renders every other shape as Apollo's orderIndependentKey would",
    arguments: [
      ("f: a(n: 42, m: -7)", "a(m:-7,n:42)"),
      ("f: a(price: 1.99, height: 175.2, big: 1e21, one: 1.0)", "a(big:1e+21,height:175.2,one:1.0,price:1.99)"),
      ("f: a(yes: true, no: false, nothing: null)", "a(no:false,nothing:null,yes:true)"),
      // Nested input objects: brackets inside brackets (docs/keys.md's example).
      ("f: f(input: {x: 2, inner: {a: 1}})", "f([input:[inner:a:1],x:2])"),
      (#"f: a(input: {z: 1, a: {y: "b", x: [true]}})"#, "a([input:[a:x:[true],y:b],z:1])"),
      // A list of input objects: every object's sorted fields, joined by "," with no brackets.
      ("f: f(ids: [{b: 2, a: 1}, {a: 3}])", "f(ids:[a:1,b:2,a:3])"),
      (#"f: a(list: [1, "two", THREE, null, [4, 5]])"#, "a(list:[1, two, THREE, null, [4, 5]])"),
      ("f: a(list: [])", "a(list:[])"),
      (#"f: a(s: "a,b:c")"#, "a(s:a,b:c)"),
      // Argument names sort by their own name, wherever the brackets fall.
      ("f: a(b: 1, a: {c: 2})", "a([a:c:2],b:1)"),
    ])
  func otherShapes(field: String, expected: String) throws {
    #expect(try key(field) == expected)
  }

  @Test("substitutes variables of every JSON kind; input objects built from variables have sorted keys")
  func variables() throws {
    let definitions = "($s: String, $i: Int, $d: Float, $b: Boolean, $l: [ID], $o: In, $n: String)"
    let variables: JSONObject = ["s": "x", "i": 3, "d": 2.5, "b": false, "l": ["1", 2], "o": ["k2": 1, "k1": ["z": nil]], "n": nil]
    #expect(
      try key("f: a(s: $s, i: $i, d: $d, b: $b, l: $l, o: $o, n: $n)", variables: variables, definitions: definitions)
        == "a(b:false,d:2.5,i:3,l:[1, 2],n:null,[o:[k1:z:null],k2:1],s:x)")
    #expect(
      try key("f: a(input: {after: $s, filter: {max: $i, flag: true}})", variables: variables, definitions: definitions)
        == "a([input:after:x,[filter:flag:true,max:3]])")
    #expect(
      try key("f: a(list: [$i, $s, 7])", variables: variables, definitions: definitions) == "a(list:[3, x, 7])")
  }

  @Test("an omitted variable with no default drops its argument, input field or list element; all arguments omitted leaves the bare name")
  func omittedVariables() throws {
    #expect(try key("f: a(x: $x, y: 1)", definitions: "($x: Int)") == "a(y:1)")
    #expect(try key("f: a(x: $x)", definitions: "($x: Int)") == "a")
    #expect(try key("f: a(input: {x: $x, y: 2})", definitions: "($x: Int)") == "a([input:y:2])")
    #expect(try key("f: a(list: [1, $x, 3])", definitions: "($x: Int)") == "a(list:[1, 3])")
    #expect(try key("f: a(x: $x)", definitions: "($x: Int = 5)") == "a(x:5)")
    #expect(try key("f: a(x: $x)", variables: ["x": 6], definitions: "($x: Int = 5)") == "a(x:6)")
  }

  @Test("a missing required variable is an error")
  func missingRequiredVariable() {
    let error = #expect(throws: NormalizationError.self) {
      try key("f: a(x: $x)", definitions: "($x: Int!)")
    }
    #expect(error?.description == "missing required variable $x of type Int! of operation Q")
  }

  @Test("aliases never appear in keys; two aliased selections with equal arguments write one field key")
  func aliases() throws {
    let records = try normalize(
      #"{ first: book(id: 1) { title } second: book(id: 1) { year } other: book(id: 2) { title } }"#,
      #"{"first": {"title": "T"}, "second": {"year": 1999}, "other": {"title": "U"}}"#)
    #expect(
      records["QUERY_ROOT"]
        == Record(
          key: "QUERY_ROOT", ["book(id:1)": .reference("QUERY_ROOT.book(id:1)"), "book(id:2)": .reference("QUERY_ROOT.book(id:2)")]))
    #expect(records["QUERY_ROOT.book(id:1)"] == Record(key: "QUERY_ROOT.book(id:1)", ["title": "T", "year": 1999]))
  }

  @Test("two aliases of one leaf field write one field, in the first one's place, with the last one's value")
  func aliasedLeaves() throws {
    let records = try normalize(#"{ a: name id b: name }"#, #"{"a": "first", "id": "1", "b": "last"}"#)
    #expect(records["QUERY_ROOT"]?.fields.map(\.key) == ["name", "id"])
    #expect(records["QUERY_ROOT"]?["name"] == "last")
  }

  @Test("the calendar's nested input object built from variables, with the @optional variable omitted")
  func calendarRootFieldKey() throws {
    let records = try normalizeCalendar(.path)
    #expect(
      records["QUERY_ROOT"]?.fieldKeys
        == ["items([args:[filterBy:deleted:false,endingAfter:2022-01-01T00:00:00Z,startingBefore:2023-01-01T00:00:00Z]])"])
  }
}
