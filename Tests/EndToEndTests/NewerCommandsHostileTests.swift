import Foundation
import Testing

/// Hostile and careless input to the newer commands and workload sections (issue 33): report,
/// compare and export of extreme numbers, report's samples and comparison of another run,
/// validate against what run refuses, --shard's form. Each ends in seconds with its documented
/// code and a message naming what is wrong (docs/command-line.md#hostile-input).
@Suite("Hostile input to the newer commands", .timeLimit(.minutes(10)))
struct NewerCommandsHostileTests {
  /// One case: files to write, the arguments, the exit code, the start of stderr (empty: none).
  typealias Case = HostileInputTests.Case

  static let header =
    "run_id,timestamp,git_rev,host,workload,variant,store,keys,phase,metric,unit,better,deterministic,n,min,p50,p90,p99,max,mean,stddev\n"

  /// A results CSV of one row per metric of `metrics`, every statistic `value`.
  static func results(_ value: String, runID: String = "r1", workload: String = "w") -> String {
    let metrics = [
      "footprint,bytes_per_record,bytes,lower,true", "write,latency,ns,lower,false", "dedup,records,count,lower,true",
      "dedup,store_bytes,bytes,lower,true",
    ]
    return header
      + metrics.map {
        "\(runID),2026-11-25T00:00:00Z,abc,h,\(workload),,memory,path,\($0),3,\(value),\(value),\(value),\(value),\(value),\(value),0\n"
      }.joined()
  }

  static let samples = "run_id,workload,variant,store,keys,phase,metric,unit,index,value\nr2,w,,memory,path,write,latency,ns,0,812\n"

  /// A tiny generator workload with `stores`, and `extra` keys.
  static func workload(stores: String, extra: String = "") -> String {
    #"{"name": "w", "seed": 2, "generator": {"responses": 3, "operations": 2, "depth": 2, "types": 4, "poolSize": 8}, "keys": ["typePolicy"], "stores": \#(stores)\#(extra)}"#
  }

