/// Why a response could not be normalized, or an operation not read back: a missing selected field,
/// a value of the wrong shape, a missing variable. Carries the response path at fault.
///
/// Prints as `missing field "title" at data.favoriteBook`.
public struct NormalizationError: Error, Sendable, Hashable, CustomStringConvertible {
  public let message: String
  /// Response keys and list indexes from the root to the place at fault.
  public let path: [String]

  public init(_ message: String, path: [String]) {
    self.message = message
    self.path = path
  }

  public var description: String {
    path.isEmpty ? message : "\(message) at \((["data"] + path).joined(separator: "."))"
  }
}
