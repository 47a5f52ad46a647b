import Foundation
import NormalizedCache
import Results
import SQLiteCache
import Workloads

/// Makes fresh stores for a run (through each spec's ``StoreMaker``, or the limit stores itself)
/// and removes their files afterwards.
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

  /// The accounted bytes of unbounded stores once a configuration's responses are written: the
  /// sizes budgets given as a share resolve against, by variant, strategy and store.
  private var unboundedSizes: [UnboundedStore: Int] = [:]

  /// An unbounded store of one maker, filled with one variant's responses under one strategy.
  private struct UnboundedStore: Hashable {
    let variant: String
    let strategy: String
    let maker: StoreMaker.Identity
    /// The date its records are written at, nil without dates: dates take bytes.
    let writtenAt: Int?
  }

  /// A fresh, empty store of the configuration's spec.
  func make(_ configuration: Configuration) throws -> any NormalizedCache {
    switch configuration.spec.role {
    case .limit(.dictionary):
      return LimitDictionary()
    case .limit(.sqlite):
      return try SQLiteLimitStore(path: newFilePath())
    case .limit(.floor(let floor)):
      return try LayoutFloorStore(path: newFilePath(), floor: floor)
    case .cache(let maker):
      return try maker(environment(for: configuration))
    }
  }

  /// A fresh path in the directory, of the fixed length.
  func newFilePath() -> String {
    counter += 1
    return directory.appendingPathComponent(Self.fileName(counter)).path
  }

  private func environment(for configuration: Configuration) -> StoreEnvironment {
    StoreEnvironment(
      filePath: { [unowned self] in newFilePath() },
      unboundedBytes: { [unowned self] maker in try unboundedBytes(of: maker, configuration) })
  }

  /// Writes every response of the configuration once into an unbounded store of `maker` and
  /// returns its accounted bytes; remembered.
  private func unboundedBytes(of maker: StoreMaker, _ configuration: Configuration) throws -> Int {
    let key = UnboundedStore(
      variant: configuration.variant, strategy: configuration.strategy.name, maker: maker.identity,
      writtenAt: configuration.writtenAt)
    if let known = unboundedSizes[key] { return known }
    guard case .responses(let source) = configuration.source else {
      throw RunError("\(configuration.spec.label): a budget as a share needs responses to size the unbounded store by")
    }
    let bytes: Int
    do {
      let store = try maker(environment(for: configuration))
      guard let bounded = store.capabilities.bounded else {
        throw RunError(
          "\(configuration.spec.label): a budget as a share needs a store that accounts its bytes (StoreCapabilities.bounded)",
          exitCode: .dataError)
      }
      let normalizer = Normalizer(strategy: configuration.strategy.strategy)
      for item in source.items {
        try store.merge(records: try normalizer.normalize(try item.response(), plan: item.plan, writtenAt: configuration.writtenAt).records)
      }
      bytes = try bounded.accountedBytes()
    }
    unboundedSizes[key] = bytes
    return bytes
  }

  /// `000012.sqlite`: every name of one length.
  static func fileName(_ number: Int) -> String {
    let digits = String(number)
    return String(repeating: "0", count: max(0, 6 - digits.count)) + digits + ".sqlite"
  }

  /// Deletes the files of every store made so far (the stores must be released first), but for
  /// the kept ones (``keptPath(_:)``).
  func removeFiles() {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    for file in files where file != Self.keptDirectory {
      try? FileManager.default.removeItem(at: directory.appendingPathComponent(file))
    }
  }

  /// The subdirectory of files kept from configuration to configuration until the run ends.
  static let keptDirectory = "kept"

  /// A file kept between configurations under `name` (Apollo's Tier-3 store a layout built, which
  /// its floor copies): removed with the directory when the run ends, not by ``removeFiles()``.
  func keptPath(_ name: String) -> String {
    let kept = directory.appendingPathComponent(Self.keptDirectory)
    try? FileManager.default.createDirectory(at: kept, withIntermediateDirectories: true)
    return kept.appendingPathComponent(name + ".sqlite").path
  }
}
