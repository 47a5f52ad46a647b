import Foundation
import GraphQLLanguage
import Support

extension SyntheticWorkload {
  /// Writes the workload as files a `recorded` workload replays unchanged (docs/workloads.md, the
  /// `generate` command):
  /// ```
  /// DIRECTORY/schema.graphqls
  /// DIRECTORY/extensions.graphqls
  /// DIRECTORY/operations/NAME.graphql
  /// DIRECTORY/responses/00000.json ...
  /// DIRECTORY/workload.json     {"name", "seed", "recorded": {"schema", "operations"}, "read"}
  /// ```
  /// `workload.json` replays as the generated workload runs: with `narrowReads`, whose lists read
  /// page 1 again with new elements, it says `"read": {"verify": false}`, as the generated
  /// workload must (a replay that verified failed: `data.drivers: 3 elements in the response, 5
  /// read back`).
  /// Each file is written whole or not at all (``AtomicFile``), and `workload.json` last,
  /// so an interrupted run never leaves a workload that names a missing or partial file.
  /// Responses are made and written one at a time.
  /// - Throws: ``OutputError`` naming the file that could not be written.
  public func write(to directory: URL, name: String = "synthetic") throws(OutputError) {
    for folder in ["operations", "responses"] {
      try AtomicFile.createDirectory(directory.appendingPathComponent(folder).path, for: directory.path)
    }
    try AtomicFile.write(bytes: Array(schemaSDL.utf8), to: directory.appendingPathComponent("schema.graphqls").path)
    try AtomicFile.write(bytes: Array(extensionsSDL.utf8), to: directory.appendingPathComponent("extensions.graphqls").path)
    for operation in operations {
      try AtomicFile.write(bytes: Array(operation.documentText.utf8), to: directory.appendingPathComponent(operation.fileName).path)
    }
    var entries: [JSONValue] = []
    entries.reserveCapacity(responseCount)
    for index in 0..<responseCount {
      let generated = response(at: index)
      // Ended with a line end, as every file cachebench writes (a replay's response_bytes count it).
      try AtomicFile.write(bytes: generated.bytes + [0x0A], to: directory.appendingPathComponent(generated.fileName).path)
      entries.append([
        "document": .string(operations[operationIndex(ofResponse: index)].fileName),
        "operationName": .string(generated.operationName), "variables": .object(generated.variables),
        "response": .string(generated.fileName),
      ])
    }
    var workload: JSONValue = [
      "name": .string(name),
      // JSON integers past Int64 would read back as doubles; such a seed is written as a string.
      "seed": seed <= UInt64(Int.max) ? .int(Int(seed)) : .string(String(seed)),
      "recorded": ["schema": ["schema.graphqls", "extensions.graphqls"], "operations": .array(entries)],
    ]
    if config.narrowReads != nil, case .object(var members) = workload {
      members.append(key: "read", value: ["verify": false])
      workload = .object(members)
    }
    var bytes = JSONWriter.data(workload, style: .pretty(sortedKeys: false))
    bytes.append(0x0A)
    try AtomicFile.write(bytes: bytes, to: directory.appendingPathComponent("workload.json").path)
  }
}
