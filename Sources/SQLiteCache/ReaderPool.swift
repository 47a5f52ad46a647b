import NormalizedCache

/// The read connections of a WAL database: up to ``limit`` of them, opened as reads need them and
/// kept for the next. A read takes one, reads in one transaction and gives it back, so reads run
/// beside each other and beside the writer's transaction, each seeing the last state committed
/// when its transaction began ([WAL concurrency](https://www.sqlite.org/wal.html#concurrency)).
/// A read that finds every connection busy waits for one.
final class ReaderPool: Sendable {
  private struct State {
    var idle: [any LayoutStore] = []
    /// Connections opened (idle or lent out).
    var opened = 0
  }

  let path: String
  let options: SQLiteNormalizedCache.Options
  let limit: Int
  private let state = Lock(State())

  init(path: String, options: SQLiteNormalizedCache.Options) {
    precondition(options.readConnections > 0)
    self.path = path
    self.options = options
    limit = options.readConnections
  }

  /// Runs `body` with a read connection of its own; `lifting` makes SQLite's error of opening one
  /// into the body's error type.
  func withReader<Result, Failure: Error>(
    lifting: (SQLiteError) -> Failure, _ body: (inout any LayoutStore) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    var reader: any LayoutStore
    do { reader = try take() } catch { throw lifting(error) }
    defer { give(reader) }
    return try body(&reader)
  }

  /// How long reads waited for a connection since the last call.
  func takeWaits() -> LockWaits { state.waits.take() }

  private func take() throws(SQLiteError) -> any LayoutStore {
    let reader: (any LayoutStore)? = state.withLock(as: .read, when: { !$0.idle.isEmpty || $0.opened < limit }) { state in
      if let reader = state.idle.popLast() { return reader }
      state.opened += 1
      return nil
    }
    if let reader { return reader }
    // Opened outside the lock: other reads need not wait for it.
    do {
      return try options.layout.descriptor.openReader(path, options)
    } catch {
      state.withLock(as: .read) { $0.opened -= 1 }
      state.signal()
      throw error
    }
  }

  private func give(_ reader: any LayoutStore) {
    state.withLock(as: .read) { $0.idle.append(reader) }
    state.signal()
  }
}
