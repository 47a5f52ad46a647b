import Foundation
import Testing

/// ``cachebench(_:in:environment:input:timeout:sourceLocation:)`` awaited rather than waited for:
/// the child is started and waited for on a thread of its own, so that a test does not hold one of
/// the cooperative pool's threads (as many as cores) while the binary runs, and the other suites'
/// tests, whose time limits run meanwhile, are not starved of threads.
func awaitCachebench(
  _ arguments: [String], in directory: String = projectRoot.path, environment: [String: String] = [:], input: String? = nil,
  timeout: Duration = .seconds(480), sourceLocation: SourceLocation = #_sourceLocation
) async throws -> Run {
  try await withCheckedThrowingContinuation { continuation in
    let thread = Thread {
      continuation.resume(
        with: Result {
          try cachebench(arguments, in: directory, environment: environment, input: input, timeout: timeout, sourceLocation: sourceLocation)
        })
    }
    thread.start()
  }
}

/// Each hostile case of `cases`' kind, awaited: its files written in a fresh directory, the
/// binary run there; its exit code, the start of its standard error (none when empty), and no
/// standard output on failure.
func expectHostile(_ testCase: HostileInputTests.Case, sourceLocation: SourceLocation = #_sourceLocation) async throws {
  let directory = try temporaryDirectory()
  defer { try? FileManager.default.removeItem(atPath: directory) }
  for (name, text) in testCase.files { try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8) }
  let run = try await awaitCachebench(testCase.arguments, in: directory, sourceLocation: sourceLocation)
  #expect(run.status == testCase.status, "\(run.stderr)", sourceLocation: sourceLocation)
  #expect(
    testCase.stderr.isEmpty ? run.stderr.isEmpty : run.stderr.hasPrefix(testCase.stderr), "\(run.stderr.prefix(400))",
    sourceLocation: sourceLocation)
  if testCase.status != 0 { #expect(run.stdout.isEmpty, "\(run.stdout.prefix(400))", sourceLocation: sourceLocation) }
}
