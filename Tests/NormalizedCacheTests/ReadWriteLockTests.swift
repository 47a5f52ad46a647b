import Dispatch
import Foundation
import Synchronization
import Testing

@testable import NormalizedCache

/// The stores' readers-writer lock is phase-fair: readers go on under any stream of writers, and
/// writers under any stream of readers. Each side here loops until the other is done, so a policy
/// that prefers one side never ends on its own; the deadline only tells a hang from a slow runner
/// (it is many times what a loaded 2-core machine needs), and nothing here asserts a speed.
@Suite("Readers-writer lock: neither side starves")
struct ReadWriteLockTests {
  /// What the threads of a test share besides the lock under test.
  struct Progress {
    var writersLeft = 0
    var reads = 0
    var writes = 0
    /// Set when the deadline passed: every loop stops, so that a starved run ends.
    var gaveUp = false
    var torn = 0
  }

  /// Starts `count` OS threads (not tasks: the cooperative pool has one thread a core) running
  /// `body` with their index.
  static func start(_ count: Int, _ group: DispatchGroup, _ body: @escaping @Sendable (Int) -> Void) {
    for index in 0..<count {
      group.enter()
      Thread {
        body(index)
        group.leave()
      }.start()
    }
  }

  /// Waits for `group` up to `seconds`; past it, calls `giveUp` (which ends the loops), waits
  /// for them, and says false.
  static func finished(_ group: DispatchGroup, within seconds: Int, giveUp: () -> Void) -> Bool {
    if group.wait(timeout: .now() + .seconds(seconds)) == .success { return true }
    giveUp()
    group.wait()
    return false
  }

  /// A little work inside the lock, so that the other threads pile up behind it.
  static func work(_ value: inout Int) {
    for step in 0..<200 { value = value &* 31 &+ step }
  }

  @Test("readers finish their reads while writers write back to back until the readers are done")
  func readersUnderAStreamOfWriters() {
    let readers = 4
    let readsEach = 2_000
    let lock = ReadWriteLock((0, 0))
    // Atomics, not a lock, between the writers' turns: a writer goes back to the lock at once, so
    // one always waits when another lets go (a lock that prefers writers never lets a reader in).
    let readersLeft = Atomic<Int>(readers)
    let gaveUp = Atomic<Bool>(false)
    let progress = Lock(Progress())
    let group = DispatchGroup()
    Self.start(8, group) { _ in
      var scratch = 0
      while readersLeft.load(ordering: .acquiring) > 0 && !gaveUp.load(ordering: .relaxed) {
        lock.withWriteLock { pair in
          pair.0 += 1
          Self.work(&scratch)
          pair.1 += 1
        }
      }
    }
    Self.start(readers, group) { _ in
      var reads = 0
      var torn = 0
      while reads < readsEach && !gaveUp.load(ordering: .relaxed) {
        if lock.withReadLock({ pair in pair.0 != pair.1 }) { torn += 1 }
        reads += 1
      }
      progress.withLock { [reads, torn] in
        $0.reads += reads
        $0.torn += torn
      }
      readersLeft.subtract(1, ordering: .releasing)
    }
    let ended = Self.finished(group, within: 120) { gaveUp.store(true, ordering: .relaxed) }
    let outcome = progress.withLock { $0 }
    let writes = lock.withReadLock { $0.0 }
    #expect(ended, "the readers made \(outcome.reads) of \(readers * readsEach) reads in 120 s beside \(writes) writes: starved")
    #expect(outcome.reads == readers * readsEach)
    #expect(outcome.torn == 0, "a read saw a write half done")
    #expect(lock.withReadLock { $0.0 == $0.1 })
  }

  @Test("writers finish their writes while readers overlap one another until the writers are done")
  func writersUnderAStreamOfReaders() {
    let writers = 2
    let writesEach = 200
    let lock = ReadWriteLock((0, 0))
    let progress = Lock(Progress(writersLeft: writers))
    let group = DispatchGroup()
    Self.start(8, group) { _ in
      var scratch = 0
      while progress.withLock({ $0.writersLeft > 0 && !$0.gaveUp }) {
        let torn = lock.withReadLock { pair in
          var copy = pair.0
          Self.work(&copy)
          Self.work(&scratch)
          return pair.0 != pair.1
        }
        progress.withLock {
          $0.reads += 1
          if torn { $0.torn += 1 }
        }
      }
    }
    Self.start(writers, group) { _ in
      for _ in 0..<writesEach {
        if progress.withLock({ $0.gaveUp }) { break }
        lock.withWriteLock { pair in
          pair.0 += 1
          pair.1 += 1
        }
        progress.withLock { $0.writes += 1 }
      }
      progress.withLock { $0.writersLeft -= 1 }
    }
    let ended = Self.finished(group, within: 120) { progress.withLock { $0.gaveUp = true } }
    let outcome = progress.withLock { $0 }
    #expect(ended, "the writers made \(outcome.writes) of \(writers * writesEach) writes in 120 s beside \(outcome.reads) reads: starved")
    #expect(outcome.writes == writers * writesEach)
    #expect(outcome.torn == 0, "a read saw a write half done")
    #expect(lock.withReadLock { $0.0 == writers * writesEach })
  }

  @Test("readers waiting behind a writer go in when it is done, before a writer that waits with them")
  func phasesAlternate() async throws {
    let lock = ReadWriteLock([String]())
    let group = DispatchGroup()
    let seen = Lock([[String]]())
    // The first writer holds the lock until two readers and a second writer wait behind it.
    let holding = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    Self.start(1, group) { _ in
      lock.withWriteLock { log in
        holding.signal()
        release.wait()
        log.append("writer 1")
      }
    }
    holding.wait()
    Self.start(1, group) { _ in lock.withWriteLock { $0.append("writer 2") } }
    Self.start(2, group) { _ in
      let log = lock.withReadLock { $0 }
      seen.withLock { $0.append(log) }
    }
    // Waits until they are queued (the lock's own count, not a sleep): a deadline only for a hang.
    var queued = false
    for _ in 0..<12_000 where !queued {
      queued = lock.queued == (readers: 2, writers: 2)
      if !queued { try await Task.sleep(for: .milliseconds(10)) }
    }
    #expect(queued, "\(lock.queued)")
    _ = lock.waits.take()
    release.signal()
    #expect(Self.finished(group, within: 120) {})
    // Both readers saw writer 1's write and not writer 2's, though writer 2 came first.
    #expect(seen.withLock { $0 } == [["writer 1"], ["writer 1"]])
    #expect(lock.withReadLock { $0 } == ["writer 1", "writer 2"])
    let waits = lock.waits.take()
    #expect(waits.readNanoseconds > 0 && waits.writeNanoseconds > 0, "each queued thread counted its wait")
  }
}
