import CSQLite
import NormalizedCache

/// One SQLite layout, all that tells it from the others in one value: its name, its `records`
/// table (columns and kind, by which an existing file is known), what a record costs a budget
/// beyond its stored bytes, the table its floor writes, and how its store opens a writer and a
/// reader. Adding a layout is adding one of these, its store and its format
/// (docs/guide-how-it-works.md#adding-a-sqlite-layout).
///
/// ```swift
/// let rows = SQLiteNormalizedCache.Layout.rows.descriptor
/// rows.columns.first            // "cache_key"
/// rows.withoutRowid             // true: the rowid table is the layout `rows-rowid`
/// ```
struct LayoutDescriptor: Sendable {
  /// Opens a layout's store on a new connection: `extraSchema` is created with its tables (a
  /// bounded store's usage table).
  typealias OpenWriter =
    @Sendable (_ path: String, _ options: SQLiteNormalizedCache.Options, _ extraSchema: String?)
    throws(SQLiteError) -> any LayoutStore
  /// Opens a read connection to a database another connection has set up (``ReaderPool``).
  typealias OpenReader = @Sendable (_ path: String, _ options: SQLiteNormalizedCache.Options) throws(SQLiteError) -> any LayoutStore

  let layout: SQLiteNormalizedCache.Layout
  /// The columns of `records`, in order.
  let columns: [String]
  /// Whether `records` is a `WITHOUT ROWID` table: with ``columns``, how a file's layout is known.
  let withoutRowid: Bool
  /// Whether a record is a row a field (and list element), where the others keep a row a record.
  let rowPerField: Bool
  /// The version the file's `schema_metadata` table holds, for a layout that writes one (Apollo's
  /// own row store stamps `3.0`): with ``columns`` and ``withoutRowid``, how a file's layout is known.
  var schemaVersion: String? = nil
  /// What a record costs beyond its key and stored bytes, as a budget counts it: its cells'
  /// headers and pointers in B-tree pages and the pages' free space at SQLite's fill; in the
  /// `apollo` layout also its rowid and its key a second time, in the `UNIQUE` index. Measured:
  /// the checkpointed database bytes over `records`, less the stored payload, on `default.json`
  /// and `calendar.json` under `typePolicy` and `programmatic` keys (compact 32 to 59, apollo 89
  /// to 128; path keys are longer, and take more: docs/bounded-and-concurrent.md#what-a-budget-counts;
  /// rows: docs/stores.md#the-rows-layout).
  let recordOverheadBytes: Int
  /// The layout's `records` table alone, as its floor creates it (``LayoutFloor``).
  let tableSchema: String
  let openWriter: OpenWriter
  let openReader: OpenReader

  /// The column of `records` that holds a record's key.
  var keyColumn: String { columns.contains("cache_key") ? "cache_key" : "key" }

  // MARK: The layouts

  static let compact = LayoutDescriptor(
    layout: .compact, columns: ["key", "data"], withoutRowid: true, rowPerField: false, recordOverheadBytes: 56,
    tableSchema: "CREATE TABLE records(key TEXT PRIMARY KEY NOT NULL, data BLOB NOT NULL) WITHOUT ROWID;",
    openWriter: { path, options, extraSchema throws(SQLiteError) in
      try RecordRowStore(path: path, options: options, format: CompactRecordFormat(), extraSchema: extraSchema)
    },
    openReader: { path, options throws(SQLiteError) in try RecordRowStore(readerAt: path, options: options, format: CompactRecordFormat()) }
  )

  static let apollo = LayoutDescriptor(
    layout: .apollo, columns: ["_id", "key", "record"], withoutRowid: false, rowPerField: false, recordOverheadBytes: 112,
    tableSchema: ApolloRecordFormat().schema,
    openWriter: { path, options, extraSchema throws(SQLiteError) in
      try RecordRowStore(path: path, options: options, format: ApolloRecordFormat(), extraSchema: extraSchema)
    },
    openReader: { path, options throws(SQLiteError) in try RecordRowStore(readerAt: path, options: options, format: ApolloRecordFormat()) })

  static let rows = rowTable(.rows, withoutRowid: true, format: .apollo)
  static let rowsRowid = rowTable(.rowsRowid, withoutRowid: false, format: .apollo)
  static let rowsOrdered = rowTable(.rowsOrdered, withoutRowid: true, format: .ordered)

