import Testing

@testable import Measurement

#if canImport(Glibc)
  import Glibc
#endif

/// An object the size of one small allocation: a 16-byte header and one word (a 32-byte class).
private final class Box {
  var value: Int
  init(_ value: Int) { self.value = value }
}

// Other suites run in parallel and allocate too, so every bound below is one-sided or loose, and
// only per-thread figures get an upper bound.
@Suite("jemalloc statistics")
struct JemallocTests {
  @Test("the test process allocates through jemalloc")
  func isActive() throws {
    #expect(Jemalloc.isActive)
    try Jemalloc.checkActive()
  }

  @Test("a refresh succeeds and the statistics are consistent with one another")
  func refresh() throws {
    try Jemalloc.refreshStatistics()
    let statistics = try Jemalloc.statistics()
    #expect(statistics.allocatedBytes > 0)
    #expect(statistics.allocatedBytes <= statistics.activeBytes)
    #expect(statistics.activeBytes <= statistics.residentBytes)
    #expect(statistics.activeBytes <= statistics.mappedBytes)
    #expect(statistics.allocationRequests > 0)
  }

  @Test(
    "allocating N objects raises the allocation count by at least N", arguments: [1, 100, 10_000])
  func allocationCount(objects: Int) throws {
    let counter = try AllocationCounter()
    let (boxes, count, bytes) = try counter.counted {
      var boxes: [Box] = []
      boxes.reserveCapacity(objects)
      for index in 0..<objects { boxes.append(Box(index)) }
      return boxes
    }
    #expect(boxes.count == objects)
    // N boxes and the array's buffer.
    #expect(count >= objects + 1)
    // This thread's bytes: at least 32 per box (usable size), and not wildly more.
    #expect(bytes >= objects * 32)
    #expect(bytes <= objects * 32 * 4 + (1 << 20))
  }

  @Test("measuring nothing counts no bytes on this thread: the measurement allocates nothing")
  func nothing() throws {
    let counter = try AllocationCounter()
    let (_, _, bytes) = try counter.counted {}
    #expect(bytes == 0)
  }

  @Test(
    "one large allocation counts once, at its usable size", arguments: [20_000, 100_000, 1 << 20])
  func large(size: Int) throws {
    let counter = try AllocationCounter()
    let (buffer, count, bytes) = try counter.counted {
      UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
    }
    buffer.deallocate()
    #expect(count >= 1)
    #expect(bytes >= size)
    #expect(bytes <= size + size / 4 + 4096)  // the next size class up
  }

  @Test("stats.allocated grows by about the bytes held")
  func allocatedBytes() throws {
    let size = 16 << 20
    try Jemalloc.refreshStatistics()
    let before = try Jemalloc.allocatedBytes()
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
    defer { buffer.deallocate() }
    try Jemalloc.refreshStatistics()
    let after = try Jemalloc.allocatedBytes()
    // Other threads allocate and free meanwhile: a loose window around 16 MiB.
    #expect(after - before >= size / 2)
    #expect(after - before <= size * 4)
  }

  @Test("the thread counters move by the bytes allocated and freed")
  func threadCounters() throws {
    let counters = try Jemalloc.threadCounters()
    let allocated = counters.allocated
    let deallocated = counters.deallocated
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: 1 << 20, alignment: 16)
    #expect(counters.allocated - allocated >= 1 << 20)
    buffer.deallocate()
    #expect(counters.deallocated - deallocated >= 1 << 20)
  }

  @Test("an unknown mallctl name throws an error naming it")
  func unknownName() {
    #expect(throws: MeasurementError.mallctl(name: "stats.no_such_statistic", code: ENOENT)) {
      _ = try Jemalloc.readUInt64("stats.no_such_statistic")
    }
    let error = MeasurementError.mallctl(name: "stats.no_such_statistic", code: ENOENT)
    #expect(
      error.description
        == "mallctl(\"stats.no_such_statistic\") failed: error 2 (No such file or directory)")
  }

  @Test("a control read with the wrong size fails with EINVAL")
  func wrongSize() {
    #expect(throws: MeasurementError.mallctl(name: "stats.allocated", code: EINVAL)) {
      var narrow: UInt32 = 0
      try Jemalloc.read("stats.allocated", into: &narrow, size: MemoryLayout<UInt32>.size)
    }
  }
}
