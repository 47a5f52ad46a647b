import Foundation
import Testing

/// Each hostile case of `cases`' kind, awaited: its files written in a fresh directory, the
/// binary run there; its exit code, the start of its standard error (none when empty), and no
/// standard output on failure.
func expectHostile(_ testCase: HostileInputTests.Case, sourceLocation: SourceLocation = #_sourceLocation) async throws {
  let directory = try temporaryDirectory()
  defer { try? FileManager.default.removeItem(atPath: directory) }
  for (name, text) in testCase.files { try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8) }
  let run = try await cachebench(testCase.arguments, in: directory, sourceLocation: sourceLocation)
  #expect(run.status == testCase.status, "\(run.stderr)", sourceLocation: sourceLocation)
  #expect(
    testCase.stderr.isEmpty ? run.stderr.isEmpty : run.stderr.hasPrefix(testCase.stderr), "\(run.stderr.prefix(400))",
    sourceLocation: sourceLocation)
  if testCase.status != 0 { #expect(run.stdout.isEmpty, "\(run.stdout.prefix(400))", sourceLocation: sourceLocation) }
}
