import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A process cachebench starts (a side of `ab`, a worker, valgrind, git), and the one way its
/// tests start processes: started with `posix_spawn`, read and waited for on the calling thread
/// (no watcher thread that could still allocate while a run measures), every wait with a deadline.
///
/// ```swift
/// let outcome = try ChildProcess.run("/usr/bin/env", ["git", "status"], timeout: .seconds(10))
/// outcome.termination  // exited 0
/// outcome.output       // git's standard output, read beside its standard error
/// ```
///
/// Every child starts in a process group of its own, with no signal blocked and every signal's
/// default action: ``end()`` kills the group, so a wrapper script's own children end with it, and a
/// child started from a thread that blocks signals (a test runner's) still sees a SIGTERM. While it
/// runs, its group is listed where ``endChildrenOnSignals()``'s handler finds it: a cachebench ended
/// by SIGINT, SIGTERM or SIGHUP ends its children first.
package final class ChildProcess {
  /// Where a child's standard input comes from.
  package enum Input: Sendable {
    /// `/dev/null`.
    case none
    /// A pipe this process writes (``standardInput``).
    case pipe
  }

  /// Where a child's standard output or error goes.
  package enum Output: Sendable {
    /// `/dev/null`.
    case discard
    /// A pipe this process reads (``standardOutput``, ``standardError``).
    case pipe
    /// A file, created or truncated.
    case file(String)
  }

  package let pid: pid_t
  /// The write end of the child's standard input, -1 when it has none (or it was closed).
  package private(set) var standardInput: Int32 = -1
  /// The read end of the child's standard output, -1 unless it is a pipe.
  package private(set) var standardOutput: Int32 = -1
  /// The read end of the child's standard error, -1 unless it is a pipe.
  package private(set) var standardError: Int32 = -1
  /// How it ended, once it was waited for.
  package private(set) var termination: Termination?
  private let slot: Int?

  /// Starts `executable` with `arguments` (not counting the program's name).
  ///
  /// - Parameters:
  ///   - environment: the child's whole environment; nil for this process's.
  ///   - directory: the child's working directory; nil for this process's.
  ///   - searchPath: find `executable` on the `PATH` (`posix_spawnp`).
  /// - Throws: ``ChildProcessError`` when a pipe cannot be made or the program cannot be started.
  package init(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
    searchPath: Bool = false, input: Input = .none, output: Output = .pipe, errors: Output = .pipe
  ) throws(ChildProcessError) {
    var spawn = try SpawnSetup(command: executable)
    defer { spawn.release() }
    if let directory { try spawn.changeDirectory(to: directory) }
    let inputEnd = try spawn.connectInput(input)
    let outputEnd = try spawn.connect(output, to: STDOUT_FILENO)
    let errorEnd = try spawn.connect(errors, to: STDERR_FILENO)
    var child: pid_t = 0
    let started = spawn.start(&child, executable, arguments: arguments, environment: environment, searchPath: searchPath)
    guard started == 0 else {
      for end in [inputEnd, outputEnd, errorEnd] where end >= 0 { close(end) }
      throw ChildProcessError(command: executable, code: started)
    }
    pid = child
    standardInput = inputEnd
    standardOutput = outputEnd
    standardError = errorEnd
    slot = LiveChildren.add(child)
  }

  deinit {
    if termination == nil { end() }
    for end in [standardInput, standardOutput, standardError] where end >= 0 { close(end) }
  }

  /// Kills the child's process group (SIGKILL: nothing it can block or catch) and waits for the
  /// child. Does nothing once it was waited for.
  package func end() {
    guard termination == nil else { return }
    kill(-pid, SIGKILL)
    kill(pid, SIGKILL)
    _ = wait(until: nil)
  }

  /// Closes the child's standard input: it reads the end of its input.
  package func closeInput() {
    if standardInput >= 0 { close(standardInput) }
    standardInput = -1
  }

  /// Waits for the child to end, until `deadline` (nil: however long it takes); nil when the
  /// deadline passed first (the child is still running).
  package func wait(until deadline: ContinuousClock.Instant?) -> Termination? {
    if let termination { return termination }
    var status: Int32 = 0
    var pause: UInt32 = 1_000
    while true {
      let flags = deadline == nil ? 0 : WNOHANG
      let result = waitpid(pid, &status, flags)
      if result == pid { break }
      if result < 0 && errno == EINTR { continue }
      if result < 0 {
        // ECHILD: someone else reaped it; nothing more to learn.
        termination = Termination(status: -1, signal: nil)
        LiveChildren.remove(slot)
        return termination
      }
      guard let deadline, ContinuousClock.now < deadline else { return nil }
      usleep(pause)
      pause = min(pause * 2, 20_000)
    }
    let signal = status & 0x7F
    termination = signal == 0 ? Termination(status: (status >> 8) & 0xFF, signal: nil) : Termination(status: 128 + signal, signal: signal)
    LiveChildren.remove(slot)
    return termination
  }

  /// Writes all of `bytes` to the child's standard input; false when the child no longer reads
  /// it (it exited or closed it), with no SIGPIPE raised in this process.
  package func send(_ bytes: [UInt8]) -> Bool {
    guard standardInput >= 0 else { return false }
    return PipeWriter.write(bytes, to: standardInput)
  }
}

