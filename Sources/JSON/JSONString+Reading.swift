/// Reading JSON string literals back: where a run of plain bytes ends, and the package's one
/// unescaper, which both JSON readers go through (`JSONParser`, for responses and files, in
/// GraphQLLanguage; the apollo layout's record JSON, `RecordJSON`, in SQLiteCache). Each reader
/// turns a ``EscapeFailure`` into its own error at the position left (a response's
/// `file:line:column`; a stored record's `SQLITE_CORRUPT` naming its key).
///
/// ```swift
/// var position = 0                       // at the backslash
/// var out: [UInt8] = []
/// try JSONString.unescape(bytes, at: &position, into: &out)
/// // #"\n"#          → [0x0A], position 2
/// // #"\uD83D\uDE00"# → the UTF-8 of U+1F600, position 12
/// // #"\uD83D x"#    → throws .loneSurrogate(0xD83D), position 0
/// ```
///
/// **A lone surrogate is refused** (docs/records.md#reading-json): a `\uD800`–`\uDBFF` escape not
/// followed at once by a `\uDC00`–`\uDFFF` escape (another escape, any other byte, the end of the
/// string or of the input), and a `\uDC00`–`\uDFFF` escape not preceded by such a high one. A
/// Swift `String` cannot hold one (it would become U+FFFD, another text that reads and hashes
/// differently), no writer of ours or Apollo's writes one (both escape only controls, a quote and
/// a backslash, and write all else as UTF-8), and Foundation's JSON readers refuse one too. The
/// error is at the backslash of the lone surrogate's escape.
extension JSONString {
  /// Why an escape is not one, with ``unescape(_:at:into:)``'s position left at the byte at fault.
  public enum EscapeFailure: Error, Equatable {
    /// The backslash is the last byte: position at the backslash.
    case endOfInput
    /// A backslash followed by a byte that starts no escape: position at that byte.
    case unknownEscape(UInt8)
    /// `\u` not followed by four hex digits: position where the digits should start.
    case notHex
    /// A surrogate escape without its partner: position at its backslash.
    case loneSurrogate(UInt16)
  }

  /// Resolves the escape whose backslash is at `position` into `sink` as UTF-8, and moves past
  /// it (past both escapes of a surrogate pair).
  /// - Throws: ``EscapeFailure``, with `position` at the byte at fault.
  /// - Complexity: O(1). Inlined into each reader's string loop, so that the record parser's sink
  ///   (`RecordWriter`) is called directly.
  @inlinable @inline(__always)
  public static func unescape<Sink: JSONByteSink>(
    _ bytes: UnsafeBufferPointer<UInt8>, at position: inout Int, into sink: inout Sink
  ) throws(EscapeFailure) {
    let start = position
    guard position + 1 < bytes.count else { throw .endOfInput }
    let escape = bytes[position + 1]
    position += 2
    switch escape {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): sink.append(escape)
    case UInt8(ascii: "b"): sink.append(0x08)
    case UInt8(ascii: "f"): sink.append(0x0C)
    case UInt8(ascii: "n"): sink.append(0x0A)
    case UInt8(ascii: "r"): sink.append(0x0D)
    case UInt8(ascii: "t"): sink.append(0x09)
    case UInt8(ascii: "u"): appendUTF8(of: try scalar(bytes, at: &position, escapeAt: start), to: &sink)
    default:
      position -= 1
      throw .unknownEscape(escape)
    }
  }

  /// The scalar of the `\u` escape whose digits start at `position` (its backslash at `start`),
  /// joined with the low surrogate's escape that must follow a high one.
  @inlinable
  static func scalar(_ bytes: UnsafeBufferPointer<UInt8>, at position: inout Int, escapeAt start: Int) throws(EscapeFailure) -> UInt32 {
    let unit = try hex4(bytes, at: &position)
    switch unit {
    case 0xD800..<0xDC00:
      guard bytes.count - position >= 2, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
        position = start
        throw .loneSurrogate(UInt16(unit))
      }
      position += 2
      let low = try hex4(bytes, at: &position)
      guard (0xDC00..<0xE000).contains(low) else {
        position = start
        throw .loneSurrogate(UInt16(unit))
      }
      return 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
    case 0xDC00..<0xE000:
      position = start
      throw .loneSurrogate(UInt16(unit))
    default:
      return unit
    }
  }

  /// Four hex digits, either case, at `position`; moves past them.
  @inlinable
  static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, at position: inout Int) throws(EscapeFailure) -> UInt32 {
    guard bytes.count - position >= 4 else { throw .notHex }
    var value: UInt32 = 0
    for offset in 0..<4 {
      let byte = bytes[position + offset]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte &- UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte &- UInt8(ascii: "a") &+ 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte &- UInt8(ascii: "A") &+ 10
      default: throw .notHex
      }
      value = value << 4 | UInt32(digit)
    }
    position += 4
    return value
  }

  /// The UTF-8 of a scalar value (not a surrogate: ``scalar(_:at:escapeAt:)`` has joined or
  /// refused those), one to four bytes.
  @inlinable
  static func appendUTF8<Sink: JSONByteSink>(of value: UInt32, to sink: inout Sink) {
    switch value {
    case 0..<0x80:
      sink.append(UInt8(value))
    case 0x80..<0x800:
      sink.append(0xC0 | UInt8(value >> 6))
      sink.append(0x80 | UInt8(value & 0x3F))
    case 0x800..<0x10000:
      sink.append(0xE0 | UInt8(value >> 12))
      sink.append(0x80 | UInt8(value >> 6 & 0x3F))
      sink.append(0x80 | UInt8(value & 0x3F))
    default:
      sink.append(0xF0 | UInt8(value >> 18))
      sink.append(0x80 | UInt8(value >> 12 & 0x3F))
      sink.append(0x80 | UInt8(value >> 6 & 0x3F))
      sink.append(0x80 | UInt8(value & 0x3F))
    }
  }

  /// The offset of the first byte from `start` on that is a quote, a backslash or a control
  /// character (what a JSON string must escape), eight bytes at a time; or of the last few bytes,
  /// fewer than eight, which the caller scans.
  @inlinable @inline(__always)
  public static func endOfPlainRun(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    guard let base = bytes.baseAddress else { return start }
    var position = start
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    while position + 8 <= bytes.count {
      // Little-endian on every platform Swift runs this on: the first byte is the lowest.
      let word = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
      let quote = word ^ (ones &* 0x22)
      let backslash = word ^ (ones &* 0x5C)
      // The classic "has a zero byte" test: exact for the lowest flagged byte, which is all
      // that is used. Bytes of 0x80 and above (UTF-8) are never flagged.
      let flags =
        ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
      let found = flags & highs
      if found != 0 { return position + found.trailingZeroBitCount / 8 }
      position += 8
    }
    return position
  }

  /// The offset of the first byte from `start` on that a JSON string must escape (a quote, a
  /// backslash or a control character), or `bytes.count`: ``endOfPlainRun(_:from:)``, then the
  /// last few bytes one at a time.
  @inlinable @inline(__always)
  public static func endOfPlainBytes(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    var position = endOfPlainRun(bytes, from: start)
    while position < bytes.count {
      let byte = bytes[position]
      if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { break }
      position += 1
    }
    return position
  }
}
