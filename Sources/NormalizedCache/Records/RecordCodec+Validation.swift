/// Checking bytes that claim to be ``RecordCodec``'s encoding before anything reads them.
///
/// ``Record``'s accessors, the stores and the reader walk a record's bytes with unchecked reads:
/// they trust the buffer, which the normalizer or a store of this package made. Bytes from
/// anywhere else (a user's store rebuilding records from its own file) go through
/// ``Record/init(key:encodedFields:)``, which runs this check: every length inside the buffer,
/// every tag known, every varint minimal (so that equal values keep equal bytes), each field
/// name once.
extension RecordCodec {
  /// Why bytes are not a record's encoding: what is wrong, at which byte offset.
  public struct EncodingError: Error, Sendable, Hashable, CustomStringConvertible {
    public let offset: Int
    public let problem: String

    public var description: String { "malformed record encoding at byte \(offset): \(problem)" }
  }

  /// Checks that `bytes` are a well-formed sequence of fields.
  /// - Throws: ``EncodingError`` naming the first problem.
  /// - Complexity: O(n) in the bytes, plus a set of the field names.
  public static func validate(_ bytes: UnsafeRawBufferPointer) throws(EncodingError) {
    var reader = CheckedReader(bytes: bytes)
    var names: Set<[UInt8]> = []
    var dates: Range<Int>?
    while !reader.isAtEnd {
      let fieldStart = reader.offset
      let nameLength = try reader.length("field name length")
      let name = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[reader.offset..<reader.offset + nameLength]))
      reader.offset += nameLength
      if name.isEmpty, fieldStart != 0 {
        throw EncodingError(offset: fieldStart, problem: "a field of empty name (a record's dates) that is not the first")
      }
      guard names.insert(name).inserted else {
        throw EncodingError(offset: fieldStart, problem: "field \"\(String(decoding: name, as: UTF8.self))\" appears twice")
      }
      let valueLength = try reader.length("value length")
      let valueEnd = reader.offset + valueLength
      var offset = reader.offset
      let value = UnsafeRawBufferPointer(rebasing: bytes[..<valueEnd])
      if name.isEmpty {
        var check = DatesCheck()
        try RecordValueWalk.walk(value, &offset, &check)
      } else {
        var check = ValueCheck()
        try RecordValueWalk.walk(value, &offset, &check)
      }
      guard offset == valueEnd else {
        throw EncodingError(offset: offset, problem: "the value ends before its length says")
      }
      if name.isEmpty { dates = reader.offset..<valueEnd }
      reader.offset = valueEnd
    }
    if let dates { try validateDates(bytes, dates, fieldCount: names.count - 1) }
  }

  /// The dates of `fieldCount` fields from a dates field's value alone, bytes from a file (the
  /// compact layout's split-record marker keeps it apart from the fields): checked as a record's
  /// dates are (a value of the grammar ending where the bytes do, then docs/records.md#dates)
  /// before anything decodes it.
  /// - Throws: ``EncodingError`` naming the first problem, its offset within `value`.
  public static func checkedDates(ofValue value: UnsafeRawBufferPointer, fieldCount: Int) throws(EncodingError) -> [Int] {
    try checkDates(ofValue: value, fieldCount: fieldCount)
    return RecordDates.dates(ofValue: value, count: fieldCount)
  }

  /// The check of ``checkedDates(ofValue:fieldCount:)`` alone, for a decoder that keeps the dates
  /// field as it is (the apollo and compact layouts' loads).
  /// - Throws: ``EncodingError`` naming the first problem, its offset within `value`.
  public static func checkDates(ofValue value: UnsafeRawBufferPointer, fieldCount: Int) throws(EncodingError) {
    if isOneDate(value) { return }
    try checkDatesFully(ofValue: value, fieldCount: fieldCount)
  }

  /// ``checkDates(ofValue:fieldCount:)`` without its fast path for one date.
  static func checkDatesFully(ofValue value: UnsafeRawBufferPointer, fieldCount: Int) throws(EncodingError) {
    guard !value.isEmpty else { throw EncodingError(offset: 0, problem: "an empty dates field") }
    var offset = 0
    var check = DatesCheck()
    try RecordValueWalk.walk(value, &offset, &check)
    guard offset == value.count else { throw EncodingError(offset: offset, problem: "bytes after the dates field's value") }
    try validateDates(value, 0..<value.count, fieldCount: fieldCount)
  }

  /// Whether `value` is one date, the common case, as the full check would find it: the Int tag,
  /// then a minimal varint that fits in 64 bits and ends the value, its zigzag even (0 or more).
  /// A glance, where the walk and the reader of dates cost a load many times more. Anything else
  /// (a list of exceptions, or bytes the check refuses) takes the full check.
  @inline(__always)
  static func isOneDate(_ value: UnsafeRawBufferPointer) -> Bool {
    let count = value.count
    guard count >= 2, count <= 1 + Varint.maximumSize, value[0] == intTag else { return false }
    let last = value[count - 1]
    // The last byte ends the varint and is not a zero that a shorter one would leave out; the
    // tenth byte holds the 64th bit alone.
    guard last < 0x80, count == 2 || last != 0, count < 1 + Varint.maximumSize || last == 1 else { return false }
    var index = 1
    while index < count - 1 {
      guard value[index] >= 0x80 else { return false }
      index += 1
    }
    return value[1] & 1 == 0
  }

  /// The dates field's value (a value of the grammar holding Ints only, ``DatesCheck``): an Int
  /// of 0 or more, or a list of such Ints `[base, p, d, ...]` with positions ascending among the
  /// record's fields and every `d` from 1 to `base` (docs/records.md#dates), read by the one
  /// reader of dates (``RecordDates/ValueReader``).
  private static func validateDates(_ bytes: UnsafeRawBufferPointer, _ value: Range<Int>, fieldCount: Int) throws(EncodingError) {
    var reader = RecordDates.ValueReader(bytes, value: value)
    if reader.count > 1 || bytes[value.lowerBound] == listTag {
      guard reader.count >= 3, reader.count % 2 == 1 else {
        throw EncodingError(offset: value.lowerBound, problem: "the dates field is a list of \(reader.count) Ints, not a base and pairs")
      }
    }
    guard reader.base >= 0 else { throw EncodingError(offset: value.lowerBound, problem: "the dates field holds a date before 0") }
    var last = -1
    var start = reader.offset
    while let exception = reader.next() {
      guard exception.position > last, exception.position < fieldCount, exception.before >= 1, exception.before <= reader.base else {
        throw EncodingError(
          offset: start,
          problem:
            "the dates field's exception (\(exception.position), \(exception.before)) is not a later field of the \(fieldCount) with a date from 1 to \(reader.base) seconds before its base"
        )
      }
      last = exception.position
      start = reader.offset
    }
  }

  /// The checked walk of a dates field's value: a value of the grammar, as ``ValueCheck``'s, that
  /// is an Int or a list of Ints, nothing else (so the reader of dates may trust it).
  private struct DatesCheck: RecordValueChecker {
    typealias Failure = EncodingError
    static var source: RecordValueSource { .checked }
    /// Lists begun: the value's own, and any in it.
    var lists = 0

    func notAnInt(_ token: Range<Int>) -> EncodingError {
      EncodingError(offset: token.lowerBound, problem: "the dates field holds a value other than an Int")
    }
    func null(_ token: Range<Int>) throws(EncodingError) { throw notAnInt(token) }
    func bool(_ value: Bool, _ token: Range<Int>) throws(EncodingError) { throw notAnInt(token) }
    func double(_ value: Double, _ token: Range<Int>) throws(EncodingError) { throw notAnInt(token) }
    func string(_ utf8: UnsafeRawBufferPointer, _ token: Range<Int>) throws(EncodingError) { throw notAnInt(token) }
    func reference(_ key: UnsafeRawBufferPointer, _ token: Range<Int>) throws(EncodingError) { throw notAnInt(token) }
    mutating func beginList(count: Int, _ token: Range<Int>) throws(EncodingError) {
      // The value itself may be a list; a list in it is not an Int.
      guard lists == 0 else { throw notAnInt(token) }
      lists += 1
    }
    func malformed(_ value: MalformedValue) -> EncodingError {
      EncodingError(offset: value.offset, problem: value.description)
    }
  }

  /// Bounds-checked reads over a buffer.
  private struct CheckedReader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    var isAtEnd: Bool { offset >= bytes.count }

    func error(_ problem: String, at offset: Int? = nil) -> EncodingError {
      EncodingError(offset: offset ?? self.offset, problem: problem)
    }

    /// A minimal varint of at most 64 bits.
    mutating func varint(_ what: String) throws(EncodingError) -> UInt64 {
      let start = offset
      guard let value = Varint.readChecked(bytes, &offset) else {
        throw offset >= bytes.count ? error("\(what) past the end") : error("\(what) longer than 64 bits", at: start)
      }
      guard offset - start == Varint.size(value) else { throw error("\(what) not in its shortest form", at: start) }
      return value
    }

    /// A length that fits in what is left of the buffer.
    mutating func length(_ what: String) throws(EncodingError) -> Int {
      let start = offset
      let length = try varint(what)
      guard length <= UInt64(bytes.count - offset) else {
        throw error("\(what) \(length) runs past the end (\(bytes.count - offset) bytes left)", at: start)
      }
      return Int(length)
    }
  }

  /// A value's check: the walk of invariant 7 over bytes from outside, each value in the grammar
  /// (lists nested at most 512 deep: the walk's recursion must not run out of stack on hostile
  /// input), each varint in its shortest form.
  private struct ValueCheck: RecordValueChecker {
    typealias Failure = EncodingError
    static var source: RecordValueSource { .checked }
    func malformed(_ value: MalformedValue) -> EncodingError {
      EncodingError(offset: value.offset, problem: value.description)
    }
  }
}
