import NormalizedCache

/// The traffic session's watched queries in a store with dates, as Apollo iOS 3.0's ADR 0004
/// decides (docs/ttl.md#watchers-under-ttl): a watcher reads again, permissively, when a write
/// changes a key its last read depended on, and never fetches for that; with `refreshOnExpiry`
/// it also sets a timer to the earliest expiry among the fields its last read found fresh, and at
/// that time reads cache-first and strict, fetching when the read misses.
///
/// ```swift
/// var watched = WatchedQueries(items: [3, 7])
/// watched.update(3, with: result)                 // its last read
/// for item in watched.woken(by: changed) { ... }  // read again, permissively
/// for item in watched.due(at: now) { ... }        // timers that fire
/// ```
struct WatchedQueries {
  /// What a watcher's last read left: the keys it depends on and when its first fresh field expires.
  struct Query {
    var dependentKeys: DependentKeys
    var expiresAt: Int?
  }

  /// What the watchers did.
  struct Tally {
    /// Reads again because a write changed a key a watcher depended on.
    var rereads = 0
    /// Timers that fired, and the fetches they made (their read missed).
    var timersFired = 0
    var refetches = 0
    var refetchedBytes = 0
    /// Other watchers woken by the writes of those fetches.
    var wokenByRefetches = 0
  }

  private let watched: Set<Int>
  private var queries: [Int: Query] = [:]
  var tally = Tally()

  init(items: some Sequence<Int>) {
    watched = Set(items)
  }

  /// How many operations are watched.
  var count: Int { watched.count }

  func isWatched(_ item: Int) -> Bool { watched.contains(item) }

  /// Whether a watched item has read yet (a watcher starts with its first read).
  func hasRead(_ item: Int) -> Bool { queries[item] != nil }

  /// A watched item's read: its keys and expiry now its watcher's. An unwatched item is ignored.
  mutating func update(_ item: Int, with result: ReadResult) {
    guard watched.contains(item) else { return }
    queries[item] = Query(dependentKeys: result.dependentKeys, expiresAt: result.expiresAt)
  }

  /// The watchers whose last read depended on a key that `changed` holds, in item order.
  func woken(by changed: ChangedKeys.Lookup) -> [Int] {
    queries.filter { $0.value.dependentKeys.intersects(changed) }.keys.sorted()
  }

  /// The watchers whose timer is at or before `now`, in item order.
  func due(at now: Int) -> [Int] {
    queries.filter { ($0.value.expiresAt ?? .max) <= now }.keys.sorted()
  }
}
