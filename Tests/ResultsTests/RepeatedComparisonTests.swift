import Foundation
import Generator
import Support
import Testing

@testable import Results

/// Runs of 40 timing rows (10 per store of four), as a shared machine gives them: every run shifted
/// as a whole (lognormal, σ 0.25: a quarter either way), every row noisy (lognormal, σ 0.1, about
/// the spread of calendar.json's rows here once each run's shift is removed), and, with
/// `outliers`, one observation in twenty 1.5 times slower.
private func simulatedRuns(
  rounds: Int, random: inout SplitMix64, outliers: Bool = false, slowdown: (MetricKey) -> Double = { _ in 1 }
) -> (base: [[MetricRow]], current: [[MetricRow]]) {
  let stores = ["memory", "sqlite", "sqlite-apollo", "sqlite-memory"]
  let keys = stores.flatMap { store in
    (0..<10).map { MetricKey(workload: "sim", store: store, keys: "path", phase: .write, metric: "latency\($0)") }
  }
  let levels = keys.map { _ in 1_000 * exp(3 * random.uniform()) }
  func run(_ factor: (MetricKey) -> Double) -> [MetricRow] {
    let shift = exp(0.25 * random.normal())
    return zip(keys, levels).map { key, level in
      let outlier = outliers && random.uniform() < 0.05 ? 1.5 : 1
      let value = level * shift * factor(key) * outlier * exp(0.1 * random.normal())
      return MetricRow(
        run: Fixtures.run, key: key, unit: .ns, better: .lower, deterministic: false, summary: Summary([value])!)
    }
  }
  var base: [[MetricRow]] = []
  var current: [[MetricRow]] = []
  for _ in 0..<rounds {
    base.append(run { _ in 1 })
    current.append(run(slowdown))
  }
  return (base, current)
}

@Suite("Repeated runs: timing verdicts that do not lie")
struct RepeatedComparisonTests {
  @Test("Holm's adjustment, by hand: sorted p times (m - rank + 1), kept monotone")
  func holm() {
    // Sorted: 0.005 × 4 = 0.02, 0.01 × 3 = 0.03, 0.03 × 2 = 0.06, 0.04 × 1 = 0.04 -> 0.06.
    #expect(RepeatedComparison.holm([0.01, 0.04, 0.03, 0.005]) == [0.03, 0.06, 0.06, 0.02])
    #expect(RepeatedComparison.holm([0.5, 0.9]) == [1, 1])
  }

  @Test("Student's t against the tables: t(0.975, 8) = 2.306, t(0.975, 4) = 2.776, t(0.95, 20) = 1.725")
  func studentT() {
    #expect(abs(StudentT.quantile(0.975, degreesOfFreedom: 8) - 2.306) < 0.001)
    #expect(abs(StudentT.quantile(0.975, degreesOfFreedom: 4) - 2.776) < 0.001)
    #expect(abs(StudentT.quantile(0.95, degreesOfFreedom: 20) - 1.725) < 0.001)
    #expect(abs(StudentT.upperTail(2.306, degreesOfFreedom: 8) - 0.025) < 0.0002)
    #expect(abs(StudentT.upperTail(1.96, degreesOfFreedom: 1e7) - 0.025) < 0.0002)
    #expect(StudentT.upperTail(0, degreesOfFreedom: 3) == 0.5)
  }

  @Test("a whole current side 20% slower in every row is a machine shift, not a regression")
  func shiftRemoved() throws {
    var random = SplitMix64(seed: 1)
    let runs = simulatedRuns(rounds: 5, random: &random) { _ in 1.2 }
    let comparison = try RepeatedComparison(base: runs.base, current: runs.current)
    #expect(!comparison.hasRegressions)
  }

  @Test("simulated A/A (whole-run shifts of 25%, lognormal noise): no false alarm in at least 95 of 100")
  func simulatedAA() throws {
    var random = SplitMix64(seed: 42)
    var alarms = 0
    for _ in 0..<100 {
      let runs = simulatedRuns(rounds: 5, random: &random)
      if try RepeatedComparison(base: runs.base, current: runs.current).hasRegressions { alarms += 1 }
    }
    #expect(alarms <= 5, "\(alarms) of 100 trials had a false alarm")
  }

