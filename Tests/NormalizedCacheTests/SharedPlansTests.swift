import GraphQLLanguage
import Testing

@testable import NormalizedCache

@Suite("Plans that share their variable-free selections")
struct SharedPlansTests {
  static let schema = """
    type Query { feed(page: Int): [Post]  post(id: ID): Post }
    type Post { id: ID  title: String  comments(first: Int): [Comment]  author: Author }
    type Comment { id: ID  text: String }
    type Author { id: ID  name: String }
    extend type Post @typePolicy(keyFields: "id")
    extend type Comment @typePolicy(keyFields: "id")
    extend type Author @typePolicy(keyFields: "id")
    """

  // Below `feed`: no variable (shared, and so is `author` below it). Below `post`: `$n` and, through
  // the fragment, `$withName` (its own). Below `comments(first: $n)`: no variable (shared: the
  // field's key is rendered in `post`'s selection, which is the plan's own).
  static let operation = """
    query Q($page: Int, $n: Int, $withName: Boolean!) {
      feed(page: $page) { id title author { id name } }
      post(id: "p9") { id comments(first: $n) { id text } ...AuthorName }
    }
    fragment AuthorName on Post { author { id name @include(if: $withName) } }
    """

  static func response(page: Int) -> String {
    """
    {"feed": [{"id": "p\(page)", "title": "T\(page)", "author": {"id": "a1", "name": "Ann"}}],
     "post": {"id": "p9", "comments": [{"id": "c1", "text": "hi"}], "author": {"id": "a2", "name": "Bo"}}}
    """
  }

  static let firstVariables: JSONObject = ["page": 1, "n": 2, "withName": true]
  static let secondVariables: JSONObject = ["page": 2, "n": 1, "withName": false]

  func normalize(_ plan: OperationPlan, page: Int) throws -> RecordSet {
    try Normalizer(strategy: .typePolicy).normalize(try JSONParser.parse(Self.response(page: page), file: "r.json"), plan: plan)
      .records
  }

  /// Two plans of the operation, with the first and the second variables, sharing.
  static func sharingPlans() throws -> (SharedPlans, OperationPlan, OperationPlan) {
    let document = try ExecutableDocument(parsing: [Source(name: "q.graphql", text: operation)])
    let plans = SharedPlans(document: document, schema: try makeSchema(schema))
    return (plans, try plans.plan(variables: firstVariables), try plans.plan(variables: secondVariables))
  }

  @Test("each plan writes what a plan of its own would, with its own variables; three selections are shared")
  func sameRecordsAsOwnPlans() throws {
    let (plans, first, second) = try Self.sharingPlans()

    let firstRecords = try normalize(first, page: 1)
    let secondRecords = try normalize(second, page: 2)
    #expect(plans.sharedCount == 3)

    let own = { (variables: JSONObject) in
      try OperationPlan(document: plans.document, schema: plans.schema, variables: variables)
    }
    #expect(firstRecords == (try normalize(try own(Self.firstVariables), page: 1)))
    #expect(secondRecords == (try normalize(try own(Self.secondVariables), page: 2)))

    // What the variables change, by hand: the root field keys, `comments`' key, `name` dropped.
    #expect(firstRecords["QUERY_ROOT"]?["feed(page:1)"] == .list([.reference("Post:p1")]))
    #expect(secondRecords["QUERY_ROOT"]?["feed(page:2)"] == .list([.reference("Post:p2")]))
    #expect(firstRecords["Post:p9"]?["comments(first:2)"] == .list([.reference("Comment:c1")]))
    #expect(secondRecords["Post:p9"]?["comments(first:1)"] == .list([.reference("Comment:c1")]))
    #expect(firstRecords["Author:a2"]?["name"] == .string("Bo"))
    #expect(secondRecords["Author:a2"]?["name"] == nil)
    #expect(secondRecords["Author:a2"]?["id"] == .string("a2"))
    // Below the shared selections, both write the same fields.
    #expect(secondRecords["Author:a1"] == firstRecords["Author:a1"])
    #expect(secondRecords["Post:p2"]?["title"] == .string("T2"))
  }

  @Test("a read through a plan sharing selections with the plan that wrote returns each plan's own data")
  func readsBack() throws {
    let (_, first, second) = try Self.sharingPlans()
    let cache = InMemoryNormalizedCache()
    try cache.merge(records: try normalize(first, page: 1))
    try cache.merge(records: try normalize(second, page: 2))

    let firstRead = try CacheReader(cache: cache).read(first).data
    let secondRead = try CacheReader(cache: cache).read(second).data
    let expectedFirst = try JSONParser.parse(Self.response(page: 1), file: "r.json")
    #expect(firstRead.map(JSONValue.object) == expectedFirst)
    // The second plan does not select the post author's name.
    let expectedSecond = try JSONParser.parse(
      """
      {"feed": [{"id": "p2", "title": "T2", "author": {"id": "a1", "name": "Ann"}}],
       "post": {"id": "p9", "comments": [{"id": "c1", "text": "hi"}], "author": {"id": "a2"}}}
      """, file: "r.json")
    #expect(secondRead.map(JSONValue.object) == expectedSecond)
  }

  @Test("a selection is shared only when no fragment it spreads, however deep, uses a variable")
  func variablesThroughFragments() throws {
    let document = try ExecutableDocument(parsing: [
      Source(
        name: "q.graphql",
        text: """
          query Q($n: Int) { post(id: "1") { ...A } other: post(id: "2") { ...C } }
          fragment A on Post { ...B }
          fragment B on Post { comments(first: $n) { id } }
          fragment C on Post { id title }
          """)
    ])
    let plans = SharedPlans(document: document)
    let operation = try document.operation(named: "Q")
    let field = { (name: String) -> [[Selection]] in
      guard
        case .field(let post) = operation.selectionSet.first(where: {
          if case .field(let field) = $0 { return field.responseKey == name }
          return false
        })
      else { return [] }
      return [post.selectionSet!]
    }
    #expect(!plans.usesNoVariables(field("post")))
    #expect(plans.usesNoVariables(field("other")))
  }
}
