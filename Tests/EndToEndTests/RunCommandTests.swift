import Foundation
import Testing

@Suite("cachebench run", .timeLimit(.minutes(10)))
struct RunCommandTests {
  /// Runs quick.json twice at once (two processes), with samples: started by the first test that
  /// asks, awaited by every one.
  static let quickRuns = Task { () throws -> [QuickRun] in
    let directory = try temporaryDirectory()
    func quick(_ index: Int) async throws -> QuickRun {
      let csv = directory + "/quick-\(index).csv"
      let samples = directory + "/samples-\(index).csv"
      let run = try await cachebench(["run", "Workloads/quick.json", "--out", csv, "--samples", samples, "--no-progress"])
      return QuickRun(run: run, csv: csv, samples: samples)
    }
    async let first = quick(0)
    async let second = quick(1)
    return try await [first, second]
  }

  struct QuickRun: Sendable {
    let run: Run
    let csv: String
    let samples: String
  }

  static var runs: [QuickRun] { get async throws { try await quickRuns.value } }

  static let stores = ["memory", "sqlite", "sqlite-apollo", "sqlite-rows", "sqlite-rows-rowid", "sqlite-rows-ordered", "sqlite-memory"]
  static let strategies = ["path", "typePolicy", "programmatic"]

  @Test("quick.json writes rows for every store × key strategy, with every metric of docs/csv.md")
  func everyMetric() async throws {
    let quick = try await Self.runs[0]
    let (run, path) = (quick.run, quick.csv)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.hasPrefix("quick (generator, seed 7, 2 repetitions)"))
    #expect(
      run.stdout.contains(
        "store                keys          records  dedup  parse p50  write p50  write p99  read p50  read p99  loads/read  bytes/record  fragment p50  wakes/write  re-read p50"
      ))
    #expect(
      run.stdout.contains(
        "Key strategies against path (ratios of p50; wakes: watchers woken per write, mean)\nmemory:\n  typePolicy vs path: "))
    let csv = try CSVFile(path: path)
    #expect(csv.header.joined(separator: ",") == metricColumns)
    let common = [
      "parse/latency", "write/latency", "normalize/latency", "merge/latency", "read/latency", "write/allocations",
      "write/allocated_bytes", "read/allocations", "read/allocated_bytes", "lookup/loads_per_read",
      "lookup/keys_per_read", "lookup/fields_loaded", "lookup/bytes_loaded", "lookup/hit_ratio", "lookup/load_time", "lookup/point_lookup",
      "lookup/field_policy_lookup", "lookup/field_policy_hit_ratio", "footprint/bytes_per_record", "dedup/objects",
      "dedup/records", "dedup/object_ratio", "dedup/response_bytes", "dedup/store_bytes", "dedup/byte_ratio",
    ]
    for store in Self.stores {
      for keys in Self.strategies {
        let metrics = Set(csv.rows.filter { $0["store"] == store && $0["keys"] == keys }.map { $0["phase"]! + "/" + $0["metric"]! })
        var expected = common
        expected += ["watch/invalidations", "watch/reread_latency", "watch/changed_share"]
        if keys == "path" {
          expected.removeAll { $0.hasPrefix("lookup/field_policy") }
        } else {
          expected += ["fragment/latency", "fragment/loads_per_read", "fragment/keys_per_read"]
        }
        expected += store == "memory" ? ["footprint/live_bytes"] : ["footprint/db_bytes", "footprint/sqlite_heap_bytes"]
        for metric in expected { #expect(metrics.contains(metric), "\(store) × \(keys) lacks \(metric)") }
      }
    }
    // Reads after all the writes hit every record they ask for.
    for row in csv.rows where row["metric"] == "hit_ratio" { #expect(row["p50"] == "1") }
    // A single value fills every statistic (docs/csv.md).
    for row in csv.rows where row["n"] == "1" {
      #expect(Set(["min", "p50", "p90", "p99", "max", "mean", "stddev"].map { row[$0]! }).count == 1)
    }
  }

  @Test("two runs give identical deterministic metrics")
  func deterministic() async throws {
    func deterministicRows(_ path: String) throws -> [String] {
      try CSVFile(path: path).rows.filter { $0["deterministic"] == "true" }.map { row in
        ["workload", "variant", "store", "keys", "phase", "metric", "n", "min", "p50", "p90", "p99", "max", "mean"]
          .map { row[$0]! }.joined(separator: ",")
      }.sorted()
    }
    let first = try deterministicRows(await Self.runs[0].csv)
    let second = try deterministicRows(await Self.runs[1].csv)
    #expect(first.count > 200)
    #expect(first == second)
  }

  @Test("--samples writes one row per sample: n of them for every metric row")
  func samples() async throws {
    let samples = try await CSVFile(path: Self.runs[0].samples)
    #expect(samples.header.joined(separator: ",") == "run_id,workload,variant,store,keys,phase,metric,unit,index,value")
    var counts: [String: Int] = [:]
    for row in samples.rows {
      counts[[row["store"]!, row["keys"]!, row["phase"]!, row["metric"]!].joined(separator: "/"), default: 0] += 1
    }
    for row in try await CSVFile(path: Self.runs[0].csv).rows {
      #expect(counts[[row["store"]!, row["keys"]!, row["phase"]!, row["metric"]!].joined(separator: "/")] == Int(row["n"]!))
    }
  }

  @Test("the store-level benchmark and the calendar run with --quick")
  func otherWorkloads() async throws {
    let directory = try temporaryDirectory()
    let run = try await cachebench([
      "run", "Workloads/store-records.json", "Workloads/calendar.json", "--quick", "--out", directory + "/both.csv",
      "--no-progress",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("merge new/s"))
    let rows = try CSVFile(path: directory + "/both.csv").rows
    #expect(Set(rows.map { $0["workload"]! }) == ["store-records", "calendar"])
    let calendarRecords = rows.filter { $0["workload"] == "calendar" && $0["metric"] == "records" && $0["store"] == "memory" }
    // 5,929 / 2,163 / 1,109 records with QUERY_ROOT; the CSV counts records without the root.
    #expect(
      Dictionary(uniqueKeysWithValues: calendarRecords.map { ($0["keys"]!, $0["p50"]!) }) == [
        "path": "5928", "typePolicy": "2162", "programmatic": "1108",
      ])
    #expect(
      rows.contains { $0["workload"] == "store-records" && $0["metric"] == "merge_new_per_record" && $0["store"] == "sqlite-compact" })
  }

  @Test("an output that cannot be written exits 74 and leaves nothing behind")
  func unwritableOutput() async throws {
    let directory = try temporaryDirectory()
    try "x".write(toFile: directory + "/file", atomically: true, encoding: .utf8)
    let run = try await cachebench([
      "run", "Workloads/store-records.json", "--quick", "--out", directory + "/file/out.csv", "--no-progress",
    ])
    #expect(run.status == 74)
    #expect(run.stderr.hasPrefix("Error: cannot write \(directory)/file/out.csv: Not a directory\n"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["file"])
  }

  @Test(
    "bad workload files: the error names the file and key, with the documented exit code",
    arguments: [
      (
        #"{"name": "w", "seed": 1, "generator": {"depth": 99}}"#, Int32(65),
        "Error: w.json:1:40: generator.depth: must be in 1...32, got 99\n"
      ),
      (#"{"name": "w", "seed": 1, "generator": {}, "extra": 1}"#, Int32(65), "Error: w.json:1:43: extra: unknown key\n"),
      (
        #"{"name": "w", "seed": 1, "recorded": {"operations": [{"document": "none.graphql", "response": "r.json"}]}}"#, Int32(66),
        "Error: w.json: recorded.operations[0].document: cannot open 'none.graphql': No such file or directory\n"
      ),
      ("{not json", Int32(65), "Error: w.json:1:2: Expected a string key in an object, found 'n'\n"),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "keys": ["path"], "read": {"fragments": 3}}"#, Int32(65),
        "Error: w.json:1:70: read.fragments: reads records by their own keys, but \"keys\" has only path, which keys none: add typePolicy or programmatic\n"
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {"keyedShare": 0}, "keys": ["typePolicy"], "read": {"fragments": 3}}"#, Int32(65),
        "Error: w.json:1:91: read.fragments: reads records by their own keys, but generator.keyedShare is 0: no type is keyed\n"
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {"responses": 5}, "read": {"watchers": 6}}"#, Int32(65),
        "Error: w.json:1:66: read.watchers: is 6, more than the 5 operations the workload reads\n"
      ),
      (
        #"{"name": "w", "seed": 1, "storeRecords": {}, "read": {"watchers": 1}}"#, Int32(65),
        "Error: w.json:1:55: read.watchers: the store-level benchmark reads no operations\n"
      ),
    ])
  func badWorkloads(text: String, status: Int32, stderr: String) async throws {
    let directory = try temporaryDirectory()
    try text.write(toFile: directory + "/w.json", atomically: true, encoding: .utf8)
    for command in ["validate", "run"] {
      let run = try await cachebench([command, "w.json"], in: directory)
      #expect(run.status == status)
      #expect(run.stderr.hasPrefix(stderr), "\(command): \(run.stderr)")
    }
  }

  @Test("validate accepts every shipped workload")
  func validateShipped() async throws {
    let run = try await cachebench(
      ["validate"]
        + ["quick", "default", "large", "duplication-sweep", "calendar", "store-records", "apollo-tier2"].map { "Workloads/\($0).json" })
    #expect(run.status == 0, "\(run.stderr)")
    // Five stores, and their limit stores: the dictionary and the floors of the four SQLite layouts.
    #expect(
      run.stdout.contains("Workloads/apollo-tier2.json: ok (apollo-tier2, apolloTier2, 11 configurations, and 11 of the limit stores)"))
    // 4 levels of branching 2 x (0.6 + 0.4 x 3.5) = 4: 85 objects per root field, a list of 3.5 of them:
    // 297.5 objects of 40 + 6 x (14 + 0.4 x 15) = 160 bytes each.
    #expect(
      run.stdout.contains(
        "Workloads/duplication-sweep.json: ok (duplication-sweep, generator, 30 configurations; about 298 objects and 48 KB per response"))
  }

  @Test("deterministic rows do not depend on the length of TMPDIR or of the process ID")
  func pathIndependence() async throws {
    let directory = try temporaryDirectory()
    var rows: [[String: String]] = []
    for (index, temporary) in ["t", String(repeating: "longer-temporary-directory-", count: 3)].enumerated() {
      let tmp = directory + "/" + temporary
      try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
      let out = directory + "/run-\(index).csv"
      let run = try await cachebench(
        ["run", "Workloads/store-records.json", "--quick", "--out", out, "--no-progress"], environment: ["TMPDIR": tmp])
      #expect(run.status == 0, "\(run.stderr)")
      // The stores' directory is gone with the run.
      #expect(try FileManager.default.contentsOfDirectory(atPath: tmp) == [])
      rows.append(contentsOf: try CSVFile(path: out).rows.filter { $0["deterministic"] == "true" })
    }
    func values(_ rows: ArraySlice<[String: String]>) -> [String] {
      rows.map { row in ["store", "phase", "metric", "n", "min", "p50", "max", "mean"].map { row[$0]! }.joined(separator: ",") }
    }
    let half = rows.count / 2
    #expect(half > 0)
    #expect(rows.contains { $0["metric"] == "sqlite_heap_bytes" })
    #expect(values(rows[..<half]) == values(rows[half...]))
  }

  @Test("--instructions without valgrind is a clear error, before anything runs")
  func instructionsWithoutValgrind() async throws {
    let directory = try temporaryDirectory()
    let run = try await cachebench(
      ["run", "Workloads/gate.json", "--instructions", "--out", directory + "/out.csv", "--no-progress"],
      environment: ["PATH": directory])
    #expect(run.status == 1)
    #expect(run.stderr.hasPrefix("Error: --instructions needs valgrind, which is not installed here (make deps installs it)\n"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [])
  }

  @Test("generate writes files that a recorded workload replays")
  func generateAndReplay() async throws {
    let directory = try temporaryDirectory()
    let generate = try await cachebench(["generate", "Workloads/quick.json", "--out", directory + "/generated"])
    #expect(generate.status == 0, "\(generate.stderr)")
    #expect(generate.stdout.hasPrefix("wrote 40 responses of 4 operations to"))
    let files = try FileManager.default.contentsOfDirectory(atPath: directory + "/generated").sorted()
    #expect(files == ["extensions.graphqls", "operations", "responses", "schema.graphqls", "workload.json"])
    // Every response, once: --quick would keep a tenth of them.
    let manifestPath = directory + "/generated/workload.json"
    var manifest = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifestPath))) as? [String: Any])
    manifest["repetitions"] = 1
    manifest["warmup"] = 0
    try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: manifestPath))
    let replay = try await cachebench(["run", manifestPath, "--out", directory + "/replay.csv", "--no-progress"])
    #expect(replay.status == 0, "\(replay.stderr)")
    let replayed = try CSVFile(path: directory + "/replay.csv").rows
    // The same responses, recorded: the same objects as the synthetic run of quick.json.
    let synthetic = try await CSVFile(path: Self.runs[0].csv).rows
    func objects(_ rows: [[String: String]]) -> String? {
      rows.first { $0["store"] == "memory" && $0["keys"] == "typePolicy" && $0["metric"] == "objects" }?["p50"]
    }
    #expect(objects(replayed) != nil)
    #expect(objects(replayed) == objects(synthetic))
  }
}

