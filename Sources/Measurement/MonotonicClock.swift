#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A monotonic clock in nanoseconds, for timing a closure.
///
/// ```swift
/// let ns = MonotonicClock.time { _ = try? store.loadRecords(forKeys: keys) }
/// ```
///
/// On Linux it reads `CLOCK_MONOTONIC_RAW`, which NTP does not slew, so that intervals measure
/// hardware time; on Darwin `CLOCK_UPTIME_RAW`. Named `MonotonicClock` so as not to shadow the
/// standard library's `Clock` protocol.
package enum MonotonicClock {
  /// Nanoseconds since an arbitrary fixed point (boot, on Linux). Only differences mean anything.
  @inlinable @inline(__always)
  package static func now() -> UInt64 {
    #if canImport(Darwin)
      return clock_gettime_nsec_np(CLOCK_UPTIME_RAW)
    #else
      var spec = timespec()
      let result = clock_gettime(CLOCK_MONOTONIC_RAW, &spec)
      // The clock id is a constant this kernel supports; failing here is a broken platform.
      precondition(result == 0, "clock_gettime(CLOCK_MONOTONIC_RAW) failed: errno \(errno)")
      return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    #endif
  }

  /// Runs `body` once and returns how long it took, in nanoseconds.
  ///
  /// - Throws: what `body` throws.
  @inlinable @inline(__always)
  package static func time(_ body: () throws -> Void) rethrows -> UInt64 {
    let start = now()
    try body()
    return now() &- start
  }

  /// Runs `body` once and returns its result and how long it took, in nanoseconds.
  ///
  /// ```swift
  /// let (records, ns) = try MonotonicClock.timed { try store.loadRecords(forKeys: keys) }
  /// ```
  ///
  /// - Throws: what `body` throws.
  @inlinable @inline(__always)
  package static func timed<T>(_ body: () throws -> T) rethrows -> (result: T, ns: UInt64) {
    let start = now()
    let result = try body()
    let elapsed = now() &- start
    return (result, elapsed)
  }
}