/// How a child ended.
package struct Termination: Sendable, Hashable, CustomStringConvertible {
  /// The exit status, or 128 plus the signal that ended it (as a shell reports it).
  package let status: Int32
  /// The signal that ended it; nil when it exited.
  package let signal: Int32?

  /// Whether it exited with status 0.
  package var succeeded: Bool { status == 0 && signal == nil }

  /// `exited 3`, `was killed by signal 9`.
  package var description: String {
    signal.map { "was killed by signal \($0)" } ?? "exited \(status)"
  }
}

/// A program that could not be started: `cannot run '/tmp/x': No such file or directory`.
package struct ChildProcessError: Error, Sendable, Hashable, CustomStringConvertible {
  package let command: String
  /// The errno of the failed call.
  package let code: Int32

  package var description: String { "cannot run '\(command)': \(String(cString: strerror(code)))" }
}

// MARK: Writing to a pipe without SIGPIPE

/// Writes to a pipe whose reader may be gone. A write to a pipe nobody reads raises SIGPIPE, which
/// ends the process; instead of ignoring SIGPIPE for the whole process (which would also stop
/// `cachebench run ... | head -1` from ending quietly), the signal is blocked on this thread for
/// the write, and a SIGPIPE it raised is taken off the thread before it is unblocked.
package enum PipeWriter {
  /// Writes all of `bytes`; false when the reader is gone (EPIPE) or the write fails.
  package static func write(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
    var pipeSignal = sigset_t()
    sigemptyset(&pipeSignal)
    sigaddset(&pipeSignal, SIGPIPE)
    var previous = sigset_t()
    pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
    var pending = sigset_t()
    sigpending(&pending)
    let alreadyPending = sigismember(&pending, SIGPIPE) == 1
    var offset = 0
    var broken = false
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { buffer in
        #if canImport(Glibc)
          Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        #else
          Darwin.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        #endif
      }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else {
        broken = true
        break
      }
      offset += written
    }
    if broken && !alreadyPending { consumePendingPipeSignal(&pipeSignal) }
    pthread_sigmask(SIG_SETMASK, &previous, nil)
    return !broken
  }

  private static func consumePendingPipeSignal(_ set: inout sigset_t) {
    var pending = sigset_t()
    sigpending(&pending)
    guard sigismember(&pending, SIGPIPE) == 1 else { return }
    #if canImport(Glibc)
      var none = timespec(tv_sec: 0, tv_nsec: 0)
      while sigtimedwait(&set, nil, &none) < 0 && errno == EINTR {}
    #else
      var signal: Int32 = 0
      sigwait(&set, &signal)
    #endif
  }
}

// MARK: Ending children with this process

extension ChildProcess {
  /// From now on, SIGINT, SIGTERM and SIGHUP first kill every child still running (its process
  /// group), then end this process by the same signal, as its default action would have. The
  /// signals are unblocked on this thread too: a process started from a thread that blocks them
  /// (a test runner's) inherits the block. A child ended by SIGKILL is not reached: its children
  /// see their input end or run to their end.
  package static func endChildrenOnSignals() {
    LiveChildren.prepare()
    var signals = sigset_t()
    sigemptyset(&signals)
    for signal in LiveChildren.endingSignals {
      sigaddset(&signals, signal)
      #if canImport(Glibc)
        _ = Glibc.signal(signal) { received in LiveChildren.endAllAndDie(received) }
      #else
        _ = Darwin.signal(signal) { received in LiveChildren.endAllAndDie(received) }
      #endif
    }
    pthread_sigmask(SIG_UNBLOCK, &signals, nil)
  }
}

/// The process groups of the children still running, where a signal handler can read them
/// (atomic slots, no lock, no allocation).
private enum LiveChildren {
  static let endingSignals = [SIGINT, SIGTERM, SIGHUP]
  static let capacity = 64
  static let slots = Slots(capacity: capacity)

  /// `capacity` atomics, allocated once and never freed (a signal handler may read them at any
  /// time), and only ever read and written atomically: hence `Sendable`.
  struct Slots: @unchecked Sendable {
    private let base: UnsafeMutablePointer<Atomic<Int32>>

    init(capacity: Int) {
      base = UnsafeMutablePointer<Atomic<Int32>>.allocate(capacity: capacity)
      for index in 0..<capacity { (base + index).initialize(to: Atomic(0)) }
    }

    subscript(index: Int) -> Atomic<Int32> {
      unsafeAddress { UnsafePointer(base + index) }
    }
  }

  /// Makes the slots before a handler can need them (a lazy global is not made in a handler).
  static func prepare() { _ = slots }

  /// Lists `pid`; the slot it took, nil when all are taken (it is then not ended by a signal).
  static func add(_ pid: pid_t) -> Int? {
    for index in 0..<capacity where slots[index].compareExchange(expected: 0, desired: pid, ordering: .sequentiallyConsistent).exchanged {
      return index
    }
    return nil
  }

