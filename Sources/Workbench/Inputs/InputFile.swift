import Foundation
import GraphQLLanguage

/// An input file that could not be opened or read (exit code 66).
///
/// Prints as `cannot open 'baseline.csv': No such file or directory`.
public struct InputError: Error, Sendable, Hashable, CustomStringConvertible {
  public let path: String
  public let reason: String

  public init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  /// The error of a failed system call, by its errno.
  public init(path: String, code: Int32) {
    self.init(path: path, reason: String(cString: strerror(code)))
  }

  public var description: String { "cannot open '\(path)': \(reason)" }
}

/// Reading the files the user names: operations, schemas, responses, variables, workloads.
public enum InputFile {
  /// The bytes of a file.
  /// - Throws: ``InputError`` naming the path when the file cannot be read.
  public static func bytes(_ path: String) throws(InputError) -> [UInt8] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw InputError(path: path, reason: "No such file or directory")
    }
    if isDirectory.boolValue { throw InputError(path: path, reason: "Is a directory") }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw InputError(path: path, reason: "Permission denied or unreadable")
    }
    return [UInt8](data)
  }

  /// A text file as a ``Source`` named by the path, for GraphQL documents.
  public static func source(_ path: String) throws(InputError) -> Source {
    Source(name: path, text: String(decoding: try bytes(path), as: UTF8.self))
  }

  /// A JSON file.
  /// - Throws: ``InputError`` when it cannot be read, ``GraphQLError`` (with line and column) when
  ///   it is not JSON.
  public static func json(_ path: String) throws -> JSONValue {
    try JSONParser.parse(try bytes(path), file: path)
  }
}
