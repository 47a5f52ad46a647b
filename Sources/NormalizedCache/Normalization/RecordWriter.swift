#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The encoded fields of the records a walk is building, innermost last: the walk is depth-first,
/// so a child's record is complete, and taken out, before its parent's next field is written.
/// Writes go straight to memory; each finished record is copied out once, at its exact size.
///
/// The one encoder of the record encoding (docs/records.md): ``RecordCodec``'s array functions,
/// ``Record/Builder`` and the field-name tables write through it; its varints, zigzag Ints and
/// widened lengths are `RecordBytes.swift`'s.
final class RecordWriter {
  private var base: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  private(set) var count = 0

  init(capacity: Int = 4096) {
    base = .allocate(capacity: capacity)
    self.capacity = capacity
  }

  /// What `body` writes, as an array of its size.
  static func encoded(capacity: Int = 64, _ body: (RecordWriter) -> Void) -> [UInt8] {
    let writer = RecordWriter(capacity: capacity)
    body(writer)
    return writer.take(from: 0)
  }

  deinit { base.deallocate() }

  @inline(__always)
  private func reserve(_ extra: Int) {
    if count + extra > capacity { grow(to: count + extra) }
  }

  private func grow(to needed: Int) {
    var newCapacity = capacity * 2
    while newCapacity < needed { newCapacity *= 2 }
    let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    newBase.update(from: base, count: count)
    base.deallocate()
    base = newBase
    capacity = newCapacity
  }

  @inline(__always)
  func append(_ byte: UInt8) {
    reserve(1)
    base[count] = byte
    count += 1
  }

  @inline(__always)
  func append(_ bytes: UnsafeRawBufferPointer) {
    guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
    reserve(bytes.count)
    memcpy(base + count, source, bytes.count)
    count += bytes.count
  }

  @inline(__always)
  func appendVarint(_ value: UInt64) {
    reserve(Varint.maximumSize)
    count += Varint.write(value, to: base + count)
  }

  /// The length, then the UTF-8, read in place.
  @inline(__always)
  func appendString(_ string: String) {
    string.withUTF8InPlace { utf8 in
      appendVarint(UInt64(utf8.count))
      append(UnsafeRawBufferPointer(utf8))
    }
  }

  // MARK: Values, as RecordCodec encodes them

  @inline(__always)
  func appendNull() { append(RecordCodec.nullTag) }

  @inline(__always)
  func appendBool(_ flag: Bool) { append(flag ? RecordCodec.trueTag : RecordCodec.falseTag) }

  @inline(__always)
  func appendInt(_ int: Int) {
    append(RecordCodec.intTag)
    appendVarint(ZigZag.encode(int))
  }

  @inline(__always)
  func appendDouble(_ double: Double) {
    append(RecordCodec.doubleTag)
    withUnsafeBytes(of: double.bitPattern.littleEndian) { append($0) }
  }

  @inline(__always)
  func appendStringValue(_ string: String) {
    append(RecordCodec.stringTag)
    appendString(string)
  }

  @inline(__always)
  func appendReference(_ key: CacheKey) {
    append(RecordCodec.referenceTag)
    appendString(key)
  }

  /// The head of a list; its `count` elements follow.
  @inline(__always)
  func beginList(count: Int) {
    append(RecordCodec.listTag)
    appendVarint(UInt64(count))
  }

  /// A value, as ``RecordCodec/appendValue(_:to:)``.
  func appendValue(_ value: RecordValue) {
    switch value {
    case .null: appendNull()
    case .bool(let flag): appendBool(flag)
    case .int(let int): appendInt(int)
    case .double(let double): appendDouble(double)
    case .string(let string): appendStringValue(string)
    case .reference(let reference): appendReference(reference.key)
    case .list(let values):
      beginList(count: values.count)
      for element in values { appendValue(element) }
    }
  }

  // MARK: Fields

  /// One field, as ``RecordCodec/appendField(_:_:to:)``.
  func appendField(name: String, _ value: RecordValue) {
    let field = beginField(name: name)
    appendValue(value)
    endField(field)
  }

  /// Starts a field whose value the caller writes next; returns what ``endField(_:)`` needs.
  @inline(__always)
  func beginField(name: String) -> Int {
    appendString(name)
    // One length byte reserved; moved up when the value needs more.
    let lengthOffset = count
    append(0)
    return lengthOffset
  }

  /// Ends the field ``beginField(name:)`` started: writes its value's length.
  @inline(__always)
  func endField(_ lengthOffset: Int) {
    if !LengthPrefix.close(at: lengthOffset, in: base, end: &count, capacity: capacity) {
      reserve(Varint.maximumSize)
      _ = LengthPrefix.close(at: lengthOffset, in: base, end: &count, capacity: capacity)
    }
  }

  /// Where the record that starts at `recordStart` already has a field of the name of the field
  /// just written at `fieldStart` (another alias of the same field key), moves the new field into
  /// that field's place: a repeated field keeps its first place and its last value.
  func replaceEarlierField(at fieldStart: Int, recordStart: Int) {
    let record = UnsafeRawBufferPointer(start: base + recordStart, count: count - recordStart)
    var offset = fieldStart - recordStart
    let new = RecordCodec.readField(record, &offset)
    let name = UnsafeRawBufferPointer(rebasing: record[new.name])
    guard
      let old = RecordCodec.find(name, in: UnsafeRawBufferPointer(rebasing: record[..<(fieldStart - recordStart)]))
    else { return }
    let replacement = [UInt8](UnsafeRawBufferPointer(rebasing: record[new.entry]))
    count = fieldStart
    let entry = (old.entry.lowerBound + recordStart)..<(old.entry.upperBound + recordStart)
    let growth = replacement.count - entry.count
    if growth > 0 { reserve(growth) }
    memmove(base + entry.upperBound + growth, base + entry.upperBound, count - entry.upperBound)
    replacement.withUnsafeBufferPointer { (base + entry.lowerBound).update(from: $0.baseAddress!, count: $0.count) }
    count += growth
  }

  /// The bytes from `start` on, copied into an array of their size; the writer ends at `start`.
  func take(from start: Int) -> [UInt8] {
    let taken = count - start
    guard taken > 0 else { return [] }
    let bytes = [UInt8](UnsafeBufferPointer(start: base + start, count: taken))
    count = start
    return bytes
  }
}
