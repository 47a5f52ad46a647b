import Foundation
import GraphQLLanguage
import Testing

@testable import NormalizedCache

let calendarVariables: JSONObject = ["endingAfter": "2022-01-01T00:00:00Z", "startingBefore": "2023-01-01T00:00:00Z"]

func calendarPlan() throws -> OperationPlan {
  let files = [
    "ItemsQuery", "ItemFragment", "ItemTypeFragment", "IconFragment", "CategoryFragment", "CalendarFragment",
    "CalendarProviderFragment", "DateTimeFragment", "PageInfoFragment",
  ]
  let document = try ExecutableDocument(parsing: files.map { try projectSource("Workloads/calendar/\($0).graphql") })
  let schema = try Schema(parsing: [
    try projectSource("Workloads/calendar/schema.graphqls"), try projectSource("Workloads/calendar/extensions.graphqls"),
  ])
  return try OperationPlan(document: document, schema: schema, variables: calendarVariables)
}

func calendarResponse() throws -> JSONValue {
  let bytes = try Data(contentsOf: projectRoot.appendingPathComponent("Workloads/calendar/calendar_response.json"))
  return try JSONParser.parse(Array(bytes), file: "calendar_response.json")
}

func normalizeCalendar(_ strategy: KeyStrategy) throws -> RecordSet {
  try Normalizer(strategy: strategy).normalize(try calendarResponse(), plan: try calendarPlan()).records
}

@Suite("The calendar corpus")
struct CalendarCorpusTests {
  /// Expected counts from `scripts/calendar_counts.py`, which walks the JSON with Python and a
  /// field-to-type map read by hand from the schema, none of this project's code:
  /// path 5,929 records, typePolicy 2,163, programmatic (`id`) 1,109, all with QUERY_ROOT.
  @Test(
    "normalizes under all three strategies, with the record counts an independent script finds",
    arguments: [("path", 5929), ("typePolicy", 2163), ("programmatic", 1109)])
  func recordCounts(strategyName: String, records: Int) throws {
    let strategy: KeyStrategy =
      switch strategyName {
      case "path": .path
      case "typePolicy": .typePolicy
      default: .programmatic(BuiltInResolvers.id)
      }
    let normalized = try Normalizer(strategy: strategy).normalize(try calendarResponse(), plan: try calendarPlan())
    #expect(normalized.objectCount == 5928)
    #expect(normalized.records.count == records)
  }

  @Test("entities that recur share one record: Icon:General and Category:General")
  func sharedEntities() throws {
    let records = try normalizeCalendar(.typePolicy)
    #expect(records["Icon:General"] == Record(key: "Icon:General", ["__typename": "Icon", "id": "General", "name": "General"]))
    #expect(records["Category:General"]?["icon"] == .reference("Category:General.icon"))
    #expect(records["Category:General.icon"]?["node"] == .reference("Icon:General"))
    let programmatic = try normalizeCalendar(.programmatic(BuiltInResolvers.id))
    #expect(programmatic["Category:General"]?["icon"] == .reference("IconEdge:General"))
  }
}
