import NormalizedCache

extension SQLiteNormalizedCache {
  /// How records are laid out in the database (docs/stores.md).
  public enum Layout: String, Sendable, Hashable, CaseIterable {
    /// The project's own layout, tuned for speed and size: see ``SQLiteNormalizedCache``.
    case compact
    /// Apollo iOS's table, `records(_id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT UNIQUE,
    /// record TEXT)`, with each record as JSON text, so results compare with Apollo's store.
    case apollo
    /// Apollo iOS 3.0's table (ADR 0006 on apollo-ios-dev): one row per field and per list
    /// element, `records(cache_key, field_name, position, int_value, string_value, float_value,
    /// bool_value, child_key_value, custom_scalar_value, written_at)`, `WITHOUT ROWID` unless
    /// ``Options/withoutRowid`` is false (see ``RowStore``).
    case rows

    /// What a record costs beyond its key and stored bytes, as a budget counts it: its cell's
    /// header and pointer in a B-tree page and the pages' free space at SQLite's fill; in the
    /// `apollo` layout also its rowid and its key a second time, in the `UNIQUE` index.
    /// Measured: the checkpointed database bytes over `records`, less the stored payload, on
    /// `default.json` and `calendar.json` under `typePolicy` and `programmatic` keys (compact 32
    /// to 59, apollo 89 to 128; path keys are longer, and take more: docs/bounded-and-concurrent.md#what-a-budget-counts).
    public var recordOverheadBytes: Int {
      switch self {
      case .compact: 56
      case .apollo: 112
      case .rows: RowStore.recordOverheadBytes
      }
    }
  }

  /// SQLite's [journal modes](https://www.sqlite.org/pragma.html#pragma_journal_mode).
  ///
  /// A `:memory:` database keeps its journal in memory whatever is asked (`memory` or `off`).
  public enum JournalMode: String, Sendable, Hashable, CaseIterable {
    case delete, truncate, persist, memory, wal, off
  }

  /// SQLite's [synchronous levels](https://www.sqlite.org/pragma.html#pragma_synchronous):
  /// how often it waits for the disk.
  public enum Synchronous: String, Sendable, Hashable, CaseIterable {
    case off, normal, full, extra
  }

  /// SQLite's [auto_vacuum](https://www.sqlite.org/pragma.html#pragma_auto_vacuum): what happens to
  /// the pages that deletes free. Set when the file is created; a file keeps its mode.
  public enum AutoVacuum: String, Sendable, Hashable, CaseIterable {
    /// Freed pages stay in the file for reuse; only `VACUUM` (a rewrite of the whole file) gives them back.
    case none
    /// Freed pages stay until `PRAGMA incremental_vacuum` gives them back (see ``SQLiteNormalizedCache/incrementalVacuum()``).
    case incremental
  }

  /// How a store opens its database.
  ///
  /// ```swift
  /// var options = SQLiteNormalizedCache.Options()       // compact, WAL, synchronous NORMAL
  /// options.layout = .apollo
  /// options.journalMode = .delete
  /// let cache = try SQLiteNormalizedCache(path: "cache.sqlite", options: options)
  /// ```
  public struct Options: Sendable, Hashable {
    /// The table layout; `.compact` by default. Reopening a file needs the layout it was created with.
    public var layout: Layout
    /// `.wal` by default: readers do not block the writer, and a commit writes each page once.
    public var journalMode: JournalMode
    /// `.normal` by default, which WAL makes durable across application crashes (a power cut
    /// may lose the last commits, never corrupt the file).
    public var synchronous: Synchronous
    /// How much of the file SQLite reads through `mmap` instead of `read` into its page cache
    /// ([mmap_size](https://www.sqlite.org/pragma.html#pragma_mmap_size)); 0 turns it off.
    /// 256 MiB by default: random lookups then read pages in place, without a copy and without
    /// growing SQLite's heap (100-key loads of 100,000 records ran some 30% faster than through
    /// the default 2 MB page cache). The mapped pages count in the process's resident memory.
    public var memoryMapBytes: Int
    /// The size of SQLite's page cache for this connection, in KiB
    /// ([cache_size](https://www.sqlite.org/pragma.html#pragma_cache_size)); SQLite's default,
    /// 2,000, unless set.
    public var pageCacheKibibytes: Int
    /// How long a statement waits for another connection's lock before failing with `SQLITE_BUSY`.
    public var busyTimeoutMilliseconds: Int32
    /// `.none` by default. Only a new file takes it.
    public var autoVacuum: AutoVacuum
    /// The size limit, eviction policy and expiry the store keeps to; nil (the default) for none.
    public var budget: CacheBudget?
    /// How many connections reads may use besides the writer's, opened as reads need them: 4 by
    /// default. Only a WAL database on a file without a budget has them (see
    /// ``SQLiteNormalizedCache/readsInParallel``); 0 reads through the writer's connection.
    public var readConnections: Int
    /// The rows layout only: whether its table is `WITHOUT ROWID` (true by default, as Apollo's),
    /// one B-tree ordered by `(cache_key, field_name, position)`; false makes a rowid table with the
    /// primary key in an index of its own. A file keeps the kind it was created with.
    public var withoutRowid: Bool

    public init(
      layout: Layout = .compact, journalMode: JournalMode = .wal, synchronous: Synchronous = .normal,
      memoryMapBytes: Int = 268_435_456, pageCacheKibibytes: Int = 2_000, busyTimeoutMilliseconds: Int32 = 5_000,
      autoVacuum: AutoVacuum = .none, budget: CacheBudget? = nil, readConnections: Int = 4, withoutRowid: Bool = true
    ) {
      self.withoutRowid = withoutRowid
      self.readConnections = readConnections
      self.autoVacuum = autoVacuum
      self.budget = budget
      self.memoryMapBytes = memoryMapBytes
      self.pageCacheKibibytes = pageCacheKibibytes
      self.layout = layout
      self.journalMode = journalMode
      self.synchronous = synchronous
      self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
    }
  }
}
