/// How one mean compares with its baseline's in Apollo iOS's published dataset
/// (`cachebench export --format apollo --baseline`, docs/apollo.md#verdicts).
///
/// The rule is Apollo's, from §5.1 of `apollo-ios/Design/cache-rewrite-phase1-perf.md` on
/// apollo-ios-dev's branch `cache-rewrite/phase-1-plan` (commit 840d6ce8c9d2):
///
/// > Verdict thresholds:
/// > - **Improved:** mean is at least 5% faster than 2.x baseline.
/// > - **Parity:** within ±5% of 2.x baseline.
/// > - **Regressed:** at least 5% slower than 2.x baseline.
///
/// Their reporter, which would apply it in code (PR-011b of `cache-rewrite-phase1-execution.md`),
/// is not written at that commit, so the text is the definition, read as follows:
/// - the one figure compared is the mean, as the dataset's `delta_vs_baseline_pct`: the relative
///   change of the current mean from the baseline's, in percent, `(mean − base) × 100 / base`;
///   positive is slower (a larger latency);
/// - "at least 5%" includes 5, so the two ends of "within ±5%" belong to improved and regressed:
///   improved when the change is −5 or less, regressed when it is +5 or more, parity strictly
///   between.
///
/// ```swift
/// ApolloVerdict.change(mean: 21, baseline: 20)   // 5.0
/// ApolloVerdict(change: 5.0)                     // .regressed
/// ApolloVerdict(change: -4.9)                    // .parity
/// ```
package enum ApolloVerdict: String, Sendable, Hashable, CaseIterable {
  case improved, parity, regressed

  /// Their threshold, in percent of the baseline's mean.
  package static let threshold = 5.0

  /// The verdict of a change of `change` percent (``change(mean:baseline:)``).
  package init(change: Double) {
    precondition(change.isFinite, "a change that is not a finite number")
    if change <= -Self.threshold {
      self = .improved
    } else if change >= Self.threshold {
      self = .regressed
    } else {
      self = .parity
    }
  }

  /// `delta_vs_baseline_pct`: the change of `mean` from `baseline`, in percent of `baseline`; nil
  /// when it is not a finite number (a baseline of 0, or means so far apart that the quotient
  /// overflows). The difference is multiplied before it is divided, so that round changes come
  /// out exact (21 against 20 is 5, not 5.000000000000001), unless that product overflows.
  package static func change(mean: Double, baseline: Double) -> Double? {
    let difference = mean - baseline
    var change = difference * 100 / baseline
    if !change.isFinite, baseline != 0 { change = difference / baseline * 100 }
    return change.isFinite ? change : nil
  }
}
