import Foundation
import Testing

/// What keeps these tests from hanging CI: one runner starts every process (`runProcess` in
/// Binary.swift, on `ChildProcess`: both pipes read side by side, a deadline on every wait), and
/// every suite here has a time limit.
@Suite("Test hygiene", .timeLimit(.minutes(10)))
struct TestHygieneTests {
  /// Every Swift file under Tests/ but the fuzzers', with its path from Tests/.
  static func testSources() throws -> [(path: String, text: String)] {
    let root = projectRoot.appendingPathComponent("Tests").path
    let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
    return try files.filter { $0.hasSuffix(".swift") && !$0.hasPrefix("Fuzz/") }.sorted().map { path in
      (path, try String(contentsOfFile: root + "/" + path, encoding: .utf8))
    }
  }

  @Test("no test starts a process but through the one runner")
  func oneRunner() throws {
    let sources = try Self.testSources()
    #expect(sources.count > 50)
    // Foundation's Process and Pipe, or the C calls, as whole words.
    let spawner = try Regex(#"(^|[^A-Za-z_])(Process\(\)|Pipe\(\)|posix_spawnp?\(|fork\(\))"#)
    for (path, text) in sources where path != "EndToEndTests/TestHygieneTests.swift" {
      #expect(text.firstMatch(of: spawner) == nil, "\(path) starts a process itself")
    }
  }

  @Test("every end-to-end suite has a time limit")
  func timeLimits() throws {
    for (path, text) in try Self.testSources() where path.hasPrefix("EndToEndTests/") {
      for line in text.split(separator: "\n") where line.hasPrefix("@Suite(") {
        #expect(line.contains(".timeLimit("), "\(path): \(line)")
      }
    }
  }
}
