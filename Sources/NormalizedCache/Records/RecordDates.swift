#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// When each field of a record was written (docs/records.md#dates), kept in the record's own
/// encoding, Apollo iOS 3.0's `CachedField.writtenAt` (ADR 0002) in a few bytes a record.
///
/// A record written with dates starts with one more field, whose name is empty (a GraphQL field
/// never has an empty name). Its value, in the ordinary value grammar (so every walk of values
/// passes over it), is
/// - an Int: the date, in seconds, every field of the record was written at (one normalize wrote
///   them all, the common case): 8 bytes for an epoch date;
/// - or a list of Ints `[base, p₁, d₁, p₂, d₂, …]`: `base` the latest date of any field, then, for
///   each field written earlier, its position among the record's fields (from 0, the dates field
///   not counted) and how many seconds before `base` it was written; positions ascending, every
///   `d` above 0.
///
/// That form is canonical, so equal dates have equal bytes, and a merge that changes nothing,
/// values or dates, still compares whole encodings at once. A record without the field has no
/// dates: its fields count as written at 0.
@_spi(RecordBytes) public enum RecordDates {
  /// Whether the encoding starts with the dates field.
  @inlinable @inline(__always)
  public static func isDated(_ bytes: UnsafeRawBufferPointer) -> Bool {
    !bytes.isEmpty && bytes[0] == 0
  }

  /// The offset where the record's fields start: past the dates field, or 0.
  @inlinable @inline(__always)
  public static func fieldsStart(_ bytes: UnsafeRawBufferPointer) -> Int {
    guard isDated(bytes) else { return 0 }
    var offset = 1
    let length = Int(Varint.read(bytes, &offset))
    return offset + length
  }

  /// The dates field's value read in place, the one reader of it: an Int, every field written
  /// then; or a list `[base, p₁, d₁, p₂, d₂, …]` of Ints, read pair by pair. It trusts its bytes:
  /// the package's own, or checked first (``RecordCodec/validate(_:)``,
  /// ``RecordCodec/checkedDates(ofValue:fieldCount:)``).
  @usableFromInline struct ValueReader {
    @usableFromInline let bytes: UnsafeRawBufferPointer
    /// The latest date of any field; every field not among the exceptions was written then.
    @usableFromInline let base: Int
    /// How many Ints the value holds: 1 for an Int, the list's count for a list.
    @usableFromInline let count: Int
    /// Where the next exception pair starts.
    @usableFromInline var offset: Int
    @usableFromInline let end: Int

    /// The value that fills `value` within `bytes`.
    @inlinable @inline(__always)
    init(_ bytes: UnsafeRawBufferPointer, value: Range<Int>) {
      self.bytes = bytes
      end = value.upperBound
      var offset = value.lowerBound
      if bytes[offset] == RecordCodec.intTag {
        count = 1
      } else {
        offset += 1
        count = Int(Varint.read(bytes, &offset))
      }
      // (An empty list, which only a checked walk meets before refusing it, has no base.)
      if count > 0 {
        offset += 1
        base = ZigZag.decode(Varint.read(bytes, &offset))
      } else {
        base = 0
      }
      self.offset = offset
    }

    /// The exceptions of a value read before, from `exceptions` (``offset`` then).
    @inlinable @inline(__always)
    init(_ bytes: UnsafeRawBufferPointer, base: Int, exceptions: Range<Int>) {
      self.bytes = bytes
      self.base = base
      count = 1
      offset = exceptions.lowerBound
      end = exceptions.upperBound
    }

    /// The next exception: a field's position (the dates field not counted) and how many seconds
    /// before ``base`` it was written; nil after the last.
    @inlinable @inline(__always)
    mutating func next() -> (position: Int, before: Int)? {
      guard offset < end else { return nil }
      offset += 1
      let position = ZigZag.decode(Varint.read(bytes, &offset))
      offset += 1
      return (position, ZigZag.decode(Varint.read(bytes, &offset)))
    }

    /// Every field's date, `count` fields: the base, but for the exceptions left.
    mutating func dates(count fields: Int) -> [Int] {
      var dates = Array(repeating: base, count: fields)
      while let exception = next(), exception.position < fields { dates[exception.position] = base - exception.before }
      return dates
    }
  }

