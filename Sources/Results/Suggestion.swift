/// "Did you mean ...?": the nearest of some names to a misspelt one.
package enum Suggestion {
  /// The candidate within edit distance 2 of `word` (ignoring case), or within half its length for
  /// a word of four letters or more; nil when none is that close.
  package static func nearest(to word: String, in candidates: [String]) -> String? {
    let scored = candidates.sorted().map { ($0, editDistance(word.lowercased(), $0.lowercased())) }
    guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
    if best.1 <= 2 || (best.1 <= word.count / 2 && word.count >= 4) { return best.0 }
    return nil
  }

  /// The Levenshtein distance between two strings, in characters.
  static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
      var current = [i] + Array(repeating: 0, count: b.count)
      for j in 1...b.count {
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      previous = current
    }
    return previous[b.count]
  }
}
