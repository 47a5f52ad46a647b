#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// MARK: Running to the end

extension ChildProcess {
  /// What a child wrote and how it ended.
  package struct Outcome: Sendable {
    package let termination: Termination
    /// Its standard output (when a pipe), up to the capture limit.
    package let output: [UInt8]
    /// Its standard error (when a pipe), up to the capture limit.
    package let errors: [UInt8]
    /// Whether the deadline passed and the child was killed.
    package let timedOut: Bool

    package var outputText: String { String(decoding: output, as: UTF8.self) }
    package var errorText: String { String(decoding: errors, as: UTF8.self) }
  }

  /// Starts a child, writes `input` to its standard input (then closes it), reads its standard
  /// output and error side by side (neither pipe can fill and stall it), and waits for it; kills
  /// its process group when `timeout` passes first.
  ///
  /// - Parameter captureLimit: the most bytes kept of each output; the rest is read and dropped.
  /// - Throws: ``ChildProcessError`` when it cannot be started.
  package static func run(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
    searchPath: Bool = false, input: [UInt8]? = nil, output: Output = .pipe, errors: Output = .pipe,
    timeout: Duration? = nil, captureLimit: Int = .max
  ) throws(ChildProcessError) -> Outcome {
    let child = try ChildProcess(
      executable, arguments, environment: environment, directory: directory, searchPath: searchPath,
      input: input == nil ? .none : .pipe, output: output, errors: errors)
    let deadline = timeout.map { ContinuousClock.now.advanced(by: $0) }
    var streams = Streams(child: child, input: input ?? [], limit: captureLimit)
    var timedOut = !streams.pump(until: deadline)
    if timedOut {
      child.end()
      // The group is dead: its pipes end at once, unless something outside it holds them.
      _ = streams.pump(until: ContinuousClock.now.advanced(by: .seconds(1)))
    } else if child.wait(until: deadline) == nil {
      timedOut = true
      child.end()
    }
    return Outcome(termination: child.wait(until: nil)!, output: streams.output, errors: streams.errors, timedOut: timedOut)
  }

  /// The pipes of a child run to its end, served by `poll`.
  private struct Streams {
    let child: ChildProcess
    var input: [UInt8]
    var written = 0
    let limit: Int
    var output: [UInt8] = []
    var errors: [UInt8] = []
    var openOutput: Int32
    var openErrors: Int32

    init(child: ChildProcess, input: [UInt8], limit: Int) {
      self.child = child
      self.input = input
      self.limit = limit
      openOutput = child.standardOutput
      openErrors = child.standardError
      if input.isEmpty { child.closeInput() }
    }

    /// Serves the pipes until both outputs end (true) or `deadline` passes (false).
    mutating func pump(until deadline: ContinuousClock.Instant?) -> Bool {
      while openOutput >= 0 || openErrors >= 0 || child.standardInput >= 0 {
        var descriptors: [pollfd] = []
        if child.standardInput >= 0 { descriptors.append(pollfd(fd: child.standardInput, events: Int16(POLLOUT), revents: 0)) }
        for end in [openOutput, openErrors] where end >= 0 { descriptors.append(pollfd(fd: end, events: Int16(POLLIN), revents: 0)) }
        let wait = deadline.map { Deadlines.milliseconds(until: $0) } ?? -1
        if wait == 0 { return false }
        let ready = poll(&descriptors, nfds_t(descriptors.count), wait)
        if ready < 0 && errno == EINTR { continue }
        if ready < 0 { return false }
        for descriptor in descriptors where descriptor.revents != 0 { serve(descriptor.fd) }
      }
      return true
    }

    private mutating func serve(_ descriptor: Int32) {
      if descriptor == child.standardInput {
        // At most PIPE_BUF bytes: a write that poll said would not block.
        let end = min(input.count, written + 512)
        if written < end, PipeWriter.write(Array(input[written..<end]), to: descriptor) {
          written = end
          if written == input.count { child.closeInput() }
        } else {
          child.closeInput()
        }
        return
      }
      var chunk = [UInt8](repeating: 0, count: 65_536)
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
      if count < 0 && (errno == EINTR || errno == EAGAIN) { return }
      if count <= 0 {
        if descriptor == openOutput { openOutput = -1 } else { openErrors = -1 }
        return
      }
      if descriptor == openOutput {
        output += chunk[..<min(count, max(0, limit - output.count))]
      } else {
        errors += chunk[..<min(count, max(0, limit - errors.count))]
      }
    }
  }
}

/// Time left until a deadline, as `poll` takes it.
package enum Deadlines {
  /// Milliseconds until `deadline`, rounded up; 0 once it passed.
  package static func milliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
    let left = ContinuousClock.now.duration(to: deadline)
    guard left > .zero else { return 0 }
    let (seconds, attoseconds) = left.components
    return Int32(min(Int64(Int32.max), seconds * 1_000 + attoseconds / 1_000_000_000_000_000 + 1))
  }
}