  static let cases: [Case] = [
    Case(
      name: "report of a results CSV whose p50 is 1e308: drawn, not a trap",
      files: ["r.csv": results("1e308")], arguments: ["report", "r.csv", "--out", "r.html"], status: 0, stderr: ""),
    Case(
      name: "compare of 1e-308 against 1e308 with --out: the verdicts written, not a trap",
      files: ["a.csv": results("1e-308"), "b.csv": results("1e308")], arguments: ["compare", "a.csv", "b.csv", "--out", "v.csv"],
      status: 2, stderr: ""),
    Case(
      name: "export of 1e308", files: ["r.csv": results("1e308")], arguments: ["export", "r.csv", "--format", "bmf"], status: 0,
      stderr: ""),
    Case(
      name: "report --samples of another run: refused",
      files: ["r.csv": results("5"), "s.csv": samples], arguments: ["report", "r.csv", "--samples", "s.csv", "--out", "r.html"],
      status: 65, stderr: "Error: s.csv holds samples of run r2, r.csv is of run r1: give the --samples file of this run"),
    Case(
      name: "report --comparison of another workload: refused",
      files: ["r.csv": results("5"), "a.csv": results("5", workload: "x"), "b.csv": results("6", workload: "x")],
      arguments: ["report", "r.csv", "--comparison", "v.csv", "--out", "r.html"], status: 65,
      stderr: "Error: v.csv compares the workload x, r.csv is of w: give a comparison of this workload"),
    Case(
      name: "validate: maxSizeBytes 145, smaller than the roots, as run refuses it",
      files: ["w.json": workload(stores: #"[{"kind": "memory", "maxSizeBytes": 145}]"#)], arguments: ["validate", "w.json"],
      status: 65, stderr: "Error: w.json: stores[0].maxSizeBytes: the root records take "),
    Case(
      name: "validate: maxSizeBytes 1% of a small store",
      files: ["w.json": workload(stores: #"[{"kind": "sqlite", "maxSizeBytes": "1%"}]"#)], arguments: ["validate", "w.json"],
      status: 65, stderr: "Error: w.json: stores[0].maxSizeBytes: the root records take "),
    Case(
      name: "validate: maxSizeBytes 0.0001%, a budget of 1 byte",
      files: ["w.json": workload(stores: #"[{"kind": "memory", "maxSizeBytes": "0.0001%"}]"#)], arguments: ["validate", "w.json"],
      status: 65, stderr: "Error: w.json: stores[0].maxSizeBytes: the root records take "),
    Case(
      name: "a sweep that repeats a value",
      files: [
        "w.json": workload(
          stores: #"[{"kind": "memory", "maxSizeBytes": "50%"}]"#, extra: #", "sweep": {"stores.maxSizeBytes": ["10%", "10%"]}"#)
      ],
      arguments: ["validate", "w.json"], status: 65,
      stderr: "Error: w.json:1:202: sweep.stores.maxSizeBytes: value 1 (10%) repeats value 0: each point runs once"),
    Case(
      name: "a sweep with a null",
      files: [
        "w.json": workload(
          stores: #"[{"kind": "memory", "maxSizeBytes": "50%"}]"#, extra: #", "sweep": {"stores.maxSizeBytes": ["50%", null]}"#)
      ],
      arguments: ["run", "w.json"], status: 65,
      stderr: "Error: w.json:1:202: sweep.stores.maxSizeBytes: value 1 is null: every point of a sweep needs a value"),
    Case(
      name: "run --shard +1/+3", files: ["w.json": workload(stores: #"[{"kind": "memory"}]"#)],
      arguments: ["run", "w.json", "--shard", "+1/+3"], status: 64, stderr: "Error: The value '+1/+3' is invalid for '--shard'"),
    Case(
      name: "soak of a workload without a traffic section", files: ["w.json": workload(stores: #"[{"kind": "memory"}]"#)],
      arguments: ["soak", "w.json", "--no-progress"], status: 65,
      stderr: #"Error: w.json: soak runs the workload's traffic session: give it a "traffic" section"#),
    Case(
      name: "soak --every 0", files: ["w.json": workload(stores: #"[{"kind": "memory"}]"#, extra: #", "traffic": {"steps": 10}"#)],
      arguments: ["soak", "w.json", "--every", "0"], status: 64,
      stderr: "Error: The value '0' is invalid for '--every'; expected a whole number from 1 to 100000000."),
    Case(
      name: "soak with a warm-up as long as the session",
      files: ["w.json": workload(stores: #"[{"kind": "memory"}]"#, extra: #", "traffic": {"steps": 10}"#)],
      arguments: ["soak", "w.json", "--warmup", "10", "--no-progress"], status: 65,
      stderr: "Error: a soak of 10 steps sampled every 1 after a warm-up of 10 steps leaves 1 sample to fit a line through; it needs 2"),
    Case(
      name: "traffic.startAt past year 9999",
      files: ["w.json": workload(stores: #"[{"kind": "memory", "dates": true}]"#, extra: #", "traffic": {"startAt": 253402300800}"#)],
      arguments: ["validate", "w.json"], status: 65,
      stderr: "Error: w.json:1:196: traffic.startAt: must be between 0 and 253402300799, got 253402300800"),
  ]

  @Test("each case: its exit code and message, in seconds", arguments: cases)
  func hostile(_ testCase: Case) async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    for (name, text) in testCase.files { try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8) }
    if testCase.arguments.contains("v.csv"), testCase.arguments.first == "report" {
      let compared = try await cachebench(["compare", "a.csv", "b.csv", "--out", "v.csv"], in: directory)
      #expect(compared.status == 2, "\(compared.stderr)")
    }
    let run = try await cachebench(testCase.arguments, in: directory)
    #expect(run.status == testCase.status, "\(run.stderr)")
    #expect(testCase.stderr.isEmpty ? run.stderr.isEmpty : run.stderr.hasPrefix(testCase.stderr), "\(run.stderr.prefix(400))")
  }
}
