import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Time threads spent waiting for a store's locks, reads and writes apart: what contention
/// costs, which the concurrency phase reports (`read_lock_wait`, `write_lock_wait`).
public struct LockWaits: Sendable, Hashable {
  /// Nanoseconds reads waited, in all.
  public var readNanoseconds: UInt64 = 0
  /// Nanoseconds writes (merges, removals) waited, in all.
  public var writeNanoseconds: UInt64 = 0

  public init(readNanoseconds: UInt64 = 0, writeNanoseconds: UInt64 = 0) {
    self.readNanoseconds = readNanoseconds
    self.writeNanoseconds = writeNanoseconds
  }

  /// Whose wait a lock's acquisition is.
  public enum Kind: Sendable {
    case read, write
  }

  public static func + (lhs: LockWaits, rhs: LockWaits) -> LockWaits {
    LockWaits(readNanoseconds: lhs.readNanoseconds + rhs.readNanoseconds, writeNanoseconds: lhs.writeNanoseconds + rhs.writeNanoseconds)
  }
}

/// A store that can say how long threads waited for its locks.
public protocol LockWaitReporting: NormalizedCache {
  /// The waits since the last call.
  func takeLockWaits() -> LockWaits
}

/// The waits a lock has counted, kept in atomics so that counting needs no lock of its own. A
/// lock is first tried; only an acquisition that would block reads the clock, so an uncontended
/// one costs nothing more.
package final class WaitCounter: Sendable {
  private let read = Atomic<UInt64>(0)
  private let write = Atomic<UInt64>(0)

  package init() {}

  /// Acquires with `acquire` after `tryAcquire` failed, adding the time it took to `kind`'s wait.
  @inline(never)
  package func waited(_ kind: LockWaits.Kind, _ acquire: () -> Void) {
    let start = Self.now()
    acquire()
    let elapsed = Self.now() &- start
    switch kind {
    case .read: read.add(elapsed, ordering: .relaxed)
    case .write: write.add(elapsed, ordering: .relaxed)
    }
  }

  package func take() -> LockWaits {
    LockWaits(readNanoseconds: read.exchange(0, ordering: .relaxed), writeNanoseconds: write.exchange(0, ordering: .relaxed))
  }

  private static func now() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
  }
}
