@_spi(RecordBytes) import NormalizedCache

/// The compact layout's stored form of a value (docs/stores.md): ``RecordCodec``'s encoding with
/// strings and references of fewer than 32 bytes folded into their tag byte
/// (``RecordCodec/shortStringTag``, ``RecordCodec/shortReferenceTag``). Three visitors of the one
/// walk of the value grammar (``RecordValueWalk``, `RecordBytes.swift` invariant 7):
/// ``compact(_:_:into:_:)`` turns the store's own (trusted) bytes into it; ``skip(_:_:)`` and
/// ``expand(_:_:into:_:capacity:)`` read it back from a file, checked.
enum EncodedValue {
  /// How deep lists may nest in a stored value: as deep as the apollo layout's JSON reads them.
  static let maximumDepth = RecordJSON.maximumDepth

  /// Moves `offset` past the value that starts there.
  /// - Returns: false when the bytes are not a well-formed value.
  @inline(__always)
  static func skip(_ bytes: UnsafeRawBufferPointer, _ offset: inout Int) -> Bool {
    var skip = Skip()
    do {
      try RecordValueWalk.walk(bytes, &offset, &skip)
      return true
    } catch {
      return false
    }
  }

  /// Copies one ``RecordCodec`` value (the store's own bytes, trusted) into the stored form, with
  /// short strings and references folded into one tag byte; moves `offset` past it.
  ///
  /// `output` must have room for the value's own length: the stored form is never longer.
  @inline(__always)
  static func compact(
    _ value: UnsafeRawBufferPointer, _ offset: inout Int, into output: UnsafeMutableRawPointer, _ count: inout Int
  ) {
    var compact = Compact(source: value, output: output, count: count)
    RecordValueWalk.walk(value, &offset, &compact)
    count = compact.count
  }

  /// Expands one stored value (from a file, so checked) back into ``RecordCodec``'s form; moves
  /// `offset` past it.
  /// - Returns: false when the bytes are not a well-formed value, or `output` has no room.
  @inline(__always)
  static func expand(
    _ stored: UnsafeRawBufferPointer, _ offset: inout Int, into output: UnsafeMutableRawPointer, _ count: inout Int,
    capacity: Int
  ) -> Bool {
    var expand = Expand(source: stored, output: output, count: count, capacity: capacity)
    do {
      try RecordValueWalk.walk(stored, &offset, &expand)
    } catch {
      return false
    }
    guard !expand.overflowed else { return false }
    count = expand.count
    return true
  }

  /// The stored form read and left as it is.
  struct Skip: RecordValueChecker {
    typealias Failure = MalformedValue
    static var source: RecordValueSource { .stored }
    static var maximumDepth: Int { EncodedValue.maximumDepth }
    func malformed(_ value: MalformedValue) -> MalformedValue { value }
  }

  /// ``RecordCodec`` bytes copied into the stored form: every token as it is, but a short string
  /// or reference, which becomes its one-byte tag and its bytes.
  struct Compact: TokenCopier {
    typealias Failure = Never
    static var source: RecordValueSource { .trusted }
    static var readsValues: Bool { false }
    let source: UnsafeRawBufferPointer
    let output: UnsafeMutableRawPointer
    var count: Int

    @inline(__always)
    mutating func copy(_ token: Range<Int>) {
      (output + count).copyMemory(from: source.baseAddress! + token.lowerBound, byteCount: token.count)
      count += token.count
    }

    /// Short, its length in its tag; else as it is.
    @inline(__always)
    mutating func text(_ utf8: UnsafeRawBufferPointer, _ token: Range<Int>, reference: Bool) {
      guard utf8.count < RecordCodec.shortLengthLimit else { return copy(token) }
      let tag = reference ? RecordCodec.shortReferenceTag : RecordCodec.shortStringTag
      output.storeBytes(of: tag | UInt8(utf8.count), toByteOffset: count, as: UInt8.self)
      (output + count + 1).copyMemory(from: utf8.baseAddress!, byteCount: utf8.count)
      count += 1 + utf8.count
    }
  }

  /// The stored form, checked, copied back into ``RecordCodec``'s: every token as it is, but a
  /// short string or reference, which gets its tag and its length back. Out of room, it says so
  /// at the end (``overflowed``): its calls do not throw, so that a walk of it inlines them (a
  /// call that throws through the protocol went through its witness).
  struct Expand: TokenCopier {
    typealias Failure = MalformedValue
    static var source: RecordValueSource { .stored }
    static var maximumDepth: Int { EncodedValue.maximumDepth }
    let source: UnsafeRawBufferPointer
    let output: UnsafeMutableRawPointer
    var count: Int
    let capacity: Int
    /// Whether the output had no room for something: the walk went on, and what it wrote after is
    /// to be thrown away.
    var overflowed = false

    init(source: UnsafeRawBufferPointer, output: UnsafeMutableRawPointer, count: Int, capacity: Int) {
      self.source = source
      self.output = output
      self.count = count
      self.capacity = capacity
    }

    @inline(__always)
    mutating func copy(_ token: Range<Int>) {
      guard capacity - count >= token.count else {
        overflowed = true
        return
      }
      (output + count).copyMemory(from: source.baseAddress! + token.lowerBound, byteCount: token.count)
      count += token.count
    }

    /// Short (its tag, then its bytes: one more than them), with its tag and length written out;
    /// else as it is.
    @inline(__always)
    mutating func text(_ utf8: UnsafeRawBufferPointer, _ token: Range<Int>, reference: Bool) {
      guard token.count == utf8.count + 1 else { return copy(token) }
      guard capacity - count >= 2 + utf8.count else {
        overflowed = true
        return
      }
      output.storeBytes(of: reference ? RecordCodec.referenceTag : RecordCodec.stringTag, toByteOffset: count, as: UInt8.self)
      output.storeBytes(of: UInt8(utf8.count), toByteOffset: count + 1, as: UInt8.self)
      (output + count + 2).copyMemory(from: utf8.baseAddress!, byteCount: utf8.count)
      count += 2 + utf8.count
    }

    func malformed(_ value: MalformedValue) -> MalformedValue { value }
  }
}

/// A visitor that copies a value from one form to the other (``EncodedValue/Compact``,
/// ``EncodedValue/Expand``): every token as it is, but strings and references, which the two
/// forms spell apart.
protocol TokenCopier: RecordValueVisitor where Value == Void, List == Void {
  /// Copies the token's bytes as they are.
  mutating func copy(_ token: Range<Int>)
  /// A string or (`reference`) a reference, in the other form.
  mutating func text(_ utf8: UnsafeRawBufferPointer, _ token: Range<Int>, reference: Bool)
}

extension TokenCopier {
  @inline(__always) mutating func null(_ token: Range<Int>) { copy(token) }
  @inline(__always) mutating func bool(_ value: Bool, _ token: Range<Int>) { copy(token) }
  @inline(__always) mutating func int(_ value: Int, _ token: Range<Int>) { copy(token) }
  @inline(__always) mutating func double(_ value: Double, _ token: Range<Int>) { copy(token) }
  @inline(__always) mutating func string(_ utf8: UnsafeRawBufferPointer, _ token: Range<Int>) {
    text(utf8, token, reference: false)
  }
  @inline(__always) mutating func reference(_ key: UnsafeRawBufferPointer, _ token: Range<Int>) {
    text(key, token, reference: true)
  }
  @inline(__always) mutating func beginList(count: Int, _ token: Range<Int>) { copy(token) }
}
