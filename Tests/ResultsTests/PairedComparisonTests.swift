import Foundation
import Generator
import Support
import Testing

@testable import Results

/// How a shared machine treats a paired run, as simulated here.
private struct Machine {
  /// The drift both sides of a pair share: a random walk in logarithms, by this much a round.
  var drift = 0.02
  /// The spread of one step's own time (lognormal σ).
  var noise = 0.03
  /// Steps slowed by a neighbour's burst, and by how much.
  var outlierShare = 0.05
  var outlierFactor = 2.0
  /// A neighbour busy on one side's core for a few rounds at a time: the chance a burst starts in
  /// a round, its length in rounds, and how much it slows that side.
  var burstChance = 0.01
  var burstRounds = 6
  var burstFactor = 1.3
}

/// One paired run of 30 rows (10 per store of three), `pairs` pairs a row, through `machine`;
/// `slowdown` multiplies the current side's true time of a row.
private func simulatedPairs(
  pairs: Int, machine: Machine = Machine(), random: inout SplitMix64, slowdown: (MetricKey) -> Double = { _ in 1 }
) -> [PairedSamples] {
  let keys = ["memory", "sqlite", "sqlite-apollo"].flatMap { store in
    (0..<10).map { MetricKey(workload: "sim", store: store, keys: "path", phase: .merge, metric: "step\($0)") }
  }
  var rows = keys.map { PairedSamples(key: $0, base: [], current: []) }
  let levels = keys.map { _ in 1_000 * exp(4 * random.uniform()) }
  var drift = 0.0
  var burst = (side: 0, left: 0)
  for _ in 0..<pairs {
    if burst.left == 0, random.uniform() < machine.burstChance {
      burst = (Int(random.next() % 2), machine.burstRounds)
    }
    for (index, key) in keys.enumerated() {
      drift += machine.drift * random.normal() / Double(keys.count).squareRoot()
      func time(_ side: Int, _ factor: Double) -> Double {
        let outlier = random.uniform() < machine.outlierShare ? machine.outlierFactor : 1
        let bursting = burst.left > 0 && burst.side == side ? machine.burstFactor : 1
        return levels[index] * factor * exp(drift + machine.noise * random.normal()) * outlier * bursting
      }
      rows[index].base.append(time(0, 1))
      rows[index].current.append(time(1, slowdown(key)))
    }
    burst.left = max(0, burst.left - 1)
  }
  return rows
}

@Suite("Paired steps: timing verdicts from two builds in lockstep")
struct PairedComparisonTests {
  @Test("the sign test, by hand: 3 of 4 above is p = 2 × 5/16; 10 of 10 is 2/1024; zeros are dropped")
  func signTest() {
    #expect(abs(SignTest([1, 2, 3, -1]).p - 0.625) < 1e-12)
    #expect(abs(SignTest(Array(repeating: 0.1, count: 10)).p - 2.0 / 1_024) < 1e-12)
    #expect(SignTest([0, 0, 1, -1]).p == 1)
    #expect(SignTest([]).p == 1)
  }

  @Test("the interval of the median of 20 values is their 6th to 15th smallest (P(X ≤ 5) = 0.0207)")
  func medianInterval() throws {
    let values = (1...20).map(Double.init).reversed()
    let interval = try #require(SignTest(Array(values)).interval(level: 0.95))
    #expect(interval == 6...15)
    #expect(SignTest([1, 2, 3, 4, 5]).interval(level: 0.95) == nil)
  }

  @Test("block medians: the log-ratio medians of whole blocks, the rest left for later")
  func blocks() {
    let e = exp(1.0)
    let samples = PairedSamples(
      key: Fixtures.key(), base: [1, 1, 1, 1, 1, 1, 1], current: [e, e, 1, 1 / e, 1 / e, 1 / e, e])
    #expect(PairedComparison.blockMedians(samples, blockSize: 3) == [1, -1])
  }

