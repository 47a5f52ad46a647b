import JSON
@_spi(RecordBytes) import NormalizedCache

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension RecordJSON {
  /// Why a stored JSON text is not a record, and where.
  struct ParseError: Error {
    let message: String
    let offset: Int
  }

  /// The ``RecordCodec`` encoding of the fields in a record's JSON text.
  ///
  /// JSON text straight to bytes through ``RecordWriter`` (the one encoder), without the
  /// ``RecordValue``s its `appendValue` would take: each apollo-layout load runs it. Its bytes
  /// are checked against ``RecordWriter``'s for the same values in RecordJSONTests.
  ///
  /// Numbers follow `JSONParser`: an integer that fits in 64 bits is an Int, anything with a
  /// fraction or an exponent (or too large) a Double. An object is a reference when its only
  /// member is `"$reference"` with a string; any other object is an error, since a record value
  /// cannot hold one.
  /// - Throws: ``ParseError`` at the first byte that does not fit.
  static func fields(fromJSON json: UnsafeRawBufferPointer) throws(ParseError) -> [UInt8] {
    try fields(fromJSON: json, keeping: nil).fields
  }

  /// ``fields(fromJSON:)`` of a projected load: each member whose name `set` lacks is parsed (to
  /// find where it ends, and check it) and left out; the dates field (the empty name) is kept, as
  /// ``FieldFilter`` keeps it. The set itself, not a closure: a closure called a member cost a
  /// retain and a release of its context.
  /// - Returns: the fields kept, and whether any was left out.
  static func fields(
    fromJSON json: UnsafeRawBufferPointer, keeping set: FieldSet?
  ) throws(ParseError) -> (fields: [UInt8], skipped: Bool) {
    var parser = Parser(bytes: json)
    // The encoding is never longer than the JSON text (but for a `true` in fewer bytes than
    // `1`, and the like: the writer grows when it must).
    let writer = RecordWriter(capacity: max(json.count, 16))
    let skipped = try parser.parseFields(into: writer, keeping: set)
    return (writer.take(from: 0), skipped)
  }

  fileprivate struct Parser {
    let bytes: UnsafeRawBufferPointer
    var position = 0
    static var maximumDepth: Int { RecordJSON.maximumDepth }
    static let referenceMember = Array("$reference".utf8)

    init(bytes: UnsafeRawBufferPointer) {
      self.bytes = bytes
    }

    func error(_ message: String) -> ParseError {
      ParseError(message: message, offset: position)
    }

    @inline(__always)
    mutating func skipWhitespace() {
      while position < bytes.count {
        let byte = bytes[position]
        guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
        position += 1
      }
    }

    @inline(__always)
    mutating func expect(_ byte: UInt8) throws(ParseError) {
      guard consume(byte) else { throw expected(byte) }
    }

    @inline(never)
    func expected(_ byte: UInt8) -> ParseError {
      error("expected '\(Character(Unicode.Scalar(byte)))'")
    }

    /// Whether the next byte, after whitespace, is `byte`; consumes it if so.
    @inline(__always)
    mutating func consume(_ byte: UInt8) -> Bool {
      skipWhitespace()
      guard position < bytes.count, bytes[position] == byte else { return false }
      position += 1
      return true
    }

    /// - Returns: whether a member was left out.
    mutating func parseFields(into writer: RecordWriter, keeping set: FieldSet?) throws(ParseError) -> Bool {
      if let set { return try parseFields(into: writer, set) }
      try parseFields(into: writer) { _ in true }
      return false
    }

    /// Every member, as `set` (unwrapped once: an optional set bound in the loop was retained
    /// and released a member) keeps or leaves out each but the dates.
    mutating func parseFields(into writer: RecordWriter, _ set: borrowing FieldSet) throws(ParseError) -> Bool {
      var skipped = false
      try parseFields(into: writer) { (field: UnsafeRawBufferPointer) in
        let name = Self.name(field)
        if name.isEmpty || set.contains(name) { return true }
        skipped = true
        return false
      }
      return skipped
    }

    /// The members, each written and then left out where `keep` says of its bytes.
    @inline(__always)
    mutating func parseFields(
      into writer: RecordWriter, keep: (UnsafeRawBufferPointer) -> Bool
    ) throws(ParseError) {
      try expect(UInt8(ascii: "{"))
      // The members met, and where the dates member's name ends in the text (the empty name,
      // which only the first member may have: docs/records.md#dates), to check its value once
      // the fields are counted. A text from elsewhere (a damaged file) must not hand the readers
      // a dates field they would trust (some 9 instructions a member: the Tier-2 load of 10 fields
      // 18,085 to 18,171).
      var members = 0
      var datesName = -1
      if !consume(UInt8(ascii: "}")) {
        repeat {
          skipWhitespace()
          let name = writer.openLength()
          try parseString(into: writer)
          writer.closeLength(name)
          if writer.written == name &+ 1 { datesName = try emptyName(members: members) }
          try expect(UInt8(ascii: ":"))
          let value = writer.openLength()
          try parseValue(into: writer, depth: 0)
          writer.closeLength(value)
          if !keep(writer.bytes(from: name)) { writer.truncate(to: name) }
          members &+= 1
        } while consume(UInt8(ascii: ","))
        try expect(UInt8(ascii: "}"))
      }
      skipWhitespace()
      guard position == bytes.count else { throw error("unexpected text after the record") }
      if datesName >= 0 { try checkDates(writer, fieldCount: members - 1, after: datesName) }
    }

    /// A member of empty name just read: the dates, if it is the first; returns where its name ends.
    @inline(never)
    func emptyName(members: Int) throws(ParseError) -> Int {
      guard members == 0 else {
        throw ParseError(message: "a member of empty name (a record's dates) that is not the first", offset: position - 2)
      }
      return position
    }

    /// The dates field, which the writer holds first (its empty name, its value's length, the
    /// value), checked as ``RecordCodec/checkDates(ofValue:fieldCount:)`` checks one; an error
    /// names the byte where the value starts in the text, after the name that ends at `name`.
    @inline(never)
    func checkDates(_ writer: RecordWriter, fieldCount: Int, after name: Int) throws(ParseError) {
      let fields = writer.bytes(from: 0)
      do {
        try RecordCodec.checkDates(
          ofValue: UnsafeRawBufferPointer(rebasing: fields[RecordDates.valueRange(fields)]), fieldCount: fieldCount)
      } catch {
        var text = self
        text.position = name
        _ = text.consume(UInt8(ascii: ":"))
        text.skipWhitespace()
        throw ParseError(message: "a dates member that is not a record's dates (\(error.problem))", offset: text.position)
      }
    }

    /// The name of the field that starts `field` (``RecordCodec``'s `varint(length) name ...`).
    static func name(_ field: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
      var offset = 0
      let length = Int(Varint.read(field, &offset))
      return UnsafeRawBufferPointer(rebasing: field[offset..<offset + length])
    }

    mutating func parseValue(into writer: RecordWriter, depth: Int) throws(ParseError) {
      skipWhitespace()
      guard position < bytes.count else { throw error("expected a value, found the end") }
      switch bytes[position] {
      case UInt8(ascii: "n"):
        try literal("null")
        writer.appendNull()
      case UInt8(ascii: "t"):
        try literal("true")
        writer.appendBool(true)
      case UInt8(ascii: "f"):
        try literal("false")
        writer.appendBool(false)
      case UInt8(ascii: "\""):
        let string = writer.beginStringValue()
        try parseString(into: writer)
        writer.closeLength(string)
      case UInt8(ascii: "["):
        try parseList(into: writer, depth: depth)
      case UInt8(ascii: "{"):
        try parseReference(into: writer)
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        try parseNumber(into: writer)
      default:
        throw error("expected a value")
      }
    }

    /// A list, its count written once its elements are.
    mutating func parseList(into writer: RecordWriter, depth: Int) throws(ParseError) {
      guard depth < Self.maximumDepth else { throw error("lists nested too deep") }
      position += 1
      let list = writer.beginList()
      var count = 0
      if !consume(UInt8(ascii: "]")) {
        repeat {
          // An element of a list of objects, as the layout writes it, straight to the reference
          // (whitespace or any other value goes through parseValue).
          if position < bytes.count, bytes[position] == UInt8(ascii: "{") {
            try parseReference(into: writer)
          } else {
            try parseValue(into: writer, depth: depth + 1)
          }
          count += 1
        } while consume(UInt8(ascii: ","))
        try expect(UInt8(ascii: "]"))
      }
      writer.endList(list, count: count)
    }

    /// `{"$reference":"KEY"}`, the only object a record value holds.
    mutating func parseReference(into writer: RecordWriter) throws(ParseError) {
      let start = position
      // As the layout writes it: `{"$reference":"` and a key with nothing to escape, then `"}`,
      // one comparison and one copy (every element of a list of objects is one).
      let head: StaticString = "{\"$reference\":\""
      if bytes.count - start > head.utf8CodeUnitCount,
        memcmp(bytes.baseAddress! + start, head.utf8Start, head.utf8CodeUnitCount) == 0
      {
        let key = start + head.utf8CodeUnitCount
        let end = JSONString.endOfPlainBytes(bytes.assumingMemoryBound(to: UInt8.self), from: key)
        if bytes.count - end >= 2, bytes[end] == UInt8(ascii: "\""), bytes[end + 1] == UInt8(ascii: "}") {
          writer.appendReference(utf8: UnsafeRawBufferPointer(rebasing: bytes[key..<end]))
          position = end + 2
          return
        }
      }
      position += 1
      skipWhitespace()
      // The member name as the layout writes it, compared in place; one with escapes (which no
      // writer of ours makes) is resolved and compared.
      let name: StaticString = "\"$reference\""
      if bytes.count - position >= name.utf8CodeUnitCount,
        memcmp(bytes.baseAddress! + position, name.utf8Start, name.utf8CodeUnitCount) == 0
      {
        position += name.utf8CodeUnitCount
      } else {
        var member: [UInt8] = []
        try parseString(into: &member)
        guard member == Self.referenceMember else {
          throw ParseError(message: "an object that is not a reference", offset: start)
        }
      }
      try expect(UInt8(ascii: ":"))
      skipWhitespace()
      let reference = writer.beginReference()
      try parseString(into: writer)
      writer.closeLength(reference)
      guard consume(UInt8(ascii: "}")) else { throw error("a reference with more than one member") }
    }

    mutating func literal(_ text: StaticString) throws(ParseError) {
      let count = text.utf8CodeUnitCount
      guard bytes.count - position >= count,
        memcmp(bytes.baseAddress! + position, text.utf8Start, count) == 0
      else { throw error("expected \(text)") }
      position += count
    }

    /// The UTF-8 bytes of a string literal, escapes resolved: into the record's bytes, or an array
    /// (a member name to compare).
    mutating func parseString<Bytes: JSONByteSink>(into out: inout Bytes) throws(ParseError) {
      guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw error("expected a string") }
      position += 1
      while true {
        // The bytes up to the next quote, backslash or control character go in one copy.
        let run = position
        position = JSONString.endOfPlainBytes(bytes.assumingMemoryBound(to: UInt8.self), from: position)
        if position > run { out.append(UnsafeRawBufferPointer(rebasing: bytes[run..<position])) }
        guard position < bytes.count else { throw error("unterminated string") }
        switch bytes[position] {
        case UInt8(ascii: "\""):
          position += 1
          return
        case UInt8(ascii: "\\"):
          try unescape(into: &out)
        default:
          // endOfPlainBytes stops at a quote, a backslash or a control character.
          throw error("a control character in a string")
        }
      }
    }

    /// The escape at `position`, by the one unescaper, JSONParser's too: a lone surrogate is
    /// refused, and the store reports the record as SQLITE_CORRUPT (docs/records.md#reading-json).
    /// Out of line (still specialized for each sink): an escape is rare in a stored record, and
    /// the unescaper is inlined here, not into ``parseString(into:)``'s loop over plain runs.
    @inline(never)
    mutating func unescape<Bytes: JSONByteSink>(into out: inout Bytes) throws(ParseError) {
      do {
        try JSONString.unescape(bytes.assumingMemoryBound(to: UInt8.self), at: &position, into: &out)
      } catch {
        throw escapeError(error)
      }
    }

    /// The error of an escape that `JSONString.unescape` refused, at the position it left.
    @inline(never)
    func escapeError(_ failure: JSONString.EscapeFailure) -> ParseError {
      switch failure {
      case .endOfInput: return error("unterminated string")
      case .unknownEscape: return error("invalid escape")
      case .notHex: return error("expected four hex digits after \\u")
      case .loneSurrogate(let unit): return error("an unpaired surrogate \\u\(String(unit, radix: 16, uppercase: true)) in a string")
      }
    }

    /// ``parseString(into:)`` straight into the record's bytes.
    mutating func parseString(into writer: RecordWriter) throws(ParseError) {
      var writer = writer
      try parseString(into: &writer)
    }

    mutating func parseNumber(into writer: RecordWriter) throws(ParseError) {
      let start = position
      switch JSONNumber.scan(bytes.assumingMemoryBound(to: UInt8.self), at: &position) {
      case .success(.int(let int)):
        writer.appendInt(int)
      case .success(.notInt):
        // strtod wants a terminated string: copy the number's few bytes.
        var text = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<position]))
        text.append(0)
        let double = text.withUnsafeBufferPointer { strtod(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), nil) }
        writer.appendDouble(double)
      case .failure(.noDigit): throw error("expected a digit")
      case .failure(.leadingZero): throw error("a number cannot have a leading zero")
      case .failure(.noDigitAfterPoint): throw error("expected a digit after '.'")
      case .failure(.noDigitInExponent): throw error("expected a digit in the exponent")
      }
    }
  }
}

extension RecordWriter: JSONByteSink {}
