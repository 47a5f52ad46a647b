import Foundation
import Results
import Testing

/// ``Growth``'s fit, on costs worked out by hand (docs/metrics.md#growth): k is the least-squares
/// slope of ln(cost) on ln(size).
@Suite("growth")
struct GrowthTests {
  @Test("exact powers give their exponent: c·n⁰, c·n¹, c·n², c·n^0.5")
  func exactPowers() throws {
    let sizes = [10, 100, 1_000, 10_000]
    for k in [0.0, 1, 2, 0.5] {
      let growth = try Growth(sizes.map { ($0, 3 * pow(Double($0), k)) })
      #expect(abs(growth.exponent - k) < 1e-12, "k = \(k): fitted \(growth.exponent)")
      // cost(10,000) / cost(1,000) = 10ᵏ.
      #expect(close(growth.ratio, pow(10, k)))
    }
  }

  @Test("a flat series gives exactly 0 and a ratio of exactly 1")
  func flat() throws {
    let growth = try Growth([(100, 7), (1_000, 7), (10_000, 7), (500_000, 7)])
    #expect(growth.exponent == 0)
    #expect(growth.ratio == 1)
    #expect(growth.referenceSize == 1_000)
    #expect(growth.largestSize == 500_000)
  }

  @Test("three sizes off a line: the slope of the fit, by hand")
  func offALine() throws {
    // x = ln 10 · (1, 2, 3), y = ln 10 · (0, 1, 3): x̄ = 2, ȳ = 4/3 (in ln 10s);
    // Σ(x − x̄)(y − ȳ) = (−1)(−4/3) + 0 + (1)(5/3) = 3, Σ(x − x̄)² = 2, so k = 3/2.
    let growth = try Growth([(10, 1), (100, 10), (1_000, 1_000)])
    #expect(close(growth.exponent, 1.5))
    // No size above 1,000: the largest is the reference itself.
    #expect(growth.ratio == 1)
  }

  @Test("noise about a flat cost: a small k, by hand")
  func noise() throws {
    // x = ln 10 · (1, 2, 3, 4), deviations (−1.5, −0.5, 0.5, 1.5), Σ = 5 (ln 10)²; the covariance
    // is −1.5 ln 100 − 0.5 ln 110 + 0.5 ln 90 + 1.5 ln 100 = 0.5 ln(9/11) (ln 10),
    // so k = ln(9/11) / (10 ln 10) ≈ −0.0087.
    let growth = try Growth([(10, 100), (100, 110), (1_000, 90), (10_000, 100)])
    #expect(close(growth.exponent, log(9.0 / 11) / (10 * log(10.0))))
    #expect(abs(growth.exponent) < 0.01)
    #expect(close(growth.ratio, 100.0 / 90))
  }

  @Test("the order of the points does not matter; without 1,000 the smallest size is the reference")
  func referenceAndOrder() throws {
    let growth = try Growth([(10_000, 40), (10, 10), (100, 20)])
    #expect(growth.referenceSize == 10)
    #expect(growth.largestSize == 10_000)
    #expect(growth.ratio == 4)
    // Two sizes: the line through both, ln 4 / ln 1000 = 0.2007.
    let two = try Growth([(10, 10), (10_000, 40)])
    #expect(close(two.exponent, log(4.0) / log(1_000.0)))
    #expect(close(try Growth([(100, 20), (10_000, 40), (10, 10)]).exponent, growth.exponent))
  }

  @Test("refused: fewer than two sizes, a size twice or below 1, a cost not above 0")
  func refused() {
    #expect(throws: GrowthError.tooFewSizes(0)) { try Growth([]) }
    #expect(throws: GrowthError.tooFewSizes(1)) { try Growth([(10, 5)]) }
    #expect(throws: GrowthError.repeatedSize(10)) { try Growth([(10, 5), (10, 6)]) }
    #expect(throws: GrowthError.badSize(0)) { try Growth([(0, 5), (10, 6)]) }
    #expect(throws: GrowthError.badCost(size: 100, cost: 0)) { try Growth([(10, 5), (100, 0)]) }
    #expect(throws: GrowthError.badCost(size: 10, cost: -1)) { try Growth([(10, -1), (100, 3)]) }
    #expect(throws: GrowthError.badCost(size: 100, cost: .infinity)) { try Growth([(10, 1), (100, .infinity)]) }
    #expect("\(GrowthError.tooFewSizes(1))" == "a growth needs costs at two sizes at least, got 1")
  }
}

/// ``MetricSamples/appendGrowth(_:phase:over:)``: the rows a sized run appends, from made-up samples.
@Suite("growth rows")
struct GrowthRowsTests {
  @Test("a Tier-3 scenario's p50s at three sizes give k and the ratio worked out by hand")
  func tier3() throws {
    var samples = MetricSamples()
    // p50s 2, 4 and 8 µs at 100, 1,000 and 10,000 records (each the median of its three samples):
    // x = ln 10 · (2, 3, 4), y = ln 2 · (1, 2, 3), so k = ln 2 / ln 10 = 0.30103; the ratio is
    // p50(10,000) / p50(1,000) = 2.
    let p50s = [(100, 2_000.0), (1_000, 4_000.0), (10_000, 8_000.0)]
    for (records, p50) in p50s {
      for sample in [p50 / 2, p50, p50 * 3] { samples.append(sample, to: .tier3(.tier3ExactKey, atRecords: records, fields: 10)) }
    }
    let growth = samples.appendGrowth(
      Metric.tier3ExactKey.name, phase: .tier3, over: p50s.map { ($0.0, Metric.tier3(.tier3ExactKey, atRecords: $0.0, fields: 10)) })
    #expect(growth.map { close($0.exponent, log(2.0) / log(10.0)) } == true)
    let k = samples[.growth("select_exact_key", phase: .tier3)]
    let ratio = samples[.growthRatio("select_exact_key", phase: .tier3)]
    #expect(k.count == 1 && abs(k[0] - 0.30103) < 1e-5 && ratio == [2])
    #expect(Metric.growth("select_exact_key", phase: .tier3).description == "tier3/growth_select_exact_key")
    #expect(Metric.growth("select_exact_key", phase: .tier3).unit == .exponent)
  }

  @Test("one size with samples fits nothing: no rows")
  func oneSize() {
    var samples = MetricSamples()
    samples.append(5, to: .tier3(.tier3Sort, atRecords: 100, fields: 5))
    let metrics = [100, 1_000].map { (size: $0, metric: Metric.tier3(.tier3Sort, atRecords: $0, fields: 5)) }
    #expect(samples.appendGrowth("sort_by_field_cte", phase: .tier3, over: metrics) == nil)
    #expect(samples[.growth("sort_by_field_cte", phase: .tier3)].isEmpty)
  }

  @Test("a sized Tier-3 row keeps its metric's unit, direction and determinism")
  func sizedMetric() {
    let bytes = Metric.tier3(.tier3FileBytes, atRecords: 500_000, fields: 10)
    #expect(bytes.description == "tier3/store_file_bytes_at_500000x10" && bytes.unit == .bytes && bytes.deterministic)
    let insert = Metric.tier3(.tier3Insert, atRecords: 100, fields: 5)
    #expect(insert.description == "tier3/insert_one_field_at_100x5" && insert.unit == .ns && !insert.deterministic)
  }
}