  static func remove(_ slot: Int?) {
    if let slot { slots[slot].store(0, ordering: .sequentiallyConsistent) }
  }

  /// The signal handler: only async-signal-safe calls (kill, signal, raise).
  static func endAllAndDie(_ received: Int32) {
    for index in 0..<capacity {
      let pid = slots[index].load(ordering: .sequentiallyConsistent)
      if pid > 0 { kill(-pid, SIGKILL) }
    }
    #if canImport(Glibc)
      _ = Glibc.signal(received, SIG_DFL)
    #else
      _ = Darwin.signal(received, SIG_DFL)
    #endif
    // Delivered when the handler returns (the signal is blocked while it runs): the default action.
    raise(received)
  }
}

// MARK: posix_spawn's setup

/// The attributes and file actions of one `posix_spawn`, and the pipe ends this process keeps.
private struct SpawnSetup {
  let command: String
  var actions = posix_spawn_file_actions_t()
  var attributes = posix_spawnattr_t()
  /// The child's ends, closed here once it started.
  var childEnds: [Int32] = []

  init(command: String) throws(ChildProcessError) {
    self.command = command
    posix_spawn_file_actions_init(&actions)
    posix_spawnattr_init(&attributes)
    // A group of its own; no signal blocked; every signal a parent might have changed at default.
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
  }

  mutating func release() {
    for end in childEnds { close(end) }
    childEnds = []
    posix_spawn_file_actions_destroy(&actions)
    posix_spawnattr_destroy(&attributes)
  }

  /// `posix_spawn_file_actions_addchdir_np`, looked up at run time: glibc has it since 2.29 and
  /// macOS since 10.15, but Swift's Glibc module does not declare it.
  mutating func changeDirectory(to directory: String) throws(ChildProcessError) {
    typealias AddChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addchdir_np") else {
      throw ChildProcessError(command: command, code: ENOSYS)
    }
    let result = unsafeBitCast(symbol, to: AddChangeDirectory.self)(&actions, directory)
    guard result == 0 else { throw ChildProcessError(command: command, code: result) }
  }

  /// The child's standard input; the end this process writes, or -1.
  mutating func connectInput(_ input: ChildProcess.Input) throws(ChildProcessError) -> Int32 {
    switch input {
    case .none:
      posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
      return -1
    case .pipe:
      let (read, write) = try makePipe()
      posix_spawn_file_actions_adddup2(&actions, read, STDIN_FILENO)
      childEnds.append(read)
      return write
    }
  }

  /// The child's descriptor `target`; the end this process reads, or -1.
  mutating func connect(_ output: ChildProcess.Output, to target: Int32) throws(ChildProcessError) -> Int32 {
    switch output {
    case .discard:
      posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
      return -1
    case .file(let path):
      posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
      return -1
    case .pipe:
      let (read, write) = try makePipe()
      posix_spawn_file_actions_adddup2(&actions, write, target)
      childEnds.append(write)
      return read
    }
  }

  /// A pipe whose ends are closed on exec, so that no other child inherits them.
  private func makePipe() throws(ChildProcessError) -> (read: Int32, write: Int32) {
    var ends: [Int32] = [0, 0]
    #if canImport(Glibc)
      // At once (pipe2, which Swift's Glibc module does not declare either): a child another
      // thread starts between pipe and fcntl would hold an end open, and its reader wait for it.
      typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
      guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "pipe2") else { throw ChildProcessError(command: command, code: ENOSYS) }
      guard unsafeBitCast(symbol, to: Pipe2.self)(&ends, O_CLOEXEC) == 0 else { throw ChildProcessError(command: command, code: errno) }
    #else
      guard pipe(&ends) == 0 else { throw ChildProcessError(command: command, code: errno) }
      for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    #endif
    return (ends[0], ends[1])
  }

  mutating func start(
    _ child: inout pid_t, _ executable: String, arguments: [String], environment: [String: String]?, searchPath: Bool
  ) -> Int32 {
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    let variables = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
    defer { for pointer in variables ?? [] { free(pointer) } }
    // ETXTBSY: the executable was just written (a script a test made), and a child that another
    // thread was starting at that moment inherited the writer's descriptor until its own exec
    // closed it. That passes within milliseconds: try again, for up to a second.
    var result = ETXTBSY
    for attempt in 0..<100 {
      if attempt > 0 { usleep(10_000) }
      result =
        variables.map { variables in
          searchPath
            ? posix_spawnp(&child, executable, &actions, &attributes, argv, variables)
            : posix_spawn(&child, executable, &actions, &attributes, argv, variables)
        }
        ?? (searchPath
          ? posix_spawnp(&child, executable, &actions, &attributes, argv, environ)
          : posix_spawn(&child, executable, &actions, &attributes, argv, environ))
      if result != ETXTBSY { break }
    }
    for end in childEnds { close(end) }
    childEnds = []
    return result
  }
}
