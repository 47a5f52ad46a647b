// The counting VFS of CSQLiteIO.h: a shim over the default VFS, as SQLite's own
// ext/misc/vfsstat.c and test_vfstrace.c wrap one (https://www.sqlite.org/vfs.html). Each file
// is the real VFS's file placed after a header that points to it; each method counts and
// forwards. Only the SQLite module of cachebench calls it.
#include "CSQLiteIO.h"

#include <pthread.h>
#include <sqlite3.h>
#include <string.h>

// Per thread: SQLite does a connection's file operations on the thread that calls it (no worker
// threads unless SQLITE_MAX_WORKER_THREADS is raised), so a thread's counts are exactly its calls'.
static _Thread_local unsigned long long syncCount, writeCount, readCount;
static sqlite3_vfs *realVFS;
static sqlite3_vfs countingVFS;
static pthread_once_t installOnce = PTHREAD_ONCE_INIT;
static int installResult = SQLITE_ERROR;

typedef struct CountingFile {
  sqlite3_file base;
  sqlite3_file *real;
} CountingFile;

#define REAL(file) (((CountingFile *)(file))->real)

static int countingClose(sqlite3_file *file) {
  int rc = REAL(file)->pMethods ? REAL(file)->pMethods->xClose(REAL(file)) : SQLITE_OK;
  file->pMethods = 0;
  return rc;
}
static int countingRead(sqlite3_file *file, void *buffer, int amount, sqlite3_int64 offset) {
  readCount += 1;
  return REAL(file)->pMethods->xRead(REAL(file), buffer, amount, offset);
}
static int countingWrite(sqlite3_file *file, const void *buffer, int amount, sqlite3_int64 offset) {
  writeCount += 1;
  return REAL(file)->pMethods->xWrite(REAL(file), buffer, amount, offset);
}
static int countingTruncate(sqlite3_file *file, sqlite3_int64 size) {
  return REAL(file)->pMethods->xTruncate(REAL(file), size);
}
static int countingSync(sqlite3_file *file, int flags) {
  syncCount += 1;
  return REAL(file)->pMethods->xSync(REAL(file), flags);
}
static int countingFileSize(sqlite3_file *file, sqlite3_int64 *size) {
  return REAL(file)->pMethods->xFileSize(REAL(file), size);
}
static int countingLock(sqlite3_file *file, int lock) { return REAL(file)->pMethods->xLock(REAL(file), lock); }
static int countingUnlock(sqlite3_file *file, int lock) { return REAL(file)->pMethods->xUnlock(REAL(file), lock); }
static int countingCheckReservedLock(sqlite3_file *file, int *out) {
  return REAL(file)->pMethods->xCheckReservedLock(REAL(file), out);
}
static int countingFileControl(sqlite3_file *file, int op, void *argument) {
  return REAL(file)->pMethods->xFileControl(REAL(file), op, argument);
}
static int countingSectorSize(sqlite3_file *file) { return REAL(file)->pMethods->xSectorSize(REAL(file)); }
static int countingDeviceCharacteristics(sqlite3_file *file) {
  return REAL(file)->pMethods->xDeviceCharacteristics(REAL(file));
}
static int countingShmMap(sqlite3_file *file, int region, int size, int extend, void volatile **pointer) {
  if (REAL(file)->pMethods->iVersion < 2 || !REAL(file)->pMethods->xShmMap) return SQLITE_IOERR;
  return REAL(file)->pMethods->xShmMap(REAL(file), region, size, extend, pointer);
}
static int countingShmLock(sqlite3_file *file, int offset, int count, int flags) {
  if (REAL(file)->pMethods->iVersion < 2 || !REAL(file)->pMethods->xShmLock) return SQLITE_IOERR;
  return REAL(file)->pMethods->xShmLock(REAL(file), offset, count, flags);
}
static void countingShmBarrier(sqlite3_file *file) {
  if (REAL(file)->pMethods->iVersion >= 2 && REAL(file)->pMethods->xShmBarrier) REAL(file)->pMethods->xShmBarrier(REAL(file));
}
static int countingShmUnmap(sqlite3_file *file, int deleteFlag) {
  if (REAL(file)->pMethods->iVersion < 2 || !REAL(file)->pMethods->xShmUnmap) return SQLITE_OK;
  return REAL(file)->pMethods->xShmUnmap(REAL(file), deleteFlag);
}
static int countingFetch(sqlite3_file *file, sqlite3_int64 offset, int amount, void **pointer) {
  if (REAL(file)->pMethods->iVersion < 3 || !REAL(file)->pMethods->xFetch) {
    *pointer = 0;
    return SQLITE_OK;
  }
  return REAL(file)->pMethods->xFetch(REAL(file), offset, amount, pointer);
}
static int countingUnfetch(sqlite3_file *file, sqlite3_int64 offset, void *pointer) {
  if (REAL(file)->pMethods->iVersion < 3 || !REAL(file)->pMethods->xUnfetch) return SQLITE_OK;
  return REAL(file)->pMethods->xUnfetch(REAL(file), offset, pointer);
}

