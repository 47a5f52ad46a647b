import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The files one command writes, each with what names it on the command line (`'--out'`, or a
/// default), and the files it reads: two outputs that are one file, or an output that is an
/// input, are a usage error (64), found before anything is read or run, since the second write
/// would replace the first (`soak --out S --series S` kept the series and lost the growth table)
/// and an output its input (`compare base.csv new.csv --out base.csv`). An output directory
/// (`generate --out DIR`) may hold no input, at any depth: `generate DIR/workload.json --out DIR`
/// replaced its own input.
///
/// ```swift
/// var outputs = OutputFiles()
/// outputs.add("'--out'", out)
/// outputs.add("'--series'", series)
/// try outputs.checkDistinct(usage: spec.usage)
/// ```
struct OutputFiles {
  private var files: [(name: String, path: String)] = []
  private var inputs: [(name: String, path: String)] = []
  private var directories: [(name: String, path: String)] = []

  /// Adds an output; nil (an option not given) adds nothing.
  mutating func add(_ name: String, _ path: String?) {
    if let path { files.append((name, path)) }
  }

  /// Adds a directory the command writes files into, which may hold no input; nil adds nothing.
  mutating func addDirectory(_ name: String, _ path: String?) {
    if let path { directories.append((name, path)) }
  }

  /// Adds a file the command reads (inputs may name one file between them); nil adds nothing.
  mutating func addInput(_ name: String, _ path: String?) {
    if let path { inputs.append((name, path)) }
  }

  /// - Throws: ``UsageError`` naming the first two outputs that are one file, or the first output
  ///   that is an input, and the file; or the first output directory that holds an input.
  func checkDistinct(usage: String) throws(UsageError) {
    var seen: [String: String] = [:]
    for file in files {
      guard let identity = Self.identity(of: file.path) else { continue }
      if let first = seen[identity] {
        throw UsageError(
          message: "\(first) and \(file.name) name one file, '\(file.path)': each output needs a file of its own.", usage: usage)
      }
      seen[identity] = file.name
    }
    for input in inputs {
      guard let identity = Self.identity(of: input.path), let output = seen[identity] else { continue }
      throw UsageError(
        message: "\(output) names \(input.name), '\(input.path)': an output may not replace a file the command reads.", usage: usage)
    }
    for directory in directories {
      guard let folder = Self.identity(of: directory.path) else { continue }
      let prefix = folder.hasSuffix("/") ? folder : folder + "/"
      for input in inputs {
        guard let identity = Self.identity(of: input.path), identity.hasPrefix(prefix) else { continue }
        throw UsageError(
          message:
            "\(directory.name) '\(directory.path)' holds \(input.name), '\(input.path)': the files written there may not replace a file the command reads; write into another directory.",
          usage: usage)
      }
    }
  }

  /// The file `path` names: absolute, standardized (`./a/../b.csv` is `b.csv` in the current
  /// directory), with a symbolic link at its end followed to its target (which the write replaces,
  /// existing or not) and the links of its directory resolved. Nil for an existing device, FIFO
  /// or socket, which is written through and replaced by neither write (`--out /dev/null
  /// --samples /dev/null` discards both).
  static func identity(of path: String) -> String? {
    var status = stat()
    if stat(path, &status) == 0 {
      let kind = status.st_mode & S_IFMT
      if kind == S_IFCHR || kind == S_IFBLK || kind == S_IFIFO || kind == S_IFSOCK { return nil }
    }
    var url = URL(fileURLWithPath: path).standardizedFileURL
    // As many links as the system follows in one path (Linux's 40).
    for _ in 0..<40 {
      guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: url.path) else { break }
      url = URL(fileURLWithPath: target, relativeTo: url.deletingLastPathComponent()).standardizedFileURL
    }
    if let directory = realpath(url.deletingLastPathComponent().path, nil) {
      url = URL(fileURLWithPath: String(cString: directory)).appendingPathComponent(url.lastPathComponent)
      free(directory)
    }
    return url.path
  }
}
