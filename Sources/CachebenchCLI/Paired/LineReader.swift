import Results
import Support

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Lines read from a descriptor (a worker's replies, a worker's requests), each at most
/// `maximumBytes` long, in time linear in what arrives: each byte is looked at for a newline once,
/// and a line that grows past the limit is refused as soon as it does, without reading on.
struct LineReader {
  enum Failure: Error {
    /// A line longer than the limit (its newline included).
    case tooLong(Int)
    /// The deadline passed before a whole line arrived.
    case timedOut
    /// `read` failed with this errno.
    case readFailed(Int32)
  }

  let descriptor: Int32
  let maximumBytes: Int
  private var buffer: [UInt8] = []
  /// Where the next line starts in `buffer`.
  private var start = 0
  /// Where the search for its newline goes on: every byte before it is not one.
  private var searched = 0

  init(descriptor: Int32, maximumBytes: Int) {
    self.descriptor = descriptor
    self.maximumBytes = maximumBytes
  }

  /// The next line, without its newline; nil at the end of the input (a last line without a
  /// newline is a line).
  ///
  /// - Parameter deadline: nil to wait however long it takes.
  mutating func next(until deadline: ContinuousClock.Instant? = nil) throws(Failure) -> String? {
    while true {
      if let newline = buffer[searched...].firstIndex(of: UInt8(ascii: "\n")) {
        guard newline - start < maximumBytes else { throw .tooLong(maximumBytes) }
        return take(upTo: newline, skipping: 1)
      }
      searched = buffer.count
      guard buffer.count - start < maximumBytes else { throw .tooLong(maximumBytes) }
      if start > 65_536 && start * 2 > buffer.count {
        buffer.removeSubrange(..<start)
        searched -= start
        start = 0
      }
      guard try fill(until: deadline) else {
        return start < buffer.count ? take(upTo: buffer.count, skipping: 0) : nil
      }
    }
  }

  private mutating func take(upTo end: Int, skipping: Int) -> String {
    let line = String(decoding: buffer[start..<end], as: UTF8.self)
    start = end + skipping
    searched = start
    return line
  }

  /// Reads what is there; false at the end of the input.
  private mutating func fill(until deadline: ContinuousClock.Instant?) throws(Failure) -> Bool {
    if let deadline {
      var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      while true {
        let wait = Deadlines.milliseconds(until: deadline)
        guard wait > 0 else { throw .timedOut }
        let result = poll(&ready, 1, wait)
        if result > 0 { break }
        if result < 0 && errno != EINTR { throw .readFailed(errno) }
      }
    }
    let room = min(65_536, maximumBytes - (buffer.count - start))
    var chunk = [UInt8](repeating: 0, count: max(room, 1))
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count < 0 { throw .readFailed(errno) }
      if count == 0 { return false }
      buffer += chunk[..<count]
      return true
    }
  }
}
