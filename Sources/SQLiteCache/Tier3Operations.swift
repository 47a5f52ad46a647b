import CSQLite
import NormalizedCache

/// Apollo iOS's Tier-3 "SQLite raw operations" (docs/apollo.md#tier-3) on one layout's file: the
/// SQL each scenario needs in that layout, on a connection of its own, with nothing around it.
/// The workbench runs them against a file a layout's store built (beside the store, or on a copy
/// of it as the layout's floor); only this module speaks to SQLite.
///
/// | Scenario | `rows`, `rows-rowid`, `rows-ordered` | `apollo` (JSON text) | `compact` (binary blob) |
/// |---|---|---|---|
/// | exact key | `SELECT * … WHERE cache_key = ?` | `SELECT record … WHERE key = ?` | `SELECT data … WHERE key = ?` |
/// | `LIKE` | `SELECT DISTINCT cache_key … LIKE ?` | `SELECT key … LIKE ?` | the same |
/// | selection set | the fields' rows of `IN (json_each(?))` keys `ORDER BY cache_key` | `json_extract` of each field, `ORDER BY key` | the blobs, `ORDER BY key` (SQL cannot read them) |
/// | update | `UPDATE … WHERE cache_key = ? AND field_name = ?` | `json_set` of the field | none: SQL cannot edit a blob |
/// | insert | one row in a transaction | one `json_object` record | none: a blob needs the store's field numbers |
/// | sort (CTE) | the type's keys joined to their field's row, `ORDER BY int_value` | `ORDER BY json_extract` | none |
///
/// A type's records are the keys from `Type:` up to `Type;` (`;` follows `:`), a range on the
/// primary key; its `__typename` is checked as well.
///
/// ```swift
/// let operations = try Tier3Operations(path: path, layout: .rows, journal: .delete, synchronous: .full)
/// try operations.keys(like: "Planet:1%")       // every Planet whose number starts with 1
/// try operations.sortedByField(type: "Planet", field: "mass")
/// ```
public final class Tier3Operations {
  public let layout: SQLiteNormalizedCache.Layout
  private let connection: Connection

  /// Opens `path`, which a store of `layout` created, in the journal and synchronous mode given.
  /// - Throws: ``SQLiteError`` when SQLite cannot open it, or it holds another layout.
  public init(
    path: String, layout: SQLiteNormalizedCache.Layout, journal: SQLiteNormalizedCache.JournalMode,
    synchronous: SQLiteNormalizedCache.Synchronous
  ) throws(SQLiteError) {
    self.layout = layout
    connection = try Connection(path: path)
    var options = SQLiteNormalizedCache.Options(layout: layout)
    options.journalMode = journal
    options.synchronous = synchronous
    try connection.configure(options)
    try connection.checkLayout(options)
  }

  private var rowPerField: Bool { layout.descriptor.rowPerField }
  private var keyColumn: String { layout.descriptor.keyColumn }

  /// Whether SQL can read a record's fields in this layout (all but `compact`, whose blob names
  /// fields by the store's numbers): the update, the insert and the sort exist only where it can.
  public var readsFields: Bool { layout != .compact }

  /// The records the file holds: distinct keys.
  public func recordCount() throws(SQLiteError) -> Int {
    Int(try connection.integer("SELECT count(DISTINCT \(keyColumn)) FROM records"))
  }

  /// `SELECT *` of one key: the rows read (a record's field rows, or its one row).
  public func selectByKey(_ key: CacheKey) throws(SQLiteError) -> Int {
    let statement = try connection.cachedStatement("SELECT * FROM records WHERE \(keyColumn) = ?")
    defer { statement.reset() }
    try statement.bind(key, at: 1)
    var rows = 0
    while try statement.step() { rows += 1 }
    return rows
  }

  /// The keys that match a `LIKE` pattern (SQLite's: case-insensitive for ASCII, `%` and `_`),
  /// each once, in the table's order. A `LIKE` that is not case-sensitive uses no index: a prefix
  /// scans the table as a suffix does.
  public func keys(like pattern: String) throws(SQLiteError) -> [CacheKey] {
    let distinct = rowPerField ? "DISTINCT " : ""
    let statement = try connection.cachedStatement("SELECT \(distinct)\(keyColumn) FROM records WHERE \(keyColumn) LIKE ?")
    defer { statement.reset() }
    try statement.bind(pattern, at: 1)
    var keys: [CacheKey] = []
    while try statement.step() { keys.append(try statement.text(at: 0)) }
    return keys
  }