  @Test("a 50% slowdown of one row over 5 rounds is caught in at least 90 of 100, and only that row")
  func simulatedSlowdown() throws {
    var random = SplitMix64(seed: 7)
    var caught = 0
    var others = 0
    let slow = MetricKey(workload: "sim", store: "sqlite", keys: "path", phase: .write, metric: "latency3")
    for _ in 0..<100 {
      let runs = simulatedRuns(rounds: 5, random: &random) { $0 == slow ? 1.5 : 1 }
      let comparison = try RepeatedComparison(base: runs.base, current: runs.current)
      if comparison.verdicts.first(where: { $0.key == slow })?.status == .regressed { caught += 1 }
      others += comparison.verdicts.filter { $0.key != slow && $0.status == .regressed }.count
    }
    #expect(caught >= 90, "caught in \(caught) of 100")
    #expect(others <= 5, "\(others) other rows regressed")
  }

  @Test("ab's markdown lists the regressed row with its interval and p, and the smallest detectable change")
  func markdown() throws {
    var random = SplitMix64(seed: 7)
    let slow = MetricKey(workload: "sim", store: "sqlite", keys: "path", phase: .write, metric: "latency3")
    let runs = simulatedRuns(rounds: 5, random: &random) { $0 == slow ? 1.5 : 1 }
    let comparison = try RepeatedComparison(base: runs.base, current: runs.current)
    let regressed = try #require(comparison.verdicts.first { $0.key == slow && $0.status == .regressed })
    let markdown = comparison.markdown()
    #expect(markdown.hasPrefix("### cachebench ab: 🔴 "))
    #expect(markdown.contains("| 95% interval | p |"))
    let line = try #require(markdown.split(separator: "\n").first { $0.contains("latency3") })
    #expect(line.contains(HumanFormat.change(ratio: regressed.ciLow!) + ".." + HumanFormat.change(ratio: regressed.ciHigh!)))
    #expect(line.contains(String(format: "%.4f", regressed.pValue!)))
    #expect(markdown.contains("Smallest timing change these runs detect 80% of the time: "))
  }

  @Test(
    "with outliers besides (one run in twenty slowed by half): at most 5 false alarms in 100; a 50% slowdown caught at least 80 times in 100 with 5 rounds, 90 with 7"
  )
  func simulatedOutliers() throws {
    var random = SplitMix64(seed: 99)
    var alarms = 0
    for _ in 0..<100 {
      let runs = simulatedRuns(rounds: 5, random: &random, outliers: true)
      if try RepeatedComparison(base: runs.base, current: runs.current).hasRegressions { alarms += 1 }
    }
    #expect(alarms <= 5, "\(alarms) of 100 trials had a false alarm")
    let slow = MetricKey(workload: "sim", store: "memory", keys: "path", phase: .write, metric: "latency5")
    for (rounds, expected) in [(5, 80), (7, 90)] {
      var caught = 0
      for _ in 0..<100 {
        let runs = simulatedRuns(rounds: rounds, random: &random, outliers: true) { $0 == slow ? 1.5 : 1 }
        let comparison = try RepeatedComparison(base: runs.base, current: runs.current)
        if comparison.verdicts.first(where: { $0.key == slow })?.status == .regressed { caught += 1 }
      }
      #expect(caught >= expected, "\(rounds) rounds: caught in \(caught) of 100")
    }
  }

  @Test("when a change slows most rows, the rows it cannot touch estimate the shift")
  func shiftFromUntouchedRows() throws {
    var random = SplitMix64(seed: 11)
    let runs = simulatedRuns(rounds: 5, random: &random) { $0.store.hasPrefix("sqlite") ? 1.5 : 1 }
    let comparison = try RepeatedComparison(
      base: runs.base, current: runs.current, options: .init(shiftStores: ["memory"]))
    let regressed = Set(comparison.verdicts.filter { $0.status == .regressed }.map(\.key.store))
    #expect(regressed == ["sqlite", "sqlite-apollo", "sqlite-memory"])
    #expect(comparison.verdicts.filter { $0.key.store == "memory" }.allSatisfy { $0.status != .regressed })
    #expect(try #require(comparison.detectableChange) > 0)
  }
}
