/// Prepared statements by SQL text, as GRDB's `StatementCache`: preparing a statement costs far
/// more than running a small one, so each SQL text is prepared once per connection.
struct StatementCache {
  private var statements: [String: Statement] = [:]

  subscript(sql: String) -> Statement? {
    get { statements[sql] }
    set { statements[sql] = newValue }
  }

  /// Finalizes every statement (each is finalized when its last reference goes).
  mutating func removeAll() {
    statements.removeAll()
  }
}
