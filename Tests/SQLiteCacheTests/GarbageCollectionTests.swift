import Foundation
import GraphQLLanguage
import NormalizedCache
import SQLiteCache
import Testing

/// A fresh directory for one test's files, removed at the end.
func withScratchDirectory<T>(_ body: (URL) throws -> T) throws -> T {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gc-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  return try body(directory)
}

/// The stores garbage collection runs on: memory, and SQLite on a file in the compact and apollo
/// layouts.
enum CollectableStore: String, CaseIterable, Sendable {
  case memory, compact, apollo

  func make(in directory: URL) throws -> any KeyEnumerableCache {
    switch self {
    case .memory: InMemoryNormalizedCache()
    case .compact: try SQLiteNormalizedCache(path: directory.appendingPathComponent("c.sqlite").path, options: .init(layout: .compact))
    case .apollo: try SQLiteNormalizedCache(path: directory.appendingPathComponent("a.sqlite").path, options: .init(layout: .apollo))
    }
  }
}

@Suite("Garbage collection")
struct GarbageCollectionTests {
  /// QUERY_ROOT reaches A:1 and, through its list, B:1 and Gone:1 (which the store lacks); A:1
  /// reaches C:1. Nothing reaches D:1 (it references A:1, which does not make it reachable) or E:1.
  static let records = [
    Record(key: RootKey.query, ["a": .reference("A:1"), "list": .list([.reference("B:1"), .reference("Gone:1")])]),
    Record(key: "A:1", ["x": 1, "next": .reference("C:1")]),
    Record(key: "B:1", ["z": 3]),
    Record(key: "C:1", ["y": 2, "back": .reference("A:1")]),
    Record(key: "D:1", ["w": .reference("A:1")]),
    Record(key: "E:1", ["v": "five"]),
  ]

  @Test("a case counted by hand: D:1 and E:1 removed, one dangling reference, four records kept", arguments: CollectableStore.allCases)
  func byHand(store kind: CollectableStore) throws {
    try withScratchDirectory { directory in
      let store = try kind.make(in: directory)
      try store.merge(records: RecordSet(records: Self.records))
      let report = try GarbageCollection.collect(in: store)
      #expect(report.recordsRemoved == 2)
      // "D:1" and "E:1": 3 bytes of key each, and their fields as the record encoding stores them.
      #expect(report.bytesFreed == 3 + Self.records[4].encodedFields.count + 3 + Self.records[5].encodedFields.count)
      #expect(report.danglingReferences == 1)
      #expect(report.reachable == 4)
      #expect(try store.allKeys().sorted() == ["A:1", "B:1", "C:1", RootKey.query])
      // A second collection finds nothing more.
      let again = try GarbageCollection.collect(in: store)
      #expect(again.recordsRemoved == 0 && again.danglingReferences == 1 && again.reachable == 4)
    }
  }

  @Test("an empty store, and a store without roots: everything unreachable goes", arguments: CollectableStore.allCases)
  func noRoots(store kind: CollectableStore) throws {
    try withScratchDirectory { directory in
      let store = try kind.make(in: directory)
      #expect(try GarbageCollection.collect(in: store) == GarbageCollection.Report())
      try store.merge(records: RecordSet(records: Array(Self.records.dropFirst())))
      let report = try GarbageCollection.collect(in: store)
      #expect(report.recordsRemoved == 5 && report.reachable == 0)
      #expect(try store.allKeys().isEmpty)
    }
  }

  /// The list shrinks from three items to two: under path keys its third element's record,
  /// `QUERY_ROOT.items.2`, is named by nothing; under type policies `Item:3` is.
  @Test(
    "a refetch whose list lost an element leaves one unreachable record, under path and typePolicy keys",
    arguments: [("path", "QUERY_ROOT.items.2"), ("typePolicy", "Item:3")])
  func shrunkList(strategyName: String, orphan: CacheKey) throws {
    let strategy: KeyStrategy = strategyName == "path" ? .path : .typePolicy
    let schema = try Schema(parsing: [
      Source(name: "s.graphqls", text: "type Query { items: [Item] } type Item { id: ID name: String }"),
      Source(name: "e.graphqls", text: #"extend type Item @typePolicy(keyFields: "id")"#),
    ])
    let document = try ExecutableDocument(parsing: [Source(name: "q.graphql", text: "query Q { items { __typename id name } }")])
    let plan = try OperationPlan(document: document, schema: schema)
    func response(_ ids: [Int]) throws -> JSONValue {
      let items = ids.map { #"{"__typename": "Item", "id": "\#($0)", "name": "n\#($0)"}"# }
      return try JSONParser.parse(#"{"data": {"items": [\#(items.joined(separator: ", "))]}}"#, file: "r.json")
    }
    let normalizer = Normalizer(strategy: strategy)
    for kind in CollectableStore.allCases {
      try withScratchDirectory { directory in
        let store = try kind.make(in: directory)
        try store.merge(records: normalizer.normalize(try response([1, 2, 3]), plan: plan).records)
        try store.merge(records: normalizer.normalize(try response([1, 2]), plan: plan).records)
        #expect(try store.allKeys().contains(orphan))
        let report = try GarbageCollection.collect(in: store)
        #expect(report.recordsRemoved == 1, "\(kind)")
        #expect(report.danglingReferences == 0)
        #expect(try !store.allKeys().contains(orphan))
        #expect(try store.allKeys().count == 3, "the root and two items")
      }
    }
  }
}