  /// The selection set's `fields` of the records of `keys`, in one statement, `ORDER BY` key:
  /// the keys in the order read (each once) and the non-null values read (in `compact`, the
  /// blobs: SQL cannot read their fields).
  public func selection(keys: [CacheKey], fields: [String]) throws(SQLiteError) -> (keys: [CacheKey], values: Int) {
    let sql: String
    switch layout {
    case .compact:
      sql = "SELECT key, data FROM records WHERE key IN (SELECT value FROM json_each(?1)) ORDER BY key"
    case .apollo:
      let columns = fields.map { "json_extract(record, '\(Self.jsonPath($0))')" }.joined(separator: ", ")
      sql = "SELECT key, \(columns) FROM records WHERE key IN (SELECT value FROM json_each(?1)) ORDER BY key"
    case .rows, .rowsRowid, .rowsOrdered:
      sql = """
        SELECT cache_key, int_value, string_value, float_value, bool_value, child_key_value, custom_scalar_value FROM records
        WHERE cache_key IN (SELECT value FROM json_each(?1)) AND field_name IN (SELECT value FROM json_each(?2))
        ORDER BY cache_key
        """
    }
    let statement = try connection.cachedStatement(sql)
    defer { statement.reset() }
    try statement.bind(Self.jsonArray(keys), at: 1)
    if rowPerField { try statement.bind(Self.jsonArray(fields), at: 2) }
    var read: [CacheKey] = []
    var values = 0
    while try statement.step() {
      let key = try statement.text(at: 0)
      if read.last != key { read.append(key) }
      for column in 1..<sqlite3_column_count(statement.handle) where sqlite3_column_type(statement.handle, column) != SQLITE_NULL {
        values += 1
      }
    }
    return (read, values)
  }

  /// Sets one Int field of one record: the rows changed; nil in `compact` (SQL cannot edit its
  /// blob; the store's one-field merge does it).
  public func updateField(key: CacheKey, field: String, to value: Int) throws(SQLiteError) -> Int? {
    let sql: String
    switch layout {
    case .compact: return nil
    case .apollo: sql = "UPDATE records SET record = json_set(record, '\(Self.jsonPath(field))', ?1) WHERE key = ?2"
    case .rows, .rowsRowid, .rowsOrdered: sql = "UPDATE records SET int_value = ?1 WHERE cache_key = ?2 AND field_name = ?3"
    }
    let statement = try connection.cachedStatement(sql)
    defer { statement.reset() }
    try statement.bind(Int64(value), at: 1)
    try statement.bind(key, at: 2)
    if rowPerField { try statement.bind(field, at: 3) }
    try statement.execute()
    return Int(sqlite3_changes(connection.handle))
  }

  /// Inserts a record of one Int field, one row in its own transaction (committed); false in
  /// `compact` (its blob needs the store's field numbers: the store's merge does it).
  public func insertRecord(key: CacheKey, field: String, value: Int) throws(SQLiteError) -> Bool {
    let sql: String
    switch layout {
    case .compact: return false
    case .apollo: sql = "INSERT INTO records(key, record) VALUES (?1, json_object(?2, ?3))"
    case .rows, .rowsRowid, .rowsOrdered:
      sql = "INSERT INTO records(cache_key, field_name, position, int_value, written_at) VALUES (?1, ?2, -1, ?3, 0)"
    }
    try connection.inTransaction { () throws(SQLiteError) in
      let statement = try connection.cachedStatement(sql)
      defer { statement.reset() }
      try statement.bind(key, at: 1)
      try statement.bind(field, at: 2)
      try statement.bind(Int64(value), at: 3)
      try statement.execute()
    }
    return true
  }

  /// Deletes every row of one key (what an insert's iteration removes after its clock).
  public func deleteRecord(key: CacheKey) throws(SQLiteError) {
    let statement = try connection.cachedStatement("DELETE FROM records WHERE \(keyColumn) = ?")
    defer { statement.reset() }
    try statement.bind(key, at: 1)
    try statement.execute()
  }

  /// The keys of the records of `type` (keys `type:…` whose `__typename` is `type`), sorted by
  /// their Int `field`, then key, through a CTE of the type's records; nil in `compact`.
  public func sortedByField(type: String, field: String) throws(SQLiteError) -> [CacheKey]? {
    let sql: String
    switch layout {
    case .compact: return nil
    case .apollo:
      sql = """
        WITH typed AS (SELECT key, record FROM records WHERE key >= ?1 AND key < ?2
          AND json_extract(record, '$.__typename') = ?3)
        SELECT key FROM typed ORDER BY json_extract(record, '\(Self.jsonPath(field))'), key
        """
    case .rows, .rowsRowid, .rowsOrdered:
      sql = """
        WITH typed AS (SELECT cache_key FROM records WHERE cache_key >= ?1 AND cache_key < ?2
          AND field_name = '__typename' AND string_value = ?3)
        SELECT typed.cache_key FROM typed JOIN records AS sorted ON sorted.cache_key = typed.cache_key
          AND sorted.field_name = ?4 ORDER BY sorted.int_value, typed.cache_key
        """
    }
    let statement = try connection.cachedStatement(sql)
    defer { statement.reset() }
    try statement.bind(type + ":", at: 1)
    try statement.bind(type + ";", at: 2)
    try statement.bind(type, at: 3)
    if rowPerField { try statement.bind(field, at: 4) }
    var keys: [CacheKey] = []
    while try statement.step() { keys.append(try statement.text(at: 0)) }
    return keys
  }

  /// `$."name"`: a JSON path to one member, quoted (names hold no `"`).
  static func jsonPath(_ field: String) -> String { "$.\"\(field)\"" }

  /// A JSON array of strings, for `json_each`.
  static func jsonArray(_ strings: [String]) -> String {
    var json = "["
    for (index, string) in strings.enumerated() {
      if index > 0 { json += "," }
      json += "\""
      for scalar in string.unicodeScalars {
        switch scalar {
        case "\"": json += "\\\""
        case "\\": json += "\\\\"
        case _ where scalar.value < 0x20:
          json += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
        default: json.unicodeScalars.append(scalar)
        }
      }
      json += "\""
    }
    return json + "]"
  }
}
