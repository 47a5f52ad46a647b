import NormalizedCache

extension SQLiteNormalizedCache {
  /// How records are laid out in the database (docs/stores.md); each is one ``LayoutDescriptor``.
  public enum Layout: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The project's own layout, tuned for speed and size: see ``SQLiteNormalizedCache``.
    case compact
    /// Apollo iOS's table, `records(_id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT UNIQUE,
    /// record TEXT)`, with each record as JSON text, so results compare with Apollo's store.
    case apollo
    /// Apollo iOS 3.0's table (ADR 0006 on apollo-ios-dev): one row per field and per list
    /// element, `records(cache_key, field_name, position, int_value, string_value, float_value,
    /// bool_value, child_key_value, custom_scalar_value, written_at)`, `WITHOUT ROWID`, written as
    /// Apollo's own code writes it (branch `cache-rewrite/phase-1a-record-projection`): a record is
    /// its field rows alone, its fields come back in the order of their names, a record without
    /// fields is not stored, a nested list's row holds its sub-record's key alone, and the file
    /// says version 3.0 in `schema_metadata` (see ``FieldRowStore``;
    /// docs/stores.md#the-rows-layout-against-apollos-code).
    case rows
    /// The rows layout in a rowid table, its primary key in an index of its own: measured beside
    /// Apollo's `WITHOUT ROWID` table.
    case rowsRowid = "rows-rowid"
    /// The same table written our way, the variant measured beside Apollo's: a record row where a
    /// record's field rows cannot say all it holds, so fields come back in the order they were
    /// first written and a record without fields is kept; a nested list's row holds its
    /// sub-record's key and element count (docs/stores.md#the-rows-layout).
    case rowsOrdered = "rows-ordered"

    /// The name workloads, results and errors give it.
    public var description: String { rawValue }

    /// What a record costs beyond its key and stored bytes, as a budget counts it
    /// (``LayoutDescriptor/recordOverheadBytes``).
    public var recordOverheadBytes: Int { descriptor.recordOverheadBytes }
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

  /// How SQLite serializes calls on a connection
  /// ([threading modes](https://www.sqlite.org/threadsafe.html)), the flag `sqlite3_open_v2` is given.
  public enum MutexMode: String, Sendable, Hashable, CaseIterable {
    /// `SQLITE_OPEN_NOMUTEX` (multi-thread): no lock inside SQLite; the store's own lock keeps a
    /// connection to one thread at a time. Ours.
    case nomutex
    /// `SQLITE_OPEN_FULLMUTEX` (serialized): SQLite takes a lock of its own on every call, as Apollo
    /// iOS's `ApolloSQLiteDatabase` opens its file (in 2.x and 3.0).
    case fullmutex
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
    /// growing SQLite's heap (docs/stores.md#how-a-file-is-opened measures both). The mapped pages count in the process's resident memory.
    public var memoryMapBytes: Int
    /// The size of SQLite's page cache for this connection, in KiB
    /// ([cache_size](https://www.sqlite.org/pragma.html#pragma_cache_size)); SQLite's default,
    /// 2,000, unless set.
    public var pageCacheKibibytes: Int
    /// `.nomutex` by default; `.fullmutex` opens as Apollo iOS does (``MutexMode``).
    public var mutex: MutexMode
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

    public init(
      layout: Layout = .compact, journalMode: JournalMode = .wal, synchronous: Synchronous = .normal,
      memoryMapBytes: Int = 268_435_456, pageCacheKibibytes: Int = 2_000, busyTimeoutMilliseconds: Int32 = 5_000,
      autoVacuum: AutoVacuum = .none, budget: CacheBudget? = nil, readConnections: Int = 4, mutex: MutexMode = .nomutex
    ) {
      self.mutex = mutex
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

    /// SQLite's own defaults as Apollo iOS's `ApolloSQLiteDatabase` leaves them (it sets no
    /// pragma but the journal mode): no memory map, a page cache of 2,000 KiB, `FULLMUTEX`. The
    /// layout, journal, synchronous level and the rest are kept.
    public var openedAsApollo: Options {
      var options = self
      options.memoryMapBytes = 0
      options.pageCacheKibibytes = 2_000
      options.mutex = .fullmutex
      return options
    }
  }
}
