import Foundation
import Measurement
import Results
import Support

/// Progress on stderr for runs longer than a few seconds: silent at first, then one line at most
/// every second (rewritten in place on a terminal).
final class Progress {
  private let enabled: Bool
  private let start = MonotonicClock.now()
  private var lastPrint: UInt64 = 0
  private var context = ""
  private let isTerminal = isatty(STDERR_FILENO) != 0
  private var printedInPlace = false
  /// Quiet for this long before the first line.
  private let delay: UInt64 = 2_000_000_000

  init(enabled: Bool) {
    self.enabled = enabled
  }

  /// What is being measured: `default  sqlite-wal × typePolicy`.
  func setContext(_ context: String) {
    self.context = context
  }

  /// Reports a step; printed only when the run is long and a second has passed since the last line.
  func update(_ step: String) {
    guard enabled else { return }
    let now = MonotonicClock.now()
    guard now - start >= delay, now - lastPrint >= 1_000_000_000 else { return }
    lastPrint = now
    let elapsed = String(format: "%5.1fs", Double(now - start) / 1e9)
    let line = "cachebench [\(elapsed)] \(context)\(context.isEmpty ? "" : ": ")\(step)"
    if isTerminal {
      StandardStream.errorIfPossible("\r\u{1B}[K" + line)
      printedInPlace = true
    } else {
      StandardStream.errorIfPossible(line + "\n")
    }
  }

  /// Ends an in-place line before other output.
  func finish() {
    if printedInPlace {
      StandardStream.errorIfPossible("\r\u{1B}[K")
      printedInPlace = false
    }
  }
}
