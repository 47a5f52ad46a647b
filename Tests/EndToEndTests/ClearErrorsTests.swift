import Foundation
import Testing

/// Issue 38, "clear errors where today's are puzzling, or none is given": each case ends with its
/// documented code and a message that names the file, and where it applies the line and the key
/// (docs/command-line.md#hostile-input).
@Suite("Clear errors", .timeLimit(.minutes(10)))
struct ClearErrorsTests {
  typealias Case = HostileInputTests.Case

  static let schema = "type Query { book(id: ID!): Book  books: [Book] }\ntype Book { id: ID!  title: String }\n"
  static let query = "query Q { book(id: \"1\") { id title } }\n"
  static let response = #"{"data": {"book": {"id": "1", "title": "Dune"}}}"# + "\n"
  static let apollo = fixtures + "/apollo"
  /// The fixture's samples with the first one, 22,000 ns, made -22,000.
  static let negativeSample = ((try? String(contentsOfFile: apollo + "/tier2-samples.csv", encoding: .utf8)) ?? "")
    .replacingOccurrences(of: "batch_load_100_records,ns,0,22000\n", with: "batch_load_100_records,ns,0,-22000\n")

  /// `normalize` of `q.graphql` and `r.json` under `s.graphqls`.
  static func normalize(_ name: String, schema: String = schema, query: String = query, response: String = response, stderr: String) -> Case
  {
    Case(
      name: name, files: ["s.graphqls": schema, "q.graphql": query, "r.json": response],
      arguments: ["normalize", "--schema", "s.graphqls", "--operation", "q.graphql", "--response", "r.json"], status: 65, stderr: stderr)
  }

  static let cases: [Case] = [
    normalize(
      "a directive argument given twice",
      schema: "type Query { book(id: ID!): Book }\ntype Book {\n  id: ID!\n  title: String @cacheControl(maxAge: 60, maxAge: 10)\n}\n",
      stderr: #"Error: s.graphqls:4:43: There can be only one argument named "maxAge""# + "\n"),
    normalize(
      "@cacheControlField on a field definition",
      schema:
        "type Query { book(id: ID!): Book }\ntype Book {\n  id: ID!\n  title: String @cacheControlField(name: \"title\", maxAge: 5)\n}\n",
      stderr: #"Error: s.graphqls:4:17: @cacheControlField is for a type or its extension"#),
    normalize(
      "an interface no file defines", schema: "type Query { book(id: ID!): Book }\ntype Book implements Node { id: ID!  title: String }\n",
      stderr: #"Error: s.graphqls:2:1: "Book" implements "Node", which no schema file defines"# + "\n"),
    normalize(
      "interfaces in a cycle",
      schema:
        "type Query { book(id: ID!): Book }\ninterface A implements B { id: ID! }\ninterface B implements A { id: ID! }\ntype Book implements A & B { id: ID!  title: String }\n",
      stderr: #"Error: s.graphqls:2:1: Interface "A" implements itself (A implements B implements A): interfaces may not form a cycle"#
        + "\n"),
    normalize(
      "a list where the schema says an object", response: #"{"data": {"book": [{"id": "1", "title": "Dune"}]}}"#,
      stderr: #"Error: r.json: field "book" is Book in the schema, not a list, but the response has a list at data.book"# + "\n"),
    normalize(
      "an object where the schema says a list", query: "query Q { books { id title } }\n",
      response: #"{"data": {"books": {"id": "1", "title": "Dune"}}}"#,
      stderr: #"Error: r.json: field "books" is [Book] in the schema, a list, but the response has an object at data.books"# + "\n"),
    Case(
      name: "a negative sample in export --format apollo",
      files: ["s.csv": negativeSample],
      arguments: ["export", apollo + "/tier2.csv", "--format", "apollo", "--samples", "s.csv"], status: 65,
      stderr:
        "Error: s.csv: sample 0 of apollo-tier2/memory/typePolicy/tier2/batch_load_100_records (run 20261126T000000Z-seed42) is -22000 ns: a time is 0 or more\n"
    ),
    Case(
      name: "ab --shift-from a store the workloads do not have",
      files: ["w.json": NewerCommandsHostileTests.workload(stores: #"[{"kind": "memory"}, {"kind": "sqlite", "label": "disk"}]"#)],
      arguments: ["ab", "--base", binary.path, "--current", binary.path, "w.json", "--shift-from", "sqlite"], status: 64,
      stderr:
        "Error: The value 'sqlite' is invalid for '--shift-from'; expected a store of the workloads: memory, disk.\nUsage: cachebench ab "),
    Case(
      name: "a worker given a workload it cannot step",
      files: ["w.json": #"{"name": "l", "seed": 1, "lists": {"sizes": [10]}, "stores": [{"kind": "memory"}]}"#],
      arguments: ["worker", "w.json"], status: 65,
      stderr:
        "Error: w.json is a lists workload: it has no responses to merge and read step by step; a worker steps merges and reads of responses\n"
    ),
  ]

  @Test("each case: its exit code and a message naming the file, line and key", arguments: cases)
  func clearError(_ testCase: Case) async throws {
    try await expectHostile(testCase)
  }

  @Test("validate and run warn on standard error of traffic clock settings that no store with dates uses, and still run")
  func datelessClockWarnings() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let extra = #", "traffic": {"steps": 100, "ttl": "permissive"}"#
    try NewerCommandsHostileTests.workload(stores: #"[{"kind": "memory"}]"#, extra: extra).write(
      toFile: directory + "/w.json", atomically: true, encoding: .utf8)
    try NewerCommandsHostileTests.workload(stores: #"[{"kind": "memory", "dates": true}]"#, extra: extra)
      .write(toFile: directory + "/dated.json", atomically: true, encoding: .utf8)
    let warning =
      #"Warning: w.json:1:195: traffic.ttl: changes nothing here: it needs a store with "dates": true, and no store of this workload has dates"#
      + "\n"
    let validated = try await cachebench(["validate", "w.json", "dated.json"], in: directory)
    #expect(validated.status == 0, "\(validated.stderr)")
    #expect(validated.stderr == warning)
    let run = try await cachebench(["run", "w.json", "--out", "o.csv", "--no-progress"], in: directory)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr == warning)
    let dated = try await cachebench(["run", "dated.json", "--out", "d.csv", "--no-progress"], in: directory)
    #expect(dated.status == 0 && dated.stderr.isEmpty, "\(dated.stderr)")
  }

  @Test("run --history of a directory is 74, as every output that is a directory, before the run")
  func historyDirectory() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try NewerCommandsHostileTests.workload(stores: #"[{"kind": "memory"}]"#).write(
      toFile: directory + "/w.json", atomically: true, encoding: .utf8)
    try FileManager.default.createDirectory(atPath: directory + "/h", withIntermediateDirectories: true)
    let run = try await cachebench(["run", "w.json", "--out", "o.csv", "--history", "h", "--no-progress"], in: directory)
    #expect(run.status == 74)
    #expect(run.stderr == "Error: cannot write h: Is a directory\n")
    #expect(!FileManager.default.fileExists(atPath: directory + "/o.csv"))
  }
}
