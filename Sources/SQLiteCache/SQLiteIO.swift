import CSQLiteIO

/// What SQLite asked of the file system, counted by a VFS that wraps its default one (`CSQLiteIO`,
/// made the default by ``install()``; the Tier-2 benchmark installs it before its first store, so
/// that other runs' instruction counts and SQLite heaps stay as they were): the syncs (fsync or fdatasync of a file, or of its
/// directory after a journal is deleted), the writes and the reads of every file of every
/// connection, counted per thread: SQLite does a connection's file operations on the thread that
/// calls it, so a thread's counts around a call are exactly that call's. Syncs set the floor of a
/// durable merge: each waits for the disk.
///
/// ```swift
/// SQLiteIO.install()                       // before the connections to count open
/// let before = SQLiteIO.counts
/// try cache.merge(records: records)
/// let merge = SQLiteIO.counts - before     // syncs: 3 with a rollback journal and synchronous FULL
/// ```
public enum SQLiteIO {
  public struct Counts: Sendable, Hashable {
    public var syncs = 0
    public var writes = 0
    public var reads = 0

    public init(syncs: Int = 0, writes: Int = 0, reads: Int = 0) {
      self.syncs = syncs
      self.writes = writes
      self.reads = reads
    }

    public static func - (after: Counts, before: Counts) -> Counts {
      Counts(syncs: after.syncs - before.syncs, writes: after.writes - before.writes, reads: after.reads - before.reads)
    }
  }

  /// SQLite's result code of the installation, once: `SQLITE_OK` when the counting VFS is the default.
  static let installation: Int32 = cachebench_sqlite_io_install()

  /// Makes the counting VFS SQLite's default, once: every connection opened after it is counted.
  /// - Returns: whether it is in place (SQLite refused nothing).
  @discardableResult
  public static func install() -> Bool { installation == 0 }

  /// The calling thread's counts since it began (of connections opened after ``install()``).
  public static var counts: Counts {
    var syncs: UInt64 = 0
    var writes: UInt64 = 0
    var reads: UInt64 = 0
    cachebench_sqlite_io_counts(&syncs, &writes, &reads)
    return Counts(syncs: Int(syncs), writes: Int(writes), reads: Int(reads))
  }
}
