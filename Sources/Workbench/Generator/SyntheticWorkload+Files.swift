import Foundation
import GraphQLLanguage

/// A file of a generated workload that could not be written.
public struct GeneratorOutputError: Error, Sendable, CustomStringConvertible {
  public let path: String
  public let reason: String

  public var description: String { "cannot write \(path): \(reason)" }
}

extension SyntheticWorkload {
  /// Writes the workload as files a `recorded` workload replays unchanged (SPEC §4, the
  /// `generate` command):
  /// ```
  /// DIRECTORY/schema.graphqls
  /// DIRECTORY/extensions.graphqls
  /// DIRECTORY/operations/NAME.graphql
  /// DIRECTORY/responses/00000.json ...
  /// DIRECTORY/workload.json     {"name", "seed", "recorded": {"schema", "operations"}}
  /// ```
  /// Each file is written to a temporary name and renamed into place, and `workload.json` last,
  /// so an interrupted run never leaves a workload that names a missing or partial file.
  /// Responses are made and written one at a time.
  /// - Throws: ``GeneratorOutputError`` naming the file that could not be written.
  public func write(to directory: URL, name: String = "synthetic") throws(GeneratorOutputError) {
    let files = FileManager.default
    for folder in [
      directory, directory.appendingPathComponent("operations"), directory.appendingPathComponent("responses"),
    ] {
      do {
        try files.createDirectory(at: folder, withIntermediateDirectories: true)
      } catch {
        throw GeneratorOutputError(path: folder.path, reason: "\(error.localizedDescription)")
      }
    }
    try Self.writeAtomically(Array(schemaSDL.utf8), to: directory.appendingPathComponent("schema.graphqls"))
    try Self.writeAtomically(Array(extensionsSDL.utf8), to: directory.appendingPathComponent("extensions.graphqls"))
    for operation in operations {
      try Self.writeAtomically(
        Array(operation.documentText.utf8), to: directory.appendingPathComponent(operation.fileName))
    }
    var entries: [JSONValue] = []
    entries.reserveCapacity(responseCount)
    for index in 0..<responseCount {
      let generated = response(at: index)
      try Self.writeAtomically(generated.bytes, to: directory.appendingPathComponent(generated.fileName))
      entries.append([
        "document": .string(operations[index % operations.count].fileName),
        "operationName": .string(generated.operationName), "variables": .object(generated.variables),
        "response": .string(generated.fileName),
      ])
    }
    let workload: JSONValue = [
      "name": .string(name),
      // JSON integers past Int64 would read back as doubles; such a seed is written as a string.
      "seed": seed <= UInt64(Int.max) ? .int(Int(seed)) : .string(String(seed)),
      "recorded": ["schema": ["schema.graphqls", "extensions.graphqls"], "operations": .array(entries)],
    ]
    var bytes = JSONWriter.data(workload, style: .pretty(sortedKeys: false))
    bytes.append(0x0A)
    try Self.writeAtomically(bytes, to: directory.appendingPathComponent("workload.json"))
  }

  /// Writes to `.NAME.tmp` beside the file with `FileManager`, then renames it over the file with
  /// `rename(2)`, which replaces atomically. (`FileManager.replaceItemAt` would be the Foundation
  /// spelling, but swift-corelibs-foundation's removes the destination and then fails on Linux.)
  static func writeAtomically(_ bytes: [UInt8], to url: URL) throws(GeneratorOutputError) {
    let temporary = url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent + ".tmp")
    guard FileManager.default.createFile(atPath: temporary.path, contents: Data(bytes)) else {
      throw GeneratorOutputError(path: url.path, reason: "cannot create \(temporary.lastPathComponent)")
    }
    guard rename(temporary.path, url.path) == 0 else {
      let reason = String(cString: strerror(errno))
      try? FileManager.default.removeItem(at: temporary)
      throw GeneratorOutputError(path: url.path, reason: reason)
    }
  }
}
