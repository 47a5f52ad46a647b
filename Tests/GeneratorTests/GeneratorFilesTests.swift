import Foundation
import Generator
import GraphQLLanguage
import NormalizedCache
import Results
import Support
import Testing

@Suite("Writing a generated workload as files")
struct GeneratorFilesTests {
  @Test("write(to:) writes the schema, operations, responses and a recorded workload.json that replays them")
  func writesRecordedWorkload() throws {
    let workload = try GeneratorTestSupport.make(seed: 8) {
      $0.responses = 5
      $0.operations = 3
    }
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent(
        "cachebench-generator-\(ProcessInfo.processInfo.processIdentifier)-\(UInt64.random(in: 0...UInt64.max))")
    defer { try? FileManager.default.removeItem(at: directory) }
    try workload.write(to: directory, name: "small")
    // Writing again replaces every file in place.
    try workload.write(to: directory, name: "small")

    func read(_ path: String) throws -> [UInt8] {
      Array(try Data(contentsOf: directory.appendingPathComponent(path)))
    }
    let manifest = try #require(try JSONParser.parse(try read("workload.json")).objectValue)
    #expect(manifest.keys == ["name", "seed", "recorded"])
    #expect(manifest["name"] == "small")
    #expect(manifest["seed"] == 8)
    let recorded = try #require(manifest["recorded"]?.objectValue)
    #expect(recorded["schema"] == ["schema.graphqls", "extensions.graphqls"])
    #expect(try read("schema.graphqls") == Array(workload.schemaSDL.utf8))
    // Every file ends with a line end, as every file cachebench writes.
    let operations = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("operations").path).sorted()
    for path in ["schema.graphqls", "extensions.graphqls", "workload.json", "responses/00000.json", "operations/" + operations[0]] {
      #expect(try read(path).last == 0x0A, "\(path)")
    }
    #expect(try read("extensions.graphqls") == Array(workload.extensionsSDL.utf8))

    let sources = try ["schema.graphqls", "extensions.graphqls"].map {
      Source(name: $0, text: String(decoding: try read($0), as: UTF8.self))
    }
    let schema = try Schema(parsing: sources)
    let entries = try #require(recorded["operations"]?.arrayValue)
    #expect(entries.count == workload.responseCount)
    let cache = InMemoryNormalizedCache()
    for (index, entry) in entries.enumerated() {
      let entry = try #require(entry.objectValue)
      #expect(entry.keys == ["document", "operationName", "variables", "response"])
      let response = workload.response(at: index)
      let documentPath = try #require(entry["document"]?.stringValue)
      let responsePath = try #require(entry["response"]?.stringValue)
      #expect(responsePath == String(format: "responses/%05d.json", index))
      #expect(try read(responsePath) == response.bytes + [0x0A])
      let text = String(decoding: try read(documentPath), as: UTF8.self)
      let document = try ExecutableDocument(parsing: [Source(name: documentPath, text: text)])
      let plan = try OperationPlan(
        document: document, operationName: entry["operationName"]?.stringValue, schema: schema,
        variables: try #require(entry["variables"]?.objectValue))
      let normalized = try Normalizer(strategy: .typePolicy).normalize(
        try JSONParser.parse(try read(responsePath), file: responsePath), plan: plan)
      try cache.merge(records: normalized.records)
    }
    let leftovers = try FileManager.default.contentsOfDirectory(
      atPath: directory.appendingPathComponent("responses").path
    )
    .filter { $0.hasPrefix(".") }
    #expect(leftovers.isEmpty)
  }

  @Test("a directory that cannot be created is an error naming it")
  func reportsUnwritableDirectory() throws {
    let workload = try GeneratorTestSupport.make { $0.responses = 1 }
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "cachebench-not-a-dir-\(UInt64.random(in: 0...UInt64.max))")
    _ = FileManager.default.createFile(atPath: file.path, contents: Data("x".utf8))
    defer { try? FileManager.default.removeItem(at: file) }
    let error = #expect(throws: OutputError.self) { try workload.write(to: file.appendingPathComponent("out")) }
    #expect(error?.description == "cannot write \(file.path)/out: Not a directory")
  }
}
