#if !NO_JEMALLOC
  import CJemalloc
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The only place that calls `mallctl`: jemalloc's statistics, typed, every return code checked.
///
/// jemalloc publishes its arena statistics as a snapshot taken at the last `epoch` write, and a
/// thread's cached allocations (its tcache) reach the arena counters only when that cache is
/// flushed. Call ``refreshStatistics()`` before reading, or use ``statistics()``, which does both.
///
/// ```swift
/// try Jemalloc.refreshStatistics()
/// let live = try Jemalloc.allocatedBytes()
/// ```
///
/// Names follow `man 3 jemalloc` (jemalloc 5.3, "MALLCTL NAMESPACE").
package enum Jemalloc {
  /// Flushes the calling thread's tcache (`thread.tcache.flush`), so that its cached allocation
  /// requests are merged into the arena counters, then writes `epoch` so that the `stats.*`
  /// controls report fresh values.
  ///
  /// Other threads' tcaches are not flushed: their requests reach the arena counters when their
  /// caches fill or empty. Measure allocation counts on a thread of an otherwise idle process.
  ///
  /// - Throws: ``MeasurementError/mallctl(name:code:)``.
  static func refreshStatistics() throws(MeasurementError) {
    let flush = call("thread.tcache.flush", nil, nil, nil, 0)
    // EFAULT: this thread has no tcache (MALLOC_CONF=tcache:false), so there is nothing to flush.
    if flush != 0, !(flush == EFAULT && (try? readBool("thread.tcache.enabled")) == false) {
      throw .mallctl(name: "thread.tcache.flush", code: flush)
    }
    var newEpoch: UInt64 = 1
    var oldEpoch: UInt64 = 0
    var length = MemoryLayout<UInt64>.size
    let result = call("epoch", &oldEpoch, &length, &newEpoch, MemoryLayout<UInt64>.size)
    guard result == 0 else { throw .mallctl(name: "epoch", code: result) }
  }

  /// `stats.allocated`: bytes in live allocations, as of the last refresh.
  static func allocatedBytes() throws(MeasurementError) -> Int {
    try size("stats.allocated")
  }

  /// `stats.active`: bytes in active pages (a multiple of the page size, ≥ allocated bytes).
  static func activeBytes() throws(MeasurementError) -> Int {
    try size("stats.active")
  }

  /// `stats.resident`: bytes in physically resident data pages mapped by jemalloc.
  static func residentBytes() throws(MeasurementError) -> Int {
    try size("stats.resident")
  }

  /// `stats.mapped`: bytes in extents mapped by jemalloc.
  static func mappedBytes() throws(MeasurementError) -> Int {
    try size("stats.mapped")
  }

  /// The cumulative number of allocation requests served by every arena, as of the last refresh:
  /// `stats.arenas.4096.small.nrequests + stats.arenas.4096.large.nrequests` (4096 is
  /// `MALLCTL_ARENAS_ALL`, the merge of every arena).
  ///
  /// `nrequests` counts every request, including those a tcache served without visiting the arena;
  /// `nmalloc` counts only arena visits, so it moves in steps of a tcache fill (one `malloc` of 48
  /// bytes moved it by 100, a whole fill; so did 10 and 100). A tcache's requests are merged into the arena counters by
  /// ``refreshStatistics()``'s flush, not by the `epoch` write alone (without the flush, 100 small
  /// `malloc`s moved `nrequests` by 0). Verified on this build (Debian jemalloc 5.3.0): after a
  /// flush and an epoch, N `malloc` calls of 48 bytes, 20 KB, 100 KB, 1 MB or 10 MB move the sum by
  /// exactly N, and from Swift, N class instances in a reserved array by exactly N + 1.
  static func allocationRequests() throws(MeasurementError) -> UInt64 {
    // Literal names, not "stats.arenas.\(MALLCTL_ARENAS_ALL)...": see "Names are StaticStrings".
    let small = try readUInt64("stats.arenas.4096.small.nrequests")
    let large = try readUInt64("stats.arenas.4096.large.nrequests")
    return small &+ large
  }

  /// Refreshes the statistics, then reads them all at once.
  ///
  /// - Throws: ``MeasurementError/mallctl(name:code:)``.
  static func statistics() throws(MeasurementError) -> JemallocStatistics {
    try refreshStatistics()
    return JemallocStatistics(
      allocatedBytes: try allocatedBytes(),
      activeBytes: try activeBytes(),
      residentBytes: try residentBytes(),
      mappedBytes: try mappedBytes(),
      allocationRequests: try allocationRequests()
    )
  }

  /// The calling thread's cumulative byte counters (`thread.allocatedp`, `thread.deallocatedp`).
  /// Reading them afterwards is a plain memory load, cheap enough for a hot loop.
  static func threadCounters() throws(MeasurementError) -> ThreadAllocationCounters {
    let allocated = try readPointer("thread.allocatedp")
    let deallocated = try readPointer("thread.deallocatedp")
    return ThreadAllocationCounters(allocated: allocated, deallocated: deallocated)
  }

  /// Whether `malloc` in this process is jemalloc's (see ``checkActive()``).
  static var isActive: Bool {
    (try? checkActive()) != nil
  }

  /// Allocates a 1 MiB buffer and checks that jemalloc's counter of bytes allocated by this thread
  /// (`thread.allocated`) grew by at least that much. If `malloc` were the C library's, the counter
  /// would not move.
  ///
  /// The per-thread counter is used rather than `stats.allocated` because other threads may free
  /// memory at the same time, which would make the global figure grow by less.
  ///
  /// - Throws: ``MeasurementError/jemallocInactive(requested:observed:)``, or a `mallctl` failure.
  package static func checkActive() throws(MeasurementError) {
    let counters = try threadCounters()
    let requested = 1 << 20
    let before = counters.allocated
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: requested, alignment: 16)
    let after = counters.allocated
    buffer.deallocate()
    let observed = Int(truncatingIfNeeded: after &- before)
    guard observed >= requested else {
      throw .jemallocInactive(requested: requested, observed: observed)
    }
  }

  // MARK: - mallctl

  // Names are StaticStrings, passed to C as the literal's own bytes: converting a String to a C
  // string may allocate (a small string is copied to the heap), and every allocation made between
  // two refreshes counts in allocationRequests(). For the same reason the readers are concrete
  // rather than one generic, which a debug build would not specialize and would allocate in.

  static func readUInt64(_ name: StaticString) throws(MeasurementError) -> UInt64 {
    var value: UInt64 = 0
    try read(name, into: &value, size: MemoryLayout<UInt64>.size)
    return value
  }

  static func readBool(_ name: StaticString) throws(MeasurementError) -> Bool {
    var value = false
    try read(name, into: &value, size: MemoryLayout<Bool>.size)
    return value
  }

  static func readPointer(
    _ name: StaticString
  ) throws(MeasurementError) -> UnsafeMutablePointer<UInt64> {
    var value: UnsafeMutablePointer<UInt64>? = nil
    try read(name, into: &value, size: MemoryLayout<UnsafeMutablePointer<UInt64>?>.size)
    guard let value else { throw .mallctl(name: name.description, code: EFAULT) }
    return value
  }

  /// A `size_t` control, as an `Int`.
  private static func size(_ name: StaticString) throws(MeasurementError) -> Int {
    var value: UInt = 0
    try read(name, into: &value, size: MemoryLayout<UInt>.size)
    return Int(clamping: value)
  }

  /// Reads the control `name` into `size` bytes at `pointer`, and checks both the return code and
  /// the length jemalloc wrote (a control of another C type is an error, not a truncated value).
  static func read(
    _ name: StaticString, into pointer: UnsafeMutableRawPointer, size: Int
  ) throws(MeasurementError) {
    var length = size
    let code = call(name, pointer, &length, nil, 0)
    guard code == 0 else { throw .mallctl(name: name.description, code: code) }
    guard length == size else { throw .mallctl(name: name.description, code: EINVAL) }
  }

  /// `mallctl(name, oldp, oldlenp, newp, newlen)`, with the literal's bytes as the C string.
  private static func call(
    _ name: StaticString, _ old: UnsafeMutableRawPointer?, _ oldLength: UnsafeMutablePointer<Int>?,
    _ new: UnsafeMutableRawPointer?, _ newLength: Int
  ) -> Int32 {
    precondition(name.hasPointerRepresentation && name.utf8Start[name.utf8CodeUnitCount] == 0)
    #if NO_JEMALLOC
      // A sanitizer build (CACHEBENCH_NO_JEMALLOC): no jemalloc to ask.
      return ENOSYS
    #else
      let cName = UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)
      return mallctl(cName, old, oldLength, new, newLength)
    #endif
  }
}

