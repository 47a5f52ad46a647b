import GraphQLLanguage
import Support

/// A workload file that is not valid: an unknown key, a wrong type, an out-of-range value, a
/// missing file it names. Prints as `Workloads/x.json:12:5: stores[1].kind: unknown store kind "redis"`.
public struct WorkloadError: Error, Sendable, CustomStringConvertible, ExitCodeCarrying {
  public let file: String
  /// Where the key is, when the file says.
  public let location: SourceLocation?
  /// The key's path in the file: `generator.duplication`, `stores[1].kind`; empty for the whole file.
  public let keyPath: String
  public let message: String
  /// ``ExitCode/dataError`` for bad data, ``ExitCode/noInput`` for a file the workload names that
  /// cannot be opened.
  public let exitCode: ExitCode

  public init(file: String, location: SourceLocation?, keyPath: String, message: String, exitCode: ExitCode = .dataError) {
    self.file = file
    self.location = location
    self.keyPath = keyPath
    self.message = message
    self.exitCode = exitCode
  }

  public var description: String {
    let place = location.map(\.description) ?? file
    return keyPath.isEmpty ? "\(place): \(message)" : "\(place): \(keyPath): \(message)"
  }
}