  /// The dates of a dated record, read in place: the base, and where its exceptions are.
  public struct View {
    /// The latest date of any field; every field not among the exceptions was written then.
    public let base: Int
    /// The bytes of the exception pairs (Int values), empty when there are none.
    @usableFromInline let exceptions: Range<Int>
    /// The offset of the record's first field.
    public let fieldsStart: Int

    /// The dates of `bytes`, nil when the record has none.
    @inlinable
    public init?(_ bytes: UnsafeRawBufferPointer) {
      guard RecordDates.isDated(bytes) else { return nil }
      var offset = 1
      let length = Int(Varint.read(bytes, &offset))
      fieldsStart = offset + length
      let reader = ValueReader(bytes, value: offset..<fieldsStart)
      base = reader.base
      exceptions = reader.offset..<fieldsStart
    }

    /// Whether every field was written at ``base``.
    @inlinable public var isUniform: Bool { exceptions.isEmpty }

    /// The exceptions, in order (``ValueReader/next()``).
    @inlinable @inline(__always)
    func exceptions(in bytes: UnsafeRawBufferPointer) -> ValueReader {
      ValueReader(bytes, base: base, exceptions: exceptions)
    }

    /// The date of the field at `position` (from 0, the dates field not counted).
    @inlinable
    public func date(ofFieldAt position: Int, in bytes: UnsafeRawBufferPointer) -> Int {
      var reader = exceptions(in: bytes)
      while let exception = reader.next() {
        if exception.position == position { return base - exception.before }
        if exception.position > position { break }
      }
      return base
    }
  }

  /// The position (from 0, the dates field not counted) of the field whose value starts at
  /// `valueOffset`: the fields before it counted from the start.
  /// - Complexity: O(fields before it); a reader needs it only for a record with exceptions.
  public static func position(ofValueAt valueOffset: Int, in bytes: UnsafeRawBufferPointer) -> Int {
    var offset = fieldsStart(bytes)
    var position = 0
    while offset < bytes.count {
      let span = RecordCodec.readField(bytes, &offset)
      if span.value.lowerBound == valueOffset { return position }
      position += 1
    }
    return position
  }

  /// Every field's date, in order; all 0 for a record without dates.
  public static func dates(_ bytes: UnsafeRawBufferPointer) -> [Int] {
    let start = fieldsStart(bytes)
    var count = 0
    var offset = start
    while offset < bytes.count {
      _ = RecordCodec.readField(bytes, &offset)
      count += 1
    }
    guard let view = View(bytes) else { return Array(repeating: 0, count: count) }
    var reader = view.exceptions(in: bytes)
    return reader.dates(count: count)
  }

  /// Writes the dates field of fields written at `dates` (one per field, in order), in its
  /// canonical form: an Int when they are all one date, else the base and the exceptions.
  static func appendField(_ dates: [Int], to writer: RecordWriter) {
    let lengthOffset = writer.beginField(name: "")
    appendValue(dates, to: writer)
    writer.endField(lengthOffset)
  }

  /// The dates field's value alone, canonical (``appendField(_:to:)``): what a store that keeps
  /// each field's date apart writes back (the rows layout's `written_at`).
  public static func appendValue(_ dates: [Int], to writer: RecordWriter) {
    let base = dates.max() ?? 0
    let exceptions = dates.count { $0 != base }
    if exceptions == 0 {
      writer.appendInt(base)
    } else {
      writer.beginList(count: 1 + 2 * exceptions)
      writer.appendInt(base)
      for (position, date) in dates.enumerated() where date != base {
        writer.appendInt(position)
        writer.appendInt(base - date)
      }
    }
  }

  /// The dates field's value (not the field) of fields written at `dates`, canonical: what a
  /// store that keeps the dates apart from the fields keeps (the compact layout's split records).
  public static func encodedValue(_ dates: [Int]) -> [UInt8] {
    RecordWriter.encoded { appendValue(dates, to: $0) }
  }

  /// The dates of `count` fields from the dates field's value alone, checked bytes
  /// (``RecordCodec/checkedDates(ofValue:fieldCount:)``, the one way in from outside this module);
  /// a field past the exceptions is at the base.
  static func dates(ofValue value: UnsafeRawBufferPointer, count: Int) -> [Int] {
    var reader = ValueReader(value, value: 0..<value.count)
    return reader.dates(count: count)
  }