extension HeavyRuns {
  @Suite("cachebench ab", .timeLimit(.minutes(10)))
  struct ABCommandTests {
    @Test("the same build on both sides: runs in turns, deterministic rows unchanged, verdicts with intervals and p-values")
    func sameBuild() async throws {
      let directory = try temporaryDirectory()
      let workload = directory + "/tiny.json"
      try tinyWorkload(repetitions: 2).write(toFile: workload, atomically: true, encoding: .utf8)
      let out = directory + "/ab.csv"
      let run = try await cachebench(["ab", "--base", binary.path, "--current", binary.path, workload, "--rounds", "3", "--out", out])
      // Timings are not asserted: on a shared machine a test running beside this one can make one
      // side slower, and ab then rightly reports it (exit 2). Only timing rows may do so.
      #expect(run.status == 0 || run.status == 2, "\(run.stderr)")
      #expect(run.stderr.contains("cachebench ab: round 3/3, current\n"))
      #expect(run.stdout.contains("Smallest timing change these runs detect 80% of the time: +"))
      let rows = try CSVFile(path: out).rows
      let timing = rows.filter { $0["deterministic"] == "false" }
      #expect(!timing.isEmpty)
      #expect(timing.allSatisfy { !$0["p_value"]!.isEmpty && !$0["ci_low"]!.isEmpty })
      #expect(rows.filter { $0["deterministic"] == "true" }.allSatisfy { $0["status"] == "unchanged" })
      #expect((run.status == 2) == rows.contains { $0["status"] == "regressed" })
    }