/// jemalloc's process-wide statistics at one moment (see ``Jemalloc/statistics()``).
struct JemallocStatistics: Sendable, Hashable {
  /// `stats.allocated`.
  var allocatedBytes: Int
  /// `stats.active`.
  var activeBytes: Int
  /// `stats.resident`.
  var residentBytes: Int
  /// `stats.mapped`.
  var mappedBytes: Int
  /// ``Jemalloc/allocationRequests()``.
  var allocationRequests: UInt64
}

/// The calling thread's cumulative counters of bytes allocated and deallocated through jemalloc,
/// read by dereferencing the pointers `thread.allocatedp` and `thread.deallocatedp` return.
///
/// Bytes are usable sizes: a 40-byte request counts as its 48-byte size class. The pointers belong
/// to the thread that asked for them, so a value of this type must stay on that thread.
struct ThreadAllocationCounters {
  private let allocatedPointer: UnsafeMutablePointer<UInt64>
  private let deallocatedPointer: UnsafeMutablePointer<UInt64>
  private let thread: pthread_t

  init(allocated: UnsafeMutablePointer<UInt64>, deallocated: UnsafeMutablePointer<UInt64>) {
    self.allocatedPointer = allocated
    self.deallocatedPointer = deallocated
    self.thread = pthread_self()
  }

  /// Bytes ever allocated by this thread (`thread.allocated`).
  var allocated: UInt64 {
    assert(pthread_equal(thread, pthread_self()) != 0, "thread counters read on another thread")
    return allocatedPointer.pointee
  }

  /// Bytes ever deallocated by this thread (`thread.deallocated`).
  var deallocated: UInt64 {
    assert(pthread_equal(thread, pthread_self()) != 0, "thread counters read on another thread")
    return deallocatedPointer.pointee
  }
}
