#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a readers-writer lock: many readers at once, or one writer
/// ([pthread_rwlock](https://pubs.opengroup.org/onlinepubs/9799919799/functions/pthread_rwlock_rdlock.html)).
///
/// ```swift
/// let table = ReadWriteLock(RecordTable())
/// let records = table.withReadLock { $0.load(keys) }      // readers run together
/// table.withWriteLock { $0.insert(key, fields: fields) }   // a writer runs alone
/// ```
/// The stores' locks, chosen over `Synchronization.Mutex` for two reasons: readers of the
/// in-memory store go on together, and ThreadSanitizer understands pthread locks (it does not
/// see `Mutex` on Linux, and reports every access behind one as a race).
///
/// On glibc the lock prefers writers (`PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP`): with the
/// default, readers that keep coming would hold a merge off for as long as they come. The price is
/// that a thread must not take the read lock again while it holds it (a waiting writer would
/// deadlock them both): the stores never nest their locks.
package final class ReadWriteLock<State: ~Copyable>: @unchecked Sendable {
  private let lock: UnsafeMutablePointer<pthread_rwlock_t>
  /// The state lives at a fixed address, so that readers can be lent a pointer to it (a
  /// snapshot that several loads go through) rather than a borrow that ends with one call.
  private let state: UnsafeMutablePointer<State>
  /// How long acquisitions waited.
  package let waits = WaitCounter()

  package init(_ state: consuming State) {
    self.state = .allocate(capacity: 1)
    self.state.initialize(to: state)
    lock = .allocate(capacity: 1)
    var attributes = pthread_rwlockattr_t()
    pthread_rwlockattr_init(&attributes)
    #if canImport(Glibc)
    pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
    #endif
    let code = pthread_rwlock_init(lock, &attributes)
    pthread_rwlockattr_destroy(&attributes)
    precondition(code == 0, "pthread_rwlock_init failed: \(code)")
  }

  deinit {
    pthread_rwlock_destroy(lock)
    lock.deallocate()
    state.deinitialize(count: 1)
    state.deallocate()
  }

  @inline(__always)
  private func lockForReading() {
    if pthread_rwlock_tryrdlock(lock) != 0 { waits.waited(.read) { pthread_rwlock_rdlock(lock) } }
  }

  /// Takes the lock alone; a bounded store's reads count their wait as reads'.
  @inline(__always)
  private func lockForWriting(as kind: LockWaits.Kind = .write) {
    if pthread_rwlock_trywrlock(lock) != 0 { waits.waited(kind) { pthread_rwlock_wrlock(lock) } }
  }

  /// Runs `body` with the state, beside any other readers.
  @inline(__always)
  package func withReadLock<Result, Failure: Error>(_ body: (borrowing State) throws(Failure) -> Result) throws(Failure) -> Result {
    lockForReading()
    defer { pthread_rwlock_unlock(lock) }
    return try body(state.pointee)
  }

  /// Runs `body` with a pointer to the state, beside any other readers: valid only inside `body`,
  /// and only to read through.
  @inline(__always)
  package func withReadLockedPointer<Result, Failure: Error>(
    _ body: (UnsafePointer<State>) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    lockForReading()
    defer { pthread_rwlock_unlock(lock) }
    return try body(UnsafePointer(state))
  }

  /// Runs `body` with the state, alone; a wait counts as `kind`'s.
  @inline(__always)
  package func withWriteLock<Result, Failure: Error>(
    as kind: LockWaits.Kind = .write, _ body: (inout State) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    lockForWriting(as: kind)
    defer { pthread_rwlock_unlock(lock) }
    return try body(&state.pointee)
  }

  /// Runs `body` with a pointer to the state, alone: valid only inside `body`.
  @inline(__always)
  package func withWriteLockedPointer<Result, Failure: Error>(
    as kind: LockWaits.Kind = .write, _ body: (UnsafeMutablePointer<State>) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    lockForWriting(as: kind)
    defer { pthread_rwlock_unlock(lock) }
    return try body(state)
  }
}
