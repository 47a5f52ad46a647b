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
  /// A projected load's records cut to the fields asked (``lendProjected(count:projection:keeping:_:)``),
  /// one after another; its room kept between loads. Written only by a load, which lends its spans
  /// after the last write, so they stay valid until the next load into this value.
  private var cut: [UInt8] = []
  /// Where each cut record is in ``cut``: its key's position and its bytes' range.
  private var cutRanges: [(position: Int, bytes: Range<Int>)] = []

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

  /// Lends `count` keys' records, each with only the fields of its set in `projection` (and
  /// their dates): the in-memory store's projected load, ADR 0007's `loadFields` as its
  /// amendment of 2026-07-16 has the in-memory store implement it. `record` gives each key's
  /// bytes (nil where the state has none), kept unchanged until the consistent read ends, or
  /// held by `records`, which are kept here until the next load. A record whose fields are all
  /// asked is lent in place; another is cut into room this value keeps between loads
  /// (``RecordDates/appendProjection(of:keeping:to:)``), so that a load in a warm value allocates nothing.
  package mutating func lendProjected(
    count: Int, projection: FieldProjection, keeping records: [Record?] = [], _ record: (Int) -> UnsafeRawBufferPointer?
  ) {
    inPlace = true
    held = records
    spans.removeAll(keepingCapacity: true)
    spans.append(contentsOf: repeatElement(nil, count: count))
    cut.removeAll(keepingCapacity: true)
    cutRanges.removeAll(keepingCapacity: true)
    for position in 0..<count {
      guard let bytes = record(position) else { continue }
      let start = cut.count
      // Room for every record left to cut as large as this one, made once (the load's records
      // are mostly alike).
      let reserving = bytes.count * (count - position)
      if RecordDates.appendProjection(of: bytes, keeping: projection.set(ofKeyAt: position), to: &cut, reserving: reserving) {
        if cutRanges.isEmpty { cutRanges.reserveCapacity(count - position) }
        cutRanges.append((position, start..<cut.count))
      } else {
        spans[position] = bytes
      }
    }
    guard !cutRanges.isEmpty else { return }
    // The cut records' bytes are written: their spans now (no write to `cut` moves them before
    // the next load; as ``subscript(_:)`` reads a held record's, the address outlives the call).
    let base = cut.withUnsafeBytes { $0.baseAddress }
    for (position, bytes) in cutRanges {
      spans[position] = UnsafeRawBufferPointer(start: base.map { $0 + bytes.lowerBound }, count: bytes.count)
    }
  }
}
