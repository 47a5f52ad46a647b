import Foundation
import Testing

/// `read.fragments` and `read.watchers` on a small recorded workload whose figures are counted by
/// hand, and the errors of a read-back the schema forbids.
@Suite("cachebench run: fragment reads and watchers", .timeLimit(.minutes(10)))
struct WatchAndFragmentTests {
  static let schema = """
    type Query { a: Book  b: Book  c: Author }
    type Book { id: ID!  title: String }
    type Author { name: String }
    extend type Book @typePolicy(keyFields: "id")
    """

  /// Three one-field operations: a and b both reach Book:1, c an Author without a key.
  static func writeWorkload(in directory: String, read: String, schema: String = schema, cTitle: String = #""N""#) throws {
    let files = [
      "schema.graphqls": schema,
      "a.graphql": "query A { a { id title } }",
      "b.graphql": "query B { b { id title } }",
      "c.graphql": "query C { c { name } }",
      "a.json": #"{"data": {"a": {"id": "1", "title": "T"}}}"#,
      "b.json": #"{"data": {"b": {"id": "1", "title": "T"}}}"#,
      "c.json": #"{"data": {"c": {"name": \#(cTitle)}}}"#,
    ]
    for (name, text) in files { try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8) }
    let operations = ["a", "b", "c"].map { #"{"document": "\#($0).graphql", "response": "\#($0).json"}"# }
    let workload = """
      {"name": "w", "seed": 7, "recorded": {"schema": ["schema.graphqls"], "operations": [\(operations.joined(separator: ", "))]},
       "keys": ["path", "typePolicy"], "stores": [{"kind": "memory"}, {"kind": "sqlite"}], "repetitions": 1, "warmup": 0,
       "read": {\(read)}}
      """
    try workload.write(toFile: directory + "/w.json", atomically: true, encoding: .utf8)
  }