  /// Apollo iOS 3.0's table, `WITHOUT ROWID` as Apollo's, or a rowid table with the primary key
  /// in an index of its own; its rows as ours or as Apollo's code writes them (``RowFormat``).
  private static func rowTable(_ layout: SQLiteNormalizedCache.Layout, withoutRowid: Bool, format: RowFormat) -> LayoutDescriptor {
    LayoutDescriptor(
      layout: layout, columns: FieldRowStore.columns, withoutRowid: withoutRowid, rowPerField: true,
      schemaVersion: format == .apollo ? FieldRowStore.apolloSchemaVersion : nil,
      recordOverheadBytes: FieldRowStore.recordOverheadBytes, tableSchema: FieldRowStore.schema(withoutRowid: withoutRowid),
      openWriter: { path, options, extraSchema throws(SQLiteError) in
        try FieldRowStore(path: path, options: options, withoutRowid: withoutRowid, format: format, extraSchema: extraSchema)
      },
      openReader: { path, options throws(SQLiteError) in
        try FieldRowStore(readerAt: path, options: options, withoutRowid: withoutRowid, format: format)
      })
  }

  static let all: [LayoutDescriptor] = [compact, apollo, rows, rowsRowid, rowsOrdered]

  // MARK: Opening

  /// Opens the store of this layout; with a budget, the budget layer around it.
  func openStore(path: String, options: SQLiteNormalizedCache.Options) throws(SQLiteError) -> any CacheBackend {
    guard let budget = options.budget else { return try openWriter(path, options, nil) }
    let table = try openWriter(path, options, usageTableSQL)
    return try Self.bounded(table, budget: budget)
  }

  private static func bounded<Table: LayoutStore>(_ table: Table, budget: CacheBudget) throws(SQLiteError) -> any CacheBackend {
    try BoundedRecordStore(layoutStore: table, budget: budget)
  }

  /// The layout of an existing database, nil when it has no `records` table yet.
  /// - Throws: ``SQLiteError`` when it has a `records` table of none of the layouts.
  static func existing(in connection: Connection) throws(SQLiteError) -> LayoutDescriptor? {
    let columns = try connection.texts("SELECT name FROM pragma_table_info('records') ORDER BY cid")
    guard !columns.isEmpty else { return nil }
    let table = try Statement(
      sql: "SELECT wr FROM pragma_table_list WHERE schema = 'main' AND name = 'records'", connection: connection, persistent: false)
    let withoutRowid = try table.step() && table.int64(at: 0) != 0
    let version = try schemaVersion(in: connection)
    if let layout = all.first(where: { $0.columns == columns && $0.withoutRowid == withoutRowid && $0.schemaVersion == version }) {
      return layout
    }
    var tables: [String] = []
    for (index, layout) in all.enumerated() {
      // Each layout by what tells it from the first of its columns.
      guard let first = all[..<index].first(where: { $0.columns == layout.columns }) else {
        let version = layout.schemaVersion.map { " with version \($0) in schema_metadata" } ?? ""
        tables.append("the \(layout.layout) layout records(\(layout.columns.joined(separator: ", ")))\(version)")
        continue
      }
      var differences: [String] = []
      if layout.withoutRowid != first.withoutRowid {
        differences.append("in a \(layout.withoutRowid ? "WITHOUT ROWID" : "rowid") table")
      }
      if layout.schemaVersion != first.schemaVersion {
        differences.append(layout.schemaVersion.map { "with version \($0) in schema_metadata" } ?? "without schema_metadata")
      }
      tables.append("the \(layout.layout) layout, the same \(differences.joined(separator: " and "))")
    }
    var kind = all.contains { $0.columns == columns } ? (withoutRowid ? " WITHOUT ROWID" : " in a rowid table") : ""
    if let version { kind += ", version \(version) in schema_metadata" }
    throw SQLiteError(
      resultCode: SQLITE_ERROR,
      message: "\(connection.path) has a table records(\(columns.joined(separator: ", ")))\(kind), which is none of "
        + tables.dropLast().joined(separator: ", ") + " and " + tables[tables.count - 1])
  }
}

extension LayoutDescriptor {
  /// The `version` of the file's `schema_metadata` table (Apollo's: `key TEXT PRIMARY KEY, value
  /// TEXT`), nil without one.
  static func schemaVersion(in connection: Connection) throws(SQLiteError) -> String? {
    let table = try Statement(
      sql: "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_metadata'", connection: connection,
      persistent: false)
    guard try table.step() else { return nil }
    let version = try Statement(
      sql: "SELECT value FROM schema_metadata WHERE key = 'version'", connection: connection, persistent: false)
    guard try version.step() else { return nil }
    return try version.optionalText(at: 0)
  }
}

extension SQLiteNormalizedCache.Layout {
  /// All that this layout is (``LayoutDescriptor``).
  var descriptor: LayoutDescriptor {
    switch self {
    case .compact: .compact
    case .apollo: .apollo
    case .rows: .rows
    case .rowsRowid: .rowsRowid
    case .rowsOrdered: .rowsOrdered
    }
  }
}