  /// The dates field's value bytes within `bytes` (empty when the record has no dates).
  public static func valueRange(_ bytes: UnsafeRawBufferPointer) -> Range<Int> {
    guard isDated(bytes) else { return 0..<0 }
    var offset = 1
    let length = Int(Varint.read(bytes, &offset))
    return offset..<offset + length
  }

  /// Writes the dates field of a record whose fields were all written at `date`.
  @inline(__always)
  static func appendField(writtenAt date: Int, to writer: RecordWriter) {
    let lengthOffset = writer.beginField(name: "")
    writer.appendInt(date)
    writer.endField(lengthOffset)
  }
}

extension RecordDates {
  /// The fields of `bytes` whose names `keeps` (a projected load's, docs/stores.md#projected-loads),
  /// in their order, with their dates: the dates field rewritten, canonical, for the fields kept
  /// (an exception's position is among the fields kept). A store that leaves fields out of a
  /// record whose dates are not all one goes through here; where they are all one, the dates
  /// field holds for any of its fields as it is.
  public static func projected(
    _ bytes: UnsafeRawBufferPointer, keeping keeps: (UnsafeRawBufferPointer) -> Bool
  ) -> [UInt8] {
    let dated = isDated(bytes)
    let allDates = dated ? dates(bytes) : []
    var kept: [Int] = []
    var spans: [RecordCodec.FieldSpan] = []
    var offset = fieldsStart(bytes)
    while offset < bytes.count {
      let span = RecordCodec.readField(bytes, &offset)
      if keeps(UnsafeRawBufferPointer(rebasing: bytes[span.name])) {
        kept.append(spans.count)
        spans.append(span)
      } else {
        spans.append(RecordCodec.FieldSpan(name: 0..<0, value: 0..<0, entry: 0..<0))
      }
    }
    return RecordWriter.encoded(capacity: bytes.count + 16) { writer in
      if dated { appendField(kept.map { allDates[$0] }, to: writer) }
      for position in kept { writer.append(UnsafeRawBufferPointer(rebasing: bytes[spans[position].entry])) }
    }
  }

  /// The fields of `bytes` that `set` names, with their dates, appended to `out` as one record's
  /// encoding (the in-memory store's projected load, docs/stores.md#projected-loads); nothing
  /// appended, and false returned, when `set` names every field of the record, which is then its
  /// own projection, lent as it is.
  ///
  /// One walk of the names: the fields before the first one left out are copied at once with the
  /// dates field in front of them (which holds for any of the fields when every field has one
  /// date), the rest one by one. A record whose dates are not all one goes through
  /// ``projected(_:keeping:)``, which rewrites them for the fields kept.
  /// - Complexity: O(n) for n fields, one ``FieldSet/contains(_:)`` each.
  ///
  /// `reserving`: the room to make at once when `out` has too little for this record (the bytes of
  /// the records still to cut, at most), so that a load grows its room once, not by doublings.
  package static func appendProjection(
    of bytes: UnsafeRawBufferPointer, keeping set: FieldSet, to out: inout [UInt8], reserving: Int = 0
  ) -> Bool {
    var offset = fieldsStart(bytes)
    var leftOut = -1
    while offset < bytes.count {
      let start = offset
      let span = RecordCodec.readField(bytes, &offset)
      if !set.contains(UnsafeRawBufferPointer(rebasing: bytes[span.name])) {
        leftOut = start
        break
      }
    }
    guard leftOut >= 0 else { return false }
    if out.capacity - out.count < bytes.count { out.reserveCapacity(out.count + max(reserving, bytes.count)) }
    if let view = View(bytes), !view.isUniform {
      out.append(contentsOf: projected(bytes) { set.contains($0) })
      return true
    }
    out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[..<leftOut]))
    while offset < bytes.count {
      let span = RecordCodec.readField(bytes, &offset)
      if set.contains(UnsafeRawBufferPointer(rebasing: bytes[span.name])) {
        out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[span.entry]))
      }
    }
    return true
  }
}

