import Foundation
import Generator
import NormalizedCache
import SQLiteCache
import Support
import Testing

/// The issue's measurement: `Item` records of ten fields merged into and loaded from each layout,
/// on a file in WAL mode. Cheap by default; for the real figures, in release:
///
/// ```
/// SQLITE_MEASURE_RECORDS=100000 swift test -c release -Xswiftc -enable-testing --filter StoreFiguresTests
/// ```
/// Times are printed, never asserted; sizes are, since they do not vary from run to run.
@Suite("Store-level figures of every SQLite layout", .serialized)
struct StoreFiguresTests {
  static let recordCount = Int(ProcessInfo.processInfo.environment["SQLITE_MEASURE_RECORDS"] ?? "") ?? 2_000

  /// Three short strings, an Int, a Double, a Bool, a reference, a list of three strings, a list
  /// of two references, and a field with arguments holding a reference.
  static func item(_ index: Int, version: Int = 0, count: Int) -> Record {
    Record(
      key: "Item:\(index)",
      fields: [
        ("id", .string("\(index)")),
        ("name", .string("Item \(index)")),
        ("category", .string("category-\(index % 17)")),
        ("count", .int((index * 7) % 1000 + version)),
        ("price", .double(Double(index % 1000) * 0.25 + 0.99)),
        ("inStock", .bool(index % 3 == 0)),
        ("owner", .reference("User:\(index % 1000)")),
        ("tags", .list([.string("tag\(index % 5)"), .string("tag\(index % 7)"), .string("tag\(index % 11)")])),
        ("similar", .list([.reference("Item:\((index + 1) % count)"), .reference("Item:\((index + 2) % count)")])),
        ("related(first:3)", .reference("Item:\((index + 3) % count)")),
      ])
  }

  static func rate(_ count: Int, _ duration: Duration) -> String {
    let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    return String(format: "%9.0f/s", Double(count) / seconds)
  }

  @Test("merge, re-merge and loads of Item records, bytes per record", arguments: SQLiteNormalizedCache.Layout.allCases)
  func measure(_ layout: SQLiteNormalizedCache.Layout) throws {
    let count = Self.recordCount
    let directory = try TemporaryDirectory()
    let cache = try SQLiteNormalizedCache(path: directory.path("cache.sqlite"), options: .init(layout: layout))
    let records = (0..<count).map { Self.item($0, count: count) }
    let batches = stride(from: 0, to: count, by: 100).map { RecordSet(records: Array(records[$0..<min($0 + 100, count)])) }
    var generator = SplitMix64(seed: 0x5EED)
    let keys = records.map(\.key).shuffled(using: &generator)
    let clock = ContinuousClock()

    var changed = 0
    let merge = try clock.measure { for batch in batches { changed += try cache.merge(records: batch).count } }
    #expect(changed == count * 10)
    var unchanged = 0
    let remerge = try clock.measure { for batch in batches { unchanged += try cache.merge(records: batch).count } }
    #expect(unchanged == 0)
    let walStatistics = try cache.statistics()
    try cache.checkpoint()
    let statistics = try cache.statistics()

    var loaded = 0
    let load100 = try clock.measure {
      for start in stride(from: 0, to: count, by: 100) {
        loaded += try cache.loadRecords(forKeys: Array(keys[start..<min(start + 100, count)])).count
      }
    }
    #expect(loaded == count)
    var all: [CacheKey: Record] = [:]
    let loadAll = try clock.measure { all = try cache.loadRecords(forKeys: keys) }
    #expect(all.count == count)
    #expect(all["Item:1"] == records[1])
    let points = min(count, 20_000)
    let pointLoads = try clock.measure { for key in keys.prefix(points) { _ = try cache.loadRecords(forKeys: [key]) } }

    let withWAL = Double(walStatistics.databaseBytes + walStatistics.walBytes) / Double(count)
    let checkpointed = Double(statistics.databaseBytes + statistics.walBytes) / Double(count)
    print(
      """
      \(layout) (\(count) records, WAL): merge \(Self.rate(count, merge)), merge unchanged \(Self.rate(count, remerge)), \
      loads of 100 \(Self.rate(count, load100)), load all \(Self.rate(count, loadAll)), point loads \(Self.rate(points, pointLoads)); \
      \(String(format: "%.1f", withWAL)) bytes/record with the WAL, \(String(format: "%.1f", checkpointed)) after a checkpoint, \
      payload \(String(format: "%.1f", Double(statistics.payloadBytes) / Double(count)))
      """)
    #expect(statistics.recordCount == count)
    #expect(statistics.walBytes == 0)
    if layout == .compact {
      // The issue's target, with room for the four pages of an empty database at small counts.
      #expect(checkpointed <= 200)
    }
  }
}