    @Test("a command that is not cachebench is wrong usage, before anything runs")
    func notCachebench() async throws {
      let run = try await cachebench(["ab", "--base", "/bin/echo", "--current", binary.path, "Workloads/gate.json"])
      #expect(run.status == 64)
      #expect(run.stderr.hasPrefix("Error: '/bin/echo' does not behave as cachebench: its --help is not cachebench's.\n"))
      let missing = try await cachebench(["ab", "--base", "/nonexistent/cachebench", "--current", binary.path, "Workloads/gate.json"])
      #expect(missing.status == 64)
      #expect(missing.stderr.hasPrefix("Error: '/nonexistent/cachebench' is not an executable file.\n"))
    }
  }
}

@Suite("cachebench compare", .timeLimit(.minutes(10)))
struct CompareCommandTests {
  /// A results file with one timing and one deterministic metric.
  func write(_ directory: String, _ name: String, latency: Double, records: Double) throws -> String {
    let rows = [
      "r,2026-11-22T00:00:00Z,abc,h,w,,memory,path,write,latency,ns,lower,false,5,\(latency),\(latency),\(latency),\(latency),\(latency),\(latency),0",
      "r,2026-11-22T00:00:00Z,abc,h,w,,memory,path,dedup,records,count,lower,true,1,\(records),\(records),\(records),\(records),\(records),\(records),\(records)",
    ]
    let path = directory + "/" + name
    try ([metricColumns] + rows).joined(separator: "\n").appending("\n").write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test("a timing change from one run is advisory and exits 0; a worse deterministic metric exits 2, a better one 0")
  func gate() async throws {
    let directory = try temporaryDirectory()
    let baseline = try write(directory, "base.csv", latency: 1000, records: 50)
    let same = try await cachebench(["compare", baseline, try write(directory, "same.csv", latency: 1050, records: 50)])
    #expect(same.status == 0)
    let slower = try await cachebench([
      "compare", baseline, try write(directory, "slow.csv", latency: 1300, records: 50), "--out", directory + "/verdicts.csv",
    ])
    #expect(slower.status == 0)
    #expect(slower.stdout.hasPrefix("Timing changes (advisory: one run per side cannot tell a change from noise) (1):\n"))
    #expect(slower.stdout.contains("w         memory  path  write  latency  p50          1.0 µs   1.3 µs  +30.0%"))
    let verdicts = try CSVFile(path: directory + "/verdicts.csv").rows
    #expect(verdicts.map { $0["status"] } == ["advisory", "unchanged"])
    let fatter = try await cachebench(["compare", baseline, try write(directory, "fat.csv", latency: 1000, records: 51)])
    #expect(fatter.status == 2)
    #expect(fatter.stdout.contains("w         memory  path  dedup  records  min              50       51  +1 (+2.0%)"))
    let leaner = try await cachebench(["compare", baseline, try write(directory, "lean.csv", latency: 1000, records: 49)])
    #expect(leaner.status == 0)
    #expect(leaner.stdout.hasPrefix("Improvements (better than the baseline: refresh it) (1):\n"))
  }

  @Test("a missing file exits 66, a malformed one 65, a bad threshold 64")
  func errors() async throws {
    let directory = try temporaryDirectory()
    let baseline = try write(directory, "base.csv", latency: 1000, records: 50)
    #expect(try await cachebench(["compare", baseline, directory + "/none.csv"]).status == 66)
    try "not,a,results,file\n".write(toFile: directory + "/bad.csv", atomically: true, encoding: .utf8)
    #expect(try await cachebench(["compare", baseline, directory + "/bad.csv"]).status == 65)
    #expect(try await cachebench(["compare", baseline, baseline, "--threshold", "ten"]).status == 64)
    #expect(try await cachebench(["compare", baseline]).status == 64)
  }
}
