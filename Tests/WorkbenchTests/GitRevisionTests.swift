import Foundation
import Results
import Support
import Testing

@testable import Workbench

@Suite("The run's git revision", .timeLimit(.minutes(10)))
struct GitRevisionTests {
  /// What git itself says, through /usr/bin/env (the code under test finds it on the PATH).
  static func git(_ arguments: [String]) throws -> (status: Int32, output: String) {
    let outcome = try ChildProcess.run("/usr/bin/env", ["git"] + arguments, errors: .discard, timeout: .seconds(30))
    guard !outcome.timedOut else { throw GitTimedOut() }
    return (outcome.termination.status, outcome.outputText.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  @Test("is git's short HEAD, with -dirty when tracked files changed; unknown outside a repository")
  func revision() async throws {
    // git runs on a thread of its own, not on one of the cooperative pool's (issue 38).
    let (head, dirty, revision) = try await withCheckedThrowingContinuation { continuation in
      Thread {
        continuation.resume(
          with: Result {
            let head = try Self.git(["rev-parse", "--short=12", "HEAD"])
            let dirty = try !Self.git(["status", "--porcelain", "--untracked-files=no"]).output.isEmpty
            return (head, dirty, RunInfo.gitRevision())
          })
      }.start()
    }
    if head.status == 0 {
      #expect(revision == head.output + (dirty ? "-dirty" : ""))
    } else {
      #expect(revision == "unknown")
    }
  }

  struct GitTimedOut: Error {}
}
