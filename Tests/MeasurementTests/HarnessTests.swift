import Results
import Testing

@testable import Measurement

@Suite("Harness")
struct HarnessTests {
  static let metric = Metric(.write, "latency", unit: .ns, deterministic: false)
  static let other = Metric(.read, "latency", unit: .ns, deterministic: false)

  /// A subject that notes its creation and its release.
  final class Subject {
    let id: Int
    let log: Log
    init(_ id: Int, _ log: Log) {
      self.id = id
      self.log = log
      log.events.append("make \(id)")
    }
    deinit { log.events.append("release \(id)") }
  }

  final class Log {
    var events: [String] = []
  }

  @Test("runs warm-ups then measured repetitions, each on a fresh subject released before the clean-up")
  func order() throws {
    let log = Log()
    var made = 0
    var labels: [String] = []
    _ = try Harness(warmup: 2, repetitions: 3).run(
      make: { () -> Subject in
        made += 1
        return Subject(made, log)
      },
      cleanUp: { log.events.append("clean") }
    ) { subject, repetition in
      log.events.append("body \(subject.id)")
      labels.append(repetition.label)
    }
    #expect(labels == ["warm-up 1/2", "warm-up 2/2", "repetition 1/3", "repetition 2/3", "repetition 3/3"])
    #expect(log.events.prefix(8) == ["make 1", "body 1", "release 1", "clean", "make 2", "body 2", "release 2", "clean"])
    #expect(log.events.count == 5 * 4)
  }

  @Test("keeps the samples of measured repetitions only, in order, metric by metric")
  func samples() throws {
    let samples = try Harness(warmup: 1, repetitions: 2).run(make: {}) { _, repetition in
      repetition.record(Double(repetition.index), as: Self.metric)
      repetition.record(repetition.index * 10, as: Self.other)
      repetition.record(Double(repetition.index), as: Self.metric)
    }
    #expect(samples.metrics == [Self.metric, Self.other])
    #expect(samples[Self.metric] == [1, 1, 2, 2])
    #expect(samples[Self.other] == [10, 20])
  }

  @Test("time keeps one sample per call, divided by the count, and returns the body's result")
  func time() throws {
    var results: [String] = []
    let samples = try Harness(warmup: 0, repetitions: 2).run(make: {}) { _, repetition in
      results.append(repetition.time(Self.metric, per: 4) { "done" })
    }
    #expect(results == ["done", "done"])
    #expect(samples[Self.metric].count == 2)
    #expect(samples[Self.metric].allSatisfy { $0 >= 0 && $0.isFinite })
  }

  @Test("live bytes count what the subject holds since before it was made")
  func liveBytes() throws {
    var live: [Int] = []
    let size = 256 << 20
    _ = try Harness(warmup: 0, repetitions: 1).run(
      make: { UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16) }
    ) { buffer, repetition in
      live.append(try repetition.liveBytes())
      buffer.deallocate()
      live.append(try repetition.liveBytes())
    }
    // The figures are process-wide and other suites allocate meanwhile: the buffer shows as the
    // difference, with a loose margin.
    #expect(abs(live[0] - live[1] - size) < size / 2)
  }

  @Test("samples of one metric from several sources append after each other")
  func appendContents() {
    var first = MetricSamples()
    first.append(1, to: Self.metric)
    var second = MetricSamples()
    second.append(2, to: Self.other)
    second.append(3, to: Self.metric)
    first.append(contentsOf: second)
    #expect(first.metrics == [Self.metric, Self.other])
    #expect(first[Self.metric] == [1, 3])
    #expect(first[Self.other] == [2])
  }
}
