import Foundation
import Testing

/// Issue 38, "a file cut short is an error": every command that reads back what cachebench wrote
/// (results, samples and verdict CSVs, a history, Apollo's dataset) refuses a file whose last line
/// has no line end, which a copy or an upload that stopped leaves, with its last number cut
/// (`12.75` read as `12.7`) and every field still there. 65, naming the file and the line.
@Suite("Files cut short", .timeLimit(.minutes(10)))
struct CutShortTests {
  typealias Case = HostileInputTests.Case

  /// A results CSV of four rows whose last field (the standard deviation) is `12.75`.
  static let results = NewerCommandsHostileTests.results("5").replacingOccurrences(of: ",0\n", with: ",12.75\n")
  static let samples = "run_id,workload,variant,store,keys,phase,metric,unit,index,value\nr1,w,,memory,path,write,latency,ns,0,812\n"

  /// `text` cut inside its last value: its line end and last character gone.
  static func cut(_ text: String) -> String { String(text.dropLast(2)) }

  static let message = "the last line has no line end: the file was cut short or not written whole"
  static let apollo = fixtures + "/apollo"

  static let cases: [Case] = [
    Case(
      name: "report of a results CSV cut short", files: ["r.csv": cut(results)], arguments: ["report", "r.csv", "--out", "r.html"],
      status: 65, stderr: "Error: r.csv:5: \(message)"),
    Case(
      name: "report with --samples cut short", files: ["r.csv": results, "s.csv": cut(samples)],
      arguments: ["report", "r.csv", "--samples", "s.csv", "--out", "r.html"], status: 65, stderr: "Error: s.csv:2: \(message)"),
    Case(
      name: "export --format bmf of a results CSV cut short", files: ["r.csv": cut(results)],
      arguments: ["export", "r.csv", "--format", "bmf"],
      status: 65, stderr: "Error: r.csv:5: \(message)"),
    Case(
      name: "export --format github-action-benchmark of a results CSV cut short", files: ["r.csv": cut(results)],
      arguments: ["export", "r.csv", "--format", "github-action-benchmark"], status: 65, stderr: "Error: r.csv:5: \(message)"),
    Case(
      name: "compare with a current CSV cut short", files: ["a.csv": results, "b.csv": cut(results)],
      arguments: ["compare", "a.csv", "b.csv"],
      status: 65, stderr: "Error: b.csv:5: \(message)"),
    Case(
      name: "compare with a baseline CSV cut short", files: ["a.csv": cut(results), "b.csv": results],
      arguments: ["compare", "a.csv", "b.csv"],
      status: 65, stderr: "Error: a.csv:5: \(message)"),
    Case(
      name: "merge of a part cut short",
      files: ["w.json": NewerCommandsHostileTests.workload(stores: #"[{"kind": "memory"}]"#), "p.csv": cut(results)],
      arguments: ["merge", "p.csv", "--workload", "w.json", "--out", "m.csv"], status: 65, stderr: "Error: p.csv:5: \(message)"),
    Case(
      name: "run --history of a history cut short",
      files: ["w.json": NewerCommandsHostileTests.workload(stores: #"[{"kind": "memory"}]"#), "h.csv": cut(results)],
      arguments: ["run", "w.json", "--out", "o.csv", "--history", "h.csv", "--no-progress"], status: 65,
      stderr: "Error: h.csv:5: \(message)"),
  ]

  @Test("each reader refuses a file cut short: 65, the file and its last line", arguments: cases)
  func refused(_ testCase: Case) async throws {
    try await expectHostile(testCase)
  }

  @Test("the same files whole are read")
  func wholeFilesRead() async throws {
    try await expectHostile(
      Case(name: "", files: ["r.csv": Self.results], arguments: ["export", "r.csv", "--format", "bmf"], status: 0, stderr: ""))
    try await expectHostile(
      Case(
        name: "", files: ["a.csv": Self.results, "b.csv": Self.results], arguments: ["compare", "a.csv", "b.csv"], status: 0, stderr: ""))
  }

  @Test("report with --comparison cut short")
  func comparison() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try Self.results.write(toFile: directory + "/r.csv", atomically: true, encoding: .utf8)
    let compared = try await cachebench(["compare", "r.csv", "r.csv", "--out", "v.csv"], in: directory)
    #expect(compared.status == 0, "\(compared.stderr)")
    let verdicts = try String(contentsOfFile: directory + "/v.csv", encoding: .utf8)
    let lines = verdicts.split(separator: "\n").count
    try Self.cut(verdicts).write(toFile: directory + "/v.csv", atomically: true, encoding: .utf8)
    let run = try await cachebench(["report", "r.csv", "--comparison", "v.csv", "--out", "r.html"], in: directory)
    #expect(run.status == 65)
    #expect(run.stderr.hasPrefix("Error: v.csv:\(lines): \(Self.message)"), "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: directory + "/r.html"))
  }

  @Test("export --format apollo with --samples or --baseline cut short; a baseline that is whole JSON but for its line end")
  func apolloInputs() async throws {
    let samples = try String(contentsOfFile: Self.apollo + "/tier2-samples.csv", encoding: .utf8)
    let baseline = try String(contentsOfFile: Self.apollo + "/baseline-2.x-excerpt.json", encoding: .utf8)
    let results = Self.apollo + "/tier2.csv"
    try await expectHostile(
      Case(
        name: "", files: ["s.csv": Self.cut(samples)], arguments: ["export", results, "--format", "apollo", "--samples", "s.csv"],
        status: 65,
        stderr: "Error: s.csv:\(samples.split(separator: "\n").count): \(Self.message)"))
    // Only the line end gone: the JSON still parses, and is refused all the same.
    try await expectHostile(
      Case(
        name: "", files: ["b.json": String(baseline.dropLast())],
        arguments: ["export", results, "--format", "apollo", "--samples", Self.apollo + "/tier2-samples.csv", "--baseline", "b.json"],
        status: 65, stderr: "Error: b.json:\(baseline.split(separator: "\n").count): \(Self.message)"))
  }
}
