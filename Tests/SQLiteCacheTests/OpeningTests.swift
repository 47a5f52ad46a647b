import NormalizedCache
import Testing

@testable import SQLiteCache

/// How a store opens its file (docs/stores.md#how-a-file-is-opened): ours, or as Apollo iOS's
/// `ApolloSQLiteDatabase` opens it (no memory map, SQLite's default page cache, `FULLMUTEX`).
@Suite("Opening a SQLite file: ours and Apollo's")
struct OpeningTests {
  @Test(
    "a store opened as Apollo opens it has no memory map, a 2,000 KiB page cache and SQLite's own mutex; ours a 256 MiB map and none",
    arguments: SQLiteNormalizedCache.Layout.allCases)
  func opening(layout: SQLiteNormalizedCache.Layout) throws {
    let directory = try TemporaryDirectory()
    let ours = try SQLiteNormalizedCache(path: directory.path("ours.sqlite"), options: .init(layout: layout))
    let theirs = try SQLiteNormalizedCache(
      path: directory.path("theirs.sqlite"), options: SQLiteNormalizedCache.Options(layout: layout).openedAsApollo)
    let (oursMap, oursCache, oursMutex) = try ours.opening()
    #expect(oursMap == 268_435_456 && oursCache == 2_000 && oursMutex == .nomutex)
    let (theirMap, theirCache, theirMutex) = try theirs.opening()
    #expect(theirMap == 0 && theirCache == 2_000 && theirMutex == .fullmutex)
    // Either way the store holds what it is given.
    let record = Record(key: "Book:1", ["title": "Dune", "author": .reference("Author:1")])
    for store in [ours, theirs] {
      try store.merge(records: RecordSet(records: [record]))
      #expect(try store.loadRecords(forKeys: ["Book:1"]) == ["Book:1": record])
    }
  }

  @Test("each setting on its own: a memory map, a page cache, the mutex")
  func settings() throws {
    let directory = try TemporaryDirectory()
    var options = SQLiteNormalizedCache.Options(memoryMapBytes: 4_096, pageCacheKibibytes: 512)
    options.mutex = .fullmutex
    let store = try SQLiteNormalizedCache(path: directory.path("s.sqlite"), options: options)
    let (map, cache, mutex) = try store.opening()
    #expect(map == 4_096 && cache == 512 && mutex == .fullmutex)
  }

  @Test("a floor is opened as its store is, and its label says how when it is not ours")
  func floor() throws {
    let ours = LayoutFloor(layout: .compact, journal: .delete, synchronous: .full)
    #expect(ours.label == "limit-compact-delete-full")
    let apollo = LayoutFloor(layout: .compact, journal: .delete, synchronous: .full, memoryMapBytes: 0, mutex: .fullmutex)
    #expect(apollo.label == "limit-compact-delete-full-mmap0-fullmutex")
    let cache = LayoutFloor(layout: .rows, journal: .wal, synchronous: .normal, pageCacheKibibytes: 100)
    #expect(cache.label == "limit-rows-wal-normal-cache100")
    let directory = try TemporaryDirectory()
    let store = try LayoutFloorStore(path: directory.path("f.sqlite"), floor: apollo)
    let record = Record(key: "A:1", ["n": 1])
    try store.merge(records: RecordSet(records: [record]))
    #expect(try store.loadRecords(forKeys: ["A:1"]) == ["A:1": record])
  }
}
