import Foundation
import Testing

@Suite("cachebench generate", .timeLimit(.minutes(10)))
struct GenerateCommandTests {
  static let usage = "Usage: cachebench generate <workload> --out <DIR> [--allow-large]"

  /// A fresh directory holding the tiny workload as `w.json`: its path.
  static func directoryWithWorkload() throws -> String {
    let directory = try temporaryDirectory()
    try tinyWorkload().write(toFile: directory + "/w.json", atomically: true, encoding: .utf8)
    return directory
  }

  @Test("an empty --out is wrong usage (64), and nothing is written into the current directory", arguments: [["--out", ""], ["--out="]])
  func emptyOut(out: [String]) async throws {
    let directory = try Self.directoryWithWorkload()
    let run = try await cachebench(["generate", "w.json"] + out, in: directory)
    #expect(run.status == 64)
    #expect(run.stderr.hasPrefix("Error: The value '' is invalid for '--out'; expected a directory.\n"), "\(run.stderr)")
    #expect(run.stdout == "")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["w.json"])
  }

  @Test("an output directory that holds the workload is wrong usage (64), and the workload is left as it was")
  func outputHoldsInput() async throws {
    let directory = try Self.directoryWithWorkload()
    let before = try String(contentsOfFile: directory + "/w.json", encoding: .utf8)
    for (input, out) in [
      ("w.json", "."), ("w.json", directory), (directory + "/w.json", directory + "/"),
      ("./w.json", "../" + (directory as NSString).lastPathComponent),
    ] {
      let run = try await cachebench(["generate", input, "--out", out], in: directory)
      #expect(run.status == 64, "\(input) --out \(out): \(run.stderr)")
      #expect(
        run.stderr.hasPrefix(
          "Error: '--out' '\(out)' holds the workload, '\(input)': the files written there may not replace a file the command reads; write into another directory.\n"
        ),
        "\(run.stderr)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["w.json"])
    #expect(try String(contentsOfFile: directory + "/w.json", encoding: .utf8) == before)
    // A directory beside the workload's is fine.
    let beside = try await cachebench(["generate", "w.json", "--out", "gen"], in: directory)
    #expect(beside.status == 0, "\(beside.stderr)")
  }

  @Test("the printed replay command runs as printed", arguments: ["gen/", "my dir", "-gen", "it's"])
  func printedReplayRuns(out: String) async throws {
    let directory = try Self.directoryWithWorkload()
    let run = try await cachebench(["generate", "w.json", "--out=" + out], in: directory)
    #expect(run.status == 0, "\(run.stderr)")
    let prefix = "wrote 3 responses of 2 operations to \(out); replay with: cachebench run "
    #expect(run.stdout.hasPrefix(prefix), "\(run.stdout)")
    let path = String(run.stdout.dropFirst(prefix.count).dropLast())
    let expected = [
      "gen/": "gen/workload.json", "my dir": "'my dir/workload.json'", "-gen": "./-gen/workload.json", "it's": #"'it'\''s/workload.json'"#,
    ]
    #expect(path == expected[out])
    let replay = try await shell(#""$CB" run "# + path + " --quick --out r.csv --no-progress", in: directory)
    #expect(replay.status == 0, "\(replay.stderr)")
    #expect(FileManager.default.fileExists(atPath: directory + "/r.csv"))
  }

  /// One setting of each generator knob away from its default, on a tiny base. `narrowReads` reads
  /// by list only (`share` 1), so that each type's page 1 is read twice and a replay that verified
  /// its read-backs would fail.
  static let settings: [String: String] = [
    "responses": #""responses": 9"#, "operations": #""operations": 3"#, "depth": #""depth": 3"#, "fanOut": #""fanOut": 1"#,
    "listLength": #""listLength": {"min": 0, "max": 3}"#, "listShare": #""listShare": 0.9"#, "types": #""types": 7"#,
    "fieldsPerType": #""fieldsPerType": 2"#, "poolSize": #""poolSize": 2"#, "duplication": #""duplication": 1"#,
    "zipf": #""zipf": 0"#, "keyedShare": #""keyedShare": 0.3"#, "compositeKeyShare": #""compositeKeyShare": 1"#,
    "interfaces": #""interfaces": 0"#, "unions": #""unions": 3"#, "stringLength": #""stringLength": {"min": 0, "max": 40}"#,
    "cacheControl": #""cacheControl": {"share": 1}"#, "narrowReads": #""narrowReads": {"fields": 2, "of": 5, "share": 1}"#,
  ]

  @Test("every knob of docs/workloads.md's generator table has a setting below")
  func everyKnob() throws {
    let docs = try String(contentsOfFile: projectRoot.path + "/docs/workloads.md", encoding: .utf8)
    let table = docs.components(separatedBy: "### `generator`")[1].components(separatedBy: "A **range**")[0]
    let knobs = table.split(separator: "\n").compactMap { line -> String? in
      guard line.hasPrefix("| `") else { return nil }
      return String(line.dropFirst(3).prefix { $0 != "`" })
    }
    #expect(Set(knobs) == Set(Self.settings.keys))
  }

  @Test("the replay generate writes runs as the generated workload does", arguments: settings.keys.sorted())
  func replayRunsAsGenerated(knob: String) async throws {
    let directory = try temporaryDirectory()
    let verify = knob == "narrowReads" ? #", "verify": false"# : ""
    // A tiny base, with the knob's setting in place of its own.
    let base = ["responses": "6", "operations": "2", "depth": "2", "types": "4", "poolSize": "8"].filter { $0.key != knob }
    let generator = base.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" } + [Self.settings[knob]!]
    let workload =
      #"{"name": "g", "seed": 5, "generator": {"# + generator.joined(separator: ", ")
      + #"}, "keys": ["typePolicy"], "stores": [{"kind": "memory"}], "repetitions": 1, "warmup": 0,"#
      + #" "read": {"pointLookups": 5, "fieldPolicyLookups": 2\#(verify)}}"#
    try workload.write(toFile: directory + "/w.json", atomically: true, encoding: .utf8)
    let generated = try await cachebench(["run", directory + "/w.json", "--out", directory + "/generated.csv", "--no-progress"])
    #expect(generated.status == 0, "\(generated.stderr)")
    let generate = try await cachebench(["generate", directory + "/w.json", "--out", directory + "/gen"])
    #expect(generate.status == 0, "\(generate.stderr)")
    // The replay as written, but for what the generated run measured: its key strategy and store,
    // one repetition.
    let manifestPath = directory + "/gen/workload.json"
    var manifest = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifestPath))) as? [String: Any])
    manifest["keys"] = ["typePolicy"]
    manifest["stores"] = [["kind": "memory"]]
    manifest["repetitions"] = 1
    manifest["warmup"] = 0
    try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: manifestPath))
    let replay = try await cachebench(["run", manifestPath, "--out", directory + "/replay.csv", "--no-progress"])
    #expect(replay.status == 0, "\(knob): \(replay.stderr)")
    // The same responses: the same objects and records.
    func figures(_ path: String) throws -> [String: String] {
      let rows = try CSVFile(path: path).rows.filter { ["objects", "records"].contains($0["metric"]) && $0["phase"] == "dedup" }
      return Dictionary(rows.map { ($0["metric"]!, $0["p50"]!) }) { first, _ in first }
    }
    let replayed = try figures(directory + "/replay.csv")
    #expect(replayed.count == 2, "\(knob)")
    #expect(replayed == (try figures(directory + "/generated.csv")), "\(knob)")
  }

  @Test("a schema and operations estimated past the limit are refused (65) before anything is generated, unless --allow-large")
  func heldMemoryLimit() async throws {
    let directory = try temporaryDirectory()
    // 5 objects of responses; 10,000 types of 500 fields peaked at 5.1 GB in 50 s.
    try #"{"name":"w","seed":1,"generator":{"types":10000,"responses":2,"narrowReads":{"fields":3,"of":500}},"read":{"verify":false}}"#
      .write(toFile: directory + "/w.json", atomically: true, encoding: .utf8)
    let held = "about 3 GB (schema 2 GB, operations 1 GB, responses 28 KB, records 21 KB)"
    for command in [["validate", "w.json"], ["generate", "w.json", "--out", "gen"]] {
      let run = try await cachebench(command, in: directory)
      // Required: were validate to pass, generate would take gigabytes.
      try #require(run.status == 65, "\(command): \(run.stderr)")
      #expect(
        run.stderr.hasPrefix(
          "Error: w.json: generator: a run would hold \(held); the limit is 2 GB: pass --allow-large to run it anyway\n"),
        "\(run.stderr)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["w.json"])
    let allowed = try await cachebench(["validate", "w.json", "--allow-large"], in: directory)
    #expect(allowed.status == 0, "\(allowed.stderr)")
    #expect(allowed.stdout.hasSuffix("in all; \(held.replacingOccurrences(of: " (", with: " held by a run (")))\n"), "\(allowed.stdout)")
  }
}
