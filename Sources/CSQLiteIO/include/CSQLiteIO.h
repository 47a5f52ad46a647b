#ifndef CSQLITEIO_H
#define CSQLITEIO_H

/// A VFS that counts the file operations SQLite asks of the one beneath it (docs/metrics.md,
/// `fsyncs` and `writes`): registered as the process's default by the first call of
/// cachebench_sqlite_io_install(), it passes every call through and counts the syncs (each an
/// fsync or fdatasync of the unix VFS), the writes and the reads, of every file of every
/// connection opened after it, on the thread that asks.

/// Registers the counting VFS as the default, wrapping the default before it. Idempotent and
/// thread-safe; returns SQLite's result code (SQLITE_OK, 0, when it is in place).
int cachebench_sqlite_io_install(void);

/// The calling thread's counts since it began: syncs, writes and reads. SQLite does a
/// connection's file operations on the thread that calls it, so these are exactly its calls'.
void cachebench_sqlite_io_counts(unsigned long long *syncs, unsigned long long *writes, unsigned long long *reads);

#endif
