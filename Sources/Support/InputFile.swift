#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An input file that could not be opened or read (exit code 66).
///
/// Prints as `cannot open 'baseline.csv': No such file or directory`.
package struct InputError: Error, Sendable, Hashable, CustomStringConvertible {
  package let path: String
  package let reason: String

  package init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  /// The error of a failed system call, by its errno.
  package init(path: String, code: Int32) {
    self.init(path: path, reason: String(cString: strerror(code)))
  }

  package var description: String { "cannot open '\(path)': \(reason)" }
}

/// Reading the files the user names: workloads, operations, schemas, responses, results CSVs.
/// The one place that reads a whole file.
package enum InputFile {
  /// The bytes of the file at `path`.
  ///
  /// ```swift
  /// let bytes = try InputFile.bytes("Workloads/quick.json")
  /// ```
  ///
  /// - Throws: ``InputError`` with the path and the system's reason (`No such file or directory`,
  ///   `Is a directory`, `Permission denied`).
  ///
  /// A directory is an error; a device or FIFO is read up to ``maximumSpecialBytes`` (`/dev/zero`
  /// never ends), a regular file up to ``maximumBytes``. A FIFO without a writer reads as empty
  /// rather than waiting for one.
  package static func bytes(_ path: String) throws(InputError) -> [UInt8] {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { throw InputError(path: path, code: errno) }
    defer { _ = close(descriptor) }
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw InputError(path: path, code: errno) }
    let kind = status.st_mode & S_IFMT
    if kind == S_IFDIR { throw InputError(path: path, code: EISDIR) }
    let limit = kind == S_IFREG ? maximumBytes : maximumSpecialBytes
    var bytes: [UInt8] = []
    if kind == S_IFREG { bytes.reserveCapacity(min(Int(status.st_size), limit)) }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress!, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw InputError(path: path, code: errno)
      }
      if count == 0 { return bytes }
      guard bytes.count + count <= limit else {
        let what = kind == S_IFREG ? "a file" : kind == S_IFIFO ? "a FIFO" : kind == S_IFCHR ? "a character device" : "not a regular file"
        throw InputError(
          path: path, reason: "\(what) larger than \(limit >> 20) MiB; inputs are read whole, and this one would not end or fit")
      }
      bytes.append(contentsOf: chunk[0..<count])
    }
  }

  /// The most read from a regular file: 4 GiB.
  package static let maximumBytes = 4 << 30
  /// The most read from a device or FIFO: 256 MiB.
  package static let maximumSpecialBytes = 256 << 20
}

/// `read(2)`, out of reach of ``InputFile``'s names.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
  read(descriptor, buffer, count)
}
