import Foundation
import Testing

/// The scripts under scripts/ end with one line on standard error on bad arguments or input, never
/// a traceback or a silent success (docs/command-line.md#make-targets-and-scripts).
@Suite("Scripts: bad arguments and input", .timeLimit(.minutes(5)))
struct ScriptsTests {
  static let scripts = projectRoot.appendingPathComponent("scripts").path

  /// Every script under scripts/ (not its C sources, nor the directories of sources a script
  /// builds, such as apollo3-interop-src), whatever is added later.
  static func allScripts() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: scripts).filter { name in
      var isDirectory: ObjCBool = false
      _ = FileManager.default.fileExists(atPath: scripts + "/" + name, isDirectory: &isDirectory)
      return !name.hasSuffix(".c") && !isDirectory.boolValue
    }.sorted()
  }

  @Test("every script, given an option it does not know: a failure with a message, never a traceback or a silent success")
  func unknownOption() async throws {
    let names = try Self.allScripts()
    #expect(names.count >= 15)
    for name in names {
      let path = Self.scripts + "/" + name
      let run =
        name.hasSuffix(".py")
        ? try await runProcess("/usr/bin/env", ["python3", path, "--no-such-option"], timeout: .seconds(60))
        : try await runProcess(path, ["--no-such-option"], timeout: .seconds(60))
      #expect(run.status != 0, "\(name)")
      #expect(!run.stderr.contains("Traceback"), "\(name): \(run.stderr)")
      #expect(run.stderr.split(separator: "\n").last.map { !$0.isEmpty } == true, "\(name): \(run.stderr)")
    }
  }

  @Test("function-lengths on a path that does not exist: exit 2, one line; on a file of its own: the long function listed")
  func functionLengths() async throws {
    let missing = try await runProcess("/usr/bin/env", ["python3", Self.scripts + "/function-lengths", "/nonexistent/Sources"])
    #expect(missing.status == 2)
    #expect(missing.stderr == "function-lengths: /nonexistent/Sources: no such file or directory\n")
    #expect(missing.stdout.isEmpty)
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    // A function of 5 lines: at most 4 lists it, at most 5 does not.
    try "func five() {\n  let a = 1\n  let b = \"}\"\n  print(a, b)\n}\n".write(
      toFile: directory + "/F.swift", atomically: true, encoding: .utf8)
    let long = try await runProcess("/usr/bin/env", ["python3", Self.scripts + "/function-lengths", "--max", "4", directory])
    #expect(long.status == 1)
    #expect(long.stdout == "\(directory)/F.swift:1: func five is 5 lines (at most 4)\n")
    let fits = try await runProcess("/usr/bin/env", ["python3", Self.scripts + "/function-lengths", "--max", "5", directory])
    #expect(fits.status == 0 && fits.stdout.isEmpty)
  }

  @Test("No function in Sources is over 60 lines (docs/guide-testing.md#habits-ci-keeps)")
  func sourcesKeepTheFunctionLength() async throws {
    let sources = URL(fileURLWithPath: Self.scripts).deletingLastPathComponent().appendingPathComponent("Sources").path
    let run = try await runProcess("/usr/bin/env", ["python3", Self.scripts + "/function-lengths", sources])
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.isEmpty)
  }

  @Test("calendar_narrow.py: an unknown argument and a response without items are one line and exit 2; --check passes on the shipped files")
  func calendarNarrow() async throws {
    let unknown = try await runProcess("/usr/bin/env", ["python3", Self.scripts + "/calendar_narrow.py", "--chek"])
    #expect(unknown.status == 2)
    #expect(unknown.stderr == "calendar_narrow.py: unknown argument '--chek' (usage: scripts/calendar_narrow.py [--check])\n")
    let check = try await runProcess("/usr/bin/env", ["python3", Self.scripts + "/calendar_narrow.py", "--check"])
    #expect(check.status == 0, "\(check.stderr)")
    // The script beside a calendar response that has no items: it reads ../Workloads/calendar/.
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try FileManager.default.createDirectory(atPath: directory + "/scripts", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: directory + "/Workloads/calendar", withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: Self.scripts + "/calendar_narrow.py", toPath: directory + "/scripts/calendar_narrow.py")
    let response = directory + "/Workloads/calendar/calendar_response.json"
    for text in [#"{"data": {"viewer": {}}}"#, #"{"data": {"items": {"edges": []}}}"#, "[1, 2]"] {
      try text.write(toFile: response, atomically: true, encoding: .utf8)
      let run = try await runProcess("/usr/bin/env", ["python3", directory + "/scripts/calendar_narrow.py"])
      #expect(run.status == 2, "\(text)")
      #expect(
        run.stderr.hasSuffix("/calendar_response.json: no data.items.edges to cut the narrow responses from\n"), "\(text): \(run.stderr)")
      #expect(run.stderr.split(separator: "\n").count == 1)
    }
    try "{\"data\": ".write(toFile: response, atomically: true, encoding: .utf8)
    let broken = try await runProcess("/usr/bin/env", ["python3", directory + "/scripts/calendar_narrow.py"])
    #expect(broken.status == 2 && broken.stderr.split(separator: "\n").count == 1, "\(broken.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/Workloads/calendar") == ["calendar_response.json"])
  }

  @Test("apollo-campaign: a harness that fails ends the campaign with one line and leaves no .tmp; RUNS must be a count")
  func apolloCampaign() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try FileManager.default.createDirectory(atPath: directory + "/harness/.build/release", withIntermediateDirectories: true)
    _ = try script(in: directory + "/harness/.build/release", named: "tier2", "echo '{\"partial\": ' ; exit 3")
    let run = try await runProcess(
      Self.scripts + "/apollo-campaign", [directory + "/harness", directory + "/out", "1"], environment: ["CACHEBENCH": binary.path])
    #expect(run.status == 1)
    #expect(
      run.stderr.hasSuffix("apollo-campaign: pair 1: Apollo's tier2 failed (run it in \(directory)/harness to see why)\n"), "\(run.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/out") == [])
    let runs = try await runProcess(
      Self.scripts + "/apollo-campaign", [directory + "/harness", directory + "/out", "x"], environment: ["CACHEBENCH": binary.path])
    #expect(runs.status == 64)
    #expect(runs.stderr == "apollo-campaign: RUNS must be a whole number from 1, got 'x'\n")
  }
}
