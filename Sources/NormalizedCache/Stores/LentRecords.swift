/// The records of one load through a snapshot (``RecordSnapshot/lendRecords(forKeys:to:)``), lent
/// to the reader rather than handed out: each key's fields in ``RecordCodec``'s encoding, read in
/// place, or nil where the state has no record of the key.
///
/// ```swift
/// var lent = LentRecords()
/// try cache.withConsistentRead { snapshot in
///   try snapshot.lendRecords(forKeys: ["QUERY_ROOT"], to: &lent)
///   // lent's bytes are valid until the next load into it, or the end of the consistent read
/// }
/// ```
/// Why lend: a ``Record`` handed out holds a reference to its buffer, so every load and every
/// copy of it writes the buffer's reference count, an atomic add on the store's own memory. Two
/// threads reading the same records then write the same cache lines, record by record (some
/// 16,000 such writes a read of `calendar.json`, docs/bounded-and-concurrent.md#hot-records).
/// The in-memory store lends the bytes it keeps, which no merge can change while the snapshot's
/// lock is held; other stores lend the records they load, kept here until the next load.
///
/// One value serves the loads of one read after another and keeps its room between them.
public struct LentRecords {
  /// Each key's bytes, in the order of the keys, when the store lent them in place.
  private var spans: [UnsafeRawBufferPointer?] = []
  /// The records whose bytes are lent, when the store handed out records: kept alive here.
  private var held: [Record?] = []
  /// Which of the two the last load filled.
  private var inPlace = false

  public init() {}

  /// The number of keys of the last load.
  public var count: Int { inPlace ? spans.count : held.count }

  /// How many of them have a record.
  public var found: Int { inPlace ? spans.count { $0 != nil } : held.count { $0 != nil } }

  /// The fields of the record of the load's key at `position` (``RecordCodec``'s encoding), nil
  /// where the state has none; valid until the next load into this value or the end of the read.
  @inline(__always)
  public subscript(position: Int) -> UnsafeRawBufferPointer? {
    if inPlace { return spans[position] }
    // A held record's bytes stay where they are: nothing mutates it while it is held. Read
    // through the buffer, so that the record is borrowed, not copied (a copy counts references).
    return held.withUnsafeBufferPointer { $0[position]?.encodedFields.withUnsafeBytes { $0 } }
  }

  /// Lends the fields of these records (one per key, in order, nil where a key has none) in place
  /// of the last load's: for a store of your own that loads ``Record``s, which stay here until
  /// the next load.
  public mutating func lend(_ records: [Record?]) {
    inPlace = false
    held = records
  }

  /// Lends `count` keys' bytes that the store keeps unchanged until the consistent read ends (the
  /// in-memory store's, under its lock), written by `lend` in the order of the keys.
  package mutating func lendInPlace(count: Int, _ lend: (UnsafeMutableBufferPointer<UnsafeRawBufferPointer?>) -> Void) {
    inPlace = true
    held = []
    spans.removeAll(keepingCapacity: true)
    spans.append(contentsOf: repeatElement(nil, count: count))
    spans.withUnsafeMutableBufferPointer { lend($0) }
  }
}
