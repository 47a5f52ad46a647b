/// The parser's scratch storage for the children of the objects and arrays being parsed: each
/// container pushes its children and, at its end, moves them into an array of exactly their count,
/// so that it allocates once instead of once per doubling, and no child is retained or released
/// on the way.
final class ScratchStack<Element> {
  private var base: UnsafeMutablePointer<Element>
  private var capacity: Int
  private(set) var count = 0

  init(capacity: Int = 64) {
    base = .allocate(capacity: capacity)
    self.capacity = capacity
  }

  deinit {
    base.deinitialize(count: count)
    base.deallocate()
  }

  @inline(__always)
  subscript(index: Int) -> Element {
    precondition(index >= 0 && index < count)
    return base[index]
  }

  /// The elements from `first` to the top, lent to `body`.
  @inline(__always)
  func withElements<Result>(from first: Int, _ body: (UnsafeBufferPointer<Element>) -> Result) -> Result {
    body(UnsafeBufferPointer(start: base + first, count: count - first))
  }

  @inline(__always)
  func push(_ element: consuming Element) {
    if count == capacity { grow() }
    (base + count).initialize(to: element)
    count += 1
  }

  private func grow() {
    let newCapacity = capacity * 2
    let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
    newBase.moveInitialize(from: base, count: count)
    base.deallocate()
    base = newBase
    capacity = newCapacity
  }

  /// The elements from `first` to the top, moved into a new array; the stack ends at `first`.
  ///
  /// Appended one by one to an array of reserved capacity: `Array(unsafeUninitializedCapacity:)`
  /// would move them at once, but it is not specialized and looks up the array's type metadata on
  /// every call, which cost more than the appends.
  @inline(__always)
  func popArray(from first: Int) -> [Element] {
    precondition(first >= 0 && first <= count)
    let taken = count - first
    guard taken > 0 else { return [] }
    var array: [Element] = []
    array.reserveCapacity(taken)
    for index in first..<count { array.append((base + index).move()) }
    count = first
    return array
  }

  /// Drops the elements from `first` to the top.
  @inline(__always)
  func removeAll(from first: Int) {
    guard first < count else { return }
    (base + first).deinitialize(count: count - first)
    count = first
  }
}

/// The short strings one parse has met, by their bytes in the input: a key or a value met again is
/// the `String` made the first time, so it is neither validated nor copied nor allocated again,
/// and it has a number, by which object keys are compared for duplicates.
///
/// Open addressing on a hash of the bytes; entries refer to their first occurrence in the input,
/// which lives as long as the parse. At most ``maximumEntries`` strings of at most
/// ``maximumLength`` bytes: others are made as usual.
struct StringTable {
  static let maximumLength = 32
  static let maximumEntries = 6_144

  /// A string the table holds, in its open-addressing slot: where its bytes first were, and its
  /// number in ``strings``; `number` -1 is an empty slot.
  private struct InternedString {
    var hash: UInt64 = 0
    var offset: Int = 0
    var length: Int32 = 0
    var number: Int32 = -1
  }

  private var slots: [InternedString] = []
  private var strings: [String] = []

  /// The string of `slice` (a part of `input`), and its number, or -1 when it is not kept.
  @inline(__always)
  mutating func string(for slice: UnsafeBufferPointer<UInt8>, in input: UnsafeBufferPointer<UInt8>) -> (String, Int32) {
    let length = slice.count
    guard length <= Self.maximumLength, let start = slice.baseAddress, let inputBase = input.baseAddress else {
      return (String(decoding: slice, as: UTF8.self), -1)
    }
    let hash = Self.hash(start, length, end: inputBase + input.count)
    if slots.isEmpty { slots = Array(repeating: InternedString(), count: 256) }
    let found: (slot: Int, number: Int32) = slots.withUnsafeBufferPointer { slots in
      let mask = slots.count - 1
      var slot = Int(truncatingIfNeeded: hash) & mask
      while true {
        let candidate = slots[slot]
        if candidate.number < 0 { return (slot, -1) }
        if candidate.hash == hash, candidate.length == Int32(length),
          Self.equal(inputBase + candidate.offset, start, length, end: inputBase + input.count)
        {
          return (slot, candidate.number)
        }
        slot = (slot + 1) & mask
      }
    }
    if found.number >= 0 { return (strings[Int(found.number)], found.number) }
    let string = String(decoding: slice, as: UTF8.self)
    guard strings.count < Self.maximumEntries else { return (string, -1) }
    let number = Int32(strings.count)
    strings.append(string)
    slots[found.slot] = InternedString(hash: hash, offset: start - inputBase, length: Int32(length), number: number)
    if strings.count * 4 > slots.count * 3 { rehash() }
    return (string, number)
  }

  /// Twice the slots, every entry placed again.
  private mutating func rehash() {
    let old = slots
    slots = Array(repeating: InternedString(), count: old.count * 2)
    let mask = slots.count - 1
    for entry in old where entry.number >= 0 {
      var slot = Int(truncatingIfNeeded: entry.hash) & mask
      while slots[slot].number >= 0 { slot = (slot + 1) & mask }
      slots[slot] = entry
    }
  }

  /// A hash of up to ``maximumLength`` bytes, eight at a time; a last partial word is read whole
  /// and masked when the input goes on that far (`end`), as it does for every string but one at
  /// the very end.
  @inline(__always)
  static func hash(_ bytes: UnsafePointer<UInt8>, _ length: Int, end: UnsafePointer<UInt8>) -> UInt64 {
    var hash = UInt64(truncatingIfNeeded: length) &* 0x9E37_79B9_7F4A_7C15
    var offset = 0
    while offset + 8 <= length {
      hash = mix(hash ^ UnsafeRawPointer(bytes + offset).loadUnaligned(as: UInt64.self))
      offset += 8
    }
    let rest = length - offset
    if rest > 0 {
      var tail: UInt64 = 0
      if bytes + offset + 8 <= end {
        tail = UnsafeRawPointer(bytes + offset).loadUnaligned(as: UInt64.self) & ((1 &<< (8 &* UInt64(rest))) &- 1)
      } else {
        for index in 0..<rest { tail |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
      }
      hash = mix(hash ^ tail)
    }
    return hash
  }
  @inline(__always)
  private static func mix(_ value: UInt64) -> UInt64 {
    let multiplied = value &* 0xFF51_AFD7_ED55_8CCD
    return multiplied ^ (multiplied >> 32)
  }

  @inline(__always)
  static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ length: Int, end: UnsafePointer<UInt8>) -> Bool {
    var offset = 0
    while offset + 8 <= length {
      if UnsafeRawPointer(a + offset).loadUnaligned(as: UInt64.self)
        != UnsafeRawPointer(b + offset).loadUnaligned(as: UInt64.self)
      {
        return false
      }
      offset += 8
    }
    let rest = length - offset
    guard rest > 0 else { return true }
    // `a` comes before `b` in the input: when a whole word from `b` fits, one from `a` does.
    if b + offset + 8 <= end {
      let mask: UInt64 = (1 &<< (8 &* UInt64(rest))) &- 1
      return
        (UnsafeRawPointer(a + offset).loadUnaligned(as: UInt64.self)
        ^ UnsafeRawPointer(b + offset).loadUnaligned(as: UInt64.self)) & mask == 0
    }
    while offset < length {
      if a[offset] != b[offset] { return false }
      offset += 1
    }
    return true
  }
}
