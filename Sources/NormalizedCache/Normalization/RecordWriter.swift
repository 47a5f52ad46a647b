#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The encoded fields of the records a walk is building, innermost last: the walk is depth-first,
/// so a child's record is complete, and taken out, before its parent's next field is written.
/// Writes go straight to memory; each finished record is copied out once, at its exact size.
///
/// It writes exactly what ``RecordCodec`` writes (the tests compare the two).
final class RecordWriter {
  private var base: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  private(set) var count = 0

  init(capacity: Int = 4096) {
    base = .allocate(capacity: capacity)
    self.capacity = capacity
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
    reserve(10)
    var value = value
    while value >= 0x80 {
      base[count] = UInt8(truncatingIfNeeded: value) | 0x80
      count += 1
      value >>= 7
    }
    base[count] = UInt8(value)
    count += 1
  }

  /// The length, then the UTF-8, read in place (a copy of the string to call `withUTF8` on costs
  /// a retain and a release).
  @inline(__always)
  func appendString(_ string: String) {
    let done: Void? = string.utf8.withContiguousStorageIfAvailable { utf8 in
      appendVarint(UInt64(utf8.count))
      append(UnsafeRawBufferPointer(utf8))
    }
    if done == nil {
      var string = string
      string.withUTF8 { utf8 in
        appendVarint(UInt64(utf8.count))
        append(UnsafeRawBufferPointer(utf8))
      }
    }
  }

  /// A value, as ``RecordCodec/appendValue(_:to:)``.
  func appendValue(_ value: RecordValue) {
    switch value {
    case .null: append(RecordCodec.nullTag)
    case .bool(let flag): append(flag ? RecordCodec.trueTag : RecordCodec.falseTag)
    case .int(let int):
      append(RecordCodec.intTag)
      appendVarint(UInt64(bitPattern: Int64((int << 1) ^ (int >> 63))))
    case .double(let double):
      append(RecordCodec.doubleTag)
      withUnsafeBytes(of: double.bitPattern.littleEndian) { append($0) }
    case .string(let string):
      append(RecordCodec.stringTag)
      appendString(string)
    case .reference(let reference):
      append(RecordCodec.referenceTag)
      appendString(reference.key)
    case .list(let values):
      append(RecordCodec.listTag)
      appendVarint(UInt64(values.count))
      for element in values { appendValue(element) }
    }
  }

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
    let valueStart = lengthOffset + 1
    let length = count - valueStart
    if length < 0x80 {
      base[lengthOffset] = UInt8(length)
      return
    }
    var prefix: [UInt8] = []
    RecordCodec.appendVarint(UInt64(length), to: &prefix)
    let extra = prefix.count - 1
    reserve(extra)
    memmove(base + valueStart + extra, base + valueStart, length)
    prefix.withUnsafeBufferPointer { (base + lengthOffset).update(from: $0.baseAddress!, count: $0.count) }
    count += extra
  }

  /// Sets a field of the record that starts at `start`: replaces its value where the record has
  /// it, else appends it.
  func setField(name: String, _ value: RecordValue, recordStart start: Int) {
    var existing: RecordCodec.FieldSpan?
    var name = name
    name.withUTF8 { nameBytes in
      existing = RecordCodec.find(
        UnsafeRawBufferPointer(nameBytes), in: UnsafeRawBufferPointer(start: base + start, count: count - start))
    }
    guard let existing else {
      appendField(name: name, value)
      return
    }
    var replacement: [UInt8] = []
    RecordCodec.appendField(name, value, to: &replacement)
    let entry = (existing.entry.lowerBound + start)..<(existing.entry.upperBound + start)
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
