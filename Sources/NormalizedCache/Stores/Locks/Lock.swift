#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value behind a mutual-exclusion lock
/// ([pthread_mutex](https://pubs.opengroup.org/onlinepubs/9799919799/functions/pthread_mutex_lock.html)),
/// with a condition to wait on.
///
/// ```swift
/// let pool = Lock([Connection]())
/// let connection = pool.withLock { $0.popLast() }
/// ```
/// Used where `Synchronization.Mutex` would do, because ThreadSanitizer understands pthread
/// locks and not `Mutex` on Linux (see ``ReadWriteLock``).
package final class Lock<State: ~Copyable>: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let condition: UnsafeMutablePointer<pthread_cond_t>
  private var state: State
  /// How long acquisitions waited.
  package let waits = WaitCounter()

  package init(_ state: consuming State) {
    self.state = state
    mutex = .allocate(capacity: 1)
    condition = .allocate(capacity: 1)
    let code = pthread_mutex_init(mutex, nil)
    precondition(code == 0, "pthread_mutex_init failed: \(code)")
    let conditionCode = pthread_cond_init(condition, nil)
    precondition(conditionCode == 0, "pthread_cond_init failed: \(conditionCode)")
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    condition.deallocate()
    mutex.deallocate()
  }

  /// Runs `body` with the state, alone; a wait for the lock counts as `kind`'s.
  @inline(__always)
  package func withLock<Result, Failure: Error>(
    as kind: LockWaits.Kind = .write, _ body: (inout State) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    if pthread_mutex_trylock(mutex) != 0 { waits.waited(kind) { pthread_mutex_lock(mutex) } }
    defer { pthread_mutex_unlock(mutex) }
    return try body(&state)
  }

  /// Runs `body` with the state, alone, if the lock is free now; nil (and `body` not run) if
  /// another thread holds it. A failed try is not a wait.
  @inline(__always)
  package func withLockIfFree<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result? {
    guard pthread_mutex_trylock(mutex) == 0 else { return nil }
    defer { pthread_mutex_unlock(mutex) }
    return try body(&state)
  }

  /// Runs `body` with the state, alone, once `ready` says it may: until then the lock is given up
  /// and the thread waits for ``signal()``.
  package func withLock<Result, Failure: Error>(
    as kind: LockWaits.Kind = .write, when ready: (borrowing State) -> Bool, _ body: (inout State) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    if pthread_mutex_trylock(mutex) != 0 { waits.waited(kind) { pthread_mutex_lock(mutex) } }
    defer { pthread_mutex_unlock(mutex) }
    if !ready(state) { waits.waited(kind) { while !ready(state) { pthread_cond_wait(condition, mutex) } } }
    return try body(&state)
  }

  /// Wakes one thread waiting in ``withLock(when:_:)``; call it after a change that may let it go on.
  package func signal() {
    pthread_cond_signal(condition)
  }
}
