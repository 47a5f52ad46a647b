import Foundation

/// The decision gate Apollo's perf plan sets on the inline-fragment over-fetch
/// (docs/apollo.md#the-over-fetch-gate): `cache-rewrite-phase1-perf.md` on apollo-ios-dev's branch
/// `cache-rewrite/phase-1a-adr-0007-amend-ii`, its Tier-2 table's over-fetch row:
///
/// > This scenario is the decision gate for the deferred `__typename` SQL filter and PR-009g-bis
/// > (ADR 0007 Amendments, 2026-07-13): neither lands unless this measures as a meaningful
/// > regression against the matched-type-case-only baseline.
///
/// and ADR 0007's amendment of 2026-07-13: "Neither lands without a `regressed`-class measurement
/// justifying it." So "a meaningful regression" is the dataset's ``ApolloVerdict/regressed``: the
/// over-fetch's mean at least 5% above the baseline's, one store's two scenarios side by side.
///
/// ```swift
/// OverfetchGate(overfetch: 104, matched: 100)?.verdict   // .pass (parity: +4%): neither lands
/// OverfetchGate(overfetch: 105, matched: 100)?.verdict   // .regression: the filter may land
/// ```
package struct OverfetchGate: Sendable, Hashable {
  /// What the gate decides.
  package enum Verdict: String, Sendable, Hashable {
    /// Not a meaningful regression (parity, or the over-fetch faster): neither the `__typename`
    /// filter nor PR-009g-bis lands.
    case pass
    /// A `regressed`-class measurement: what the plan asks before either may land.
    case regression
  }

  /// The over-fetch's figure over the baseline's.
  package let ratio: Double
  /// The change of the over-fetch from the baseline, in percent (``ApolloVerdict/change(mean:baseline:)``).
  package let change: Double
  /// The dataset's class of that change.
  package let apolloVerdict: ApolloVerdict

  /// The gate of two means (or two counts of one kind); nil when they are no change
  /// (a baseline of 0, a figure that is not a finite number).
  package init?(overfetch: Double, matched: Double) {
    guard overfetch.isFinite, matched.isFinite, matched > 0, let change = ApolloVerdict.change(mean: overfetch, baseline: matched) else {
      return nil
    }
    self.init(ratio: overfetch / matched, change: change)
  }

  /// The gate of a ratio of the over-fetch's figure to the baseline's, as `tier2/overfetch_gate_ratio` holds it.
  package init?(ratio: Double) {
    guard ratio.isFinite, ratio >= 0 else { return nil }
    self.init(ratio: ratio, change: (ratio - 1) * 100)
  }

  private init(ratio: Double, change: Double) {
    self.ratio = ratio
    self.change = change
    apolloVerdict = ApolloVerdict(change: change)
  }

  package var verdict: Verdict { apolloVerdict == .regressed ? .regression : .pass }

  /// One line for a table: `1.021x (parity): pass, neither lands`.
  package var summary: String {
    let ratio = String(format: "%.3fx", ratio)
    switch verdict {
    case .pass: return "\(ratio) (\(apolloVerdict.rawValue)): pass, neither lands"
    case .regression: return "\(ratio) (\(apolloVerdict.rawValue)): regression, the __typename filter may land"
    }
  }
}