  @Test("a row slower in every block by 5% regresses; its interval holds 5%; the others stay unchanged")
  func byHand() throws {
    let steady = PairedSamples(key: Fixtures.key("a"), base: Array(repeating: 100, count: 160), current: Array(repeating: 100, count: 160))
    let noisy = (0..<160).map { 105 * (1 + 0.01 * Double($0 % 5 - 2)) }
    let slower = PairedSamples(key: Fixtures.key("b"), base: Array(repeating: 100, count: 160), current: noisy)
    let comparison = PairedComparison([steady, slower])
    #expect(comparison.rows.map(\.status) == [.unchanged, .regressed])
    let interval = try #require(comparison.rows[1].interval)
    #expect(interval.contains(1.05))
    #expect(comparison.hasRegressions)
    #expect(comparison.verdicts[1].baseline == 100)
    #expect(abs(comparison.verdicts[1].ratio! - 1.05) < 1e-9)
  }

  @Test("A/A under drift, outliers and bursts on one side: a run with any row regressed at most 5 times in 100")
  func aaFalseAlarms() {
    var random = SplitMix64(seed: 22)
    var alarms = 0
    for _ in 0..<100 {
      let comparison = PairedComparison(simulatedPairs(pairs: 400, random: &random), options: .init(looks: 4))
      if comparison.hasRegressions { alarms += 1 }
    }
    #expect(alarms <= 5)
  }

  @Test("A/A judged at four looks and stopped at the first where every row is decided: still at most 5 in 100")
  func aaWithLooks() {
    var random = SplitMix64(seed: 7)
    var alarms = 0
    for _ in 0..<100 {
      let pairs = simulatedPairs(pairs: 480, random: &random)
      for look in [60, 120, 240, 480] {
        let comparison = PairedComparison(
          pairs.map { PairedSamples(key: $0.key, base: Array($0.base[..<look]), current: Array($0.current[..<look])) },
          options: .init(looks: 4))
        if comparison.hasRegressions { alarms += 1 }
        if comparison.hasRegressions || comparison.allDecided { break }
      }
    }
    #expect(alarms <= 5)
  }

  @Test("the drift shared by both sides cancels: a machine that doubles its times over the run flags nothing")
  func driftCancels() {
    var random = SplitMix64(seed: 3)
    var machine = Machine()
    machine.drift = 0.2
    let comparison = PairedComparison(simulatedPairs(pairs: 400, machine: machine, random: &random), options: .init(looks: 4))
    #expect(!comparison.hasRegressions)
  }

  @Test("a 5% slowdown of the memory rows is caught in at least 9 runs of 10, and no other store is flagged")
  func knownSlowdown() {
    var random = SplitMix64(seed: 5)
    var caught = 0
    for _ in 0..<10 {
      let rows = simulatedPairs(pairs: 400, random: &random) { $0.store == "memory" ? 1.05 : 1 }
      let comparison = PairedComparison(rows, options: .init(looks: 4))
      let flagged = comparison.rows.filter { $0.status == .regressed }.map(\.key.store)
      if flagged.filter({ $0 == "memory" }).count >= 8 { caught += 1 }
      #expect(flagged.allSatisfy { $0 == "memory" })
    }
    #expect(caught >= 9)
  }

  @Test("the smallest detectable change: shrinks as blocks grow, none with fewer than 4 blocks")
  func detectableChange() throws {
    var random = SplitMix64(seed: 9)
    let spread = (0..<400).map { _ in 0.02 * random.normal() }
    let few = try #require(PairedComparison.detectableChange(Array(spread[..<25]), level: 0.05 / 30))
    let many = try #require(PairedComparison.detectableChange(spread, level: 0.05 / 30))
    #expect(many < few)
    // σ 0.02 and 400 blocks: q = 0.5 + (3.14 + 0.84) / 40 = 0.6, δ = 0.02 × Φ⁻¹(0.6) = 0.0051.
    #expect(abs(many - 0.0051) < 0.0015)
    #expect(PairedComparison.detectableChange([0.1, 0.2, 0.3], level: 0.05) == nil)
  }

  @Test("Φ⁻¹ against the tables: 1.960, 0.8416")
  func normalQuantiles() {
    #expect(abs(Normal.quantile(0.975) - 1.95996) < 0.0005)
    #expect(abs(Normal.quantile(0.8) - 0.84162) < 0.0005)
  }
}
