import Foundation
import Results
import Support
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `ab`, `ab --paired` and `worker` given builds that hang, babble or die, and input past the
/// protocol's limits (issue 33): each ends in seconds with its documented code and a message that
/// names the side and what it was doing, and leaves no process behind.
@Suite("ab and worker under hostile input", .timeLimit(.minutes(10)))
struct ABHostileTests {
  /// A fake build: cachebench for `--help` (and whatever `body` does not handle), `body` first.
  static func fake(in directory: String, named name: String, _ body: String) throws -> String {
    try script(in: directory, named: name, body + "\nexec '\(binary.path)' \"$@\"")
  }

  @Test("worker: a request line past the limit is exit 64, found without reading on; a missing workload is 66 at once")
  func workerLimits() async throws {
    let (directory, path) = try tinyFile()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let long = try await cachebench(["worker", path], input: "hello\n" + String(repeating: "x", count: 300_000))
    #expect(long.status == 64)
    #expect(long.stdout.hasSuffix("error\ta request line is longer than 65536 bytes, the worker protocol's limit\n"), "\(long.stdout)")
    let missing = try await cachebench(["worker", directory + "/none.json"], input: "")
    #expect(missing.status == 66)
    #expect(missing.stderr.hasPrefix("Error: cannot open '\(directory)/none.json': No such file or directory"), "\(missing.stderr)")
  }

  @Test("worker: a step count past 100,000 is refused as the count's fault, a row that does not exist as the row's")
  func workerSteps() async throws {
    let (directory, path) = try tinyFile()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let huge = try await cachebench(["worker", path], input: "prepare\nstep\t0\t0\t1000000000\n")
    #expect(huge.status == 64)
    #expect(huge.stdout.hasSuffix("error\tstep: the count '1000000000' is not a whole number from 1 to 100000\n"), "\(huge.stdout)")
    let row = try await cachebench(["worker", path], input: "prepare\nstep\t9\t0\t1\n")
    #expect(row.status == 1)
    #expect(row.stdout.hasSuffix("error\tno row 9: the worker has rows 0 to 5\n"), "\(row.stdout)")
    let negative = try await cachebench(["worker", path], input: "prepare\nstep\t0\t-1\t1\n")
    #expect(negative.status == 64)
    #expect(negative.stdout.hasSuffix("error\tstep: the index '-1' is not a whole number from 0 to 2147483647\n"), "\(negative.stdout)")
  }

  @Test("ab --paired: a base that never answers the handshake, or never finishes preparing, ends at --timeout with exit 1")
  func pairedHangs() async throws {
    let (directory, path) = try tinyFile()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let silent = try Self.fake(in: directory, named: "silent", #"if [ "$1" = worker ]; then sleep 1000; fi"#)
    let handshake = try await cachebench(["ab", "--paired", "--base", silent, "--current", binary.path, path, "--timeout", "2"])
    #expect(handshake.status == 1)
    #expect(
      handshake.stderr.hasPrefix(
        "Error: the base worker ('\(silent)') did not finish answering 'hello' within 2 s (--timeout); it was ended\n"),
      "\(handshake.stderr)")
    let stuck = try Self.fake(
      in: directory, named: "stuck", #"if [ "$1" = worker ]; then read; printf 'cachebench-worker\t1\t0\n'; sleep 1000; fi"#)
    let prepare = try await cachebench(["ab", "--paired", "--base", stuck, "--current", binary.path, path, "--timeout", "2"])
    #expect(prepare.status == 1)
    #expect(
      prepare.stderr.hasSuffix(
        "Error: the base worker ('\(stuck)') did not finish preparing the workload within 2 s (--timeout); it was ended\n"),
      "\(prepare.stderr)")
  }

  @Test("ab --paired: a worker that prints a long line without a newline is a protocol error naming the side, in linear time")
  func pairedLongLine() async throws {
    let (directory, path) = try tinyFile()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let babbler = try Self.fake(
      in: directory, named: "babbler", #"if [ "$1" = worker ]; then head -c 50000000 /dev/zero | tr '\0' x; sleep 1000; fi"#)
    let run = try await cachebench(["ab", "--paired", "--base", binary.path, "--current", babbler, path, "--timeout", "60"])
    #expect(run.status == 1)
    #expect(
      run.stderr.hasPrefix(
        "Error: the current worker ('\(babbler)') sent a line longer than 65536 bytes while answering 'hello', the worker protocol's limit\n"
      ), "\(run.stderr)")
  }

  @Test("ab: a side's run that hangs ends at --timeout, naming the side and the run")
  func wholeRunHangs() async throws {
    let (directory, path) = try tinyFile()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let hanging = try Self.fake(in: directory, named: "hanging", #"if [ "$1" = run ]; then sleep 1000; fi"#)
    let run = try await cachebench(["ab", "--base", hanging, "--current", binary.path, path, "--timeout", "2", "--rounds", "2"])
    #expect(run.status == 1)
    #expect(
      run.stderr.hasSuffix("Error: the base build's run 1 ('\(hanging)') did not finish within 2 s (--timeout); it was ended\n"),
      "\(run.stderr)")
  }