extension RecordCodec {
  /// A record's dates for ``mergeDated(existing:new:)``: the date of every field, and each
  /// field's where they differ (nil where every field has the first; 0 without dates).
  private static func dates(_ bytes: UnsafeRawBufferPointer) -> (every: Int, each: [Int]?) {
    guard let view = RecordDates.View(bytes) else { return (0, nil) }
    return view.isUniform ? (view.base, nil) : (view.base, RecordDates.dates(bytes))
  }

  /// ``merge(existing:new:)`` where either side has dates (docs/records.md#dates): each field of
  /// `new` takes its value and its date from `new` (a field rewritten with its value unchanged
  /// gets the new date, and is not a changed field), the others keep theirs, new fields go at the
  /// end; the merged record's dates field is written in its canonical form.
  static func mergeDated(
    existing old: UnsafeRawBufferPointer, new incoming: UnsafeRawBufferPointer
  ) -> (merged: [UInt8], changed: [String])? {
    // Each side's dates: one Int where every field has it (no array), else one a field.
    let (oldBase, oldDates) = Self.dates(old)
    let (newBase, newDates) = Self.dates(incoming)
    var oldSpans: [FieldSpan] = []
    oldSpans.reserveCapacity(16)
    var offset = RecordDates.fieldsStart(old)
    while offset < old.count { oldSpans.append(readField(old, &offset)) }
    let (replacement, appended, newSpans, changed) = matchFields(old, oldSpans, incoming)
    let writer = RecordWriter(capacity: old.count + incoming.count + 16)
    var dates: [Int] = []
    dates.reserveCapacity(oldSpans.count + appended.count)
    for position in oldSpans.indices {
      let index = replacement[position]
      dates.append(index >= 0 ? newDates?[index] ?? newBase : oldDates?[position] ?? oldBase)
    }
    for index in appended { dates.append(newDates?[index] ?? newBase) }
    RecordDates.appendField(dates, to: writer)
    for position in oldSpans.indices {
      let index = replacement[position]
      if index >= 0 {
        writer.append(UnsafeRawBufferPointer(rebasing: incoming[newSpans[index].entry]))
      } else {
        writer.append(UnsafeRawBufferPointer(rebasing: old[oldSpans[position].entry]))
      }
    }
    for index in appended { writer.append(UnsafeRawBufferPointer(rebasing: incoming[newSpans[index].entry])) }
    let merged = writer.take(from: 0)
    if merged.count == old.count, merged.withUnsafeBytes({ memcmp($0.baseAddress!, old.baseAddress!, old.count) == 0 }) {
      return nil
    }
    return (merged, changed)
  }

  /// ``mergeDated(existing:new:)``'s match of `incoming`'s fields with `old`'s: each old field's
  /// replacement in `incoming` (its index there, -1 for none), the indices of the new fields, the
  /// spans of `incoming`'s fields, and the names of the fields changed or added.
  @inline(__always)
  private static func matchFields(
    _ old: UnsafeRawBufferPointer, _ oldSpans: [FieldSpan], _ incoming: UnsafeRawBufferPointer
  ) -> (replacement: [Int], appended: [Int], newSpans: [FieldSpan], changed: [String]) {
    var replacement = [Int](repeating: -1, count: oldSpans.count)
    var appended: [Int] = []
    var newSpans: [FieldSpan] = []
    newSpans.reserveCapacity(16)
    var changed: [String] = []
    var offset = RecordDates.fieldsStart(incoming)
    // Records of one selection list their fields in one order: the place after the last match first.
    var hint = 0
    while offset < incoming.count {
      let span = readField(incoming, &offset)
      let index = newSpans.count
      newSpans.append(span)
      let name = UnsafeRawBufferPointer(rebasing: incoming[span.name])
      let position =
        hint < oldSpans.count && bytes(old, oldSpans[hint].name, equal: name)
        ? hint : oldSpans.firstIndex { bytes(old, $0.name, equal: name) }
      if let position {
        replacement[position] = index
        hint = position + 1
        if !ranges(old, oldSpans[position].value, incoming, span.value) {
          changed.append(String(decoding: name, as: UTF8.self))
        }
      } else {
        appended.append(index)
        changed.append(String(decoding: name, as: UTF8.self))
      }
    }
    return (replacement, appended, newSpans, changed)
  }
}
