@_spi(RecordBytes) import NormalizedCache

/// The compact layout's stored form of a value (docs/stores.md): ``RecordCodec``'s encoding with
/// short strings and references folded into their tag byte. ``compact(_:_:into:_:)`` turns the
/// store's own (trusted) bytes into it; ``skip(_:_:)`` and ``expand(_:_:into:_:capacity:)`` read it
/// back from a file, bounds-checked, with `RecordBytes.swift`'s checked varint.
///
/// The tags are ``RecordCodec``'s own.
enum EncodedValue {
  static let nullTag = RecordCodec.nullTag
  static let falseTag = RecordCodec.falseTag
  static let trueTag = RecordCodec.trueTag
  static let intTag = RecordCodec.intTag
  static let doubleTag = RecordCodec.doubleTag
  static let stringTag = RecordCodec.stringTag
  static let referenceTag = RecordCodec.referenceTag
  static let listTag = RecordCodec.listTag
  /// The compact layout's short forms: `0x20 | n` is a String of n < 32 UTF-8 bytes, `0x40 | n` a
  /// reference of n < 32 bytes: tag and length in one byte, where ``RecordCodec`` spends two.
  static let shortStringTag: UInt8 = 0x20
  static let shortReferenceTag: UInt8 = 0x40
  static let shortLengthLimit = 32

  /// Reads a length at `offset` that must fit in the rest of the buffer.
  @inline(__always)
  static func readLength(_ bytes: UnsafeRawBufferPointer, _ offset: inout Int) -> Int? {
    guard let length = Varint.readChecked(bytes, &offset), length <= UInt64(bytes.count - offset) else { return nil }
    return Int(length)
  }

  /// ``skip(_:_:)`` with the scalars handled inline, where a decoding loop spends its time; a
  /// list (or anything odd) takes the general path.
  @inline(__always)
  static func skipInline(_ bytes: UnsafeRawBufferPointer, _ offset: inout Int) -> Bool {
    guard offset < bytes.count else { return false }
    switch bytes[offset] {
    case nullTag, falseTag, trueTag:
      offset += 1
      return true
    case intTag where bytes.count - offset >= 2 && bytes[offset + 1] < 0x80:
      offset += 2
      return true
    case doubleTag:
      guard bytes.count - offset >= 9 else { return false }
      offset += 9
      return true
    case stringTag, referenceTag:
      var position = offset + 1
      guard position < bytes.count, bytes[position] < 0x80 else { return skip(bytes, &offset) }
      let length = Int(bytes[position])
      position += 1
      guard bytes.count - position >= length else { return false }
      offset = position + length
      return true
    default:
      return skip(bytes, &offset)
    }
  }

  /// Moves `offset` past the value that starts there.
  ///
  /// No recursion: a list of n elements turns the one value still to skip into n, so a count of
  /// values still to skip is all the state a nesting needs.
  /// - Returns: false when the bytes are not a well-formed value.
  @inline(__always)
  static func skip(_ bytes: UnsafeRawBufferPointer, _ offset: inout Int) -> Bool {
    var pending: UInt64 = 1
    while pending > 0 {
      pending -= 1
      guard offset < bytes.count else { return false }
      let tag = bytes[offset]
      offset += 1
      switch tag {
      case nullTag, falseTag, trueTag:
        continue
      case intTag:
        guard Varint.readChecked(bytes, &offset) != nil else { return false }
      case doubleTag:
        guard bytes.count - offset >= 8 else { return false }
        offset += 8
      case stringTag, referenceTag:
        guard let length = readLength(bytes, &offset) else { return false }
        offset += length
      case shortStringTag..<(shortReferenceTag + 0x20):
        let length = Int(tag & 0x1F)
        guard bytes.count - offset >= length else { return false }
        offset += length
      case listTag:
        // Every element takes at least one byte.
        guard let count = Varint.readChecked(bytes, &offset), count <= UInt64(bytes.count - offset) else { return false }
        pending += count
      default:
        return false
      }
    }
    return true
  }

  /// Copies one ``RecordCodec`` value (the store's own bytes, trusted) into the stored form, with
  /// short strings and references folded into one tag byte; moves `offset` past it.
  ///
  /// `output` must have room for the value's own length: the stored form is never longer.
  static func compact(
    _ value: UnsafeRawBufferPointer, _ offset: inout Int, into output: UnsafeMutableRawPointer, _ count: inout Int
  ) {
    var pending = 1
    while pending > 0 {
      pending -= 1
      let start = offset
      let tag = value[offset]
      offset += 1
      switch tag {
      case nullTag, falseTag, trueTag:
        break
      case intTag:
        while value[offset] >= 0x80 { offset += 1 }
        offset += 1
      case doubleTag:
        offset += 8
      case stringTag, referenceTag:
        let lengthStart = offset
        let length = Int(Varint.read(value, &offset))
        if length < shortLengthLimit {
          output.storeBytes(
            of: (tag == stringTag ? shortStringTag : shortReferenceTag) | UInt8(length), toByteOffset: count,
            as: UInt8.self)
          (output + count + 1).copyMemory(from: value.baseAddress! + offset, byteCount: length)
          count += 1 + length
          offset += length
          continue
        }
        offset = lengthStart
        offset += Int(readLength(value, &offset)!)
      case listTag:
        pending += Int(Varint.read(value, &offset))
      default:
        preconditionFailure("corrupt RecordCodec bytes: tag \(tag)")
      }
      (output + count).copyMemory(from: value.baseAddress! + start, byteCount: offset - start)
      count += offset - start
    }
  }

  /// Expands one stored value (from a file, so checked) back into ``RecordCodec``'s form; moves
  /// `offset` past it.
  /// - Returns: false when the bytes are not a well-formed value, or `output` has no room.
  static func expand(
    _ stored: UnsafeRawBufferPointer, _ offset: inout Int, into output: UnsafeMutableRawPointer, _ count: inout Int,
    capacity: Int
  ) -> Bool {
    var pending: UInt64 = 1
    while pending > 0 {
      pending -= 1
      guard offset < stored.count else { return false }
      let start = offset
      let tag = stored[offset]
      offset += 1
      switch tag {
      case nullTag, falseTag, trueTag:
        break
      case intTag:
        guard Varint.readChecked(stored, &offset) != nil else { return false }
      case doubleTag:
        guard stored.count - offset >= 8 else { return false }
        offset += 8
      case stringTag, referenceTag:
        guard let length = readLength(stored, &offset) else { return false }
        offset += length
      case shortStringTag..<(shortReferenceTag + 0x20):
        let length = Int(tag & 0x1F)
        guard stored.count - offset >= length, capacity - count >= 2 + length else { return false }
        output.storeBytes(of: tag < shortReferenceTag ? stringTag : referenceTag, toByteOffset: count, as: UInt8.self)
        output.storeBytes(of: UInt8(length), toByteOffset: count + 1, as: UInt8.self)
        (output + count + 2).copyMemory(from: stored.baseAddress! + offset, byteCount: length)
        count += 2 + length
        offset += length
        continue
      case listTag:
        guard let elements = Varint.readChecked(stored, &offset), elements <= UInt64(stored.count - offset) else { return false }
        pending += elements
      default:
        return false
      }
      guard capacity - count >= offset - start else { return false }
      (output + count).copyMemory(from: stored.baseAddress! + start, byteCount: offset - start)
      count += offset - start
    }
    return true
  }
}
