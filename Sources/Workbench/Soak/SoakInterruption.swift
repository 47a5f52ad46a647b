import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// SIGINT and SIGTERM during a soak (docs/command-line.md#soak): the handler only notes the
/// signal; the session stops at its next step, samples where it stopped, and what was sampled is
/// written, marked incomplete, before the command exits 130 or 143 as the signal's default action
/// would have.
///
/// ```swift
/// SoakInterruption.install()
/// ... if SoakInterruption.signal != nil { stop } ...
/// ```
package enum SoakInterruption {
  /// The signal received, 0 while none was. A static of the program: a signal handler reaches
  /// nothing else (an atomic store is safe in a handler).
  private static let received = Atomic<Int32>(0)

  /// From now on SIGINT and SIGTERM are noted, not fatal.
  package static func install() {
    _ = received.load(ordering: .relaxed)
    for signal in [SIGINT, SIGTERM] {
      #if canImport(Glibc)
        _ = Glibc.signal(signal) { received in SoakInterruption.received.store(received, ordering: .relaxed) }
      #else
        _ = Darwin.signal(signal) { received in SoakInterruption.received.store(received, ordering: .relaxed) }
      #endif
    }
    var signals = sigset_t()
    sigemptyset(&signals)
    sigaddset(&signals, SIGINT)
    sigaddset(&signals, SIGTERM)
    pthread_sigmask(SIG_UNBLOCK, &signals, nil)
  }

  /// The signal received since ``install()``, if any.
  package static var signal: Int32? {
    let signal = received.load(ordering: .relaxed)
    return signal == 0 ? nil : signal
  }
}
