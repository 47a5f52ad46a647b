import Foundation
import GraphQLLanguage
import NormalizedCache
import Testing

/// Issue 3's round trip: for every response written, reading its operation back returns exactly
/// the selected data, aliases restored, under every key strategy and every store.
@Suite("Round trip of the calendar corpus")
struct CalendarRoundTripTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Workloads/calendar")

  static func source(_ name: String) throws -> Source {
    Source(name: name, text: try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8))
  }

  static func plan() throws -> OperationPlan {
    let files = [
      "ItemsQuery", "ItemFragment", "ItemTypeFragment", "IconFragment", "CategoryFragment", "CalendarFragment",
      "CalendarProviderFragment", "DateTimeFragment", "PageInfoFragment",
    ]
    let document = try ExecutableDocument(parsing: files.map { try source("\($0).graphql") })
    let schema = try Schema(parsing: [try source("schema.graphqls"), try source("extensions.graphqls")])
    return try OperationPlan(
      document: document, schema: schema,
      variables: ["endingAfter": "2022-01-01T00:00:00Z", "startingBefore": "2023-01-01T00:00:00Z"])
  }

  static let strategies: [(String, KeyStrategy)] = [
    ("path", .path), ("typePolicy", .typePolicy), ("programmatic", .programmatic(BuiltInResolvers.id)),
  ]

  @Test(
    "reads back equal to the response's selected data",
    arguments: StoreConfiguration.all.filter { if case .sqlite(_, _, .delete) = $0.kind { return false } else { return true } },
    [0, 1, 2])
  func roundTrip(configuration: StoreConfiguration, strategyIndex: Int) throws {
    let (name, strategy) = Self.strategies[strategyIndex]
    let plan = try Self.plan()
    let bytes = try Data(contentsOf: Self.root.appendingPathComponent("calendar_response.json"))
    let response = try JSONParser.parse(Array(bytes), file: "calendar_response.json")
    let directory = try TemporaryDirectory()
    let store = try configuration.makeStore(in: directory)
    let normalized = try Normalizer(strategy: strategy).normalize(response, plan: plan)
    try store.merge(records: normalized.records)
    #expect(try store.recordCount() == [5929, 2163, 1109][strategyIndex])
    let result = try CacheReader(cache: store, useFieldPolicies: name != "path").read(plan)
    let expected = try ResponseProjection.selectedData(of: response, plan: plan)
    #expect(result.data == expected)
    // The aliases of ItemsQuery: none; so check a value deep in the tree to be sure it is all there.
    guard case .object(let items)? = result.data?["items"], case .array(let edges)? = items["edges"] else {
      Issue.record("no edges read back")
      return
    }
    #expect(edges.count == 249)
  }
}
