import Results
import Testing

/// Expected values are numpy's (`np.percentile(x, q)`, `np.std(x, ddof=1)`) or worked by hand.
@Suite("statistics")
struct StatisticsTests {
  @Test("percentiles interpolate between closest ranks: [1, 2, 3, 4]")
  func oneToFour() throws {
    let summary = try #require(Summary([1, 2, 3, 4]))
    #expect(summary.n == 4)
    #expect(summary.min == 1)
    #expect(summary.p50 == 2.5)  // rank 1.5: 2 + 0.5 × 1
    #expect(summary.p90 == 3.7)  // rank 2.7: 3 + 0.7 × 1
    #expect(close(summary.p99, 3.97))  // rank 2.97
    #expect(summary.max == 4)
    #expect(summary.mean == 2.5)
    #expect(close(summary.stddev, 1.2909944487358056))  // sqrt(5/3)
  }

  @Test("the sample standard deviation divides by n - 1")
  func sampleStandardDeviation() throws {
    // Deviations from the mean 5: 9+1+1+1+0+0+4+16 = 32; 32/7 = 4.571…; sqrt = 2.138…
    let summary = try #require(Summary([2, 4, 4, 4, 5, 5, 7, 9]))
    #expect(summary.mean == 5)
    #expect(close(summary.stddev, 2.138089935299395))
    #expect(summary.p50 == 4.5)
    #expect(close(summary.p90, 7.6))
    #expect(close(summary.p99, 8.86))
  }

  @Test("percentiles match numpy's linear method", arguments: PercentileCase.table)
  func percentile(_ example: PercentileCase) {
    #expect(
      close(Statistics.percentile(example.p, ofSorted: example.samples.sorted()), example.expected))
  }

  @Test("the least-squares slope: exact on a line, the fit's on noise; none for one point or one x")
  func slope() throws {
    #expect(Statistics.slope(x: [0, 1, 2, 3], y: [10, 12, 14, 16]) == 2)
    #expect(Statistics.slope(x: [1e6, 2e6, 3e6], y: [5, 5, 5]) == 0)
    // Means 2 and 3; deviations (-1, 0, 1) against (-1, -1, 2): covariance 3, variance 2.
    #expect(Statistics.slope(x: [1, 2, 3], y: [2, 2, 5]) == 1.5)
    #expect(Statistics.slope(x: [7], y: [1]) == nil)
    #expect(Statistics.slope(x: [4, 4], y: [1, 9]) == nil)
  }

  @Test("the order of the samples does not matter")
  func unsorted() {
    #expect(Summary([4, 1, 3, 2]) == Summary([1, 2, 3, 4]))
  }

  @Test("a single value fills n=1 and every statistic with the value, stddev included (docs/csv.md)")
  func single() throws {
    let summary = try #require(Summary([812]))
    #expect(
      summary
        == Summary(n: 1, min: 812, p50: 812, p90: 812, p99: 812, max: 812, mean: 812, stddev: 812))
    #expect(Summary(single: 812) == summary)
  }

  @Test("no samples give no summary")
  func empty() {
    #expect(Summary([Double]()) == nil)
    #expect(Summary([Int]()) == nil)
  }

  @Test("integer samples summarize as their Double values")
  func integers() {
    #expect(Summary([UInt64(10), 20, 30]) == Summary([10.0, 20, 30]))
  }

  @Test("equal samples have exactly that value and zero spread")
  func constant() throws {
    let summary = try #require(Summary(Array(repeating: 0.1, count: 7)))
    #expect(summary.p90 == 0.1)
    #expect(summary.p99 == 0.1)
    #expect(summary.stddev < 1e-15)
  }
}

/// Equal within 1e-12, relative: the same definition computed in another order.
func close(_ actual: Double, _ expected: Double) -> Bool {
  abs(actual - expected) <= 1e-12 * max(1, abs(expected))
}

struct PercentileCase: Sendable, CustomTestStringConvertible {
  let samples: [Double]
  let p: Double
  let expected: Double

  var testDescription: String { "p\(p) of \(samples.count) samples = \(expected)" }

  static let table: [PercentileCase] = [
    PercentileCase(samples: [1, 2], p: 50, expected: 1.5),
    PercentileCase(samples: [1, 2], p: 90, expected: 1.9),
    PercentileCase(samples: [1, 2], p: 99, expected: 1.99),
    PercentileCase(samples: [3, 1, 2], p: 50, expected: 2),
    PercentileCase(samples: [3, 1, 2], p: 90, expected: 2.8),
    PercentileCase(samples: [0.1, 0.2, 0.7], p: 90, expected: 0.6),
    PercentileCase(samples: [0.1, 0.2, 0.7], p: 99, expected: 0.69),
    PercentileCase(samples: oneToHundred, p: 90, expected: 90.1),
    PercentileCase(samples: oneToHundred, p: 99, expected: 99.01),
    PercentileCase(samples: [5, 5, 5], p: 99, expected: 5),
    PercentileCase(samples: [1, 2, 3], p: 0, expected: 1),
    PercentileCase(samples: [1, 2, 3], p: 100, expected: 3),
  ]

  static let oneToHundred: [Double] = (1...100).map { Double($0) }
}
