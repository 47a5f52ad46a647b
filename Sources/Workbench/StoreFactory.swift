import Foundation
import NormalizedCache
import SQLiteCache
import Workloads

/// Makes fresh stores for a run and removes their files afterwards.
final class StoreFactory {
  let directory: URL
  private var counter = 0

  /// - Throws: ``RunError`` (exit 74) when the temporary directory cannot be made.
  init() throws(RunError) {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "cachebench-\(ProcessInfo.processInfo.processIdentifier)-\(UInt64(Date().timeIntervalSince1970 * 1000))")
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      throw RunError(
        "cannot create a temporary directory for the stores at \(directory.path): \(error.localizedDescription)",
        exitCode: .cantCreate)
    }
  }

  deinit {
    try? FileManager.default.removeItem(at: directory)
  }

  /// A fresh, empty store of this spec.
  func make(_ spec: StoreSpec) throws -> any StoreFootprint {
    switch spec.kind {
    case .memory:
      return InMemoryNormalizedCache()
    case .sqlite(let options, let inMemoryDatabase):
      counter += 1
      let path = inMemoryDatabase ? ":memory:" : directory.appendingPathComponent("\(counter).sqlite").path
      return try SQLiteNormalizedCache(path: path, options: options)
    }
  }

  /// Deletes the files of every store made so far (the stores must be released first).
  func removeFiles() {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    for file in files { try? FileManager.default.removeItem(at: directory.appendingPathComponent(file)) }
  }
}
