import Foundation
import Testing

/// The sample GitHub Actions workflow (Examples/ci/cachebench.yml), its `run:` commands run here
/// in order: each shard of the matrix, then the merge job; and what `merge` writes against the
/// unsplit run.
@Suite("Results in CI", .timeLimit(.minutes(10)))
struct ResultsInCITests {
  /// A workflow's jobs, each its `run:` commands in order, and the matrix of shards.
  struct Workflow {
    var jobs: [(name: String, commands: [String])] = []
    var shards: [Int] = []
    var environment: [String: String] = [:]

    init(_ text: String) {
      var inJobs = false
      var inEnvironment = false
      for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if line.hasPrefix("jobs:") {
          inJobs = true
          inEnvironment = false
          continue
        }
        if line.hasPrefix("env:") {
          inEnvironment = true
          continue
        }
        if inEnvironment, line.hasPrefix("  "), let colon = trimmed.firstIndex(of: ":") {
          environment[String(trimmed[..<colon])] = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
          continue
        }
        if !line.hasPrefix(" ") { inEnvironment = false }
        if inJobs, line.hasPrefix("  "), !line.hasPrefix("   "), trimmed.hasSuffix(":") {
          jobs.append((String(trimmed.dropLast()), []))
        } else if trimmed.hasPrefix("run: ") {
          jobs[jobs.count - 1].commands.append(String(trimmed.dropFirst("run: ".count)))
        } else if trimmed.hasPrefix("shard: [") {
          shards = trimmed.dropFirst("shard: [".count).dropLast().split(separator: ",").compactMap {
            Int($0.trimmingCharacters(in: .whitespaces))
          }
        }
      }
    }
  }

  /// The deterministic rows' keys and values, in order.
  static func deterministic(_ path: String) throws -> [String] {
    try CSVFile(path: path).rows.filter { $0["deterministic"] == "true" }.map { row in
      ["workload", "variant", "store", "keys", "phase", "metric", "unit", "n", "min", "p50", "p90", "p99", "max", "mean", "stddev"]
        .map { row[$0]! }.joined(separator: ",")
    }
  }

  static func keys(_ path: String) throws -> [String] {
    try CSVFile(path: path).rows.map { row in ["variant", "store", "keys", "phase", "metric"].map { row[$0]! }.joined(separator: "/") }
  }

  @Test("the workflow's commands run in order, shard by shard then the merge; the merged CSV is the unsplit run's")
  func workflow() async throws {
    let text = try String(contentsOf: projectRoot.appendingPathComponent("Examples/ci/cachebench.yml"), encoding: .utf8)
    let workflow = Workflow(text)
    #expect(workflow.jobs.map(\.name) == ["shard", "merge"])
    #expect(workflow.shards == [1, 2, 3])
    #expect(workflow.environment["SHARDS"] == "3")
    // A directory standing for the runners' checkout: the binary under test where the workflow
    // builds it, a small workload in place of the workflow's, the baseline an unsplit run of it.
    let directory = try temporaryDirectory()
    try FileManager.default.createDirectory(atPath: directory + "/.build/release", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: directory + "/.build/release/cachebench", withDestinationPath: binary.path)
    try FileManager.default.createDirectory(atPath: directory + "/Baselines", withIntermediateDirectories: true)
    let workload = fixtures + "/ci/sharded.json"
    let whole = try await cachebench(["run", workload, "--quick", "--out", directory + "/Baselines/ci.csv", "--no-progress"])
    #expect(whole.status == 0, "\(whole.stderr)")
    let environment = ["WORKLOAD": workload, "SHARDS": "3", "GITHUB_STEP_SUMMARY": directory + "/step-summary.md"]
    for (job, commands) in workflow.jobs {
      for shard in job == "shard" ? workflow.shards : [0] {
        // `make release` builds the binary, which the test has.
        for command in commands where command != "make release" {
          let expanded = command.replacingOccurrences(of: "${{ matrix.shard }}", with: String(shard))
          let run = try await shell(expanded, in: directory, environment: environment)
          #expect(run.status == 0, "\(job) \(shard): \(expanded)\n\(run.stdout)\(run.stderr)")
        }
      }
    }
    // The merge of the three parts is the unsplit run: its rows in the same order, its
    // deterministic rows identical.
    let merged = directory + "/results/merged.csv"
    #expect(try Self.keys(merged) == Self.keys(directory + "/Baselines/ci.csv"))
    #expect(try Self.deterministic(merged) == Self.deterministic(directory + "/Baselines/ci.csv"))
    #expect(try Self.deterministic(merged).count > 100)
    // Each part holds a third of the configurations: 8 (2 stores and 2 limit stores × 2 strategies).
    for part in 1...3 {
      let rows = try CSVFile(path: directory + "/parts/part-\(part).csv").rows
      let configurations = Set(rows.filter { !($0["variant"]!.hasPrefix("readers=")) }.map { $0["store"]! + "/" + $0["keys"]! })
      #expect(configurations.count == (part == 3 ? 2 : 3))
      #expect(rows.allSatisfy { $0["run_id"]!.hasSuffix("-shard\(part)of3") })
    }
    let summary = try String(contentsOfFile: directory + "/step-summary.md", encoding: .utf8)
    #expect(summary.hasPrefix("### cachebench compare: "))
    #expect(summary.contains(" 0 regressed,") || summary.contains("\n0 regressed,"))
    let benchmark = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/results/benchmark.json")))
    #expect((benchmark as? [[String: Any]])?.isEmpty == false)
    let report = try String(contentsOfFile: directory + "/results/report.html", encoding: .utf8)
    #expect(report.contains("<section id=\"run\">") && report.contains("<section id=\"concurrency\">"))
  }

  @Test(
    "merge refuses parts of another run, a missing shard, a part short of a configuration or of rows; run refuses a shard that cannot be")
  func refusals() async throws {
    let directory = try temporaryDirectory()
    let workload = fixtures + "/ci/sharded.json"
    for part in 1...3 {
      let run = try await cachebench([
        "run", workload, "--quick", "--shard", "\(part)/3", "--out", directory + "/p\(part).csv", "--no-progress",
      ])
      #expect(run.status == 0, "\(run.stderr)")
    }
    func merge(_ parts: [String]) async throws -> Run {
      try await cachebench(["merge"] + parts.map { directory + "/" + $0 } + ["--workload", workload, "--out", directory + "/m.csv"])
    }
    let missing = try await merge(["p1.csv", "p2.csv"])
    #expect(missing.status == 65)
    #expect(missing.stderr.contains("shard 3/3 is missing"))
    #expect(!FileManager.default.fileExists(atPath: directory + "/m.csv"))
    let twice = try await merge(["p1.csv", "p1.csv", "p2.csv"])
    #expect(twice.status == 65 && twice.stderr.contains("are both shard 1/3"))
    // Shard 1 without its last configuration (sqlite × typePolicy's rows), shard 2 with half its rows.
    let lines = try String(contentsOfFile: directory + "/p1.csv", encoding: .utf8).split(separator: "\n").map(String.init)
    try (lines.filter { !$0.contains(",sqlite,typePolicy,") }.joined(separator: "\n") + "\n")
      .write(toFile: directory + "/short1.csv", atomically: true, encoding: .utf8)
    let half = try String(contentsOfFile: directory + "/p2.csv", encoding: .utf8).split(separator: "\n").map(String.init)
    try (half.prefix(half.count / 2).joined(separator: "\n") + "\n").write(
      toFile: directory + "/half2.csv", atomically: true, encoding: .utf8)
    let lost = try await merge(["short1.csv", "p2.csv", "p3.csv"])
    #expect(lost.status == 65)
    #expect(
      lost.stderr.hasPrefix("Error: \(directory)/short1.csv lacks 1 of shard 1/3's 3 configurations (sqlite × typePolicy)"),
      "\(lost.stderr)")
    let halved = try await merge(["p1.csv", "half2.csv", "p3.csv"])
    #expect(halved.status == 65)
    #expect(halved.stderr.hasPrefix("Error: \(directory)/half2.csv lacks "), "\(halved.stderr)")
    #expect(!FileManager.default.fileExists(atPath: directory + "/m.csv"))
    let whole = try await merge(["p3.csv", "p1.csv", "p2.csv"])
    #expect(whole.status == 0, "\(whole.stderr)")
    let noWorkload = try await cachebench(["merge", directory + "/p1.csv", "--out", directory + "/x.csv"])
    #expect(noWorkload.status == 64)
    let tooMany = try await cachebench(["run", workload, "--quick", "--shard", "9/9", "--out", directory + "/x.csv", "--no-progress"])
    #expect(tooMany.status == 64)
    #expect(tooMany.stderr.contains("--shard 9/9: sharded has 8 configurations, so at most 8 shards."))
    for malformed in ["4/3", "+1/+3"] {
      let run = try await cachebench(["run", workload, "--shard", malformed, "--out", directory + "/x.csv"])
      #expect(run.status == 64 && run.stderr.contains("expected K/N with 1 <= K <= N"), "\(malformed)")
    }
  }

  @Test("merge refuses a part that holds every configuration but not all of one's rows, naming the configuration and the row")
  func partsNotWhole() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let workload = fixtures + "/ci/sharded.json"
    for part in 1...3 {
      let run = try await cachebench([
        "run", workload, "--quick", "--shard", "\(part)/3", "--out", directory + "/p\(part).csv", "--no-progress",
      ])
      #expect(run.status == 0, "\(run.stderr)")
    }
    /// Part `k` without the lines that `drop` picks, as `name`.
    func write(_ k: Int, as name: String, dropping drop: (Int, String) -> Bool) throws {
      let lines = try String(contentsOfFile: directory + "/p\(k).csv", encoding: .utf8).split(separator: "\n").map(String.init)
      let kept = lines.enumerated().filter { !drop($0.offset, $0.element) }.map(\.element)
      #expect(kept.count < lines.count)
      try (kept.joined(separator: "\n") + "\n").write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
    }
    // Shard 1 ends with the counts of its three configurations' rows (memory × path, sqlite ×
    // typePolicy, limit-sqlite × path). Cut at a line end: the last count gone; the counts and its
    // last row (sqlite × typePolicy's read against limit-sqlite's) gone.
    let count = try String(contentsOfFile: directory + "/p1.csv", encoding: .utf8).split(separator: "\n").count
    try write(1, as: "count1.csv") { index, _ in index == count - 1 }
    try write(1, as: "cut1.csv") { index, _ in index >= count - 4 }
    // memory × path's rows in the part, counted here, and what its count row says.
    let lines = try String(contentsOfFile: directory + "/p1.csv", encoding: .utf8).split(separator: "\n")
    let memoryPathRows = lines.filter {
      ($0.contains(",,memory,path,") || $0.contains(",memory,path,concurrency,")) && !$0.contains(",shard,rows,")
    }.count
    #expect(lines.filter { $0.contains(",shard,rows,") }.count == 3)
    #expect(
      lines[count - 3].contains(",,memory,path,shard,rows,count,lower,true,1,\(memoryPathRows),\(memoryPathRows),"), "\(lines[count - 3])")
    // A row of memory × path lost from the middle, which no other row is made from.
    try write(1, as: "middle1.csv") { _, line in line.contains(",,memory,path,dedup,objects,") }
    // Shard 2 without one concurrency row of memory × typePolicy at 2 readers, or without all of them.
    try write(2, as: "row2.csv") { _, line in line.contains(",readers=2,memory,typePolicy,concurrency,write_latency,") }
    try write(2, as: "readers2.csv") { _, line in line.contains(",readers=2,memory,typePolicy,") }
    try write(2, as: "noreaders2.csv") { _, line in
      line.contains(",readers=1,memory,typePolicy,") || line.contains(",readers=2,memory,typePolicy,")
    }
    // Shard 1 with memory × path's object count written again over the row after it (edited, as
    // by hand): every count row still adds up, but one metric has two rows.
    var edited = lines.map(String.init)
    let objects = try #require(edited.firstIndex { $0.contains(",,memory,path,dedup,objects,") })
    #expect(edited[objects + 1].contains(",,memory,path,") && !edited[objects + 1].contains(",dedup,objects,"))
    edited[objects + 1] = edited[objects]
    try (edited.joined(separator: "\n") + "\n").write(toFile: directory + "/twice1.csv", atomically: true, encoding: .utf8)
    let twice = "twice1.csv:\(objects + 2): a second row of sharded/memory/path/dedup/objects: line \(objects + 1) holds it already"
    // Shard 1 without the limit store's merge latency that sqlite × path's ratio is made from.
    try write(1, as: "limit1.csv") { _, line in line.contains(",limit-sqlite,path,merge,latency,") }
    let cases = [
      (
        ["cut1.csv", "p2.csv", "p3.csv"],
        "cut1.csv lacks the row sqlite × typePolicy read/latency_vs_limit: it is not a whole part of this run"
      ),
      (
        ["count1.csv", "p2.csv", "p3.csv"],
        "count1.csv, line \(count - 1): the part ends without the count of limit-sqlite × path's rows: it was cut short"
      ),
      (
        ["middle1.csv", "p2.csv", "p3.csv"],
        "middle1.csv, line \(count - 3): memory × path has \(memoryPathRows - 1) rows in the part where its count row says \(memoryPathRows): rows were lost"
      ),
      (["twice1.csv", "p2.csv", "p3.csv"], twice),
      (
        ["p1.csv", "row2.csv", "p3.csv"],
        "row2.csv lacks the row memory × typePolicy readers=2 concurrency/write_latency: it is not a whole part of this run"
      ),
      (
        ["p1.csv", "readers2.csv", "p3.csv"],
        "readers2.csv lacks the rows of memory × typePolicy at readers=2: it is not a whole part of this run"
      ),
      (
        ["p1.csv", "noreaders2.csv", "p3.csv"],
        "noreaders2.csv lacks the rows of memory × typePolicy at readers=1: it is not a whole part of this run"
      ),
      (
        ["limit1.csv", "p2.csv", "p3.csv"],
        "limit1.csv lacks the row limit-sqlite × path merge/latency, which sqlite × path's row merge/latency_vs_limit is made from: it is not a whole part of this run"
      ),
    ]
    for (parts, message) in cases {
      let run = try await cachebench(
        ["merge"] + parts.map { directory + "/" + $0 } + ["--workload", workload, "--out", directory + "/m.csv"])
      #expect(run.status == 65, "\(parts): \(run.stderr)")
      #expect(run.stderr == "Error: \(directory)/\(message)\n")
      #expect(!FileManager.default.fileExists(atPath: directory + "/m.csv"))
    }
    let whole = try await cachebench(
      ["merge", directory + "/p1.csv", directory + "/p2.csv", directory + "/p3.csv", "--workload", workload, "--out", directory + "/m.csv"])
    #expect(whole.status == 0, "\(whole.stderr)")
    let merged = try String(contentsOfFile: directory + "/m.csv", encoding: .utf8)
    #expect(!merged.contains(",shard,rows,"))
    // report, compare and export read a part's counts too: the part that lost a row is refused.
    for command in [
      ["report", directory + "/middle1.csv", "--out", directory + "/r.md"], ["compare", directory + "/p1.csv", directory + "/middle1.csv"],
    ] {
      let run = try await cachebench(command)
      #expect(run.status == 65, "\(command): \(run.stderr)")
      #expect(
        run.stderr.hasPrefix(
          "Error: \(directory)/middle1.csv:\(count - 3): memory × path has \(memoryPathRows - 1) rows in the part where its count row says \(memoryPathRows): rows were lost\n"
        ),
        "\(run.stderr)")
    }
    // ... and the part with a metric twice, by its line.
    for command in [
      ["report", directory + "/twice1.csv", "--out", directory + "/r.md"],
      ["export", directory + "/twice1.csv", "--format", "bmf", "--out", directory + "/r.json"],
    ] {
      let run = try await cachebench(command)
      #expect(run.status == 65, "\(command): \(run.stderr)")
      #expect(run.stderr == "Error: \(directory)/\(twice)\n", "\(command)")
      #expect(
        !FileManager.default.fileExists(atPath: directory + "/r.md") && !FileManager.default.fileExists(atPath: directory + "/r.json"))
    }
  }

}

@Suite("The new commands' help and version", .timeLimit(.minutes(10)))
struct NewCommandsHelpTests {
  @Test("export, merge, report and thresholds print OVERVIEW, USAGE and OPTIONS", arguments: ["export", "merge", "report", "thresholds"])
  func help(command: String) async throws {
    let run = try await cachebench([command, "--help"])
    #expect(run.status == 0)
    #expect(run.stdout.hasPrefix("OVERVIEW: "))
    #expect(run.stdout.contains("\nUSAGE: cachebench \(command) "))
    #expect(run.stdout.contains("\nOPTIONS:\n"))
  }

  @Test("--version: the version, the revision, the toolchain")
  func version() async throws {
    let run = try await cachebench(["--version"])
    #expect(run.status == 0)
    let lines = run.stdout.split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines[0].hasPrefix("cachebench 0."))
    #expect(lines[1].hasPrefix("git revision: "))
    #expect(lines[2].hasPrefix("built with: Swift 6."))
  }
}
