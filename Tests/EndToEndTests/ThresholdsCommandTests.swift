import Foundation
import Testing

/// Issue 56 item 5 and issue 57 item 3, through the binary: `compare --thresholds`, `thresholds
/// update`, and the gate's filter of deterministic rows (`export --format csv
/// --deterministic-only`), which a quoted comma no longer shifts.
@Suite("Thresholds and the gate's filter", .timeLimit(.minutes(10)))
struct ThresholdsCommandTests {
  static let header =
    "run_id,timestamp,git_rev,host,workload,variant,store,keys,phase,metric,unit,better,deterministic,n,min,p50,p90,p99,max,mean,stddev\n"
  static let thresholdsHeader = "workload,variant,store,keys,phase,metric,relative_percent,absolute\n"

  /// A results CSV: write allocations (deterministic, every statistic `allocations`), write
  /// latency (a timing at `latency`), and a deterministic row of a variant holding a comma.
  static func results(allocations: Int = 100, latency: Int = 1000, quoted: Int = 7) -> String {
    header
      + "r1,t,g,h,w,,memory,path,write,allocations,count,lower,true,3,\(allocations),\(allocations),\(allocations),\(allocations),\(allocations),\(allocations),0\n"
      + "r1,t,g,h,w,,memory,path,write,latency,ns,lower,false,3,\(latency),\(latency),\(latency),\(latency),\(latency),\(latency),0\n"
      + "r1,t,g,h,w,\"a,b\",memory,path,write,allocated_bytes,bytes,lower,true,1,\(quoted),\(quoted),\(quoted),\(quoted),\(quoted),\(quoted),0\n"
  }

