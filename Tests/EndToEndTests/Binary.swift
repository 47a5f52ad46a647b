import Foundation
import Results
import Support
import Testing

/// The project's root directory, found from this file's path.
let projectRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

let fixtures = projectRoot.appendingPathComponent("Tests/EndToEndTests/Fixtures").path

/// The output of one run of a process.
struct Run: Sendable {
  let status: Int32
  let stdout: String
  let stderr: String
  /// Whether it outlived its time and was killed.
  var timedOut = false
}

/// The built binary: next to the test bundle, else in `.build/debug`.
let binary: URL = {
  let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("cachebench")
  if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests }
  return projectRoot.appendingPathComponent(".build/debug/cachebench")
}()

/// The one way these tests start a process: `executable` with `arguments` in `directory`, with
/// `environment` added to this process's and `input` on its standard input, its standard output
/// and error read side by side (neither pipe can fill and stall it), killed (with whatever it
/// started) when it outlives `timeout`, which is then recorded as an issue.
///
/// Awaited, never waited for: the child is started and waited for on a thread of its own, so that
/// a test does not hold one of the cooperative pool's threads (as many as cores) while the child
/// runs, and the other suites' tests, whose time limits run meanwhile, are not starved of threads
/// (issue 38: on a busy 2-core runner they were).
func runProcess(
  _ executable: String, _ arguments: [String], in directory: String = projectRoot.path, environment: [String: String] = [:],
  input: String? = nil, timeout: Duration = .seconds(480), expectTimeout: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
) async throws -> Run {
  let environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
  let outcome = try await offThePool {
    try ChildProcess.run(
      executable, arguments, environment: environment, directory: directory, input: input.map { Array($0.utf8) }, timeout: timeout)
  }
  if outcome.timedOut && !expectTimeout {
    Issue.record("\(executable) \(arguments.joined(separator: " ")) outlived \(timeout) and was killed", sourceLocation: sourceLocation)
  }
  return Run(status: outcome.termination.status, stdout: outcome.outputText, stderr: outcome.errorText, timedOut: outcome.timedOut)
}

/// A value handed to ``offThePool(_:)``'s thread that is not `Sendable` but is used there alone
/// while the task waits.
struct Unchecked<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}

/// `body`'s result, computed on a thread of its own while the caller's task is suspended: for
/// work that blocks (a child process, a sleep), which must not hold a cooperative thread.
func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Result { try body() }) }.start()
  }
}

/// Runs `cachebench` with these arguments in `directory`, with `environment` added to this
/// process's, and waits for it (at most `timeout`).
func cachebench(
  _ arguments: [String], in directory: String = projectRoot.path, environment: [String: String] = [:], input: String? = nil,
  timeout: Duration = .seconds(480), sourceLocation: SourceLocation = #_sourceLocation
) async throws -> Run {
  try await runProcess(
    binary.path, arguments, in: directory, environment: environment, input: input, timeout: timeout, sourceLocation: sourceLocation)
}

/// Runs a shell command line (bash) in `directory`, with `environment` added and `CB` set to the
/// binary.
func shell(
  _ command: String, in directory: String, environment: [String: String] = [:], timeout: Duration = .seconds(480),
  sourceLocation: SourceLocation = #_sourceLocation
) async throws -> Run {
  try await runProcess(
    "/bin/bash", ["-c", command], in: directory, environment: environment.merging(["CB": binary.path]) { $1 }, timeout: timeout,
    sourceLocation: sourceLocation)
}

/// An executable bash script in `directory`: its path.
///
/// Written through a descriptor opened close-on-exec. Tests start children from several threads at
/// once, and a child started while the script was open for writing would otherwise keep that
/// descriptor for its whole life: running the script then fails with ETXTBSY ("Text file busy"),
/// as CI once saw.
func script(in directory: String, named name: String, _ body: String) throws -> String {
  let path = directory + "/" + name
  let bytes = Array("#!/bin/bash\n\(body)\n".utf8)
  let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
  guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
  defer { close(descriptor) }
  var written = 0
  while written < bytes.count {
    let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    guard count > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    written += count
  }
  return path
}

/// A fresh temporary directory.
func temporaryDirectory() throws -> String {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("cachebench-e2e-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url.path
}

/// A generator workload of three small responses under typePolicy keys, which runs in about a
/// second: for tests of the command line rather than of the figures.
func tinyWorkload(stores: String = #"[{"kind": "memory"}]"#, repetitions: Int = 1) -> String {
  #"""
  {"name": "tiny", "seed": 2, "generator": {"responses": 3, "operations": 2, "depth": 2, "types": 4, "poolSize": 8},
   "keys": ["typePolicy"], "stores": \#(stores), "repetitions": \#(repetitions), "warmup": 0,
   "read": {"pointLookups": 5, "fieldPolicyLookups": 2}}
  """#
}
