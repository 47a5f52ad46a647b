#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value behind a phase-fair readers-writer lock: many readers at once, or one writer, and
/// neither side can starve the other.
///
/// ```swift
/// let table = ReadWriteLock(RecordTable())
/// let records = table.withReadLock { $0.load(keys) }      // readers run together
/// table.withWriteLock { $0.insert(key, fields: fields) }   // a writer runs alone
/// ```
/// The stores' locks, built from a pthread mutex and two condition variables
/// ([pthread_cond_wait](https://pubs.opengroup.org/onlinepubs/9799919799/functions/pthread_cond_wait.html))
/// rather than `Synchronization.Mutex`, because ThreadSanitizer understands pthread primitives (it
/// does not see `Mutex` on Linux, and reports every access behind one as a race).
///
/// **Policy: phase-fair** (Brandenburg and Anderson's phase-fair readers-writer locks). Read phases
/// and write phases alternate while both sides wait:
/// - a writer that comes waits only for the readers already in: readers that come after it wait;
/// - when a writer is done, every reader waiting then goes in together, before the next writer,
///   however many writers wait;
/// - so a reader waits for one write at most (the one in progress or about to start), and a writer
///   for the readers already in and one read phase per writer ahead of it. Neither a stream of
///   writers nor a stream of readers holds the other side off. Writers among themselves take the
///   lock in no set order.
///
/// glibc's `PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP`, the lock before this one, handed the
/// lock from writer to writer while any waited: writers merging back to back starved the readers
/// for as long as they merged (issue 58).
///
/// A thread must not take the read lock again while it holds it: a writer that came in between
/// would wait for the first read, and the second would wait for that writer, so both deadlock.
/// Neither lock is reentrant; the stores never nest them.
///
/// An uncontended read takes the mutex twice (in and out) and waits on nothing.
package final class ReadWriteLock<State: ~Copyable>: @unchecked Sendable {
  /// Who holds the lock and who waits, guarded by the mutex.
  private struct Phases {
    /// Readers in the lock, including those let in at the end of a write that have not woken yet.
    var readers = 0
    /// Writers waiting or writing: while above 0, readers that come wait.
    var writers = 0
    /// Readers waiting for the write phase to end.
    var readersWaiting = 0
    /// Whether a writer holds the lock.
    var writing = false
    /// Counts the read phases a writer's release started: a waiting reader goes in when it moves.
    var readPhase: UInt = 0
  }

  /// The mutex, the two conditions and the phases, in one allocation, one after the other.
  private let parts: UnsafeMutableRawPointer
  private static var mutexSize: Int { MemoryLayout<pthread_mutex_t>.stride }
  private static var conditionSize: Int { MemoryLayout<pthread_cond_t>.stride }
  private static var partsSize: Int { mutexSize + 2 * conditionSize + MemoryLayout<Phases>.stride }
  /// The state lives at a fixed address, so that readers can be lent a pointer to it (a
  /// snapshot that several loads go through) rather than a borrow that ends with one call.
  private let state: UnsafeMutablePointer<State>
  /// How long acquisitions waited.
  package let waits = WaitCounter()

  package init(_ state: consuming State) {
    self.state = .allocate(capacity: 1)
    self.state.initialize(to: state)
    parts = .allocate(byteCount: Self.partsSize, alignment: 16)
    parts.initializeMemory(as: pthread_mutex_t.self, to: pthread_mutex_t())
    readable.initialize(to: pthread_cond_t())
    writable.initialize(to: pthread_cond_t())
    phases.initialize(to: Phases())
    let code = pthread_mutex_init(mutex, nil)
    precondition(code == 0, "pthread_mutex_init failed: \(code)")
    let readableCode = pthread_cond_init(readable, nil)
    let writableCode = pthread_cond_init(writable, nil)
    precondition(readableCode == 0 && writableCode == 0, "pthread_cond_init failed: \(readableCode), \(writableCode)")
  }

  deinit {
    pthread_cond_destroy(writable)
    pthread_cond_destroy(readable)
    pthread_mutex_destroy(mutex)
    parts.deallocate()
    state.deinitialize(count: 1)
    state.deallocate()
  }

  /// Readers wait here for a write phase to end.
  private var readable: UnsafeMutablePointer<pthread_cond_t> {
    @inline(__always) get { (parts + Self.mutexSize).assumingMemoryBound(to: pthread_cond_t.self) }
  }
  /// Writers wait here for the readers in, and the writer in, to leave.
  private var writable: UnsafeMutablePointer<pthread_cond_t> {
    @inline(__always) get { (parts + Self.mutexSize + Self.conditionSize).assumingMemoryBound(to: pthread_cond_t.self) }
  }
  private var mutex: UnsafeMutablePointer<pthread_mutex_t> {
    @inline(__always) get { parts.assumingMemoryBound(to: pthread_mutex_t.self) }
  }
  private var phases: UnsafeMutablePointer<Phases> {
    @inline(__always) get { (parts + Self.mutexSize + 2 * Self.conditionSize).assumingMemoryBound(to: Phases.self) }
  }

  /// Goes in beside the other readers when no writer is in or waiting; else waits for the next
  /// read phase (counted as a read's wait).
  @inline(__always)
  private func lockForReading() {
    if pthread_mutex_trylock(mutex) == 0 {
      if phases.pointee.writers == 0 {
        phases.pointee.readers += 1
        pthread_mutex_unlock(mutex)
        return
      }
      waits.waited(.read) { waitForReadPhase() }
    } else {
      waits.waited(.read) {
        pthread_mutex_lock(mutex)
        if phases.pointee.writers == 0 {
          phases.pointee.readers += 1
          pthread_mutex_unlock(mutex)
        } else {
          waitForReadPhase()
        }
      }
    }
  }

  /// With the mutex held and a writer in or waiting: waits until a writer's release lets this
  /// reader in (it counts it among the readers), then lets the mutex go.
  @inline(never)
  private func waitForReadPhase() {
    phases.pointee.readersWaiting += 1
    let phase = phases.pointee.readPhase
    while phases.pointee.readPhase == phase { pthread_cond_wait(readable, mutex) }
    pthread_mutex_unlock(mutex)
  }

  @inline(__always)
  private func unlockForReading() {
    pthread_mutex_lock(mutex)
    phases.pointee.readers -= 1
    if phases.pointee.readers == 0 && phases.pointee.writers > 0 { pthread_cond_signal(writable) }
    pthread_mutex_unlock(mutex)
  }

  /// Takes the lock alone once the readers in and the writer in have left; a bounded store's
  /// reads count their wait as reads'.
  @inline(__always)
  private func lockForWriting(as kind: LockWaits.Kind = .write) {
    if pthread_mutex_trylock(mutex) == 0 {
      if phases.pointee.readers == 0 && !phases.pointee.writing {
        phases.pointee.writers += 1
        phases.pointee.writing = true
        pthread_mutex_unlock(mutex)
        return
      }
      waits.waited(kind) { waitForWritePhase() }
    } else {
      waits.waited(kind) {
        pthread_mutex_lock(mutex)
        waitForWritePhase()
      }
    }
  }

  /// With the mutex held: counts this writer in (so that readers that come wait), waits until
  /// the lock is free, takes it, and lets the mutex go.
  @inline(never)
  private func waitForWritePhase() {
    phases.pointee.writers += 1
    while phases.pointee.writing || phases.pointee.readers > 0 { pthread_cond_wait(writable, mutex) }
    phases.pointee.writing = true
    pthread_mutex_unlock(mutex)
  }

  /// Ends the write phase: the readers waiting go in together, ahead of any writer waiting; with
  /// none, a waiting writer is woken.
  @inline(__always)
  private func unlockForWriting() {
    pthread_mutex_lock(mutex)
    phases.pointee.writing = false
    phases.pointee.writers -= 1
    if phases.pointee.readersWaiting > 0 {
      phases.pointee.readers += phases.pointee.readersWaiting
      phases.pointee.readersWaiting = 0
      phases.pointee.readPhase &+= 1
      pthread_cond_broadcast(readable)
    } else if phases.pointee.writers > 0 {
      pthread_cond_signal(writable)
    }
    pthread_mutex_unlock(mutex)
  }

  /// The readers waiting for a read phase, and the writers waiting or writing (for tests).
  var queued: (readers: Int, writers: Int) {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return (phases.pointee.readersWaiting, phases.pointee.writers)
  }

  /// Runs `body` with the state, beside any other readers.
  @inline(__always)
  package func withReadLock<Result, Failure: Error>(_ body: (borrowing State) throws(Failure) -> Result) throws(Failure) -> Result {
    lockForReading()
    defer { unlockForReading() }
    return try body(state.pointee)
  }

  /// Runs `body` with a pointer to the state, beside any other readers: valid only inside `body`,
  /// and only to read through.
  @inline(__always)
  package func withReadLockedPointer<Result, Failure: Error>(
    _ body: (UnsafePointer<State>) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    lockForReading()
    defer { unlockForReading() }
    return try body(UnsafePointer(state))
  }

  /// Runs `body` with the state, alone; a wait counts as `kind`'s.
  @inline(__always)
  package func withWriteLock<Result, Failure: Error>(
    as kind: LockWaits.Kind = .write, _ body: (inout State) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    lockForWriting(as: kind)
    defer { unlockForWriting() }
    return try body(&state.pointee)
  }

  /// Runs `body` with a pointer to the state, alone: valid only inside `body`.
  @inline(__always)
  package func withWriteLockedPointer<Result, Failure: Error>(
    as kind: LockWaits.Kind = .write, _ body: (UnsafeMutablePointer<State>) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    lockForWriting(as: kind)
    defer { unlockForWriting() }
    return try body(state)
  }
}
