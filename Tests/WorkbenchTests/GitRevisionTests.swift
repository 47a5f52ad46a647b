import Foundation
import Results
import Testing

@testable import Workbench

@Suite("The run's git revision")
struct GitRevisionTests {
  /// What git itself says, through Foundation (the code under test spawns it directly).
  func git(_ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["git"] + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
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