static const sqlite3_io_methods countingMethods = {
  3, countingClose, countingRead, countingWrite, countingTruncate, countingSync, countingFileSize, countingLock,
  countingUnlock, countingCheckReservedLock, countingFileControl, countingSectorSize, countingDeviceCharacteristics,
  countingShmMap, countingShmLock, countingShmBarrier, countingShmUnmap, countingFetch, countingUnfetch,
};

static int countingOpen(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *outFlags) {
  CountingFile *counting = (CountingFile *)file;
  counting->real = (sqlite3_file *)&counting[1];
  int rc = realVFS->xOpen(realVFS, name, counting->real, flags, outFlags);
  // SQLite calls xClose only when pMethods is set: not after a failed open.
  file->pMethods = counting->real->pMethods ? &countingMethods : 0;
  return rc;
}
static int countingDelete(sqlite3_vfs *vfs, const char *name, int syncDirectory) {
  if (syncDirectory) syncCount += 1;
  return realVFS->xDelete(realVFS, name, syncDirectory);
}
static int countingAccess(sqlite3_vfs *vfs, const char *name, int flags, int *out) {
  return realVFS->xAccess(realVFS, name, flags, out);
}
static int countingFullPathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
  return realVFS->xFullPathname(realVFS, name, size, out);
}
static void *countingDlOpen(sqlite3_vfs *vfs, const char *name) { return realVFS->xDlOpen(realVFS, name); }
static void countingDlError(sqlite3_vfs *vfs, int size, char *out) { realVFS->xDlError(realVFS, size, out); }
static void (*countingDlSym(sqlite3_vfs *vfs, void *handle, const char *symbol))(void) {
  return realVFS->xDlSym(realVFS, handle, symbol);
}
static void countingDlClose(sqlite3_vfs *vfs, void *handle) { realVFS->xDlClose(realVFS, handle); }
static int countingRandomness(sqlite3_vfs *vfs, int size, char *out) { return realVFS->xRandomness(realVFS, size, out); }
static int countingSleep(sqlite3_vfs *vfs, int microseconds) { return realVFS->xSleep(realVFS, microseconds); }
static int countingCurrentTime(sqlite3_vfs *vfs, double *out) { return realVFS->xCurrentTime(realVFS, out); }
static int countingGetLastError(sqlite3_vfs *vfs, int size, char *out) {
  return realVFS->xGetLastError ? realVFS->xGetLastError(realVFS, size, out) : 0;
}
static int countingCurrentTimeInt64(sqlite3_vfs *vfs, sqlite3_int64 *out) {
  return realVFS->xCurrentTimeInt64(realVFS, out);
}

static void install(void) {
  if (sqlite3_initialize() != SQLITE_OK) return;
  realVFS = sqlite3_vfs_find(0);
  if (!realVFS || realVFS->iVersion < 2) {
    installResult = SQLITE_ERROR;
    return;
  }
  countingVFS.iVersion = 2;
  countingVFS.szOsFile = (int)sizeof(CountingFile) + realVFS->szOsFile;
  countingVFS.mxPathname = realVFS->mxPathname;
  countingVFS.zName = "cachebench-counting";
  countingVFS.xOpen = countingOpen;
  countingVFS.xDelete = countingDelete;
  countingVFS.xAccess = countingAccess;
  countingVFS.xFullPathname = countingFullPathname;
  countingVFS.xDlOpen = countingDlOpen;
  countingVFS.xDlError = countingDlError;
  countingVFS.xDlSym = countingDlSym;
  countingVFS.xDlClose = countingDlClose;
  countingVFS.xRandomness = countingRandomness;
  countingVFS.xSleep = countingSleep;
  countingVFS.xCurrentTime = countingCurrentTime;
  countingVFS.xGetLastError = countingGetLastError;
  countingVFS.xCurrentTimeInt64 = countingCurrentTimeInt64;
  installResult = sqlite3_vfs_register(&countingVFS, 1);
}

int cachebench_sqlite_io_install(void) {
  pthread_once(&installOnce, install);
  return installResult;
}

void cachebench_sqlite_io_counts(unsigned long long *syncs, unsigned long long *writes, unsigned long long *reads) {
  *syncs = syncCount;
  *writes = writeCount;
  *reads = readCount;
}
