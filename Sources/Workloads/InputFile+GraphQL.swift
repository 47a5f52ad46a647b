import GraphQLLanguage
import NormalizedCache
import Support

extension InputFile {
  /// A text file as a ``Source`` named by the path, for GraphQL documents.
  ///
  /// - Throws: ``InputError`` when it cannot be read; ``GraphQLError`` at the first byte that is
  ///   not UTF-8.
  public static func source(_ path: String) throws -> Source {
    try Source(name: path, utf8: try bytes(path))
  }

  /// A JSON file.
  ///
  /// - Throws: ``InputError`` when it cannot be read, ``GraphQLError`` (with line and column) when
  ///   it is not JSON.
  public static func json(_ path: String) throws -> JSONValue {
    try JSONParser.parse(try bytes(path), file: path)
  }
}

/// Input data that does not fit: a response that does not match its operation, an operation that
/// cannot be planned. Exit code 65.
///
/// Prints as `r.json: missing field "b" at data.a`.
public struct InputDataError: Error, Sendable, Hashable, CustomStringConvertible, ExitCodeCarrying {
  /// The file at fault.
  public let file: String
  public let message: String

  public init(file: String, message: String) {
    self.file = file
    self.message = message
  }

  public var description: String { "\(file): \(message)" }
  public var exitCode: ExitCode { .dataError }
}

extension GraphQLError: ExitCodeCarrying {
  /// Malformed GraphQL or JSON is bad input data.
  public var exitCode: ExitCode { .dataError }
}

extension NormalizationError: ExitCodeCarrying {
  /// A response that does not fit its operation is bad input data.
  public var exitCode: ExitCode { .dataError }
}

extension ReadError: ExitCodeCarrying {
  /// A response that holds null where its schema says non-null is bad input data: the read-back
  /// of what it wrote fails, as it would in Apollo iOS.
  public var exitCode: ExitCode { .dataError }
}