  @Test("invalidations per refetch, counted by hand: a shared Book:1 wakes both of its watchers, its path copies one each")
  func invalidations() async throws {
    let directory = try temporaryDirectory()
    try Self.writeWorkload(in: directory, read: #""pointLookups": 1, "fieldPolicyLookups": 0, "fragments": 4, "watchers": 3, "churn": 1"#)
    let run = try await cachebench(["run", "w.json", "--out", "w.csv", "--no-progress"], in: directory)
    #expect(run.status == 0, "\(run.stderr)")
    let rows = try CSVFile(path: directory + "/w.csv").rows
    func row(_ store: String, _ keys: String, _ phase: String, _ metric: String) -> [String: String]? {
      rows.first { $0["store"] == store && $0["keys"] == keys && $0["phase"] == phase && $0["metric"] == metric }
    }
    for store in ["memory", "sqlite"] {
      // churn 1: every refetch changes every value but id. Refetch of a: Book:1.title changes, and
      // both A and B read it under typePolicy; under path only QUERY_ROOT.a.title. Refetch of b:
      // the title changes again (T~1 -> T~2), the same watchers. Refetch of c: C alone.
      let typePolicy = try #require(row(store, "typePolicy", "watch", "invalidations"))
      #expect(typePolicy["n"] == "3")
      #expect(typePolicy["min"] == "1")
      #expect(typePolicy["max"] == "2")
      #expect(Double(typePolicy["mean"] ?? "") == 5.0 / 3.0)
      let path = try #require(row(store, "path", "watch", "invalidations"))
      #expect(path["n"] == "3")
      #expect(path["min"] == "1")
      #expect(path["max"] == "1")
      #expect(row(store, "typePolicy", "watch", "changed_share")?["mean"] == "1")
      #expect(row(store, "typePolicy", "watch", "changed_share")?["deterministic"] == "true")
      #expect(row(store, "typePolicy", "watch", "reread_latency")?["n"] == "5")
      #expect(row(store, "path", "watch", "reread_latency")?["n"] == "3")
      // Book:1 is the only keyed record: four reads of it, one load of one key each.
      #expect(row(store, "typePolicy", "fragment", "latency")?["n"] == "4")
      #expect(row(store, "typePolicy", "fragment", "loads_per_read")?["max"] == "1")
      #expect(row(store, "typePolicy", "fragment", "keys_per_read")?["max"] == "1")
      // The path strategy keys no record of its own: no fragment reads.
      #expect(row(store, "path", "fragment", "latency") == nil)
    }
  }

  @Test("by record, a watcher wakes on any field of a record it read: Book:1.title wakes the watcher of Book:1.id too, counted by hand")
  func invalidationsByRecord() async throws {
    let directory = try temporaryDirectory()
    let files = [
      "schema.graphqls": Self.schema,
      "a.graphql": "query A { a { id title } }",
      "d.graphql": "query D { b { id } }",
      "a.json": #"{"data": {"a": {"id": "1", "title": "T"}}}"#,
      "d.json": #"{"data": {"b": {"id": "1"}}}"#,
    ]
    for (name, text) in files { try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8) }
    let workload = """
      {"name": "w", "seed": 7, "recorded": {"schema": ["schema.graphqls"], "operations": [
         {"document": "a.graphql", "response": "a.json"}, {"document": "d.graphql", "response": "d.json"}]},
       "keys": ["path", "typePolicy"], "stores": [{"kind": "memory"}], "repetitions": 1, "warmup": 0,
       "read": {"pointLookups": 1, "fieldPolicyLookups": 0, "watchers": 2, "churn": 1}}
      """
    try workload.write(toFile: directory + "/w.json", atomically: true, encoding: .utf8)
    let run = try await cachebench(["run", "w.json", "--out", "w.csv", "--no-progress"], in: directory)
    #expect(run.status == 0, "\(run.stderr)")
    let rows = try CSVFile(path: directory + "/w.csv").rows
    func values(_ keys: String, _ metric: String) -> [String]? {
      rows.first { $0["store"] == "memory" && $0["keys"] == keys && $0["phase"] == "watch" && $0["metric"] == metric }
        .map { [$0["n"] ?? "", $0["min"] ?? "", $0["max"] ?? "", $0["mean"] ?? ""] }
    }
    // churn 1: the refetch of A changes Book:1.title (typePolicy) or QUERY_ROOT.a.title (path);
    // the refetch of D changes nothing (an id never changes). Under typePolicy D read Book:1.id
    // alone: not woken by field, woken by record. Under path the two share no record.
    #expect(values("typePolicy", "invalidations") == ["2", "0", "1", "0.5"])
    #expect(values("typePolicy", "invalidations_by_record") == ["2", "0", "2", "1"])
    #expect(values("path", "invalidations") == ["2", "0", "1", "0.5"])
    #expect(values("path", "invalidations_by_record") == ["2", "0", "1", "0.5"])
    // A: QUERY_ROOT.a, then Book:1 (or QUERY_ROOT.a) id and title; D: QUERY_ROOT.b, then its id.
    for keys in ["path", "typePolicy"] {
      #expect(values(keys, "dependent_records") == ["2", "2", "2", "2"])
      #expect(values(keys, "dependent_fields") == ["2", "2", "3", "2.5"])
      #expect(values(keys, "check_latency")?.first == "2")
      #expect(values(keys, "check_latency_by_record")?.first == "2")
    }
  }

  @Test(
    "read.fragments and read.watchers that the workload cannot serve: the file and key path, exit 65",
    arguments: [
      (#""watchers": 4"#, Self.schema, "Error: w.json:3:11: read.watchers: is 4, more than the 3 operations the workload reads\n"),
      (
        #""fragments": 2"#,
        "type Query { a: Book  b: Book  c: Author }\ntype Book { id: ID!  title: String }\ntype Author { name: String }",
        "Error: w.json: read.fragments: reads records by their own keys, but the schema has no @typePolicy and no programmatic resolver is run: no type is keyed\n"
      ),
    ])
  func unservable(read: String, schema: String, stderr: String) async throws {
    let directory = try temporaryDirectory()
    try Self.writeWorkload(in: directory, read: read, schema: schema)
    for command in ["validate", "run"] {
      let run = try await cachebench([command, "w.json"], in: directory)
      #expect(run.status == 65, "\(command)")
      #expect(run.stderr.hasPrefix(stderr), "\(command): \(run.stderr)")
    }
  }

  @Test("a null where the schema says non-null fails the run with the response path, exit 65, and writes no CSV")
  func nonNull() async throws {
    let directory = try temporaryDirectory()
    let schema = Self.schema.replacingOccurrences(of: "type Author { name: String }", with: "type Author { name: String! }")
    try Self.writeWorkload(in: directory, read: "", schema: schema, cTitle: "null")
    let run = try await cachebench(["run", "w.json", "--out", "w.csv", "--no-progress"], in: directory)
    #expect(run.status == 65)
    #expect(
      run.stderr.contains("c.json: the read-back failed: null at non-null c.name (String!), field \"name\" of record \"QUERY_ROOT.c\""),
      "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: directory + "/w.csv"))
  }
}
