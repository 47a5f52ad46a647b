import Foundation
import Testing

/// Issue 38, "outputs that cannot overwrite each other": two outputs of one command that name one
/// file (as given, after standardizing the path, through a symbolic link, or an option's default)
/// are a usage error, 64, before anything is read or run: the second write would replace the first
/// (`soak --out S --series S` kept the series and lost the growth table).
@Suite("Outputs that name one file", .timeLimit(.minutes(10)))
struct OutputCollisionTests {
  typealias Case = HostileInputTests.Case

  /// A tiny workload named `w`, with a short traffic session for `soak`.
  static let workload = NewerCommandsHostileTests.workload(stores: #"[{"kind": "memory"}]"#, extra: #", "traffic": {"steps": 100}"#)
  static let files = ["w.json": workload, "w2.json": workload]

  static func collision(_ name: String, _ arguments: [String], _ message: String) -> Case {
    Case(
      name: name, files: files, arguments: arguments, status: 64,
      stderr: "Error: \(message): each output needs a file of its own.\nUsage: cachebench \(arguments[0]) ")
  }

  /// An output on one of the command's inputs: 64 before anything is read, the input left as it was.
  static func input(_ name: String, _ arguments: [String], _ message: String) -> Case {
    Case(
      name: name, files: files, arguments: arguments, status: 64,
      stderr: "Error: \(message): an output may not replace a file the command reads.\nUsage: cachebench \(arguments[0]) ")
  }

  static let cases: [Case] = [
    collision("soak --out S --series S", ["soak", "w.json", "--out", "S", "--series", "S"], "'--out' and '--series' name one file, 'S'"),
    collision(
      "soak --series on --out's default", ["soak", "w.json", "--series", "results/w.csv"],
      "the default of '--out' and '--series' name one file, 'results/w.csv'"),
    collision(
      "run --out and --samples, one as ./", ["run", "w.json", "--out", "a.csv", "--samples", "./a.csv"],
      "'--out' and '--samples' name one file, './a.csv'"),
    collision(
      "run --out and --history through ..", ["run", "w.json", "--out", "a.csv", "--history", "d/../a.csv"],
      "'--out' and '--history' name one file, 'd/../a.csv'"),
    collision(
      "run --samples and --history", ["run", "w.json", "--samples", "h.csv", "--history", "h.csv"],
      "'--samples' and '--history' name one file, 'h.csv'"),
    collision(
      "run --samples on the default output", ["run", "w.json", "--samples", "results/runs/w.csv"],
      "the default output of w.json and '--samples' name one file, 'results/runs/w.csv'"),
    collision(
      "run of two workloads of one name without --out", ["run", "w.json", "w2.json"],
      "the default output of w.json and the default output of w2.json name one file, 'results/runs/w.csv'"),
    collision(
      "compare --out and --markdown", ["compare", "a.csv", "b.csv", "--out", "v", "--markdown", "v"],
      "'--out' and '--markdown' name one file, 'v'"),
    collision(
      "ab --out and --markdown", ["ab", "--base", "x", "--current", "y", "w.json", "--out", "v", "--markdown", "./v"],
      "'--out' and '--markdown' name one file, './v'"),
    input("compare --out on its baseline", ["compare", "a.csv", "b.csv", "--out", "./a.csv"], "'--out' names the input 'a.csv', 'a.csv'"),
    input(
      "compare --markdown on its current CSV", ["compare", "a.csv", "b.csv", "--markdown", "b.csv"],
      "'--markdown' names the input 'b.csv', 'b.csv'"),
    input("report --out on its results", ["report", "r.csv", "--out", "r.csv"], "'--out' names the input 'r.csv', 'r.csv'"),
    input(
      "report --out on its --samples", ["report", "r.csv", "--samples", "s.csv", "--out", "s.csv"], "'--out' names '--samples', 's.csv'"),
    input(
      "export --out on its results", ["export", "r.csv", "--format", "bmf", "--out", "r.csv"], "'--out' names the input 'r.csv', 'r.csv'"),
    input(
      "export --out on its --baseline",
      ["export", "r.csv", "--format", "apollo", "--samples", "s.csv", "--baseline", "b.json", "--out", "b.json"],
      "'--out' names '--baseline', 'b.json'"),
    input(
      "merge --out on a part", ["merge", "p1.csv", "p2.csv", "--workload", "w.json", "--out", "p2.csv"],
      "'--out' names the part 'p2.csv', 'p2.csv'"),
    input("run --samples on its workload", ["run", "w.json", "--samples", "w.json"], "'--samples' names the workload 'w.json', 'w.json'"),
    input("soak --out on its workload", ["soak", "w.json", "--out", "w.json"], "'--out' names the workload 'w.json', 'w.json'"),
    Case(
      name: "compare with one file on both sides, no output", files: ["a.csv": NewerCommandsHostileTests.results("5")],
      arguments: ["compare", "a.csv", "a.csv"],
      status: 0, stderr: ""),
    Case(
      name: "run --out and --samples both /dev/null", files: files,
      arguments: ["run", "w.json", "--out", "/dev/null", "--samples", "/dev/null", "--no-progress"],
      status: 0, stderr: ""),
  ]

  @Test("each pair of outputs that name one file: 64, naming both and the file", arguments: cases)
  func collisions(_ testCase: Case) async throws {
    try await expectHostile(testCase)
  }

  @Test("nothing is written or read: soak's outputs are not made, a history that is not a results CSV is not reported")
  func nothingWritten() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try Self.workload.write(toFile: directory + "/w.json", atomically: true, encoding: .utf8)
    try "not a history\n".write(toFile: directory + "/h.csv", atomically: true, encoding: .utf8)
    let soak = try await cachebench(["soak", "w.json", "--out", "S", "--series", "S"], in: directory)
    #expect(soak.status == 64 && soak.stdout.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: directory + "/S"))
    let run = try await cachebench(["run", "w.json", "--out", "h.csv", "--history", "h.csv"], in: directory)
    #expect(run.status == 64, "\(run.stderr)")
    #expect(try String(contentsOfFile: directory + "/h.csv", encoding: .utf8) == "not a history\n")
  }

  @Test("a symbolic link and its target, or a linked directory and the real one, are one file")
  func links() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try Self.workload.write(toFile: directory + "/w.json", atomically: true, encoding: .utf8)
    try FileManager.default.createSymbolicLink(atPath: directory + "/link.csv", withDestinationPath: "target.csv")
    try FileManager.default.createDirectory(atPath: directory + "/real", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: directory + "/linked", withDestinationPath: "real")
    let toTarget = try await cachebench(["run", "w.json", "--out", "link.csv", "--samples", "target.csv"], in: directory)
    #expect(toTarget.status == 64)
    #expect(toTarget.stderr.hasPrefix("Error: '--out' and '--samples' name one file, 'target.csv'"), "\(toTarget.stderr)")
    let throughDirectory = try await cachebench(["run", "w.json", "--out", "linked/r.csv", "--samples", "real/r.csv"], in: directory)
    #expect(throughDirectory.status == 64)
    #expect(throughDirectory.stderr.hasPrefix("Error: '--out' and '--samples' name one file, 'real/r.csv'"), "\(throughDirectory.stderr)")
    #expect(!FileManager.default.fileExists(atPath: directory + "/target.csv"))
  }
}
