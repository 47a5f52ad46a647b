import Foundation
import NormalizedCache
import SQLiteCache
import Workloads

/// Makes fresh stores for a run and removes their files afterwards.
///
/// The stores' files live in one new directory under the temporary directory whose path has a
/// fixed length, ``directoryPathLength`` characters, and have names of a fixed length: SQLite
/// keeps a database's full path on its heap, so `sqlite_heap_bytes` would otherwise change with
/// the length of `TMPDIR` or of the process ID. (A `TMPDIR` longer than the fixed length leaves
/// that drift.)
final class StoreFactory {
  /// The length of the directory's path: room for a `TMPDIR` of up to 140 characters.
  static let directoryPathLength = 160
  let directory: URL
  private var counter = 0

  /// - Throws: ``RunError`` (exit 74) when the temporary directory cannot be made.
  init() throws(RunError) {
    let base = String(FileManager.default.temporaryDirectory.path.reversed().drop { $0 == "/" }.reversed())
    let name = "cachebench-"
    let padding = max(0, Self.directoryPathLength - base.count - 1 - name.count - 6)
    var template = Array("\(base)/\(name)\(String(repeating: "_", count: min(padding, 200)))XXXXXX".utf8CString)
    guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
      let reason = String(cString: strerror(errno))
      throw RunError("cannot create a temporary directory for the stores in \(base): \(reason)", exitCode: .cantCreate)
    }
    directory = URL(fileURLWithPath: template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
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
      let path = inMemoryDatabase ? ":memory:" : directory.appendingPathComponent(Self.fileName(counter)).path
      return try SQLiteNormalizedCache(path: path, options: options)
    case .limitDictionary:
      return LimitDictionary()
    case .limitSQLite:
      counter += 1
      return try PlainRecordTable(path: directory.appendingPathComponent(Self.fileName(counter)).path)
    }
  }

  /// `000012.sqlite`: every name of one length.
  static func fileName(_ number: Int) -> String {
    let digits = String(number)
    return String(repeating: "0", count: max(0, 6 - digits.count)) + digits + ".sqlite"
  }

  /// Deletes the files of every store made so far (the stores must be released first).
  func removeFiles() {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    for file in files { try? FileManager.default.removeItem(at: directory.appendingPathComponent(file)) }
  }
}
