import Foundation

extension PairedComparison {
  /// How the rows were judged, one line for the terminal and Markdown.
  package var criterion: String {
    "paired steps: sign test over medians of \(options.blockSize) pairs, threshold \(HumanFormat.count(options.threshold * 100))%, "
      + "false alarms \(HumanFormat.count(options.alpha * 100))% over all rows (Holm) and \(options.looks) look\(options.looks == 1 ? "" : "s")"
  }

  /// Every row with its ratio, interval, p and smallest detectable change, then the counts.
  package func report() -> String {
    let columns: [TextTable.Column] = [
      "variant", "store", "keys", "step", TextTable.Column("base/op", alignment: .right),
      TextTable.Column("change", alignment: .right), TextTable.Column("95% interval", alignment: .right),
      TextTable.Column("p", alignment: .right), TextTable.Column("detectable", alignment: .right),
      TextTable.Column("pairs", alignment: .right), "verdict",
    ]
    let table = zip(rows, verdicts).map { row, verdict -> [String] in
      [
        row.key.variantColumn, row.key.store, row.key.keys, row.key.phase.rawValue,
        verdict.baseline.map(HumanFormat.nanoseconds) ?? "",
        HumanFormat.change(ratio: row.ratio),
        row.interval.map { "\(HumanFormat.change(ratio: $0.lowerBound))..\(HumanFormat.change(ratio: $0.upperBound))" } ?? "",
        String(format: "%.4f", row.p),
        row.detectableChange.map { "±" + String(format: "%.1f%%", $0 * 100) } ?? "",
        String(row.pairs), row.status.rawValue,
      ]
    }
    var text = TextTable(columns: columns, rows: table).render() + "\n"
    let counts = [VerdictStatus.regressed, .improved, .unchanged, .inconclusive].map { status in
      "\(rows.count { $0.status == status }) \(status.rawValue)"
    }
    text += counts.joined(separator: ", ") + " (\(criterion))\n"
    if let detectableChange {
      text += "Smallest change a row detects 80% of the time (median over rows): \(HumanFormat.change(ratio: 1 + detectableChange))\n"
    }
    return text
  }

  /// ``MarkdownVerdicts`` of these pairs (`ab --paired --format markdown`).
  package func markdown() -> String {
    MarkdownVerdicts.render(
      verdicts, command: "ab --paired", criterion: criterion,
      footer: detectableChange.map { "Smallest change a row detects 80% of the time: \(HumanFormat.change(ratio: 1 + $0))" })
  }
}
