import Foundation
import Results
import Testing

@testable import Workbench

@Suite("The run's git revision", .timeLimit(.minutes(10)))
struct GitRevisionTests {
  /// What git itself says, through /usr/bin/env (the code under test finds it on the PATH).
  func git(_ arguments: [String]) throws -> (status: Int32, output: String) {
    let outcome = try ChildProcess.run("/usr/bin/env", ["git"] + arguments, errors: .discard, timeout: .seconds(30))
    #expect(!outcome.timedOut)
    return (outcome.termination.status, outcome.outputText.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  @Test("is git's short HEAD, with -dirty when tracked files changed; unknown outside a repository")
  func revision() throws {
    let head = try git(["rev-parse", "--short=12", "HEAD"])
    let revision = RunInfo.gitRevision()
    if head.status == 0 {
      let dirty = try !git(["status", "--porcelain", "--untracked-files=no"]).output.isEmpty
      #expect(revision == head.output + (dirty ? "-dirty" : ""))
    } else {
      #expect(revision == "unknown")
    }
  }
}
