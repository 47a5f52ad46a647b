import Foundation

/// The project's root directory, found from this file's path.
let projectRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

let fixtures = projectRoot.appendingPathComponent("Tests/EndToEndTests/Fixtures").path

/// The output of one run of the built `cachebench`.
struct Run {
  let status: Int32
  let stdout: String
  let stderr: String
}

/// The built binary: next to the test bundle, else in `.build/debug`.
let binary: URL = {
  let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("cachebench")
  if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests }
  return projectRoot.appendingPathComponent(".build/debug/cachebench")
}()

/// Runs `cachebench` with these arguments in `directory`, with `environment` added to this
/// process's, and waits for it.
func cachebench(
  _ arguments: [String], in directory: String = projectRoot.path, environment: [String: String] = [:]
) throws -> Run {
  let process = Process()
  process.executableURL = binary
  process.arguments = arguments
  process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
  process.currentDirectoryURL = URL(fileURLWithPath: directory)
  let out = Pipe()
  let err = Pipe()
  process.standardOutput = out
  process.standardError = err
  try process.run()
  // Read both pipes to the end before waiting, so a large output cannot block the child.
  let group = DispatchGroup()
  nonisolated(unsafe) var errData = Data()
  group.enter()
  DispatchQueue.global().async {
    errData = err.fileHandleForReading.readDataToEndOfFile()
    group.leave()
  }
  let outData = out.fileHandleForReading.readDataToEndOfFile()
  group.wait()
  process.waitUntilExit()
  return Run(
    status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
    stderr: String(decoding: errData, as: UTF8.self))
}

/// A fresh temporary directory.
func temporaryDirectory() throws -> String {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("cachebench-e2e-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url.path
}

/// A generator workload of three small responses under typePolicy keys, which runs in about a
/// second: for tests of the command line rather than of the figures.
func tinyWorkload(stores: String = #"[{"kind": "memory"}]"#, repetitions: Int = 1) -> String {
  #"""
  {"name": "tiny", "seed": 2, "generator": {"responses": 3, "operations": 2, "depth": 2, "types": 4, "poolSize": 8},
   "keys": ["typePolicy"], "stores": \#(stores), "repetitions": \#(repetitions), "warmup": 0,
   "read": {"pointLookups": 5, "fieldPolicyLookups": 2}}
  """#
}
