import Foundation
import Support
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

  @Test("no test holds a thread of the cooperative pool on a child process or a sleep")
  func nothingBlocksThePool() throws {
    let sources = try Self.testSources()
    // A sleep that blocks its thread; Task.sleep suspends the task instead.
    let sleep = try Regex(#"(^|[^A-Za-z_.])(usleep|sleep|nanosleep)\(|Thread\.sleep"#)
    // Waiting for a child: the runner's own (runProcess, async) waits on a thread of its own, and
    // so do the two tests that start one themselves.
    let waitsForChild = try Regex(#"ChildProcess\.run\(|\.wait\(until:"#)
    let waitOffThePool = ["EndToEndTests/Binary.swift", "EndToEndTests/ABHostileTests.swift", "WorkbenchTests/GitRevisionTests.swift"]
    // A store whose reads wait for writers to pause, read only on the concurrency phase's own
    // reader threads (JoinableThread, never the pool): it sleeps there between looks.
    let sleepsOffThePool = ["WorkbenchTests/ConcurrencyEndsTests.swift"]
    for (path, text) in sources where path != "EndToEndTests/TestHygieneTests.swift" && !sleepsOffThePool.contains(path) {
      #expect(text.firstMatch(of: sleep) == nil, "\(path) sleeps on its thread")
      if text.firstMatch(of: waitsForChild) != nil {
        #expect(waitOffThePool.contains(path), "\(path) waits for a child process")
      }
    }
    for path in waitOffThePool {
      let text = try #require(sources.first { $0.path == path }?.text)
      #expect(text.contains("offThePool") || text.contains("Thread {"), "\(path) waits on the pool")
    }
  }

  @Test("every end-to-end suite has a time limit")
  func timeLimits() throws {
    for (path, text) in try Self.testSources() where path.hasPrefix("EndToEndTests/") {
      for line in text.split(separator: "\n") where line.drop(while: { $0 == " " }).hasPrefix("@Suite(") {
        #expect(line.contains(".timeLimit("), "\(path): \(line)")
      }
    }
  }
}
