import Measurement
import Testing

@Suite("monotonic clock")
struct MonotonicClockTests {
  @Test("readings never go backwards")
  func monotonic() {
    var previous = MonotonicClock.now()
    for _ in 0..<1000 {
      let now = MonotonicClock.now()
      #expect(now >= previous)
      previous = now
    }
  }

  @Test("time runs the closure once and passes its result through")
  func timeRunsOnce() {
    var calls = 0
    _ = MonotonicClock.time { calls += 1 }
    let (result, _) = MonotonicClock.timed { 42 }
    #expect(calls == 1)
    #expect(result == 42)
  }

  @Test("time rethrows what the closure throws")
  func passesErrorsThrough() {
    struct Failure: Error {}
    #expect(throws: Failure.self) { _ = try MonotonicClock.time { throw Failure() } }
  }
}
