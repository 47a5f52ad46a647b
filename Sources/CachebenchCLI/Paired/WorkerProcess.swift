import Foundation
import Results

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A running `cachebench worker`: requests written to its standard input, replies read line by
/// line from its standard output, its standard error kept in a file for the message of a failure
/// (a pipe nobody reads could fill and stall it). Ends the worker when released.
final class WorkerProcess {
  /// `base` or `current`, for messages.
  let side: String
  let command: String
  private let process = Process()
  private let requests: Int32
  private let replies: Int32
  private var buffer: [UInt8] = []
  private let errorFile: URL

  /// Starts `command worker arguments...`.
  ///
  /// - Throws: ``CommandError`` (exit 1) when it cannot be started.
  /// - Parameter padding: characters of an environment variable that make up for a shorter path
  ///   than the other worker's (see ``padding(for:)``).
  init(command: String, arguments: [String], side: String, directory: URL, padding: Int = 0) throws {
    self.side = side
    self.command = command
    // A worker that dies would otherwise kill us with SIGPIPE on the next request.
    signal(SIGPIPE, SIG_IGN)
    let input = Pipe()
    let output = Pipe()
    errorFile = directory.appendingPathComponent("\(side)-worker.err")
    guard FileManager.default.createFile(atPath: errorFile.path, contents: nil) else {
      throw CommandError("cannot create \(errorFile.path) for the \(side) worker's errors", .cantCreate)
    }
    process.executableURL = URL(fileURLWithPath: command)
    process.arguments = ["worker"] + arguments
    // One hash seed for both workers: Swift seeds its hashing per process, so two processes of one
    // build lay their dictionaries out differently, and a lookup in one was 4% slower than in the
    // other for a whole run (A/A, quick memory lookups).
    process.environment = ProcessInfo.processInfo.environment.merging([
      "SWIFT_DETERMINISTIC_HASHING": "1", Self.paddingVariable: String(repeating: "x", count: padding),
    ]) { $1 }
    process.standardInput = input
    process.standardOutput = output
    process.standardError = try FileHandle(forWritingTo: errorFile)
    do {
      try process.run()
    } catch {
      throw CommandError("cannot run '\(command)': \(error.localizedDescription)", .failure)
    }
    requests = input.fileHandleForWriting.fileDescriptor
    replies = output.fileHandleForReading.fileDescriptor
    // Keep the descriptors open as long as this object: the handles close them when released.
    handles = [input.fileHandleForWriting, output.fileHandleForReading]
  }

  private var handles: [FileHandle] = []

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

  deinit {
    stop()
  }

  /// Ends the worker now. SIGKILL, not SIGTERM: a child started from a thread that blocks
  /// signals (a test runner's, Dispatch's) inherits the block and would never see a SIGTERM.
  private func stop() {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
  }

  /// Sends one request and returns the reply's line (without its newline), nil when the worker
  /// closed its output (it exited, or never was a worker).
  func request(_ fields: [String]) throws -> String? {
    guard send(WorkerProtocol.line(fields)) else { return nil }
    return try nextLine()
  }

  /// Writes a request; false when the worker is gone.
  func send(_ text: String) -> Bool {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeMutableBytes { write(requests, $0.baseAddress! + offset, $0.count - offset) }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { return false }
      offset += written
    }
    bytes.removeAll()
    return true
  }

  /// The next line the worker wrote, nil at the end of its output.
  func nextLine() throws -> String? {
    while true {
      if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: buffer[..<newline], as: UTF8.self)
        buffer.removeSubrange(...newline)
        return line
      }
      var chunk = [UInt8](repeating: 0, count: 65_536)
      let count = chunk.withUnsafeMutableBytes { read(replies, $0.baseAddress!, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return nil }
      buffer += chunk[..<count]
    }
  }

  /// Why the worker stopped answering: its `error` reply or its standard error, and its exit.
  func failure(reply: String?) -> String {
    if let reply, reply.hasPrefix("error\t") { return String(reply.dropFirst(6)) }
    stop()
    let errors = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
    // The message, not the usage lines cachebench prints after it.
    let text = String(errors.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n").first ?? "")
    let reply = reply.map { "answered '\($0)'" } ?? "exited \(process.terminationStatus)"
    return text.isEmpty ? reply : "\(reply): \(Reporter.shortened(text))"
  }

  /// Asks the worker to quit and waits for it.
  func quit() {
    _ = send(WorkerProtocol.line(["quit"]))
    process.waitUntilExit()
  }
}
