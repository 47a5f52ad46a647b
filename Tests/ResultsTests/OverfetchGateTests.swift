import Testing

@testable import Results

/// The perf plan's decision gate on the over-fetch (docs/apollo.md#the-over-fetch-gate): the
/// over-fetch's mean against its matched-type-case-only baseline's, the dataset's ±5% rule.
@Suite("The over-fetch gate")
struct OverfetchGateTests {
  @Test(
    "within +5% of the baseline, or faster, passes (neither lands); +5% or more is a regression",
    arguments: [
      (100.0, 100.0, OverfetchGate.Verdict.pass, ApolloVerdict.parity),
      (104.9, 100.0, .pass, .parity),
      (95.1, 100.0, .pass, .parity),
      (80.0, 100.0, .pass, .improved),
      (105.0, 100.0, .regression, .regressed),
      (21.0, 20.0, .regression, .regressed),
      (250.0, 100.0, .regression, .regressed),
    ])
  func verdict(_ overfetch: Double, _ matched: Double, _ verdict: OverfetchGate.Verdict, _ apollo: ApolloVerdict) throws {
    let gate = try #require(OverfetchGate(overfetch: overfetch, matched: matched))
    #expect(gate.verdict == verdict && gate.apolloVerdict == apollo)
    #expect(gate.ratio == overfetch / matched)
    // The ratio row's gate is the same.
    #expect(OverfetchGate(ratio: gate.ratio)?.verdict == verdict)
  }

  @Test("the table's words: the ratio, the dataset's class, what lands")
  func summary() {
    #expect(OverfetchGate(overfetch: 102, matched: 100)?.summary == "1.020x (parity): pass, neither lands")
    #expect(OverfetchGate(overfetch: 60, matched: 100)?.summary == "0.600x (improved): pass, neither lands")
    #expect(OverfetchGate(overfetch: 110, matched: 100)?.summary == "1.100x (regressed): regression, the __typename filter may land")
  }

  @Test("no gate of a baseline of 0 or a figure that is not a finite number")
  func noGate() {
    #expect(OverfetchGate(overfetch: 1, matched: 0) == nil)
    #expect(OverfetchGate(overfetch: .nan, matched: 1) == nil)
    #expect(OverfetchGate(overfetch: 1, matched: .infinity) == nil)
    #expect(OverfetchGate(ratio: .infinity) == nil)
  }
}
