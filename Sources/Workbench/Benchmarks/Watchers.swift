import NormalizedCache

/// The most popular operations, watched: the records each one's last whole read depended on.
struct Watchers {
  private var watched: Set<Int>
  private var dependencies: [Int: [CacheKey]] = [:]
  /// How many watchers depend on each record.
  private var watchers: [CacheKey: Int] = [:]

  init(items: some Sequence<Int>) {
    watched = Set(items)
  }

  /// A whole read of `item`: a watched one now depends on these records.
  mutating func read(_ item: Int, dependsOn keys: [CacheKey]) {
    guard watched.contains(item) else { return }
    for key in dependencies[item] ?? [] { watchers[key]! -= 1 }
    for key in keys { watchers[key, default: 0] += 1 }
    dependencies[item] = keys
  }

  /// How many of these evicted keys some watcher depends on.
  func count(_ evicted: [CacheKey]) -> Int {
    evicted.count { (watchers[$0] ?? 0) > 0 }
  }
}
