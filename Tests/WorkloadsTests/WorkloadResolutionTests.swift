import Foundation
import GraphQLLanguage
import NormalizedCache
import Results
import Support
import Testing

@testable import Workloads

/// A fresh directory with `files` in it, removed when the test ends.
private final class Directory {
  let url: URL

  init(_ files: [String: String]) throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("workloads-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    for (name, contents) in files {
      try contents.write(to: url.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }
  }

  func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  deinit { try? FileManager.default.removeItem(at: url) }
}

/// The key of the one object of `{ pet { __typename id } }` under `strategy`.
private func petKey(_ strategy: KeyStrategy) throws -> CacheKey? {
  let schema = try Schema(parsing: [
    Source(
      name: "s.graphqls",
      text: "interface Animal { id: ID! } type Dog implements Animal { id: ID! } type Query { pet: Animal }")
  ])
  let document = try ExecutableDocument(parsing: [Source(name: "q.graphql", text: "{ pet { __typename id } }")])
  let plan = try OperationPlan(document: document, schema: schema)
  let response = try JSONParser.parse(#"{"pet": {"__typename": "Dog", "id": "1"}}"#, file: "r.json")
  return try Normalizer(strategy: strategy).normalize(response, plan: plan).records.keys.last
}

@Suite("Workloads: strategies resolved once, quick runs, recorded operations loaded one way")
struct WorkloadResolutionTests {
  @Test("the programmatic strategy carries the resolver the file names")
  func resolverResolvedAtLoad() throws {
    let directory = try Directory([
      "w.json": #"{"name": "w", "seed": 1, "generator": {}, "keys": ["programmatic"], "resolver": "interface-group"}"#
    ])
    let workload = try Workload.load(directory.path("w.json"))
    #expect(try petKey(workload.keys[0].strategy) == "Animal:1")
    #expect(try petKey(.programmatic(BuiltInResolvers.id)) == "Dog:1")
  }

  @Test("a library user's own resolvers are found by name")
  func customResolvers() throws {
    let directory = try Directory([
      "w.json": #"{"name": "w", "seed": 1, "generator": {}, "keys": ["programmatic"], "resolver": "pets"}"#
    ])
    var resolvers = CacheKeyResolvers.builtIn
    resolvers.register("pets") { _, object in object.string("id").map { CacheKeyInfo(id: "pet-" + $0) } }
    let workload = try Workload.load(directory.path("w.json"), resolvers: resolvers)
    #expect(try petKey(workload.keys[0].strategy) == "Dog:pet-1")
    let error = #expect(throws: WorkloadError.self) { try Workload.load(directory.path("w.json")) }
    #expect(error?.message == #"unknown key resolver "pets"; known resolvers: id, interface-group, seed-books"#)
  }

  @Test("quick keeps a tenth of generated responses, recorded operations and store records, and one repetition")
  func quick() throws {
    let operations = (0..<25).map { #"{"document": "q.graphql", "response": "r\#($0).json"}"# }
    let directory = try Directory([
      "g.json": #"{"name": "g", "seed": 1, "generator": {"responses": 45}, "repetitions": 5, "warmup": 2}"#,
      "r.json": #"{"name": "r", "seed": 1, "recorded": {"operations": [\#(operations.joined(separator: ","))]}}"#,
      "s.json": #"{"name": "s", "seed": 1, "storeRecords": {"count": 5000, "pointLoads": 5000}}"#,
    ])
    let generated = try Workload.load(directory.path("g.json")).quick()
    guard case .generator(let config) = generated.source else { throw Failure("not a generator") }
    #expect(config.responses == 4)
    #expect(generated.repetitions == 1)
    #expect(generated.warmup == 0)
    guard case .recorded(let recorded) = try Workload.load(directory.path("r.json")).quick().source else {
      throw Failure("not recorded")
    }
    #expect(recorded.operations.map(\.response) == [directory.path("r0.json"), directory.path("r1.json")])
    guard case .storeRecords(let records) = try Workload.load(directory.path("s.json")).quick().source else {
      throw Failure("not store records")
    }
    #expect(records.count == 500)
    #expect(records.pointLoads == 1000)
  }

  @Test("a recorded operation loads its plan and response, and names the file at fault")
  func recordedOperation() throws {
    let directory = try Directory([
      "q.graphql": "query Q($id: ID!) { book(id: $id) { title } }",
      "r.json": #"{"data": {"book": {"title": "Emma"}}}"#,
      "bad.json": "{",
    ])
    var operation = RecordedOperation(
      documents: [directory.path("q.graphql")], variables: ["id": "1"], response: directory.path("r.json"))
    let loaded = try operation.load(schema: .empty)
    #expect(loaded.responseBytes == 37)
    #expect(loaded.plan.rootKey == "QUERY_ROOT")

    operation.variables = [:]
    let unplanned = #expect(throws: InputDataError.self) { try operation.load(schema: .empty) }
    #expect(unplanned?.file == directory.path("q.graphql"))
    #expect(unplanned?.exitCode == .dataError)

    operation.variables = ["id": "1"]
    operation.response = directory.path("gone.json")
    let missing = #expect(throws: InputError.self) { try operation.load(schema: .empty) }
    #expect(missing?.description == "cannot open '\(directory.path("gone.json"))': No such file or directory")

    operation.response = directory.path("bad.json")
    let malformed = #expect(throws: GraphQLError.self) { try operation.load(schema: .empty) }
    #expect(malformed.map { ExitCode(for: $0) } == .dataError)
  }
}

private struct Failure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
