import CSQLite
import NormalizedCache

/// One SQLite layout, all that tells it from the others in one value: its name, where its table
/// comes from, its shape, its `records` table (columns and kind, by which an existing file is
/// known), whether a record may be stored split, what a record costs a budget beyond its stored
/// bytes, the table its floor writes, how its store opens a writer and a reader, and the label and
/// summary pages and help give it. `all` is every case of ``SQLiteNormalizedCache/Layout``, and
/// the floors, the crash test and the docs' layout tables take their facts from here. Adding a
/// layout is adding one of these, its store and its format
/// (docs/guide-how-it-works.md#adding-a-sqlite-layout).
///
/// ```swift
/// let rows = SQLiteNormalizedCache.Layout.rows.descriptor
/// rows.columns.first            // "cache_key"
/// rows.tableKind                // .withoutRowid: the rowid table is the layout `rows-rowid`
/// rows.origin                   // .apollo3
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
  /// Whose table it is (``SQLiteNormalizedCache/Layout/Origin``).
  let origin: SQLiteNormalizedCache.Layout.Origin
  /// A row a record, with the column that holds its fields, or a row a field.
  let shape: Shape
  /// The columns of `records`, in order.
  let columns: [String]
  /// `WITHOUT ROWID` or a rowid table: with ``columns``, how a file's layout is known.
  let tableKind: TableKind
  /// The version the file's `schema_metadata` table holds, for a layout that writes one (Apollo's
  /// own row store stamps `3.0`): with ``columns`` and ``tableKind``, how a file's layout is known.
  var schemaVersion: String? = nil
  /// Whether a record of more than 64 fields is stored in chunks (``RecordRowStore``'s split
  /// records, docs/stores.md#the-compact-layout).
  var splitsRecords = false
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
  /// The name pages' tables give it (`apollo (2.x blob)`), for ``SQLiteNormalizedCache/Layout/label``.
  let label: String
  /// One line that says what it is and what it answers, for ``SQLiteNormalizedCache/Layout/summary``.
  let summary: String
  let openWriter: OpenWriter
  let openReader: OpenReader

  /// A row a record, its fields in one column, or a row a field (and list element).
  enum Shape: Sendable, Equatable {
    case rowPerRecord(dataColumn: String)
    case rowPerField
  }

  /// The kind of SQLite table `records` is.
  enum TableKind: Sendable, Equatable {
    /// One B-tree ordered by the primary key.
    case withoutRowid
    /// A rowid table: the primary key, if any, in an index of its own.
    case rowid
  }

  /// Whether `records` is a `WITHOUT ROWID` table.
  var withoutRowid: Bool { tableKind == .withoutRowid }
  /// Whether a record is a row a field (and list element), where the others keep a row a record.
  var rowPerField: Bool { shape == .rowPerField }
  /// The column of a row a record that holds its fields; nil in a row a field.
  var dataColumn: String? {
    guard case .rowPerRecord(let column) = shape else { return nil }
    return column
  }

  /// The column of `records` that holds a record's key.
  var keyColumn: String { columns.contains("cache_key") ? "cache_key" : "key" }

  // MARK: The layouts

  static let compact = recordTable(
    CompactRecordFormat.init, origin: .cachebench, columns: ["key", "data"], tableKind: .withoutRowid,
    tableSchema: "CREATE TABLE records(key TEXT PRIMARY KEY NOT NULL, data BLOB NOT NULL) WITHOUT ROWID;",
    splitsRecords: true, recordOverheadBytes: 56,
    label: "compact (ours)",
    summary: "cachebench's own: a row a record, its fields a binary blob with numbered names, WITHOUT ROWID; the default")

  static let apollo = recordTable(
    ApolloRecordFormat.init, origin: .apollo2, columns: ["_id", "key", "record"], tableKind: .rowid,
    tableSchema: ApolloRecordFormat().schema, recordOverheadBytes: 112, label: "apollo (2.x blob)",
    summary: "Apollo iOS 2.x's table: a row a record, its fields JSON text, in a rowid table with a UNIQUE key")

  static let rows = rowTable(
    .rows, tableKind: .withoutRowid, format: .apollo, label: "rows (3.0, WITHOUT ROWID)",
    summary: "Apollo iOS 3.0's table: a row a field and list element, WITHOUT ROWID, written as Apollo's own code writes it")
  static let rowsRowid = rowTable(
    .rowsRowid, tableKind: .rowid, format: .apollo, label: "rows, rowid table",
    summary:
      "Apollo iOS 3.0's rows in a rowid table, the key in a second B-tree: kept to show what WITHOUT ROWID saves, in bytes and in loads at 500k records"
  )
  static let rowsOrdered = rowTable(
    .rowsOrdered, tableKind: .withoutRowid, format: .ordered, label: "rows-ordered (ours)",
    summary: "Apollo iOS 3.0's table written our way: a record row keeps the fields' order and a record without fields")

  /// A table of a row a record, as ``RecordRowStore`` runs the format `makeFormat` makes: its
  /// layout and data column are the format's.
  private static func recordTable<Format: RecordFormat>(
    _ makeFormat: @escaping @Sendable () -> Format, origin: SQLiteNormalizedCache.Layout.Origin, columns: [String], tableKind: TableKind,
    tableSchema: String, splitsRecords: Bool = false, recordOverheadBytes: Int, label: String, summary: String
  ) -> LayoutDescriptor {
    let format = makeFormat()
    return LayoutDescriptor(
      layout: format.layout, origin: origin, shape: .rowPerRecord(dataColumn: format.dataColumn), columns: columns,
      tableKind: tableKind, splitsRecords: splitsRecords, recordOverheadBytes: recordOverheadBytes,
      tableSchema: tableSchema, label: label, summary: summary,
      openWriter: { path, options, extraSchema throws(SQLiteError) in
        try RecordRowStore(path: path, options: options, format: makeFormat(), extraSchema: extraSchema)
      },
      openReader: { path, options throws(SQLiteError) in try RecordRowStore(readerAt: path, options: options, format: makeFormat()) })
  }

  /// Apollo iOS 3.0's table, `WITHOUT ROWID` as Apollo's, or a rowid table with the primary key
  /// in an index of its own; its rows as ours or as Apollo's code writes them (``RowFormat``).
  private static func rowTable(
    _ layout: SQLiteNormalizedCache.Layout, tableKind: TableKind, format: RowFormat, label: String, summary: String
  ) -> LayoutDescriptor {
    let withoutRowid = tableKind == .withoutRowid
    return LayoutDescriptor(
      layout: layout, origin: format == .apollo ? .apollo3 : .cachebench, shape: .rowPerField, columns: FieldRowStore.columns,
      tableKind: tableKind, schemaVersion: format == .apollo ? FieldRowStore.apolloSchemaVersion : nil,
      recordOverheadBytes: FieldRowStore.recordOverheadBytes, tableSchema: FieldRowStore.schema(withoutRowid: withoutRowid),
      label: label, summary: summary,
      openWriter: { path, options, extraSchema throws(SQLiteError) in
        try FieldRowStore(path: path, options: options, withoutRowid: withoutRowid, format: format, extraSchema: extraSchema)
      },
      openReader: { path, options throws(SQLiteError) in
        try FieldRowStore(readerAt: path, options: options, withoutRowid: withoutRowid, format: format)
      })
  }

  /// Every layout, in the order of ``SQLiteNormalizedCache/Layout``'s cases.
  static let all: [LayoutDescriptor] = SQLiteNormalizedCache.Layout.allCases.map(\.descriptor)

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
  /// Whose table a layout is.
  public enum Origin: String, Sendable, Hashable, CaseIterable {
    /// Apollo iOS 2.x's `ApolloSQLiteDatabase` table.
    case apollo2 = "Apollo iOS 2.x"
    /// Apollo iOS 3.0's table of a row a field (ADR 0006 on apollo-ios-dev).
    case apollo3 = "Apollo iOS 3.0"
    /// This project's own.
    case cachebench
  }

  /// Whose table it is (``LayoutDescriptor/origin``).
  public var origin: Origin { descriptor.origin }
  /// The name pages' tables give it: `apollo (2.x blob)` (``LayoutDescriptor/label``).
  public var label: String { descriptor.label }
  /// One line that says what it is (``LayoutDescriptor/summary``): docs/stores.md's layout table
  /// and docs/workloads.md's `layout` values are checked against it.
  public var summary: String { descriptor.summary }

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
