import CSQLite
import NormalizedCache

/// What a layout of one row a record (compact, apollo) decides: its tables, and how a record's
/// fields, in ``RecordCodec``'s encoding, become the bytes of its data column and back.
/// ``RecordRowStore`` runs the SQL common to both. (The rows layout, one row a field, is
/// ``FieldRowStore``'s own.)
protocol RecordFormat {
  /// The layout this format implements.
  var layout: SQLiteNormalizedCache.Layout { get }
  /// The statements that create the tables of an empty database.
  var schema: String { get }
  /// The column of `records` that holds a record's fields.
  var dataColumn: String { get }
  /// Whether the data column holds TEXT (else a BLOB).
  var storesText: Bool { get }
  /// The statements every load and update runs, as literals naming ``dataColumn``: a text made on
  /// each call cost every load a string built, then hashed by the statement cache, a visible share
  /// of a single-key load. `SELECT <data> FROM records WHERE key = ?`.
  var loadOneSQL: String { get }
  /// ``RecordRowStore/batchLoadSQL(dataColumn:)`` of ``dataColumn``.
  var loadManySQL: String { get }
  /// `UPDATE records SET <data> = ? WHERE key = ?`.
  var updateSQL: String { get }

  /// Reads what the format keeps in memory (the compact layout's field names) from an open database.
  mutating func load(from connection: Connection) throws(SQLiteError)

  /// Encodes `fields` in the stored form and lends those bytes to `body`, valid only inside it.
  /// May write to the database, inside the caller's transaction (new field names).
  mutating func encode(
    _ fields: UnsafeRawBufferPointer, connection: Connection,
    _ body: (UnsafeRawBufferPointer) throws(SQLiteError) -> Void
  ) throws(SQLiteError)

  /// The stored form of a dated record's dates field (``RecordDates``), given its bytes in
  /// ``RecordCodec``'s encoding, when a stored record starts with it and the rest of it does not
  /// depend on the dates: an unchanged refetch a step later is then written as these bytes in
  /// place of the stored ones, the record not encoded again (``RecordRowStore``'s redate,
  /// docs/ttl.md#what-dates-cost).
  mutating func storedDates(_ datesField: [UInt8], connection: Connection) throws(SQLiteError) -> [UInt8]

  /// The fields, in ``RecordCodec``'s encoding, of a record's stored form; nil when the stored
  /// form names something the format's memory does not know yet (another connection may have
  /// added it): the caller then calls ``refresh(from:)`` and tries again.
  /// - Throws: ``SQLiteError`` `SQLITE_CORRUPT` when the stored bytes do not decode.
  func decode(_ stored: UnsafeRawBufferPointer, key: CacheKey) throws(SQLiteError) -> [UInt8]?

  /// ``decode(_:key:)`` of a projected load: the fields `filter` keeps, the others skipped as
  /// the stored form is read, and their dates (docs/stores.md#projected-loads).
  func decode(_ stored: UnsafeRawBufferPointer, key: CacheKey, keeping filter: FieldFilter) throws(SQLiteError) -> [UInt8]?

  /// What a projected load keeps of a record of `set` (the compact layout: by field number).
  func filter(for set: FieldSet) -> FieldFilter
  /// Moves whenever a filter made before would keep other fields now (the compact layout's
  /// numbers changed); 0 for a format whose filters know names only.
  var filterGeneration: Int { get }

  /// Reads what other connections added to the database since ``load(from:)``.
  mutating func refresh(from connection: Connection) throws(SQLiteError)

  /// A writing transaction begins: what ``encode(_:connection:_:)`` adds from now on is provisional.
  mutating func willBeginTransaction()
  /// The transaction rolled back: forget what it added.
  mutating func didRollBack()
}

extension RecordFormat {
  /// The error for stored bytes that do not decode.
  func corruption(_ what: String, key: CacheKey) -> SQLiteError {
    SQLiteError(resultCode: SQLITE_CORRUPT, message: "\(what) in the record of key \"\(key)\" (\(layout) layout)")
  }
}
