import Results

/// Warm-up and measured repetitions, each on a fresh subject (a store, usually), with the live
/// bytes that subject comes to hold: the one loop every benchmark of the workbench runs.
///
/// ```swift
/// let harness = Harness(warmup: 1, repetitions: 3)
/// let samples = try harness.run(make: { InMemoryNormalizedCache() }) { store, repetition in
///   try repetition.time(mergeLatency) { try store.merge(records: records) }
///   repetition.record(try repetition.liveBytes(), as: liveBytes)
/// }
/// ```
///
/// Each repetition refreshes jemalloc's statistics and notes the live bytes, then makes its
/// subject, runs the body, releases the subject and calls `cleanUp` (to delete a store's files
/// once the store is closed). Samples recorded in warm-up repetitions are dropped.
package struct Harness: Sendable {
  package let warmup: Int
  package let repetitions: Int

  package init(warmup: Int, repetitions: Int) {
    precondition(warmup >= 0 && repetitions >= 1, "a harness needs at least one measured repetition")
    self.warmup = warmup
    self.repetitions = repetitions
  }

  /// Runs `body` `warmup + repetitions` times, each time on a subject `make` returns.
  ///
  /// - Returns: the samples recorded in the measured repetitions, in the order they were taken.
  /// - Throws: what `make` or `body` throws, or a ``MeasurementError``.
  package func run<Subject>(
    make: () throws -> Subject,
    cleanUp: () -> Void = {},
    _ body: (Subject, inout Repetition) throws -> Void
  ) throws -> MetricSamples {
    var samples = MetricSamples()
    for index in 0..<(warmup + repetitions) {
      try Jemalloc.refreshStatistics()
      var repetition = Repetition(
        index: index, warmup: warmup, repetitions: repetitions, baseline: try Jemalloc.allocatedBytes(),
        thread: try Jemalloc.threadCounters())
      do {
        let subject = try make()
        try body(subject, &repetition)
      }
      cleanUp()
      samples.append(contentsOf: repetition.samples)
    }
    return samples
  }
}

/// One pass of a ``Harness``: what it is (a warm-up or a measured repetition) and the samples it
/// keeps.
package struct Repetition {
  /// 0-based, warm-ups first.
  package let index: Int
  /// False in warm-up: samples recorded then are dropped.
  package let isMeasured: Bool
  /// `warm-up 1/3` or `repetition 2/20`, for progress lines.
  package let label: String
  private let baseline: Int
  private let thread: ThreadAllocationCounters
  /// The bytes the samples' own storage grew by, which ``liveBytes()`` leaves out.
  private var samplesBytes = 0
  fileprivate private(set) var samples = MetricSamples()

  init(index: Int, warmup: Int, repetitions: Int, baseline: Int, thread: ThreadAllocationCounters) {
    self.index = index
    isMeasured = index >= warmup
    label = isMeasured ? "repetition \(index - warmup + 1)/\(repetitions)" : "warm-up \(index + 1)/\(warmup)"
    self.baseline = baseline
    self.thread = thread
  }

  /// Keeps `value` as a sample of `metric`, in a measured repetition.
  package mutating func record(_ value: Double, as metric: Metric) {
    guard isMeasured else { return }
    // What appending allocates, net of what it frees, on this thread: growing the samples must
    // not count as bytes the subject holds.
    let allocated = thread.allocated
    let deallocated = thread.deallocated
    samples.append(value, to: metric)
    samplesBytes += Int(truncatingIfNeeded: (thread.allocated &- allocated) &- (thread.deallocated &- deallocated))
  }

  /// Keeps an integer `value` as a sample of `metric`, in a measured repetition.
  package mutating func record(_ value: some BinaryInteger, as metric: Metric) {
    record(Double(value), as: metric)
  }

  /// Runs `body` once, keeps its time in nanoseconds divided by `count` as a sample of `metric`,
  /// and returns its result.
  ///
  /// - Throws: what `body` throws.
  @inlinable @inline(__always) @discardableResult
  package mutating func time<T>(_ metric: Metric, per count: Int = 1, _ body: () throws -> T) rethrows -> T {
    let (result, nanoseconds) = try MonotonicClock.timed(body)
    record(Double(nanoseconds) / Double(count), as: metric)
    return result
  }

  /// Bytes live in jemalloc now, less those live before the subject was made and those the
  /// recorded samples hold: what the subject and whatever it owns hold (docs/metrics.md,
  /// `live_bytes`).
  ///
  /// - Throws: ``MeasurementError``.
  package func liveBytes() throws(MeasurementError) -> Int {
    try Jemalloc.refreshStatistics()
    return try Jemalloc.allocatedBytes() - baseline - samplesBytes
  }
}