  @Test("ab: a side that writes no results, or garbage, is named with its run and its first line of errors, exit 1")
  func sideOutputs() async throws {
    let (directory, path) = try tinyFile()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let quitter = try Self.fake(in: directory, named: "quitter", #"if [ "$1" = run ]; then echo "starting up" >&2; exit 0; fi"#)
    let none = try await cachebench(["ab", "--base", quitter, "--current", binary.path, path, "--rounds", "2"])
    #expect(none.status == 1)
    #expect(none.stderr.hasSuffix("Error: the base build's run 1 ('\(quitter)') wrote no results: starting up\n"), "\(none.stderr)")
    #expect(!none.stderr.contains("cachebench-ab-"))
    let garbage = try Self.fake(
      in: directory, named: "garbage",
      #"if [ "$1" = run ]; then while [ "$1" != --out ]; do shift; done; echo "not,a,results,file" > "$2"; exit 0; fi"#)
    let bad = try await cachebench(["ab", "--base", binary.path, "--current", garbage, path, "--rounds", "2"])
    #expect(bad.status == 1)
    #expect(
      bad.stderr.hasSuffix(
        "Error: the current build's run 1 ('\(garbage)') wrote results that do not read (line 1): missing column 'run_id'\n"),
      "\(bad.stderr)")
  }

  @Test("ab: an --out that cannot be written is 74 before anything is timed")
  func outputFirst() async throws {
    let (directory, path) = try tinyFile()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try "x".write(toFile: directory + "/file", atomically: true, encoding: .utf8)
    for paired in [true, false] {
      let run = try await cachebench(
        ["ab", "--base", binary.path, "--current", binary.path, path, "--out", directory + "/file/verdicts.csv"]
          + (paired ? ["--paired"] : []))
      #expect(run.status == 74)
      #expect(run.stderr == "Error: cannot write \(directory)/file/verdicts.csv: Not a directory\n", "\(run.stderr)")
    }
  }

  /// Starts `ab` with a base whose workers (or runs) write their process IDs and those of a child
  /// of theirs, then hang; once they are all listed, sends `signal` to ab, and returns the IDs
  /// after ab ended.
  static func abKilled(by signal: Int32, paired: Bool) async throws -> (termination: Termination, pids: [pid_t]) {
    let (directory, path) = try tinyFile()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let pids = directory + "/pids"
    let mode = paired ? "worker" : "run"
    let hanging = try Self.fake(
      in: directory, named: "hanging",
      "if [ \"$1\" = \(mode) ]; then sleep 1000 & echo $$ $! >> '\(pids)'; read line; printf 'cachebench-worker\\t1\\t0\\n'; wait; fi")
    let ab = try ChildProcess(
      binary.path, ["ab", "--base", hanging, "--current", hanging, path, "--timeout", "600"] + (paired ? ["--paired"] : []),
      output: .discard, errors: .discard)
    // A deadline for a start that takes a second on a quiet machine: a 2-core runner under a load
    // of 50 (make test beside other builds) once needed more than 60 s.
    let deadline = ContinuousClock.now.advanced(by: .seconds(240))
    var listed: [pid_t] = []
    while ContinuousClock.now < deadline {
      let text = (try? String(contentsOfFile: pids, encoding: .utf8)) ?? ""
      listed = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { pid_t($0) }
      if listed.count == (paired ? 4 : 2) { break }
      try await Task.sleep(for: .milliseconds(50))
    }
    #expect(listed.count == (paired ? 4 : 2), "the fake sides did not start")
    kill(ab.pid, signal)
    let child = Unchecked(ab)
    let termination = try await offThePool {
      let termination = child.value.wait(until: ContinuousClock.now.advanced(by: .seconds(30)))
      child.value.end()
      return termination
    }
    #expect(termination != nil, "ab did not end")
    // The sides were killed; once orphaned, their zombies are reaped by init.
    let gone = ContinuousClock.now.advanced(by: .seconds(10))
    while ContinuousClock.now < gone, listed.contains(where: { kill($0, 0) == 0 }) { try await Task.sleep(for: .milliseconds(50)) }
    return (ab.termination!, listed)
  }

  @Test(
    "ab ended by SIGTERM or SIGINT, in runs or with --paired, ends its sides and their children first: nothing is left running",
    arguments: [(SIGTERM, true), (SIGINT, true), (SIGTERM, false), (SIGINT, false)])
  func noProcessLeftBehind(signal: Int32, paired: Bool) async throws {
    let (termination, pids) = try await Self.abKilled(by: signal, paired: paired)
    #expect(termination.signal == signal, "\(termination)")
    for pid in pids { #expect(kill(pid, 0) != 0, "process \(pid) is still running") }
    // Should this fail, it leaves nothing running either.
    for pid in pids where kill(pid, 0) == 0 {
      kill(-pid, SIGKILL)
      kill(pid, SIGKILL)
    }
  }
}
