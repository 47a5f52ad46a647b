import GraphQLLanguage

/// A workload file that is not valid: an unknown key, a wrong type, an out-of-range value, a
/// missing file it names. Prints as `Workloads/x.json:12:5: stores[1].kind: unknown store kind "redis"`.
public struct WorkloadError: Error, Sendable, CustomStringConvertible, ExitCodeCarrying {
  public let file: String
  /// Where the key is, when the file says.
  public let location: SourceLocation?
  /// The key's path in the file: `generator.duplication`, `stores[1].kind`; empty for the whole file.
  public let keyPath: String
  public let message: String
  /// 65 for bad data, 66 for a file the workload names that cannot be opened.
  public let exitCodeValue: Int32

  public init(file: String, location: SourceLocation?, keyPath: String, message: String, exitCode: Int32 = 65) {
    self.file = file
    self.location = location
    self.keyPath = keyPath
    self.message = message
    self.exitCodeValue = exitCode
  }

  public var description: String {
    let place = location.map(\.description) ?? file
    return keyPath.isEmpty ? "\(place): \(message)" : "\(place): \(keyPath): \(message)"
  }
}