  /// Runs `arguments` in a fresh directory holding `files`.
  private func run(_ arguments: [String], files: [String: String]) async throws -> (Run, String) {
    let directory = try temporaryDirectory()
    for (name, text) in files { try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8) }
    return (try await cachebench(arguments, in: directory), directory)
  }

  @Test("compare: a row beyond the default but within its own tolerance passes; within the global threshold but beyond its own is advisory")
  func compareWithThresholds() async throws {
    let files = ["a.csv": Self.results(), "b.csv": Self.results(allocations: 103, latency: 1050)]
    let (plain, plainDirectory) = try await run(["compare", "a.csv", "b.csv"], files: files)
    defer { try? FileManager.default.removeItem(atPath: plainDirectory) }
    #expect(plain.status == 2)
    #expect(plain.stdout.contains("1 regressed, 0 improved, 2 unchanged, 0 advisory"), "\(plain.stdout)")
    let thresholds = Self.thresholdsHeader + "w,,memory,path,write,allocations,0,5\n*,*,*,*,*,latency,2,0\n"
    let (judged, directory) = try await run(
      ["compare", "a.csv", "b.csv", "--thresholds", "t.csv", "--out", "v.csv"], files: files.merging(["t.csv": thresholds]) { $1 })
    defer { try? FileManager.default.removeItem(atPath: directory) }
    #expect(judged.status == 0, "\(judged.stderr)")
    #expect(
      judged.stdout.hasSuffix(
        "0 regressed, 0 improved, 2 unchanged, 1 advisory, 0 inconclusive, 0 added, 0 removed (deterministic metrics on every statistic, "
          + "tolerance 0 (instructions 0.5%); timings advisory beyond 10%; 2 metrics by t.csv)\n"), "\(judged.stdout)")
    let verdicts = try String(contentsOfFile: directory + "/v.csv", encoding: .utf8)
    #expect(verdicts.contains("w,,memory,path,write,allocations,count,lower,true,100,103,1.03,,,,unchanged,p50\n"), "\(verdicts)")
    #expect(verdicts.contains("w,,memory,path,write,latency,ns,lower,false,1000,1050,1.05,,,,advisory,p50\n"), "\(verdicts)")
  }

  @Test(
    "compare --thresholds: a bad file is 65 naming the file, the line (both, for a tie) and the column",
    arguments: [
      (
        "w,,memory,path,write,allocations,-1,0\n",
        "Error: t.csv:2: column 'relative_percent': expected a tolerance of 0 or more, found '-1'\n"
      ),
      ("*,*,*,*,*,alocations,1,0\n", "Error: t.csv:2: column 'metric': unknown metric 'alocations': no row of the files compared has it\n"),
      ("*,*,*,*,*,latency,1,0\n*,*,*,*,*,latency,2,0\n", "Error: t.csv:3: a second entry for */*/*/*/*/latency: line 2 holds it already\n"),
      (
        "*,*,memory,*,*,latency,1,0\n*,*,*,path,*,latency,2,0\n",
        "Error: t.csv:3: line 2 and line 3 both match w/memory/path/write/latency, each naming 2 columns: add an entry that names more, or remove one\n"
      ),
    ])
  func badThresholds(body: String, stderr: String) async throws {
    let (run, directory) = try await run(
      ["compare", "a.csv", "b.csv", "--thresholds", "t.csv"],
      files: ["a.csv": Self.results(), "b.csv": Self.results(), "t.csv": Self.thresholdsHeader + body])
    defer { try? FileManager.default.removeItem(atPath: directory) }
    #expect(run.status == 65)
    #expect(run.stderr == stderr)
    #expect(run.stdout.isEmpty)
  }

  @Test("compare --thresholds: a missing file is 66; the file named as --out is 64, before anything is read")
  func thresholdsFileErrors() async throws {
    let (missing, directory) = try await run(
      ["compare", "a.csv", "b.csv", "--thresholds", "t.csv"], files: ["a.csv": Self.results(), "b.csv": Self.results()])
    defer { try? FileManager.default.removeItem(atPath: directory) }
    #expect(missing.status == 66, "\(missing.stderr)")
    let (collision, other) = try await run(
      ["compare", "a.csv", "b.csv", "--thresholds", "t.csv", "--out", "t.csv"],
      files: ["a.csv": Self.results(), "b.csv": Self.results(), "t.csv": Self.thresholdsHeader])
    defer { try? FileManager.default.removeItem(atPath: other) }
    #expect(collision.status == 64)
    #expect(
      collision.stderr.hasPrefix("Error: '--out' names '--thresholds', 't.csv': an output may not replace a file the command reads.\n"))
    #expect(try String(contentsOfFile: other + "/t.csv", encoding: .utf8) == Self.thresholdsHeader)
  }

  @Test("thresholds update writes one entry per baseline row from the runs' spread, and compare passes those runs with it")
  func update() async throws {
    let files = [
      "a.csv": Self.results(), "b.csv": Self.results(allocations: 102, latency: 1180), "c.csv": Self.results(allocations: 99, latency: 930),
    ]
    let (run, directory) = try await run(["thresholds", "update", "a.csv", "b.csv", "c.csv", "--out", "out/t.csv"], files: files)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout == "wrote 3 entries to out/t.csv, from a.csv and 2 more runs\n")
    let written = try String(contentsOfFile: directory + "/out/t.csv", encoding: .utf8)
    #expect(
      written == Self.thresholdsHeader + "w,,memory,path,write,allocations,0,2\nw,,memory,path,write,latency,18,0\n"
        + "w,\"a,b\",memory,path,write,allocated_bytes,0,0\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/out") == ["t.csv"])  // no temporary file left
    let compared = try await cachebench(["compare", "a.csv", "b.csv", "--thresholds", "out/t.csv"], in: directory)
    #expect(compared.status == 0)
    #expect(compared.stdout.hasPrefix("0 regressed, 0 improved, 3 unchanged, 0 advisory"), "\(compared.stdout)")
  }

  @Test(
    "thresholds: an unknown action, too few arguments, no --out: 64 with the usage",
    arguments: [
      (
        ["thresholds", "updat", "a.csv", "--out", "t.csv"],
        "Error: Unknown action 'updat'; 'thresholds' takes: update. Did you mean 'update'?\n"
      ),
      (["thresholds", "update", "--out", "t.csv"], "Error: Missing expected argument 'update <BASELINE.csv> [<RUN.csv>...]'.\n"),
      (["thresholds", "update", "a.csv"], "Error: Missing expected option '--out <FILE.csv>'.\n"),
    ])
  func updateUsage(arguments: [String], stderr: String) async throws {
    let (run, directory) = try await run(arguments, files: ["a.csv": Self.results()])
    defer { try? FileManager.default.removeItem(atPath: directory) }
    #expect(run.status == 64)
    #expect(
      run.stderr.hasPrefix(stderr + "Usage: cachebench thresholds update <BASELINE.csv> [<RUN.csv>...] --out <FILE.csv>\n"), "\(run.stderr)"
    )
  }

  @Test("export --format csv --deterministic-only keeps a row whose quoted field holds a comma, which awk -F, shifted")
  func deterministicFilter() async throws {
    let (run, directory) = try await run(["export", "r.csv", "--format", "csv", "--deterministic-only"], files: ["r.csv": Self.results()])
    defer { try? FileManager.default.removeItem(atPath: directory) }
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      run.stdout == Self.header + "r1,t,g,h,w,,memory,path,write,allocations,count,lower,true,3,100,100,100,100,100,100,0\n"
        + "r1,t,g,h,w,\"a,b\",memory,path,write,allocated_bytes,bytes,lower,true,1,7,7,7,7,7,7,0\n")
    let better = try await cachebench(["export", "r.csv", "--format", "csv", "--better", "lower"], in: directory)
    #expect(better.status == 64)
    #expect(better.stderr.hasPrefix("Error: '--better' is for github-action-benchmark: a results CSV holds both directions.\n"))
  }

  @Test("scripts/gate keeps the deterministic rows with cachebench's reader: a quoted comma is kept, judged, and its regression fails")
  func gateScript() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try FileManager.default.createDirectory(atPath: directory + "/scripts", withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: projectRoot.path + "/scripts/gate", toPath: directory + "/scripts/gate")
    // A cachebench whose run writes run.csv as its results; every other command is the real one.
    let fake = try script(
      in: directory, named: "fake-cachebench",
      """
      if [ "$1" = run ]; then
        while [ $# -gt 0 ]; do [ "$1" = --out ] && cp "\(directory)/run.csv" "$2"; shift; done
        exit 0
      fi
      exec "\(binary.path)" "$@"
      """)
    let environment = ["CACHEBENCH": fake, "GATE_WORKLOAD": "Workloads/q.json", "GITHUB_STEP_SUMMARY": ""]
    try Self.results().write(toFile: directory + "/run.csv", atomically: true, encoding: .utf8)
    let baseline = try await runProcess(directory + "/scripts/gate", ["baseline"], in: directory, environment: environment)
    #expect(baseline.status == 0, "\(baseline.stderr)")
    #expect(baseline.stdout.hasPrefix("wrote 2 deterministic rows to Baselines/q.csv, made on:\n"), "\(baseline.stdout)")
    let kept = try String(contentsOfFile: directory + "/Baselines/q.csv", encoding: .utf8)
    #expect(kept.hasSuffix("r1,t,g,h,w,\"a,b\",memory,path,write,allocated_bytes,bytes,lower,true,1,7,7,7,7,7,7,0\n"), "\(kept)")
    // The quoted row got worse: the gate fails on it.
    try Self.results(quoted: 8).write(toFile: directory + "/run.csv", atomically: true, encoding: .utf8)
    let check = try await runProcess(directory + "/scripts/gate", ["check"], in: directory, environment: environment)
    #expect(check.status == 2, "\(check.stderr)")
    #expect(check.stdout.contains("a,b"), "\(check.stdout)")
    #expect(check.stdout.contains("1 regressed, 0 improved, 1 unchanged"), "\(check.stdout)")
    // With the repository's thresholds file beside the baseline, its tolerance decides.
    try (Self.thresholdsHeader + "w,\"a,b\",*,*,*,allocated_bytes,0,1\n")
      .write(toFile: directory + "/Baselines/q.thresholds.csv", atomically: true, encoding: .utf8)
    let tolerated = try await runProcess(directory + "/scripts/gate", ["check"], in: directory, environment: environment)
    #expect(tolerated.status == 0, "\(tolerated.stderr)")
    #expect(tolerated.stdout.contains("0 regressed, 0 improved, 2 unchanged"), "\(tolerated.stdout)")
    #expect(tolerated.stdout.contains("1 metric by Baselines/q.thresholds.csv)"), "\(tolerated.stdout)")
  }
}
