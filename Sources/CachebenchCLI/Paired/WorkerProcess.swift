import Foundation
import Results
import Support

/// A running `cachebench worker`: requests written to its standard input, replies read line by
/// line from its standard output, each within a deadline, its standard error kept in a file for
/// the message of a failure (a pipe nobody reads could fill and stall it). Ends the worker (and
/// whatever it started) when released.
final class WorkerProcess {
  /// `base` or `current`, for messages.
  let side: String
  let command: String
  private let child: ChildProcess
  private var replies: LineReader
  private let errorFile: URL
  /// How long any one wait on the worker may take.
  let timeout: Duration

  /// Starts `command worker arguments...`.
  ///
  /// - Throws: ``CommandError`` (exit 1) when it cannot be started.
  /// - Parameter padding: characters of an environment variable that make up for a shorter path
  ///   than the other worker's (see ``padding(for:)``).
  init(command: String, arguments: [String], side: String, directory: URL, timeout: Duration, padding: Int = 0) throws {
    self.side = side
    self.command = command
    self.timeout = timeout
    errorFile = directory.appendingPathComponent("\(side)-worker.err")
    // One hash seed for both workers: Swift seeds its hashing per process, so two processes of one
    // build lay their dictionaries out differently, and a lookup in one was 4% slower than in the
    // other for a whole run (A/A, quick memory lookups).
    let environment = ProcessInfo.processInfo.environment.merging([
      "SWIFT_DETERMINISTIC_HASHING": "1", Self.paddingVariable: String(repeating: "x", count: padding),
    ]) { $1 }
    do {
      child = try ChildProcess(
        command, ["worker"] + arguments, environment: environment, input: .pipe, output: .pipe, errors: .file(errorFile.path))
    } catch {
      throw CommandError("\(error)", .failure)
    }
    replies = LineReader(descriptor: child.standardOutput, maximumBytes: WorkerProtocol.maximumLineBytes)
  }

  static let paddingVariable = "CACHEBENCH_WORKER_PAD"

  /// How many characters each command's worker needs in ``paddingVariable`` so that both start
  /// with their stacks at one address: the kernel copies the program's path (twice: `argv[0]` and
  /// `AT_EXECFN`), its arguments and its environment to the top of the new stack, so with address
  /// randomisation off a path 20 characters longer moves every frame by 40 bytes, and the same
  /// source built in two directories had a memory lookup row 4.5% faster on one side (how stack
  /// addresses alias heap ones in the caches: Mytkowicz et al., "Producing wrong data without
  /// doing anything obviously wrong!", ASPLOS 2009). Wrappers that add to their environment are
  /// not made up for.
  static func padding(for commands: [String]) -> [Int] {
    let lengths = commands.map { 2 * URL(fileURLWithPath: $0).path.utf8.count }
    let longest = lengths.max() ?? 0
    return lengths.map { longest - $0 }
  }

  /// `the base worker ('/tmp/old/cachebench')`, for messages.
  var name: String { "the \(side) worker ('\(command)')" }

  /// Sends `request` and returns the reply; nil when the worker closed its output (it exited, or
  /// never was a worker). `doing` says what the worker was asked, for a timeout's message.
  ///
  /// - Throws: ``CommandError`` (exit 1) when no whole reply came within ``timeout`` (the worker
  ///   is then ended) or a line is longer than the protocol allows; ``MalformedReply`` for a line
  ///   that is no reply.
  func request(_ request: WorkerProtocol.Request, doing: String) throws -> WorkerProtocol.Reply? {
    guard send(request) else { return nil }
    return try nextReply(doing: doing)
  }

  /// The next reply, nil at the end of the worker's output; errors as ``request(_:doing:)``'s.
  func nextReply(doing: String) throws -> WorkerProtocol.Reply? {
    let line: String?
    do {
      line = try replies.next(until: ContinuousClock.now.advanced(by: timeout))
    } catch .timedOut {
      child.end()
      throw CommandError("\(name) did not finish \(doing) within \(Self.seconds(timeout)) (--timeout); it was ended", .failure)
    } catch .tooLong(let limit) {
      child.end()
      throw CommandError("\(name) sent a line longer than \(limit) bytes while \(doing), the worker protocol's limit", .failure)
    } catch .readFailed(let code) {
      throw CommandError("cannot read \(name)'s replies: \(String(cString: strerror(code)))", .failure)
    }
    guard let line else { return nil }
    do {
      return try WorkerProtocol.Reply(line: line)
    } catch {
      throw MalformedReply(description: "\(name) sent a malformed reply while \(doing): \(error)")
    }
  }

  /// A line from the worker that is no reply of the protocol (exit 1).
  struct MalformedReply: Error, CustomStringConvertible, ExitCodeCarrying {
    let description: String
    var exitCode: ExitCode { .failure }
  }

  /// Writes a request without waiting for a reply; false when the worker is gone.
  func send(_ request: WorkerProtocol.Request) -> Bool {
    child.send(Array(request.line.utf8))
  }

  /// Why the worker stopped answering: its `error` reply or its standard error, and its exit.
  func failure(reply: WorkerProtocol.Reply?) -> String {
    if case .error(let message) = reply { return message }
    // Its exit status, when it is on its way out; ended otherwise.
    if child.wait(until: ContinuousClock.now.advanced(by: .seconds(2))) == nil { child.end() }
    let errors = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
    // The message, not the usage lines cachebench prints after it.
    let text = String(errors.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n").first ?? "")
    let ending = reply.map { "answered '\($0.line.dropLast())'" } ?? (child.termination?.description ?? "ended")
    return text.isEmpty ? ending : "\(ending): \(Reporter.shortened(text))"
  }

  /// How long the worker may take to quit when asked.
  static let quitTimeout = Duration.seconds(10)

  /// Asks the worker to quit and waits for it, at most ``quitTimeout``; then ends it.
  func quit() {
    _ = send(.quit)
    child.closeInput()
    if child.wait(until: ContinuousClock.now.advanced(by: Self.quitTimeout)) == nil { child.end() }
  }

  /// `90 s`, `0.5 s`.
  static func seconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let value = Double(seconds) + Double(attoseconds) / 1e18
    return value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
  }
}
