/// One share of a run split across machines (`run --shard K/N`, `merge`): the K-th of N, counting
/// from 1. Configuration i of the run's canonical order (variant × store × strategy, as an unsplit
/// run measures them, from 0) belongs to shard `i mod N + 1`: each shard gets every N-th, so that
/// `merge` can put them back in order by taking one from each part in turn.
package struct Shard: Sendable, Hashable, CustomStringConvertible {
  package let index: Int
  package let count: Int

  /// - Returns: nil unless `1 <= index <= count`.
  package init?(index: Int, count: Int) {
    guard count >= 1, (1...count).contains(index) else { return nil }
    self.index = index
    self.count = count
  }

  /// `2/3`; nil for anything else (`+1/+3` too: digits only).
  package init?(parsing text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
      let index = Int(parts[0]), let count = Int(parts[1])
    else { return nil }
    self.init(index: index, count: count)
  }

  /// Whether configuration `position` (0-based, in the canonical order) is this shard's.
  package func contains(_ position: Int) -> Bool { position % count == index - 1 }

  /// `2/3`.
  package var description: String { "\(index)/\(count)" }

  /// What a part's run ID ends with: `-shard2of3`.
  package var runIDSuffix: String { "-shard\(index)of\(count)" }

  /// The shard a run ID names, and the run ID without it: `20261125T090240Z-seed42-shard2of3` is
  /// (`20261125T090240Z-seed42`, 2/3); nil for a run ID of an unsplit run.
  package static func parse(runID: String) -> (base: String, shard: Shard)? {
    guard let range = runID.range(of: "-shard", options: .backwards) else { return nil }
    let parts = runID[range.upperBound...].split(separator: "o", maxSplits: 1)
    guard parts.count == 2, parts[1].hasPrefix("f"), let index = Int(parts[0]), let count = Int(parts[1].dropFirst()),
      let shard = Shard(index: index, count: count)
    else { return nil }
    return (String(runID[..<range.lowerBound]), shard)
  }
}
