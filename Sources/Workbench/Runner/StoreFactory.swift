import Foundation
import NormalizedCache
import SQLiteCache

/// Makes fresh stores for a run and removes their files afterwards.
final class StoreFactory {
  let directory: URL
  private var counter = 0

  init() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "cachebench-\(ProcessInfo.processInfo.processIdentifier)-\(UInt64(Date().timeIntervalSince1970 * 1000))")
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      throw RunError("cannot create a temporary directory for the stores at \(directory.path): \(error.localizedDescription)", exitCode: 74)
    }
  }

  deinit {
    try? FileManager.default.removeItem(at: directory)
  }

  /// A fresh, empty store of this spec.
  func make(_ spec: StoreSpec) throws -> any NormalizedCache {
    switch spec.kind {
    case .memory:
      return InMemoryNormalizedCache()
    case .sqlite:
      counter += 1
      let path = spec.inMemoryDatabase ? ":memory:" : directory.appendingPathComponent("\(counter).sqlite").path
      let options = SQLiteNormalizedCache.Options(
        layout: spec.layout == .apollo ? .apollo : .compact,
        journalMode: SQLiteNormalizedCache.JournalMode(rawValue: spec.journal.rawValue) ?? .wal,
        synchronous: SQLiteNormalizedCache.Synchronous(rawValue: spec.synchronous.rawValue) ?? .normal)
      return try SQLiteNormalizedCache(path: path, options: options)
    }
  }

  /// Deletes the files of every store made so far (the stores must be released first).
  func removeFiles() {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    for file in files { try? FileManager.default.removeItem(at: directory.appendingPathComponent(file)) }
  }
}
