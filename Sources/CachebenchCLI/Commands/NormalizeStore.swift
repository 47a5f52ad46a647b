import Foundation
import NormalizedCache
import Results
import SQLiteCache
import Support

/// The store `cachebench normalize` writes into and reads from (`--store`, `--layout`;
/// docs/command-line.md#normalize): the in-memory store, or a SQLite store on a temporary file.
enum NormalizeStore: String, CaseIterable, OptionValue {
  case memory, sqlite

  /// Runs `body` with a fresh, empty store of this kind. A SQLite store (in `layout`, WAL, the
  /// store's defaults) lives in a directory of its own under the temporary directory, removed
  /// with the database once `body` returns or throws.
  /// - Throws: ``OutputError`` (74) when the directory cannot be made; SQLite's errors (1); `body`'s.
  func withStore<Result>(layout: SQLiteNormalizedCache.Layout, _ body: (any NormalizedCache) throws -> Result) throws -> Result {
    switch self {
    case .memory:
      return try body(InMemoryNormalizedCache())
    case .sqlite:
      let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cachebench-normalize-\(UUID().uuidString)")
      try AtomicFile.createDirectory(directory.path, for: directory.path)
      var store: SQLiteNormalizedCache?
      // The store closes its database (and its WAL) before the directory goes.
      defer {
        store = nil
        try? FileManager.default.removeItem(at: directory)
      }
      store = try SQLiteNormalizedCache(
        path: directory.appendingPathComponent("cache.sqlite").path, options: SQLiteNormalizedCache.Options(layout: layout))
      return try body(store!)
    }
  }
}
