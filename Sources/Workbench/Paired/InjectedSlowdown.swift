import Measurement
import Results

/// A known slowdown for checking the paired verdicts on a real machine: the worker spins after
/// each matching step for a share of the time the step took, so the step measures that much
/// slower, exactly as if its code were. Off unless the worker's environment names one
/// (`CACHEBENCH_INJECT_SLOWDOWN=memory:merge:0.05`, read once when the worker starts); it lives in
/// the worker around the timed step, so `run` and the gate's counts never meet it.
package struct InjectedSlowdown: Sendable, Hashable {
  /// The environment variable a worker reads.
  package static let variable = "CACHEBENCH_INJECT_SLOWDOWN"

  /// The store label it slows.
  package let store: String
  package let kind: StepKind
  /// 0.05 for 5%.
  package let fraction: Double

  /// Parses `STORE:STEP:FRACTION`, such as `memory:merge:0.05`.
  ///
  /// - Throws: ``RunError`` (exit 64) naming the expected form.
  package init(parsing text: String) throws(RunError) {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    guard parts.count == 3, !parts[0].isEmpty, let kind = StepKind(rawValue: parts[1]), let fraction = Double(parts[2]),
      fraction > 0, fraction <= 10
    else {
      throw RunError(
        "\(Self.variable)='\(text)' is invalid; expected STORE:STEP:FRACTION with STEP one of "
          + "\(StepKind.allCases.map(\.rawValue).joined(separator: ", ")) and FRACTION in (0, 10], such as memory:merge:0.05",
        exitCode: .usage)
    }
    store = parts[0]
    self.kind = kind
    self.fraction = fraction
  }

  func applies(store: String, kind: StepKind) -> Bool {
    store == self.store && kind == self.kind
  }

  /// Spins from `end` until `fraction × elapsed` more nanoseconds have passed; returns the time then.
  func spin(after end: UInt64, elapsed: UInt64) -> UInt64 {
    let until = end + UInt64(Double(elapsed) * fraction)
    var now = MonotonicClock.now()
    while now < until { now = MonotonicClock.now() }
    return now
  }
}
