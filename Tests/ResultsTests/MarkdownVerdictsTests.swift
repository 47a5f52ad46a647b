import Testing

@testable import Results

@Suite("Markdown verdicts")
struct MarkdownVerdictsTests {
  /// Three deterministic rows (one worse, one better, one the same) and two timings (one beyond
  /// the threshold, advisory; one within it).
  static func comparison() throws -> Comparison {
    let baseline = [
      Fixtures.row("allocations", p50: 100, unit: .count, deterministic: true),
      Fixtures.row("allocated_bytes", p50: 4_000, unit: .bytes, deterministic: true),
      Fixtures.row("records", phase: .dedup, p50: 7, unit: .count, deterministic: true),
      Fixtures.row(p50: 1_000),
      Fixtures.row("latency", phase: .read, p50: 1_000),
    ]
    let current = [
      Fixtures.row("allocations", p50: 104, unit: .count, deterministic: true),
      Fixtures.row("allocated_bytes", p50: 3_000, unit: .bytes, deterministic: true),
      Fixtures.row("records", phase: .dedup, p50: 7, unit: .count, deterministic: true),
      Fixtures.row(p50: 1_500),
      Fixtures.row("latency", phase: .read, p50: 1_020),
    ]
    return try Comparison(baseline: baseline, current: current)
  }

  /// The cells of the table's body rows.
  static func tableRows(_ markdown: String) -> [[String]] {
    markdown.split(separator: "\n").filter { $0.hasPrefix("| ") }.dropFirst().map { line in
      line.dropFirst(2).dropLast(2).components(separatedBy: " | ")
    }
  }

  @Test(
    "the heading says the outcome, the counts line counts every verdict, the table lists the regressed and improved rows as the verdicts have them"
  )
  func summary() throws {
    let comparison = try Self.comparison()
    let markdown = comparison.markdown()
    #expect(markdown.hasPrefix("### cachebench compare: 🔴 1 regressed\n"))
    #expect(markdown.contains("\n1 regressed, 1 improved, 2 unchanged, 1 advisory, 0 inconclusive, 0 added, 0 removed\n"))
    let rows = Self.tableRows(markdown)
    #expect(rows.count == 2)
    let regressed = try #require(comparison.verdicts.first { $0.status == .regressed })
    #expect(
      rows[0] == [
        "🔴 regressed", "books", "memory", "path", "write", "allocations", regressed.statistic.rawValue,
        HumanFormat.value(regressed.baseline!, unit: .count), HumanFormat.value(regressed.current!, unit: .count),
        Comparison.change(regressed),
      ])
    #expect(rows[0][9] == "+4 (+4.0%)")
    #expect(rows[1][0] == "🟢 improved" && rows[1][5] == "allocated\\_bytes" && rows[1][9] == "-1.0 kB (-25.0%)", "\(rows[1])")
  }

  @Test("no change: the heading says so and there is no table")
  func unchanged() throws {
    let rows = [Fixtures.row("records", p50: 7, unit: .count, deterministic: true)]
    let markdown = try Comparison(baseline: rows, current: rows).markdown()
    #expect(markdown.hasPrefix("### cachebench compare: ✅ no change\n"))
    #expect(Self.tableRows(markdown).isEmpty)
  }

  @Test("cells that would break the table are escaped, and long tables are cut with a count")
  func escapingAndLimit() throws {
    #expect(MarkdownVerdicts.escape("a|b_c\nd") == "a\\|b\\_c d")
    let verdicts = (0..<5).map { index in
      Verdict(
        key: Fixtures.key("m\(index)"), unit: .count, better: .lower, deterministic: true, baseline: 1, current: 2, status: .regressed)
    }
    let markdown = MarkdownVerdicts.render(verdicts, command: "compare", criterion: "c", limit: 3)
    #expect(Self.tableRows(markdown).count == 3)
    #expect(markdown.contains("…and 2 more rows"))
  }
}
