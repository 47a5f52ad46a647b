/// Counts the allocations a piece of code makes: how many requests it sent to jemalloc, and how
/// many bytes it allocated (docs/metrics.md#allocations).
///
/// ```swift
/// let counter = try AllocationCounter()
/// let (normalized, count, bytes) = try counter.counted {
///   try normalizer.normalize(response, plan: plan)
/// }
/// ```
///
/// - The count is the growth of ``Jemalloc/allocationRequests()`` across the closure, with a
///   statistics refresh (this thread's tcache flush, then `epoch`) on each side. It is global:
///   allocations other threads make meanwhile and that reach the arenas are counted too, so measure
///   on an otherwise idle process.
/// - The bytes are the growth of this thread's `thread.allocated` counter: only this thread's
///   allocations, at their usable (size class) size, freed or not.
///
/// A refresh flushes the tcache, which makes the next allocations slower: count allocations in
/// runs of their own, never in the runs that are timed.
///
/// A counter belongs to the thread that created it; `body` runs synchronously on that thread.
package struct AllocationCounter {
  private let thread: ThreadAllocationCounters

  /// - Throws: ``MeasurementError`` when the per-thread counters cannot be read.
  package init() throws(MeasurementError) {
    thread = try Jemalloc.threadCounters()
  }

  /// Runs `body` once and returns its result with the number of allocation requests and bytes it
  /// allocated.
  ///
  /// ```swift
  /// let (records, count, bytes) = try counter.counted { try store.loadRecords(forKeys: keys) }
  /// ```
  ///
  /// - Throws: what `body` throws, or a ``MeasurementError``.
  package func counted<T>(
    _ body: () throws -> T
  ) throws -> (result: T, count: Int, bytes: Int) {
    try Jemalloc.refreshStatistics()
    let requestsBefore = try Jemalloc.allocationRequests()
    let bytesBefore = thread.allocated
    let result = try body()
    let bytesAfter = thread.allocated
    try Jemalloc.refreshStatistics()
    let requestsAfter = try Jemalloc.allocationRequests()
    return (
      result,
      Int(truncatingIfNeeded: requestsAfter &- requestsBefore),
      Int(truncatingIfNeeded: bytesAfter &- bytesBefore)
    )
  }
}
