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
/// ``Record/Builder``, the field-name tables and the apollo layout's JSON reader (`RecordJSON`,
/// in SQLiteCache, through `@_spi(RecordBytes)`) write through it; its varints, zigzag Ints and
/// widened lengths are `RecordBytes.swift`'s. What the JSON reader calls is `@inlinable`, as
/// `RecordBytes.swift` explains.
@_spi(RecordBytes) public final class RecordWriter {
  // Unchecked: a class's properties that code in other modules may touch (these, through the
  // `@inlinable` methods) are otherwise checked for exclusive access at run time on every write,
  // which doubled the normalizer's instructions. The writer is used by one thread, one call at a
  // time, and no method lends out access to them.
  @exclusivity(unchecked) @usableFromInline var base: UnsafeMutablePointer<UInt8>
  @exclusivity(unchecked) @usableFromInline var capacity: Int
  @exclusivity(unchecked) @usableFromInline var count = 0

  /// The bytes written so far.
  @inlinable public var written: Int { count }

  public init(capacity: Int = 4096) {
    base = .allocate(capacity: capacity)
    self.capacity = capacity
  }

  /// What `body` writes, as an array of its size.
  package static func encoded(capacity: Int = 64, _ body: (RecordWriter) -> Void) -> [UInt8] {
    let writer = RecordWriter(capacity: capacity)
    body(writer)
    return writer.take(from: 0)
  }

  deinit { base.deallocate() }

  @inlinable @inline(__always)
  func reserve(_ extra: Int) {
    if count + extra > capacity { grow(to: count + extra) }
  }

  @usableFromInline @inline(never)
  func grow(to needed: Int) {
    var newCapacity = capacity * 2
    while newCapacity < needed { newCapacity *= 2 }
    let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    newBase.update(from: base, count: count)
    base.deallocate()
    base = newBase
    capacity = newCapacity
  }

  @inlinable @inline(__always)
  public func append(_ byte: UInt8) {
    reserve(1)
    base[count] = byte
    count += 1
  }

  @inlinable @inline(__always)
  public func append(_ bytes: UnsafeRawBufferPointer) {
    guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
    reserve(bytes.count)
    memcpy(base + count, source, bytes.count)
    count += bytes.count
  }

  @inlinable @inline(__always)
  public func appendVarint(_ value: UInt64) {
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

  @inlinable @inline(__always)
  public func appendNull() { append(RecordCodec.nullTag) }

  @inlinable @inline(__always)
  public func appendBool(_ flag: Bool) { append(flag ? RecordCodec.trueTag : RecordCodec.falseTag) }

  @inlinable @inline(__always)
  public func appendInt(_ int: Int) {
    append(RecordCodec.intTag)
    appendVarint(ZigZag.encode(int))
  }

  @inlinable @inline(__always)
  public func appendDouble(_ double: Double) {
    append(RecordCodec.doubleTag)
    reserve(8)
    UnsafeMutableRawPointer(base + count).storeBytes(of: double.bitPattern.littleEndian, as: UInt64.self)
    count += 8
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

  /// A reference whose key's UTF-8 is `key`: one check for room, the tag, the length and the
  /// bytes (the JSON reader's reference as the apollo layout writes it, an element of a list of
  /// objects most often).
  @inlinable @inline(__always)
  public func appendReference(utf8 key: UnsafeRawBufferPointer) {
    reserve(1 + Varint.maximumSize + key.count)
    base[count] = RecordCodec.referenceTag
    count += 1
    count += Varint.write(UInt64(key.count), to: base + count)
    if let source = key.baseAddress, !key.isEmpty {
      memcpy(base + count, source, key.count)
      count += key.count
    }
  }

  /// The head of a list; its `count` elements follow.
  @inline(__always)
  func beginList(count: Int) {
    append(RecordCodec.listTag)
    appendVarint(UInt64(count))
  }

  /// The head of a list whose elements the caller writes next, before it knows how many:
  /// returns what ``endList(_:count:)`` needs (invariant 4 of `RecordBytes.swift`).
  @inlinable @inline(__always)
  public func beginList() -> Int {
    append(RecordCodec.listTag)
    return openLength()
  }

  /// Ends the list ``beginList()`` started: writes its count.
  @inlinable @inline(__always)
  public func endList(_ countOffset: Int, count elements: Int) {
    if !LengthPrefix.close(at: countOffset, value: UInt64(elements), in: base, end: &count, capacity: capacity) {
      reserve(Varint.maximumSize)
      _ = LengthPrefix.close(at: countOffset, value: UInt64(elements), in: base, end: &count, capacity: capacity)
    }
  }

  /// The head of a String whose UTF-8 the caller writes next (``append(_:)``); ``closeLength(_:)`` ends it.
  @inlinable @inline(__always)
  public func beginStringValue() -> Int {
    append(RecordCodec.stringTag)
    return openLength()
  }

  /// The head of a reference whose key the caller writes next; ``closeLength(_:)`` ends it.
  @inlinable @inline(__always)
  public func beginReference() -> Int {
    append(RecordCodec.referenceTag)
    return openLength()
  }

  /// Reserves one byte for the length of the bytes written next (a field's name or value, a
  /// String's UTF-8); returns what ``closeLength(_:)`` needs.
  @inlinable @inline(__always)
  public func openLength() -> Int {
    let lengthOffset = count
    append(0)
    return lengthOffset
  }

  /// Writes the length of what was written since ``openLength()`` in front of it (invariant 4).
  @inlinable @inline(__always)
  public func closeLength(_ lengthOffset: Int) {
    if !LengthPrefix.close(at: lengthOffset, in: base, end: &count, capacity: capacity) {
      reserve(Varint.maximumSize)
      _ = LengthPrefix.close(at: lengthOffset, in: base, end: &count, capacity: capacity)
    }
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
    return openLength()
  }

  /// Ends the field ``beginField(name:)`` started: writes its value's length.
  @inline(__always)
  func endField(_ lengthOffset: Int) { closeLength(lengthOffset) }

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

  /// Forgets what was written from `start` on (a field a projected load leaves out).
  @inlinable @inline(__always)
  public func truncate(to start: Int) {
    precondition(start <= count, "truncating past the end")
    count = start
  }

  /// The bytes written from `start` on, in place: valid until the next write.
  @inlinable @inline(__always)
  public func bytes(from start: Int) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(start: base + start, count: count - start)
  }

  /// The bytes from `start` on, copied into an array of their size; the writer ends at `start`.
  public func take(from start: Int) -> [UInt8] {
    let taken = count - start
    guard taken > 0 else { return [] }
    let bytes = [UInt8](UnsafeBufferPointer(start: base + start, count: taken))
    count = start
    return bytes
  }
}
