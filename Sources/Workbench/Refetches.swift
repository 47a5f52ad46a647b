import GraphQLLanguage

/// What the watchers see written (`read.watchers`, phase `watch`): every response again, as a
/// refetch from a server whose data moved on (see ``Server``).
struct Refetches {
  private var server: Server

  init(schema: Schema, churn: Double, seed: UInt64) {
    server = Server(schema: schema, churn: churn, seed: seed, shrinksLists: false)
  }

  /// The refetch of the source's response `index`; refetches must be asked in order, from 0, as
  /// the server's changes accumulate. One at a time: nothing of earlier ones is kept but which
  /// values changed.
  mutating func refetch(_ item: ResponseItem, index: Int) throws -> JSONValue {
    try server.respond(item, place: "\(index)", version: index + 1, changing: true)
  }
}

/// The watchers of one strategy: which operations watch, and how the refetches are made.
struct WatchPlan {
  /// Indexes of the source's items whose operations are watched: spread evenly over them.
  let watchers: [Int]
  let churn: Double
  let seed: UInt64

  /// Nil when the workload keeps no watchers.
  static func make(source: PreparedSource, watchers: Int, churn: Double, seed: UInt64) -> WatchPlan? {
    guard watchers > 0, !source.items.isEmpty else { return nil }
    let count = source.items.count
    let chosen = (0..<min(watchers, count)).map { $0 * count / min(watchers, count) }
    return WatchPlan(watchers: chosen, churn: churn, seed: seed)
  }
}
