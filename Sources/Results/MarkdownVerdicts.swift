/// A comparison's verdicts as GitHub-flavoured Markdown, for `$GITHUB_STEP_SUMMARY` or a pull
/// request comment (`compare --format markdown`, `ab --format markdown`): a heading with the
/// outcome, the counts, then a table of the rows that regressed or improved with the statistic
/// that decided each, baseline, current and change (and, from repeated runs, the interval and p).
///
/// ```
/// ### cachebench compare: 🔴 1 regressed
///
/// 1 regressed, 2 improved, 580 unchanged, 0 advisory, 0 inconclusive, 0 added, 0 removed
///
/// | | store | keys | phase | metric | statistic | baseline | current | change |
/// |---|---|---|---|---|---|--:|--:|--:|
/// | 🔴 regressed | memory | path | write | allocations | max | 12 | 13 | +1 (+8.3%) |
/// ```
package enum MarkdownVerdicts {
  /// The statuses the table shows, in its order; the others are only counted.
  package static let shown: [VerdictStatus] = [.regressed, .improved]

  /// - Parameters:
  ///   - command: `compare` or `ab`, for the heading.
  ///   - criterion: how the rows were judged, a line under the counts.
  ///   - footer: a last line (`ab`'s smallest detectable change), or nil.
  ///   - limit: the most rows the table lists (a pull request comment has a size limit); the
  ///     rest are counted below it.
  package static func render(
    _ verdicts: [Verdict], command: String, criterion: String, footer: String? = nil, limit: Int = 100
  ) -> String {
    let counts = VerdictStatus.allCases.map { status in (status, verdicts.count { $0.status == status }) }
    let regressed = counts.first { $0.0 == .regressed }!.1
    let improved = counts.first { $0.0 == .improved }!.1
    let outcome =
      regressed > 0
      ? "\(symbol(.regressed)) \(regressed) regressed"
      : improved > 0 ? "\(symbol(.improved)) no regression, \(improved) improved" : "✅ no change"
    var text = "### cachebench \(command): \(outcome)\n\n"
    text += counts.map { "\($1) \($0.rawValue)" }.joined(separator: ", ") + "\n\n"
    text += "_\(escape(criterion))_\n"
    let rows = verdicts.filter { shown.contains($0.status) }.sorted { order($0.status) < order($1.status) }
    if !rows.isEmpty {
      let repeated = rows.contains { $0.ciLow != nil || $0.pValue != nil }
      let variants = rows.contains { !$0.key.variantColumn.isEmpty }
      var header =
        ["", "workload"] + (variants ? ["variant"] : []) + [
          "store", "keys", "phase", "metric", "statistic", "baseline", "current", "change",
        ]
      var alignment = Array(repeating: "---", count: header.count - 3) + ["--:", "--:", "--:"]
      if repeated {
        header += ["95% interval", "p"]
        alignment += ["--:", "--:"]
      }
      text += "\n| " + header.joined(separator: " | ") + " |\n|" + alignment.joined(separator: "|") + "|\n"
      for verdict in rows.prefix(limit) {
        var cells = ["\(symbol(verdict.status)) \(verdict.status.rawValue)", verdict.key.workload]
        if variants { cells.append(verdict.key.variantColumn) }
        cells += [
          verdict.key.store, verdict.key.keys, verdict.key.phase.rawValue, verdict.key.metric, verdict.statistic.rawValue,
          verdict.baseline.map { HumanFormat.value($0, unit: verdict.unit) } ?? "",
          verdict.current.map { HumanFormat.value($0, unit: verdict.unit) } ?? "",
          Comparison.change(verdict),
        ]
        if repeated {
          let interval = verdict.ciLow.flatMap { low in
            verdict.ciHigh.map { "\(HumanFormat.change(ratio: low))..\(HumanFormat.change(ratio: $0))" }
          }
          cells += [interval ?? "", verdict.pValue.map { String(format: "%.4f", $0) } ?? ""]
        }
        text += "| " + cells.map(escape).joined(separator: " | ") + " |\n"
      }
      if rows.count > limit { text += "\n…and \(rows.count - limit) more rows (the CSV from `--out` has them all).\n" }
    }
    if let footer { text += "\n" + escape(footer) + "\n" }
    return text
  }

  static func symbol(_ status: VerdictStatus) -> String {
    switch status {
    case .regressed: "🔴"
    case .improved: "🟢"
    default: ""
    }
  }

  private static func order(_ status: VerdictStatus) -> Int { shown.firstIndex(of: status) ?? shown.count }

  /// A cell's text with the characters that would break a table or start markup escaped.
  static func escape(_ text: String) -> String {
    var escaped = ""
    for character in text {
      switch character {
      case "|", "\\", "`", "*", "_", "<", ">", "[", "]": escaped += "\\" + String(character)
      case "\n", "\r": escaped += " "
      default: escaped.append(character)
      }
    }
    return escaped
  }
}

extension Comparison {
  /// ``MarkdownVerdicts`` of this comparison (`compare --format markdown`).
  package func markdown() -> String {
    MarkdownVerdicts.render(verdicts, command: "compare", criterion: thresholdDescription)
  }
}

extension RepeatedComparison {
  /// ``MarkdownVerdicts`` of these runs (`ab --format markdown`).
  package func markdown() -> String {
    MarkdownVerdicts.render(
      verdicts, command: "ab",
      criterion:
        "timings: threshold \(HumanFormat.count(options.threshold * 100))%, false alarms \(HumanFormat.count(options.alpha * 100))% over all rows (Holm); deterministic rows as compare judges them",
      footer: detectableChange.map { "Smallest timing change these runs detect 80% of the time: \(HumanFormat.change(ratio: 1 + $0))" })
  }
}
