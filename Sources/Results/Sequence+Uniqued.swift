extension Sequence where Element: Hashable {
  /// The elements in order, each once: `["b", "a", "b"].uniqued()` is `["b", "a"]`.
  package func uniqued() -> [Element] {
    var seen: Set<Element> = []
    return filter { seen.insert($0).inserted }
  }
}
